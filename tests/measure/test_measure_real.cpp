// A short real measurement on this machine: sanity only (no timing thresholds), robust on a
// noisy shared machine. Every supported kernel runs and its accumulators match the declaration.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>

#include "roofline/cpu_backend.hpp"
#include "roofline/io.hpp"
#include "roofline/measure.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

TEST(MeasureReal, EverySupportedKernelComputesWhatItDeclares) {
  const auto f = cpu::detect_features();
  int ran = 0;
  for (const cpu::CpuBackend* b : cpu::supported_backends(f))
    for (const auto& k : b->compute_kernels()) {
      EXPECT_NO_THROW(cpu::run_checked(k, 1000)) << k.symbol;
      ++ran;
    }
#if defined(__x86_64__)
  EXPECT_GE(ran, 4);  // at least the SSE2 kernels
#endif
}

TEST(MeasureReal, ACheckCatchesAKernelThatDoesNotMatchItsDeclaration) {
  const auto f = cpu::detect_features();
  const auto backends = cpu::supported_backends(f);
  if (backends.empty()) GTEST_SKIP() << "no backend on this CPU";
  cpu::ComputeKernel k = backends.front()->compute_kernels().front();
  k.expected_lane = [](std::uint64_t n, int) { return static_cast<double>(n) + 0.5; };
  EXPECT_THROW(cpu::run_checked(k, 1000), Error);
}

