/* The C marker API: one region, W and Q declared by the program (docs/model.md §3: SAXPY, W = 2n,
 * Q = 12n bytes). */
#include <roofline/marker.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
  float* x = malloc(n * sizeof *x);
  float* y = malloc(n * sizeof *y);
  if (!x || !y) return 1;
  for (size_t i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  roofline_region_begin("saxpy-c");
  for (size_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] + y[i];
  roofline_region_add_flops(2.0 * (double)n);
  roofline_region_add_bytes(12.0 * (double)n);
  roofline_region_end("saxpy-c");
  printf("y[0] = %g\n", (double)y[0]);
  int ok = y[0] == 2.5f;
  free(x);
  free(y);
  return ok ? 0 : 1;
}
