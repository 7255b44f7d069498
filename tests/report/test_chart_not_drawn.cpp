// The points a chart leaves out (ReportInput::not_drawn) are said in the chart itself: a line
// under the SVG's subtitle (within the 960 px canvas, above the plot, escaped as every label),
// a list on the HTML page, an item of the terminal legend and a key of the JSON; `plot`, `point
// --report` and `run --report` fill it from the list their warnings are made from.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/chart.hpp"
#include "report/svg_query.hpp"
#include "report/svg_text.hpp"
#include "report/xml_lite.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"
#include "roofline/suite.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::plot_top;
using test::run_cli;
using test::with_class;
using test::XmlNode;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

ReportInput chart_input(std::vector<PointLeftOut> left_out) {
  ReportInput in;
  in.title = "left out";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  in.points = load_points_file(kData + "points.json").points;
  in.not_drawn = std::move(left_out);
  return in;
}

/// The one `.not-drawn` text of an SVG.
const XmlNode* the_line(const XmlNode& root) {
  const auto lines = with_class(root, "not-drawn");
  EXPECT_EQ(lines.size(), 1u);
  return lines.empty() ? nullptr : lines.front();
}
std::vector<PointLeftOut> many(size_t n) {
  std::vector<PointLeftOut> out;
  for (size_t k = 0; k < n; ++k)
    out.push_back({"kernel number " + std::to_string(k), "no roof for fp8", "machine has none"});
  return out;
}

TEST(ChartNotDrawn, TheSvgSaysThePointsLeftOutUnderTheSubtitle) {
  const std::string svg = render_svg(chart_input(
      {{"a", "no roof for fp8", "machine 'm' has no compute roof for 'fp8' (roofs: …)"},
       {"b", "no roof for level L4", "machine 'm' has no memory roof for level 'L4'"}}));
  const auto root = test::parse_xml(svg);
  const XmlNode* line = the_line(*root);
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->text, "2 points not drawn: a (no roof for fp8), b (no roof for level L4)");
  // Under the subtitle (baseline 48, 12 px), above the plot, which starts lower to make room:
  // the line's box (DejaVu Sans: ascent 0.93 em, descent 0.24 em) clear of both.
  const auto subs = with_class(*root, "subtitle");
  ASSERT_EQ(subs.size(), 1u);
  const double y = number(line, "y");
  EXPECT_EQ(y, 66);
  EXPECT_GT(y - 0.93 * 11.5, number(subs[0], "y") + 0.24 * 12);
  EXPECT_EQ(plot_top(*root), 84);
  EXPECT_LT(y + 0.24 * 11.5, plot_top(*root));
  // Without a point left out there is no line and the plot keeps its top.
  const auto plain = test::parse_xml(render_svg(chart_input({})));
  EXPECT_TRUE(with_class(*plain, "not-drawn").empty());
  EXPECT_EQ(plot_top(*plain), 66);
}

// Thirty points left out: as many named as the canvas holds, the rest counted; one more name
// would run past the 960 px chart.
TEST(ChartNotDrawn, ALongListIsCutWithACount) {
  const std::vector<PointLeftOut> left = many(30);
  const auto root = test::parse_xml(render_svg(chart_input(left)));
  const XmlNode* line = the_line(*root);
  ASSERT_NE(line, nullptr);
  const std::string& text = line->text;
  const std::string head = "30 points not drawn: kernel number 0 (no roof for fp8), ";
  ASSERT_EQ(text.rfind(head, 0), 0u) << text;
  size_t named = 0;
  for (size_t at = 0; (at = text.find("(no roof for fp8)", at)) != std::string::npos; ++at) ++named;
  ASSERT_GT(named, 1u);
  ASSERT_LT(named, 30u);
  const std::string tail = " and " + std::to_string(30 - named) + " more";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail) << text;
  const double x = number(line, "x"), width = number(root.get(), "width");
  EXPECT_EQ(width, 960);
  const double room = width - x - 8;  // as the subtitle's
  EXPECT_LE(report::text_width(text, 11.5), room) << text;
  const std::string longer = text.substr(0, text.size() - tail.size()) + ", kernel number " +
                             std::to_string(named) + " (no roof for fp8) and " +
                             std::to_string(29 - named) + " more";
  EXPECT_GT(report::text_width(longer, 11.5), room) << longer;
}

