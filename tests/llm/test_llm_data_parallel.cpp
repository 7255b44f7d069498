// Which throughput one (batch, context)'s cost and data-parallel line are at (throughput_basis),
// the replicas' summary in text and JSON, the cost at that basis and its heading, and the
// presets' list as JSON.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>

#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

RequestTiming request_at(double tokens_per_s) {
  RequestTiming t;
  t.output_tokens_per_s = tokens_per_s;
  return t;
}

ServingResult serving_at(double tokens_per_s) {
  ServingResult s;
  s.output_tokens_per_s = tokens_per_s;
  return s;
}

SpeculativeResult speculative_at(double tokens_per_s, double speedup) {
  SpeculativeResult s;
  s.tokens_per_s = tokens_per_s;
  s.speedup = speedup;
  return s;
}

TEST(LlmThroughputBasis, TheLastSectionAskedForGivesTheRate) {
  const RequestTiming req = request_at(120);
  const ServingResult sv = serving_at(900);
  const SpeculativeResult sp = speculative_at(300, 1.8);
  ThroughputBasis b = throughput_basis(250, nullptr, nullptr, nullptr, 1);
  EXPECT_EQ(b.tokens_per_s, 250);
  EXPECT_EQ(b.what, "decode");
  EXPECT_EQ(b.note, "");
  b = throughput_basis(250, &req, nullptr, nullptr, 1);
  EXPECT_EQ(b.tokens_per_s, 120);
  EXPECT_EQ(b.what, "the request's output");
  b = throughput_basis(250, &req, &sv, nullptr, 1);
  EXPECT_EQ(b.tokens_per_s, 900);
  EXPECT_EQ(b.what, "serving output");
  EXPECT_EQ(b.note, "");
  // Speculation is how decode alone runs: its rate replaces decode's.
  b = throughput_basis(250, nullptr, nullptr, &sp, 4);
  EXPECT_EQ(b.tokens_per_s, 300);
  EXPECT_EQ(b.what, "speculative decoding");
  EXPECT_EQ(b.note, "");
}

TEST(LlmThroughputBasis, SpeculationBesideARequestOrServingIsANote) {
  const RequestTiming req = request_at(120);
  const ServingResult sv = serving_at(900);
  const SpeculativeResult sp = speculative_at(300, 1.8);
  // Its rate over every replica: 300 × 4.
  ThroughputBasis b = throughput_basis(250, &req, nullptr, &sp, 4);
  EXPECT_EQ(b.tokens_per_s, 120);
  EXPECT_EQ(b.what, "the request's output");
  EXPECT_EQ(b.note,
            "the request above decodes one token per step: speculative decoding is not in this "
            "cost (it gives 1200 tokens/s at decode, 1.8× the plain step's)");
  b = throughput_basis(250, &req, &sv, &sp, 1);
  EXPECT_EQ(b.tokens_per_s, 900);
  EXPECT_EQ(b.what, "serving output");
  EXPECT_EQ(b.note,
            "the serving above decodes one token per step: speculative decoding is not in this "
            "cost (it gives 300 tokens/s at decode, 1.8× the plain step's)");
}

TEST(LlmDataParallel, EveryReplicaTogetherInTextAndJson) {
  Scenario s;
  s.tp = 2;
  s.pp = 2;  // 4 devices per replica
  ThroughputBasis b;
  b.tokens_per_s = 250;
  EXPECT_FALSE(data_parallel_summary(s, 1, b).has_value());
  const auto d = data_parallel_summary(s, 4, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->replicas, 4);
  EXPECT_EQ(d->devices_per_replica, 4);
  EXPECT_EQ(d->tokens_per_s_all, 1000);
  EXPECT_EQ(d->what, "decode");
  EXPECT_EQ(render_data_parallel_text(*d),
            "\nData parallel: 4 replicas of 4 device(s): 1000 tokens/s in all (decode, all "
            "replicas)\n");
  const nlohmann::json j = data_parallel_to_json(*d);
  EXPECT_EQ(
      j, nlohmann::json({{"replicas", 4.0}, {"devices_per_replica", 4}, {"tokens_per_s", 1000.0}}));
  EXPECT_TRUE(j.at("devices_per_replica").is_number_integer());
}

TEST(LlmDataParallel, CostIsAtEveryReplicasRateOnEveryReplicasDevices) {
  Scenario s;
  s.tp = 2;
  ThroughputBasis b;
  b.tokens_per_s = 500;
  b.what = "the request's output";
  b.note = "a note";
  const DevicePower power{700.0, "the catalogue"};
  const TokenCost c = basis_cost(b, s, 3, 2.0, power, "h100-sxm");
  EXPECT_EQ(c.devices, 6);
  EXPECT_EQ(c.tokens_per_s, 1500);
  EXPECT_NEAR(*c.usd_per_million_tokens, 2.0 * 6 / (1500 * 3600.0) * 1e6, 1e-12);
  EXPECT_NEAR(*c.joules_per_token, 700 * 6 / 1500.0, 1e-12);
  EXPECT_EQ(c.notes, std::vector<std::string>{"a note"});
  EXPECT_EQ(c.basis, "the request's output");
  EXPECT_EQ(cost_basis_label("decode", 1), "(decode)");
  EXPECT_EQ(cost_basis_label("serving output", 3), "(serving output, all 3 replicas)");
}

TEST(LlmPresetsJson, EveryPresetInOrder) {
  const nlohmann::json j = models_to_json(presets());
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), presets().size());
  for (std::size_t i = 0; i < presets().size(); ++i) EXPECT_EQ(j[i], model_to_json(presets()[i]));
  EXPECT_EQ(models_to_json({}), nlohmann::json::array());
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
