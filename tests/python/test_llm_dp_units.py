"""roofline.llm.analyse's dp and chunk, against `roofline llm --dp/--chunk --json` for the same
flags, and the names of an integer compute type's results, which read in the JSON's units (OP)
as the CLI's JSON names them."""
import pytest

import roofline


def llm(cli_json, *args):
    return cli_json("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", *args)


def test_dp_equals_the_cli(cli_json):
    c = llm(cli_json, "--batch", "8", "--context", "2048", "--tp", "2", "--dp", "4")
    r = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=8, context=2048, tp=2, dp=4)
    assert r.to_dict() == c
    # Four replicas of two devices: one replica's tokens/s, four times.
    assert c["data_parallel"] == {"replicas": 4, "devices_per_replica": 2,
                                  "tokens_per_s": pytest.approx(4 * r.tokens_per_s, rel=1e-15)}
    assert r.data_parallel == c["data_parallel"]
    assert r.tokens_per_s == c["tokens_per_s"]
    # One replica: no section, as the CLI writes none.
    one = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=8, context=2048, tp=2)
    assert one.data_parallel is None and "data_parallel" not in one.to_dict()


def test_a_measured_rate_is_of_all_replicas_as_the_cli_says(cli_json):
    c = llm(cli_json, "--batch", "8", "--context", "2048", "--dp", "4",
            "--measured-tokens-per-s", "2000")
    r = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=8, context=2048, dp=4,
                             measured_tokens_per_s=2000)
    assert r.to_dict() == c
    assert c["measured"]["replicas"] == 4
    assert c["measured"]["tokens_per_s_per_replica"] == 500
    # The MFU is one replica's 500 tokens/s, not 2000: a quarter of one replica at 2000.
    alone = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=8, context=2048,
                                 measured_tokens_per_s=2000).to_dict()["measured"]
    assert c["measured"]["mfu"] == pytest.approx(alone["mfu"] / 4, rel=1e-12)


def test_chunk_equals_the_cli(cli_json):
    # The CLI chunks the request's prefill (--chunk needs -N): the report it writes beside the
    # request is the one analyse gives with the same chunk.
    c = llm(cli_json, "--batch", "4", "--context", "8192", "--output-tokens", "16",
            "--chunk", "512")
    del c["request"]
    r = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=4, context=8192, chunk=512)
    assert r.to_dict() == c
    assert c["memory"]["prefill_chunk"] == 512
    assert r.memory_byte == c["memory"]["total"]
    # A chunk of 512 of 8192 tokens holds fewer activations than the prefill in one step.
    whole = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=4, context=8192)
    assert r.memory_byte < whole.memory_byte
    assert "prefill_chunk" not in whole.to_dict()["memory"]


def test_dp_and_chunk_are_checked_as_the_cli_checks_them(cli):
    for dp in (0, 0.5, 2.5, float("inf"), float("nan")):
        with pytest.raises(roofline.InputError, match=r"^dp: must be a whole number ≥ 1"):
            roofline.llm.analyse("llama-2-7b", "h100-sxm", dp=dp)
    # One message for every chunk that is neither 0 (the default: the prefill in one step) nor
    # a whole number of tokens, in analyse and request alike: the CLI's, naming chunk.
    said = "; without it the prefill runs in one step"
    for chunk, shown in ((2.5, "2.5"), (-1, "-1"), (0.5, "0.5"), (float("inf"), "inf")):
        for call in (lambda: roofline.llm.analyse("llama-2-7b", "h100-sxm", chunk=chunk),
                     lambda: roofline.llm.request("llama-2-7b", "h100-sxm", 4, chunk=chunk)):
            with pytest.raises(roofline.InputError) as e:
                call()
            assert str(e.value) == \
                f"chunk: must be a whole number of tokens ≥ 1 (got {shown}){said}", str(e.value)
    # 0 is one step, as the CLI without --chunk: the same request.
    assert roofline.llm.request("llama-2-7b", "h100-sxm", 4, chunk=0).to_dict() == \
        roofline.llm.request("llama-2-7b", "h100-sxm", 4).to_dict()
    with pytest.raises(TypeError, match="dp"):
        roofline.llm.analyse("llama-2-7b", "h100-sxm", dp="4")
    # The CLI's messages for the same values.
    r = cli("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--dp", "2.5")
    assert r.returncode == 2 and "--dp: must be a whole number ≥ 1 (got 2.5)" in r.stderr, r.stderr
    r = cli("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "-N", "4", "--chunk", "2.5")
    assert r.returncode == 2 and \
        f"--chunk: must be a whole number of tokens ≥ 1 (got 2.5){said}" in r.stderr, r.stderr


def test_an_int8_results_names_and_units_follow_the_cli(cli_json):
    c = llm(cli_json, "--batch", "8", "--context", "2048", "--cdtype", "int8")
    r = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=8, context=2048, compute="int8")
    assert r.to_dict() == c
    assert c["units"]["work"] == "OP" and c["vector_units"]["work"] == "FLOP"
    assert r.units == c["units"] == {"work": "OP", "traffic": "byte", "performance": "OP/s",
                                     "intensity": "OP/byte"}
    assert r.vector_units == c["vector_units"]
    assert r.peak == c["machine"]["peak"] and r.ridge == c["machine"]["ridge"]
    assert r.vector_peak == c["machine"]["vector_peak"]
    for name in ("prefill", "decode_linear", "decode_attention"):
        a, j = getattr(r, name), c["summary"][name]
        assert a.units == c["units"] and a.vector_units == c["vector_units"]
        assert (a.work, a.vector_work) == (j["work"], j["vector_work"]), name
        assert (a.intensity, a.vector_intensity) == (j["intensity"], j["vector_intensity"]), name
    # A float compute type: FLOP, nothing counted apart (no vector_units in the JSON).
    f = llm(cli_json, "--batch", "8", "--context", "2048")
    rf = roofline.llm.analyse("llama-2-7b", "h100-sxm", batch=8, context=2048)
    assert rf.units == f["units"] and f["units"]["work"] == "FLOP"
    assert rf.vector_units is None and "vector_units" not in f
    assert rf.prefill.work == f["summary"]["prefill"]["work"]
    assert rf.prefill.vector_work is None and rf.prefill.vector_intensity is None
