// Memory micro-kernels: working-set reads through L2 or L1, shared-memory reads, and the
// STREAM-style copy and triad (byte weights declared in kernels.cuh).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "kernels.cuh"

namespace roofline::cuda::kern {

namespace {

__device__ inline uint32_t hash32(uint64_t x, uint32_t seed) {
  // A 64→32-bit mixer (splitmix64 finaliser constants); only needs to look random.
  x += 0x9E3779B97F4A7C15ull * (seed + 1u);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint32_t>((x ^ (x >> 31)) >> 32);
}

__device__ inline float unit_float(uint64_t i, uint32_t seed) {
  return static_cast<float>(hash32(i, seed) >> 8) * (1.0f / 16777216.0f);  // [0, 1)
}

template <class T, class Convert>
__global__ void fill_kernel(T* p, size_t n, uint32_t seed, float lo, float hi, Convert convert) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = convert(lo + (hi - lo) * unit_float(i, seed));
}

__global__ void fill_f64_kernel(double* p, size_t n, uint32_t seed, double lo, double hi) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = lo + (hi - lo) * static_cast<double>(unit_float(i, seed));
}

struct ToF32 {
  __device__ float operator()(float v) const { return v; }
};
struct ToF16 {
  __device__ __half operator()(float v) const { return __float2half(v); }
};
struct ToBF16 {
  __device__ __nv_bfloat16 operator()(float v) const { return __float2bfloat16(v); }
};
struct ToFp8 {
  __device__ __nv_fp8_e4m3 operator()(float v) const { return __nv_fp8_e4m3(v); }
};
struct ToI8 {
  __device__ int8_t operator()(float v) const { return static_cast<int8_t>(floorf(v)); }
};

__device__ inline float sum4(float4 v) {
  return (v.x + v.y) + (v.z + v.w);
}

__global__ void read_l2_kernel(const float4* __restrict__ data, size_t n, int passes, float* sink,
                               float sentinel) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  for (int p = 0; p < passes; ++p) {
    size_t i = first;
    // Four independent loads in flight per thread.
    for (; i + 3 * stride < n; i += 4 * stride) {
      const float4 a = __ldcg(data + i);
      const float4 b = __ldcg(data + i + stride);
      const float4 c = __ldcg(data + i + 2 * stride);
      const float4 d = __ldcg(data + i + 3 * stride);
      acc0 += sum4(a);
      acc1 += sum4(b);
      acc2 += sum4(c);
      acc3 += sum4(d);
    }
    for (; i < n; i += stride) acc0 += sum4(__ldcg(data + i));
  }
  const float acc = (acc0 + acc1) + (acc2 + acc3);
  if (acc == sentinel) sink[first] = acc;
}

