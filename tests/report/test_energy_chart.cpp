// The energy roofline chart (energy_chart.hpp): well-formed SVG whose roof, peak, balance point,
// time balance and points sit where the model (energy.hpp) puts them on the log-log axes; and
// `roofline energy --points --report` on the real executable.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "cli/cli_runner.hpp"
#include "report/svg_query.hpp"
#include "report/xml_lite.hpp"
#include "roofline/energy.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::XmlNode;

struct Map {
  double xlo, xhi, ylo, yhi, left, right, top, bottom;
  double i(double px) const {
    return std::pow(10, xlo + (px - left) / (right - left) * (xhi - xlo));
  }
  double v(double py) const {
    return std::pow(10, ylo + (bottom - py) / (bottom - top) * (yhi - ylo));
  }
  double x(double I) const { return left + (std::log10(I) - xlo) / (xhi - xlo) * (right - left); }
  double y(double V) const { return bottom - (std::log10(V) - ylo) / (yhi - ylo) * (bottom - top); }
};

EnergyChartInput fixture() {
  EnergyChartInput in;
  in.title = "energy test";
  in.costs.tau_flop = 1 / 72e9;  // π = 72 GFLOP/s
  in.costs.tau_mem = 1 / 21e9;   // β = 21 GB/s
  in.costs.eps_flop = 1e-10;
  in.costs.eps_mem = 5e-10;
  in.costs.pi0 = 20;
  in.points = {{"daxpy", 1.0 / 12, 2e8 / 6.5}, {"dgemm", 500.0 / 3, 2e11 / 180}};
  return in;
}

TEST(EnergyChart, RoofBalanceAndPointsSitWhereTheModelPutsThem) {
  const EnergyChartInput in = fixture();
  const auto root = test::parse_xml(render_energy_svg(in));
  const auto plot = root->find_all([](const XmlNode& n) { return n.attr("id") == "plot"; });
  ASSERT_EQ(plot.size(), 1u);
  const XmlNode* p = plot[0];
  const Map m{number(p, "data-x-log-min"), number(p, "data-x-log-max"), number(p, "data-y-log-min"),
              number(p, "data-y-log-max"), number(p, "data-left"),      number(p, "data-right"),
              number(p, "data-top"),       number(p, "data-bottom")};
  const EnergyCosts& k = in.costs;
  // The same length per decade on both axes (x had 1.45 times y's).
  EXPECT_NEAR((m.right - m.left) / (m.xhi - m.xlo), (m.bottom - m.top) / (m.yhi - m.ylo), 1e-6);
  // The roof: every vertex of the path back in model units is W/E(I) (pixels rounded to 0.01).
  const auto roof = root->find_all([](const XmlNode& n) { return n.has_class("energy-roof"); });
  ASSERT_EQ(roof.size(), 1u);
  std::string d = roof[0]->attr("d");
  for (char& c : d)
    if (c == 'M' || c == 'L') c = ' ';
  std::istringstream coords(d);
  double px = 0, py = 0;
  int vertices = 0;
  while (coords >> px >> py) {
    const double I = m.i(px);
    EXPECT_NEAR(m.v(py) / work_per_joule(k, I), 1.0, 2e-3) << "at I = " << I;
    ++vertices;
  }
  EXPECT_EQ(vertices, 241);
  // The peak line at 1/ε̂, ε̂ = ε_flop + π0/π = 1e-10 + 20/72e9.
  const double peak = 1 / (1e-10 + 20 / 72e9);
  const auto line = root->find_all([](const XmlNode& n) { return n.has_class("energy-peak"); });
  ASSERT_EQ(line.size(), 1u);
  EXPECT_NEAR(number(line[0], "y1"), m.y(peak), 0.01);
  // The balance point at half the peak, where the model says.
  const auto ring = root->find_all([](const XmlNode& n) { return n.has_class("balance-point"); });
  ASSERT_EQ(ring.size(), 1u);
  EXPECT_NEAR(number(ring[0], "cx"), m.x(energy_balance_point(k)), 0.01);
  EXPECT_NEAR(number(ring[0], "cy"), m.y(peak / 2), 0.01);
  EXPECT_NEAR(work_per_joule(k, energy_balance_point(k)), peak / 2, 1e-9 * peak);
  // B_τ = π/β.
  const auto tb = root->find_all([](const XmlNode& n) { return n.has_class("time-balance"); });
  ASSERT_EQ(tb.size(), 1u);
  EXPECT_NEAR(number(tb[0], "x1"), m.x(72.0 / 21), 0.01);
  // Points at (I, W/E).
  const auto pts = root->find_all([](const XmlNode& n) { return n.has_class("point-marker"); });
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NEAR(number(pts[0], "cx"), m.x(1.0 / 12), 0.01);
  EXPECT_NEAR(number(pts[0], "cy"), m.y(2e8 / 6.5), 0.01);
  EXPECT_NEAR(number(pts[1], "cy"), m.y(2e11 / 180), 0.01);
}

