"""roofline.torch on a stand-in torch (the attributes it reads: torch.profiler's profile and
ProfilerActivity, torch.cuda.is_available, torch.autograd._profiler_enabled), so that these run
where PyTorch is not installed: which roof an operator is judged on, and what main() leaves of
the caller's sys.argv and sys.path."""
import json
import sys
import types

import pytest

import roofline
from kineto_event import Event


class _TorchProfile:
    """torch.profiler.profile: records nothing; its events are the class's `events`."""
    events = []

    def __init__(self, **kwargs):
        self.profiler = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        results = types.SimpleNamespace(events=lambda: list(_TorchProfile.events))
        self.profiler = types.SimpleNamespace(kineto_results=results)
        return False


@pytest.fixture
def rt(monkeypatch):
    """roofline.torch imported against the stand-in torch; the real modules (if any) back
    after the test."""
    torch = types.ModuleType("torch")
    profiler = types.ModuleType("torch.profiler")
    profiler.ProfilerActivity = types.SimpleNamespace(CPU="CPU", CUDA="CUDA")
    profiler.profile = _TorchProfile
    torch.profiler = profiler
    torch.cuda = types.SimpleNamespace(is_available=lambda: False)
    torch.autograd = types.SimpleNamespace(_profiler_enabled=lambda: False)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch.profiler", profiler)
    monkeypatch.delitem(sys.modules, "roofline.torch", raising=False)
    had = getattr(roofline, "torch", None)
    import roofline.torch as module
    yield module
    sys.modules.pop("roofline.torch", None)
    if had is not None:
        roofline.torch = had
        sys.modules["roofline.torch"] = had
    else:
        del roofline.torch


def _profile(rt, events):
    prof = rt.Profile()
    prof._events = events
    return prof


def _fp16(name, flops, shapes, start):
    return Event(name, start, 10, flops=flops, shapes=shapes,
                 dtypes=["c10::Half"] * len(shapes))


def test_an_fp16_elementwise_operator_is_judged_on_the_vector_roof(rt):
    # h * 2.0 in fp16 was judged on 'fp16 tensor' (312 TFLOP/s on an A100); it runs on the
    # CUDA cores, whose roof is 'fp16 vector'. The matrix products keep the tensor roof.
    n = 1 << 20
    prof = _profile(rt, [
        Event("aten::mul", 0, 10, flops=n, shapes=[[n], []], dtypes=["c10::Half", "double"]),
        _fp16("aten::add", n, [[n], [n]], 20),
        _fp16("aten::mm", 2 * 64 ** 3, [[64, 64], [64, 64]], 40),
        _fp16("aten::addmm", 2 * 64 ** 3, [[64], [64, 64], [64, 64]], 60),
        _fp16("aten::bmm", 2 * 4 * 64 ** 3, [[4, 64, 64], [4, 64, 64]], 80),
        _fp16("aten::baddbmm", 2 * 4 * 64 ** 3, [[4, 64, 64], [4, 64, 64], [4, 64, 64]], 100),
    ])
    a100 = roofline.Machine("a100-80gb")
    roofs = {op.name: d.compute_roof for op, d in prof.diagnose(a100, by_type=False)}
    assert roofs["aten::mul"] == roofs["aten::add"] == "fp16 vector"
    for name in ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"):
        assert roofs[name] == "fp16 tensor", name
    by_type = {op.name: d.compute_roof for op, d in prof.diagnose(a100)}
    assert by_type["aten::mul"] == "fp16 vector" and by_type["aten::mm"] == "fp16 tensor"
    # fp64 likewise: an A100's fp64 tensor roof is twice its vector roof.
    d = _profile(rt, [Event("aten::mul", 0, 10, flops=100, shapes=[[100], [100]],
                            dtypes=["double", "double"])]).diagnose(a100, by_type=False)
    assert d[0][1].compute_roof == "fp64 vector"


def test_an_elementwise_operator_without_a_vector_roof_is_judged_as_roofline_kernel_judges(rt):
    # MI300X's fp16 roofs are all on its matrix cores: an elementwise operator is judged there
    # with a note that the bound is optimistic, as `roofline kernel` and roofline.kernel()
    # points are (Point.vector_only, one rule); it was left unjudged here alone.
    prof = _profile(rt, [_fp16("aten::mul", 100, [[100], [100]], 0),
                         _fp16("aten::mm", 2 * 64 ** 3, [[64, 64], [64, 64]], 20)])
    mi300x = roofline.Machine("mi300x")
    pairs = prof.diagnose(mi300x, by_type=False)
    mul, mm = pairs[0][1], pairs[1][1]
    assert mul.compute_roof == mm.compute_roof == "fp16 matrix"
    assert any("is no matrix product" in n and "the bound is optimistic" in n
               for n in mul.notes), mul.notes
    assert not any("is no matrix product" in n for n in mm.notes), mm.notes
    kernel = roofline.kernel("add-double-loop", dtype="fp16", n=100).point(1e-6)
    assert roofline.diagnose(kernel, mi300x).compute_roof == "fp16 matrix"
    assert "no fp16 vector roof" not in prof.table(mi300x, by_type=False)
    # Roofs given as two numbers stand for every precision: both are judged.
    given = roofline.Machine.from_roofs(1e12, 1e11)
    assert all(d is not None for _, d in prof.diagnose(given, by_type=False))
    # An int64 product: no machine has an int64 roof of any unit; the table names the dtype.
    ints = _profile(rt, [Event("aten::mul", 0, 10, flops=100, shapes=[[100], [100]],
                               dtypes=["long int", "long int"])])
    assert "no int64 roof" in ints.table(roofline.Machine("a100-80gb"))


