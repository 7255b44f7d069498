"""roofline.llm beyond one step — the whole request, a serving engine, speculative decoding, a
training step, the cost per token — against `roofline llm --json` for the same flags: the
bindings call the same library, so the sections must be equal, number for number."""
import pytest

import roofline


def llm(cli_json, *args):
    return cli_json("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", *args)


@pytest.fixture(scope="module")
def model():
    return roofline.llm.model("llama-2-7b")


@pytest.fixture(scope="module")
def h100():
    return roofline.Machine("h100-sxm")


def test_request_equals_the_cli(cli_json, model, h100):
    c = llm(cli_json, "--batch", "4", "--context", "1024", "--output-tokens", "128",
            "--chunk", "512")
    r = roofline.llm.request(model, h100, output_tokens=128, batch=4, prompt=1024, chunk=512)
    assert r.to_dict() == c["request"]
    assert r.ttft_s == c["request"]["ttft"]
    # End to end is the prefill and N − 1 decode steps; B·N tokens over it.
    assert r.e2e_s == pytest.approx(r.ttft_s + r.decode_s, rel=1e-12)
    assert r.output_tokens_per_s == pytest.approx(4 * 128 / r.e2e_s, rel=1e-12)


def test_serving_equals_the_cli(cli_json, model, h100):
    c = llm(cli_json, "--concurrency", "8", "--requests", "1024:128,512:64",
            "--max-batched-tokens", "2048")
    s = roofline.llm.serve(model, h100, concurrency=8, requests=[(1024, 128), (512, 64)],
                           max_batched_tokens=2048)
    assert s.to_dict() == c["serving"]
    assert s.requests == 64  # max(8 × concurrency, len(requests))
    assert s.output_tokens_per_s > 0 and s.ttft_median_s > 0


def test_tpot_of_one_token_requests_is_none_as_the_cli_says(cli_json, model, h100):
    # TPOT covers tokens 2…N: requests of one output token have none (it read 0 s).
    c = llm(cli_json, "--concurrency", "1", "--requests", "100:1")
    s = roofline.llm.serve(model, h100, concurrency=1, requests=[(100, 1)])
    assert s.to_dict() == c["serving"]
    assert c["serving"]["tpot"] is None
    assert s.tpot_median_s is None
    assert s.ttft_median_s > 0


def test_speculative_with_a_draft_model_equals_the_cli(cli_json, h100):
    target = roofline.llm.model("llama-2-70b")
    c = cli_json("llm", "--model", "llama-2-70b", "--hw", "h100-sxm", "--tp", "2",
                 "--batch", "2", "--context", "2048", "--spec-k", "4", "--spec-alpha", "0.7",
                 "--draft", "llama-2-7b")
    s = roofline.llm.speculative(target, h100, draft=roofline.llm.model("llama-2-7b"), k=4,
                                 alpha=0.7, batch=2, context=2048, tp=2)
    assert s.to_dict() == c["speculative"]
    # Leviathan et al. 2023, eq. 1: E = (1 − α^(k+1)) / (1 − α).
    assert s.expected_tokens == pytest.approx((1 - 0.7 ** 5) / 0.3, rel=1e-12)


def test_the_drafter_at_its_own_tensor_parallelism_equals_the_cli(cli_json, h100):
    # Qwen2.5-7B's 28 heads at tp 8: on 4 devices (draft_tp=4) as with --draft-tp 4.
    c = cli_json("llm", "--model", "qwen2.5-72b", "--hw", "h100-sxm", "--tp", "8",
                 "--context", "2048", "--spec-k", "4", "--draft", "qwen2.5-7b",
                 "--draft-tp", "4")
    s = roofline.llm.speculative("qwen2.5-72b", h100, draft="qwen2.5-7b", k=4, tp=8,
                                 draft_tp=4)
    assert s.to_dict() == c["speculative"]
    assert s.draft_tp == 4
    assert roofline.llm.speculative("qwen2.5-72b", h100, draft="qwen2.5-7b",
                                    k=4, tp=4).draft_tp == 4
    with pytest.raises(roofline.InputError, match=r"draft_tp 9: the drafter's tensor"):
        roofline.llm.speculative("qwen2.5-72b", h100, draft="qwen2.5-7b", tp=8, draft_tp=9)
    with pytest.raises(roofline.InputError, match=r"at tensor parallel 8 \(the target's tp"):
        roofline.llm.speculative("qwen2.5-72b", h100, draft="qwen2.5-7b", tp=8)