__global__ void read_l1_kernel(const float4* __restrict__ data, int passes, float* sink,
                               float sentinel) {
  const float4* tile =
      data + static_cast<size_t>(blockIdx.x) * (kL1Block * kL1VecPerThread) + threadIdx.x;
  float acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  for (int p = 0; p < passes; ++p) {
    const float4 a = __ldca(tile);
    const float4 b = __ldca(tile + kL1Block);
    const float4 c = __ldca(tile + 2 * kL1Block);
    const float4 d = __ldca(tile + 3 * kL1Block);
    acc0 += sum4(a);
    acc1 += sum4(b);
    acc2 += sum4(c);
    acc3 += sum4(d);
  }
  const float acc = (acc0 + acc1) + (acc2 + acc3);
  if (acc == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

constexpr int kSharedVec = 1024;  // 16 KiB of float4

__global__ void read_shared_kernel(int passes, float* sink, float sentinel) {
  __shared__ float4 buf[kSharedVec];
  for (int i = threadIdx.x; i < kSharedVec; i += blockDim.x)
    buf[i] = make_float4(static_cast<float>(i), 1.0f, 2.0f, 3.0f);
  __syncthreads();
  float4 acc = make_float4(0, 0, 0, 0);
  unsigned base = threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    // Consecutive lanes read consecutive float4: each quarter-warp covers 128 bytes, no bank
    // conflicts. The base moves every pass, so no load can be hoisted out of the loop; the
    // offsets are constants folded into the load instructions.
    const float4* q = buf + (base & (kSharedVec / 2 - 1));
#pragma unroll
    for (int k = 0; k < kSharedVecPerPass; ++k) {
      const float4 v = q[k * 32];
      acc.x += v.x;
      acc.y += v.y;
      acc.z += v.z;
      acc.w += v.w;
    }
    base += 32;
  }
  const float total = sum4(acc);
  if (total == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

__global__ void copy_kernel(const float4* __restrict__ a, float4* __restrict__ b, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    b[i] = a[i];
}

__global__ void triad_kernel(float4* __restrict__ a, const float4* __restrict__ b,
                             const float4* __restrict__ c, float s, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float4 x = b[i];
    const float4 y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

}  // namespace

void fill_f64(double* p, size_t n, uint32_t seed, double lo, double hi, Launch l) {
  fill_f64_kernel<<<l.grid, l.block, 0, l.stream>>>(p, n, seed, lo, hi);
}
void fill_f32(float* p, size_t n, uint32_t seed, float lo, float hi, Launch l) {
  fill_kernel<<<l.grid, l.block, 0, l.stream>>>(p, n, seed, lo, hi, ToF32{});
}
void fill_f16(void* p, size_t n, uint32_t seed, float lo, float hi, Launch l) {
  fill_kernel<<<l.grid, l.block, 0, l.stream>>>(static_cast<__half*>(p), n, seed, lo, hi, ToF16{});
}
void fill_bf16(void* p, size_t n, uint32_t seed, float lo, float hi, Launch l) {
  fill_kernel<<<l.grid, l.block, 0, l.stream>>>(static_cast<__nv_bfloat16*>(p), n, seed, lo, hi,
                                                ToBF16{});
}
void fill_fp8_e4m3(void* p, size_t n, uint32_t seed, float lo, float hi, Launch l) {
  fill_kernel<<<l.grid, l.block, 0, l.stream>>>(static_cast<__nv_fp8_e4m3*>(p), n, seed, lo, hi,
                                                ToFp8{});
}
void fill_i8(int8_t* p, size_t n, uint32_t seed, int lo, int hi, Launch l) {
  fill_kernel<<<l.grid, l.block, 0, l.stream>>>(p, n, seed, static_cast<float>(lo),
                                                static_cast<float>(hi), ToI8{});
}

void read_l2(const float4* data, size_t n, int passes, float* sink, float sentinel, Launch l) {
  read_l2_kernel<<<l.grid, l.block, 0, l.stream>>>(data, n, passes, sink, sentinel);
}
void read_l1(const float4* data, int passes, float* sink, float sentinel, Launch l) {
  read_l1_kernel<<<l.grid, kL1Block, 0, l.stream>>>(data, passes, sink, sentinel);
}
void read_shared(int passes, float* sink, float sentinel, Launch l) {
  read_shared_kernel<<<l.grid, l.block, 0, l.stream>>>(passes, sink, sentinel);
}
void copy(const float4* a, float4* b, size_t n, Launch l) {
  copy_kernel<<<l.grid, l.block, 0, l.stream>>>(a, b, n);
}
void triad(float4* a, const float4* b, const float4* c, float s, size_t n, Launch l) {
  triad_kernel<<<l.grid, l.block, 0, l.stream>>>(a, b, c, s, n);
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

cudaError_t occupancy(Kernel k, int block, Resources* out) {
  switch (k) {
    case Kernel::read_l2:
      return resources_of(read_l2_kernel, "read_l2", block, out);
    case Kernel::read_l1:
      return resources_of(read_l1_kernel, "read_l1", block, out);
    case Kernel::read_shared:
      return resources_of(read_shared_kernel, "read_shared", block, out);
    case Kernel::copy:
      return resources_of(copy_kernel, "copy", block, out);
    case Kernel::triad:
      return resources_of(triad_kernel, "triad", block, out);
    default:
      return compute_occupancy(k, block, out);
  }
}

}  // namespace roofline::cuda::kern
