// The operator model against first principles (docs/model.md, docs/llm.md): hand-derived W and Q,
// the seed's intensities, the batch-1 time floor, the critical batch, MoE, GQA, fused attention,
// TP.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

const OpCost& op(const StepCost& c, const char* name) {
  for (std::size_t i = 0; i < c.size; ++i)
    if (std::strcmp(c.ops[i].name, name) == 0) return c.ops[i];
  throw std::runtime_error(std::string("no operator ") + name);
}

Scenario scenario(double batch, double context, double prompt = 2048) {
  Scenario s;
  s.batch = batch;
  s.context = context;
  s.prompt = prompt;
  s.flash = false;  // the unfused kernels (q·kᵀ, softmax, attention·v) the counts name
  return s;
}

TEST(LlmModel, RoofsOfTheComputeDtype) {
  const Roofs r = a100();
  EXPECT_EQ(r.compute_name, "fp16 tensor");
  EXPECT_DOUBLE_EQ(r.peak.value, 312e12);
  EXPECT_DOUBLE_EQ(r.bandwidth.value, 2.039e12);
  EXPECT_NEAR(r.ridge().value, 312e12 / 2.039e12, 1e-9);
  ASSERT_TRUE(r.interconnect.has_value());
  EXPECT_DOUBLE_EQ(r.interconnect->value, 600e9);  // bidirectional, as the catalogue
  ASSERT_TRUE(r.memory_capacity.has_value());
  EXPECT_DOUBLE_EQ(*r.memory_capacity, 80.0 * 1024 * 1024 * 1024);
  const RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  EXPECT_EQ(select_roofs(set, parse_dtype("int8")).peak.value, 624e12);
  EXPECT_THROW(select_roofs(set, parse_dtype("fp8")), InputError);  // A100 has no FP8 roof
  const RoofSet h100 = load_machine_file(kData + "h100-sxm.json").roofs;
  EXPECT_EQ(select_roofs(h100, parse_dtype("fp8")).compute_name, "fp8 tensor");
}

// A roof that accumulates in fp16 (GeForce: twice the fp32-accumulate rate) is the compute
// dtype's only where there is no other, and then the estimate says it is optimistic.
TEST(LlmModel, ANarrowAccumulateRoofIsTheLastChoiceAndSaid) {
  RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  ComputeRoof narrow = *set.find_compute("fp16 tensor");
  narrow.name = "fp16 tensor fp16-accumulate";
  narrow.unit = "tensor fp16-accumulate";
  narrow.peak = WorkRate(624e12);
  set.compute.push_back(narrow);
  Roofs r = select_roofs(set, parse_dtype("fp16"));
  EXPECT_EQ(r.compute_name, "fp16 tensor");
  EXPECT_DOUBLE_EQ(r.peak.value, 312e12);
  EXPECT_FALSE(r.compute_accumulates_narrow);
  Scenario s = scenario(1, 128);
  for (const auto& w : parallel_warnings(s, r))
    EXPECT_EQ(w.find("accumulates narrower"), std::string::npos) << w;
  // Its fp16 products' only roof (the fixture's fp16 vector roof, which accumulates in full
  // precision, would stand before it).
  std::erase_if(set.compute, [](const ComputeRoof& c) {
    return c.name == "fp16 tensor" || c.name == "fp16 vector";
  });
  r = select_roofs(set, parse_dtype("fp16"));
  EXPECT_EQ(r.compute_name, "fp16 tensor fp16-accumulate");
  EXPECT_TRUE(r.compute_accumulates_narrow);
  const auto w = parallel_warnings(s, r);
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w.front().find("'fp16 tensor fp16-accumulate' of " + set.name +
                           " accumulates narrower than fp32"),
            std::string::npos)
      << w.front();
  // Every estimate on those roofs says it: a request, a serving run and speculative decoding
  // as a step's report does (roofline.llm's request() and serve() had no other way to say it).
  const auto says = [&](const std::vector<std::string>& ws) {
    return std::count(ws.begin(), ws.end(), w.front()) == 1;
  };
  const ModelConfig m = preset("llama-2-7b");
  s = scenario(1, 256, 256);
  EXPECT_TRUE(says(analyse(m, s, Phase::decode, r).warnings));
  EXPECT_TRUE(says(request_timing(m, s, 16, r, 0).warnings));
  ServingOptions so;
  so.concurrency = 2;
  so.requests = {{64, 8}};
  so.total_requests = 4;
  EXPECT_TRUE(says(simulate_serving(m, s, so, r).warnings));
  SpeculativeOptions sp;
  sp.k = 2;
  sp.alpha = 0.7;
  sp.draft_model = preset("llama-2-7b");
  EXPECT_TRUE(says(speculative_decoding(m, s, sp, r).warnings));
}

