"""roofline.llm's scenario keywords — pipeline, expert and context parallelism, the link facts,
a calibration — against `roofline llm --json` with the same flags: both set the scenario up
through the library's one llm::setup, so the objects must be equal, number for number."""
import json

import pytest

import roofline


@pytest.fixture(scope="module")
def h100():
    return roofline.Machine("h100-sxm")


def test_pipeline_stages_equal_the_cli(cli_json, h100):
    c = cli_json("llm", "--model", "llama-2-70b", "--hw", "h100-sxm", "--tp", "2", "--pp", "4",
                 "--micro-batches", "8", "--batch", "16", "--context", "2048")
    r = roofline.llm.analyse(roofline.llm.model("llama-2-70b"), h100, batch=16, context=2048,
                             tp=2, pp=4, micro_batches=8)
    assert r.to_dict() == c
    # The pipeline is in the report: GPipe's bubble (p − 1)/(m + p − 1) = 3/11 (Huang et al.
    # 2019), the same as without the keywords it is not.
    d = json.dumps(c)
    assert "pipeline" in d
    plain = roofline.llm.analyse(roofline.llm.model("llama-2-70b"), h100, batch=16,
                                 context=2048, tp=2)
    assert plain.to_dict() != r.to_dict()


def test_expert_and_context_parallel_equal_the_cli(cli_json, h100):
    c = cli_json("llm", "--model", "mixtral-8x7b", "--hw", "h100-sxm", "--tp", "4", "--ep",
                 "--cp", "2", "--batch", "4", "--context", "8192")
    r = roofline.llm.analyse(roofline.llm.model("mixtral-8x7b"), h100, batch=4, context=8192,
                             tp=4, ep=True, cp=2)
    assert r.to_dict() == c
    tp_only = roofline.llm.analyse(roofline.llm.model("mixtral-8x7b"), h100, batch=4,
                                   context=8192, tp=4)
    assert tp_only.to_dict() != r.to_dict()


def test_link_latency_and_domain_equal_the_cli(cli_json, h100):
    c = cli_json("llm", "--model", "llama-3-70b", "--hw", "h100-sxm", "--tp", "16",
                 "--domain-size", "8", "--link-latency", "3 us")
    r = roofline.llm.analyse(roofline.llm.model("llama-3-70b"), h100, tp=16, domain_size=8,
                             link_latency_s=3e-6)
    assert r.to_dict() == c
    # --tp 16 over an 8-device domain is warned about, in both.
    assert any("exceeds the 8-device" in w for w in r.warnings), r.warnings
    # The latency is paid: one more microsecond per ring step makes the step slower.
    slower = roofline.llm.analyse(roofline.llm.model("llama-3-70b"), h100, tp=16,
                                  domain_size=8, link_latency_s=4e-6)
    assert slower.time_per_token_s > r.time_per_token_s


def test_attainment_scales_the_roofs_as_the_cli(cli_json, h100):
    c = cli_json("llm", "--model", "llama-2-7b", "--hw", "h100-sxm",
                 "--attainment", "compute=0.7,memory=0.85")
    r = roofline.llm.analyse(roofline.llm.model("llama-2-7b"), h100,
                             attainment="compute=0.7,memory=0.85")
    assert r.to_dict() == c
    plain = roofline.llm.analyse(roofline.llm.model("llama-2-7b"), h100)
    assert r.peak_flop_per_s == pytest.approx(0.7 * plain.peak_flop_per_s, rel=1e-12)
    assert r.bandwidth_byte_per_s == pytest.approx(0.85 * plain.bandwidth_byte_per_s, rel=1e-12)


