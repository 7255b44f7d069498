// The CPU backend of the engine (engine.hpp): the named steps of steps.hpp, in order, on one
// pinned thread team (plus a one-core team), reported as engine::Measurements.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "measure/cpu/steps.hpp"
#include "measure/engine/backends.hpp"
#include "measure/engine/energy.hpp"

#ifndef ROOFLINE_VERSION
#define ROOFLINE_VERSION "unknown"
#endif

namespace roofline::cpu {
namespace {

std::string hostname() {
  char h[256] = {};
  if (gethostname(h, sizeof(h) - 1) != 0) return "this machine";
  return h;
}

/// measurement.energy: the zones read and the power at rest over a quarter of a second, the team's
/// threads asleep — the constant power π0 of the energy roofline (docs/energy.md).
PowerAtRestRecord idle_power(const engine::EnergyMeter& meter) {
  PowerAtRestRecord r;
  if (!meter.reader) {
    r.why = meter.why_none;
    return r;
  }
  constexpr double kIdleSeconds = 0.25;
  const auto e0 = meter.reader();
  const double t0 = engine::now_seconds();
  std::this_thread::sleep_for(std::chrono::duration<double>(kIdleSeconds));
  const auto e1 = meter.reader();
  const double t1 = engine::now_seconds();
  r.available = true;
  r.source = "RAPL through the Linux powercap interface";
  r.zones = meter.zones;
  r.method =
      "the zones' energy counters read before and after every visit of the compute and memory "
      "phases (measurement.compute[].energy, measurement.memory.LEVEL.energy: joules, seconds, "
      "average power over those visits, all cores busy); idle: a quarter of a second asleep "
      "before the first kernel";
  if (e0 && e1 && *e1 >= *e0 && t1 > t0) r.idle_power_w = (*e1 - *e0) / (t1 - t0);
  return r;
}

/// The progress bar's steps: each compute kernel (twice with the single-core pass), the sweep
/// sizes and each level's mixes, the curve's rounds.
double progress_steps(const Plan& plan) {
  const bool memory = plan.memory_backend != nullptr;
  const double levels = plan.probe            ? 1
                        : plan.levels.empty() ? double(plan.capacities.size() + 1)
                                              : double(plan.levels.size());
  return double(plan.kernels.size() + 1) * (plan.single_core ? 2 : 1) +
         (memory ? double(plan.sweep_sizes.size()) + (plan.single_core ? 5 : 4) * levels : 0) +
         (plan.curve ? double(plan.curve_rounds.size() + 1) : 0);
}

/// How the run was made (the measurement section's options, team and clock).
void record_run(CpuRunRecord& run, const MeasureOptions& o, const Plan& plan,
                const std::string& topology_source, bool pinned, const ComputeStep& compute) {
  run.tool_version = ROOFLINE_VERSION;
  run.quick = o.quick;
  run.probe = o.probe;
  run.threads = plan.threads;
  run.cpus = plan.cpus;
  run.topology_source = topology_source;
  run.pinned = pinned;
  run.sample_seconds = plan.sample_seconds;
  run.clock.all_cores_hz = Hertz(compute.clock.all_cores_hz);
  run.clock.one_core_hz = Hertz(compute.clock.one_core_hz);
  run.clock.method =
      "dependent chain of 64 register-register adds per iteration (1 cycle each), timed with "
      "the monotonic clock, sampled in the rounds of the compute kernels; the clock is the "
      "fastest sample (a dependent chain cannot beat one add per cycle)";
  run.clock.stats = compute.clock.all_cores;
}

class CpuMeasurement final : public engine::Backend {
 public:
  std::string name() const override { return "cpu"; }

  std::string status(const MeasureOptions&) const override {
    const CpuFeatures f = detect_features();
    const auto backends = supported_backends(f);
    if (backends.empty()) return "no CPU measurement backend for this processor";
    return f.brand + " (" + identify_microarchitecture(f).name + ", " +
           std::to_string(detect_topology().cores()) + " cores)";
  }

  void check(const MeasureOptions& o) const override {
    resolve_plan(o, detect_topology(), detect_features(), available_memory_bytes().value);
  }

