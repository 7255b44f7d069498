#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <map>
#include <string>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/kernels.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {
const DataType fp64 = parse_dtype("fp64");
const DataType fp32 = parse_dtype("fp32");
const DataType fp16 = parse_dtype("fp16");

TEST(Kernels, SaxpyAndDaxpyFromTheSeed) {
  // docs/model.md §3: SAXPY fp32 W = 2N, Q = 12N ⇒ I = 1/6, independent of N.
  for (double n : {1e3, 1e6, 1e9}) {
    const KernelCount k = axpy(n, fp32);
    EXPECT_DOUBLE_EQ(k.work.value, 2 * n);
    EXPECT_DOUBLE_EQ(k.traffic.value, 12 * n);
    EXPECT_DOUBLE_EQ(k.intensity().value, 1.0 / 6);
    EXPECT_EQ(k.blas_level, 1);
  }
  // DAXPY: Q = 24N ⇒ I = 1/12 ≈ 0.083.
  EXPECT_DOUBLE_EQ(axpy(1e6, fp64).traffic.value, 24e6);
  EXPECT_DOUBLE_EQ(axpy(1e6, fp64).intensity().value, 1.0 / 12);
  // FP16 halves Q and doubles I.
  EXPECT_DOUBLE_EQ(axpy(1e6, fp16).intensity().value, 2 * axpy(1e6, fp32).intensity().value);
  // Read-modify-write in place: write-allocate adds nothing.
  EXPECT_DOUBLE_EQ(axpy(1e6, fp32).traffic_write_allocate.value, 12e6);
}

