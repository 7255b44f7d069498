"""Defects a user found writing Python against the package, each held here: file names that
are no UTF-8 given back as the str given, bytes refused where a str is meant, reprs in the
units the CLI prints, arguments of the wrong type named (measure, llm.chart, numbers), the
messages of check() and of the catalogue's folder in Python's names, a chart's machines checked
when it is made, and a diff's verdict on the noise as `roofline diff` says it."""
import decimal
import json
import os
import pickle
import shutil

import pytest

import roofline

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LLAMA_CONFIG = os.path.join(ROOT, "tests", "data", "llm", "llama-2-7b.config.json")
DB = os.path.join(ROOT, "examples", "custom", "db", "machine.json")
FPGA = os.path.join(ROOT, "examples", "custom", "fpga", "machine.json")
HW = os.path.join(ROOT, "data", "hardware")


# 1. File names that are no UTF-8 --------------------------------------------------------------

def test_a_machine_file_named_in_no_utf8_gives_its_path_back(tmp_path):
    path = os.path.join(str(tmp_path), os.fsdecode(b"m\xe9.json"))
    roofline.Machine.from_roofs(1e12, 1e11, name="vm").save(path)
    for machine in (roofline.Machine.load(path), roofline.Machine(path)):
        # It raised UnicodeDecodeError.
        assert machine.origin == path
        assert machine.name == "vm"
    again = pickle.loads(pickle.dumps(roofline.Machine.load(path)))
    assert again.origin == path


