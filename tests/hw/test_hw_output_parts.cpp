// The parts of `hw compare` and `hw ridges` output made in report's hw_output and io's
// json_out: a comparison's label, its JSON with the point's name, and the devices the ridge
// table leaves out.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include "roofline/compare.hpp"
#include "roofline/hardware.hpp"
#include "roofline/hw_output.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {

TEST(HwOutputParts, ComparisonLabelNamesPointLevelAndPrecision) {
  EXPECT_EQ(comparison_label("gemm", "DRAM", "bf16"), "gemm at DRAM, precision bf16");
  EXPECT_EQ(comparison_label("gemm", "DRAM", ""), "gemm at DRAM");
  EXPECT_EQ(comparison_label("gemm", "", "fp32"), "gemm, precision fp32");
  EXPECT_EQ(comparison_label("gemm", "", ""), "gemm");
  // --at: no point, so no level (the intensity is the one given), the precision alone.
  EXPECT_EQ(comparison_label("", "L2", "bf16"), "precision bf16");
  EXPECT_EQ(comparison_label("", "L2", ""), "");
  EXPECT_EQ(comparison_label("", "", ""), "");
}

TEST(HwOutputParts, ComparisonJsonNamesThePointWhenThereIsOne) {
  const MachineDocument v100 = load_machine_file(std::filesystem::path(ROOFLINE_SOURCE_DIR) /
                                                 "data" / "hardware" / "v100-sxm2.json");
  const MachineDocument h100 = load_machine_file(std::filesystem::path(ROOFLINE_SOURCE_DIR) /
                                                 "data" / "hardware" / "h100-sxm.json");
  const std::vector<const RoofSet*> sets = {&v100.roofs, &h100.roofs};
  const Comparison c = compare_at(sets, Intensity(1), "fp32");
  const nlohmann::json plain = comparison_to_json(c);
  EXPECT_FALSE(plain.contains("point"));
  const nlohmann::json named = comparison_to_json(c, "stream triad");
  EXPECT_EQ(named.at("point"), "stream triad");
  // The rest is the same document.
  nlohmann::json without = named;
  without.erase("point");
  EXPECT_EQ(without, plain);
  EXPECT_DOUBLE_EQ(named.at("machines").at(1).at("ratio").get<double>(), 3.35 / 0.9);
}

TEST(HwOutputParts, RidgeTableNamesTheDevicesItLeavesOut) {
  std::vector<HardwareSummary> entries(3);
  entries[0].name = "a100";
  entries[1].name = "npu-only\x1b[2J";
  entries[2].name = "tpu-x";
  const std::vector<RidgeRow> rows = {{&entries[0], {}}};
  const std::vector<std::string> left_out = ridge_rows_left_out(entries, rows);
  ASSERT_EQ(left_out, (std::vector<std::string>{"npu-only\x1b[2J", "tpu-x"}));
  const std::vector<PrecisionGroup> groups = {{"fp64", {"fp64"}}, {"bf16/fp16", {"bf16", "fp16"}}};
  // The names escaped for the terminal, the groups as the table's columns.
  EXPECT_EQ(render_ridges_left_out(left_out, groups),
            "not listed (no dense roof of fp64, bf16/fp16): npu-only\\u001b[2J, tpu-x\n");
  EXPECT_EQ(render_ridges_left_out({}, groups), "");
  EXPECT_TRUE(
      ridge_rows_left_out(entries, {{&entries[0], {}}, {&entries[1], {}}, {&entries[2], {}}})
          .empty());
}

