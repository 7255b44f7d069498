#pragma once
// What a CPU measurement says of itself besides its roofs, typed (docs/schema.md): the machine it
// ran on (the document's `info`) and how it ran (the CPU's part of the `measurement` section:
// options, clock, working-set sweep, power at rest, phase times). The CPU backend fills these
// structs; io alone writes them as JSON (cpu_description_to_json, cpu_run_to_json in
// json_out.hpp), so the backend knows no JSON.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roofline/statistics.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// info.caches[]: one cache level as the system reports it, then per core, per machine and for
/// the team of threads.
struct CpuCacheRecord {
  int level = 0;
  double size_bytes = 0;  ///< one instance
  int cores_sharing = 1;
  int line_bytes = 64;
  double size_per_core = 0;
  int instances = 1;            ///< over the cores this process may use
  double size_machine = 0;      ///< all instances
  double size_for_threads = 0;  ///< what the team of threads reaches
  /// The size the system reported when it was not believed, and why (both empty when believed).
  double reported_size = 0;
  std::string note;
};

/// The document's `info` of a CPU measurement.
struct CpuDescription {
  std::string vendor;  ///< CPUID vendor string
  std::string cpu;     ///< CPUID brand string
  unsigned family = 0, model = 0;
  std::string microarchitecture, microarchitecture_source;
  int cores = 0;
  int logical_cpus = 0;
  int threads = 0;
  bool pinned = false;
  Hertz clock_hz;           ///< all cores busy
  Hertz clock_one_core_hz;  ///< one core busy
  std::vector<CpuCacheRecord> caches;
  std::vector<std::string> features;  ///< ISA extensions detected
  std::vector<std::string> backends;  ///< kernel sets this CPU can run
  std::string os_kernel;
  std::string tool_version;
  double memory_available = 0;  ///< bytes this process could still allocate
};

/// measurement.clock: the clock under the compute kernels and how it was found.
struct CpuClockRecord {
  Hertz all_cores_hz, one_core_hz;
  std::string method;
  Statistics stats;  ///< of the all-cores samples
};

/// measurement.sweep: the working-set sweep of one load kernel and the plateaus found in it.
struct WorkingSetSweepRecord {
  struct Point {
    double bytes = 0;  ///< working set over all threads
    double rate = 0;   ///< byte/s
  };
  struct Plateau {
    double min_bytes = 0, max_bytes = 0;
    double rate = 0;  ///< byte/s
  };
  std::string kernel;
  std::string convention;  ///< byte convention of the rates ("named")
  std::vector<Point> points;
  std::vector<Plateau> plateaus;
};

/// measurement.energy: the power interface the roofs' energies come from, and the power at rest
/// (the constant power of the energy roofline, docs/energy.md), or why there is none.
struct PowerAtRestRecord {
  bool available = false;
  std::string why;  ///< why there is no power interface (when not available)
  std::string source;
  std::vector<std::string> zones;
  std::string method;
  std::optional<double> idle_power_w;  ///< null when a reading failed
};

/// The CPU's part of the `measurement` section (the engine writes the roofs' part beside it).
struct CpuRunRecord {
  std::string tool = "roofline";
  std::string tool_version;
  bool quick = false;
  bool probe = false;
  int threads = 0;
  std::vector<int> cpus;
  std::string topology_source;
  bool pinned = false;
  double sample_seconds = 0;
  CpuClockRecord clock;
  std::optional<WorkingSetSweepRecord> sweep;  ///< none in the probe plan or without memory kernels
  PowerAtRestRecord energy;
  /// Wall time of each phase in order, then the memory phase's parts (sweep, mixes, one_core).
  std::vector<std::pair<std::string, double>> phase_seconds;
  std::optional<std::vector<std::pair<std::string, double>>> memory_part_seconds;
};

}  // namespace roofline