def test_speculative_with_mtp_equals_the_cli(cli_json):
    ds = roofline.llm.model("deepseek-v3")
    c = cli_json("llm", "--model", "deepseek-v3", "--hw", "h200", "--tp", "8", "--spec-k", "1",
                 "--draft", "mtp")
    s = roofline.llm.speculative(ds, roofline.Machine("h200"), draft="mtp", k=1, tp=8)
    assert s.to_dict() == c["speculative"]
    assert s.drafter == "MTP"
    # A name is a preset's (as --draft): an unknown one is named.
    with pytest.raises(roofline.InputError, match="draft: unknown model 'llama'"):
        roofline.llm.speculative(ds, roofline.Machine("h200"), draft="llama")
    with pytest.raises(roofline.InputError, match="draft: a roofline.llm.Model, a preset name"):
        roofline.llm.speculative(ds, roofline.Machine("h200"), draft=3)


def test_training_step_equals_the_cli(cli_json, model, h100):
    c = llm(cli_json, "--train", "--seq", "4096", "--micro-batch", "2", "--dp", "8",
            "--recompute", "selective", "--zero", "1", "--measured-step-s", "3.5")
    t = roofline.llm.train(model, h100, sequence=4096, micro_batch=2, dp=8,
                           recompute="selective", zero=1, measured_step_s=3.5)
    assert t.to_dict() == c["training"]
    # Kaplan et al. 2020: 6·N·D.
    assert t.six_nd_flop == pytest.approx(6 * t.parameters * t.tokens, rel=1e-12)
    assert t.measured_mfu is not None


def test_cost_equals_the_cli(cli_json, model, h100):
    c = llm(cli_json, "--batch", "16", "--cost", "--price-per-hour", "2.5")
    r = roofline.llm.analyse(model, h100, batch=16)
    k = roofline.llm.cost(r.tokens_per_s, h100, devices=1, price_per_hour=2.5)
    # The CLI says whose throughput it costs (decode's here); a throughput given is the caller's.
    assert c["cost"].pop("basis") == "decode"
    assert k.to_dict() == c["cost"]
    # $/M tokens = price × devices / (tokens/s × 3600) × 10⁶
    assert k.usd_per_million_tokens == pytest.approx(2.5 / (r.tokens_per_s * 3600) * 1e6,
                                                     rel=1e-12)
    # Devices are whole, as the CLI's --tp and --dp.
    for devices in (1.5, 0, float("nan")):
        with pytest.raises(roofline.InputError, match="devices: must be"):
            roofline.llm.cost(r.tokens_per_s, h100, devices=devices)


def test_bad_arguments_name_the_field(model, h100):
    with pytest.raises(roofline.InputError, match="requests: give at least one"):
        roofline.llm.serve(model, h100, concurrency=4, requests=[])
    with pytest.raises(roofline.InputError, match="concurrency"):
        roofline.llm.serve(model, h100, concurrency=0.5, requests=[(128, 16)])
    with pytest.raises(roofline.InputError, match="tokens_per_s"):
        roofline.llm.cost(0, h100)
    with pytest.raises(roofline.InputError, match="recompute|none, selective or full"):
        roofline.llm.train(model, h100, recompute="sometimes")


def test_serving_peak_kv_cache_equals_the_cli(cli_json, model, h100):
    c = llm(cli_json, "--concurrency", "8", "--requests", "1024:128,512:64")
    s = roofline.llm.serve(model, h100, concurrency=8, requests=[(1024, 128), (512, 64)])
    assert s.peak_kv_cache_bytes == c["serving"]["peak_kv_cache"]
    assert s.peak_tokens == c["serving"]["peak_tokens"]
    # Llama-2-7B holds 512 KiB of KV cache per token (32 layers × 2 × 4096 × 2 bytes).
    assert s.peak_kv_cache_bytes == s.peak_tokens * 524288
    assert s.warnings == []


def test_compare_refuses_one_machine_twice_and_prices_by_catalogue_name(model):
    a100 = roofline.Machine("a100")
    with pytest.raises(roofline.InputError, match="are one machine"):
        roofline.llm.compare(model, [a100, roofline.Machine("a100-80gb")], batch=8)
    # Two machines given as numbers are two machines (each was "given roofs", refused as one).
    given = [roofline.Machine.from_roofs(1e12, 1e11, name="a"),
             roofline.Machine.from_roofs(2e12, 2e11, name="b")]
    assert len(roofline.llm.compare(model, given, batch=8)) == 2
    rows = roofline.llm.compare(model, [a100, roofline.Machine("h100-sxm")], batch=8,
                                price_per_hour={"a100-80gb": 1.8})
    first = rows[0]  # the dicts `roofline llm --hw a,b --json` lists
    assert first["cost"]["usd_per_million_tokens"] == pytest.approx(
        1.8 / (first["decode_tokens_per_s"] * 3600) * 1e6, rel=1e-12)


