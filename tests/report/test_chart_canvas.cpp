// What a chart draws stays on its canvas and in sight: the legend's rows inside the SVG (the
// canvas grows with them, on the HTML page too), a title cut to the width with the whole of it
// kept in <title>, the energy chart's points not drawn said under its subtitle, and the
// trajectory chart's markers of one device at one I* drawn side by side.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "report/chart.hpp"
#include "report/chart_fit.hpp"
#include "report/svg_text.hpp"
#include "report/xml_lite.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"
#include "roofline/trajectory.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::XmlNode;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

double number(const XmlNode& n, const std::string& a) {
  EXPECT_TRUE(n.has(a)) << n.name << " has no " << a;
  return n.has(a) ? std::stod(n.attr(a)) : 0;
}
/// (x, y) of a `translate(x,y)` transform.
std::pair<double, double> translate_of(const XmlNode& n) {
  const std::string t = n.attr("transform");
  const size_t open = t.find('('), comma = t.find(','), close = t.find(')');
  EXPECT_EQ(t.rfind("translate(", 0), 0u) << t;
  return {std::stod(t.substr(open + 1, comma - open - 1)),
          std::stod(t.substr(comma + 1, close - comma - 1))};
}
std::vector<const XmlNode*> of_class(const XmlNode& root, const std::string& cls) {
  return root.find_all([&](const XmlNode& n) { return n.has_class(cls); });
}
const XmlNode& plot_of(const XmlNode& root) {
  const auto plots = root.find_all([](const XmlNode& n) { return n.attr("id") == "plot"; });
  EXPECT_EQ(plots.size(), 1u);
  return *plots.front();
}

/// The report's machine and points (every verdict, one point above its roof), compared with
/// `compared` copies of the machine under long names: a legend of many rows.
ReportInput busy_legend(size_t compared) {
  ReportInput in;
  in.title = "legend rows";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  for (size_t k = 0; k < compared; ++k) {
    MachineDocument m = load_machine_file(kData + "machine.json");
    m.roofs.name = "a compared machine with a long name, number " + std::to_string(k + 1);
    in.machines.push_back(m);
  }
  in.points = load_points_file(kData + "points.json").points;
  return in;
}

/// Every legend entry (a translated group inside .legend) lies inside the canvas: its row's
/// baseline and the text's descent and a marker's lower half below it (at most 10 px) within
/// the height, which the viewBox says too. Returns the lowest entry's y.
double check_legend_inside(const XmlNode& svg) {
  const double height = number(svg, "height");
  EXPECT_EQ(svg.attr("viewBox"), "0 0 960 " + report::svg_num(height));
  const auto legends = of_class(svg, "legend");
  EXPECT_EQ(legends.size(), 1u);
  double lowest = 0;
  for (const auto& entry : legends.front()->children) {
    const double y = translate_of(*entry).second;
    EXPECT_LE(y + 10, height) << "legend entry below the canvas";
    lowest = std::max(lowest, y);
  }
  return lowest;
}

TEST(ChartCanvas, LegendRowsPastTheCanvasMakeItTaller) {
  // With one point and no compared machine the legend holds three rows or fewer, and the
  // canvas keeps 640 px.
  ReportInput one = busy_legend(0);
  one.points.resize(1);
  const auto plain = test::parse_xml(render_svg(one));
  EXPECT_EQ(plain->attr("height"), "640");
  check_legend_inside(*plain);
  const double plot_height =
      number(plot_of(*plain), "data-bottom") - number(plot_of(*plain), "data-top");

  const auto busy = test::parse_xml(render_svg(busy_legend(6)));
  const double lowest = check_legend_inside(*busy);
  // Rows 20 px apart from 74 px under the plot (the fourth's baseline at 650 would be hidden
  // on 640 px), the canvas 10 px below the last, or below the row under it that names the roofs
  // not labelled (six copies of one machine's roofs leave most labels no room); the plot keeps
  // its height.
  std::set<double> rows;
  for (const auto& entry : of_class(*busy, "legend").front()->children)
    rows.insert(translate_of(*entry).second);
  ASSERT_GE(rows.size(), 4u);
  EXPECT_GT(lowest, 640);
  const auto notes = of_class(*busy, "not-labelled");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_DOUBLE_EQ(number(*notes.front(), "y"), lowest + 20);
  EXPECT_DOUBLE_EQ(number(*busy, "height"), lowest + 30);
  EXPECT_TRUE(of_class(*plain, "not-labelled").empty());
  const XmlNode& plot = plot_of(*busy);
  EXPECT_DOUBLE_EQ(number(plot, "data-bottom") - number(plot, "data-top"), plot_height);
  EXPECT_DOUBLE_EQ(lowest,
                   number(plot, "data-bottom") + 74 + 20 * (static_cast<double>(rows.size()) - 1));
  // The background covers the canvas.
  const auto bg = of_class(*busy, "bg");
  ASSERT_EQ(bg.size(), 1u);
  EXPECT_EQ(bg.front()->attr("height"), busy->attr("height"));
}

