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

}  // namespace ROOFLINE_UNITY_ID
