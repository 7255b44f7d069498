// diff_roofs against hand derivations: ratios, spreads, one-sided roofs, the ridge.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include "roofline/diff.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/statistics.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {

Statistics stats(int reps, double median, double min, double max) {
  Statistics s;
  s.repetitions = reps;
  s.median = median;
  s.min = min;
  s.max = max;
  return s;
}

RoofSet set(const std::string& name, double fp64, double dram) {
  RoofSet r;
  r.name = name;
  ComputeRoof c;
  c.name = "fp64";
  c.precision = "fp64";
  c.peak = WorkRate(fp64);
  r.compute.push_back(c);
  MemoryRoof m;
  m.level = "DRAM";
  m.bandwidth = ByteRate(dram);
  r.memory.push_back(m);
  return r;
}

TEST(Diff, TheHighestRoofsOfAPrecisionOnOneKindOfUnitMeetUnderTwoNames) {
  // A measured CPU's roof names against a catalogue's: per precision, the highest matrix-engine
  // roof against the highest, and the highest vector roof against the highest.
  auto roof = [](const char* name, const char* precision, const char* unit, double peak) {
    ComputeRoof c;
    c.name = name;
    c.precision = precision;
    c.unit = unit;
    c.peak = WorkRate(peak);
    return c;
  };
  RoofSet a = set("measured", 250e9, 50e9);
  a.compute = {roof("fp64 512-bit fma", "fp64", "512-bit fma", 250e9),
               roof("fp64 256-bit fma", "fp64", "256-bit fma", 130e9),
               roof("bf16 512-bit dot", "bf16", "512-bit dot", 240e9),
               roof("bf16 AMX tile dot", "bf16", "AMX tile dot", 7.5e12),
               roof("fp32 512-bit fma", "fp32", "512-bit fma", 500e9)};
  RoofSet b = set("catalogue", 3.5e12, 300e9);
  b.compute = {roof("fp64 avx-512 fma", "fp64", "avx-512 fma", 3.5e12),
               roof("bf16 amx", "bf16", "amx", 115e12),
               roof("fp32 512-bit fma", "fp32", "512-bit fma", 7e12)};
  a.default_compute = "fp64 512-bit fma";  // as `roofline measure` names it
  b.default_compute = "fp64 avx-512 fma";
  const RoofSetDiff d = diff_roofs(a, b);
  auto find = [&](const std::string& name) -> const RoofChange* {
    for (const auto& c : d.changes)
      if (c.name == name) return &c;
    return nullptr;
  };
  const RoofChange* amx = find("bf16 AMX tile dot → bf16 amx (highest bf16 matrix-engine roofs)");
  ASSERT_NE(amx, nullptr);
  EXPECT_DOUBLE_EQ(amx->ratio, 115e12 / 7.5e12);
  EXPECT_EQ(amx->roof_a, "bf16 AMX tile dot");
  EXPECT_EQ(amx->roof_b, "bf16 amx");
  // fp64: the default roofs already (A's widest fp64 FMA against B's fp64 roof), not twice.
  const RoofChange* fp64 = find("fp64 512-bit fma → fp64 avx-512 fma (default compute roofs)");
  ASSERT_NE(fp64, nullptr);
  EXPECT_EQ(find("fp64 512-bit fma → fp64 avx-512 fma (highest fp64 vector roofs)"), nullptr);
  // fp32 matched by name; bf16 on vectors has no vector bf16 roof in B.
  ASSERT_NE(find("fp32 512-bit fma"), nullptr);
  for (const auto& c : d.changes) EXPECT_EQ(c.name.find("fp32 512-bit fma →"), std::string::npos);
  for (const auto& c : d.changes) EXPECT_EQ(c.name.find("bf16 512-bit dot →"), std::string::npos);
  EXPECT_EQ(d.changes.size(), 4u);  // DRAM, fp32 by name, the default pair, the AMX pair
  // Paired roofs are compared, not "only in" one document; the others are listed.
  EXPECT_EQ(d.only_a,
            (std::vector<std::string>{"compute fp64 256-bit fma", "compute bf16 512-bit dot"}));
  EXPECT_TRUE(d.only_b.empty());
  // Default roofs of different precisions (a measured fp64 against a catalogue's fp32): the
  // row says so; it read as one machine 44x faster.
  b.compute[2].name = "fp32 avx2 fma";
  b.default_compute = "fp32 avx2 fma";
  const RoofSetDiff m = diff_roofs(a, b);
  bool said = false;
  for (const auto& c : m.changes)
    said |= c.name ==
            "fp64 512-bit fma → fp32 avx2 fma (default compute roofs, of different "
            "precisions: fp64 against fp32)";
  EXPECT_TRUE(said);
}

