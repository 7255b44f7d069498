// A minimal node probe for the cluster measurement: STREAM triad bandwidth and the fp64 FMA peak,
// each multi-threaded, repeated, checked against an analytic answer (BabelStream's habit), best
// of the repetitions. The full suite is roofline::measure_machine; this probe exists so that a
// cluster can be measured with nothing else linked, and quickly.
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ROOFLINE_PROBE_X86 1
#endif

#include "roofline/cluster.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/statistics.hpp"

namespace roofline::cluster {
namespace {

using Clock = std::chrono::steady_clock;

// ---- FMA chains --------------------------------------------------------------------------
// Each kernel runs `iterations` steps of x ← x·m + a on kChains independent vector chains (enough
// to cover FMA latency × ports on current cores). Chain k starts at x0 + k — identical chains
// would be merged by the compiler into one — and the kernel returns the sum over the chains (one
// lane each) so no chain can be removed. FLOP per step: kChains × lanes × 2 (an FMA counts as
// 2 FLOP, DIGEST §1).
constexpr int kChains = 12;
constexpr double kMul = 0.999999;
constexpr double kAdd = 1e-6;

struct FmaKernel {
  const char* unit;  ///< instruction class for the roof name
  int lanes;         ///< fp64 lanes per vector
  double (*run)(long iterations, double x0);
};

#ifdef ROOFLINE_PROBE_X86
__attribute__((target("avx512f"))) double fma_avx512(long iterations, double x0) {
  __m512d x[kChains];
  for (int k = 0; k < kChains; ++k) x[k] = _mm512_set1_pd(x0 + k);
  const __m512d m = _mm512_set1_pd(kMul), a = _mm512_set1_pd(kAdd);
  for (long i = 0; i < iterations; ++i)
    for (auto& v : x) v = _mm512_fmadd_pd(v, m, a);
  double sum = 0, out[8];
  for (const auto& v : x) {
    _mm512_storeu_pd(out, v);
    sum += out[0];
  }
  return sum;
}

__attribute__((target("avx2,fma"))) double fma_avx2(long iterations, double x0) {
  __m256d x[kChains];
  for (int k = 0; k < kChains; ++k) x[k] = _mm256_set1_pd(x0 + k);
  const __m256d m = _mm256_set1_pd(kMul), a = _mm256_set1_pd(kAdd);
  for (long i = 0; i < iterations; ++i)
    for (auto& v : x) v = _mm256_fmadd_pd(v, m, a);
  double sum = 0, out[4];
  for (const auto& v : x) {
    _mm256_storeu_pd(out, v);
    sum += out[0];
  }
  return sum;
}
#endif

// Portable: a multiply and an add (2 FLOP) per chain and step, whatever the compiler makes of it.
double fma_scalar(long iterations, double x0) {
  double x[kChains];
  for (int k = 0; k < kChains; ++k) x[k] = x0 + k;
  for (long i = 0; i < iterations; ++i)
    for (auto& v : x) v = v * kMul + kAdd;
  double sum = 0;
  for (double v : x) sum += v;
  return sum;
}

FmaKernel pick_fma_kernel() {
#ifdef ROOFLINE_PROBE_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {"avx512 fma", 8, fma_avx512};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {"avx2 fma", 4, fma_avx2};
#endif
  return {"scalar mul+add", 1, fma_scalar};
}

// Closed form of the kernels' result: chain k ends at m^n·(x0 + k) + a·(1 − m^n)/(1 − m) for
// x ← x·m + a; the kernels return the sum over the chains.
double fma_expected(long iterations, double x0) {
  const double mn = std::pow(kMul, static_cast<double>(iterations));
  double sum = 0;
  for (int k = 0; k < kChains; ++k) sum += mn * (x0 + k) + kAdd * (1 - mn) / (1 - kMul);
  return sum;
}

// ---- A team of threads with a start and an end barrier per repetition ----------------------
// Rep r: every thread waits at the start barrier, runs its share, waits at the end barrier;
// thread 0 times from start to end, so a repetition lasts as long as its slowest thread.
std::vector<double> run_team(int threads, int repetitions, const std::function<void(int)>& work) {
  std::vector<double> seconds(static_cast<size_t>(repetitions));
  std::barrier sync(threads);
  auto body = [&](int t) {
    for (int r = 0; r < repetitions; ++r) {
      sync.arrive_and_wait();
      const auto t0 = Clock::now();
      work(t);
      sync.arrive_and_wait();
      if (t == 0)
        seconds[static_cast<size_t>(r)] = std::chrono::duration<double>(Clock::now() - t0).count();
    }
  };
  std::vector<std::thread> team;
  for (int t = 1; t < threads; ++t) team.emplace_back(body, t);
  body(0);
  for (auto& th : team) th.join();
  return seconds;
}

Statistics rate_stats(const std::vector<double>& seconds, double amount) {
  std::vector<double> rates;
  for (double s : seconds) rates.push_back(amount / s);
  return summarize_rates(rates);
}

double last_level_cache_bytes() {
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE); l3 > 0) return static_cast<double>(l3);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
  if (long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE); l2 > 0) return static_cast<double>(l2);
#endif
  return 32.0 * 1024 * 1024;  // unknown: assume a large L3
}

}  // namespace

