// A training step (6·N·D, activation memory with and without recompute, optimizer state,
// gradient all-reduce, MFU/HFU) against hand derivations and DeepSeek's published training
// cost per token; cost per token from a price and the catalogue's power; calibrated roofs; the
// device's native 16-bit type.
#include <gtest/gtest.h>

#include <algorithm>
#include "unity_id.hpp"

#include <cmath>
#include <string>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

TEST(LlmTraining, WorkIsThreeForwardsAndAboutSixND) {
  // A dense model at a short sequence: 3 × the forward ≈ 6·N·D (Kaplan et al. 2020), the
  // rest being attention and element-wise work.
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s;
  s.flash = true;
  TrainingOptions o;
  o.sequence = 512;
  o.micro_batch = 4;
  o.global_batch = 16;
  const TrainingResult t = training_step(m, s, o, a100());
  EXPECT_EQ(t.micro_steps, 4);
  EXPECT_EQ(t.tokens, 16 * 512);
  EXPECT_DOUBLE_EQ(t.model_work.value, 3 * t.forward.value);
  EXPECT_NEAR(t.model_work.value / t.six_nd.value, 1.0, 0.03);
  EXPECT_GT(t.model_work.value, t.six_nd.value);
  // No recompute: hardware work = model work; full recompute adds a forward (8·N·D).
  EXPECT_DOUBLE_EQ(t.hardware_work.value, t.model_work.value);
  TrainingOptions full = o;
  full.recompute = Recompute::full;
  const TrainingResult f = training_step(m, s, full, a100());
  EXPECT_NEAR(f.hardware_work.value, 4 * f.forward.value, 1e-6 * f.forward.value);
  EXPECT_NEAR(f.hfu / f.mfu, 4.0 / 3, 1e-9);
  EXPECT_GT(f.step.value, t.step.value);
}

// A sequence past max_position_embeddings is noted, as a context past it is in inference.
TEST(LlmTraining, ASequencePastTheModelsPositionsIsNoted) {
  const ModelConfig& m = preset("llama-2-7b");
  TrainingOptions o;
  o.sequence = 5000;
  auto has_note = [](const TrainingResult& t) {
    return std::any_of(t.notes.begin(), t.notes.end(), [](const std::string& n) {
      return n.rfind("sequence 5000 exceeds llama-2-7b's max_position_embeddings 4096", 0) == 0;
    });
  };
  EXPECT_TRUE(has_note(training_step(m, Scenario{}, o, a100())));
  o.sequence = 4096;
  EXPECT_FALSE(has_note(training_step(m, Scenario{}, o, a100())));
}

TEST(LlmTraining, TrainingCostPerTokenAsPublished) {
  // Zhao et al. (ISCA 2025) Table 2, training cost per token at sequence length 4096:
  // DeepSeek-V3 250 GFLOP, LLaMA-3.1 405B 2448 GFLOP. Per token: 3 × (2 × active matrix
  // parameters + causal attention over (S + 1)/2 keys on average).
  Scenario s;
  s.flash = true;
  s.dtypes = make_dtypes("bf16");
  TrainingOptions o;
  o.sequence = 4096;
  const Roofs r = select_roofs(resolve_machine("h100-sxm").roofs, parse_dtype("bf16"));
  const TrainingResult v3 = training_step(preset("deepseek-v3"), s, o, r);
  EXPECT_NEAR(v3.model_work.value / v3.tokens / 250e9, 1.0, 0.01);
  ModelConfig llama405 = preset("llama-3-70b");  // Llama 3.1 405B: its config.json shapes
  llama405.hidden = 16384;
  llama405.layers = 126;
  llama405.heads = 128;
  llama405.kv_heads = 8;
  llama405.intermediate = 53248;
  const TrainingResult l = training_step(llama405, s, o, r);
  EXPECT_NEAR(l.model_work.value / l.tokens / 2448e9, 1.0, 0.015);
}

TEST(LlmTraining, ActivationMemoryWithAndWithoutRecompute) {
  // Korthikanti et al. 2022, Table 2 (16-bit activations, per layer): s·b·h·(34 + 5as/h)
  // without parallelism; tensor parallel t: 10 + 24/t + 5as/(ht); selective recompute drops
  // the 5as/(ht) term; + sequence parallel: 34/t; full recompute: 2·s·b·h.
  const ModelConfig& m = preset("gpt3-175b");  // h = 12288, a = 96
  Scenario s;
  s.dtypes = make_dtypes("bf16");
  s.flash = false;  // the table's attention keeps its score matrix (the 5as/h term)
  TrainingOptions o;
  o.sequence = 2048;
  o.micro_batch = 1;
  const double sbh = 2048.0 * 12288, as_h = 96.0 * 2048 / 12288;
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(m, s, o), sbh * (34 + 5 * as_h));
  s.tp = 8;
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(m, s, o), sbh * (10 + 24.0 / 8 + 5 * as_h / 8));
  o.recompute = Recompute::selective;
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(m, s, o), sbh * (10 + 24.0 / 8));
  o.sequence_parallel = true;
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(m, s, o), sbh * 34 / 8);
  o.recompute = Recompute::full;
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(m, s, o), 2 * sbh);
  // GPT-3 175B at t = 8 with sequence parallelism and selective recompute stores 34/t·s·b·h
  // per layer: 96 layers × 2048·12288·34/8 bytes = 10.27 GB per device.
  o.recompute = Recompute::selective;
  EXPECT_NEAR(m.layers * activation_bytes_per_layer(m, s, o) / 1e9, 10.27, 0.01);
}