TEST(ChartCanvas, TheHtmlPagesChartHoldsItsLegendToo) {
  const std::string html = render_html(busy_legend(6));
  const size_t from = html.find("<svg"), to = html.find("</svg>");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const auto svg = test::parse_xml(html.substr(from, to + 6 - from));
  EXPECT_GT(check_legend_inside(*svg), 640);
}

TEST(ChartCanvas, FitTitleCutsBetweenCharactersWithAnEllipsis) {
  const auto columns = [](size_t n) {
    return [n](const std::string& s) { return report::text_columns(s) <= n; };
  };
  EXPECT_EQ(report::fit_title("abcdef", columns(6)), "abcdef");
  EXPECT_EQ(report::fit_title("abcdef", columns(4)), "abc…");
  EXPECT_EQ(report::fit_title("ab  cdef", columns(5)), "ab…");  // no space before the ellipsis
  EXPECT_EQ(report::fit_title("ééééé", columns(3)), "éé…");     // never inside a character
  EXPECT_EQ(report::fit_title("abc", columns(0)), "…");
  const std::string long_title(100000, 'W');
  EXPECT_EQ(report::fit_title(long_title, columns(11)), std::string(10, 'W') + "…");
}

/// The drawn title (.title) fits `room` px in 17 px semibold text, ends "…", and carries the
/// whole title as its <title>, as the SVG's own <title> does.
void check_title_cut(const XmlNode& svg, const std::string& whole, double room) {
  const auto titles = of_class(svg, "title");
  ASSERT_EQ(titles.size(), 1u);
  const XmlNode& t = *titles.front();
  EXPECT_LE(report::text_width(t.text, 17, true), room);
  EXPECT_GT(report::text_width(t.text, 17, true), room - 20);  // cut no shorter than it must be
  ASSERT_GE(t.text.size(), 3u);
  EXPECT_EQ(t.text.substr(t.text.size() - 3), "…");
  ASSERT_EQ(t.children.size(), 1u);
  EXPECT_EQ(t.children.front()->name, "title");
  EXPECT_EQ(t.children.front()->text, whole);
  const auto own = svg.find_all([&](const XmlNode& n) { return n.name == "title"; });
  ASSERT_FALSE(own.empty());
  EXPECT_EQ(own.front()->text, whole);
  EXPECT_EQ(svg.attr("aria-label"), whole);
}

TEST(ChartCanvas, ALongTitleIsCutToTheCanvas) {
  ReportInput in = busy_legend(0);
  in.title = std::string(300, 'W');
  const auto svg = test::parse_xml(render_svg(in));
  const double left = number(plot_of(*svg), "data-left");
  check_title_cut(*svg, in.title, 960 - left - 8);
  // A title that fits is drawn whole, with no <title> of its own.
  const auto plain = test::parse_xml(render_svg(busy_legend(0)));
  const auto titles = of_class(*plain, "title");
  ASSERT_EQ(titles.size(), 1u);
  EXPECT_EQ(titles.front()->text, "legend rows");
  EXPECT_TRUE(titles.front()->children.empty());
}

EnergyChartInput energy_input() {
  EnergyChartInput in;
  in.title = "energy test";
  in.subtitle = "fp64 × DRAM";
  in.costs.tau_flop = 1 / 72e9;
  in.costs.tau_mem = 1 / 21e9;
  in.costs.eps_flop = 1e-10;
  in.costs.eps_mem = 5e-10;
  in.costs.pi0 = 20;
  in.points = {{"daxpy", 1.0 / 12, 2e8 / 6.5}};
  return in;
}

