"""roofline.torch: a small real model's operators, W from torch's own FLOP counting (the
profiler's with_flops) against the hand count 2·m·n·k, Q against the library's compulsory
count. Skipped as a whole where torch is absent; test_torch_absent.py checks that case."""
import os
import subprocess
import sys
import warnings

import pytest

import roofline

torch = pytest.importorskip("torch", reason="python3-torch is not installed")
import roofline.torch as rt  # noqa: E402  (only where torch imports)
from kineto_event import Event  # noqa: E402


def mlp_ops(batch, sizes):
    torch.manual_seed(0)
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers[:-1])
    x = torch.randn(batch, sizes[0])
    with torch.no_grad():
        model(x)  # warm-up outside the profile
        with rt.profile() as prof:
            model(x)
    return prof


def test_mlp_matmul_work_is_2mnk_and_traffic_the_compulsory_count():
    batch, sizes = 16, [64, 128, 32]
    prof = mlp_ops(batch, sizes)
    ops = [op for op in prof.operators() if op.name == "aten::addmm"]
    assert len(ops) == len(sizes) - 1
    for op, (k, n) in zip(ops, zip(sizes, sizes[1:])):
        m = batch
        assert op.work_flop == 2 * m * n * k  # torch's count = the hand count
        gemm = roofline.kernel("gemm", m=m, n=n, k=k)  # fp32: (mk + kn + mn)·4 B
        assert op.work_flop == gemm.work_flop
        # addmm also reads the bias (n elements): compulsory traffic = gemm's + 4·n bytes.
        assert op.traffic_byte == gemm.traffic_byte + 4 * n
        assert op.output_counted
        assert op.precision == "fp32"
        assert op.time_s > 0
        assert op.time_source == "cpu"  # no GPU here: the profiler's CPU time
        p = op.point()
        assert p.intensity_flop_per_byte == pytest.approx(
            2 * m * n * k / (4 * (m * k + k * n + m * n + n)), rel=1e-15)


def test_by_type_sums_the_calls_and_diagnoses_on_a_machine():
    batch, sizes = 32, [128, 256, 256, 64]
    prof = mlp_ops(batch, sizes)
    agg = {op.name: op for op in prof.by_type()}
    assert agg["aten::addmm"].calls == 3
    want = sum(2 * batch * a * b for a, b in zip(sizes, sizes[1:]))
    assert agg["aten::addmm"].work_flop == want
    machine = roofline.Machine("a100-80gb")
    pairs = prof.diagnose(machine)
    assert pairs
    for op, d in pairs:
        # The point sits where W/Q and W/T put it, judged on the fp32 roof.
        assert d.compute_roof == machine.compute_roof("fp32").name
        assert d.levels[0].intensity_flop_per_byte == pytest.approx(
            op.work_flop / op.traffic_byte, rel=1e-15)
        assert d.performance_flop_per_s == pytest.approx(op.work_flop / op.time_s, rel=1e-15)
    table = prof.table(machine)
    assert "aten::addmm" in table and "lower bound" in table
    # Each row's attainment with 3 significant digits, as diagnose() gives it (a far-below
    # operator read 0.0% with one decimal).
    for op, d in pairs:
        row = next(line for line in table.splitlines() if line.startswith(op.name + " "))
        assert row.rstrip().endswith(rt._percent(d.attainment)), row
    assert [rt._percent(r) for r in (0.918, 0.72, 0.000285, 12.34, 1000)] == [
        "91.8%", "72%", "0.0285%", "1234%", "100000%"]
    svg = prof.chart(machine).to_svg()
    assert "aten::addmm" in svg


def mixed_dtype_ops(batch):
    """An fp32 layer feeding a bf16 one, profiled."""
    torch.manual_seed(0)
    fp32 = torch.nn.Linear(32, 64)
    bf16 = torch.nn.Linear(64, 16).to(torch.bfloat16)
    x = torch.randn(batch, 32)
    with torch.no_grad():
        bf16(fp32(x).to(torch.bfloat16))
        with rt.profile() as prof:
            bf16(fp32(x).to(torch.bfloat16))
    return prof


def test_by_type_keeps_an_operators_dtypes_apart():
    # One fp32 and one bf16 layer (autocast's mix): aten::addmm in two dtypes is two rows, each
    # on its own precision's roof, each with the 2mnk of its own calls.
    if rt._flop_counter_mode() is not None:
        pytest.skip("this torch has FlopCounterMode: its totals are per name")
    batch = 8
    prof = mixed_dtype_ops(batch)
    agg = {op.name: op for op in prof.by_type()}
    assert "aten::addmm" not in agg, sorted(agg)
    assert agg["aten::addmm (fp32)"].precision == "fp32"
    assert agg["aten::addmm (fp32)"].work_flop == 2 * batch * 32 * 64
    assert agg["aten::addmm (bf16)"].precision == "bf16"
    assert agg["aten::addmm (bf16)"].work_flop == 2 * batch * 64 * 16
    assert agg["aten::addmm (bf16)"].calls == 1
    machine = roofline.Machine("a100-80gb")
    roofs = {op.name: d.compute_roof for op, d in prof.diagnose(machine) if d is not None}
    assert roofs["aten::addmm (fp32)"] == machine.compute_roof("fp32").name
    assert roofs["aten::addmm (bf16)"] == machine.compute_roof("bf16").name
    assert len({p.name for p in prof.points(by_type=True)}) == len(prof.by_type())