def test_calibrate_with_a_measured_machine_as_the_cli(cli_json, tmp_path):
    # A measurement of the --hw machine: its roofs measured, its name the machine's (a document
    # of another name is refused, either way round).
    measured = {
        "schema": "roofline.machine", "version": 1, "name": "a100-80gb",
        "default_memory": "HBM",
        "compute": [{"name": "fp16 tensor (measured)", "precision": "fp16", "peak": 250e12,
                     "provenance": "measured", "source": "test"}],
        "memory": [{"level": "HBM", "bandwidth": 1.7e12, "provenance": "measured",
                    "source": "test"}]}
    path = tmp_path / "measured.json"
    path.write_text(json.dumps(measured))
    c = cli_json("llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--calibrate", str(path))
    a100 = roofline.Machine("a100-80gb")
    by_path = roofline.llm.analyse(roofline.llm.model("llama-2-7b"), a100, calibrate=str(path))
    assert by_path.to_dict() == c
    # An os.PathLike as well (it was refused as no "machine file's path").
    assert roofline.llm.analyse(roofline.llm.model("llama-2-7b"), a100,
                                calibrate=path).to_dict() == c
    # The attainment is the measured roof over the datasheet's: 1.7 / 2.039 of the HBM roof
    # (the A100 80GB datasheet's 2,039 GB/s).
    plain = roofline.llm.analyse(roofline.llm.model("llama-2-7b"), a100)
    assert by_path.bandwidth_byte_per_s == pytest.approx(1.7e12, rel=1e-12)
    assert plain.bandwidth_byte_per_s == pytest.approx(2.039e12, rel=1e-12)
    # A Machine object calibrates as its file does.
    by_machine = roofline.llm.analyse(roofline.llm.model("llama-2-7b"), a100,
                                      calibrate=roofline.Machine(str(path)))
    assert by_machine.bandwidth_byte_per_s == by_path.bandwidth_byte_per_s
    assert by_machine.peak_flop_per_s == by_path.peak_flop_per_s
    # A document named as a driver names the device calibrates as it is, and one of another
    # name through its info.aliases, as on the CLI (Python read only the name).
    for name, info in (("NVIDIA A100-SXM4-80GB (cuda:0)", None),
                       ("bring-up board", {"aliases": ["a100-80gb"]})):
        doc = dict(measured, name=name)
        if info:
            doc["info"] = info
        path.write_text(json.dumps(doc))
        c = cli_json("llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--calibrate", str(path))
        assert roofline.llm.analyse(roofline.llm.model("llama-2-7b"), a100,
                                    calibrate=str(path)).to_dict() == c
        assert roofline.llm.analyse(roofline.llm.model("llama-2-7b"), a100,
                                    calibrate=roofline.Machine(str(path))).to_dict() == c


def test_keywords_reach_request_serving_speculative_and_training(cli_json, h100):
    m = roofline.llm.model("llama-2-70b")
    c = cli_json("llm", "--model", "llama-2-70b", "--hw", "h100-sxm", "--tp", "2", "--pp", "2",
                 "--batch", "4", "--context", "1024", "--output-tokens", "64",
                 "--concurrency", "4", "--requests", "1024:64", "--link-latency", "2 us")
    req = roofline.llm.request(m, h100, output_tokens=64, batch=4, prompt=1024, tp=2, pp=2,
                               link_latency_s=2e-6)
    assert req.to_dict() == c["request"]
    sv = roofline.llm.serve(m, h100, concurrency=4, requests=[(1024, 64)], tp=2, pp=2,
                            link_latency_s=2e-6)
    assert sv.to_dict() == c["serving"]
    t = cli_json("llm", "--model", "llama-2-70b", "--hw", "h100-sxm", "--train", "--tp", "8",
                 "--dp", "4", "--global-batch", "64", "--link-latency", "2 us")
    tr = roofline.llm.train(m, h100, dp=4, global_batch=64, tp=8, link_latency_s=2e-6)
    assert tr.to_dict() == t["training"]
    # What the CLI refuses, the bindings refuse with its message.
    with pytest.raises(roofline.InputError, match="llm.train\\(\\) with pp"):
        roofline.llm.train(m, h100, tp=8, pp=2)
    with pytest.raises(roofline.InputError, match="llm.train\\(\\) with cp 2: context-parallel"):
        roofline.llm.train(m, h100, tp=8, cp=2)
    # A global batch that is no whole number ≥ 1 is refused (0 is the default: one pass); it
    # was taken for the default.
    for bad in (-1, float("nan"), 2.5):
        with pytest.raises(roofline.InputError, match="global_batch: must be a whole number"):
            roofline.llm.train(m, h100, global_batch=bad)
    # A result beyond what can be computed (inf s, nan MFU) is refused as the CLI refuses it.
    with pytest.raises(roofline.InputError, match="roofline.llm.train: .* beyond what can be"):
        roofline.llm.train(m, h100, sequence=1e300)


