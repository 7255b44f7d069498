"""A point with traffic at several memory levels has one intensity per level (docs/model.md §4,
I_L = W/Q_L): Point.intensity_flop_per_byte is the first level's (the I the CLI quotes for the
point), Point.intensity_by_level gives every level's, and Diagnosis.intensity_flop_per_byte is
the binding level's, the headline I of the diagnosis (docs/model.md §6)."""
import pathlib

import pytest

import roofline

# Measured on the development VM: L1 4.73e11 B/s, DRAM 9.075e10 B/s, fp32 2.33e11 FLOP/s.
ZEN4 = (pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "report" / "real" /
        "zen4-genoa-2vcpu.machine.json")


def test_each_level_has_its_own_intensity_and_the_diagnosis_the_binding_ones():
    # W = 1e9 FLOP; 1e8 B at DRAM (I = 10), 1e10 B at L1 (I = 0.1).
    p = roofline.Point("h", 1e9, {"DRAM": 1e8, "L1": 1e10}, 1e-2)
    assert p.intensity_flop_per_byte == 10.0  # the first level's
    assert p.intensity_by_level == [("DRAM", 10.0), ("L1", 0.1)]
    assert p.intensity_at("L1") == 0.1
    m = roofline.Machine(ZEN4)
    assert {"L1", "DRAM"} <= {r.level for r in m.memory_roofs}
    # L1 bounds at 0.1 · 4.73e11 = 4.7e10 FLOP/s, DRAM at min(π, 10 · 9.1e10): L1 binds, and the
    # diagnosis's I is L1's 0.1, not the first level's 10.
    d = roofline.diagnose(p, m)
    assert d.binding_level == "L1"
    assert d.intensity_flop_per_byte == 0.1 == d.to_dict()["intensity"]
    l1 = m.memory_roof("L1").bandwidth_byte_per_s
    assert d.attainable_flop_per_s == 0.1 * l1


def test_a_traffic_level_named_empty_is_refused():
    # "" was read as the default level; the CLI's --traffic-at =BYTES is refused.
    with pytest.raises(roofline.InputError, match=r"^point 'x': traffic_byte: a level's name "
                                                  r"is ''") as e:
        roofline.Point("x", 1e9, {"": 1e9}, 1)
    assert "--" not in str(e.value)
    with pytest.raises(roofline.InputError, match=r"traffic_byte: a level's name is ''"):
        roofline.Point("x", 1e9, {"DRAM": 1e9, "": 1e8}, 1)


def test_a_level_the_machine_lacks_is_left_out_as_point_and_plot_do(cli_json, tmp_path):
    # docs/schema.md: traffic at a level the machine has no roof for is left out with a warning,
    # the point judged at its other levels. diagnose() and Chart raised InputError on it where
    # `roofline point` and `roofline plot` judge it.
    p = roofline.Point("h", 1e9, {"L2": 1e8, "DRAM": 1e9}, 0.01)
    with pytest.warns(UserWarning, match=r"^roofline\.diagnose: point 'h' judged at its other "
                                         r"levels: machine 'a100-80gb' has no memory roof for "
                                         r"level 'L2'"):
        d = roofline.diagnose(p, "a100-80gb")
    points = tmp_path / "h.json"
    points.write_text('{"schema": "roofline.points", "version": 1, "points": [{"name": "h", '
                      '"work": 1e9, "traffic": {"L2": 1e8, "DRAM": 1e9}, "time": 0.01}]}')
    cli = cli_json("point", "--hw", "a100-80gb", "--points", str(points))
    judged = d.to_dict()
    assert judged.pop("source") == "python"  # the CLI's file names none
    assert [judged] == cli  # a points file gives a list, one point or many
    assert d.binding_level == "HBM2e" and d.point.intensity_by_level == [("DRAM", 1.0)]
    with pytest.warns(UserWarning, match=r"^roofline\.Chart: point 'h' judged at its other"):
        svg = roofline.Chart("a100-80gb", [p]).to_svg()
    assert ">h<" in svg or "'h'" in svg or " h " in svg
    # A point with no level left, or no roof for its precision, is left out of a Chart as `plot`
    # leaves it out; a Chart none of whose points can be judged is refused.
    q = roofline.Point("q", 1e9, {"DRAM": 1e8}, 0.01, precision="fp8")
    with pytest.warns(UserWarning, match=r"^roofline\.Chart: point 'q' not judged: machine "
                                         r"'a100-80gb' has no compute roof for 'fp8'"):
        assert roofline.Chart("a100-80gb", [p, q]).to_dict()["points"][0]["name"] == "h"
    with pytest.raises(roofline.InputError, match=r"^Chart: its one point cannot be judged"):
        with pytest.warns(UserWarning):
            roofline.Chart("a100-80gb", [q]).to_svg()
    # A point with no level of the machine's is refused by diagnose(), naming the level.
    with pytest.raises(roofline.InputError, match=r"no memory roof for level 'L2'"):
        roofline.diagnose(roofline.Point("l2", 1e9, {"L2": 1e8}, 0.01), "a100-80gb")


def test_a_charts_warnings_are_said_at_the_callers_line_each_time():
    # Raised from the package's own line, Python's default filter said a Chart's warning once a
    # session, whichever chart drew it; diagnose() said it at the caller's line each time.
    import warnings
    p = roofline.Point("h", 1e9, {"L1": 1e9, "HBM2e": 1e8}, 1e-3)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("default")
        for _ in range(2):
            roofline.Chart("a100-80gb", [p]).to_svg()
    assert len(said) == 2, [str(w.message) for w in said]
    assert {w.filename for w in said} == {__file__}
    assert str(said[0].message).startswith("roofline.Chart: point 'h' judged at its other levels")