  engine::Measurements measure(const MeasureOptions& o) const override {
    engine::Progress progress(o);
    const Topology topo = detect_topology();
    const CpuFeatures feat = detect_features();
    const double available = available_memory_bytes().value;
    Plan plan = resolve_plan(o, topo, feat, available);
    const engine::EnergyMeter meter = engine::rapl_meter();
    plan.energy = meter.reader;
    const Microarchitecture uarch = identify_microarchitecture(feat);
    const double start = engine::now_seconds();

    const bool memory = plan.memory_backend != nullptr;
    progress.set_total(progress_steps(plan));

    engine::Measurements m;
    m.name = hostname();
    m.origin = "roofline measure";
    m.warnings = plan.warnings;
    engine::ThreadTeam team(plan.cpus);
    // The single-core team lives on the first core; the main team's workers sleep meanwhile.
    std::unique_ptr<engine::ThreadTeam> solo;
    if (plan.single_core)
      solo = std::make_unique<engine::ThreadTeam>(std::vector<int>{plan.cpus[0]});

    // Wall time of each phase (measurement.phase_seconds), so a slow run shows where it went.
    CpuRunRecord run;
    double mark = start;
    auto phase_done = [&](const char* name) {
      const double now = engine::now_seconds();
      run.phase_seconds.emplace_back(name, now - mark);
      mark = now;
    };

    // ---- power at rest: the team's threads asleep, before any kernel runs ----
    run.energy = idle_power(meter);
    phase_done("power_at_rest");

    // ---- compute roofs and the clock ----
    ComputeStep compute = measure_compute(plan, team, solo.get(), uarch, progress);
    phase_done("compute");
    m.compute = std::move(compute.roofs);
    m.default_compute = default_compute_roof(plan.kernels);
    m.retries_for_noise += compute.retries;
    record_run(run, o, plan, topo.source, team.pinned(), compute);

    // ---- memory roofs and the curve ----
    if (memory) {
      const size_t chunk = (static_cast<size_t>(plan.max_working_set / plan.threads) + (4u << 20)) /
                           (2u << 20) * (2u << 20);
      Buffer buf(chunk * static_cast<size_t>(plan.threads));
      progress.step("first touch of the memory buffers", 0);
      team.run([&](int id) {
        // First touch by the thread that uses the chunk (NUMA placement), with distinct finite
        // values so that no page is all-equal (zero-page or same-page merging would turn the
        // first stores into copy-on-write faults). Gigabytes take seconds on a VM: a signal is
        // looked at every 32 MiB, so ^C acts within a fraction of a second.
        auto* d = reinterpret_cast<double*>(buf.data + static_cast<size_t>(id) * chunk);
        const size_t n = chunk / sizeof(double), block = (32u << 20) / sizeof(double);
        for (size_t from = 0; from < n; from += block) {
          if (o.cancel && o.cancel->load(std::memory_order_relaxed)) return;
          const size_t to = std::min(n, from + block);
          for (size_t i = from; i < to; ++i) d[i] = 1.0 + static_cast<double>(i % 4093) * 1e-3;
        }
      });
      progress.check_cancel();
      phase_done("first_touch");
      MemoryStep mem = measure_memory(plan, team, solo.get(), buf, chunk, topo, progress);
      phase_done("memory");
      // The memory phase's parts (sweep, mixes, one_core), inside phase_seconds' "memory".
      run.memory_part_seconds = mem.part_seconds;
      m.memory = std::move(mem.levels);
      m.warnings.insert(m.warnings.end(), mem.warnings.begin(), mem.warnings.end());
      m.retries_for_noise += mem.retries;
      run.sweep = std::move(mem.sweep);
      m.default_memory = "DRAM";
      if (plan.curve) {
        CurveStep curve = measure_curve(plan, team, buf, chunk, progress);
        m.curve = std::move(curve.points);
        m.curve_setup = curve.setup;
        m.retries_for_noise += curve.retries;
        phase_done("curve");
      }
    } else {
      m.warnings.push_back(
          "no memory kernels for this CPU (AVX2 or AVX-512 needed): no memory roofs");
    }
    m.cpu = describe_machine(plan, topo, feat, uarch, compute.clock, team.pinned(), available);
    phase_done("describe");
    m.cpu_run = std::move(run);
    m.seconds = engine::now_seconds() - start;
    progress.finish();
    return m;
  }
};

}  // namespace
}  // namespace roofline::cpu

namespace roofline::engine {

const Backend& cpu_backend() {
  static const cpu::CpuMeasurement b;
  return b;
}

}  // namespace roofline::engine