TEST(LlmTraining, OptimizerStateAndGradientAllReduce) {
  // Mixed-precision Adam (ZeRO §3.1): 2Ψ weights + 2Ψ gradients + 12Ψ optimizer state; ZeRO-1
  // shards the 12Ψ over dp, ZeRO-2 the gradients too. The gradient all-reduce moves
  // 4·(dp − 1)/dp · 2Ψ bytes per device (sent + received) in 2(dp − 1) steps.
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s;
  s.flash = true;
  TrainingOptions o;
  o.sequence = 1024;
  o.dp = 8;
  Roofs r = a100();
  r.link_latency = Seconds(10e-6);
  const TrainingResult t = training_step(m, s, o, r);
  const double psi = count_parameters(m).total;
  EXPECT_DOUBLE_EQ(t.weights.value, 2 * psi);
  EXPECT_DOUBLE_EQ(t.gradients.value, 2 * psi);
  EXPECT_DOUBLE_EQ(t.optimizer_state.value, 12 * psi);
  EXPECT_DOUBLE_EQ(t.gradient_traffic.value, 4.0 * 7 / 8 * 2 * psi);
  EXPECT_NEAR(t.gradient_all_reduce.value, 4.0 * 7 / 8 * 2 * psi / 600e9 + 14 * 10e-6, 1e-12);
  o.zero = 2;
  const TrainingResult z = training_step(m, s, o, r);
  EXPECT_DOUBLE_EQ(z.optimizer_state.value, 12 * psi / 8);
  EXPECT_DOUBLE_EQ(z.gradients.value, 2 * psi / 8);
  EXPECT_DOUBLE_EQ(z.weights.value, 2 * psi);
  // 16Ψ = 108 GB for 7B does not fit one 80 GiB device; ZeRO-2 over 8 does.
  EXPECT_FALSE(*t.fits);
  EXPECT_TRUE(*z.fits);
  // MFU: model work per device ÷ (step × π).
  EXPECT_NEAR(t.mfu, t.model_work.value / 8 / (t.step.value * 312e12), 1e-12);
  o.measured_step_s = 2 * t.step.value;
  EXPECT_NEAR(*training_step(m, s, o, r).measured_mfu, t.mfu / 2, 1e-9);
  auto above = [](const TrainingResult& x) {
    for (const auto& n : x.notes)
      if (n.rfind("above the roofs (", 0) == 0) return n;
    return std::string();
  };
  EXPECT_EQ(above(training_step(m, s, o, r)), "");
  // A measured step a tenth of the modelled one is faster than the roofs allow: said.
  o.measured_step_s = training_step(m, s, o, r).step.value / 10;
  const std::string why = above(training_step(m, s, o, r));
  EXPECT_NE(why.find("the modelled step 1000%"), std::string::npos) << why;
  o.global_batch = 12;  // not a multiple of micro_batch × dp = 8
  EXPECT_THROW(training_step(m, s, o, r), InputError);
}

