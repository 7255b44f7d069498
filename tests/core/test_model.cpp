#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "roofline/compare.hpp"
#include "roofline/error.hpp"
#include "roofline/metrics.hpp"
#include "roofline/model.hpp"
#include "test_machines.hpp"

using namespace roofline;

TEST(Model, AttainableIsMinOfPeakAndSlantedRoof) {
  const WorkRate pi(19.5e12);
  const ByteRate beta(2.0e12);
  EXPECT_DOUBLE_EQ(attainable(pi, beta, Intensity(1.0 / 6)).value, 2.0e12 / 6);
  EXPECT_DOUBLE_EQ(attainable(pi, beta, Intensity(170.67)).value, 19.5e12);
  // On the bandwidth roof P at I = 1 equals β (docs/model.md §2: the 45° line's value at I = 1).
  EXPECT_DOUBLE_EQ(attainable(WorkRate(1e20), beta, Intensity(1)).value, beta.value);
}

TEST(Model, RidgePointsFromTheSeed) {
  // docs/model.md §8: A100 FP32 19.5 TFLOP/s over 2.0 TB/s ⇒ 9.75; FP16 tensor 312 ⇒ 156 (16×).
  EXPECT_DOUBLE_EQ(ridge(WorkRate(19.5e12), ByteRate(2.0e12)).value, 9.75);
  EXPECT_DOUBLE_EQ(ridge(WorkRate(312e12), ByteRate(2.0e12)).value, 156);
  EXPECT_DOUBLE_EQ(
      ridge(WorkRate(312e12), ByteRate(2e12)) / ridge(WorkRate(19.5e12), ByteRate(2e12)), 16);
  // V100 FP16 tensor 125 TFLOP/s over 900 GB/s ≈ 139.
  EXPECT_NEAR(ridge(WorkRate(125e12), ByteRate(900e9)).value, 139, 0.5);
  // H100 SXM BF16 dense 989.4 TFLOP/s over 3.35 TB/s ≈ 295.
  EXPECT_NEAR(ridge(WorkRate(989.4e12), ByteRate(3.35e12)).value, 295, 1);
  // TPU v5e BF16 197 TFLOP/s over 819 GB/s ≈ 240.
  EXPECT_NEAR(ridge(WorkRate(197e12), ByteRate(819e9)).value, 240, 1);
  // Side of the ridge: SAXPY memory-bound, GEMM N=1024 compute-bound on A100 fp32.
  EXPECT_EQ(side_of_ridge(Intensity(1.0 / 6), WorkRate(19.5e12), ByteRate(2e12)), Side::memory);
  EXPECT_EQ(side_of_ridge(Intensity(170.67), WorkRate(19.5e12), ByteRate(2e12)), Side::compute);
}

TEST(Model, NoOverlapCurveLiesBelowTheRoof) {
  const WorkRate pi(100e9);
  const ByteRate beta(10e9);
  // At the ridge the no-overlap curve is exactly half the roof (T = W/π + Q/β = 2W/π).
  EXPECT_DOUBLE_EQ(no_overlap(pi, beta, ridge(pi, beta)).value, 50e9);
  for (double i = 0.01; i < 1000; i *= 1.7) {
    const double roof = attainable(pi, beta, Intensity(i)).value;
    const double curve = no_overlap(pi, beta, Intensity(i)).value;
    EXPECT_LT(curve, roof);
    EXPECT_GE(curve, roof / 2 * (1 - 1e-12));  // never below half: max(a,b) ≤ a+b ≤ 2max(a,b)
  }
  EXPECT_DOUBLE_EQ(time_bound(Work(1e9), Bytes(1e9), pi, beta).value, 0.1);
  EXPECT_DOUBLE_EQ(time_no_overlap(Work(1e9), Bytes(1e9), pi, beta).value, 0.11);
}

TEST(Model, PropertyScaleInvarianceAndNeverAboveARoof) {
  // docs/model.md §2: min(π, β·λW/λQ) depends on W/Q alone; no attainable value exceeds a roof.
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> logu(-3, 3);
  for (int n = 0; n < 5000; ++n) {
    const WorkRate pi(std::pow(10, 10 + logu(rng)));
    const ByteRate beta(std::pow(10, 9 + logu(rng)));
    const Work w(std::pow(10, 9 + logu(rng)));
    const Bytes q(std::pow(10, 9 + logu(rng)));
    const double lambda = std::pow(10, logu(rng));
    const WorkRate a = attainable(pi, beta, w / q);
    const WorkRate b = attainable(pi, beta, (w * lambda) / (q * lambda));
    ASSERT_NEAR(a.value, b.value, 1e-12 * a.value);
    ASSERT_LE(a.value, pi.value);
    ASSERT_LE(a.value, (beta * (w / q)).value * (1 + 1e-15));
    ASSERT_LE(no_overlap(pi, beta, w / q).value, a.value);
  }
}

