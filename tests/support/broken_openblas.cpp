// A stand-in libopenblas.so.0 whose gemm computes nothing: a broken BLAS, as a user could have
// first on the loader's path. `roofline run dgemm` with its folder first on LD_LIBRARY_PATH (the
// loader's ordinary search: blas.cpp opens "libopenblas.so.0" by name) reads back C as it left it,
// so its result check fails and the command exits 6 (kExitResultCheckFailed). Built for the
// tests only, never installed; the product has no switch for it.
extern "C" {
// cblas.h's signatures (its enums are ints, blasint an int in an LP64 OpenBLAS).
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                 float*, int) {}
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int,
                 double, double*, int) {}
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
