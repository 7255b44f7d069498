#pragma once
// Comparing hardware at a workload's intensity (docs/model.md §7 "different hardware"): draw a
// vertical line at I; the ratio of the roof heights there is the best possible speedup from
// switching. Left of both ridges it is the bandwidth ratio; right of both the peak ratio; otherwise
// mixed.
#include <string>
#include <vector>

#include "roofline/roof.hpp"

namespace roofline {

/// What a machine's ratio to the first is: of bandwidths, of peaks, or mixed; the first machine
/// is the reference (a ratio of 1 to itself has no regime).
enum class Regime { bandwidth, peak, mixed, reference };
std::string to_string(Regime r);

struct MachineAtIntensity {
  std::string machine;
  std::string compute_roof;
  std::string compute_precision;  ///< the compute roof's ("ops": a TOPS figure of no type)
  std::string memory_level;
  UnitSystem units;  ///< of the compute roof: OP/s for an integer one (RoofSet::units_of)
  WorkRate peak{0};
  ByteRate bandwidth{0};
  Intensity ridge{0};
  WorkRate attainable{0};
  bool memory_side = false;
};

struct Comparison {
  Intensity intensity{0};
  std::vector<MachineAtIntensity> machines;
  /// attainable(machines[i]) / attainable(machines[0]), one per machine (first is 1).
  std::vector<double> ratios;
  /// Regime of machines[i] against machines[0] (first is the regime of machine 0 alone).
  std::vector<Regime> regimes;
  /// The precision and memory level asked for ("" = each machine's default roof).
  std::string precision, level;
};

/// Whether machine `i`'s roof counts other work than the first's (OP/s against FLOP/s: the
/// "fp8/int8" group, fp8 on one machine and int8 on another), so that its ratio compares two
/// kinds of operation.
bool other_work_than_first(const Comparison& c, size_t i);
/// What a ratio between roofs of other work means, "" when every roof counts the same work: it
/// holds only where the workload's operations map one to one (the same GEMM in int8 and fp8).
std::string mixed_work_note(const Comparison& c);

/// `precision` selects the compute roof on each machine (RoofSet::select_compute), `level` the
/// memory roof (RoofSet::select_memory).
Comparison compare_at(const std::vector<const RoofSet*>& machines, Intensity i,
                      const std::string& precision = "", const std::string& level = "");
/// The same with the compute roof of each machine named (`compute_roofs[k]` on `machines[k]`,
/// e.g. chosen from a precision group by select_compute_roof); InputError when the counts differ
/// or a machine has no roof of that name.
Comparison compare_roofs_at(const std::vector<const RoofSet*>& machines, Intensity i,
                            const std::vector<std::string>& compute_roofs,
                            const std::string& level = "");

}  // namespace roofline
