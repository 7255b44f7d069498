#pragma once
// Launchers of the GPU micro-kernels (memory_kernels.cu, compute_kernels.cu). Each kernel states
// the work and bytes one launch performs (below), so rates are computed from the declaration in
// one place (backend.cpp). Launches are asynchronous on `stream`; the caller times them with
// events. `sentinel` is a value the kernel's result can never equal: the result is stored only
// when equal, which keeps the compiler from removing the work without writing memory.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace roofline::cuda::kern {

struct Launch {
  int grid = 1;
  int block = 256;
  cudaStream_t stream = nullptr;
};

// ---- initialisation: pseudo-random values in [lo, hi) (not zeros: tensor cores and DRAM draw
// less power on zeros, which would flatter the roofs) ----
void fill_f64(double* p, size_t n, uint32_t seed, double lo, double hi, Launch l);
void fill_f32(float* p, size_t n, uint32_t seed, float lo, float hi, Launch l);
void fill_f16(void* p, size_t n, uint32_t seed, float lo, float hi, Launch l);
void fill_bf16(void* p, size_t n, uint32_t seed, float lo, float hi, Launch l);
void fill_fp8_e4m3(void* p, size_t n, uint32_t seed, float lo, float hi, Launch l);
void fill_i8(int8_t* p, size_t n, uint32_t seed, int lo, int hi, Launch l);

// ---- memory (bytes per launch, named convention: every load and store counted once) ----
/// Reads n float4 `passes` times through L2 only (ld.global.cg): 16·n·passes bytes. Working sets
/// up to the L2 size hit in L2; larger ones stream from DRAM/HBM.
void read_l2(const float4* data, size_t n, int passes, float* sink, float sentinel, Launch l);
/// Each block reads its own tile of 16 KiB (256 threads × 4 float4) `passes` times through L1
/// (ld.global.ca): grid × 16 KiB × passes bytes; `data` holds grid tiles.
void read_l1(const float4* data, int passes, float* sink, float sentinel, Launch l);
inline constexpr int kL1Block = 256;
inline constexpr int kL1VecPerThread = 4;
/// Each thread reads 16 float4 per pass from a 16 KiB shared-memory buffer, conflict-free:
/// grid × block × passes × 256 bytes.
void read_shared(int passes, float* sink, float sentinel, Launch l);
inline constexpr int kSharedVecPerPass = 16;
/// b[i] = a[i]: 32·n bytes.
void copy(const float4* a, float4* b, size_t n, Launch l);
/// a[i] = b[i] + s·c[i]: 48·n bytes (and 2 FLOP per float, 8·n FLOP).
void triad(float4* a, const float4* b, const float4* c, float s, size_t n, Launch l);

// ---- compute: each thread runs kFmaChains independent FMA chains; one iteration is kFmaSteps
// FMAs on each chain, fully unrolled (256 FMAs per loop branch: the loop's own 2-3 instructions
// take about 1% of the issue slots; a 4-fold unroll of 8 chains left them 9%) ----
inline constexpr int kFmaChains = 8;
inline constexpr int kFmaSteps = 32;
inline constexpr double kFmaPerThreadIter = double{kFmaChains} * kFmaSteps;
/// fp64 FMA: grid × block × iters × kFmaPerThreadIter × 2 FLOP.
void fma_f64(int iters, double* sink, double sentinel, Launch l);
/// fp32 FMA: grid × block × iters × kFmaPerThreadIter × 2 FLOP.
void fma_f32(int iters, float* sink, float sentinel, Launch l);
/// fp16 half2 FMA: grid × block × iters × kFmaPerThreadIter × 4 FLOP (two lanes per FMA).
void fma_f16x2(int iters, float* sink, float sentinel, Launch l);

// ---- occupancy: the grids are sized from what the runtime says fits on one SM ----
enum class Kernel { read_l2, read_l1, read_shared, copy, triad, fma_f64, fma_f32, fma_f16x2 };
/// What one kernel takes and how many of its blocks of `block` threads fit on one SM.
struct Resources {
  int blocks_per_sm = 0;    ///< cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int registers = 0;        ///< cudaFuncAttributes::numRegs
  size_t shared_bytes = 0;  ///< static shared memory per block
  const char* name = "";
};
/// Fills `out` for kernel `k`; returns the runtime's error, if any.
cudaError_t occupancy(Kernel k, int block, Resources* out);
cudaError_t compute_occupancy(Kernel k, int block, Resources* out);  // the FMA kernels

}  // namespace roofline::cuda::kern
