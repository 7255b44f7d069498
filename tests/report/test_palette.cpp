// The chart's colours stay apart for readers with colour-vision deficiency: every verdict's
// colour and every compared machine's (light page) against every other, in normal vision and
// under simulated protanopia, deuteranopia and tritanopia. The second compared machine was drawn
// in a darkened yellow (#C4B200) that simulated deuteranopia made the far-below orange
// (#E69F00): CIE76 ΔE 2.5.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "report/svg.hpp"
#include "report/svg_query.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/trajectory.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

using Rgb = std::array<double, 3>;
using Matrix = std::array<Rgb, 3>;

// sRGB transfer function (IEC 61966-2-1).
double to_linear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
Rgb linear_rgb(const std::string& hex) {
  Rgb c{};
  for (size_t i = 0; i < 3; ++i)
    c[i] = to_linear(std::stoi(hex.substr(1 + 2 * i, 2), nullptr, 16) / 255.0);
  return c;
}
// CIE L*a*b* of a linear sRGB colour, D65 white.
Rgb lab(const Rgb& c) {
  const double x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
  const double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const double z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
  auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}
// Machado, Oliveira & Fernandes, "A Physiologically-based Model for Simulation of Color Vision
// Deficiency", IEEE TVCG 15(6), 2009: the severity-1.0 matrices, applied to linear RGB.
const std::vector<Matrix> kVisions = {
    Matrix{Rgb{1, 0, 0}, Rgb{0, 1, 0}, Rgb{0, 0, 1}},
    Matrix{Rgb{0.152286, 1.052583, -0.204868}, Rgb{0.114503, 0.786281, 0.099216},
           Rgb{-0.003882, -0.048116, 1.051998}},  // protanopia
    Matrix{Rgb{0.367322, 0.860646, -0.227968}, Rgb{0.280085, 0.672501, 0.047413},
           Rgb{-0.011820, 0.042940, 0.968881}},  // deuteranopia
    Matrix{Rgb{1.255528, -0.076749, -0.178779}, Rgb{-0.078411, 0.930809, 0.147602},
           Rgb{0.004733, 0.691367, 0.303900}},  // tritanopia
};
Rgb seen(const std::string& hex, const Matrix& m) {
  const Rgb c = linear_rgb(hex);
  Rgb s{};
  for (size_t i = 0; i < 3; ++i)
    s[i] = std::min(1.0, std::max(0.0, m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2]));
  return lab(s);
}
double delta_e76(const Rgb& a, const Rgb& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

TEST(Palette, DeficiencySimulationMatchesItsSource) {
  // The formula's own check: white stays white and the tester's pair collapses.
  EXPECT_NEAR(delta_e76(seen("#FFFFFF", kVisions[2]), Rgb{100, 0, 0}), 0, 0.5);
  EXPECT_LT(delta_e76(seen("#C4B200", kVisions[2]), seen("#E69F00", kVisions[2])), 3.0);
}

TEST(Palette, VerdictAndComparedMachineColoursStayApartInEveryVision) {
  struct Named {
    std::string name, hex;
  };
  std::vector<Named> colours;
  for (Verdict v : {Verdict::memory_bound, Verdict::compute_bound, Verdict::faster_unit_unused,
                    Verdict::far_below, Verdict::just_below, Verdict::above_roof})
    colours.push_back({to_string(v), report::verdict_colour(v)});
  // The compared machines' colours as the chart's light style sheet gives them.
  test::TempDir dir;
  const auto r = test::run_cli({"plot", "h100-sxm", "--compare", "mi300x", "--compare", "a100-80gb",
                                "--at", "50", "-o", dir.file("cmp.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = test::slurp(dir.file("cmp.svg"));
  for (const std::string cls :
       {"\\.roof\\.overlay\\{stroke:(#[0-9A-Fa-f]{6})",
        "\\.roof\\.overlay-2,\\.roof\\.overlay-4\\{stroke:(#[0-9A-Fa-f]{6})"}) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, std::regex(cls))) << cls;
    colours.push_back({cls, m[1]});
  }
  double closest = 1e9;
  std::string pair;
  for (size_t i = 0; i < colours.size(); ++i)
    for (size_t j = i + 1; j < colours.size(); ++j)
      for (const Matrix& vision : kVisions) {
        const double d = delta_e76(seen(colours[i].hex, vision), seen(colours[j].hex, vision));
        if (d < closest) {
          closest = d;
          pair = colours[i].name + " " + colours[i].hex + " / " + colours[j].name + " " +
                 colours[j].hex;
        }
      }
  // Okabe & Ito's own closest pair here, bluish green against sky blue under tritanopia, is
  // 16.1; a pair under 15 reads as one colour to some reader.
  EXPECT_GE(closest, 15.0) << pair;
}

// WCAG 2 contrast ratio (relative luminance of linear sRGB, (L1 + 0.05) / (L2 + 0.05)).
double contrast(const std::string& a, const std::string& b) {
  auto luminance = [](const std::string& hex) {
    const Rgb c = linear_rgb(hex);
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
// The colour `selector{property:#rrggbb` gives in `css`, "" where no such rule is.
std::string rule_colour(const std::string& css, const std::string& selector,
                        const std::string& property) {
  std::smatch m;
  const std::string escaped = std::regex_replace(selector, std::regex(R"([.{}()])"), R"(\$&)");
  if (!std::regex_search(css, m, std::regex(escaped + "\\{" + property + ":(#[0-9A-Fa-f]{6})")))
    return "";
  return m[1];
}
const std::vector<Verdict> kVerdicts = {Verdict::memory_bound,       Verdict::compute_bound,
                                        Verdict::faster_unit_unused, Verdict::far_below,
                                        Verdict::just_below,         Verdict::above_roof};
const std::string kDark = "@media (prefers-color-scheme: dark){";

TEST(Palette, ContrastMatchesWcagsOwnFigures) {
  EXPECT_NEAR(contrast("#000000", "#FFFFFF"), 21.0, 1e-9);
  EXPECT_NEAR(contrast("#777777", "#FFFFFF"), 4.48, 0.01);  // WCAG's just-failing grey
  EXPECT_NEAR(contrast("#E69F00", "#FFFFFF"), 2.25, 0.01);  // the far-below orange on white
}

// The text of a verdict (a point's name, its headroom factor) was drawn in its marker's colour:
// the far-below orange read at 2.25:1 on white, the wine at 2.2:1 on the dark page. Each text
// colour the chart's style sheet gives must read at 4.5:1 (WCAG AA) on the background that
// sheet gives, light and dark, and every point and headroom label must take one.
TEST(Palette, VerdictTextReadsOnTheChartsBackground) {
  test::TempDir dir;
  const std::string data = std::string(ROOFLINE_TEST_DATA) + "/report/";
  const auto r =
      test::run_cli({"plot", data + "machine.json", data + "points.json", "-o", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("c.svg")));
  const auto style = root->find_all([](const test::XmlNode& n) { return n.name == "style"; });
  ASSERT_EQ(style.size(), 1u);
  const std::string& css = style[0]->text;
  const size_t dark_at = css.find(kDark);
  ASSERT_NE(dark_at, std::string::npos);
  const std::string light = css.substr(0, dark_at), dark = css.substr(dark_at);
  for (const auto& [sheet, name] : {std::pair{light, "light"}, std::pair{dark, "dark"}}) {
    const std::string bg = rule_colour(sheet, ".bg", "fill");
    ASSERT_FALSE(bg.empty()) << name;
    for (Verdict v : kVerdicts) {
      const std::string fill = rule_colour(sheet, ".verdict-text-" + to_string(v), "fill");
      ASSERT_FALSE(fill.empty()) << name << " " << to_string(v);
      EXPECT_GE(contrast(fill, bg), 4.5)
          << name << " " << to_string(v) << " " << fill << " on " << bg;
    }
  }
  size_t labels = 0;
  for (const char* cls : {"point-label", "headroom-label"})
    for (const test::XmlNode* t : test::with_class(*root, cls)) {
      ++labels;
      const auto g = root->find_all([&](const test::XmlNode& n) {
        return n.has_class("point") && n.attr("data-name") == t->text;
      });
      EXPECT_FALSE(t->has("style") || t->has("fill")) << t->text;  // nothing overrides the rule
      if (g.size() == 1) {
        EXPECT_TRUE(t->has_class("verdict-text-" + g[0]->attr("data-verdict"))) << t->text;
      } else {
        EXPECT_NE(t->attr("class").find("verdict-text-"), std::string::npos) << t->text;
      }
    }
  EXPECT_GE(labels, 4u);
}

// The HTML tooltip's verdict line in its hue, on the tooltip's panel (light and dark).
TEST(Palette, TheTooltipsVerdictReadsOnItsPanel) {
  const std::string data = std::string(ROOFLINE_TEST_DATA) + "/report/";
  test::TempDir dir;
  const auto r = test::run_cli(
      {"plot", data + "machine.json", data + "points.json", "-o", dir.file("c.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::slurp(dir.file("c.html"));
  EXPECT_NE(html.find("'<p class=\"verdict verdict-text-' + esc(p.verdict) + '\">'"),
            std::string::npos);
  const size_t head = html.find("</style>");
  ASSERT_NE(head, std::string::npos);
  const std::string css = html.substr(0, head);
  // The panel's colours are the first rules (:root, then its dark block); the tooltip's
  // verdict rules come last, the light ones before the last dark block, the dark ones in it.
  const size_t first_dark = css.find(kDark), last_dark = css.rfind(kDark);
  ASSERT_NE(first_dark, std::string::npos);
  ASSERT_LT(first_dark, last_dark);
  const std::string root_rules = css.substr(0, first_dark), light = css.substr(0, last_dark);
  const std::string dark_panel = css.substr(first_dark), dark_rules = css.substr(last_dark);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(root_rules, m, std::regex("--tip:(#[0-9A-Fa-f]{6})")));
  const std::string light_tip = m[1];
  ASSERT_TRUE(std::regex_search(dark_panel, m, std::regex("--tip:(#[0-9A-Fa-f]{6})")));
  const std::string dark_tip = m[1];
  for (Verdict v : kVerdicts) {
    const std::string sel = ".tooltip .verdict-text-" + to_string(v);
    const std::string on_light = rule_colour(light, sel, "color");
    const std::string on_dark = rule_colour(dark_rules, sel, "color");
    ASSERT_FALSE(on_light.empty() || on_dark.empty()) << to_string(v);
    EXPECT_GE(contrast(on_light, light_tip), 4.5) << to_string(v) << " " << on_light;
    EXPECT_GE(contrast(on_dark, dark_tip), 4.5) << to_string(v) << " " << on_dark;
  }
}

/// The colour `property` takes in the last rule of `css` whose selector list holds `selector`
/// ("" where none): ".ridge-label,.level-label{fill:#9ea7b3}" gives .level-label's fill.
std::string last_rule_colour(const std::string& css, const std::string& selector,
                             const std::string& property) {
  const std::string escaped = std::regex_replace(selector, std::regex(R"([.{}()])"), R"(\$&)");
  const std::regex rule("(?:^|[},\\s])" + escaped + "(?:,[^{}]*)?\\{(?:[^}]*;)?" + property +
                        ":(#[0-9A-Fa-f]{6})");
  std::string found;
  for (auto it = std::sregex_iterator(css.begin(), css.end(), rule); it != std::sregex_iterator();
       ++it)
    found = (*it)[1];
  return found;
}
/// The light and the dark style sheet of a chart (the dark one: from the first dark query on).
std::pair<std::string, std::string> light_and_dark(const std::string& svg) {
  const auto root = test::parse_xml(svg);
  const auto style = root->find_all([](const test::XmlNode& n) { return n.name == "style"; });
  EXPECT_EQ(style.size(), 1u);
  if (style.empty()) return {};
  const std::string& css = style[0]->text;
  const size_t dark_at = css.find(kDark);
  EXPECT_NE(dark_at, std::string::npos);
  if (dark_at == std::string::npos) return {css, ""};
  return {css.substr(0, dark_at), css.substr(dark_at)};
}
/// A chart comparing the report's machine with two others: every roof label's rule in its sheet.
std::string compared_chart_svg() {
  test::TempDir dir;
  const auto r = test::run_cli({"plot", "h100-sxm", "--compare", "mi300x", "--compare", "a100-80gb",
                                "--at", "50", "-o", dir.file("c.svg")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return test::slurp(dir.file("c.svg"));
}

// Every colour the chart's style sheet gives a text (the roof labels, the compared machines'
// labels, the ridge and level labels, the line of points not drawn, the warnings) reads at 4.5:1
// on the chart's background, light and dark. The compared machine's sky blue label is #1c7db5 on
// white: 4.52:1, a bare pass this keeps in sight.
TEST(Palette, EveryTextColourReadsOnTheChartsBackground) {
  const auto [light, dark] = light_and_dark(compared_chart_svg());
  for (const auto& [sheet, name] : {std::pair{light, "light"}, std::pair{dark, "dark"}}) {
    const std::string bg = rule_colour(sheet, ".bg", "fill");
    ASSERT_FALSE(bg.empty()) << name;
    for (const std::string cls : {".roof-label", ".roof-label.secondary", ".roof-label.overlay",
                                  ".roof-label.overlay-2", ".roof-label.overlay-4", ".ridge-label",
                                  ".level-label", ".not-drawn", ".chart-warning"}) {
      const std::string fill = last_rule_colour(sheet, cls, "fill");
      ASSERT_FALSE(fill.empty()) << name << " " << cls;
      EXPECT_GE(contrast(fill, bg), 4.5) << name << " " << cls << " " << fill << " on " << bg;
    }
  }
  EXPECT_EQ(last_rule_colour(light, ".roof-label.overlay", "fill"), "#1c7db5");
  EXPECT_NEAR(contrast("#1c7db5", "#ffffff"), 4.52, 0.01);
}

// The energy and trajectory charts' texts of their own colour read so too.
TEST(Palette, TheEnergyAndTrajectoryChartsTextsRead) {
  EnergyChartInput e;
  e.title = "energy";
  e.costs.tau_flop = 1 / 72e9;
  e.costs.tau_mem = 1 / 21e9;
  e.costs.eps_flop = 1e-10;
  e.costs.eps_mem = 5e-10;
  TrajectoryInput t;
  t.title = "ridges";
  t.series.push_back({"fp64", {{"gpu", 2020, 10, "FLOP/byte", "fp64", "HBM2"}}});
  for (const auto& [svg, classes] :
       {std::pair{render_energy_svg(e),
                  std::vector<std::string>{".label", ".point-label", ".not-drawn", ".subtitle"}},
        std::pair{render_trajectory_svg(t),
                  std::vector<std::string>{".note", ".device-label", ".subtitle"}}}) {
    const auto [light, dark] = light_and_dark(svg);
    for (const auto& [sheet, name] : {std::pair{light, "light"}, std::pair{dark, "dark"}}) {
      const std::string bg = rule_colour(sheet, ".bg", "fill");
      ASSERT_FALSE(bg.empty()) << name;
      for (const std::string& cls : classes) {
        const std::string fill = last_rule_colour(sheet, cls, "fill");
        ASSERT_FALSE(fill.empty()) << name << " " << cls;
        EXPECT_GE(contrast(fill, bg), 4.5) << name << " " << cls << " " << fill << " on " << bg;
      }
    }
  }
}

// The empirical curve is a line beside the points and the compared machines' roofs: its colour,
// light and dark, stays 15 CIE76 units from every verdict's marker and text colour and every
// compared machine's in each vision, and shows on the background (WCAG 2.1 SC 1.4.11: 3:1 for a
// graphic). It was #9a6700, 0.6 units from the far-below text (#946700), and #F0E442 on the
// dark page, the second compared machine's own.
TEST(Palette, TheEmpiricalCurveStandsApartFromPointsAndComparedRoofs) {
  const auto [light, dark] = light_and_dark(compared_chart_svg());
  for (const auto& [sheet, name] : {std::pair{light, "light"}, std::pair{dark, "dark"}}) {
    const std::string bg = rule_colour(sheet, ".bg", "fill");
    const std::string curve = last_rule_colour(sheet, ".curve", "stroke");
    ASSERT_FALSE(curve.empty()) << name;
    EXPECT_EQ(last_rule_colour(sheet, ".curve-dot", "fill"), curve) << name;
    EXPECT_GE(contrast(curve, bg), 3.0) << name << " " << curve << " on " << bg;
    std::vector<std::string> others;
    for (Verdict v : kVerdicts) {
      others.push_back(report::verdict_colour(v));
      others.push_back(last_rule_colour(sheet, ".verdict-text-" + to_string(v), "fill"));
    }
    for (const std::string cls : {".roof.overlay", ".roof.overlay-2", ".roof.overlay-4"})
      others.push_back(last_rule_colour(sheet, cls, "stroke"));
    for (const std::string& other : others) {
      ASSERT_FALSE(other.empty()) << name;
      for (size_t v = 0; v < kVisions.size(); ++v)
        EXPECT_GE(delta_e76(seen(curve, kVisions[v]), seen(other, kVisions[v])), 15.0)
            << name << " curve " << curve << " / " << other << " in vision " << v;
    }
  }
}

// The trajectory chart's series markers (and their legend swatches) show on the chart's
// background, light and dark (3:1, WCAG 2.1 SC 1.4.11): Okabe & Ito's orange, sky blue and
// yellow read at 2.3, 2.3 and 1.3:1 on white, their black at 1.1:1 on the dark page.
TEST(Palette, TheTrajectorysSeriesShowOnItsBackground) {
  TrajectoryInput t;
  t.title = "series";
  for (int k = 0; k < 8; ++k)
    t.series.push_back({"s" + std::to_string(k), {{"gpu", 2020, 10.0 + k, "FLOP/byte", "r", "m"}}});
  const std::string svg = render_trajectory_svg(t);
  const auto [light, dark] = light_and_dark(svg);
  const std::string light_bg = rule_colour(light, ".bg", "fill");
  const std::string dark_bg = rule_colour(dark, ".bg", "fill");
  ASSERT_FALSE(light_bg.empty() || dark_bg.empty());
  const auto root = test::parse_xml(svg);
  std::set<std::string> series_seen;
  for (const test::XmlNode* m : test::with_class(*root, "marker")) {
    const std::string classes = m->attr("class");
    const size_t at = classes.find("series-mark-");
    ASSERT_NE(at, std::string::npos) << classes;
    const std::string cls = classes.substr(at, classes.find(' ', at) - at);
    series_seen.insert(cls);
    const std::string on_light = m->attr("fill");
    const std::string on_dark = last_rule_colour(dark, "." + cls, "fill");
    ASSERT_FALSE(on_dark.empty()) << cls;
    EXPECT_FALSE(m->has("style")) << cls;  // nothing overrides the rule
    EXPECT_GE(contrast(on_light, light_bg), 3.0) << cls << " " << on_light << " on " << light_bg;
    EXPECT_GE(contrast(on_dark, dark_bg), 3.0) << cls << " " << on_dark << " on " << dark_bg;
  }
  EXPECT_EQ(series_seen.size(), 8u);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
