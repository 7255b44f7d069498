// Event tables and counter arithmetic on recorded readings (Intel and AMD), no PMU needed.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"

using namespace roofline::counters;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kData = fs::path(ROOFLINE_TEST_DATA) / "import";

const EventSpec* find(const std::vector<EventSpec>& es, const std::string& name) {
  for (const auto& e : es)
    if (e.name == name) return &e;
  return nullptr;
}

/// Readings of a recording, re-ordered to match `events` by name (the plan decides the weights).
std::vector<Reading> readings_for(const std::vector<EventSpec>& events, const RunResult& rec) {
  std::vector<Reading> out;
  for (const auto& e : events) {
    Reading r;
    r.name = e.name;
    for (const auto& x : rec.readings)
      if (x.name == e.name) r = x;
    out.push_back(r);
  }
  return out;
}

TEST(CounterPlan, ParsesCpuinfo) {
  const auto c = parse_cpuinfo(
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
      "model name\t: Intel(R) Xeon(R) Platinum 8380\n\nprocessor\t: 1\nvendor_id\t: Other\n");
  EXPECT_EQ(c.vendor, "GenuineIntel");
  EXPECT_EQ(c.family, 6);
  EXPECT_EQ(c.model, 106);
  EXPECT_EQ(c.model_name, "Intel(R) Xeon(R) Platinum 8380");
  EXPECT_TRUE(c.is_intel());
}

TEST(CounterPlan, IntelAvx512ServerCountsEveryWidthWithLanes) {
  const auto p = core_event_plan({"GenuineIntel", 6, 0x6A, ""});
  const EventSpec* d512 = find(p.events, "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE");
  ASSERT_NE(d512, nullptr);
  EXPECT_EQ(d512->config, 0x40C7u);  // event 0xC7, umask 0x40 (Intel SDM)
  EXPECT_DOUBLE_EQ(d512->weight, 8);
  EXPECT_EQ(d512->precision, "fp64");
  const EventSpec* s256 = find(p.events, "FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE");
  ASSERT_NE(s256, nullptr);
  EXPECT_EQ(s256->config, 0x20C7u);
  EXPECT_DOUBLE_EQ(s256->weight, 8);
  const EventSpec* l1 = find(p.events, "L1D.REPLACEMENT");
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(l1->config, 0x0151u);
  EXPECT_EQ(find(p.events, "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF"), nullptr);
  // Groups fit in 4 general-purpose counters.
  std::map<int, int> per_group;
  for (const auto& e : p.events) per_group[e.group]++;
  for (const auto& [g, n] : per_group) EXPECT_LE(n, 4) << "group " << g;
  // The known limits are stated.
  std::string limits;
  for (const auto& l : p.limits) limits += l + "\n";
  EXPECT_NE(limits.find("masked"), std::string::npos);
  EXPECT_NE(limits.find("AMX"), std::string::npos);
}