def test_scenario_keywords_are_checked():
    m = roofline.llm.model("llama-2-7b")
    h = roofline.Machine("h100-sxm")
    with pytest.raises(TypeError, match="unexpected keyword argument 'pipeline'"):
        roofline.llm.analyse(m, h, pipeline=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'pipeline'"):
        roofline.llm.analyse(m, h, pipeline=None)
    # Past the phase everything is a keyword: a 7th positional argument is refused, not taken
    # for a measured throughput.
    with pytest.raises(TypeError):
        roofline.llm.analyse(m, h, 1, 2048, None, "decode", 2)
    with pytest.raises(TypeError, match="^pp: expected an int"):
        roofline.llm.analyse(m, h, pp="two")
    with pytest.raises(roofline.InputError, match="^pp: must be ≥ 1"):
        roofline.llm.analyse(m, h, pp=0)
    with pytest.raises(roofline.InputError, match="^link_latency_s: must be a finite number ≥ 0"):
        roofline.llm.analyse(m, h, link_latency_s=-1e-6)
    with pytest.raises(roofline.InputError,
                       match="^interconnect_byte_per_s: must be a finite number > 0"):
        roofline.llm.analyse(m, h, tp=2, interconnect_byte_per_s=float("inf"))
    with pytest.raises(roofline.InputError, match="^give attainment or calibrate, not both"):
        roofline.llm.analyse(m, h, attainment="compute=0.5,memory=0.5", calibrate=h)
    with pytest.raises(roofline.InputError, match="^attainment: 'speed=0.5' must be"):
        roofline.llm.analyse(m, h, attainment="speed=0.5")
    with pytest.raises(roofline.InputError, match="^mla: must be auto, absorbed or naive"):
        roofline.llm.analyse(m, h, mla="sideways")
    # What means nothing without another option is refused here as on the CLI (it was ignored).
    with pytest.raises(roofline.InputError, match="interconnect_byte_per_s is used by tp"):
        roofline.llm.analyse(m, h, interconnect_byte_per_s=6e11)
    with pytest.raises(roofline.InputError, match="micro_batches splits the batch"):
        roofline.llm.analyse(m, h, micro_batches=4)
    with pytest.raises(roofline.InputError, match="sequence_parallel splits activations"):
        roofline.llm.train(m, h, sequence_parallel=True)
    # Training's gradient all-reduce over dp uses the link: there it is taken.
    a = roofline.llm.train(m, h, dp=2, global_batch=16, interconnect_byte_per_s=1e11)
    b = roofline.llm.train(m, h, dp=2, global_batch=16, interconnect_byte_per_s=4e11)
    assert a.to_dict()["gradient_all_reduce"] > b.to_dict()["gradient_all_reduce"]


def test_compare_equals_the_cli_row_for_row(cli_json):
    c = cli_json("llm", "--model", "llama-2-70b", "--hw", "h100-sxm,a100-80gb,mi300x", "--tp",
                 "2", "-b", "8", "-L", "4096", "--output-tokens", "128", "--dp", "2",
                 "--price-per-hour", "h100-sxm=3,a100-80gb=2", "--link-latency", "2 us")
    rows = roofline.llm.compare(
        roofline.llm.model("llama-2-70b"),
        [roofline.Machine(n) for n in ("h100-sxm", "a100-80gb", "mi300x")], batch=8,
        context=4096, output_tokens=128, dp=2, price_per_hour={"h100-sxm": 3, "a100-80gb": 2},
        tp=2, link_latency_s=2e-6)
    # The CLI's rows, with their messages in Python's names (python_message): a row is a
    # Python result, like Cost.notes, not a to_dict().
    translate = roofline._roofline._python_message
    for row in c["machines"]:
        row["warnings"] = [translate(w) for w in row["warnings"]]
        row["cost"]["notes"] = [translate(n) for n in row["cost"]["notes"]]
        if "request" in row:
            row["request"]["warnings"] = [translate(w) for w in row["request"]["warnings"]]
    assert rows == c["machines"]
    assert not any("--" in n for row in rows for n in row["cost"]["notes"] + row["warnings"])
    # $/M tokens = price × devices / (tokens/s × 3600) × 10⁶, devices = tp × dp = 4.
    h100 = rows[0]
    assert h100["cost"]["usd_per_million_tokens"] == pytest.approx(
        3 * 4 / (h100["request_tokens_per_s"] * 3600) * 1e6, rel=1e-12)
    assert rows[2]["cost"]["usd_per_million_tokens"] is None  # no price given for mi300x
    with pytest.raises(TypeError, match="price_per_hour: expected a number"):
        roofline.llm.compare(roofline.llm.model("llama-2-7b"), [roofline.Machine("l4")],
                             price_per_hour={"l4": "cheap"})
    with pytest.raises(roofline.InputError, match="dp: must be a whole number"):
        roofline.llm.compare(roofline.llm.model("llama-2-7b"), [roofline.Machine("l4")], dp=0.5)
    # output_tokens 0 is "no request timing"; a negative or nan count is refused, not taken
    # for 0.
    for bad in (-5, float("nan")):
        with pytest.raises(roofline.InputError, match="output_tokens"):
            roofline.llm.compare(roofline.llm.model("llama-2-7b"), [roofline.Machine("l4")],
                                 output_tokens=bad)


def test_a_price_under_no_machines_name_is_refused(cli):
    # Left out silently, it read as "no price given" for the machine it was meant for.
    model = roofline.llm.model("llama-2-7b")
    with pytest.raises(roofline.InputError, match="price_per_hour: 'nope' is none of the machines"):
        roofline.llm.compare(model, [roofline.Machine("l4")], price_per_hour={"nope": 1.0})
    for spec, message in (("zzz=2", "'zzz' is none of the machines (a100, l4)"),
                          ("a100=2,a100=3", "'a100' is priced twice"),
                          ("=2", "'=2' must be NAME=PRICE")):
        r = cli("llm", "--model", "llama-2-7b", "--hw", "a100,l4", "--price-per-hour", spec)
        assert r.returncode == 2, spec
        assert message in r.stderr, r.stderr
    # A machine is priced by the name given to --hw (an alias) or by its own.
    for spec in ("a100=2", "a100-80gb=2"):
        r = cli("llm", "--model", "llama-2-7b", "--hw", "a100,l4", "--price-per-hour", spec,
                "--json")
        assert r.returncode == 0, r.stderr
        rows = json.loads(r.stdout)["machines"]
        assert rows[0]["cost"]["price_per_device_hour"] == 2
        assert rows[1]["cost"]["price_per_device_hour"] is None


def test_tensor_parallel_degrees_the_model_cannot_be_split_by_are_refused():
    # parameters(tp=0) was counted as tp=1, tp=3 gave fractional counts: refused as analyse does.
    model = roofline.llm.model("llama-2-7b")
    for tp, message in ((0, "tp: must be ≥ 1"), (3, "tp 3: must divide num_attention_heads")):
        with pytest.raises(roofline.InputError, match=message):
            model.parameters(tp=tp)
    assert model.parameters(tp=2)["total"] < model.parameters()["total"]


def test_chart_draws_the_roofs_the_model_was_judged_on_as_the_cli_report(cli, h100, tmp_path):
    # llm.chart drew the machine's default fp32 roof: its ridge read 19.97 FLOP/byte beside
    # diagnoses against the fp16 tensor roof's 295.3. The same document as `llm --report`.
    report = tmp_path / "r.json"
    assert cli("llm", "--model", "llama-3-8b", "--hw", "h100-sxm", "--report",
               report).returncode == 0
    c = json.loads(report.read_text())
    r = roofline.llm.analyse(roofline.llm.model("llama-3-8b"), h100)
    assert r.judged_machine.name == "h100-sxm"
    # Its default title is the CLI's (it was "llama-3-8b on h100-sxm").
    assert r.chart_title == c["title"] == ("llama-3-8b on h100-sxm: decode operators, batch 1, "
                                           "context 2048, prompt 2048")
    d = roofline.llm.chart(r).to_dict()
    assert d == c
    primary = [x for x in d["ridges"] if x["primary"]]
    assert [x["compute_roof"] for x in primary] == [r.compute_roof] == ["fp16 tensor"]
    assert primary[0]["intensity"] == pytest.approx(r.ridge_flop_per_byte)


def test_chart_says_a_model_that_does_not_fit(cli, tmp_path):
    # llama-2-70b on an L4 (139 GB of 24 GB): r.warnings said it, the chart did not.
    r = roofline.llm.analyse("llama-2-70b", "l4", batch=1, context=2048)
    assert r.fits is False
    said = [w for w in r.warnings if "does not fit" in w]
    assert len(said) == 1
    c = roofline.llm.chart(r)
    svg, html = c.to_svg(), c.to_html()
    assert 'class="chart-warning"' in svg
    assert "exceed the 24 GB of GDDR6 per device" in svg
    assert svg.count('data-fits="false"') == len(r.points())
    assert "does not fit in memory: 139 GB of 24 GB (GDDR6)" in svg
    assert "<li><strong>warning:</strong> " + said[0].replace("<", "&lt;") + "</li>" in html
    # The same document as `llm --report`.
    report = tmp_path / "l4.json"
    assert cli("llm", "--model", "llama-2-70b", "--hw", "l4", "--batch", "1", "--context", "2048",
               "--report", report).returncode == 0
    d = c.to_dict()
    assert d == json.loads(report.read_text())
    assert d["warnings"] == r.warnings
    assert all(p["does_not_fit"] == "139 GB of 24 GB (GDDR6)" for p in d["points"])
    # A model that fits: nothing said.
    fits = roofline.llm.chart(roofline.llm.analyse("llama-2-7b", "a100-80gb")).to_svg()
    assert "does not fit" not in fits and 'class="chart-warning"' not in fits


def test_models_and_machines_by_name_or_path_as_the_cli_takes_them(h100, tmp_path):
    # analyse("llama-2-7b", "a100-80gb") was a TypeError listing every signature; the torch
    # tables took catalogue names. The same report as with the objects.
    model = roofline.llm.model("llama-2-7b")
    by_object = roofline.llm.analyse(model, h100, batch=4).to_dict()
    assert roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=4).to_dict() == by_object
    # A model's folder (a Hugging Face snapshot) by its config.json, as a pathlib.Path.
    folder = tmp_path / "snapshot"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({
        "model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "num_hidden_layers": 32, "intermediate_size": 11008, "vocab_size": 32000,
        "num_key_value_heads": 32}))
    assert roofline.llm.model(folder).parameters()["total"] == model.parameters()["total"]
    assert roofline.llm.request(folder, "h100", output_tokens=8).to_dict() == \
        roofline.llm.request(model, h100, output_tokens=8).to_dict()
    rows = roofline.llm.compare("llama-2-7b", ["a100-80gb", h100])
    assert [r["machine"] for r in rows] == ["a100-80gb", "h100-sxm"]
    # Anything else names the parameter; an unknown name is the catalogue's own error.
    with pytest.raises(TypeError, match=r"^model: expected a roofline.llm.Model, a preset name "
                                        r"or a config.json's path \(got int\)"):
        roofline.llm.analyse(7, h100)
    with pytest.raises(TypeError, match=r"^machine: expected a roofline.Machine, a catalogue "
                                        r"name or a machine document's path \(got float\)"):
        roofline.llm.analyse(model, 3.5)
    with pytest.raises(roofline.InputError, match="unknown machine 'h100-sxmx'.*did you mean"):
        roofline.llm.analyse(model, "h100-sxmx")
    with pytest.raises(roofline.InputError, match="model: unknown model 'llama-9'"):
        roofline.llm.analyse("llama-9", h100)


