// What `roofline profile` prints of a counted run and of its self-test, from constructed runs:
// the W and Q each self-test case should count (self_test_case), the verdict, the self-test's
// text and JSON (with and without a PMU), and the run's heading text and JSON document.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/counters.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

using namespace roofline;
using namespace roofline::counters;

namespace ROOFLINE_UNITY_ID {

using Kind = SelfTestCase::Kind;

TEST(SelfTestCase, AxpyMovesThreeVectorsAndFillsTwo) {
  // n = 1000 doubles, 10 calls: Q(DRAM) = 3·n·8·10, the fills 2·n·8·10, W = 2·n·10.
  const SelfTestCase dram = self_test_case("axpy-fp64", "DRAM", 1000, "fp64", 2000, 10);
  EXPECT_EQ(dram.kernel, "axpy-fp64");
  EXPECT_EQ(dram.level, "DRAM");
  EXPECT_EQ(dram.calls, 10);
  EXPECT_EQ(dram.flops, 20000);
  EXPECT_EQ(dram.precision, "fp64");
  ASSERT_EQ(dram.traffic.size(), 3u);
  EXPECT_EQ(dram.traffic[0].level, "DRAM");
  EXPECT_EQ(dram.traffic[0].bytes, 240000);
  EXPECT_EQ(dram.traffic[0].kind, Kind::equal);
  EXPECT_EQ(dram.traffic[1].level, "L2");
  EXPECT_EQ(dram.traffic[1].bytes, 160000);
  EXPECT_EQ(dram.traffic[2].level, "L3");
  EXPECT_EQ(dram.traffic[2].bytes, 160000);
  // In L1: nothing from L2 or L3, up to 5 % of the 3·n·8 B per call.
  const SelfTestCase l1 = self_test_case("axpy-fp64", "L1", 1000, "fp64", 2000, 10);
  ASSERT_EQ(l1.traffic.size(), 2u);
  for (const auto& t : l1.traffic) {
    EXPECT_EQ(t.kind, Kind::near_zero);
    EXPECT_DOUBLE_EQ(t.bytes, 12000);
  }
  EXPECT_EQ(l1.traffic[0].level, "L2");
  EXPECT_EQ(l1.traffic[1].level, "L3");
}

TEST(SelfTestCase, GemmMovesAtLeastItsThreeMatrices) {
  // n = 64: 3·64²·8 = 98304 B per call, 4 calls; W = 2·64³ per call.
  const SelfTestCase dram = self_test_case("gemm-tiled", "DRAM", 64, "fp64", 2 * 64 * 64 * 64, 4);
  EXPECT_EQ(dram.flops, 4.0 * 2 * 64 * 64 * 64);
  ASSERT_EQ(dram.traffic.size(), 3u);
  for (const auto& t : dram.traffic) {
    EXPECT_EQ(t.kind, Kind::at_least);
    EXPECT_EQ(t.bytes, 4 * 98304);
  }
  EXPECT_EQ(dram.traffic[0].why, "compulsory: 3·n²·8 B per call (A, B read, C written)");
  const SelfTestCase l1 = self_test_case("gemm-tiled", "L1", 64, "fp64", 2 * 64 * 64 * 64, 4);
  ASSERT_EQ(l1.traffic.size(), 1u);
  EXPECT_EQ(l1.traffic[0].level, "L2");
  EXPECT_EQ(l1.traffic[0].kind, Kind::near_zero);
  EXPECT_DOUBLE_EQ(l1.traffic[0].bytes, 0.05 * 4 * 98304);
}

/// A run that counted: one W row compared and within tolerance, one Q row with no counter.
SelfTestRun counted_run() {
  SelfTestRun r;
  r.kernel = "axpy-fp64";
  r.level = "DRAM";
  r.threads = 4;
  r.calls = 1234567;
  r.check = "passed";
  r.counted_threads = 5;
  r.failures = {"UNC_M_CAS_COUNT.RD"};
  EventSpec e;
  e.name = "FP_ARITH.SCALAR_DOUBLE";
  e.config = 0x1c7;
  e.weight = 1;
  r.events = {e};
  r.readings = {{"FP_ARITH.SCALAR_DOUBLE", 2000000000, 100, 50}};
  SelfTestRow w;
  w.quantity = "W fp64";
  w.events = {"FP_ARITH.SCALAR_DOUBLE", "FP_ARITH.128B"};
  w.counted = 2e9;
  w.expected = 2e9;
  w.ratio = 1.0;
  w.compared = true;
  w.pass = true;
  w.verdict = "ok";
  w.why = "2·n per call";
  SelfTestRow q;
  q.quantity = "Q(DRAM)";
  q.pass = true;
  q.verdict = "no counter for this on this CPU";
  q.why = "3·n·8 B per call";
  r.rows = {w, q};
  return r;
}

SelfTestRun skipped_run() {
  SelfTestRun r;
  r.kernel = "gemm-tiled";
  r.level = "L1";
  r.skipped = "no L1 size";
  return r;
}

EventPlan plan() {
  EventPlan p;
  p.cpu_description = "GenuineIntel family 6 model 143";
  p.limits = {"FMA counted twice"};
  p.missing = {"Q(L3): no event"};
  return p;
}

TEST(SelfTestReport, VerdictNeedsEveryRowWithinToleranceAndOneCompared) {
  EXPECT_TRUE(self_test_verdict({counted_run(), skipped_run()}).passed());
  const SelfTestVerdict none = self_test_verdict({skipped_run()});
  EXPECT_TRUE(none.all_pass);
  EXPECT_FALSE(none.any_compared);
  EXPECT_FALSE(none.passed());
  SelfTestRun off = counted_run();
  off.rows[0].pass = false;
  const SelfTestVerdict v = self_test_verdict({off});
  EXPECT_FALSE(v.all_pass);
  EXPECT_TRUE(v.any_compared);
  EXPECT_FALSE(v.passed());
}

TEST(SelfTestReport, TextGivesEachCaseCountedAgainstExpected) {
  EXPECT_EQ(render_self_test_text({counted_run(), skipped_run()}, plan()),
            "profile --self-test on GenuineIntel family 6 model 143\n"
            "\n"
            "axpy-fp64, working set in DRAM, 4 thread(s), 1234567 calls, 5 threads of this "
            "process counted; result check passed\n"
            "  could not open UNC_M_CAS_COUNT.RD\n"
            "  W fp64: counted 2 GFLOP, expected 2 GFLOP, counted/expected 1 — ok\n"
            "    2·n per call\n"
            "    events: FP_ARITH.SCALAR_DOUBLE, FP_ARITH.128B\n"
            "  Q(DRAM): no counter for this on this CPU\n"
            "    3·n·8 B per call\n"
            "\n"
            "gemm-tiled, working set in L1, 1 thread(s): skipped (no L1 size)\n"
            "limit: FMA counted twice\n"
            "not counted: Q(L3): no event\n"
            "\n"
            "self-test: every count within its tolerance\n");
  SelfTestRun off = counted_run();
  off.rows[0].pass = false;
  const std::string t = render_self_test_text({off}, plan());
  EXPECT_EQ(t.substr(t.rfind("\nself-test: ")), "\nself-test: a count is off (see above)\n");
  const std::string n = render_self_test_text({skipped_run()}, plan());
  EXPECT_EQ(n.substr(n.rfind("\nself-test: ")), "\nself-test: nothing could be compared\n");
}

TEST(SelfTestReport, JsonHoldsEventsReadingsAndRows) {
  const std::string text = self_test_json_text({counted_run(), skipped_run()}, plan());
  ASSERT_EQ(text.back(), '\n');
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j.at("schema"), "roofline.selftest");
  EXPECT_EQ(j.at("version"), 1);
  EXPECT_EQ(j.at("pmu"), true);
  EXPECT_EQ(j.at("pass"), true);
  EXPECT_EQ(j.at("cpu"), "GenuineIntel family 6 model 143");
  EXPECT_EQ(j.at("limits"), (std::vector<std::string>{"FMA counted twice"}));
  EXPECT_EQ(j.at("missing"), (std::vector<std::string>{"Q(L3): no event"}));
  ASSERT_EQ(j.at("cases").size(), 2u);
  const nlohmann::json& c = j.at("cases")[0];
  EXPECT_EQ(c.at("calls"), 1234567);
  EXPECT_EQ(c.at("check"), "passed");
  EXPECT_EQ(c.at("counted_threads"), 5);
  EXPECT_EQ(c.at("open_failures"), (std::vector<std::string>{"UNC_M_CAS_COUNT.RD"}));
  EXPECT_EQ(c.at("events"), nlohmann::json::parse(R"([{"name": "FP_ARITH.SCALAR_DOUBLE",
      "config": 455, "weight": 1.0, "value": 2000000000, "time_enabled": 100,
      "time_running": 50}])"));
  EXPECT_EQ(c.at("rows")[0].at("ratio"), 1.0);
  EXPECT_EQ(c.at("rows")[0].at("verdict"), "ok");
  EXPECT_FALSE(c.at("rows")[1].contains("ratio"));
  EXPECT_EQ(c.at("rows")[1].at("compared"), false);
  EXPECT_EQ(j.at("cases")[1], nlohmann::json::parse(R"({"kernel": "gemm-tiled", "level": "L1",
      "threads": 1, "skipped": "no L1 size"})"));
  EXPECT_EQ(nlohmann::json::parse(self_test_json_text({skipped_run()}, plan())).at("pass"), false);
}