TEST(Model, DistanceIsReadVertically) {
  const Distance d = distance(WorkRate(1e9), WorkRate(1e11));
  EXPECT_DOUBLE_EQ(d.factor, 100);
  EXPECT_DOUBLE_EQ(d.decades, 2);
}

TEST(Compare, RatioAndRegimeAtAnIntensity) {
  const RoofSet a100 = test::a100();
  const RoofSet h100 = test::h100();
  // I = 1: left of both ridges ⇒ the bandwidth ratio 3.35 / 2.039.
  Comparison c = compare_at({&a100, &h100}, Intensity(1), "fp16");
  ASSERT_EQ(c.machines.size(), 2u);
  EXPECT_DOUBLE_EQ(c.ratios[0], 1);
  EXPECT_NEAR(c.ratios[1], 3.35 / 2.039, 1e-12);
  EXPECT_EQ(c.regimes[1], Regime::bandwidth);
  // I = 1000: right of both ⇒ the peak ratio 989.4 / 312.
  c = compare_at({&a100, &h100}, Intensity(1000), "fp16");
  EXPECT_NEAR(c.ratios[1], 989.4 / 312, 1e-12);
  EXPECT_EQ(c.regimes[1], Regime::peak);
  // I = 200: right of A100's ridge (153), left of H100's (295) ⇒ mixed.
  c = compare_at({&a100, &h100}, Intensity(200), "fp16");
  EXPECT_EQ(c.regimes[1], Regime::mixed);
  EXPECT_NEAR(c.ratios[1], 3.35e12 * 200 / 312e12, 1e-12);
}

TEST(Metrics, MfuAndBandwidthUtilisation) {
  // docs/model.md §11: MFU = model FLOPs per token × tokens/s / peak.
  EXPECT_DOUBLE_EQ(model_flops_utilisation(Work(1.4e10), 1000, WorkRate(312e12)), 1.4e13 / 312e12);
  EXPECT_DOUBLE_EQ(bandwidth_utilisation(Bytes(14e9), 100, ByteRate(2e12)), 0.7);
  EXPECT_THROW(model_flops_utilisation(Work(1), 1, WorkRate(0)), std::exception);
}

TEST(RoofSet, SelectsComputeRoofsByNamePrecisionOrPrecisionAndUnit) {
  RoofSet s;
  s.name = "gpu";
  auto add = [&](const std::string& name, const std::string& prec, const std::string& unit,
                 double peak, bool sparse = false) {
    ComputeRoof c;
    c.name = name;
    c.precision = prec;
    c.unit = unit;
    c.peak = WorkRate(peak);
    c.sparse = sparse;
    s.compute.push_back(c);
  };
  add("fp32 vector", "fp32", "cuda cores", 67e12);
  add("fp16 vector", "fp16", "cuda cores", 134e12);
  add("fp16 matrix", "fp16", "tensor cores", 989e12);
  add("fp16 matrix sparse", "fp16", "tensor cores", 1979e12, true);
  EXPECT_EQ(s.select_compute("fp32 vector").name, "fp32 vector");  // a roof name
  EXPECT_EQ(s.select_compute("fp16").name, "fp16 matrix");         // highest dense
  EXPECT_EQ(s.select_compute("fp16 tensor").name, "fp16 matrix");  // precision + unit
  EXPECT_EQ(s.select_compute("FP16 CUDA").name, "fp16 vector");    // case-insensitive
  EXPECT_THROW(s.select_compute("bf16 tensor"), InputError);       // no such precision
  EXPECT_THROW(s.select_compute("fp16 systolic"), InputError);     // no such unit
  // A type under another spelling, and either FP8 format on the one "fp8" roof datasheets give
  // (fp8-e4m3 from kernel() found no roof on any machine).
  EXPECT_EQ(s.select_compute("half").name, "fp16 matrix");
  EXPECT_EQ(s.select_compute("float16 vector").name, "fp16 vector");
  EXPECT_THROW(s.select_compute("fp8-e4m3"), InputError);
  add("fp8 matrix", "fp8", "tensor cores", 1979e12);
  EXPECT_EQ(s.select_compute("fp8-e4m3").name, "fp8 matrix");
  EXPECT_EQ(s.select_compute("E5M2").name, "fp8 matrix");
  EXPECT_EQ(s.select_compute("fp8-e5m2 tensor").name, "fp8 matrix");
  EXPECT_THROW(s.select_compute("int8"), InputError);  // no int8 roof, fp8 is not it
}

