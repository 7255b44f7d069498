// `roofline diff` end to end: two catalogue machines, two measured-style documents with
// statistics, two points documents, the overlay chart, and refusals.
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

json load(const std::string& path) {
  return json::parse(slurp(path));
}

std::string machine(const std::string& name, double fp64, double dram, double dram_min,
                    double dram_max) {
  json j = {{"schema", "roofline.machine"},
            {"version", 1},
            {"name", name},
            {"compute", {{{"name", "fp64"}, {"precision", "fp64"}, {"peak", fp64}}}},
            {"memory",
             {{{"level", "DRAM"},
               {"bandwidth", dram},
               {"provenance", "measured"},
               {"stats",
                {{"repetitions", 5},
                 {"median", dram},
                 {"best", dram_max},
                 {"min", dram_min},
                 {"max", dram_max},
                 {"cv", 0.01}}}}}}};
  return j.dump();
}

TEST(CliDiff, TwoCatalogueMachinesRatiosFromTheirFiles) {
  auto r = run_cli({"diff", "h100-sxm", "h200", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["kind"], "machines");
  const json a = load(std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/h100-sxm.json");
  const json b = load(std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/h200.json");
  // Every roof present in both files appears with ratio b/a (values may be strings with units,
  // so compare against the tool's own A and B columns and check the ratio arithmetic).
  size_t shared = 0;
  for (const auto& c : a["compute"])
    for (const auto& d : b["compute"])
      if (c["name"] == d["name"]) ++shared;
  for (const auto& c : a["memory"])
    for (const auto& d : b["memory"])
      if (c["level"] == d["level"]) ++shared;
  // Plus one row for the default memory roofs, HBM3 against HBM3e: differently named, both the
  // machines' main memory.
  size_t defaults = 0;
  for (const auto& row : j["roofs"])
    if (row["name"] == "HBM3 → HBM3e (default memory roofs)") ++defaults;
  EXPECT_EQ(defaults, 1u) << r.out;
  ASSERT_EQ(j["roofs"].size(), shared + 1);
  ASSERT_GT(shared, 0u);
  for (const auto& row : j["roofs"]) {
    EXPECT_DOUBLE_EQ(row["ratio"].get<double>(), row["b"].get<double>() / row["a"].get<double>());
    EXPECT_TRUE(row["exceeds_spread"].is_null()) << "datasheet roofs carry no spread";
  }
  EXPECT_GT(j["ridge"]["a"].get<double>(), 0);
}

TEST(CliDiff, MeasuredSpreadsDecideTheVerdict) {
  TempDir d;
  // DRAM 20 GB/s (spread (20.4 − 19.6)/20 = 4%) against 21 GB/s (spread 2/21 ≈ 9.5%): ratio 1.05
  // is within the larger spread. fp64 100 → 100 G, no stats: unknown.
  write_text(d.file("a.json"), machine("box-a", 100e9, 20e9, 19.6e9, 20.4e9));
  write_text(d.file("b.json"), machine("box-b", 100e9, 21e9, 20e9, 22e9));
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("memory DRAM: 20 GB/s → 21 GB/s, B/A = 1.05 (spread A 4%, B 9.52%): within "
                       "the noise (9.52%: ratios 0.913043x to 1.09524x)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("compute fp64: 100 GFLOP/s → 100 GFLOP/s, B/A = 1 (spread A none, B "
                       "none): no spread carried"),
            std::string::npos)
      << r.out;
  // Ridge 100/20 = 5 → 100/21 = 4.762 FLOP/byte.
  EXPECT_NE(r.out.find("ridge I* = π/β: 5 FLOP/byte (fp64 / DRAM) → 4.762 FLOP/byte (fp64 / "
                       "DRAM), B/A = 0.9524"),
            std::string::npos)
      << r.out;
  // 20 → 24 GB/s with spreads 4% and 2/24: ratio 1.2 exceeds both.
  write_text(d.file("c.json"), machine("box-c", 100e9, 24e9, 23e9, 25e9));
  r = run_cli({"diff", d.file("a.json"), d.file("c.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["roofs"][1]["ratio"].get<double>(), 1.2);
  EXPECT_TRUE(j["roofs"][1]["exceeds_spread"].get<bool>());
  EXPECT_DOUBLE_EQ(j["roofs"][1]["noise"].get<double>(), 2.0 / 24);
  // 20 → 20.8 GB/s with spreads of 1%: 4% is beyond both spreads but within the 5% two runs
  // of a memory roof agree to; 20 → 21.2 GB/s (6%) is beyond it.
  write_text(d.file("e.json"), machine("box-e", 100e9, 20e9, 19.9e9, 20.1e9));
  write_text(d.file("f.json"), machine("box-f", 100e9, 20.8e9, 20.7e9, 20.9e9));
  write_text(d.file("g.json"), machine("box-g", 100e9, 21.2e9, 21.1e9, 21.3e9));
  r = run_cli({"diff", d.file("e.json"), d.file("f.json")});
  EXPECT_NE(
      r.out.find(
          "B/A = 1.04 (spread A 1%, B 0.962%): within the noise (5%: ratios 0.952381x to 1.05x)"),
      std::string::npos)
      << r.out;
  r = run_cli({"diff", d.file("e.json"), d.file("g.json")});
  EXPECT_NE(
      r.out.find(
          "B/A = 1.06 (spread A 1%, B 0.943%): exceeds the noise (5%: ratios 0.952381x to 1.05x)"),
      std::string::npos)
      << r.out;
}

TEST(CliDiff, OverlayChartHasBothMachines) {
  TempDir d;
  write_text(d.file("a.json"), machine("box-a", 100e9, 20e9, 19.6e9, 20.4e9));
  write_text(d.file("b.json"), machine("box-b", 200e9, 21e9, 20e9, 22e9));
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--report", d.file("o.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = slurp(d.file("o.svg"));
  auto root = roofline::test::XmlReader(svg).parse();
  EXPECT_EQ(root->name, "svg");
  EXPECT_NE(svg.find("box-a"), std::string::npos);
  EXPECT_NE(svg.find("box-b"), std::string::npos);
}

TEST(CliDiff, PointsDocumentsPerPointRatios) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 2, "run": {"times": [2, 2.02, 2.04]}},
    {"name": "gone", "work": 1, "traffic": 1, "time": 1}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 20, "time": 1, "run": {"times": [1, 1.01, 1.02]}},
    {"name": "new", "work": 1, "traffic": 1, "time": 1}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["kind"], "points");
  ASSERT_EQ(j["points"].size(), 1u);
  // P 50 → 100 FLOP/s: 2; I 10 → 5 FLOP/byte: 0.5; spreads (1/2 − 1/2.04)·2.02 and
  // (1 − 1/1.02)·1.01, both < 1: exceeds.
  EXPECT_DOUBLE_EQ(j["points"][0]["ratio"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["points"][0]["intensity_ratio"].get<double>(), 0.5);
  EXPECT_NEAR(j["points"][0]["spread_a"].get<double>(), (0.5 - 1 / 2.04) * 2.02, 1e-12);
  EXPECT_TRUE(j["points"][0]["exceeds_spread"].get<bool>());
  EXPECT_EQ(j["only_a"][0], "gone");
  EXPECT_EQ(j["only_b"][0], "new");
}

// A 2% slowdown of runs that barely spread: `check --baseline` passes it within the run-to-run
// floor of 3%, and diff said of the same pair "exceeds both runs' spread" (its floor was 0, and
// "both" was said with one spread carried).
TEST(CliDiff, PointsAreJudgedAgainstTheSameNoiseAsCheck) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 1, "run": {"times": [1, 1.001, 1.002]}}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 1.02}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_FALSE(j["points"][0]["exceeds_spread"].get<bool>());
  EXPECT_DOUBLE_EQ(j["points"][0]["noise"].get<double>(), 0.03);
  EXPECT_TRUE(j["points"][0]["intensity_level"].is_null()) << "a bare number: the default level";
  r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("B/A = 0.9804; I B/A = 1 (spread A 0.2%, B none): within the noise (3%: "
                       "ratios 0.970874x to 1.03x)\n"),
            std::string::npos)
      << r.out;
  const auto c = run_cli({"check", d.file("b.json"), "--baseline", d.file("a.json"), "--peak", "1T",
                          "--bandwidth", "1T"});
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("within the noise ±3%"), std::string::npos) << c.out;
  // B/A beside a 3% noise is printed apart from the band's low end 1/1.03 = 0.970874: 0.970864
  // (T 1.03001) exceeds it, 0.970883 (T 1.02999) does not (both printed "0.9709").
  write_text(d.file("e.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 1.03001}]})");
  r = run_cli({"diff", d.file("a.json"), d.file("e.json")});
  EXPECT_NE(r.out.find("B/A = 0.97086; I B/A = 1 (spread A 0.2%, B none): exceeds the noise (3%: "
                       "ratios 0.970874x to 1.03x)"),
            std::string::npos)
      << r.out;
  write_text(d.file("w.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 1.02999}]})");
  r = run_cli({"diff", d.file("a.json"), d.file("w.json")});
  EXPECT_NE(r.out.find("B/A = 0.97088; I B/A = 1 (spread A 0.2%, B none): within the noise (3%: "
                       "ratios 0.970874x to 1.03x)"),
            std::string::npos)
      << r.out;
  // 5% is beyond it in both.
  write_text(d.file("c.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 1.05}]})");
  r = run_cli({"diff", d.file("a.json"), d.file("c.json")});
  EXPECT_NE(r.out.find("exceeds the noise (3%: ratios 0.970874x to 1.03x)"), std::string::npos)
      << r.out;
  EXPECT_EQ(run_cli({"check", d.file("c.json"), "--baseline", d.file("a.json"), "--peak", "1T",
                     "--bandwidth", "1T"})
                .exit_code,
            5);
}

// An int8 point's P reads in OP/s in diff and check --baseline (it read 1 TFLOP/s).
TEST(CliDiff, IntegerPointsReadInOp) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "i8", "work": 1e12, "traffic": 1e10, "time": 1, "precision": "int8"}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "i8", "work": 1e12, "traffic": 1e10, "time": 1.5, "precision": "int8"}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("i8: P 1 TOP/s → 666.7 GOP/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLOP"), std::string::npos) << r.out;
  r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  const json j = json::parse(r.out);
  EXPECT_EQ(j["points"][0]["performance_unit_a"], "OP/s");
  const auto c =
      run_cli({"check", d.file("b.json"), "--baseline", d.file("a.json"), "--hw", "h100-sxm"});
  EXPECT_NE(c.out.find("P 666.7 GOP/s = "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("× baseline 1 TOP/s"), std::string::npos) << c.out;
}