def test_transformer_block_attention_products_are_2mnk():
    torch.manual_seed(0)
    d, heads, seq, batch = 64, 4, 16, 2
    block = torch.nn.TransformerEncoderLayer(d, heads, dim_feedforward=128, batch_first=True)
    block.eval()
    x = torch.randn(batch, seq, d)
    with torch.no_grad():
        block(x)
        with rt.profile() as prof:
            block(x)
    ops = prof.operators()
    names = [op.name for op in ops]
    # The q/k/v projection, the two attention products (scores Q·Kᵀ, then ·V) and at least one
    # more linear layer.
    assert names.count("aten::bmm") == 2
    assert "aten::mm" in names or "aten::addmm" in names
    seen = 0
    # Every matrix product's W is 2·m·n·k of its recorded shapes.
    for op in ops:
        if op.name == "aten::addmm":
            (_, (m, k), (_, n)) = op.shapes
            assert op.work_flop == 2 * m * n * k
        elif op.name == "aten::bmm":  # bmm(A, B) or bmm.out(A, B, out)
            ((b, m, k), (_, _, n)) = op.shapes[:2]
            assert op.output_counted
            assert op.work_flop == 2 * b * m * n * k
        elif op.name == "aten::mm":
            ((m, k), (_, n)) = op.shapes[:2]
            assert op.work_flop == 2 * m * n * k
        else:
            continue
        seen += 1
    assert seen >= 4
    # Attention scores: batch·heads = 8 products of (seq × head_dim)·(head_dim × seq).
    scores = next(op for op in ops if op.name == "aten::bmm")
    assert scores.work_flop == 2 * (batch * heads) * seq * seq * (d // heads)


def test_an_operator_without_a_roof_of_its_dtype_is_left_unjudged():
    # An int64 product (index arithmetic) beside an fp32 layer: no machine has an int64 roof,
    # so that operator is not judged, and the fp32 ones still are. Roofs given as two numbers
    # name no precision and judge every operator.
    torch.manual_seed(0)
    lin = torch.nn.Linear(32, 16)
    x = torch.randn(8, 32)
    idx = torch.arange(100000)
    q = torch.ones(100, 100, dtype=torch.int8)
    with torch.no_grad():
        lin(x)
        with rt.profile() as prof:
            lin(x)
            idx * idx
            q * q
    ops = {op.precision: op for op in prof.operators()}
    assert "int64" in ops and "fp32" in ops and "int8" in ops
    a100 = roofline.Machine("a100-80gb")
    judged = {op.precision: d for op, d in prof.diagnose(a100, by_type=False)}
    assert judged["int64"] is None
    assert judged["fp32"].compute_roof == a100.compute_roof("fp32").name
    table = prof.table(a100, by_type=False)
    assert "no int64 roof" in table and "are not judged" in table
    assert "aten::addmm" in prof.chart(a100, by_type=False).to_svg()
    given = roofline.Machine.from_roofs(19.5e12, 2e12)
    # Every operator but the int8 product, whose OP are not judged on a peak of FLOP/s (it
    # raised for the whole table); a peak given as int8 judges it.
    for op, d in prof.diagnose(given, by_type=False):
        assert (d is None) == (op.precision == "int8"), op.name
        assert d is None or d.compute_roof == "peak", op.name
    table = prof.table(given, by_type=False)
    assert "no int64 roof" not in table and "no int8 roof" in table
    # A machine by catalogue name, as --hw; anything else is a TypeError naming `machine`.
    assert prof.table("a100-80gb", by_type=False) == prof.table(a100, by_type=False)
    for bad in (None, 3.5, ["a100-80gb"]):
        with pytest.raises(TypeError, match="machine: expected a roofline.Machine"):
            prof.diagnose(bad)
    with pytest.raises(TypeError, match="precision: expected a str"):
        prof.table(a100, precision=5)
    int8 = roofline.Machine.from_roofs(624e12, 2e12, precision="int8")
    judged = {op.precision: d for op, d in prof.diagnose(int8, by_type=False)}
    assert judged["int8"].compute_roof == "int8"
    # An operator built by hand with Q = 0 or T = 0 has I or P infinite, not a ZeroDivisionError.
    assert rt.Operator("x", 1, 0, 1, "fp32").intensity_flop_per_byte == float("inf")
    assert rt.Operator("x", 1, 1, 0, "fp32").performance_flop_per_s == float("inf")


def test_command_line_entry_runs_a_script(tmp_path):
    script = tmp_path / "step.py"
    script.write_text(
        "import torch\n"
        "m = torch.nn.Linear(32, 16)\n"
        "with torch.no_grad():\n"
        "    m(torch.randn(8, 32))\n")
    chart = tmp_path / "ops.svg"
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "--hw", "a100-80gb",
                        "--chart", str(chart), str(script)],
                       capture_output=True, text=True, timeout=300, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert "aten::addmm" in r.stdout
    assert "%.4g" % (2 * 8 * 32 * 16) in r.stdout
    assert chart.read_text().lstrip().startswith("<")
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "--hw", "no-such-gpu",
                        str(script)], capture_output=True, text=True, timeout=300,
                       env=os.environ)
    assert r.returncode == 2
    assert r.stderr.startswith("roofline: error: ")
    # A missing script, or --chart without roofs, is refused before anything runs.
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "--hw", "a100-80gb",
                        str(tmp_path / "missing.py")], capture_output=True, text=True,
                       timeout=300, env=os.environ)
    assert r.returncode == 2, r.stderr
    assert "missing.py" in r.stderr and "no such file" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "--chart", str(chart),
                        str(tmp_path / "missing.py")], capture_output=True, text=True,
                       timeout=300, env=os.environ)
    assert r.returncode == 2 and "--chart needs roofs" in r.stderr, r.stderr


class _StandInCounter:
    """torch.utils.flop_counter as torch 2.1+ has it, for this torch 1.13: a FlopCounterMode on
    1.13's own Python dispatch mode (the mechanism the real one uses), with the same interface
    (FlopCounterMode(display=False), get_flop_counts()["Global"][aten.op] = FLOP). Its counts
    differ from the profiler's on purpose (addmm's bias add counted, relu one per element), so
    the test sees which one W comes from."""

    def __init__(self):
        from torch.utils._python_dispatch import TorchDispatchMode

        class FlopCounterMode(TorchDispatchMode):
            def __init__(self, display=True):
                super().__init__()
                self.counts = {}

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                out = func(*args, **(kwargs or {}))
                packet = func.overloadpacket
                if packet is torch.ops.aten.addmm:
                    m, k = args[1].shape
                    n = args[2].shape[1]
                    flop = 2 * m * n * k + m * n
                elif packet is torch.ops.aten.relu:
                    flop = out.numel()
                elif packet is torch.ops.aten.convolution:
                    w = args[1].shape  # C_out × C_in × kh × kw
                    flop = 2 * out.numel() * w[1] * w[2] * w[3]
                else:
                    return out
                self.counts[packet] = self.counts.get(packet, 0) + flop
                return out

            def get_flop_counts(self):
                return {"Global": dict(self.counts)}

        self.FlopCounterMode = FlopCounterMode


def test_flop_counter_mode_gives_the_per_type_work_where_torch_has_it(monkeypatch):
    import types
    module = types.ModuleType("torch.utils.flop_counter")
    module.FlopCounterMode = _StandInCounter().FlopCounterMode
    monkeypatch.setitem(sys.modules, "torch.utils.flop_counter", module)
    batch, sizes = 8, [32, 64, 16]
    prof = mlp_ops(batch, sizes)
    assert prof.flop_counter == "FlopCounterMode"
    # Under a dispatch mode the profiler records each operator twice, one inside the other: the
    # calls are still one per layer, with the profiler's own W per call.
    calls = [op for op in prof.operators() if op.name == "aten::addmm"]
    assert len(calls) == len(sizes) - 1
    assert [op.work_flop for op in calls] == [2 * batch * a * b for a, b in zip(sizes, sizes[1:])]
    agg = {op.name: op for op in prof.by_type()}
    # Per type, W is the counter's total...
    addmm = agg["aten::addmm"]
    assert addmm.work_source == "FlopCounterMode"
    assert addmm.work_flop == sum(2 * batch * a * b + batch * b for a, b in zip(sizes, sizes[1:]))
    assert addmm.calls == 2
    assert addmm.traffic_byte == sum(op.traffic_byte for op in calls)
    # ...and relu, which the profiler gives no FLOP count, joins with W from the counter and Q,
    # T from its calls: it reads and writes batch × 64 fp32 elements.
    relu = agg["aten::relu"]
    assert relu.calls == 1
    assert relu.work_flop == batch * sizes[1]
    assert relu.traffic_byte == 2 * 4 * batch * sizes[1]
    assert relu.time_s > 0
    assert "FlopCounterMode" in relu.point().note
    assert "FlopCounterMode" in prof.table()


