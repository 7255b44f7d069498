// Parallelism beyond tensor parallelism against hand derivations: the α–β cost of collectives,
// what a machine document says of its links (and the warnings when it says nothing), expert
// parallelism's all-to-all, context parallelism's ring exchange, pipeline stages and bubbles.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

std::size_t index_of(const StepCost& c, const char* name) {
  for (std::size_t i = 0; i < c.size; ++i)
    if (std::strcmp(c.ops[i].name, name) == 0) return i;
  throw std::runtime_error(std::string("no operator ") + name);
}
const OpCost& op(const StepCost& c, const char* name) {
  return c.ops[index_of(c, name)];
}

Scenario scenario(double batch, double context, double prompt) {
  Scenario s;
  s.batch = batch;
  s.context = context;
  s.prompt = prompt;
  s.flash = false;  // the unfused kernels (q·kᵀ, softmax, attention·v) the counts name
  return s;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

TEST(LlmParallel, CollectivesPayOneLatencyPerRingStep) {
  // α–β model: a ring all-reduce over P devices is 2·(P − 1) sequential steps, so its time is
  // 4·(P−1)/P·M / β_bidirectional + 2·(P − 1)·α; an all-gather (P − 1) steps.
  const ModelConfig& m = preset("llama-2-70b");
  Scenario s = scenario(1, 1024, 1024);
  s.tp = 8;
  Roofs r = a100();
  const StepResult plain = evaluate_step(m, s, Phase::decode, r);
  r.link_latency = Seconds(5e-6);
  const StepResult timed = evaluate_step(m, s, Phase::decode, r);
  const std::size_t ar = index_of(timed.cost, "attention all-reduce");
  const double M = 1 * 8192 * 2.0;  // one token's hidden state, fp16
  const double bandwidth_time = 4.0 * 7 / 8 * M / 600e9;
  EXPECT_DOUBLE_EQ(plain.timing[ar].time.value, bandwidth_time);
  EXPECT_NEAR(timed.timing[ar].time.value, bandwidth_time + 2 * 7 * 5e-6, 1e-15);
  const std::size_t ag = index_of(timed.cost, "logits all-gather");
  EXPECT_NEAR(timed.timing[ag].time.value - plain.timing[ag].time.value, 7 * 5e-6, 1e-15);
  // At batch 1 the 161 all-reduces' latency (80 layers × 2 + the embedding's) is no longer free:
  // 161 × 14 × 5 µs = 11.27 ms added to the step.
  EXPECT_NEAR(timed.time.value - plain.time.value, (161 * 14 + 7) * 5e-6, 1e-9);
}

TEST(LlmParallel, LinkFactsFromAMachineDocument) {
  const nlohmann::json info = {{"interconnects",
                                {{{"name", "NVLink"},
                                  {"bandwidth", 900e9},
                                  {"latency", "2.5 us"},
                                  {"domain_size", 8},
                                  {"source", "datasheet X"}},
                                 {{"name", "PCIe"}, {"bandwidth", 128e9}, {"latency_ns", 900}}}}};
  MachineDocument doc;
  doc.origin = "m.json";
  set_info(doc, info);
  const LinkFacts nv = link_facts(machine_facts(doc), "NVLink");
  ASSERT_TRUE(nv.latency.has_value());
  EXPECT_DOUBLE_EQ(nv.latency->value, 2.5e-6);
  EXPECT_EQ(nv.latency_source, "datasheet X");
  ASSERT_TRUE(nv.domain_size.has_value());
  EXPECT_EQ(*nv.domain_size, 8);
  const LinkFacts pcie = link_facts(machine_facts(doc), "PCIe");
  ASSERT_TRUE(pcie.latency.has_value());
  EXPECT_NEAR(pcie.latency->value, 900e-9, 1e-18);
  EXPECT_FALSE(pcie.domain_size.has_value());
  // Flags win over the document.
  Roofs r = a100();
  apply_link_facts(r, nv, Seconds(1e-6), std::nullopt);
  EXPECT_DOUBLE_EQ(r.link_latency->value, 1e-6);
  EXPECT_EQ(r.link_latency_source, "--link-latency");
  EXPECT_EQ(*r.domain_size, 8);
  // A field that is there but wrong is an error naming it.
  nlohmann::json wrong = info;
  wrong["interconnects"][0]["latency"] = -3;
  set_info(doc, wrong);
  // ... when that link is used; another link still reads.
  EXPECT_TRUE(link_facts(machine_facts(doc), "PCIe").latency.has_value());
  try {
    (void)link_facts(machine_facts(doc), "NVLink");
    ADD_FAILURE() << "negative latency accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("latency"), std::string::npos) << e.what();
  }
}

TEST(LlmSetup, OneSetupForTheCliAndPython) {
  // llm::setup is what `roofline llm` and roofline.llm both call: the layout goes into the
  // scenario, flags win over the document's link facts, and a calibration scales the roofs.
  const MachineDocument doc = load_machine_file(kData + "a100-80gb.json");
  SetupOptions o;
  o.tp = 4;
  o.ep = true;
  o.cp = 2;
  o.pp = 3;
  o.micro_batches = 6;
  o.flash = true;
  o.mla = "naive";
  o.link_latency = Seconds(2e-6);
  o.domain_size = 4;
  o.attainment = parse_attainment("compute=0.5,memory=0.8");
  const llm::Setup st = setup(doc.roofs, machine_facts(doc), o);
  EXPECT_EQ(st.scenario.tp, 4);
  EXPECT_TRUE(st.scenario.ep);
  EXPECT_EQ(st.scenario.cp, 2);
  EXPECT_EQ(st.scenario.pp, 3);
  EXPECT_EQ(st.scenario.micro_batches, 6);
  EXPECT_TRUE(st.scenario.flash);
  EXPECT_EQ(st.scenario.mla_form, MlaForm::naive);
  EXPECT_EQ(st.scenario.dtypes.weights.name, "fp16");  // the A100's native 16-bit type
  EXPECT_DOUBLE_EQ(st.roofs.link_latency->value, 2e-6);
  EXPECT_EQ(st.roofs.link_latency_source, "--link-latency");
  EXPECT_EQ(*st.roofs.domain_size, 4);
  const Roofs plain = a100();
  EXPECT_DOUBLE_EQ(st.roofs.peak.value, 0.5 * plain.peak.value);
  EXPECT_DOUBLE_EQ(st.roofs.bandwidth.value, 0.8 * plain.bandwidth.value);

  // Each value out of range is refused, naming the flag.
  auto refused = [&](SetupOptions bad, const std::string& flag) {
    try {
      setup(doc.roofs, machine_facts(doc), bad);
      ADD_FAILURE() << flag << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  };
  SetupOptions b;
  b.tp = 0;
  refused(b, "--tp");
  b = {};
  b.cp = 0;
  refused(b, "--cp");
  b = {};
  b.pp = -1;
  refused(b, "--pp");
  b = {};
  b.micro_batches = 1.5;
  refused(b, "--micro-batches");
  b = {};
  b.interconnect = ByteRate(0);
  refused(b, "--interconnect-bandwidth");
  b = {};
  b.link_latency = Seconds(-1e-6);
  refused(b, "--link-latency");
  // One bound for the flag (and Python's link_latency_s) and a document's latency: 5 s was
  // taken (11305 s per token for Llama-2-70B at --tp 8) where "latency": 5 was refused.
  b = {};
  b.link_latency = Seconds(5);
  refused(b, "--link-latency: 5 s is beyond any link's latency (at most 1 s)");
  nlohmann::json five = {
      {"interconnects", {{{"name", "NVLink"}, {"bandwidth", 600e9}, {"latency", 5}}}}};
  MachineDocument slow = doc;
  set_info(slow, five);
  const std::string said = machine_facts(slow).interconnects[0].problem;
  EXPECT_NE(said.find(link_latency_beyond("info.interconnects[NVLink]: latency", 5, "5")),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("5 s is beyond any link's latency (at most 1 s; got 5)"), std::string::npos)
      << said;
  b = {};
  b.link_latency = Seconds(1);  // the bound itself is a latency
  EXPECT_DOUBLE_EQ(setup(doc.roofs, machine_facts(doc), b).roofs.link_latency->value, 1);
  b = {};
  b.domain_size = 0.5;
  refused(b, "--domain-size");
  b = {};
  b.mla = "sideways";
  refused(b, "--mla");
  b = {};
  b.attainment = Calibration{};
  b.calibrate = doc.roofs;
  refused(b, "--attainment or --calibrate");
}

// --calibrate's document must name the --hw machine (its name, display name or an alias), the
// same test both ways: an A100's measurement on an H100 was accepted (its factors are below
// the 1.5 bound) while an H100's on an A100 was refused ("another machine's").
TEST(LlmSetup, ACalibrationIsOfTheSameMachineEitherWay) {
  const auto measured = [](MachineDocument d) {
    for (auto& c : d.roofs.compute) c.provenance = Provenance::measured;
    for (auto& m : d.roofs.memory) m.provenance = Provenance::measured;
    return d;
  };
  const MachineDocument a100_doc = resolve_machine("a100-80gb"), h100_doc = resolve_machine("h100");
  const auto with = [](const MachineDocument& d, const std::string& origin) {
    SetupOptions o;
    o.calibrate = d.roofs;
    o.calibrate_origin = origin;
    return o;
  };
  const auto refused = [](const MachineDocument& hw, const SetupOptions& o,
                          const std::string& msg) {
    try {
      setup(hw.roofs, machine_facts(hw), o);
      ADD_FAILURE() << o.calibrate_origin << " calibrated " << hw.roofs.name;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(msg), std::string::npos) << e.what();
    }
  };
  refused(h100_doc, with(measured(a100_doc), "a100.json"),
          "--calibrate a100.json: the document is of 'a100-80gb', not of the machine given to "
          "--hw ('h100-sxm', 'NVIDIA H100 SXM5 80GB', 'h100', ");
  refused(a100_doc, with(measured(h100_doc), "h100.json"),
          "--calibrate h100.json: the document is of 'h100-sxm', not of the machine given to "
          "--hw ('a100-80gb', ");
  // A measurement of the machine itself: every factor 1.
  const llm::Setup same =
      setup(a100_doc.roofs, machine_facts(a100_doc), with(measured(a100_doc), "a100.json"));
  EXPECT_DOUBLE_EQ(same.roofs.peak.value, same.roofs.document_peak.value);
  // A device name as `roofline measure --device cuda` writes it ("NVIDIA H200 (cuda:0)") is
  // also read without the device index and the vendor: the driver's A100 and H100 names are
  // catalogue aliases (names compare as catalogue names do: case, '-', '_' and spaces aside).
  MachineDocument named = measured(a100_doc);
  named.roofs.name = "NVIDIA A100-SXM4-80GB (cuda:0)";
  EXPECT_NO_THROW(setup(a100_doc.roofs, machine_facts(a100_doc), with(named, "gpu.json")));
  MachineDocument hopper = measured(h100_doc);
  hopper.roofs.name = "NVIDIA H100 80GB HBM3 (cuda:1)";
  EXPECT_NO_THROW(setup(h100_doc.roofs, machine_facts(h100_doc), with(hopper, "gpu.json")));
  refused(a100_doc, with(hopper, "gpu.json"),
          "the document is of 'NVIDIA H100 80GB HBM3 (cuda:1)'");
  // Two measured documents of one GPU model (cuda:0 and cuda:1): one machine, either way.
  MachineDocument other_gpu = hopper;
  other_gpu.roofs.name = "NVIDIA H100 80GB HBM3 (cuda:0)";
  EXPECT_NO_THROW(setup(hopper.roofs, {}, with(other_gpu, "gpu0.json")));
  // Roofs given as two numbers name no device: said so, not "add the machine's name".
  GivenRoofs g;
  g.name = "given roofs";
  g.peak = WorkRate(1e12);
  g.bandwidth = ByteRate(1e11);
  try {
    setup(given_roofs(g), {}, with(named, "gpu.json"));
    ADD_FAILURE() << "given roofs calibrated";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("roofs given as numbers (--peak, --bandwidth) name no "
                                         "device to calibrate"),
              std::string::npos)
        << e.what();
  }
  // Another name matches through the document's own aliases.
  named.roofs.name = "GA100 bring-up board (cuda:0)";
  refused(a100_doc, with(named, "gpu.json"), "the document is of 'GA100 bring-up board (cuda:0)'");
  SetupOptions aliased = with(named, "gpu.json");
  aliased.calibrate_names = {"A100 SXM"};
  EXPECT_NO_THROW(setup(a100_doc.roofs, machine_facts(a100_doc), aliased));
  // The catalogue's own document is the same machine but no measurement.
  refused(a100_doc, with(a100_doc, "a100-80gb.json"), "is a datasheet figure, not a measurement");
}

