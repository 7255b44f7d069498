// The SVG chart: well-formed XML, and coordinates of roofs, ridges, points and ticks that follow
// from the model (log-scaled I and P), axis titles in the roof set's units.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>

#include "report/svg_query.hpp"
#include "report/svg_text.hpp"
#include "report/xml_lite.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::with_class;
using test::XmlNode;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

struct Mapping {
  double xlo, xhi, ylo, yhi, left, right, top, bottom;
  double x(double i) const { return left + (std::log10(i) - xlo) / (xhi - xlo) * (right - left); }
  double y(double p) const { return bottom - (std::log10(p) - ylo) / (yhi - ylo) * (bottom - top); }
};

Mapping mapping_of(const XmlNode& root) {
  auto plot = root.find_all([](const XmlNode& n) { return n.attr("id") == "plot"; });
  EXPECT_EQ(plot.size(), 1u);
  const XmlNode* p = plot.at(0);
  return {number(p, "data-x-log-min"), number(p, "data-x-log-max"), number(p, "data-y-log-min"),
          number(p, "data-y-log-max"), number(p, "data-left"),      number(p, "data-right"),
          number(p, "data-top"),       number(p, "data-bottom")};
}

ReportInput fixture(bool with_points = true) {
  ReportInput in;
  in.title = "test chart";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  if (with_points) in.points = load_points_file(kData + "points.json").points;
  return in;
}

TEST(ReportSvg, IsWellFormedXml) {
  ReportInput in = fixture();
  in.workload_line = Intensity(1.0);
  in.no_overlap_curve = true;
  in.machines.push_back(load_machine_file(kData + "other_machine.json"));
  const std::string svg = render_svg(in);
  auto root = test::parse_xml(svg);
  EXPECT_EQ(root->name, "svg");
  EXPECT_EQ(root->attr("xmlns"), "http://www.w3.org/2000/svg");
  // Cross-check with libxml2 when it is installed (Debian libxml2-utils).
  if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
    const auto path = std::filesystem::temp_directory_path() / "roofline-test-chart.svg";
    std::ofstream(path) << svg;
    EXPECT_EQ(std::system(("xmllint --noout " + path.string()).c_str()), 0);
    std::filesystem::remove(path);
  }
}

TEST(ReportSvg, RejectsNothingWellFormedCheckerCatchesBadXml) {
  // The checker itself must fail on broken input, or the test above proves nothing.
  EXPECT_THROW(test::parse_xml("<svg><g></svg>"), std::runtime_error);
  EXPECT_THROW(test::parse_xml("<svg a=\"1\" a=\"2\"/>"), std::runtime_error);
  EXPECT_THROW(test::parse_xml("<svg>a & b</svg>"), std::runtime_error);
}

TEST(ReportSvg, RidgeMarkerSitsAtLogScaledPiOverBeta) {
  const ReportInput in = fixture();
  auto root = test::parse_xml(render_svg(in));
  const Mapping m = mapping_of(*root);
  auto ridges = with_class(*root, "ridge");
  auto primary = with_class(*root, "primary");
  ASSERT_EQ(primary.size(), 1u);
  const XmlNode* r = primary[0];
  EXPECT_EQ(r->attr("data-compute"), "fp64 avx2 fma");
  EXPECT_EQ(r->attr("data-memory"), "DRAM");
  const double istar = 72e9 / 21e9;  // π/β of the fixture's default roofs
  EXPECT_NEAR(number(r, "data-intensity"), istar, 1e-6 * istar);
  EXPECT_NEAR(number(r, "cx"), m.x(istar), 0.01);
  EXPECT_NEAR(number(r, "cy"), m.y(72e9), 0.01);
  // Every ridge marker: x at log(π/β) of its own pair, y at π.
  const RoofSet& rs = in.machines[0].roofs;
  size_t checked = 0;
  for (const XmlNode* n : ridges) {
    if (n->name != "circle" || !n->has("data-compute")) continue;
    const ComputeRoof* c = rs.find_compute(n->attr("data-compute"));
    const MemoryRoof* mem = rs.find_memory(n->attr("data-memory"));
    ASSERT_TRUE(c && mem);
    EXPECT_NEAR(number(n, "cx"), m.x(ridge(*c, *mem).value), 0.01) << n->attr("data-compute");
    EXPECT_NEAR(number(n, "cy"), m.y(c->peak.value), 0.01);
    ++checked;
  }
  // fp64 avx2, fp32 avx2, fp64 scalar against DRAM, fp64 avx2 against L1 and L2.
  EXPECT_EQ(checked, 5u);
}

