// `roofline profile --self-test`: the counted/expected arithmetic on published readings of
// kernels with known W (tests/data/probe/selftest/, README there), its verdicts on constructed
// readings, and the command on this machine (no PMU in the development VM: exit 3).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"

using namespace roofline::counters;
namespace fs = std::filesystem;
using nlohmann::json;

namespace ROOFLINE_UNITY_ID {

const fs::path kFixtures = fs::path(ROOFLINE_TEST_DATA) / "probe" / "selftest";

/// The plan's events that the page recorded, with their readings (likwid does not multiplex
/// within a group: enabled = running).
void recorded(const json& j, const EventPlan& plan, std::vector<EventSpec>& events,
              std::vector<Reading>& readings) {
  for (const auto& r : j.at("readings")) {
    if (!r.contains("event")) continue;
    const std::string name = r.at("event");
    bool found = false;
    for (const auto& e : plan.events)
      if (e.name == name) {
        events.push_back(e);
        readings.push_back({name, r.at("value").get<std::uint64_t>(), 1000, 1000});
        found = true;
      }
    ASSERT_TRUE(found) << name << " is not in the plan";
  }
}

SelfTestCase case_from(const json& j) {
  SelfTestCase c;
  c.kernel = j.at("kernel");
  c.calls = j.at("calls");
  c.flops = 2.0 * j.at("n").get<double>() * c.calls;  // 2·n, "flops_by_hand"
  c.precision = j.at("precision");
  return c;
}

const SelfTestRow& row(const std::vector<SelfTestRow>& rows, const std::string& q) {
  for (const auto& r : rows)
    if (r.quantity == q) return r;
  throw std::runtime_error("no row " + q);
}

EventSpec spec(const std::string& name, Role role, const std::string& what, double weight) {
  EventSpec e;
  e.name = name;
  e.role = role;
  (role == Role::flops ? e.precision : e.level) = what;
  e.weight = weight;
  return e;
}

TEST(SelfTestArithmetic, PublishedIntelDaxpyCountsTwoFlopPerElement) {
  const json j = json::parse(roofline::read_text_file(kFixtures / "likwidjl-daxpy-flops-dp.json"));
  // The page names no model; its FLOPS_DP group has the 512-bit event: an AVX-512 part.
  const EventPlan plan = core_event_plan({"GenuineIntel", 6, 0x55, ""});
  std::vector<EventSpec> events;
  std::vector<Reading> readings;
  recorded(j, plan, events, readings);
  ASSERT_EQ(events.size(), 4u);
  const auto rows = self_test_rows(case_from(j), events, readings);
  const SelfTestRow& w = row(rows, "W fp64");
  // 5000 counts of 256B_PACKED_DOUBLE × 4 lanes = 20 000 FLOP = 2·10 000.
  EXPECT_DOUBLE_EQ(w.counted, 20000);
  EXPECT_DOUBLE_EQ(w.expected, 20000);
  ASSERT_TRUE(w.ratio.has_value());
  EXPECT_DOUBLE_EQ(*w.ratio, 1.0);
  EXPECT_TRUE(w.compared);
  EXPECT_TRUE(w.pass);
  EXPECT_EQ(w.verdict, "ok");
  EXPECT_EQ(w.events.size(), 4u);
}

TEST(SelfTestArithmetic, PublishedAmdSaxpyCountsAllPrecisionsTogether) {
  const json j =
      json::parse(roofline::read_text_file(kFixtures / "likwidjl-saxpy-flops-sp-amd.json"));
  const EventPlan plan = core_event_plan({"AuthenticAMD", 0x19, 0x01, ""});  // Zen 3
  std::vector<EventSpec> events;
  std::vector<Reading> readings;
  recorded(j, plan, events, readings);
  ASSERT_EQ(events.size(), 1u);
  const auto rows = self_test_rows(case_from(j), events, readings);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].quantity, "W (all precisions)");
  EXPECT_DOUBLE_EQ(rows[0].counted, 20000);
  EXPECT_DOUBLE_EQ(*rows[0].ratio, 1.0);
  EXPECT_TRUE(rows[0].pass);
}

// The rest are constructed readings: they check the verdict rules, not the hardware.

TEST(SelfTestArithmetic, MultiplexedCountsAreScaledBeforeTheyAreCompared) {
  SelfTestCase c;
  c.kernel = "axpy-fp64";
  c.flops = 1e9;
  c.precision = "fp64";
  c.traffic = {{"DRAM", 1.2e10, SelfTestCase::Kind::equal, "3·n·8 B"}};
  const std::vector<EventSpec> events = {spec("d256", Role::flops, "fp64", 4),
                                         spec("s256", Role::flops, "fp32", 8),
                                         spec("cas", Role::dram, "DRAM", 64)};
  // d256 ran half the time: 1.25e8 × 2 × 4 = 1e9. cas: 1.5e8 × 64 = 9.6e9 (ratio 0.8, the edge).
  const auto rows = self_test_rows(
      c, events,
      {{"d256", 125000000, 2000, 1000}, {"s256", 0, 1000, 1000}, {"cas", 150000000, 1, 1}});
  EXPECT_DOUBLE_EQ(row(rows, "W fp64").counted, 1e9);
  EXPECT_TRUE(row(rows, "W fp64").pass);
  EXPECT_TRUE(row(rows, "W fp32").pass);
  EXPECT_EQ(row(rows, "W fp32").verdict, "ok (≈ 0)");
  EXPECT_DOUBLE_EQ(*row(rows, "Q(DRAM)").ratio, 0.8);
  EXPECT_TRUE(row(rows, "Q(DRAM)").pass);
}

