// Speculative decoding against Leviathan et al. 2023 (expected tokens per step and the walltime
// improvement), hand derivations of the verification step, and DeepSeek-V3's reported MTP
// speed-up.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

Scenario scenario(double batch, double context) {
  Scenario s;
  s.batch = batch;
  s.context = context;
  s.prompt = context;
  s.flash = false;  // the unfused kernels; the fused form is set where a test uses it
  return s;
}

// A 1.1B draft with Llama-2's tokenizer (TinyLlama-1.1B's config.json: d 2048, 22 layers,
// 32 heads, 4 KV heads, MLP 5632, vocabulary 32000).
ModelConfig tiny_draft() {
  ModelConfig d = preset("llama-2-7b");
  d.name = "tinyllama-1.1b";
  d.hidden = 2048;
  d.layers = 22;
  d.heads = 32;
  d.kv_heads = 4;
  d.head_dim = 64;
  d.intermediate = 5632;
  return d;
}

TEST(LlmSpeculative, ExpectedTokensPerStep) {
  // Leviathan et al. 2023, eq. 1: E = (1 − α^(k+1))/(1 − α).
  EXPECT_NEAR(expected_tokens_per_step(0.8, 4), (1 - std::pow(0.8, 5)) / 0.2, 1e-12);
  EXPECT_NEAR(expected_tokens_per_step(0.8, 4), 3.3616, 1e-9);
  EXPECT_NEAR(expected_tokens_per_step(0.8, 3), 2.9520, 1e-9);
  EXPECT_DOUBLE_EQ(expected_tokens_per_step(0, 5), 1);  // nothing accepted: the bonus token
  EXPECT_DOUBLE_EQ(expected_tokens_per_step(1, 5), 6);  // everything accepted
  EXPECT_NEAR(expected_tokens_per_step(0.5, 1), 1.5, 1e-12);
}

TEST(LlmSpeculative, VerificationScoresKPlusOneTokensPerSequence) {
  const ModelConfig& m = preset("llama-2-7b");
  const Roofs r = a100();
  const Scenario s = scenario(1, 1024);
  SpeculativeOptions o;
  o.k = 4;
  o.alpha = 0.8;
  o.draft_model = tiny_draft();
  const SpeculativeResult sp = speculative_decoding(m, s, o, r);
  // The verification is the step of 5 new tokens after 1023 cached, logits for all 5.
  SequenceGroup g;
  g.fresh = 5;
  g.past = 1023;
  g.logits = 5;
  const double verify = evaluate_cost(step_cost(m, s, Phase::verify, &g, 1), s, r).time.value;
  EXPECT_DOUBLE_EQ(sp.verify.value, verify);
  // Four draft steps at contexts 1024 … 1027.
  double drafting = 0;
  for (int i = 0; i < 4; ++i) {
    Scenario d = s;
    d.context = 1024 + i;
    drafting += evaluate_step(tiny_draft(), d, Phase::decode, r).time.value;
  }
  EXPECT_NEAR(sp.drafting.value, drafting, 1e-15);
  const double plain = evaluate_step(m, s, Phase::decode, r).time.value;
  EXPECT_DOUBLE_EQ(sp.plain.value, plain);
  EXPECT_NEAR(sp.speedup, 3.3616 * plain / (drafting + verify), 1e-9);
  EXPECT_NEAR(sp.tokens_per_s, 3.3616 / (drafting + verify), 1e-6);
  // At batch 1 the 7B step is the weights over β: verifying 5 tokens costs about as much as
  // decoding 1, so the model agrees with the paper's closed form (which assumes exactly that).
  EXPECT_NEAR(verify / plain, 1.0, 0.02);
  EXPECT_NEAR(sp.speedup / sp.paper_speedup, 1.0, 0.02);
  // On the roofline the verification moves right: ≈ 5× the intensity for the same weight
  // bytes, and it computes (k + 1)/E = 1.49 target FLOP per FLOP of tokens kept.
  EXPECT_NEAR(sp.verify_intensity.value / sp.plain_intensity.value, 5, 0.25);
  EXPECT_NEAR(sp.verify_work_per_token.value / sp.plain_work_per_token.value, 5 / 3.3616, 0.02);
  EXPECT_FALSE(sp.verify_compute_bound);
}