MachineDocument builtin_node_probe(const NodeContext& node, const ProbeOptions& options) {
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int per_host = std::max(1, node.ranks_on_host);
  const int threads = options.threads > 0 ? options.threads : std::max(1, hw / per_host);
  const bool quick = options.quick || node.quick;
  const int repetitions = quick ? 5 : 20;

  // STREAM triad a = b + s·c (McCalpin's STREAM): 2 FLOP and 24 named bytes per element (read b,
  // read c, write a; STREAM's convention, write-allocate not counted). Arrays 4× the last-level
  // cache so the data comes from DRAM (STREAM's own sizing rule), split among the host's ranks.
  const double array_bytes =
      options.array_bytes > 0
          ? options.array_bytes
          : std::max(4.0 * last_level_cache_bytes() / per_host, 8.0 * 1024 * 1024);
  const size_t n = static_cast<size_t>(array_bytes / sizeof(double));
  const double scalar = 3.0;
  std::unique_ptr<double[]> a(new double[n]), b(new double[n]), c(new double[n]);
  auto chunk = [&](int t) {
    const size_t lo = n * static_cast<size_t>(t) / static_cast<size_t>(threads);
    const size_t hi = n * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
    return std::pair{lo, hi};
  };
  // First touch by the thread that later streams the chunk (pages land on its NUMA node).
  run_team(threads, 1, [&](int t) {
    const auto [lo, hi] = chunk(t);
    for (size_t i = lo; i < hi; ++i) a[i] = 0.0, b[i] = 1.0, c[i] = 2.0;
  });
  const auto triad_seconds = run_team(threads, repetitions, [&](int t) {
    const auto [lo, hi] = chunk(t);
    double* __restrict pa = a.get();
    const double* __restrict pb = b.get();
    const double* __restrict pc = c.get();
    for (size_t i = lo; i < hi; ++i) pa[i] = pb[i] + scalar * pc[i];
  });
  for (size_t i = 0; i < n; i += 4099)
    if (a[i] != 1.0 + scalar * 2.0)
      throw Error("built-in probe: triad result wrong at element " + std::to_string(i));
  const double triad_bytes = 24.0 * static_cast<double>(n);
  const Statistics triad = rate_stats(triad_seconds, triad_bytes);
  a.reset(), b.reset(), c.reset();

  // fp64 peak: every thread runs the same chain kernel; FLOP = threads × iterations × chains ×
  // lanes × 2. Iterations sized for a few ms (quick) to ~20 ms per repetition on a current core
  // (12 chains ≈ 6 cycles per step with two FMA ports), far above the timer's resolution.
  const FmaKernel k = pick_fma_kernel();
  const long iterations = quick ? 2'000'000 : 10'000'000;
  std::vector<double> results(static_cast<size_t>(threads));
  const auto fma_seconds = run_team(threads, repetitions, [&](int t) {
    results[static_cast<size_t>(t)] = k.run(iterations, 1.0 + t);
  });
  for (int t = 0; t < threads; ++t) {
    const double want = fma_expected(iterations, 1.0 + t);
    if (std::abs(results[static_cast<size_t>(t)] - want) > 1e-8 * std::abs(want))
      throw Error("built-in probe: FMA chain result wrong on thread " + std::to_string(t));
  }
  const double flop =
      static_cast<double>(threads) * static_cast<double>(iterations) * kChains * k.lanes * 2.0;
  const Statistics peak = rate_stats(fma_seconds, flop);

  MachineDocument m;
  m.roofs.name = node.host.empty() ? "node" : node.host;
  ComputeRoof cr;
  cr.name = std::string("fp64 ") + k.unit;
  cr.precision = "fp64";
  cr.unit = k.unit;
  cr.peak = WorkRate(peak.best);
  cr.provenance = Provenance::measured;
  cr.source = "roofline cluster built-in probe: " + std::to_string(threads) + " thread" +
              (threads == 1 ? "" : "s") + " x " + std::to_string(kChains) +
              " independent fp64 chains x = x*m + a (" + std::to_string(k.lanes) +
              " lanes, FMA = 2 FLOP), best of " + std::to_string(repetitions);
  cr.stats = peak;
  m.roofs.compute.push_back(cr);
  MemoryRoof mr;
  mr.level = "DRAM";
  mr.kind = "memory";
  mr.bandwidth = ByteRate(triad.best);
  mr.provenance = Provenance::measured;
  mr.source = "roofline cluster built-in probe: STREAM triad a = b + s*c, " +
              std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + ", 3 arrays of " +
              format_bytes(Bytes(static_cast<double>(n) * sizeof(double))) +
              ", 24 bytes per element, best of " + std::to_string(repetitions);
  mr.stats = triad;
  mr.convention = "named";
  mr.mixes["triad"] = triad.best;
  m.roofs.memory.push_back(mr);
  m.roofs.default_compute = cr.name;
  m.roofs.default_memory = "DRAM";
  m.info = {{"host", node.host},
            {"hardware_threads", hw},
            {"threads", threads},
            {"ranks_on_host", per_host},
            {"probe", "builtin"}};
  m.roofs.validate();
  return m;
}

}  // namespace roofline::cluster