// GeForce tensor cores accumulate fp16 products in fp16 at twice the fp32-accumulate rate
// (Ada whitepaper, RTX 4090: 330.3 against 165.2 TFLOP/s); frameworks accumulate in fp32, so
// the precision's roof is the fp32-accumulate one (llm judged fp16 models 2x fast on it).
TEST(RoofSet, APrecisionsRoofAccumulatesInFullPrecisionWhereOneDoes) {
  RoofSet s;
  s.name = "geforce";
  auto add = [&](const std::string& name, const std::string& unit, double peak) {
    ComputeRoof c;
    c.name = name;
    c.precision = "fp16";
    c.unit = unit;
    c.peak = WorkRate(peak);
    s.compute.push_back(c);
  };
  add("fp16 tensor fp16-accumulate", "tensor fp16-accumulate", 330.3e12);
  EXPECT_TRUE(accumulates_narrow(s.compute[0]));
  // Alone, the narrow roof still stands for fp16.
  EXPECT_EQ(s.select_compute("fp16").name, "fp16 tensor fp16-accumulate");
  add("fp16 tensor", "tensor", 165.2e12);
  EXPECT_FALSE(accumulates_narrow(s.compute[1]));
  EXPECT_EQ(s.select_compute("fp16").name, "fp16 tensor");
  EXPECT_EQ(s.select_compute("fp16 tensor").name, "fp16 tensor");
  EXPECT_EQ(s.select_compute("").name, "fp16 tensor");  // no default: the fallback's pick
  // Asked for by name, it is given.
  EXPECT_EQ(s.select_compute("fp16 tensor fp16-accumulate").peak.value, 330.3e12);
  EXPECT_TRUE(outranks(s.compute[1], &s.compute[0]));
  EXPECT_FALSE(outranks(s.compute[0], &s.compute[1]));
  EXPECT_TRUE(outranks(s.compute[0], nullptr));
}

// Without a default roof (or with one of the other kind) the fallback is a roof that counts the
// point's work: "2 TFLOP" on a100's roofs with no default_compute was judged on int4 tensor.
TEST(RoofSet, TheDefaultFallbackCountsThePointsWork) {
  RoofSet s;
  s.name = "gpu";
  auto add = [&](const std::string& name, const std::string& prec, double peak, bool integer) {
    ComputeRoof c;
    c.name = name;
    c.precision = prec;
    c.peak = WorkRate(peak);
    c.integer = integer;
    s.compute.push_back(c);
  };
  add("fp32 vector", "fp32", 19.5e12, false);
  add("fp16 tensor", "fp16", 312e12, false);
  add("int8 tensor", "int8", 624e12, true);
  EXPECT_EQ(s.select_compute("").name, "fp16 tensor");  // unstated work: FLOP first
  EXPECT_EQ(s.select_compute("", "FLOP").name, "fp16 tensor");
  EXPECT_EQ(s.select_compute("", "OP").name, "int8 tensor");
  s.default_compute = "int8 tensor";  // a default of the other kind is passed over
  EXPECT_EQ(s.select_compute("", "FLOP").name, "fp16 tensor");
  EXPECT_EQ(s.select_compute("").name, "int8 tensor");  // the machine's own choice
  s.default_compute = "fp32 vector";
  EXPECT_EQ(s.select_compute("", "OP").name, "int8 tensor");
  EXPECT_TRUE(s.counts(s.compute[2], "OP"));
  EXPECT_FALSE(s.counts(s.compute[2], "FLOP"));
  EXPECT_TRUE(s.counts(s.compute[2], ""));
  EXPECT_EQ(s.work_mismatch(s.compute[0], "FLOP"), "");
  EXPECT_NE(s.work_mismatch(s.compute[2], "FLOP").find("no bound"), std::string::npos);
  // A machine of integer roofs alone (an NPU): unstated work is read in OP, FLOP is refused.
  s.compute.erase(s.compute.begin(), s.compute.begin() + 2);
  s.default_compute.clear();
  EXPECT_EQ(s.select_compute("").name, "int8 tensor");
  EXPECT_THROW(s.select_compute("", "FLOP"), InputError);
}