// A drafter of another tokenizer is warned about (a warning, not a note: the CLI prints it on
// stderr with --json, Python says it): GPT-3's 50257 tokens against Llama 2's 32000, Llama 3's
// 128256 against Llama 2 70B's 32000.
TEST(LlmSpeculative, ADrafterOfAnotherVocabularyIsWarnedAbout) {
  const ModelConfig& m = preset("llama-2-7b");
  SpeculativeOptions o;
  o.k = 2;
  o.draft_model = preset("gpt3-175b");
  const SpeculativeResult gpt = speculative_decoding(m, scenario(1, 1024), o, a100());
  EXPECT_TRUE(std::any_of(gpt.warnings.begin(), gpt.warnings.end(), [](const std::string& n) {
    return n.find("the drafter's vocabulary (50257) is not the target's (32000)") !=
           std::string::npos;
  })) << ::testing::PrintToString(gpt.warnings);
  o.draft_model = preset("llama-3-8b");
  const SpeculativeResult l3 =
      speculative_decoding(preset("llama-2-70b"), scenario(1, 1024), o, a100());
  ASSERT_EQ(l3.warnings.size(), 1u);
  EXPECT_NE(l3.warnings[0].find("(128256) is not the target's (32000)"), std::string::npos)
      << l3.warnings[0];
  EXPECT_NE(speculative_to_json(l3).at("warnings").dump().find("128256"), std::string::npos);
  EXPECT_NE(render_speculative_text(l3, a100()).find("warning: the drafter's vocabulary"),
            std::string::npos);
  o.draft_model = tiny_draft();
  o.draft_model->vocab = m.vocab;
  const SpeculativeResult same = speculative_decoding(m, scenario(1, 1024), o, a100());
  EXPECT_TRUE(same.warnings.empty()) << ::testing::PrintToString(same.warnings);
  for (const auto& n : same.notes) EXPECT_EQ(n.find("vocabulary"), std::string::npos) << n;
}

// The target's forms are not the drafter's: Mixtral with expert parallelism drafted by the
// dense Mistral 7B (one tokenizer) drafts as a dense model, not refused for having no experts.
TEST(LlmSpeculative, ADenseDrafterOfAMoeTargetDraftsDense) {
  const ModelConfig& m = preset("mixtral-8x7b");
  Scenario s = scenario(1, 1024);
  s.tp = 2;
  s.ep = true;
  SpeculativeOptions o;
  o.k = 2;
  o.draft_model = preset("mistral-7b");
  const SpeculativeResult sp = speculative_decoding(m, s, o, a100());
  Scenario d = s;
  d.ep = false;
  d.context = 1024;
  EXPECT_DOUBLE_EQ(sp.draft_step.value,
                   evaluate_step(*o.draft_model, d, Phase::decode, a100()).time.value);
}

