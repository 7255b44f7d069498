// `roofline check` and `diff` as a CI engineer meets them: outputs refused before anything is
// written, the figures of every attainment line, thresholds met exactly, and `diff` judging a
// too-noisy pair as `check --baseline` does.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::slurp;
using roofline::test::TempDir;
using roofline::test::write_text;

namespace ROOFLINE_UNITY_ID {

const char* kPoints = R"({"schema": "roofline.points", "version": 1, "points": [
  {"name": "k", "work": 80, "traffic": 1, "time": 1}]})";

// -o naming one of the inputs was refused only when the report was written, after the JUnit
// file had been written green: the gate's error goes to JUnit and nothing else is written.
TEST(CliCheckGate, OutputOntoAnInputIsRefusedBeforeTheJunitReport) {
  TempDir d;
  write_text(d.file("p.json"), kPoints);
  write_text(d.file("old.json"), kPoints);
  for (const char* input : {"p.json", "old.json"}) {
    std::filesystem::remove(d.file("ci.xml"));
    const std::string before = slurp(d.file(input));
    const auto r = run_cli({"check", d.file("p.json"), "--peak", "100", "--bandwidth", "10",
                            "--min-attainment", "0.1", "--baseline", d.file("old.json"), "--junit",
                            d.file("ci.xml"), "-o", d.file(input)});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("is also an input"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(d.file(input)), before);
    const std::string xml = slurp(d.file("ci.xml"));
    EXPECT_NE(xml.find("errors=\"1\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("is also an input"), std::string::npos) << xml;
    EXPECT_EQ(xml.find("failures=\"0\" errors=\"0\""), std::string::npos) << xml;
  }
}

// A command with two outputs wrote the first before the second was refused as one of its inputs.
TEST(CliCheckGate, DiffRefusesAnOutputOntoAnInputBeforeWritingTheOther) {
  TempDir d;
  std::filesystem::copy_file(
      std::filesystem::path(ROOFLINE_SOURCE_DIR) / "data/hardware/h100-sxm.json", d.file("m.json"));
  const std::string before = slurp(d.file("m.json"));
  auto r = run_cli(
      {"diff", d.file("m.json"), "h200", "-o", d.file("m.json"), "--report", d.file("chart.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("is also an input"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d.file("chart.svg")));
  EXPECT_EQ(slurp(d.file("m.json")), before);
  r = run_cli(
      {"diff", d.file("m.json"), "h200", "-o", d.file("out.txt"), "--report", d.file("m.json")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_FALSE(std::filesystem::exists(d.file("out.txt")));
  EXPECT_EQ(slurp(d.file("m.json")), before);
}

// Each attainment line carries what a CI log needs to recompute it: P, the attainable P and
// the roof that sets it. h: W = 1e9, T = 0.2 s → P = 5 GFLOP/s; I(L3) = 1e9/20e9 = 0.05, and
// 0.05 × 200 GB/s = 10 GFLOP/s < I(DRAM)·β = 1 × 20 GB/s and π = 100 GFLOP/s: attainment 0.5.
TEST(CliCheckGate, AttainmentLinesCarryTheirFigures) {
  TempDir d;
  write_text(d.file("m.json"), R"({"schema":"roofline.machine","version":1,"name":"mA",
    "default_compute":"fp64","default_memory":"DRAM",
    "compute":[{"name":"fp64","precision":"fp64","peak":100e9}],
    "memory":[{"level":"DRAM","bandwidth":20e9},{"level":"L3","bandwidth":200e9}]})");
  write_text(d.file("p.json"), R"({"schema":"roofline.points","version":1,"points":[
    {"name":"h","work":1e9,"traffic":{"DRAM":1e9,"L3":20e9},"time":0.2},
    {"name":"above","work":1e9,"traffic":1e6,"time":0.005}]})");
  auto r = run_cli(
      {"check", d.file("p.json"), "--machine", d.file("m.json"), "--min-attainment", "0.9"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  h: attainment 0.5 < 0.9 (--min-attainment): P 5 GFLOP/s of "
                       "attainable 10 GFLOP/s (L3: I 0.05 FLOP/byte × 200 GB/s)"),
            std::string::npos)
      << r.out;
  // above: P = 1e9/0.005 = 200 GFLOP/s at I = 1000, on the 100 GFLOP/s roof: attainment 2.
  EXPECT_NE(r.out.find("FAIL  above: attainment 2 is above its roof: the measurement or the roof "
                       "is wrong: P 200 GFLOP/s of attainable 100 GFLOP/s (fp64, 100 GFLOP/s)"),
            std::string::npos)
      << r.out;
  r = run_cli({"check", d.file("p.json"), "--machine", d.file("m.json"), "--min-attainment", "0.9",
               "--json"});
  const json j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["points"][0]["attainable"].get<double>(), 10e9);
  EXPECT_EQ(j["points"][0]["binding_level"], "L3");
  EXPECT_TRUE(j["points"][0]["binding_is_memory"].get<bool>());
  EXPECT_EQ(j["points"][0]["threshold_from"], "--min-attainment");
}

// Figures equal to their threshold in exact arithmetic pass however they round in doubles:
// 6.3/0.07 = 90 FLOP/s of a 100 FLOP/s roof is 0.9 (0.8999999999999999 in doubles); W = 3,
// T = 0.33 against T = 0.3 is a ratio of 1/1.1 (0.9090909090909089), the band's low end at a
// noise of 10%, as W = 1, T = 1.1 against 1.0 is.
TEST(CliCheckGate, FiguresAtTheirThresholdPassWhateverTheirRounding) {
  TempDir d;
  write_text(d.file("a.json"), R"({"schema":"roofline.points","version":1,"points":[
    {"name":"a","work":6.3,"traffic":0.0001,"time":0.07}]})");
  auto r = run_cli(
      {"check", d.file("a.json"), "--peak", "100", "--bandwidth", "10", "--min-attainment", "0.9"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS  a: attainment 0.9 ≥ 0.9 (--min-attainment)"), std::string::npos)
      << r.out;
  write_text(d.file("old.json"), R"({"schema":"roofline.points","version":1,"points":[
    {"name":"k","work":3,"traffic":1,"time":0.3},{"name":"j","work":1,"traffic":1,"time":1.0}]})");
  write_text(d.file("new.json"), R"({"schema":"roofline.points","version":1,"points":[
    {"name":"k","work":3,"traffic":1,"time":0.33},{"name":"j","work":1,"traffic":1,"time":1.1}]})");
  r = run_cli({"check", d.file("new.json"), "--baseline", d.file("old.json"), "--noise", "0.1"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS  k: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS  j: "), std::string::npos) << r.out;
  // The assumed noise says where it came from.
  EXPECT_NE(r.out.find("(assumed (--noise): neither document carries a spread"), std::string::npos)
      << r.out;
  r = run_cli({"check", d.file("new.json"), "--baseline", d.file("old.json")});
  EXPECT_NE(r.out.find("(assumed (the default 10%): neither document carries a spread"),
            std::string::npos)
      << r.out;
}

// A precision the machine lacks is named, not a level of the point's (the point has L2 traffic
// and h100-pcie lists no L2 roof: "no memory roof for level 'L2'" had been said).
TEST(CliCheckGate, MisspeltPrecisionIsNamedBeforeTheLevels) {
  TempDir d;
  write_text(d.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "stream", "work": "1 GFLOP", "traffic": {"HBM": "1.5 TB", "L2": "3 TB"},
     "time": 1}]})");
  const auto r = run_cli({"check", d.file("p.json"), "--hw", "h100-pcie", "--min-attainment", "0.5",
                          "--precision", "fp7"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("'fp7'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("level 'L2'"), std::string::npos) << r.err;
}

// check fails a pair whose noise is 100% or more as too noisy to judge; diff had called it
// "within the noise". New times 1 s and 4 s (rates 1 and 0.25 FLOP/s, median 0.625, range 0.75:
// spread 120%) against a baseline of 1 s.
TEST(CliCheckGate, DiffCallsATooNoisyPairWhatCheckCallsIt) {
  TempDir d;
  write_text(d.file("old.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name":"k","work":1,"traffic":1,"time":1}]})");
  write_text(d.file("new.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name":"k","work":1,"traffic":1,"time":2,"run":{"times":[1,4]}}]})");
  auto r = run_cli({"check", d.file("new.json"), "--baseline", d.file("old.json")});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("too noisy to judge: the noise ±120%"), std::string::npos) << r.out;
  r = run_cli({"diff", d.file("old.json"), d.file("new.json")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("too noisy to judge: the noise 120% is 100% or more"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("within the noise"), std::string::npos) << r.out;
  r = run_cli({"diff", d.file("old.json"), d.file("new.json"), "--json"});
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["points"][0]["exceeds_spread"].is_null()) << r.out;
  EXPECT_TRUE(j["points"][0]["too_noisy"].get<bool>()) << r.out;
  EXPECT_DOUBLE_EQ(j["points"][0]["noise"].get<double>(), 1.2);
}

}  // namespace ROOFLINE_UNITY_ID