TEST(LlmCompare, OneMachinesRowIsItsStepTimesTheReplicas) {
  // compare_on (roofline llm --hw a,b,c): the decode step's tokens/s × dp replicas; the cost on
  // tp × dp devices; with output tokens, the request's TTFT and output rate instead.
  const MachineDocument doc = load_machine_file(kData + "a100-80gb.json");
  SetupOptions so;
  so.tp = 2;
  llm::Setup st = setup(doc.roofs, machine_facts(doc), so);
  st.scenario.batch = 4;
  st.scenario.context = st.scenario.prompt = 1024;
  const ModelConfig& m = preset("llama-2-13b");
  CompareOptions o;
  o.dp = 3;
  o.price_per_hour = 2.0;
  const MachineComparison c = compare_on(m, st, machine_facts(doc), o);
  const Report rep = analyse(m, st.scenario, Phase::decode, st.roofs);
  EXPECT_DOUBLE_EQ(c.decode_tokens_per_s, 3 * rep.tokens_per_s);
  EXPECT_FALSE(c.request_tokens_per_s.has_value());
  EXPECT_DOUBLE_EQ(c.time_per_output_token.value, rep.time_per_token.value);
  EXPECT_DOUBLE_EQ(c.ttft.value, rep.ttft.value);
  EXPECT_DOUBLE_EQ(c.memory.value, rep.memory.total().value);
  EXPECT_EQ(c.cost.devices, 6);
  ASSERT_TRUE(c.cost.usd_per_million_tokens.has_value());
  EXPECT_NEAR(*c.cost.usd_per_million_tokens, 2.0 * 6 / (c.decode_tokens_per_s * 3600) * 1e6, 1e-9);
  EXPECT_FALSE(c.request.has_value());
  o.output_tokens = 64;
  const MachineComparison r = compare_on(m, st, machine_facts(doc), o);
  ASSERT_TRUE(r.request.has_value());
  const RequestTiming t = request_timing(m, st.scenario, 64, st.roofs);
  EXPECT_DOUBLE_EQ(r.ttft.value, t.ttft.value);
  // One name, one meaning: decode's rate is the same with output tokens; the request's
  // end-to-end rate (prefill included) is a field of its own, and the cost is at it.
  EXPECT_DOUBLE_EQ(r.decode_tokens_per_s, c.decode_tokens_per_s);
  ASSERT_TRUE(r.request_tokens_per_s.has_value());
  EXPECT_DOUBLE_EQ(*r.request_tokens_per_s, 3 * t.output_tokens_per_s);
  EXPECT_LT(*r.request_tokens_per_s, r.decode_tokens_per_s);
  EXPECT_DOUBLE_EQ(r.cost.tokens_per_s, *r.request_tokens_per_s);
  const nlohmann::json j = comparison_to_json(r);
  EXPECT_FALSE(j.contains("tokens_per_s"));
  EXPECT_DOUBLE_EQ(j.at("decode_tokens_per_s").get<double>(), r.decode_tokens_per_s);
  EXPECT_DOUBLE_EQ(j.at("request_tokens_per_s").get<double>(), *r.request_tokens_per_s);
  EXPECT_TRUE(comparison_to_json(c).at("request_tokens_per_s").is_null());
  EXPECT_TRUE(j.contains("request"));
}

