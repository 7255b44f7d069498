"""The Python bindings against the CLI: for the same inputs, the same numbers (both are one
library, so any difference is the binding's) and the seed's known answers (SAXPY I = 1/6,
GEMM I = N/6 in fp32, LLM decode I ≈ batch)."""
import math
import os
import pathlib
import xml.etree.ElementTree as ET

import pytest

import roofline


ROOT = pathlib.Path(__file__).resolve().parents[2]
HW_DIR = ROOT / "data" / "hardware"
LLAMA_CONFIG = ROOT / "tests" / "data" / "llm" / "llama-2-7b.config.json"


def one(j):
    """The CLI prints one analysis as an object and several as an array."""
    if isinstance(j, list):
        assert len(j) == 1
        return j[0]
    return j


def test_package_imports_from_the_build_tree():
    assert roofline.__version__
    assert roofline.Machine.__doc__ and roofline.diagnose.__doc__ and roofline.kernel.__doc__
    assert issubclass(roofline.InputError, roofline.Error)
    assert issubclass(roofline.InputError, ValueError)


def test_importing_the_package_does_not_load_openblas():
    # OpenBLAS is opened by a run of a BLAS kernel, not linked into the module: linked, it
    # started its thread pool in every process that imports roofline (beside numpy's own).
    import subprocess
    import sys
    code = "import roofline; roofline.Machine('a100-80gb'); print(open('/proc/self/maps').read())"
    maps = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout
    assert "_roofline" in maps
    assert "openblas" not in maps


def test_saxpy_intensity_is_one_sixth_as_the_cli_says(cli_json):
    k = roofline.kernel("saxpy", n=1e8)
    c = cli_json("kernel", "saxpy", "--n", "1e8")
    assert k.dtype == "fp32" == c["dtype"]
    assert k.work_flop == c["work"] == 2e8  # W = 2·n
    assert k.traffic_byte == c["traffic"] == 12e8  # Q = 3·n·4 B
    assert k.intensity_flop_per_byte == pytest.approx(1 / 6, rel=1e-15)
    assert k.intensity_flop_per_byte == c["intensity"]
    assert k.to_dict() == c  # params included, as the CLI's


@pytest.mark.parametrize("n", [64, 1024, 8192])
def test_gemm_intensity_is_n_over_six_as_the_cli_says(cli_json, n):
    k = roofline.kernel("gemm", m=n, n=n, k=n)
    c = cli_json("kernel", "gemm", "--m", n, "--n", n, "--k", n)
    assert k.work_flop == c["work"] == 2 * n ** 3
    assert k.traffic_byte == c["traffic"] == 3 * n * n * 4
    assert k.intensity_flop_per_byte == pytest.approx(n / 6, rel=1e-14)
    assert k.intensity_flop_per_byte == c["intensity"]


def test_daxpy_takes_fp64_from_the_alias(cli_json):
    k = roofline.kernel("daxpy", n=1000)
    assert k.dtype == "fp64" == cli_json("kernel", "daxpy", "--n", "1000")["dtype"]
    assert k.intensity_flop_per_byte == pytest.approx(1 / 12, rel=1e-15)


def test_point_diagnosis_equals_the_cli(cli_json):
    machine = roofline.Machine.from_roofs(19.5e12, 2e12)
    p = roofline.Point("point", 2e9, 12e9, 0.0065, source="command line")
    d = roofline.diagnose(p, machine)
    c = one(cli_json("point", "--work", "2e9", "--traffic", "12e9", "--time", "0.0065",
                     "--peak", "19.5T", "--bandwidth", "2 TB/s"))
    assert d.to_dict() == c
    assert d.verdict == "memory-bound"
    assert d.attainable_flop_per_s == pytest.approx(2e12 / 6, rel=1e-15)  # β·I
    assert d.attainment == pytest.approx((2e9 / 0.0065) / (2e12 / 6), rel=1e-15)
    assert d.touching
    assert d.prescription == c["diagnosis"]["prescription"]
    assert d.prescription.startswith("Reduce Q")
    assert machine.ridge_flop_per_byte() == 9.75  # π/β
    assert "DRAM" in str(d)


