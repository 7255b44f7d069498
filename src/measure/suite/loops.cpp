#include "loops.hpp"

#include <algorithm>

// One clone per x86-64 microarchitecture level, picked by the loader from CPUID (ifunc).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__SANITIZE_ADDRESS__)
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
// fp16 storage: each element is widened to fp32 (F16C vcvtph2ps on x86-64-v3), multiplied and
// added there, and rounded back to fp16 — two FLOP per element, on the fp32 unit.
#if ROOFLINE_HAVE_FLOAT16
ROOFLINE_CLONES void axpy(_Float16 a, const _Float16* x, _Float16* y, size_t n) {
  const float af = static_cast<float>(a);
  for (size_t i = 0; i < n; ++i)
    y[i] = static_cast<_Float16>(af * static_cast<float>(x[i]) + static_cast<float>(y[i]));
}
#endif
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
      const double* c = in + z * plane + y * nx;
      double* o = out + z * plane + y * nx;
#pragma omp simd
      for (size_t x = 1; x < nx - 1; ++x)
        o[x] = w0 * c[x] + w1 * c[x - 1] + w2 * c[x + 1] + w3 * c[x - nx] + w4 * c[x + nx] +
               w5 * c[x - plane] + w6 * c[x + plane];
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