TEST(Kernels, GemmFromTheSeed) {
  // docs/model.md §3: N×N fp32: W = 2N³, Q_min = 12N² ⇒ I = N/6; N = 1024 ⇒ 170.67.
  const KernelCount k = gemm(1024, 1024, 1024, fp32);
  EXPECT_DOUBLE_EQ(k.work.value, 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(k.traffic.value, 12.0 * 1024 * 1024);
  EXPECT_NEAR(k.intensity().value, 170.67, 0.005);
  EXPECT_EQ(k.blas_level, 3);
  // General (m,k)·(k,n): 2mkn.
  EXPECT_DOUBLE_EQ(gemm(10, 20, 30, fp64).work.value, 2 * 10 * 20 * 30);
  EXPECT_DOUBLE_EQ(gemm(10, 20, 30, fp64).traffic.value, (10 * 30 + 30 * 20 + 10 * 20) * 8);
}

TEST(Kernels, GemmCacheBoundedFollowsHongKung) {
  // docs/model.md §4: N = 1024 fp32, 12 MB fits A100's 40 MB L2 ⇒ compulsory traffic applies.
  const KernelCount fits = gemm_cache_bounded(1024, 1024, 1024, fp32, 40e6);
  EXPECT_DOUBLE_EQ(fits.traffic.value, 12.0 * 1024 * 1024);
  EXPECT_EQ(fits.note,
            "working set (1.258e+07 B) fits the cache (4e+07 B): compulsory traffic "
            "applies");
  // k = 1e6 with m = n = 1024: an 8.2 GB working set does not fit 1 GB, yet the tile
  // (b = 9128) is wider than m and n, so each matrix is read once: compulsory, said why.
  const KernelCount long_k = gemm_cache_bounded(1024, 1024, 1e6, fp32, 1e9);
  EXPECT_DOUBLE_EQ(long_k.traffic.value, gemm(1024, 1024, 1e6, fp32).traffic.value);
  EXPECT_EQ(long_k.note.rfind("working set (8.196e+09 B) exceeds the cache (1e+09 B), but the "
                              "tile b = 9128 is as wide as the matrices allow",
                              0),
            0u)
      << long_k.note;
  // N = 8192: 768 MB does not fit ⇒ Q = 2·N³·s/b + N²·s with b = ⌊√(M/(3s))⌋.
  const double n = 8192, s = 4, m = 40e6;
  const double b = std::floor(std::sqrt(m / (3 * s)));
  const KernelCount big = gemm_cache_bounded(n, n, n, fp32, m);
  EXPECT_DOUBLE_EQ(big.traffic.value, 2 * n * n * n * s / b + n * n * s);
  EXPECT_GT(big.traffic.value, gemm(n, n, n, fp32).traffic.value);
  // Measured I saturates at a √M scale, not N/6: I = 1/(s/b + s/(2N)) → b/s as N grows.
  const double limit = b / s;
  const double i1 = gemm_cache_bounded(n, n, n, fp32, m).intensity().value;
  const double i64 = gemm_cache_bounded(64 * n, 64 * n, 64 * n, fp32, m).intensity().value;
  EXPECT_LT(i1, limit);
  EXPECT_LT(i1, n / 6);
  EXPECT_NEAR(i64, 1 / (s / b + s / (2 * 64 * n)), 1e-9);
  EXPECT_NEAR(i64 / limit, 1.0, 0.002);
  // Quadrupling M doubles the saturated intensity (Θ(√M)), up to the floor in b.
  const double b4 = std::floor(std::sqrt(4 * m / (3 * s)));
  const double i64x4 = gemm_cache_bounded(64 * n, 64 * n, 64 * n, fp32, 4 * m).intensity().value;
  EXPECT_NEAR(i64x4, 1 / (s / b4 + s / (2 * 64 * n)), 1e-9);
  EXPECT_NEAR(i64x4 / i64, 2.0, 0.005);
  EXPECT_NEAR(b4 / b, 2.0, 0.002);
}

TEST(Kernels, ReuseExamplesFromTheSeed) {
  // docs/model.md §3: z = x·y: W = N, Q = 12N ⇒ I = 1/12.
  EXPECT_DOUBLE_EQ(elementwise_multiply(1e6, fp32).intensity().value, 1.0 / 12);
  // Add-only double loop: 2N² operations on 8N bytes ⇒ I = N/4.
  for (double n : {100.0, 1e4}) EXPECT_DOUBLE_EQ(add_double_loop(n, fp32).intensity().value, n / 4);
  // BLAS 1 and 2 are O(1), BLAS 3 is O(N).
  EXPECT_NEAR(gemv(4096, 4096, fp32).intensity().value, 0.5, 0.001);
  EXPECT_NEAR(gemv(8192, 8192, fp32).intensity().value, 0.5, 0.001);
  EXPECT_EQ(gemv(10, 10, fp32).blas_level, 2);
  EXPECT_NEAR(gemm(2048, 2048, 2048, fp32).intensity().value /
                  gemm(1024, 1024, 1024, fp32).intensity().value,
              2.0, 1e-12);
}

TEST(Kernels, StreamFamilyAndWriteAllocate) {
  EXPECT_DOUBLE_EQ(triad(1e6, fp64).work.value, 2e6);
  EXPECT_DOUBLE_EQ(triad(1e6, fp64).traffic.value, 24e6);
  EXPECT_DOUBLE_EQ(triad(1e6, fp64).traffic_write_allocate.value, 32e6);
  EXPECT_DOUBLE_EQ(copy(1e6, fp64).work.value, 0);
  EXPECT_DOUBLE_EQ(copy(1e6, fp64).traffic.value, 16e6);
  EXPECT_DOUBLE_EQ(scale(1e6, fp64).traffic.value, 16e6);
  EXPECT_DOUBLE_EQ(add(1e6, fp64).traffic.value, 24e6);
  EXPECT_DOUBLE_EQ(dot(1e6, fp32).intensity().value, 0.25);
}

TEST(Kernels, StencilsSpmvAndMlOperators) {
  EXPECT_DOUBLE_EQ(stencil2d(102, 102, fp64).work.value, 9 * 100 * 100);
  EXPECT_DOUBLE_EQ(stencil2d(102, 102, fp64).traffic.value, 2 * 102 * 102 * 8);
  EXPECT_DOUBLE_EQ(stencil3d(12, 12, 12, fp64).work.value, 13 * 1000);
  const KernelCount s = spmv_csr(1000, 1000, 5000, fp64, 4);
  EXPECT_DOUBLE_EQ(s.work.value, 10000);
  EXPECT_DOUBLE_EQ(s.traffic.value, 5000 * 12 + 1001 * 4 + 1000 * 8 + 1000 * 8);
  EXPECT_DOUBLE_EQ(softmax(10, 100, fp32).work.value, 5000);
  EXPECT_DOUBLE_EQ(softmax(10, 100, fp32).traffic.value, 8000);
  EXPECT_DOUBLE_EQ(layernorm(10, 100, fp32).work.value, 8000);
  EXPECT_DOUBLE_EQ(layernorm(10, 100, fp32).traffic.value, (2000 + 200) * 4);
}

TEST(Kernels, LlmDecodeIntensityFromTheSeed) {
  // docs/model.md §5: 7B fp16, batch 1: Q = 14 GB, W = 1.4e10 ⇒ I ≈ 1; batch B ⇒ I ≈ B.
  const KernelCount b1 = llm_decode_weights(7e9, 1, fp16);
  EXPECT_DOUBLE_EQ(b1.traffic.value, 14e9);
  EXPECT_DOUBLE_EQ(b1.work.value, 1.4e10);
  EXPECT_DOUBLE_EQ(b1.intensity().value, 1.0);
  for (double b : {8.0, 64.0, 256.0}) {
    const KernelCount kb = llm_decode_weights(7e9, b, fp16);
    EXPECT_DOUBLE_EQ(kb.traffic.value, 14e9);  // Q unchanged
    EXPECT_DOUBLE_EQ(kb.intensity().value, b);
  }
}

TEST(Kernels, CatalogueLookupAndErrors) {
  EXPECT_EQ(find_kernel("SAXPY").name, "axpy");
  EXPECT_EQ(find_kernel("dgemm").name, "gemm");
  EXPECT_THROW(find_kernel("fft"), InputError);
  EXPECT_THROW(axpy(0, fp32), InputError);
  EXPECT_THROW(axpy(-5, fp32), InputError);
  EXPECT_THROW(gemm(1, 1, std::nan(""), fp32), InputError);
  for (const auto& spec : kernel_catalogue()) {
    std::map<std::string, double> p;
    for (const auto& name : spec.params) p[name] = 64;
    const KernelCount k = spec.count(p, parse_dtype(spec.default_dtype));
    EXPECT_GT(k.traffic.value, 0) << spec.name;
    EXPECT_GE(k.traffic_write_allocate.value, k.traffic.value) << spec.name;
  }
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {
TEST(KernelRequest, AliasCarriesTheDtypeAndSizesAreParsed) {
  const KernelRequest d = kernel_request("daxpy", "", {{"n", "1M"}});
  EXPECT_EQ(d.spec->name, "axpy");
  EXPECT_EQ(d.dtype.name, "fp64");
  EXPECT_DOUBLE_EQ(d.params.at("n"), 1e6);
  EXPECT_EQ(kernel_request("SAXPY", "", {{"n", "10"}}).dtype.name, "fp32");
  EXPECT_EQ(kernel_request("daxpy", "fp16", {{"n", "10"}}).dtype.name, "fp16");  // given wins
  EXPECT_EQ(kernel_request("axpy", "", {{"n", "10"}}).dtype.name,
            parse_dtype(find_kernel("axpy").default_dtype).name);
  // --cache is an amount of bytes; a size is a count.
  const KernelRequest g =
      kernel_request("gemm", "", {{"m", "8"}, {"n", "8"}, {"k", "8"}, {"cache", "32 KiB"}});
  EXPECT_DOUBLE_EQ(g.params.at("cache"), 32768);
  // An optional size without a default is absent unless given (a given 0 reaches the check);
  // one with a default is filled.
  EXPECT_EQ(kernel_request("gemm", "", {{"m", "8"}, {"n", "8"}, {"k", "8"}}).params.count("cache"),
            0u);
  const KernelRequest s = kernel_request("spmv", "", {{"rows", "10"}, {"nnz", "20"}});
  EXPECT_EQ(s.params.count("cols"), 0u);
  EXPECT_DOUBLE_EQ(s.params.at("index"), 4);
  EXPECT_DOUBLE_EQ(s.spec->count(s.params, s.dtype).traffic.value,
                   spmv_csr(10, 10, 20, s.dtype, 4).traffic.value);
  auto error_of = [](const std::map<std::string, std::string>& sizes) {
    try {
      kernel_request("gemm", "", sizes);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of({{"m", "8"}, {"n", "8"}}), "kernel gemm: --k is required");
  // Every missing size at once, not the first alone.
  EXPECT_EQ(error_of({{"n", "1024"}}), "kernel gemm: --m and --k are required");
  EXPECT_EQ(error_of({}), "kernel gemm: --m, --n and --k are required");
  EXPECT_EQ(error_of({{"m", "8"}, {"n", "8"}, {"k", "8"}, {"rows", "3"}}),
            "kernel gemm takes no --rows");
}

TEST(KernelOnRoofs, RidgeSideAttainableAndTimeBounds) {
  // DAXPY (I = 1/12) on 10 TFLOP/s and 1 TB/s: memory-bound, P = β·I, T ≥ max(W/π, Q/β).
  const KernelCount k = axpy(1e9, parse_dtype("fp64"));
  ComputeRoof c;
  c.name = "fp64";
  c.peak = WorkRate(10e12);
  MemoryRoof m;
  m.level = "DRAM";
  m.bandwidth = ByteRate(1e12);
  const KernelOnRoofs r = kernel_on_roofs(k, c, m);
  EXPECT_DOUBLE_EQ(r.ridge.value, 10);
  EXPECT_TRUE(r.memory_bound);
  EXPECT_DOUBLE_EQ(r.attainable.value, 1e12 / 12);
  EXPECT_DOUBLE_EQ(r.time_bound.value, 24e9 / 1e12);
  EXPECT_DOUBLE_EQ(r.time_no_overlap.value, 2e9 / 10e12 + 24e9 / 1e12);
  EXPECT_EQ(r.compute_roof, "fp64");
  EXPECT_EQ(r.memory_level, "DRAM");
}

// A machine of an fp16 tensor roof (the default, 300 TFLOP/s), an fp16 vector roof
// (30 TFLOP/s), an int8 tensor roof (600 TOP/s) and HBM (2 TB/s, the default) and L2 (8 TB/s).
ComputeRoof compute_roof(const std::string& name, const std::string& precision,
                         const std::string& unit, double peak) {
  ComputeRoof c;
  c.name = name;
  c.precision = precision;
  c.unit = unit;
  c.peak = WorkRate(peak);
  return c;
}

RoofSet tensor_gpu() {
  RoofSet r;
  r.name = "gpu";
  const ComputeRoof tensor = compute_roof("fp16 tensor", "fp16", "tensor", 3e14);
  const ComputeRoof vector = compute_roof("fp16 vector", "fp16", "vector", 3e13);
  ComputeRoof int8 = compute_roof("int8 tensor", "int8", "tensor", 6e14);
  int8.integer = true;
  r.compute = {tensor, vector, int8};
  MemoryRoof hbm;
  hbm.level = "HBM";
  hbm.kind = "memory";
  hbm.bandwidth = ByteRate(2e12);
  MemoryRoof l2;
  l2.level = "L2";
  l2.kind = "cache";
  l2.bandwidth = ByteRate(8e12);
  r.memory = {hbm, l2};
  r.default_compute = "fp16 tensor";
  r.default_memory = "HBM";
  return r;
}

// `roofline kernel`'s placement: an axpy (no matrix product) on the vector roof of its type, a
// gemm on the highest (tensor), a named roof taken as named, the memory roof of the level asked
// for; a FLOP count on an OP/s roof refused with the command's message.
TEST(PlaceKernel, TheRoofTheKernelRunsOnOrTheOneNamed) {
  const RoofSet roofs = tensor_gpu();
  const KernelCount ax = axpy(1e9, fp16);
  const KernelOnMachine on_vector = place_kernel(roofs, ax, fp16, "", "");
  EXPECT_EQ(on_vector.machine, "gpu");
  EXPECT_EQ(on_vector.on.compute_roof, "fp16 vector");
  EXPECT_EQ(on_vector.on.memory_level, "HBM");
  EXPECT_DOUBLE_EQ(on_vector.on.peak.value, 3e13);
  EXPECT_DOUBLE_EQ(on_vector.on.bandwidth.value, 2e12);
  EXPECT_EQ(on_vector.note, "");
  // --precision names the tensor roof: taken although an axpy never runs there.
  const KernelOnMachine named = place_kernel(roofs, ax, fp16, "fp16 tensor", "L2");
  EXPECT_EQ(named.on.compute_roof, "fp16 tensor");
  EXPECT_EQ(named.on.memory_level, "L2");
  EXPECT_DOUBLE_EQ(named.on.bandwidth.value, 8e12);
  const KernelRequest req = kernel_request(
      "gemm", "fp16",
      std::map<std::string, std::string>{{"m", "1024"}, {"n", "1024"}, {"k", "1024"}});
  const KernelCount gemm = req.spec->count(req.params, req.dtype);
  EXPECT_EQ(place_kernel(roofs, gemm, fp16, "", "").on.compute_roof, "fp16 tensor");
  try {
    (void)place_kernel(roofs, ax, fp16, "int8", "");
    ADD_FAILURE() << "a FLOP count placed on an OP/s roof";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel axpy (fp16) counts FLOP, and roof 'int8 tensor' of machine 'gpu' is in "
              "OP/s: give --dtype and --precision of one kind (--dtype int8 for an integer roof)");
  }
  // A roof of no precision (--peak) takes any work.
  RoofSet given = roofs;
  given.compute = {compute_roof("peak", "", "", 1e12)};
  given.default_compute = "peak";
  given.compute[0].integer = true;
  EXPECT_EQ(place_kernel(given, ax, fp16, "peak", "").on.compute_roof, "peak");
  // A level the machine has no roof for is refused by select_memory, naming it.
  EXPECT_THROW((void)place_kernel(roofs, ax, fp16, "", "L3"), InputError);
}
}  // namespace ROOFLINE_UNITY_ID
