// Cost of a marker region begin/end pair (target: ≤ 100 ns with markers on and no counters;
// one branch when off), next to a peer measured in the same run: two steady_clock reads, the
// least an enabled region must do. Prints medians over rounds in thread CPU time, the ratio to
// the peer and to the target, and PASS or MISS (it exits 0 either way: a shared machine's
// numbers are reported, not enforced).
#include <benchmark/benchmark.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "../src/probe/marker/marker_internal.hpp"
#include "roofline/marker.hpp"
#include "roofline/statistics.hpp"

namespace md = roofline::marker_detail;
using roofline::median;

static void BM_ClockPair(benchmark::State& state) {
  for (auto _ : state) {
    auto a = std::chrono::steady_clock::now();
    auto b = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_ClockPair);

static void BM_RegionDisabled(benchmark::State& state) {
  md::configure_for_testing(false, "");
  for (auto _ : state) {
    roofline_region_begin("solver");
    roofline_region_end("solver");
  }
}
BENCHMARK(BM_RegionDisabled);

static void BM_RegionEnabledC(benchmark::State& state) {
  md::configure_for_testing(true, "");
  md::reset_for_testing();
  for (auto _ : state) {
    roofline_region_begin("solver");
    roofline_region_add_flops(2.0);
    roofline_region_end("solver");
  }
  md::configure_for_testing(false, "");
}
BENCHMARK(BM_RegionEnabledC);

static void BM_RegionEnabledCpp(benchmark::State& state) {
  md::configure_for_testing(true, "");
  md::reset_for_testing();
  for (auto _ : state) {
    roofline::Region r("solver");
    r.add_flops(2.0);
    r.add_bytes(12.0);
  }
  md::configure_for_testing(false, "");
}
BENCHMARK(BM_RegionEnabledCpp);

namespace {
// Thread CPU time (CLOCK_THREAD_CPUTIME_ID): on a shared machine a preempted stretch does not
// count against the markers, as it would in wall time.
double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

template <class F>
double ns_per_call(F f, int n) {
  const double t0 = thread_cpu_ns();
  for (int i = 0; i < n; ++i) f();
  return (thread_cpu_ns() - t0) / n;
}
}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // The target check: medians over 9 rounds of 200 000 pairs each, in thread CPU time.
  constexpr int n = 200000;
  constexpr int rounds = 9;
  constexpr double target_ns = 100;
  std::vector<double> clock, on, off;
  for (int round = 0; round < rounds; ++round) {
    clock.push_back(ns_per_call(
        [] {
          auto a = std::chrono::steady_clock::now();
          auto b = std::chrono::steady_clock::now();
          benchmark::DoNotOptimize(a);
          benchmark::DoNotOptimize(b);
        },
        n));
    md::configure_for_testing(false, "");
    off.push_back(ns_per_call(
        [] {
          roofline_region_begin("solver");
          roofline_region_end("solver");
        },
        n));
    md::configure_for_testing(true, "");
    md::reset_for_testing();
    on.push_back(ns_per_call(
        [] {
          roofline::Region r("solver");
          r.add_flops(2.0);
        },
        n));
    md::configure_for_testing(false, "");
  }
  const double c = median(clock), m_on = median(on), m_off = median(off);
  std::printf(
      "marker region begin/end pair, median of %d rounds × %d pairs, thread CPU time:\n"
      "  markers off: %.1f ns\n"
      "  markers on:  %.1f ns (range %.1f-%.1f) = %.2f × the peer (two steady_clock reads, "
      "%.1f ns)\n"
      "  target on ≤ %.0f ns: %s (%.2f × the target)\n",
      rounds, n, m_off, m_on, *std::min_element(on.begin(), on.end()),
      *std::max_element(on.begin(), on.end()), m_on / c, c, target_ns,
      m_on <= target_ns ? "PASS" : "MISS", m_on / target_ns);
  return 0;
}