TEST(LlmParallel, StagesThatDoNotDivideTheLayersWarn) {
  // 32 layers on 3 stages are costed at 32/3 each; the heaviest real stage holds 11: 3.1% more.
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s;
  s.pp = 3;
  const auto w = scenario_warnings(m, s);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "--pp 3 does not divide the 32 layers of llama-2-7b: each stage is costed with "
            "10.67 layers, where the heaviest holds 11 (3.1% more per-layer time and memory "
            "on it)");
  s.pp = 4;
  EXPECT_TRUE(scenario_warnings(m, s).empty());
}

TEST(LlmParallel, TensorParallelBeyondTheDomainWarns) {
  const ModelConfig& m = preset("llama-3-70b");
  Scenario s = scenario(1, 1024, 1024);
  s.tp = 16;
  Roofs r = a100();
  apply_link_facts(r, LinkFacts{}, std::nullopt, 8.0);
  const auto w = parallel_warnings(s, r);
  EXPECT_TRUE(mentions(w, "--tp 16 exceeds the 8-device")) << (w.empty() ? "" : w[0]);
  s.tp = 8;
  EXPECT_FALSE(mentions(parallel_warnings(s, r), "exceeds"));
  s.pp = 2;  // 16 devices: two domains
  EXPECT_TRUE(mentions(parallel_warnings(s, r), "span more than one"));
  // Without a domain size or a latency, the report says the catalogue does not have them.
  const Roofs bare = a100();
  s.pp = 1;
  const auto none = parallel_warnings(s, bare);
  EXPECT_TRUE(mentions(none, "domain size of a100-80gb-test is not in the catalogue"));
  EXPECT_TRUE(mentions(none, "link latency of a100-80gb-test is not in the catalogue"));
  const Report rep = analyse(m, s, Phase::decode, bare);
  EXPECT_TRUE(mentions(rep.warnings, "not in the catalogue"));
  // A rate from --interconnect-bandwidth names no link: the warning says "interconnect".
  Roofs given = a100();
  given.interconnect_name = "--interconnect-bandwidth";
  const auto flagged = parallel_warnings(s, given);
  EXPECT_TRUE(mentions(flagged, "the interconnect domain size of a100-80gb-test"));
  EXPECT_FALSE(mentions(flagged, "--interconnect-bandwidth domain"));
  // One device: nothing to warn about.
  s.tp = 1;
  EXPECT_TRUE(parallel_warnings(s, bare).empty());
}

