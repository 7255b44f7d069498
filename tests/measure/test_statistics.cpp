// Statistics, plateau detection on synthetic sweeps, level naming against cache sizes, and the
// theoretical-peak arithmetic.
#include <gtest/gtest.h>

#include <cmath>

#include "roofline/cpu_analysis.hpp"

namespace roofline::cpu {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);  // no plateau assigned

TEST(MeasureStatistics, Summary) {
  const Statistics s = summarize_rates({10, 12, 11, 9, 13});
  EXPECT_EQ(s.repetitions, 5);
  EXPECT_DOUBLE_EQ(s.median, 11);
  EXPECT_DOUBLE_EQ(s.best, 13);
  EXPECT_DOUBLE_EQ(s.min, 9);
  EXPECT_DOUBLE_EQ(s.max, 13);
  // sample stddev of {9..13} = sqrt(2.5); mean 11
  EXPECT_NEAR(s.cv, std::sqrt(2.5) / 11, 1e-12);
  EXPECT_NEAR(s.spread(), 4.0 / 11, 1e-12);
  EXPECT_TRUE(s.noisy);               // 36% > 10%
  EXPECT_DOUBLE_EQ(s.sustained, 11);  // third-fastest of {13, 12, 11, 10, 9}
  EXPECT_FALSE(s.confirmed());        // 13 is 18% above it
  const Statistics q = summarize_rates({100, 101, 102, 103});
  EXPECT_DOUBLE_EQ(q.median, 101.5);
  EXPECT_FALSE(q.noisy);
  EXPECT_DOUBLE_EQ(q.sustained, 101);
  EXPECT_TRUE(q.confirmed());  // 103 ≤ 1.02 × 101 = 103.02
  EXPECT_EQ(summarize_rates({}).repetitions, 0);
  // Fewer than three samples: the sustained rate is the slowest of them.
  EXPECT_DOUBLE_EQ(summarize_rates({50, 50.5}).sustained, 50);
  EXPECT_TRUE(summarize_rates({50, 50.5}).confirmed());
  EXPECT_FALSE(summarize_rates({40, 50}).confirmed());
}

TEST(MeasureStatistics, BimodalSamplesKeepTheFastModeAndFlagTheNoise) {
  // A shared VM: half the samples at full speed, half at half speed (a host that gives the
  // virtual CPU's core to another guest). The sustained rate is the full one, confirmed by the
  // fastest samples, and the set is flagged noisy.
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(i % 2 ? 100.0 - 0.01 * i : 50.0 + 0.01 * i);
  const Statistics s = summarize_rates(v);
  // A lone lucky sample above them does not set the roof.
  v.push_back(130);
  EXPECT_NEAR(summarize_rates(v).sustained, 99.97, 1e-12);
  EXPECT_FALSE(summarize_rates(v).confirmed());
  EXPECT_NEAR(s.best, 99.99, 1e-12);
  EXPECT_NEAR(s.sustained, 99.95, 1e-12);  // 100 − 0.01·i for i = 1, 3, 5: the third is 99.95
  EXPECT_TRUE(s.confirmed());
  EXPECT_TRUE(s.noisy);
}

std::vector<SweepPoint> synthetic(const std::vector<std::pair<double, double>>& levels, double from,
                                  double to, double noise) {
  // levels: (edge bytes, rate); rate of a size is that of the first level whose edge it fits.
  std::vector<SweepPoint> s;
  int i = 0;
  for (double b = from; b <= to; b *= std::sqrt(2.0), ++i) {
    double rate = levels.back().second;
    for (const auto& [edge, r] : levels)
      if (b <= edge) {
        rate = r;
        break;
      }
    s.push_back({b, rate * (1 + noise * ((i % 3) - 1))});  // deterministic ±noise
  }
  return s;
}

