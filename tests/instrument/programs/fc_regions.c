/* Nested marker regions for `roofline profile --instrument`'s per-region Q, built with the
 * flopcount plugin and linked with the marker runtime:
 *   fc_regions N PASSES   x, y of N doubles set outside any region; then region "outer" holds
 *                         PASSES passes of region "inner", each y = a·x + y (W = 2·N, compulsory
 *                         traffic 3·N·8 B per pass).
 * The exit status is 0 only when y is right. */
#include <roofline/marker.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void axpy(double a, const double* x, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: fc_regions N PASSES\n");
    return 2;
  }
  const size_t n = strtoull(argv[1], NULL, 10);
  const int passes = atoi(argv[2]);
  double* x = malloc(n * sizeof *x);
  double* y = malloc(n * sizeof *y);
  if (!x || !y || passes < 1) return 1;
  for (size_t i = 0; i < n; ++i) x[i] = 1.0, y[i] = 0.0;
  roofline_region_begin("outer");
  for (int p = 0; p < passes; ++p) {
    roofline_region_begin("inner");
    axpy(0.5, x, y, n);
    roofline_region_end("inner");
  }
  roofline_region_end("outer");
  const int ok = y[0] == 0.5 * passes && y[n - 1] == 0.5 * passes;
  free(x);
  free(y);
  return ok ? 0 : 1;
}
