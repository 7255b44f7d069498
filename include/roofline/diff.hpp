#pragma once
// Two roof sets side by side (`roofline diff`, docs/check.md): each roof's ratio B/A, whether the
// change exceeds the spread both measurements carry, the roofs one side lacks, and the ridge
// moving; two points documents side by side, paired by name. Pure arithmetic over RoofSet and
// PointsDocument; the CLI reads the documents and renders (text: report's text.hpp, JSON: io's
// check_io.hpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roofline/check.hpp"
#include "roofline/documents.hpp"
#include "roofline/roof.hpp"

namespace roofline {

/// One roof present on both sides (compute roofs by name, memory roofs by level); the two
/// default roofs when their names differ (named "HBM3 → HBM3e (default memory roofs)"); and,
/// per precision, the highest roofs on a matrix engine and on vectors when their names differ
/// ("bf16 AMX tile dot → bf16 amx (highest bf16 matrix-engine roofs)").
struct RoofChange {
  std::string name;
  std::string roof_a;   ///< A's roof (its compute roof's name or its level): what `name` pairs
  std::string roof_b;   ///< B's roof, the same way
  bool compute = true;  ///< a flat roof (FLOP/s); else a memory roof (byte/s)
  double a = 0, b = 0;  ///< the roofs' values (peak or bandwidth)
  double ratio = 1;     ///< b / a
  /// Relative spread of each side's samples (roof_spread), when it carries statistics of at
  /// least two repetitions (a datasheet or theoretical roof carries none).
  std::optional<double> spread_a, spread_b;
  /// The noise a change is judged against: the larger of the spreads carried and the run-to-run
  /// agreement (kRunToRunCompute / kRunToRunMemory). Empty when neither carries a spread.
  std::optional<double> noise;
  /// The ratio lies outside [1/(1 + noise), 1 + noise] (beyond_noise, check.hpp, as `check
  /// --baseline` judges): the change exceeds both runs' spread and the run-to-run agreement.
  /// Empty when neither side carries a spread (nothing to measure the change against), and
  /// when the two roofs count work of different units.
  std::optional<bool> exceeds_spread;
  /// Each compute roof's work unit (RoofSet::units_of: "OP" on an integer roof, else the set's
  /// work), "" for a memory roof.
  std::string work_unit_a, work_unit_b;
  /// FLOP/s against OP/s (a fp32 default roof paired with an int8 one): the ratio is of
  /// different quantities, so it is not judged against the noise (exceeds_spread empty).
  bool work_units_differ = false;
};

struct RoofSetDiff {
  std::vector<RoofChange> changes;
  /// Roofs no row compares: "compute fp64 avx512" / "memory L3" (a roof paired under another
  /// name, as a default or highest-per-unit roof, is not listed).
  std::vector<std::string> only_a, only_b;
  /// The ridge I* = π/β of each side's default roofs (RoofSet::select_compute(""),
  /// select_memory("")), with the roofs it was taken from.
  double ridge_a = 0, ridge_b = 0;
  double ridge_ratio = 1;  ///< ridge_b / ridge_a
  std::string ridge_roofs_a, ridge_roofs_b;
  /// The units each ridge is in (its default compute roof's, units_of: OP/byte on an integer
  /// roof); when their work differs the ridges are not compared (ridge_ratio is of different
  /// quantities).
  UnitSystem ridge_units_a, ridge_units_b;
  bool ridge_work_units_differ = false;
};

/// The relative spread of a roof's statistics: robust_spread() (statistics.hpp) when there are
/// at least two repetitions and a median > 0, else empty.
std::optional<double> roof_spread(const std::optional<Statistics>& s);

/// The noise a change is judged against: the larger of the spreads carried and `floor` (the
/// run-to-run agreement); empty when neither run carries a spread.
std::optional<double> spread_noise(std::optional<double> a, std::optional<double> b,
                                   double floor = 0);

/// Whether a ratio lies outside the band (beyond_noise, check.hpp) of the spreads carried (the
/// larger of the two; one alone when only one is carried; empty when neither is), and `floor`
/// (a smallest noise, when any spread is carried). Empty too when that noise is kBlindNoise
/// (100%) or more: too noisy to judge either way, as `check --baseline` judges.
std::optional<bool> exceeds_spread(double ratio, std::optional<double> a, std::optional<double> b,
                                   double floor = 0);

/// The default roofs of two sets under different names: A's default compute roof
/// (select_compute("")) when B has no roof of that name, with B's default — the two machines'
/// main roofs, compared (diff) or gathered (a cluster's nodes) under both names. Empty when
/// either set has no such roof or B has A's default by name (they pair by name then).
std::optional<std::pair<const ComputeRoof*, const ComputeRoof*>> paired_default_compute(
    const RoofSet& a, const RoofSet& b);
/// The same for the default memory roofs (RoofSet::default_memory_roof): "HBM3" and "HBM3e".
std::optional<std::pair<const MemoryRoof*, const MemoryRoof*>> paired_default_memory(
    const RoofSet& a, const RoofSet& b);

/// Compares two roof sets. InputError when their units differ (FLOP/byte against tuple/I/O).
RoofSetDiff diff_roofs(const RoofSet& a, const RoofSet& b);

/// The verdict on a change against `noise` (the larger spread carried and the run-to-run
/// agreement; set whenever `exceeds` is): "exceeds the noise (3%: ratios 0.970874x to 1.03x)",
/// "within the noise (...)", "too noisy to judge: the noise 120% is 100% or more, ..." (a noise
/// of kBlindNoise or more), or "no spread carried: cannot say whether it exceeds the noise".
/// `brief` leaves out the band and the explanation ("within the noise (3%)", "no spread
/// carried"), as a Python repr says it.
std::string noise_verdict(const std::optional<bool>& exceeds, const std::optional<double>& noise,
                          bool brief = false);

/// What diff says of two figures of work of different units (FLOP in A, OP in B), whose ratio is
/// no change of one rate (docs/model.md §11): "not compared: work of different units (FLOP in
/// A, OP in B)" — two points, two machines' roofs or their ridges alike.
std::string work_units_not_compared(const std::string& unit_a, const std::string& unit_b);

/// One point present in both documents (paired by name).
struct PointChange {
  std::string name;
  std::string precision_a, precision_b;  ///< as the points give them ("" when unstated)
  WorkRate performance_a, performance_b;
  /// Each point's units (point_units): an integer point's work in OP.
  UnitSystem units_a, units_b;
  double ratio = 1;  ///< performance_b / performance_a
  /// I at a level both points have (the first of A's that B has too): B/A. Empty when no level
  /// is in both (an intensity at L2 against one at HBM is no change of the kernel).
  std::optional<double> intensity_ratio;
  std::string intensity_level;  ///< the level it was taken at ("" for traffic of no level)
  /// Each point's spread as `check` reads it (point_spreads), when it carries one.
  std::optional<double> spread_a, spread_b;
  /// The noise the change is judged against and whether it exceeds it (spread_noise,
  /// exceeds_spread with kRunToRunCompute), as `check --baseline` and the roofs judge.
  std::optional<double> noise;
  std::optional<bool> exceeds_spread;
  bool precision_changed = false;  ///< work counted on another unit (precision_changed)
  /// FLOP in one, OP in the other (units_a.work, units_b.work): the ratio is of different
  /// quantities, so it is not judged against the noise (exceeds_spread empty).
  bool work_units_differ = false;
};

struct PointsDiff {
  std::vector<PointChange> changes;  ///< in A's order
  std::vector<std::string> only_a;   ///< A's points B has no point of that name for, in A's order
  std::vector<std::string> only_b;   ///< the same for B, in B's order
  /// Each document's runs that are no point (PointsDocument::not_points: a copy's bandwidth,
  /// W = 0), in its order: no P or I to compare, so listed as not compared and why.
  std::vector<PointLeftOut> not_compared_a, not_compared_b;
};

/// Pairs the points of two documents by name. `spreads_a` / `spreads_b`: each point's spread (one
/// per point, or fewer: the rest carry none). InputError, naming `label_a` / `label_b` (the
/// documents as given), when their units differ or a name is given twice in one document (it
/// would pair wrongly).
PointsDiff diff_points(const PointsDocument& a, const std::vector<std::optional<Spread>>& spreads_a,
                       const std::string& label_a, const PointsDocument& b,
                       const std::vector<std::optional<Spread>>& spreads_b,
                       const std::string& label_b);

}  // namespace roofline
