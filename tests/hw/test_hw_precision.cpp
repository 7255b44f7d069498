// One rule for --precision in `hw ridges` and `hw compare` (select_compute_roof), and comparing
// machines on named roofs (compare_roofs_at).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include "roofline/compare.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {
MachineDocument load(const std::string& name) {
  return load_machine_file(std::filesystem::path(ROOFLINE_SOURCE_DIR) / "data" / "hardware" /
                           (name + ".json"));
}

// Roofs given as numbers stand for every precision and only for one, as RoofSet::select_compute
// takes them: a chart at precision "banana" was drawn and its points judged on the given peak.
TEST(HwPrecision, GivenRoofsStandForPrecisionsOnly) {
  const RoofSet given = given_roofs({"given", WorkRate(1e12), ByteRate(1e11), "", "DRAM"});
  EXPECT_EQ(select_compute_roof(given, "fp16").name, "peak");
  EXPECT_EQ(select_compute_roof(given, "bf16/fp16").name, "peak");
  EXPECT_EQ(select_compute_roof(given, "fp80").name, "peak");
  for (const char* bad : {"banana", "bf16/banana"}) {
    try {
      select_compute_roof(given, bad);
      ADD_FAILURE() << bad << " was taken for a precision";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("names no roof and no precision"), std::string::npos)
          << e.what();
    }
  }
}

TEST(HwPrecision, SelectComputeRoofFollowsRidgeFor) {
  const MachineDocument v100 = load("v100-sxm2"), h100 = load("h100-sxm");
  EXPECT_EQ(select_compute_roof(v100.roofs, "bf16/fp16").name, "fp16 tensor");
  EXPECT_EQ(select_compute_roof(h100.roofs, "bf16/fp16").name, "bf16 tensor");
  EXPECT_EQ(select_compute_roof(h100.roofs, "fp16").name, "fp16 tensor");  // not fp16 vector
  EXPECT_EQ(select_compute_roof(h100.roofs, "").name, "fp32 vector");      // the default
  // A sparse roof only when named; a precision never picks one.
  EXPECT_EQ(select_compute_roof(h100.roofs, "fp8 tensor sparse").name, "fp8 tensor sparse");
  EXPECT_EQ(select_compute_roof(h100.roofs, "fp8").name, "fp8 tensor");
  // The ridge table takes a sparse roof by its name too (docs/hardware.md), as select_compute_roof.
  EXPECT_EQ(ridge_for(h100.roofs, precision_group("fp8 tensor sparse"))->compute_roof,
            "fp8 tensor sparse");
  EXPECT_EQ(ridge_for(h100.roofs, precision_group("fp8"))->compute_roof, "fp8 tensor");
  // The same roof as the ridge table's column.
  EXPECT_EQ(ridge_for(v100.roofs, precision_group("bf16/fp16"))->compute_roof,
            select_compute_roof(v100.roofs, "bf16/fp16").name);
  try {
    select_compute_roof(load("tpu-v5e").roofs, "fp64/fp32");
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "machine 'tpu-v5e' has no compute roof for 'fp64/fp32' (dense roofs: bf16 mxu, "
                 "int8 mxu)");
  }
}

TEST(HwPrecision, CompareRoofsAtUsesTheNamedRoofOfEachMachine) {
  const MachineDocument v100 = load("v100-sxm2"), h100 = load("h100-sxm");
  const std::vector<const RoofSet*> sets = {&v100.roofs, &h100.roofs};
  const Comparison c = compare_roofs_at(sets, Intensity(1000), {"fp16 tensor", "bf16 tensor"});
  EXPECT_EQ(c.machines[0].compute_roof, "fp16 tensor");
  EXPECT_DOUBLE_EQ(c.machines[0].attainable.value, 125e12);  // min(125 T, 0.9 TB/s x 1000)
  EXPECT_DOUBLE_EQ(c.machines[1].attainable.value, 989.4e12);
  EXPECT_DOUBLE_EQ(c.ratios[1], 989.4 / 125);
  EXPECT_EQ(c.regimes[1], Regime::peak);
  EXPECT_THROW(compare_roofs_at(sets, Intensity(1), {"fp16 tensor"}), InputError);
  EXPECT_THROW(compare_roofs_at(sets, Intensity(1), {"fp16 tensor", "bf16 mxu"}), InputError);
  // compare_at still resolves one precision on every machine.
  EXPECT_DOUBLE_EQ(compare_at(sets, Intensity(1), "fp32").ratios[1], 3.35 / 0.9);
}
}  // namespace ROOFLINE_UNITY_ID