TEST(ReportSvg, RoofsFollowTheModel) {
  const ReportInput in = fixture();
  auto root = test::parse_xml(render_svg(in));
  const Mapping m = mapping_of(*root);
  // A decade has the same length on both axes, so slanted roofs are 45° lines (docs/model.md §2).
  EXPECT_NEAR((m.right - m.left) / (m.xhi - m.xlo), (m.bottom - m.top) / (m.yhi - m.ylo), 1e-6);
  auto memory = with_class(*root, "memory-roof");
  ASSERT_EQ(memory.size(), 3u);
  for (const XmlNode* l : memory) {
    const double beta = number(l, "data-value");
    const double x1 = number(l, "x1"), x2 = number(l, "x2"), y1 = number(l, "y1"),
                 y2 = number(l, "y2");
    EXPECT_NEAR(x2 - x1, y1 - y2, 0.02) << l->attr("data-roof");
    // P = β·I at both ends.
    const double i1 = std::pow(10, m.xlo + (x1 - m.left) / (m.right - m.left) * (m.xhi - m.xlo));
    EXPECT_NEAR(y1, m.y(beta * i1), 0.02);
    // Each memory roof ends at the highest dense flat roof (144 GFLOP/s).
    EXPECT_NEAR(y2, m.y(144e9), 0.02) << l->attr("data-roof");
    EXPECT_NEAR(x2, m.x(144e9 / beta), 0.02);
  }
  auto compute = with_class(*root, "compute-roof");
  ASSERT_EQ(compute.size(), 3u);
  for (const XmlNode* l : compute) {
    EXPECT_NEAR(number(l, "y1"), m.y(number(l, "data-value")), 0.01);
    EXPECT_EQ(l->attr("y1"), l->attr("y2"));
    // Starts where the fastest memory roof (L1, 600 GB/s) meets it.
    EXPECT_NEAR(number(l, "x1"), m.x(number(l, "data-value") / 600e9), 0.02);
  }
  // Provenance: measured solid, theoretical/datasheet dashed.
  for (const XmlNode* l : compute) {
    if (l->attr("data-roof") == "fp64 scalar")
      EXPECT_TRUE(l->has_class("dashed"));
    else
      EXPECT_FALSE(l->has_class("dashed"));
  }
  // Theoretical values of measured roofs as faint lines at their own height.
  auto theory = with_class(*root, "theory");
  bool fp64_theory = false;
  for (const XmlNode* t : theory)
    if (t->attr("data-roof") == "fp64 avx2 fma") {
      fp64_theory = true;
      EXPECT_NEAR(number(t, "y1"), m.y(7.84e10), 0.01);
    }
  EXPECT_TRUE(fp64_theory);
  // Labels name the roof and its value.
  bool label = false;
  for (const XmlNode* t : with_class(*root, "roof-label"))
    if (t->text == "fp32 avx2 fma 144 GFLOP/s") label = true;
  EXPECT_TRUE(label);
}