TEST(RoofSet, VectorWorkIsNeverJudgedAgainstAMatrixEngine) {
  RoofSet s;
  s.name = "gpu";
  auto add = [&](const std::string& name, const std::string& prec, const std::string& unit,
                 double peak) {
    ComputeRoof c;
    c.name = name;
    c.precision = prec;
    c.unit = unit;
    c.peak = WorkRate(peak);
    s.compute.push_back(c);
  };
  add("fp64 fma", "fp64", "cuda cores", 33.5e12);
  add("fp64 tensor", "fp64", "tensor", 66.9e12);
  add("fp16 mma", "fp16", "matrix", 989e12);
  add("int8 amx", "int8", "amx", 2e12);
  EXPECT_EQ(s.select_compute("fp64").name, "fp64 tensor");      // a precision: the highest
  EXPECT_EQ(s.select_compute("fp64 vector").name, "fp64 fma");  // CUDA-core work
  EXPECT_EQ(s.select_compute("fp16 tensor").name, "fp16 mma");  // a matrix engine by name
  EXPECT_THROW(s.select_compute("fp16 vector"), InputError);    // only a matrix roof
  EXPECT_FALSE(is_matrix_unit(s.compute[0]));
  EXPECT_TRUE(is_matrix_unit(s.compute[1]));
  EXPECT_TRUE(is_matrix_unit(s.compute[2]));
  EXPECT_TRUE(is_matrix_unit(s.compute[3]));
}

TEST(Roofs, GivenRoofsWithoutAPrecisionJudgeEveryPrecision) {
  // --peak/--bandwidth (Machine.from_roofs) without --precision: the one roof the user gave is
  // every precision's, so an fp32 or int64 point is judged against it.
  GivenRoofs g;
  g.name = "given";
  g.peak = WorkRate(19.5e12);
  g.bandwidth = ByteRate(2e12);
  const RoofSet any = given_roofs(g);
  EXPECT_EQ(any.select_compute("fp32").name, "peak");
  EXPECT_EQ(any.select_compute("int64").name, "peak");
  EXPECT_EQ(any.select_memory("").level, "DRAM");
  EXPECT_DOUBLE_EQ(any.select_compute("fp32").peak.value, 19.5e12);
  // The user's numbers: "given", not a datasheet's (they were Provenance::datasheet), and a
  // document holding them reads back.
  EXPECT_EQ(any.compute[0].provenance, Provenance::given);
  EXPECT_EQ(any.memory[0].provenance, Provenance::given);
  EXPECT_EQ(to_string(Provenance::given), "given");
  EXPECT_EQ(parse_provenance("given"), Provenance::given);
  // With a precision, the roof is that precision's only.
  g.precision = "fp64";
  g.level = "HBM";
  const RoofSet fp64 = given_roofs(g);
  EXPECT_EQ(fp64.select_compute("fp64").name, "fp64");
  EXPECT_THROW(fp64.select_compute("fp32"), InputError);
  EXPECT_EQ(fp64.select_memory("").level, "HBM");
  EXPECT_FALSE(fp64.compute[0].integer);
  // An integer precision's peak is in OP/s, as the catalogue's int8 roofs are.
  g.precision = "int8";
  EXPECT_TRUE(given_roofs(g).compute[0].integer);
  g.peak = WorkRate(-1);
  EXPECT_THROW(given_roofs(g), InputError);
}

// A set whose memory levels are all links (an interconnect, a network) has no default memory
// roof: plain traffic was judged against the slowest link (PCIe) as if it were main memory.
TEST(Model, NoDefaultMemoryRoofAmongLinksOnly) {
  RoofSet s = given_roofs({"links", WorkRate(1e12), ByteRate(900e9), "fp32", "NVLink"});
  s.memory[0].kind = "interconnect";
  MemoryRoof pcie = s.memory[0];
  pcie.level = "PCIe";
  pcie.bandwidth = ByteRate(128e9);
  s.memory.push_back(pcie);
  EXPECT_EQ(s.default_memory_roof(), nullptr);
  try {
    s.select_memory("");
    FAIL() << "a link became the default memory roof";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has no default memory roof"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(s.select_memory("PCIe").level, "PCIe");  // named, a link is judged against
  // A cache level is still a default when nothing else is (the slowest of them).
  MemoryRoof l2 = pcie;
  l2.level = "L2";
  l2.kind = "cache";
  l2.bandwidth = ByteRate(5e12);
  s.memory.push_back(l2);
  EXPECT_EQ(s.select_memory("").level, "L2");
}
