"""A wrong type is a TypeError naming the parameter and what it takes, never pybind11's
"incompatible function arguments" with the whole signature."""
import pytest

import roofline

M = "llama-2-7b"
H = "a100-80gb"


def raises_named(call, pattern):
    with pytest.raises(TypeError, match=pattern) as e:
        call()
    assert "incompatible" not in str(e.value)
    return e


def test_llm_compare_machines():
    taken = "a list of machines"
    raises_named(lambda: roofline.llm.compare(M, "a100-80gb"), r"^machines: expected " + taken)
    raises_named(lambda: roofline.llm.compare(M, None), r"^machines: expected .*\(got NoneType\)")
    raises_named(lambda: roofline.llm.compare(M, 3), r"^machines: expected .*\(got int\)")
    raises_named(lambda: roofline.llm.compare(M, (h for h in [H])), r"^machines: expected ")
    raises_named(lambda: roofline.llm.compare(M, [H, 3]),
                 r"^machines\[1\]: expected a roofline\.Machine.*\(got int\)")


def test_llm_serve_requests_and_text_keywords():
    raises_named(lambda: roofline.llm.serve(M, H, 2, [(10,)]),
                 r"^requests\[0\]: expected a \(prompt, output\) pair of numbers \(got tuple of 1\)")
    raises_named(lambda: roofline.llm.serve(M, H, 2, None),
                 r"^requests: expected a list of \(prompt, output\) pairs \(got NoneType\)")
    raises_named(lambda: roofline.llm.serve(M, H, 2, [(10, "x")]),
                 r"^requests\[0\]: output: expected a number \(got str\)")
    raises_named(lambda: roofline.llm.train(M, H, recompute=3),
                 r"^recompute: expected a str \(got int\)")
    raises_named(lambda: roofline.llm.analyse(M, H, phase=3), r"^phase: expected a str \(got int\)")


def test_kernel_point():
    k = roofline.kernel("axpy", n=1000)
    # A call of the wrong shape names the argument, as Python's own functions do.
    raises_named(lambda: k.point(), r"^KernelCount\.point\(\) missing required argument 'time_s'$")
    raises_named(lambda: k.point(time=1),
                 r"^KernelCount\.point\(\) got an unexpected keyword argument 'time' "
                 r"\(did you mean 'time_s'\?\)$")
    raises_named(lambda: k.point(1, "a", 3),
                 r"^KernelCount\.point\(\) takes at most 2 positional arguments \(got 3\)$")
    raises_named(lambda: roofline.diff("a100-80gb"), r"^diff\(\) missing required argument ")
    raises_named(lambda: k.point("x"), r"^time_s: expected a number \(got str\)")
    raises_named(lambda: k.point(True), r"^time_s: expected a number \(got bool\)")
    raises_named(lambda: k.point(1, name=3), r"^name: expected a str \(got int\)")


def test_machine_and_its_methods():
    m = roofline.Machine(H)
    raises_named(lambda: roofline.Machine(3), r"^name_or_path: expected a str or an os\.PathLike "
                                              r"\(got int\)")
    raises_named(lambda: roofline.Machine(), r"^Machine\(\) missing required argument "
                                             r"'name_or_path'$")
    raises_named(lambda: roofline.Machine(H, hw=1),
                 r"^Machine\(\) got an unexpected keyword argument 'hw' \(did you mean 'hw_dir'")
    raises_named(lambda: roofline.Machine.load(3), r"^path: expected a str or an os\.PathLike")
    raises_named(lambda: roofline.Machine.from_roofs(True, 1e11),
                 r"^peak_flop_per_s: expected a number \(got bool\)")
    raises_named(lambda: roofline.Machine.from_roofs("1e12", 1e11),
                 r"^peak_flop_per_s: expected a number \(got str\)")
    raises_named(lambda: m.compute_roof(3), r"^name_or_precision: expected a str \(got int\)")
    raises_named(lambda: m.attainable_flop_per_s("x"),
                 r"^intensity_flop_per_byte: expected a number \(got str\)")
    p = roofline.Point("p", 1e9, {"DRAM": 1e9}, 1)
    raises_named(lambda: p.intensity_at(3), r"^level: expected a str \(got int\)")


def test_diagnose_energy_check():
    m = roofline.Machine(H)
    p = roofline.Point("p", 1e9, 1e9, 1)
    raises_named(lambda: roofline.diagnose(3, m), r"^point: expected a roofline\.Point \(got int\)")
    raises_named(lambda: roofline.diagnose(p, m, touching="x"),
                 r"^touching: expected a number \(got str\)")
    raises_named(lambda: roofline.energy(m, eps_flop="1 pJ", eps_mem=1e-11),
                 r"^eps_flop: expected a number \(got str\)")
    raises_named(lambda: roofline.energy(m, intensities=5),
                 r"^intensities: expected a list of numbers \(got int\)")
    raises_named(lambda: roofline.energy(m, eps_flop=1e-12, eps_mem=1e-11, intensities=[1, "x"]),
                 r"^intensities\[1\]: expected a number \(got str\)")
    raises_named(lambda: roofline.check([p], m, min_attainment="x"),
                 r"^min_attainment: expected a number \(got str\)")
    raises_named(lambda: roofline.check([p], m, precision=3), r"^precision: expected a str")