def test_a_point_says_what_its_work_counts(cli_json):
    # A Point could not say its W counts OP: 2e12 OP was judged as FLOP on a100-80gb's default
    # fp32 vector roof. Given as OP it is judged as `point -W "2 TOP"` judges it.
    machine = roofline.Machine.from_catalogue("a100-80gb")
    p = roofline.Point("point", 2e12, 10e9, 0.008, source="command line", work_unit="op")
    assert p.work_unit == "OP"
    d = roofline.diagnose(p, machine)
    c = one(cli_json("point", "-W", "2 TOP", "-Q", "10e9", "-T", "8ms", "--hw", "a100-80gb"))
    assert d.to_dict() == c
    assert d.compute_roof == "int8 tensor"
    assert p.to_dict()["work_unit"] == "OP"
    assert roofline.Point("f", 1, 1, 1, precision="int8").work_unit == "OP"
    assert roofline.Point("f", 1, 1, 1, precision="fp16").work_unit == "FLOP"
    assert roofline.Point("f", 1, 1, 1).work_unit == ""
    with pytest.raises(roofline.InputError, match="work_unit: 'MAC': expected 'FLOP', 'OP'"):
        roofline.Point("f", 1, 1, 1, work_unit="MAC")


def test_diagnosis_thresholds_are_checked():
    # above=0 called a point at 0.03% of its roof impossible; nan and factors <= 1 were taken.
    machine = roofline.Machine.from_roofs(19.5e12, 2e12)
    p = roofline.Point("a", 1e9, 1e9, 1.0)
    for kw, message in (({"above": 0}, "above-roof threshold must be a finite number >= 1"),
                        ({"above": math.nan}, "above-roof threshold"),
                        ({"higher_roof_factor": -1}, "higher-roof factor must be a finite number > 1"),
                        ({"higher_roof_factor": math.nan}, "higher-roof factor"),
                        ({"touching": 0}, "touching threshold"),
                        ({"touching": 0.005}, "touching threshold must be from 0.01 to 1")):
        with pytest.raises(roofline.InputError, match=message):
            roofline.diagnose(p, machine, **kw)
    assert roofline.diagnose(p, machine).verdict == "far-below"


def test_a_point_short_of_a_higher_touching_threshold_is_just_below():
    # 85% of the flat roof: touching at 0.8; at 0.9 just below it, as its title says (the
    # verdict was "far-below" beside a title that said "just below").
    machine = roofline.Machine.from_roofs(20e12, 1e12)
    p = roofline.Point("k", 1.7e12, 1e9, 0.1)
    assert roofline.diagnose(p, machine).verdict == "compute-bound"
    d = roofline.diagnose(p, machine, touching=0.9)
    assert d.verdict == "just-below"
    assert d.title.startswith("just below the flat 'peak' roof (85% of attainable")
    assert d.to_dict()["diagnosis"]["verdict"] == "just-below"
    assert repr(d).startswith("<Diagnosis just-below: just below the flat")
    # Below 80% it stays far below.
    assert roofline.diagnose(roofline.Point("k", 1.5e12, 1e9, 0.1), machine,
                             touching=0.9).verdict == "far-below"


def test_hierarchical_point_is_judged_per_level(cli_json):
    m = roofline.Machine("a100-80gb")
    levels = [r.level for r in m.memory_roofs]
    assert len(levels) >= 2
    traffic = {levels[0]: 4e9, levels[-1]: 1e9}
    p = roofline.Point("h", 1e12, traffic, 0.01, precision="fp16")
    d = roofline.diagnose(p, m)
    assert sorted(j.level for j in d.levels) == sorted(traffic)
    args = ["point", "--hw", "a100-80gb", "--work", "1e12", "--time", "0.01",
            "--precision", "fp16"]
    for level, q in traffic.items():
        args += ["--traffic-at", "%s=%r" % (level, q)]
    c = one(cli_json(*args))
    assert d.to_dict()["diagnosis"] == c["diagnosis"]


def test_catalogue_machine_roofs_and_provenance(cli_json):
    m = roofline.Machine("a100-80gb")
    assert m.name == "a100-80gb"
    doc = cli_json("hw", "show", "a100-80gb")["machine"]
    assert [r.name for r in m.compute_roofs] == [r["name"] for r in doc["compute"]]
    for r, c in zip(m.compute_roofs, doc["compute"]):
        assert r.peak_flop_per_s == c["peak"]
        assert r.provenance == c["provenance"] == "datasheet"
        assert r.source == c["source"] and r.source
    for r, c in zip(m.memory_roofs, doc["memory"]):
        assert r.level == c["level"]
        assert r.bandwidth_byte_per_s == c["bandwidth"]
    assert m.compute_roof("fp32").peak_flop_per_s == 19.5e12  # NVIDIA A100 datasheet
    names = [e.name for e in roofline.catalogue()]
    assert "a100-80gb" in names and "h100-sxm" in names


def test_ridges_match_hw_ridges(cli_json):
    m = roofline.Machine("h100-sxm")
    ours = {r.compute_roof: r.ridge_flop_per_byte for r in m.ridges()}
    assert ours
    for r in m.ridges():
        assert r.ridge_flop_per_byte == pytest.approx(
            r.peak_flop_per_s / r.bandwidth_byte_per_s, rel=1e-15)


