// A stand-in libopenblas.so.0 whose gemm computes nothing: a broken BLAS, as a user could have
// first on the loader's path. `roofline run dgemm` with its folder first on LD_LIBRARY_PATH (the
// loader's ordinary search: blas.cpp opens "libopenblas.so.0" by name) reads back C as it left it,
// so its result check fails and the command exits 6 (kExitResultCheckFailed). Built for the
// tests only, never installed; the product has no switch for it. Defined with cblas.h's own
// types: the sanitizer build checks that a function called through a pointer has the pointer's
// type (ints for its enums had been "call through pointer to incorrect function type").
#include <cblas.h>

extern "C" {
void cblas_sgemm(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const enum CBLAS_TRANSPOSE,
                 const blasint, const blasint, const blasint, const float, const float*,
                 const blasint, const float*, const blasint, const float, float*, const blasint) {}
void cblas_dgemm(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const enum CBLAS_TRANSPOSE,
                 const blasint, const blasint, const blasint, const double, const double*,
                 const blasint, const double*, const blasint, const double, double*,
                 const blasint) {}
void openblas_set_num_threads(int) {}
char* openblas_get_corename(void) {
  static char name[] = "Haswell";
  return name;
}
char* openblas_get_config(void) {
  static char config[] = "OpenBLAS 0.0 (a broken stand-in: gemm leaves C unwritten)";
  return config;
}
}
