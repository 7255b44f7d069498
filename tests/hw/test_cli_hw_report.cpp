// `roofline hw ... --report FILE`: the charts of show (the device's roofs), compare (overlays and
// the workload line with its ratio, on the roofs --precision chose) and ridges (the memory-wall
// trajectory); paths refused before any work.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/xml_lite.hpp"

using nlohmann::json;
using roofline::test::parse_xml;
using roofline::test::run_cli;
using roofline::test::slurp;
using roofline::test::TempDir;
using roofline::test::XmlNode;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
bool has_rsvg() {
  return std::system("command -v rsvg-convert >/dev/null 2>&1") == 0;
}
std::vector<const XmlNode*> all(const XmlNode& root, const std::string& element,
                                const std::string& cls = "") {
  return root.find_all(
      [&](const XmlNode& n) { return n.name == element && (cls.empty() || n.has_class(cls)); });
}
/// The drawn roof lines (the legend's swatches carry no data-roof).
std::vector<const XmlNode*> roof_lines(const XmlNode& root, const std::string& cls) {
  std::vector<const XmlNode*> out;
  for (const XmlNode* n : all(root, "line", cls))
    if (n->has("data-roof")) out.push_back(n);
  return out;
}

TEST(CliHwReport, ShowDrawsTheDevicesRoofs) {
  TempDir dir;
  auto r = run_cli({"hw", "show", "h100-sxm", "--report", dir.file("roofs.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("NVIDIA H100 SXM5 80GB (h100-sxm)"), std::string::npos);  // table too
  const auto root = parse_xml(slurp(dir.file("roofs.svg")));
  ASSERT_EQ(root->name, "svg");
  std::map<std::string, double> roofs;  // data-roof -> data-value
  for (const XmlNode* l : roof_lines(*root, "roof")) {
    EXPECT_EQ(l->attr("data-machine"), "h100-sxm");
    EXPECT_FALSE(l->has_class("overlay"));
    roofs[l->attr("data-roof")] = std::stod(l->attr("data-value"));
  }
  EXPECT_DOUBLE_EQ(roofs.at("bf16 tensor"), 989.4e12);
  EXPECT_DOUBLE_EQ(roofs.at("fp32 vector"), 66.9e12);
  EXPECT_DOUBLE_EQ(roofs.at("HBM3"), 3.35e12);
  EXPECT_DOUBLE_EQ(roofs.at("NVLink"), 900e9);
  EXPECT_TRUE(all(*root, "g", "layer-overlay").empty());
  EXPECT_NE(slurp(dir.file("roofs.svg")).find("Roofs of NVIDIA H100 SXM5 80GB"), std::string::npos);

  // HTML: one page with the chart; --level moves the highlighted memory roof.
  r = run_cli({"hw", "show", "h100-sxm", "--level", "NVLink", "--report", dir.file("roofs.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = slurp(dir.file("roofs.html"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("default roofs: fp32 vector × NVLink"), std::string::npos);

  if (!has_rsvg()) GTEST_SKIP() << "rsvg-convert (librsvg2-bin) not installed";
  r = run_cli({"hw", "show", "tpu-v5e", "--report", dir.file("roofs.png")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(dir.file("roofs.png")).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(CliHwReport, CompareDrawsOverlaysAndTheWorkloadLineOnTheChosenRoofs) {
  TempDir dir;
  auto r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1000", "--precision", "bf16",
                    "--report", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("h100-sxm vs a100-80gb"), std::string::npos);  // the table too
  const auto root = parse_xml(slurp(dir.file("c.svg")));
  // The second machine is drawn as an overlay; its highlighted roof is the one compared.
  std::set<std::string> overlay_defaults;
  bool overlay = false;
  for (const XmlNode* l : roof_lines(*root, "overlay")) {
    EXPECT_EQ(l->attr("data-machine"), "h100-sxm");
    overlay = true;
    if (l->has_class("default")) overlay_defaults.insert(l->attr("data-roof"));
  }
  EXPECT_TRUE(overlay);
  EXPECT_EQ(overlay_defaults, (std::set<std::string>{"bf16 tensor", "HBM3"}));
  // The workload line at I = 1000 with each machine's bf16 roof height and the peak ratio.
  const auto layer = all(*root, "g", "layer-workload");
  ASSERT_EQ(layer.size(), 1u);
  EXPECT_EQ(layer[0]->attr("data-intensity"), "1000");
  std::map<std::string, double> height;
  for (const XmlNode* m : all(*root, "path", "workload-mark"))
    height[m->attr("data-machine")] = std::stod(m->attr("data-attainable"));
  EXPECT_DOUBLE_EQ(height.at("a100-80gb"), 312e12);
  EXPECT_DOUBLE_EQ(height.at("h100-sxm"), 989.4e12);
  bool ratio = false;
  for (const XmlNode* t : all(*root, "text", "workload-label"))
    ratio = ratio || t->text.find("h100-sxm 989.4 TFLOP/s (3.17x, peak ratio)") == 0;
  EXPECT_TRUE(ratio) << "989.4 / 312 = 3.17";

  // Three machines: two overlays, the bandwidth ratio at I = 1 (3.35 / 2.039 = 1.64).
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "mi300x", "--at", "1", "--precision",
               "bf16", "--report", dir.file("c3.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg3 = slurp(dir.file("c3.svg"));
  const auto root3 = parse_xml(svg3);
  std::set<std::string> overlays;
  for (const XmlNode* l : roof_lines(*root3, "overlay")) overlays.insert(l->attr("data-machine"));
  EXPECT_EQ(overlays, (std::set<std::string>{"h100-sxm", "mi300x"}));
  EXPECT_NE(svg3.find("(1.64x, bandwidth ratio)"), std::string::npos);
  EXPECT_NE(svg3.find("(2.6x, bandwidth ratio)"), std::string::npos);  // 5.3 / 2.039

  // The report's JSON names the precision and level asked for, as --json does (it said "").
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "10", "--precision", "fp64",
               "--level", "NVLink", "--report", dir.file("c.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json workload = json::parse(slurp(dir.file("c.json"))).at("workload");
  EXPECT_EQ(workload.at("precision"), "fp64");
  EXPECT_EQ(workload.at("level"), "NVLink");
  EXPECT_EQ(workload.at("machines").at(0).at("memory_level"), "NVLink");
}

// --point: the points are drawn on the first machine's roofs (no workload line).
TEST(CliHwReport, CompareChartDrawsThePointsDocument) {
  TempDir dir;
  roofline::test::write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "decode", "work": 1.4e10, "traffic": 1.4e10, "time": 0.01},
               {"name": "prefill", "work": 1e15, "traffic": 1e12, "time": 1}]})");
  auto r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("p.json"),
                    "--precision", "bf16", "--report", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = parse_xml(slurp(dir.file("c.svg")));
  std::map<std::string, double> intensity;
  for (const XmlNode* g : all(*root, "g", "point"))
    intensity[g->attr("data-name")] = std::stod(g->attr("data-intensity"));
  ASSERT_EQ(intensity.size(), 2u);
  EXPECT_DOUBLE_EQ(intensity.at("decode"), 1.0);
  EXPECT_DOUBLE_EQ(intensity.at("prefill"), 1000.0);
  EXPECT_TRUE(all(*root, "g", "layer-workload").empty());
  EXPECT_FALSE(roof_lines(*root, "overlay").empty());
}

TEST(CliHwReport, BadReportPathsExitTwoAndWriteNothing) {
  TempDir dir;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"hw", "show", "h100-sxm", "--report", dir.file("roofs.txt")},
           {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1", "--report", dir.file("c.pdf")},
           {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1", "--report", dir.file("c")},
           {"hw", "ridges", "--report", dir.file("t.json")},
           {"hw", "ridges", "--report", dir.file("t")}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_NE(r.err.find("--report " + args.back()), std::string::npos) << r.err;
    // A name with no extension is told so (it has no format to be unknown).
    const bool bare = fs::path(args.back()).extension().empty();
    EXPECT_NE(r.err.find(bare ? ": no extension to tell the format" : "unknown format"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << "refused before any work: " << r.out;
    EXPECT_FALSE(fs::exists(args.back()));
  }
  EXPECT_TRUE(fs::is_empty(dir.path));
  // A folder that does not exist.
  const std::string missing = dir.file("no/such/dir/c.svg");
  auto r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1", "--report", missing});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

// bf16/fp16 on the chart: V100's fp16 tensor roof and H100's bf16 one, as in the table.
TEST(CliHwReport, CompareChartTakesThePrecisionAlternatives) {
  TempDir dir;
  auto r = run_cli({"hw", "compare", "v100-sxm2", "h100-sxm", "--at", "1000", "--precision",
                    "bf16/fp16", "--report", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = parse_xml(slurp(dir.file("c.svg")));
  std::map<std::string, double> height;
  for (const XmlNode* m : all(*root, "path", "workload-mark"))
    height[m->attr("data-machine")] = std::stod(m->attr("data-attainable"));
  EXPECT_DOUBLE_EQ(height.at("v100-sxm2"), 125e12);
  EXPECT_DOUBLE_EQ(height.at("h100-sxm"), 989.4e12);
}

TEST(CliHwReport, RidgesDrawTheTrajectory) {
  TempDir dir;
  auto r = run_cli({"hw", "ridges", "--report", dir.file("trajectory.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("I* bf16/fp16"), std::string::npos);  // the table is still printed
  const std::string svg = slurp(dir.file("trajectory.svg"));
  const auto root = parse_xml(svg);
  // The table's data, for comparison: every device has a year, so every ridge is a marker.
  r = run_cli({"hw", "ridges", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json table = json::parse(r.out);
  std::map<std::pair<std::string, std::string>, double> expected;  // (device, group) -> I*
  for (const auto& e : table)
    for (const auto& [group, p] : e["ridges"].items())
      if (!p.is_null()) expected[{e["name"], group}] = p["ridge"].get<double>();
  std::map<std::pair<std::string, std::string>, double> drawn;
  for (const XmlNode* m : all(*root, "g", "trajectory-point")) {
    const auto key = std::make_pair(m->attr("data-device"), m->attr("data-series"));
    EXPECT_EQ(drawn.count(key), 0u) << key.first << " " << key.second;
    drawn[key] = std::stod(m->attr("data-ridge"));
  }
  ASSERT_EQ(drawn.size(), expected.size());
  for (const auto& [key, v] : expected) EXPECT_NEAR(drawn[key], v, v * 1e-8) << key.first;
  const double h100 = drawn[std::make_pair("h100-sxm", "bf16/fp16")];
  const double v100 = drawn[std::make_pair("v100-sxm2", "bf16/fp16")];
  EXPECT_NEAR(h100, 989.4 / 3.35, 1e-6);
  EXPECT_NEAR(v100, 125 / 0.9, 1e-6);
  std::set<std::string> labelled;
  for (const XmlNode* t : all(*root, "text", "device-label")) labelled.insert(t->text);
  EXPECT_EQ(labelled.size(), table.size());
  EXPECT_TRUE(labelled.count("tpu-v5e"));
  EXPECT_NE(svg.find("Ridge point I* [FLOP/byte, OP/byte]"), std::string::npos);  // int8 roofs
  EXPECT_NE(svg.find(">Release year<"), std::string::npos);

  // One group; a measured machine without a release year is named, not drawn.
  const std::string undated = dir.file("measured.json");
  roofline::test::write_text(undated, R"({"schema": "roofline.machine", "version": 1,
    "name": "my-box", "compute": [{"name": "fp32 vector", "precision": "fp32", "unit": "vector",
    "peak": 1e12, "source": "measured"}], "memory": [{"level": "DRAM", "kind": "memory",
    "bandwidth": 1e11, "source": "measured"}]})");
  r = run_cli(
      {"hw", "ridges", "--add", undated, "--precision", "fp32", "--report", dir.file("t.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not drawn (no release year): my-box"), std::string::npos) << r.err;
  const std::string html = slurp(dir.file("t.html"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("Ridge point I* [FLOP/byte]"), std::string::npos);
  EXPECT_NE(html.find("Not drawn (no release year): my-box"), std::string::npos);
  EXPECT_EQ(html.find("data-device=\"my-box\""), std::string::npos);
}
}  // namespace ROOFLINE_UNITY_ID