TEST(CounterPlan, SapphireRapidsAddsHalfPrecisionAndHaswellHasNoFlops) {
  const auto spr = core_event_plan({"GenuineIntel", 6, 0x8F, ""});
  const EventSpec* h = find(spr.events, "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->config, 0x10CFu);
  EXPECT_DOUBLE_EQ(h->weight, 32);
  EXPECT_EQ(h->precision, "fp16");
  EXPECT_EQ(find(spr.events, "L2_LINES_IN.ALL")->config, 0x1F25u);
  const auto client = core_event_plan({"GenuineIntel", 6, 0x9E, ""});  // Coffee Lake: no AVX-512
  EXPECT_EQ(find(client.events, "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE"), nullptr);
  EXPECT_NE(find(client.events, "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE"), nullptr);
  const auto hsw = core_event_plan({"GenuineIntel", 6, 0x3F, ""});
  EXPECT_TRUE(hsw.events.empty());
  ASSERT_FALSE(hsw.missing.empty());
  EXPECT_NE(hsw.missing[0].find("Broadwell"), std::string::npos);
}

TEST(CounterPlan, IntelModelsAreListedNotInferred) {
  // Sierra Forest (Atom cores only) counts FP_FLOPS_RETIRED 0xC8: no FP_ARITH_INST_RETIRED.
  const auto srf = core_event_plan({"GenuineIntel", 6, 0xAF, ""});
  EXPECT_TRUE(srf.events.empty());
  ASSERT_EQ(srf.missing.size(), 1u);
  EXPECT_EQ(srf.missing[0].rfind("W: no FLOP events known for this CPU model (Intel family 6 "
                                 "model 0xAF): an Atom-core part",
                                 0),
            0u)
      << srf.missing[0];
  // A model not in the list (a future one) is not taken for "Broadwell or later".
  const auto future = core_event_plan({"GenuineIntel", 6, 0xF0, ""});
  EXPECT_TRUE(future.events.empty());
  ASSERT_FALSE(future.missing.empty());
  EXPECT_NE(future.missing[0].find("no FLOP events known for this CPU model"), std::string::npos);
  EXPECT_TRUE(core_event_plan({"GenuineIntel", 19, 0x01, ""}).events.empty());
}

TEST(CounterPlan, IntelHybridCountsPCoresWithGoldenCoveL2) {
  for (int model : {0x97, 0xB7, 0xAA}) {  // Alder Lake, Raptor Lake, Meteor Lake
    const auto p = core_event_plan({"GenuineIntel", 6, model, ""}, "cpu_core");
    const EventSpec* l2 = find(p.events, "L2_LINES_IN.ALL");
    ASSERT_NE(l2, nullptr);
    EXPECT_EQ(l2->config, 0x1F25u) << model;  // event 0x25 umask 0x1F (alderlake/meteorlake)
    EXPECT_EQ(l2->pmu, "cpu_core");
    EXPECT_EQ(find(p.events, "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE"), nullptr);
    EXPECT_EQ(find(p.events, "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE")->config, 0x10C7u);
    std::string limits;
    for (const auto& l : p.limits) limits += l + "\n";
    EXPECT_NE(limits.find("only the P-cores are counted (the cpu_core PMU)"), std::string::npos);
  }
  // Before Golden Cove: event 0xF1.
  const auto icl = core_event_plan({"GenuineIntel", 6, 0x7E, ""});
  EXPECT_EQ(find(icl.events, "L2_LINES_IN.ALL")->config, 0x1FF1u);
  for (const auto& l : icl.limits) EXPECT_EQ(l.find("P-cores"), std::string::npos);
}

TEST(CounterPlan, AmdAllUmaskPerZenGeneration) {
  // amdzen3: fp_ret_sse_avx_ops.all umask 0xff; amdzen4: 0x1f (family 19h models 10h-1Fh,
  // 60h-7Fh, A0h-AFh are Zen 4 by Linux's mapfile).
  EXPECT_EQ(core_event_plan({"AuthenticAMD", 0x19, 0x21, ""}).events.at(0).config, 0xFF03u);
  const auto z4 = core_event_plan({"AuthenticAMD", 0x19, 0x11, ""});
  ASSERT_EQ(z4.events.size(), 1u);
  EXPECT_EQ(z4.events[0].config, 0x1F03u);
  EXPECT_EQ(core_event_plan({"AuthenticAMD", 0x19, 0x61, ""}).events.at(0).config, 0x1F03u);
  // Zen 5: per data type with all four operation bits (likwid's 0x8F/0xAF, 0x4F/0x6F, 0x2F;
  // Linux's amdzen5 list gives the data-type bits only, 0x80 ... 0x20, which would count no
  // operation if bits 3:0 select as on every earlier generation).
  const auto z5 = core_event_plan({"AuthenticAMD", 0x1A, 0x02, ""});
  std::map<std::string, std::vector<std::uint64_t>> by_prec;
  std::map<int, int> per_group;
  for (const auto& e : z5.events) {
    by_prec[e.precision].push_back(e.config);
    per_group[e.group]++;
    EXPECT_DOUBLE_EQ(e.weight, 1);
  }
  EXPECT_EQ(by_prec["fp64"], (std::vector<std::uint64_t>{0x8F03u, 0xAF03u}));
  EXPECT_EQ(by_prec["fp32"], (std::vector<std::uint64_t>{0x4F03u, 0x6F03u}));
  EXPECT_EQ(by_prec["bf16"], (std::vector<std::uint64_t>{0x2F03u}));
  EXPECT_EQ(by_prec.count("fp"), 0u);
  EXPECT_EQ(z5.events[1].name, "fp_ret_sse_avx_ops.packed_double_flops (PMCx003 umask 0xAF)");
  // Each PMCx003 takes two of the six counters (MergeEvent): at most two to a group.
  for (const auto& [g, n] : per_group) EXPECT_LE(n, 2) << "group " << g;
}

TEST(CounterPlan, AmdZen1SplitsPrecisionsZen2AndZen3DoNot) {
  // Zen/Zen+ (family 17h models 00h-2Fh, Linux amdzen1): bits 7:4 double, 3:0 single.
  for (int model : {0x01, 0x08, 0x18, 0x2F}) {
    const auto z1 = core_event_plan({"AuthenticAMD", 0x17, model, ""});
    ASSERT_EQ(z1.events.size(), 2u) << model;
    EXPECT_EQ(z1.events[0].config, 0xF003u);
    EXPECT_EQ(z1.events[0].precision, "fp64");
    EXPECT_EQ(z1.events[1].config, 0x0F03u);
    EXPECT_EQ(z1.events[1].precision, "fp32");
  }
  // Zen 2 (models 30h and up, Linux amdzen2): bits 3:0 select the operation for every
  // precision, bits 7:4 mean nothing — 0x0F is every FLOP, not "single precision", and 0xF0 is
  // not double precision. One event, precisions not separated.
  for (int model : {0x31, 0x60, 0x71, 0x90}) {
    const auto z2 = core_event_plan({"AuthenticAMD", 0x17, model, ""});
    ASSERT_EQ(z2.events.size(), 1u) << model;
    EXPECT_EQ(z2.events[0].config, 0x0F03u);
    EXPECT_EQ(z2.events[0].precision, "fp");
    std::string limits;
    for (const auto& l : z2.limits) limits += l;
    EXPECT_NE(limits.find("AMD Zen 2: PMCx003 does not separate precisions"), std::string::npos);
  }
  const auto z3 = core_event_plan({"AuthenticAMD", 0x19, 0x01, ""});
  ASSERT_EQ(z3.events.size(), 1u);
  EXPECT_EQ(z3.events[0].config, 0xFF03u);
  EXPECT_EQ(z3.events[0].precision, "fp");
  std::string limits;
  for (const auto& l : z3.limits) limits += l;
  EXPECT_NE(limits.find("MergeEvent"), std::string::npos);
  const auto other = core_event_plan({"SomeVendor", 1, 1, ""});
  EXPECT_TRUE(other.events.empty());
  EXPECT_FALSE(other.missing.empty());
}

TEST(CounterPlan, LineFillsAreCountedAtTheLevelThatServesThem) {
  // Broadwell L2_LINES_IN.ALL is umask 0x07 (I, S and E states; Linux broadwell and broadwellx
  // cache.json); 0x1F from Skylake on.
  for (int model : {0x3D, 0x47, 0x56, 0x4F}) {
    const auto bdw = core_event_plan({"GenuineIntel", 6, model, ""});
    const EventSpec* l2 = find(bdw.events, "L2_LINES_IN.ALL");
    ASSERT_NE(l2, nullptr) << model;
    EXPECT_EQ(l2->config, 0x07F1u) << model;
  }
  EXPECT_EQ(find(core_event_plan({"GenuineIntel", 6, 0x4E, ""}).events, "L2_LINES_IN.ALL")->config,
            0x1FF1u);
  // L1D.REPLACEMENT counts lines L2 delivers into L1: Q(L2); L2_LINES_IN.ALL lines delivered
  // into L2 from L3 or memory: Q(L3).
  const auto icx = core_event_plan({"GenuineIntel", 6, 0x6A, ""});
  EXPECT_EQ(find(icx.events, "L1D.REPLACEMENT")->level, "L2");
  EXPECT_EQ(find(icx.events, "L2_LINES_IN.ALL")->level, "L3");
  EXPECT_DOUBLE_EQ(find(icx.events, "L1D.REPLACEMENT")->weight, 64);
}

TEST(CounterMath, EncodesSysfsFormats) {
  const std::map<std::string, std::string> f = {{"event", "config:0-7,32-35"},
                                                {"umask", "config:8-15"}};
  EXPECT_EQ(encode_config(f, "event=0x04,umask=0x0f"), 0x0F04u);
  // 0x107: low 8 bits to 0-7, the rest to 32-35 (AMD DF channel 4).
  EXPECT_EQ(encode_config(f, "event=0x107,umask=0x38"), 0x100003807ull);
  EXPECT_THROW(encode_config(f, "event=0x1000,umask=0x1"), roofline::InputError);
  EXPECT_THROW(encode_config(f, "edge=1"), roofline::InputError);
}

TEST(CounterMath, ScalesMultiplexedCounters) {
  EXPECT_DOUBLE_EQ(*scaled_value({"x", 100, 1000, 1000}), 100);
  EXPECT_DOUBLE_EQ(*scaled_value({"x", 100, 1000, 250}), 400);
  EXPECT_FALSE(scaled_value({"x", 0, 1000, 0}).has_value());
}

TEST(CounterMath, DramEventsFromIntelSysfs) {
  EventPlan p;
  add_dram_events(p, {"GenuineIntel", 6, 0x6A, ""}, kData / "sysfs" / "intel-icx");
  ASSERT_EQ(p.events.size(), 4u);  // 2 channels × read/write
  for (const auto& e : p.events) {
    EXPECT_EQ(e.role, Role::dram);
    EXPECT_TRUE(e.system_wide);
    EXPECT_NEAR(e.weight, 64.0, 1e-9);  // 6.103515625e-5 MiB
  }
  EXPECT_EQ(p.events[0].config, 0x0F04u);
  EXPECT_EQ(p.events[0].type, 14u);
  EXPECT_EQ(p.events[1].config, 0x3004u);
  EXPECT_TRUE(p.missing.empty());
}

TEST(CounterMath, DramEventsFromAmdDataFabricAndMissingOnAVm) {
  EventPlan p;
  add_dram_events(p, {"AuthenticAMD", 0x19, 0x01, ""}, kData / "sysfs" / "amd-zen3");
  ASSERT_EQ(p.events.size(), 8u);
  EXPECT_EQ(p.events[0].config, 0x3807u);
  EXPECT_EQ(p.events[4].config, 0x100003807ull);
  EventPlan vm;
  add_dram_events(vm, {"AuthenticAMD", 0x19, 0x01, ""}, kData / "sysfs" / "kvm-no-pmu");
  EXPECT_TRUE(vm.events.empty());
  ASSERT_EQ(vm.missing.size(), 1u);
  EXPECT_NE(vm.missing[0].find("no memory-controller PMU"), std::string::npos);
}

TEST(CounterFixtures, IntelIceLakeDgemm) {
  const auto rec =
      recording_from_json(roofline::read_text_file(kData / "perf-intel-icx-dgemm.json"), "intel");
  // The plan for this CPU and the sysfs fixture decide the events and weights.
  const CpuIdentity cpu{"GenuineIntel", 6, 106, ""};
  EventPlan plan = core_event_plan(cpu);
  add_dram_events(plan, cpu, kData / "sysfs" / "intel-icx");
  auto events = software_events();
  events.insert(events.end(), plan.events.begin(), plan.events.end());
  const auto readings = readings_for(events, rec);
  const CounterTotals t = combine(events, readings);
  // fp64: 750000·(4/3)·1 + 187.5e6·(4/3)·8 (multiplexed 75%)
  EXPECT_DOUBLE_EQ(t.flops_by_precision.at("fp64"), 2.001e9);
  // fp32: 2000·2·1 + 500·2·8 (multiplexed 50%)
  EXPECT_DOUBLE_EQ(t.flops_by_precision.at("fp32"), 12000);
  EXPECT_DOUBLE_EQ(t.flops, 2.001012e9);
  EXPECT_DOUBLE_EQ(t.bytes_by_level.at("DRAM"), 8e6 * 64);
  EXPECT_DOUBLE_EQ(t.bytes_by_level.at("L2"), 1e8 * 64);  // L1D.REPLACEMENT
  EXPECT_DOUBLE_EQ(t.bytes_by_level.at("L3"), 2e7 * 64);  // L2_LINES_IN.ALL
  EXPECT_EQ(t.bytes_by_level.count("L1"), 0u);
  EXPECT_DOUBLE_EQ(t.cpu_seconds, 0.48);
  EXPECT_DOUBLE_EQ(t.min_running_fraction, 0.5);
  EXPECT_TRUE(t.not_counted.empty());
  // The recording's own weights give the same answer; its levels (written before the line
  // fills were counted at the serving level: "L1", "L2") are read as the table's.
  EXPECT_DOUBLE_EQ(rec.totals.flops, 2.001012e9);
  EXPECT_DOUBLE_EQ(rec.totals.bytes_by_level.at("L2"), 1e8 * 64);
  EXPECT_DOUBLE_EQ(rec.totals.bytes_by_level.at("L3"), 2e7 * 64);
  std::string limits;
  for (const auto& l : rec.plan.limits) limits += l + "\n";
  EXPECT_NE(limits.find("L1D.REPLACEMENT (L1 → L2)"), std::string::npos) << limits;
}

TEST(CounterFixtures, AmdZen3Triad) {
  const auto rec =
      recording_from_json(roofline::read_text_file(kData / "perf-amd-zen3-triad.json"), "amd");
  const CpuIdentity cpu{"AuthenticAMD", 25, 1, ""};
  EventPlan plan = core_event_plan(cpu);
  add_dram_events(plan, cpu, kData / "sysfs" / "amd-zen3");
  auto events = software_events();
  events.insert(events.end(), plan.events.begin(), plan.events.end());
  const CounterTotals t = combine(events, readings_for(events, rec));
  EXPECT_DOUBLE_EQ(t.flops, 2e9);
  EXPECT_DOUBLE_EQ(t.flops_by_precision.at("fp"), 2e9);
  // 8 channels × 5e6 beats × 2 (50% running) × 64 B
  EXPECT_DOUBLE_EQ(t.bytes_by_level.at("DRAM"), 8 * 1e7 * 64);
  EXPECT_DOUBLE_EQ(t.min_running_fraction, 0.5);
}

TEST(CounterFixtures, CounterThatNeverRanIsReportedNotZero) {
  std::vector<EventSpec> es(2);
  es[0].name = "a";
  es[0].precision = "fp64";
  es[1].name = "b";
  es[1].precision = "fp64";
  es[1].weight = 4;
  const auto t = combine(es, {{"a", 10, 100, 100}, {"b", 0, 100, 0}});
  EXPECT_DOUBLE_EQ(t.flops, 10);
  ASSERT_EQ(t.not_counted.size(), 1u);
  EXPECT_EQ(t.not_counted[0], "b");
  EXPECT_THROW(combine(es, {{"a", 1, 1, 1}}), roofline::InputError);
}

TEST(CounterFixtures, MalformedRecordingNamesTheFile) {
  try {
    recording_from_json(R"({"schema": "roofline.counters", "version": 1, "cpu": {},
      "wall_seconds": 1, "events": [{"name": "x", "role": "flopz", "value": 1,
      "time_enabled": 1, "time_running": 1}]})",
                        "rec.json");
    FAIL() << "expected an error";
  } catch (const roofline::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rec.json: events[0]: role"), std::string::npos)
        << e.what();
  }
}

