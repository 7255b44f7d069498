#pragma once
// A workload's point on the chart (docs/model.md §1): work W, traffic Q (per memory level for a
// hierarchical point, docs/model.md §4, §7), time T, and the precision/unit it runs on.
// I = W/Q is the x axis, P = W/T the y axis.
#include <optional>
#include <string>
#include <vector>

#include "roofline/units.hpp"

namespace roofline {

struct LevelTraffic {
  std::string level;  ///< memory roof level this traffic is counted at ("" = the default level)
  Bytes bytes{0};
};

struct Point {
  std::string name;
  Work work{0};
  std::vector<LevelTraffic> traffic;  ///< at least one entry
  Seconds time{0};
  std::string precision;  ///< dtype name or compute-roof name; empty = the set's default
  /// What W counts where its source says so: "FLOP" (-W "2 TFLOP") or "OP" (-W "2 TOP");
  /// empty: as its precision says (stated_work_unit).
  std::string work_unit;
  /// The work runs on no matrix engine: a kernel that is no matrix product (an axpy, a stencil;
  /// KernelCount::matrix_product false). A point whose precision is a data type ("fp16") is then
  /// judged on that type's vector roof where the machine has one (vector_roof_for), as `roofline
  /// kernel` judges the kernel, not on its tensor roof; a roof named as the precision ("fp16
  /// tensor") is used as named.
  bool vector_only = false;
  std::string source;  ///< where W, Q, T came from ("formula", "ncu", "perf_event", ...)
  std::string note;
  /// Relative size of the point's dot in charts, e.g. a function's share of the run time
  /// (profile --instrument); 0 = not given (drawn at the default size). Finite, >= 0.
  double weight = 0;
  /// Energy E the workload used, in J (measured: RAPL, NVML, a power meter), for the energy
  /// roofline (W/E against I, docs/energy.md); 0 = not given. Finite, >= 0.
  double energy = 0;

  /// P = W/T.
  WorkRate performance() const { return work / time; }
  /// Traffic at a level ("" = the first entry). Throws InputError when absent.
  const LevelTraffic& traffic_at(const std::string& level) const;
  /// I = W/Q at a level.
  Intensity intensity(const std::string& level = "") const {
    return work / traffic_at(level).bytes;
  }

  /// W > 0, Q > 0 at every level, T > 0, all finite; weight and energy finite and >= 0. Throws
  /// InputError naming the field.
  void validate() const;
};

/// Whether two runs of one workload (diff, check --baseline) name different precisions: both
/// name one and they differ (case aside). Their P then count work on different units, which a
/// ratio of the two should say.
bool precision_changed(const Point& before, const Point& after);

/// The unit W counts in as far as the point says: its work_unit, else its precision's data type's
/// (FLOP for fp16 or "fp32 vector", OP for int8: work_unit_for), else "" — a bare count of a
/// point of no known precision, read in the unit of the roof it is judged on.
std::string stated_work_unit(const Point& p);

/// The units a point's W, P and I read in before it is judged: OP where it says its work is OP
/// (stated_work_unit) and the document counts FLOP, else the document's.
UnitSystem point_units(const Point& p, const UnitSystem& document);

/// Whether two runs of one workload (diff, check --baseline) in a document of `document` units
/// count work of different units: their W read in different units (point_units: OP for one, the
/// document's FLOP for the other), as their P are printed. Their P are then no ratio of one rate
/// (docs/model.md §11): neither a regression nor an improvement.
bool work_units_differ(const Point& before, const Point& after, const UnitSystem& document);

}  // namespace roofline