TEST(Diff, RatiosSpreadsAndTheRidge) {
  RoofSet a = set("a", 100e9, 20e9);
  RoofSet b = set("b", 110e9, 19e9);
  // A's fp64: median 100, min 95, max 102 → spread 7%; B's: median 110, min 108, max 111 → 2.7%.
  a.compute[0].stats = stats(9, 100e9, 95e9, 102e9);
  b.compute[0].stats = stats(9, 110e9, 108e9, 111e9);
  // DRAM: A's spread 10% (18..20 around 20), B carries none.
  a.memory[0].stats = stats(5, 20e9, 18e9, 20e9);
  ComputeRoof extra;
  extra.name = "fp32";
  extra.precision = "fp32";
  extra.peak = WorkRate(200e9);
  b.compute.push_back(extra);
  MemoryRoof l3;
  l3.level = "L3";
  l3.kind = "cache";
  l3.bandwidth = ByteRate(100e9);
  a.memory.push_back(l3);
  a.default_memory = b.default_memory = "DRAM";
  a.default_compute = b.default_compute = "fp64";

  const RoofSetDiff d = diff_roofs(a, b);
  ASSERT_EQ(d.changes.size(), 2u);
  const RoofChange& c = d.changes[0];
  EXPECT_EQ(c.name, "fp64");
  EXPECT_TRUE(c.compute);
  EXPECT_DOUBLE_EQ(c.ratio, 1.1);
  EXPECT_DOUBLE_EQ(*c.spread_a, 0.07);
  EXPECT_NEAR(*c.spread_b, 3.0 / 110, 1e-15);
  ASSERT_TRUE(c.exceeds_spread);
  EXPECT_TRUE(*c.exceeds_spread);  // |1.1 − 1| = 0.1 > 0.07
  const RoofChange& m = d.changes[1];
  EXPECT_EQ(m.name, "DRAM");
  EXPECT_FALSE(m.compute);
  EXPECT_DOUBLE_EQ(m.ratio, 0.95);
  EXPECT_DOUBLE_EQ(*m.spread_a, 0.1);
  EXPECT_FALSE(m.spread_b);
  EXPECT_FALSE(*m.exceeds_spread);  // |0.95 − 1| = 0.05 ≤ 0.1
  ASSERT_EQ(d.only_a.size(), 1u);
  EXPECT_EQ(d.only_a[0], "memory L3");
  ASSERT_EQ(d.only_b.size(), 1u);
  EXPECT_EQ(d.only_b[0], "compute fp32");
  // Ridges: 100/20 = 5 and 110/19 FLOP/byte; ratio (110/19)/5 = 1.1578...
  EXPECT_DOUBLE_EQ(d.ridge_a, 5.0);
  EXPECT_DOUBLE_EQ(d.ridge_b, 110.0 / 19);
  EXPECT_NEAR(d.ridge_ratio, 110.0 / 19 / 5, 1e-15);
  EXPECT_EQ(d.ridge_roofs_a, "fp64 / DRAM");
}