TEST(SelfTestReport, WithoutAPmuItSaysWhy) {
  EXPECT_EQ(render_self_test_no_pmu_text("no core PMU in this VM"),
            "profile --self-test: no PMU — this machine gives no hardware counters, so nothing "
            "can be checked.\nno core PMU in this VM\n");
  EXPECT_EQ(self_test_no_pmu_json_text("no core PMU in this VM"),
            "{\n  \"message\": \"no core PMU in this VM\",\n  \"pmu\": false,\n  \"schema\": "
            "\"roofline.selftest\",\n  \"version\": 1\n}\n");
}

RunResult a_run() {
  RunResult r;
  r.exit_status = 137;
  r.term_signal = 9;
  r.wall_seconds = 2;
  r.plan.cpu_description = "AuthenticAMD family 25";
  r.plan.limits = {"DRAM counted system-wide"};
  r.totals.cpu_seconds = 3;
  r.totals.flops_counted = true;
  r.totals.flops = 3e9;
  r.totals.flops_by_precision = {{"fp64", 1e9}, {"", 2e9}};
  r.totals.bytes_by_level = {{"DRAM", 4e9}};
  r.totals.min_running_fraction = 0.5;
  return r;
}

TEST(ProfileReport, HeadSaysTheRunAndItsCounts) {
  CountedPoints o;
  o.notes = {"region 'x' has no W"};
  EXPECT_EQ(render_profile_head("./app", a_run(), o, {"no FLOP counter ran"}),
            "profile of ./app\n"
            "  exit status 137 (signal 9), T = 2 s (wall clock), CPU time 3 s (1.5 cores busy)\n"
            "  CPU: AuthenticAMD family 25\n"
            "  counted W = 3 GFLOP (no precision 2 GFLOP, fp64 1 GFLOP)\n"
            "  counted Q(DRAM) = 4 GB\n"
            "  counters were multiplexed (lowest running share 50%): counts scaled by time "
            "enabled / time running\n"
            "  limit: DRAM counted system-wide\n"
            "  no FLOP counter ran\n"
            "  note: region 'x' has no W\n");
  RunResult quiet;
  quiet.wall_seconds = 0.5;
  EXPECT_EQ(render_profile_head("rec.json", quiet, {}, {}),
            "profile of rec.json\n  exit status 0, T = 500 ms (wall clock)\n");
}