// One workload run at fp32 in A and fp16 in B: the ratio of P is given and said to count work
// on different units (it was given without a word); a case-only difference is no change.
TEST(CliDiff, PointsOfDifferentPrecisionsAreSaidToBe) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e12, "traffic": 1e10, "time": 0.01, "precision": "fp32"},
    {"name": "same", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "FP16"}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e12, "traffic": 1e10, "time": 0.008, "precision": "fp16"},
    {"name": "same", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp16"}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("B/A = 1.25; I B/A = 1 (spread A none, B none): no spread carried: cannot "
                       "say whether it exceeds the noise; precision fp32 → fp16: P counts work on "
                       "different units\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("precision FP16"), std::string::npos) << r.out;
  r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["points"][0]["precision_a"], "fp32");
  EXPECT_EQ(j["points"][0]["precision_b"], "fp16");
}

// I is compared at a level both points have: A's L2 against B's L2, never against B's HBM
// (which sorts first in B's object). Points sharing no level say so.
TEST(CliDiff, IntensityIsComparedAtALevelBothHave) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": {"L2": 1e8}, "time": 1},
    {"name": "apart", "work": 1e9, "traffic": {"L1": 1e8}, "time": 1}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": {"L2": 2e8, "HBM": 1e9}, "time": 1},
    {"name": "apart", "work": 1e9, "traffic": {"HBM": 1e8}, "time": 1}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 2u);
  // I(L2) 10 → 5 FLOP/byte: 0.5 (at B's HBM it would have read 0.1).
  EXPECT_DOUBLE_EQ(j["points"][0]["intensity_ratio"].get<double>(), 0.5);
  EXPECT_EQ(j["points"][0]["intensity_level"], "L2");
  EXPECT_TRUE(j["points"][1]["intensity_ratio"].is_null());
  r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("; I(L2) B/A = 0.5 ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("apart: P 1 GFLOP/s → 1 GFLOP/s, B/A = 1; I: no traffic level in both ("),
            std::string::npos)
      << r.out;
}

