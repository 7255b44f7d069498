// A point from 80% of its roof up to a higher touching threshold is just below that roof
// (docs/model.md §6): its own verdict, legend entry and colour in every renderer, where its title
// said "just below" beside a far-below verdict, orange triangle and "none yet" Step 2.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include "report/xml_lite.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using test::XmlNode;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

/// The fixture machine (DRAM 21 GB/s) with one point at 85% of its DRAM roof: I = 1e9/1.785e10
/// FLOP/byte is left of the ridge, and P/attainable = Q/(β·T) = 1.785e10 / 21e9 = 0.85.
ReportInput just_below_input(double touching = 0.9) {
  ReportInput in;
  in.title = "just below";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  Point p;
  p.name = "stream";
  p.work = Work(1e9);
  p.traffic = {{"DRAM", Bytes(1.785e10)}};
  p.time = Seconds(1);
  p.precision = "fp64";
  in.points = {p};
  in.diagnosis.touching = touching;
  return in;
}

constexpr const char* kWine = "#882255";
constexpr const char* kStep2 =
    "just below the slanted DRAM roof, not yet touching it: at 85% of it, 1.18x headroom";

TEST(JustBelow, FixturePointIsInTheBand) {
  const ReportInput in = just_below_input();
  const Diagnosis d = diagnose(in.points[0], in.machines[0].roofs, in.diagnosis);
  EXPECT_NEAR(d.attainment, 0.85, 1e-12);
  EXPECT_EQ(d.verdict, Verdict::just_below);
  // At the default threshold it touches: the band is empty.
  EXPECT_EQ(diagnose(in.points[0], in.machines[0].roofs).verdict, Verdict::memory_bound);
}

TEST(JustBelow, SvgDrawsAWineDownwardTriangleWithItsLegendEntry) {
  const auto root = test::parse_xml(render_svg(just_below_input()));
  const auto points = root->find_all([](const XmlNode& n) { return n.has_class("point"); });
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(points[0]->has_class("verdict-just-below")) << points[0]->attr("class");
  EXPECT_EQ(points[0]->attr("data-verdict"), "just-below");
  const auto marks = points[0]->find_all([](const XmlNode& n) { return n.has_class("marker"); });
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0]->attr("fill"), kWine);
  // The legend names the verdict beside a wine swatch, and no far-below entry.
  const auto legend = root->find_all([](const XmlNode& n) { return n.has_class("legend"); });
  ASSERT_EQ(legend.size(), 1u);
  bool named = false, far = false;
  for (const auto& item : legend[0]->children) {
    std::string label, fill;
    for (const XmlNode* t :
         item->find_all([](const XmlNode& n) { return n.has_class("legend-text"); }))
      label += t->text;
    for (const XmlNode* m : item->find_all([](const XmlNode& n) { return n.has_class("marker"); }))
      fill = m->attr("fill");
    if (label == "just-below") {
      named = true;
      EXPECT_EQ(fill, kWine);
      // Its apex below its centre (y = 0 in the swatch): M13 6.6 (5.5 × 1.2), a downward triangle.
      const auto path = item->find_all([](const XmlNode& n) { return n.name == "path"; });
      ASSERT_EQ(path.size(), 1u);
      EXPECT_EQ(path[0]->attr("d").rfind("M13 6.6L", 0), 0u) << path[0]->attr("d");
    }
    far = far || label == "far-below";
  }
  EXPECT_TRUE(named);
  EXPECT_FALSE(far);
}

TEST(JustBelow, HtmlTooltipAndTableSayJustBelowAndNameTheRoof) {
  const std::string html = render_html(just_below_input());
  const std::string open = "id=\"roofline-data\">";
  const auto a = html.find(open) + open.size();
  const auto data = nlohmann::json::parse(html.substr(a, html.find("</script>", a) - a));
  ASSERT_EQ(data["points"].size(), 1u);
  EXPECT_EQ(data["points"][0]["verdict"], "just-below");
  EXPECT_EQ(data["points"][0]["colour"], kWine);
  EXPECT_EQ(data["points"][0]["step2"], std::string("which roof? ") + kStep2);
  EXPECT_NE(html.find("<td data-label=\"verdict\">just-below</td>"), std::string::npos);
}

TEST(JustBelow, TerminalLegendAndTableNameItInItsOwnColour) {
  const std::string plain = render_terminal(just_below_input(), 100, false);
  EXPECT_NE(plain.find("just-below: A stream"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("far-below"), std::string::npos) << plain;
  const std::string coloured = render_terminal(just_below_input(), 100, true);
  EXPECT_NE(coloured.find("just-below: \x1b[34;1mA\x1b[0m"), std::string::npos) << coloured;
}

TEST(JustBelow, CsvAndJsonExportsCarryTheVerdict) {
  const ReportInput in = just_below_input();
  const std::string csv = render_csv(in);
  EXPECT_NE(csv.find(",just-below,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("far-below"), std::string::npos) << csv;
  const nlohmann::json j = render_json(in);
  EXPECT_EQ(j["points"][0]["diagnosis"]["verdict"], "just-below");
}

TEST(JustBelow, PointAnalysisStep2NamesTheRoofAndHowFarBelowItIs) {
  const ReportInput in = just_below_input();
  const RoofSet& roofs = in.machines[0].roofs;
  const std::string text = render_point_analysis(
      in.points[0], diagnose(in.points[0], roofs, in.diagnosis), roofs, false);
  EXPECT_NE(text.find(std::string("Step 2 — which roof? ") + kStep2 + "\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("none yet"), std::string::npos) << text;
  // Coloured as its own verdict, not far-below's yellow.
  const std::string coloured =
      render_point_analysis(in.points[0], diagnose(in.points[0], roofs, in.diagnosis), roofs, true);
  EXPECT_NE(coloured.find("Diagnosis: \x1b[34;1mjust below the slanted DRAM roof"),
            std::string::npos)
      << coloured;
}

// Below 80% nothing changes: a 75% point is far-below at a threshold of 0.9, in orange.
TEST(JustBelow, Below80PercentStaysFarBelow) {
  ReportInput in = just_below_input();
  in.points[0].traffic = {{"DRAM", Bytes(0.75 * 21e9)}};  // Q/(β·T) = 0.75
  const auto root = test::parse_xml(render_svg(in));
  const auto points = root->find_all([](const XmlNode& n) { return n.has_class("point"); });
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0]->attr("data-verdict"), "far-below");
  const std::string text = render_point_analysis(
      in.points[0], diagnose(in.points[0], in.machines[0].roofs, in.diagnosis),
      in.machines[0].roofs, false);
  EXPECT_NE(text.find("Step 2 — which roof? none yet (left/right position is not meaningful)"),
            std::string::npos)
      << text;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
