// The kernel suite: sizes from caches, W/Q declarations against the catalogue, result checks
// that catch a wrong answer, BLAS core classification, results as JSON, the child process.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "measure/suite/loops.hpp"
#include "measure/suite/parallel.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/dtype.hpp"
#include "roofline/io.hpp"
#include "roofline/kernels.hpp"
#include "roofline/measure.hpp"
#include "roofline/statistics.hpp"
#include "roofline/suite.hpp"

namespace roofline::suite {
namespace ROOFLINE_UNITY_ID {

const std::string kData = ROOFLINE_TEST_DATA;

Machine fixture_machine() {
  return machine_from_sysfs(kData + "/run/sysfs/cpu", kData + "/run/sysfs/meminfo");
}

TEST(SuiteCaches, ReadsSysfsDataAndUnifiedCachesOnly) {
  // The engine's topology read from the fixture (the same reader as on a real machine).
  const Machine m = fixture_machine();
  const auto& c = m.topology.caches;
  ASSERT_EQ(c.size(), 3u);  // the instruction cache is left out
  EXPECT_EQ(c[0].level, 1);
  EXPECT_DOUBLE_EQ(c[0].size_bytes, 48.0 * 1024);
  EXPECT_EQ(c[1].level, 2);
  EXPECT_DOUBLE_EQ(c[1].size_bytes, 2048.0 * 1024);
  EXPECT_EQ(c[2].level, 3);
  EXPECT_DOUBLE_EQ(c[2].size_bytes, 16.0 * 1024 * 1024);
  EXPECT_EQ(c[2].cores_sharing, 4);
  EXPECT_DOUBLE_EQ(c[2].per_core_bytes(), 4.0 * 1024 * 1024);
  EXPECT_EQ(c[0].cores_sharing, 1);
  EXPECT_EQ(m.cores(), 4);
  ASSERT_NE(m.cache("L3"), nullptr);
  EXPECT_EQ(m.cache("L3")->level, 3);
  EXPECT_EQ(m.cache("L4"), nullptr);
  EXPECT_EQ(m.cache("DRAM"), nullptr);
  EXPECT_DOUBLE_EQ(m.mem_available_bytes, 8000000.0 * 1024);
}

TEST(SuiteCaches, MissingSysfsLeavesLevelsOut) {
  const Machine m = machine_from_sysfs(kData + "/run/no-such-dir", kData + "/run/no-such-file");
  EXPECT_TRUE(m.topology.caches.empty());
  EXPECT_THROW(working_set_for("L1", m, 1), Unavailable);
}

TEST(SuiteSizes, WorkingSetsFollowTheCaches) {
  const Machine c = fixture_machine();
  // Private caches: half of each thread's own cache, the threads' shares add up.
  EXPECT_DOUBLE_EQ(working_set_for("L1", c, 1), 24.0 * 1024);
  EXPECT_DOUBLE_EQ(working_set_for("L1", c, 2), 48.0 * 1024);
  EXPECT_DOUBLE_EQ(working_set_for("L2", c, 4), 4.0 * 1024 * 1024);
  // More threads than CPUs do not add cache.
  EXPECT_DOUBLE_EQ(working_set_for("L2", c, 16), 4.0 * 1024 * 1024);
  // A shared L3: half of the one instance, whatever the thread count.
  EXPECT_DOUBLE_EQ(working_set_for("L3", c, 1), 8.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(working_set_for("L3", c, 4), 8.0 * 1024 * 1024);
  // DRAM: 4 × the last-level cache (64 MiB here), well inside MemAvailable / 4.
  EXPECT_DOUBLE_EQ(working_set_for("DRAM", c, 4), 64.0 * 1024 * 1024);
  // Each level's set is larger than the faster level's whole capacity.
  EXPECT_GT(working_set_for("L2", c, 1), 48.0 * 1024);
  EXPECT_GT(working_set_for("L3", c, 4), 4 * 2048.0 * 1024 / 2);
}

// `run --size`: the level a working set is judged at is the one whose level size (half the
// capacity the threads use) holds it — the sizes above land at their own level.
TEST(SuiteSizes, AGivenSizeIsHeldByTheLevelWhoseSizeRuleHoldsIt) {
  const Machine c = fixture_machine();  // L1 48 KiB, L2 2 MiB per core; L3 16 MiB per 4 cores
  for (const auto& level : {"L1", "L2", "L3", "DRAM"})
    for (const int threads : {1, 2, 4})
      EXPECT_EQ(level_holding(Bytes(working_set_for(level, c, threads)), c, threads), level)
          << level << " on " << threads;
  // One byte past a level's size is the next level's; L1's half on one thread is 24 KiB.
  EXPECT_EQ(level_holding(Bytes(24.0 * 1024), c, 1), "L1");
  EXPECT_EQ(level_holding(Bytes(24.0 * 1024 + 1), c, 1), "L2");
  EXPECT_EQ(level_holding(Bytes(24.0 * 1024 + 1), c, 2), "L1");  // two threads' L1 halves: 48 KiB
  // The shared L3 holds 8 MiB whatever the threads; past it, DRAM.
  EXPECT_EQ(level_holding(Bytes(8.0 * 1024 * 1024), c, 4), "L3");
  EXPECT_EQ(level_holding(Bytes(8.0 * 1024 * 1024 + 1), c, 4), "DRAM");
  EXPECT_THROW(level_holding(Bytes(1), c, 0), InputError);
}

cpu::CacheInfo cache(int level, double size, int sharing) {
  cpu::CacheInfo c;
  c.level = level;
  c.size_bytes = size;
  c.cores_sharing = sharing;
  return c;
}

TEST(SuiteSizes, ACacheWhosePlateauEndsShortIsSizedByIt) {
  // A document measured on a Sapphire Rapids-class VM (2 vCPUs) that reports its host's L3 of
  // 480 MiB; the sweep's L3 plateau ended at 64 MiB (size_agrees false). The suite put its L3
  // runs at 240 MiB, in DRAM; sized by the plateau, at half of it.
  const MachineDocument doc = load_machine_file(kData + "/io/sapphire-class-quick.machine.json");
  const MachineFacts facts = machine_facts(doc);
  ASSERT_TRUE(facts.memory_reach.count("L3"));
  EXPECT_DOUBLE_EQ(facts.memory_reach.at("L3").plateau_edge, 67108864.0);
  EXPECT_FALSE(facts.memory_reach.at("L3").size_agrees);
  EXPECT_TRUE(facts.memory_reach.at("L1").size_agrees);
  Machine vm;
  vm.mem_available_bytes = 24e9;
  vm.topology.allowed_cpus = vm.topology.core_cpus = {0, 1};
  vm.topology.caches = {cache(1, 49152, 1), cache(2, 2097152, 1), cache(3, 503316480, 2)};
  const double dram_before = working_set_for("DRAM", vm, 2);
  EXPECT_DOUBLE_EQ(working_set_for("L3", vm, 2), 503316480.0 / 2);
  const std::vector<std::string> lines = fit_caches_to_plateaus(vm, facts);
  // L3 and the quick run's L2 (its plateau ended at 1 MiB of 4): both resized, L1 kept.
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].rfind("L3: sized by the measured plateau, which ends at 67.11 MB over 2 "
                           "threads (the system reports 503.3 MB per instance)",
                           0),
            0u)
      << lines[1];
  EXPECT_DOUBLE_EQ(working_set_for("L3", vm, 2), 67108864.0 / 2);  // one instance, 2 threads
  EXPECT_DOUBLE_EQ(working_set_for("L2", vm, 2), 1048576.0 / 2);   // 2 private instances
  EXPECT_DOUBLE_EQ(working_set_for("L1", vm, 2), 49152.0);
  EXPECT_DOUBLE_EQ(vm.topology.caches[2].reported_bytes, 503316480.0);
  // DRAM still clears the reported L3 (a 4 × 64 MiB set held part of it: the sweep's load rate
  // at 537 MB read 2.5% above its 2 GB rate).
  EXPECT_DOUBLE_EQ(working_set_for("DRAM", vm, 2), dram_before);
  // A machine whose caches are not the document's (another CPU) is not resized.
  Machine other;
  other.topology.caches = {cache(3, 33554432, 8)};
  EXPECT_TRUE(fit_caches_to_plateaus(other, facts).empty());
  EXPECT_DOUBLE_EQ(other.topology.caches[0].size_bytes, 33554432.0);

