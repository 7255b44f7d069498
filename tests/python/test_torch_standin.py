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