def test_compare_equals_hw_compare(cli_json):
    a, h = roofline.Machine("a100-80gb"), roofline.Machine("h100-sxm")
    c = roofline.compare([a, h], 10)
    cli = one(cli_json("hw", "compare", "a100-80gb", "h100-sxm", "--at", "10"))
    # The whole object, the precision and level asked for included.
    assert c.to_dict() == cli
    f = roofline.compare([a, h], 10, precision="fp16", level="")
    assert f.to_dict() == one(cli_json("hw", "compare", "a100-80gb", "h100-sxm", "--at", "10",
                                       "--precision", "fp16"))
    assert f.to_dict()["precision"] == "fp16"
    assert c.ratios[0] == 1
    assert c.ratios[1] == pytest.approx(
        c.machines[1].attainable_flop_per_s / c.machines[0].attainable_flop_per_s, rel=1e-15)
    assert c.note == ""


def test_compare_of_other_work_says_so_as_hw_compare_does(cli_json, tmp_path):
    # A roof given as two numbers counts FLOP; int8 on the A100 counts OP: the ratio holds only
    # where the operations map one to one, and the comparison says so, as the CLI does.
    given = roofline.Machine.from_roofs(1e12, 1e11, name="given")
    path = tmp_path / "given.json"
    given.save(str(path))
    c = roofline.compare([given, roofline.Machine("a100-80gb")], 10, precision="int8")
    cli = one(cli_json("hw", "compare", str(path), "a100-80gb", "--at", "10", "--precision",
                       "int8"))
    assert c.to_dict() == cli
    assert c.note == cli["note"]
    assert "OP/s" in c.note and "one to one" in c.note


def test_llm_decode_step_equals_the_cli(cli_json):
    model = roofline.llm.model("llama-2-7b")
    r = roofline.llm.analyse(model, roofline.Machine("a100-80gb"), batch=1, context=2048)
    c = cli_json("llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch", "1",
                 "--context", "2048")
    assert r.to_dict() == c
    assert r.time_per_token_s == c["time_per_output_token"]
    assert r.ttft_s == c["ttft"]
    assert r.tokens_per_s == pytest.approx(1 / r.time_per_token_s, rel=1e-15)  # B / step
    # The model (docs/model.md §5): fp16 decode is a GEMV, I ≈ batch = 1.
    assert r.decode_linear.intensity_flop_per_byte == pytest.approx(1, rel=1e-3)
    assert r.decode_linear.work_flop == c["summary"]["decode_linear"]["work"]
    batch8 = roofline.llm.analyse(model, roofline.Machine("a100-80gb"), batch=8, context=2048)
    assert batch8.decode_linear.intensity_flop_per_byte == pytest.approx(8, rel=1e-2)
    assert all(isinstance(p, roofline.Point) for p in r.points())


def test_llm_weights_default_to_the_machines_native_16bit_type_as_the_cli(cli_json):
    # TPU v5e publishes bf16 roofs only: the CLI takes bf16 without --wdtype, and so must we.
    model = roofline.llm.model("llama-2-7b")
    r = roofline.llm.analyse(model, roofline.Machine("tpu-v5e"), batch=1, context=2048)
    c = cli_json("llm", "--model", "llama-2-7b", "--hw", "tpu-v5e", "--batch", "1",
                 "--context", "2048")
    assert r.to_dict() == c
    bf16 = roofline.llm.analyse(model, roofline.Machine("tpu-v5e"), batch=1, context=2048,
                                weights="bf16")
    assert bf16.to_dict() == c


def test_errors_carry_the_cli_message(cli, tmp_path):
    missing = tmp_path / "missing.json"
    r = cli("point", "--machine", missing, "--work", "1", "--traffic", "1", "--time", "1")
    assert r.returncode == 2
    with pytest.raises(roofline.InputError) as e:
        roofline.Machine(str(missing))
    assert r.stderr == "roofline: error: %s\n" % e.value

    r = cli("kernel", "nope", "--n", "1")
    with pytest.raises(roofline.InputError) as e:
        roofline.kernel("nope", n=1)
    assert r.stderr == "roofline: error: %s\n" % e.value
    assert "unknown kernel 'nope'" in str(e.value)

    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "roofline.machine", "version": 1, "roofs": ')
    r = cli("point", "--machine", bad, "--work", "1", "--traffic", "1", "--time", "1")
    with pytest.raises(roofline.InputError) as e:
        roofline.Machine.load(str(bad))
    assert r.returncode == 2
    assert r.stderr == "roofline: error: %s\n" % e.value


