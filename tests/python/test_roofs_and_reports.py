"""What roofs and reports say about themselves: a measured roof's spread and quartiles as the
machine document and `diff` give them, the provenance and precision of roofs given as two
numbers, a model's published size, an LLM report's measured rate above the roofs."""
import csv
import io
import json
import os

import pytest

import roofline

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "io")
ZEN4 = os.path.join(DATA, "zen4-quick.machine.json")


def _stats_in_document(path, level):
    doc = json.load(open(path, encoding="utf-8"))
    (roof,) = [r for r in doc["memory"] if r["level"] == level]
    return roof["stats"]


def test_a_roofs_spread_is_the_documented_robust_spread_and_its_quartiles_are_exposed():
    # .spread was (max - min) / median (0.265 for zen4's L1, 8 samples) where docs/measure.md
    # and the document's "iqr" say 0.102, the spread diff() judges changes by.
    m = roofline.Machine.load(ZEN4)
    s = m.memory_roof("L1").statistics
    doc = _stats_in_document(ZEN4, "L1")
    assert s.repetitions == doc["repetitions"] == 8
    assert s.spread == pytest.approx(doc["iqr"], rel=1e-12)
    assert s.spread != pytest.approx((s.max - s.min) / s.median)
    assert s.iqr == pytest.approx(doc["iqr"], rel=1e-12)
    assert (s.q1, s.q3, s.second) == (doc["q1"], doc["q3"], doc["second"])
    (change,) = [c for c in roofline.diff(m, m).changes if c.name == "L1"]
    assert change.spread_a == pytest.approx(s.spread, rel=1e-12)


def test_below_five_samples_the_spread_is_the_full_range_and_absent_fields_are_none(tmp_path):
    doc = json.load(open(ZEN4, encoding="utf-8"))
    l1 = [r for r in doc["memory"] if r["level"] == "L1"][0]["stats"]
    l1["repetitions"] = 4
    l3 = [r for r in doc["memory"] if r["level"] == "L3"][0]["stats"]
    for key in ("q1", "q3", "iqr", "second"):
        del l3[key]  # a document written before they were recorded
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    m = roofline.Machine.load(path)
    s = m.memory_roof("L1").statistics
    assert s.spread == pytest.approx((s.max - s.min) / s.median)
    old = m.memory_roof("L3").statistics
    assert (old.q1, old.q3, old.iqr, old.second) == (None, None, None, None)
    assert old.spread == pytest.approx((old.max - old.min) / old.median)


def test_given_roofs_have_a_precision_that_is_a_data_type_and_given_provenance(cli):
    # "fp99" was taken as the roof's name; the CLI's --peak --precision refuses it.
    with pytest.raises(roofline.InputError, match="'fp99' is none"):
        roofline.Machine.from_roofs(1e12, 1e11, "fp99")
    r = cli("point", "--work", "1e9", "--traffic", "1e8", "--time", "1", "--peak", "1T",
            "--bandwidth", "100G", "--precision", "fp99")
    assert r.returncode == 2 and "'fp99' is none" in r.stderr
    for precision in ("", "fp16", "fp16 tensor", "int8"):
        roofline.Machine.from_roofs(1e12, 1e11, precision)
    # Both were "datasheet": numbers the user typed are no vendor's datasheet.
    m = roofline.Machine.from_roofs(1e12, 1e11, "fp32")
    assert m.compute_roof().provenance == "given"
    assert m.memory_roof().provenance == "given"
    assert "Machine.from_roofs" in m.compute_roof().source
    saved = json.loads(m.to_json())
    assert saved["compute"][0]["provenance"] == saved["memory"][0]["provenance"] == "given"


def test_a_given_roofs_document_loads_back(tmp_path):
    m = roofline.Machine.from_roofs(1e12, 1e11, "fp32")
    path = tmp_path / "given.json"
    m.save(path)
    assert roofline.Machine.load(path).compute_roof().provenance == "given"


def test_a_model_without_a_published_size_says_none():
    # llama-4-scout's text model has no published total (Meta's 109B includes the vision
    # encoder): published_params was 0.0.
    scout = roofline.llm.model("llama-4-scout")
    assert scout.published_params is None
    assert "published_parameters" not in scout.to_dict()
    assert roofline.llm.model("deepseek-v3").published_params == 671e9