// A name too long for the line is cut with an ellipsis, the others counted; names are escaped
// as every label is (a control character shown as \u0001, markup as entities).
TEST(ChartNotDrawn, NamesAreCutAndEscapedAsLabels) {
  const std::string name = std::string(400, 'n');
  auto root = test::parse_xml(
      render_svg(chart_input({{name, "no roof for fp8", "d"}, {"b", "no roof for fp8", "d"}})));
  const XmlNode* line = the_line(*root);
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->text.rfind("2 points not drawn: nnnn", 0), 0u) << line->text;
  const std::string tail = "nnn… and 1 more";
  EXPECT_EQ(line->text.substr(line->text.size() - tail.size()), tail) << line->text;
  EXPECT_LE(number(line, "x") + report::text_width(line->text, 11.5), 960 - 8);

  const std::string svg = render_svg(chart_input({{"a\x01<b>&", "no roof for fp8", "d"}}));
  EXPECT_EQ(svg.find('\x01'), std::string::npos);
  EXPECT_NE(svg.find("1 point not drawn: a\\u0001&lt;b&gt;&amp; (no roof for fp8)"),
            std::string::npos);
}

TEST(ChartNotDrawn, TheHtmlPageListsEachPointWithWhy) {
  const std::string html = render_html(
      chart_input({{"a<i>", "no roof for fp8", "machine 'm' has no compute roof for 'fp8'"},
                   {"", "no roof for level L4", "machine 'm' has no memory roof for level 'L4'"}}));
  EXPECT_NE(html.find("· 5 points · 2 not drawn (<a href=\"#not-drawn\">listed below</a>)"),
            std::string::npos);
  EXPECT_NE(html.find("<h2 id=\"not-drawn\">Points not drawn (2)</h2>\n<ul class=\"not-drawn\">\n"
                      "<li><span class=\"name\">a&lt;i&gt;</span>: no roof for fp8 — machine "
                      "&#39;m&#39; has no compute roof for &#39;fp8&#39;</li>\n"
                      "<li><span class=\"name\">a point without a name</span>: no roof for level "
                      "L4 — machine &#39;m&#39; has no memory roof for level &#39;L4&#39;</li>\n"
                      "</ul>\n"),
            std::string::npos)
      << html.substr(html.find("Points not drawn") == std::string::npos
                         ? 0
                         : html.find("Points not drawn") - 20,
                     600);
  // The page's chart carries the line too.
  EXPECT_NE(html.find("class=\"not-drawn\">2 points not drawn: a&lt;i&gt; (no roof for fp8), a "
                      "point without a name (no roof for level L4)</text>"),
            std::string::npos);
  const std::string plain = render_html(chart_input({}));
  EXPECT_EQ(plain.find("not drawn"), std::string::npos);
}

TEST(ChartNotDrawn, TheTerminalLegendAndTheJsonSayThem) {
  ReportInput in = chart_input({{"a", "no roof for fp8", "machine 'm' has none"},
                                {"b\x1b[31m", "no roof for level L4", "detail"}});
  const std::string plot = render_terminal(in, 100, false);
  EXPECT_NE(plot.find("2 points not drawn: a (no roof for fp8), b\\u001b[31m (no roof for level "
                      "L4)"),
            std::string::npos)
      << plot;
  EXPECT_EQ(plot.find('\x1b'), std::string::npos);
  // Many: within the width, the rest counted.
  in.not_drawn = many(30);
  const std::string narrow = render_terminal(in, 60, false);
  const std::string legend = narrow.substr(0, narrow.find("Roofs of"));
  EXPECT_NE(legend.find("30 points not drawn: kernel number 0"), std::string::npos) << legend;
  EXPECT_NE(legend.find(" more"), std::string::npos) << legend;
  std::istringstream lines(legend);
  for (std::string l; std::getline(lines, l);) EXPECT_LE(report::text_columns(l), 60u) << l;

  in.not_drawn = {{"a", "no roof for fp8", "machine 'm' has none"}};
  const nlohmann::json j = render_json(in);
  ASSERT_TRUE(j.contains("not_drawn"));
  EXPECT_EQ(j["not_drawn"], nlohmann::json::parse(R"([{"name":"a","reason":"no roof for fp8",
                                                      "detail":"machine 'm' has none"}])"));
  in.not_drawn.clear();
  EXPECT_FALSE(render_json(in).contains("not_drawn"));
}

