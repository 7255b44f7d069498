"""A kernel's Point is judged on the roof `roofline kernel` judges the kernel on: a kernel that
is no matrix product (axpy, a stencil, the add-only double loop) on its dtype's vector roof,
never on a matrix engine it cannot use; a matrix product (gemm) on the dtype's highest roof;
where the dtype has no vector roof (fp8 on H100), its tensor roof with a note. One rule serves
both (vector_roof_for, behind kernel_compute_roof and diagnose)."""
import pytest

import roofline

# (kernel, sizes, dtype, machine, compute roof, its peak in FLOP/s from data/hw)
CASES = [
    # W = 2n² over Q = 2n·2 B: I = n/2 = 5e4, right of every ridge, so the flat roof binds.
    ("add-double-loop", {"n": 1e5}, "fp16", "a100-80gb", "fp16 vector", 78e12),
    ("axpy", {"n": 1e8}, "fp16", "a100-80gb", "fp16 vector", 78e12),
    ("stencil3d", {"nx": 512, "ny": 512, "nz": 512}, "", "h100-sxm", "fp64 vector", 33.5e12),
    ("gemm", {"m": 1024, "n": 1024, "k": 1024}, "fp16", "a100-80gb", "fp16 tensor", 312e12),
    ("add-double-loop", {"n": 1e5}, "fp8", "h100-sxm", "fp8 tensor", None),
]


def cli_flags(sizes, dtype):
    flags = []
    for key, value in sizes.items():
        flags += ["--" + key, repr(value)]
    return flags + (["--dtype", dtype] if dtype else [])


@pytest.mark.parametrize("name, sizes, dtype, machine, roof, peak", CASES)
def test_a_kernel_point_is_judged_on_the_cli_kernel_roof(cli_json, name, sizes, dtype, machine,
                                                          roof, peak):
    k = roofline.kernel(name, dtype=dtype, **sizes)
    d = roofline.diagnose(k.point(1.0), machine)
    on = cli_json("kernel", name, *cli_flags(sizes, dtype), "--hw", machine)["machine"]
    assert d.compute_roof == on["compute_roof"] == roof
    assert d.attainable_flop_per_s == pytest.approx(on["attainable"], rel=1e-12)
    if peak is not None:
        assert roofline.Machine(machine).compute_roof(roof).peak_flop_per_s == peak
    if name == "add-double-loop" and peak is not None:
        # Compute-bound at I = 5e4: the attainable is the roof's peak (fp16 on an A100 read
        # 312 TFLOP/s, the tensor cores', before).
        assert d.attainable_flop_per_s == peak


def test_no_vector_roof_of_the_type_falls_back_with_the_cli_note(cli):
    # fp8 on H100: tensor cores only. The same roof as the CLI, and a note saying why.
    k = roofline.kernel("axpy", dtype="fp8", n=1e6)
    d = roofline.diagnose(k.point(1.0), "h100-sxm")
    r = cli("kernel", "axpy", "--n", "1e6", "--dtype", "fp8", "--hw", "h100-sxm")
    assert r.returncode == 0, r.stderr
    said = ("judged on 'fp8 tensor', the only fp8 roof: %s is no matrix product, which that "
            "unit runs, so the bound is optimistic")
    assert said % "axpy" in r.stdout
    assert d.compute_roof == "fp8 tensor"
    assert [n for n in d.notes if "no matrix product" in n] == [
        "J" + said[1:] % "point 'axpy'" + " (name a roof as the point's precision)."]


def test_vector_only_is_the_kernels_and_can_be_given():
    assert roofline.kernel("axpy", n=1e6).point(1.0).vector_only is True
    assert roofline.kernel("gemm", m=64, n=64, k=64).point(1.0).vector_only is False
    assert roofline.Point("p", 1e9, 1e9, 1).vector_only is False
    a100 = roofline.Machine("a100-80gb")
    # I = 1e4: compute-bound on either roof, so the attainable is the roof's peak.
    vector = roofline.Point("p", 1e13, 1e9, 1.0, precision="fp16", vector_only=True)
    assert roofline.diagnose(vector, a100).compute_roof == "fp16 vector"
    assert roofline.diagnose(vector, a100).attainable_flop_per_s == 78e12
    plain = roofline.Point("p", 1e13, 1e9, 1.0, precision="fp16")
    assert roofline.diagnose(plain, a100).attainable_flop_per_s == 312e12
    # A roof named as the precision is the one used, vector_only or not.
    named = roofline.Point("p", 1e13, 1e9, 1.0, precision="fp16 tensor", vector_only=True)
    assert roofline.diagnose(named, a100).compute_roof == "fp16 tensor"