TEST(SelfTestArithmetic, FlopsUnderTheWrongPrecisionFail) {
  // What the old Zen 2 plan did to a DGEMM: umask 0x0F (every FLOP) labelled fp32, 0xF0
  // (nothing) labelled fp64.
  SelfTestCase c;
  c.kernel = "gemm-tiled";
  c.flops = 2e9;
  c.precision = "fp64";
  const auto rows = self_test_rows(
      c, {spec("0xF0", Role::flops, "fp64", 1), spec("0x0F", Role::flops, "fp32", 1)},
      {{"0xF0", 3, 100, 100}, {"0x0F", 2000000000, 100, 100}});
  EXPECT_FALSE(row(rows, "W fp64").pass);
  EXPECT_EQ(row(rows, "W fp64").verdict, "off (outside ±5 %)");
  EXPECT_FALSE(row(rows, "W fp32").pass);
  EXPECT_EQ(row(rows, "W fp32").verdict, "off: the kernel's FLOPs are counted as fp32");
}

TEST(SelfTestArithmetic, BoundsLimitsAndMissingCounters) {
  SelfTestCase c;
  c.kernel = "gemm-tiled";
  c.flops = 100;
  c.precision = "fp64";
  c.traffic = {{"DRAM", 6400, SelfTestCase::Kind::at_least, "3·n²·8 B"},
               {"L3", 640, SelfTestCase::Kind::near_zero, "nothing from L3"},
               {"L2", 6400, SelfTestCase::Kind::at_least, "3·n²·8 B"}};
  const std::vector<EventSpec> events = {spec("w", Role::flops, "fp64", 1),
                                         spec("cas", Role::dram, "DRAM", 64),
                                         spec("l2in", Role::level, "L3", 64)};
  // DRAM 5760 B = 0.9 × the bound: still ok; L3 11 lines = 704 B above a 640 B limit: off;
  // no L2 counter at all: reported, not compared.
  auto rows = self_test_rows(c, events, {{"w", 100, 1, 1}, {"cas", 90, 1, 1}, {"l2in", 11, 1, 1}});
  EXPECT_TRUE(row(rows, "Q(DRAM)").pass);
  EXPECT_FALSE(row(rows, "Q(L3)").pass);
  EXPECT_EQ(row(rows, "Q(L3)").verdict, "off: above the limit");
  EXPECT_FALSE(row(rows, "Q(L2)").compared);
  EXPECT_TRUE(row(rows, "Q(L2)").pass);
  EXPECT_EQ(row(rows, "Q(L2)").verdict, "no counter for this on this CPU");
  // Below the bound cannot be; a counter that never ran is said so.
  rows = self_test_rows(c, events, {{"w", 100, 1, 1}, {"cas", 89, 1, 1}, {"l2in", 0, 5, 0}});
  EXPECT_FALSE(row(rows, "Q(DRAM)").pass);
  EXPECT_EQ(row(rows, "Q(DRAM)").verdict, "off: below the compulsory bound (cannot be)");
  EXPECT_FALSE(row(rows, "Q(L3)").compared);
  EXPECT_EQ(row(rows, "Q(L3)").verdict, "never ran (not opened, or no counter was free)");
  EXPECT_THROW(self_test_rows(c, events, {{"w", 1, 1, 1}}), roofline::InputError);
}

TEST(SelfTestCommand, SaysPlainlyWhenThereIsNoPmu) {
  const PmuStatus s = probe_pmu();
  const auto r = roofline::test::run_cli({"profile", "--self-test"});
  if (s.core_pmu.empty() || !s.core_pmu_usable) {
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // "unavailable"
    EXPECT_NE(r.out.find("no PMU"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(explain_missing(s).substr(0, 40)), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("roofline: unavailable: no PMU"), std::string::npos) << r.err;
    const auto j = roofline::test::run_cli({"profile", "--self-test", "--json"});
    EXPECT_EQ(j.exit_code, 3);
    const json doc = json::parse(j.out);
    EXPECT_EQ(doc.at("schema"), "roofline.selftest");
    EXPECT_EQ(doc.at("pmu"), false);
  } else {
    // A machine with counters runs the kernels: 0 when every count holds, 6 when one is off.
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 6) << r.exit_code << r.err;
    EXPECT_NE(r.out.find("profile --self-test on"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("axpy-fp64, working set in L1"), std::string::npos) << r.out;
  }
}

TEST(SelfTestCommand, TakesNoProgram) {
  const auto r = roofline::test::run_cli({"profile", "--self-test", "--", "true"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--self-test runs its own kernels"), std::string::npos) << r.err;
}
}  // namespace ROOFLINE_UNITY_ID
