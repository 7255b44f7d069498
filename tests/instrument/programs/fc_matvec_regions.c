/* The loop nest likwid-perfctr measured on an AMD EPYC 7702 in the recording
 * tests/data/import/real/likwid-zen2-text-memdp-flopsdp.txt (regions <init_datastructures> and
 * <function_a>, N = 10 000), so that the simulated Q of the same regions can be set beside the
 * PMU's (test ProfileInstrumentCli.RegionsTrafficAgainstARecordedPmu):
 *   fc_matvec_regions N   region "<init_datastructures>": u, v of N doubles and the N×N matrix A
 *                         filled (no FLOP); then outside any region a dot product of u and v and
 *                         x = 2·u + v; then region "<function_a>": y_i = Σ_j A_ij · x_i
 *                         (2·N² FLOP, A read once: N²·8 bytes).
 * The exit status is 0 only when y is right. */
#include <roofline/marker.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

NOINLINE static void fill(double* u, double* v, double* a, size_t n) {
  for (size_t i = 0; i < n; ++i) u[i] = (double)(i % 2), v[i] = (double)(i % 4);
  for (size_t k = 0; k < n * n; ++k) a[k] = (double)(k % 8);
}
NOINLINE static double dot(const double* u, const double* v, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += u[i] * v[i];
  return s;
}
NOINLINE static void scaled_sum(const double* u, const double* v, double* x, size_t n) {
  for (size_t i = 0; i < n; ++i) x[i] = 2.0 * u[i] + v[i];
}
NOINLINE static void row_sums_scaled(const double* a, const double* x, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) y[i] += a[i * n + j] * x[i];
}

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
  if (n < 8) return 2;
  double* u = malloc(n * sizeof *u);
  double* v = malloc(n * sizeof *v);
  double* x = malloc(n * sizeof *x);
  double* y = malloc(n * sizeof *y);
  double* a = malloc(n * n * sizeof *a);
  if (!u || !v || !x || !y || !a) return 1;
  roofline_region_begin("<init_datastructures>");
  fill(u, v, a, n);
  roofline_region_end("<init_datastructures>");
  const double s = dot(u, v, n);
  scaled_sum(u, v, x, n);
  roofline_region_begin("<function_a>");
  row_sums_scaled(a, x, y, n);
  roofline_region_end("<function_a>");
  /* Row 1 holds 1, 2, ..., 7, 0, 1, ... shifted by n: its sum times x_1 = 2·1 + 1. */
  double row1 = 0;
  for (size_t j = 0; j < n; ++j) row1 += (double)((n + j) % 8);
  const int ok = y[0] == 0 && y[1] == row1 * 3.0 && s >= 0;
  free(u), free(v), free(x), free(y), free(a);
  return ok ? 0 : 1;
}
