// `roofline check` end to end: lines, exit codes (0 pass, 5 gate failed, 2 bad input), JUnit.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/xml_lite.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::slurp;
using roofline::test::TempDir;
using roofline::test::write_text;

namespace ROOFLINE_UNITY_ID {

// Roofs π = 100 FLOP/s, β = 10 byte/s (ridge 10 FLOP/byte).
//   "compute ok": I = 80, attainable min(100, 800) = 100, P = 80/1 = 80  → attainment 0.8
//   "mem slow":   I = 1,  attainable min(100, 10) = 10,   P = 1/0.5 = 2  → attainment 0.2
const std::vector<std::string> kRoofs = {"--peak", "100", "--bandwidth", "10"};

std::string points_now() {
  return R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 80, "traffic": 1, "time": 1},
    {"name": "mem slow", "work": 1, "traffic": 1, "time": 0.5}]})";
}

std::vector<std::string> args(std::vector<std::string> a) {
  a.insert(a.end(), kRoofs.begin(), kRoofs.end());
  return a;
}

TEST(CliCheck, GlobalMinimumFailsTheSlowPointWithExit5) {
  TempDir d;
  write_text(d.file("p.json"), points_now());
  auto r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.7"}));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  // --min-attainment is named as where the minimum came from; the figures follow: P = 80/1,
  // attainable min(100, 80·10) = 100 on the --peak roof.
  EXPECT_NE(r.out.find("PASS  compute ok: attainment 0.8 ≥ 0.7 (--min-attainment): P 80 FLOP/s "
                       "of attainable 100 FLOP/s"),
            std::string::npos)
      << r.out;
  // mem slow: P = 1/0.5 = 2, attainable I·β = 1 × 10 = 10.
  EXPECT_NE(r.out.find("FAIL  mem slow: attainment 0.2 < 0.7 (--min-attainment): P 2 FLOP/s of "
                       "attainable 10 FLOP/s"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("roofline check: FAILED, 2 points: 1 passed, 1 failed, 0 skipped"),
            std::string::npos)
      << r.out;
  // 0.15 lets both through.
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.15"}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("roofline check: passed, 2 points: 2 passed"), std::string::npos) << r.out;
  // One point is one point ("1 points" had been printed).
  write_text(d.file("one.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 80, "traffic": 1, "time": 1}]})");
  r = run_cli(args({"check", d.file("one.json"), "--min-attainment", "0.5"}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("roofline check: passed, 1 point: 1 passed, 0 failed, 0 skipped"),
            std::string::npos)
      << r.out;
}

TEST(CliCheck, ConfigRulesPerPattern) {
  TempDir d;
  write_text(d.file("p.json"), points_now());
  write_text(d.file("c.json"), R"({"schema": "roofline.check", "version": 1,
    "min_attainment": 0.7, "points": [{"name": "mem*", "min_attainment": 0.1}]})");
  auto r = run_cli(args({"check", d.file("p.json"), "--config", d.file("c.json"), "--json"}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["passed"].get<bool>());
  EXPECT_EQ(j["points"][1]["threshold_from"], "rule 'mem*'");
  EXPECT_DOUBLE_EQ(j["points"][1]["min_attainment"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(j["points"][1]["attainment"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(j["points"][0]["attainment"].get<double>(), 0.8);
  // --min-attainment overrides the global minimum; the rule still holds for "mem slow".
  r = run_cli(
      args({"check", d.file("p.json"), "--config", d.file("c.json"), "--min-attainment", "0.9"}));
  EXPECT_EQ(r.exit_code, 5) << r.out;
  EXPECT_NE(r.out.find("FAIL  compute ok: attainment 0.8 < 0.9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS  mem slow: attainment 0.2 ≥ 0.1 (rule 'mem*')"), std::string::npos)
      << r.out;
}

TEST(CliCheck, BaselineRegressionUsesTheCarriedSpread) {
  TempDir d;
  // Baseline: "compute ok" took 0.8 s (P = 100), its times spread 1%; now 1 s (P = 80): ratio
  // 0.8, regressed. "mem slow" now 0.5 s against 0.49 s: ratio 0.98 within the assumed 10%
  // (neither carries a spread). "old" is in the baseline only: skipped.
  write_text(d.file("base.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 80, "traffic": 1, "time": 0.8,
     "run": {"times": [0.8, 0.804, 0.808]}},
    {"name": "mem slow", "work": 1, "traffic": 1, "time": 0.49},
    {"name": "old", "work": 1, "traffic": 1, "time": 1}]})");
  write_text(d.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 80, "traffic": 1, "time": 1, "run": {"times": [1, 1, 1.01]}},
    {"name": "mem slow", "work": 1, "traffic": 1, "time": 0.5}]})");
  auto r = run_cli({"check", d.file("p.json"), "--baseline", d.file("base.json"), "--json"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 3u);
  const json& a = j["points"][0];
  EXPECT_EQ(a["status"], "failed");
  EXPECT_DOUBLE_EQ(a["ratio"].get<double>(), 0.8);
  // Rates 1/1, 1/1, 1/1.01: median 1, spread 1 − 1/1.01; baseline rates 1/0.8, 1/0.804,
  // 1/0.808: spread (1/0.8 − 1/0.808)/(1/0.804). The larger is the noise.
  const double now_spread = 1 - 1 / 1.01;
  const double base_spread = (1 / 0.8 - 1 / 0.808) * 0.804;
  // Both below the run-to-run floor of 3%: the floor is the noise, and the line says so.
  ASSERT_LT(std::max(now_spread, base_spread), 0.03);
  EXPECT_DOUBLE_EQ(a["noise"].get<double>(), 0.03);
  EXPECT_EQ(
      a["noise_from"].get<std::string>().rfind(
          "the run-to-run floor of 3%, above the baseline's spread (3 repetitions): 0.995%", 0),
      0u)
      << a["noise_from"];
  EXPECT_TRUE(a["regressed"].get<bool>());
  const json& b = j["points"][1];
  EXPECT_EQ(b["status"], "passed");
  EXPECT_NEAR(b["ratio"].get<double>(), 0.98, 1e-12);
  EXPECT_DOUBLE_EQ(b["noise"].get<double>(), 0.10);
  EXPECT_EQ(b["noise_from"], "assumed (the default 10%): neither document carries a spread");
  EXPECT_EQ(j["points"][2]["status"], "skipped");
  EXPECT_EQ(j["counts"]["failed"], 1);
  // --noise changes what is assumed: 1% makes 0.98 a regression.
  r = run_cli({"check", d.file("p.json"), "--baseline", d.file("base.json"), "--noise", "0.01"});
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.out.find("FAIL  mem slow: P 2 FLOP/s = 0.98× baseline 2.041 FLOP/s — regressed "
                       "beyond the noise ±1% (assumed"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("SKIP  old: in the baseline only"), std::string::npos) << r.out;
  // A baseline of another machine (the documents' `machine` differ) is named in a note: its
  // ratios compare machines.
  write_text(d.file("other.json"), R"({"schema": "roofline.points", "version": 1,
    "machine": "h100-sxm", "points": [{"name": "q", "work": 1, "traffic": 1, "time": 1}]})");
  write_text(d.file("mine.json"), R"({"schema": "roofline.points", "version": 1,
    "machine": "this-vm", "points": [{"name": "q", "work": 1, "traffic": 1, "time": 1}]})");
  r = run_cli({"check", d.file("mine.json"), "--baseline", d.file("other.json"), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json notes = json::parse(r.out).at("notes");
  ASSERT_EQ(notes.size(), 1u) << notes;
  EXPECT_NE(notes[0].get<std::string>().find("the baseline was taken on 'h100-sxm' and"),
            std::string::npos)
      << notes;
  // Times all equal (durations rounded to whole microseconds) spread 0: a 1-ppm slowdown was a
  // regression beyond "±0%"; within the floor it passes, and 4% is still caught.
  write_text(d.file("eq-base.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "q", "work": 1, "traffic": 1, "time": 1, "run": {"times": [1, 1, 1, 1, 1]}}]})");
  write_text(d.file("eq-now.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "q", "work": 1, "traffic": 1, "time": 1.000001,
     "run": {"times": [1.000001, 1.000001, 1.000001, 1.000001, 1.000001]}}]})");
  r = run_cli({"check", d.file("eq-now.json"), "--baseline", d.file("eq-base.json")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  write_text(d.file("eq-slow.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "q", "work": 1, "traffic": 1, "time": 1.04, "run": {"times": [1.04, 1.04, 1.04]}}]})");
  r = run_cli({"check", d.file("eq-slow.json"), "--baseline", d.file("eq-base.json")});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("regressed beyond the noise ±3% (the run-to-run floor of 3%"),
            std::string::npos)
      << r.out;
  // A point whose W changed is compared by P all the same, and the note says W changed: half
  // the work in 0.6 s is P 67 against 100, a "regression" of a point that got faster.
  write_text(d.file("half.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 40, "traffic": 1, "time": 0.6}]})");
  r = run_cli({"check", d.file("half.json"), "--baseline", d.file("base.json"), "--json"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  const json h = json::parse(r.out);
  EXPECT_DOUBLE_EQ(h["points"][0]["work_ratio"].get<double>(), 0.5);
  r = run_cli({"check", d.file("half.json"), "--baseline", d.file("base.json")});
  EXPECT_NE(r.out.find("note: W 40 FLOP is 0.5 × the baseline's 80 FLOP: P compares rates of "
                       "different work; T 600 ms against 800 ms"),
            std::string::npos)
      << r.out;
  // A baseline at fp32 against a run at fp16: P is compared, with a note that the work is
  // counted on different units (it passed as "improved" without a word).
  write_text(d.file("fp32.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e12, "traffic": 1e10, "time": 0.01, "precision": "fp32"}]})");
  write_text(d.file("fp16.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e12, "traffic": 1e10, "time": 0.008, "precision": "fp16"}]})");
  r = run_cli({"check", d.file("fp16.json"), "--baseline", d.file("fp32.json"), "--hw", "a100"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("— improved beyond the noise ±10% (assumed (the default 10%): neither "
                       "document carries a "
                       "spread; ratios 0.909091x to 1.1x); note: precision fp32 in the baseline, "
                       "fp16 now: P compares work "
                       "on different units"),
            std::string::npos)
      << r.out;
  r = run_cli(
      {"check", d.file("fp16.json"), "--baseline", d.file("fp32.json"), "--hw", "a100", "--json"});
  EXPECT_EQ(json::parse(r.out)["points"][0]["baseline_precision"], "fp32") << r.out;
}

// A gate must not be turned off by noise or by a typo.
TEST(CliCheck, NoiseThatHidesAnySlowdownAndAGateThatJudgedNothingFail) {
  TempDir d;
  // Now 5× slower than the baseline, its two times 10 and 50 ms spreading ±133%: the rates
  // spread by more than their median, so the comparison is too noisy to judge (it used to pass).
  write_text(d.file("old.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "a", "work": 1e9, "traffic": 1e9, "time": 0.01}]})");
  write_text(d.file("now.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "a", "work": 1e9, "traffic": 1e9, "time": 0.05, "run": {"times": [0.01, 0.05]}}]})");
  auto r = run_cli({"check", d.file("now.json"), "--baseline", d.file("old.json")});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  a: P 20 GFLOP/s = 0.2× baseline 100 GFLOP/s — too noisy to judge: "
                       "the noise ±133% (this run's spread (2 repetitions; the other carries "
                       "none)) is 100% or more: the rates spread by as much as their median; "
                       "rerun with more repetitions or on a quieter machine"),
            std::string::npos)
      << r.out;
  // An assumed noise of 100% is refused for the same reason.
  r = run_cli({"check", d.file("now.json"), "--baseline", d.file("old.json"), "--noise", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--noise: must be a number from 1e-09 to below 1 (got 1)"),
            std::string::npos)
      << r.err;
  r = run_cli({"check", "--help"});
  EXPECT_NE(r.out.find("NUMBER in [1e-09, 1)"), std::string::npos) << r.out;
  write_text(d.file("c1.json"), R"({"schema": "roofline.check", "version": 1, "noise": 1})");
  r = run_cli(args(
      {"check", d.file("now.json"), "--config", d.file("c1.json"), "--min-attainment", "0.1"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("c1.json: noise: expected a number in (0, 1) (got 1)"), std::string::npos)
      << r.err;

  // A rule whose pattern matches nothing is said; when no point is judged at all, the gate
  // fails (it used to pass with every point skipped).
  write_text(d.file("p.json"), points_now());
  write_text(d.file("typo.json"), R"({"schema": "roofline.check", "version": 1,
    "points": [{"name": "compute-ok", "min_attainment": 0.5}]})");
  r = run_cli(args({"check", d.file("p.json"), "--config", d.file("typo.json")}));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("note: rule 'compute-ok' of " + d.file("typo.json") +
                       " matches no point of " + d.file("p.json")),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("roofline check: FAILED, 2 points: 0 passed, 0 failed, 2 skipped (no "
                       "point was judged: the gate checked nothing)"),
            std::string::npos)
      << r.out;
  r = run_cli(args({"check", d.file("p.json"), "--config", d.file("typo.json"), "--json"}));
  EXPECT_EQ(r.exit_code, 5);
  const json j = json::parse(r.out);
  EXPECT_FALSE(j["passed"].get<bool>());
  EXPECT_TRUE(j["nothing_judged"].get<bool>());
  ASSERT_EQ(j["notes"].size(), 1u);
  // The JUnit report fails too: skipped cases alone read green in a CI's view of it.
  r = run_cli(args(
      {"check", d.file("p.json"), "--config", d.file("typo.json"), "--junit", d.file("typo.xml")}));
  EXPECT_EQ(r.exit_code, 5);
  auto root = roofline::test::XmlReader(slurp(d.file("typo.xml"))).parse();
  EXPECT_EQ(root->attr("tests"), "3");
  EXPECT_EQ(root->attr("failures"), "1");
  EXPECT_FALSE(root->has("skipped"));  // junit-10.xsd allows it on <testsuite> only
  ASSERT_EQ(root->children.size(), 1u);
  EXPECT_EQ(root->children[0]->attr("skipped"), "2");
  const auto cases =
      root->find_all([](const roofline::test::XmlNode& n) { return n.name == "testcase"; });
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[2]->attr("name"), "(the gate)");
  // Its classname is apart from the points' (one may be named "(the gate)"), without the
  // file name's dot, which CI systems read as a package separator.
  EXPECT_EQ(cases[0]->attr("classname"), "roofline check " + d.file("p_json") + " on given roofs");
  EXPECT_EQ(cases[2]->attr("classname"),
            "roofline check " + d.file("p_json") + " on given roofs gate");
  ASSERT_EQ(cases[2]->children.size(), 1u);
  EXPECT_EQ(cases[2]->children[0]->name, "failure");
  const std::string why = cases[2]->children[0]->attr("message");
  EXPECT_NE(why.find("no point was judged: the gate checked nothing; rule 'compute-ok'"),
            std::string::npos)
      << why;

  // An unknown field inside a rule is refused like one at the top.
  write_text(d.file("bogus.json"), R"({"schema": "roofline.check", "version": 1,
    "points": [{"name": "mem*", "min_attainment": 0.1, "bogus": 1}]})");
  r = run_cli(args({"check", d.file("p.json"), "--config", d.file("bogus.json")}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bogus.json: points[0].bogus: unknown field (expected name, "
                       "min_attainment)"),
            std::string::npos)
      << r.err;
}

// --level applies to the points that name no level, as --precision does.
TEST(CliCheck, LevelAppliesToPointsWithoutOne) {
  TempDir d;
  // One point, Q = 1e9 at no level, W = 1e9, T = 0.01: P = 100 GFLOP/s, I = 1. On the a100
  // fixture, HBM (the default) and L2 give different attainable rates.
  write_text(d.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": 1e9, "time": 0.01}]})");
  const std::string m = std::string(ROOFLINE_TEST_DATA) + "/core/machine-a100.json";
  auto hbm =
      run_cli({"check", d.file("p.json"), "--machine", m, "--min-attainment", "0.01", "--json"});
  auto l2 = run_cli({"check", d.file("p.json"), "--machine", m, "--level", "L2", "--min-attainment",
                     "0.01", "--json"});
  ASSERT_EQ(hbm.exit_code, 0) << hbm.out << hbm.err;
  ASSERT_EQ(l2.exit_code, 0) << l2.out << l2.err;
  const json jh = json::parse(hbm.out)["points"][0], jl = json::parse(l2.out)["points"][0];
  EXPECT_EQ(jl["binding_level"], "L2") << jl;
  EXPECT_NE(jh["binding_level"], "L2") << jh;
  EXPECT_NE(jh["attainment"].get<double>(), jl["attainment"].get<double>());
}

TEST(CliCheck, JunitIsWellFormedAndNamesAreEscaped) {
  TempDir d;
  write_text(d.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "a <b> & \"c\" \u001b[2J", "work": 80, "traffic": 1, "time": 1},
    {"name": "mem slow", "work": 1, "traffic": 1, "time": 0.5}]})");
  const std::string x = d.file("out.xml");
  auto r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.7", "--junit", x}));
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  const std::string text = slurp(x);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  auto root = roofline::test::XmlReader(text).parse();
  EXPECT_EQ(root->attr("tests"), "2");
  EXPECT_EQ(root->attr("failures"), "1");
  const auto cases =
      root->find_all([](const roofline::test::XmlNode& n) { return n.name == "testcase"; });
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0]->attr("name"), "a <b> & \"c\" \\u001b[2J");
  ASSERT_EQ(cases[1]->children.size(), 1u);
  EXPECT_EQ(cases[1]->children[0]->name, "failure");
  EXPECT_NE(cases[1]->children[0]->attr("message").find("attainment 0.2 < 0.7"), std::string::npos);
  // "-" is standard output, as for -o, with the report in a file; beside the report on
  // standard output it is refused (it wrote a file named "-").
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.7", "--junit", "-", "-o",
                    d.file("report.txt")}));
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_EQ(roofline::test::XmlReader(r.out).parse()->attr("failures"), "1");
  EXPECT_NE(slurp(d.file("report.txt")).find("mem slow"), std::string::npos);
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.7", "--junit", "-"}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--junit -: standard output already carries the main output (no -o given): "
                       "write that to a file with -o FILE, or give --junit a file"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists("-"));  // in the working directory
}

TEST(CliCheck, BadInputsAreExit2AndWriteNothing) {
  TempDir d;
  write_text(d.file("p.json"), points_now());
  auto r = run_cli(args({"check", d.file("p.json")}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing to check"), std::string::npos) << r.err;
  r = run_cli({"check", d.file("p.json"), "--min-attainment", "0.5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("needs roofs"), std::string::npos) << r.err;
  r = run_cli(args({"check", d.file("missing.json"), "--min-attainment", "0.5"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "1.5"}));
  EXPECT_EQ(r.exit_code, 2);
  write_text(d.file("c.json"), R"({"schema": "roofline.check", "version": 1, "noise": "x"})");
  r = run_cli(args({"check", d.file("p.json"), "--config", d.file("c.json")}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("c.json: noise: expected a number in (0, 1)"), std::string::npos) << r.err;
  // A JUnit path that is a folder is refused before any work.
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.5", "--junit", d.path}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--junit"), std::string::npos) << r.err;
  write_text(d.file("dup.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "x", "work": 1, "traffic": 1, "time": 1},
    {"name": "x", "work": 1, "traffic": 1, "time": 2}]})");
  r = run_cli(
      {"check", d.file("p.json"), "--baseline", d.file("dup.json"), "--junit", d.file("j.xml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("two points are named 'x'"), std::string::npos) << r.err;
  // A check that could not run on bad input replaces a report an earlier run left (it may have
  // been green) with one whose gate errs, saying why.
  const std::string stale = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="old" tests="1" failures="0" errors="0">
  <testsuite name="old" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="old" name="x"/>
  </testsuite>
</testsuites>
)";
  write_text(d.file("j.xml"), stale);
  r = run_cli(
      {"check", d.file("p.json"), "--baseline", d.file("dup.json"), "--junit", d.file("j.xml")});
  EXPECT_EQ(r.exit_code, 2);
  auto root = roofline::test::XmlReader(slurp(d.file("j.xml"))).parse();
  EXPECT_EQ(root->attr("errors"), "1");
  EXPECT_EQ(root->attr("tests"), "1");
  const auto errors =
      root->find_all([](const roofline::test::XmlNode& n) { return n.name == "error"; });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]->attr("message"), "--baseline " + d.file("dup.json") +
                                            ": two points are named 'x'; a baseline pairs points "
                                            "by name, so names must be unique");
  // So does a points document that cannot be read.
  write_text(d.file("j.xml"), stale);
  r = run_cli(args(
      {"check", d.file("missing.json"), "--min-attainment", "0.5", "--junit", d.file("j.xml")}));
  EXPECT_EQ(r.exit_code, 2);
  root = roofline::test::XmlReader(slurp(d.file("j.xml"))).parse();
  EXPECT_EQ(root->attr("errors"), "1");
  EXPECT_NE(slurp(d.file("j.xml")).find("missing.json"), std::string::npos);
  // So does an -o that is refused (a special file), checked before the inputs are read.
  write_text(d.file("j.xml"), stale);
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.5", "-o", "/dev/full",
                    "--junit", d.file("j.xml")}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  root = roofline::test::XmlReader(slurp(d.file("j.xml"))).parse();
  EXPECT_EQ(root->attr("errors"), "1") << slurp(d.file("j.xml"));
  EXPECT_NE(slurp(d.file("j.xml")).find("/dev/full"), std::string::npos);
  // The JUnit file may not be one of the inputs, whichever refusal comes first.
  r = run_cli(
      args({"check", d.file("p.json"), "--min-attainment", "0.5", "--junit", d.file("p.json")}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(slurp(d.file("p.json")), points_now());
  r = run_cli(args({"check", d.file("p.json"), "--min-attainment", "0.5", "-o", "/dev/full",
                    "--junit", d.file("p.json")}));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(slurp(d.file("p.json")), points_now());
}

TEST(CliCheck, ASlowdownBeyondTheBandFailsHoweverCloseTheNoiseIsTo100Percent) {
  TempDir d;
  // P 20 GFLOP/s then 1 GFLOP/s: ratio 0.05. The new run's times 1.0 and 2.9 s spread its rates
  // (1 − 1/2.9) / ((1 + 1/2.9) / 2) = 97.4%; the band's low end 1/1.974 = 0.507 (the additive
  // 1 − 0.974 = 0.026 passed it).
  write_text(d.file("base.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "gemm", "work": 1e9, "traffic": 1e6, "time": 0.05}]})");
  write_text(d.file("new.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "gemm", "work": 1e9, "traffic": 1e6, "time": 1.0, "run": {"times": [1.0, 2.9]}}]})");
  auto r = run_cli({"check", d.file("new.json"), "--baseline", d.file("base.json")});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  gemm: P 1 GFLOP/s = 0.05× baseline 20 GFLOP/s — regressed beyond "
                       "the noise ±97.4% (this run's spread (2 repetitions; the other carries "
                       "none); ratios 0.506494x to 1.97436x)"),
            std::string::npos)
      << r.out;
  // An assumed noise just below 100%: 0.2× regressed, and the noise reads apart from 100%.
  write_text(d.file("b1.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": 1, "time": 1}]})");
  write_text(d.file("n5.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": 1, "time": 5}]})");
  r = run_cli({"check", d.file("n5.json"), "--baseline", d.file("b1.json"), "--noise", "0.99999"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  k: P 200 MFLOP/s = 0.2× baseline 1 GFLOP/s — regressed beyond the "
                       "noise ±99.999% (assumed"),
            std::string::npos)
      << r.out;
  // 0.625× is within the band [1/1.99999, 1.99999]: it passes, and never beside "±100%".
  write_text(d.file("n6.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": 1, "time": 1.6}]})");
  r = run_cli({"check", d.file("n6.json"), "--baseline", d.file("b1.json"), "--noise", "0.99999"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS  k: P 625 MFLOP/s = 0.625× baseline 1 GFLOP/s — within the noise "
                       "±99.999% (assumed"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("100%"), std::string::npos) << r.out;
}

