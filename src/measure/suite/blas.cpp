// OpenBLAS gemm workloads and what the BLAS runs: which core kernels it picked
// (openblas_get_corename), whether that core is narrower than the CPU (an unrecognised CPU gets
// the SSE3 "Prescott" kernels), and the core to force with OPENBLAS_CORETYPE instead.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "measure/engine/shared_library.hpp"
#include "parallel.hpp"
#include "roofline/dtype.hpp"
#include "roofline/signals.hpp"
#include "roofline/strings.hpp"
#include "roofline/suite.hpp"
#include "suite_internal.hpp"

#ifndef ROOFLINE_TSAN_BUILD
#define ROOFLINE_TSAN_BUILD 0
#endif

#if ROOFLINE_HAVE_OPENBLAS
#include <cblas.h>
#include <dlfcn.h>

#include <type_traits>
#endif

namespace roofline::suite {
namespace {

#if ROOFLINE_HAVE_OPENBLAS
// OpenBLAS's entry points, opened at run time by the first use (layer.cmake says why it is not
// linked); cblas.h gives their types. The library stays loaded for the process's life.
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
  decltype(&openblas_set_num_threads) set_num_threads = nullptr;
  decltype(&openblas_get_corename) corename = nullptr;
  decltype(&openblas_get_config) config = nullptr;
  std::string why_not;  ///< why it is not usable ("" when it is)
};

const OpenBlas& openblas() {
  static const OpenBlas api = [] {
    OpenBlas b;
    constexpr const char* kSoname = "libopenblas.so.0";
    // Its pool's threads start as it loads: under the hold, so that they never take the
    // signals that end a command (a SIGHUP would end the process in one while a file is written).
    const OpenedLibrary lib = [&] {
      const EndingSignalsHeld held;
      return open_library({kSoname, ROOFLINE_OPENBLAS_LIBRARY});
    }();
    if (!lib.handle) {
      b.why_not = lib.why_not(kSoname) + " (install libopenblas0)";
      return b;
    }
    const auto find = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib.handle, name));
      if (!f && b.why_not.empty()) b.why_not = lib.path + " has no " + name;
    };
    find(b.sgemm, "cblas_sgemm");
    find(b.dgemm, "cblas_dgemm");
    find(b.set_num_threads, "openblas_set_num_threads");
    find(b.corename, "openblas_get_corename");
    find(b.config, "openblas_get_config");
    return b;
  }();
  return api;
}

template <class T>
class BlasGemm : public Workload {
 public:
  BlasGemm(const Context& ctx, double ws) : ctx_(ctx) {
    constexpr bool fp32 = sizeof(T) == 4;
    name_ = fp32 ? "gemm-blas-fp32" : "gemm-blas-fp64";
    n_ = gemm_order_for(ws, sizeof(T), name_);
    A_ = Buffer<T>(n_ * n_);
    B_ = Buffer<T>(n_ * n_);
    C_ = Buffer<T>(n_ * n_);
    init_gemm_inputs(A_.data(), B_.data(), n_, ctx);
    parallel_share(ctx, n_ * n_, 64, [&](std::size_t b, std::size_t e, int) {
      std::fill(C_.data() + b, C_.data() + e, T(-1));
    });
    const double n = static_cast<double>(n_);
    const std::string dtype = fp32 ? "fp32" : "fp64";
    const DataType t = parse_dtype(dtype);
    count = gemm(n, n, n, t);
    params = {{"m", n}, {"n", n}, {"k", n}};
    working_set_bytes = 3.0 * sizeof(T) * n * n;
    precision = dtype;
    const cpu::CacheInfo* l3 = ctx.machine.cache("L3");
    if (ctx.level == "DRAM" && l3)
      traffic = {{"DRAM", gemm_cache_bounded(n, n, n, t, l3->size_bytes).traffic}};
    else
      traffic = {{ctx.level, count.traffic}};
    const BlasInfo info = blas_info();
    note = "OpenBLAS core " + info.corename +
           "; Q at DRAM is the L3-size bound (catalogue "
           "gemm_cache_bounded), compulsory when the matrices fit";
    const int threads = blas_thread_count(ctx.threads, std::getenv("OPENBLAS_NUM_THREADS"),
                                          ROOFLINE_TSAN_BUILD != 0);
    if (threads < ctx.threads)
      note += "; OpenBLAS limited to " + std::to_string(threads) + " of " +
              std::to_string(ctx.threads) + " threads (" +
              (ROOFLINE_TSAN_BUILD ? "ThreadSanitizer build" : "OPENBLAS_NUM_THREADS") + ")";
    openblas().set_num_threads(threads);
  }
  void run() override {
    const auto n = static_cast<blasint>(n_);
    if constexpr (sizeof(T) == 4)
      openblas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A_.data(), n,
                       B_.data(), n, 0.0f, C_.data(), n);
    else
      openblas().dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A_.data(), n,
                       B_.data(), n, 0.0, C_.data(), n);
  }
  std::string check() override { return check_gemm(name_, C_.data(), n_); }
  void inject_fault() override { C_[n_ + 3] += 1; }

 private:
  Context ctx_;
  std::string name_;
  std::size_t n_ = 0;
  Buffer<T> A_, B_, C_;
};
#endif

}  // namespace