def test_a_counted_operators_dtypes_stay_one_row_on_the_default_roof(monkeypatch):
    # The counter's totals are per name: fp32 and bf16 addmm cannot be told apart in them, so
    # the row is one, on the default roof, with the counter's total as W.
    import types
    module = types.ModuleType("torch.utils.flop_counter")
    module.FlopCounterMode = _StandInCounter().FlopCounterMode
    monkeypatch.setitem(sys.modules, "torch.utils.flop_counter", module)
    batch = 8
    prof = mixed_dtype_ops(batch)
    rows = [op for op in prof.by_type() if op.name.startswith("aten::addmm")]
    assert [op.name for op in rows] == ["aten::addmm"]
    assert rows[0].precision == ""
    assert rows[0].calls == 2
    assert rows[0].work_flop == (2 * batch * 32 * 64 + batch * 64) + (2 * batch * 64 * 16 +
                                                                      batch * 16)
    assert rows[0].work_source == "FlopCounterMode"


def test_without_flop_counter_mode_the_profiler_counts():
    if rt._flop_counter_mode() is not None:
        pytest.skip("this torch has FlopCounterMode")
    prof = mlp_ops(4, [8, 8])
    assert prof.flop_counter is None
    assert all(op.work_source == "profiler" for op in prof.by_type())
    assert "aten::relu" not in {op.name for op in prof.by_type()}


def test_a_type_that_holds_a_counted_one_is_not_counted_twice(monkeypatch):
    # The profiler counts aten::conv2d; a dispatch-level counter sees aten::convolution inside
    # it (conv2d decomposes before the mode). With the counter, the convolution's work is there
    # once, under the name the counter gives it.
    import types
    module = types.ModuleType("torch.utils.flop_counter")
    module.FlopCounterMode = _StandInCounter().FlopCounterMode
    monkeypatch.setitem(sys.modules, "torch.utils.flop_counter", module)
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 8, 3)
    x = torch.randn(2, 3, 16, 16)
    with torch.no_grad():
        conv(x)
        with rt.profile() as prof:
            conv(x)
    names = {op.name for op in prof.by_type()}
    assert "aten::convolution" in names
    assert "aten::conv2d" not in names
    agg = {op.name: op for op in prof.by_type()}
    # 2 × output elements (2·8·14·14) × C_in·kh·kw (3·3·3): the stand-in's count.
    assert agg["aten::convolution"].work_flop == 2 * (2 * 8 * 14 * 14) * 27
    # Without the counter the profiler's aten::conv2d is the row.
    monkeypatch.delitem(sys.modules, "torch.utils.flop_counter")
    monkeypatch.setattr(rt, "_flop_counter_mode", lambda: None)
    with torch.no_grad():
        with rt.profile() as plain:
            conv(x)
    assert "aten::conv2d" in {op.name for op in plain.by_type()}


def profile_of(events, counted=None):
    prof = rt.Profile()
    prof._events = events
    prof._counted = counted or {}
    return prof


CONV_FLOP = 2 * 8 * 64 * 56 * 56 * 64 * 9


def gpu_conv2d_events():
    """A convolution on a GPU as torch records it: aten::conv2d carries the FLOP count, the
    kernel links to aten::cudnn_convolution inside it (the innermost operator at its launch)."""
    return [
        Event("aten::conv2d", 0, 300, corr=10, flops=CONV_FLOP,
              shapes=[[8, 64, 56, 56], [64, 64, 3, 3], [64]], dtypes=["float"] * 3),
        Event("aten::convolution", 2, 296, corr=11),
        Event("aten::_convolution", 4, 292, corr=12),
        Event("aten::cudnn_convolution", 6, 280, corr=13),
        Event("cudaLaunchKernel", 100, 8, linked=13),
        Event("implicit_gemm", 400, 2000, linked=13, thread=7, device="CUDA"),
    ]


def test_on_a_gpu_a_convolution_gets_the_time_of_the_kernel_it_launched():
    # The kernel's 2000 µs is conv2d's T (the CPU's 300 µs was the launch): P = W / 2 ms.
    (op,) = profile_of(gpu_conv2d_events()).operators()
    assert op.name == "aten::conv2d"
    assert op.time_source == "gpu"
    assert op.time_s == pytest.approx(2000e-6)
    assert op.performance_flop_per_s == pytest.approx(CONV_FLOP / 2000e-6)


def test_a_matrix_product_in_a_real_trace_gets_its_kernels_time():
    # The events of facebookresearch/HolisticTraceAnalysis tests/data/call_stack/
    # backward_thread.json (c1235b44; timestamps less 1666149715000000 µs), aten::mm given the
    # FLOP count with_flops gives it: its cutlass kernel ran 45 µs, the CPU call 58 µs.
    mm = Event("aten::mm", 364330, 58, corr=67247, thread=24922, flops=2 * 2048 * 2048 * 256,
               shapes=[[2048, 2048], [2048, 256]], dtypes=["float", "float"])
    events = [
        Event("ProfilerStep#552", 33200, 413451, corr=49220, thread=3914),
        Event("## backward ##", 287655, 107988, corr=56949, thread=3914),
        Event("autograd::engine::evaluate_function: AddmmBackward0", 364322, 145, corr=67242,
              thread=24922),
        Event("AddmmBackward0", 364324, 102, corr=67243, thread=24922, shapes=[[2048, 2048]],
              dtypes=["float"]),
        mm,
        Event("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>",
              428509, 45, corr=2131433, linked=2131433, thread=7, device="CUDA"),
        Event("cudaLaunchKernel", 364374, 10, corr=2131433, linked=2131433, thread=24922),
    ]
    (op,) = profile_of(events).operators()
    assert (op.name, op.time_source) == ("aten::mm", "gpu")
    assert op.time_s == pytest.approx(45e-6)