def test_a_measured_rate_above_the_roofs_is_a_warning_and_a_property():
    a100 = roofline.Machine("a100-80gb")
    model = roofline.llm.model("llama-2-7b")
    r = roofline.llm.analyse(model, a100, measured_tokens_per_s=1e9)
    measured = r.to_dict()["measured"]["above_roof"]
    assert "impossible" in measured
    assert r.above_roof == measured
    # Said once, in the report's warning, as the CLI's JSON says it.
    assert [w for w in r.warnings if measured in w] == r.warnings == r.to_dict()["warnings"]
    fine = roofline.llm.analyse(model, a100, measured_tokens_per_s=10)
    assert fine.above_roof is None and fine.warnings == fine.to_dict()["warnings"]
    assert roofline.llm.analyse(model, a100).above_roof is None


def test_chart_compares_overlays_at_a_precision_as_plot_does(cli, tmp_path):
    # Chart(h100, overlays=[tpu-v5e], workload_intensity_flop_per_byte=100) compared the H100's
    # fp32 roof with the TPU's bf16 one unsaid ("1.22x"); precision= compares like with like
    # and gives `plot --compare --at --precision`'s document.
    import warnings
    h100, tpu = roofline.Machine("h100-sxm"), roofline.Machine("tpu-v5e")
    with pytest.warns(UserWarning, match=r"roofline.Chart: comparing different precisions "
                                         r"\(h100-sxm fp32 vector, tpu-v5e bf16 mxu\); give "
                                         r"precision=\"bf16/fp16\""):
        roofline.Chart(h100, overlays=[tpu], workload_intensity_flop_per_byte=100).to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chart = roofline.Chart(h100, overlays=[tpu], workload_intensity_flop_per_byte=100,
                               precision="bf16", title="Roofline of h100-sxm").to_dict()
    out = tmp_path / "p.json"
    r = cli("plot", "h100-sxm", "--compare", "tpu-v5e", "--at", "100", "--precision", "bf16",
            "-o", out)
    assert r.returncode == 0, r.stderr
    assert chart == json.loads(out.read_text())
    assert chart["workload"]["machines"][1]["ratio"] == pytest.approx(81.9 / 335)
    with pytest.raises(roofline.InputError, match="is a sparse roof"):
        roofline.Chart(h100, precision="bf16 tensor sparse").to_dict()


def test_a_narrow_accumulate_roof_against_full_ones_warns():
    h100, rtx5090 = roofline.Machine("h100-sxm"), roofline.Machine("rtx-5090")
    said = r"rtx-5090 fp16 tensor fp16-accumulate accumulates narrower than fp32"
    with pytest.warns(UserWarning, match="roofline.compare: " + said):
        roofline.compare([h100, rtx5090], 1000, precision="fp16")
    with pytest.warns(UserWarning, match="roofline.Chart: " + said):
        roofline.Chart(h100, overlays=[rtx5090], workload_intensity_flop_per_byte=1000,
                       precision="fp16").to_dict()


def test_every_llm_estimate_on_a_narrow_accumulate_roof_says_it():
    # rtx-5090 lists fp16 tensor only with fp16 accumulation: each estimate's warnings say its
    # compute-bound times are optimistic, as `roofline llm --hw rtx-5090` does on stderr.
    from roofline import llm
    said = "'fp16 tensor fp16-accumulate' of rtx-5090 accumulates narrower than fp32"

    def says(warnings):
        return sum(said in w for w in warnings) == 1

    assert says(llm.analyse("llama-2-7b", "rtx-5090", batch=1, context=256).warnings)
    assert says(llm.request("llama-2-7b", "rtx-5090", output_tokens=8, prompt=128).warnings)
    assert says(llm.serve("llama-2-7b", "rtx-5090", concurrency=2, requests=[(64, 8)],
                          total_requests=4).warnings)
    assert not any("narrower" in w
                   for w in llm.request("llama-2-7b", "h100-sxm", output_tokens=8,
                                        prompt=128).warnings)


def test_chart_checks_its_precision_when_made():
    # It was accepted here and refused only by to_svg().
    with pytest.raises(roofline.InputError, match="banana"):
        roofline.Chart("a100-80gb", precision="banana")
    with pytest.raises(roofline.InputError, match="banana"):
        roofline.Chart("a100-80gb", overlays=["h100-sxm"], precision="banana")


def test_chart_judges_a_point_of_no_precision_on_the_roof_plot_does(cli, tmp_path):
    # `plot --precision P` writes the roof P names into a point that names none; the Chart
    # left it out.
    points = tmp_path / "p.json"
    points.write_text(json.dumps({"schema": "roofline.points", "version": 1, "points": [
        {"name": "k", "work": 1e12, "traffic": 1e10, "time": 0.01}]}))
    out = tmp_path / "c.json"
    r = cli("plot", "a100-80gb", points, "--precision", "fp16", "-o", out)
    assert r.returncode == 0, r.stderr
    want = json.loads(out.read_text())
    chart = roofline.Chart("a100-80gb", [roofline.Point("k", 1e12, 1e10, 0.01)],
                           precision="fp16").to_dict()
    assert want["points"][0]["precision"]
    assert chart["points"][0]["precision"] == want["points"][0]["precision"]
    # The same point, judged alike; only where it came from differs (source 'python').
    assert chart["points"][0].pop("source") == "python"
    assert chart["points"] == want["points"]


