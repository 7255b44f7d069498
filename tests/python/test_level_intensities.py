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
