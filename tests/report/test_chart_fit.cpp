// What a chart fits to its 960 px canvas and what it says beside its points: the warnings of
// its numbers (an LLM configuration larger than the memory) in lines under the subtitle and on
// the HTML page, the points whose configuration does not fit drawn hollow; the flat roofs'
// labels cut with "…" before their figure; the subtitle shortened part by part, its figures
// whole (docs/charts.md).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/chart.hpp"
#include "report/chart_fit.hpp"
#include "report/svg_query.hpp"
#include "report/svg_text.hpp"
#include "report/xml_lite.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/report.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::plot_top;
using test::run_cli;
using test::with_class;
using test::XmlNode;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

/// Tests of fit: at most `n` characters (code points).
report::FitsTest at_most(size_t n) {
  return [n](const std::string& s) { return report::text_columns(s) <= n; };
}
ReportInput fixture() {
  ReportInput in;
  in.title = "fit";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  in.points = load_points_file(kData + "points.json").points;
  return in;
}
std::string subtitle_of(const std::string& svg) {
  const auto root = test::parse_xml(svg);
  const auto subs = with_class(*root, "subtitle");
  EXPECT_EQ(subs.size(), 1u);
  return subs.empty() ? "" : subs[0]->text;
}

// --- the pieces ------------------------------------------------------------------------------

TEST(ChartFit, WarningLinesBreakBetweenWordsAndCountWhatIsLeft) {
  // One warning of 5 words on lines of 16 characters: "warning: aaaa" "bbbb cccc dddd".
  EXPECT_EQ(report::warning_lines({"aaaa bbbb cccc dddd"}, at_most(16), 3),
            (std::vector<std::string>{"warning: aaaa", "bbbb cccc dddd"}));
  // Each warning on lines of its own.
  EXPECT_EQ(report::warning_lines({"one", "two"}, at_most(40), 3),
            (std::vector<std::string>{"warning: one", "warning: two"}));
  // More than 3 lines: the third is cut with "…" and counts the warnings not begun.
  const auto lines =
      report::warning_lines({"a", "b", "cccc dddd eeee ffff gggg", "x", "y"}, at_most(30), 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "warning: a");
  EXPECT_EQ(lines[1], "warning: b");
  EXPECT_EQ(lines[2], "warning: cccc dddd… (+2 more)");
  EXPECT_TRUE(report::warning_lines({}, at_most(20), 3).empty());
}

TEST(ChartFit, LabelsAreCutBeforeTheirFigure) {
  EXPECT_EQ(report::fit_label("fp32 fma", " 1 TFLOP/s", at_most(40)), "fp32 fma 1 TFLOP/s");
  // 50-character name, room for 30: the name cut between characters, the figure whole.
  const std::string name = "fp32 sapphire-rapids amx-tile bf16 dot-product acc";
  const std::string cut = report::fit_label(name, " 7.373 TFLOP/s", at_most(30));
  EXPECT_EQ(cut, "fp32 sapphire-r… 7.373 TFLOP/s") << cut;
  EXPECT_EQ(report::text_columns(cut), 30u);
  // Cut between characters, never inside one: "ü" is two bytes.
  EXPECT_EQ(report::fit_label("üüüüü", " 1 GB/s", at_most(10)), "üü… 1 GB/s");
}

TEST(ChartFit, TheSubtitleGivesWayPartByPart) {
  using report::SubtitlePart;
  const std::vector<SubtitlePart> parts = {{"machine: m", "", 3, true},
                                           {" · compared with aa, bb", " · compared with 2", 1},
                                           {" · ridge I* = 9.564 FLOP/byte", "", 4},
                                           {" · 7 of 15 roofs", "", 0}};
  // Whole where it fits; nothing said cut.
  EXPECT_EQ(report::fit_subtitle(parts, at_most(200)),
            "machine: m · compared with aa, bb · ridge I* = 9.564 FLOP/byte · 7 of 15 roofs");
  // The shorter form first.
  EXPECT_EQ(report::fit_subtitle(parts, at_most(77)),
            "machine: m · compared with 2 · ridge I* = 9.564 FLOP/byte · 7 of 15 roofs");
  // Then the least important part dropped, " · …" where it was; the figure keeps its unit.
  EXPECT_EQ(report::fit_subtitle(parts, at_most(62)),
            "machine: m · compared with 2 · ridge I* = 9.564 FLOP/byte · …");
  EXPECT_EQ(report::fit_subtitle(parts, at_most(49)),
            "machine: m · … · ridge I* = 9.564 FLOP/byte · …");
  // Two parts dropped side by side say it once; a name is cut, keeping 12 characters.
  const std::vector<SubtitlePart> side_by_side = {{"machine: a-long-machine-name", "", 3, true},
                                                  {" · ridge I* = 9.564 FLOP/byte", "", 4},
                                                  {" · compared with aa", "", 1},
                                                  {" · 7 of 15 roofs", "", 0}};
  EXPECT_EQ(report::fit_subtitle(side_by_side, at_most(61)),
            "machine: a-long-machine-name · ridge I* = 9.564 FLOP/byte · …");
  EXPECT_EQ(report::fit_subtitle(side_by_side, at_most(50)),
            "machine: a-long-… · ridge I* = 9.564 FLOP/byte · …");
}

