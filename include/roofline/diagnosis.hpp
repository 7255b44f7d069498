#pragma once
// The two-step diagnosis of a point (docs/model.md §6):
//   1. Is the point touching a roof?  (how much headroom is left)
//   2. If so, which roof?             (what the bottleneck is, hence what to change)
// with the table of verdicts (docs/model.md §6) and prescriptions, the "higher roof is empty" case
// (docs/model.md §6, §7), the "above a roof is impossible" alarm with its likely causes, and
// per-level judgement for hierarchical points (docs/model.md §7 memory hierarchy).
#include <string>
#include <vector>

#include "roofline/model.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline {

struct DiagnosisOptions {
  /// A point "touches" its binding roof when attainment ≥ touching (default 0.8, i.e. within
  /// 20% — about 0.1 decade on a log chart, what the eye reads as "on the roof").
  double touching = 0.8;
  /// A point is "above" a roof when attainment > above (default 1.05: 5% measurement slack).
  double above = 1.05;
  /// A higher flat roof counts as "empty above" when it is at least this many times higher, and
  /// would allow at least this many times the attainable rate at the point's intensities.
  double higher_roof_factor = 1.5;
};

enum class Verdict {
  far_below,           ///< far below both roofs (under 80%): not a hardware limit yet
  just_below,          ///< within 20% of its binding roof, short of touching (docs/model.md §6)
  memory_bound,        ///< on the slanted roof: data movement is the bottleneck
  compute_bound,       ///< on the flat roof: compute is the bottleneck
  faster_unit_unused,  ///< on the flat roof with a higher flat roof empty above it
  above_roof,          ///< above a roof: impossible, the measurement or the roof is wrong
};
std::string to_string(Verdict v);

/// The point judged at one memory level against that level's roof.
struct LevelJudgement {
  std::string level;  ///< the machine's name of the level (a point's "DRAM" → "HBM3")
  Bytes traffic{0};   ///< the point's Q at this level
  Intensity intensity{0};
  WorkRate attainable{0};          ///< min(π, β_level · I_level)
  double attainment = 0;           ///< P / attainable
  std::string attainment_percent;  ///< as Diagnosis::attainment_percent, for this level
  bool memory_side = false;        ///< left of this level's ridge
  Intensity ridge{0};
};

/// A flat roof above the binding compute roof that the point does not use.
struct EmptyRoof {
  std::string name;
  WorkRate peak{0};
  /// min(its peak, β·I over the point's levels) / the point's attainable: what it would allow at
  /// the point's own I (a memory roof caps every unit alike)
  double gain = 0;
};

struct Diagnosis {
  Verdict verdict = Verdict::far_below;
  std::string compute_roof;        ///< name of the flat roof the point is judged against
  std::string binding_level;       ///< level whose slanted roof is lowest at the point's I
  bool binding_is_memory = false;  ///< the binding roof is the slanted one
  WorkRate performance{0};
  WorkRate attainable{0};  ///< lowest bound over all levels
  double attainment = 0;
  /// The attainment in percent, with digits enough to read apart from the threshold nearest to
  /// it (DiagnosisOptions: "104.96" touching and "105.04" above, not "105" for both).
  std::string attainment_percent;
  Distance headroom;  ///< vertical distance to the binding roof
  bool touching = false;
  std::vector<LevelJudgement> levels;
  std::vector<EmptyRoof> empty_roofs_above;
  std::string title;                ///< one line: the table's diagnosis
  std::string prescription;         ///< what to do, from the diagnosis table (docs/model.md §6)
  std::vector<std::string> causes;  ///< for above_roof: the likely causes
  std::vector<std::string> notes;   ///< level-specific advice (cache headroom, L2 limit...)
};

Diagnosis diagnose(const Point& p, const RoofSet& roofs, const DiagnosisOptions& opt = {});

/// An attainment in percent with digits enough to read apart from the threshold of `opt`
/// nearest to it (touching, above): "104.96" and "105.04", not "105" for both.
std::string attainment_percent(double attainment, const DiagnosisOptions& opt = {});

/// The units a judged point reads in: its compute roof's (OP, OP/s and OP/byte on an integer
/// roof), else the set's.
UnitSystem judged_units(const RoofSet& roofs, const Diagnosis& d);

/// The point's I at its binding level, where a chart draws it (the headline I of an analysis;
/// the first level's was taken, so the order traffic was given in changed it). 0 without levels.
Intensity binding_intensity(const Diagnosis& d);

/// InputError when two of the point's traffic levels are one memory roof of `roofs` (no level
/// and the default level, "DRAM" and "HBM" on an HBM machine): one level would get two byte
/// counts and two intensities. The message begins with `who` (e.g. "point 'k': "). A level the
/// machine lacks is an InputError too, unless `skip_missing` (hw compare, which reads one
/// level of each point: the others may be levels another machine has).
void require_distinct_levels(const Point& p, const RoofSet& roofs, const std::string& who = "",
                             bool skip_missing = false);

/// A point given for a chart that the chart does not draw, and why: the one record the warning
/// on stderr and the chart's own line ("2 points not drawn: …", docs/charts.md) are both made
/// from. Text as given: every output escapes it as it escapes names.
struct PointLeftOut {
  std::string name;    ///< the point's name ("" for a point without one)
  std::string reason;  ///< short, for a chart's line: "no roof for fp16", "no roof for level L1"
  std::string detail;  ///< the whole message: "machine 'm' has no compute roof for 'fp16' (…)"
  /// A bandwidth-only run of a points document (PointsDocument::not_points: W = 0, no point),
  /// with its Q per level and T (seconds per call) as the document gives them (empty, 0 when
  /// it gives none); every output lists it as one (bandwidth_run_note, left_out_to_json).
  bool bandwidth_only = false;
  std::vector<LevelTraffic> traffic{};
  double time = 0;
};

/// Points fitted to a machine's roofs as docs/schema.md says they are judged, by `point`, `plot`
/// and Python's diagnose() and Chart alike.
struct FittedPoints {
  /// The points that can be judged, in their order: traffic at a level `roofs` has no roof for (a
  /// CPU run's L1 on a catalogue machine that publishes only DRAM) left out.
  std::vector<Point> points;
  /// What was left out and why, one line per reason naming up to five of its points (escaped): a
  /// point whose precision has no roof ("point 'k' not judged: …", an fp64 kernel on fp32 roofs
  /// would read as impossible), or with no level left; a level left out ("… judged at its other
  /// levels: …").
  std::vector<std::string> warnings;
  /// The points left out (no roof of their precision, or none of their levels), in their order:
  /// the warnings' "not judged" lines are made from this list, and a chart says it
  /// (ReportInput::not_drawn).
  std::vector<PointLeftOut> left_out;
};
FittedPoints fit_to_roofs(std::vector<Point> points, const RoofSet& roofs);
/// The refusal when fit_to_roofs kept none of `count` points, for the machine named `machine`
/// (already escaped): "none of its 3 points can be judged on machine 'm' (…)", "its one point
/// cannot be judged …".
std::string none_judged(std::size_t count, const std::string& machine);

}  // namespace roofline
