// Labels that find no room: the machine's default memory roof is labelled before the others, a
// slanted roof's label is struck by no other roof's line (moved, or left out and named in the
// chart's note of roofs not labelled), and a point name too long for any spot is drawn cut with
// "…", the whole name its <title>.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "report/svg_query.hpp"
#include "report/xml_lite.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::drawn_text;
using test::line_through_text;
using test::number;
using test::run_cli;
using test::with_class;
using test::XmlNode;

std::string write(const test::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

/// A measured machine whose four levels lie 0.1 decade apart (their lines about 15 px apart on
/// the chart, closer than a label is tall), the default (DRAM) listed last.
const char* kCloseLevels = R"({"schema":"roofline.machine","version":1,"name":"close-levels",
  "default_compute":"fp64 256-bit fma","default_memory":"DRAM",
  "compute":[{"name":"fp64 256-bit fma","precision":"fp64","unit":"256-bit fma","peak":6.1e11,
              "provenance":"measured","source":"t"},
             {"name":"fp32 256-bit fma","precision":"fp32","unit":"256-bit fma","peak":1.22e12,
              "provenance":"measured","source":"t"}],
  "memory":[{"level":"L1","kind":"cache","bandwidth":1.4e12,"provenance":"measured","source":"t"},
            {"level":"L2","kind":"cache","bandwidth":1.1e12,"provenance":"measured","source":"t"},
            {"level":"L3","kind":"cache","bandwidth":8.5e11,"provenance":"measured","source":"t"},
            {"level":"DRAM","kind":"memory","bandwidth":6.5e11,"provenance":"measured",
             "source":"t"}]})";

/// What a chart says of its roofs: the lines drawn, their labels by roof id, and the labels the
/// note of roofs not labelled names (its <tspan>s, by roof id).
struct RoofText {
  std::unique_ptr<XmlNode> root;
  std::vector<const XmlNode*> lines;
  std::map<std::string, const XmlNode*> labels, noted;
  const XmlNode* note = nullptr;
};
RoofText roof_text(const std::string& svg_path) {
  RoofText r;
  r.root = test::parse_xml(test::slurp(svg_path));
  for (const XmlNode* l : with_class(*r.root, "roof"))
    if (l->name == "line" && l->has("data-id") && l->attr("display") != "none")
      r.lines.push_back(l);  // not the legend's swatches
  for (const XmlNode* t : with_class(*r.root, "roof-label")) r.labels[t->attr("data-ids")] = t;
  const auto notes = with_class(*r.root, "not-labelled");
  EXPECT_LE(notes.size(), 1u);
  if (!notes.empty()) {
    r.note = notes.front();
    for (const auto& c : r.note->children)
      if (c->name == "tspan") r.noted[c->attr("data-ids")] = c.get();
  }
  return r;
}

/// No slanted roof's label has another slanted roof's line through its text (a flat roof may
/// cross it at 45°), and every roof drawn is labelled or named in the note, by the label its
/// own would have been.
void expect_labelled_or_noted(const RoofText& r) {
  for (const XmlNode* line : r.lines) {
    const std::string id = line->attr("data-id");
    const auto label = r.labels.find(id);
    const auto noted = r.noted.find(id);
    EXPECT_TRUE((label == r.labels.end()) != (noted == r.noted.end()))
        << line->attr("data-roof") << ": labelled and noted, or neither";
    if (noted != r.noted.end()) {
      const std::string name = noted->second->text;
      const std::string own = line->attr("data-name") + " " + line->attr("data-rate");
      EXPECT_EQ(name.substr(name.size() - own.size()), own) << name;
    }
  }
  for (const auto& [id, t] : r.labels) {
    if (!t->has_class("memory")) continue;
    for (const XmlNode* line : r.lines) {
      if (line->attr("data-id") == id || !line->has_class("memory-roof")) continue;
      EXPECT_FALSE(line_through_text(line, t, 12))
          << line->attr("data-machine") << " " << line->attr("data-roof") << " strikes " << t->text;
    }
  }
}