/// A test of fit at most `n` characters that adds the characters it measures to `measured`.
report::FitsTest counted(size_t n, size_t& measured) {
  return [n, &measured](const std::string& s) {
    measured += s.size();
    return report::text_columns(s) <= n;
  };
}

TEST(ChartFit, ALongTextIsFittedWithoutMeasuringItOncePerCharacter) {
  // A warning of 20000 rows on 3 lines of 60: only the lines drawn are wrapped, and the last is
  // cut by bisection, so far fewer characters are measured than one pass per character dropped
  // (about 1.6e8 before).
  std::string rows;
  for (int k = 0; k < 20000; ++k)
    rows += (k == 0 ? "" : ", ") + std::string("B=") + std::to_string(3000 + k) + " L=128";
  size_t measured = 0;
  EXPECT_EQ(
      report::warning_lines({rows, "second"}, counted(60, measured), 3),
      (std::vector<std::string>{"warning: B=3000 L=128, B=3001 L=128, B=3002 L=128, B=3003",
                                "L=128, B=3004 L=128, B=3005 L=128, B=3006 L=128, B=3007",
                                "L=128, B=3008 L=128, B=3009 L=128, B=3010 L=128,… (+1 more)"}));
  EXPECT_LT(measured, 20000u);
  // A label and a subtitle part of 20000 characters: cut in log₂ n measures of the text.
  const std::string name(20000, 'x');
  measured = 0;
  EXPECT_EQ(report::fit_label(name, " 1 TFLOP/s", counted(20, measured)), "xxxxxxxxx… 1 TFLOP/s");
  EXPECT_LT(measured, 20u * 20010u);
  measured = 0;
  EXPECT_EQ(report::fit_subtitle(
                {{"machine: " + name, "", 3, true}, {" · ridge I* = 9.564 FLOP/byte", "", 4}},
                counted(50, measured)),
            "machine: xxxxxxxxxxx… · ridge I* = 9.564 FLOP/byte");
  EXPECT_LT(measured, 40u * 20040u);
}

// A list names what fits and counts the rest; where not even its first item fits, that item is
// cut between characters by halving: the line of points not drawn cut its first name one
// character at a time (a 20000-character name measured 20000 times), by bytes, not by
// characters or graphemes it could not tell apart from its bytes' ends.
TEST(ChartFit, AListNamesWhatFitsAndCutsItsFirstByHalving) {
  EXPECT_EQ(report::fit_list("left out: ", {}, at_most(40)), "");
  EXPECT_EQ(report::fit_list("left out: ", {"a", "b", "c"}, at_most(40)), "left out: a, b, c");
  EXPECT_EQ(report::fit_list("left out: ", {"aaaa", "bbbb", "cccc"}, at_most(26)),
            "left out: aaaa and 2 more");
  EXPECT_EQ(report::fit_list("left out: ", {"aaaa", "bbbb", "cccc", "dddd"}, at_most(31)),
            "left out: aaaa, bbbb and 2 more");
  EXPECT_EQ(report::fit_list("left out: ", {"abcdefghij", "b"}, at_most(26)),
            "left out: abcd… and 1 more");
  // Cut between characters, never inside one: "é" is two bytes.
  EXPECT_EQ(report::fit_list("x: ", {"éééééééé"}, at_most(7)), "x: ééé…");
  // A long first item is cut in log₂ n measures, not one per character dropped.
  size_t measured = 0;
  const std::string name(20000, 'n');
  const std::vector<PointLeftOut> left = {{name, "no roof for fp8", "d"}, {"b", "r", "d"}};
  EXPECT_EQ(report::not_drawn_line(left, counted(40, measured)),
            "2 points not drawn: nnnnnnnn… and 1 more");
  EXPECT_LT(measured, 40u * 20060u);
}

