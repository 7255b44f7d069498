// What a reader of a chart must be able to trust: the workload line's roof heights on the chart
// however low I is, integer points in OP units in every format, names beside their own markers,
// tick and device labels that never run into each other, the JSON's ridges as drawn, --roofs
// never picking a sparse roof, and the commands' refusals of what they cannot honour.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/svg_query.hpp"
#include "report/xml_lite.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::run_cli;
using test::with_class;
using test::XmlNode;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

const XmlNode* plot_of(const XmlNode& root) {
  return root.find_all([](const XmlNode& n) { return n.attr("id") == "plot"; }).at(0);
}

ReportInput fixture() {
  ReportInput in;
  in.title = "readability";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  return in;
}

// docs/charts.md: --at draws each machine's roof height at I with the ratio. At I = 0.01 the
// heights (0.21 and 2 GFLOP/s) lie far below the roofs alone: the y axis must reach them.
TEST(ChartReadability, WorkloadMarksAndLabelsStayOnTheChartAtLowIntensity) {
  for (const double at : {0.01, 1e-30}) {
    ReportInput in = fixture();
    in.machines.push_back(load_machine_file(kData + "other_machine.json"));
    in.workload_line = Intensity(at);
    const auto root = test::parse_xml(render_svg(in));
    const XmlNode* plot = plot_of(*root);
    const double top = number(plot, "data-top"), bottom = number(plot, "data-bottom");
    auto marks = with_class(*root, "workload-mark");
    ASSERT_EQ(marks.size(), 2u);
    EXPECT_NEAR(number(marks[0], "data-attainable"), 21e9 * at, 21e9 * at * 1e-9);
    EXPECT_NEAR(number(marks[1], "data-attainable"), 200e9 * at, 200e9 * at * 1e-9);
    for (const XmlNode* m : marks) {
      EXPECT_LE(std::log10(number(m, "data-attainable")), number(plot, "data-y-log-max"));
      EXPECT_GE(std::log10(number(m, "data-attainable")), number(plot, "data-y-log-min"));
      double x = 0, y = 0;
      ASSERT_EQ(std::sscanf(m->attr("d").c_str(), "M%lf %lf", &x, &y), 2);
      EXPECT_GT(y + 5, top) << at;
      EXPECT_LT(y + 5, bottom) << at;
    }
    bool ratio = false;
    for (const XmlNode* t : with_class(*root, "workload-label")) {
      if (t->text.find("9.52x, bandwidth ratio") != std::string::npos) ratio = true;
      EXPECT_GT(number(t, "y"), top);
      EXPECT_LT(number(t, "y"), bottom);
    }
    EXPECT_TRUE(ratio) << at;
  }
}

/// An int8 roof added to the machine's (the fixture's roofs are all FLOP roofs).
void add_int8_roof(ReportInput& in, const std::string& name, const std::string& unit, double peak) {
  ComputeRoof c;
  c.name = name;
  c.precision = "int8";
  c.unit = unit;
  c.peak = WorkRate(peak);
  c.integer = true;
  in.machines.front().roofs.compute.push_back(c);
}

/// A point at the DRAM level.
Point dram_point(const std::string& name, double work, double bytes, double seconds,
                 const std::string& precision) {
  Point p;
  p.name = name;
  p.work = Work(work);
  p.traffic = {{"DRAM", Bytes(bytes)}};
  p.time = Seconds(seconds);
  p.precision = precision;
  return p;
}

// The fixture machine with an integer roof, and an int8 point on it (W = 10 GOP, I = 100,
// P = 333.3 GOP/s): every format reads it in OP, as `roofline point` does.
ReportInput integer_fixture() {
  ReportInput in = fixture();
  add_int8_roof(in, "int8 256-bit vnni", "256-bit vnni", 4e11);
  in.points.push_back(dram_point("int8 gemm", 1e10, 1e8, 0.03, "int8"));
  in.points.back().work_unit = "OP";
  in.points.push_back(dram_point("fp64 axpy", 2e8, 2.4e9, 0.125, "fp64"));
  return in;
}