  // A machine measured after the runs: the runs beyond the plateau are named, once per level.
  RunResult at_l3;
  at_l3.level = "L3";
  at_l3.working_set_bytes = 251658240;
  RunResult inside = at_l3;
  inside.working_set_bytes = 33554432;
  const auto beyond = runs_beyond_plateaus({at_l3, at_l3, inside}, facts);
  ASSERT_EQ(beyond.size(), 1u);
  EXPECT_NE(beyond[0].find("L3: the runs' working set (251.7 MB) lies beyond the measured "
                           "plateau, which ends at 67.11 MB"),
            std::string::npos)
      << beyond[0];
  EXPECT_TRUE(runs_beyond_plateaus({inside}, facts).empty());
}

TEST(SuiteSizes, DramIsBoundedByAvailableMemory) {
  Machine c = fixture_machine();
  c.mem_available_bytes = 200.0 * 1024 * 1024;  // a quarter is 50 MiB < 64 MiB wanted
  EXPECT_DOUBLE_EQ(working_set_for("DRAM", c, 1), 50.0 * 1024 * 1024);
  c.mem_available_bytes = 40.0 * 1024 * 1024;  // 10 MiB: not even past the 16 MiB L3
  EXPECT_THROW(working_set_for("DRAM", c, 1), Unavailable);
  EXPECT_THROW(working_set_for("L4", c, 1), Unavailable);
  EXPECT_THROW(working_set_for("L1", c, 0), InputError);
}

TEST(SuiteSizes, ParseLevels) {
  // One parser for `roofline run --levels` and `roofline measure --levels`.
  EXPECT_EQ(parse_memory_levels({"l1, dram"}, "--levels"),
            (std::vector<std::string>{"L1", "DRAM"}));
  EXPECT_EQ(parse_memory_levels({"L2,mem,L2"}, "--levels"),
            (std::vector<std::string>{"L2", "DRAM"}));
  EXPECT_EQ(parse_memory_levels({"L3", "ram", "Memory"}, "--levels"),
            (std::vector<std::string>{"L3", "DRAM"}));
  try {
    parse_memory_levels({"L1,L9"}, "--levels");
    FAIL() << "L9 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'L9'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("--levels"), std::string::npos);
  }
  EXPECT_THROW(parse_memory_levels({""}, "--levels"), InputError);
  // An empty name inside a list (the Python API passes lists as given) is refused, not dropped.
  for (const char* bad : {"L1,", "L1,,DRAM", ",L2", "L1, ,L2"}) {
    try {
      parse_memory_levels({bad}, "--levels");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--levels: an empty name in the list '") + bad + "'");
    }
  }
  EXPECT_THROW(parse_memory_levels({}, "--levels"), InputError);
}

TEST(SuiteKernels, ResolveNamesAndGroups) {
  EXPECT_EQ(resolve_kernels({}).size(), suite_kernels().size());
  EXPECT_EQ(resolve_kernels({"axpy"}),
            (std::vector<std::string>{"axpy-fp64", "axpy-fp32", "axpy-fp16"}));
  EXPECT_EQ(resolve_kernels({"STREAM", "triad"}),
            (std::vector<std::string>{"copy", "scale", "add", "triad"}));
  EXPECT_EQ(resolve_kernels({"dgemm"}), (std::vector<std::string>{"gemm-blas-fp64"}));
  try {
    resolve_kernels({"axpy", "saxpyy"});
    FAIL() << "unknown kernel accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown kernel 'saxpyy'"), std::string::npos);
  }
}