TEST(LlmCost, DollarsAndJoulesPerToken) {
  // $/M tokens = price/h × devices / (tokens/s × 3600) × 10⁶; J/token = W × devices / tokens/s.
  const MachineDocument h100 = resolve_machine("h100-sxm");
  const DevicePower p = device_power(machine_facts(h100));
  ASSERT_TRUE(p.watts.has_value());
  EXPECT_EQ(*p.watts, 700);  // the catalogue's H100 SXM figure, with its source
  EXPECT_NE(p.source.find("700"), std::string::npos);
  const TokenCost c = token_cost(2000, 8, 2.5, p, "h100-sxm");
  EXPECT_NEAR(*c.usd_per_million_tokens, 2.5 * 8 / (2000 * 3600.0) * 1e6, 1e-12);
  EXPECT_NEAR(*c.joules_per_token, 700 * 8 / 2000.0, 1e-12);
  EXPECT_TRUE(c.notes.empty());
  // TPU v5e: Google publishes no power figure; the cost says so instead of inventing one.
  const DevicePower tpu = device_power(machine_facts(resolve_machine("tpu-v5e")));
  EXPECT_FALSE(tpu.watts.has_value());
  const TokenCost t = token_cost(1000, 4, std::nullopt, tpu, "tpu-v5e");
  EXPECT_FALSE(t.joules_per_token.has_value());
  EXPECT_FALSE(t.usd_per_million_tokens.has_value());
  ASSERT_EQ(t.notes.size(), 2u);
  EXPECT_NE(t.notes[1].find("power of tpu-v5e is not in the catalogue"), std::string::npos);
  // Finite inputs whose cost is beyond a double: refused, never "inf $/M tokens".
  for (const auto& [tokens, price] : {std::pair{1e-320, 1.0}, std::pair{1e-300, 1e300}}) try {
      token_cost(tokens, 1, price, p, "h100-sxm");
      ADD_FAILURE() << tokens;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("is beyond a double"), std::string::npos) << e.what();
    }
}

TEST(LlmCost, PricesByNameMatchTheGivenTheDocumentOrTheCatalogueName) {
  PriceList p = PriceList::parse("a100=2,L4=0.8,doc name=1.5");
  EXPECT_EQ(p.of("a100", "NVIDIA A100", "a100-80gb"), 2.0);  // as given to --hw
  EXPECT_EQ(p.of("", "x", "l4"), 0.8);                       // the catalogue's, case ignored
  EXPECT_EQ(p.of("m.json", "doc name", "m.json"), 1.5);      // the document's own name
  EXPECT_FALSE(p.of("h100", "h100-sxm", "h100-sxm"));
  EXPECT_NO_THROW(p.check_all_used({"a100", "l4", "m.json", "h100"}));
  PriceList q = PriceList::parse("zzz=2");
  EXPECT_FALSE(q.of("a100", "a100-80gb", "a100-80gb"));
  try {
    q.check_all_used({"a100"});
    FAIL() << "a price under no machine's name was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--price-per-hour: 'zzz' is none of the machines (a100)");
  }
  EXPECT_EQ(PriceList::parse("2.5").of("any", "any", ""), 2.5);
  EXPECT_FALSE(PriceList::parse("").of("any", "any", ""));
  EXPECT_THROW(PriceList::parse("a=1,a=2"), InputError);
  EXPECT_THROW(PriceList::parse("=2"), InputError);
  EXPECT_THROW(PriceList::parse("a=-1"), InputError);
}

TEST(LlmCost, ReplicasAreAFiniteWholeNumberOfAtLeastOne) {
  EXPECT_NO_THROW(check_dp(1));
  EXPECT_NO_THROW(check_dp(4));
  for (double bad : {0.0, 0.5, 1.5, -2.0, std::nan(""), HUGE_VAL})
    EXPECT_THROW(check_dp(bad), InputError) << bad;
}

TEST(LlmCalibration, MeasuredAttainmentScalesTheRoofs) {
  Roofs r = a100();
  const Calibration c = parse_attainment("compute=0.7,memory=0.85");
  apply_calibration(r, c);
  EXPECT_DOUBLE_EQ(r.peak.value, 0.7 * 312e12);
  EXPECT_DOUBLE_EQ(r.bandwidth.value, 0.85 * 2.039e12);
  EXPECT_NE(r.calibration.find("0.7"), std::string::npos);
  // The batch-1 decode of a 7B model is the weights over the (calibrated) bandwidth.
  Scenario s;
  s.context = 16;
  s.prompt = 16;
  const double t = evaluate_step(preset("llama-2-7b"), s, Phase::decode, r).time.value;
  const double t0 = evaluate_step(preset("llama-2-7b"), s, Phase::decode, a100()).time.value;
  EXPECT_NEAR(t / t0, 1 / 0.85, 0.01);
  EXPECT_THROW(parse_attainment("compute=2"), InputError);
  EXPECT_THROW(parse_attainment("speed=0.5"), InputError);
  // A roof given twice took its last factor silently.
  EXPECT_THROW(parse_attainment("compute=0.5,compute=0.7"), InputError);
  EXPECT_EQ(parse_attainment("compute=0.5,memory=0.7").memory, 0.7);
  // From a measured machine document: its roof ÷ the datasheet's.
  RoofSet measured;
  measured.name = "measured-a100";
  ComputeRoof roof;
  roof.name = "fp16 tensor (measured)";
  roof.precision = "fp16";
  roof.peak = WorkRate(250e12);
  roof.provenance = Provenance::measured;
  measured.compute.push_back(roof);
  MemoryRoof hbm;
  hbm.level = "HBM";
  hbm.bandwidth = ByteRate(1.7e12);
  hbm.provenance = Provenance::measured;
  measured.memory.push_back(hbm);
  const Calibration m = calibration_from(measured, "measured.json", a100(), parse_dtype("fp16"));
  EXPECT_NEAR(m.compute, 250.0 / 312, 1e-12);
  EXPECT_NEAR(m.memory, 1.7 / 2.039, 1e-12);
  EXPECT_THROW(calibration_from(measured, "measured.json", a100(), parse_dtype("bf16")),
               InputError);
  // Another machine's roofs (an H100's 989 TFLOP/s over the A100's 312) are no measurement of
  // this one: a factor beyond --attainment's 1.5 is refused, naming the roof and the factor.
  measured.compute.front().peak = WorkRate(989e12);
  try {
    calibration_from(measured, "h100.json", a100(), parse_dtype("fp16"));
    ADD_FAILURE() << "an H100's roofs calibrated an A100";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("its fp16 tensor (measured) roof is 3.17 ×"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("another machine's"), std::string::npos) << e.what();
  }
}