// A measured machine's levels close together: the L2 label sat 5 px above its line and the L1
// line passed through its text. No label is struck now; those without room are named in a note
// under the legend, within the canvas; the default memory roof, listed last, is labelled.
TEST(ChartLabelRoom, NoRoofLineStrikesARoofLabel) {
  test::TempDir dir;
  const std::string m = write(dir, "close.json", kCloseLevels);
  const auto run = run_cli({"plot", m, "-o", dir.file("close.svg")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const RoofText r = roof_text(dir.file("close.svg"));
  ASSERT_EQ(r.lines.size(), 6u);
  expect_labelled_or_noted(r);
  // Here the labels placed lie clear of the flat roofs' lines too.
  for (const auto& [id, t] : r.labels)
    for (const XmlNode* line : r.lines) {
      if (!t->has_class("memory") || line->attr("data-id") == id) continue;
      EXPECT_FALSE(line_through_text(line, t, 12))
          << line->attr("data-roof") << " strikes " << t->text;
    }
  ASSERT_TRUE(r.labels.count("m3")) << "the default memory roof (DRAM) has no label";
  EXPECT_EQ(r.labels.at("m3")->text, "DRAM 650 GB/s");
  // Four lines 15 px apart leave room for two labels, the outer ones.
  ASSERT_NE(r.note, nullptr);
  EXPECT_EQ(r.note->text, "roofs not labelled (no room): ");
  EXPECT_EQ(drawn_text(r.note), "roofs not labelled (no room): L2 1.1 TB/s, L3 850 GB/s");
  EXPECT_EQ(r.note->attr("data-ids"), "m1 m2");
  const double height = number(r.root.get(), "height");
  EXPECT_LE(number(r.note, "y") + 11.5 * 0.24, height);
  // Below the legend's last row.
  double legend_bottom = 0;
  for (const XmlNode* g : with_class(*r.root, "legend"))
    for (const auto& row : g->children) {
      double x = 0, y = 0;
      ASSERT_EQ(std::sscanf(row->attr("transform").c_str(), "translate(%lf,%lf)", &x, &y), 2);
      legend_bottom = std::max(legend_bottom, y);
    }
  EXPECT_GE(number(r.note, "y"), legend_bottom + 18);
}

// The line of an LLM step's chart: the default memory roof (HBM3, HBM2e) is labelled on every
// machine, the points of the step on its line notwithstanding.
TEST(ChartLabelRoom, TheDefaultMemoryRoofIsLabelled) {
  for (const std::string hw : {"h100-sxm", "a100-80gb", "mi300x", "b200"}) {
    test::TempDir dir;
    const auto run =
        run_cli({"llm", "--model", "llama-3-8b", "--hw", hw, "--report", dir.file("a.svg")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const RoofText r = roof_text(dir.file("a.svg"));
    const XmlNode* def = nullptr;
    for (const XmlNode* l : r.lines)
      if (l->has_class("memory-roof") && l->has_class("default")) def = l;
    ASSERT_NE(def, nullptr) << hw;
    ASSERT_TRUE(r.labels.count(def->attr("data-id")))
        << hw << ": no label for " << def->attr("data-roof");
    EXPECT_EQ(r.labels.at(def->attr("data-id"))->text,
              def->attr("data-name") + " " + def->attr("data-rate"));
    expect_labelled_or_noted(r);
  }
}

// Three machines compared: four link roofs of the compared machines found no spot and nothing
// said so. Each is labelled, clear of the other lines, or named in the note.
TEST(ChartLabelRoom, ComparedMachinesRoofsAreLabelledOrNoted) {
  test::TempDir dir;
  const auto run = run_cli({"plot", "a100-80gb", "--compare", "h100-sxm", "--compare", "mi300x",
                            "-o", dir.file("c.svg")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const RoofText r = roof_text(dir.file("c.svg"));
  size_t memory = 0;
  for (const XmlNode* l : r.lines) memory += l->has_class("memory-roof");
  EXPECT_EQ(memory, 3u + 3u + 4u);
  expect_labelled_or_noted(r);
  // Room is found for every one of the ten: the note names none.
  EXPECT_TRUE(r.noted.empty()) << r.noted.size() << " roofs noted, " << r.noted.begin()->first;
}

// The database example's first point, "index lookups (one 4 KiB page per 5 tuples)", found no
// spot for its whole name and had none; it is drawn cut with "…", its whole name the text's
// <title>, and each of the three points is named.
TEST(ChartLabelRoom, ALongPointNameIsCutNotLeftOut) {
  test::TempDir dir;
  const std::string ex = std::string(ROOFLINE_SOURCE_DIR) + "/examples/custom/db/";
  const auto run =
      run_cli({"plot", ex + "machine.json", ex + "points.json", "-o", dir.file("db.svg")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto root = test::parse_xml(test::slurp(dir.file("db.svg")));
  const auto labels = with_class(*root, "point-label");
  ASSERT_EQ(labels.size(), 3u);
  const std::string whole = "index lookups (one 4 KiB page per 5 tuples)";
  const XmlNode* cut = nullptr;
  for (const XmlNode* t : labels)
    if (t->text.rfind("index lookups", 0) == 0) cut = t;
  ASSERT_NE(cut, nullptr);
  const std::string ellipsis = "…";
  ASSERT_GT(cut->text.size(), ellipsis.size());
  EXPECT_EQ(cut->text.substr(cut->text.size() - ellipsis.size()), ellipsis);
  EXPECT_LT(cut->text.size(), whole.size());
  EXPECT_EQ(whole.rfind(cut->text.substr(0, cut->text.size() - ellipsis.size()), 0), 0u);
  ASSERT_EQ(cut->children.size(), 1u);
  EXPECT_EQ(cut->children.front()->name, "title");
  EXPECT_EQ(cut->children.front()->text, whole);
  // Clear of every roof label and of the plot's edges.
  const auto clip = test::plot_clip_rect(*root);
  const double left = number(clip, "x"), right = left + number(clip, "width");
  const double x = number(cut, "x"), w = report::text_width(cut->text, 12, true);
  const std::string anchor = cut->attr("text-anchor");
  const double lo = anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x;
  EXPECT_GE(lo, left);
  EXPECT_LE(lo + w, right);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
