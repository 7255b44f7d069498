#pragma once
// The suite's inner loops, each over one thread's share of the data. They are compiled once per
// instruction-set level and chosen at run time (GCC/Clang function multi-versioning), so the
// same binary uses AVX-512, AVX2+FMA+F16C or baseline SSE2, whichever the CPU supports.
#include <cstddef>
#include <cstdint>

namespace roofline::suite::loops {

using std::size_t;

/// IEEE 754 binary16 storage (2 bytes per element). The suite's fp16 kernels do their arithmetic
/// in fp32: each element is widened (F16C vcvtph2ps where the CPU has it, exact), computed, and
/// rounded back to the nearest fp16 (ties to even), as fp16-storage code on CPUs without fp16
/// arithmetic does.
struct Half {
  std::uint16_t bits = 0;
  Half() = default;
  /// Rounds to the nearest binary16 value, ties to even (through fp32).
  explicit Half(double v);
  /// The exact value.
  explicit operator double() const;
  explicit operator float() const;
};
/// binary16 → binary32, exact (subnormals, infinities and NaN included).
float half_to_float(std::uint16_t h);
/// binary32 → binary16, round to nearest, ties to even; overflow gives infinity.
std::uint16_t float_to_half(float f);

// STREAM (McCalpin): copy b = c, scale b = s·c, add c = a + b, triad a = b + s·c.
void copy(const double* c, double* b, size_t n);
void scale(double s, const double* c, double* b, size_t n);
void add(const double* a, const double* b, double* c, size_t n);
void triad(double s, const double* b, const double* c, double* a, size_t n);
// y = a·x + y.
void axpy(double a, const double* x, double* y, size_t n);
void axpy(float a, const float* x, float* y, size_t n);
void axpy(Half a, const Half* x, Half* y, size_t n);
// Σ x·y.
double dot(const double* x, const double* y, size_t n);
// z = x·y elementwise.
void multiply(const float* x, const float* y, float* z, size_t n);
// y[i] = Σ_j A[i·n + j]·x[j] for rows [r0, r1).
void gemv_rows(const double* A, const double* x, double* y, size_t r0, size_t r1, size_t n);
// C = A·B for rows [r0, r1) of C, the textbook i-j-k triple loop (B walked down a column).
void gemm_naive_rows(const double* A, const double* B, double* C, size_t r0, size_t r1, size_t n);
// C += A·B for rows [r0, r1) of C, in b×b tiles (three tiles resident in the cache).
void gemm_tiled_rows(const double* A, const double* B, double* C, size_t r0, size_t r1, size_t n,
                     size_t b);
// 5-point weighted stencil on interior rows [r0, r1) of an nx-wide grid.
void stencil2d_rows(const double* in, double* out, size_t r0, size_t r1, size_t nx,
                    const double* w);
// 7-point weighted stencil on interior planes [z0, z1) of an nx×ny×nz grid.
void stencil3d_planes(const double* in, double* out, size_t z0, size_t z1, size_t nx, size_t ny,
                      const double* w);
// CSR y = A·x for rows [r0, r1).
void spmv_rows(const std::int64_t* row_ptr, const std::int32_t* col, const double* val,
               const double* x, double* y, size_t r0, size_t r1);

}  // namespace roofline::suite::loops