TEST(HwOutputParts, RidgeTableAtALevelNamesTheDevicesWithoutItOnItsOwnLine) {
  // --level NVLink: a device without that memory roof is named once, on the level's line, not
  // also as one without a dense roof.
  std::vector<HardwareSummary> entries(3);
  entries[0].name = "h100";
  entries[1].name = "mi250x";
  entries[2].name = "l4\x1b[2J";
  for (auto* e : {&entries[0], &entries[2]}) {
    MemoryRoof m;
    m.level = e == &entries[0] ? "NVLink" : "GDDR6";
    e->machine.roofs.memory.push_back(m);
  }
  MemoryRoof hbm;
  hbm.level = "HBM2e";
  entries[1].machine.roofs.memory.push_back(hbm);
  // Only h100 has a row, and l4 lacks NVLink as mi250x does.
  const std::vector<RidgeRow> rows = {{&entries[0], {}}};
  EXPECT_TRUE(ridge_rows_left_out(entries, rows, "NVLink").empty());
  EXPECT_EQ(render_ridges_not_at_level(entries, "NVLink"),
            "not listed (no memory roof 'NVLink'): mi250x, l4\\u001b[2J\n");
  // No level asked: nothing is left out for want of one, and the dense-roof list is the old one.
  EXPECT_EQ(render_ridges_not_at_level(entries, ""), "");
  EXPECT_EQ(ridge_rows_left_out(entries, rows, ""),
            (std::vector<std::string>{"mi250x", "l4\x1b[2J"}));
}

TEST(HwOutputParts, RidgeTableNamesTheRoofItTook) {
  // --precision fp32: one machine has a roof named "fp32" (taken by its name), the other only
  // "fp32 vector" (its highest dense roof of fp32); the heading says both, the footnote of an
  // integer cell no "highest dense" roof, and a default group stays "highest dense roof".
  std::vector<HardwareSummary> entries(2);
  entries[0].name = "named";
  entries[1].name = "vector";
  ComputeRoof fp32;
  fp32.name = "fp32";
  fp32.precision = "fp32";
  fp32.peak = WorkRate(1e12);
  entries[0].machine.roofs.compute.push_back(fp32);
  fp32.name = "fp32 vector";
  entries[1].machine.roofs.compute.push_back(fp32);
  MemoryRoof dram;
  dram.level = "DRAM";
  dram.bandwidth = ByteRate(1e11);
  for (auto& e : entries) e.machine.roofs.memory.push_back(dram);
  const std::vector<PrecisionGroup> groups = {precision_group("fp32")};
  const std::vector<RidgeRow> rows = ridge_rows(entries, groups);
  ASSERT_EQ(rows.size(), 2u);
  const std::string text = render_ridge_rows(rows, groups);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "Ridge points I* = peak / bandwidth (FLOP/byte; OP/byte for integer roofs), roof "
            "'fp32' (else the highest dense roof of fp32) against main memory, by release year "
            "(docs/model.md §8)");
  // Only the machine with the roof by name: no "else".
  const std::vector<RidgeRow> first = {rows[0]};
  const std::string one = render_ridge_rows(first, groups);
  EXPECT_NE(one.find("integer roofs), roof 'fp32' against main memory"), std::string::npos) << one;
  // Only the one by precision: the highest dense roof, said as the default groups say it.
  const std::vector<RidgeRow> second = {rows[1]};
  const std::string dense = render_ridge_rows(second, groups);
  EXPECT_NE(dense.find("integer roofs), highest dense roof of each precision against main memory"),
            std::string::npos)
      << dense;
  // At a --level: named in the heading, where it said "main memory".
  EXPECT_NE(render_ridge_rows(second, groups, "NVLink")
                .find("highest dense roof of each precision against NVLink, by release year"),
            std::string::npos);
  // Left out under a --precision value that names a roof: no roof of that name; under one that
  // names precisions, as the default groups are said, whether or not they are default groups.
  EXPECT_EQ(render_ridges_left_out({"npu"}, {precision_group("fp16 tensor sparse")}),
            "not listed (no roof named fp16 tensor sparse): npu\n");
  EXPECT_EQ(render_ridges_left_out({"npu"}, {precision_group("bf16")}),
            "not listed (no dense roof of bf16): npu\n");
  EXPECT_EQ(
      render_ridges_left_out(
          {"npu"}, {precision_group("int8"), precision_group("fp16 tensor sparse\x1b[2J")}),
      "not listed (no dense roof of int8, no roof named fp16 tensor sparse\\u001b[2J): npu\n");
  // A precision of the default groups: as the default table says it.
  EXPECT_EQ(render_ridges_left_out({"npu"}, groups), "not listed (no dense roof of fp32): npu\n");
  EXPECT_EQ(ridge_trajectory(rows, groups, "", "").subtitle,
            "I* = π/β of the roof 'fp32' (else the highest dense roof of fp32) against main "
            "memory (docs/model.md §8)");
}

}  // namespace ROOFLINE_UNITY_ID