TEST(ChartFit, ASweepWarnsOfItsFirstRowsByNameAndCountsTheRest) {
  llm::Roofs roofs;
  roofs.memory_capacity = 80e9;
  roofs.memory_level = "HBM3";
  std::vector<llm::SweepRow> rows;
  for (int k = 0; k < 9; ++k) {
    llm::SweepRow row;
    row.batch = 3000 + k;
    row.context = 128;
    row.memory = Bytes(100e9 + k * 1e9);
    row.fits = k == 1 ? std::optional<bool>(true) : std::optional<bool>(false);
    rows.push_back(row);
  }
  EXPECT_EQ(llm::sweep_warnings(rows, roofs),
            (std::vector<std::string>{
                "B=3000 L=128 (100 GB), B=3002 L=128 (102 GB), B=3003 L=128 (103 GB), B=3004 "
                "L=128 (104 GB), B=3005 L=128 (105 GB) and 3 more exceed the 80 GB of HBM3 per "
                "device: they do not fit, and the times assume they did"}));
  // As many as are named: the last joined with "and", nothing counted.
  rows.resize(6);
  EXPECT_EQ(llm::sweep_warnings(rows, roofs),
            (std::vector<std::string>{
                "B=3000 L=128 (100 GB), B=3002 L=128 (102 GB), B=3003 L=128 (103 GB), B=3004 "
                "L=128 (104 GB) and B=3005 L=128 (105 GB) exceed the 80 GB of HBM3 per "
                "device: they do not fit, and the times assume they did"}));
  rows.resize(1);
  EXPECT_EQ(llm::sweep_warnings(rows, roofs),
            (std::vector<std::string>{
                "B=3000 L=128 (100 GB) exceeds the 80 GB of HBM3 per device: it does not fit, and "
                "the times assume it did"}));
}

// --- does not fit ----------------------------------------------------------------------------

TEST(ChartFit, TheSvgSaysTheWarningsAndDrawsPointsThatDoNotFitHollow) {
  ReportInput in = fixture();
  const std::string plain = render_svg(in);
  in.warnings = {
      "the weights 138 GB, KV cache 671.1 MB and activations 385.9 MB (139 GB) exceed "
      "the 24 GB of GDDR6 per device: it does not fit, and the times assume it did"};
  in.does_not_fit = {{1, "139 GB of 24 GB (GDDR6)"}};
  const std::string svg = render_svg(in);
  const auto root = test::parse_xml(svg);
  const auto lines = with_class(*root, "chart-warning");
  ASSERT_EQ(lines.size(), 2u);  // 151 characters: two lines in the 960 px canvas
  EXPECT_EQ(lines[0]->text.rfind("warning: the weights 138 GB", 0), 0u) << lines[0]->text;
  EXPECT_EQ(lines[0]->text + " " + lines[1]->text, "warning: " + in.warnings[0]);
  const double width = number(root.get(), "width");
  for (const XmlNode* l : lines)
    EXPECT_LE(number(l, "x") + report::text_width(l->text, 11.5, true), width - 8) << l->text;
  // Under the subtitle (48), 18 px apart; the plot starts 18 px below the last.
  EXPECT_EQ(number(lines[0], "y"), 66);
  EXPECT_EQ(number(lines[1], "y"), 84);
  EXPECT_EQ(plot_top(*root), 102);
  EXPECT_EQ(plot_top(*test::parse_xml(plain)), 66);
  // Point 1 alone is hollow, says so in its tooltip, and the legend explains it.
  const auto points = with_class(*root, "point");
  ASSERT_EQ(points.size(), in.points.size());
  size_t hollow = 0;
  for (const XmlNode* p : points) {
    const bool over = p->attr("data-index") == "1";
    EXPECT_EQ(p->attr("data-fits"), over ? "false" : "") << p->attr("data-name");
    // Every marker of the point (one per memory level) hollow, none of the others.
    const auto markers = with_class(*p, "does-not-fit");
    hollow += markers.size();
    EXPECT_EQ(markers.size(), over ? with_class(*p, "marker").size() : 0u);
    const auto titles = p->find_all([](const XmlNode& n) { return n.name == "title"; });
    ASSERT_FALSE(titles.empty());
    EXPECT_EQ(titles[0]->text.find("does not fit in memory: 139 GB of 24 GB (GDDR6); the times "
                                   "assume it did") != std::string::npos,
              over);
  }
  EXPECT_GE(hollow, 1u);
  EXPECT_NE(svg.find(">hollow: does not fit in memory (times assume it did)</text>"),
            std::string::npos);
  EXPECT_EQ(plain.find("does not fit"), std::string::npos);
  EXPECT_EQ(plain.find("chart-warning\""), std::string::npos);
}

