// The CPU measurement's plan, resolved before anything runs: options checked, threads placed one
// per core, the probe's kernel, the DRAM working set by STREAM's rule, the sweep.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <set>

#include "measure/cpu/steps.hpp"
#include "roofline/error.hpp"
#include "roofline/measure.hpp"

namespace roofline::cpu {
namespace ROOFLINE_UNITY_ID {

constexpr double kMiB = 1024.0 * 1024.0;

CacheInfo cache(int level, double bytes, int sharing) {
  CacheInfo c;
  c.level = level;
  c.size_bytes = bytes;
  c.cores_sharing = sharing;
  return c;
}

Topology four_cores() {
  Topology t;
  t.allowed_cpus = {0, 1, 2, 3, 4, 5, 6, 7};  // SMT: CPUs 4..7 are the second threads
  t.core_cpus = {0, 1, 2, 3};
  t.caches = {cache(1, 32 * 1024, 1), cache(2, 1 * kMiB, 1), cache(3, 32 * kMiB, 4)};
  t.source = "test";
  return t;
}

CpuFeatures avx512_features() {
  CpuFeatures f;
  f.vendor = "AuthenticAMD";
  f.family = 0x19;
  f.model = 0x11;
  f.sse2 = f.avx = f.fma = f.avx2 = true;
  f.avx512f = f.avx512bw = f.avx512vl = f.avx512dq = true;
  return f;
}

#define REQUIRE_BACKENDS() \
  if (all_backends().empty()) GTEST_SKIP() << "no CPU backend in this build"

TEST(MeasurePlan, ThreadsOnePerCoreThenTheOtherLogicalCpus) {
  REQUIRE_BACKENDS();
  MeasureOptions o;
  const Plan all = resolve_plan(o, four_cores(), avx512_features(), 64e9);
  EXPECT_EQ(all.cpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(all.threads, 4);
  EXPECT_TRUE(all.single_core);
  o.threads = 2;
  EXPECT_EQ(resolve_plan(o, four_cores(), avx512_features(), 64e9).cpus, (std::vector<int>{0, 1}));
  o.threads = 6;
  EXPECT_EQ(resolve_plan(o, four_cores(), avx512_features(), 64e9).cpus,
            (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // Ranks sharing a host start at their own core.
  o.threads = 2;
  o.first_core = 2;
  EXPECT_EQ(resolve_plan(o, four_cores(), avx512_features(), 64e9).cpus, (std::vector<int>{2, 3}));
  o = {};
  o.threads = 9;
  EXPECT_THROW(resolve_plan(o, four_cores(), avx512_features(), 64e9), InputError);
  o.threads = -1;
  EXPECT_THROW(resolve_plan(o, four_cores(), avx512_features(), 64e9), InputError);
}

TEST(MeasurePlan, APrecisionThisCpuHasNoKernelOfIsSaidNotDroppedSilently) {
  // An AVX-512 CPU without AVX512-FP16 has no fp16 kernel: asked alone, nothing could be
  // measured (a document without a compute roof, which no command can read), so it is a missing
  // capability before anything runs; asked beside fp64, fp64 is measured and a warning says
  // fp16 was not.
  REQUIRE_BACKENDS();
  MeasureOptions o;
  o.precisions = {"fp16"};
  try {
    resolve_plan(o, four_cores(), avx512_features(), 64e9);
    ADD_FAILURE() << "fp16 without a kernel was planned";
  } catch (const Unavailable& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("--precisions: this CPU has no kernel of fp16 (it has ", 0), 0u)
        << e.what();
  }
  o.precisions = {"fp16", "fp64"};
  const Plan p = resolve_plan(o, four_cores(), avx512_features(), 64e9);
  EXPECT_FALSE(p.kernels.empty());
  for (const auto& k : p.kernels) EXPECT_EQ(std::string(k.precision), "fp64");
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_NE(std::find_if(p.warnings.begin(), p.warnings.end(),
                         [](const std::string& w) {
                           return w.find("no kernel of fp16") != std::string::npos &&
                                  w.find("not measured") != std::string::npos;
                         }),
            p.warnings.end());
}

TEST(MeasurePlan, CheckMeasurableRefusesWhatMeasureWouldWithoutMeasuring) {
  // `run` without --machine asks this before its kernels: the same refusals as measure_machine,
  // on this machine, and nothing measured (no measurement section to return, no time spent).
  REQUIRE_BACKENDS();
  MeasureOptions o;
  o.quick = true;
  EXPECT_NO_THROW(check_measurable(o));
  o.precisions = {"fp9"};
  EXPECT_THROW(check_measurable(o), InputError);
  o = {};
  o.threads = 1 << 20;  // more than any machine's CPUs
  EXPECT_THROW(check_measurable(o), InputError);
  o = {};
  o.device = "no-such-device";
  EXPECT_THROW(check_measurable(o), InputError);
}

TEST(MeasurePlan, BadPrecisionsAndLevelsFailBeforeAnythingRuns) {
  REQUIRE_BACKENDS();
  MeasureOptions o;
  o.precisions = {"fp9"};
  EXPECT_THROW(resolve_plan(o, four_cores(), avx512_features(), 64e9), InputError);
  o.precisions = {"tf32"};  // a dtype, but no CPU kernel
  EXPECT_THROW(resolve_plan(o, four_cores(), avx512_features(), 64e9), InputError);
  o.precisions = {"FP32"};
  const Plan p = resolve_plan(o, four_cores(), avx512_features(), 64e9);
  EXPECT_FALSE(p.kernels.empty());
  for (const auto& k : p.kernels) EXPECT_EQ(std::string(k.precision), "fp32");
  // A comma-separated item is a list, as the command line gives it; an empty name in it is
  // refused, not dropped.
  o.precisions = {"fp32, FP64"};  // spaces after the comma, as --levels allows
  std::set<std::string> got;
  for (const auto& k : resolve_plan(o, four_cores(), avx512_features(), 64e9).kernels)
    got.insert(k.precision);
  EXPECT_EQ(got, (std::set<std::string>{"fp32", "fp64"}));
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"fp32,,fp64"}, {"fp32,"}, {""}, {"fp32", " "}}) {
    MeasureOptions b;
    b.precisions = bad;
    try {
      resolve_plan(b, four_cores(), avx512_features(), 64e9);
      ADD_FAILURE() << "read: " << bad.front();
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--precisions: an empty name in the list '", 0), 0u)
          << e.what();
    }
  }
  o = {};
  o.levels = {"L2,ram"};
  EXPECT_EQ(resolve_plan(o, four_cores(), avx512_features(), 64e9).levels,
            (std::vector<std::string>{"L2", "DRAM"}));
  o.levels = {"L9"};
  EXPECT_THROW(resolve_plan(o, four_cores(), avx512_features(), 64e9), InputError);
}

TEST(MeasurePlan, DramWorkingSetFollowsStreamsRule) {
  REQUIRE_BACKENDS();
  MeasureOptions o;
  // 4 cores reach L1 4 × 32 KiB, L2 4 × 1 MiB, and the one shared 32 MiB L3.
  const Plan p = resolve_plan(o, four_cores(), avx512_features(), 64e9);
  ASSERT_EQ(p.capacities.size(), 3u);
  EXPECT_DOUBLE_EQ(p.capacities[0], 4 * 32 * 1024.0);
  EXPECT_DOUBLE_EQ(p.capacities[1], 4 * kMiB);
  EXPECT_DOUBLE_EQ(p.capacities[2], 32 * kMiB);
  // Every array at least 4 × the LLC: 12 × over three arrays.
  EXPECT_DOUBLE_EQ(p.max_working_set, 12 * 32 * kMiB);
  EXPECT_DOUBLE_EQ(p.sweep_sizes.front(), 4096.0 * 4 * 2);
  EXPECT_NEAR(p.sweep_sizes.back(), p.max_working_set, p.max_working_set * 0.05);
  for (size_t i = 1; i < p.sweep_sizes.size(); ++i)
    EXPECT_GT(p.sweep_sizes[i], p.sweep_sizes[i - 1]);
  o.quick = true;
  EXPECT_DOUBLE_EQ(resolve_plan(o, four_cores(), avx512_features(), 64e9).max_working_set,
                   4 * 32 * kMiB);
  // Bounded by half the memory available, with a warning.
  o.quick = false;
  const Plan small = resolve_plan(o, four_cores(), avx512_features(), 100 * kMiB);
  EXPECT_DOUBLE_EQ(small.max_working_set, 50 * kMiB);
  ASSERT_GE(small.warnings.size(), 1u);
  EXPECT_NE(small.warnings[0].find("limited"), std::string::npos);
  // An explicit size wins.
  o.dram_working_set = 256 * kMiB;
  EXPECT_DOUBLE_EQ(resolve_plan(o, four_cores(), avx512_features(), 64e9).max_working_set,
                   256 * kMiB);
}

TEST(MeasurePlan, AnL3NoPartHasIsBoundedAndSaidSo) {
  REQUIRE_BACKENDS();
  // A 2-vCPU AMD Zen 5 guest: CPUID passes on the host's whole L3, 532,676,608 bytes (508 MiB)
  // "shared by 2 cores" (seen 2026-12-02); no AMD L3 instance exceeds 96 MiB.
  Topology t;
  t.allowed_cpus = {0, 1};
  t.core_cpus = {0, 1};
  t.caches = {cache(1, 48 * 1024, 1), cache(2, 1 * kMiB, 1), cache(3, 532676608, 2)};
  Topology amd = t;
  bound_reported_caches(amd, "AuthenticAMD");
  EXPECT_DOUBLE_EQ(amd.caches[2].size_bytes, 96 * kMiB);
  EXPECT_DOUBLE_EQ(amd.caches[2].reported_bytes, 532676608);
  EXPECT_NE(amd.caches[2].note.find("508 MiB shared by 2 cores"), std::string::npos)
      << amd.caches[2].note;
  EXPECT_NE(amd.caches[2].note.find("96 MiB assumed"), std::string::npos) << amd.caches[2].note;
  for (std::size_t i : {0u, 1u}) {
    EXPECT_TRUE(amd.caches[i].note.empty());
    EXPECT_DOUBLE_EQ(amd.caches[i].reported_bytes, 0);
  }
  // The plan sizes the DRAM working set from the bound (4 × 96 MiB when quick, not 4 × 508
  // MiB) and says why.
  MeasureOptions o;
  o.quick = true;
  const Plan p = resolve_plan(o, amd, avx512_features(), 64e9);
  EXPECT_DOUBLE_EQ(p.max_working_set, 4 * 96 * kMiB);
  EXPECT_TRUE(std::any_of(p.warnings.begin(), p.warnings.end(), [](const std::string& w) {
    return w.rfind("L3: the system reports an L3 of 508 MiB", 0) == 0;
  }));
  // Intel's L3 is one instance per socket (504 MB on a Xeon 6980P): believed as reported.
  Topology intel = t;
  bound_reported_caches(intel, "GenuineIntel");
  EXPECT_DOUBLE_EQ(intel.caches[2].size_bytes, 532676608);
  EXPECT_TRUE(intel.caches[2].note.empty());
  // An AMD L3 within the bound (a 3D V-Cache CCD, 96 MiB) is believed.
  Topology x3d = t;
  x3d.caches[2].size_bytes = 96 * kMiB;
  bound_reported_caches(x3d, "AuthenticAMD");
  EXPECT_TRUE(x3d.caches[2].note.empty());
  EXPECT_DOUBLE_EQ(x3d.caches[2].size_bytes, 96 * kMiB);
}

TEST(MeasurePlan, AvxFiveTwelveMeasuresEveryAddMulRoofWithTwelvePlusTwelveChains) {
  REQUIRE_BACKENDS();
  // 7 + 7 chains are one above latency × pipes on Zen (3-cycle add and multiply, 2 pipes each):
  // with AVX-512's 32 registers every add+mul roof gets 12 + 12, and each roof one kernel.
  const Plan p = resolve_plan(MeasureOptions{}, four_cores(), avx512_features(), 64e9);
  std::set<std::string> roofs;
  int addmul = 0;
  for (const auto& k : p.kernels) {
    EXPECT_TRUE(roofs.insert(k.roof_name()).second) << k.roof_name();
    if (k.kind != KernelClass::fp_add_mul) continue;
    ++addmul;
    EXPECT_EQ(k.chains, 24) << k.roof_name();
    EXPECT_STREQ(k.isa, "avx512") << k.roof_name();
  }
  EXPECT_EQ(addmul, 8);  // fp64 and fp32 × scalar, 128, 256, 512 bits
  // Without AVX-512 the sse2 and avx2 kernels (7 + 7) measure them.
  CpuFeatures avx2 = avx512_features();
  avx2.avx512f = avx2.avx512bw = avx2.avx512vl = avx2.avx512dq = false;
  const Plan q = resolve_plan(MeasureOptions{}, four_cores(), avx2, 64e9);
  int narrow = 0;
  for (const auto& k : q.kernels)
    if (k.kind == KernelClass::fp_add_mul) {
      ++narrow;
      EXPECT_EQ(k.chains, 14) << k.roof_name();
    }
  EXPECT_EQ(narrow, 6);
}

TEST(MeasurePlan, TheProbeMeasuresTheWidestFp64FmaAndDramOnly) {
  REQUIRE_BACKENDS();
  MeasureOptions o;
  o.probe = true;
  const Plan p = resolve_plan(o, four_cores(), avx512_features(), 64e9);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].roof_name(), "fp64 512-bit fma");
  EXPECT_TRUE(p.sweep_sizes.empty());
  EXPECT_FALSE(p.curve);
  EXPECT_FALSE(p.single_core);
  ASSERT_NE(p.memory_backend, nullptr);
  EXPECT_EQ(p.memory_backend->name(), "avx512");
  CpuFeatures avx2 = avx512_features();
  avx2.avx512f = avx2.avx512bw = avx2.avx512vl = avx2.avx512dq = false;
  EXPECT_EQ(resolve_plan(o, four_cores(), avx2, 64e9).kernels[0].roof_name(), "fp64 256-bit fma");
}

TEST(MeasurePlan, NoBackendIsUnavailable) {
  MeasureOptions o;
  EXPECT_THROW(resolve_plan(o, four_cores(), CpuFeatures{}, 64e9), Unavailable);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::cpu