TEST(MeasurePlateaus, FourLevelsFromASyntheticSweep) {
  const double K = 1024, M = K * K;
  const auto sweep = synthetic({{32 * K, 300e9}, {512 * K, 150e9}, {16 * M, 80e9}, {1e18, 20e9}},
                               8 * K, 512 * M, 0.03);
  const auto p = find_plateaus(sweep);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_NEAR(p[0].rate, 300e9, 300e9 * 0.04);
  EXPECT_NEAR(p[1].rate, 150e9, 150e9 * 0.04);
  EXPECT_NEAR(p[2].rate, 80e9, 80e9 * 0.04);
  EXPECT_NEAR(p[3].rate, 20e9, 20e9 * 0.04);
  EXPECT_LE(p[0].max_bytes, 32 * K);
  EXPECT_GT(p[1].min_bytes, 32 * K);
  EXPECT_DOUBLE_EQ(p[3].max_bytes, sweep.back().bytes);

  const auto named = name_levels(sweep, p, {32 * K, 512 * K, 16 * M});
  ASSERT_EQ(named.size(), 4u);
  EXPECT_EQ(named[0].level, "L1");
  EXPECT_EQ(named[3].level, "DRAM");
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(named[i].plateau.has_value()) << named[i].level;
    EXPECT_EQ(named[i].plateau.value_or(kNone), i);
    EXPECT_TRUE(named[i].size_agrees) << named[i].level << " " << named[i].note;
  }
  // Representatives lie inside their level; DRAM at the largest working set.
  EXPECT_LE(named[0].representative_bytes, 32 * K);
  EXPECT_GT(named[1].representative_bytes, 32 * K);
  EXPECT_LE(named[1].representative_bytes, 512 * K);
  EXPECT_DOUBLE_EQ(named[3].representative_bytes, sweep.back().bytes);
}

TEST(MeasurePlateaus, VirtualMachineReportsTheWrongL3Size) {
  // Reported L3 260 MB, behaving like ~100 MB (the case seen on KVM guests).
  const double K = 1024, M = K * K;
  const auto sweep = synthetic({{32 * K, 300e9}, {512 * K, 150e9}, {100 * M, 80e9}, {1e18, 20e9}},
                               8 * K, 1100 * M, 0.02);
  const auto p = find_plateaus(sweep);
  ASSERT_EQ(p.size(), 4u);
  const auto named = name_levels(sweep, p, {32 * K, 512 * K, 260 * M});
  ASSERT_EQ(named.size(), 4u);
  EXPECT_EQ(named[2].level, "L3");
  EXPECT_EQ(named[2].plateau.value_or(kNone), 2u);
  EXPECT_TRUE(named[0].size_agrees);
  EXPECT_TRUE(named[1].size_agrees);
  // The plateau ends near 100 MB, far below the 260 MB reported: flagged, with a note.
  EXPECT_LE(named[2].measured_edge_bytes, 100 * M);
  EXPECT_GT(named[2].measured_edge_bytes, 50 * M);
  EXPECT_FALSE(named[2].size_agrees);
  EXPECT_NE(named[2].note.find("plateau ends"), std::string::npos);
  EXPECT_EQ(named[3].level, "DRAM");
  EXPECT_EQ(named[3].plateau.value_or(kNone), 3u);
}

TEST(MeasurePlateaus, SizeDisagreementIsReported) {
  const double K = 1024, M = K * K;
  // Reported L3 32 MiB, but the plateau ends at 4 MiB.
  const auto sweep = synthetic({{32 * K, 300e9}, {512 * K, 150e9}, {4 * M, 80e9}, {1e18, 20e9}},
                               8 * K, 128 * M, 0.0);
  const auto named = name_levels(sweep, find_plateaus(sweep), {32 * K, 512 * K, 32 * M});
  ASSERT_EQ(named.size(), 4u);
  EXPECT_FALSE(named[2].size_agrees);
  EXPECT_NE(named[2].note.find("plateau ends"), std::string::npos);
  // The reported 32 MiB L3 overlaps the DRAM plateau too, but DRAM keeps the last plateau.
  EXPECT_EQ(named[2].plateau.value_or(kNone), 2u);
  EXPECT_EQ(named[3].plateau.value_or(kNone), 3u);
}

TEST(MeasurePlateaus, TransitionPointsBelongToNoPlateau) {
  std::vector<SweepPoint> s = {{1, 100}, {2, 101}, {4, 99}, {8, 70}, {16, 50}, {32, 51}, {64, 49}};
  const auto p = find_plateaus(s, 0.1);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].last, 2u);
  EXPECT_EQ(p[1].first, 4u);
}