def test_main_gives_the_caller_its_argv_and_path_back(rt, tmp_path, capsys):
    # main() left sys.argv and sys.path[0] as the script's.
    seen = tmp_path / "seen.json"
    script = tmp_path / "step.py"
    script.write_text("import json, sys\n"
                      "json.dump([sys.argv, sys.path[0]], open(%r, 'w'))\n" % str(seen))
    argv, path = list(sys.argv), list(sys.path)
    assert rt.main([str(script), "a", "b"]) == 0
    assert json.loads(seen.read_text()) == [[str(script), "a", "b"], str(tmp_path)]
    assert sys.argv == argv and sys.path == path
    for body, status in (("raise SystemExit(3)\n", 3), ("raise ValueError('x')\n", 1),
                         ("raise KeyboardInterrupt\n", 130)):
        script.write_text(body)
        assert rt.main([str(script)]) == status
        assert sys.argv == argv and sys.path == path, body
    capsys.readouterr()


def test_main_gives_them_back_when_the_profile_itself_fails(rt, tmp_path, monkeypatch):
    script = tmp_path / "step.py"
    script.write_text("pass\n")

    def broken(self, *exc):
        raise RuntimeError("the profiler failed")

    monkeypatch.setattr(_TorchProfile, "__exit__", broken)
    argv, path = list(sys.argv), list(sys.path)
    with pytest.raises(RuntimeError, match="the profiler failed"):
        rt.main([str(script), "x"])
    assert sys.argv == argv and sys.path == path


def test_flop_counts_that_are_no_number_are_left_out_with_one_warning(rt):
    # A NaN or negative count was dropped unsaid, an inf one failed the whole table(); a shape
    # past a float raised a bare OverflowError.
    import warnings
    mm = dict(shapes=[[64, 64], [64, 64]], dtypes=["float", "float"])
    events = [Event("aten::mm", 0, 10, flops=float("nan"), **mm),
              Event("aten::mm", 20, 10, flops=-5, **mm),
              Event("aten::mm", 40, 10, flops=float("inf"), **mm),
              Event("aten::mm", 60, 10, flops=2 * 64 ** 3, **mm)]
    prof = _profile(rt, events)
    with pytest.warns(UserWarning) as caught:
        table = prof.table(roofline.Machine("a100-80gb"), by_type=False)
        ops = prof.operators()
    assert [str(w.message) for w in caught] == [
        "roofline.torch: 3 profiler events left out: a FLOP count that is not a finite "
        "number >= 0"]
    assert [op.work_flop for op in ops] == [2 * 64 ** 3]
    assert "inf" not in table and "nan" not in table
    huge = _profile(rt, [Event("aten::mm", 0, 10, flops=1e9,
                               shapes=[[10 ** 200, 2], [2, 10 ** 200]],
                               dtypes=["float", "float"])])
    with pytest.warns(UserWarning, match="aten::mm left out: its tensors' sizes are beyond a "
                                         "float"):
        assert huge.operators() == []