TEST(ChartFit, TheWarningsGoBelowThePointsNotDrawn) {
  ReportInput in = fixture();
  in.not_drawn = {{"a", "no roof for fp8", "none"}};
  in.warnings = {"short"};
  const auto root = test::parse_xml(render_svg(in));
  const auto lines = with_class(*root, "chart-warning");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]->text, "warning: short");
  EXPECT_EQ(number(with_class(*root, "not-drawn").at(0), "y"), 66);
  EXPECT_EQ(number(lines[0], "y"), 84);
  EXPECT_EQ(plot_top(*root), 102);
}

TEST(ChartFit, TheHtmlPageAndTheJsonSayThemToo) {
  ReportInput in = fixture();
  in.warnings = {"it does not <fit>"};
  in.does_not_fit = {{0, "9 GB of 8 GB (DRAM)"}};
  const std::string html = render_html(in);
  EXPECT_NE(html.find("<li><strong>warning:</strong> it does not &lt;fit&gt;</li>"),
            std::string::npos);
  // The tooltip's data: the point's notes.
  EXPECT_NE(html.find("does not fit in memory: 9 GB of 8 GB (DRAM); the times assume it did"),
            std::string::npos);
  const nlohmann::json j = render_json(in);
  EXPECT_EQ(j["warnings"], nlohmann::json::array({"it does not <fit>"}));
  EXPECT_EQ(j["points"][0]["does_not_fit"], "9 GB of 8 GB (DRAM)");
  EXPECT_FALSE(j["points"][1].contains("does_not_fit"));
  const nlohmann::json plain = render_json(fixture());
  EXPECT_FALSE(plain.contains("warnings"));
}