def test_a_trace_is_matched_once_whatever_is_asked_of_it(monkeypatch):
    # table() read the trace twice (by_type), `-m roofline.torch --chart` four times.
    calls = []
    real = rt._gpu_seconds
    monkeypatch.setattr(rt, "_gpu_seconds", lambda *a: calls.append(1) or real(*a))
    prof = profile_of(gpu_conv2d_events())
    machine = roofline.Machine("a100-80gb")
    prof.operators()
    prof.by_type()
    prof.points(by_type=True)
    prof.diagnose(machine)
    assert "aten::conv2d" in prof.table(machine)
    assert "aten::conv2d" in prof.chart(machine).to_svg()
    assert len(calls) == 1
    prof._events = gpu_conv2d_events()[:1]  # another trace is read anew
    assert prof.operators()[0].time_source == "cpu"
    assert len(calls) == 1  # (without GPU activity there is nothing to match)


# torch's dtypes by the names the profiler records for them.
C10_NAMES = {
    torch.bool: "bool", torch.uint8: "unsigned char", torch.int8: "signed char",
    torch.int16: "short int", torch.int32: "int", torch.int64: "long int",
    torch.float16: "c10::Half", torch.bfloat16: "c10::BFloat16", torch.float32: "float",
    torch.float64: "double", torch.complex32: "c10::complex<c10::Half>",
    torch.complex64: "c10::complex<float>", torch.complex128: "c10::complex<double>",
}


def test_promotion_of_two_dtypes_is_torchs():
    for a, name_a in C10_NAMES.items():
        for b, name_b in C10_NAMES.items():
            assert rt._promote(name_a, name_b) == C10_NAMES[torch.promote_types(a, b)], (a, b)


def test_an_elementwise_operators_result_dtype_is_the_one_torch_gives():
    # Q and the precision of y * 2 came from the last operand's dtype: the Python int's (int64),
    # a Python float's (fp64), the fp16 tensor's in double * half, '' for a bool mask. Here
    # each operator's result dtype, from what the profiler recorded, is the dtype of the tensor
    # torch returned; Q reads each operand in its own dtype and writes the result's.
    n = 256
    y, h = torch.randn(n, 8), torch.randn(n, 8).half()
    mask, idx, i32 = y > 0, torch.arange(n * 8).reshape(n, 8), torch.ones(n, 8, dtype=torch.int32)
    cases = [lambda: y * 2, lambda: y * 2.5, lambda: h * 2.0, lambda: h + y,
             lambda: y.double() * h, lambda: y * mask, lambda: y + idx, lambda: i32 * 2.5,
             lambda: i32 * 3, lambda: mask * mask, lambda: mask + 1, lambda: y * 1j,
             lambda: torch.tensor(2.0, dtype=torch.float64) * y]
    with torch.no_grad(), rt.profile() as prof:
        results = [f() for f in cases]
    events = [e for e in prof._events if e.name() in ("aten::mul", "aten::add")]
    assert len(events) == len(cases), [e.name() for e in events]
    for e, result in zip(events, results):
        tensors = [(list(s), d) for s, d in zip(e.shapes(), e.dtypes()) if d in rt._KIND]
        assert rt._result_dtype(tensors) == C10_NAMES[result.dtype], (e.dtypes(), result.dtype)
    ops = prof.operators()
    assert len(ops) == len(cases)
    assert ops[0].precision == "fp32"  # y * 2
    # y and the fp32 result: the number is an immediate operand, no traffic.
    assert ops[0].traffic_byte == 4 * n * 8 + 4 * n * 8
    assert ops[2].traffic_byte == 2 * n * 8 + 2 * n * 8  # h * 2.0: fp16 in, fp16 out
    # A 0-dim float64 tensor beside y is taken for a number (the profiler records it as one).
    assert ops[12].traffic_byte == 4 * n * 8 + 4 * n * 8
    assert ops[4].traffic_byte == 8 * n * 8 + 2 * n * 8 + 8 * n * 8  # double * half → double
    precisions = [op.precision for op in ops[:9]]
    assert precisions == ["fp32", "fp32", "fp16", "fp32", "fp64", "fp32", "fp32", "fp32",
                          "int32"], precisions


def run_cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "roofline.torch"] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=300, env=env or os.environ)


def test_a_script_that_calls_sys_exit_gets_its_table_and_its_exit_status(tmp_path):
    # SystemExit went through profile(): nothing was printed. As under python -m cProfile, what
    # ran is shown, then the process exits with the script's status.
    script = tmp_path / "exits.py"
    script.write_text("import sys, torch\n"
                      "m = torch.nn.Linear(32, 16)\n"
                      "with torch.no_grad():\n"
                      "    m(torch.randn(8, 32))\n"
                      "sys.exit(3)\n"
                      "raise AssertionError('not reached')\n")
    chart = tmp_path / "ops.svg"
    r = run_cli("--hw", "a100-80gb", "--chart", chart, script)
    assert r.returncode == 3, r.stderr
    assert "aten::addmm" in r.stdout
    assert chart.read_text().lstrip().startswith("<")
    # sys.exit("text"): the text on stderr and status 1, as Python gives it; sys.exit() 0.
    script.write_text("import sys, torch\n"
                      "torch.randn(4, 8) @ torch.randn(8, 4)\n"
                      "sys.exit('stopped early')\n")
    r = run_cli(script)
    assert r.returncode == 1 and r.stderr == "stopped early\n", r.stderr
    assert "aten::mm" in r.stdout
    script.write_text("import sys\nsys.exit()\n")
    r = run_cli(script)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_events_without_a_finite_time_are_left_out_with_one_warning():
    # A NaN or infinite duration aborted table() with an InputError (a point's time must be
    # finite), and a NaN kernel gave its operator T = NaN.
    mm = dict(flops=2 * 64 ** 3, shapes=[[64, 64], [64, 64]], dtypes=["float", "float"])
    events = gpu_conv2d_events() + [
        Event("aten::mm", 1000, float("nan"), corr=20, **mm),
        Event("aten::mm", 2000, float("inf"), corr=21, **mm),
        Event("aten::mm", 3000, 40, corr=22, **mm),
        Event("cudaLaunchKernel", 3010, 5, linked=22),
        Event("gemm", float("nan"), 30, linked=22, thread=7, device="CUDA"),
    ]
    prof = profile_of(events)
    with pytest.warns(UserWarning) as caught:
        table = prof.table(roofline.Machine("a100-80gb"), by_type=False)
        ops = prof.operators()
    assert [str(w.message) for w in caught] == [
        "roofline.torch: 3 profiler events left out: a start or duration that is not a finite "
        "number (or a negative duration)"]
    assert [(op.name, op.time_source) for op in ops] == [("aten::conv2d", "gpu"),
                                                         ("aten::mm", "cpu")]
    assert ops[1].time_s == pytest.approx(40e-6)
    assert "nan" not in table