def test_a_points_levels_keep_the_order_given(cli_json):
    # The first level given is the one I is quoted at, as with --traffic-at on the command line
    # (a dict went through a sorted map: DRAM before L1 before L2).
    p = roofline.Point("p", 1e9, {"L2": 4e8, "DRAM": 1e9, "L1": 2e8}, 1e-2)
    assert [level for level, _ in p.traffic_by_level] == ["L2", "DRAM", "L1"]
    assert p.intensity_flop_per_byte == 2.5
    m = roofline.Machine("a100-80gb")
    levels = sorted(r.level for r in m.memory_roofs)[::-1]  # the reverse of a sorted map's
    traffic = {level: 1e9 * (i + 1) for i, level in enumerate(levels)}
    d = roofline.diagnose(roofline.Point("h", 1e12, traffic, 0.01, precision="fp16"), m)
    args = ["point", "--hw", "a100-80gb", "--work", "1e12", "--time", "0.01",
            "--precision", "fp16"]
    for level, q in traffic.items():
        args += ["--traffic-at", "%s=%r" % (level, q)]
    c = one(cli_json(*args))
    assert [j.level for j in d.levels] == levels
    assert d.to_dict()["diagnosis"] == c["diagnosis"]
    assert d.to_dict()["intensity"] == c["intensity"]
    with pytest.raises(roofline.InputError, match=r"traffic\[L1\] must be a number"):
        roofline.Point("p", 1e9, {"L1": "2e8"}, 1e-2)
    with pytest.raises(roofline.InputError, match="traffic: a level is named by a string"):
        roofline.Point("p", 1e9, {1: 2e8}, 1e-2)


def test_bad_numbers_are_refused_with_the_field_named():
    with pytest.raises(roofline.InputError, match="time"):
        roofline.Point("p", 1e9, 1e9, -1)
    with pytest.raises(roofline.InputError, match="work"):
        roofline.Point("p", math.nan, 1e9, 1)
    with pytest.raises(roofline.InputError, match="peak"):
        roofline.Machine.from_roofs(math.inf, 1e9)
    # A tiny value is shown as it is (std::to_string printed -0.000000).
    with pytest.raises(roofline.InputError, match=r"got -1e-09\)"):
        roofline.Machine.from_roofs(-1e-9, 1e9)
    # A size that is no number, an int beyond C++'s: InputError naming it (pybind's own
    # "Unable to cast" and "expected an int (got int)" said neither).
    with pytest.raises(roofline.InputError, match="size m must be a number \\(got str\\)"):
        roofline.kernel("gemm", m="1", n=2, k=2)
    with pytest.raises(roofline.InputError, match="size n is out of range \\(an integer of 401"):
        roofline.kernel("saxpy", n=10**400)
    # Any real number a size can be (numpy's, Fraction, Decimal); a bool is not one (True = 1).
    import decimal
    import fractions
    want = roofline.kernel("saxpy", n=1000).work_flop
    for n in (fractions.Fraction(1000), decimal.Decimal(1000)):
        assert roofline.kernel("saxpy", n=n).work_flop == want
    try:
        import numpy
        assert roofline.kernel("saxpy", n=numpy.int64(1000)).work_flop == want
        assert roofline.kernel("saxpy", n=numpy.float32(1000)).work_flop == want
    except ImportError:
        pass
    for bad in (True, 1j):
        with pytest.raises(roofline.InputError, match="size n must be a number"):
            roofline.kernel("saxpy", n=bad)
    model = roofline.llm.model("llama-2-7b")
    with pytest.raises(roofline.InputError, match="tp: 1099511627776 is out of range"):
        model.parameters(tp=2**40)
    with pytest.raises(roofline.InputError, match="tp: 1099511627776 is out of range"):
        roofline.llm.analyse(model, roofline.Machine("a100-80gb"), tp=2**40)
    # A name is what a chart, a table and diff show: never empty.
    with pytest.raises(roofline.InputError, match="empty name"):
        roofline.Point("", 1e9, 1e9, 1)
    with pytest.raises(roofline.InputError, match="name: must not be empty"):
        roofline.Machine.from_roofs(1e12, 1e9, name="")
    # "" was DRAM, silently.
    with pytest.raises(roofline.InputError, match="level: must not be empty"):
        roofline.Machine.from_roofs(1e12, 1e9, level="")
    with pytest.raises(roofline.InputError, match="batch"):
        roofline.llm.analyse(roofline.llm.model("llama-2-7b"), roofline.Machine("a100-80gb"),
                             batch=0)
    with pytest.raises(roofline.InputError, match="gemm: k is required"):
        roofline.kernel("gemm", m=1, n=1)