TEST(LlmParallel, CatalogueLinksAreReadWhereTheyExist) {
  // Whatever the catalogue holds for H100's NVLink is used; where it holds nothing the report
  // says so (the two cases cannot both fail).
  const MachineDocument h100 = resolve_machine("h100-sxm");
  Roofs r = select_roofs(h100.roofs, parse_dtype("bf16"));
  const LinkFacts f = link_facts(machine_facts(h100), r.interconnect_name);
  apply_link_facts(r, f);
  Scenario s = scenario(1, 1024, 1024);
  s.tp = 8;
  const auto w = parallel_warnings(s, r);
  EXPECT_EQ(r.link_latency.has_value(),
            !mentions(w, "link latency of h100-sxm is not in the catalogue"));
  EXPECT_EQ(r.domain_size.has_value(),
            !mentions(w, "domain size of h100-sxm is not in the catalogue"));
}

// A link that joins a GPU to its CPU (GH200's NVLink-C2C), or the host link standing in for a
// scale-up fabric the catalogue lacks (MI355X's PCIe), says so where collectives are costed
// over it: GH200's tensor parallelism read as NVLink at 900 GB/s, MI355X's 4.6x slower than
// its platform's with no word. A rate given by --interconnect-bandwidth carries no caveat.
TEST(LlmParallel, ALinkNotBetweenDevicesSaysSoWhereCollectivesUseIt) {
  Scenario s = scenario(1, 1024, 1024);
  s.tp = 4;
  for (const char* name : {"gh200-144gb", "gh200-96gb", "mi355x"}) {
    const MachineDocument doc = resolve_machine(name);
    Roofs r = select_roofs(doc.roofs, parse_dtype("bf16"));
    apply_link_facts(r, link_facts(machine_facts(doc), r.interconnect_name));
    ASSERT_FALSE(r.link_caveat.empty()) << name;
    const std::string said = "collectives are costed over " + r.interconnect_name + " of " +
                             r.machine + ", " + r.link_caveat +
                             ": give --interconnect-bandwidth for the link between devices";
    EXPECT_TRUE(mentions(parallel_warnings(s, r), said)) << name;
    Scenario one = s;
    one.tp = 1;
    EXPECT_FALSE(mentions(parallel_warnings(one, r), "collectives are costed over")) << name;
    Roofs given = select_roofs(doc.roofs, parse_dtype("bf16"), ByteRate(1e12));
    apply_link_facts(given, link_facts(machine_facts(doc), given.interconnect_name));
    EXPECT_TRUE(given.link_caveat.empty()) << name;
  }
  const MachineDocument gh = resolve_machine("gh200-144gb");
  Roofs r = select_roofs(gh.roofs, parse_dtype("bf16"));
  apply_link_facts(r, link_facts(machine_facts(gh), r.interconnect_name));
  EXPECT_NE(r.link_caveat.find("not two GPUs"), std::string::npos) << r.link_caveat;
  // A link between devices has none.
  const MachineDocument h100 = resolve_machine("h100-sxm");
  Roofs h = select_roofs(h100.roofs, parse_dtype("bf16"));
  apply_link_facts(h, link_facts(machine_facts(h100), h.interconnect_name));
  EXPECT_TRUE(h.link_caveat.empty()) << h.link_caveat;
}

// A step that spends most of its time in all-reduces is bound by the link: Llama-3-70B at tp 8
// over MI355X's host PCIe (128 GB/s) spends most of its decode step there, which the report's
// total and the sweep's decode_bound read as "memory".
TEST(LlmParallel, AStepMostlyInCollectivesIsBoundByTheLink) {
  const ModelConfig& m = preset("llama-3-70b");
  const MachineDocument doc = resolve_machine("mi355x");
  Roofs r = select_roofs(doc.roofs, parse_dtype("bf16"));
  Scenario s = scenario(64, 2048, 2048);
  s.tp = 8;
  const StepResult dec = evaluate_step(m, s, Phase::decode, r);
  double link = 0, total = 0;
  for (std::size_t i = 0; i < dec.cost.size; ++i) {
    const double t = dec.timing[i].time.value * dec.cost.ops[i].count;
    total += t;
    if (dec.cost.ops[i].interconnect && !dec.timing[i].compute_bound) link += t;
  }
  ASSERT_GT(link / total, 0.5);  // the tester's 58%
  EXPECT_EQ(step_bound(dec), "interconnect");
  // With a scale-up link (Infinity Fabric's 1075.2 GB/s) it is the memory-bound step it is.
  const Roofs fast = select_roofs(doc.roofs, parse_dtype("bf16"), ByteRate(1075.2e9));
  EXPECT_EQ(step_bound(evaluate_step(m, s, Phase::decode, fast)), "memory");
  // One device: no link; the rule is compute_time_share ≥ ½ as before.
  Scenario one = scenario(64, 2048, 2048);
  const StepResult d1 = evaluate_step(preset("llama-2-7b"), one, Phase::decode, r);
  EXPECT_EQ(step_bound(d1), compute_time_share(d1) >= 0.5 ? "compute" : "memory");
}

