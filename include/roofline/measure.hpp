#pragma once
// Measuring a machine's roofs (`roofline measure`). The library entry point used by the CLI, the
// built-in kernel suite and the cluster measurement. Backends (CPU ISA variants, CUDA) sit
// behind it; callers never name a backend's kernels.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

namespace roofline {

struct MeasureOptions {
  bool quick = false;                   ///< a few seconds instead of the complete roofline
  int threads = 0;                      ///< 0 = one pinned thread per core
  std::vector<std::string> precisions;  ///< empty = every precision the CPU supports
  std::vector<std::string> levels;      ///< empty = L1, L2, L3 (when present) and DRAM
  bool curve = true;                    ///< measure the empirical roofline curve
  bool single_core = true;              ///< also measure one core
  /// Progress callback (fraction done in [0, 1], what runs now); may be empty.
  std::function<void(double, const std::string&)> progress;
  /// When set and it becomes true (e.g. from a SIGINT handler), measurement stops by throwing
  /// roofline::Interrupted at the next safe point.
  const std::atomic<bool>* cancel = nullptr;
};

/// Measures this machine's CPU roofs: a machine document with measured compute roofs per
/// precision and instruction class (with theoretical peaks beside them), memory roofs per level
/// (with per-mix rates), the empirical curve, statistics and the machine description.
MachineDocument measure_machine(const MeasureOptions& options);

}  // namespace roofline

namespace roofline {

/// The terminal summary of a measured machine: clock and threads, the compute roofs (measured,
/// theoretical, ratio, CV; ratios above 1.05 flagged), the memory roofs with their per-mix rates
/// and byte convention, the curve's extent and the warnings of the measurement.
std::string render_measure_summary(const MachineDocument& m, bool color);

}  // namespace roofline