Context ctx_at(const std::string& level, int threads = 2) {
  Context c;
  c.machine = fixture_machine();
  c.threads = threads;
  c.level = level;
  return c;
}

// A small working set per kernel, so every test run is quick.
double small_set(const std::string& name) {
  if (name.rfind("gemm", 0) == 0) return 3 * 8.0 * 64 * 64;
  if (name == "stencil3d") return 16.0 * 24 * 24 * 24;
  return 96.0 * 1024;
}

// `run` builds every planned set up to kSmallWorkingSet before timing any, to refuse a set too
// small at once; that holds only while every kernel builds at that size.
TEST(SuiteKernels, EveryKernelBuildsAtTheSmallWorkingSet) {
  for (const auto& info : suite_kernels()) {
    SCOPED_TRACE(info.name);
    EXPECT_NO_THROW(make_workload(info.name, kSmallWorkingSet, ctx_at("L2")));
  }
}

TEST(SuiteKernels, WorkAndTrafficAreTheCataloguesFormulas) {
  for (const auto& info : suite_kernels()) {
    SCOPED_TRACE(info.name);
    auto w = make_workload(info.name, Bytes(small_set(info.name)), ctx_at("L2"));
    const KernelCount want = find_kernel(info.catalogue).count(w->params, parse_dtype(info.dtype));
    EXPECT_DOUBLE_EQ(w->count.work.value, want.work.value);
    EXPECT_DOUBLE_EQ(w->count.traffic.value, want.traffic.value);
    EXPECT_DOUBLE_EQ(w->count.traffic_write_allocate.value, want.traffic_write_allocate.value);
    if (info.name == "copy")
      EXPECT_EQ(w->count.work.value, 0);  // no arithmetic: I = 0
    else
      EXPECT_GT(w->count.work.value, 0);
    ASSERT_FALSE(w->traffic.empty());
    EXPECT_LE(w->working_set_bytes, small_set(info.name) * 1.0001);
    EXPECT_GT(w->working_set_bytes, small_set(info.name) * 0.5);
  }
}

