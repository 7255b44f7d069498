// What a chart's labels say and where they end: sized on the text as drawn (escaped), the roof
// column wide enough for "(noisy)", roofs named as the tables name them, ridge marks that take
// their height from a roof they name, slanted roofs that reach the sparse roofs drawn, compared
// machines in colours no verdict uses, and the HTML tooltip's names escaped as the chart's.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/svg_query.hpp"
#include "report/svg_text.hpp"
#include "report/xml_lite.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::run_cli;
using test::with_class;
using test::XmlNode;

std::string write(const test::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}
/// The plot's clip rectangle: x, y, width, height.
std::array<double, 4> plot_rect(const XmlNode& root) {
  const XmlNode* r = test::plot_clip_rect(root);
  return {number(r, "x"), number(r, "y"), number(r, "width"), number(r, "height")};
}
/// Left and right ends of a text element, from its anchor and its width in DejaVu Sans.
std::pair<double, double> text_span(const XmlNode* t, double font, bool bold) {
  const double x = number(t, "x"), w = report::text_width(t->text, font, bold);
  const std::string anchor = t->attr("text-anchor");
  if (anchor == "end") return {x - w, x};
  if (anchor == "middle") return {x - w / 2, x + w / 2};
  return {x, x + w};
}

// A control character counted no width, yet is drawn as "\u0001", six characters: a label
// sized on the raw name ran 90 px past the plot's right edge.
TEST(ChartLabels, TextIsMeasuredAsDrawn) {
  EXPECT_DOUBLE_EQ(report::text_width("a\x01"
                                      "b",
                                      12),
                   report::text_width("a\\u0001b", 12));
  EXPECT_DOUBLE_EQ(report::text_width("x\xE2\x80\xAEy", 12), report::text_width("x\\u202ey", 12));
  test::TempDir dir;
  const std::string pts = write(dir, "long.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"ctrl\u0001\u0002\u0003\u0004\u0005\u0006 edge","work":3.3e13,
               "traffic":1.65e9,"time":1,"precision":"fp32"},
              {"name":"\u05e2\u05d1\u05e8\u05d9\u05ea RTL \u202eevil\u202c","work":3.3e13,
               "traffic":1.65e9,"time":1,"precision":"fp32"}]})");
  const auto r = run_cli({"plot", "h100-sxm", pts, "-o", dir.file("long.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("long.svg")));
  const auto [px, py, pw, ph] = plot_rect(*root);
  const auto labels = with_class(*root, "point-label");
  ASSERT_FALSE(labels.empty());
  for (const XmlNode* t : labels) {
    const auto [lo, hi] = text_span(t, 12, true);
    EXPECT_GE(lo, px - 0.5) << t->text;
    EXPECT_LE(hi, px + pw + 0.5) << t->text;
  }
}

const char* kNoisyMachine = R"({"schema":"roofline.machine","version":1,"name":"noisy",
  "default_compute":"fp64 512-bit fma","default_memory":"DRAM",
  "compute":[{"name":"fp64 512-bit fma","precision":"fp64","unit":"512-bit fma","peak":1.18e11,
              "provenance":"measured","source":"t"},
             {"name":"int16 256-bit vpmaddwd","precision":"int16","unit":"256-bit vpmaddwd",
              "peak":3.739e11,"provenance":"measured","source":"t","integer":true,
              "stats":{"repetitions":5,"median":3.739e11,"best":4.8607e11,"min":1.8695e11,
                       "max":4.8607e11,"q1":2.6173e11,"q3":4.4868e11,"cv":0.3,"iqr":0.5,
                       "noisy":true}}],
  "memory":[{"level":"DRAM","kind":"memory","bandwidth":1.2e11,"provenance":"measured",
             "source":"t"}]})";