// A recording's fields of the wrong type or range are errors naming the field, not exceptions of
// the JSON library or an out-of-range conversion (both found by fuzz/fuzz_profile.cpp).
TEST(CounterFixtures, RecordingFieldsOfTheWrongTypeOrRangeAreNamed) {
  const auto message = [](const std::string& text) {
    try {
      recording_from_json(text, "rec.json");
    } catch (const roofline::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string head = R"({"schema": "roofline.counters", "version": 1, "wall_seconds": 1, )";
  const std::string event = R"("name": "x", "role": "flops", "time_enabled": 2, "time_running": 1)";
  EXPECT_EQ(message(R"({"schema": 1, "version": 1})"),
            "rec.json: schema: expected \"roofline.counters\"");
  EXPECT_EQ(message(R"({"schema": "roofline.counters", "version": "1"})"),
            "rec.json: version: expected 1");
  EXPECT_EQ(message(head + R"("cpu": {"family": 1e300}, "events": []})"),
            "rec.json: cpu: family: expected a whole number (got 1e+300)");
  EXPECT_EQ(message(head + R"("cpu": {"vendor": 7}, "events": []})"),
            "rec.json: cpu: vendor: expected a string");
  EXPECT_EQ(message(head + R"("cpu": {}, "exit_status": 3e9, "events": []})"),
            "rec.json: exit_status: expected a whole number (got 3000000000.0)");
  // A status past 255 (it exited 44 for 300), a precision that is no type ("fp99" was printed
  // as one) and a traffic event without its level (its bytes went to level "").
  EXPECT_EQ(message(head + R"("cpu": {}, "exit_status": 300, "events": []})"),
            "rec.json: exit_status: 300 is no exit status (0 to 255)");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{)" + event +
                    R"(, "value": 1, "precision": "fp99"}]})"),
            "rec.json: events[0]: precision: 'fp99' is no data type (fp64, fp32, fp16, bf16, ...)");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{"name": "x", "role": "dram", )"
                           R"("time_enabled": 2, "time_running": 1, "value": 1}]})"),
            "rec.json: events[0]: level: missing (a traffic event names the level it counts)");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{)" + event + R"(, "value": 1e300}]})"),
            "rec.json: events[0]: value: expected a whole number >= 0 (got 1e+300)");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{)" + event + R"(, "value": -1}]})"),
            "rec.json: events[0]: value: expected a whole number >= 0 (got -1)");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [7]})"),
            "rec.json: events[0]: expected an object");
  // The same recording with a whole value is read, also written as a float (Python's
  // json.dump of a float count).
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{)" + event + R"(, "value": 5}]})"),
            "accepted");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{)" + event + R"(, "value": 1000000000.0}]})"),
            "accepted");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [{)" + event + R"(, "value": 2.5}]})"),
            "rec.json: events[0]: value: expected a whole number >= 0 (got 2.5)");
  // A time that is no time, a weight that is no number: named (T = -1 s gave a report, exit 0;
  // the weight a JSON library's type error).
  const std::string tail = R"("cpu": {}, "events": []})";
  const std::string no_wall = R"({"schema": "roofline.counters", "version": 1, )";
  for (const char* wall : {"-1", "0", "\"1\""})
    EXPECT_EQ(
        message(no_wall + "\"wall_seconds\": " + wall + ", " + tail),
        std::string("rec.json: wall_seconds: expected a finite number > 0 (got ") + wall + ")");
  EXPECT_EQ(
      message(head + R"("cpu": {}, "events": [{)" + event + R"(, "value": 5, "weight": "nan"}]})"),
      "rec.json: events[0]: weight: expected a finite number > 0 (got \"nan\")");
  // Texts are one printable line: a line break in a message forged a line of the report.
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [], "missing": ["a\nforged"]})"),
            "rec.json: missing[0]: a control character or line break in \"a\\u000aforged\"");
  EXPECT_EQ(message(head + R"("cpu": {"vendor": "x\u001b[2J"}, "events": []})"),
            "rec.json: cpu: vendor: a control character or line break in \"x\\u001b[2J\"");
  EXPECT_EQ(message(head + R"("cpu": {}, "events": [], "limits": "none"})"),
            "rec.json: limits: expected an array of strings");
}

