// The memory-wall trajectory chart (src/report/trajectory.cpp): well-formed SVG, one marker per
// device and series at the pixel its year and I* map to, axis titles with units, devices named,
// the HTML page around the SVG, the formats by extension.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "cli/cli_runner.hpp"
#include "report/xml_lite.hpp"
#include "roofline/error.hpp"
#include "roofline/trajectory.hpp"

using namespace roofline;
using roofline::test::parse_xml;
using roofline::test::XmlNode;

namespace ROOFLINE_UNITY_ID {

TrajectoryInput fixture() {
  TrajectoryInput t;
  t.title = "Memory wall";
  t.subtitle = "test";
  // Two devices in 2022 (side by side), one in 2017, one undated.
  t.series.push_back({"bf16/fp16",
                      {{"v100-sxm2", 2017, 125e12 / 900e9, "FLOP/byte", "fp16 tensor", "HBM2"},
                       {"h100-sxm", 2022, 989.4e12 / 3.35e12, "FLOP/byte", "bf16 tensor", "HBM3"},
                       {"h100-pcie", 2022, 756e12 / 2e12, "FLOP/byte", "bf16 tensor", "HBM2e"}}});
  t.series.push_back({"fp8/int8",
                      {{"h100-sxm", 2022, 1978.9e12 / 3.35e12, "FLOP/byte", "fp8 tensor", "HBM3"},
                       {"v100-sxm2", 2017, 62e12 / 900e9, "OP/byte", "int8 vector", "HBM2"}}});
  t.undated = {"my-gpu"};
  return t;
}

/// (x, y) of a `translate(x,y)` transform.
std::pair<double, double> translate_of(const XmlNode& n) {
  const std::string t = n.attr("transform");
  const size_t open = t.find('('), comma = t.find(','), close = t.find(')');
  EXPECT_EQ(t.rfind("translate(", 0), 0u) << t;
  return {std::stod(t.substr(open + 1, comma - open - 1)),
          std::stod(t.substr(comma + 1, close - comma - 1))};
}

double num_attr(const XmlNode& n, const std::string& k) {
  EXPECT_TRUE(n.has(k)) << k;
  return n.has(k) ? std::stod(n.attr(k)) : NAN;
}

TEST(HwTrajectory, SvgIsWellFormedWithAMarkerPerDeviceAtItsValues) {
  const TrajectoryInput in = fixture();
  const std::string svg = render_trajectory_svg(in);
  std::unique_ptr<XmlNode> root;
  ASSERT_NO_THROW(root = parse_xml(svg));
  EXPECT_EQ(root->name, "svg");

  const auto plots = root->find_all([](const XmlNode& n) { return n.attr("id") == "plot"; });
  ASSERT_EQ(plots.size(), 1u);
  const XmlNode& plot = *plots[0];
  const double x_min = num_attr(plot, "data-x-min"), x_max = num_attr(plot, "data-x-max");
  const double y_lo = num_attr(plot, "data-y-log-min"), y_hi = num_attr(plot, "data-y-log-max");
  const double left = num_attr(plot, "data-left"), right = num_attr(plot, "data-right");
  const double top = num_attr(plot, "data-top"), bottom = num_attr(plot, "data-bottom");
  // Years 2017..2022 with half a year and a bit either side; I* from 68.9 to 590.7: 10..1000.
  EXPECT_DOUBLE_EQ(x_min, 2016.4);
  EXPECT_DOUBLE_EQ(x_max, 2022.6);
  EXPECT_DOUBLE_EQ(y_lo, 1);
  EXPECT_DOUBLE_EQ(y_hi, 3);

  const auto markers =
      root->find_all([](const XmlNode& n) { return n.has_class("trajectory-point"); });
  ASSERT_EQ(markers.size(), 5u);  // 3 + 2: one per device and series
  std::map<std::string, std::set<std::string>> per_series;
  std::map<std::string, double> column;  // device -> year-axis value of its column
  for (const XmlNode* m : markers) {
    const std::string device = m->attr("data-device"), series = m->attr("data-series");
    EXPECT_TRUE(per_series[series].insert(device).second) << "two markers for " << device;
    const double year = num_attr(*m, "data-year"), x = num_attr(*m, "data-x");
    const double ridge = num_attr(*m, "data-ridge");
    EXPECT_LT(std::fabs(x - year), 0.5) << device;
    if (column.count(device)) {
      EXPECT_DOUBLE_EQ(column[device], x) << "one column per device";
    }
    column[device] = x;
    // The marker stands where its values map: linear years, log10 I*.
    const auto [px, py] = translate_of(*m);
    EXPECT_NEAR(px, left + (x - x_min) / (x_max - x_min) * (right - left), 0.006) << device;
    EXPECT_NEAR(py, bottom - (std::log10(ridge) - y_lo) / (y_hi - y_lo) * (bottom - top), 0.006)
        << device;
  }
  EXPECT_EQ(per_series["bf16/fp16"], (std::set<std::string>{"v100-sxm2", "h100-sxm", "h100-pcie"}));
  EXPECT_EQ(per_series["fp8/int8"], (std::set<std::string>{"v100-sxm2", "h100-sxm"}));
  // The values are the input's, unrounded.
  for (const XmlNode* m : markers)
    if (m->attr("data-device") == "h100-sxm" && m->attr("data-series") == "bf16/fp16") {
      EXPECT_NEAR(num_attr(*m, "data-ridge"), 989.4 / 3.35, 1e-6);
      EXPECT_EQ(m->attr("data-compute-roof"), "bf16 tensor");
      EXPECT_EQ(m->attr("data-memory-level"), "HBM3");
    }
  // The two 2022 devices stand side by side, the 2017 one on its year.
  EXPECT_DOUBLE_EQ(column["v100-sxm2"], 2017);
  EXPECT_NE(column["h100-sxm"], column["h100-pcie"]);
  EXPECT_NEAR(column["h100-sxm"] + column["h100-pcie"], 2 * 2022, 1e-9);

  // Every drawn device is named once under its column; the undated one is named as left out.
  const auto labels = root->find_all([](const XmlNode& n) { return n.has_class("device-label"); });
  std::set<std::string> named;
  for (const XmlNode* l : labels) {
    EXPECT_EQ(l->text, l->attr("data-device"));
    named.insert(l->text);
  }
  EXPECT_EQ(labels.size(), 3u);
  EXPECT_EQ(named, (std::set<std::string>{"v100-sxm2", "h100-sxm", "h100-pcie"}));
  EXPECT_NE(svg.find("Not drawn (no release year): my-gpu"), std::string::npos);

  // Axis titles with units (an integer roof in a series adds OP/byte), year ticks, log ticks.
  const auto titles = root->find_all([](const XmlNode& n) { return n.has_class("axis-title"); });
  std::set<std::string> title_text;
  for (const XmlNode* t : titles) title_text.insert(t->text);
  EXPECT_EQ(title_text,
            (std::set<std::string>{"Release year", "Ridge point I* [FLOP/byte, OP/byte]"}));
  const auto xt = root->find_all([](const XmlNode& n) { return n.has_class("x-tick"); });
  ASSERT_EQ(xt.size(), 6u);  // 2017..2022
  EXPECT_EQ(xt.front()->text, "2017");
  EXPECT_EQ(xt.back()->text, "2022");
  const auto yt = root->find_all([](const XmlNode& n) { return n.has_class("y-tick"); });
  ASSERT_EQ(yt.size(), 3u);
  EXPECT_EQ(yt[0]->text, "10");
  EXPECT_EQ(yt[2]->text, "1000");
  // One legend entry per series, with its size.
  EXPECT_NE(svg.find("bf16/fp16 (3 devices)"), std::string::npos);
  EXPECT_NE(svg.find("fp8/int8 (2 devices)"), std::string::npos);
}

TEST(HwTrajectory, FloatingPointOnlySeriesSaysFlopPerByte) {
  TrajectoryInput in = fixture();
  in.series.pop_back();
  const auto root = parse_xml(render_trajectory_svg(in));
  const auto titles = root->find_all([](const XmlNode& n) { return n.has_class("y-title"); });
  ASSERT_EQ(titles.size(), 1u);
  EXPECT_EQ(titles[0]->text, "Ridge point I* [FLOP/byte]");
}

TEST(HwTrajectory, BadInputIsRefused) {
  TrajectoryInput empty;
  EXPECT_THROW(render_trajectory_svg(empty), InputError);
  TrajectoryInput t = fixture();
  t.series[0].points[0].ridge = 0;
  EXPECT_THROW(render_trajectory_svg(t), InputError);
  t = fixture();
  t.series[0].points[1].year = 0;
  EXPECT_THROW(render_trajectory_svg(t), InputError);
}

TEST(HwTrajectory, FormatsByExtension) {
  roofline::test::TempDir dir;
  write_trajectory(dir.file("t.svg"), fixture());
  const std::string svg = roofline::test::slurp(dir.file("t.svg"));
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("prefers-color-scheme"), std::string::npos);

  write_trajectory(dir.file("t.HTML"), fixture());
  const std::string html = roofline::test::slurp(dir.file("t.HTML"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  const size_t b = html.find("<svg "), e = html.find("</svg>");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_NO_THROW(parse_xml(html.substr(b, e + 6 - b)));
  // Self-contained: nothing fetched from elsewhere.
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_NE(html.find("<td>h100-sxm</td>"), std::string::npos);
  EXPECT_NE(html.find("295.3 FLOP/byte"), std::string::npos);  // 989.4 / 3.35 in the table

  EXPECT_THROW(check_trajectory_format(dir.file("t.json")), InputError);
  EXPECT_THROW(write_trajectory(dir.file("t.csv"), fixture()), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("t.csv")));

  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "rsvg-convert (librsvg2-bin) not installed";
  write_trajectory(dir.file("t.png"), fixture());
  const std::string png = roofline::test::slurp(dir.file("t.png"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}
}  // namespace ROOFLINE_UNITY_ID