def test_every_path_is_checked_before_the_script_runs(tmp_path):
    # A chart path in a missing folder was refused only after the script ran; a directory or a
    # device as the script was "no such file".
    ran = tmp_path / "ran"
    script = tmp_path / "step.py"
    script.write_text("open(%r, 'w').close()\n" % str(ran))
    missing = tmp_path / "no" / "such" / "o.svg"
    machine_file = tmp_path / "machine.json"
    for roofs in (["--hw", "a100-80gb"], ["--machine", machine_file]):
        r = run_cli(*roofs, "--chart", missing, script)
        assert r.returncode == 2, r.stderr
        assert "does not exist" in r.stderr and "o.svg" in r.stderr, r.stderr
        assert not ran.exists()
    for chart, words in ((tmp_path, "is a directory"), (tmp_path / "o.txt", "unknown format")):
        r = run_cli("--hw", "a100-80gb", "--chart", chart, script)
        assert r.returncode == 2 and words in r.stderr, r.stderr
        assert not ran.exists()
    # A read-only chart, and the machine document itself as the chart: refused before the
    # script ran (they were refused after it, and the script's own exit status lost).
    readonly = tmp_path / "ro.svg"
    readonly.write_text("mine\n")
    readonly.chmod(0o444)
    r = run_cli("--hw", "a100-80gb", "--chart", readonly, script)
    assert r.returncode == 2 and "read-only" in r.stderr, r.stderr
    assert not ran.exists() and readonly.read_text() == "mine\n"
    roofline.Machine("a100-80gb").save(str(machine_file))
    with_machine = tmp_path / "m.svg"
    os.link(machine_file, with_machine)
    for chart in (machine_file, with_machine):
        r = run_cli("--machine", machine_file, "--chart", chart, script)
        assert r.returncode == 2 and "is the machine document" in r.stderr, r.stderr
        assert not ran.exists()
    r = run_cli("--hw", "a100-80gb", tmp_path)
    assert r.returncode == 2 and "is a directory, not a script" in r.stderr, r.stderr
    if os.path.exists("/dev/zero"):
        r = run_cli("--hw", "a100-80gb", "/dev/zero")
        assert r.returncode == 2 and "is a character device" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_reader_that_goes_away_ends_it_quietly_as_the_cli(tmp_path):
    # `| head -1` ended in a BrokenPipeError traceback and status 1; the CLI ends by SIGPIPE
    # (141, no message).
    script = tmp_path / "step.py"
    script.write_text("import torch\nfor _ in range(50): torch.mm(torch.ones(8, 8), "
                      "torch.ones(8, 8))\n")
    read, write = os.pipe()
    os.close(read)
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "--hw", "a100-80gb",
                        "--per-call", str(script)], stdout=write, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    os.close(write)
    assert r.returncode == 141, r.stderr
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr


def test_percentages_far_from_100_are_short():
    # A point timed at 1e300 µs printed its attainment with some 300 digits; as the CLI, fixed
    # notation from 0.001% to below 10^7%, exponent notation beyond.
    assert [rt._percent(r) for r in (1e300, 1.25e31, 1e5, 1e-5, 1e-298, 2.69e-297)] == [
        "1e+302%", "1.25e+33%", "1e+07%", "0.001%", "1e-296%",
        "2.69e-295%"]
    mm = dict(flops=2 * 64 ** 3, shapes=[[64, 64], [64, 64]], dtypes=["float", "float"])
    table = profile_of([Event("aten::mm", 0, 1e300, **mm)]).table(roofline.Machine("a100-80gb"))
    row = table.splitlines()[1]
    assert len(row) < 120 and row.endswith("%"), row


def test_operator_names_reach_the_terminal_escaped():
    # A name is the profiler's text (a record_function label is anybody's): escape sequences
    # cleared the screen and retitled the window; a bidi override reordered the row. They are
    # shown as \uXXXX, as the CLI's terminal_safe shows them.
    name = "aten::mm\x1b[2J\x1b]0;pwned\x07\u202e\x85"
    mm = dict(flops=2 * 64 ** 3, shapes=[[64, 64], [64, 64]], dtypes=["float", "float"])
    prof = profile_of([Event(name, 0, 10, **mm)])
    shown = r"aten::mm\u001b[2J\u001b]0;pwned\u0007\u202e\u0085"
    for text in (prof.table(), prof.table(roofline.Machine("a100-80gb"), by_type=False),
                 repr(prof.operators()[0])):
        assert shown in text, text
        assert not any(c in text for c in "\x1b\x07\u202e\x85"), ascii(text)
    assert prof.operators()[0].name == name  # the data keeps the name as recorded
    assert rt._safe("é∑\U0001f600\U0001fffe") == "é∑\U0001f600\\ud83f\\udffe"


def test_a_broadcast_elementwise_operator_does_one_flop_per_output_element():
    # torch 1.13 counts mul/add as the numel of their first input: v * x with v [1000] and
    # x [1000, 1000] was W = 1000 (x * v 1e6), gamma * x 384, a 0-dim tensor times x 1.
    v, x = torch.randn(100), torch.randn(100, 100)
    gamma, x3 = torch.randn(16), torch.randn(2, 7, 16)
    col, row = torch.randn(50, 1), torch.randn(1, 50)
    with torch.no_grad(), rt.profile() as prof:
        v * x
        x * v
        gamma * x3
        col * row
        torch.tensor(2.0) * x
        x + v
    ops = prof.operators()
    assert [op.work_flop for op in ops] == [1e4, 1e4, 2 * 7 * 16, 2500, 1e4, 1e4]
    # Q is unchanged: the operands read, the broadcast output written.
    assert ops[0].traffic_byte == 4 * (100 + 1e4 + 1e4)


def test_a_0_dim_tensor_takes_part_in_promotion_as_a_tensor():
    # A [] operand was always taken for a wrapped Python number: an int32 tensor times a 0-dim
    # float16 tensor gave fp32 (the default dtype of a Python float), torch gives float16.
    xi = torch.ones(64, 64, dtype=torch.int32)
    cases = [lambda: xi * torch.tensor(2.0, dtype=torch.float16),
             lambda: xi * torch.tensor(2.0, dtype=torch.bfloat16),
             lambda: xi * torch.tensor(2, dtype=torch.int16),
             lambda: torch.ones(64, dtype=torch.int8) * torch.tensor(2, dtype=torch.int32),
             lambda: xi * torch.tensor(2.0)]
    with torch.no_grad(), rt.profile() as prof:
        results = [f() for f in cases]
    ops = prof.operators()
    assert [op.precision for op in ops] == ["fp16", "bf16", "int32", "int8", "fp32"]
    assert [C10_NAMES[r.dtype] for r in results] == [
        "c10::Half", "c10::BFloat16", "int", "signed char", "float"]
    assert ops[0].traffic_byte == 4 * 64 * 64 + 2 + 2 * 64 * 64  # int32 read, fp16 written