def test_a_draft_by_name_and_none_named_as_every_argument(h100):
    # draft="llama-2-7b" was refused though --draft takes a preset; None gave pybind's listing.
    by_name = roofline.llm.speculative("llama-2-70b", h100, draft="llama-2-7b").to_dict()
    by_object = roofline.llm.speculative(roofline.llm.model("llama-2-70b"), h100,
                                         draft=roofline.llm.model("llama-2-7b")).to_dict()
    assert by_name == by_object
    with pytest.raises(roofline.InputError, match="^draft: unknown model 'llama-0b'"):
        roofline.llm.speculative("llama-2-70b", h100, draft="llama-0b")
    with pytest.raises(TypeError, match=r"^model: expected .* \(got NoneType\)"):
        roofline.llm.analyse(None, h100)
    with pytest.raises(TypeError, match=r"^machine: expected .* \(got NoneType\)"):
        roofline.llm.analyse("llama-2-7b", None)


def test_a_link_latency_past_any_links_is_refused_as_the_cli_and_a_document(h100):
    # link_latency_s=5 (seconds) was taken, 11305 s per token for Llama-2-70B at tp 8, where a
    # document's "latency": 5 was refused: one bound and one message for all three.
    with pytest.raises(roofline.InputError,
                       match=r"^link_latency_s: 5 s is beyond any link's latency \(at most 1 s\)"):
        roofline.llm.analyse(roofline.llm.model("llama-2-70b"), h100, tp=8, link_latency_s=5)


def test_a_hub_repo_id_says_how_to_get_its_config():
    with pytest.raises(roofline.InputError,
                       match=r"huggingface-cli download Qwen/Qwen2\.5-7B-Instruct config\.json"):
        roofline.llm.model("Qwen/Qwen2.5-7B-Instruct")
