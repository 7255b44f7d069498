#pragma once
// The CPU backend's named steps (backend.cpp runs them in order): resolve the plan from the
// options and the machine, measure compute roofs and the clock, sweep working sets and measure
// every access mix at each level, measure the empirical curve, describe the machine. Each step
// returns engine measurements; engine::assemble makes the document.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "measure/engine/sampler.hpp"
#include "measure/engine/team.hpp"
#include "roofline/cpu_analysis.hpp"
#include "roofline/cpu_backend.hpp"
#include "roofline/cpu_record.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/engine.hpp"

namespace roofline::cpu {

/// How long each phase samples (seconds of base rounds; retries may add a quarter more).
struct PhaseTimes {
  double compute = 0, compute_one_core = 0, sweep = 0, mixes = 0, mixes_one_core = 0, curve = 0;
};
PhaseTimes phase_times(bool quick);

/// What one measurement of this CPU does, resolved from the options and the machine before
/// anything runs (so bad options fail at once). Pure: tested with made-up topologies.
struct Plan {
  std::vector<int> cpus;  ///< the team's CPUs, one per core first
  int threads = 0;
  bool single_core = false;  ///< also one core (options.single_core and threads > 1)
  bool probe = false;
  std::vector<ComputeKernel> kernels;
  const CpuBackend* memory_backend = nullptr;  ///< widest backend with memory kernels
  const CpuBackend* curve_backend = nullptr;
  std::vector<std::string> levels;  ///< levels asked for; empty = every level found
  /// Cache capacities reachable by the team (cpu_topology.hpp aggregate_capacity), L1 first.
  std::vector<double> capacities;
  double last_level_bytes = 0;  ///< the last capacity (32 MiB when no cache is reported)
  double max_working_set = 0;   ///< the DRAM working set
  std::vector<double> sweep_sizes;
  std::vector<std::uint64_t> curve_rounds;
  bool curve = false;
  PhaseTimes times;
  double sample_seconds = 0;
  /// The machine's energy counter (RAPL), read around every visit of the compute and memory
  /// phases; empty where there is none. Set by the backend, not by resolve_plan.
  engine::EnergyReader energy;
  std::vector<std::string> warnings;
};
/// Throws InputError naming the option for bad precisions, levels or thread counts.
Plan resolve_plan(const MeasureOptions& o, const Topology& topo, const CpuFeatures& f,
                  double available_bytes);

/// Aligned, huge-page-advised buffer of per-thread chunks for the memory kernels.
struct Buffer {
  unsigned char* data = nullptr;
  size_t bytes = 0;
  explicit Buffer(size_t n);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

/// The clock: a dependent chain of 1-cycle adds, sampled in the compute rounds.
struct ClockResult {
  Statistics all_cores, one_core;
  double all_cores_hz = 0, one_core_hz = 0;
};

struct ComputeStep {
  std::vector<engine::ComputeMeasurement> roofs;
  ClockResult clock;
  int retries = 0;
};
/// Every kernel of the plan and the clock, interleaved, on `team` (and on `solo` when given).
ComputeStep measure_compute(const Plan& plan, engine::ThreadTeam& team, engine::ThreadTeam* solo,
                            const Microarchitecture& uarch, engine::Progress& progress);

struct MemoryStep {
  std::vector<engine::MemoryMeasurement> levels;  ///< nearest first
  std::optional<WorkingSetSweepRecord> sweep;     ///< none in the probe plan
  std::vector<std::string> warnings;
  int retries = 0;
  /// Wall time of the step's parts (sweep, mixes, one_core), for measurement.phase_seconds.
  std::vector<std::pair<std::string, double>> part_seconds;
};
/// The working-set sweep, plateaus named after the caches, every mix at each level (and each
/// level's best mix on one core when `solo`); the probe plan measures DRAM only, without sweep.
MemoryStep measure_memory(const Plan& plan, engine::ThreadTeam& team, engine::ThreadTeam* solo,
                          Buffer& buffer, size_t chunk, const Topology& topo,
                          engine::Progress& progress);

struct CurveStep {
  std::vector<engine::CurveMeasurement> points;
  engine::CurveSetup setup;
  int retries = 0;
};
/// The empirical curve at the DRAM working set.
CurveStep measure_curve(const Plan& plan, engine::ThreadTeam& team, Buffer& buffer, size_t chunk,
                        engine::Progress& progress);

/// The document's info: CPU, microarchitecture, cores, threads, clocks, caches (per core, per
/// machine and for the team), features, backends, OS and tool versions.
CpuDescription describe_machine(const Plan& plan, const Topology& topo, const CpuFeatures& f,
                                const Microarchitecture& uarch, const ClockResult& clock,
                                bool pinned, double available_bytes);

}  // namespace roofline::cpu