TEST(ChartCanvas, EnergyAndTrajectoryTitlesAreCutToo) {
  EnergyChartInput e = energy_input();
  e.title = "Energy roofline of " + std::string(200, 'M');
  check_title_cut(*test::parse_xml(render_energy_svg(e)), e.title, 960 - 96 - 8);
  TrajectoryInput t;
  t.title = std::string(200, 'W');
  t.series.push_back({"fp64", {{"gpu", 2020, 10, "FLOP/byte", "fp64", "HBM2"}}});
  check_title_cut(*test::parse_xml(render_trajectory_svg(t)), t.title, 960 - 96 - 8);
}

TEST(ChartCanvas, TheEnergyChartSaysThePointsItDoesNotDraw) {
  EnergyChartInput in = energy_input();
  const auto plain = test::parse_xml(render_energy_svg(in));
  EXPECT_TRUE(of_class(*plain, "not-drawn").empty());
  EXPECT_DOUBLE_EQ(number(plot_of(*plain), "data-top"), 70);
  in.not_drawn = {{"no-energy", "no energy", "no-energy: no energy in the points file"},
                  {"l2-only", "no traffic at DRAM", "l2-only: no traffic at DRAM"}};
  const auto svg = test::parse_xml(render_energy_svg(in));
  const auto lines = of_class(*svg, "not-drawn");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines.front()->text,
            "2 points not drawn: no-energy (no energy), l2-only (no traffic at DRAM)");
  // Under the subtitle's baseline (48), above the plot, which starts lower to make room: the
  // line's box (ascent 0.93 em, descent 0.24 em of 11.5 px) clear of both.
  const double y = number(*lines.front(), "y");
  EXPECT_GT(y - 0.93 * 11.5, 48 + 0.24 * 12);
  EXPECT_LT(y + 0.24 * 11.5, number(plot_of(*svg), "data-top"));
  EXPECT_DOUBLE_EQ(number(plot_of(*svg), "data-top"), 84);
}

TEST(ChartCanvas, EnergyCommandDrawsItsPointsNotPlacedOnTheChart) {
  test::TempDir dir;
  const std::string no_powercap = dir.file("no-powercap");
  std::filesystem::create_directory(no_powercap);
  const std::string points = dir.file("points.json");
  test::write_text(points, R"({"schema":"roofline.points","version":1,"points":[
 {"name":"daxpy","work":2e8,"traffic":2.4e9,"time":0.05,"energy":6.5},
 {"name":"no-energy","work":1e9,"traffic":1e9,"time":1},
 {"name":"l2-only","work":1e9,"traffic":{"L2":1e9},"time":1,"energy":2}]})");
  const std::string svg = dir.file("energy.svg");
  const auto r = test::run_cli({"energy", "--machine", kData + "machine.json", "--eps-flop",
                                "1e-10", "--eps-mem", "5e-10", "--pi0", "20", "--points", points,
                                "--report", svg, "--powercap", no_powercap});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no-energy: no energy in the points file, not placed"), std::string::npos);
  EXPECT_NE(r.out.find("l2-only: no traffic at DRAM"), std::string::npos) << r.out;
  const auto root = test::parse_xml(test::slurp(svg));
  const auto lines = of_class(*root, "not-drawn");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines.front()->text,
            "2 points not drawn: no-energy (no energy), l2-only (no traffic at DRAM)");
  EXPECT_EQ(of_class(*root, "point").size(), 1u);
}