TEST(ReportSvg, RoofsAtOneHeightEachKeepALabelOfTheirOwn) {
  // Five roofs at 103.6 GFLOP/s (as measure writes them on a Zen 3: fma and add+mul of several
  // widths and precisions), all asked for: one label per roof in the column right of the plot,
  // each with its name and value (no "+k more"), stacked apart, each joined to the line.
  ReportInput in;
  MachineDocument m;
  m.roofs.name = "same-height";
  const std::vector<std::string> names{"fp64 256-bit fma", "fp32 128-bit fma",
                                       "fp64 256-bit add+mul", "fp32 128-bit add+mul",
                                       "fp64 256-bit extra-long-unit-name"};
  for (const auto& name : names) {
    ComputeRoof c;
    c.name = name;
    c.precision = name.substr(0, 4);
    c.peak = WorkRate(103.6e9);
    m.roofs.compute.push_back(c);
  }
  MemoryRoof d;
  d.level = "DRAM";
  d.bandwidth = ByteRate(50e9);
  m.roofs.memory.push_back(d);
  in.machines.push_back(m);
  in.roofs = {"all"};
  auto root = test::parse_xml(render_svg(in));
  const Mapping map = mapping_of(*root);
  std::vector<const XmlNode*> labels;
  for (const XmlNode* t : with_class(*root, "roof-label"))
    if (t->has_class("compute")) labels.push_back(t);
  ASSERT_EQ(labels.size(), 5u);
  std::set<std::string> texts;
  std::vector<double> ys;
  for (const XmlNode* t : labels) {
    texts.insert(t->text);
    EXPECT_GT(number(t, "x"), map.right) << "in the column right of the plot";
    ys.push_back(number(t, "y"));
  }
  for (const auto& n : names) EXPECT_EQ(texts.count(n + " 103.6 GFLOP/s"), 1u) << n;
  std::sort(ys.begin(), ys.end());
  for (size_t k = 1; k < ys.size(); ++k) EXPECT_GE(ys[k] - ys[k - 1], 12 * 1.17) << "rows apart";
  EXPECT_EQ(with_class(*root, "roof-leader").size(), 5u);
}

TEST(ReportSvg, TicksAtDecadesWithMinorTicks) {
  auto root = test::parse_xml(render_svg(fixture()));
  const Mapping m = mapping_of(*root);
  auto xt = with_class(*root, "x-tick");
  ASSERT_GE(xt.size(), 3u);
  for (const XmlNode* t : xt) {
    const double v = number(t, "data-value");
    EXPECT_NEAR(std::log10(v), std::round(std::log10(v)), 1e-9);
    EXPECT_NEAR(number(t, "x"), m.x(v), 0.01);
  }
  auto yt = with_class(*root, "y-tick");
  ASSERT_GE(yt.size(), 2u);
  for (const XmlNode* t : yt) EXPECT_NEAR(number(t, "y") - 4, m.y(number(t, "data-value")), 0.01);
  EXPECT_GT(with_class(*root, "grid-minor").size(), 2 * (xt.size() + yt.size()));
}

// One style per axis: plain numbers where every decade lies from 0.001 to 1000, powers of ten
// for all where one lies beyond (an axis had read "1000" beside "1e+4").
TEST(ReportSvg, TickLabelsKeepOneStylePerAxis) {
  const auto labels = [](const ReportInput& in) {
    std::vector<std::string> out;
    const auto root = test::parse_xml(render_svg(in));
    for (const XmlNode* t : with_class(*root, "x-tick")) out.push_back(t->text);
    return out;
  };
  const auto plain = labels(fixture());
  ASSERT_GE(plain.size(), 3u);
  for (const auto& t : plain) EXPECT_EQ(t.find('e'), std::string::npos) << t;
  EXPECT_NE(std::find(plain.begin(), plain.end(), "1"), plain.end());
  ReportInput wide = fixture();
  wide.workload_line = Intensity(1e5);  // the axis reaches 10^5
  const auto powers = labels(wide);
  ASSERT_GE(powers.size(), 3u);
  for (const auto& t : powers) {
    EXPECT_EQ(t.size(), 4u) << t;
    EXPECT_EQ(t.substr(0, 2), "1e") << t;
  }
  EXPECT_NE(std::find(powers.begin(), powers.end(), "1e+0"), powers.end());
  EXPECT_NE(std::find(powers.begin(), powers.end(), "1e+5"), powers.end());
}

