// Marks two regions with the C++ API and declares their work and traffic by hand (docs/model.md
// §3): SAXPY y = a·x + y: W = 2n, Q = 12n bytes (fp32: read x, read y, write y). Run it under
// `roofline profile -- ./marker_solver N` to get one point per region.
#include <roofline/marker.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  const float a = 0.5f;
  for (int rep = 0; rep < 5; ++rep) {
    roofline::Region r("saxpy");
    for (std::size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
    r.add_flops(2.0 * static_cast<double>(n));
    r.add_bytes(12.0 * static_cast<double>(n));
  }
  double sum = 0;
  {
    roofline::Region r("dot");
    for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * y[i];
    r.add_flops(2.0 * static_cast<double>(n));
    r.add_bytes(8.0 * static_cast<double>(n));  // read x, read y
  }
  std::printf("markers %s, checksum %.6g (expected %.6g)\n",
              roofline::Region::enabled() ? "on" : "off", sum, 4.5 * static_cast<double>(n));
  return sum == 4.5 * static_cast<double>(n) ? 0 : 1;
}