TEST(LlmParallel, ExpertParallelMovesTokensNotWeightSlices) {
  // Mixtral (8 experts, top-2) at tp 2 with --ep: each device holds 4 whole experts, routes
  // N/2 tokens, sends (P−1)/P of their k copies away and receives as many (both counted), and
  // computes N·k/2 rows; without --ep it holds half of every expert and computes N·k rows.
  const ModelConfig& m = preset("mixtral-8x7b");
  const double B = 16, d = 4096, ff = 14336, E = 8, k = 2, s = 2;
  Scenario tp = scenario(B, 512, 512);
  tp.tp = 2;
  Scenario ep = tp;
  ep.ep = true;
  const StepCost a = step_cost(m, tp, Phase::decode), b = step_cost(m, ep, Phase::decode);
  const double touched = E * (1 - std::pow(1 - k / E, B));
  EXPECT_DOUBLE_EQ(op(a, "expert gate").weights.value, touched * d * ff / 2 * s);
  // Expert parallel: the busiest device's expected distinct experts (of its 4), not the mean.
  const ExpertLoad load = expert_parallel_load(E, k, 2, B);
  EXPECT_DOUBLE_EQ(load.touched_mean, touched / 2);
  EXPECT_GT(load.touched_busiest, load.touched_mean);
  EXPECT_LE(load.touched_busiest, 4);
  EXPECT_DOUBLE_EQ(op(b, "expert gate").weights.value, load.touched_busiest * d * ff * s);
  EXPECT_DOUBLE_EQ(op(a, "expert gate").work.value, 2 * B * k * d * ff / 2);
  EXPECT_DOUBLE_EQ(load.rows_busiest, B * k / 2);  // 16 rows ≥ the ~4 experts touched
  EXPECT_DOUBLE_EQ(op(b, "expert gate").work.value, 2 * (B * k / 2) * d * ff);
  const double copies = (B / 2) * k * d * s * (1.0 / 2);
  EXPECT_DOUBLE_EQ(op(b, "expert dispatch").traffic().value, 2 * copies);
  EXPECT_DOUBLE_EQ(op(b, "expert combine").traffic().value, 2 * copies);
  EXPECT_TRUE(op(b, "expert dispatch").interconnect);
  EXPECT_EQ(op(b, "expert dispatch").hops, 1);
  EXPECT_EQ(op(b, "expert dispatch").count, 32);
  // The weights per device are the same either way (E/P whole experts = E halves).
  EXPECT_DOUBLE_EQ(footprint(m, ep, a100()).weights.value, footprint(m, tp, a100()).weights.value);
  // --ep needs experts and a group to spread them over.
  Scenario dense = scenario(1, 512, 512);
  dense.tp = 2;
  dense.ep = true;
  EXPECT_THROW(validate_scenario(preset("llama-2-7b"), dense), InputError);
  ep.tp = 1;
  EXPECT_THROW(validate_scenario(m, ep), InputError);
}

TEST(LlmParallel, ContextParallelSplitsThePromptAndRingsKv) {
  // Llama-3-8B prefill of S = 8192 over cp = 4: each device computes S/4 rows, 1/4 of the
  // causal pairs, and passes K/V around the ring: (cp−1)/cp of the sequence's K and V sent and
  // as much received per layer, in cp − 1 steps.
  const ModelConfig& m = preset("llama-3-8b");
  const double S = 8192, cp = 4, s = 2;
  Scenario one = scenario(1, S, S);
  one.flash = true;
  Scenario four = one;
  four.cp = 4;
  const StepCost a = step_cost(m, one, Phase::prefill), b = step_cost(m, four, Phase::prefill);
  EXPECT_DOUBLE_EQ(op(b, "q_proj").work.value, op(a, "q_proj").work.value / cp);
  EXPECT_DOUBLE_EQ(op(b, "attention (fused)").work.value,
                   op(a, "attention (fused)").work.value / cp);
  const OpCost& ring = op(b, "ring K/V exchange");
  EXPECT_DOUBLE_EQ(ring.traffic().value, 2 * (cp - 1) / cp * S * (2 * 8 * 128 * s));
  EXPECT_EQ(ring.hops, 3);
  EXPECT_EQ(ring.count, 32);
  // Decode over cp = 2: every device computes the token's linear layers, attends over its half
  // of the cache and all-reduces the partial outputs (B·H·hd elements).
  Scenario dec = scenario(2, 8192, 8192);
  dec.cp = 2;
  const StepCost c = step_cost(m, dec, Phase::decode);
  const StepCost c1 = step_cost(m, scenario(2, 8192, 8192), Phase::decode);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ").kv.value, op(c1, "q·kᵀ").kv.value / 2);
  EXPECT_DOUBLE_EQ(op(c, "q_proj").work.value, op(c1, "q_proj").work.value);
  EXPECT_DOUBLE_EQ(op(c, "attention combine").traffic().value, 4.0 * 1 / 2 * 2 * 32 * 128 * s);
  // The cache per device halves.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, dec, 2, 8192).value,
                   kv_cache_bytes(m, scenario(2, 8192, 8192), 2, 8192).value / 2);
  // Each device holds at least one of the prompt's tokens: cp = prompt is the limit.
  Scenario thin = scenario(1, 2048, 2048);
  thin.cp = 2048;
  EXPECT_NO_THROW(validate_scenario(m, thin));
  thin.cp = 4096;
  try {
    validate_scenario(m, thin);
    ADD_FAILURE() << "--cp 4096 over a 2048-token prompt was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--cp 4096 exceeds the prompt's 2048 tokens"),
              std::string::npos)
        << e.what();
  }
}