TEST(MissingPmu, MessageSaysWhatIsMissingAndHowToEnableIt) {
  PmuStatus vm;
  vm.hypervisor = true;
  vm.software_events = true;
  const std::string m = explain_missing(vm);
  EXPECT_NE(m.find("/sys/bus/event_source/devices/cpu is absent"), std::string::npos) << m;
  EXPECT_NE(m.find("virtual machine"), std::string::npos) << m;
  EXPECT_NE(m.find("bare metal"), std::string::npos) << m;
  EXPECT_NE(m.find("T (wall clock)"), std::string::npos) << m;
  EXPECT_NE(m.find("--work/--traffic"), std::string::npos) << m;
  // Given W and Q, the message does not ask for them.
  const std::string given = explain_missing(vm, true);
  EXPECT_EQ(given.find("Give W and Q"), std::string::npos) << given;
  EXPECT_NE(given.find("W and Q from --work/--traffic."), std::string::npos) << given;

  PmuStatus refused;
  refused.core_pmu = "cpu";
  refused.core_error = "Permission denied";
  refused.paranoid = 3;
  const std::string r = explain_missing(refused);
  EXPECT_NE(r.find("perf_event_paranoid is 3"), std::string::npos) << r;
  EXPECT_NE(r.find("CAP_PERFMON"), std::string::npos) << r;
  // At 2 or below paranoid is not the cause ("is 2: needs ≤ 2; lower it" was said).
  refused.paranoid = 2;
  refused.core_error = "No such file or directory";
  const std::string r2 = explain_missing(refused);
  EXPECT_NE(r2.find("perf_event_paranoid is 2, which allows counting your own program"),
            std::string::npos)
      << r2;
  EXPECT_EQ(r2.find("lower it"), std::string::npos) << r2;
  // The folder looked in is named (--sysfs), not always /sys.
  vm.sysfs_root = "/tmp/fake";
  EXPECT_NE(explain_missing(vm).find("(/tmp/fake/cpu is absent)"), std::string::npos);

  PmuStatus ok;
  ok.core_pmu = "cpu";
  ok.core_pmu_usable = true;
  EXPECT_EQ(explain_missing(ok), "");

  ok.uncore_pmus = {"uncore_imc_0"};
  ok.paranoid = 2;
  EXPECT_NE(explain_uncore_missing(ok).find("perf_event_paranoid ≤ 0"), std::string::npos);
  ok.cap_perfmon = true;
  EXPECT_EQ(explain_uncore_missing(ok), "");
  ok.uncore_pmus.clear();
  EXPECT_NE(explain_uncore_missing(ok).find("no memory-controller PMU"), std::string::npos);
}