def test_a_model_folder_named_in_no_utf8_gives_its_names_back_and_valid_json(tmp_path, cli):
    folder = os.path.join(str(tmp_path), os.fsdecode(b"mod\xe9"))
    os.mkdir(folder)
    config = json.load(open(LLAMA_CONFIG, encoding="utf-8"))
    del config["_name_or_path"]  # the model is named by its folder
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f)
    model = roofline.llm.model(folder)
    # Each raised UnicodeDecodeError.
    assert model.name == os.fsdecode(b"mod\xe9")
    assert model.origin == model.source == os.path.join(folder, "config.json")
    # to_dict() raised "incomplete UTF-8 string": the JSON is the CLI's, U+FFFD for the byte.
    assert model.to_dict()["name"] == "mod\ufffd"
    report = roofline.llm.analyse(model, "a100-80gb")
    got = report.to_dict()
    assert got["model"]["name"] == "mod\ufffd"
    assert report.chart_title.startswith("mod\ufffd on a100-80gb")
    r = cli("llm", "--model", folder, "--hw", "a100-80gb", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["model"] == got["model"]


def test_a_catalogue_folder_named_in_no_utf8_gives_its_paths_back(tmp_path):
    folder = os.path.join(str(tmp_path), os.fsdecode(b"hw\xe9"))
    os.mkdir(folder)
    shutil.copy(os.path.join(HW, "a100-80gb.json"), os.path.join(folder, "mine.json"))
    paths = [e.path for e in roofline.catalogue(folder)]
    assert os.path.join(folder, "mine.json") in paths


# 2. bytes where a str is meant ----------------------------------------------------------------

@pytest.mark.parametrize("call, named", [
    (lambda: roofline.Point(b"p", 1e9, 1e9, 1), "name"),
    (lambda: roofline.Point(b"\xff", 1e9, 1e9, 1), "name"),
    (lambda: roofline.Point("p", 1e9, 1e9, 1, precision=b"fp32"), "precision"),
    (lambda: roofline.kernel(b"saxpy", n=1), "name"),
    (lambda: roofline.Machine.from_catalogue(b"a100-80gb"), "name"),
    (lambda: roofline.Machine.from_roofs(1e12, 1e11, name=b"\xff"), "name"),
    (lambda: roofline.Machine("a100-80gb").compute_roof(b"fp16"), "name_or_precision"),
    (lambda: roofline.llm.analyse("llama-2-7b", "a100-80gb", phase=b"prefill"), "phase"),
])
def test_bytes_is_no_text(call, named):
    # They were taken as pybind's std::string takes bytes; b"\xff" then broke .name, to_dict(),
    # pickle and check().
    with pytest.raises(TypeError, match="^%s: expected a str \\(got bytes\\)$" % named):
        call()


# 3. Reprs in the CLI's units ------------------------------------------------------------------

def test_an_integer_point_and_its_judgement_read_in_op():
    p = roofline.Point("i", 2e9, 1e9, 1, precision="int8")
    assert repr(p) == "<Point 'i' I=2 OP/byte P=2 GOP/s>"
    assert repr(roofline.Point("f", 2e9, 1e9, 1)) == "<Point 'f' I=2 FLOP/byte P=2 GFLOP/s>"
    k = roofline.kernel("gemm", "int8", m=1024, n=1024, k=1024).point(1e-4)
    d = roofline.diagnose(k, "a100-80gb")
    # W = 2 * 1024^3 OP in 1e-4 s: 21.47 TOP/s of the int8 roof's 624 TOP/s (3.44%).
    assert repr(d.levels[0]) == (
        "<LevelJudgement 'HBM2e' I=682.7 OP/byte: 3.44% of 624 TOP/s, compute-bound>")
    assert repr(d.empty_roofs_above[0]) == "<EmptyRoof 'int4 tensor' 1.248 POP/s, gain 2x>"


def test_custom_units_are_the_machines_own(cli):
    db = roofline.Machine(DB)
    assert repr(db.compute_roof()) == "<ComputeRoof 'scan' 800 Mtuple/s theoretical>"
    assert repr(db.memory_roof()) == "<MemoryRoof 'NVMe 4K random' 1 Mdisk read/s datasheet>"
    assert repr(db.ridges()[0]) == ("<Ridge 'tuple' I*=800 tuple/disk read ('scan' 800 Mtuple/s "
                                    "on 'NVMe 4K random' 1 Mdisk read/s)>")
    fpga = roofline.Machine(FPGA)
    assert repr(fpga.compute_roof()) == "<ComputeRoof 'int8 DSP' 3.686 TMAC/s theoretical>"
    # As the CLI prints them.
    shown = cli("hw", "show", DB).stdout + cli("hw", "show", FPGA).stdout
    for text in ("800 Mtuple/s", "1 Mdisk read/s", "3.686 TMAC/s"):
        assert text in shown


# 4., 5. Arguments of the wrong type, named ----------------------------------------------------

@pytest.mark.parametrize("kwargs, said", [
    (dict(precisions="fp32"), r"^precisions: expected a list of str \(e.g. \['fp32', 'fp64'\]\) "
                              r"\(got str\)$"),
    (dict(levels=[1]), r"^levels\[0\]: expected a str \(got int\)$"),
    (dict(progress=3), r"^progress: expected a callable progress\(fraction, what\) or None "
                       r"\(got int\)$"),
])
def test_measure_names_an_argument_of_the_wrong_type(kwargs, said):
    with pytest.raises(TypeError, match=said):
        roofline.Machine.measure(quick=True, **kwargs)


def test_llm_chart_takes_a_report():
    for wrong in (3, roofline.llm.request("llama-2-7b", "a100-80gb", 8)):
        with pytest.raises(TypeError, match=r"^chart: report must be a roofline.llm.Report"):
            roofline.llm.chart(wrong)


# 6., 7., 8. Messages in Python's names; a chart checked when made -----------------------------

def test_check_without_roofs_names_its_own_parameter():
    with pytest.raises(roofline.InputError) as e:
        roofline.check([roofline.Point("p", 1, 1, 1)], min_attainment=0.5)
    assert "give machine= (a roofline.Machine, such as Machine.from_roofs(" in str(e.value)
    assert "FILE|NAME" not in str(e.value) and "peak_flop_per_s and" not in str(e.value)


def test_a_missing_catalogue_folder_is_named_hw_dir():
    for call in (lambda: roofline.Machine("a100-80gb", hw_dir="/nonexistent"),
                 lambda: roofline.catalogue("/nonexistent")):
        with pytest.raises(roofline.InputError, match=r"^hw_dir /nonexistent: no such folder"):
            call()


def test_a_chart_of_one_machine_twice_is_refused_when_made():
    with pytest.raises(roofline.InputError,
                       match=r"^Chart: 'a100-80gb' and 'a100-80gb' are one machine"):
        roofline.Chart("a100-80gb", overlays=["a100-80gb"])


# 9. Numbers read by one reader, naming the argument and the value -----------------------------

def test_a_number_that_cannot_be_read_names_its_argument():
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"^work_flop: could not read a ndarray as a number"):
        roofline.Point("a", np.array([1e9]), 1, 1)
    with pytest.raises(TypeError, match=r"^traffic_byte: could not read a ndarray as a number"):
        roofline.Point("a", 1e9, np.array([1e9, 2e9]), 1)
    with pytest.raises(TypeError, match=r"^intensity_flop_per_byte: could not read a ndarray"):
        roofline.Machine("a100-80gb").attainable_flop_per_s(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match=r"^micro_batches: could not read a ndarray"):
        roofline.llm.analyse("llama-2-7b", "a100-80gb", pp=2, micro_batches=np.array([1, 2]))
    with pytest.raises(TypeError, match=r"^Chart.to_terminal: columns: could not read a "
                                        r"ndarray as a number"):
        roofline.Chart("a100-80gb").to_terminal(np.array([80, 90]))