TEST(MeasurePlateaus, WithoutCacheSizesLevelsAreNamedInOrder) {
  std::vector<SweepPoint> s = {{1, 100}, {2, 101}, {4, 50}, {8, 51}, {16, 10}, {32, 10}};
  const auto named = name_levels(s, find_plateaus(s), {});
  ASSERT_EQ(named.size(), 3u);
  EXPECT_EQ(named[0].level, "L1");
  EXPECT_EQ(named[1].level, "L2");
  EXPECT_EQ(named[2].level, "DRAM");
}

TEST(MeasureTheory, Zen3AndIntelServerTables) {
  CpuFeatures zen3;
  zen3.vendor = "AuthenticAMD";
  zen3.family = 0x19;
  zen3.model = 0x01;
  const auto u = identify_microarchitecture(zen3);
  EXPECT_EQ(u.name, "zen3");
  ComputeKernel fma256{};
  fma256.precision = "fp64";
  fma256.width_bits = 256;
  fma256.kind = KernelClass::fp_fma;
  fma256.work_instructions = 12;
  fma256.work_per_iteration = 96;
  // 2 FMA pipes × 4 lanes × 2 FLOP = 16 FLOP/cycle/core.
  EXPECT_DOUBLE_EQ(*work_per_cycle(u, fma256), 16);
  // 2 cores × 3 GHz × 16 = 96 GFLOP/s.
  EXPECT_DOUBLE_EQ(theoretical_peak(2, 3e9, 16), 96e9);
  ComputeKernel fma512 = fma256;
  fma512.width_bits = 512;
  fma512.work_per_iteration = 192;
  EXPECT_FALSE(work_per_cycle(u, fma512).has_value());  // Zen 3 has no AVX-512
  ComputeKernel addmul = fma256;
  addmul.kind = KernelClass::fp_add_mul;
  addmul.work_per_iteration = 48;
  // 2 adds + 2 multiplies per cycle × 4 lanes.
  EXPECT_DOUBLE_EQ(*work_per_cycle(u, addmul), 16);

  CpuFeatures spr;
  spr.vendor = "GenuineIntel";
  spr.family = 6;
  spr.model = 0x8f;
  const auto s = identify_microarchitecture(spr);
  EXPECT_EQ(s.name, "sapphirerapids");
  EXPECT_DOUBLE_EQ(*work_per_cycle(s, fma512), 32);  // 2 × 8 lanes × 2
  CpuFeatures gold5;
  gold5.vendor = "GenuineIntel";
  gold5.family = 6;
  gold5.model = 0x55;
  gold5.brand = "Intel(R) Xeon(R) Gold 5118 CPU @ 2.30GHz";
  EXPECT_DOUBLE_EQ(*work_per_cycle(identify_microarchitecture(gold5), fma512), 16);
  gold5.brand = "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz";
  EXPECT_DOUBLE_EQ(*work_per_cycle(identify_microarchitecture(gold5), fma512), 32);
  CpuFeatures other;
  other.vendor = "SomethingElse";
  EXPECT_EQ(identify_microarchitecture(other).name, "unknown");
  EXPECT_FALSE(work_per_cycle(identify_microarchitecture(other), fma256).has_value());
}

}  // namespace
TEST(MeasureLevels, AFartherLevelAboveANearerOneIsReported) {
  auto roof = [](const char* level, double bw) {
    MemoryRoof m;
    m.level = level;
    m.bandwidth = ByteRate(bw);
    return m;
  };
  // A measurement from the development VM: L1 disturbed, read below L2.
  const std::vector<MemoryRoof> roofs = {roof("L1", 309.9e9), roof("L2", 347.6e9),
                                         roof("L3", 199.1e9), roof("DRAM", 76.2e9)};
  const auto inv = inverted_levels(roofs);
  ASSERT_EQ(inv.size(), 1u);
  EXPECT_EQ(inv[0].first, "L2");
  EXPECT_EQ(inv[0].second, "L1");
  // Within the tolerance (2%) is not an inversion; just above it is.
  EXPECT_TRUE(inverted_levels({roof("L1", 100e9), roof("L2", 101.9e9)}).empty());
  EXPECT_EQ(inverted_levels({roof("L1", 100e9), roof("L2", 102.1e9)}).size(), 1u);
  EXPECT_TRUE(inverted_levels({roof("L1", 400e9), roof("L2", 300e9), roof("DRAM", 50e9)}).empty());
  EXPECT_TRUE(inverted_levels({}).empty());
}

}  // namespace roofline::cpu
