// What `roofline import` makes of an importer's points: judged against a machine's roofs or only
// listed (judge_import), refused when there is none (require_import_points), its --json document
// (import_json_text) and its text (render_import_text).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/text.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {

MachineDocument catalogue_machine(const std::string& name) {
  return load_machine_file(std::filesystem::path(ROOFLINE_SOURCE_DIR) / "data" / "hardware" /
                           (name + ".json"));
}

Point kernel(const std::string& name, std::vector<LevelTraffic> traffic) {
  Point p;
  p.name = name;
  p.work = Work(2e9);
  p.time = Seconds(1e-3);
  p.precision = "fp32";
  p.traffic = std::move(traffic);
  p.note = "from " + name + "'s row";
  return p;
}

/// Three kernels: two with DRAM and L7 traffic, one with L7 traffic alone (no level a GPU has).
ImportResult three_kernels() {
  ImportResult res;
  res.doc.points = {kernel("k1", {{"DRAM", Bytes(1e8)}, {"L7", Bytes(1e9)}}),
                    kernel("k2", {{"DRAM", Bytes(2e8)}, {"L7", Bytes(1e9)}}),
                    kernel("k3", {{"L7", Bytes(1e9)}})};
  res.notes = {"read 3 kernels"};
  return res;
}

TEST(ImportJudge, PointsAreFittedToTheRoofsAndTheirNotesGrouped) {
  const MachineDocument v100 = catalogue_machine("v100-sxm2");
  ImportResult res = three_kernels();
  const JudgedPoints fit = judge_import(res, &v100.roofs, "");
  EXPECT_EQ(fit.judged, (std::vector<bool>{true, true, false}));
  // DRAM read as the machine's main memory, L7 left out; k3 keeps its traffic, not judged.
  ASSERT_EQ(fit.fitted[0].traffic.size(), 1u);
  EXPECT_EQ(fit.fitted[0].traffic[0].level, "");
  EXPECT_EQ(fit.fitted[0].traffic[0].bytes.value, 1e8);
  EXPECT_EQ(fit.fitted[2].traffic[0].level, "L7");
  // The document keeps every level, and names the machine.
  EXPECT_EQ(res.doc.points[0].traffic.size(), 2u);
  EXPECT_EQ(res.doc.machine, "v100-sxm2");
  EXPECT_EQ(res.notes, (std::vector<std::string>{
                           "read 3 kernels",
                           "3 points (k1, k2, k3): L7 traffic not judged (kept in the document): "
                           "the machine has no L7 roof"}));
}

TEST(ImportJudge, WithoutRoofsEveryPointIsListedAsItIs) {
  ImportResult res = three_kernels();
  const JudgedPoints fit = judge_import(res, nullptr, "");
  EXPECT_EQ(fit.judged, (std::vector<bool>{false, false, false}));
  ASSERT_EQ(fit.fitted.size(), 3u);
  EXPECT_EQ(fit.fitted[1].traffic.size(), 2u);
  EXPECT_EQ(res.notes, std::vector<std::string>{"read 3 kernels"});
  EXPECT_EQ(res.doc.machine, "");
}

TEST(ImportJudge, PrecisionNamesTheRoofOfEveryPoint) {
  const MachineDocument v100 = catalogue_machine("v100-sxm2");
  ImportResult res = three_kernels();
  const JudgedPoints fit = judge_import(res, &v100.roofs, "fp64");
  EXPECT_EQ(res.notes.at(1),
            "judged against roof 'fp64 vector' (--precision fp64) in place of the precision fp32 "
            "the counters give");
  for (const auto& p : res.doc.points) {
    EXPECT_EQ(p.precision, "fp64");
    EXPECT_EQ(p.work_unit, "FLOP");  // the counters' unit stays with W
  }
  EXPECT_EQ(fit.fitted[0].precision, "fp64");
  // A roof that counts other work than the counters: refused, naming the points.
  const MachineDocument a100 = catalogue_machine("a100-80gb");
  ImportResult other = three_kernels();
  try {
    judge_import(other, &a100.roofs, "int8 tensor");
    ADD_FAILURE() << "FLOP judged against an OP/s roof";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--precision int8 tensor: the counters of 3 points, 'k1' (fp32, FLOP), "
                         "'k2' (fp32, FLOP), 'k3' (fp32, FLOP), count other work than the roof: ",
                         0),
              0u)
        << what;
  }
}

