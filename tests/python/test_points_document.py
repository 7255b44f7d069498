"""roofline.load_points: a points document read as the CLI reads one, its bandwidth runs (W = 0,
no point) listed as `not_points` with the name, reason, Q and T the document gives, and the same
entry the CLI's JSON lists them with."""
import json
import os

import pytest

import roofline

DOC = {"schema": "roofline.points", "version": 1, "machine": "vm", "points": [
    {"name": "triad @L1", "work": 2048, "traffic": {"L1": 49152}, "time": 2e-6}],
    "run": {"bandwidth_only": [
        {"kernel": "copy", "level": "L1", "variant": "", "bandwidth": 2e10, "sustained": 1.5e-6,
         "traffic": [{"level": "L1", "bytes": 32768}]},
        {"kernel": "copy", "level": "DRAM", "variant": ""}]}}


@pytest.fixture
def doc_path(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(DOC))
    return path


def test_bandwidth_runs_are_not_points(doc_path):
    d = roofline.load_points(doc_path)
    assert [p.name for p in d.points] == ["triad @L1"]
    assert d.machine == "vm" and d.units == ("FLOP", "byte") and d.origin == str(doc_path)
    assert [n.name for n in d.not_points] == ["copy @L1", "copy @DRAM"]
    copy = d.not_points[0]
    assert copy.reason == "no arithmetic, W = 0"
    assert copy.detail == ("copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run "
                           "(Q/T = 20 GB/s), not a point")
    assert copy.traffic_byte == 32768 and copy.traffic_by_level == [("L1", 32768)]
    assert copy.time_s == 1.5e-6
    # A run whose document gives no Q or T: 0 and None, not made up.
    bare = d.not_points[1]
    assert bare.traffic_byte == 0 and bare.traffic_by_level == [] and bare.time_s is None
    assert copy.to_dict() == {"name": "copy @L1", "reason": "no arithmetic, W = 0",
                              "detail": copy.detail, "bandwidth_only": True,
                              "traffic": [{"level": "L1", "bytes": 32768.0}], "time": 1.5e-6}
    assert bare.to_dict()["time"] is None
    assert repr(copy) == ("<NotPoint 'copy @L1': no arithmetic, W = 0: a bandwidth run, "
                          "not a point>")
    assert repr(d) == "<PointsDocument '%s': 1 point, 2 bandwidth runs>" % doc_path


def test_the_entries_are_the_clis(cli_json, doc_path, tmp_path):
    # diff --json lists each document's bandwidth runs with the entry to_dict() gives.
    other = tmp_path / "q.json"
    other.write_text(json.dumps(DOC))
    j = cli_json("diff", doc_path, other)
    d = roofline.load_points(doc_path)
    assert j["not_compared_a"] == [n.to_dict() for n in d.not_points]
    assert j["not_compared_b"] == j["not_compared_a"]


def test_a_document_without_runs_has_none_and_bad_input_is_refused(tmp_path):
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"schema": "roofline.points", "version": 1,
                                 "points": [{"name": "k", "work": 1, "traffic": 1, "time": 1}]}))
    assert roofline.load_points(str(plain)).not_points == []
    bad = dict(DOC)
    bad["run"] = {"bandwidth_only": [{"kernel": "copy", "traffic": [{"level": "L1",
                                                                       "bytes": "many"}]}]}
    plain.write_text(json.dumps(bad))
    with pytest.raises(roofline.InputError, match=r"run\.bandwidth_only\[0\]\.traffic\[0\]"):
        roofline.load_points(plain)
    with pytest.raises(TypeError, match="path"):
        roofline.load_points(b"p.json")
    with pytest.raises(roofline.InputError):
        roofline.load_points(os.path.join(str(tmp_path), "missing.json"))


def test_a_runs_q_is_at_its_own_level_not_summed_over_those_below():
    # `roofline run copy --levels DRAM` lists the same 128 MiB at DRAM, L3, L2 and L1: Q is the
    # run's own level's, as Point.traffic_byte is the first level's (summed, it read 512 MiB).
    real = os.path.join(os.path.dirname(__file__), "..", "data", "report", "real",
                        "zen4-genoa-2vcpu.points.json")
    d = roofline.load_points(real)
    dram = next(n for n in d.not_points if n.name == "copy @DRAM")
    assert dram.traffic_byte == 134217728
    assert [lvl for lvl, _ in dram.traffic_by_level] == ["DRAM", "L3", "L2", "L1"]
    assert dram.time_s == 0.046584984