TEST(EnergyChart, BadInputsAreInputErrors) {
  EnergyChartInput in = fixture();
  in.points.push_back({"zero", 0, 1});
  EXPECT_THROW(render_energy_svg(in), InputError);
  in = fixture();
  in.costs.eps_flop = -1;
  EXPECT_THROW(render_energy_svg(in), InputError);
  EXPECT_THROW(check_energy_chart_format("chart.html"), InputError);
  EXPECT_NO_THROW(check_energy_chart_format("chart.SVG"));
}

TEST(EnergyChart, CliPlacesMeasuredPointsAndDrawsTheChart) {
  test::TempDir dir;
  // A powercap folder without RAPL zones (a VM's): no measured power, on any machine.
  const std::string no_powercap = dir.file("no-powercap");
  std::filesystem::create_directory(no_powercap);
  const std::string points = dir.file("points.json");
  test::write_text(points,
                   R"({"schema":"roofline.points","version":1,"points":[
 {"name":"daxpy","work":2e8,"traffic":2.4e9,"time":0.05,"energy":6.5},
 {"name":"no-energy","work":1e9,"traffic":1e9,"time":1}]})");
  const std::string machine = std::string(ROOFLINE_TEST_DATA) + "/report/machine.json";
  const std::string svg = dir.file("energy.svg");
  auto r = test::run_cli({"energy", "--machine", machine, "--eps-flop", "1e-10", "--eps-mem",
                          "5e-10", "--pi0", "20", "--points", points, "--report", svg, "--json",
                          "--powercap", no_powercap});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u);
  const EnergyCosts k = fixture().costs;
  EXPECT_DOUBLE_EQ(j["points"][0]["intensity"].get<double>(), 2e8 / 2.4e9);
  EXPECT_DOUBLE_EQ(j["points"][0]["work_per_joule"].get<double>(), 2e8 / 6.5);
  EXPECT_NEAR(j["points"][0]["share_of_roof"].get<double>(),
              (2e8 / 6.5) / work_per_joule(k, 2e8 / 2.4e9), 1e-9);
  EXPECT_EQ(j["points_without_energy"][0], "no-energy");
  EXPECT_FALSE(j["points"][0]["above_roof"].get<bool>());
  // 2e11 FLOP/J where ε_flop = 1e-10 J allows at most 1e10: above the energy roof, said.
  const std::string above = dir.file("above.json");
  test::write_text(above, R"({"schema":"roofline.points","version":1,"points":[
 {"name":"cheap","work":2e8,"traffic":2.4e9,"time":0.05,"energy":1e-3}]})");
  const auto t = test::run_cli({"energy", "--machine", machine, "--eps-flop", "1e-10", "--eps-mem",
                                "5e-10", "--points", above, "--powercap", no_powercap});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("cheap: I = "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("— above the energy roof: impossible if the costs hold"), std::string::npos)
      << t.out;
  EXPECT_NE(read_text_file(svg).find("data-name=\"daxpy\""), std::string::npos);
  // No energy costs: the chart cannot be drawn, said before anything is written.
  const std::string never = dir.file("never.svg");
  r = test::run_cli({"energy", "--machine", machine, "--report", never, "--powercap", no_powercap});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--report: the energy roofline needs energy costs"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(never));
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