TEST(ExplainMissing, RunMessagesSayWhatWasNotCountedInOrder) {
  // A live run in a VM without a PMU: why the core and the memory-controller counters are
  // missing; the plan's own gaps are not repeated (nothing was planned to run).
  RunResult vm;
  vm.pmu.software_events = true;
  vm.plan.missing = {"Q(L2): no event on this CPU"};
  auto m = run_messages(vm, true, false);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0], explain_missing(vm.pmu));
  EXPECT_EQ(m[1], explain_uncore_missing(vm.pmu));
  // --events none: no counter was asked for, so none is missing.
  EXPECT_TRUE(run_messages(vm, false, false).empty());

  // A usable core PMU where no FLOP counter ran and nothing is known missing.
  RunResult busy;
  busy.pmu.core_pmu = "cpu";
  busy.pmu.core_pmu_usable = true;
  busy.pmu.uncore_pmus = {"amd_df"};
  busy.pmu.cap_perfmon = true;
  m = run_messages(busy, true, false);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "W: no FLOP counter ran (all counters busy?)");

  // A replay: no probing messages; the plan's gaps, the counters that failed to open and those
  // that never ran, in that order.
  RunResult replay = vm;
  replay.open_failures = {"FP_ARITH_INST_RETIRED.SCALAR_DOUBLE (EBUSY)"};
  replay.totals.not_counted = {"a", "b", "c"};
  m = run_messages(replay, true, true);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0], "Q(L2): no event on this CPU");
  EXPECT_EQ(m[1], "could not open FP_ARITH_INST_RETIRED.SCALAR_DOUBLE (EBUSY)");
  EXPECT_EQ(m[2], "3 counters never ran (more events than counters)");
}
}  // namespace ROOFLINE_UNITY_ID