TEST(Diff, NoSpreadCarriedIsUnknownNotAVerdict) {
  const RoofSetDiff d = diff_roofs(set("a", 100, 10), set("b", 200, 10));
  ASSERT_EQ(d.changes.size(), 2u);
  EXPECT_DOUBLE_EQ(d.changes[0].ratio, 2.0);
  EXPECT_FALSE(d.changes[0].exceeds_spread);
  EXPECT_DOUBLE_EQ(d.changes[1].ratio, 1.0);
  // One repetition carries no spread.
  EXPECT_FALSE(roof_spread(stats(1, 10, 9, 11)));
  EXPECT_DOUBLE_EQ(*roof_spread(stats(2, 10, 9, 11)), 0.2);
  EXPECT_FALSE(exceeds_spread(1.5, std::nullopt, std::nullopt));
  EXPECT_TRUE(*exceeds_spread(1.06, 0.05, std::nullopt));
  EXPECT_FALSE(*exceeds_spread(1.04, 0.05, 0.01));
  // A floor (the run-to-run agreement) applies when a spread is carried, not otherwise.
  EXPECT_FALSE(*exceeds_spread(1.04, 0.01, 0.01, 0.05));
  EXPECT_TRUE(*exceeds_spread(1.06, 0.01, std::nullopt, 0.05));
  EXPECT_FALSE(exceeds_spread(2.0, std::nullopt, std::nullopt, 0.05));
}

TEST(Diff, AMeasuredRoofsSpreadIsTheOneItsSummaryShows) {
  // 39 samples of a measured roof: quartiles 97..101 around 100 (IQR 4%), one preempted sample
  // at 72 (full range 29%, as a real 2-core run's fp64 512-bit fma showed). A change of 10% is
  // beyond the noise the summary showed (4%): the full range would have called it noise.
  Statistics s = stats(39, 100e9, 72e9, 101e9);
  s.q1 = 97e9;
  s.q3 = 101e9;
  EXPECT_DOUBLE_EQ(*roof_spread(s), 0.04);
  EXPECT_DOUBLE_EQ(*roof_spread(s), robust_spread(s));
  RoofSet a = set("a", 100e9, 20e9), b = set("b", 110e9, 20e9);
  a.compute[0].stats = s;
  const RoofSetDiff d = diff_roofs(a, b);
  ASSERT_TRUE(d.changes[0].exceeds_spread);
  EXPECT_TRUE(*d.changes[0].exceeds_spread);
  EXPECT_DOUBLE_EQ(*d.changes[0].noise, 0.04);
  // A measured roof whose samples barely spread (IQR 0.2%): a 1% change is within the 3% two
  // runs of a compute roof agree to, not a change.
  Statistics tight = stats(39, 100e9, 99e9, 100.5e9);
  tight.q1 = 99.9e9;
  tight.q3 = 100.1e9;
  a.compute[0].stats = tight;
  b.compute[0].peak = WorkRate(101e9);
  const RoofSetDiff small = diff_roofs(a, b);
  EXPECT_DOUBLE_EQ(*small.changes[0].noise, kRunToRunCompute);
  EXPECT_FALSE(*small.changes[0].exceeds_spread);
  // Fewer than kRobustSpreadTimes samples, or no quartiles (an older document): the full range.
  Statistics few = stats(kRobustSpreadTimes - 1, 100, 72, 101);
  few.q1 = 97;
  few.q3 = 101;
  EXPECT_DOUBLE_EQ(*roof_spread(few), 0.29);
  EXPECT_DOUBLE_EQ(*roof_spread(stats(39, 100, 72, 101)), 0.29);
}

TEST(Diff, DifferentUnitsAreRefused) {
  RoofSet a = set("a", 100, 10);
  RoofSet b = set("b", 100, 10);
  b.units.work = "tuple";
  EXPECT_THROW(diff_roofs(a, b), InputError);
}