// The CSV had no row for a point not drawn: a spreadsheet could not tell that 2 of 7 points
// were missing. Each is a `point` row now, `drawn` false with its reason and message, in the
// columns after `noisy` (the others keep their places); its text is made spreadsheet-safe.
TEST(ChartNotDrawn, TheCsvHasARowForEachPointNotDrawn) {
  const std::string csv =
      render_csv(chart_input({{"=HYPERLINK(\"http://x\")", "no roof for fp16", "-1+1 is a formula"},
                              {"stream, at L4", "no roof for level L4",
                               "machine 'zen3-2core-vm' has no memory roof for level 'L4'"}}));
  std::vector<std::string> rows;
  for (size_t at = 0, end; (end = csv.find('\n', at)) != std::string::npos; at = end + 1)
    rows.push_back(csv.substr(at, end - at));
  // header, 3 compute and 3 memory roofs, 6 levels of the 5 points drawn, 2 not drawn.
  ASSERT_EQ(rows.size(), 1u + 3 + 3 + 6 + 2) << csv;
  EXPECT_EQ(rows[0].substr(rows[0].find(",source,")), ",source,spread,noisy,drawn,reason,detail");
  const std::string empty20(20, ',');  // level … noisy: 20 columns between name and drawn
  EXPECT_EQ(rows[13], "point,zen3-2core-vm,\"'=HYPERLINK(\"\"http://x\"\")\"" + empty20 +
                          ",false,no roof for fp16,\"'-1+1 is a formula\"");
  EXPECT_EQ(rows[14], "point,zen3-2core-vm,\"stream, at L4\"" + empty20 +
                          ",false,no roof for level L4,machine 'zen3-2core-vm' has no memory "
                          "roof for level 'L4'");
  // Every row drawn says so; a roof's row leaves the three columns empty.
  for (size_t i = 7; i < 13; ++i)
    EXPECT_EQ(rows[i].substr(rows[i].size() - 7), ",true,,") << rows[i];
  EXPECT_EQ(rows[1].substr(rows[1].size() - 3), ",,,") << rows[1];
  // A chart of every point: no row for a point not drawn.
  const std::string all = render_csv(chart_input({}));
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 1 + 3 + 3 + 6) << all;
  EXPECT_EQ(all.find(",false,no roof"), std::string::npos) << all;
}

