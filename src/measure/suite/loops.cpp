#include "loops.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// One clone per x86-64 microarchitecture level, picked by the loader from CPUID (ifunc). Not in
// sanitizer builds: the ifunc resolvers run during relocation, before the sanitizer runtime is
// up, and crash instrumented. Not with Clang before 18, which compiles these loops once for the
// target the build names (the flopcount test programs, -march=x86-64-v3): it names the resolver
// `name.ifunc`, which callers in other files cannot link against (fixed in Clang 18,
// llvm-project PR 71706), and Clang 14, given loops.hpp's declarations without the attribute,
// compiled each loop once, for the first target: AVX-512 code, SIGILL on an AVX2 CPU (Zen 1).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(ROOFLINE_SANITIZED) && !(defined(__clang__) && __clang_major__ < 18)
#define ROOFLINE_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define ROOFLINE_CLONES
#endif

namespace roofline::suite::loops {

ROOFLINE_CLONES void copy(const double* c, double* b, size_t n) {
  for (size_t i = 0; i < n; ++i) b[i] = c[i];
}
ROOFLINE_CLONES void scale(double s, const double* c, double* b, size_t n) {
  for (size_t i = 0; i < n; ++i) b[i] = s * c[i];
}
ROOFLINE_CLONES void add(const double* a, const double* b, double* c, size_t n) {
  for (size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
ROOFLINE_CLONES void triad(double s, const double* b, const double* c, double* a, size_t n) {
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
ROOFLINE_CLONES void axpy(double a, const double* x, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
ROOFLINE_CLONES void axpy(float a, const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
// ---- fp16 storage ----

float half_to_float(std::uint16_t h) {
  const bool negative = (h & 0x8000u) != 0;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  float v;
  if (exponent == 0)
    v = std::ldexp(static_cast<float>(mantissa), -24);  // zero or subnormal: m × 2⁻²⁴
  else if (exponent == 31)
    v = mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else
    v = std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);  // 1.m × 2^(e−15)
  return negative ? -v : v;
}

std::uint16_t float_to_half(float f) {
  const auto x = std::bit_cast<std::uint32_t>(f);
  const auto sign = static_cast<std::uint32_t>((x >> 16) & 0x8000u);
  std::uint32_t mantissa = x & 0x7fffffu;
  const int exponent = static_cast<int>((x >> 23) & 0xffu);
  if (exponent == 255)  // infinity or NaN (kept quiet)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  const int e = exponent - 127 + 15;                               // binary16 biased exponent
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow → infinity
  // Keeps the top bits of `m` above `shift`, rounding the rest to nearest, ties to even.
  auto round_shift = [](std::uint32_t m, int shift) {
    const std::uint32_t kept = m >> shift;
    const std::uint32_t rest = m & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
  };
  if (e <= 0) {  // a binary16 subnormal (or zero): m × 2⁻²⁴ with m = 1.mantissa × 2^(e+9)
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mantissa |= 0x800000u;
    return static_cast<std::uint16_t>(sign | round_shift(mantissa, 14 - e));
  }
  // Normal: 10 mantissa bits; a carry out of the mantissa correctly bumps the exponent.
  return static_cast<std::uint16_t>(
      sign | ((static_cast<std::uint32_t>(e) << 10) + round_shift(mantissa, 13)));
}

Half::Half(double v) : bits(float_to_half(static_cast<float>(v))) {}
Half::operator double() const {
  return half_to_float(bits);
}
Half::operator float() const {
  return half_to_float(bits);
}

namespace {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// F16C: eight elements widened with vcvtph2ps, a·x + y by one fp32 FMA, rounded back with
// vcvtps2ph (round to nearest even).
__attribute__((target("avx2,fma,f16c"))) void axpy_f16c(float a, const Half* x, Half* y, size_t n) {
  const __m256 va = _mm256_set1_ps(a);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 vx = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    const __m256 vy = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                     _mm256_cvtps_ph(_mm256_fmadd_ps(va, vx, vy), _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) y[i] = Half(a * static_cast<float>(x[i]) + static_cast<float>(y[i]));
}
bool has_f16c() {
  // Every x86-64 CPU with AVX2 and FMA (x86-64-v3) has F16C.
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}
#endif
}  // namespace

void axpy(Half a, const Half* x, Half* y, size_t n) {
  const auto af = static_cast<float>(a);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (has_f16c()) return axpy_f16c(af, x, y, n);
#endif
  for (size_t i = 0; i < n; ++i)
    y[i] = Half(af * static_cast<float>(x[i]) + static_cast<float>(y[i]));
}

ROOFLINE_CLONES double dot(const double* x, const double* y, size_t n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (size_t i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
ROOFLINE_CLONES void multiply(const float* x, const float* y, float* z, size_t n) {
  for (size_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
}
ROOFLINE_CLONES void gemv_rows(const double* A, const double* x, double* y, size_t r0, size_t r1,
                               size_t n) {
  for (size_t i = r0; i < r1; ++i) {
    const double* row = A + i * n;
    double s = 0;
#pragma omp simd reduction(+ : s)
    for (size_t j = 0; j < n; ++j) s += row[j] * x[j];
    y[i] = s;
  }
}
// Deliberately naive: no vector pragma, no blocking; the inner loop strides down B's column.
void gemm_naive_rows(const double* A, const double* B, double* C, size_t r0, size_t r1, size_t n) {
  for (size_t i = r0; i < r1; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}
ROOFLINE_CLONES void gemm_tiled_rows(const double* A, const double* B, double* C, size_t r0,
                                     size_t r1, size_t n, size_t b) {
  for (size_t j0 = 0; j0 < n; j0 += b) {
    const size_t j1 = std::min(n, j0 + b);
    for (size_t k0 = 0; k0 < n; k0 += b) {
      const size_t k1 = std::min(n, k0 + b);
      for (size_t i = r0; i < r1; ++i) {
        double* c = C + i * n;
        for (size_t k = k0; k < k1; ++k) {
          const double a = A[i * n + k];
          const double* brow = B + k * n;
#pragma omp simd
          for (size_t j = j0; j < j1; ++j) c[j] += a * brow[j];
        }
      }
    }
  }
}
ROOFLINE_CLONES void stencil2d_rows(const double* in, double* out, size_t r0, size_t r1, size_t nx,
                                    const double* w) {
  const double w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
  for (size_t i = r0; i < r1; ++i) {
    const double* c = in + i * nx;
    const double* up = c - nx;
    const double* dn = c + nx;
    double* o = out + i * nx;
#pragma omp simd
    for (size_t j = 1; j < nx - 1; ++j)
      o[j] = w0 * c[j] + w1 * up[j] + w2 * dn[j] + w3 * c[j - 1] + w4 * c[j + 1];
  }
}
ROOFLINE_CLONES void stencil3d_planes(const double* in, double* out, size_t z0, size_t z1,
                                      size_t nx, size_t ny, const double* w) {
  const size_t plane = nx * ny;
  const double w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6];
  for (size_t z = z0; z < z1; ++z)
    for (size_t y = 1; y + 1 < ny; ++y) {
      // The six neighbours' rows as pointers of their own: c[x - plane] would first form
      // x - plane, an unsigned wrap, and then a pointer past the array's end.
      const double* c = in + z * plane + y * nx;
      const double *north = c - nx, *south = c + nx, *below = c - plane, *above = c + plane;
      double* o = out + z * plane + y * nx;
#pragma omp simd
      for (size_t x = 1; x < nx - 1; ++x)
        o[x] = w0 * c[x] + w1 * c[x - 1] + w2 * c[x + 1] + w3 * north[x] + w4 * south[x] +
               w5 * below[x] + w6 * above[x];
    }
}
ROOFLINE_CLONES void spmv_rows(const std::int64_t* row_ptr, const std::int32_t* col,
                               const double* val, const double* x, double* y, size_t r0,
                               size_t r1) {
  for (size_t i = r0; i < r1; ++i) {
    double s = 0;
    for (std::int64_t p = row_ptr[i]; p < row_ptr[i + 1]; ++p) s += val[p] * x[col[p]];
    y[i] = s;
  }
}

}  // namespace roofline::suite::loops