TEST(ChartCanvas, MarkersOfOneDeviceAtOneRidgeStandSideBySide) {
  TrajectoryInput t;
  t.title = "ridges";
  // a100-40gb's fp64 tensor and fp32 ridges are both 12.54 FLOP/byte; v100's differ.
  t.series.push_back({"fp64",
                      {{"a100-40gb", 2020, 19.5e12 / 1.555e12, "FLOP/byte", "fp64 tensor", "HBM2"},
                       {"v100-sxm2", 2017, 7.8e12 / 900e9, "FLOP/byte", "fp64", "HBM2"}}});
  t.series.push_back({"fp32",
                      {{"a100-40gb", 2020, 19.5e12 / 1.555e12, "FLOP/byte", "fp32", "HBM2"},
                       {"v100-sxm2", 2017, 15.7e12 / 900e9, "FLOP/byte", "fp32", "HBM2"}}});
  const auto root = test::parse_xml(render_trajectory_svg(t));
  const XmlNode& plot = plot_of(*root);
  const double x_min = number(plot, "data-x-min"), x_max = number(plot, "data-x-max");
  const double left = number(plot, "data-left"), right = number(plot, "data-right");
  const auto column_px = [&](double column) {
    return left + (column - x_min) / (x_max - x_min) * (right - left);
  };
  std::map<std::string, std::vector<const XmlNode*>> by_device;
  for (const XmlNode* m : of_class(*root, "trajectory-point"))
    by_device[m->attr("data-device")].push_back(m);
  ASSERT_EQ(by_device["a100-40gb"].size(), 2u);
  const XmlNode &fp64 = *by_device["a100-40gb"][0], &fp32 = *by_device["a100-40gb"][1];
  const auto [x64, y64] = translate_of(fp64);
  const auto [x32, y32] = translate_of(fp32);
  EXPECT_DOUBLE_EQ(y64, y32);
  // 9 px apart, either side of the column, in the order of the series.
  const double column = column_px(number(fp64, "data-x"));
  EXPECT_NEAR(x64, column - 4.5, 0.01);
  EXPECT_NEAR(x32, column + 4.5, 0.01);
  EXPECT_DOUBLE_EQ(number(fp64, "data-beside"), -4.5);
  EXPECT_DOUBLE_EQ(number(fp32, "data-beside"), 4.5);
  ASSERT_FALSE(fp64.children.empty());
  EXPECT_NE(fp64.children.front()->text.find("drawn beside fp32"), std::string::npos);
  EXPECT_NE(fp32.children.front()->text.find("drawn beside fp64"), std::string::npos);
  // Markers apart from each other stay on their column.
  for (const XmlNode* m : by_device["v100-sxm2"]) {
    EXPECT_FALSE(m->has("data-beside"));
    EXPECT_NEAR(translate_of(*m).first, column_px(number(*m, "data-x")), 0.01);
  }
}

// --- the energy and trajectory charts' lines, names and legend ------------------------------

/// A text's box from its attributes (x, y, text-anchor) and its width at `font` px: ascent 0.93
/// and descent 0.24 em, as the browser's boxes.
struct Box {
  double x0, y0, x1, y1;
  bool meets(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};
Box text_box(const XmlNode& t, double font, bool bold) {
  const double w = report::text_width(t.text, font, bold);
  const double x = number(t, "x"), y = number(t, "y");
  const std::string anchor = t.has("text-anchor") ? t.attr("text-anchor") : "start";
  const double x0 = anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x;
  return {x0, y - 0.93 * font, x0 + w, y + 0.24 * font};
}
/// The subtitle drawn within `room` px in 12 px text, cut with "…", the whole line its <title>.
void check_subtitle_cut(const XmlNode& svg, const std::string& whole, double room) {
  const auto subs = of_class(svg, "subtitle");
  ASSERT_EQ(subs.size(), 1u);
  const XmlNode& t = *subs.front();
  EXPECT_LE(report::text_width(t.text, 12), room) << t.text;
  EXPECT_GT(report::text_width(t.text, 12), room - 20) << t.text;  // no shorter than it must be
  ASSERT_GE(t.text.size(), 3u);
  EXPECT_EQ(t.text.substr(t.text.size() - 3), "…");
  EXPECT_EQ(whole.rfind(t.text.substr(0, t.text.size() - 3), 0), 0u) << t.text;
  ASSERT_EQ(t.children.size(), 1u);
  EXPECT_EQ(t.children.front()->name, "title");
  EXPECT_EQ(t.children.front()->text, whole);
}

TEST(ChartCanvas, EnergyAndTrajectorySubtitlesAreCutToTheCanvas) {
  // `roofline energy`'s subtitle is the compute roof × the level, and the costs' origin: a
  // machine's own roof names make it as long as they are.
  EnergyChartInput e = energy_input();
  e.subtitle = "fp64 avx512 fma " + std::string(150, 'v') + " × DRAM, costs given";
  check_subtitle_cut(*test::parse_xml(render_energy_svg(e)), e.subtitle, 960 - 96 - 8);
  TrajectoryInput t;
  t.title = "ridges";
  t.subtitle = "I* = π/β against " + std::string(150, 'L') + ", kind gpu (docs/model.md §8)";
  t.series.push_back({"fp64", {{"gpu", 2020, 10, "FLOP/byte", "fp64", "HBM2"}}});
  const auto root = test::parse_xml(render_trajectory_svg(t));
  check_subtitle_cut(*root, t.subtitle, number(*root, "width") - 96 - 8);
  // One that fits is drawn whole, with no <title> of its own.
  const auto plain = test::parse_xml(render_energy_svg(energy_input()));
  const auto subs = of_class(*plain, "subtitle");
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs.front()->text, "fp64 × DRAM");
  EXPECT_TRUE(subs.front()->children.empty());
}