TEST(LlmParallel, PipelineStagesAndBubbles) {
  // GPipe (Huang et al. 2019): m micro-batches through p equal stages take (m + p − 1) stage
  // times; the bubble is (p − 1)/(m + p − 1). The slowest stage runs layers/p of the layers and
  // the heavier end (the LM head on the last stage); a micro-batch's path is every stage once.
  const ModelConfig& m = preset("llama-2-70b");
  Scenario s = scenario(16, 2048, 2048);
  s.pp = 4;
  s.micro_batches = 4;
  const Roofs r = a100();
  const PipelineStep p = pipeline_step(m, s, Phase::decode, r);
  EXPECT_DOUBLE_EQ(p.bubble, 3.0 / 7);
  EXPECT_EQ(p.micro_batch, 4);
  Scenario micro = s;
  micro.batch = 4;
  const StepResult st = evaluate_step(m, micro, Phase::decode, r);
  double layers = 0, head = 0, embedding = 0;
  for (std::size_t i = 0; i < st.cost.size; ++i) {
    const double t = st.timing[i].time.value * st.cost.ops[i].count;
    if (st.cost.ops[i].per_layer)
      layers += t;
    else if (st.cost.ops[i].kind != OpKind::embedding)
      head += t;
    else
      embedding += t;
  }
  EXPECT_NEAR(p.stage.value, layers / 4 + head, 1e-15);
  // One micro-batch's hidden states (4 tokens × 8192, fp16) cross a boundary: sent + received.
  EXPECT_DOUBLE_EQ(p.transfer_bytes.value, 2 * 4 * 8192 * 2.0);
  EXPECT_NEAR(p.transfer.value, 2 * 4 * 8192 * 2.0 / 600e9, 1e-18);
  // The path: the whole step (every stage once) and the 3 boundaries between 4 stages; then 3
  // more micro-batches, each behind the slowest stage. Full, the pipe's period is 4 slowest
  // stages (> the path and the sampled tokens' trip back to the first stage).
  const double per = p.stage.value + p.transfer.value;
  const double path = layers + head + embedding + 3 * p.transfer.value;
  EXPECT_NEAR(p.path.value, path, 1e-15);
  EXPECT_NEAR(p.path.value, st.time.value + 3 * p.transfer.value, 1e-12);
  EXPECT_NEAR(p.token_return.value, 2 * 4 * 4.0 / 600e9, 1e-18);  // 4 int32 ids, no α given
  EXPECT_NEAR(p.fill_drain.value, path + 3 * per, 1e-15);
  EXPECT_LT(p.fill_drain.value, 7 * per);  // equal stages would take 7 × the slowest
  EXPECT_NEAR(p.steady.value, 4 * per, 1e-15);
  // The report takes TTFT from the prefill's fill and drain, time per token from the steady
  // decode, and each device holds a quarter of the layers.
  const Report rep = analyse(m, s, Phase::decode, r);
  ASSERT_TRUE(rep.pipeline_decode.has_value());
  EXPECT_DOUBLE_EQ(rep.time_per_token.value, p.steady.value);
  EXPECT_DOUBLE_EQ(rep.tokens_per_s, 16 / p.steady.value);
  Scenario flat = s;
  flat.pp = 1;
  const double whole = footprint(m, flat, r).weights.value;
  const double stage = footprint(m, s, r).weights.value;
  EXPECT_NEAR(stage / whole, 0.25, 0.01);
  // One stage is the plain step.
  flat.micro_batches = 0;
  const PipelineStep none = pipeline_step(m, flat, Phase::decode, r);
  EXPECT_DOUBLE_EQ(none.steady.value, evaluate_step(m, flat, Phase::decode, r).time.value);
  EXPECT_EQ(none.bubble, 0);
  // One micro-batch over 32 stages of Llama-2-7B: nothing overlaps, a decode step is the path
  // (the whole step and 31 boundaries) and the token ids' return, not 32 × the stage holding
  // the LM head.
  Scenario deep = scenario(1, 2048, 2048);
  deep.pp = 32;
  const PipelineStep d = pipeline_step(preset("llama-2-7b"), deep, Phase::decode, r);
  Scenario deep_one = deep;
  deep_one.pp = 1;
  const double whole_step =
      evaluate_step(preset("llama-2-7b"), deep_one, Phase::decode, r).time.value;
  EXPECT_EQ(d.micro_batches, 1);
  EXPECT_NEAR(d.steady.value, whole_step + 31 * d.transfer.value + d.token_return.value, 1e-12);
  EXPECT_NEAR(d.fill_drain.value, whole_step + 31 * d.transfer.value, 1e-12);
  EXPECT_LT(d.steady.value, 0.8 * 32 * (d.stage.value + d.transfer.value));
  // More micro-batches than sequences, or stages than layers, are refused.
  s.micro_batches = 32;
  EXPECT_THROW(pipeline_step(m, s, Phase::decode, r), InputError);
  EXPECT_EQ(replica_devices(s), 4);
}