def test_a_chart_title_of_two_lines_is_refused_when_the_chart_is_made():
    # It was accepted, and refused only when drawn: in a notebook, inside the display formatter.
    for title in ("a\nb", "a\u2028b"):
        with pytest.raises(roofline.InputError, match=r"^chart title 'a\\u(000a|2028)b' must be one "
                                                       r"line"):
            roofline.Chart("a100-80gb", title=title)


def test_an_llm_reports_element_wise_operators_are_on_the_vector_roof():
    # A norm ran on the A100's fp16 tensor roof (312 TFLOP/s); its vector roof is 78.
    r = roofline.llm.analyse("llama-2-7b", "a100-80gb", batch=1, context=2048)
    assert r.compute_roof == "fp16 tensor"
    assert r.vector_roof == "fp16 vector" and r.vector_peak_flop_per_s == 78e12
    ops = {o["name"]: o for o in r.to_dict()["decode"]["operators"]}
    norm = ops["attention norm"]
    assert norm["unit"] == "vector" and norm["compute_roof"] == "fp16 vector"
    assert norm["time_no_overlap"] == pytest.approx(16384 / 78e12 + 24576 / 2.039e12, rel=1e-12)
    assert ops["q_proj"]["compute_roof"] == "fp16 tensor"
    fused = ops["attention (fused)"]
    assert fused["unit"] == "matrix" and fused["vector_work"] == 5 * 32 * 2048


def test_a_chart_says_the_points_it_leaves_out_as_plot_does(cli, tmp_path):
    # A point the machine has no roof for was left out with a warning alone: the SVG, PNG and
    # HTML a notebook saves looked complete. The chart says it now, from the warning's own list.
    drawn = roofline.Point("drawn", 1e12, 1e10, 0.01)
    eight = roofline.Point("eight", 1e12, 1e10, 0.01, precision="fp8")
    chart = roofline.Chart("a100-80gb", [drawn, eight])
    with pytest.warns(UserWarning, match=r"point 'eight' not judged: (machine .*)$") as said:
        left = chart.not_drawn()
    assert [(p["name"], p["reason"]) for p in left] == [("eight", "no roof for fp8")]
    assert str(said[0].message).endswith("not judged: " + left[0]["detail"])
    with pytest.warns(UserWarning):
        svg = chart.to_svg()
    assert 'class="not-drawn">1 point not drawn: eight (no roof for fp8)</text>' in svg
    with pytest.warns(UserWarning):
        html = chart.to_html()
    assert '<li><span class="name">eight</span>: no roof for fp8 — ' in html
    with pytest.warns(UserWarning):
        as_dict = chart.to_dict()
    assert as_dict["not_drawn"] == left
    # The CSV has a row for it too: `drawn` false, with the reason and the message, in the
    # columns after the others; the drawn point's row says true.
    with pytest.warns(UserWarning):
        rows = list(csv.reader(io.StringIO(chart.to_csv())))
    assert rows[0][-3:] == ["drawn", "reason", "detail"]
    by_name = {r[2]: r for r in rows[1:] if r[0] == "point"}
    assert by_name["eight"][-3:] == ["false", "no roof for fp8", left[0]["detail"]]
    assert by_name["eight"][3:-3] == [""] * (len(rows[0]) - 6)
    assert by_name["drawn"][-3:] == ["true", "", ""]
    # As `roofline plot` says it in its JSON.
    points = tmp_path / "p.json"
    points.write_text(json.dumps({"schema": "roofline.points", "version": 1, "points": [
        {"name": "drawn", "work": 1e12, "traffic": 1e10, "time": 0.01},
        {"name": "eight", "work": 1e12, "traffic": 1e10, "time": 0.01, "precision": "fp8"}]}))
    out = tmp_path / "c.json"
    r = cli("plot", "a100-80gb", points, "-o", out)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["not_drawn"] == left
    # Every point drawn: nothing said.
    whole = roofline.Chart("a100-80gb", [drawn])
    assert whole.not_drawn() == []
    assert "not_drawn" not in whole.to_dict()
    assert 'class="not-drawn"' not in whole.to_svg()
