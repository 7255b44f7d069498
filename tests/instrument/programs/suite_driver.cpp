// The built-in suite's inner loops (src/measure/suite/loops.cpp, compiled by the tests with clang
// and the flopcount plugin, as the suite compiles them: -O3 with OpenMP simd), one call each:
//   fc_suite axpy N | triad N | gemm_tiled N B | gemm_naive N | stencil2d N | stencil3d N | dot N
// Each result is checked; exit status 0 only when it is right.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "measure/suite/loops.hpp"

namespace loops = roofline::suite::loops;

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const std::string k = argv[1];
  const size_t n = std::strtoull(argv[2], nullptr, 10);
  const size_t b = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 16;
  auto near = [](double got, double want) {
    return std::fabs(got - want) <= 1e-9 * std::fabs(want);
  };
  if (k == "axpy") {
    std::vector<double> x(n, 1.0), y(n, 2.0);
    loops::axpy(0.5, x.data(), y.data(), n);
    return near(y[n - 1], 2.5) ? 0 : 1;
  }
  if (k == "triad") {
    std::vector<double> a(n, 0.0), bb(n, 1.0), c(n, 2.0);
    loops::triad(3.0, bb.data(), c.data(), a.data(), n);
    return near(a[n - 1], 7.0) ? 0 : 1;
  }
  if (k == "gemm_tiled" || k == "gemm_naive") {
    std::vector<double> A(n * n, 1.0), B(n * n, 2.0), C(n * n, 0.0);
    if (k == "gemm_tiled")
      loops::gemm_tiled_rows(A.data(), B.data(), C.data(), 0, n, n, b);
    else
      loops::gemm_naive_rows(A.data(), B.data(), C.data(), 0, n, n);
    return near(C[n * n - 1], 2.0 * static_cast<double>(n)) ? 0 : 1;
  }
  if (k == "stencil2d") {
    const double w[5] = {0.5, 0.125, 0.125, 0.125, 0.125};
    std::vector<double> in(n * n, 1.0), out(n * n, 0.0);
    loops::stencil2d_rows(in.data(), out.data(), 1, n - 1, n, w);
    return near(out[n + 1], 1.0) ? 0 : 1;
  }
  if (k == "stencil3d") {
    const double w[7] = {0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    std::vector<double> in(n * n * n, 1.0), out(n * n * n, 0.0);
    loops::stencil3d_planes(in.data(), out.data(), 1, n - 1, n, n, w);
    return near(out[n * n + n + 1], 1.0) ? 0 : 1;
  }
  if (k == "dot") {
    std::vector<double> x(n, 1.0), y(n, 2.0);
    return near(loops::dot(x.data(), y.data(), n), 2.0 * static_cast<double>(n)) ? 0 : 1;
  }
  std::fprintf(stderr, "fc_suite: unknown kernel '%s'\n", k.c_str());
  return 2;
}