TEST(ImportJudge, AnImportWithoutPointsGivesTheReasons) {
  ImportResult res;
  EXPECT_NO_THROW(require_import_points(three_kernels(), "a.csv"));
  try {
    require_import_points(res, "a.csv");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "a.csv: no point could be made from it");
  }
  for (int i = 1; i <= 7; ++i) res.notes.push_back("reason " + std::to_string(i));
  try {
    require_import_points(res, "a.csv, b.csv");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a.csv, b.csv: no point could be made from it:\n  reason 1\n  reason 2\n  reason 3\n"
              "  reason 4\n  reason 5\n  ... (2 more)");
  }
}

TEST(ImportJudge, JsonHasTheHeadThePointsAndTheirAnalysis) {
  const MachineDocument v100 = catalogue_machine("v100-sxm2");
  ImportResult res = three_kernels();
  const JudgedPoints fit = judge_import(res, &v100.roofs, "");
  const std::string text = import_json_text(res, "ncu", {"a.csv", "b.csv"}, &v100.roofs, fit);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j.at("source"), "ncu");
  EXPECT_EQ(j.at("file"), "a.csv");
  EXPECT_EQ(j.at("files"), (std::vector<std::string>{"a.csv", "b.csv"}));
  EXPECT_EQ(j.at("notes"), res.notes);
  EXPECT_EQ(j.at("machine"), "v100-sxm2");
  ASSERT_EQ(j.at("points").size(), 3u);
  EXPECT_EQ(j.at("points")[1], point_to_json(res.doc.points[1]));
  ASSERT_EQ(j.at("analysis").size(), 3u);
  EXPECT_EQ(j.at("analysis")[0],
            analysis_to_json(fit.fitted[0], diagnose(fit.fitted[0], v100.roofs), v100.roofs));
  EXPECT_TRUE(j.at("analysis")[2].at("diagnosis").is_null());
  EXPECT_EQ(j.at("analysis")[2].at("machine"), "v100-sxm2");
  // Written as json_text_with_arrays writes it: the same bytes.
  PointsDocument head_doc = res.doc;
  head_doc.points.clear();
  nlohmann::json head = points_to_json(head_doc);
  head.erase("points");
  head["source"] = "ncu";
  head["file"] = "a.csv";
  head["files"] = {"a.csv", "b.csv"};
  head["notes"] = res.notes;
  EXPECT_EQ(text.rfind(json_text(head).substr(0, json_text(head).size() - 2), 0), 0u);
  // One file: no "files"; no roofs: no analysis.
  ImportResult alone = three_kernels();
  const nlohmann::json k = nlohmann::json::parse(
      import_json_text(alone, "likwid", {"run.txt"}, nullptr, judge_import(alone, nullptr, "")));
  EXPECT_FALSE(k.contains("files"));
  EXPECT_FALSE(k.contains("analysis"));
  EXPECT_EQ(k.at("source"), "likwid");
}

TEST(ImportJudge, TextListsThePointsJudgedOrNot) {
  const MachineDocument v100 = catalogue_machine("v100-sxm2");
  ImportResult res = three_kernels();
  const JudgedPoints fit = judge_import(res, &v100.roofs, "");
  const std::string t = render_import_text("ncu", {"a.csv", "b.csv"}, res.doc.points, res.notes,
                                           &v100.roofs, fit, false);
  const auto& p = res.doc.points;
  EXPECT_EQ(t,
            "ncu import of a.csv, b.csv: 3 points\n"
            "  read 3 kernels\n"
            "  3 points (k1, k2, k3): L7 traffic not judged (kept in the document): the "
            "machine has no L7 roof\n"
            "\n" +
                render_point_analysis(fit.fitted[0], diagnose(fit.fitted[0], v100.roofs),
                                      v100.roofs, false) +
                "  source: from k1's row\n\n" +
                render_point_analysis(fit.fitted[1], diagnose(fit.fitted[1], v100.roofs),
                                      v100.roofs, false) +
                "  source: from k2's row\n\n" + render_point_brief(p[2]) +
                "  not judged: no roof for its precision or level (see notes)\n");
  // Without roofs: each point's brief form, nothing said of judging; one point is "1 point".
  ImportResult one;
  one.doc.points = {p[0]};
  const std::string u = render_import_text("dcgm", {"dmon.log"}, one.doc.points, {}, nullptr,
                                           judge_import(one, nullptr, ""), false);
  EXPECT_EQ(u, "dcgm import of dmon.log: 1 point\n\n" + render_point_brief(p[0]));
}

}  // namespace ROOFLINE_UNITY_ID
