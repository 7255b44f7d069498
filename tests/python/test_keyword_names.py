"""A keyword argument whose name UTF-8 cannot encode (a lone surrogate, "\\ud800") is an
InputError naming the function and the keyword, escaped, from every function of the package:
pybind11's "incompatible function arguments" message wrote such a name as UTF-8 and aborted
the interpreter (SIGABRT; python/bindings/module.cpp, check_keyword_names)."""
import os
import subprocess
import sys
import textwrap

import pytest

# Each call is run in its own interpreter: before the fix the first one aborted it.
CALLS = {
    "diff": 'roofline.diff("a100-80gb", "h100-sxm", **{"\\ud800": 1})',
    "diagnose": 'roofline.diagnose(P, M, **{"\\ud800": 1})',
    "compare": 'roofline.compare(["a100-80gb", "h100-sxm"], 10, **{"\\ud800": 1})',
    "energy": 'roofline.energy(M, **{"\\ud800": 1})',
    "Machine.from_roofs": 'roofline.Machine.from_roofs(1e12, 1e11, **{"\\ud800": 1})',
    "Machine.compute_roof": 'M.compute_roof(**{"\\ud800": 1})',
    "KernelCount.point": 'roofline.kernel("axpy", n=1).point(1, **{"\\ud800": 1})',
    "Point": 'roofline.Point("x", 1e9, 1, 1, **{"w\\ud800": 1})',
    "Machine": 'roofline.Machine("a100-80gb", **{"\\ud800": 1})',
}


@pytest.mark.parametrize("function", sorted(CALLS))
def test_a_keyword_name_that_is_no_text_is_an_input_error(function):
    script = textwrap.dedent("""
        import roofline
        M = roofline.Machine("a100-80gb")
        P = roofline.Point("p", 1e9, 1e9, 1)
        try:
            %s
        except roofline.InputError as e:
            print("InputError:", ascii(str(e)))
        except BaseException as e:
            print("other:", type(e).__name__, ascii(str(e)))
    """) % CALLS[function]
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120, env=os.environ)
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout.strip()
    assert out.startswith("InputError: "), out
    name = function.split(".")[-1] if function != "Point" else "Point"
    assert (name + "(): a keyword's name") in out, out
    # The name escaped, as Python's ascii() writes it, with where the surrogate is.
    assert "\\\\ud800" in out and "U+D800" in out, out
