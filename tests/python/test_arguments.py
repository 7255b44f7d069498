"""Arguments of the wrong type or out of range, and the messages they get: a TypeError for a
wrong type, an InputError (a ValueError) for a bad value, each naming the public parameter and
stating the real limit; an exception raised while reading a number (KeyboardInterrupt) goes on
as it was raised; a message holding a NUL byte or a control character shows it escaped."""
import collections.abc
import decimal
import fractions
import json
import os
import pathlib
import types

import pytest

import roofline

ROOT = pathlib.Path(__file__).resolve().parents[2]
LLAMA_CONFIG = ROOT / "tests" / "data" / "llm" / "llama-2-7b.config.json"


def given(name="given roofs"):
    return roofline.Machine.from_roofs(1e12, 1e11, name=name)


class Raising:
    """A number whose __float__ raises `error`."""

    def __init__(self, error):
        self.error = error

    def __float__(self):
        raise self.error


class IndexOnly:
    """An integer whose __index__ works and whose __float__ is broken."""

    def __index__(self):
        return 1000

    def __float__(self):
        raise ValueError("no float")


# 1. Reading a number -------------------------------------------------------------------------

@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit, MemoryError])
def test_an_interrupt_while_reading_a_number_propagates(error):
    # It was swallowed, and 10**400's "out of range (an integer of N digits)" said instead.
    with pytest.raises(error):
        roofline.kernel("saxpy", n=Raising(error()))
    with pytest.raises(error):  # a float argument (pybind's own double swallowed it too)
        roofline.Point("p", Raising(error()), 1e9, 1)
    with pytest.raises(error):
        roofline.Point("p", 1e9, {"DRAM": Raising(error())}, 1)


def test_a_number_that_fails_to_read_is_a_type_error_chained_to_why():
    cause = ValueError("boom")
    with pytest.raises(TypeError, match=r"size n: could not read a Raising as a number "
                                        r"\(its __float__ raised ValueError\)") as e:
        roofline.kernel("saxpy", n=Raising(cause))
    assert e.value.__cause__ is cause
    with pytest.raises(TypeError, match="could not read a Raising as a number") as e:
        roofline.Machine.from_roofs(Raising(cause), 1e9)
    assert e.value.__cause__ is cause


def test_an_integer_is_read_through_its_index():
    want = roofline.kernel("saxpy", n=1000).work_flop
    assert roofline.kernel("saxpy", n=IndexOnly()).work_flop == want
    assert roofline.Point("p", IndexOnly(), 1, 1).work_flop == 1000


def test_out_of_range_counts_the_digits_of_the_integer():
    # len(repr(x)) counted the sign of -10**400, and the characters of whatever else failed.
    with pytest.raises(roofline.InputError, match=r"size n is out of range \(an integer of 401 "
                                                  r"digits\)"):
        roofline.kernel("saxpy", n=-10**400)
    with pytest.raises(roofline.InputError, match="size n is out of range"):
        roofline.kernel("saxpy", n=fractions.Fraction(10**400))


# 9. The same for every float argument --------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: roofline.Point("p", 10**400, 1, 1),
    lambda: roofline.Point("p", 1, {"L1": 10**400}, 1),
    lambda: roofline.Machine.from_roofs(10**400, 1),
    lambda: given().attainable_flop_per_s(10**400),
    lambda: roofline.llm.analyse(roofline.llm.model("llama-2-7b"), given(), batch=10**400),
])
def test_an_integer_beyond_a_float_is_out_of_range_not_incompatible(call):
    # pybind's "incompatible function arguments" listed the signature and said nothing of why.
    with pytest.raises(roofline.InputError, match=r"out of range \(an integer of 401 digits\)"):
        call()


# 2. NUL bytes and control characters in messages -------------------------------------------