TEST(MeasureReal, QuickFp64MeasurementIsSane) {
  if (cpu::supported_backends(cpu::detect_features()).empty()) GTEST_SKIP() << "no backend";
  MeasureOptions o;
  o.quick = true;
  o.threads = 1;
  o.precisions = {"fp64"};
  o.levels = {"L1", "DRAM"};
  o.curve = true;
  o.single_core = false;
  double last = -1;
  bool monotonic = true;
  o.progress = [&](double f, const std::string&) {
    if (f < last) monotonic = false;
    last = f;
  };
  const MachineDocument m = measure_machine(o);
  EXPECT_TRUE(monotonic);
  EXPECT_DOUBLE_EQ(last, 1.0);
  ASSERT_FALSE(m.roofs.compute.empty());
  for (const auto& c : m.roofs.compute) {
    EXPECT_EQ(c.precision, "fp64");
    EXPECT_GT(c.peak.value, 0) << c.name;
    ASSERT_TRUE(c.stats.has_value());
    EXPECT_GE(c.stats->repetitions, 3);
    EXPECT_LE(c.stats->min, c.stats->median);
    EXPECT_LE(c.stats->median, c.stats->max);
    EXPECT_DOUBLE_EQ(c.peak.value, c.stats->sustained);  // the roof is the sustained rate
    EXPECT_LE(c.stats->sustained, c.stats->best);
    if (c.theoretical) {
      // A clock read too low shows as a roof above its theoretical peak, one read too high as
      // an FMA roof far below it (FMA kernels reach 0.99 of the peak even on a shared host).
      // The bound leaves room for the host's clock moving under a VM: on a 2-vCPU Zen 5 the
      // clock's samples spread from 2.7 to 3.6 GHz within one quick run (2026-12-02), and a
      // roof's sustained sample and the clock's best need not share a window; 1.06 was seen in
      // CI. A factor error in a declaration or a clock read at half speed still fails.
      EXPECT_LE(c.peak / *c.theoretical, 1.10) << c.name << " " << c.formula;
      if (c.unit.find("fma") != std::string::npos) {
        EXPECT_GE(c.peak / *c.theoretical, 0.5) << c.name << " " << c.formula;
      }
    }
  }
  EXPECT_FALSE(m.roofs.default_compute.empty());
  {
    const auto f = cpu::detect_features();
    const bool has512 = f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq;
    const char* expected = has512 ? "fp64 512-bit fma" : f.avx2 && f.fma ? "fp64 256-bit fma" : "";
    if (*expected) {
      EXPECT_EQ(m.roofs.default_compute, expected);
    }
  }
  const nlohmann::json info = info_json(m);
  const nlohmann::json measurement = section_json(m, "measurement");
  const auto& clock = info.at("clock_hz");
  EXPECT_GT(clock.get<double>(), 1e8);
  EXPECT_LT(clock.get<double>(), 1e10);
  // Where the time went: every phase that ran, none negative, together within the whole.
  {
    const auto& meas = measurement;
    const auto& phases = meas.at("phase_seconds");
    for (const char* p : {"power_at_rest", "compute", "first_touch", "memory", "curve"})
      EXPECT_TRUE(phases.contains(p)) << p << " in " << phases.dump();
    double sum = 0;
    for (const auto& [name, v] : phases.items()) {
      EXPECT_GE(v.get<double>(), 0.0) << name;
      sum += v.get<double>();
    }
    EXPECT_LE(sum, meas.at("seconds").get<double>() + 1e-6);
    EXPECT_GT(sum, 0.5 * meas.at("seconds").get<double>());
  }
  // The clock is sampled in the compute rounds: its statistics are those of many samples.
  // Energy: read where this machine has RAPL, else the reason recorded (docs/energy.md).
  const auto& energy = measurement.at("energy");
  if (energy.at("available").get<bool>()) {
    EXPECT_FALSE(energy.at("zones").empty());
    for (const auto& d : measurement.at("compute"))
      if (d.contains("energy")) {
        EXPECT_GE(d.at("energy").at("joules").get<double>(), 0.0);
      }
  } else {
    EXPECT_FALSE(energy.at("why").get<std::string>().empty());
  }
  const auto& clock_detail = measurement.at("clock");
  EXPECT_DOUBLE_EQ(clock_detail.at("all_cores_hz").get<double>(), clock.get<double>());
  EXPECT_GE(clock_detail.at("stats").at("repetitions").get<int>(), 3);
  if (cpu::detect_features().avx2) {
    ASSERT_EQ(m.roofs.memory.size(), 2u);
    EXPECT_EQ(m.roofs.memory[0].level, "L1");
    EXPECT_EQ(m.roofs.memory[1].level, "DRAM");
    for (const auto& l : m.roofs.memory) {
      EXPECT_EQ(l.convention, "named");
      EXPECT_EQ(l.mixes.size(), 8u);
      double best = 0;
      for (const auto& [mix, v] : l.mixes) best = std::max(best, v);
      EXPECT_DOUBLE_EQ(l.bandwidth.value, best);  // the roof is the highest mix
    }
    ASSERT_GE(m.roofs.empirical_curve.size(), 5u);
    EXPECT_NEAR(m.roofs.empirical_curve.front().intensity.value, 1.0 / 16, 1e-12);
    EXPECT_GT(m.roofs.empirical_curve.back().intensity.value, 100);
    EXPECT_EQ(m.roofs.default_memory, "DRAM");
  }
  // The document survives the JSON round trip (validated reader).
  const MachineDocument back = machine_from_json(machine_to_json(m), "measured");
  EXPECT_EQ(back.roofs.compute.size(), m.roofs.compute.size());
  EXPECT_EQ(back.roofs.memory.size(), m.roofs.memory.size());
  EXPECT_EQ(back.sections.count("measurement"), 1u);
  EXPECT_EQ(info_json(back).at("threads").get<int>(), 1);
}

TEST(MeasureReal, BadOptionsAreInputErrors) {
  MeasureOptions o;
  o.precisions = {"fp9"};
  EXPECT_THROW(measure_machine(o), InputError);
  o.precisions = {"tf32"};
  EXPECT_THROW(measure_machine(o), InputError);
  o.precisions = {};
  o.levels = {"L9"};
  EXPECT_THROW(measure_machine(o), InputError);
  o.levels = {};
  o.threads = 100000;
  EXPECT_THROW(measure_machine(o), InputError);
}

TEST(MeasureReal, CancelStopsWithInterrupted) {
  std::atomic<bool> cancel{true};
  MeasureOptions o;
  o.quick = true;
  o.cancel = &cancel;
  EXPECT_THROW(measure_machine(o), Interrupted);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