def test_a_bool_is_no_float_argument():
    # pybind's own float took True as 1.0: a Point of W = 1 FLOP, a batch of 1.
    import fractions
    machine = roofline.Machine.from_roofs(1e12, 1e11)
    point = roofline.Point("p", 1e9, 1e8, 1e-3)
    calls = [
        lambda b: roofline.Point("p", b, 1e8, 1e-3),
        lambda b: roofline.Point("p", 1e9, b, 1e-3),
        lambda b: roofline.Point("p", 1e9, 1e8, b),
        lambda b: roofline.Machine.from_roofs(b, 1e11),
        lambda b: machine.attainable_flop_per_s(b),
        lambda b: roofline.compare([machine, roofline.Machine.from_roofs(2e12, 1e11)], b),
        lambda b: roofline.diagnose(point, machine, touching=b),
        lambda b: roofline.llm.analyse(roofline.llm.model("llama-2-7b"), machine, batch=b),
    ]
    for call in calls:
        # The llm functions name the parameter ("batch: expected a number (got bool)").
        with pytest.raises(TypeError, match="incompatible|expected a number (\\(bytes\\) or a "
                                            "mapping {level: bytes} )?\\(got bool\\)"):
            call(True)
        call(fractions.Fraction(1, 2) if call is calls[6] else 1)  # an int or a Fraction is one


def test_kernel_dict_equals_the_cli(cli_json):
    # The same document as `roofline kernel --json`: counts, data type and every parameter,
    # the defaulted ones included (gemm's cache 0: none given).
    for name, sizes, flags in (("dgemm", dict(m=64, n=32, k=16), ("--m", "64", "--n", "32",
                                                                  "--k", "16")),
                               ("spmv", dict(rows=100, nnz=500), ("--rows", "100",
                                                                  "--nnz", "500"))):
        c = cli_json("kernel", name, *flags)
        k = roofline.kernel(name, **sizes).to_dict()
        assert k == c
        for p, v in sizes.items():
            assert k["params"][p] == v
    # An optional size without a default is absent unless given; one with a default is filled.
    assert "cache" not in roofline.kernel("dgemm", m=64, n=32, k=16).to_dict()["params"]
    assert roofline.kernel("spmv", rows=100, nnz=500).to_dict()["params"]["index"] == 4
    spmv = next(k for k in roofline.kernels() if k["name"] == "spmv")
    assert spmv["optional"] == ["cols", "index"] and spmv["defaults"] == {"index": 4}
    with pytest.raises(roofline.InputError, match="cache must be a whole number"):
        roofline.kernel("gemm", m=8, n=8, k=8, cache=0)


def test_new_alone_is_refused_for_every_class():
    # Cls.__new__(Cls) without __init__ would hand the C++ methods uninitialised memory
    # (garbage numbers, a crash): every class of the module refuses it, a subclass too, and
    # construction by a call still works.
    import roofline.llm
    classes = [c for mod in (roofline, roofline.llm) for c in vars(mod).values()
               if isinstance(c, type) and c.__module__.startswith("roofline._roofline")
               and not issubclass(c, BaseException)]
    assert len(classes) >= 20
    for c in classes:
        # A class with no constructor says where its objects come from (test_arguments.py).
        with pytest.raises(TypeError, match=r"__new__ alone makes no object|has no constructor"):
            c.__new__(c)

    class Sub(roofline.Point):
        pass
    with pytest.raises(TypeError, match=r"Sub.__new__ alone makes no object: call Sub"):
        Sub.__new__(Sub)
    assert Sub("p", 2e9, 1e9, 1e-3).intensity_flop_per_byte == 2
    # Another class is never made through a class's __new__ (as object.__new__ checks).
    for other in (int, roofline.Machine):
        with pytest.raises(TypeError, match=r"cls must be roofline._roofline.Point or a subclass"):
            roofline.Point.__new__(other)


def test_a_path_with_a_nul_byte_is_refused_not_cut_short(tmp_path, monkeypatch):
    # The system would stop at the NUL: machine.json would be read for "machine.json\0x", and
    # PNG bytes written to c.svg for "c.svg\0.png".
    import shutil
    import roofline.llm
    monkeypatch.chdir(tmp_path)
    shutil.copy(HW_DIR / "a100-80gb.json", "machine.json")
    a100 = roofline.Machine("a100-80gb")
    for call in (lambda: roofline.Machine("machine.json\0x"),
                 lambda: roofline.Machine.load("machine.json\0"),
                 lambda: a100.save("out\0.json"),
                 lambda: roofline.Chart(a100).save("c.svg\0.png"),
                 lambda: roofline.catalogue(str(tmp_path) + "\0x"),
                 lambda: roofline.llm.model(str(LLAMA_CONFIG) + "\0junk")):
        with pytest.raises(roofline.InputError, match=r"a file name with a NUL byte"):
            call()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["machine.json"]


