"""roofline.compare and Chart say what `roofline hw compare` says: the machine given twice named
as typed, no "different precisions" warning for a roof that names no precision, a file's int8
roof counted in OP."""
import json
import warnings

import pytest

import roofline

INT8 = {"schema": "roofline.machine", "version": 1, "name": "i8",
        "compute": [{"name": "int8 tensor", "precision": "int8", "peak": 6e14}],
        "memory": [{"level": "HBM", "kind": "memory", "bandwidth": 2e12}]}
NO_PRECISION = {"schema": "roofline.machine", "version": 1, "name": "m",
                "compute": [{"name": "fp32", "peak": 1e13}],
                "memory": [{"level": "HBM", "bandwidth": "2 TB/s"}]}


def _write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_one_machine_twice_is_named_as_typed(cli):
    # It said "'h100-sxm' and 'h100-sxm' are one machine": the alias typed was lost.
    r = cli("hw", "compare", "h100", "h100-sxm", "--at", "1")
    assert "'h100-sxm' and 'h100' are one machine ('h100-sxm')" in r.stderr
    for call in (lambda: roofline.compare(["h100", "h100-sxm"], 10),
                 lambda: roofline.compare([roofline.Machine("h100"), "h100-sxm"], 10),
                 lambda: roofline.Chart("h100", overlays=["h100-sxm"])):
        with pytest.raises(roofline.InputError,
                           match=r"'h100-sxm' and 'h100' are one machine \('h100-sxm'\)"):
            call()


def test_a_roof_without_precision_is_no_other_precision(tmp_path, cli):
    path = _write(tmp_path, "m1.json", NO_PRECISION)
    assert "different precisions" not in cli("hw", "compare", path, "a100-80gb", "--at",
                                              "10").stderr
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = roofline.compare([path, "a100-80gb"], 10)
    # 19.5 TFLOP/s over 10 TFLOP/s: both compute-bound at I = 10 (ridges 5 and 9.564).
    assert c.ratios == pytest.approx([1, 1.95])


def test_a_files_int8_roof_counts_op(tmp_path):
    c = roofline.compare([_write(tmp_path, "i8.json", INT8), "a100-80gb"], 100, precision="int8")
    assert c.note == ""  # both OP/s: no ratio of an integer operation to a floating-point one
    assert c.to_dict()["machines"][0]["ridge"] == pytest.approx(300)
    assert "600 TOP/s" in repr(roofline.Machine(_write(tmp_path, "j.json", INT8)).compute_roofs[0])