// The roofs' column was as wide as "int16 256-bit vpmaddwd 373.9 GOP/s", and the label drawn
// with " (noisy)" after it ended at x = 974 on a 960 px chart.
TEST(ChartLabels, TheRoofColumnHoldsTheNoisyMark) {
  test::TempDir dir;
  const std::string m = write(dir, "noisy.json", kNoisyMachine);
  const auto r = run_cli({"plot", m, "-o", dir.file("noisy.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("noisy.svg")));
  const double width = number(root.get(), "width");
  bool noisy = false;
  for (const XmlNode* t : with_class(*root, "roof-label")) {
    if (!t->has_class("compute")) continue;
    noisy = noisy || t->text.find("(noisy)") != std::string::npos;
    EXPECT_LE(text_span(t, 12, false).second, width) << t->text;
  }
  EXPECT_TRUE(noisy);
}

// A roof named "my fast roof" (fp16, unit tensor) was labelled "fp16 my fast roof tensor",
// a name the tables, the CSV and --roofs do not know.
TEST(ChartLabels, ARoofIsLabelledWithItsName) {
  test::TempDir dir;
  const std::string m = write(dir, "named.json", R"({"schema":"roofline.machine","version":1,
    "name":"named","default_compute":"my fast roof","default_memory":"DRAM",
    "compute":[{"name":"my fast roof","precision":"fp16","unit":"tensor","peak":1e12,
                "provenance":"datasheet","source":"t"}],
    "memory":[{"level":"DRAM","kind":"memory","bandwidth":1e10,"provenance":"datasheet",
               "source":"t"}]})");
  auto r = run_cli({"plot", m, "--roofs", "my fast roof", "-o", dir.file("named.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("named.svg")));
  std::set<std::string> texts;
  for (const XmlNode* t : with_class(*root, "roof-label"))
    if (t->has_class("compute")) texts.insert(t->text);
  EXPECT_EQ(texts, (std::set<std::string>{"my fast roof 1 TFLOP/s"}));
}

// A ridge mark took its height from an undrawn roof within 0.1% of a drawn one: bf16 at
// 1.0009e11 against DRAM at 1e10 was marked at I* = 10 (int8's 1e11), its JSON peak 1e11.
TEST(ChartLabels, ARidgeMarkIsAtItsOwnRoofs) {
  test::TempDir dir;
  const std::string m = write(dir, "tol.json", R"({"schema":"roofline.machine","version":1,
    "name":"tol","default_compute":"fp32 a","default_memory":"DRAM",
    "compute":[{"name":"int8 b","precision":"int8","unit":"x","peak":1e11,
                "provenance":"measured","source":"t","integer":true},
               {"name":"fp32 a","precision":"fp32","unit":"y","peak":2e11,
                "provenance":"measured","source":"t"},
               {"name":"bf16 c","precision":"bf16","unit":"z","peak":1.0009e11,
                "provenance":"measured","source":"t"}],
    "memory":[{"level":"DRAM","kind":"memory","bandwidth":1e10,"provenance":"measured",
               "source":"t"}]})");
  const auto r =
      run_cli({"plot", m, "--roofs", "fp32,bf16,DRAM", "-o", dir.file("tol.json.out.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(dir.file("tol.json.out.json"));
  const auto doc = nlohmann::json::parse(f);
  bool found = false;
  for (const auto& ridge : doc.at("ridges")) {
    for (const auto& p : ridge.at("pairs")) {
      if (p.at("compute_roof").get<std::string>() != "bf16 c") continue;
      found = true;
      EXPECT_NEAR(ridge.at("intensity").get<double>(), 10.009, 1e-9) << ridge.dump();
      EXPECT_NEAR(ridge.at("peak").get<double>(), 1.0009e11, 1) << ridge.dump();
    }
    for (const auto& p : ridge.at("pairs"))
      EXPECT_NE(p.at("compute_roof").get<std::string>(), "int8 b") << ridge.dump();
  }
  EXPECT_TRUE(found) << doc.at("ridges").dump();
}

// With every roof drawn, HBM3 stopped at 1.979 PFLOP/s while the sparse roofs above started
// 43 px to its right, with no ring where they meet it.
TEST(ChartLabels, SlantedRoofsReachTheSparseRoofsDrawn) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "--roofs", "all", "-o", dir.file("all.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("all.svg")));
  double top_y = 1e9, hbm_end_y = -1;
  for (const XmlNode* l : with_class(*root, "roof")) {
    if (l->name != "line" || l->has_class("optional")) continue;
    if (l->has_class("compute-roof")) top_y = std::min(top_y, number(l, "y1"));
    if (l->attr("data-roof") == "HBM3") hbm_end_y = number(l, "y2");
  }
  ASSERT_GT(hbm_end_y, 0);
  EXPECT_NEAR(hbm_end_y, top_y, 0.02);
  std::set<std::string> sparse_ids;
  for (const XmlNode* l : with_class(*root, "compute-roof"))
    if (l->attr("data-name").find("sparse") != std::string::npos)
      sparse_ids.insert(l->attr("data-id"));
  ASSERT_FALSE(sparse_ids.empty());
  size_t rings = 0;
  for (const XmlNode* c : with_class(*root, "ridge"))
    for (const auto& id : sparse_ids)
      if (c->attr("data-pairs").find(id + ":") != std::string::npos) ++rings;
  EXPECT_GE(rings, sparse_ids.size() / 2) << "no ring names a sparse roof";
}

// The page names sparse pairs at its ridge marks too, as its "all" view can show them.
TEST(ChartLabels, ThePageNamesSparsePairsAtItsRidges) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "-o", dir.file("p.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::slurp(dir.file("p.html"));
  // fp8 tensor sparse is compute roof 12 of h100-sxm.json.
  EXPECT_NE(html.find("c12:m0"), std::string::npos);
}

// Compared machines were drawn in the verdicts' colours: the 3rd in orange read as "far below".
TEST(ChartLabels, ComparedMachinesUseNoVerdictColour) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "--compare", "mi300x", "--compare", "a100-80gb",
                          "--compare", "b200", "--compare", "gaudi3", "-o", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("c.svg")));
  const auto style = root->find_all([](const XmlNode& n) { return n.name == "style"; });
  ASSERT_FALSE(style.empty());
  const std::string& css = style[0]->text;
  size_t rules = 0;
  for (size_t at = css.find(".roof.overlay"); at != std::string::npos;
       at = css.find(".roof.overlay", at + 1)) {
    const std::string rule = css.substr(at, css.find('}', at) - at);
    ++rules;
    for (const char* v : {"#0072B2", "#009E73", "#CC79A7", "#E69F00", "#D55E00", "#882255"})
      EXPECT_EQ(rule.find(v), std::string::npos) << rule;
  }
  EXPECT_GE(rules, 4u);
  // The 3rd and 4th machines repeat the first two colours dash-dotted.
  EXPECT_NE(css.find(".roof.overlay-3,.roof.overlay-4{stroke-dasharray:"), std::string::npos);
}

// The tooltip's JSON carried the raw control and bidirectional characters the label and the
// table show escaped.
TEST(ChartLabels, TheTooltipShowsTheNameAsTheChartDoes) {
  test::TempDir dir;
  const std::string pts = write(dir, "esc.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"a\u0001b \u202eevil\u202c","work":1e12,"traffic":1e10,"time":1}]})");
  const auto r = run_cli({"plot", "h100-sxm", pts, "-o", dir.file("esc.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::slurp(dir.file("esc.html"));
  const std::string open = "<script type=\"application/json\" id=\"roofline-data\">";
  const size_t at = html.find(open);
  ASSERT_NE(at, std::string::npos);
  const size_t from = at + open.size();
  const auto data = nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
  EXPECT_EQ(data.at("points").at(0).at("name").get<std::string>(), "a\\u0001b \\u202eevil\\u202c");
}

// A name of 154 characters without a space widened the points table past the page: its cell
// may break anywhere, as the source column's does.
TEST(ChartLabels, APointNameCellBreaksAnywhere) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "-o", dir.file("p.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::slurp(dir.file("p.html"));
  EXPECT_NE(html.find("table.data td.name{min-width:8em;overflow-wrap:anywhere}"),
            std::string::npos);
  const auto pr = run_cli({"plot", "h100-sxm",
                           std::string(ROOFLINE_TEST_DATA) + "/report/long_names.points.json", "-o",
                           dir.file("q.html")});
  // The fixture is the CI's (charts.sh): fp64 points judged on h100-sxm's fp64 roof.
  ASSERT_EQ(pr.exit_code, 0) << pr.err;
  EXPECT_NE(test::slurp(dir.file("q.html")).find("<td class=\"name\" data-label=\"point\">"),
            std::string::npos);
}

// "decode attention" sums one fused attention operator, so the two have one time: the
// operator, first in the input, named the spot ("decode attention (fused) +1 more"), though a
// step's summary point is named before its operators.
TEST(ChartLabels, OfTwoPointsAsHeavyTheSummaryNamesTheSpot) {
  test::TempDir dir;
  const std::string pts = write(dir, "tie.json", R"j({"schema":"roofline.points","version":1,
    "points":[{"name":"decode attention (fused)","work":3e14,"traffic":3e12,"time":1},
              {"name":"decode attention","work":3e14,"traffic":3e12,"time":1}]})j");
  const auto r = run_cli({"plot", "h100-sxm", pts, "-o", dir.file("tie.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("tie.svg")));
  const auto labels = with_class(*root, "point-label");
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0]->text, "decode attention +1 more");
}

// Points at one spot drew their headroom factor once each ("×3.35" twice, side by side).
TEST(ChartLabels, PointsAtOneSpotSayTheirHeadroomOnce) {
  test::TempDir dir;
  const std::string pts = write(dir, "two.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"a","work":1e12,"traffic":1e10,"time":1},
              {"name":"b","work":1e12,"traffic":1e10,"time":1}]})");
  const auto r = run_cli({"plot", "h100-sxm", pts, "-o", dir.file("two.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("two.svg")));
  EXPECT_EQ(with_class(*root, "headroom-label").size(), 1u);
}

// With four compared machines the subtitle was cut before its last part, the count of roofs
// drawn: the machines are counted instead (the legend names them) and the count kept, in its
// shorter form ("7 of 15 roofs drawn") where the longer does not fit.
TEST(ChartLabels, TheSubtitleKeepsTheRoofCount) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "--compare", "mi300x", "--compare", "a100-80gb",
                          "--compare", "b200", "--compare", "gaudi3", "-o", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("c.svg")));
  const auto subs = with_class(*root, "subtitle");
  ASSERT_EQ(subs.size(), 1u);
  const std::string& sub = subs[0]->text;
  const std::string tail = " roofs drawn";
  ASSERT_GE(sub.size(), tail.size());
  EXPECT_EQ(sub.substr(sub.size() - tail.size()), tail) << sub;
  EXPECT_LE(number(subs[0], "x") + report::text_width(sub, 12), number(root.get(), "width"));
}

// The points of a decode sweep lie on the memory roof, a marker every half decade or so, and
// no spot beside the line was free: the default memory roof's label ("HBM2e 2.039 TB/s") was
// left out. It takes a row further out, clear of the markers' boxes (10.6 px from the line),
// nearer its own roof than any other; every point keeps its name.
TEST(ChartLabels, ASweepAlongTheMemoryRoofKeepsItsLabel) {
  test::TempDir dir;
  const auto r = run_cli({"llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch",
                          "1,8,64,256", "--context", "2048", "--report", dir.file("sweep.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("sweep.svg")));
  std::vector<const XmlNode*> roofs;
  for (const XmlNode* l : with_class(*root, "roof"))
    if (l->name == "line" && l->attr("display") != "none") roofs.push_back(l);
  const XmlNode* hbm = nullptr;
  for (const XmlNode* l : roofs)
    if (l->attr("data-roof") == "HBM2e") hbm = l;
  ASSERT_NE(hbm, nullptr);
  const XmlNode* label = nullptr;
  for (const XmlNode* t : with_class(*root, "roof-label"))
    if (t->attr("data-ids") == hbm->attr("data-id")) label = t;
  ASSERT_NE(label, nullptr) << "no label for HBM2e";
  EXPECT_EQ(label->text, "HBM2e 2.039 TB/s");
  // Its anchor on the line; the text, 12 px, along it and wholly beyond the markers' reach.
  std::smatch m;
  const std::string transform = label->attr("transform");
  ASSERT_TRUE(std::regex_search(transform, m, std::regex(R"(translate\(([-0-9.]+),([-0-9.]+)\))")));
  const double tx = std::stod(m[1]), ty = std::stod(m[2]);
  auto distance = [](const XmlNode* l, double x, double y) {
    const double x1 = number(l, "x1"), y1 = number(l, "y1"), dx = number(l, "x2") - x1,
                 dy = number(l, "y2") - y1;
    const double t = std::clamp(((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
    return std::hypot(x - x1 - t * dx, y - y1 - t * dy);
  };
  EXPECT_LT(distance(hbm, tx, ty), 0.5);
  const double ly = number(label, "y");
  EXPECT_LE(ly + 12 * 0.24, -10.6);
  // Its middle, in the page: nearer the HBM2e line than any other roof's.
  const double lx = number(label, "x") + report::text_width(label->text, 12) / 2,
               my = ly - 12 * (0.93 - 0.24) / 2, k = std::sqrt(0.5);
  const double cx = tx + (lx + my) * k, cy = ty + (my - lx) * k;  // rotate(-45)
  for (const XmlNode* l : roofs) {
    if (l == hbm) continue;
    EXPECT_GT(distance(l, cx, cy), distance(hbm, cx, cy)) << l->attr("data-roof");
  }
  EXPECT_EQ(with_class(*root, "point-label").size(), with_class(*root, "point").size());
}

// The terminal legend's lines ran past --width with a long point name.
TEST(ChartLabels, TheTerminalLegendKeepsToTheWidth) {
  test::TempDir dir;
  const std::string pts = write(dir, "w.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":")" + std::string(150, 'n') + R"(","work":1e12,"traffic":1e10,"time":1}]})");
  const auto r = run_cli({"plot", "h100-sxm", pts, "--terminal", "--width", "80"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plot = r.out.substr(0, r.out.find("Roofs of"));
  std::istringstream lines(plot);
  size_t checked = 0;
  for (std::string line; std::getline(lines, line); ++checked) {
    size_t cols = 0;
    for (char ch : line) cols += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    EXPECT_LE(cols, 80u) << line;
  }
  EXPECT_GT(checked, 10u);
  EXPECT_NE(plot.find("nnnn…"), std::string::npos) << plot;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