TEST(Diff, DefaultRoofsUnderDifferentNamesAreStillCompared) {
  RoofSet a = set("a", 100, 10);
  RoofSet b = set("b", 100, 15);
  b.memory[0].level = "HBM3e";
  a.memory[0].level = "HBM3";
  const RoofSetDiff d = diff_roofs(a, b);
  ASSERT_EQ(d.changes.size(), 2u);
  EXPECT_EQ(d.changes[1].name, "HBM3 → HBM3e (default memory roofs)");
  EXPECT_FALSE(d.changes[1].compute);
  EXPECT_DOUBLE_EQ(d.changes[1].ratio, 1.5);
  // Compared under both names: neither is "only in" its document.
  EXPECT_TRUE(d.only_a.empty());
  EXPECT_TRUE(d.only_b.empty());
}

TEST(Diff, NoiseVerdictInFullAndBrief) {
  EXPECT_EQ(noise_verdict(std::nullopt, std::nullopt),
            "no spread carried: cannot say whether it exceeds the noise");
  EXPECT_EQ(noise_verdict(std::nullopt, std::nullopt, true), "no spread carried");
  EXPECT_EQ(noise_verdict(true, 0.03), "exceeds the noise (3%: ratios 0.970874x to 1.03x)");
  EXPECT_EQ(noise_verdict(false, 0.03, true), "within the noise (3%)");
}

Point point(const std::string& name, double work, std::vector<LevelTraffic> traffic, double time,
            const std::string& precision = "") {
  Point p;
  p.name = name;
  p.work = Work(work);
  p.traffic = std::move(traffic);
  p.time = Seconds(time);
  p.precision = precision;
  return p;
}

TEST(Diff, PointsPairByNameAtALevelBothHave) {
  PointsDocument a, b;
  a.points = {point("k", 100, {{"L2", Bytes(50)}, {"DRAM", Bytes(10)}}, 1, "fp32"),
              point("gone", 1, {{"", Bytes(1)}}, 1)};
  b.points = {point("new", 1, {{"", Bytes(1)}}, 1),
              point("k", 100, {{"dram", Bytes(20)}}, 0.5, "fp16")};
  const PointsDiff d = diff_points(a, {Spread{0.1, "5 repetitions"}}, "a.json", b, {}, "b.json");
  ASSERT_EQ(d.changes.size(), 1u);
  const PointChange& c = d.changes[0];
  EXPECT_EQ(c.name, "k");
  EXPECT_DOUBLE_EQ(c.ratio, 2);
  // The first of A's levels that B has too (case ignored): DRAM, I 10 → 5.
  EXPECT_EQ(c.intensity_level, "DRAM");
  EXPECT_DOUBLE_EQ(*c.intensity_ratio, 0.5);
  EXPECT_DOUBLE_EQ(*c.spread_a, 0.1);
  EXPECT_FALSE(c.spread_b);
  EXPECT_DOUBLE_EQ(*c.noise, 0.1);
  EXPECT_TRUE(*c.exceeds_spread);
  EXPECT_TRUE(c.precision_changed);
  EXPECT_EQ(d.only_a, std::vector<std::string>{"gone"});
  EXPECT_EQ(d.only_b, std::vector<std::string>{"new"});
}

TEST(Diff, PointsOfOtherUnitsOrANameTwiceAreRefused) {
  PointsDocument a, b;
  a.points = {point("k", 1, {{"", Bytes(1)}}, 1)};
  b.points = a.points;
  b.units.work = "tuple";
  EXPECT_THROW(diff_points(a, {}, "a.json", b, {}, "b.json"), InputError);
  b.units = a.units;
  b.points.push_back(b.points[0]);
  try {
    diff_points(a, {}, "a.json", b, {}, "b.json");
    FAIL() << "a name twice was paired";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("b.json: two points are named 'k'"), std::string::npos);
  }
}
}  // namespace ROOFLINE_UNITY_ID