def test_result_dtypes_of_tensors_0_dim_tensors_and_numbers_are_torchs():
    # Every pair of a tensor with dimensions, a 0-dim tensor and a Python number, as the
    # profiler records them, against torch.result_type; a 0-dim tensor whose dtype is one a
    # number is recorded with (float64, int64, bool, complex128) cannot be told from a number
    # and is left out.
    operands = []
    for dtype, name in C10_NAMES.items():
        if dtype is torch.complex32:
            continue  # torch 1.13 warns that it is experimental
        operands.append((torch.zeros(3, dtype=dtype), ([3], name)))
        if name not in rt._WRAPPED:
            operands.append((torch.zeros((), dtype=dtype), ([], name)))
    for number, name in ((True, "bool"), (2, "long int"), (2.5, "double"),
                         (1j, "c10::complex<double>")):
        operands.append((number, ([], name)))
    seen = 0
    for a, recorded_a in operands:
        for b, recorded_b in operands:
            if not (isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor)):
                continue
            want = C10_NAMES[torch.result_type(a, b)]
            assert rt._result_dtype([recorded_a, recorded_b]) == want, (recorded_a, recorded_b)
            seen += 1
    assert seen > 500


def test_an_out_argument_is_counted_once_as_the_output():
    # mul(x, x, out=z) counted z as an input and the output again: 4 tensors of 4 MB, not 3;
    # addmm(bias, a, b, out=c) counted c but said output_counted=False.
    x, z = torch.randn(100, 100), torch.empty(100, 100)
    a, b, bias, c = torch.randn(64, 32), torch.randn(32, 16), torch.randn(16), torch.empty(64, 16)
    with torch.no_grad(), rt.profile() as prof:
        torch.mul(x, x, out=z)
        torch.add(x, x, out=z)
        torch.addmm(bias, a, b, out=c)
        torch.mm(a, b, out=c)
    mul, add, addmm, mm = prof.operators()
    assert mul.traffic_byte == add.traffic_byte == 3 * 4e4
    assert mul.output_counted and add.output_counted
    assert addmm.traffic_byte == 4 * (16 + 64 * 32 + 32 * 16 + 64 * 16)
    assert addmm.output_counted
    assert mm.traffic_byte == 4 * (64 * 32 + 32 * 16 + 64 * 16) and mm.output_counted


def test_int16_bool_and_complex_results_have_their_own_precision_and_row():
    # They had precision '' (judged on the default roof) and shared one row, "aten::mul (other
    # dtype)".
    s = torch.ones(100, dtype=torch.int16)
    m = s > 0
    c = torch.ones(10, dtype=torch.complex64)
    with torch.no_grad(), rt.profile() as prof:
        s * s
        m * m
        c * c
        torch.ones(10, dtype=torch.complex128) * 2
        torch.randn(10) * 2
    assert [op.precision for op in prof.operators()] == [
        "int16", "bool", "complex64", "complex128", "fp32"]
    rows = {op.name for op in prof.by_type()}
    assert {"aten::mul (int16)", "aten::mul (bool)", "aten::mul (complex64)",
            "aten::mul (complex128)", "aten::mul (fp32)"} <= rows, rows
    table = prof.table(roofline.Machine("a100-80gb"))
    for precision in ("int16", "bool", "complex64", "complex128"):
        assert "no %s roof" % precision in table, table
    assert "other dtype" not in table


def test_an_expanded_operand_is_counted_at_its_full_shape_and_the_table_says_so():
    # torch 1.13 records no strides: v.expand(100, 100) is counted as 10⁴ elements although its
    # memory holds 100, so Q is no lower bound there; the table said "a lower bound" alone.
    v, y = torch.randn(100), torch.randn(100, 100)
    with torch.no_grad(), rt.profile() as prof:
        v.expand(100, 100) * y
    (op,) = prof.operators()
    assert op.traffic_byte == 3 * 4e4
    assert "stride-0" in prof.table() and "stride-0" in op.point().note


def test_a_script_that_raises_or_is_interrupted_gets_its_table_and_pythons_status(tmp_path):
    # An exception or ^C in the script lost the table behind a traceback through roofline and
    # runpy; now the table and chart of what ran, then the script's own traceback, 1 or 130.
    script = tmp_path / "fails.py"
    chart = tmp_path / "ops.svg"
    script.write_text("import torch\n"
                      "torch.randn(4, 8) @ torch.randn(8, 4)\n"
                      "def step():\n"
                      "    raise ValueError('bad batch')\n"
                      "step()\n")
    r = run_cli("--hw", "a100-80gb", "--chart", chart, script)
    assert r.returncode == 1, r.stderr
    assert "aten::mm" in r.stdout
    assert chart.read_text().lstrip().startswith("<")
    assert r.stderr.startswith("Traceback"), r.stderr
    assert "ValueError: bad batch" in r.stderr and "in step" in r.stderr
    assert "runpy" not in r.stderr and "roofline" not in r.stderr, r.stderr
    script.write_text("import torch\n"
                      "torch.randn(4, 8) @ torch.randn(8, 4)\n"
                      "raise KeyboardInterrupt\n")
    r = run_cli(script)
    assert r.returncode == 130, r.stderr
    assert "aten::mm" in r.stdout and "KeyboardInterrupt" in r.stderr


def test_a_script_imports_its_sibling_modules(tmp_path):
    # runpy.run_path does not put the script's folder first on sys.path as python3 script.py
    # does: `import helper` beside the script failed.
    (tmp_path / "helper.py").write_text("import torch\n"
                                        "def step():\n"
                                        "    return torch.randn(4, 8) @ torch.randn(8, 4)\n")
    script = tmp_path / "main.py"
    script.write_text("import helper\nhelper.step()\n")
    r = run_cli(script, env=dict(os.environ, PWD="/"))
    assert r.returncode == 0, r.stderr
    assert "aten::mm" in r.stdout


def test_the_chart_path_is_the_one_given_before_the_script_changes_folder(tmp_path):
    # --chart charts/o.svg was checked in the starting folder and written after the script's
    # os.chdir(), into another folder (or not at all).
    (tmp_path / "charts").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = tmp_path / "moves.py"
    script.write_text("import os, torch\n"
                      "os.chdir(%r)\n"
                      "torch.randn(4, 8) @ torch.randn(8, 4)\n" % str(elsewhere))
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "--hw", "a100-80gb", "--chart",
                        os.path.join("charts", "o.svg"), "moves.py"], capture_output=True,
                       text=True, timeout=300, cwd=tmp_path,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "charts" / "o.svg").read_text().lstrip().startswith("<")
    assert not (elsewhere / "charts").exists()