TEST(CliDiff, MixedKindsAndUnknownNamesAreRefused) {
  TempDir d;
  write_text(d.file("a.json"), machine("box-a", 100e9, 20e9, 19.6e9, 20.4e9));
  write_text(d.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 100, "traffic": 10, "time": 2}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("p.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give two machine documents or two points documents"), std::string::npos)
      << r.err;
  r = run_cli({"diff", d.file("a.json"), "no-such-machine-xyz"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-such-machine-xyz"), std::string::npos) << r.err;
  r = run_cli({"diff", d.file("p.json"), d.file("p.json"), "--report", d.file("o.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(d.file("o.svg")));
}

TEST(CliDiff, NamesFromFilesStayOnTheirLineAndEscaped) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k FAKE \u001b[2J", "work": 100, "traffic": 10, "time": 2}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k FAKE \u001b[2J", "work": 100, "traffic": 10, "time": 1}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_NE(r.out.find("k FAKE \\u001b[2J: P 50 FLOP/s → 100 FLOP/s, B/A = 2"), std::string::npos)
      << r.out;
  // A name with a line break would forge a line of output in every sentence that names it: it
  // is refused, the file named and the name shown escaped.
  write_text(d.file("c.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k\nroofline check: passed", "work": 100, "traffic": 10, "time": 1}]})");
  r = run_cli({"diff", d.file("c.json"), d.file("b.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("c.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'k\\u000aroofline check: passed' must be one line"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("\nroofline check: passed"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// Work of different units (FLOP in A, OP in B) is no change of one rate (docs/model.md §11):
// diff says so and judges neither way, and check --baseline neither fails nor passes it on its
// ratio, as a precision change is said.
TEST(CliDiff, PointsOfDifferentWorkUnitsAreNotCompared) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 4e11, "traffic": 1e9, "time": 1}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 8e11, "work_unit": "OP", "traffic": 1e9, "time": 1}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("k: P 400 GFLOP/s → 800 GOP/s, B/A = 2; I B/A = 2 (spread A none, B none): "
                       "not compared: work of different units (FLOP in A, OP in B)\n"),
            std::string::npos)
      << r.out;
  r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_FALSE(j["points"][0]["comparable"].get<bool>()) << r.out;
  EXPECT_TRUE(j["points"][0]["exceeds_spread"].is_null()) << r.out;
  // The same units on both sides: compared as before.
  r = run_cli({"diff", d.file("a.json"), d.file("a.json"), "--json"});
  EXPECT_TRUE(json::parse(r.out)["points"][0]["comparable"].get<bool>()) << r.out;
  const auto c =
      run_cli({"check", d.file("b.json"), "--baseline", d.file("a.json"), "--peak", "10T",
               "--bandwidth", "1T", "--precision", "int8", "--min-attainment", "0.01"});
  EXPECT_EQ(c.out.find("regressed"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("improved"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("P 800 GOP/s against baseline 400 GFLOP/s: not compared: work of different "
                       "units (FLOP in the baseline, OP now): no regression check"),
            std::string::npos)
      << c.out << c.err;
  // Judged on its roof alone: 800 GOP/s of 10 TOP/s, 8%, passes 1%; its baseline not held
  // against it.
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

// A points document of `roofline run` holding a bandwidth run (copy: W = 0, no point) beside
// its points; `with_copy_at_dram` adds one more.
std::string run_points(bool with_copy_at_dram) {
  json runs = json::array();
  runs.push_back({{"kernel", "copy"},
                  {"level", "L1"},
                  {"variant", ""},
                  {"bandwidth", 2e10},
                  {"sustained", 1.5e-6},
                  {"traffic", {{{"level", "L1"}, {"bytes", 32768}}}}});
  if (with_copy_at_dram) runs.push_back({{"kernel", "copy"}, {"level", "DRAM"}, {"variant", ""}});
  json j = {
      {"schema", "roofline.points"},
      {"version", 1},
      {"points", {{{"name", "triad @L1"}, {"work", 2048}, {"traffic", 49152}, {"time", 2e-6}}}},
      {"run", {{"bandwidth_only", runs}}}};
  return j.dump();
}

TEST(CliDiff, BandwidthRunsAreSaidNotCompared) {
  // A run of no arithmetic is no point: diff lists it, with the documents that hold it and why,
  // where it dropped it unsaid; in the JSON as plot, point and check list it.
  TempDir d;
  write_text(d.file("a.json"), run_points(true));
  write_text(d.file("b.json"), run_points(false));
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ncopy @L1 (A and B): no arithmetic, W = 0: a bandwidth run, not a point: "
                       "not compared\ncopy @DRAM (A): no arithmetic, W = 0: a bandwidth run, not a "
                       "point: not compared\n"),
            std::string::npos)
      << r.out;
  r = run_cli({"diff", d.file("b.json"), d.file("a.json")});
  EXPECT_NE(r.out.find("\ncopy @DRAM (B): no arithmetic"), std::string::npos) << r.out;
  r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["not_compared_a"].size(), 2u) << r.out;
  ASSERT_EQ(j["not_compared_b"].size(), 1u) << r.out;
  const json& copy = j["not_compared_a"][0];
  EXPECT_EQ(copy["name"], "copy @L1");
  EXPECT_EQ(copy["reason"], "no arithmetic, W = 0");
  EXPECT_EQ(copy["detail"],
            "copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run (Q/T = 20 GB/s), "
            "not a point");
  EXPECT_TRUE(copy["bandwidth_only"].get<bool>());
  EXPECT_EQ(copy["traffic"], json::parse(R"([{"level": "L1", "bytes": 32768.0}])"));
  EXPECT_DOUBLE_EQ(copy["time"].get<double>(), 1.5e-6);
  EXPECT_TRUE(j["not_compared_a"][1]["time"].is_null()) << r.out;
  EXPECT_EQ(j["not_compared_a"][1]["traffic"], json::array()) << r.out;
  EXPECT_EQ(j["points"].size(), 1u) << r.out;
  // Documents without such runs: empty lists, no line.
  write_text(d.file("c.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1, "traffic": 1, "time": 1}]})");
  r = run_cli({"diff", d.file("c.json"), d.file("c.json"), "--json"});
  EXPECT_EQ(json::parse(r.out)["not_compared_a"], json::array()) << r.out;
  r = run_cli({"diff", d.file("c.json"), d.file("c.json")});
  EXPECT_EQ(r.out.find("not compared"), std::string::npos) << r.out;
}

TEST(CliDiff, MachineRoofsOfDifferentWorkUnitsAreNotCompared) {
  // A's default roof counts FLOP, B's only roof OP (int8): each is printed in its own unit and
  // neither the roofs nor the ridges are compared (the row read "1 TFLOP/s → 4 TFLOP/s, B/A = 4").
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.machine", "version": 1, "name": "fp",
    "compute": [{"name": "fp32", "precision": "fp32", "peak": 1e12}],
    "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.machine", "version": 1, "name": "int",
    "compute": [{"name": "int8", "precision": "int8", "peak": 4e12}],
    "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ncompute fp32 → int8 (default compute roofs, of different precisions: "
                       "fp32 against int8): 1 TFLOP/s → 4 TOP/s, B/A = 4 (spread A none, B none): "
                       "not compared: work of different units (FLOP in A, OP in B)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nridge I* = π/β: 10 FLOP/byte (fp32 / DRAM) → 40 OP/byte (int8 / DRAM), "
                       "not compared: work of different units (FLOP in A, OP in B)\n"),
            std::string::npos)
      << r.out;
  r = run_cli({"diff", d.file("a.json"), d.file("b.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  bool seen = false;
  for (const auto& row : j["roofs"]) {
    if (row["kind"] != "compute") {
      EXPECT_TRUE(row["comparable"].get<bool>()) << row.dump();
      EXPECT_FALSE(row.contains("unit_a")) << row.dump();
      continue;
    }
    seen = true;
    EXPECT_FALSE(row["comparable"].get<bool>()) << row.dump();
    EXPECT_TRUE(row["exceeds_spread"].is_null()) << row.dump();
    EXPECT_EQ(row["unit_a"], "FLOP/s") << row.dump();
    EXPECT_EQ(row["unit_b"], "OP/s") << row.dump();
  }
  EXPECT_TRUE(seen) << r.out;
  EXPECT_FALSE(j["ridge"]["comparable"].get<bool>()) << r.out;
  EXPECT_EQ(j["ridge"]["unit_a"], "FLOP/byte") << r.out;
  EXPECT_EQ(j["ridge"]["unit_b"], "OP/byte") << r.out;
  // The same units on both sides: compared, the ridge with its ratio.
  write_text(d.file("c.json"), slurp(d.file("a.json")));
  r = run_cli({"diff", d.file("a.json"), d.file("c.json")});
  EXPECT_NE(r.out.find("(fp32 / DRAM), B/A = 1\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not compared"), std::string::npos) << r.out;
}

// I is quoted at the first of A's traffic levels as the file gives them (docs/check.md), not the
// first in alphabetical order: the JSON reader keeps the file's order of a traffic object.
TEST(CliDiff, IntensityIsAtTheFirstLevelTheFileGives) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": {"L3": 1e8, "L2": 2e8}, "time": 1}]})");
  write_text(d.file("b.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": {"L3": 2e8, "L2": 2e8}, "time": 1}]})");
  const auto r = run_cli({"diff", d.file("a.json"), d.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // I(L3) 10 → 5 FLOP/byte; I(L2) would be 1.
  EXPECT_NE(r.out.find("; I(L3) B/A = 0.5 ("), std::string::npos) << r.out;
}
}  // namespace ROOFLINE_UNITY_ID