std::unique_ptr<Workload> make_blas_workload(const Context& ctx, bool fp32, double ws) {
#if ROOFLINE_HAVE_OPENBLAS
  if (!openblas().why_not.empty()) throw Unavailable("OpenBLAS: " + openblas().why_not);
  if (fp32) return std::make_unique<BlasGemm<float>>(ctx, ws);
  return std::make_unique<BlasGemm<double>>(ctx, ws);
#else
  (void)ctx;
  (void)fp32;
  (void)ws;
  throw Unavailable("OpenBLAS was not found when roofline was built (install libopenblas-dev)");
#endif
}

// Instruction sets of OpenBLAS's x86-64 core names (OpenBLAS driver/others/dynamic.c and
// kernel/x86_64/KERNEL.<CORE>): the SSE-era cores, the AVX cores, the AVX2+FMA cores, AVX-512.
int blas_core_isa(const std::string& corename) {
  const std::string c = upper(corename);
  static const char* sse[] = {"PRESCOTT", "CORE2",      "PENRYN",       "DUNNINGTON", "NEHALEM",
                              "ATOM",     "OPTERON",    "OPTERON_SSE3", "BARCELONA",  "BOBCAT",
                              "KATMAI",   "COPPERMINE", "NORTHWOOD",    "BANIAS",     "ATHLON"};
  static const char* avx[] = {"SANDYBRIDGE", "BULLDOZER", "PILEDRIVER", "STEAMROLLER"};
  static const char* avx2[] = {"HASWELL", "ZEN", "EXCAVATOR", "SKYLAKE"};
  static const char* avx512[] = {"SKYLAKEX", "COOPERLAKE", "SAPPHIRERAPIDS"};
  for (const char* n : avx512)
    if (c == n) return 4;
  for (const char* n : avx2)
    if (c == n) return 3;
  for (const char* n : avx)
    if (c == n) return 2;
  for (const char* n : sse)
    if (c == n) return 1;
  return 0;
}

std::string best_blas_core(const std::string& vendor, bool avx, bool avx2_fma, bool avx512) {
  const std::string v = lower(vendor);
  const bool amd = v.find("amd") != std::string::npos;
  if (avx512 && !amd) return "SkylakeX";
  if (avx2_fma) return amd ? "Zen" : "Haswell";
  if (avx) return "Sandybridge";
  return "";
}

int blas_thread_count(int wanted, const char* openblas_num_threads, bool tsan_build) {
  int threads = std::max(1, wanted);
  if (tsan_build) return 1;
  if (openblas_num_threads && *openblas_num_threads) {
    char* end = nullptr;
    errno = 0;
    const long limit = std::strtol(openblas_num_threads, &end, 10);
    if (errno == 0 && end && *end == '\0' && limit >= 1)
      threads = static_cast<int>(std::min<long>(threads, limit));
  }
  return threads;
}

BlasInfo blas_info() {
  BlasInfo info;
  for (const char* var : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS",
                          "OPENBLAS_VERBOSE", "OMP_NUM_THREADS"})
    if (const char* v = std::getenv(var)) info.environment[var] = v;
#if ROOFLINE_HAVE_OPENBLAS
  info.why_not = openblas().why_not;
  if (!info.why_not.empty()) return info;
  info.available = true;
  info.corename = openblas().corename();
  info.config = openblas().config();
  while (!info.config.empty() && std::isspace(static_cast<unsigned char>(info.config.back())))
    info.config.pop_back();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const std::string vendor = __builtin_cpu_is("amd")     ? "AMD"
                             : __builtin_cpu_is("intel") ? "Intel"
                                                         : "";
  info.best_core = best_blas_core(vendor, __builtin_cpu_supports("avx"),
                                  __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
                                  __builtin_cpu_supports("avx512f"));
#endif
  info.generic =
      !info.best_core.empty() && blas_core_isa(info.corename) < blas_core_isa(info.best_core);
#else
  info.why_not = "OpenBLAS was not found when roofline was built (install libopenblas-dev)";
#endif
  return info;
}

std::string roof_for_blas_core(const RoofSet& roofs, const std::string& precision,
                               const std::string& corename) {
  const int isa = blas_core_isa(corename);
  // A roof names its instruction set ("fp64 avx2 fma", "fp64 sse2") or, as `roofline measure`
  // names them, its vector width and class ("fp64 256-bit fma", "fp64 128-bit add+mul"). SSE
  // and AVX cores have no FMA: their roof is the add+mul one of their width.
  auto has = [](const std::string& t, const char* w) { return t.find(w) != std::string::npos; };
  auto matches = [&](const std::string& text) {
    const std::string t = lower(text);
    const bool fma = has(t, "fma");
    switch (isa) {
      case 4:
        return has(t, "avx512") || has(t, "avx-512") || has(t, "512-bit");
      case 3:
        return has(t, "avx2") || has(t, "256-bit");
      case 2:
        return (has(t, "avx") && !has(t, "avx2") && !has(t, "avx512") && !has(t, "avx-512")) ||
               (has(t, "256-bit") && !fma);
      case 1:
        return has(t, "sse") || (has(t, "128-bit") && !fma);
      default:
        return false;
    }
  };
  const ComputeRoof* best = nullptr;
  for (const auto& c : roofs.compute) {
    if (c.sparse || lower(c.precision) != lower(precision)) continue;
    if (!matches(c.name) && !matches(c.unit)) continue;
    if (!best || c.peak > best->peak) best = &c;
  }
  return best ? best->name : precision;
}

}  // namespace roofline::suite