// Ten points of long names along one stretch of the roof: each name drawn is clear of every
// other name, of every marker and of the chart's own labels, inside the plot, and names its
// point; a name longer than half the plot is cut. Before, the ten names were drawn 3 px
// apart on top of each other.
TEST(ChartCanvas, EnergyPointNamesStandClearOfEachOther) {
  EnergyChartInput in = energy_input();
  in.points.clear();
  for (int k = 0; k < 10; ++k)
    in.points.push_back({"a rather long kernel name number " + std::to_string(k) + " of the suite",
                         1.0 + 0.1 * k, 1e8 * (1 + 0.02 * k)});
  in.points.push_back({std::string(200, 'n'), 100, 1e9});
  const auto root = test::parse_xml(render_energy_svg(in));
  const XmlNode& plot = plot_of(*root);
  const double left = number(plot, "data-left"), right = number(plot, "data-right");
  const double top = number(plot, "data-top"), bottom = number(plot, "data-bottom");
  std::vector<Box> taken;
  for (const XmlNode* m : of_class(*root, "point-marker")) {
    const double cx = number(*m, "cx"), cy = number(*m, "cy");
    taken.push_back({cx - 6, cy - 6, cx + 6, cy + 6});
  }
  ASSERT_EQ(taken.size(), 11u);
  for (const XmlNode* l : of_class(*root, "label")) taken.push_back(text_box(*l, 11.5, false));
  const auto names = of_class(*root, "point-label");
  // Markers 6 px apart leave no clear spot to most names of the cluster: their tooltips name
  // them. The first is beside its marker, and the long name apart from the cluster too.
  EXPECT_GE(names.size(), 2u);
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front()->attr("data-name"), in.points.front().name);
  std::set<std::string> named;
  bool cut = false;
  for (const XmlNode* n : names) {
    const Box b = text_box(*n, 12, true);
    EXPECT_GE(b.x0, left) << n->text;
    EXPECT_LE(b.x1, right) << n->text;
    EXPECT_GE(b.y0, top) << n->text;
    EXPECT_LE(b.y1, bottom) << n->text;
    EXPECT_LE(b.x1 - b.x0, (right - left) / 2) << n->text;
    for (const Box& o : taken) EXPECT_FALSE(b.meets(o)) << n->text;
    taken.push_back(b);
    const std::string& whole = n->attr("data-name");
    EXPECT_TRUE(named.insert(whole).second) << whole;
    if (n->text != whole) {
      cut = true;
      ASSERT_GE(n->text.size(), 3u);
      EXPECT_EQ(n->text.substr(n->text.size() - 3), "…");
      EXPECT_EQ(whole.rfind(n->text.substr(0, n->text.size() - 3), 0), 0u) << n->text;
    }
  }
  EXPECT_TRUE(cut);  // the 200-character name, alone at I = 100
  EXPECT_EQ(named.count(std::string(200, 'n')), 1u);
}