TEST(LlmSpeculative, LargeBatchesLoseTheGain) {
  // At batch 512 and short context (fused attention) a 7B decode step on A100 is compute-bound
  // (B* ≈ 153): verifying 5 tokens per sequence costs nearly 5 steps, drafting 4 more steps of the
  // 1.1B draft, and speculation is slower than plain decoding.
  const ModelConfig& m = preset("llama-2-7b");
  SpeculativeOptions o;
  o.k = 4;
  o.alpha = 0.8;
  o.draft_model = tiny_draft();
  Scenario s = scenario(512, 64);
  s.flash = true;
  const SpeculativeResult sp = speculative_decoding(m, s, o, a100());
  EXPECT_TRUE(sp.verify_compute_bound);
  // (k + 1)× the rows: ≈ 4× the time, the parts that stay memory-bound (weights read once)
  // keeping it under 5×.
  EXPECT_GT(sp.verify.value / sp.plain.value, 3);
  EXPECT_LT(sp.verify.value / sp.plain.value, 5);
  EXPECT_LT(sp.speedup, 1);
  ASSERT_FALSE(sp.notes.empty());
  EXPECT_NE(sp.notes.back().find("slower than plain decoding"), std::string::npos);
  // With long contexts and unfused attention the KV reads dominate instead, and the
  // verification shares them among its 5 queries: speculation still pays at batch 256.
  const SpeculativeResult kv = speculative_decoding(m, scenario(256, 512), o, a100());
  EXPECT_GT(kv.speedup, 1);
}

TEST(LlmSpeculative, DeepSeekMtpAsReported) {
  // DeepSeek-V3 report §5.4.3: the second-token (MTP) acceptance rate is 85–90%, giving 1.8×
  // the tokens per second. One MTP module drafts k = 1, so E = 1 + α; the draft is one layer,
  // the eh_proj and the shared LM head: 2–3% of the 61-layer step.
  const ModelConfig& m = preset("deepseek-v3");
  const Roofs r = select_roofs(resolve_machine("h200").roofs, parse_dtype("bf16"));
  Scenario s = scenario(256, 4096);
  s.tp = 8;
  s.dtypes = make_dtypes("fp8", "bf16");
  s.flash = true;
  SpeculativeOptions o;
  o.k = 1;
  o.mtp = true;
  for (double alpha : {0.85, 0.90}) {
    SCOPED_TRACE(alpha);
    o.alpha = alpha;
    const SpeculativeResult sp = speculative_decoding(m, s, o, r);
    EXPECT_DOUBLE_EQ(sp.expected_tokens, 1 + alpha);
    EXPECT_LT(sp.draft_step.value, 0.04 * sp.plain.value);
    // Had the verification cost one plain step, the gain would be E/(1 + draft/plain): the
    // reported 1.8×.
    const double bound = sp.expected_tokens / (1 + sp.draft_step.value / sp.plain.value);
    EXPECT_GT(bound, 1.78);
    EXPECT_LT(bound, 1.87);
    // Here it costs 14% more (twice the LM-head rows, which are compute-bound at 512, and twice
    // the all-reduce bytes): about 1.6×.
    EXPECT_NEAR(sp.verify.value / sp.plain.value, 1.14, 0.03);
    EXPECT_LT(sp.speedup, bound);
    EXPECT_GT(sp.speedup, 1.5);
  }
  // At batch 8 the verification's 16 tokens touch E(1 − (1 − k/E)^16) = 102 distinct experts
  // against 57 for 8 tokens: 1.78× the expert weight bytes, and MTP gains far less.
  Scenario small = s;
  small.batch = 8;
  o.alpha = 0.85;
  const SpeculativeResult sp8 = speculative_decoding(m, small, o, r);
  const double touched16 = 256 * (1 - std::pow(1 - 8.0 / 256, 16));
  const double touched8 = 256 * (1 - std::pow(1 - 8.0 / 256, 8));
  EXPECT_NEAR(touched16 / touched8, 1.776, 0.001);
  EXPECT_LT(sp8.speedup, 1.3);
  // A model without MTP modules cannot draft with them; k beyond the modules is noted.
  EXPECT_THROW(speculative_decoding(preset("llama-2-7b"), scenario(1, 512), o, r), InputError);
  o.k = 2;
  const SpeculativeResult two = speculative_decoding(m, s, o, r);
  ASSERT_FALSE(two.notes.empty());
  EXPECT_NE(two.notes.front().find("run again"), std::string::npos);
  o.alpha = 1.5;
  EXPECT_THROW(speculative_decoding(m, s, o, r), InputError);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