TEST(SuiteKernels, HandCountsOfKeyKernels) {
  auto axpy64 = make_workload("axpy-fp64", Bytes(1 << 20), ctx_at("L2"));
  const double n = axpy64->params.at("n");
  EXPECT_DOUBLE_EQ(axpy64->count.work.value, 2 * n);      // docs/model.md §3: W = 2n
  EXPECT_DOUBLE_EQ(axpy64->count.traffic.value, 24 * n);  // DAXPY Q = 24n
  auto axpy32 = make_workload("axpy-fp32", Bytes(1 << 20), ctx_at("L2"));
  auto axpy16 = make_workload("axpy-fp16", Bytes(1 << 20), ctx_at("L2"));
  // The quantisation point: halving the element size doubles the intensity.
  EXPECT_DOUBLE_EQ(axpy32->count.intensity().value, 1.0 / 6);
  EXPECT_DOUBLE_EQ(axpy16->count.intensity().value, 2 * axpy32->count.intensity().value);
  EXPECT_EQ(axpy16->precision, "fp32");  // fp16 storage, fp32 arithmetic
  auto triad = make_workload("triad", Bytes(1 << 20), ctx_at("L2"));
  const double tn = triad->params.at("n");
  EXPECT_DOUBLE_EQ(triad->count.traffic.value, 24 * tn);
  EXPECT_DOUBLE_EQ(triad->count.traffic_write_allocate.value, 32 * tn);
}

TEST(SuiteKernels, TrafficLevels) {
  // Streaming: the same Q at the working set's level and every faster one.
  auto axpy = make_workload("axpy-fp64", Bytes(1 << 20), ctx_at("DRAM"));
  ASSERT_EQ(axpy->traffic.size(), 4u);
  EXPECT_EQ(axpy->traffic[0].level, "DRAM");
  EXPECT_EQ(axpy->traffic[3].level, "L1");
  for (const auto& t : axpy->traffic) EXPECT_DOUBLE_EQ(t.bytes.value, axpy->count.traffic.value);
  auto l2 = make_workload("axpy-fp64", Bytes(1 << 20), ctx_at("L2"));
  ASSERT_EQ(l2->traffic.size(), 2u);
  EXPECT_EQ(l2->traffic[0].level, "L2");
  // Tiled gemm from L3: the traffic b×b tiles imply (Hong–Kung), above the compulsory bound.
  auto tiled = make_workload("gemm-tiled", Bytes(3 * 8.0 * 512 * 512), ctx_at("L3"));
  const double b = tiled->params.at("tile");
  const double n = tiled->params.at("n");
  EXPECT_DOUBLE_EQ(b, 208);  // ⌊√(1 MiB / 24)⌋ rounded down to a multiple of 8
  ASSERT_EQ(tiled->traffic.size(), 1u);
  EXPECT_EQ(tiled->traffic[0].level, "L3");
  const KernelCount bound = gemm_cache_bounded(n, n, n, parse_dtype("fp64"), 3 * 8 * b * b);
  EXPECT_DOUBLE_EQ(tiled->traffic[0].bytes.value, bound.traffic.value);
  EXPECT_GT(tiled->traffic[0].bytes.value, tiled->count.traffic.value);
  // From DRAM: DRAM traffic by the L3 size, L3 traffic by the tile.
  auto tiled_dram = make_workload("gemm-tiled", Bytes(3 * 8.0 * 512 * 512), ctx_at("DRAM"));
  ASSERT_EQ(tiled_dram->traffic.size(), 2u);
  EXPECT_EQ(tiled_dram->traffic[0].level, "DRAM");
  EXPECT_DOUBLE_EQ(
      tiled_dram->traffic[0].bytes.value,
      gemm_cache_bounded(n, n, n, parse_dtype("fp64"), 16.0 * 1024 * 1024).traffic.value);
}

