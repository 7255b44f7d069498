"""A machine is taken the same way by every function that takes one: a roofline.Machine, a
catalogue name or a machine document's path (a str or an os.PathLike), as roofline.llm and
roofline.torch took them and the CLI's --hw takes them; anything else is a TypeError naming the
parameter and what it accepts, never pybind's "incompatible function arguments". Point's
arguments are named as well."""
import pathlib

import pytest

import roofline

A100, H100 = "a100-80gb", "h100-sxm"
MACHINE_EXPECTED = (r"expected a roofline\.Machine, a catalogue name or a machine document's "
                    r"path \(got %s\)$")


def saxpy():
    return roofline.Point("saxpy", 2e9, 12e9, 0.0065)


@pytest.fixture(scope="module")
def a100_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("machines") / "a100.json"
    roofline.Machine(A100).save(path)
    return path


def test_diagnose_takes_a_name_or_a_path(a100_file):
    # It was "diagnose(): incompatible function arguments" for a name.
    by_object = roofline.diagnose(saxpy(), roofline.Machine(A100)).to_dict()
    assert roofline.diagnose(saxpy(), A100).to_dict() == by_object
    assert roofline.diagnose(saxpy(), str(a100_file)).to_dict() == by_object
    assert roofline.diagnose(saxpy(), pathlib.Path(a100_file)).to_dict() == by_object
    # The A100's HBM roof, 2.039 TB/s (data/hw), times I = 2/12: the number itself.
    assert roofline.diagnose(saxpy(), A100).attainable_flop_per_s == pytest.approx(2.039e12 / 6,
                                                                            rel=1e-12)


def test_check_compare_diff_and_energy_take_names():
    points = [saxpy()]
    assert (roofline.check(points, machine=A100, min_attainment=0.5) ==
            roofline.check(points, machine=roofline.Machine(A100), min_attainment=0.5))
    # As docs/python.md's walkthrough: H100 at I = 10 is 1.718x the A100.
    c = roofline.compare([A100, roofline.Machine(H100)], 10)
    assert c.ratios == [1.0, 1.7179487179487178]
    assert (roofline.diff(A100, H100).to_dict() ==
            roofline.diff(roofline.Machine(A100), roofline.Machine(H100)).to_dict())
    assert roofline.energy(A100) == roofline.energy(roofline.Machine(A100))


def test_a_chart_takes_names_for_its_machine_and_overlays():
    by_object = roofline.Chart(roofline.Machine(A100), [saxpy()],
                               overlays=[roofline.Machine(H100)]).to_svg()
    chart = roofline.Chart(A100, [saxpy()], overlays=[H100])
    assert isinstance(chart.machine, roofline.Machine) and chart.title == "Roofline of a100-80gb"
    assert chart.to_svg() == by_object
    chart.machine = A100  # set afterwards: read when drawn, by the same rule
    assert chart.to_svg() == by_object


@pytest.mark.parametrize("call, name, got", [
    (lambda: roofline.diagnose(saxpy(), 5), "machine", "int"),
    (lambda: roofline.diagnose(saxpy(), None), "machine", "NoneType"),
    (lambda: roofline.check([saxpy()], machine=2.5), "machine", "float"),
    (lambda: roofline.compare([A100, 5], 10), r"machines\[1\]", "int"),
    (lambda: roofline.diff(A100, 3.5), "b", "float"),
    (lambda: roofline.diff([A100], H100), "a", "list"),
    (lambda: roofline.energy(7), "machine", "int"),
    (lambda: roofline.Chart(5), "Chart: machine", "int"),
    (lambda: roofline.Chart(A100, overlays=[A100, 5]), r"Chart: overlays\[1\]", "int"),
])
def test_a_machine_of_the_wrong_type_names_the_parameter(call, name, got):
    with pytest.raises(TypeError, match="^" + name + ": " + MACHINE_EXPECTED % got) as e:
        call()
    assert "incompatible" not in str(e.value)


def test_machines_must_be_a_list_and_bytes_is_no_path():
    with pytest.raises(TypeError, match=r"^machines: expected a list of machines .*\(got str\)$"):
        roofline.compare(A100, 10)
    with pytest.raises(TypeError, match="^machine: a path is a str or an os.PathLike giving one, "
                                        "not bytes"):
        roofline.diagnose(saxpy(), b"a100-80gb")


def test_an_unknown_name_is_the_catalogue_error():
    with pytest.raises(roofline.InputError, match="unknown machine 'a100-80gbx'.*did you mean"):
        roofline.diagnose(saxpy(), "a100-80gbx")
    with pytest.raises(roofline.InputError, match="unknown machine 'h100'|h100"):
        roofline.compare([A100, "h100-sxmx"], 10)


# Point's arguments -----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    # The tester's call: the CLI's names (-W "1 TFLOP") in place of Point's.
    ({"work": "1 TFLOP", "traffic_byte": 1e9, "time_s": 1},
     r"^Point: no parameter 'work' \(did you mean 'work_flop'\?\) \(parameters: name, work_flop, "),
    ({"work_flop": 1e12, "traffic": 1e9, "time_s": 1},
     r"^Point: no parameter 'traffic' \(did you mean 'traffic_byte'\?\)"),
    ({"work_flop": 1e12, "traffic_byte": 1e9}, r"^Point: missing time_s \("),
    ({"work_flop": "1 TFLOP", "traffic_byte": 1e9, "time_s": 1},
     r"^work_flop: expected a number \(got str\)$"),
    ({"work_flop": 1e12, "traffic_byte": "1 GB", "time_s": 1},
     r"^traffic_byte: expected a number \(bytes\) or a mapping \{level: bytes\} \(got str\)$"),
    ({"work_flop": 1e12, "traffic_byte": 1e9, "time_s": "1 s"},
     r"^time_s: expected a number \(got str\)$"),
    ({"work_flop": 1e12, "traffic_byte": 1e9, "time_s": 1, "vector_only": 1},
     r"^vector_only: expected a bool \(got int\)$"),
])
def test_a_point_argument_misnamed_or_of_the_wrong_type_is_named(kwargs, message):
    with pytest.raises(TypeError, match=message) as e:
        roofline.Point("x", **kwargs)
    assert "incompatible" not in str(e.value)


def test_a_point_argument_given_twice_or_too_many_is_named():
    with pytest.raises(TypeError, match="^Point: work_flop given twice"):
        roofline.Point("x", 1e12, 1e9, 1, work_flop=2e12)
    with pytest.raises(TypeError, match=r"^Point: takes at most 9 arguments \(got 10\)$"):
        roofline.Point("x", 1e12, 1e9, 1, "", "", "", "", False, "extra")
    # What is right still makes the point, by position or keyword.
    p = roofline.Point(name="x", work_flop=1e12, traffic_byte=1e9, time_s=2)
    assert (p.performance_flop_per_s, p.intensity_flop_per_byte) == (5e11, 1000.0)