def test_a_machine_takes_a_pathlib_path_as_a_str(tmp_path):
    path = HW_DIR / "a100-80gb.json"
    a = roofline.Machine(path)
    assert a.name == roofline.Machine(str(path)).name == roofline.Machine.load(path).name
    a.save(tmp_path / "m.json")
    assert roofline.Machine.load(str(tmp_path / "m.json")).name == a.name
    with pytest.raises(roofline.InputError, match="no such file"):
        roofline.Machine(tmp_path / "none.json")


def test_escapes_control_characters_in_messages(tmp_path):
    name = tmp_path / "evil\x1b[31m.json"
    with pytest.raises(roofline.InputError) as e:
        roofline.Machine.load(str(name))
    assert "\x1b" not in str(e.value)
    assert "\\u001b" in str(e.value)


def test_terminal_chart_escapes_a_names_colour_sequences():
    # Tables let the renderers' colour through; a name's own ESC [31m must not reach a terminal.
    p = roofline.Point("p\x1b[31mx", 1e9, 1e9, 1e-3)
    text = roofline.Chart(roofline.Machine("a100-80gb"), [p]).to_terminal()
    assert "\x1b" not in text
    assert "p\\u001b[31mx" in text


def test_chart_svg_and_html_as_plot_writes_them(cli, tmp_path):
    m = roofline.Machine("a100-80gb")
    p = roofline.kernel("saxpy", n=1e8).point(time_s=1e-3)
    chart = roofline.Chart(m, [p], title="saxpy on a100")
    svg = chart.to_svg()
    ET.fromstring(svg)  # well-formed XML
    assert chart._repr_svg_() == svg
    assert "saxpy" in svg
    assert m._repr_svg_().startswith("<?xml") or m._repr_svg_().startswith("<svg")
    html = chart.to_html()
    assert html.lstrip().lower().startswith("<!doctype html")
    for columns in (0, -1, 1, 39, 1001):
        with pytest.raises(roofline.InputError, match="columns"):
            chart.to_terminal(columns)
    with pytest.raises(TypeError, match="columns"):
        chart.to_terminal(2.5)  # not an int: the TypeError of every int parameter
    try:
        import numpy
    except ImportError:
        numpy = None
    if numpy is not None:  # an integer of numpy's is a whole number too
        assert chart.to_terminal(numpy.int64(80)) == chart.to_terminal(80)
    # The same SVG and HTML as `roofline plot` of the same machine document.
    doc = tmp_path / "m.json"
    m.save(str(doc))
    with pytest.raises(roofline.InputError, match="an empty file name"):
        m.save("")
    for ext, ours in (("svg", roofline.Machine.load(str(doc)).to_svg()),
                      ("html", roofline.Machine.load(str(doc)).to_html())):
        out = tmp_path / ("m." + ext)
        r = cli("plot", doc, "-o", out)
        assert r.returncode == 0, r.stderr
        assert ours == out.read_text()
    # A chart is not saved over the document of its own machine (the CLI's `plot m.json -o
    # m.json` refuses): the machine stays loadable.
    loaded = roofline.Machine.load(str(doc))
    before = doc.read_text()
    with pytest.raises(roofline.InputError, match="is the document of machine"):
        roofline.Chart(loaded).save(str(doc))
    assert doc.read_text() == before
    roofline.Chart(loaded).save(str(tmp_path / "chart.json"))


def test_measure_gives_the_roofs_the_cli_measures(cli, tmp_path):
    # One precision and one level, quick: the same roofs (names, levels, provenance, the
    # theoretical peak beside each measured one) as `roofline measure` with the same options,
    # run in the same session. Rates are not compared: the machine is shared and noisy.
    ours = roofline.Machine.measure(quick=True, precisions=["fp64"], levels=["L1"], curve=False)
    out = tmp_path / "m.json"
    r = cli("measure", "--quick", "--precisions", "fp64", "--levels", "L1", "--no-curve",
            "-o", out)
    assert r.returncode == 0, r.stderr
    theirs = roofline.Machine.load(str(out))
    assert [x.name for x in ours.compute_roofs] == [x.name for x in theirs.compute_roofs]
    assert [x.level for x in ours.memory_roofs] == [x.level for x in theirs.memory_roofs]
    assert ours.compute_roofs and ours.memory_roofs
    for roof, peer in zip(ours.compute_roofs, theirs.compute_roofs):
        assert roof.provenance == "measured" and roof.precision == "fp64"
        assert roof.statistics is not None and roof.statistics.repetitions > 0
        # The theoretical peak uses the clock measured in the run, so it differs run to run;
        # both have one or neither (a microarchitecture not in the table has none).
        assert bool(roof.theoretical_flop_per_s) == bool(peer.theoretical_flop_per_s)
        if roof.theoretical_flop_per_s:
            assert roof.formula and roof.formula.split("×")[0] == peer.formula.split("×")[0]
        assert 0 < roof.peak_flop_per_s
    for roof in ours.memory_roofs:
        assert roof.provenance == "measured" and roof.bandwidth_byte_per_s > 0