TEST(SuiteKernels, TooSmallASizeIsAnInputError) {
  EXPECT_THROW(make_workload("axpy-fp64", Bytes(512), ctx_at("L1")), InputError);
  EXPECT_THROW(make_workload("gemm-naive", Bytes(1000), ctx_at("L1")), InputError);
  EXPECT_THROW(make_workload("axpy-fp64", Bytes(-1), ctx_at("L1")), InputError);
  EXPECT_THROW(make_workload("nope", Bytes(1 << 20), ctx_at("L1")), InputError);
}

TEST(SuiteChecks, EveryKernelIsRightAndAWrongResultIsCaught) {
  for (const auto& info : suite_kernels()) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(info.name + " threads " + std::to_string(threads));
      auto w = make_workload(info.name, Bytes(small_set(info.name)), ctx_at("L2", threads));
      w->run();
      w->run();
      w->run();
      EXPECT_EQ(w->check(), "");
      w->run();
      EXPECT_EQ(w->check(), "");
      w->inject_fault();
      EXPECT_NE(w->check(), "") << "a corrupted result passed the check";
    }
  }
}

TEST(SuiteChecks, AKernelThatNeverRanFails) {
  // Outputs start as a sentinel, so skipping the work cannot pass (axpy runs once in check()).
  for (const std::string name : {"copy", "triad", "dot", "multiply", "gemv", "gemm-naive",
                                 "gemm-blas-fp64", "stencil2d", "spmv"}) {
    SCOPED_TRACE(name);
    auto w = make_workload(name, Bytes(small_set(name)), ctx_at("L2"));
    EXPECT_NE(w->check(), "");
  }
}

TEST(SuiteRunner, TimesAndChecks) {
  auto w = make_workload("axpy-fp32", Bytes(64 * 1024), ctx_at("L2"));
  const RunResult r = time_workload(*w, "axpy-fp32", "L2", 2, true);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.check, "passed");
  ASSERT_GE(r.times.size(), 3u);
  EXPECT_LE(r.min, r.median);
  EXPECT_LE(r.median, r.max);
  EXPECT_GT(r.median, 0);
  EXPECT_DOUBLE_EQ(r.median, median(r.times));
  // T of the point is the third-fastest repetition (as roofs are measured).
  std::vector<double> sorted = r.times;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_DOUBLE_EQ(r.sustained, sorted[2]);
  EXPECT_LE(r.min, r.sustained);
  EXPECT_LE(r.sustained, r.max);
  const Point p = r.to_point();
  EXPECT_DOUBLE_EQ(p.work.value, w->count.work.value);
  EXPECT_DOUBLE_EQ(p.time.value, r.sustained);
  EXPECT_EQ(p.traffic.front().level, "L2");
  EXPECT_EQ(p.name, "axpy-fp32 @L2");
}

TEST(SuiteRunner, ALongCallIsTimedWithoutCalibrationCalls) {
  // A call longer than the quick long-call bound (0.1 s): the warm-up and three repetitions,
  // no calibration tries (a DRAM-size GEMM of 150 s a call took 7 calls, 18 minutes).
  class Slow : public Workload {
   public:
    int calls = 0;
    Slow() {
      count = axpy(1000, parse_dtype("fp64"));
      traffic = {{"DRAM", count.traffic}};
    }
    void run() override {
      ++calls;
      std::this_thread::sleep_for(std::chrono::milliseconds(120));
    }
    std::string check() override { return ""; }
    void inject_fault() override {}
  } slow;
  const RunResult r = time_workload(slow, "slow", "DRAM", 1, true);
  EXPECT_EQ(slow.calls, 4);
  EXPECT_EQ(r.times.size(), 3u);
  EXPECT_EQ(r.calls_per_repetition, 1);
}