TEST(CliCheck, ANoiseBeyond1000PercentIsPrintedAsABoundNeverInf) {
  TempDir d;
  // Times 0.5, 1e308 and 1e-308 s: rates 2, 1e-308 and 1e308, spread 1e308 / 2 = 5e307, whose
  // percentage is not finite.
  write_text(d.file("base.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1, "traffic": 1, "time": 0.5}]})");
  write_text(d.file("new.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1, "traffic": 1, "time": 0.5, "run": {"times": [0.5, 1e308, 1e-308]}}]})");
  const std::string x = d.file("j.xml");
  auto r = run_cli({"check", d.file("new.json"), "--baseline", d.file("base.json"), "--junit", x});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  k: P 2 FLOP/s = 1× baseline 2 FLOP/s — too noisy to judge: the "
                       "noise beyond ±1000% (this run's spread"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(x).find("inf"), std::string::npos) << slurp(x);
  EXPECT_NE(slurp(x).find("the noise beyond ±1000%"), std::string::npos) << slurp(x);
  r = run_cli({"diff", d.file("base.json"), d.file("new.json")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Too noisy to judge, as check judged it above ("within the noise" had been said).
  EXPECT_NE(r.out.find("(spread A none, B > 1000%): too noisy to judge: the noise > 1000%"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
}

TEST(CliCheck, ABaselineThatIsThePointsFileItselfIsRefused) {
  TempDir d;
  write_text(d.file("r1.json"), points_now());
  const std::string msg = " is the points document ";
  auto r = run_cli({"check", d.file("r1.json"), "--baseline", d.file("r1.json")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--baseline " + d.file("r1.json") + msg + d.file("r1.json") +
                       " itself (one file): a run compared with itself cannot regress"),
            std::string::npos)
      << r.err;
  // The same file by another path: ./, a symbolic link, a hard link. A copy is another file.
  const std::string dotted = (d.path / "." / "r1.json").string();
  std::filesystem::create_symlink(d.file("r1.json"), d.file("sym.json"));
  std::filesystem::create_hard_link(d.file("r1.json"), d.file("hard.json"));
  for (const std::string& other : {dotted, d.file("sym.json"), d.file("hard.json")}) {
    r = run_cli({"check", d.file("r1.json"), "--baseline", other});
    EXPECT_EQ(r.exit_code, 2) << other << r.out << r.err;
    EXPECT_NE(r.err.find("--baseline " + other + msg + d.file("r1.json") + " itself"),
              std::string::npos)
        << r.err;
  }
  write_text(d.file("copy.json"), points_now());
  r = run_cli({"check", d.file("r1.json"), "--baseline", d.file("copy.json")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS  compute ok: P 80 FLOP/s = 1× baseline 80 FLOP/s — within the noise "
                       "±10%"),
            std::string::npos)
      << r.out;
}

TEST(CliCheck, ReadsWhatRooflineRunWrites) {
  // `roofline run -o` writes a points document whose points carry their repeated times: check
  // reads it, and the noise comes from those times, not from the assumed 10%.
  TempDir d;
  // The 2-core fixture with every roof ×100: the point is real (this machine's axpy), and a
  // fast machine's L1 rate must not pass the fixture's roof (Zen 5's reached 1.12 of it), which
  // check rightly fails as "above its roof".
  json m = json::parse(slurp(std::string(ROOFLINE_TEST_DATA) + "/run/machine-2core.json"));
  for (json& c : m["compute"]) c["peak"] = c["peak"].get<double>() * 100;
  for (json& l : m["memory"]) l["bandwidth"] = l["bandwidth"].get<double>() * 100;
  const std::string machine = d.file("machine.json");
  write_text(machine, m.dump());
  auto r = run_cli({"run", "axpy-fp64", "--quick", "--levels", "L1", "--machine", machine, "-o",
                    d.file("run.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A copy as the baseline (the file itself is refused): the run against itself.
  std::filesystem::copy_file(d.file("run.json"), d.file("base.json"));
  r = run_cli({"check", d.file("run.json"), "--machine", machine, "--baseline", d.file("base.json"),
               "--json"});
  const json j = json::parse(r.out);
  ASSERT_FALSE(j["points"].empty());
  const json run = json::parse(slurp(d.file("run.json")));
  // The run against itself passes, unless the machine was so busy that its repetitions spread
  // 100% or more (seen with two other busy processes on the 2-core VM): then the gate cannot
  // judge, and fails saying so. Which one is decided by the noise the check reports.
  bool too_noisy = false;
  for (const json& p : j["points"]) too_noisy = too_noisy || p["noise"].get<double>() >= 1.0;
  EXPECT_EQ(r.exit_code, too_noisy ? 5 : 0) << r.out << r.err;
  for (size_t i = 0; i < j["points"].size(); ++i) {
    const json& p = j["points"][i];
    const bool noisy = p["noise"].get<double>() >= 1.0;
    EXPECT_EQ(p["too_noisy"].get<bool>(), noisy);
    EXPECT_EQ(p["status"], noisy ? "failed" : "passed");
    EXPECT_DOUBLE_EQ(p["ratio"].get<double>(), 1.0);
    EXPECT_NE(p["noise_from"].get<std::string>().find("repetitions"), std::string::npos)
        << p["noise_from"];
    // The attainment is the diagnosis `roofline run` put beside the point.
    EXPECT_DOUBLE_EQ(p["attainment"].get<double>(),
                     run["points"][i]["diagnosis"]["attainment"].get<double>());
  }
}
TEST(CliCheck, ABaselinesBandwidthRunsAndPointsNotComparedAreListed) {
  // The run: triad, an int8 point k (OP), a scale point, a copy bandwidth run (W = 0). The
  // baseline: triad, k in FLOP, scale and copy at L1 and DRAM as bandwidth runs. Each run the
  // baseline holds is said (it was left out unsaid), and k, whose work is of other units, is
  // named in a note as well as on its line: a reader of the notes or the JSON finds it.
  TempDir d;
  const json copy_l1 = {{"kernel", "copy"}, {"level", "L1"}, {"variant", ""}, {"bandwidth", 2e10}};
  write_text(d.file("now.json"),
             json({{"schema", "roofline.points"},
                   {"version", 1},
                   {"points",
                    {{{"name", "triad @L1"}, {"work", 2}, {"traffic", 24}, {"time", 1}},
                     {{"name", "k"},
                      {"work", 80},
                      {"traffic", 1},
                      {"time", 1},
                      {"precision", "int8"},
                      {"work_unit", "OP"}},
                     {{"name", "scale @L1"}, {"work", 1}, {"traffic", 16}, {"time", 1}}}},
                   {"run", {{"bandwidth_only", {copy_l1}}}}})
                 .dump());
  write_text(d.file("base.json"),
             json({{"schema", "roofline.points"},
                   {"version", 1},
                   {"points",
                    {{{"name", "triad @L1"}, {"work", 2}, {"traffic", 24}, {"time", 1}},
                     {{"name", "k"}, {"work", 80}, {"traffic", 1}, {"time", 1}}}},
                   {"run",
                    {{"bandwidth_only",
                      {copy_l1,
                       {{"kernel", "copy"}, {"level", "DRAM"}, {"variant", ""}},
                       {{"kernel", "scale"}, {"level", "L1"}, {"variant", ""}}}}}}})
                 .dump());
  auto r = run_cli({"check", d.file("now.json"), "--baseline", d.file("base.json")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string k_why = "work of different units (FLOP in the baseline, OP now)";
  EXPECT_NE(r.out.find("SKIP  k: P 80 OP/s against baseline 80 FLOP/s: not compared: " + k_why +
                       ": no regression check\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("SKIP  scale @L1: in the baseline as a bandwidth run (no arithmetic, W = "
                       "0), not a point: no regression check\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("SKIP  copy @L1: no arithmetic, W = 0: a bandwidth run, not a point: not "
                       "judged; a bandwidth run in the baseline too: not compared\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("SKIP  copy @DRAM: in the baseline only: missing from " + d.file("now.json") +
                 "; no arithmetic, W = 0: a bandwidth run, not a point: not compared\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: point 'k' not compared with the baseline: " + k_why +
                       ": no regression check\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("roofline check: passed, 5 points: 1 passed, 0 failed, 4 skipped\n"),
            std::string::npos)
      << r.out;
  r = run_cli({"check", d.file("now.json"), "--baseline", d.file("base.json"), "--json"});
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 5u) << r.out;
  EXPECT_EQ(j["points"][1]["baseline_not_compared"], k_why);
  EXPECT_FALSE(j["points"][1]["comparable"].get<bool>());
  EXPECT_FALSE(j["points"][0].contains("baseline_not_compared")) << r.out;
  EXPECT_EQ(j["notes"], json::array({"point 'k' not compared with the baseline: " + k_why +
                                     ": no regression check"}));
  const json& copy = j["points"][3];
  EXPECT_EQ(copy["name"], "copy @L1");
  EXPECT_TRUE(copy["bandwidth_only"].get<bool>());
  EXPECT_EQ(copy["reason"], "no arithmetic, W = 0");
  EXPECT_FALSE(copy.contains("baseline_only"));
  const json& dram = j["points"][4];
  EXPECT_EQ(dram["name"], "copy @DRAM");
  EXPECT_EQ(dram["status"], "skipped");
  EXPECT_TRUE(dram["bandwidth_only"].get<bool>());
  EXPECT_TRUE(dram["baseline_only"].get<bool>());
  EXPECT_EQ(j["counts"]["skipped"], 4);
}

}  // namespace ROOFLINE_UNITY_ID
