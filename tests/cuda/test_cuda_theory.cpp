// Theoretical GPU roofs against datasheet peaks (roofs are derived — SMs × clock × work per SM
// per cycle; bus width × memory clock × 2). Runs on every build, GPU or not.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <map>

#include "cuda/devices.hpp"
#include "roofline/cuda.hpp"

using namespace roofline;
using namespace roofline::cuda;

namespace ROOFLINE_UNITY_ID {

using roofline::test::a100_80gb;
using roofline::test::h100_sxm;
using roofline::test::h200;

double peak(const RoofSet& s, const std::string& name) {
  const ComputeRoof* r = s.find_compute(name);
  if (!r) {
    ADD_FAILURE() << "no roof " << name;
    return 0;
  }
  return r->peak.value;
}

// |measured / expected - 1| ≤ tolerance
::testing::AssertionResult within(double value, double expected, double tolerance) {
  const double rel = value / expected - 1;
  if (std::abs(rel) <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << value << " is " << rel * 100 << "% from " << expected
                                       << " (allowed " << tolerance * 100 << "%)";
}

TEST(CudaTheory, A100MatchesItsDatasheet) {
  // NVIDIA A100 datasheet (SXM4 80GB): fp64 9.7, fp64 tensor 19.5, fp32 19.5, tf32 156,
  // fp16/bf16 312 TFLOP/s, int8 624 TOP/s, HBM2e 2039 GB/s; fp16 on CUDA cores 78 (whitepaper).
  const RoofSet s = theoretical_roofs(a100_80gb());
  EXPECT_TRUE(within(peak(s, "fp64 cuda cores"), 9.7e12, 0.01));
  EXPECT_TRUE(within(peak(s, "fp64 tensor"), 19.5e12, 0.01));
  EXPECT_TRUE(within(peak(s, "fp32 cuda cores"), 19.5e12, 0.01));
  EXPECT_TRUE(within(peak(s, "fp16 cuda cores"), 78e12, 0.01));
  EXPECT_TRUE(within(peak(s, "tf32 tensor"), 156e12, 0.01));
  EXPECT_TRUE(within(peak(s, "fp16 tensor"), 312e12, 0.01));
  EXPECT_TRUE(within(peak(s, "bf16 tensor"), 312e12, 0.01));
  EXPECT_TRUE(within(peak(s, "int8 tensor"), 624e12, 0.01));
  EXPECT_EQ(s.find_compute("fp8-e4m3 tensor"), nullptr);  // Ampere has no fp8 tensor cores
  ASSERT_NE(s.find_memory("HBM"), nullptr);
  EXPECT_TRUE(within(s.find_memory("HBM")->bandwidth.value, 2.039e12, 0.002));
  EXPECT_TRUE(s.find_compute("int8 tensor")->integer);
  EXPECT_EQ(s.find_compute("bf16 tensor")->provenance, Provenance::theoretical);
  EXPECT_EQ(s.default_compute, "fp32 cuda cores");
  EXPECT_EQ(s.default_memory, "HBM");
  // A100 fp32 ridge: 19.5 TFLOP/s over 2.039 TB/s ≈ 9.6 FLOP/byte.
  EXPECT_NEAR(peak(s, "fp32 cuda cores") / s.find_memory("HBM")->bandwidth.value, 9.56, 0.05);
}

TEST(CudaTheory, H100SxmVectorRoofsAtMaxBoost) {
  // H100 SXM datasheet at 1.98 GHz: fp64 34, fp64 tensor 67, fp32 67 TFLOP/s; HBM3 3.35 TB/s.
  const RoofSet s = theoretical_roofs(h100_sxm());
  EXPECT_TRUE(within(peak(s, "fp64 cuda cores"), 34e12, 0.02));
  EXPECT_TRUE(within(peak(s, "fp64 tensor"), 67e12, 0.01));
  EXPECT_TRUE(within(peak(s, "fp32 cuda cores"), 67e12, 0.01));
  EXPECT_TRUE(within(peak(s, "fp16 cuda cores"), 133.8e12, 0.01));
  EXPECT_TRUE(within(s.find_memory("HBM")->bandwidth.value, 3.35e12, 0.01));
  EXPECT_NE(s.find_compute("fp64 tensor")->formula.find("132 SMs"), std::string::npos);
}

TEST(CudaTheory, H100SxmTensorRoofsAtTheDatasheetClock) {
  // NVIDIA quotes H100 SXM dense tensor peaks at 1.83 GHz: tf32 494.7, fp16/bf16 989.4,
  // fp8 1978.9 TFLOP/s, int8 1978.9 TOP/s. At the 1.98 GHz maximum the same formula gives 8%
  // more: the roof scales with the clock the GPU really runs.
  const RoofSet s = theoretical_roofs(h100_sxm(1.83e9));
  EXPECT_TRUE(within(peak(s, "tf32 tensor"), 494.7e12, 0.005));
  EXPECT_TRUE(within(peak(s, "bf16 tensor"), 989.4e12, 0.005));
  EXPECT_TRUE(within(peak(s, "fp16 tensor"), 989.4e12, 0.005));
  EXPECT_TRUE(within(peak(s, "fp8-e4m3 tensor"), 1978.9e12, 0.005));
  EXPECT_TRUE(within(peak(s, "int8 tensor"), 1978.9e12, 0.005));
  const RoofSet fast = theoretical_roofs(h100_sxm(1.98e9));
  EXPECT_NEAR(peak(fast, "bf16 tensor") / peak(s, "bf16 tensor"), 1.98 / 1.83, 1e-12);
  // H100 bf16 ridge: 989.4 TFLOP/s over 3.35 TB/s ≈ 295 FLOP/byte.
  EXPECT_NEAR(peak(s, "bf16 tensor") / s.find_memory("HBM")->bandwidth.value, 295, 2);
}

TEST(CudaTheory, H200HbmIsBusWidthTimesClockTimesTwo) {
  // H200: 6144-bit HBM3e; datasheet 4.8 TB/s. 6144 / 8 × 3.201 GHz × 2 = 4.917 TB/s (2.4% above
  // the rounded datasheet figure).
  const RoofSet s = theoretical_roofs(h200());
  EXPECT_DOUBLE_EQ(s.find_memory("HBM")->bandwidth.value, 6144.0 / 8 * 3.201e9 * 2);
  EXPECT_TRUE(within(s.find_memory("HBM")->bandwidth.value, 4.8e12, 0.03));
  EXPECT_EQ(s.find_memory("HBM")->size_bytes, 141e9);
  EXPECT_TRUE(within(peak(s, "fp64 tensor"), 67e12, 0.01));
  EXPECT_NE(s.find_memory("HBM")->formula.find("6144 bit"), std::string::npos);
}

TEST(CudaTheory, BandwidthFormulas) {
  EXPECT_DOUBLE_EQ(dram_bandwidth(5120, Hertz(1.593e9)).value, 5120.0 / 8 * 1.593e9 * 2);
  // GDDR: RTX 3090 reports 9.751 GHz on a 384-bit bus: 936 GB/s, its datasheet figure.
  EXPECT_TRUE(within(dram_bandwidth(384, Hertz(9.751e9)).value, 936e9, 0.001));
  EXPECT_EQ(dram_level_name(384), "DRAM");
  EXPECT_EQ(dram_level_name(5120), "HBM");
  // Shared memory: 32 banks × 4 bytes per cycle per SM; A100 108 SMs × 1.41 GHz = 19.5 TB/s.
  EXPECT_DOUBLE_EQ(shared_bandwidth(108, Hertz(1.41e9)).value, 108 * 128 * 1.41e9);
  const RoofSet s = theoretical_roofs(a100_80gb());
  ASSERT_NE(s.find_memory("L1"), nullptr);
  ASSERT_NE(s.find_memory("shared"), nullptr);
  EXPECT_DOUBLE_EQ(s.find_memory("shared")->bandwidth.value, 108 * 128 * 1.41e9);
  EXPECT_EQ(s.find_memory("L1")->kind, "cache");
}

TEST(CudaTheory, UnitRatesPerArchitecture) {
  // Hopper doubles Ampere's per-SM tensor rate; consumer Ada has fp64 at 1/64 of fp32.
  auto rate = [](int major, int minor, const std::string& name) {
    for (const UnitRate& r : unit_rates(major, minor))
      if (roof_name(r.precision, r.unit) == name) return r.work_per_clock_per_sm;
    return 0.0;
  };
  EXPECT_EQ(rate(9, 0, "bf16 tensor"), 2 * rate(8, 0, "bf16 tensor"));
  EXPECT_EQ(rate(8, 9, "fp32 cuda cores") / rate(8, 9, "fp64 cuda cores"), 64);
  EXPECT_EQ(rate(8, 9, "bf16 tensor"), 0);  // per-SKU, not tabulated
  EXPECT_TRUE(unit_rates(5, 2).empty());
  for (const UnitRate& r : unit_rates(9, 0)) EXPECT_FALSE(r.source.empty()) << r.precision;
}

TEST(CudaTheory, UnknownArchitectureStillHasMemoryRoofs) {
  DeviceProps p = a100_80gb();
  p.cc_major = 5;
  p.cc_minor = 2;
  const RoofSet s = theoretical_roofs(p);
  EXPECT_TRUE(s.compute.empty());
  EXPECT_NE(s.find_memory("HBM"), nullptr);
  EXPECT_EQ(s.default_compute, "");
}

TEST(CudaTheory, RejectsMissingProperties) {
  DeviceProps p = a100_80gb();
  p.sm_clock_hz = 0;
  try {
    theoretical_roofs(p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sm_clock_hz"), std::string::npos) << e.what();
  }
  p = a100_80gb();
  p.bus_width_bits = 0;
  EXPECT_THROW(theoretical_roofs(p), InputError);
}

TEST(CudaTheory, TensorTheoryAtTheClockSustainedUnderLoad) {
  // cudaDevAttrClockRate is the 1.98 GHz maximum; NVIDIA's 989.4 TFLOP/s bf16 dense is at the
  // 1.83 GHz the chip holds under tensor-core load. With the clock NVML read during the GEMMs,
  // the theory is the datasheet's; roofs without a reading stay at the maximum.
  const std::map<std::string, ClockUnderLoad> clocks = {
      {"bf16 tensor", {1.83e9, 25, "bf16 GEMM 8192³"}},
      {"fp8-e4m3 tensor", {1.83e9, 20, "fp8-e4m3 GEMM 8192³"}},
      {"shared", {1.755e9, 12, "shared-memory read"}}};
  const RoofSet s = theoretical_roofs(h200(), clocks);
  EXPECT_TRUE(within(peak(s, "bf16 tensor"), 989.4e12, 0.0005));
  EXPECT_TRUE(within(peak(s, "fp8-e4m3 tensor"), 1978.9e12, 0.0005));
  EXPECT_TRUE(within(peak(s, "fp16 tensor"), 132 * 1.98e9 * 4096, 1e-12));  // no reading
  EXPECT_TRUE(within(peak(s, "fp64 tensor"), 67e12, 0.01));
  EXPECT_DOUBLE_EQ(s.find_memory("shared")->bandwidth.value, 132 * 128 * 1.755e9);
  EXPECT_DOUBLE_EQ(s.find_memory("L1")->bandwidth.value, 132 * 128 * 1.98e9);
  const std::string& f = s.find_compute("bf16 tensor")->formula;
  EXPECT_NE(f.find("1.83 GHz"), std::string::npos) << f;
  EXPECT_NE(f.find("bf16 GEMM 8192³"), std::string::npos) << f;
  EXPECT_NE(f.find("25 samples"), std::string::npos) << f;
  EXPECT_NE(f.find("maximum 1.98 GHz"), std::string::npos) << f;
  EXPECT_EQ(s.find_compute("fp16 tensor")->formula.find("under"), std::string::npos);
  // The same formula as without readings when none is given.
  EXPECT_EQ(theoretical_roofs(h200(), {}).find_compute("bf16 tensor")->formula,
            theoretical_roofs(h200()).find_compute("bf16 tensor")->formula);
  EXPECT_THROW(theoretical_roofs(h200(), {{"bf16 tensor", {0, 3, "x"}}}), InputError);
  EXPECT_THROW(theoretical_roofs(h200(), {{"bf16 tensor", {std::nan(""), 3, "x"}}}), InputError);
}
}  // namespace ROOFLINE_UNITY_ID
