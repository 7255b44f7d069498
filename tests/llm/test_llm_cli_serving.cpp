// `roofline llm` beyond one step, as a user runs it: the whole request, serving, speculative
// decoding, parallelism warnings, cost, training, calibration, machines side by side; bad input
// → exit 2 naming the flag.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "roofline/quantity.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/llm/";
const std::string kA100 = kData + "a100-80gb.json";

TEST(LlmCliServing, TpuV5eNeedsNoDtype) {
  // TPU v5e publishes bf16 and int8 roofs only: the default dtype is its native bf16.
  const auto r = run_cli({"llm", "-m", "llama-3-8b", "--hw", "tpu-v5e", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scenario"]["dtypes"]["weights"], "bf16");
  EXPECT_EQ(j["machine"]["compute_roof"], "bf16 mxu");
  // An explicit dtype the TPU lacks is still an error naming the choice.
  const auto fp16 = run_cli({"llm", "-m", "llama-3-8b", "--hw", "tpu-v5e", "--wdtype", "fp16"});
  EXPECT_EQ(fp16.exit_code, 2);
  EXPECT_NE(fp16.err.find("--cdtype"), std::string::npos) << fp16.err;
}

TEST(LlmCliServing, TrainiumsTensorEngineRoofIsNoVectorRoof) {
  // Trainium2's NeuronCore figures are its Tensor Engine's: element-wise work judged on them is
  // said to be optimistic, as on a TPU's MXU; a kernel that is no matrix product gets the note.
  auto r = run_cli({"llm", "-m", "llama-3-8b", "--hw", "trainium2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err)
                .find("trainium2 has no vector (non-tensor) roof of fp16: element-wise operators "
                      "(norms, residual adds, activations, softmax) are judged on the compute "
                      "roof 'fp16 neuroncore', so their compute times are optimistic"),
            std::string::npos)
      << r.out << r.err;
  r = run_cli({"kernel", "softmax", "--rows", "1e4", "--cols", "1e4", "--dtype", "bf16", "--hw",
               "trainium2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err)
                .find("judged on 'bf16 neuroncore', the only bf16 roof: softmax is no matrix "
                      "product, which that unit runs, so the bound is optimistic"),
            std::string::npos)
      << r.out << r.err;
}

// Each section carries its step's warnings (its JSON says them all); the text says each once.
TEST(LlmCliServing, AWarningOfTheStepIsSaidOnceInTheText) {
  const std::string said = "'fp16 tensor fp16-accumulate' of rtx-5090 accumulates narrower";
  const auto count = [&](const std::string& s) {
    size_t n = 0;
    for (size_t at = s.find(said); at != std::string::npos; at = s.find(said, at + 1)) ++n;
    return n;
  };
  const std::vector<std::string> args{"llm",        "-m",
                                      "llama-2-7b", "--hw",
                                      "rtx-5090",   "-b",
                                      "1",          "-L",
                                      "256",        "--output-tokens",
                                      "8",          "--concurrency",
                                      "2",          "--requests",
                                      "64:8",       "--draft",
                                      "llama-2-7b", "--spec-k",
                                      "2"};
  const auto text = run_cli(args, "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(count(text.out), 1u) << text.out;
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const auto json = run_cli(json_args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(count(json.err), 1u) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  for (const char* section : {"request", "serving", "speculative"})
    EXPECT_EQ(count(j[section]["warnings"].dump()), 1u) << section;
}

TEST(LlmCliServing, DeepSeekConfigRunsWithLatentAttention) {
  const auto r =
      run_cli({"llm", "-m", kData + "deepseek-v3.config.json", "--hw", "h200", "--tp", "8", "-b",
               "16", "-L", "4096", "--wdtype", "fp8", "--adtype", "bf16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["kv_bytes_per_token"].get<double>(), 70272);
  EXPECT_EQ(j["model"]["mla"]["kv_lora_rank"], 512);
  EXPECT_EQ(j["model"]["dense_mlp_layers"], 3);
  EXPECT_EQ(j["scenario"]["mla_form"], "auto");
  bool absorbed = false;
  for (const auto& op : j["decode"]["operators"]) absorbed |= op["name"] == "q absorb (W_UK)";
  EXPECT_TRUE(absorbed);
  const auto text =
      run_cli({"llm", "-m", "deepseek-v3", "--hw", "h200", "--tp", "8"}, "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("multi-head latent attention"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("3 dense layers"), std::string::npos) << text.out;
  const auto bad = run_cli({"llm", "-m", "deepseek-v3", "--hw", "h200", "--mla", "fast"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--mla"), std::string::npos);
}

TEST(LlmCliServing, RequestLatencyAddsUp) {
  const auto r = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "4", "-L", "1024",
                          "--prompt", "512", "--output-tokens", "64", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out)["request"];
  EXPECT_NEAR(j["e2e"].get<double>(), j["ttft"].get<double>() + j["decode"].get<double>(), 1e-12);
  EXPECT_NEAR(j["output_tokens_per_s"].get<double>(), 4 * 64 / j["e2e"].get<double>(), 1e-6);
  EXPECT_DOUBLE_EQ(j["ttft"].get<double>(), nlohmann::json::parse(r.out)["ttft"].get<double>());
  const auto text = run_cli(
      {"llm", "-m", "llama-2-7b", "--hw", kA100, "--prompt", "512", "-N", "64", "--chunk", "128"},
      "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("end-to-end = TTFT + Σ decode"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("in chunks of 128"), std::string::npos) << text.out;
  // Sections need one batch and one context.
  const auto sweep = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1..8", "-N", "8"});
  EXPECT_EQ(sweep.exit_code, 2);
}

TEST(LlmCliServing, ServingAtAConcurrency) {
  const auto r =
      run_cli({"llm", "-m", "llama-3-8b", "--hw", kA100, "--concurrency", "8", "--requests",
               "1024:128,256:64", "--max-batched-tokens", "512", "--num-requests", "16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out)["serving"];
  EXPECT_EQ(s["total_requests"], 16);
  EXPECT_EQ(s["requests"].size(), 2u);
  EXPECT_NEAR(s["output_tokens_per_s"].get<double>() * s["makespan"].get<double>(),
              8 * 128 + 8 * 64, 1e-6);
  EXPECT_GT(s["mixed_steps"].get<double>(), 0);
  // TPOT covers tokens 2…N: requests of one output token have none (it printed "0 s").
  const auto one = run_cli({"llm", "-m", "llama-3-8b", "--hw", kA100, "--concurrency", "1",
                            "--requests", "100:1", "--json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto os = nlohmann::json::parse(one.out)["serving"];
  EXPECT_TRUE(os["tpot"].is_null()) << os["tpot"];
  EXPECT_GT(os["ttft"]["mean"].get<double>(), 0);
  const auto text = run_cli(
      {"llm", "-m", "llama-3-8b", "--hw", kA100, "--concurrency", "1", "--requests", "100:1"},
      "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  TPOT none: no request has the tokens it is measured over\n"),
            std::string::npos)
      << text.out;
  for (const char* bad : {"1024", "1024:x", ":5"}) {
    const auto e = run_cli({"llm", "-m", "llama-3-8b", "--hw", kA100, "--requests", bad});
    EXPECT_EQ(e.exit_code, 2) << bad;
    EXPECT_NE(e.err.find("--requests"), std::string::npos) << e.err;
  }
}

TEST(LlmCliServing, SpeculativeDecoding) {
  const auto r = run_cli(
      {"llm",      "-m", "deepseek-v3",  "--hw",     "h200",    "--tp",     "8",     "-b",
       "64",       "-L", "4096",         "--wdtype", "fp8",     "--adtype", "bf16",  "--flash",
       "--spec-k", "1",  "--spec-alpha", "0.85",     "--draft", "mtp",      "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out)["speculative"];
  EXPECT_DOUBLE_EQ(s["expected_tokens_per_step"].get<double>(), 1.85);
  EXPECT_EQ(s["drafter"], "MTP");
  EXPECT_NEAR(s["speedup"].get<double>(),
              s["plain_step"].get<double>() * 1.85 / s["cycle"].get<double>(), 1e-9);
  const auto none = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--spec-k", "4"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--draft"), std::string::npos) << none.err;
}

// A drafter whose heads the target's --tp does not divide (Qwen2.5-7B's 28 at --tp 8) runs on
// fewer devices with --draft-tp; without it the error points there. It was refused with an
// error naming --tp alone.
TEST(LlmCliServing, TheDrafterRunsAtItsOwnTensorParallelism) {
  const std::vector<std::string> base = {
      "llm",  "-m", "qwen2.5-72b", "--hw",     "h100-sxm", "--tp",    "8",         "-L",
      "2048", "-b", "1",           "--spec-k", "4",        "--draft", "qwen2.5-7b"};
  auto r = run_cli(base);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("the drafter qwen2.5-7b at tensor parallel 8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--draft-tp"), std::string::npos) << r.err;
  auto one = base;
  one.insert(one.end(), {"--draft-tp", "1", "--json"});
  r = run_cli(one);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out)["speculative"];
  EXPECT_EQ(s["draft_tp"], 1);
  // At tp 4 (it divides 28) the drafter moves a quarter of its weights per device: faster than
  // on one device, and the draft step is the drafter's own decode step either way.
  auto four = base;
  four.insert(four.end(), {"--draft-tp", "4", "--json"});
  r = run_cli(four);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s4 = nlohmann::json::parse(r.out)["speculative"];
  EXPECT_EQ(s4["draft_tp"], 4);
  EXPECT_LT(s4["draft_step"].get<double>(), s["draft_step"].get<double>());
  EXPECT_DOUBLE_EQ(s4["verify"].get<double>(), s["verify"].get<double>());
  for (const char* bad : {"0", "9", "-1"}) {
    auto b = base;
    b.insert(b.end(), {"--draft-tp", bad});
    r = run_cli(b);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--draft-tp"), std::string::npos) << r.err;
  }
  r = run_cli({"llm", "-m", "qwen2.5-72b", "--hw", "h100-sxm", "--draft-tp", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--draft-tp is the drafter's tensor parallelism"), std::string::npos)
      << r.err;
}

// The cost of decoding with speculation is at speculation's rate; beside a request (decoded one
// token per step) it says speculation is not in it. It was at the plain rate, 2.4x dearer, with
// no note.
TEST(LlmCliServing, CostWithSpeculativeDecoding) {
  const std::vector<std::string> base = {
      "llm",        "-m",           "llama-2-70b", "--hw",   "h100-sxm",         "--tp", "8",
      "-L",         "2048",         "-b",          "4",      "--spec-k",         "4",    "--draft",
      "llama-2-7b", "--spec-alpha", "0.8",         "--cost", "--price-per-hour", "2",    "--json"};
  auto r = run_cli(base);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const double spec = j["speculative"]["tokens_per_s"].get<double>();
  EXPECT_GT(spec, j["tokens_per_s"].get<double>());
  EXPECT_DOUBLE_EQ(j["cost"]["tokens_per_s"].get<double>(), spec);
  EXPECT_EQ(j["cost"]["basis"], "speculative decoding");
  EXPECT_NEAR(j["cost"]["usd_per_million_tokens"].get<double>(), 2.0 * 8 / (spec * 3600) * 1e6,
              1e-9);
  auto with_request = base;
  with_request.insert(with_request.end(), {"--prompt", "1024", "--output-tokens", "256"});
  r = run_cli(with_request);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["cost"]["tokens_per_s"].get<double>(),
                   j["request"]["output_tokens_per_s"].get<double>());
  EXPECT_EQ(j["cost"]["basis"], "the request's output");
  const std::string notes = j["cost"]["notes"].dump();
  EXPECT_NE(notes.find("speculative decoding is not in this cost"), std::string::npos) << notes;
  EXPECT_NE(notes.find(format_number(spec, 4) + " tokens/s"), std::string::npos) << notes;
}

TEST(LlmCliServing, ParallelLayoutsAndTheirWarnings) {
  // --tp 16 on an 8-device NVLink domain is no longer accepted silently.
  const auto r = run_cli({"llm", "-m", "llama-3-70b", "--hw", "h100-sxm", "--tp", "16",
                          "--domain-size", "8", "--link-latency", "3 us", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("--tp 16 exceeds the 8-device"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["machine"]["link_latency"].get<double>(), 3e-6);
  // A sweep carries the same warning in its JSON.
  const auto sw = run_cli({"llm", "-m", "llama-3-70b", "--hw", "h100-sxm", "--tp", "16",
                           "--domain-size", "8", "-b", "1,2", "--json"});
  ASSERT_EQ(sw.exit_code, 0) << sw.err;
  bool listed = false;
  const auto swj = nlohmann::json::parse(sw.out);
  for (const auto& w : swj["warnings"])
    listed |= w.get<std::string>().find("exceeds the 8-device") != std::string::npos;
  EXPECT_TRUE(listed) << sw.out;
  // The catalogue's H100 SXM entry carries its HGX board's 8-GPU NVLink domain: --tp 16 warns
  // without --domain-size, and --tp 8 fits.
  const auto cat = run_cli({"llm", "-m", "llama-3-70b", "--hw", "h100-sxm", "--tp", "16"});
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_NE(cat.out.find("--tp 16 exceeds the 8-device NVLink domain of h100-sxm (NVIDIA "
                         "Technical Blog"),
            std::string::npos)
      << cat.out;
  const auto quiet =
      run_cli({"llm", "-m", "llama-3-70b", "--hw", "h100-sxm", "--tp", "8", "--json"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  const auto q = nlohmann::json::parse(quiet.out);
  EXPECT_EQ(q["machine"]["domain_size"], 8);
  EXPECT_EQ(quiet.err.find("exceeds"), std::string::npos) << quiet.err;
  // An entry without one says the catalogue lacks it.
  const auto a100 = run_cli({"llm", "-m", "llama-3-70b", "--hw", kA100, "--tp", "8", "--json"});
  ASSERT_EQ(a100.exit_code, 0) << a100.err;
  EXPECT_NE(a100.err.find("not in the catalogue"), std::string::npos) << a100.err;
  // Pipeline, expert and context parallelism run and report.
  const auto pp =
      run_cli({"llm", "-m", "llama-2-70b", "--hw", kA100, "--pp", "4", "-b", "16", "--json"});
  ASSERT_EQ(pp.exit_code, 0) << pp.err;
  const auto p = nlohmann::json::parse(pp.out);
  EXPECT_DOUBLE_EQ(p["pipeline_prefill"]["bubble"].get<double>(), 3.0 / 7);
  EXPECT_DOUBLE_EQ(p["time_per_output_token"].get<double>(),
                   p["pipeline_decode"]["steady"].get<double>());
  const auto ep =
      run_cli({"llm", "-m", "mixtral-8x7b", "--hw", kA100, "--tp", "2", "--ep", "--json"});
  ASSERT_EQ(ep.exit_code, 0) << ep.err;
  bool dispatch = false;
  const auto epj = nlohmann::json::parse(ep.out);
  for (const auto& op : epj["decode"]["operators"]) dispatch |= op["name"] == "expert dispatch";
  EXPECT_TRUE(dispatch);
  const auto dense = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--tp", "2", "--ep"});
  EXPECT_EQ(dense.exit_code, 2);
  EXPECT_NE(dense.err.find("--ep"), std::string::npos) << dense.err;
}

TEST(LlmCliServing, CostSideBySide) {
  const auto r =
      run_cli({"llm", "-m", "llama-3-8b", "--hw", "h100-sxm,a100-80gb,tpu-v5e", "-b", "8", "-L",
               "2048", "--price-per-hour", "h100-sxm=2.5,a100-80gb=1.8", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "roofline.llm-compare");
  EXPECT_EQ(j["version"], 2);
  EXPECT_FALSE(j["machines"][0].contains("tokens_per_s"));
  ASSERT_EQ(j["machines"].size(), 3u);
  const auto& h100 = j["machines"][0];
  EXPECT_NEAR(h100["cost"]["usd_per_million_tokens"].get<double>(),
              2.5 / (h100["decode_tokens_per_s"].get<double>() * 3600) * 1e6, 1e-9);
  EXPECT_NEAR(h100["cost"]["joules_per_token"].get<double>(),
              700 / h100["decode_tokens_per_s"].get<double>(), 1e-9);
  const auto& tpu = j["machines"][2];
  EXPECT_EQ(tpu["dtypes"], "bf16");
  EXPECT_TRUE(tpu["cost"]["joules_per_token"].is_null());
  EXPECT_TRUE(tpu["cost"]["usd_per_million_tokens"].is_null());
  EXPECT_NE(r.err.find("power of tpu-v5e is not in the catalogue"), std::string::npos) << r.err;
  const auto text = run_cli({"llm", "-m", "llama-3-8b", "--hw", kA100, "--cost"}, "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("J/token"), std::string::npos) << text.out;
  // A machine given by an alias is priced by its catalogue name too (it was "none of the
  // machines").
  const auto alias = run_cli({"llm", "-m", "llama-3-8b", "--hw", "a100,h100", "-b", "8", "-L",
                              "2048", "--price-per-hour", "a100-80gb=1.8", "--json"});
  ASSERT_EQ(alias.exit_code, 0) << alias.err;
  const auto a = nlohmann::json::parse(alias.out)["machines"][0];
  EXPECT_NEAR(a["cost"]["usd_per_million_tokens"].get<double>(),
              1.8 / (a["decode_tokens_per_s"].get<double>() * 3600) * 1e6, 1e-9);
  const auto bad = run_cli({"llm", "-m", "llama-3-8b", "--hw", kA100, "--price-per-hour", "lots"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--price-per-hour"), std::string::npos) << bad.err;
}

// The comparison and the sweep say which attention form they cost, as the single report does;
// two documents of one machine name (measured before and after a change) are two rows told
// apart by their files' names.
TEST(LlmCliServing, ComparisonAndSweepSayTheAttentionFormAndTellMachinesApart) {
  test::TempDir dir;
  const std::string before = dir.file("before.json"), after = dir.file("after.json");
  auto doc = nlohmann::json::parse(test::slurp(kA100));
  test::write_text(before, doc.dump());
  doc["memory"][0]["bandwidth"] = 1.0e12;  // measured again, slower
  test::write_text(after, doc.dump());
  auto r =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", before + "," + after, "-b", "1", "-L", "2048"},
              "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("on each machine, fused attention ("), std::string::npos) << r.out;
  const std::string name = doc["name"].get<std::string>();
  EXPECT_NE(r.out.find(name + " (before.json)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(name + " (after.json)"), std::string::npos) << r.out;
  r = run_cli({"llm", "-m", "llama-2-7b", "--hw", before + "," + after, "-b", "1", "-L", "2048",
               "--attention", "unfused", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["flash"], false);
  EXPECT_EQ(j["machines"][1]["machine"], name + " (after.json)");
  // The slower memory is the slower decode: the rows are the documents, not one of them twice.
  EXPECT_GT(j["machines"][0]["decode_tokens_per_s"].get<double>(),
            1.5 * j["machines"][1]["decode_tokens_per_s"].get<double>());
  r = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1,8", "-L", "2048", "--attention",
               "unfused"},
              "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("batch × context sweep, unfused attention (scores through memory) (ridge"),
            std::string::npos)
      << r.out;
}

TEST(LlmCliServing, TrainingStep) {
  const auto r = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--train", "--seq", "2048",
                          "--micro-batch", "2", "--dp", "8", "--zero", "1", "--recompute",
                          "selective", "--flash", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "roofline.llm-training");
  const auto& t = j["training"];
  EXPECT_EQ(t["tokens"], 2 * 8 * 2048);
  EXPECT_NEAR(t["model_work"].get<double>(), 3 * t["forward_work"].get<double>(), 1e-3);
  EXPECT_GT(t["hardware_work"].get<double>(), t["model_work"].get<double>());  // selective
  EXPECT_EQ(t["flash"], true);
  // The attention form is said: it moves the activations (the stored score matrix).
  const auto unfused = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--train", "--seq",
                                "2048", "--attention", "unfused"});
  ASSERT_EQ(unfused.exit_code, 0) << unfused.err;
  EXPECT_NE(unfused.out.find("ZeRO 0, unfused attention (scores through memory)\n"),
            std::string::npos)
      << unfused.out;
  const auto bad =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--train", "--recompute", "some"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--recompute"), std::string::npos) << bad.err;
  // A flag of the other mode would be ignored: refused, named.
  for (const char* flag : {"-b", "--output-tokens", "--spec-k", "--concurrency"}) {
    const auto inference =
        run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--train", flag, "8"});
    EXPECT_EQ(inference.exit_code, 2) << flag;
    EXPECT_NE(inference.err.find("is for inference"), std::string::npos) << inference.err;
  }
  for (const char* flag : {"--seq", "--zero", "--global-batch", "--measured-step-s"}) {
    const auto training = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, flag, "1"});
    EXPECT_EQ(training.exit_code, 2) << flag;
    EXPECT_NE(training.err.find(std::string(flag) + " is for --train"), std::string::npos)
        << training.err;
  }
}

TEST(LlmCliServing, CalibratedRoofs) {
  const auto r = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--attainment",
                          "compute=0.6,memory=0.8", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["machine"]["peak"].get<double>(), 0.6 * 312e12);
  EXPECT_DOUBLE_EQ(j["machine"]["bandwidth"].get<double>(), 0.8 * 2.039e12);
  EXPECT_DOUBLE_EQ(j["machine"]["datasheet_bandwidth"].get<double>(), 2.039e12);
  const auto bad = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--attainment", "memory=3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--attainment"), std::string::npos) << bad.err;
}

// --dp R prints every replica's throughput: it was labelled "(decode, one replica)", and the
// cost line over all R replicas' devices said "one replica" too.
TEST(LlmCliServing, DataParallelFiguresAreLabelledAllReplicas) {
  const auto one = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--json"});
  const auto four = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--dp", "4", "--cost"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(four.exit_code, 0) << four.err;
  const double decode = nlohmann::json::parse(one.out)["tokens_per_s"].get<double>();
  const auto four_digits = [](double v) { return format_number(v, 4); };
  EXPECT_NE(four.out.find("Data parallel: 4 replicas of 1 device(s): " + four_digits(4 * decode) +
                          " tokens/s in all (decode, all replicas)"),
            std::string::npos)
      << four.out;
  EXPECT_NE(four.out.find("Cost (4 devices, at " + four_digits(4 * decode) +
                          " tokens/s (decode, all 4 replicas))"),
            std::string::npos)
      << four.out;
  EXPECT_EQ(four.out.find("one replica"), std::string::npos) << four.out;
}

// Serving: the mean decode batch over the steps that decode (hand count in
// LlmServing.MeanDecodeBatchIsOverTheStepsThatDecode), and a request past max positions warned
// about in the text, the JSON and on stderr for JSON.
TEST(LlmCliServing, ServingDecodeBatchAndPositionsWarning) {
  const auto text = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1", "-L", "2048",
                             "-N", "4", "--concurrency", "2"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("mean decode batch 2 (over the 24 steps that decode)"), std::string::npos)
      << text.out;
  const auto past =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-L", "2048", "--concurrency", "2",
               "--requests", "4000:200", "--num-requests", "2", "--json"});
  ASSERT_EQ(past.exit_code, 0) << past.err;
  const auto j = nlohmann::json::parse(past.out)["serving"];
  EXPECT_EQ(j["decode_steps"], 199);
  EXPECT_EQ(j["mean_decode_batch"], 2);
  ASSERT_EQ(j["warnings"].size(), 1u);
  const std::string w = "context 4199 exceeds llama-2-7b's max_position_embeddings 4096";
  EXPECT_EQ(j["warnings"][0].get<std::string>().rfind(w, 0), 0u) << j["warnings"];
  EXPECT_NE(past.err.find("roofline llm: warning: " + w), std::string::npos) << past.err;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
