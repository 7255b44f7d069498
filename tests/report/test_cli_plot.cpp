// `roofline plot` as a user runs it: formats by extension, terminal output, and bad inputs that
// exit 2 with a clear message and write nothing.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/xml_lite.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::run_cli;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

TEST(CliPlot, WritesSvgHtmlJsonCsv) {
  test::TempDir dir;
  for (const std::string ext : {"svg", "html", "json", "csv"}) {
    const auto r = run_cli({"plot", kData + "machine.json", kData + "points.json", "-o",
                            dir.file("chart." + ext), "--at", "2", "--no-overlap", "--compare",
                            kData + "other_machine.json"});
    EXPECT_EQ(r.exit_code, 0) << ext << ": " << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir.file("chart." + ext))) << ext;
  }
  auto svg = test::parse_xml(test::slurp(dir.file("chart.svg")));
  EXPECT_EQ(svg->find_all([](const test::XmlNode& n) { return n.has_class("point"); }).size(), 5u);
  EXPECT_EQ(svg->find_all([](const test::XmlNode& n) {
                 return n.has_class("overlay") && n.has("data-roof");
               })
                .size(),
            2u);
}

TEST(CliPlot, TerminalWhenPipedHasNoColour) {
  const auto r = run_cli(
      {"plot", kData + "machine.json", kData + "points.json", "--terminal", "--width", "90"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\033'), std::string::npos);
  EXPECT_NE(r.out.find("Operational intensity [FLOP/byte]"), std::string::npos);
  EXPECT_NE(r.out.find("dgemm 2048"), std::string::npos);
}

// Without --width the plot takes $COLUMNS when standard output is no terminal (a pager), within
// 40 and the maximum: it had been 100 wide whatever COLUMNS said.
TEST(CliPlot, TerminalWidthFollowsColumnsWithinItsBounds) {
  const std::vector<std::string> plot = {"plot", kData + "machine.json", kData + "points.json",
                                         "--terminal"};
  auto with_width = [&](const std::string& width) {
    auto args = plot;
    args.insert(args.end(), {"--width", width});
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  for (const auto& [columns, width] : std::vector<std::pair<std::string, std::string>>{
           {"COLUMNS=60", "60"}, {"COLUMNS=5", "40"}, {"COLUMNS=", "100"}, {"COLUMNS=x", "100"}}) {
    SCOPED_TRACE(columns);
    const auto r = run_cli(plot, columns);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, with_width(width));
  }
  EXPECT_NE(with_width("60"), with_width("100"));
}

TEST(CliPlot, UnknownExtensionExitsTwoAndWritesNothing) {
  test::TempDir dir;
  const auto r = run_cli({"plot", kData + "machine.json", "-o", dir.file("chart.pdf")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown format '.pdf'"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("chart.pdf")));
}

TEST(CliPlot, MalformedJsonExitsTwoAndWritesNothing) {
  test::TempDir dir;
  auto r = run_cli(
      {"plot", kData + "machine.json", kData + "malformed.json", "-o", dir.file("chart.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("malformed.json"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("chart.svg")));
  r = run_cli({"plot", kData + "malformed.json", "-o", dir.file("chart.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("chart.svg")));
  r = run_cli({"plot", kData + "missing-file.json", "-o", dir.file("chart.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("chart.svg")));
}

TEST(CliPlot, PointsWithoutAMatchingRoofExitTwo) {
  test::TempDir dir;
  const auto r = run_cli(
      {"plot", kData + "machine.json", kData + "points_fp16.json", "-o", dir.file("chart.html")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("points_fp16.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("half gemm"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("fp16"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("chart.html")));
}

TEST(CliPlot, BadWorkloadIntensityExitsTwo) {
  test::TempDir dir;
  const auto r =
      run_cli({"plot", kData + "machine.json", "--at", "2 TB/s", "-o", dir.file("c.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("c.svg")));
}

TEST(CliPlot, PointAndKernelWriteTheSameReport) {
  test::TempDir dir;
  auto r = run_cli({"point", "--work", "2e9", "--traffic", "12e9", "--time", "0.0065", "--peak",
                    "19.5T", "--bandwidth", "2 TB/s", "--report", dir.file("p.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto svg = test::parse_xml(test::slurp(dir.file("p.svg")));
  auto points = svg->find_all([](const test::XmlNode& n) { return n.has_class("point"); });
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0]->attr("data-verdict"), "memory-bound");  // 92.3% of 333 GFLOP/s
  r = run_cli({"kernel", "saxpy", "--n", "1e8", "--peak", "19.5T", "--bandwidth", "2 TB/s",
               "--report", dir.file("k.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  svg = test::parse_xml(test::slurp(dir.file("k.svg")));
  auto marks = svg->find_all([](const test::XmlNode& n) { return n.has_class("workload-mark"); });
  ASSERT_EQ(marks.size(), 1u);
  // SAXPY fp32: I = 1/6, attainable = 2 TB/s / 6 = 333.3 GFLOP/s (docs/model.md §3).
  EXPECT_NEAR(std::stod(marks[0]->attr("data-attainable")), 2e12 / 6, 1e3);
  r = run_cli({"kernel", "saxpy", "--n", "1e8", "--report", dir.file("none.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.svg")));
}

// The chart's workload line is judged on the roofs the text used: --dtype/--precision and
// --level, not the machine's default roofs (it was fp32 and DRAM, 2x the fp64 roof here).
TEST(CliPlot, KernelReportUsesTheRoofsOfItsText) {
  test::TempDir dir;
  const std::string machine = dir.file("m.json");
  {
    std::ofstream f(machine);
    f << R"({"schema": "roofline.machine", "version": 1, "name": "tm",
      "default_compute": "fp32", "default_memory": "DRAM",
      "compute": [{"name": "fp32", "precision": "fp32", "peak": 1e12, "source": "given"},
                  {"name": "fp64", "precision": "fp64", "peak": 5e11, "source": "given"}],
      "memory": [{"level": "DRAM", "kind": "memory", "bandwidth": 1e11, "source": "given"},
                 {"level": "L2", "kind": "cache", "bandwidth": 1e12, "source": "given"}]})";
  }
  auto r = run_cli({"kernel", "gemm", "--m", "1000", "--n", "1000", "--k", "1000", "--dtype",
                    "fp64", "--machine", machine, "--level", "L2", "--report", dir.file("k.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // dgemm 1000³: W = 2e9, Q = 3·1000²·8 = 24e6, I = 83.3; on fp64 and L2 min(5e11, 1e12·83.3).
  EXPECT_NE(r.out.find("attainable P = min(π, β·I) = 500 GFLOP/s"), std::string::npos) << r.out;
  const auto report = nlohmann::json::parse(test::slurp(dir.file("k.json")));
  const auto& w = report.at("workload");
  EXPECT_EQ(w.at("precision"), "fp64");
  EXPECT_EQ(w.at("level"), "L2");
  EXPECT_EQ(w.at("machines").at(0).at("compute_roof"), "fp64");
  EXPECT_EQ(w.at("machines").at(0).at("memory_level"), "L2");
  EXPECT_DOUBLE_EQ(w.at("machines").at(0).at("attainable").get<double>(), 5e11);
  // copy has I = 0: the chart shows the roofs alone and the text says why (it was an error
  // after the analysis, with nothing written).
  r = run_cli(
      {"kernel", "copy", "--n", "1e6", "--machine", machine, "--report", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--report: no workload line (I = 0"), std::string::npos) << r.out;
  const auto svg = test::parse_xml(test::slurp(dir.file("c.svg")));
  EXPECT_TRUE(
      svg->find_all([](const test::XmlNode& n) { return n.has_class("workload-mark"); }).empty());
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
