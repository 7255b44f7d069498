// CUDA-core compute micro-kernels: kFmaChains independent FMA chains per thread, so each warp
// has enough independent instructions to cover the FMA latency and the SM issues at its peak
// rate; kFmaSteps FMAs per chain fully unrolled in each loop iteration, so the loop's counter,
// compare and branch take about 1% of the issue slots. Work per launch is declared in
// kernels.cuh.
#include <cuda_fp16.h>

#include "kernels.cuh"

namespace roofline::cuda::kern {

namespace {

template <class T>
__global__ void fma_kernel(int iters, T* sink, T sentinel) {
  // x ← x·a + b converges to b / (1 - a): values stay finite however long the loop runs.
  const T a = static_cast<T>(0.999999);
  const T b = static_cast<T>(1e-6);
  T x[kFmaChains];
#pragma unroll
  for (int k = 0; k < kFmaChains; ++k)
    x[k] = static_cast<T>(threadIdx.x + k) * static_cast<T>(1e-3);
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int s = 0; s < kFmaSteps; ++s) {
#pragma unroll
      for (int k = 0; k < kFmaChains; ++k) x[k] = fma(x[k], a, b);
    }
  }
  T total = 0;
#pragma unroll
  for (int k = 0; k < kFmaChains; ++k) total += x[k];
  if (total == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

__global__ void fma_f16x2_kernel(int iters, float* sink, float sentinel) {
  const __half2 a = __float2half2_rn(0.999f);
  const __half2 b = __float2half2_rn(1e-3f);
  __half2 x[kFmaChains];
#pragma unroll
  for (int k = 0; k < kFmaChains; ++k)
    x[k] = __floats2half2_rn(static_cast<float>(threadIdx.x % 64) * 1e-2f, static_cast<float>(k));
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int s = 0; s < kFmaSteps; ++s) {
#pragma unroll
      for (int k = 0; k < kFmaChains; ++k) x[k] = __hfma2(x[k], a, b);
    }
  }
  float total = 0;
#pragma unroll
  for (int k = 0; k < kFmaChains; ++k) total += __low2float(x[k]) + __high2float(x[k]);
  if (total == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

}  // namespace

void fma_f64(int iters, double* sink, double sentinel, Launch l) {
  fma_kernel<double><<<l.grid, l.block, 0, l.stream>>>(iters, sink, sentinel);
}
void fma_f32(int iters, float* sink, float sentinel, Launch l) {
  fma_kernel<float><<<l.grid, l.block, 0, l.stream>>>(iters, sink, sentinel);
}
void fma_f16x2(int iters, float* sink, float sentinel, Launch l) {
  fma_f16x2_kernel<<<l.grid, l.block, 0, l.stream>>>(iters, sink, sentinel);
}

namespace {
template <class F>
cudaError_t resources_of(F kernel, const char* name, int block, Resources* out) {
  out->name = name;
  cudaFuncAttributes a{};
  if (cudaError_t e = cudaFuncGetAttributes(&a, kernel); e != cudaSuccess) return e;
  out->registers = a.numRegs;
  out->shared_bytes = a.sharedSizeBytes;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out->blocks_per_sm, kernel, block, 0);
}
}  // namespace

cudaError_t compute_occupancy(Kernel k, int block, Resources* out) {
  switch (k) {
    case Kernel::fma_f64:
      return resources_of(fma_kernel<double>, "fma_f64", block, out);
    case Kernel::fma_f32:
      return resources_of(fma_kernel<float>, "fma_f32", block, out);
    case Kernel::fma_f16x2:
      return resources_of(fma_f16x2_kernel, "fma_f16x2", block, out);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace roofline::cuda::kern