TEST(LlmModel, LinearLayerCountsByHand) {
  // q_proj of Llama-2-7B, decode at batch 4: W = 2·4·4096·4096; Q = 4096²·2 (weights)
  // + 4·4096·2 (input) + 4·4096·2 (output).
  const StepCost c = step_cost(preset("llama-2-7b"), scenario(4, 1024), Phase::decode);
  const OpCost& q = op(c, "q_proj");
  EXPECT_DOUBLE_EQ(q.work.value, 2.0 * 4 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(q.weights.value, 4096.0 * 4096 * 2);
  EXPECT_DOUBLE_EQ(q.activations.value, 2 * 4.0 * 4096 * 2);
  EXPECT_EQ(q.count, 32);
  // k_proj writes its output into the KV cache.
  const OpCost& k = op(c, "k_proj");
  EXPECT_DOUBLE_EQ(k.kv.value, 4.0 * 4096 * 2);
  // LM head: ×2 per MAC, one weight read: W = 2·B·d·V, weights d·V·s.
  const OpCost& lm = op(c, "lm_head");
  EXPECT_DOUBLE_EQ(lm.work.value, 2.0 * 4 * 4096 * 32000);
  EXPECT_DOUBLE_EQ(lm.weights.value, 4096.0 * 32000 * 2);
  EXPECT_EQ(lm.count, 1);
}

TEST(LlmModel, GqaSizesKeyValueByKvHeads) {
  // Llama-3-8B: 8 KV heads of 128 ⇒ k_proj is 4096 × 1024; decode attention reads
  // B·L·8·128·2 bytes of K (and as much V).
  const StepCost c = step_cost(preset("llama-3-8b"), scenario(2, 1000), Phase::decode);
  EXPECT_DOUBLE_EQ(op(c, "k_proj").weights.value, 4096.0 * 1024 * 2);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ").kv.value, 2.0 * 1000 * 8 * 128 * 2);
  EXPECT_DOUBLE_EQ(op(c, "attention·v").kv.value, 2.0 * 1000 * 8 * 128 * 2);
  // Scores still use all 32 query heads: W = 2·B·H·hd·L.
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ").work.value, 2.0 * 2 * 32 * 128 * 1000);
}

TEST(LlmModel, PrefillScoresFullForUnfusedCausalHalfForFused) {
  // Unfused kernels compute (and write) the full S×S score matrix, masked entries included:
  // S² query-key pairs per head in W as in Q.
  const double S = 512, B = 2;
  const StepCost c = step_cost(preset("llama-2-7b"), scenario(B, S, S), Phase::prefill);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ").work.value, 2.0 * B * 32 * 128 * S * S);
  EXPECT_DOUBLE_EQ(op(c, "attention·v").work.value, 2.0 * B * 32 * 128 * S * S);
  EXPECT_DOUBLE_EQ(op(c, "softmax").work.value, 5.0 * B * 32 * S * S);
  EXPECT_DOUBLE_EQ(op(c, "softmax").activations.value, 2 * B * 32 * S * S * 2.0);
  // q·kᵀ: Q read (B·S·H·hd) + scores written (B·H·S²), K read from the cache.
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ").activations.value, (B * S * 32 * 128 + B * 32 * S * S) * 2.0);
  EXPECT_EQ(c.tokens, B * S);
  // A fused causal kernel skips the masked half: S(S+1)/2 pairs.
  Scenario f = scenario(B, S, S);
  f.flash = true;
  const StepCost fc = step_cost(preset("llama-2-7b"), f, Phase::prefill);
  EXPECT_DOUBLE_EQ(op(fc, "attention (fused)").work.value,
                   (2 * 2.0 * B * 32 * 128 + 5.0 * B * 32) * S * (S + 1) / 2);
  // Logits only for the sampled (last) position of each sequence.
  EXPECT_DOUBLE_EQ(op(c, "lm_head").work.value, 2.0 * B * 4096 * 32000);
}

TEST(LlmModel, FusedAttentionWritesNoScores) {
  Scenario s = scenario(2, 4096);
  s.flash = true;
  const StepCost c = step_cost(preset("llama-3-8b"), s, Phase::decode);
  const OpCost& a = op(c, "attention (fused)");
  // Q read + O written (2·B·H·hd·s) + K and V read (2·B·L·Hkv·hd·s).
  EXPECT_DOUBLE_EQ(a.activations.value, 2 * 2.0 * 32 * 128 * 2);
  EXPECT_DOUBLE_EQ(a.kv.value, 2 * 2.0 * 4096 * 8 * 128 * 2);
  s.flash = false;
  const StepCost u = step_cost(preset("llama-3-8b"), s, Phase::decode);
  const double unfused = op(u, "q·kᵀ").traffic().value + op(u, "softmax").traffic().value +
                         op(u, "attention·v").traffic().value;
  // Unfused adds the score matrix: written, read and written by softmax, read by p·v.
  EXPECT_DOUBLE_EQ(unfused - a.traffic().value, 4 * 2.0 * 32 * 4096 * 2);
  EXPECT_NEAR(
      a.work.value,
      op(u, "q·kᵀ").work.value + op(u, "softmax").work.value + op(u, "attention·v").work.value,
      1e-6 * a.work.value);
}

TEST(LlmModel, DecodeFlopsPerTokenAreTwiceTheLinearParameters) {
  // docs/llm.md: W per token ≈ 2 × linear parameters + attention 4·layers·L·hidden.
  const ModelConfig& m = preset("llama-2-7b");
  const double L = 2048;
  const StepResult r = evaluate_step(m, scenario(1, L), Phase::decode, a100());
  const double expected = 2 * count_parameters(m).matmul + 4 * m.layers * L * m.hidden;
  EXPECT_NEAR(r.work.value / expected, 1.0, 0.002);
  // The rest is element-wise work (norms, softmax, residuals): small but counted.
  EXPECT_GT(r.work.value, expected);
}

TEST(LlmModel, SevenBDecodeIntensityIsAboutTheBatch) {
  // docs/llm.md: 7B fp16 decode, batch 1: I ≈ 1; batch B: I ≈ B (weights only — the linear
  // layers; the weights dominate Q while B·activation bytes ≪ weights).
  const ModelConfig& m = preset("llama-2-7b");
  for (double B : {1.0, 2.0, 8.0, 32.0}) {
    SCOPED_TRACE(B);
    const StepResult r = evaluate_step(m, scenario(B, 128), Phase::decode, a100());
    EXPECT_NEAR(aggregate_linear(r, "").intensity().value / B, 1.0, 0.02);
  }
  const StepResult one = evaluate_step(m, scenario(1, 2048), Phase::decode, a100());
  EXPECT_NEAR(one.intensity().value, 1.0, 0.01);
  // Decode attention stays memory-bound: its I does not grow with B (docs/llm.md).
  const double i1 = aggregate_attention(one, "").intensity().value;
  const StepResult many = evaluate_step(m, scenario(64, 2048), Phase::decode, a100());
  EXPECT_NEAR(aggregate_attention(many, "").intensity().value, i1, 1e-9 * i1);
  EXPECT_LT(i1, a100().ridge().value);
  // Prefill is a GEMM: hundreds of FLOP/byte, compute-bound.
  const StepResult pre = evaluate_step(m, scenario(1, 2048, 2048), Phase::prefill, a100());
  EXPECT_GT(aggregate_linear(pre, "").intensity().value, a100().ridge().value);
}

TEST(LlmModel, BatchOneDecodeFloorIsWeightBytesOverBandwidth) {
  const ModelConfig& m = preset("llama-2-7b");
  const Roofs r = a100();
  const double weight_bytes = count_parameters(m).matmul * 2;  // what a step must read
  const double floor = weight_bytes / r.bandwidth.value;
  const StepResult step = evaluate_step(m, scenario(1, 16), Phase::decode, r);
  EXPECT_GE(step.time.value, floor);
  EXPECT_NEAR(step.time.value / floor, 1.0, 0.01);  // short context: the weights are all
  const Report rep = analyse(m, scenario(1, 16, 16), Phase::decode, r);
  EXPECT_NEAR(rep.tokens_per_s, 1.0 / step.time.value, 1e-9);
}

TEST(LlmModel, TimeIsMaxOfComputeAndMemoryPerOperator) {
  const Roofs r = a100();
  const StepResult s = evaluate_step(preset("llama-2-7b"), scenario(16, 512), Phase::decode, r);
  double sum = 0, sum_no = 0;
  for (std::size_t i = 0; i < s.cost.size; ++i) {
    const OpCost& o = s.cost.ops[i];
    // Matrix work on π, element-wise work on the vector roof π_v (docs/llm.md).
    const double tw = o.matrix_work().value / r.peak.value +
                      o.vector_work().value / r.vector_peak.value,
                 tq = o.traffic().value / r.bandwidth.value;
    EXPECT_DOUBLE_EQ(s.timing[i].time.value, std::max(tw, tq)) << o.name;
    EXPECT_DOUBLE_EQ(s.timing[i].time_no_overlap.value, tw + tq) << o.name;
    sum += std::max(tw, tq) * o.count;
    sum_no += (tw + tq) * o.count;
  }
  EXPECT_NEAR(s.time.value, sum, 1e-12 * sum);
  EXPECT_NEAR(s.time_no_overlap.value, sum_no, 1e-12 * sum_no);
}

TEST(LlmModel, CriticalBatchOfALinearLayerInClosedForm) {
  // q_proj at batch B: W = 2·B·a·b, Q = a·b·s_w + B·(a+b)·s_a
  // ⇒ B* = I*·a·b·s_w / (2·a·b − I*·(a+b)·s_a) (≈ I*·s_w/2 when activations are negligible).
  const ModelConfig& m = preset("llama-2-7b");
  const Roofs r = a100();
  const Scenario s = scenario(1, 2048);
  const auto all = critical_batches(m, s, r);
  const CriticalBatch* q = nullptr;
  for (const auto& c : all)
    if (c.name == "q_proj") q = &c;
  ASSERT_NE(q, nullptr);
  const double I = r.ridge().value, a = 4096, b = 4096;
  EXPECT_NEAR(q->batch, I * a * b * 2 / (2 * a * b - I * (a + b) * 2), 1e-6);
  EXPECT_TRUE(q->closed_form);
  // Check against the model itself: compute-bound at ⌈B*⌉, memory-bound at ⌊B*⌋.
  auto intensity_at = [&](double B) {
    Scenario t = s;
    t.batch = B;
    const StepCost cost = step_cost(m, t, Phase::decode);
    const OpCost& o = op(cost, "q_proj");
    return (o.work / o.traffic()).value;
  };
  EXPECT_GE(intensity_at(std::ceil(q->batch)), I);
  EXPECT_LT(intensity_at(std::floor(q->batch)), I);
  // Decode attention never turns compute-bound: its I does not depend on B.
  for (const auto& c : all)
    if (c.name == "q·kᵀ" || c.name == "attention·v") {
      EXPECT_TRUE(c.never) << c.name;
    }
  // The whole MHA step at 2048 tokens of context never does either (KV traffic grows with B):
  // I(B) tends to w/q1 < I*.
  EXPECT_TRUE(all.back().never);
  EXPECT_EQ(all.back().name, "whole step");
  EXPECT_LT(all.back().w / all.back().q1, I);
}

TEST(LlmModel, CriticalBatchOfTheWholeStepWhenItExists) {
  // Short context on GQA Llama-3-8B: the step turns compute-bound at a finite B*; check it
  // against the step's own aggregate intensity on either side.
  const ModelConfig& m = preset("llama-3-8b");
  const Roofs r = a100();
  const Scenario s = scenario(1, 64);
  const auto all = critical_batches(m, s, r);
  const CriticalBatch& step = all.back();
  ASSERT_FALSE(step.never);
  // Its ridge is the step's own: norms, adds and activations on the vector roof lower π_eff.
  EXPECT_LT(step.ridge.value, r.ridge().value);
  auto step_intensity = [&](double B) {
    Scenario t = s;
    t.batch = B;
    return evaluate_step(m, t, Phase::decode, r).intensity().value;
  };
  EXPECT_GE(step_intensity(std::ceil(step.batch)), step.ridge.value);
  EXPECT_LT(step_intensity(std::floor(step.batch)), step.ridge.value);
}

// Element-wise operators run on the vector units: the A100's fp16 vector roof (78 TFLOP/s), not
// its tensor cores (312); fused attention adds its softmax there to its products on π.
TEST(LlmModel, ElementwiseOperatorsAreJudgedOnTheVectorRoof) {
  const Roofs r = a100();
  EXPECT_EQ(r.vector_name, "fp16 vector");
  EXPECT_DOUBLE_EQ(r.vector_peak.value, 78e12);
  EXPECT_FALSE(r.vector_fallback);
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s = scenario(1, 2048);
  s.flash = true;
  const StepResult st = evaluate_step(m, s, Phase::decode, r);
  auto at = [&](const char* name) {
    for (std::size_t i = 0; i < st.cost.size; ++i)
      if (std::strcmp(st.cost.ops[i].name, name) == 0) return i;
    throw std::runtime_error(name);
  };
  // RMSNorm over d = 4096: W = 4·d = 16384 FLOP, Q = 2·d·2 + d·2 = 24576 bytes.
  const std::size_t n = at("attention norm");
  EXPECT_EQ(st.cost.ops[n].unit, ComputeUnit::vector);
  EXPECT_DOUBLE_EQ(st.timing[n].time_no_overlap.value, 16384 / 78e12 + 24576 / 2.039e12);
  EXPECT_EQ(compute_roof_of(st.cost.ops[n], r), "fp16 vector");
  for (const char* name : {"residual add", "silu·mul", "final norm"})
    EXPECT_EQ(st.cost.ops[at(name)].unit, ComputeUnit::vector) << name;
  const std::size_t q = at("q_proj");
  EXPECT_EQ(compute_roof_of(st.cost.ops[q], r), "fp16 tensor");
  EXPECT_DOUBLE_EQ(st.timing[q].compute.value, st.cost.ops[q].work.value / 312e12);
  // Fused attention at L = 2048, one query: 32 heads × 2048 pairs; products 2·2·128 FLOP per
  // pair and head on π, the softmax's 5 on π_v.
  const std::size_t f = at("attention (fused)");
  const OpCost& fa = st.cost.ops[f];
  EXPECT_DOUBLE_EQ(fa.vector_work().value, 5.0 * 32 * 2048);
  EXPECT_NEAR(fa.matrix_work().value, 4.0 * 128 * 32 * 2048, 1e-6);
  const double fused = 4.0 * 128 * 32 * 2048 / 312e12 + 5.0 * 32 * 2048 / 78e12;
  EXPECT_NEAR(st.timing[f].compute.value, fused, 1e-12 * fused);
  // The int8 products leave the element-wise work in the activations' fp16 on its vector roof.
  const RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  const Roofs i8 = select_roofs(set, parse_dtype("int8"), std::nullopt, parse_dtype("fp16"));
  EXPECT_EQ(i8.compute_name, "int8 tensor");
  EXPECT_EQ(i8.vector_name, "fp16 vector");
  EXPECT_EQ(i8.vector_units.work, "FLOP");
  // The critical batch of a norm is on its own ridge π_v/β: it never turns compute-bound.
  for (const auto& c : critical_batches(m, s, r))
    if (c.name == "attention norm") {
      EXPECT_DOUBLE_EQ(c.ridge.value, 78e12 / 2.039e12);
      EXPECT_TRUE(c.never);
    }
}

// A rate beyond any device is refused, naming machine, roof, field and value (a bandwidth of
// 1e300 made every step free).
TEST(LlmModel, ImplausibleRatesAreRefused) {
  RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  set.memory.front().bandwidth = ByteRate(1e300);
  try {
    select_roofs(set, parse_dtype("fp16"));
    ADD_FAILURE() << "a bandwidth of 1e300 was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("machine '" + set.name +
                                         "': memory roof 'HBM': "
                                         "bandwidth 1e+300 per second is beyond any device"),
              std::string::npos)
        << e.what();
  }
}