TEST(ChartReadability, AnIntegerPointReadsInOpInEveryFormat) {
  const ReportInput in = integer_fixture();
  const auto root = test::parse_xml(render_svg(in));
  std::map<std::string, std::string> tips;
  for (const XmlNode* g : with_class(*root, "point"))
    for (const auto& c : g->children)
      if (c->name == "title") tips[g->attr("data-name")] = c->text;
  ASSERT_EQ(tips.size(), 2u);
  EXPECT_NE(tips["int8 gemm"].find("P = 333.3 GOP/s, attainable 400 GOP/s"), std::string::npos)
      << tips["int8 gemm"];
  EXPECT_NE(tips["int8 gemm"].find("I(DRAM) = 100 OP/byte"), std::string::npos);
  EXPECT_EQ(tips["int8 gemm"].find("FLOP"), std::string::npos) << tips["int8 gemm"];
  EXPECT_NE(tips["fp64 axpy"].find("P = 1.6 GFLOP/s"), std::string::npos) << tips["fp64 axpy"];

  const std::string csv = render_csv(in);
  EXPECT_TRUE(std::regex_search(
      csv, std::regex("\npoint,zen3-2core-vm,int8 gemm,DRAM,int8,,3\\.333[0-9]*e\\+11,OP/s,")))
      << csv;
  EXPECT_TRUE(std::regex_search(
      csv, std::regex("\npoint,zen3-2core-vm,fp64 axpy,DRAM,fp64,,1\\.6e\\+09,FLOP/s,")))
      << csv;

  const std::string html = render_html(in);
  EXPECT_NE(html.find("\"work\":\"10 GOP\""), std::string::npos);
  EXPECT_NE(html.find("\"performance\":\"333.3 GOP/s\""), std::string::npos);
  EXPECT_NE(html.find("\"attainable\":\"400 GOP/s\""), std::string::npos);
  EXPECT_NE(html.find(">333.3 GOP/s</td>"), std::string::npos);
  EXPECT_NE(html.find("I (OP/byte or FLOP/byte)"), std::string::npos);

  const std::string term = render_terminal(in, 100, false);
  EXPECT_NE(term.find("Points (I in OP/byte or FLOP/byte)"), std::string::npos) << term;
  EXPECT_TRUE(std::regex_search(term, std::regex("int8 gemm +100 +333.3 GOP/s +400 GOP/s")))
      << term;
  EXPECT_TRUE(std::regex_search(term, std::regex("fp64 axpy +0.08333 +1.6 GFLOP/s")));
}

