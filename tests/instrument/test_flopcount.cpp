// W by instrumentation: programs built by the tests with the flopcount plugin
// (tests/instrument/programs.cmake) count exactly the FLOP the kernel catalogue states by hand.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/dtype.hpp"
#include "roofline/instrument.hpp"
#include "roofline/kernels.hpp"
#include "roofline/suite.hpp"

namespace roofline::instrument {
namespace ROOFLINE_UNITY_ID {
namespace fs = std::filesystem;
using roofline::test::TempDir;

#ifdef ROOFLINE_FLOPCOUNT_PROGRAMS
const std::string kPrograms = ROOFLINE_FLOPCOUNT_PROGRAMS;
#else
const std::string kPrograms;
#endif

#define REQUIRE_PROGRAMS()                                                              \
  if (kPrograms.empty())                                                                \
  GTEST_SKIP() << "the flopcount plugin is not built (needs llvm-14-dev and clang-14, " \
                  "scripts/deps.d/instrument.txt)"

struct Counted {
  int exit_code = -1;
  std::string out;
  CountResult counts;
};

Counted run_counting(const std::string& program, const std::vector<std::string>& args,
                     std::map<std::string, std::string> env = {}) {
  TempDir dir;
  env["ROOFLINE_FLOPCOUNT"] = "count";
  env["ROOFLINE_FLOPCOUNT_DIR"] = dir.path.string();
  Counted c;
  const suite::ChildOutput o = suite::run_child(kPrograms + "/" + program, args, env);
  c.exit_code = o.exit_code;
  c.out = o.out;
  c.counts = read_count_results(dir.path);
  return c;
}

const FunctionCount* find(const CountResult& r, const std::string& name) {
  for (const auto& f : r.functions)
    if (f.name == name) return &f;
  return nullptr;
}

double flops_of(const CountResult& r, const std::string& name) {
  const FunctionCount* f = find(r, name);
  return f ? total(f->ops) : -1;
}

/// FLOP of a function at a register width (0 = scalar), any precision.
double at_width(const FunctionCount& f, int width) {
  double s = 0;
  for (const auto& o : f.ops)
    if (o.kind == "flops" && o.width == width) s += o.count;
  return s;
}

const DataType kFp64 = parse_dtype("fp64");
const DataType kFp32 = parse_dtype("fp32");

struct Case {
  std::vector<std::string> args;
  std::string function;
  double flops;  // by hand: the kernel catalogue
  std::string precision;
  double calls;
};

std::vector<Case> kernel_cases() {
  return {
      {{"axpy", "1003", "3"}, "axpy", 3 * roofline::axpy(1003, kFp64).work.value, "fp64", 3},
      {{"saxpy", "1001"}, "saxpy", roofline::axpy(1001, kFp32).work.value, "fp32", 1},
      {{"triad", "999"}, "triad", roofline::triad(999, kFp64).work.value, "fp64", 1},
      {{"gemm", "13", "17", "19"}, "gemm", roofline::gemm(13, 17, 19, kFp64).work.value, "fp64", 1},
      {{"gemm_tiled", "70", "16"},
       "gemm_tiled",
       roofline::gemm(70, 70, 70, kFp64).work.value,
       "fp64",
       1},
      {{"stencil2d", "64", "48"},
       "stencil2d",
       roofline::stencil2d(64, 48, kFp64).work.value,
       "fp64",
       1},
      {{"stencil3d", "24", "20", "16"},
       "stencil3d",
       roofline::stencil3d(24, 20, 16, kFp64).work.value,
       "fp64",
       1},
      // Three threads share the axpy: their counter blocks add up.
      {{"threads", "100001", "3"}, "axpy", roofline::axpy(100001, kFp64).work.value, "fp64", 3},
  };
}

void check_build(const std::string& program, int expect_width) {
  for (const Case& c : kernel_cases()) {
    SCOPED_TRACE(program + " " + c.args.front());
    const Counted r = run_counting(program, c.args);
    ASSERT_EQ(r.exit_code, 0) << "the instrumented kernel computed a wrong result";
    ASSERT_EQ(r.counts.processes, 1);
    const FunctionCount* f = find(r.counts, c.function);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(total(f->ops), c.flops);  // exact: the counts are integers
    EXPECT_EQ(f->calls, c.calls);
    EXPECT_EQ(dominant_precision(f->ops), c.precision);
    EXPECT_EQ(by_precision(f->ops).size(), 1u);
    if (c.function == "gemm") continue;  // a reduction: not vectorised without fast-math
    if (expect_width == 0) {
      EXPECT_EQ(at_width(*f, 0), c.flops) << "-O0 code is scalar";
      continue;
    }
    // Every operation at a width the build has (vector loop, vector epilogue, scalar remainder)
    // and never wider than its registers.
    double sum = 0;
    for (const auto& o : f->ops) {
      EXPECT_LE(o.width, expect_width);
      sum += o.count;
    }
    EXPECT_EQ(sum, c.flops);
    // The plain streaming loop is vectorised at the full width.
    if (c.function == "axpy" || c.function == "triad") {
      EXPECT_GT(at_width(*f, expect_width), 0.9 * c.flops);
    }
  }
}

TEST(FlopCount, KernelsCountedExactlyAtO0) {
  REQUIRE_PROGRAMS();
  check_build("fc_kernels_o0", 0);
}

TEST(FlopCount, KernelsCountedExactlyWithAvx2) {
  REQUIRE_PROGRAMS();
  check_build("fc_kernels_v3", 256);
}

TEST(FlopCount, KernelsCountedExactlyWithAvx512) {
  REQUIRE_PROGRAMS();
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "this CPU has no AVX-512";
  check_build("fc_kernels_v4", 512);
}

TEST(FlopCount, DebugInformationNamesTheSource) {
  REQUIRE_PROGRAMS();
  const Counted r = run_counting("fc_kernels_v3", {"axpy", "100"});
  const FunctionCount* f = find(r.counts, "axpy");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->file.find("fc_kernels.c"), std::string::npos) << f->file;  // the -g build
  EXPECT_GT(f->line, 0);
}

TEST(FlopCount, ForkedChildCountsItsOwnWork) {
  REQUIRE_PROGRAMS();
  // Parent and child each run one axpy of n; the child starts from empty counts.
  const Counted r = run_counting("fc_kernels_v3", {"fork", "1000"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.counts.processes, 2);
  EXPECT_EQ(flops_of(r.counts, "axpy"), 2 * roofline::axpy(1000, kFp64).work.value);
  EXPECT_EQ(find(r.counts, "axpy")->calls, 2);
}

TEST(FlopCount, OffByDefaultAndNothingWritten) {
  REQUIRE_PROGRAMS();
  TempDir dir;
  const auto o = suite::run_child(kPrograms + "/fc_kernels_v3", {"axpy", "1000"},
                                  {{"ROOFLINE_FLOPCOUNT_DIR", dir.path.string()}});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_TRUE(fs::is_empty(dir.path));
}

// The suite's own loops (src/measure/suite/loops.cpp, -O3 with OpenMP simd as the suite builds
// them) against the catalogue's W.
TEST(FlopCount, SuiteLoopsMatchTheCatalogue) {
  REQUIRE_PROGRAMS();
  const std::string ns = "_ZN8roofline5suite5loops";
  struct S {
    std::vector<std::string> args;
    std::string symbol;
    double flops;
  };
  const std::vector<S> cases = {
      {{"axpy", "1000"}, ns + "4axpyEdPKdPdm", roofline::axpy(1000, kFp64).work.value},
      {{"triad", "1000"}, ns + "5triadEdPKdS3_Pdm", roofline::triad(1000, kFp64).work.value},
      {{"gemm_tiled", "64", "16"},
       ns + "15gemm_tiled_rowsEPKdS3_Pdmmmm",
       roofline::gemm(64, 64, 64, kFp64).work.value},
      {{"gemm_naive", "48"},
       ns + "15gemm_naive_rowsEPKdS3_Pdmmm",
       roofline::gemm(48, 48, 48, kFp64).work.value},
      {{"stencil2d", "50"},
       ns + "14stencil2d_rowsEPKdPdmmmS3_",
       roofline::stencil2d(50, 50, kFp64).work.value},
      {{"stencil3d", "20"},
       ns + "16stencil3d_planesEPKdPdmmmmS3_",
       roofline::stencil3d(20, 20, 20, kFp64).work.value},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args.front());
    const Counted r = run_counting("fc_suite", c.args);
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_EQ(flops_of(r.counts, c.symbol), c.flops);
  }
  // dot's `omp simd reduction` is vectorised: the partial sums' final combine is work the
  // machine does beyond the 2·n of the source, and is counted.
  const Counted d = run_counting("fc_suite", {"dot", "1000"});
  ASSERT_EQ(d.exit_code, 0);
  const double w = flops_of(d.counts, ns + "3dotEPKdS3_m");
  EXPECT_GE(w, roofline::dot(1000, kFp64).work.value);
  EXPECT_LE(w, roofline::dot(1000, kFp64).work.value + 64);
}

// Masked AVX-512 operations count their active lanes; the same selection on AVX2 (an operation
// on every lane and a blend) counts every lane, as the hardware executes them.
TEST(FlopCount, MaskedLanesAsExecuted) {
  REQUIRE_PROGRAMS();
  // The hand count from the AVX2 build of the same source: the x86-64-v4 build may use AVX-512
  // anywhere, also in this integer loop (SIGILL on an AVX2 CPU).
  const auto masks = suite::run_child(kPrograms + "/fc_masked_256", {"masks", "1000", "7"}, {});
  ASSERT_EQ(masks.exit_code, 0);
  const double active = std::stod(masks.out);  // Σ popcount(mask) over the 1000 groups
  EXPECT_GT(active, 1000);
  EXPECT_LT(active, 7000);

  const Counted v2 = run_counting("fc_masked_256", {"add", "1000", "7"});
  ASSERT_EQ(v2.exit_code, 0);
  const FunctionCount* f2 = find(v2.counts, "masked_add");
  ASSERT_NE(f2, nullptr);
  EXPECT_EQ(total(f2->ops), 8000);  // 2 × 4 lanes per group
  EXPECT_EQ(at_width(*f2, 256), 8000);
  EXPECT_EQ(total(f2->ops, "uncounted"), 0) << "the blend is data movement, not arithmetic";

  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "this CPU has no AVX-512";
  const Counted add = run_counting("fc_masked_512", {"add", "1000", "7"});
  ASSERT_EQ(add.exit_code, 0);
  const FunctionCount* fa = find(add.counts, "masked_add");
  ASSERT_NE(fa, nullptr);
  EXPECT_EQ(total(fa->ops), active);
  for (const auto& o : fa->ops) EXPECT_TRUE(o.masked && o.width == 512);
  const Counted fma = run_counting("fc_masked_512", {"fma", "1000", "7"});
  ASSERT_EQ(fma.exit_code, 0);
  EXPECT_EQ(flops_of(fma.counts, "masked_fma"), 2 * active);
  // A constant mask: the compiler turns the selection into a full-width add and a blend, so
  // all 8 lanes execute.
  const Counted k = run_counting("fc_masked_512", {"const", "1000"});
  ASSERT_EQ(k.exit_code, 0);
  EXPECT_EQ(flops_of(k.counts, "const_add"), 8000);
}

TEST(FlopCount, IntegerDotAndBf16DotProducts) {
  REQUIRE_PROGRAMS();
  const Counted v = run_counting("fc_masked_512", {"vnni", "100"});
  if (v.exit_code == 77) GTEST_SKIP() << "this CPU has no AVX512-VNNI";
  ASSERT_EQ(v.exit_code, 0);
  const FunctionCount* f = find(v.counts, "vnni");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(total(f->ops, "int_ops"), 100 * 16 * 4 * 2);  // lanes × byte products × (mul, add)
  EXPECT_EQ(total(f->ops), 0) << "integer operations are not FLOP";
  const Counted b = run_counting("fc_masked_512", {"bf16", "100"});
  if (b.exit_code == 77) GTEST_SKIP() << "this CPU has no AVX512-BF16";
  ASSERT_EQ(b.exit_code, 0);
  const FunctionCount* g = find(b.counts, "bf16");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(by_precision(g->ops)["bf16"], 100 * 16 * 2 * 2);  // fp32 lanes × (2 products, 2 adds)
}

// Marker regions get the W counted between begin and end. The example declares 2·n fp32 FLOP;
// the count also sees the two fp64 multiplies that compute the declared numbers (2.0·n and
// 12.0·n) inside the region.
TEST(FlopCount, MarkerRegionCountedEqualsDeclared) {
  REQUIRE_PROGRAMS();
  const Counted r = run_counting("fc_saxpy_regions", {"100000"}, {{"ROOFLINE_MARKERS", "0"}});
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_EQ(r.counts.regions.size(), 1u);
  const RegionCount& g = r.counts.regions[0];
  EXPECT_EQ(g.name, "saxpy-c");
  EXPECT_EQ(g.calls, 1);
  auto p = by_precision(g.ops);
  EXPECT_EQ(p["fp32"], 2.0 * 100000);  // what the program declares
  EXPECT_EQ(p["fp64"], 2);
  EXPECT_EQ(dominant_precision(g.ops), "fp32");
}

// A PMU recording of the same kernel: LIKWID.jl's daxpy with N = 10 000 on an Intel CPU counted
// FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE = 5000 (4 lanes, FMA counted twice): 20 000 FLOP in
// 256-bit instructions. The instrumented count of the same size, built for AVX2, agrees in total
// and in width.
TEST(FlopCount, AgreesWithARecordedPmuCount) {
  REQUIRE_PROGRAMS();
  const auto fixture = nlohmann::json::parse(roofline::test::slurp(
      std::string(ROOFLINE_TEST_DATA) + "/probe/selftest/likwidjl-daxpy-flops-dp.json"));
  ASSERT_EQ(fixture["n"], 10000);
  double packed256 = -1;
  for (const auto& r : fixture["readings"])
    if (r.value("event", "") == "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE")
      packed256 = r["value"].get<double>();
  ASSERT_EQ(packed256, 5000);
  const double pmu_flops = packed256 * 4;  // 4 fp64 lanes per 256-bit count
  const Counted r = run_counting("fc_kernels_v3", {"axpy", "10000"});
  const FunctionCount* f = find(r.counts, "axpy");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(total(f->ops), pmu_flops);
  EXPECT_EQ(at_width(*f, 256), pmu_flops);
}

TEST(FlopCount, ResultsDocumentErrorsNameTheFile) {
  EXPECT_THROW(parse_count_results("{}", "x.json"), InputError);
  EXPECT_THROW(parse_count_results("not json", "x.json"), InputError);
  const std::string bad =
      R"({"schema": "roofline.flopcount", "version": 1, "mode": "count",
          "functions": [{"name": "f", "calls": -1}]})";
  try {
    parse_count_results(bad, "x.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("x.json: functions[0]: calls"), std::string::npos);
  }
  const std::string ok =
      R"({"schema": "roofline.flopcount", "version": 1, "mode": "count", "dropped": 0,
          "functions": [{"name": "f", "calls": 2, "ops": [
            {"kind": "flops", "precision": "fp64", "width": 256, "masked": false, "count": 40},
            {"kind": "flops", "precision": "fp64", "width": 0, "masked": false, "count": 2},
            {"kind": "math", "precision": "fp64", "width": 0, "masked": false, "count": 5}]},
          {"name": "f", "calls": 1, "ops": [
            {"kind": "flops", "precision": "fp32", "width": 0, "masked": false, "count": 10}]}],
          "regions": []})";
  const CountResult r = parse_count_results(ok, "x.json");
  ASSERT_EQ(r.functions.size(), 1u);  // same name: merged
  EXPECT_EQ(r.functions[0].calls, 3);
  EXPECT_EQ(total(r.functions[0].ops), 52);
  EXPECT_EQ(total(r.functions[0].ops, "math"), 5);
  EXPECT_EQ(dominant_precision(r.functions[0].ops), "");  // fp64 42 of 52: below 90 %
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::instrument