TEST(ProfileReport, JsonIsThePointsDocumentWithTheRun) {
  CountedPoints o;
  Point p;
  p.name = "app";
  p.work = Work(3e9);
  p.time = Seconds(2);
  p.traffic = {{"DRAM", Bytes(4e9)}};
  o.points = {p};
  o.judged = {p};
  o.notes = {"a note"};
  const RoofSet roofs = given_roofs({"box", WorkRate(1e12), ByteRate(1e11), "", "DRAM"});
  const std::string text = profile_json_text({"./app", "-n", "3"}, a_run(), o, {"msg"}, &roofs);
  ASSERT_EQ(text.back(), '\n');
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j.at("machine"), "box");
  EXPECT_EQ(j.at("points")[0], point_to_json(p));
  EXPECT_EQ(j.at("analysis"), analyses_to_json(o.judged, roofs));
  EXPECT_EQ(j.at("run"), nlohmann::json::parse(R"({
      "command": ["./app", "-n", "3"], "exit_status": 137, "wall_seconds": 2.0,
      "cpu_seconds": 3.0, "flops": 3e9, "flops_by_precision": {"": 2e9, "fp64": 1e9},
      "bytes_by_level": {"DRAM": 4e9}, "cpu": "AuthenticAMD family 25",
      "limits": ["DRAM counted system-wide"], "messages": ["msg"], "notes": ["a note"],
      "min_running_fraction": 0.5})"));
  // Without roofs: no machine, no analysis; the counts left out when there are none.
  const nlohmann::json k =
      nlohmann::json::parse(profile_json_text({"./app"}, RunResult{}, o, {}, nullptr));
  EXPECT_FALSE(k.contains("analysis"));
  EXPECT_FALSE(k.at("run").contains("flops"));
  EXPECT_FALSE(k.at("run").contains("cpu_seconds"));
  EXPECT_FALSE(k.at("run").contains("bytes_by_level"));
}

}  // namespace ROOFLINE_UNITY_ID