def test_a_number_beyond_a_float_is_said_so_with_the_value_given():
    with pytest.raises(roofline.InputError, match=r"^work_flop is out of range \(Decimal\('1E\+400'"
                                                  r"\): beyond a float's largest magnitude"):
        roofline.Point("a", decimal.Decimal("1e400"), 1, 1)
    with pytest.raises(roofline.InputError, match=r"^time_s is out of range \(Decimal\('1E-400'\): "
                                                  r"below a float's smallest magnitude"):
        roofline.Point("a", 1, 1, decimal.Decimal("1e-400"))
    with pytest.raises(roofline.InputError,
                       match=r"^work_flop is out of range \(an integer of 401 digits\)$"):
        roofline.Point("a", 10**400, 1, 1)
    with pytest.raises(roofline.InputError, match=r"^batch is out of range \(Decimal"):
        roofline.llm.analyse("llama-2-7b", "a100-80gb", batch=decimal.Decimal("1e400"))
    # An infinity given as one is read as one, and judged as the CLI judges inf.
    with pytest.raises(roofline.InputError, match="finite"):
        roofline.Point("a", decimal.Decimal("Infinity"), 1, 1)


# 11. A diff's noise; a message's grammar ------------------------------------------------------

def test_a_diff_without_spreads_cannot_say_whether_a_change_exceeds_the_noise(cli):
    d = roofline.diff("a100-80gb", "h100-sxm")
    assert all(c.exceeds_spread is None for c in d.changes)
    assert "roofs paired, no spread carried: cannot say whether it exceeds the noise, " in repr(d)
    assert "beyond the noise" not in repr(d)
    said = cli("diff", "a100-80gb", "h100-sxm").stdout
    assert "no spread carried: cannot say whether it exceeds the noise" in said


def test_check_names_a_wrong_item_with_its_article():
    with pytest.raises(TypeError, match=r"\(got a list holding an int\)$"):
        roofline.check([3], "a100-80gb", min_attainment=0.5)


def test_a_diff_repr_says_too_noisy_as_roofline_diff_does(tmp_path):
    # Roof spreads (max − min)/median of 130% and 175%: `roofline diff` says "too noisy to
    # judge"; the repr had counted such pairs as carrying no spread.
    def machine(path, lo, hi):
        doc = {"schema": "roofline.machine", "version": 1, "name": "vm",
               "default_compute": "fp64", "default_memory": "DRAM",
               "compute": [{"name": "fp64", "precision": "fp64", "peak": 100e9,
                            "provenance": "measured",
                            "stats": {"repetitions": 3, "median": 100e9, "min": lo, "max": hi}}],
               "memory": [{"level": "DRAM", "bandwidth": 20e9, "provenance": "measured",
                           "stats": {"repetitions": 3, "median": 20e9, "min": 19.8e9,
                                     "max": 20.2e9}}]}
        path.write_text(json.dumps(doc))
        return str(path)
    a = machine(tmp_path / "a.json", 50e9, 180e9)    # (180 − 50)/100 = 130%
    b = machine(tmp_path / "b.json", 25e9, 200e9)    # (200 − 25)/100 = 175%
    r = repr(roofline.diff(a, b))
    assert "1 too noisy to judge" in r, r
    assert "no spread carried" not in r, r


def test_a_value_echoed_in_a_message_is_cut_between_characters():
    # A repr of 82 bytes ('ab' and 40 two-byte é) is cut to fit the message: it was cut after
    # the first byte of an é, which Python showed as '\xc3'.
    class Huge:
        def __float__(self):
            raise OverflowError("too big")

        def __repr__(self):
            return "ab" + "é" * 40

    with pytest.raises(Exception) as e:
        roofline.Point("p", Huge(), 1e9, 1.0)
    text = str(e.value)
    assert "abéé" in text, text
    assert "\\xc3" not in text and "\ufffd" not in text, text


def test_an_int8_aggregate_never_adds_op_and_flop():
    # llama-2-7b prefill on a100-80gb with int8 products: the CLI prints W as "27.63 TOP +
    # 17.07 GFLOP"; the Aggregate's work_flop had added the two (27643096334336).
    r = roofline.llm.analyse("llama-2-7b", "a100-80gb", compute="int8")
    d = r.to_dict()
    a = r.prefill
    assert a.work_flop == d["summary"]["prefill"]["work"]
    assert a.vector_work_flop > 0
    assert a.work_flop + a.vector_work_flop == pytest.approx(27643096334336, rel=1e-12)
    assert a.intensity_flop_per_byte == pytest.approx(a.work_flop / a.traffic_byte, rel=1e-12)
    assert " OP/byte + " in repr(a) and repr(a).count("FLOP/byte") == 1, repr(a)
    # Float products: one unit, nothing apart.
    f = roofline.llm.analyse("llama-2-7b", "a100-80gb").prefill
    assert f.vector_work_flop == 0
    assert "OP/byte" not in repr(f).replace("FLOP/byte", ""), repr(f)