/// A trajectory of `series` series, each of one 2020 device, labelled `label` and its number,
/// and `undated` devices without a release year.
TrajectoryInput trajectory_of(size_t series, const std::string& label, size_t undated) {
  TrajectoryInput t;
  t.title = "ridges";
  for (size_t k = 0; k < series; ++k)
    t.series.push_back({label + " " + std::to_string(k),
                        {{"gpu", 2020, 10.0 + static_cast<double>(k), "FLOP/byte", "r", "HBM"}}});
  for (size_t k = 0; k < undated; ++k)
    t.undated.push_back("an undated machine with a long name, number " + std::to_string(k + 1));
  return t;
}

// The legend's entries wrap into rows within the canvas, which grows to hold them; an entry
// wider than a row is cut. Before, eight series of long labels ran one row off the canvas.
TEST(ChartCanvas, TheTrajectoryLegendWrapsWithinTheCanvas) {
  const TrajectoryInput t = trajectory_of(8, "a precision group of a long name", 3);
  const auto root = test::parse_xml(render_trajectory_svg(t));
  const double width = number(*root, "width"), height = number(*root, "height");
  const auto entries = root->find_all([](const XmlNode& n) {
    return n.has("data-series") && n.has("transform") && !n.has_class("trajectory-point");
  });
  ASSERT_EQ(entries.size(), 8u);
  std::set<double> rows;
  double last_row = 0;
  for (const XmlNode* e : entries) {
    const auto [x, y] = translate_of(*e);
    const auto texts = e->find_all([](const XmlNode& n) { return n.has_class("legend-text"); });
    ASSERT_EQ(texts.size(), 1u);
    EXPECT_EQ(texts.front()->text, e->attr("data-series") + " (1 devices)");
    const Box b = text_box(*texts.front(), 11.5, false);
    EXPECT_GE(x, 96);
    EXPECT_LE(x + b.x1, width - 8) << texts.front()->text;
    EXPECT_LE(y + b.y1, height);
    rows.insert(y);
    last_row = std::max(last_row, y);
  }
  EXPECT_GE(rows.size(), 3u);
  // Rows 20 px apart; the line of undated devices under the last one, inside the canvas.
  EXPECT_DOUBLE_EQ(*rows.rbegin() - *std::next(rows.rbegin()), 20);
  const auto notes = of_class(*root, "note");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_DOUBLE_EQ(number(*notes.front(), "y"), last_row + 24);
  EXPECT_LE(number(*notes.front(), "y") + 0.24 * 12, height);
  // One series of a label wider than the canvas: cut with "…", its count gone with it.
  const auto wide =
      test::parse_xml(render_trajectory_svg(trajectory_of(1, std::string(300, 'p'), 0)));
  const auto texts = of_class(*wide, "legend-text");
  ASSERT_EQ(texts.size(), 1u);
  ASSERT_GE(texts.front()->text.size(), 3u);
  EXPECT_EQ(texts.front()->text.substr(texts.front()->text.size() - 3), "…");
  EXPECT_LE(96 + 22 + report::text_width(texts.front()->text, 11.5), number(*wide, "width") - 8);
}

// The devices left out for want of a release year: as many as the width holds, the rest
// counted. Before, thirty long names ran 1068 characters off a 1595 px canvas.
TEST(ChartCanvas, TheTrajectorysUndatedLineFitsItsCanvas) {
  const auto root = test::parse_xml(render_trajectory_svg(trajectory_of(1, "fp64", 30)));
  const auto notes = of_class(*root, "note");
  ASSERT_EQ(notes.size(), 1u);
  const std::string& line = notes.front()->text;
  const double room = number(*root, "width") - number(*notes.front(), "x") - 8;
  EXPECT_LE(report::text_width(line, 12), room) << line;
  const std::string head =
      "Not drawn (no release year): an undated machine with a long name, number 1";
  EXPECT_EQ(line.rfind(head, 0), 0u) << line;
  size_t named = 0;
  for (size_t at = 0; (at = line.find("an undated machine", at)) != std::string::npos; ++at)
    ++named;
  const std::string tail = " and " + std::to_string(30 - named) + " more";
  ASSERT_GT(line.size(), tail.size());
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << line;
  // One more name would not have fitted.
  const std::string longer =
      line.substr(0, line.size() - tail.size()) + ", an undated machine with a long name, number " +
      std::to_string(named + 1) + " and " + std::to_string(29 - named) + " more";
  EXPECT_GT(report::text_width(longer, 12), room);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