// P stages have P − 1 hidden-state boundaries; the trip back to stage 0 carries the sampled
// token ids (4 bytes a sequence), one message. Llama-2-7B, pp 4, α = 2 µs: the path was the
// step + 4 × 39.28 µs; it is the step + 3 boundaries, and a decode step adds α + 8 bytes.
TEST(LlmParallel, APipelineHasOneBoundaryFewerThanStages) {
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s = scenario(1, 2048, 2048);
  s.pp = 4;
  Roofs r = a100();
  r.link_latency = Seconds(2e-6);
  const PipelineStep p = pipeline_step(m, s, Phase::decode, r);
  Scenario flat = s;
  flat.pp = 1;
  const double whole = evaluate_step(m, flat, Phase::decode, r).time.value;
  const double boundary = 2 * 4096 * 2.0 / 600e9 + 2e-6;  // one row of d fp16, sent + received
  EXPECT_NEAR(p.transfer.value, boundary, 1e-15);
  EXPECT_NEAR(p.path.value, whole + 3 * boundary, 1e-12);
  const double back = 2 * 4.0 / 600e9 + 2e-6;
  EXPECT_NEAR(p.token_return.value, back, 1e-15);
  EXPECT_NEAR(p.steady.value, whole + 3 * boundary + back, 1e-12);
  // A prefill ends when the last stage has the logits: no return.
  const PipelineStep pre = pipeline_step(m, s, Phase::prefill, r);
  EXPECT_NEAR(pre.fill_drain.value, pre.path.value, 1e-15);
  // The serving simulation's stage times sum to the same: 3 boundaries and the return.
  const StepResult step = evaluate_step(m, flat, Phase::decode, r);
  double sum = 0;
  for (const Seconds t : pipeline_stage_times(m, s, step, 0, 1, 1, r)) sum += t.value;
  EXPECT_NEAR(sum, p.steady.value, 1e-12);
}

// Expert parallelism's busiest device: the expected maximum over devices of the distinct
// experts touched equals a brute-force enumeration of every routing of T tokens (each a
// k-subset of E, uniform and independent) for small E.
double enumerated_busiest(unsigned E, int k, unsigned P, std::size_t T) {
  std::vector<unsigned> subsets;
  for (unsigned mask = 0; mask < (1u << E); ++mask)
    if (__builtin_popcount(mask) == k) subsets.push_back(mask);
  const unsigned G = E / P;
  double total = 0, count = 0;
  std::vector<std::size_t> pick(T, 0);
  while (true) {
    unsigned touched = 0;
    for (std::size_t t = 0; t < T; ++t) touched |= subsets[pick[t]];
    int most = 0;
    for (unsigned g = 0; g < P; ++g)
      most = std::max(most, __builtin_popcount(touched & (((1u << G) - 1) << (g * G))));
    total += most;
    count += 1;
    std::size_t t = 0;
    while (t < T && ++pick[t] == subsets.size()) pick[t++] = 0;
    if (t == T) break;
  }
  return total / count;
}

TEST(LlmParallel, ExpertParallelBusiestDeviceIsExact) {
  struct Case {
    unsigned E;
    int k;
    unsigned P;
    std::size_t T;
  };
  for (const Case c : {Case{4, 2, 2, 1}, Case{4, 2, 2, 2}, Case{4, 2, 2, 3}, Case{6, 2, 3, 2},
                       Case{8, 3, 4, 2}, Case{8, 2, 2, 3}, Case{9, 2, 3, 3}}) {
    const ExpertLoad l = expert_parallel_load(c.E, c.k, c.P, static_cast<double>(c.T));
    EXPECT_NEAR(l.touched_busiest, enumerated_busiest(c.E, c.k, c.P, c.T), 1e-12)
        << c.E << " experts, top-" << c.k << ", " << c.P << " devices, " << c.T << " tokens";
    EXPECT_GE(l.touched_busiest, l.touched_mean);
    EXPECT_GE(l.rows_busiest, static_cast<double>(c.T) * c.k / c.P);
  }
  // DeepSeek-V3 (256 experts, top-8, 8 devices of 32), one token: the largest part of a uniform
  // 8-subset over 8 groups of 32, from the multivariate hypergeometric law by enumeration.
  double expected = 0;
  const double all = std::exp(std::lgamma(257.0) - std::lgamma(9.0) - std::lgamma(249.0));
  auto choose = [](int n, int r) {
    return std::exp(std::lgamma(n + 1.0) - std::lgamma(r + 1.0) - std::lgamma(n - r + 1.0));
  };
  std::vector<int> c(8, 0);
  std::function<void(std::size_t, int)> parts = [&](std::size_t g, int left) {
    if (g == 7) {
      c[7] = left;
      double prob = 1;
      for (int x : c) prob *= choose(32, x);
      expected += *std::max_element(c.begin(), c.end()) * prob / all;
      return;
    }
    for (int x = 0; x <= left; ++x) {
      c[g] = x;
      parts(g + 1, left - x);
    }
  };
  parts(0, 8);
  const ExpertLoad v3 = expert_parallel_load(256, 8, 8, 1);
  EXPECT_NEAR(v3.touched_busiest, expected, 1e-10);
  EXPECT_DOUBLE_EQ(v3.touched_mean, 1);
  EXPECT_DOUBLE_EQ(v3.rows_busiest, v3.touched_busiest);  // each touched expert has its row
  // Many tokens touch every expert: the busiest device reads all of its own.
  EXPECT_DOUBLE_EQ(expert_parallel_load(8, 2, 8, 4096).touched_busiest, 1);
  EXPECT_NEAR(expert_parallel_load(256, 8, 8, 100000).touched_busiest, 32, 1e-9);
  // A bisection's batches reach 1e12 tokens: the chain stops once all but 1e-15 of the mass
  // has every expert touched (it waited for p[E] > 1 − 1e-15, which rounding can keep from
  // happening, and stepped 1e12 times: `llm` on Mixtral with --ep took minutes).
  EXPECT_DOUBLE_EQ(expert_parallel_load(8, 2, 8, 1e12).touched_busiest, 1);
  EXPECT_DOUBLE_EQ(expert_parallel_load(8, 2, 4, 1e12 + 0.5).touched_busiest, 2);
}

