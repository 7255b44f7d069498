#pragma once
// Measuring a machine's roofs (`roofline measure`). The library entry point used by the CLI, the
// built-in kernel suite and the cluster measurement. Backends (the CPU, CUDA) sit behind the
// engine (engine.hpp); callers never name a backend's kernels.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/machine_document.hpp"

namespace roofline {

struct MeasureOptions {
  std::string device = "cpu";  ///< the backend (engine::backends()): "cpu", "cuda"
  int device_index = 0;        ///< which device of that kind (CUDA ordinal)
  bool quick = false;          ///< a few seconds instead of the complete roofline
  int threads = 0;             ///< 0 = one pinned thread per core
  /// Cores to leave to others: the team starts at the core of this index (ranks sharing a host
  /// take disjoint cores: local rank × threads).
  int first_core = 0;
  std::vector<std::string> precisions;  ///< empty = every precision the CPU supports
  std::vector<std::string> levels;      ///< empty = L1, L2, L3 (when present) and DRAM
  bool curve = true;                    ///< measure the empirical roofline curve
  bool single_core = true;              ///< also measure one core
  /// The node probe's plan: only the widest fp64 FMA roof and the DRAM roof (measured directly
  /// at the DRAM working set, no sweep), no curve, no one-core roofs.
  bool probe = false;
  /// DRAM working set in bytes over all threads (0 = max(4 × last-level cache, 64 MiB), bounded
  /// by the memory available).
  double dram_working_set = 0;
  /// Progress callback (fraction done in [0, 1], what runs now); may be empty.
  std::function<void(double, const std::string&)> progress;
  /// When set and it becomes true (e.g. from a SIGINT handler), measurement stops by throwing
  /// roofline::Interrupted at the next safe point.
  const std::atomic<bool>* cancel = nullptr;
};

/// Measures this machine's roofs through the engine (engine::measure): for the CPU, a machine
/// document with measured compute roofs per precision and instruction class (with theoretical
/// peaks beside them), memory roofs per level (with per-mix rates), the empirical curve,
/// statistics and the machine description.
MachineDocument measure_machine(const MeasureOptions& options);
/// Throws what measure_machine(options) would throw for the device or the options before it
/// measures anything (no backend for this CPU, bad precisions or levels, too many threads),
/// without measuring.
void check_measurable(const MeasureOptions& options);

/// The memory level names every command accepts, nearest first: L1, L2, L3, L4, DRAM.
const std::vector<std::string>& memory_level_names();
/// One level name, case-insensitive: "l2" → "L2"; "dram", "mem", "memory", "ram" → "DRAM".
/// Throws InputError naming `option` and the value.
std::string parse_memory_level(const std::string& name, const std::string& option);
/// A list of them (each item may itself be comma-separated); duplicates dropped, order kept.
/// Throws InputError when a name is unknown or the list is empty.
std::vector<std::string> parse_memory_levels(const std::vector<std::string>& items,
                                             const std::string& option);

}  // namespace roofline

namespace roofline {

/// The terminal summary of a measured machine: clock and threads, the compute roofs (measured,
/// theoretical, ratio, spread; ratios outside [0.92, 1.05] flagged), the memory roofs with their
/// per-mix rates and byte convention, the curve's extent and the warnings of the measurement.
std::string render_measure_summary(const MachineDocument& m, bool color);

}  // namespace roofline