def test_a_nested_profile_is_refused_in_words():
    # torch said only "Profiler is already enabled on this thread".
    with rt.profile():
        with pytest.raises(RuntimeError, match="already running.*cannot nest"):
            with rt.profile():
                pass
    from torch.profiler import profile as torch_profile
    with torch_profile():
        with pytest.raises(RuntimeError, match="roofline.torch.profile.*already running"):
            with rt.profile():
                pass


def test_a_nested_profile_in_a_script_under_the_command_is_named(tmp_path):
    script = tmp_path / "profiles.py"
    script.write_text("import torch, roofline.torch\n"
                      "torch.randn(4, 8) @ torch.randn(8, 4)\n"
                      "with roofline.torch.profile():\n"
                      "    pass\n")
    r = run_cli(script)
    assert r.returncode == 1
    assert "aten::mm" in r.stdout
    assert "python3 -m roofline.torch" in r.stderr and "cannot nest" in r.stderr, r.stderr


def test_each_profile_block_gives_a_new_profile():
    # Entering one profile() object twice overwrote the first result (p3 was p4).
    p = rt.profile()
    with torch.no_grad():
        with p as first:
            torch.randn(4, 8) @ torch.randn(8, 4)
        with p as second:
            torch.randn(4, 8) * torch.randn(4, 8)
    assert first is not second
    assert [op.name for op in first.operators()] == ["aten::mm"]
    assert [op.name for op in second.operators()] == ["aten::mul"]


def test_the_operators_are_asked_for_after_the_block():
    # Inside the with block, operators() returned [] without a word.
    with rt.profile() as prof:
        torch.randn(4, 8) @ torch.randn(8, 4)
        with pytest.raises(RuntimeError, match="still running"):
            prof.operators()
        with pytest.raises(RuntimeError, match="still running"):
            prof.table()
    assert [op.name for op in prof.operators()] == ["aten::mm"]


def test_a_forced_precision_is_checked_and_names_the_missing_roof():
    # precision='nonsense' labelled every row "no fp32 roof"; precision='int64' too.
    mm = dict(flops=2 * 64 ** 3, shapes=[[64, 64], [64, 64]], dtypes=["float", "float"])
    prof = profile_of([Event("aten::mm", 0, 10, **mm)])
    a100 = roofline.Machine("a100-80gb")
    with pytest.raises(roofline.InputError, match="nonsense"):
        prof.table(a100, precision="nonsense")
    with pytest.raises(roofline.InputError, match="nonsense"):
        prof.diagnose(a100, precision="nonsense")
    table = prof.table(a100, precision="int64")
    assert "no int64 roof" in table and "no fp32 roof" not in table, table
    (pair,) = prof.diagnose(a100, precision="fp16")
    assert pair[1].compute_roof == a100.compute_roof("fp16").name


