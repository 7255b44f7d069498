// The peer of roofline's AMX roofs: oneDNN's matmul (Debian's libdnnl-dev) in bf16 (f32
// result) and int8 (u8 × s8 → s32), the library whose AMX kernels frameworks run on these
// CPUs. Prints, for each type, the implementation oneDNN chose and the median and best rate of
// REPS multiplies of M × K by K × N (2·M·N·K operations each) on the threads OpenMP is given.
// Usage: amx_onednn_matmul [SIZE [REPS]]   (default 4096, 15)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

namespace {

double now() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

void fill(dnnl::memory& m, unsigned char byte_pattern_lo, unsigned char byte_pattern_hi) {
  auto* p = static_cast<unsigned char*>(m.get_data_handle());
  const size_t n = m.get_desc().get_size();
  for (size_t i = 0; i + 1 < n; i += 2) {
    p[i] = byte_pattern_lo;
    p[i + 1] = byte_pattern_hi;
  }
}

void run(const char* name, dnnl::memory::data_type a_t, dnnl::memory::data_type b_t,
         dnnl::memory::data_type c_t, unsigned char lo, unsigned char hi, long size, int reps) {
  using namespace dnnl;
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  const memory::dims a_dims = {size, size}, b_dims = {size, size}, c_dims = {size, size};
  const memory::desc a_md(a_dims, a_t, memory::format_tag::ab);
  const memory::desc b_md(b_dims, b_t, memory::format_tag::any);
  const memory::desc c_md(c_dims, c_t, memory::format_tag::ab);
  const matmul::primitive_desc pd(matmul::desc(a_md, b_md, c_md), eng);
  memory a(a_md, eng), b(pd.weights_desc(), eng), c(c_md, eng);
  fill(a, lo, hi);  // every element the same small value (bf16 1.0, or int8 1)
  fill(b, lo, hi);
  matmul mm(pd);
  std::vector<double> rates;
  const double ops =
      2.0 * static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(size);
  for (int r = 0; r < reps + 2; ++r) {  // two warm-up multiplies
    const double t0 = now();
    mm.execute(s, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}});
    s.wait();
    if (r >= 2) rates.push_back(ops / (now() - t0));
  }
  std::sort(rates.begin(), rates.end());
  std::printf("%s impl=%s median=%.6g best=%.6g\n", name, pd.impl_info_str(),
              rates[rates.size() / 2], rates.back());
}

}  // namespace

int main(int argc, char** argv) {
  const long size = argc > 1 ? std::atol(argv[1]) : 4096;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 15;
  if (size < 64 || reps < 1) {
    std::fprintf(stderr, "usage: amx_onednn_matmul [SIZE >= 64 [REPS >= 1]]\n");
    return 2;
  }
  using dt = dnnl::memory::data_type;
  run("bf16", dt::bf16, dt::bf16, dt::f32, 0x80, 0x3f, size, reps);  // bf16 1.0 = 0x3f80
  run("int8", dt::u8, dt::s8, dt::s32, 0x01, 0x01, size, reps);
  return 0;
}