TEST(ReportSvg, PointsColouredByDiagnosisAtTheirCoordinates) {
  const ReportInput in = fixture();
  auto root = test::parse_xml(render_svg(in));
  const Mapping m = mapping_of(*root);
  auto points = with_class(*root, "point");
  ASSERT_EQ(points.size(), in.points.size());
  for (const XmlNode* g : points) {
    const size_t k = std::stoul(g->attr("data-index"));
    const Diagnosis d = diagnose(in.points[k], in.machines[0].roofs);
    EXPECT_EQ(g->attr("data-verdict"), to_string(d.verdict)) << in.points[k].name;
    EXPECT_NEAR(number(g, "data-performance"), d.performance.value, 1e-6 * d.performance.value);
    // The main marker: at (I of the binding level, P).
    auto markers = g->find_all(
        [](const XmlNode& n) { return n.has_class("marker") && !n.has_class("level"); });
    ASSERT_EQ(markers.size(), 1u);
    double bind_i = 0;
    for (const auto& l : d.levels)
      if (l.level == d.binding_level) bind_i = l.intensity.value;
    if (markers[0]->name == "circle") {
      EXPECT_NEAR(number(markers[0], "cx"), m.x(bind_i), 0.01);
      EXPECT_NEAR(number(markers[0], "cy"), m.y(d.performance.value), 0.01);
    }
    // Hierarchical points: one marker per level.
    auto level_markers = g->find_all([](const XmlNode& n) { return n.has_class("level"); });
    EXPECT_EQ(level_markers.size() + 1, d.levels.size());
  }
  // The fixture holds a memory-bound, an above-roof and a far-below point, each in its colour.
  const std::string svg = render_svg(in);
  EXPECT_NE(svg.find("verdict-memory-bound"), std::string::npos);
  EXPECT_NE(svg.find("verdict-above-roof"), std::string::npos);
  EXPECT_NE(svg.find("verdict-far-below"), std::string::npos);
  EXPECT_NE(svg.find("#E69F00"), std::string::npos);  // far below: Okabe–Ito orange
}

TEST(ReportSvg, HeadroomLineRunsFromPointToBindingRoof) {
  const ReportInput in = fixture();
  auto root = test::parse_xml(render_svg(in));
  const Mapping m = mapping_of(*root);
  auto lines =
      root->find_all([](const XmlNode& n) { return n.name == "line" && n.has_class("headroom"); });
  ASSERT_FALSE(lines.empty());
  for (const XmlNode* l : lines) {
    const size_t k = std::stoul(l->attr("data-index"));
    const Diagnosis d = diagnose(in.points[k], in.machines[0].roofs);
    EXPECT_NEAR(number(l, "y1"), m.y(d.performance.value), 0.01);
    EXPECT_NEAR(number(l, "y2"), m.y(d.attainable.value), 0.01);
    EXPECT_EQ(l->attr("x1"), l->attr("x2"));  // vertical (docs/model.md §2)
  }
  // The far-below stencil is labelled with its headroom factor.
  const Diagnosis stencil = diagnose(in.points[2], in.machines[0].roofs);
  ASSERT_EQ(stencil.verdict, Verdict::far_below);
  bool found = false;
  for (const XmlNode* t : with_class(*root, "headroom-label"))
    if (t->text == "×" + format_number(stencil.headroom.factor, 3)) found = true;
  EXPECT_TRUE(found) << "headroom " << stencil.headroom.factor;
}