def test_an_empty_hw_and_a_missing_script_are_refused_in_words(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("pass\n")
    r = run_cli("--hw=", script)
    assert r.returncode == 2 and "unknown machine ''" in r.stderr, r.stderr
    r = run_cli()
    assert r.returncode == 2
    assert "required: script" in r.stderr and "args" not in r.stderr.splitlines()[-1], r.stderr


def test_an_empty_profile_says_so():
    # A header-only table said nothing.
    text = profile_of([]).table(roofline.Machine("a100-80gb"))
    assert "no operator with a FLOP count was recorded" in text
    assert "no operator" not in mlp_ops(4, [8, 8]).table()


def measured_here_document(tmp_path, name=None, cpu=None):
    """A CPU machine document as `roofline measure` writes it on this host (measured roofs, the
    hostname as its name, info.cpu this host's CPU model), name or cpu changed where given."""
    import json
    import socket

    doc = json.loads(roofline.Machine("epyc-9654").to_json())
    doc["name"] = socket.gethostname() if name is None else name
    doc["info"] = {"kind": "cpu", "cpu": rt._host_cpu_model() if cpu is None else cpu}
    for roof in doc["compute"] + doc["memory"]:
        roof["provenance"] = "measured"
    path = tmp_path / ("machine-%s-%s.json" % (name, cpu is not None))
    path.write_text(json.dumps(doc))
    return roofline.Machine(path)


def test_host_times_on_a_devices_roofs_are_said():
    # A CPU-only run judged on an A100 read "far-below 0.0161%" with no word of whose time it
    # was; on the roofs of this host measured here, or on roofs given as numbers, nothing to say.
    prof = mlp_ops(16, [64, 128, 32])
    text = prof.table(roofline.Machine("a100-80gb"))
    assert "timed on the host (time_source 'cpu': no device time was recorded), judged " \
           "against the roofs of a100-80gb, a gpu" in text
    assert "timed on" not in prof.table(roofline.Machine.from_roofs(1e12, 1e11))
    assert "timed on the host" not in prof.table()


@pytest.mark.parametrize("name,kind", [("a100-80gb", "a gpu"), ("tpu-v5p", "a tpu"),
                                       ("jetson-agx-orin-64gb", "a soc"),
                                       ("snapdragon-x-elite", "a soc")])
def test_host_times_on_every_device_kind_are_said(name, kind):
    # A SoC's roofs are its GPU's or NPU's (a Jetson's Ampere GPU): host time judged on them
    # was said for a gpu, tpu or accelerator only.
    machine = roofline.Machine(name)
    assert machine.info["kind"] == kind.split()[1]
    text = mlp_ops(16, [64, 128, 32]).table(machine)
    assert "judged against the roofs of %s, %s: the verdicts read host time" % (name, kind) \
        in text, text


def test_an_accelerator_takes_an():
    accelerators = [e.name for e in roofline.catalogue() if e.kind == "accelerator"]
    assert accelerators
    text = mlp_ops(16, [64, 128, 32]).table(roofline.Machine(accelerators[0]))
    assert ", an accelerator: the verdicts" in text and "a accelerator" not in text, text


def test_host_times_on_a_catalogue_cpus_roofs_are_said():
    # A catalogue CPU is not this host: its roofs judged this host's times without a word.
    prof = mlp_ops(16, [64, 128, 32])
    text = prof.table(roofline.Machine("epyc-9654"))
    assert "T: 1 operator timed on this host, judged against the roofs of epyc-9654 (a " \
           "catalogue cpu, not a measurement of this host)" in text, text
    with pytest.warns(UserWarning, match="Profile.diagnose: .*roofs of epyc-9654 \\(a catalogue"):
        prof.diagnose("epyc-9654")


def test_host_times_on_this_hosts_measurement_are_not_said(tmp_path):
    prof = mlp_ops(16, [64, 128, 32])
    here = measured_here_document(tmp_path)
    assert "timed on" not in prof.table(here)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prof.diagnose(here)
        prof.chart(here)
    # Measured, but on another host, or on another CPU under this host's name: said.
    elsewhere = measured_here_document(tmp_path, name="other-host")
    assert "judged against the roofs of other-host (a cpu measured on 'other-host'" in \
        prof.table(elsewhere)
    other_cpu = measured_here_document(tmp_path, cpu="Some Other CPU 9000")
    assert "(Some Other CPU 9000), not a measurement of this host)" in prof.table(other_cpu)


def test_host_times_on_a_devices_roofs_are_warned_by_diagnose_and_chart(tmp_path):
    # diagnose() and chart() judge the same host times as table(): they say it as a warning.
    prof = mlp_ops(16, [64, 128, 32])
    a100 = roofline.Machine("a100-80gb")
    said = "timed on the host .* judged against the roofs of a100-80gb, a gpu"
    with pytest.warns(UserWarning, match="roofline.torch.Profile.diagnose: .*" + said):
        prof.diagnose(a100)
    with pytest.warns(UserWarning, match="roofline.torch.Profile.chart: .*" + said):
        prof.chart(a100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prof.table(a100)  # the table says it in its notes, not twice


def test_a_precision_given_keeps_an_element_wise_operator_off_the_tensor_roof():
    # precision="fp16" rebuilt each operator's point without vector_only: an fp16 mul was judged
    # on the A100's fp16 tensor roof (312 TFLOP/s) where its own dtype judged it on fp16 vector.
    h = torch.randn(512, 512).half()
    with rt.profile() as prof:
        h * h
    a100 = roofline.Machine("a100-80gb")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # host times on an A100: said elsewhere
        (op, own), = prof.diagnose(a100)
        (_, given), = prof.diagnose(a100, precision="fp16")
        chart = prof.chart(a100, precision="fp16").to_dict()
    assert op.name == "aten::mul" and own.compute_roof == "fp16 vector"
    assert given.compute_roof == "fp16 vector"
    assert given.to_dict() == own.to_dict()
    assert chart["points"][0]["diagnosis"]["compute_roof"] == "fp16 vector"


def test_the_host_time_warning_counts_the_operators_judged():
    # An int64 operator has no roof and is not judged (None): diagnose() counted it among the
    # operators "judged against the roofs", chart() did not.
    with torch.no_grad(), rt.profile() as prof:
        torch.nn.Linear(256, 512)(torch.randn(64, 256))
        torch.arange(10) * torch.arange(10)
    a100 = roofline.Machine("a100-80gb")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        pairs = prof.diagnose(a100)
        prof.chart(a100)
    judged = sum(1 for _, d in pairs if d is not None)
    assert 0 < judged < len(pairs)
    counts = [str(w.message).split(": ", 1)[1].split(" timed")[0] for w in said
              if "timed on the host" in str(w.message)]
    expected = "%d operator%s" % (judged, "" if judged == 1 else "s")
    assert counts == [expected, expected], counts


def test_a_machine_document_is_taken_as_a_path_like_or_a_str(tmp_path):
    # prof.table(pathlib.Path("machine.json")) was a TypeError, though a machine may be a file
    # and every other path of the package may be an os.PathLike.
    import pathlib

    prof = mlp_ops(4, [8, 8])
    path = tmp_path / "machine.json"
    roofline.Machine("a100-80gb").save(path)
    assert isinstance(path, pathlib.Path)
    expected = prof.table(roofline.Machine(str(path)), by_type=False)
    assert prof.table(path, by_type=False) == expected
    assert prof.table(str(path), by_type=False) == expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # host times on an A100: said, not asked about here
        assert [d.verdict for _, d in prof.diagnose(path)] == \
            [d.verdict for _, d in prof.diagnose(str(path))]
        assert prof.chart(path).to_svg() == prof.chart(str(path)).to_svg()

    class BytesPath:
        def __fspath__(self):
            return bytes(path)

    with pytest.raises(TypeError, match="not bytes"):
        prof.table(BytesPath())
    with pytest.raises(roofline.InputError, match="no such file"):
        prof.table(tmp_path / "missing.json")


def test_main_returns_2_for_bad_arguments(capsys):
    # main() is documented to return 2 for bad arguments; argparse's errors raised SystemExit(2).
    assert rt.main(["--hw", "a100-80gb"]) == 2  # no script
    assert "required: script" in capsys.readouterr().err
    assert rt.main(["--bogus", "x.py"]) == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err
    assert rt.main(["--help"]) == 0
    assert "usage:" in capsys.readouterr().out
    r = run_cli("--bogus", "x.py")  # the command still exits with that status
    assert r.returncode == 2 and "unrecognized arguments" in r.stderr, r.stderr


def test_a_chart_takes_a_precision_as_diagnose_does():
    # chart() had no precision=, which table() and diagnose() take.
    mm = dict(flops=2 * 64 ** 3, shapes=[[64, 64], [64, 64]], dtypes=["float", "float"])
    prof = profile_of([Event("aten::mm", 0, 10, **mm)])
    a100 = roofline.Machine("a100-80gb")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        as_dtype = prof.chart(a100).points
        as_fp16 = prof.chart(a100, precision="fp16").points
        as_default = prof.chart(a100, precision="").points
        no_roof = prof.chart(a100, precision="int64").points
        (pair,) = prof.diagnose(a100, precision="fp16")
    assert [p.precision for p in as_dtype] == ["fp32"]
    assert [p.precision for p in as_fp16] == ["fp16"]
    assert [p.precision for p in as_default] == [""]
    assert no_roof == []  # judged on a roof the machine lacks: left out, as diagnose() gives None
    assert roofline.diagnose(as_fp16[0], a100).compute_roof == pair[1].compute_roof
    with pytest.raises(roofline.InputError, match="nonsense"):
        prof.chart(a100, precision="nonsense")
    with pytest.raises(TypeError, match="precision: expected a str"):
        prof.chart(a100, precision=5)


def test_a_profile_and_its_operators_print_as_the_package_prints():
    # A Profile printed as <... object at 0x...> and pickled with torch's own "cannot pickle
    # '_KinetoEvent'"; an Operator's figures were %.6g, the tables' are four digits.
    import pickle
    with rt.profile() as prof:
        torch.randn(64, 64) @ torch.randn(64, 64)
    assert repr(prof).startswith("<roofline.torch.Profile: ")
    assert " profiler event" in repr(prof)
    with pytest.raises(TypeError, match=r"^Profile cannot be copied or pickled"):
        pickle.dumps(prof)
    mm = [op for op in prof.operators() if op.name == "aten::mm"][0]
    # 2·64·64·64 FLOP, (3·64·64)·4 bytes
    assert repr(mm).startswith("<Operator 'aten::mm' ×1 W=524288 FLOP Q=49152 B T=")