// Mixtral at tp 8 with --ep, batch 1: the two routed experts sit on two devices, each reading
// a whole expert (3 matrices × 32 layers × 117.4 MB) while six idle. The step waits for them:
// it was costed at the mean (2/8 of an expert per device), the same as tensor-parallel experts.
TEST(LlmParallel, ExpertParallelWaitsForTheBusiestDevice) {
  const ModelConfig& m = preset("mixtral-8x7b");
  Scenario tp = scenario(1, 2048, 2048);
  tp.tp = 8;
  Scenario ep = tp;
  ep.ep = true;
  const StepCost a = step_cost(m, tp, Phase::decode), b = step_cost(m, ep, Phase::decode);
  const double expert = 4096.0 * 14336 * 2;  // one matrix of one expert, fp16: 117.4 MB
  EXPECT_DOUBLE_EQ(op(b, "expert gate").weights.value, expert);
  EXPECT_DOUBLE_EQ(op(a, "expert gate").weights.value, 2 * expert / 8);       // 1/8 of 2 experts
  EXPECT_DOUBLE_EQ(op(b, "expert gate").work.value, 2 * 1 * 4096.0 * 14336);  // its one row
  const Roofs r = a100();
  const double t_ep = evaluate_step(m, ep, Phase::decode, r).time.value;
  const double t_tp = evaluate_step(m, tp, Phase::decode, r).time.value;
  EXPECT_GT(t_ep, t_tp + 3 * 32 * expert * 0.75 / r.bandwidth.value);
  // DeepSeek-V3 too (its MoE layers; dense layers and the shared expert as before).
  const ModelConfig& v3 = preset("deepseek-v3");
  Scenario vtp = scenario(1, 2048, 2048);
  vtp.tp = 8;
  Scenario vep = vtp;
  vep.ep = true;
  const StepCost c = step_cost(v3, vep, Phase::decode);
  const double v3_expert = 7168.0 * 2048 * 2;
  EXPECT_NEAR(op(c, "expert gate").weights.value,
              expert_parallel_load(256, 8, 8, 1).touched_busiest * v3_expert, 1e-3);
  EXPECT_EQ(op(c, "expert gate").count, 58);
}

TEST(LlmParallel, AMicroBatchTheBatchDoesNotDivideIsNamedAnAverage) {
  // 8 sequences over 3 micro-batches are modelled at 8/3 each: the text says it is an average
  // of micro-batches of 2 and 3 (it read "3 micro-batches of 2.667 sequences").
  Scenario s = scenario(8, 2048, 2048);
  s.pp = 2;
  s.micro_batches = 3;
  const std::string text = render_text(analyse(preset("llama-2-7b"), s, Phase::decode, a100()));
  EXPECT_NE(text.find("3 micro-batches of 2.667 sequences on average (2 and 3)"), std::string::npos)
      << text;
  s.micro_batches = 4;
  const std::string even = render_text(analyse(preset("llama-2-7b"), s, Phase::decode, a100()));
  EXPECT_NE(even.find("4 micro-batches of 2 sequences\n"), std::string::npos) << even;
}

// --measured-tokens-per-s with --dp is of all replicas, as the "tokens/s in all" line above it:
// each replica ran the step at X / R. It was compared with one replica's prediction (6000
// tokens/s over 4 replicas of Llama-3-8B on an H100 called 386% of the prediction, impossible).
TEST(LlmMeasured, AMeasurementOfAllReplicasIsJudgedPerReplica) {
  const ModelConfig& m = preset("llama-3-8b");
  const Roofs r = a100();
  Scenario s;
  s.batch = 8;
  s.context = s.prompt = 2048;
  const double predicted = analyse(m, s, Phase::decode, r).tokens_per_s;
  const double per_replica = 0.9 * predicted;
  const Report one = analyse(m, s, Phase::decode, r, per_replica);
  AnalyseOptions o;
  o.measured_tokens_per_s = 4 * per_replica;
  o.replicas = 4;
  const Report all = analyse(m, s, Phase::decode, r, o);
  ASSERT_TRUE(all.measured && one.measured);
  EXPECT_DOUBLE_EQ(all.measured->tokens_per_s, 4 * per_replica);
  EXPECT_EQ(all.measured->replicas, 4);
  EXPECT_DOUBLE_EQ(all.measured->of_roofline, one.measured->of_roofline);
  EXPECT_NEAR(all.measured->of_roofline, 0.9, 1e-12);
  EXPECT_DOUBLE_EQ(all.measured->mfu, one.measured->mfu);
  EXPECT_DOUBLE_EQ(all.measured->bandwidth, one.measured->bandwidth);
  EXPECT_TRUE(all.measured->above_roof.empty());
  EXPECT_NE(render_text(all).find("Measured " + format_number(4 * per_replica, 6) +
                                  " tokens/s (decode, all 4 replicas)\n  per replica " +
                                  format_number(per_replica, 6) + " tokens/s"),
            std::string::npos)
      << render_text(all);
  // Above one replica's roofs: said of all replicas.
  o.measured_tokens_per_s = 4 * 1.2 * predicted;
  const Report over = analyse(m, s, Phase::decode, r, o);
  ASSERT_FALSE(over.warnings.empty());
  EXPECT_EQ(over.warnings.back().rfind("the measured " + format_number(4 * 1.2 * predicted, 6) +
                                           " tokens/s (decode, all 4 replicas) is above the roofs",
                                       0),
            0u)
      << over.warnings.back();
  o.replicas = 0.5;
  EXPECT_THROW(analyse(m, s, Phase::decode, r, o), InputError);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
