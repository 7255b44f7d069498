"""What the objects say of themselves in a REPL or a notebook (their repr: one line, the type and
the figures looked at first, numbers as the CLI prints them, names from files escaped), and
which of them copy and pickle: a Machine and a Point do, equal after the round trip; every other
object of the library refuses with a TypeError saying so."""
import copy
import os
import pickle

import pytest

import roofline

ZEN4 = os.path.join(os.path.dirname(__file__), "..", "data", "io", "zen4-quick.machine.json")


@pytest.fixture(scope="module")
def a100():
    return roofline.Machine("a100-80gb")


@pytest.fixture(scope="module")
def h100():
    return roofline.Machine("h100-sxm")


@pytest.fixture(scope="module")
def llama():
    return roofline.llm.model("llama-2-7b")


def test_roofs_statistics_and_ridges(h100):
    stats = roofline.Machine.load(ZEN4).memory_roof("L1").statistics
    assert repr(stats) == "<Statistics median 5.639e+11, spread 10.2%, 8 repetitions, noisy>"
    assert repr(h100.ridges()[0]) == (
        "<Ridge 'fp64' I*=10 FLOP/byte ('fp64 vector' 33.5 TFLOP/s on 'HBM3' 3.35 TB/s)>")
    # Roofs given as two numbers answer no precision group: no label.
    given = roofline.Machine.from_roofs(1e12, 1e11)
    assert repr(given.ridges()[0]) == (
        "<Ridge I*=10 FLOP/byte ('peak' 1 TFLOP/s on 'DRAM' 100 GB/s)>")


def test_a_comparison_and_its_machines(a100, h100):
    c = roofline.compare([a100, h100], 10)
    assert repr(c) == "<Comparison at I=10 FLOP/byte: 'a100-80gb' 1x, 'h100-sxm' 1.718x (mixed)>"
    assert repr(c.machines[1]) == (
        "<MachineAtIntensity 'h100-sxm' 33.5 TFLOP/s attainable, memory-bound "
        "('fp32 vector', 'HBM3', ridge I*=19.97 FLOP/byte)>")


def test_a_diff_and_its_changes(a100, h100):
    d = roofline.diff(a100, h100)
    # Catalogue roofs carry no spread: whether a change exceeds the noise is not known, as
    # `roofline diff` says it (it said "0 beyond the noise").
    assert repr(d) == ("<Diff 'a100-80gb' → 'h100-sxm': 16 roofs paired, no spread carried: "
                       "cannot say whether it exceeds the noise, 2 only in A, 2 only in B, "
                       "ridge B/A = 2.088>")
    assert repr(d.changes[0]) == "<RoofChange compute 'fp64 vector': B/A = 3.454, no spread carried>"
    zen4 = roofline.Machine.load(ZEN4)
    assert repr(roofline.diff(zen4, zen4).changes[0]) == (
        "<RoofChange compute 'fp64 scalar fma': B/A = 1, within the noise (3%)>")


def test_a_diagnosis_levels_and_empty_roofs(a100):
    given = roofline.Machine.from_roofs(peak_flop_per_s=19.5e12, bandwidth_byte_per_s=2e12)
    d = roofline.diagnose(roofline.Point("saxpy", 2e9, 12e9, 0.0065), given)
    assert repr(d.levels[0]) == (
        "<LevelJudgement 'DRAM' I=0.1667 FLOP/byte: 92.3% of 333.3 GFLOP/s, memory-bound>")
    gemm = roofline.diagnose(roofline.Point("gemm", 2e12, 1e9, 0.2, precision="fp32"), a100)
    assert repr(gemm.empty_roofs_above[0]) == "<EmptyRoof 'bf16 tensor' 312 TFLOP/s, gain 16x>"


def test_a_chart(h100):
    chart = roofline.Chart(h100, [roofline.Point("p", 1e9, 1e9, 1)])
    assert repr(chart) == "<Chart 'Roofline of h100-sxm': 1 machine, 1 point>"
    assert repr(chart._spec()) == "<_Chart 'Roofline of h100-sxm': 1 machine, 1 point>"
    two = roofline.Chart(h100, overlays=["a100-80gb"], title="two")
    assert repr(two) == "<Chart 'two': 2 machines, 0 points>"


def test_llm_report_and_aggregate(a100, llama):
    r = roofline.llm.analyse(llama, a100, batch=1, context=2048)
    assert repr(r) == ("<llm.Report 'llama-2-7b' on 'a100-80gb', batch 1, context 2048: "
                       "7.013 ms/token, 142.6 tokens/s, TTFT 93.6 ms>")
    assert repr(r.decode_linear) == (
        "<llm.Aggregate 'decode linear layers' I=0.9996 FLOP/byte T=6.483 ms>")


