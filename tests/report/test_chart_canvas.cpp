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

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
