"""Arguments read strictly and named in the error: a str UTF-8 cannot encode, a bool that is a
number, a 0-d numpy array where a number is expected (docs/python.md, "Errors")."""
import pytest

import roofline

BAD = "a\ud800b"  # a lone surrogate: a str that is no text


def _machine():
    return roofline.Machine.from_roofs(19.5e12, 2e12)


@pytest.mark.parametrize("call, named", [
    (lambda: roofline.kernel("saxpy", **{BAD: 1}), "saxpy: a size's name"),
    (lambda: roofline.Point("p", 1, {BAD: 1}, 1), "traffic: a level's name"),
    (lambda: roofline.Point(BAD, 1, 1, 1), "name"),
    (lambda: roofline.Chart(_machine(), title=BAD), "Chart: title"),
    (lambda: roofline.Machine(BAD), "name_or_path"),
    (lambda: roofline.Machine.load(BAD), "path"),
    (lambda: roofline.Machine.from_roofs(1e12, 1e11, BAD), "precision"),
    (lambda: _machine().compute_roof(BAD), "name_or_precision"),
    (lambda: roofline.kernel(BAD), "name"),
    (lambda: roofline.llm.model(BAD), "name_or_path"),
    (lambda: roofline.llm.analyse(roofline.llm.model("llama-2-7b"), _machine(),
                                  weights=BAD), "weights"),
    (lambda: roofline.llm.analyse(roofline.llm.model("llama-2-7b"), _machine(),
                                  **{BAD: 1}), "analyse(): a keyword's name"),
])
def test_a_lone_surrogate_is_an_input_error_naming_the_argument(call, named):
    # They were a bare RuntimeError ("Unable to cast"), a TypeError ("incompatible constructor
    # arguments") or a UnicodeEncodeError.
    with pytest.raises(roofline.InputError) as e:
        call()
    text = str(e.value)
    assert text.startswith(named) or (": " + named + ":") in text or named + ":" in text, text
    assert "lone surrogate (U+D800 at index 1)" in text, text


def test_a_paths_surrogate_escapes_are_still_its_bytes(tmp_path):
    import os
    name = os.fsdecode(b"m\xe9.json")  # "m\udce9.json": bytes that are no UTF-8
    with pytest.raises(roofline.InputError, match="no such file"):
        roofline.Machine.load(str(tmp_path / name))


@pytest.mark.parametrize("value", [0.5, 2, 0, 1.0, "no", None])
def test_a_bool_keyword_takes_a_bool_only(value):
    # flash=0.5 and flash=2 ran as True.
    model, m = roofline.llm.model("llama-2-7b"), _machine()
    with pytest.raises(TypeError, match="flash: "):
        roofline.llm.analyse(model, m, flash=value)
    with pytest.raises(TypeError, match="ep"):
        roofline.llm.analyse(model, m, ep=value)
    # Named, as the keywords above are (it was pybind's "incompatible function arguments").
    with pytest.raises(TypeError, match="no_overlap_curve must be a bool"):
        roofline.Chart(m, no_overlap_curve=value)
    with pytest.raises(TypeError, match="sequence_parallel: expected a bool"):
        roofline.llm.train(model, m, tp=2, sequence_parallel=value)


def test_a_bool_keyword_still_takes_true_and_false():
    model, m = roofline.llm.model("llama-2-7b"), _machine()
    on = roofline.llm.analyse(model, m, context=8192, flash=True)
    off = roofline.llm.analyse(model, m, context=8192, flash=False)
    assert on.to_dict() != off.to_dict()
    roofline.llm.train(model, roofline.Machine("h100-sxm"), tp=2, sequence_parallel=True)


@pytest.mark.parametrize("columns", [True, False, 40.0, 80.5, "80"])
def test_to_terminal_refuses_a_bool_or_a_non_integer_as_a_type_error(columns):
    chart = roofline.Chart(_machine())
    with pytest.raises(TypeError, match="columns"):
        chart.to_terminal(columns)
    with pytest.raises(roofline.InputError, match="columns"):
        chart.to_terminal(39)
    assert chart.to_terminal(40)


class ndarray:  # noqa: N801  (numpy's name: the bindings know the array by it)
    """A stand-in for a 0-d numpy array as the bindings see one: type numpy.ndarray, ndim 0,
    __index__ refusing a float element as numpy's does, a[()] giving the element."""

    def __init__(self, element, ndim=0):
        self._element, self.ndim = element, ndim

    def __float__(self):
        return float(self._element)

    def __index__(self):
        if not isinstance(self._element, int) or isinstance(self._element, bool):
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return self._element

    def __getitem__(self, key):
        assert key == ()
        return self._element


ndarray.__module__ = "numpy"


def _arrays():
    """Real 0-d numpy arrays where numpy imports, and the stand-in always."""
    made = [ndarray]
    try:
        import numpy
    except ImportError:
        return made
    return made + [numpy.array]


@pytest.mark.parametrize("array", _arrays())
def test_a_0_dim_array_is_a_number(array):
    # m.attainable_flop_per_s(numpy.array(3.0)) was a TypeError; float() reads it.
    m = _machine()
    assert m.attainable_flop_per_s(array(3.0)) == m.attainable_flop_per_s(3.0)
    assert roofline.kernel("saxpy", n=array(8.0)).work_flop == 16
    assert roofline.Point("p", array(2e9), {"DRAM": array(1e9)}, array(1.0)).work_flop == 2e9
    assert m.attainable_flop_per_s(array(3)) == m.attainable_flop_per_s(3)
    model = roofline.llm.model("llama-2-7b")
    assert model.parameters(tp=array(2)) == model.parameters(tp=2)
    with pytest.raises(TypeError):
        model.parameters(tp=array(2.0))  # a float is no int, in an array or not
    with pytest.raises(TypeError):
        m.attainable_flop_per_s(array(True))  # a bool is no number, in an array or not


def test_an_array_with_dimensions_is_still_no_number():
    with pytest.raises(TypeError):
        _machine().attainable_flop_per_s(ndarray([3.0], ndim=1))


def test_the_package_does_not_import_numpy():
    import subprocess
    import sys
    code = "import sys, roofline; print('numpy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