TEST(ReportSvg, PointLabelsDoNotCollide) {
  auto root = test::parse_xml(render_svg(fixture()));
  auto labels = with_class(*root, "point-label");
  ASSERT_EQ(labels.size(), 5u);
  // Boxes from the text's position, length and anchor (12 px font, ≤ 0.62 em per character).
  struct B {
    double x0, y0, x1, y1;
  };
  std::vector<B> boxes;
  for (const XmlNode* t : labels) {
    const double w = static_cast<double>(t->text.size()) * 12 * 0.55;
    double x = number(t, "x");
    const std::string a = t->attr("text-anchor");
    if (a == "end") x -= w;
    if (a == "middle") x -= w / 2;
    boxes.push_back({x, number(t, "y") - 10, x + w, number(t, "y") + 2});
  }
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      const bool overlap = boxes[i].x0 < boxes[j].x1 && boxes[j].x0 < boxes[i].x1 &&
                           boxes[i].y0 < boxes[j].y1 && boxes[j].y0 < boxes[i].y1;
      EXPECT_FALSE(overlap) << labels[i]->text << " / " << labels[j]->text;
    }
}

// Beyond 1000 points no name is placed (the placement searched the cloud around each one: 20,000
// points took 17 s); every point keeps its marker, and its name in the tooltip.
TEST(ReportSvg, AChartOfMoreThanAThousandPointsNamesThemInTooltipsOnly) {
  ReportInput in = fixture();
  const Point first = in.points.front();
  for (const size_t n : {size_t{1000}, size_t{1001}}) {
    in.points.assign(n, first);
    for (size_t k = 0; k < n; ++k) in.points[k].name = "p" + std::to_string(k);
    auto root = test::parse_xml(render_svg(in));
    EXPECT_EQ(with_class(*root, "point").size(), n);
    if (n > 1000)
      EXPECT_TRUE(with_class(*root, "point-label").empty());
    else
      EXPECT_FALSE(with_class(*root, "point-label").empty());
    auto titles = root->find_all([](const XmlNode& t) { return t.name == "title"; });
    size_t named = 0;
    for (const XmlNode* t : titles) named += t->text.rfind("p", 0) == 0;
    EXPECT_EQ(named, n);
  }
}

const XmlNode* axis_title(const XmlNode& root, const std::string& cls) {
  auto t = with_class(root, cls);
  return t.size() == 1 ? t[0] : nullptr;
}

TEST(ReportSvg, AxisTitlesInTheRoofSetsUnits) {
  {
    const std::string svg = render_svg(fixture());
    auto root = test::parse_xml(svg);
    ASSERT_TRUE(axis_title(*root, "x-title"));
    EXPECT_EQ(axis_title(*root, "x-title")->text, "Operational intensity [FLOP/byte]");
    EXPECT_EQ(axis_title(*root, "y-title")->text, "Performance [FLOP/s]");
    EXPECT_EQ(svg.find("FLOPS"), std::string::npos);
  }
  {
    ReportInput in;
    in.machines.push_back(load_machine_file(kData + "custom_units.json"));
    auto root = test::parse_xml(render_svg(in));
    EXPECT_EQ(axis_title(*root, "x-title")->text, "Operational intensity [tuple/I/O operation]");
    EXPECT_EQ(axis_title(*root, "y-title")->text, "Performance [tuple/s]");
  }
  {
    ReportInput in;
    in.machines.push_back(load_machine_file(kData + "integer_npu.json"));
    auto root = test::parse_xml(render_svg(in));
    EXPECT_EQ(axis_title(*root, "x-title")->text, "Operational intensity [OP/byte]");
    EXPECT_EQ(axis_title(*root, "y-title")->text, "Performance [OP/s]");
    bool label = false;
    for (const XmlNode* t : with_class(*root, "roof-label"))
      if (t->text == "int8 mac 45 TOP/s") label = true;  // its name, as the tables say it
    EXPECT_TRUE(label);
  }
}

