// Charts read by a program that parses the SVG (and the terminal plot): what each mark says is
// what it marks — the headline roofs at --precision, a label beside its own mark, the binding
// level named, points at one spot named as a group, each compared machine its own style.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "report/svg_query.hpp"
#include "report/xml_lite.hpp"
#include "roofline/quantity.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::number;
using test::run_cli;
using test::with_class;
using test::XmlNode;

/// How often `glyph` stands alone in `text` (no ASCII letter or digit either side): a point's
/// letter in the plot, not the A of a level named DRAM.
size_t standalone(const std::string& text, const std::string& glyph) {
  auto alnum = [&](size_t i) {
    return i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]));
  };
  size_t n = 0;
  for (size_t at = text.find(glyph); at != std::string::npos; at = text.find(glyph, at + 1))
    if (!(at > 0 && alnum(at - 1)) && !alnum(at + glyph.size())) ++n;
  return n;
}
/// The plot's rows of a terminal report: what is above its x axis.
std::string plot_rows(const std::string& out) {
  return out.substr(0, out.find("└"));
}
std::string write(const test::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

// `plot --precision bf16` judged the point on bf16 tensor (I* = 295.3) while the subtitle and
// the primary ridge named fp32 vector (I* = 19.97); --at and Python's Chart switched.
TEST(ChartFindings, PrecisionDrawsTheDefaultPairItsPointsAreJudgedOn) {
  test::TempDir dir;
  const std::string pp = write(dir, "pp.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"noprec","work":3e14,"traffic":3e12,"time":1}]})");
  auto r = run_cli({"plot", "h100-sxm", pp, "--precision", "bf16", "-o", dir.file("pp.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("pp.svg")));
  const auto subtitle = with_class(*root, "subtitle");
  ASSERT_EQ(subtitle.size(), 1u);
  // H100 SXM bf16 tensor 989.4 TFLOP/s over HBM3 3.35 TB/s: I* = 295.3 FLOP/byte.
  EXPECT_NE(subtitle[0]->text.find("default roofs: bf16 tensor × HBM3 · ridge I* = 295.3"),
            std::string::npos)
      << subtitle[0]->text;
  const auto primary = with_class(*root, "primary");
  ASSERT_EQ(primary.size(), 1u);
  EXPECT_EQ(primary[0]->attr("data-compute"), "bf16 tensor");
  EXPECT_NEAR(number(primary[0], "data-intensity"), 989.4e12 / 3.35e12, 1e-6);
  // The same pair in the data export and the terminal legend, and the point judged on it.
  r = run_cli({"plot", "h100-sxm", pp, "--precision", "bf16", "-o", dir.file("chart.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(test::slurp(dir.file("chart.json")));
  EXPECT_EQ(j.at("default_roofs").at("compute"), "bf16 tensor");
  r = run_cli({"plot", "h100-sxm", pp, "--precision", "bf16", "--terminal", "--width", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("* ridge I* = 295.3 FLOP/byte (bf16 tensor × HBM3)"), std::string::npos)
      << r.out;
  // A sparse roof is never a default: refused by name, as with --at (it judged the points).
  r = run_cli(
      {"plot", "h100-sxm", pp, "--precision", "fp16 tensor sparse", "-o", dir.file("sparse.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'fp16 tensor sparse' of h100-sxm is a sparse roof"), std::string::npos)
      << r.err;
  // A compared machine without a roof of the precision: the error names the flags (it named a
  // machine and a precision alone).
  r = run_cli({"plot", "h100-sxm", "--compare", "a100-80gb", "--precision", "fp8", "-o",
               dir.file("cmp.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--precision fp8: machine 'a100-80gb' has no compute roof for 'fp8'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("each --compare one too, is drawn at its roof of that precision"),
            std::string::npos)
      << r.err;
}

// `kernel gemm --dtype fp16 --hw a100-80gb`: the mark sat on the fp16 tensor roof (312 TFLOP/s)
// and its label 38 px under it, on the tf32 tensor roof (156 TFLOP/s) 5 px away.
TEST(ChartFindings, AWorkloadLabelSitsBesideItsOwnMark) {
  test::TempDir dir;
  const auto r = run_cli({"kernel", "gemm", "--n", "1024", "--m", "1024", "--k", "1024", "--dtype",
                          "fp16", "--hw", "a100-80gb", "--report", dir.file("k.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("k.svg")));
  const auto marks = with_class(*root, "workload-mark");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_DOUBLE_EQ(number(marks[0], "data-attainable"), 312e12);
  const XmlNode* label = nullptr;
  for (const XmlNode* t : with_class(*root, "workload-label"))
    if (t->text == "312 TFLOP/s") label = t;
  ASSERT_NE(label, nullptr);
  // The mark's height: the middle of its diamond path "M x y-5 L x+5 y ...".
  const std::string d = marks[0]->attr("d");
  const double mark_y = std::stod(d.substr(d.find(' ') + 1)) + 5;
  // The label's middle (11 px text: about 4 px above its baseline) is nearer its own mark than
  // any other flat roof's line.
  const double mid = number(label, "y") - 4;
  const double own = std::fabs(mid - mark_y);
  EXPECT_LT(own, 16) << mid << " against " << mark_y;
  int others = 0;
  for (const XmlNode* l : with_class(*root, "compute-roof")) {
    const double y = number(l, "y1");
    if (std::fabs(y - mark_y) < 0.5) continue;  // its own roof
    ++others;
    EXPECT_LT(own, std::fabs(mid - y)) << l->attr("data-roof") << " at " << y;
  }
  EXPECT_GT(others, 0);
}

const char* kCpu = R"({"schema":"roofline.machine","version":1,"name":"testcpu",
  "default_compute":"fp64 fma","default_memory":"DRAM",
  "compute":[{"name":"fp64 fma","precision":"fp64","unit":"avx2","peak":"100 GFLOP/s",
              "provenance":"measured","theoretical":"128 GFLOP/s"},
             {"name":"fp32 fma","precision":"fp32","unit":"avx2","peak":"200 GFLOP/s",
              "provenance":"measured","theoretical":"256 GFLOP/s"},
             {"name":"fp64 scalar","precision":"fp64","unit":"scalar","peak":"12 GFLOP/s",
              "provenance":"measured"}],
  "memory":[{"level":"L1","kind":"cache","bandwidth":"1 TB/s","provenance":"measured"},
            {"level":"L2","kind":"cache","bandwidth":"400 GB/s","provenance":"measured"},
            {"level":"L3","kind":"cache","bandwidth":"200 GB/s","provenance":"measured"},
            {"level":"DRAM","kind":"memory","bandwidth":"40 GB/s","provenance":"measured"}]})";
// Four levels with one intensity (12 GB at each for 1 GFLOP): every marker at one spot.
const char* kStream = R"({"schema":"roofline.points","version":1,"points":[{"name":"stream",
  "work":1e9,"traffic":{"L1":1.2e10,"L2":1.2e10,"L3":1.2e10,"DRAM":1.2e10},"time":0.32}]})";

// The legend said "memory-bound: A stream" and no A was in the plot (an other level's "·" was
// drawn over it); the SVG named L1 and L2 at the spot, not DRAM, the binding level.
TEST(ChartFindings, TheBindingLevelCarriesThePointsName) {
  test::TempDir dir;
  const std::string cpu = write(dir, "cpu.json", kCpu);
  const std::string stream = write(dir, "stream.json", kStream);
  auto r = run_cli({"plot", cpu, stream, "--terminal", "--width", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("memory-bound: A stream"), std::string::npos) << r.out;
  // In the plot's rows: the letter, and no "·" (every level is in the letter's cell).
  const std::string plot = plot_rows(r.out);
  EXPECT_EQ(standalone(plot, "A"), 1u) << plot;
  EXPECT_EQ(plot.find("·"), std::string::npos) << plot;
  r = run_cli({"plot", cpu, stream, "-o", dir.file("s.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("s.svg")));
  const auto labels = with_class(*root, "level-label");
  ASSERT_EQ(labels.size(), 1u);  // one spot, one label
  EXPECT_EQ(labels[0]->text, "DRAM, L1, L2, L3");
  // I = 1e9 / 1.2e10 = 0.08333 at every level, P = 1e9 / 0.32 = 3.125 GFLOP/s.
  const auto points = with_class(*root, "point");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_NEAR(number(points[0], "data-intensity"), 1e9 / 1.2e10, 1e-9);
  EXPECT_NEAR(number(points[0], "data-performance"), 1e9 / 0.32, 1e-9 * 1e9 / 0.32);
}

// Levels at their own spots keep their own labels, the binding one among them.
TEST(ChartFindings, LevelsApartKeepTheirOwnNames) {
  test::TempDir dir;
  const std::string cpu = write(dir, "cpu.json", kCpu);
  const std::string pts = write(dir, "h.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"h","work":1e9,"traffic":{"L1":1e10,"DRAM":1e8},"time":1}]})");
  const auto r = run_cli({"plot", cpu, pts, "-o", dir.file("h.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("h.svg")));
  std::set<std::string> names;
  for (const XmlNode* l : with_class(*root, "level-label")) names.insert(l->text);
  EXPECT_EQ(names, (std::set<std::string>{"L1", "DRAM"}));
}

// Eleven points at one spot got three names ("decode q_proj", "k_proj", "v_proj") with three
// leaders to one dot; the step's summary points and the heavier MLP layers none. Points within
// a pixel are named as a group, by the heaviest.
TEST(ChartFindings, PointsAtOneSpotAreNamedAsAGroup) {
  test::TempDir dir;
  auto r = run_cli({"llm", "-m", "llama-2-7b", "--hw", "h100-sxm", "-b", "1", "-L", "2048",
                    "--report", dir.file("llm.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("llm.svg")));
  std::vector<std::string> names;
  for (const XmlNode* l : with_class(*root, "point-label")) names.push_back(l->text);
  // "decode linear layers" (the summary, whose time is every linear layer's) and the ten points
  // under its marker.
  int group = 0;
  for (const auto& n : names) {
    EXPECT_EQ(n.find("decode q_proj"), std::string::npos) << n;
    if (n == "decode linear layers +10 more") ++group;
  }
  EXPECT_EQ(group, 1) << ::testing::PrintToString(names);
  // No two leader lines start at one marker.
  std::set<std::pair<std::string, std::string>> starts;
  for (const XmlNode* l : with_class(*root, "level-join"))
    if (l->has("x2") && l->attr("y1") != l->attr("y2")) {
      EXPECT_TRUE(starts.insert({l->attr("x1"), l->attr("y1")}).second) << l->attr("x1");
    }

  // Two identical points: one name for both, the later's (as a summary follows the points it
  // sums), and the terminal cell says it holds two.
  const std::string co = write(dir, "co.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"first","work":3e14,"traffic":3e12,"time":1},
              {"name":"second","work":3e14,"traffic":3e12,"time":1}]})");
  r = run_cli({"plot", "h100-sxm", co, "-o", dir.file("co.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto co_root = test::parse_xml(test::slurp(dir.file("co.svg")));
  const auto co_labels = with_class(*co_root, "point-label");
  ASSERT_EQ(co_labels.size(), 1u);
  EXPECT_EQ(co_labels[0]->text, "second +1 more");
  r = run_cli({"plot", "h100-sxm", co, "--terminal", "--width", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plot = plot_rows(r.out);
  EXPECT_EQ(standalone(plot, "#"), 1u) << plot;
  EXPECT_EQ(standalone(plot, "A"), 0u) << plot;
  EXPECT_EQ(standalone(plot, "B"), 0u) << plot;
  EXPECT_NE(r.out.find("# A, B in one cell"), std::string::npos) << r.out;
}

// A heavier point names the group whatever its place in the file: by weight, then by time.
TEST(ChartFindings, TheHeaviestPointNamesItsGroup) {
  test::TempDir dir;
  const std::string pts = write(dir, "w.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"light","work":3e14,"traffic":3e12,"time":1,"weight":1},
              {"name":"heavy","work":3e14,"traffic":3e12,"time":1,"weight":1.0000001},
              {"name":"slow","work":6e14,"traffic":6e12,"time":2}]})");
  const auto r = run_cli({"plot", "h100-sxm", pts, "-o", dir.file("w.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("w.svg")));
  const auto labels = with_class(*root, "point-label");
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0]->text, "heavy +2 more");
}

// Compared machines shared one colour and one legend entry ("mi300x, a100-80gb roofs").
TEST(ChartFindings, EachComparedMachineHasItsOwnStyle) {
  test::TempDir dir;
  const auto r = run_cli({"plot", "h100-sxm", "--compare", "mi300x", "--compare", "a100-80gb",
                          "--at", "50", "-o", dir.file("cmp.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("cmp.svg")));
  std::map<std::string, std::set<std::string>> styles;  // machine -> overlay-N classes
  for (const XmlNode* l : with_class(*root, "overlay")) {
    if (l->name != "line") continue;
    for (const std::string n : {"overlay-1", "overlay-2"})
      if (l->has_class(n)) styles[l->attr("data-machine")].insert(n);
  }
  EXPECT_EQ(styles["mi300x"], (std::set<std::string>{"overlay-1"}));
  EXPECT_EQ(styles["a100-80gb"], (std::set<std::string>{"overlay-2"}));
  // The style sheet gives each its colour: Okabe–Ito sky blue, then violet on white (the darkened
  // yellow #C4B200 it had was the far-below orange #E69F00 under simulated deuteranopia).
  const auto style = root->find_all([](const XmlNode& n) { return n.name == "style"; });
  ASSERT_FALSE(style.empty());
  EXPECT_NE(style[0]->text.find(".roof.overlay{stroke:#56B4E9"), std::string::npos);
  EXPECT_NE(style[0]->text.find(".roof.overlay-2,.roof.overlay-4{stroke:#8800DD}"),
            std::string::npos);
  // One legend entry per machine, its swatch in the machine's style.
  std::map<std::string, std::string> legend;
  for (const XmlNode* g : with_class(*root, "legend"))
    for (const XmlNode* l : g->find_all([](const XmlNode& n) { return n.has("data-machine"); }))
      legend[l->attr("data-machine")] = l->attr("class");
  EXPECT_EQ(legend.size(), 2u);
  EXPECT_NE(legend["mi300x"].find("overlay-1"), std::string::npos);
  EXPECT_NE(legend["a100-80gb"].find("overlay-2"), std::string::npos);
  std::set<std::string> texts;
  for (const XmlNode* t : with_class(*root, "legend-text")) texts.insert(t->text);
  EXPECT_EQ(texts.count("mi300x roofs"), 1u);
  EXPECT_EQ(texts.count("a100-80gb roofs"), 1u);
}

// Beyond the SI prefixes: "1e-21 nFLOP/s" and "10 uFLOP/s" on the y axis, "W = 1e-21 nFLOP".
TEST(ChartFindings, TinyValuesPrintInTheBaseUnit) {
  test::TempDir dir;
  auto r = run_cli({"point", "--hw", "h100-sxm", "-W", "1e-30", "-Q", "1", "-T", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("W = 1e-30 FLOP"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nFLOP"), std::string::npos) << r.out;
  const std::string pts = write(dir, "t.json", R"({"schema":"roofline.points","version":1,
    "points":[{"name":"tiny","work":1e-30,"traffic":1,"time":1},
              {"name":"huge","work":1e30,"traffic":1e27,"time":1}]})");
  r = run_cli({"plot", "h100-sxm", pts, "-o", dir.file("t.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto root = test::parse_xml(test::slurp(dir.file("t.svg")));
  int checked = 0;
  for (const XmlNode* t : with_class(*root, "y-tick")) {
    const double v = number(t, "data-value");
    if (v < 1e-12) {  // beyond the prefixes: 1e-30 FLOP/s
      char want[32];
      std::snprintf(want, sizeof want, "%.3g FLOP/s", v);
      EXPECT_EQ(t->text, want);
      ++checked;
    } else if (v < 1e-9) {  // 0.1 nFLOP/s, 0.01 nFLOP/s: within them
      EXPECT_EQ(t->text, format_number(v * 1e9, 3) + " nFLOP/s");
    }
  }
  EXPECT_GT(checked, 0);
}

// A ridge mark of a chart named roof pairs it does not draw (c1:m0 on a B200).
TEST(ChartFindings, RidgeMarksNameOnlyDrawnRoofs) {
  test::TempDir dir;
  for (const std::string hw :
       {"b200", "gb200", "mi355x", "mi250x", "mi300x", "mi325x", "rtx-4090", "h100-sxm"}) {
    const auto r = run_cli({"plot", hw, "-o", dir.file(hw + ".svg")});
    ASSERT_EQ(r.exit_code, 0) << hw << ": " << r.err;
    const auto root = test::parse_xml(test::slurp(dir.file(hw + ".svg")));
    std::set<std::string> drawn;
    for (const XmlNode* l : with_class(*root, "roof"))
      if (l->name == "line") drawn.insert(l->attr("data-id"));
    int pairs = 0;
    for (const XmlNode* n : root->find_all([](const XmlNode& x) { return x.has("data-pairs"); })) {
      std::istringstream ids(n->attr("data-pairs"));
      for (std::string pair; ids >> pair; ++pairs) {
        const size_t colon = pair.find(':');
        ASSERT_NE(colon, std::string::npos) << pair;
        EXPECT_EQ(drawn.count(pair.substr(0, colon)), 1u) << hw << " " << pair;
        EXPECT_EQ(drawn.count(pair.substr(colon + 1)), 1u) << hw << " " << pair;
      }
    }
    EXPECT_GT(pairs, 0) << hw;
  }
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