def test_a_broken_catalogue_file_is_named_and_the_others_still_load(tmp_path):
    (tmp_path / "broken-gpu.json").write_text("{ not json")
    with pytest.warns(UserWarning, match="broken-gpu.json"):
        entries = roofline.catalogue(hw_dir=str(tmp_path))
    assert "a100-80gb" in [e.name for e in entries]


def test_diff_of_two_machines_equals_the_cli(cli_json):
    a100, h100 = roofline.Machine("a100-80gb"), roofline.Machine("h100-sxm")
    d = roofline.diff(a100, h100)
    c = cli_json("diff", "a100-80gb", "h100-sxm")
    assert d.to_dict() == c
    fp64 = [x for x in d.changes if x.name == c["roofs"][0]["name"]][0]
    assert fp64.ratio == pytest.approx(fp64.b / fp64.a, rel=1e-15)
    # Catalogue figures carry no spread: whether a change exceeds the noise cannot be said.
    assert all(x.exceeds_spread is None for x in d.changes)
    assert d.ridge_ratio == c["ridge"]["ratio"]
    # Each row names the two roofs it pairs, as the JSON does.
    for x, row in zip(d.changes, c["roofs"]):
        assert (x.roof_a, x.roof_b) == (row["roof_a"], row["roof_b"])
    assert fp64.roof_a == fp64.roof_b == fp64.name