TEST(ReportSvg, OverlaysWorkloadLineAndCurves) {
  ReportInput in = fixture(false);
  in.machines.push_back(load_machine_file(kData + "other_machine.json"));
  in.workload_line = Intensity(1.0);
  in.no_overlap_curve = true;
  auto root = test::parse_xml(render_svg(in));
  const Mapping m = mapping_of(*root);
  auto overlay =
      root->find_all([](const XmlNode& n) { return n.has("data-roof") && n.has_class("overlay"); });
  EXPECT_EQ(overlay.size(), 2u);  // bigger-box: one flat and one slanted roof
  for (const XmlNode* n : overlay) EXPECT_EQ(n->attr("data-machine"), "bigger-box") << n->name;
  auto wl = root->find_all(
      [](const XmlNode& n) { return n.has_class("workload") && n.attr("y1") != n.attr("y2"); });
  ASSERT_EQ(wl.size(), 1u);
  EXPECT_NEAR(number(wl[0], "x1"), m.x(1.0), 0.01);
  // Roof heights at I = 1: 21 GB/s × 1 on the fixture, 200 GB/s × 1 on bigger-box (both left of
  // their ridges: the ratio is the bandwidth ratio, docs/model.md §7).
  auto marks = with_class(*root, "workload-mark");
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_NEAR(number(marks[0], "data-attainable"), 21e9, 1);
  EXPECT_NEAR(number(marks[1], "data-attainable"), 200e9, 1);
  bool ratio = false;
  for (const XmlNode* t : with_class(*root, "workload-label"))
    if (t->text.find("9.52x, bandwidth ratio") != std::string::npos) ratio = true;
  EXPECT_TRUE(ratio);
  auto paths = [&](const std::string& cls) {
    return root->find_all([&](const XmlNode& n) { return n.name == "path" && n.has_class(cls); });
  };
  ASSERT_EQ(paths("no-overlap").size(), 1u);
  ASSERT_EQ(paths("curve").size(), 1u);
  // The no-overlap curve's first vertex lies on 1/(1/π + 1/(β·I)) (coordinates rounded to 0.01).
  const std::string d = paths("no-overlap")[0]->attr("d");
  double x0 = 0, y0 = 0;
  ASSERT_EQ(std::sscanf(d.c_str(), "M%lf %lf", &x0, &y0), 2);
  const double i0 = std::pow(10, m.xlo + (x0 - m.left) / (m.right - m.left) * (m.xhi - m.xlo));
  EXPECT_NEAR(y0, m.y(1 / (1 / 72e9 + 1 / (21e9 * i0))), 0.03);
  EXPECT_EQ(with_class(*root, "curve-dot").size(), 6u);
}

