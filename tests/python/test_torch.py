"""roofline.torch: a small real model's operators, W from torch's own FLOP counting (the
profiler's with_flops) against the hand count 2·m·n·k, Q against the library's compulsory
count. Skipped as a whole where torch is absent; test_torch_absent.py checks that case."""
import os
import subprocess
import sys

import pytest

import roofline

torch = pytest.importorskip("torch", reason="python3-torch is not installed")
import roofline.torch as rt  # noqa: E402  (only where torch imports)


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
    svg = prof.chart(machine).to_svg()
    assert "aten::addmm" in svg


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