def test_llm_request_serving_speculative_training_cost(h100, llama):
    assert repr(roofline.llm.request(llama, h100, output_tokens=128, batch=4, prompt=1024)) == (
        "<llm.Request batch 4 × prompt 1024, 128 output tokens: TTFT 60.81 ms, end-to-end "
        "649.9 ms, 787.9 output tokens/s>")
    assert repr(roofline.llm.serve(llama, h100, concurrency=8, requests=[(1024, 128)])) == (
        "<llm.Serving 64 requests at concurrency 8: 1282 output tokens/s, TTFT median "
        "121.5 ms, TPOT median 5.332 ms>")
    # One output token per request: no TPOT to show.
    assert "TPOT" not in repr(roofline.llm.serve(llama, h100, concurrency=1, requests=[(100, 1)]))
    assert repr(roofline.llm.speculative("llama-2-70b", h100, draft=llama, k=4, alpha=0.8)) == (
        "<llm.Speculative k=4 alpha=0.8 drafter 'llama-2-7b': 2.375x speedup, 17.37 ms/token, "
        "57.58 tokens/s>")
    assert repr(roofline.llm.train(llama, h100)) == (
        "<llm.Training step 252.2 ms: MFU 70.4%, 6·N·D = 162.4 TFLOP, 126.1 GB per device, "
        "does NOT fit>")
    assert repr(roofline.llm.cost(1000, h100, price_per_hour=2.0)) == (
        "<llm.Cost $0.5556/M tokens, 0.7 J/token (at 1000 tokens/s on 1 device)>")
    assert repr(roofline.llm.cost(1000, h100, devices=2)) == (
        "<llm.Cost no price, 1.4 J/token (at 1000 tokens/s on 2 devices)>")


def test_names_with_escape_sequences_are_shown_escaped(llama):
    # An OSC retitling the window, a screen clear, a right-to-left override: shown as \\uXXXX
    # (the CLI's escaping) or by Python's repr of the str, never raw.
    a = roofline.Machine.from_roofs(1e12, 1e11, name="a\x1b]0;x\x07", level="L\x1b[2J")
    b = roofline.Machine.from_roofs(2e12, 1e11, name="b\u202e")
    point = roofline.Point("p\x1b[31m", 1e9, 1e9, 1)
    shown = {
        "Point": (repr(point), ["p\\u001b[31m"]),
        "Comparison": (repr(roofline.compare([a, b], 1)), ["a\\u001b]0;x\\u0007", "b\\u202e"]),
        "MachineAtIntensity": (repr(roofline.compare([a, b], 1).machines[0]),
                               ["a\\u001b]0;x\\u0007", "L\\u001b[2J"]),
        "Diff": (repr(roofline.diff(a, b)), ["a\\u001b]0;x\\u0007", "b\\u202e"]),
        "Ridge": (repr(a.ridges()[0]), ["L\\u001b[2J"]),
        "LevelJudgement": (repr(roofline.diagnose(point, a).levels[0]), ["L\\u001b[2J"]),
        "Chart": (repr(roofline.Chart(a, [point], title="t\x1b[31m")), ["t\\x1b[31m"]),
        "llm.Report": (repr(roofline.llm.analyse(llama, a)), ["a\\u001b]0;x\\u0007"]),
    }
    for name, (text, escaped) in shown.items():
        for raw in ("\x1b", "\x07", "\u202e"):
            assert raw not in text, name
        for e in escaped:
            assert e in text, (name, text)


def _round_trips():
    return [("copy", copy.copy), ("deepcopy", copy.deepcopy),
            ("pickle", lambda x: pickle.loads(pickle.dumps(x))),
            ("pickle protocol 0", lambda x: pickle.loads(pickle.dumps(x, protocol=0)))]


@pytest.mark.parametrize("how, again", _round_trips())
def test_a_machine_copies_and_pickles_equal(how, again):
    # A catalogue entry, a measured document (statistics, a file) and roofs given as numbers.
    for m in (roofline.Machine("h100-sxm"), roofline.Machine.load(ZEN4),
              roofline.Machine.from_roofs(1e12, 1e11, precision="int8", name="given")):
        n = again(m)
        assert type(n) is roofline.Machine and n is not m
        assert (n.to_json(), n.origin, n.info) == (m.to_json(), m.origin, m.info), how
        assert (str(n), repr(n)) == (str(m), repr(m))
        assert n.ridge_flop_per_byte() == m.ridge_flop_per_byte()


@pytest.mark.parametrize("how, again", _round_trips())
def test_a_point_copies_and_pickles_equal(how, again):
    for p in (roofline.Point("hier", 1e9, {"L1": 1e8, "DRAM": 1e9}, 0.5, precision="int8",
                             work_unit="OP", note="a note", vector_only=True),
              roofline.kernel("saxpy", n=1e6).point(1e-3),
              roofline.Point("p\x1b[31m", 1 / 3, 1e9, 0.1)):
        q = again(p)
        assert type(q) is roofline.Point and q is not p
        assert q.to_dict() == p.to_dict(), how
        assert (q.work_flop, q.traffic_by_level, q.time_s) == (p.work_flop, p.traffic_by_level,
                                                                p.time_s)


def test_a_chart_pickles_with_its_machine_and_points(h100):
    chart = roofline.Chart(h100, [roofline.Point("p", 1e9, 1e9, 1)], title="t")
    again = pickle.loads(pickle.dumps(chart))
    assert again.to_dict() == chart.to_dict()