TEST(SuiteRunner, AFailedCheckIsRecorded) {
  class Wrong : public Workload {
   public:
    Wrong() {
      count = axpy(1000, parse_dtype("fp64"));
      traffic = {{"L1", count.traffic}};
    }
    void run() override {}
    std::string check() override { return "y[3] = 0, expected 5"; }
    void inject_fault() override {}
  } wrong;
  const RunResult r = time_workload(wrong, "wrong", "L1", 1, true);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.check, "y[3] = 0, expected 5");
}

TEST(SuiteRunner, MedianOfEvenAndOdd) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_THROW(median({}), InputError);
}

TEST(SuiteRunner, ResultsRoundTripThroughJson) {
  RunResult r;
  r.kernel = "gemm-blas-fp64";
  r.level = "DRAM";
  r.dtype = "fp64";
  r.params = {{"n", 512}};
  r.count = gemm(512, 512, 512, parse_dtype("fp64"));
  r.traffic = {{"DRAM", Bytes(7e6)}, {"L3", Bytes(9e6)}};
  r.times = {0.1, 0.12, 0.11};
  r.sustained = 0.12;
  r.median = 0.11;
  r.min = 0.1;
  r.max = 0.12;
  r.threads = 2;
  r.precision = "fp64";
  const RunResult back = run_record_from_json(run_record_to_json(r));
  EXPECT_EQ(back.kernel, r.kernel);
  EXPECT_DOUBLE_EQ(back.count.work.value, r.count.work.value);
  ASSERT_EQ(back.traffic.size(), 2u);
  EXPECT_EQ(back.traffic[0].level, "DRAM");  // order kept
  EXPECT_DOUBLE_EQ(back.traffic[1].bytes.value, 9e6);
  // The spread of the rate (the policy's samples), 1/t: three times, so the full range over the
  // median rate.
  EXPECT_DOUBLE_EQ(back.spread(), (1 / 0.1 - 1 / 0.12) / (1 / 0.11));
  EXPECT_EQ(back.times, r.times);
  EXPECT_DOUBLE_EQ(back.sustained, 0.12);
}

TEST(SuiteBlas, CoreClassesAndBestCore) {
  EXPECT_EQ(blas_core_isa("Prescott"), 1);
  EXPECT_EQ(blas_core_isa("SANDYBRIDGE"), 2);
  EXPECT_EQ(blas_core_isa("Zen"), 3);
  EXPECT_EQ(blas_core_isa("Haswell"), 3);
  EXPECT_EQ(blas_core_isa("SkylakeX"), 4);
  EXPECT_EQ(blas_core_isa("whatever"), 0);
  EXPECT_EQ(best_blas_core("AMD", true, true, false), "Zen");
  EXPECT_EQ(best_blas_core("Intel", true, true, true), "SkylakeX");
  EXPECT_EQ(best_blas_core("Intel", true, true, false), "Haswell");
  EXPECT_EQ(best_blas_core("Intel", true, false, false), "Sandybridge");
  EXPECT_EQ(best_blas_core("Intel", false, false, false), "");
}

TEST(SuiteBlas, ThreadCountHonoursTheEnvironmentsLimitAndTheTsanBuild) {
  EXPECT_EQ(roofline::suite::blas_thread_count(2, nullptr, false), 2);
  EXPECT_EQ(roofline::suite::blas_thread_count(2, "", false), 2);
  EXPECT_EQ(roofline::suite::blas_thread_count(8, "1", false), 1);
  EXPECT_EQ(roofline::suite::blas_thread_count(8, "3", false), 3);
  EXPECT_EQ(roofline::suite::blas_thread_count(2, "16", false), 2);  // a limit, not a request
  EXPECT_EQ(roofline::suite::blas_thread_count(4, "0", false), 4);   // not a limit OpenBLAS takes
  EXPECT_EQ(roofline::suite::blas_thread_count(4, "two", false), 4);
  EXPECT_EQ(roofline::suite::blas_thread_count(4, "2x", false), 4);
  EXPECT_EQ(roofline::suite::blas_thread_count(0, nullptr, false), 1);
  EXPECT_EQ(roofline::suite::blas_thread_count(8, nullptr, true), 1);
  EXPECT_EQ(roofline::suite::blas_thread_count(8, "4", true), 1);
}