TEST(ChartFit, LlmChartsSayTheModelDoesNotFit) {
  test::TempDir dir;
  // llama-2-70b on an L4: 139 GB of 24 GB. The text says it; so do the SVG and the HTML page.
  for (const char* file : {"l4.svg", "l4.html"}) {
    const auto r = run_cli({"llm", "--model", "llama-2-70b", "--hw", "l4", "--batch", "1",
                            "--context", "2048", "--report", dir.file(file)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("139 GB of 24 GB (GDDR6): does NOT fit"), std::string::npos);
    const std::string text = test::slurp(dir.file(file));
    EXPECT_NE(text.find("exceed the 24 GB of GDDR6 per device"), std::string::npos) << file;
    EXPECT_NE(text.find("does not fit in memory: 139 GB of 24 GB (GDDR6)"), std::string::npos)
        << file;
  }
  const auto root = test::parse_xml(test::slurp(dir.file("l4.svg")));
  const auto points = with_class(*root, "point");
  ASSERT_GT(points.size(), 10u);
  for (const XmlNode* p : points) EXPECT_EQ(p->attr("data-fits"), "false") << p->attr("data-name");
  // A model that fits says nothing of it.
  const auto fits = run_cli({"llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch", "1",
                             "--context", "2048", "--report", dir.file("fits.svg")});
  ASSERT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(test::slurp(dir.file("fits.svg")).find("does not fit"), std::string::npos);
}

TEST(ChartFit, ASweepMarksTheRowsThatDoNotFit) {
  test::TempDir dir;
  const auto r = run_cli({"llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch",
                          "1,8,64,256", "--context", "2048", "--report", dir.file("sweep.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("91.93 GB  no"), std::string::npos) << r.out;
  const auto root = test::parse_xml(test::slurp(dir.file("sweep.svg")));
  for (const XmlNode* p : with_class(*root, "point")) {
    const std::string name = p->attr("data-name");
    const bool over = name == "decode B=64 L=2048" || name == "decode B=256 L=2048";
    EXPECT_EQ(p->attr("data-fits"), over ? "false" : "") << name;
  }
  const auto lines = with_class(*root, "chart-warning");
  ASSERT_FALSE(lines.empty());
  std::string said;
  for (const XmlNode* l : lines) said += (said.empty() ? "" : " ") + l->text;
  EXPECT_EQ(said,
            "warning: B=64 L=2048 (91.93 GB) and B=256 L=2048 (327.3 GB) exceed the 80 GB of "
            "HBM2e per device: they do not fit, and the times assume they did");
}

// --- labels and subtitle in the canvas -------------------------------------------------------

TEST(ChartFit, ALongComputeRoofLabelIsCutWithinTheCanvas) {
  test::TempDir dir;
  MachineDocument m = load_machine_file(kData + "machine.json");
  const std::string name = "fp32 sapphire-rapids amx-tile bf16 dot-product acc";
  ASSERT_FALSE(m.roofs.compute.empty());
  for (auto& c : m.roofs.compute)
    if (c.name == m.roofs.default_compute) c.name = name;
  m.roofs.default_compute = name;
  ReportInput in;
  in.title = "long";
  in.machines.push_back(m);
  // Alone, and compared with another machine of the same long name (labels "NAME: ROOF").
  for (int compared = 0; compared < 2; ++compared) {
    if (compared) {
      MachineDocument other = m;
      other.roofs.name = "another-machine-with-a-long-name";
      in.machines.push_back(other);
    }
    const std::string svg = render_svg(in);
    const auto root = test::parse_xml(svg);
    const double width = number(root.get(), "width");
    size_t cut = 0, named = 0;
    for (const XmlNode* t : root->find_all([](const XmlNode& n) {
           return n.has_class("roof-label") && n.has_class("compute");
         })) {
      EXPECT_LE(number(t, "x") + report::text_width(t->text, 12), width - 8) << t->text;
      if (t->text.find("…") == std::string::npos) continue;
      ++cut;
      // The figure and unit kept whole (what follows "…" ends the whole label, in the text's
      // <title>).
      const std::string tail = t->text.substr(t->text.find("…") + std::string("…").size());
      EXPECT_NE(tail.find("FLOP/s"), std::string::npos) << t->text;
      const auto titles = t->find_all([](const XmlNode& n) { return n.name == "title"; });
      ASSERT_EQ(titles.size(), 1u);
      const std::string& whole = titles[0]->text;
      const std::string head = t->text.substr(0, t->text.find("…"));
      EXPECT_EQ(whole.rfind(head, 0), 0u) << whole;
      named += whole.find(name) != std::string::npos;
      ASSERT_GE(whole.size(), tail.size());
      EXPECT_EQ(whole.substr(whole.size() - tail.size()), tail) << whole;
    }
    EXPECT_GE(cut, compared ? 2u : 1u);
    EXPECT_GE(named, compared ? 2u : 1u);  // the long roof's label, and the compared one's
  }
}

TEST(ChartFit, TheSubtitleKeepsTheRidgeWithItsUnit) {
  test::TempDir dir;
  const auto d = run_cli({"diff", "a100-80gb", "h100-sxm", "--report", dir.file("d.svg")});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  const auto c3 = run_cli({"plot", "a100-80gb", "--compare", "h100-sxm", "--compare", "mi300x",
                           "--at", "50", "-o", dir.file("c3.svg")});
  ASSERT_EQ(c3.exit_code, 0) << c3.err;
  for (const char* file : {"d.svg", "c3.svg"}) {
    const std::string sub = subtitle_of(test::slurp(dir.file(file)));
    // The ridge whole with its unit (it read "ridge I* = 9.564 FL…" and "9.564 …").
    EXPECT_NE(sub.find(" · ridge I* = 9.564 FLOP/byte"), std::string::npos) << file << ": " << sub;
    // The roof count gave way first: shortened, or left out with " · …" where it was.
    EXPECT_EQ(sub.find("compute roofs drawn"), std::string::npos) << sub;
    const std::string mark = " · …", short_count = " · 7 of 15 roofs drawn";
    ASSERT_GE(sub.size(), short_count.size());
    const std::string end = sub.substr(sub.size() - short_count.size());
    EXPECT_TRUE(end == short_count || end.substr(end.size() - mark.size()) == mark) << sub;
    // Only a part left out is marked: nothing else in it is cut.
    EXPECT_EQ(sub.find("…"), end == short_count ? std::string::npos : sub.size() - 3) << sub;
    EXPECT_LE(114.5 + report::text_width(sub, 12), 960 - 8) << sub;
  }
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