def test_a_drafter_of_another_vocabulary_is_warned_about(cli, h100):
    # Llama 3's 128256 tokens cannot be verified by Llama 2 70B's 32000: the library warns, the
    # CLI prints it on stderr with --json, Python says it (and keeps it in .warnings).
    target = roofline.llm.model("llama-2-70b")
    with pytest.warns(UserWarning, match=r"vocabulary \(128256\) is not the target's \(32000\)"):
        s = roofline.llm.speculative(target, h100, draft=roofline.llm.model("llama-3-8b"), k=4,
                                     tp=2)
    # Beside the step's own warnings (tp=2 on h100-sxm: no link latency in the catalogue).
    assert sum("128256" in w for w in s.warnings) == 1, s.warnings
    # to_dict() is the CLI's JSON; .warnings says its flags as Python's parameters.
    translate = roofline._roofline._python_message
    assert [translate(w) for w in s.to_dict()["warnings"]] == s.warnings
    r = cli("llm", "--model", "llama-2-70b", "--hw", "h100-sxm", "--tp", "2", "--spec-k", "4",
            "--draft", "llama-3-8b", "--json")
    assert r.returncode == 0, r.stderr
    assert "warning: the drafter's vocabulary (128256)" in r.stderr


def test_a_measurement_above_the_roofs_is_a_report_warning(cli, model, h100):
    r = roofline.llm.analyse(model, h100, batch=1, context=2048, measured_tokens_per_s=1e9)
    assert any("is above the roofs (" in w for w in r.warnings), r.warnings
    # Once, as in the JSON (the measurement's above_roof was added a second time).
    assert r.warnings == r.to_dict()["warnings"] and len(r.warnings) == 1, r.warnings
    assert not any("above the roofs" in w for w in
                   roofline.llm.analyse(model, h100, measured_tokens_per_s=10).warnings)
    c = cli("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--measured-tokens-per-s", "7e6",
            "--json")
    assert c.returncode == 0, c.stderr
    assert "is above the roofs (" in c.stderr


def test_compare_names_its_two_throughputs(model, h100):
    # decode_tokens_per_s is B / time per token whatever output_tokens is; the request's rate
    # (prefill included) is request_tokens_per_s, None without output_tokens.
    plain = roofline.llm.compare(model, [h100], batch=8)[0]
    whole = roofline.llm.compare(model, [h100], batch=8, output_tokens=128)[0]
    assert "tokens_per_s" not in plain
    assert plain["request_tokens_per_s"] is None
    assert whole["decode_tokens_per_s"] == plain["decode_tokens_per_s"]
    assert plain["decode_tokens_per_s"] == pytest.approx(8 / plain["time_per_output_token"],
                                                         rel=1e-12)
    assert whole["request_tokens_per_s"] == pytest.approx(
        8 * 128 / whole["request"]["e2e"], rel=1e-12)
    assert whole["request_tokens_per_s"] < whole["decode_tokens_per_s"]


def test_draft_tp_is_an_int_with_the_cli_message():
    with pytest.raises(TypeError, match=r"^draft_tp: expected an int \(got float\)"):
        roofline.llm.speculative("llama-2-70b", "h100-sxm", draft="llama-2-7b", tp=8,
                                 draft_tp=2.0)
    with pytest.raises(TypeError, match=r"^draft_tp: expected an int \(got bool\)"):
        roofline.llm.speculative("llama-2-70b", "h100-sxm", draft="llama-2-7b", tp=8,
                                 draft_tp=True)
    with pytest.raises(roofline.InputError,
                       match=r"^draft_tp 0: the drafter's tensor parallelism must be from 1 to "
                             r"the target's tp \(8\)$"):
        roofline.llm.speculative("llama-2-70b", "h100-sxm", draft="llama-2-7b", tp=8,
                                 draft_tp=0)
    s = roofline.llm.speculative("llama-2-70b", "h100-sxm", draft="llama-2-7b", tp=8,
                                 draft_tp=2, link_latency_s=3e-6)
    assert s.draft_tp == 2


def test_serving_fit_takes_the_largest_steps_activations(cli_json, h100):
    # 48 prompts of 8000 tokens prefilled in one step: the fit was judged with a batch-1,
    # context-1 step's activations and said nothing; the largest step's are judged and given.
    m = roofline.llm.model("llama-3-8b")
    c = cli_json("llm", "--model", "llama-3-8b", "--hw", "h100-sxm", "--context", "8016",
                 "--prompt", "8000", "--concurrency", "48", "--requests", "8000:16")
    s = roofline.llm.serve(m, h100, concurrency=48, requests=[(8000, 16)])
    assert s.peak_activations_bytes == c["serving"]["peak_activations"]
    assert s.peak_activations_bytes > 30e9
    assert any("does not fit" in w for w in s.warnings), s.warnings