def test_other_objects_refuse_copy_and_pickle_by_name(a100, llama):
    diagnosis = roofline.diagnose(roofline.Point("p", 1e9, 1e9, 1), a100)
    report = roofline.llm.analyse(llama, a100)
    for obj, name in ((diagnosis, "Diagnosis"), (report, "Report"),
                      (a100.compute_roof(), "ComputeRoof"), (llama, "Model")):
        for how in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="^%s cannot be copied or pickled \\(only a "
                               "Machine or a Point can\\)" % name):
                how(obj)
    with pytest.raises(TypeError, match="keep its to_dict\\(\\), a plain dict"):
        pickle.dumps(diagnosis)


def test_a_pickled_state_of_another_shape_is_said():
    # A state made by hand: a points document of no point read past its end (IndexError from
    # C++'s vector), a Machine's state of other types met pybind11's signature dump.
    from roofline import _restore
    empty = b'{"schema": "roofline.points", "version": 1, "points": []}'
    with pytest.raises(roofline.InputError, match=r"^a pickled Point: its state holds 0 points, "
                                                  r"expected 1$"):
        _restore(roofline.Point, (empty,))
    with pytest.raises(TypeError, match=r"^a pickled Machine: its state is not the 3 text\(s\) "
                                        r"a Machine pickles$"):
        _restore(roofline.Machine, ("{}", None, None))
    with pytest.raises(roofline.InputError, match=r"^a pickled Machine: line 1, column 1: "
                                                  r"malformed JSON"):
        _restore(roofline.Machine, ("x", "", ""))


def test_counts_in_reprs_agree_with_their_nouns():
    # "1 compute, 1 memory roofs" and "1 output tokens".
    assert repr(roofline.Machine.from_roofs(1e12, 1e11)) == \
        "<Machine 'given roofs': 1 compute roof, 1 memory roof>"
    assert repr(roofline.Machine("h100-sxm")).endswith("compute roofs, 3 memory roofs>")
    r = roofline.llm.request("llama-2-7b", "a100-80gb", output_tokens=1, prompt=128)
    assert " 1 output token: TTFT " in repr(r), repr(r)


def test_a_diff_of_two_documents_of_one_name_tells_them_apart(tmp_path):
    # <Diff 'vm' → 'vm': ...> where `roofline diff` heads them by their files' names.
    m = roofline.Machine("h100-sxm")
    m.save(tmp_path / "before.json")
    m.save(tmp_path / "after.json")
    d = roofline.diff(tmp_path / "before.json", tmp_path / "after.json")
    assert repr(d).startswith("<Diff 'h100-sxm' (before.json) → 'h100-sxm' (after.json): ")
    assert repr(roofline.diff("h100-sxm", "a100-80gb")).startswith(
        "<Diff 'h100-sxm' → 'a100-80gb': ")


def test_a_kernel_count_prints_its_figures_then_its_formulas():
    # It printed the formulas alone. axpy at n = 1e6, fp32: W = 2n, Q = 3n·4 B, I = 1/6.
    assert repr(roofline.kernel("axpy", n=1e6)) == (
        "<KernelCount axpy (fp32): W=2 MFLOP Q=12 MB I=0.1667 FLOP/byte (W=2·n, Q=3·n·s "
        "(read x, read y, write y) (s = 4 B, fp32))>")
    # int8 counts OP: 2·1024³ OP over (3·1024²)·1 B.
    assert repr(roofline.kernel("gemm", m=1024, n=1024, k=1024, dtype="int8")).startswith(
        "<KernelCount gemm (int8): W=2.147 GOP Q=3.146 MB I=682.7 OP/byte (")


def test_a_diff_of_roofs_of_different_work_units_counts_them_apart(tmp_path):
    # A's roof counts FLOP, B's OP (int8): that pair is not compared, as `roofline diff` says it,
    # not counted among the roofs without a spread; neither is the ridge's ratio given.
    (tmp_path / "a.json").write_text(
        '{"schema": "roofline.machine", "version": 1, "name": "fp", "compute": [{"name": "fp32", '
        '"precision": "fp32", "peak": 1e12}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]}')
    (tmp_path / "b.json").write_text(
        '{"schema": "roofline.machine", "version": 1, "name": "int", "compute": [{"name": "int8", '
        '"precision": "int8", "peak": 4e12}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]}')
    d = roofline.diff(roofline.Machine.load(str(tmp_path / "a.json")),
                      roofline.Machine.load(str(tmp_path / "b.json")))
    assert repr(d) == ("<Diff 'fp' → 'int': 2 roofs paired, no spread carried: cannot say whether "
                       "it exceeds the noise, 1 not compared (work of different units), 0 only in "
                       "A, 0 only in B, ridge not compared: work of different units (FLOP in A, "
                       "OP in B)>")
    compute = next(c for c in d.changes if c.kind == "compute")
    assert repr(compute) == ("<RoofChange compute 'fp32 → int8 (default compute roofs, of different "
                             "precisions: fp32 against int8)': B/A = 4, not compared: work of "
                             "different units (FLOP in A, OP in B)>")