@pytest.mark.parametrize("call, shown", [
    (lambda s: roofline.Machine(s), "unknown machine"),
    (lambda s: roofline.Machine.from_catalogue(s), "unknown machine"),
    (lambda s: roofline.llm.model(s), ""),
    (lambda s: roofline.kernel("sa" + s[1:] + "xpy", n=1), ""),
])
def test_a_nul_byte_in_a_message_is_shown_escaped_not_cut_short(call, shown):
    # "unknown machine 'a": the message ended at the NUL.
    with pytest.raises(roofline.InputError) as e:
        call("a\0b")
    text = str(e.value)
    assert "\0" not in text and shown in text
    assert "\\u0000b" in text, text
    assert len(text) > text.index("\\u0000b") + 2, text  # the rest of the message is there too
    with pytest.raises(roofline.InputError) as e:
        call("a\x1bb")
    assert "\x1b" not in str(e.value) and "\\u001bb" in str(e.value)


def test_an_unknown_keyword_is_shown_escaped():
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'a\\u0000b'"):
        roofline.llm.analyse(roofline.llm.model("llama-2-7b"), given(), **{"a\0b": 1})


# 3. compare selects roofs as attainable_flop_per_s does -------------------------------------

def test_roofs_given_as_two_numbers_are_compared_at_any_precision(cli, tmp_path):
    a, b = given("a"), roofline.Machine.from_roofs(2e12, 1e11, name="b")
    c = roofline.compare([a, b], 5, precision="fp64")
    assert [x.attainable_flop_per_s for x in c.machines] == [
        a.attainable_flop_per_s(5, "fp64"), b.attainable_flop_per_s(5, "fp64")]
    assert roofline.diagnose(roofline.Point("p", 5e9, 1e9, 1, precision="fp64"), a).verdict
    # The CLI's `hw compare` selects the same roofs of such machines saved to files.
    a.save(tmp_path / "a.json")
    b.save(tmp_path / "b.json")
    r = cli("hw", "compare", tmp_path / "a.json", tmp_path / "b.json", "--at", "5",
            "--precision", "fp64", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == c.to_dict()


# 4. traffic from any mapping -----------------------------------------------------------------

class Levels(collections.abc.Mapping):
    def __init__(self, d):
        self.d = d

    def __getitem__(self, key):
        return self.d[key]

    def __iter__(self):
        return iter(self.d)

    def __len__(self):
        return len(self.d)


class ListItems(Levels):
    """A Mapping whose items() yields lists, not tuples (they were read as tuples: SystemError)."""

    def items(self):
        return [[key, self.d[key]] for key in self.d]


@pytest.mark.parametrize("wrap", [dict, types.MappingProxyType, Levels, ListItems])
def test_traffic_by_level_is_any_mapping(wrap):
    p = roofline.Point("p", 1e9, wrap({"L2": 4e8, "DRAM": 1e9}), 1e-2)
    assert p.traffic_by_level == [("L2", 4e8), ("DRAM", 1e9)]


def test_traffic_of_another_type_is_a_type_error():
    for bad in ("1e9", [1e9], None, True):
        with pytest.raises(TypeError):
            roofline.Point("p", 1e9, bad, 1)


# 5. Paths --------------------------------------------------------------------------------------

POINTS = {"schema": "roofline.points", "version": 1,
          "points": [{"name": "k", "work": 80, "traffic": 1, "time": 1}]}


def test_check_takes_paths_as_str_or_path_like(tmp_path):
    points = tmp_path / "p.json"
    points.write_text(json.dumps(POINTS))
    config = tmp_path / "check.json"
    config.write_text(json.dumps({"schema": "roofline.check", "version": 1,
                                  "min_attainment": 0.5}))
    base = tmp_path / "base.json"  # another file: the points file itself is refused as one
    base.write_text(json.dumps(POINTS))
    want = roofline.check(str(points), baseline=str(base))
    assert roofline.check(points, baseline=base) == want
    machine = roofline.Machine.from_roofs(100, 1)
    want = roofline.check(str(points), machine=machine, config=str(config))
    assert roofline.check(points, machine=machine, config=config) == want
    with pytest.raises(TypeError, match="config: a path is a str or an os.PathLike"):
        roofline.check(points, machine=machine, config=bytes(config))
    with pytest.raises(TypeError, match="config: expected a check config's path"):
        roofline.check(points, machine=machine, config=5)
    with pytest.raises(TypeError, match="points: a path is a str or an os.PathLike"):
        roofline.check(bytes(points), baseline=points)


def _wrong_points(what, got):
    return (what + ": expected a points file's path (a str or an os.PathLike) or a list of "
            "Point (got " + got + ")")


@pytest.mark.parametrize("bad, want", [
    (None, _wrong_points("{}", "NoneType")),
    (5, _wrong_points("{}", "int")),
    ({}, _wrong_points("{}", "dict")),
    ("x".encode(), "{}: a path is a str or an os.PathLike giving one, not bytes"),
    ([roofline.Point("p", 1, 1, 1), "x"], _wrong_points("{}", "a list holding a str")),
])
def test_check_points_of_the_wrong_type_are_a_type_error(bad, want):
    # InputError ("expected a points file path or a list of Point") was a bad value's error.
    machine = roofline.Machine.from_roofs(100, 1)
    with pytest.raises(TypeError) as e:
        roofline.check(bad, machine=machine, min_attainment=0.5)
    assert str(e.value) == want.format("points")
    if bad is None:  # None is no baseline: the check runs without one
        bad, want = 5, _wrong_points("{}", "int")
    with pytest.raises(TypeError) as e:
        roofline.check([roofline.Point("p", 1, 1, 1)], baseline=bad)
    assert str(e.value) == want.format("baseline")


class BytesPath:
    """An os.PathLike giving bytes."""

    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return bytes(self.path)


def test_a_bytes_path_is_a_type_error_wherever_a_path_is_taken(tmp_path):
    # pybind's std::string and std::filesystem::path took bytes: Machine(b"a100-80gb") was
    # the A100, and only check() and Chart.save refused them as the docs said.
    machine = roofline.Machine("a100-80gb")
    path = tmp_path / "machine.json"
    machine.save(path)
    model = roofline.llm.model("llama-2-7b")
    calls = {
        "name_or_path": lambda p: roofline.Machine(p),
        "path": lambda p: roofline.Machine.load(p),
        "path (save)": lambda p: machine.save(p),
        "hw_dir": lambda p: roofline.Machine("a100-80gb", hw_dir=p),
        "hw_dir (from_catalogue)": lambda p: roofline.Machine.from_catalogue("a100-80gb", p),
        "hw_dir (catalogue)": lambda p: roofline.catalogue(hw_dir=p),
        "name_or_path (model)": lambda p: roofline.llm.model(p),
        "calibrate": lambda p: roofline.llm.analyse(model, machine, calibrate=p),
    }
    for name, call in calls.items():
        for bad in (bytes(path), BytesPath(path)):
            with pytest.raises(TypeError) as e:
                call(bad)
            assert str(e.value) == (name.split()[0] +
                                    ": a path is a str or an os.PathLike giving one, not bytes")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["machine.json"]
    # The str and the os.PathLike of each are taken alike.
    assert roofline.Machine.load(path).to_json() == roofline.Machine.load(str(path)).to_json()
    hw = tmp_path / "hw"  # an extra catalogue folder, empty
    hw.mkdir()
    assert [e.name for e in roofline.catalogue(hw_dir=hw)] == \
        [e.name for e in roofline.catalogue(hw_dir=str(hw))]
    assert roofline.Machine("a100-80gb", hw_dir=hw).to_json() == machine.to_json()
    # A file name that is no UTF-8, as Python holds it (surrogateescape): saved and loaded as
    # those bytes (a plain cast raised "Unable to cast Python instance").
    odd = os.path.join(str(tmp_path), os.fsdecode(b"m\xe9.json"))
    machine.save(odd)
    assert (bytes(tmp_path) + b"/m\xe9.json") in [os.path.join(bytes(tmp_path), n)
                                                 for n in os.listdir(bytes(tmp_path))]
    assert roofline.Machine.load(odd).to_json() == machine.to_json()
    assert roofline.Machine(pathlib.Path(odd)).to_json() == machine.to_json()


def test_chart_save_takes_a_str_or_a_path_like(tmp_path):
    chart = roofline.Chart(given())
    chart.save(tmp_path / "a.svg")
    chart.save(str(tmp_path / "b.svg"))
    assert (tmp_path / "a.svg").read_text() == (tmp_path / "b.svg").read_text()
    for bad in (str(tmp_path / "c.svg").encode(), None, 5):
        with pytest.raises(TypeError, match="Chart.save: path must be a str or an os.PathLike"):
            chart.save(bad)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg", "b.svg"]


def test_a_model_config_path_may_be_a_path_like():
    assert roofline.llm.model(LLAMA_CONFIG).to_dict() == \
        roofline.llm.model(str(LLAMA_CONFIG)).to_dict()


# 6. Chart's arguments, checked when it is made -----------------------------------------------

# A machine of the wrong type (Chart(5), overlays=[5]): tests/python/test_machine_arguments.py,
# since a name is a machine there as everywhere.
@pytest.mark.parametrize("args, kwargs, named", [
    ((), {"title": 5}, "title"),
    ((["x"],), {}, r"points\[0\]"),
    (("x",), {}, "points"),
    ((), {"overlays": "x"}, "overlays"),
    ((), {"workload_intensity_flop_per_byte": "5"}, "workload_intensity_flop_per_byte"),
    ((), {"workload_intensity_flop_per_byte": True}, "workload_intensity_flop_per_byte"),
    ((), {"no_overlap_curve": "no"}, "no_overlap_curve"),
])
def test_a_chart_argument_of_the_wrong_type_is_refused_when_made(args, kwargs, named):
    args = (given(),) + args
    with pytest.raises(TypeError, match="^Chart: " + named + " must be") as e:
        roofline.Chart(*args, **kwargs)
    assert "_Chart" not in str(e.value) and "workload_line" not in str(e.value)


def test_a_chart_argument_is_checked_again_when_it_is_drawn():
    chart = roofline.Chart(given(), workload_intensity_flop_per_byte=decimal.Decimal(5))
    assert "svg" in chart.to_svg()
    chart.title = 5
    with pytest.raises(TypeError, match="^Chart: title must be a str"):
        chart.to_svg()
    for bad in (0, -1, float("nan")):
        with pytest.raises(roofline.InputError,
                           match="workload_intensity_flop_per_byte: must be > 0"):
            roofline.Chart(given(), workload_intensity_flop_per_byte=bad)


def test_a_workload_line_beyond_a_float_is_an_input_error_naming_it():
    # float(10**400) raised a bare OverflowError.
    with pytest.raises(roofline.InputError) as e:
        roofline.Chart(given(), workload_intensity_flop_per_byte=10**400)
    assert str(e.value) == ("Chart: workload_intensity_flop_per_byte is out of range (an "
                            "integer of 401 digits)")
    chart = roofline.Chart(given(), workload_intensity_flop_per_byte=fractions.Fraction(5))
    assert chart.to_svg() == roofline.Chart(given(), workload_intensity_flop_per_byte=5).to_svg()


# 7. The limits the messages state ------------------------------------------------------------

def test_range_messages_state_the_real_limits():
    model, machine = roofline.llm.model("llama-2-7b"), roofline.Machine("a100-80gb")
    # They said "from 1 to 1e9", and 2e6 output tokens were refused "from 1 to 1000000".
    for n in (0.5, 2e6, 1e6 + 1):
        with pytest.raises(roofline.InputError,
                           match=r"^output_tokens: must be a whole number from 1 to 1000000 "):
            roofline.llm.request(model, machine, n)
        with pytest.raises(roofline.InputError, match=r"^output_tokens: .* from 1 to 1000000 "):
            roofline.llm.compare(model, [machine], output_tokens=n)
    for c in (0.5, 10001):
        with pytest.raises(roofline.InputError,
                           match=r"^concurrency: must be a whole number from 1 to 10000 "):
            roofline.llm.serve(model, machine, c, requests=[(16, 4)])
    for k in (0.5, 65):
        with pytest.raises(roofline.InputError, match=r"^k: must be a whole number from 1 to 64 "):
            roofline.llm.speculative(model, machine, draft=model, k=k)
    # The bounds themselves are the library's: taken.
    assert roofline.llm.speculative(model, machine, draft=model, k=64).k == 64
    assert roofline.llm.request(model, machine, 1e6, prompt=16).output == 1e6


@pytest.mark.parametrize("flags, bound", [
    (("--output-tokens", "1000001"), "from 1 to 1000000"),
    (("--concurrency", "10001", "--requests", "16:4"), "from 1 to 10000"),
    (("--spec-k", "65", "--draft", "llama-2-7b"), "from 1 to 64"),
])
def test_the_cli_states_the_same_limits(cli, flags, bound):
    # One declaration of each limit (llm.hpp) for the library's checks and the bindings'.
    r = cli("llm", "--model", "llama-2-7b", "--hw", "a100-80gb", *flags)
    assert r.returncode == 2 and bound + " (got " in r.stderr, r.stderr


# 8. noise ------------------------------------------------------------------------------------

def test_a_noise_out_of_range_is_refused_for_its_own_reason():
    points = [roofline.Point("k", 80, 1, 1.0)]
    for noise in (0, -1):
        with pytest.raises(roofline.InputError) as e:
            roofline.check(points, baseline=points, noise=noise)
        assert "so it is more than 0" in str(e.value)
        assert "100%" not in str(e.value)
    for noise in (1, 2):
        with pytest.raises(roofline.InputError, match="a noise of 100% or more is too noisy to judge"):
            roofline.check(points, baseline=points, noise=noise)
    with pytest.raises(roofline.InputError, match=r"\(got nan\)$"):
        roofline.check(points, baseline=points, noise=float("nan"))


# 10. A bool is no int and no float -----------------------------------------------------------

def test_a_bool_is_refused_where_a_count_or_a_number_is_expected():
    model, machine = roofline.llm.model("llama-2-7b"), roofline.Machine("a100-80gb")
    calls = int_calls()
    calls.update({
        "eps_flop": lambda b: roofline.energy(machine, eps_flop=b, eps_mem=1e-11, pi0=1),
        "intensities": lambda b: roofline.energy(machine, eps_flop=1e-11, eps_mem=1e-11,
                                                  pi0=1, intensities=[b]),
        "requests": lambda b: roofline.llm.serve(model, machine, 1, requests=[(b, b)]),
        "price_per_hour": lambda b: roofline.llm.compare(model, [machine], price_per_hour=b),
        "price_per_hour dict": lambda b: roofline.llm.compare(
            model, [machine], price_per_hour={"a100-80gb": b}),
    })
    for name, call in calls.items():
        with pytest.raises(TypeError):
            call(True)
    # The same calls with numbers work.
    assert calls["tp"](2).tokens_per_s > 0
    assert calls["parameters tp"](2)["total"] > 0
    assert calls["zero"](1).step_s > 0
    assert calls["eps_flop"](1e-11)
    assert calls["intensities"](2)
    assert calls["requests"](16).output_tokens_per_s > 0
    assert calls["price_per_hour"](2.0)[0]


def numpy_like(name, **methods):
    """A stand-in for a numpy scalar type (numpy is not installed here): a class of numpy's name
    in the module numpy."""
    return type(name, (), dict(methods, __module__="numpy"))


# numpy.float32(2.9): int() cuts it to 2. numpy 1's bool_ and numpy 2's bool, with every way
# of reading as 1 a stand-in can have.
FLOAT32 = numpy_like("float32", __float__=lambda s: 2.9, __int__=lambda s: 2)()
NUMPY_BOOLS = [numpy_like(name, __bool__=lambda s: True, __int__=lambda s: 1,
                          __index__=lambda s: 1, __float__=lambda s: 1.0)()
               for name in ("bool_", "bool")]
INT64 = numpy_like("int64", __index__=lambda s: 2)()


def int_calls():
    model, machine = roofline.llm.model("llama-2-7b"), roofline.Machine("a100-80gb")
    return {
        "tp": lambda v: roofline.llm.analyse(model, machine, tp=v),
        "cp": lambda v: roofline.llm.request(model, machine, 8, cp=v),
        "pp": lambda v: roofline.llm.train(model, machine, pp=v),
        "parameters tp": lambda v: model.parameters(tp=v),
        "zero": lambda v: roofline.llm.train(model, machine, zero=v),
        "threads": lambda v: roofline.Machine.measure(threads=v, precisions=["none"]),
    }


@pytest.mark.parametrize("bad", [2.0, 2.9, decimal.Decimal("2.7"), fractions.Fraction(5, 2),
                                 FLOAT32] + NUMPY_BOOLS,
                         ids=["2.0", "2.9", "Decimal", "Fraction", "float32", "bool_", "bool"])
def test_a_count_is_an_integer_never_a_number_cut_short(bad):
    # pybind's int read anything with __int__: tp=numpy.float32(2.9) was 2, zero=Decimal("2.7")
    # 2, threads=numpy.True_ 1. A float is refused even when whole (docs/python.md).
    got = type(bad).__name__
    for name, call in int_calls().items():
        with pytest.raises(TypeError) as e:
            call(bad)
        # Every int parameter names itself (zero and threads gave pybind's signature list).
        assert str(e.value) == "%s: expected an int (got %s)" % (name.split()[-1], got), name


def test_a_count_is_an_int_or_what_has_index():
    calls = int_calls()
    assert calls["tp"](INT64).to_dict() == calls["tp"](2).to_dict()
    assert calls["parameters tp"](INT64) == calls["parameters tp"](2)
    assert calls["zero"](INT64).to_dict() == calls["zero"](2).to_dict()
    with pytest.raises(roofline.InputError, match=r"^tp: 1099511627776 is out of range \(at most "
                                                  r"2147483647\)$"):
        calls["tp"](numpy_like("int64", __index__=lambda s: 2**40)())


@pytest.mark.parametrize("np_bool", NUMPY_BOOLS, ids=["bool_", "bool"])
def test_numpys_bool_of_either_name_is_a_bool_in_python_and_cpp_alike(np_bool):
    # Python's own test knew numpy 1's name only (bool_), and C++ matched the type's C name
    # ("numpy.bool"), which a class named bool in the module numpy does not have.
    assert roofline._roofline._is_bool(np_bool) and not roofline._roofline._is_real(np_bool)
    assert roofline.Chart(given(), no_overlap_curve=np_bool).to_svg() == \
        roofline.Chart(given(), no_overlap_curve=True).to_svg()
    with pytest.raises(TypeError, match="^Chart: workload_intensity_flop_per_byte must be a "
                                        "number"):
        roofline.Chart(given(), workload_intensity_flop_per_byte=np_bool)
    with pytest.raises(TypeError, match=r"^work_flop: expected a number \(got bool_?\)$"):
        roofline.Point("p", np_bool, 1, 1)
    assert not roofline._roofline._is_bool(1) and roofline._roofline._is_real(1)
    for real in (1.5, decimal.Decimal(2), fractions.Fraction(1, 2), FLOAT32, INT64):
        assert roofline._roofline._is_real(real) and not roofline._roofline._is_bool(real)
    for other in ("1", b"1", 1j, None):
        assert not roofline._roofline._is_real(other)


def test_an_int_beyond_a_c_int_is_out_of_range():
    model, machine = roofline.llm.model("llama-2-7b"), roofline.Machine("a100-80gb")
    with pytest.raises(roofline.InputError, match=r"^zero is out of range \(2199"):
        roofline.llm.train(model, machine, zero=2**41)


# 11. Messages --------------------------------------------------------------------------------

def test_a_class_without_a_constructor_says_where_its_objects_come_from():
    for make in (lambda c: c.__new__(c), lambda c: c()):
        with pytest.raises(TypeError, match=r"^ComputeRoof has no constructor: its objects come "
                                            r"from the library \(Machine.compute_roof\(\)"):
            make(roofline.ComputeRoof)
        with pytest.raises(TypeError, match=r"^Report has no constructor: .*roofline.llm.analyse"):
            make(roofline.llm.Report)
    with pytest.raises(TypeError, match=r"^Point.__new__ alone makes no object: call Point"):
        roofline.Point.__new__(roofline.Point)


def test_a_level_is_quoted_alike_in_every_traffic_message():
    with pytest.raises(roofline.InputError, match=r"traffic\[L1\] must be a number"):
        roofline.Point("p", 1e9, {"L1": "2e8"}, 1e-2)
    with pytest.raises(roofline.InputError, match=r"traffic\[L1\] must be > 0"):
        roofline.Point("p", 1e9, {"L1": -1}, 1e-2)


def test_a_kernel_without_arithmetic_says_why_it_has_no_point():
    with pytest.raises(roofline.InputError,
                       match=r"kernel 'copy' does no arithmetic \(W = 0\), so it has no point "
                             r"on the roofline \(I = W/Q = 0\)"):
        roofline.kernel("copy", n=1e8).point(0.01)


@pytest.mark.parametrize("bad", [True, "8", None, [8]], ids=["bool", "str", "None", "list"])
def test_a_number_of_the_llm_functions_of_the_wrong_type_is_named(bad):
    # pybind's "incompatible function arguments" listed the whole signature and no name.
    model, machine = roofline.llm.model("llama-2-7b"), roofline.Machine("a100-80gb")
    got = type(bad).__name__
    for name, call in {
        "batch": lambda v: roofline.llm.analyse(model, machine, batch=v),
        "context": lambda v: roofline.llm.analyse(model, machine, context=v),
        "output_tokens": lambda v: roofline.llm.request(model, machine, v),
        "concurrency": lambda v: roofline.llm.serve(model, machine, v, [(128, 16)]),
        "alpha": lambda v: roofline.llm.speculative(model, machine, draft="mtp", alpha=v),
        "sequence": lambda v: roofline.llm.train(model, machine, sequence=v),
        "tokens_per_s": lambda v: roofline.llm.cost(v, machine),
    }.items():
        with pytest.raises(TypeError) as e:
            call(bad)
        assert str(e.value) == "%s: expected a number (got %s)" % (name, got), name


def test_the_diagnosis_prose_is_escaped_as_everything_printed(tmp_path):
    # A roof named with ESC and a bidi override: print(d.title) sent the raw escape to the
    # terminal, where str(d), the charts and the CLI show it escaped.
    doc = {"schema": "roofline.machine", "version": 1, "name": "m",
           "compute": [{"name": "fp32 \x1b[31mvec\u202etor\x07", "precision": "fp32",
                        "peak": 1e12}],
           "memory": [{"level": "DRAM", "bandwidth": 1e11}]}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    # On the compute roof (I = 1000 past the ridge at 10): the title names it.
    d = roofline.diagnose(roofline.Point("p", 1e12, 1e9, 1.0), roofline.Machine(str(path)))
    for text in [d.title, d.prescription] + list(d.notes) + list(d.causes):
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text, text
    assert "\\u001b[31mvec\\u202etor\\u0007" in d.title, d.title