TEST(SuiteBlas, InfoNamesTheCoreOpenBlasRuns) {
  const BlasInfo b = blas_info();
  // Opened at run time: a build that found OpenBLAS and cannot open it here fails, not skips.
  if (!b.available) {
    ASSERT_NE(b.why_not.find("was not found when roofline was built"), std::string::npos)
        << b.why_not;
    GTEST_SKIP() << b.why_not;
  }
  EXPECT_TRUE(b.why_not.empty()) << b.why_not;
  EXPECT_FALSE(b.corename.empty());
  EXPECT_NE(b.config.find("OpenBLAS"), std::string::npos);
  EXPECT_EQ(b.generic,
            !b.best_core.empty() && blas_core_isa(b.corename) < blas_core_isa(b.best_core));
}

TEST(SuiteBlas, RoofForTheCoresInstructionSet) {
  const MachineDocument m = load_machine_file(kData + "/run/machine-2core.json");
  EXPECT_EQ(roof_for_blas_core(m.roofs, "fp64", "Prescott"), "fp64 sse2");
  EXPECT_EQ(roof_for_blas_core(m.roofs, "fp64", "Zen"), "fp64 avx2 fma");
  EXPECT_EQ(roof_for_blas_core(m.roofs, "fp32", "Prescott"), "fp32");  // no SSE fp32 roof
  EXPECT_EQ(roof_for_blas_core(m.roofs, "fp64", "unknown"), "fp64");
}

TEST(SuiteBlas, RoofForTheCoresWidthAsMeasureNamesThem) {
  // `roofline measure` names roofs by width and class; SSE and AVX cores have no FMA.
  RoofSet r;
  auto add = [&](const char* name, double peak) {
    ComputeRoof c;
    c.name = name;
    c.precision = "fp64";
    c.unit = std::string(name).substr(5);
    c.peak = WorkRate(peak);
    r.compute.push_back(c);
  };
  add("fp64 scalar fma", 26e9);
  add("fp64 128-bit fma", 52e9);
  add("fp64 128-bit add+mul", 35e9);
  add("fp64 256-bit fma", 104e9);
  add("fp64 256-bit add+mul", 70e9);
  add("fp64 512-bit fma", 208e9);
  EXPECT_EQ(roof_for_blas_core(r, "fp64", "Prescott"), "fp64 128-bit add+mul");
  EXPECT_EQ(roof_for_blas_core(r, "fp64", "Sandybridge"), "fp64 256-bit add+mul");
  EXPECT_EQ(roof_for_blas_core(r, "fp64", "Zen"), "fp64 256-bit fma");
  EXPECT_EQ(roof_for_blas_core(r, "fp64", "SkylakeX"), "fp64 512-bit fma");
}

TEST(SuiteChild, RunsWithAChangedEnvironmentAndNoShell) {
  const ChildOutput out =
      run_child("/usr/bin/env", {}, {{"OPENBLAS_CORETYPE", "Prescott"}, {"A_B", "x y;z"}});
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_NE(out.out.find("OPENBLAS_CORETYPE=Prescott\n"), std::string::npos);
  EXPECT_NE(out.out.find("A_B=x y;z\n"), std::string::npos);
  EXPECT_THROW(run_child("/no/such/program", {}, {}), Unavailable);
}