// Golden file of the chart's structure: every roof line, ridge marker, point and label with its
// coordinates (0.1 px), for the fixture machine and points. Catches any unintended change to
// what the chart draws and where; the coordinates themselves are checked against the model in
// RoofsFollowTheModel and RidgeMarkerSitsAtLogScaledPiOverBeta. After an intended change:
// ROOFLINE_UPDATE_GOLDEN=1 ./roofline_tests --gtest_filter=ReportSvg.StructureMatchesGoldenFile
// That no two of these labels intersect (nor cover a point) is checked on the same chart by
// ChartLabels.NoTwoLabelsIntersectNorCoverAPoint (test_charts.cpp).
TEST(ReportSvg, StructureMatchesGoldenFile) {
  const std::string svg = render_svg(fixture());
  const auto root = test::XmlReader(svg).parse();
  auto r1 = [](const std::string& v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", std::stod(v));
    return std::string(b);
  };
  std::string summary;
  const auto nodes = root->find_all([](const XmlNode& n) {
    return n.has_class("roof") || n.has_class("ridge") || n.has_class("point") ||
           n.has_class("marker") || n.has_class("roof-label") || n.has_class("point-label") ||
           n.has_class("ridge-label") || n.has_class("headroom");
  });
  for (const XmlNode* n : nodes) {
    std::string line = n->name + " ." + n->attr("class");
    for (const char* a : {"data-roof", "data-name", "data-verdict", "data-level"})
      if (n->has(a)) line += std::string(" ") + a + "=" + n->attr(a);
    for (const char* a : {"x1", "y1", "x2", "y2", "cx", "cy", "x", "y"})
      if (n->has(a)) line += std::string(" ") + a + "=" + r1(n->attr(a));
    for (const char* a : {"d", "transform"})
      if (n->has(a)) line += std::string(" ") + a + "=" + n->attr(a);
    const auto first = n->text.find_first_not_of(" \n\t");
    if (first != std::string::npos)
      line += " \"" + n->text.substr(first, n->text.find_last_not_of(" \n\t") - first + 1) + "\"";
    summary += line + "\n";
  }
  const std::string golden = kData + "golden_structure.txt";
  if (std::getenv("ROOFLINE_UPDATE_GOLDEN")) {
    std::ofstream(golden) << summary;
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  std::ifstream in(golden);
  ASSERT_TRUE(in) << "missing " << golden;
  const std::string expected((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  EXPECT_GT(std::count(expected.begin(), expected.end(), '\n'), 20);
  EXPECT_EQ(summary, expected);
}

TEST(ReportSvg, BadInputsAreInputErrors) {
  ReportInput none;
  EXPECT_THROW(render_svg(none), InputError);
  ReportInput in = fixture(false);
  in.points = load_points_file(kData + "points_fp16.json").points;
  EXPECT_THROW(render_svg(in), InputError);  // no fp16 roof on the machine
}

TEST(ReportSvg, AWeightedPointsDotHasAnAreaProportionalToItsWeight) {
  ReportInput in = fixture();
  // Four copies of the fixture's memory-bound point (drawn as circles): three weighted, one not.
  Point base;
  bool found = false;
  for (const Point& p : in.points)
    if (!found && diagnose(p, in.machines[0].roofs).verdict == Verdict::memory_bound)
      base = p, found = true;
  ASSERT_TRUE(found);
  in.points.clear();
  const double weights[] = {0.6, 0.15, 0.0006, 0};
  for (double w : weights) {
    Point p = base;
    p.name = "w" + std::to_string(in.points.size());
    p.weight = w;
    in.points.push_back(p);
  }
  const std::string svg = render_svg(in);
  auto root = test::parse_xml(svg);
  auto points = with_class(*root, "point");
  ASSERT_EQ(points.size(), 4u);
  std::vector<double> radius(4, 0);
  for (const XmlNode* g : points) {
    auto markers = g->find_all(
        [](const XmlNode& n) { return n.has_class("marker") && !n.has_class("level"); });
    ASSERT_EQ(markers.size(), 1u);
    ASSERT_EQ(markers[0]->name, "circle");
    radius.at(std::stoul(g->attr("data-index"))) = number(markers[0], "r");
  }
  // The heaviest at 16 px; area ∝ weight: 0.15 / 0.6 = (r / 16)² → r = 8; a weight below 3.5 %
  // of the heaviest at the 3 px floor; no weight: the default 6.5 px.
  EXPECT_NEAR(radius[0], 16, 0.01);
  EXPECT_NEAR(radius[1], 8, 0.01);
  EXPECT_NEAR(radius[2], 3, 0.01);
  EXPECT_NEAR(radius[3], 6.5, 0.01);
  EXPECT_NE(svg.find("dot area"), std::string::npos);
  // Larger dots are drawn first, so none hides a smaller one: 16, 8, 6.5, 3 px in document order.
  EXPECT_LT(svg.find("data-name=\"w0\""), svg.find("data-name=\"w1\""));
  EXPECT_LT(svg.find("data-name=\"w1\""), svg.find("data-name=\"w3\""));
  EXPECT_LT(svg.find("data-name=\"w3\""), svg.find("data-name=\"w2\""));
  // Without weights: every dot at the default size and no size legend.
  for (Point& p : in.points) p.weight = 0;
  const std::string plain = render_svg(in);
  EXPECT_EQ(plain.find("dot area"), std::string::npos);
  auto plain_root = test::parse_xml(plain);
  for (const XmlNode* g : with_class(*plain_root, "point"))
    for (const XmlNode* m : g->find_all([](const XmlNode& n) { return n.has_class("marker"); }))
      EXPECT_NEAR(number(m, "r"), 6.5, 0.01);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