def test_the_script_is_never_the_chart_and_options_are_given_once(rt, tmp_path, capsys,
                                                                  monkeypatch):
    # The script given as the chart was run, then replaced by the SVG.
    script = tmp_path / "job.svg"
    script.write_text("raise SystemExit(7)\n")
    before = script.read_text()
    assert rt.main(["--hw", "a100-80gb", "--chart", str(script), str(script)]) == 2
    assert capsys.readouterr().err == (
        "roofline: error: %s: is the script to run: the chart would replace it\n"
        % ascii(str(script)))
    assert script.read_text() == before
    # A machine document given by --hw is kept as one given by --machine is.
    machine = tmp_path / "m.json"
    roofline.Machine.from_roofs(1e12, 1e11).save(str(machine))
    ok = tmp_path / "ok.py"
    ok.write_text("pass\n")
    assert rt.main(["--hw", str(machine), "--chart", str(machine), str(ok)]) == 2
    assert capsys.readouterr().err == (
        "roofline: error: %s: is the machine document (--hw): the chart would replace it\n"
        % ascii(str(machine)))
    # An option given twice is refused, as the CLI refuses it, not read as the last.
    for args, flag in ((["--hw", "a100-80gb", "--hw", "h100-sxm"], "--hw"),
                       (["--machine", str(machine), "--machine", str(machine)], "--machine"),
                       (["--hw", "a100-80gb", "--chart", "a.svg", "--chart", "b.svg"],
                        "--chart")):
        assert rt.main(args + [str(ok)]) == 2, args
        assert capsys.readouterr().err == (
            "roofline: error: %s: given 2 times; give it once\n" % flag)
    monkeypatch.chdir(tmp_path)
    assert rt.main(["--hw", "a100-80gb", "--chart", "out.svg", str(ok)]) == 0
    assert (tmp_path / "out.svg").read_text().startswith("<")
    capsys.readouterr()
    # A command line is a list of words, not one str.
    with pytest.raises(TypeError) as e:
        rt.main("--hw a100-80gb " + str(ok))
    assert str(e.value) == "main: argv must be a list of strings (got str)"


def test_a_python_number_operand_is_no_traffic(rt):
    # h * 2.0 on an fp16 [32, 32]: the tensor read (2048 bytes) and the result written (2048);
    # the number was counted as 8 bytes more.
    n = 32 * 32
    prof = _profile(rt, [Event("aten::mul", 0, 10, flops=n, shapes=[[32, 32], []],
                               dtypes=["c10::Half", "double"])])
    assert prof.operators()[0].traffic_byte == 4096
    # A 0-dim tensor of another dtype is read: 2 bytes.
    zero = _profile(rt, [Event("aten::mul", 0, 10, flops=n, shapes=[[32, 32], []],
                               dtypes=["c10::Half", "c10::Half"])])
    assert zero.operators()[0].traffic_byte == 4098
    # Where every operand is [], the first is a 0-dim tensor: 8 bytes read and, float64 by
    # torch's promotion, 8 written.
    scalars = _profile(rt, [Event("aten::mul", 0, 10, flops=1, shapes=[[], []],
                                  dtypes=["double", "double"])])
    assert scalars.operators()[0].traffic_byte == 8 + 8


def test_the_table_says_the_optimistic_bound_diagnose_notes(rt):
    prof = _profile(rt, [_fp16("aten::mul", 100, [[100], [100]], 0)])
    mi300x = roofline.Machine("mi300x")
    (_, d), = prof.diagnose(mi300x)
    notes = [n for n in d.notes if "the bound is optimistic" in n]
    assert len(notes) == 1
    table = prof.table(mi300x)
    assert table.splitlines().count(notes[0]) == 1
    # An A100 has an fp16 vector roof: no such note.
    assert "optimistic" not in prof.table(roofline.Machine("a100-80gb"))


def test_an_operator_checks_its_numbers_as_every_class_does(rt):
    for kwargs, error, message in (
            (dict(work_flop="1e9"), TypeError, "Operator: work_flop must be a number (got str)"),
            (dict(traffic_byte=True), TypeError,
             "Operator: traffic_byte must be a number (got bool)"),
            (dict(time_s=float("nan")), roofline.InputError,
             "Operator: time_s: must be >= 0 and finite (got nan)"),
            (dict(work_flop=-1), roofline.InputError,
             "Operator: work_flop: must be >= 0 and finite (got -1)"),
            (dict(calls=0), roofline.InputError,
             "Operator: calls: must be a whole number >= 1 (got 0)"),
            (dict(calls=1.0), TypeError, "Operator: calls must be an int (got float)"),
            (dict(name=""), roofline.InputError,
             "Operator: name: empty (an operator needs a name)"),
            (dict(precision=None), TypeError, "Operator: precision must be a str (got NoneType)")):
        args = dict(name="x", work_flop=1e9, traffic_byte=1e8, time_s=1e-3, precision="fp32")
        args.update(kwargs)
        with pytest.raises(error) as e:
            rt.Operator(**args)
        assert str(e.value) == message, kwargs
    with pytest.raises(roofline.InputError) as e:
        rt.Operator("x", 10 ** 400, 1, 1, "fp32")
    assert "work_flop" in str(e.value) and "out of range" in str(e.value)
    op = rt.Operator("x", 1e9, 1e8, 1e-3, "fp32", calls=2)
    assert (op.work_flop, op.traffic_byte, op.time_s, op.calls) == (1e9, 1e8, 1e-3, 2)
    assert op.point().name == "x" and op.point("y").name == "y"
    with pytest.raises(roofline.InputError) as e:
        op.point(name="")
    assert str(e.value) == "a point has an empty name"