// `profile --report`: its points without a roof were notes in the run's text alone, and the
// chart looked complete (a replay at L3 and L2 on a machine of DRAM drew an empty chart; one of
// fp64 work on an integer NPU stopped with an error). Its chart, its warnings and its notes say
// them now, from one list (CountedPoints::left_out).
TEST(ChartNotDrawn, ProfileSaysThePointsItCouldNotPlace) {
  test::TempDir dir;
  auto doc = nlohmann::json::parse(
      test::slurp(std::string(ROOFLINE_TEST_DATA) + "/import/perf-intel-icx-dgemm.json"));
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& e : doc["events"])
    if (e["role"] != "dram") caches.push_back(e);  // the L3 and L2 fills, no memory controller
  doc["events"] = caches;
  const std::string nodram = dir.file("nodram.json"), svg = dir.file("c.svg"),
                    csv = dir.file("c.csv"), out = dir.file("p.json");
  test::write_text(nodram, doc.dump());
  auto r = run_cli({"profile", "--replay", nodram, "--hw", "xeon-platinum-8380", "--report", svg,
                    "--json", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string why =
      "point 'nodram' not judged: machine 'xeon-platinum-8380' has no roof for any level of its "
      "traffic, L3, L2; kept in the document";
  EXPECT_NE(r.err.find("roofline: warning: " + svg + ": not drawn: " + why + "\n"),
            std::string::npos)
      << r.err;
  auto root = test::parse_xml(test::slurp(svg));
  const XmlNode* line = the_line(*root);
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->text, "1 point not drawn: nodram (no roof for levels L3, L2)");
  EXPECT_EQ(with_class(*root, "point").size(), 0u);
  // The document keeps the point as counted, to be judged on a machine with those levels; it has
  // no analysis here. Its note is the warning's message (the "Q unknown" it said was wrong).
  const auto j = nlohmann::json::parse(test::slurp(out));
  ASSERT_EQ(j["points"].size(), 1u) << j.dump(1);
  EXPECT_EQ(j["points"][0]["traffic"].size(), 2u);
  EXPECT_EQ(j["analysis"].size(), 0u);
  EXPECT_EQ(j["run"]["notes"].back(), why);

  // fp64 work on a machine of one int8 roof: drawn nowhere, said everywhere (it was exit 2).
  r = run_cli({"profile", "--replay",
               std::string(ROOFLINE_TEST_DATA) + "/import/perf-intel-icx-dgemm.json", "--machine",
               kData + "integer_npu.json", "--report", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string fp64 =
      "point 'perf-intel-icx-dgemm' not judged: machine 'edge-npu' has no compute roof for 'fp64'";
  EXPECT_NE(r.err.find("roofline: warning: " + csv + ": not drawn: " + fp64), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("  note: " + fp64), std::string::npos) << r.out;
  const std::string table = test::slurp(csv);
  EXPECT_NE(
      table.find("\npoint,edge-npu,perf-intel-icx-dgemm" + std::string(20, ',') +
                 ",false,no roof for fp64," + fp64 + " (roofs: int8 mac); kept in the document\n"),
      std::string::npos)
      << table;
  EXPECT_EQ(table.find(",true,"), std::string::npos) << table;
}

// `plot`: the warnings on stderr and the chart's line come from one list (fit_to_roofs'
// left_out): the same four points, in the same order, in every output.
TEST(ChartNotDrawn, PlotSaysOnStderrAndInEveryChartTheSamePoints) {
  test::TempDir dir;
  const std::string svg = dir.file("c.svg"), html = dir.file("c.html");
  const std::string pts = kData + "not_drawn.points.json";
  auto r = run_cli({"plot", kData + "machine.json", pts, "-o", svg});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"'fp8 gemm'", "'half \\u0001ctrl \\u202eevil\\u202c'", "'stream at L4'",
                           "'kernel_with_a_very_long_name_part0"})
    EXPECT_NE(r.err.find(name), std::string::npos) << name << "\n" << r.err;
  EXPECT_EQ(r.err.find("drawn triad"), std::string::npos) << r.err;
  const auto root = test::parse_xml(test::slurp(svg));
  const XmlNode* line = the_line(*root);
  ASSERT_NE(line, nullptr);
  // Two named (a third would run past the chart: ALongListIsCutWithACount), two counted.
  EXPECT_EQ(line->text,
            "4 points not drawn: fp8 gemm (no roof for fp8), half \\u0001ctrl \\u202eevil\\u202c "
            "(no roof for fp16) and 2 more");
  EXPECT_EQ(with_class(*root, "point").size(), 1u);  // drawn triad

  r = run_cli({"point", "--machine", kData + "machine.json", "--points", pts, "--report", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = test::slurp(html);
  size_t items = 0;
  for (size_t at = 0; (at = page.find("<li><span class=\"name\">", at)) != std::string::npos; ++at)
    ++items;
  EXPECT_EQ(items, 4u);
  EXPECT_NE(page.find("<li><span class=\"name\">stream at L4</span>: no roof for level L4 — "
                      "machine &#39;zen3-2core-vm&#39;"),
            std::string::npos);
}

// `run --report`: a run at a level the machine has no roof for is in the table as "(no roof)"
// and, no longer silently, in the chart's line.
TEST(ChartNotDrawn, RunSaysTheRunsWithoutARoof) {
  if (suite::detect_machine().cache("L1") == nullptr)
    GTEST_SKIP() << "this system reports no caches (no /sys/devices/system/cpu/cpu0/cache)";
  test::TempDir dir;
  nlohmann::json m = nlohmann::json::parse(
      test::slurp(std::string(ROOFLINE_TEST_DATA) + "/run/machine-2core.json"));
  auto& memory = m["memory"];
  for (auto it = memory.begin(); it != memory.end();)
    it = (*it)["level"] == "L1" ? memory.erase(it) : it + 1;
  const std::string machine = dir.file("no-l1.json");
  std::ofstream(machine) << m.dump();
  const std::string svg = dir.file("run.svg");
  const auto r = run_cli({"run", "triad", "--levels", "L1", "--quick", "--threads", "1",
                          "--machine", machine, "--report", svg});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(no roof)"), std::string::npos) << r.out;
  const auto root = test::parse_xml(test::slurp(svg));
  const XmlNode* line = the_line(*root);
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->text,
            "2 points not drawn: triad @L1 (no roof for level L1), triad +write-allocate @L1 (no "
            "roof for level L1)");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
