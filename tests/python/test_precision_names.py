"""A precision is a data type (or one and its unit) wherever one is given: Machine.from_roofs'
precision and a precision asked of roofs given without one are checked by the rule the
catalogue checker and the CLI's --peak --precision use (is_roof_precision), not taken as any
string."""
import pytest

import roofline


def given(**kw):
    return roofline.Machine.from_roofs(1e12, 1e11, **kw)


def test_roofs_of_no_precision_stand_for_every_precision_and_nothing_else():
    m = given()
    for precision in ("fp16", "FP64", "bf16 tensor", "fp8-e5m2"):
        assert m.compute_roof(precision).peak_flop_per_s == 1e12
    # Every floating-point precision: an integer type's work is OP, which a peak of FLOP/s does
    # not bound (as diagnose refuses such a point).
    for integer in ("int8", "int8 tensor"):
        with pytest.raises(roofline.InputError, match="^name_or_precision '%s': .* work counted "
                                                      "in OP against a peak in FLOP/s is no "
                                                      "bound$" % integer):
            m.compute_roof(integer)
    # "banana" was the peak roof: any string stood for a precision.
    for bad in ("banana", "fp99", "banana tensor"):
        with pytest.raises(roofline.InputError,
                           match=r"^machine 'given roofs' has no compute roof for '%s' \(roofs: "
                                 r"peak\): '%s' names no roof and no precision \(fp64, "
                                 % (bad, bad.split()[0])):
            m.compute_roof(bad)
    p = roofline.Point("p", 1e9, 1e9, 1, precision="banana")
    with pytest.raises(roofline.InputError, match="no compute roof for 'banana'"):
        roofline.diagnose(p, m)
    # A roof's name is still a key: the roof named "peak".
    assert m.compute_roof("peak").peak_flop_per_s == 1e12


def test_from_roofs_checks_the_whole_precision_as_the_cli_does(cli):
    assert given(precision="fp16 tensor").compute_roof("fp16 tensor").peak_flop_per_s == 1e12
    # fp4 and fp6 are catalogue precisions, as the catalogue checker takes them.
    assert given(precision="fp4").compute_roof("fp4").peak_flop_per_s == 1e12
    for bad in ("banana", "banana tensor", "fp99"):
        with pytest.raises(roofline.InputError,
                           match="^precision '%s': names the roof's precision, .*; '%s' is none$"
                                 % (bad, bad.split()[0])):
            given(precision=bad)
        r = cli("point", "--work", "1e9", "--traffic", "1e9", "--time", "1", "--peak", "1T",
                "--bandwidth", "1T", "--precision", bad)
        assert r.returncode == 2
        assert ("--precision %s: with --peak it names the roof's precision" % bad) in r.stderr
        assert ("'%s' is none" % bad.split()[0]) in r.stderr
