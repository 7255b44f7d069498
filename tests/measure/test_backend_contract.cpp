// The contract every measurement backend keeps (engine.hpp), checked over every registered
// backend (TEST_P over engine::backends()): its document comes from engine::assemble, and each
// measured roof follows the one statistics policy (statistics.hpp) — the roof is the sustained
// sample, the order statistics are ordered, the noisy flag is the policy's, a memory roof is its
// best mix, the counts in measurement agree. A backend whose device is absent here (CUDA on a
// machine without a GPU) is checked on its host-side path with a recorded-shape measurement; a
// new backend fails until it is given one.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <string>

#include "cuda/devices.hpp"
#include "roofline/cpu_backend.hpp"
#include "roofline/cuda.hpp"
#include "roofline/engine.hpp"
#include "roofline/error.hpp"
#include "roofline/statistics.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

/// The CUDA backend's document without a device: an H200's properties and a measurement of the
/// shape the device path records (rates per repetition), through the same assemble_document
/// that cuda::measure calls.
MachineDocument cuda_host_side_document() {
  const cuda::DeviceProps p = test::h200();
  const std::map<std::string, cuda::ClockUnderLoad> clocks = {
      {"bf16 tensor", {1.83e9, 25, "bf16 GEMM 8192³"}}};
  cuda::Measurements m;
  m.compute.push_back({"bf16",
                       "tensor",
                       false,
                       "cuBLASLt matmul",
                       {7.9e14, 8.2e14, 8.1e14, 8.15e14, 6.0e14},
                       {},
                       clocks.at("bf16 tensor")});
  m.compute.push_back(
      {"fp32", "cuda cores", false, "FMA kernel", {6.6e13, 6.61e13, 6.62e13}, {}, std::nullopt});
  m.memory.push_back(
      {"HBM",
       "memory",
       "read kernel",
       std::nullopt,
       "load",
       {{"load", {4.3e12, 4.4e12, 4.35e12, 4.38e12}}, {"copy", {4.1e12, 4.2e12, 4.0e12}}},
       std::nullopt});
  return cuda::assemble_document(p, cuda::theoretical_roofs(p, clocks), m, {{"name", p.name}},
                                 {{"backend", "cuda"}});
}

/// The backend's document: measured here where the device is present (quickly, a few roofs),
/// else from its host-side path. Empty name: no way to get one (the test fails).
MachineDocument document_of(const engine::Backend& b) {
  MeasureOptions o;
  o.device = b.name();
  o.quick = true;
  if (b.name() == "cpu") {
    o.threads = 1;
    o.precisions = {"fp64"};
    o.levels = {"L1", "DRAM"};
    o.curve = false;
    o.single_core = false;
  }
  try {
    return b.document(o);
  } catch (const Unavailable&) {
    if (b.name() == "cuda") return cuda_host_side_document();
    throw;
  }
}

class BackendContract : public ::testing::TestWithParam<std::string> {};

TEST_P(BackendContract, EveryMeasuredRoofFollowsTheOneStatisticsPolicy) {
  const engine::Backend& b = engine::find_backend(GetParam());
  MachineDocument doc;
  try {
    doc = document_of(b);
  } catch (const Unavailable& e) {
    FAIL() << "backend " << b.name() << " has no device here and no host-side document in "
           << "this test: add one (" << e.what() << ")";
  }
  // Assembled by the engine: its statement of the policy and its counts are in the document.
  ASSERT_EQ(doc.sections.count("measurement"), 1u);
  const nlohmann::json meas = section_json(doc, "measurement");
  ASSERT_TRUE(meas.contains("statistic"));
  EXPECT_NE(meas.at("statistic").get<std::string>().find("third-fastest sample"),
            std::string::npos);
  int noisy = 0, measured = 0;
  auto check = [&](const std::string& name, double value, const std::optional<Statistics>& st) {
    SCOPED_TRACE(b.name() + ": " + name);
    ASSERT_TRUE(st.has_value());
    ++measured;
    const Statistics& s = *st;
    EXPECT_DOUBLE_EQ(value, s.sustained);  // the roof is the sustained sample
    EXPECT_DOUBLE_EQ(s.best, s.max);
    EXPECT_LE(s.min, s.q1);
    EXPECT_LE(s.q1, s.median);
    EXPECT_LE(s.median, s.q3);
    EXPECT_LE(s.q3, s.max);
    EXPECT_LE(s.sustained, s.max);
    if (s.repetitions >= kSustainingSamples) {
      EXPECT_GE(s.sustained, s.min);
      EXPECT_LE(s.sustained, s.second);  // the third-fastest is at most the second-fastest
    }
    // The policy's rules (statistics.hpp), the third: a roof far above the upper quartile.
    const bool above_the_bulk =
        s.repetitions >= kRobustSpreadTimes && s.sustained > s.q3 * (1 + kNoisySpread);
    const bool policy_noisy = s.iqr() > kNoisySpread || !s.confirmed() || above_the_bulk ||
                              s.repetitions < kFewestSamples;
    EXPECT_EQ(s.noisy, policy_noisy)
        << "iqr " << s.iqr() << ", confirmed " << s.confirmed() << ", roof/q3 "
        << s.sustained / s.q3 << ", " << s.repetitions << " samples";
    if (s.noisy) ++noisy;
  };
  for (const ComputeRoof& c : doc.roofs.compute)
    if (c.provenance == Provenance::measured) check(c.name, c.peak.value, c.stats);
  for (const MemoryRoof& l : doc.roofs.memory) {
    if (l.provenance != Provenance::measured) continue;
    check(l.level, l.bandwidth.value, l.stats);
    for (const auto& [mix, rate] : l.mixes)  // the roof is the best mix
      EXPECT_LE(rate, l.bandwidth.value * (1 + 1e-12)) << l.level << " " << mix;
  }
  EXPECT_GT(measured, 0);
  EXPECT_EQ(meas.at("noisy_roofs").get<int>(), noisy);
}

std::vector<std::string> backend_names() {
  std::vector<std::string> out;
  for (const engine::Backend* b : engine::backends()) out.push_back(b->name());
  return out;
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, BackendContract, ::testing::ValuesIn(backend_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