def test_threads_converting_to_python_for_the_first_time_at_once_do_not_deadlock():
    # The first to_dict() of a fresh interpreter, from four threads at once (json imported by
    # nothing before): it hung every time while json.loads was looked up inside the call.
    import os
    import subprocess
    import sys
    code = (
        "import sys, threading\n"
        "import roofline as R\n"
        "p = R.Point('p', 1e9, 1e9, 1e-3)\n"
        "b = threading.Barrier(4)\n"
        "out = []\n"
        "def w():\n"
        "    b.wait()\n"
        "    out.append(p.to_dict()['name'])\n"
        "ts = [threading.Thread(target=w) for _ in range(4)]\n"
        "[t.start() for t in ts]\n"
        "[t.join() for t in ts]\n"
        "print(sorted(out))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['p', 'p', 'p', 'p']"


def test_an_integer_roof_reads_in_op_per_second():
    # a100-80gb's int8 tensor roof is 624 TOP/s (its repr said "624 TFLOP/s").
    import roofline
    roof = next(c for c in roofline.Machine("a100-80gb").compute_roofs if c.name == "int8 tensor")
    assert roof.integer
    assert "624 TOP/s" in repr(roof)
    fp32 = next(c for c in roofline.Machine("a100-80gb").compute_roofs if c.name == "fp32 vector")
    assert "19.5 TFLOP/s" in repr(fp32)


def test_compare_of_default_roofs_of_other_precisions_warns_as_hw_compare(cli):
    # V100's default roof is fp32, TPU v5e's bf16: a ratio of the two is no like-for-like one.
    # `hw compare` warns and names the group every machine has; Python said nothing.
    v100, tpu = roofline.Machine("v100-sxm2"), roofline.Machine("tpu-v5e")
    r = cli("hw", "compare", "v100-sxm2", "tpu-v5e", "--at", "50")
    assert "comparing different precisions (v100-sxm2 fp32 vector, tpu-v5e bf16 mxu)" in r.stderr
    with pytest.warns(UserWarning, match=r"comparing different precisions \(v100-sxm2 fp32 "
                                         r"vector, tpu-v5e bf16 mxu\); give "
                                         r"precision=\"bf16/fp16\""):
        roofline.compare([v100, tpu], 50)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        roofline.compare([v100, tpu], 50, precision="bf16/fp16")  # like with like: no warning


def test_machines_of_one_name_are_told_apart_and_one_machine_twice_refused(cli_json, tmp_path):
    # As `plot --compare` and `hw compare`: two documents named "vm" (measured before and after)
    # read "vm (before.json)", "vm (after.json)" in the chart and the comparison (both read "vm");
    # one machine given twice is refused (it was drawn twice).
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    roofline.Machine.from_roofs(1e12, 1e11, name="vm").save(str(before))
    roofline.Machine.from_roofs(1e12, 2e11, name="vm").save(str(after))
    a, b = roofline.Machine(str(before)), roofline.Machine(str(after))
    chart = roofline.Chart(a, overlays=[b]).to_dict()
    names = [m["name"] for m in chart["machines"]]
    assert names == ["vm (before.json)", "vm (after.json)"]
    c = roofline.compare([a, b], 1)
    assert [m.machine for m in c.machines] == ["vm (before.json)", "vm (after.json)"]
    for few in ([], [a]):  # as `hw compare`: a ratio needs two machines
        with pytest.raises(roofline.InputError, match=f"at least two machines \\(got {len(few)}\\)"):
            roofline.compare(few, 1)
    assert c.to_dict() == one(cli_json("hw", "compare", str(before), str(after), "--at", "1"))
    for call in (lambda: roofline.Chart(a, overlays=[a]).to_dict(),
                 lambda: roofline.compare([a, roofline.Machine(str(before))], 1)):
        with pytest.raises(roofline.InputError, match="are one machine \\('vm'\\)"):
            call()


def _page_parts(markup):
    """(ids, <style> texts, srcdoc values, tag names) of the elements of an HTML fragment as the
    page holding it sees them (what an iframe's srcdoc holds is text, not the page's)."""
    from html.parser import HTMLParser

    class Parts(HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids, self.styles, self.srcdocs, self.tags = [], [], [], []
            self._in_style = False

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            attrs = dict(attrs)
            if "id" in attrs:
                self.ids.append(attrs["id"])
            if "srcdoc" in attrs:
                self.srcdocs.append(attrs["srcdoc"])
            self._in_style = tag == "style"

        def handle_endtag(self, tag):
            self._in_style = False

        def handle_data(self, data):
            if self._in_style:
                self.styles.append(data)

    parts = Parts()
    parts.feed(markup)
    return parts


def test_a_charts_html_in_a_notebook_is_isolated_from_the_page_and_other_charts():
    # Inline, every chart's clip path had the id roofline-plot-clip and its <style> (text{...},
    # .title{...}) applied to the whole notebook page: a second chart clipped to the first's rect.
    m = roofline.Machine("a100-80gb")
    p = roofline.kernel("saxpy", n=1e8).point(time_s=1e-3)
    one = roofline.Chart(m, [p], title="saxpy <on> a100")
    two = roofline.Chart(roofline.Machine("h100-sxm"), [p], title="saxpy on h100")
    for chart in (one, two):
        page = _page_parts(chart._repr_html_())
        assert page.tags == ["iframe"], page.tags  # no <svg>, <style> or id in the page
        assert page.ids == [] and page.styles == []
        (srcdoc,) = page.srcdocs
        # The frame's document holds the chart whole, its tooltips (<title>) included.
        assert chart.to_svg().split("?>", 1)[-1].strip() in srcdoc
        assert "<title>" in srcdoc and 'id="roofline-plot-clip"' in srcdoc
    markup = one._repr_html_()
    root = ET.fromstring(one.to_svg())  # the frame is the chart's size: no scrollbars, no gap
    assert 'width="%s" height="%s"' % (root.get("width"), root.get("height")) in markup
    assert 'title="saxpy &lt;on&gt; a100"' in markup
    assert one._repr_svg_() == one.to_svg()  # the image representation stays the SVG itself


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_device_refused_as_an_output_names_no_dash(cli, tmp_path):
    # /dev/full is a character device: an output is refused there. The message told Python to
    # "give -" (standard output), which only the command line takes; save() names no such way.
    m = roofline.Machine("a100-80gb")
    with pytest.raises(roofline.InputError) as e:
        m.save("/dev/full")
    assert str(e.value) == ("/dev/full: is a character device, not a regular file; refusing to "
                            "replace it (outputs go to regular files or new paths)"), str(e.value)
    # A chart's path is read for its format first: a named pipe called c.svg.
    fifo = tmp_path / "c.svg"
    os.mkfifo(fifo)
    with pytest.raises(roofline.InputError) as e:
        roofline.Chart(m).save(fifo)
    assert str(e.value).endswith(": is a FIFO (named pipe), not a regular file; refusing to "
                                 "replace it (outputs go to regular files or new paths)"), \
        str(e.value)
    # The command line, whose -o takes -, still says so.
    r = cli("hw", "show", "a100-80gb", "-o", "/dev/full")
    assert r.returncode == 2, r.stderr
    assert r.stderr.rstrip().endswith(
        "not a regular file; refusing to replace it (outputs go to regular files or new paths)"
        "; for standard output give -"), r.stderr