TEST(SuiteHalf, ConversionsAreExactAndRoundToNearestEven) {
  using loops::float_to_half;
  using loops::half_to_float;
  // IEEE 754 binary16 encodings.
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(0.5f), 0x3800);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);               // largest finite
  EXPECT_EQ(float_to_half(65536.0f), 0x7c00);               // overflow → +inf
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 1);       // smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -26)), 0);       // below half the smallest: zero
  // 1 + 2⁻¹¹ is halfway between 1 and 1 + 2⁻¹⁰: ties to even (1.0); 1 + 3·2⁻¹¹ rounds up to
  // the even 1 + 2·2⁻¹⁰.
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);  // the fp16 nearest 1/3
  EXPECT_EQ(float_to_half(1.0f / 3), 0x3555);
  EXPECT_TRUE(std::isinf(half_to_float(0xfc00)) && half_to_float(0xfc00) < 0);
  EXPECT_TRUE(std::isnan(half_to_float(0x7e00)));
  // Every finite binary16 value converts to fp32 and back unchanged.
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00) continue;  // infinities and NaNs
    const auto bits = static_cast<std::uint16_t>(h);
    ASSERT_EQ(float_to_half(half_to_float(bits)), bits) << std::hex << h;
  }
}

TEST(SuiteHalf, Fp16AxpyStoresTwoBytesAndComputesExactly) {
  // The fp16 kernel (F16C where the CPU has it) against the exact small-integer answer.
  std::vector<loops::Half> x(1003), y(1003);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = loops::Half(double(i % 8 + 1));
    y[i] = loops::Half(double(i % 16));
  }
  loops::axpy(loops::Half(0.5), x.data(), y.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(static_cast<double>(y[i]), double(i % 16) + 0.5 * double(i % 8 + 1)) << i;
  EXPECT_EQ(sizeof(loops::Half), 2u);
}

TEST(SuiteMemory, MemAvailableIsLoweredByACgroupLimit) {
  // A 16 GiB MemAvailable, but a cgroup that allows 3 GiB and uses 1 GiB: 2 GiB of room.
  const auto dir = std::filesystem::temp_directory_path() / "roofline-test-cgroup";
  std::filesystem::create_directories(dir / "cgroup");
  std::ofstream(dir / "meminfo") << "MemTotal: 33554432 kB\nMemAvailable: 16777216 kB\n";
  EXPECT_DOUBLE_EQ(cpu::available_memory_bytes(dir / "meminfo", dir / "cgroup").value,
                   16777216.0 * 1024);  // no limit files: MemAvailable
  std::ofstream(dir / "cgroup" / "memory.max") << "3221225472\n";
  std::ofstream(dir / "cgroup" / "memory.current") << "1073741824\n";
  EXPECT_DOUBLE_EQ(cpu::available_memory_bytes(dir / "meminfo", dir / "cgroup").value,
                   2147483648.0);
  // The suite sizes from the same figure: DRAM gets at most a quarter of it.
  const Machine c =
      machine_from_sysfs(std::string(ROOFLINE_TEST_DATA) + "/run/sysfs/cpu", dir / "meminfo");
  EXPECT_DOUBLE_EQ(c.mem_available_bytes, 2147483648.0);
  EXPECT_LE(working_set_for("DRAM", c, 2), 2147483648.0 / 4);
  std::ofstream(dir / "cgroup" / "memory.max") << "max\n";  // "max": no limit
  EXPECT_DOUBLE_EQ(cpu::available_memory_bytes(dir / "meminfo", dir / "cgroup").value,
                   16777216.0 * 1024);
  std::filesystem::remove_all(dir);
}

TEST(SuiteArrays, AWorkloadsArraysLieAtTheSameRelativePlacesInEveryRun) {
  // Two arrays of 16 KiB and one of 10 B: each on a page boundary right after the previous one,
  // inside one block aligned to 8 MiB (so their page numbers differ in the low bits only), and
  // the same addresses again once all are freed: the layout an L1-size kernel meets cannot move
  // with address-space randomisation (parallel.hpp).
  const std::uintptr_t first_x = [] {
    Buffer<double> x(2048), y(2048);
    Buffer<char> z(10);
    const auto ax = reinterpret_cast<std::uintptr_t>(x.data());
    EXPECT_EQ(ax % 4096, 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(y.data()), ax + 16384);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(z.data()), ax + 32768);
    EXPECT_EQ(ax / (8u << 20), (ax + 32768 + 4095) / (8u << 20));
    return ax;
  }();
  Buffer<double> again(2048);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(again.data()), first_x);
  // An array larger than the region comes from the heap on a 2 MiB boundary (a huge page's);
  // the region stays in use.
  Buffer<double> big(std::size_t{2} << 20);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % (2u << 20), 0u);
  Buffer<double> next(16);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(next.data()), first_x + 16384);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::suite