// `hw compare --precision fp8/int8`: the a100's int8 roof is in OP/s and its ratio carries the
// text's `*` mark, the legend says what it means.
TEST(ChartReadability, ACompareOfIntegerAgainstFloatingPointRoofsIsMarked) {
  test::TempDir dir;
  const auto r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "1000", "--precision",
                          "fp8/int8", "--report", dir.file("mix.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("mix.svg")));
  std::vector<std::string> labels;
  for (const XmlNode* t : with_class(*root, "workload-label")) labels.push_back(t->text);
  const bool marked = std::any_of(labels.begin(), labels.end(), [](const std::string& s) {
    return s == "a100-80gb 624 TOP/s (0.3154x *, peak ratio)" ||
           s == "a100-80gb 624 TOP/s (0.315x *, peak ratio)";
  });
  EXPECT_TRUE(marked) << ::testing::PrintToString(labels);
  bool legend = false;
  for (const XmlNode* t : with_class(*root, "legend-text"))
    if (t->text == "workload line (* a ratio of integer to floating-point work)") legend = true;
  EXPECT_TRUE(legend);
}

// A chart whose default roof is integer (kernel --dtype int8, hw compare --precision int8): its
// ridge in the subtitle, the workload line's I and the x axis say OP/byte (they said FLOP/byte).
TEST(ChartReadability, AnIntegerDefaultRoofReadsInOpOnTheChart) {
  test::TempDir dir;
  // int8 GEMM of 8192³: W = 2·8192³ OP, Q = 3·8192² bytes, I = 2·8192/3 = 5461 OP/byte; H100's
  // int8 tensor 1.979 POP/s over 3.35 TB/s: I* = 590.7 OP/byte.
  auto r = run_cli({"kernel", "gemm", "--m", "8192", "--n", "8192", "--k", "8192", "--dtype",
                    "int8", "--hw", "h100-sxm", "--report", dir.file("k.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = test::slurp(dir.file("k.svg"));
  EXPECT_NE(svg.find("ridge I* = 590.7 OP/byte"), std::string::npos);
  EXPECT_NE(svg.find("workload I = 5461 OP/byte"), std::string::npos);
  EXPECT_NE(svg.find("Operational intensity [FLOP/byte, OP/byte]"), std::string::npos);
  EXPECT_EQ(svg.find("ridge I* = 590.7 FLOP/byte"), std::string::npos);
  EXPECT_EQ(svg.find("5461 FLOP/byte"), std::string::npos);
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--precision", "int8", "--at", "100",
               "--report", dir.file("c.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::slurp(dir.file("c.html"));
  EXPECT_NE(html.find("Workload at I = 100 OP/byte"), std::string::npos);
  EXPECT_EQ(html.find("Workload at I = 100 FLOP/byte"), std::string::npos);
}

// Two points at one I (the tester's "compute" and "above"): each name sits nearer its own
// marker than any other, and no two leader lines cross.
TEST(ChartReadability, NamesOfPointsAtOneIntensityStayWithTheirMarkers) {
  ReportInput in = fixture();
  // At I = 1000 under the fp64 roof of 72 GFLOP/s: 33.3 GFLOP/s (far below) and 100 (above).
  in.points.push_back(dram_point("compute", 1e11, 1e8, 3.0, "fp64"));
  in.points.push_back(dram_point("above", 1e11, 1e8, 1.0, "fp64"));
  const auto root = test::parse_xml(render_svg(in));
  const XmlNode* plot = plot_of(*root);
  const double xlo = number(plot, "data-x-log-min"), xhi = number(plot, "data-x-log-max");
  const double ylo = number(plot, "data-y-log-min"), yhi = number(plot, "data-y-log-max");
  const double left = number(plot, "data-left"), right = number(plot, "data-right");
  const double top = number(plot, "data-top"), bottom = number(plot, "data-bottom");
  std::map<std::string, std::pair<double, double>> markers;
  for (const XmlNode* g : with_class(*root, "point"))
    markers[g->attr("data-name")] = {
        left + (std::log10(number(g, "data-intensity")) - xlo) / (xhi - xlo) * (right - left),
        bottom - (std::log10(number(g, "data-performance")) - ylo) / (yhi - ylo) * (bottom - top)};
  auto labels = with_class(*root, "point-label");
  ASSERT_EQ(labels.size(), 2u);
  for (const XmlNode* t : labels) {
    // The label's box: 12 px semibold, at most 0.7 em a character.
    const double w = static_cast<double>(t->text.size()) * 12 * 0.7;
    double x0 = number(t, "x");
    if (t->attr("text-anchor") == "end") x0 -= w;
    if (t->attr("text-anchor") == "middle") x0 -= w / 2;
    const double y0 = number(t, "y") - 11, y1 = number(t, "y") + 3;
    auto dist = [&](std::pair<double, double> m) {
      const double dx = std::max({x0 - m.first, 0.0, m.first - (x0 + w)});
      const double dy = std::max({y0 - m.second, 0.0, m.second - y1});
      return std::hypot(dx, dy);
    };
    for (const auto& [name, m] : markers) {
      if (name == t->text) continue;
      EXPECT_LT(dist(markers.at(t->text)), dist(m)) << t->text << " reads as " << name;
    }
  }
}

// Forty decades on an axis: the labelled decades are thinned so no two labels touch.
TEST(ChartReadability, TickLabelsOverManyDecadesNeverOverlap) {
  ReportInput in = fixture();
  in.workload_line = Intensity(1e-30);
  const auto root = test::parse_xml(render_svg(in));
  std::vector<std::pair<double, std::string>> xs;
  for (const XmlNode* t : with_class(*root, "x-tick")) xs.push_back({number(t, "x"), t->text});
  ASSERT_GE(xs.size(), 3u);
  for (size_t k = 1; k < xs.size(); ++k) {
    // 11.5 px at most 0.62 em a character, half of each label either side of its tick.
    const double need =
        (static_cast<double>(xs[k - 1].second.size() + xs[k].second.size())) * 11.5 * 0.62 / 2;
    EXPECT_GT(xs[k].first - xs[k - 1].first, need) << xs[k - 1].second << " / " << xs[k].second;
  }
  std::vector<double> ys;
  for (const XmlNode* t : with_class(*root, "y-tick")) ys.push_back(number(t, "y"));
  ASSERT_GE(ys.size(), 2u);
  for (size_t k = 1; k < ys.size(); ++k) EXPECT_GT(std::fabs(ys[k] - ys[k - 1]), 13.5);
  // The labels on every step-th decade (step 1, 2, 5, 10, ...), each a multiple of the step.
  std::vector<long> ks;
  for (const XmlNode* t : with_class(*root, "x-tick"))
    ks.push_back(std::lround(std::log10(number(t, "data-value"))));
  const long step = ks[1] - ks[0];
  EXPECT_GT(step, 1);
  for (size_t k = 1; k < ks.size(); ++k) EXPECT_EQ(ks[k] - ks[k - 1], step);
  for (long k : ks) EXPECT_EQ(k % step, 0) << k;
  EXPECT_GT(with_class(*root, "tick-mark").size(), 40u);
}

// `hw ridges --report`: device names under their columns at least a text height apart.
TEST(ChartReadability, RidgeTrajectoryDeviceNamesStandApart) {
  test::TempDir dir;
  const auto r = run_cli({"hw", "ridges", "--report", dir.file("ridges.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("ridges.svg")));
  std::vector<double> xs;
  for (const XmlNode* t : with_class(*root, "device-label")) {
    double x = 0, y = 0;
    ASSERT_EQ(std::sscanf(t->attr("transform").c_str(), "translate(%lf,%lf)", &x, &y), 2);
    xs.push_back(x);
  }
  ASSERT_GE(xs.size(), 20u);
  std::sort(xs.begin(), xs.end());
  for (size_t k = 1; k < xs.size(); ++k) EXPECT_GE(xs[k] - xs[k - 1], 12.0) << k;
}

// docs/charts.md: --compare refuses the machine itself "by an alias or its file"; a copy of the
// catalogue file is its file.
TEST(ChartReadability, ComparingAMachineWithACopyOfItsFileIsRefused) {
  test::TempDir dir;
  const std::string copy = dir.file("h100-sxm.json");
  std::filesystem::copy_file(std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/h100-sxm.json",
                             copy);
  auto r = run_cli({"plot", "h100-sxm", "--compare", copy, "-o", dir.file("self.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("are one machine ('h100-sxm')"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("self.svg")));
  r = run_cli({"hw", "compare", "h100-sxm", copy, "--at", "10"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("are one machine"), std::string::npos) << r.err;
  // Another machine's document is still compared.
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "10"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Two documents of one name (one machine measured before and after a change) are two machines,
// and the comparison tells them apart by their files' names, in text, legend and export alike.
TEST(ChartReadability, MachinesOfOneNameAreToldApartByTheirFiles) {
  test::TempDir dir;
  const std::string before = dir.file("before.json"), after = dir.file("after.json");
  std::filesystem::copy_file(std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/h100-sxm.json",
                             before);
  auto doc = nlohmann::json::parse(test::slurp(before));
  doc["memory"][0]["bandwidth"] = 2.0e12;  // measured again, slower
  test::write_text(after, doc.dump());
  auto r = run_cli({"hw", "compare", before, after, "--at", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("h100-sxm (before.json)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("h100-sxm (after.json)"), std::string::npos) << r.out;
  r = run_cli({"plot", before, "--compare", after, "-o", dir.file("c.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(test::slurp(dir.file("c.json")));
  ASSERT_EQ(j.at("machines").size(), 2u);
  EXPECT_EQ(j["machines"][0]["name"], "h100-sxm (before.json)");
  EXPECT_EQ(j["machines"][1]["name"], "h100-sxm (after.json)");
  // Files of one file name (the catalogue's h100-sxm.json and a changed copy of it): the names
  // as given tell them apart.
  const std::string copy = dir.file("h100-sxm.json");
  test::write_text(copy, doc.dump());
  r = run_cli({"hw", "compare", "h100-sxm", copy, "--at", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("h100-sxm (h100-sxm)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("h100-sxm (" + copy + ")"), std::string::npos) << r.out;
  // Machines of different names keep them as they are.
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("h100-sxm ("), std::string::npos) << r.out;
}

// The JSON export's ridges are the rings the chart draws, each with every roof pair that meets
// there: the int8 tensor roof's ridge is found by its name, with its unit.
TEST(ChartReadability, JsonRidgesAreTheDrawnRidgesWithTheirRoofPairs) {
  test::TempDir dir;
  for (const char* ext : {"json", "svg"}) {
    const auto r = run_cli({"plot", "h100-sxm", "-o", dir.file(std::string("c.") + ext)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto j = nlohmann::json::parse(test::slurp(dir.file("c.json")));
  const auto root = test::parse_xml(test::slurp(dir.file("c.svg")));
  std::multiset<std::string> drawn, exported;
  for (const XmlNode* c : root->find_all([](const XmlNode& n) {
         return n.name == "circle" && n.has_class("ridge") && n.has("data-intensity");
       }))
    drawn.insert(c->attr("data-compute") + "/" + c->attr("data-memory"));
  bool int8 = false;
  for (const auto& r : j.at("ridges")) {
    exported.insert(r.at("compute_roof").get<std::string>() + "/" +
                    r.at("memory_level").get<std::string>());
    for (const auto& p : r.at("pairs"))
      if (p.at("compute_roof") == "int8 tensor" && p.at("memory_level") == "HBM3") {
        int8 = true;
        EXPECT_EQ(p.at("intensity_unit"), "OP/byte");
        EXPECT_NEAR(r.at("intensity").get<double>(), 1978.9e12 / 3.35e12, 1e-9);
      }
  }
  EXPECT_EQ(drawn, exported);
  EXPECT_TRUE(int8);
  // The shared mark's tooltip names both pairs, each in its unit (int8's OP/byte was not said).
  bool both = false;
  for (const XmlNode* c : root->find_all([](const XmlNode& n) {
         return n.name == "circle" && n.has_class("ridge") && n.has("data-intensity");
       }))
    for (const auto& t : c->children)
      if (t->name == "title" && t->text.find("OP/byte (int8 tensor / HBM3)") != std::string::npos &&
          t->text.find("FLOP/byte (fp8 tensor / HBM3)") != std::string::npos)
        both = true;
  EXPECT_TRUE(both);
  // The HTML ridge table has a row per pair: int8's too.
  ASSERT_EQ(run_cli({"plot", "h100-sxm", "-o", dir.file("c.html")}).exit_code, 0);
  EXPECT_NE(test::slurp(dir.file("c.html")).find(">int8 tensor</td>"), std::string::npos);
  // A roof --roofs hid is not named among a mark's pairs.
  ASSERT_EQ(
      run_cli({"plot", "h100-sxm", "--roofs", "hbm3,FP8", "-o", dir.file("f.json")}).exit_code, 0);
  const auto f = nlohmann::json::parse(test::slurp(dir.file("f.json")));
  for (const auto& r : f.at("ridges"))
    for (const auto& p : r.at("pairs")) {
      EXPECT_NE(p.at("compute_roof"), "int8 tensor") << r;
      EXPECT_NE(p.at("compute_roof"), "fp64 tensor") << r;
    }
}

// docs/hardware.md: a precision never selects a sparse roof; its own name does.
TEST(ChartReadability, RoofsByPrecisionDrawNoSparseRoof) {
  test::TempDir dir;
  auto r = run_cli({"plot", "h100-sxm", "--roofs", "hbm3,FP8", "-o", dir.file("r.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto root = test::parse_xml(test::slurp(dir.file("r.svg")));
  std::set<std::string> roofs;
  for (const XmlNode* l : with_class(*root, "compute-roof")) roofs.insert(l->attr("data-roof"));
  EXPECT_EQ(roofs.count("fp8 tensor"), 1u);
  for (const auto& name : roofs) EXPECT_EQ(name.find("sparse"), std::string::npos) << name;
  r = run_cli({"plot", "h100-sxm", "--roofs", "fp8 tensor sparse", "-o", dir.file("s.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  root = test::parse_xml(test::slurp(dir.file("s.svg")));
  bool sparse = false;
  for (const XmlNode* l : with_class(*root, "compute-roof"))
    if (l->attr("data-roof") == "fp8 tensor sparse") sparse = true;
  EXPECT_TRUE(sparse);
}

// With --roofs naming one flat roof the slanted roof climbed past it to the height of the
// highest hidden one (2 PFLOP/s): the drawing no longer showed min(π, β·I). It ends at the
// highest flat roof drawn, and the flat roof begins at the fastest memory roof drawn.
TEST(ChartReadability, SlantedRoofsEndAtTheHighestFlatRoofDrawn) {
  test::TempDir dir;
  for (const std::string roofs : {"fp32,HBM3", "fp32 vector,HBM3,fp64 vector"}) {
    auto r = run_cli({"plot", "h100-sxm", "--roofs", roofs, "-o", dir.file("one.svg")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto root = test::parse_xml(test::slurp(dir.file("one.svg")));
    const XmlNode *hbm = nullptr, *fp32 = nullptr;
    for (const XmlNode* l : with_class(*root, "roof")) {
      if (l->attr("data-roof") == "HBM3") hbm = l;
      if (l->attr("data-roof") == "fp32 vector") fp32 = l;
    }
    ASSERT_TRUE(hbm && fp32) << roofs;
    // Pixel coordinates: the slanted line's top end is the flat roof's left end (I* = π/β).
    EXPECT_DOUBLE_EQ(number(hbm, "y2"), number(fp32, "y1")) << roofs;
    EXPECT_DOUBLE_EQ(number(hbm, "x2"), number(fp32, "x1")) << roofs;
  }
}

// Per precision the default view draws its highest roof: on a GeForce card the fp32-accumulate
// tensor roof, as every command judges fp16 (the fp16-accumulate one was drawn as "highest").
TEST(ChartReadability, TheDefaultViewDrawsThePrecisionsRoofAsItIsJudged) {
  test::TempDir dir;
  auto r = run_cli({"plot", "rtx-4090", "-o", dir.file("g.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("g.svg")));
  std::set<std::string> drawn;
  for (const XmlNode* l : with_class(*root, "compute-roof")) drawn.insert(l->attr("data-roof"));
  EXPECT_EQ(drawn.count("fp16 tensor"), 1u);
  EXPECT_EQ(drawn.count("fp16 tensor fp16-accumulate"), 0u);
}

TEST(ChartReadability, LabelsSayEachThingOnceAndWhereItIs) {
  // A roof's unit said once: "int8 DSP" with unit "DSP slices".
  ReportInput in = fixture();
  add_int8_roof(in, "int8 DSP", "DSP slices", 3.6864e12);
  in.points = load_points_file(kData + "points.json").points;
  in.roofs = {"all"};
  const std::string svg = render_svg(in);
  EXPECT_NE(svg.find("int8 DSP 3.686 TOP/s"), std::string::npos);
  EXPECT_EQ(svg.find("DSP DSP"), std::string::npos);
  const auto root = test::parse_xml(svg);
  // The hierarchical point "dgemm 2048" names both its levels.
  std::set<std::string> levels;
  for (const XmlNode* t : with_class(*root, "level-label")) levels.insert(t->text);
  EXPECT_EQ(levels, (std::set<std::string>{"L2", "DRAM"}));
  // The ridge labels are drawn after (over) the dotted headroom lines.
  const std::string after_headroom = svg.substr(svg.find("layer-headroom"));
  EXPECT_NE(after_headroom.find("class=\"ridge-label\""), std::string::npos);
}

TEST(ChartReadability, TheLegendDrawsDatasheetOverlaysDashed) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "--compare", "a100-80gb", "-o", dir.file("cmp.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("cmp.svg")));
  bool found = false;
  for (const XmlNode* l : with_class(*root, "legend"))
    for (const XmlNode* s : l->find_all([](const XmlNode& n) { return n.has_class("overlay"); })) {
      found = true;
      EXPECT_TRUE(s->has_class("dashed"));
    }
  EXPECT_TRUE(found);
}

TEST(ChartReadability, CommandLineDetailsAreSaid) {
  test::TempDir dir;
  // --width is the terminal plot's: with -o alone it is refused, not ignored.
  auto r = run_cli({"plot", "h100-sxm", "--width", "100", "-o", dir.file("a.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--width 100: sets the terminal plot's columns"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.svg")));
  r = run_cli({"plot", "h100-sxm", "--width", "100", "--terminal", "-o", dir.file("a.svg")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // A file name without an extension.
  r = run_cli({"plot", "h100-sxm", "-o", dir.file("x")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("x: no extension to tell the format (use .svg, .html, .png, .json or .csv)"),
            std::string::npos)
      << r.err;
  // hw compare --json: no --level asked is null, and each machine names the level it used.
  r = run_cli(
      {"hw", "compare", "h100-sxm", "a100-80gb", "--at", "100", "--precision", "fp64", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& c = j.is_array() ? j.at(0) : j;
  EXPECT_TRUE(c.at("level").is_null()) << c.dump();
  EXPECT_EQ(c.at("machines").at(0).at("memory_level"), "HBM3");
  EXPECT_EQ(c.at("machines").at(1).at("memory_level"), "HBM2e");
  // gemm names every missing size at once.
  r = run_cli({"kernel", "gemm", "--n", "1024"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--m and --k are required"), std::string::npos) << r.err;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