// Without an fp16 vector roof but with an fp32 one (MI300X's datasheet), fp32's stands in for the
// element-wise work: the matrix roof had made it 8x too fast there.
TEST(LlmModel, ANarrowFloatWithoutAVectorRoofTakesFp32s) {
  RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  std::erase_if(set.compute, [](const ComputeRoof& c) {
    return c.unit == "vector" && (c.precision == "fp16" || c.precision == "bf16");
  });
  const Roofs r = select_roofs(set, parse_dtype("fp16"));
  EXPECT_FALSE(r.vector_fallback);
  EXPECT_TRUE(r.vector_widened);
  EXPECT_EQ(r.vector_name, "fp32");  // the fixture's CUDA-core fp32 roof
  EXPECT_DOUBLE_EQ(r.vector_peak.value, 19.5e12);
  const Roofs own =
      select_roofs(load_machine_file(kData + "a100-80gb.json").roofs, parse_dtype("fp16"));
  EXPECT_FALSE(own.vector_widened);
}

// A machine without a vector roof of the activations' precision (nor fp32's) judges element-wise
// work on the compute roof and says so.
TEST(LlmModel, NoVectorRoofFallsBackToTheComputeRoofAndSaysSo) {
  RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  std::erase_if(set.compute, [](const ComputeRoof& c) { return c.unit != "tensor"; });
  const Roofs r = select_roofs(set, parse_dtype("fp16"));
  EXPECT_TRUE(r.vector_fallback);
  EXPECT_EQ(r.vector_name, "fp16 tensor");
  EXPECT_DOUBLE_EQ(r.vector_peak.value, 312e12);
  bool said = false;
  for (const auto& w : parallel_warnings(scenario(1, 128), r))
    said = said || w.find("no vector (non-tensor) roof of fp16") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(LlmModel, MoeTouchesExpectedDistinctExperts) {
  // E·(1 − (1 − k/E)^N): one token touches k experts; many tokens touch all E.
  const ModelConfig& m = preset("mixtral-8x7b");
  const double per_expert = 4096.0 * 14336 * 2;  // one expert's gate matrix, fp16
  const StepCost one = step_cost(m, scenario(1, 128), Phase::decode);
  EXPECT_DOUBLE_EQ(op(one, "expert gate").weights.value, 2 * per_expert);
  const StepCost four = step_cost(m, scenario(4, 128), Phase::decode);
  EXPECT_NEAR(op(four, "expert gate").weights.value, 8 * (1 - std::pow(0.75, 4)) * per_expert,
              1e-6 * per_expert);
  const StepCost many = step_cost(m, scenario(256, 128), Phase::decode);
  EXPECT_NEAR(op(many, "expert gate").weights.value, 8 * per_expert, 1e-6 * per_expert);
  // Only active experts compute: W = 2·N·k·d·ff.
  EXPECT_DOUBLE_EQ(op(four, "expert gate").work.value, 2.0 * 4 * 2 * 4096 * 14336);
  // The MoE critical batch comes from bisection and brackets I* on the model itself.
  const Roofs r = a100();
  for (const auto& c : critical_batches(m, scenario(1, 128), r)) {
    if (c.name != "expert gate") continue;
    EXPECT_FALSE(c.closed_form);
    ASSERT_FALSE(c.never);
    auto i_at = [&](double B) {
      const StepCost cost = step_cost(m, scenario(B, 128), Phase::decode);
      const OpCost& o = op(cost, "expert gate");
      return (o.work / o.traffic()).value;
    };
    EXPECT_GE(i_at(c.batch * 1.0001), r.ridge().value);
    EXPECT_LT(i_at(c.batch * 0.999), r.ridge().value);
  }
}

TEST(LlmModel, CriticalBatchOfAnOperatorWhoseRowsFollowTheRoutingIsBisected) {
  // Mixtral at --tp 8 --ep: the busiest device's expert rows are 1 at batch 1 and at batch 2, so
  // the straight line through B = 1, 2 gave the expert activation w = q1 = 0 and printed
  // "I(B) → w/q1 = nan". Its W and Q both follow the rows (I is constant), so it never turns
  // compute-bound; every row's figures are finite.
  const ModelConfig& m = preset("mixtral-8x7b");
  Scenario s = scenario(1, 2048);
  s.tp = 8;
  s.ep = true;
  const Roofs r = a100();
  bool seen = false;
  for (const auto& c : critical_batches(m, s, r)) {
    EXPECT_TRUE(std::isfinite(c.at_batch_1.value)) << c.name;
    if (c.closed_form) {
      EXPECT_GT(c.w, 0) << c.name;
      if (c.never) {
        EXPECT_GT(c.q1, 0) << c.name;
      }
    }
    if (c.name != "expert activation") continue;
    seen = true;
    EXPECT_FALSE(c.closed_form);
    EXPECT_TRUE(c.never);
  }
  EXPECT_TRUE(seen);
}

TEST(LlmModel, TensorParallelSplitsWeightsAndAddsAllReduce) {
  const ModelConfig& m = preset("llama-2-70b");
  Scenario s = scenario(8, 1024);
  s.tp = 8;
  const StepCost c = step_cost(m, s, Phase::decode);
  EXPECT_DOUBLE_EQ(op(c, "q_proj").weights.value, 8192.0 * 8192 / 8 * 2);
  EXPECT_DOUBLE_EQ(op(c, "k_proj").weights.value, 8192.0 * 128 * 2);  // 8 KV heads / 8 = 1
  const OpCost& ar = op(c, "attention all-reduce");
  EXPECT_TRUE(ar.interconnect);
  // Ring all-reduce: each device sends 2·(tp−1)/tp of the message and receives as much; both
  // are counted, against the bidirectional NVLink figure.
  EXPECT_DOUBLE_EQ(ar.traffic().value, 4.0 * 7 / 8 * 8 * 8192 * 2);
  EXPECT_EQ(ar.count, 80);
  // Logits all-gather: (tp−1)/tp of the B×V logits sent and as much received.
  EXPECT_DOUBLE_EQ(op(c, "logits all-gather").traffic().value, 2.0 * 7 / 8 * 8 * 32000 * 2);
  // It is timed against the interconnect roof: 600 GB/s both ways, so the all-reduce takes
  // 2·(tp−1)/tp·M / 300 GB/s — the time NCCL's bus bandwidth (per direction) gives.
  const Roofs r = a100();
  const StepResult st = evaluate_step(m, s, Phase::decode, r);
  for (std::size_t i = 0; i < st.cost.size; ++i)
    if (st.cost.ops[i].interconnect) {
      EXPECT_DOUBLE_EQ(st.timing[i].time.value, st.cost.ops[i].traffic().value / 600e9);
    }
  const double message = 8 * 8192 * 2.0;  // N·d·s_a
  for (std::size_t i = 0; i < st.cost.size; ++i)
    if (std::strcmp(st.cost.ops[i].name, "attention all-reduce") == 0) {
      const double t = 2.0 * 7 / 8 * message / 300e9;
      EXPECT_NEAR(st.timing[i].time.value, t, 1e-12 * t);
    }
  EXPECT_GT(st.interconnect.value, 0);
  // A machine without an interconnect roof needs --interconnect-bandwidth.
  const Roofs bare =
      select_roofs(load_machine_file(kData + "no-interconnect.json").roofs, parse_dtype("fp16"));
  EXPECT_THROW(evaluate_step(m, s, Phase::decode, bare), InputError);
  const Roofs given = select_roofs(load_machine_file(kData + "no-interconnect.json").roofs,
                                   parse_dtype("fp16"), ByteRate(100e9));
  EXPECT_NO_THROW(evaluate_step(m, s, Phase::decode, given));
  // tp must divide the heads.
  s.tp = 3;
  EXPECT_THROW(validate_scenario(m, s), InputError);
}

TEST(LlmModel, WeightOnlyQuantisationQuartersWeightTraffic) {
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s = scenario(1, 128);
  s.dtypes = make_dtypes("int4");
  const StepCost c = step_cost(m, s, Phase::decode);
  EXPECT_DOUBLE_EQ(op(c, "gate_proj").weights.value, 4096.0 * 11008 * 0.5);
  // The compute roof stays fp16's; I of the linear layers ≈ 4 at batch 1 (docs/llm.md:
  // quantisation raises intensity).
  const Roofs r = select_roofs(load_machine_file(kData + "a100-80gb.json").roofs, s.dtypes.compute);
  EXPECT_EQ(r.compute_name, "fp16 tensor");
  EXPECT_NEAR(aggregate_linear(evaluate_step(m, s, Phase::decode, r), "").intensity().value, 4.0,
              0.05);
}

TEST(LlmModel, TiedEmbeddingsDoNotDoubleWeights) {
  const ModelConfig& g = preset("gpt3-175b");
  Scenario s = scenario(1, 2048);
  const StepCost c = step_cost(g, s, Phase::decode);
  EXPECT_DOUBLE_EQ(op(c, "lm_head").weights.value, 12288.0 * 50257 * 2);
  const Footprint f = footprint(g, s, a100());
  // One table of V·d, not two.
  const ParameterCount p = count_parameters(g);
  EXPECT_NEAR(f.weights.value, p.total * 2, 1e-9 * p.total * 2);  // fp16 everything
  EXPECT_FALSE(*f.fits);  // 350 GB of fp16 weights on one 80 GiB device
}

TEST(LlmModel, FootprintAndFit) {
  const ModelConfig& m = preset("llama-2-7b");
  const Roofs r = a100();
  const Footprint f = footprint(m, scenario(1, 4096, 4096), r);
  EXPECT_NEAR(f.weights.value, count_parameters(m).total * 2, 1.0);
  EXPECT_DOUBLE_EQ(f.kv_cache.value, 524288.0 * 4096);
  EXPECT_TRUE(*f.fits);
  // 64 sequences of 4096 tokens need 137 GB of KV cache: does not fit.
  const Footprint big = footprint(m, scenario(64, 4096, 4096), r);
  EXPECT_DOUBLE_EQ(big.kv_cache.value, 524288.0 * 4096 * 64);
  EXPECT_FALSE(*big.fits);
}

// The residual stream is not counted twice: Llama-3-70B at --tp 8, B = 16, S = 4096 (fused
// attention) peaks in the residual add, 3·N·d·s_a = 3·65536·8192·2 B = 3.22 GB, which holds the
// stream; the widest other working set (gate_proj: N·(d + ff/8)·2 = 1.54 GB) plus the stream
// (N·d·2 = 1.07 GB) is below it. It was 3.22 + 1.07 = 4.29 GB.
TEST(LlmModel, FootprintCountsTheResidualStreamOnce) {
  const ModelConfig& m = preset("llama-3-70b");
  Scenario s = scenario(16, 4096, 4096);
  s.flash = true;
  s.tp = 8;
  const Footprint f = footprint(m, s, a100());
  EXPECT_DOUBLE_EQ(f.activations.value, 3.0 * 65536 * 8192 * 2);
}

TEST(LlmModel, FootprintKeepsReplicatedKvHeadsUnderTensorParallelism) {
  // Llama-3-70B has 8 KV heads: at tp 16 each device holds one whole K/V head (step_cost
  // replicates it), so k_proj and v_proj are d×128 per device, not d×1024/16 = d×64.
  const ModelConfig& m = preset("llama-3-70b");
  const double d = 8192, hd = 128, L = 80, V = 128256, ff = 28672, P = 16;
  Scenario s = scenario(1, 1024, 1024);
  s.tp = 16;
  const Footprint f = footprint(m, s, a100());
  const double per_layer = d * (64 / P) * hd * 2          // q and o
                           + 2 * d * 1 * hd               // k and v: one KV head each
                           + 3 * d * ff / P;              // gate, up, down
  const double matrices = L * per_layer + 2 * V / P * d;  // + embedding and LM head
  const double norms = (2 * L + 1) * d;
  EXPECT_NEAR(f.weights.value, 2 * (matrices + norms), 1e-12 * f.weights.value);
  // 2·L·d·hd·(1 − 8/16) elements more than splitting every matrix by P.
  const ParameterCount whole = count_parameters(m);
  EXPECT_NEAR(f.weights.value - 2 * ((whole.matmul + V * d) / P + norms),
              2 * 2 * L * d * hd * (1 - 8 / P), 1.0);
  // The footprint holds exactly what a decode step reads per device (untied, no biases): every
  // operator's weight bytes, the embedding's gathered rows replaced by its V/P·d table.
  const StepCost c = step_cost(m, s, Phase::decode);
  double read = 0;
  for (std::size_t i = 0; i < c.size; ++i)
    if (c.ops[i].kind != OpKind::embedding) read += c.ops[i].weights.value * c.ops[i].count;
  EXPECT_NEAR(f.weights.value, read + V / P * d * 2, 1e-12 * f.weights.value);
  // At tp 8 (KV heads = P) nothing is replicated: q/o and k/v all shrink by P.
  s.tp = 8;
  EXPECT_NEAR(footprint(m, s, a100()).weights.value, 2 * ((whole.matmul + V * d) / 8 + norms), 1.0);
}

TEST(LlmModel, MeasuredThroughputGivesMfu) {
  const ModelConfig& m = preset("llama-2-7b");
  const Roofs r = a100();
  const Report rep = analyse(m, scenario(8, 1024, 1024), Phase::decode, r, 400.0);
  ASSERT_TRUE(rep.measured.has_value());
  // docs/model.md: MFU = W per token × tokens/s ÷ π.
  const double w_token = rep.decode.work.value / 8;
  EXPECT_NEAR(rep.measured->mfu, w_token * 400 / 312e12, 1e-12);
  EXPECT_NEAR(rep.measured->bandwidth, rep.decode.traffic.value / 8 * 400 / 2.039e12, 1e-12);
  EXPECT_NEAR(rep.measured->of_roofline, 400 / rep.tokens_per_s, 1e-12);
  EXPECT_EQ(rep.measured->above_roof, "");
  EXPECT_THROW(analyse(m, scenario(8, 1024, 1024), Phase::decode, r, -1.0), InputError);
  // Three times the predicted tokens/s: beyond what the roofs allow, said, not only printed as
  // a share over 100%. Decode here is memory-bound, so bandwidth and the prediction are over.
  const Report fast = analyse(m, scenario(8, 1024, 1024), Phase::decode, r, 3 * rep.tokens_per_s);
  const std::string& why = fast.measured->above_roof;
  EXPECT_EQ(why.rfind("above the roofs (", 0), 0u) << why;
  EXPECT_NE(why.find("the roofline prediction 300%"), std::string::npos) << why;
  EXPECT_NE(why.find("bandwidth utilisation "), std::string::npos) << why;
  EXPECT_EQ(why.find("MFU"), std::string::npos) << why;  // MFU stays far below 100% in decode
  // It is one of the report's warnings (text, JSON, stderr, Python's .warnings), not only a
  // line of the measured section: a measurement 7e6 tokens/s above the roofs said nothing there.
  auto warned = [](const Report& x) {
    for (const auto& w : x.warnings)
      if (w.find("above the roofs (") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(warned(fast));
  EXPECT_FALSE(warned(rep));
  const Report absurd = analyse(m, scenario(1, 2048, 2048), Phase::decode, r, 1e9);
  EXPECT_TRUE(warned(absurd));
  EXPECT_NE(to_json(absurd).at("warnings").dump().find("tokens/s (decode) is above the roofs"),
            std::string::npos)
      << to_json(absurd).at("warnings").dump();
  // At the prediction itself (within the 5% slack `point` allows) nothing is said.
  EXPECT_EQ(analyse(m, scenario(8, 1024, 1024), Phase::decode, r, 1.04 * rep.tokens_per_s)
                .measured->above_roof,
            "");
}

TEST(LlmModel, PromptLongerThanContextIsRefused) {
  const ModelConfig& m = preset("llama-2-7b");
  EXPECT_NO_THROW(validate_scenario(m, scenario(1, 2048, 2048)));
  EXPECT_NO_THROW(validate_scenario(m, scenario(1, 2048, 512)));
  try {
    validate_scenario(m, scenario(1, 1024, 2048));
    ADD_FAILURE() << "prompt 2048 > context 1024 accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("--prompt 2048"), std::string::npos) << msg;
    EXPECT_NE(msg.find("--context 1024"), std::string::npos) << msg;
  }
  // A sweep with a fixed prompt refuses the contexts shorter than it.
  Scenario base = scenario(1, 0, 2048);
  EXPECT_THROW(sweep(m, base, {1}, {1024, 4096}, a100()), InputError);
}

TEST(LlmModel, ContextBeyondMaxPositionsWarns) {
  const ModelConfig& m = preset("llama-2-7b");  // max_position_embeddings 4096
  EXPECT_TRUE(scenario_warnings(m, scenario(1, 4096, 4096)).empty());
  const auto w = scenario_warnings(m, scenario(1, 8192, 4096));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("8192"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("max_position_embeddings 4096"), std::string::npos) << w[0];
  const Report rep = analyse(m, scenario(1, 8192, 8192), Phase::decode, a100());
  EXPECT_EQ(rep.warnings, w);
  EXPECT_TRUE(scenario_warnings(preset("mistral-7b"), scenario(1, 32768, 32768)).empty());
}

TEST(LlmModel, SlidingWindowCapsAttentionAndKvCache) {
  // Mistral-7B-v0.1: each token attends over the last W = 4096 keys (8 KV heads of 128).
  const ModelConfig& m = preset("mistral-7b");
  const double B = 2, W = 4096;
  const StepCost at8k = step_cost(m, scenario(B, 8192, 8192), Phase::decode);
  EXPECT_DOUBLE_EQ(op(at8k, "q·kᵀ").kv.value, B * W * 8 * 128 * 2);
  EXPECT_DOUBLE_EQ(op(at8k, "q·kᵀ").work.value, 2 * B * 32 * 128 * W);
  EXPECT_DOUBLE_EQ(op(at8k, "softmax").activations.value, 2 * B * 32 * W * 2);
  // Inside the window nothing changes.
  const StepCost at2k = step_cost(m, scenario(B, 2048, 2048), Phase::decode);
  EXPECT_DOUBLE_EQ(op(at2k, "q·kᵀ").kv.value, B * 2048 * 8 * 128 * 2);
  // Fused prefill of S = 8192: query i sees min(i, W) keys ⇒ W(W+1)/2 + (S−W)·W pairs.
  Scenario f = scenario(1, 8192, 8192);
  f.flash = true;
  const double S = 8192, pairs = W * (W + 1) / 2 + (S - W) * W;
  EXPECT_DOUBLE_EQ(op(step_cost(m, f, Phase::prefill), "attention (fused)").work.value,
                   (2 * 2.0 * 32 * 128 + 5.0 * 32) * pairs);
  // Unfused prefill still computes the full S² (the window is a mask).
  EXPECT_DOUBLE_EQ(op(step_cost(m, scenario(1, 8192, 8192), Phase::prefill), "q·kᵀ").work.value,
                   2.0 * 32 * 128 * S * S);
  // The KV cache is a rolling buffer of W tokens per sequence: 2·layers·8·128·2 bytes each.
  const Footprint fp = footprint(m, scenario(B, 16384, 16384), a100());
  EXPECT_DOUBLE_EQ(fp.kv_cache.value, 2.0 * 32 * 8 * 128 * 2 * B * W);
  EXPECT_DOUBLE_EQ(footprint(m, scenario(B, 1024, 1024), a100()).kv_cache.value,
                   2.0 * 32 * 8 * 128 * 2 * B * 1024);
}

TEST(LlmModel, SweepRowsAgreeWithSingleReports) {
  const ModelConfig& m = preset("llama-3-8b");
  const Roofs r = a100();
  Scenario base;
  base.prompt = 0;     // each row's prompt is its context
  base.flash = false;  // as scenario()
  const auto rows = sweep(m, base, {1, 16}, {512, 4096}, r);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    const Report rep = analyse(m, scenario(row.batch, row.context, row.context), Phase::decode, r);
    EXPECT_DOUBLE_EQ(row.time_per_token.value, rep.time_per_token.value);
    EXPECT_DOUBLE_EQ(row.ttft.value, rep.ttft.value);
    EXPECT_DOUBLE_EQ(row.tokens_per_s, rep.tokens_per_s);
    EXPECT_DOUBLE_EQ(row.memory.value, rep.memory.total().value);
    EXPECT_EQ(row.prompt, row.context);
  }
}

// The step's time is Σ max(W/π, Q/β) per operator: once the linear layers are compute-bound
// the tokens/s stops growing, while the whole step's I (which the bound column was judged by)
// stays below the ridge up to twice the batch — "memory" beside a flat throughput.
TEST(LlmModel, ASweepRowsBoundIsWhereItsTimeGoes) {
  const ModelConfig& m = preset("llama-3-8b");
  const Roofs r = a100();
  Scenario base;
  base.prompt = 0;
  base.flash = false;
  const auto rows = sweep(m, base, {8, 200, 300}, {128}, r);
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) {
    const StepResult dec = evaluate_step(m, scenario(row.batch, 128, 128), Phase::decode, r);
    const double share = compute_time_share(dec);
    EXPECT_EQ(row.decode_compute_bound, share >= 0.5) << row.batch;
    // The share by hand: Σ count·time of the compute-bound operators over the step's time.
    double compute = 0;
    for (std::size_t i = 0; i < dec.cost.size; ++i)
      if (dec.cost.ops[i].work / r.peak > dec.cost.ops[i].traffic() / r.bandwidth)
        compute += dec.timing[i].time.value * dec.cost.ops[i].count;
    EXPECT_NEAR(share, compute / dec.time.value, 1e-12) << row.batch;
  }
  EXPECT_FALSE(rows[0].decode_compute_bound);  // batch 8: the weights' traffic
  // Batch 200 on the A100 (I* = 153): the linear layers are past their critical batch (I 186),
  // the step's I (145) is not, and tokens/s no longer grows (16,734 at 200 and at 300).
  EXPECT_LT(rows[1].decode_intensity.value, r.ridge().value);
  EXPECT_GT(rows[1].linear_intensity.value, r.ridge().value);
  EXPECT_TRUE(rows[1].decode_compute_bound);
  EXPECT_NEAR(rows[2].tokens_per_s / rows[1].tokens_per_s, 1.0, 1e-3);
}

TEST(LlmModel, PointsForCharts) {
  const Report rep = analyse(preset("llama-2-7b"), scenario(1, 1024, 1024), Phase::decode, a100());
  const auto pts = to_points(rep);
  ASSERT_FALSE(pts.empty());
  for (const auto& p : pts) EXPECT_NO_THROW(p.validate()) << p.name;
  EXPECT_EQ(pts.back().name, "decode attention");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