// --calibrate takes a measurement: a document whose roof is a datasheet figure (a catalogue
// entry: another machine's made an H100 an A100, as its factors are below 1.5) is refused,
// naming the roof and its provenance.
TEST(LlmCalibration, ADatasheetDocumentIsNoMeasurement) {
  const RoofSet sheet = load_machine_file(kData + "a100-80gb.json").roofs;
  try {
    calibration_from(sheet, "a100-80gb.json", a100(), parse_dtype("fp16"));
    ADD_FAILURE() << "a datasheet calibrated the roofs";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "--calibrate a100-80gb.json: its fp16 tensor roof is a datasheet figure"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("is a datasheet figure, not a measurement"),
              std::string::npos)
        << e.what();
  }
  // Measured compute over a datasheet memory roof is refused too, naming the memory roof.
  RoofSet half = sheet;
  for (auto& c : half.compute) c.provenance = Provenance::measured;
  try {
    calibration_from(half, "half.json", a100(), parse_dtype("fp16"));
    ADD_FAILURE() << "a datasheet memory roof calibrated the bandwidth";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("its HBM roof is a datasheet figure"), std::string::npos)
        << e.what();
  }
}

// Context-parallel training divided the compute by cp and modelled nothing else (activations,
// the cp group's gradient all-reduce): refused as pipelined training is.
TEST(LlmTraining, ContextParallelTrainingIsRefused) {
  Scenario s;
  s.cp = 2;
  TrainingOptions o;
  o.sequence = 4096;
  try {
    training_step(preset("llama-2-7b"), s, o, a100());
    ADD_FAILURE() << "--train with --cp 2 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--train with --cp 2: context-parallel training is not "
                                         "modelled"),
              std::string::npos)
        << e.what();
  }
}

TEST(LlmDtypes, NativeSixteenBitType) {
  // TPU v5e publishes bf16 and int8 roofs only: its 16-bit type is bf16; GPUs with both take
  // fp16 (the historical default).
  EXPECT_EQ(native_16bit(resolve_machine("tpu-v5e").roofs), "bf16");
  EXPECT_EQ(native_16bit(resolve_machine("h100-sxm").roofs), "fp16");
  // A measured Sapphire Rapids-class VM (tests/data/io/README.md): fp16 512-bit fma at ~1
  // TFLOP/s, bf16 on the AMX tiles at ~7.5: bf16 is what it computes fastest.
  const auto spr =
      load_machine_file(std::string(ROOFLINE_TEST_DATA) + "/io/sapphire-class-quick.machine.json");
  EXPECT_EQ(native_16bit(spr.roofs), "bf16");
  // The catalogue's Xeon 8480+ (AMX bf16, no fp16 roof) and an EPYC (vectors only, fp32 up).
  EXPECT_EQ(native_16bit(resolve_machine("xeon-platinum-8480plus").roofs), "bf16");
  // A measured GPU whose bf16 tensor roof reads 1% above its fp16 one stays fp16.
  RoofSet noisy = resolve_machine("h100-sxm").roofs;
  for (auto& c : noisy.compute)
    if (c.precision == "bf16") c.peak = WorkRate(c.peak.value * 1.01);
  EXPECT_EQ(native_16bit(noisy), "fp16");
  const Dtypes d = make_dtypes("", "", "", "", "bf16");
  EXPECT_EQ(d.weights.name, "bf16");
  EXPECT_EQ(d.compute.name, "bf16");
  const Dtypes q = make_dtypes("int4", "", "", "", "bf16");
  EXPECT_EQ(q.activations.name, "bf16");  // weight-only quantisation computes in bf16 there
  EXPECT_NO_THROW(select_roofs(resolve_machine("tpu-v5e").roofs, d.compute));
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
