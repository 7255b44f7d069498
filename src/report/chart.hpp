#pragma once
// What every chart renderer (SVG, terminal) draws, computed once from a ReportInput: the
// diagnoses of the points, the roofs with their drawn extents, ridge points, overlays, and the
// log-log axis ranges. Renderers only map these to pixels or braille dots.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/roof_choice.hpp"
#include "roofline/compare.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/report.hpp"

namespace roofline::report {

/// A log10 range [lo, hi] mapped linearly onto pixels [px0, px1] (px1 < px0 for a y axis).
struct LogScale {
  double lo = 0, hi = 1;
  double px0 = 0, px1 = 1;
  double operator()(double value) const;
  double decades() const { return hi - lo; }
};

/// One roof to draw: a flat compute line from `from` to `to` (intensity) at height `peak`, or a
/// slanted memory line P = β·I between the two intensities.
struct DrawnRoof {
  bool compute = true;
  size_t machine = 0;  ///< index into ReportInput::machines
  const ComputeRoof* c = nullptr;
  const MemoryRoof* m = nullptr;
  double from = 0, to = 0;  ///< intensities
  bool is_default = false;  ///< the roof points are judged against by default
  bool dashed = false;      ///< theoretical or datasheet provenance (not measured)
  std::string label;        ///< "fp32 avx2 fma 350 GFLOP/s", "DRAM 40 GB/s"
  std::string name;         ///< compute_name(c) or the level
  std::string rate;         ///< the value with its unit: "350 GFLOP/s", "40 GB/s"
  /// Its samples were flagged by the noise policy (Statistics::noisy): the SVG's label says so,
  /// as the tables' spread column does.
  bool noisy = false;
  /// In this view (roof_choice.hpp): drawn by every renderer; the others only by the HTML
  /// page, hidden behind its toggles.
  bool shown = true;
  std::string reason;    ///< why it is in the default view ("highest fp32"; empty: optional)
  RoofTraits traits;     ///< compute roofs: precision, vector width, instruction class
  std::string id;        ///< unique in the chart: "c3" (compute roof 3), "m1", "o1c2" (overlay 1)
  double value() const;  ///< π or β
  /// Height at intensity i (P = π, or β·i).
  double height(double i) const;
};

struct RidgeMark {
  const ComputeRoof* c = nullptr;
  const MemoryRoof* m = nullptr;
  double intensity = 0;  ///< I* = π/β (docs/model.md §2)
  double peak = 0;
  bool primary = false;  ///< default compute × default memory roof
  bool shown = true;     ///< both roofs are shown
  /// The compute:memory roof pairs that meet here ("c3:m1 c5:m1"): the HTML page shows the mark
  /// while both roofs of any pair are shown.
  std::string roof_ids;
  /// The pairs of roof_ids whose two roofs the chart draws: what a chart without the optional
  /// roofs names (it named roofs it does not draw, "c1:m0" on a B200).
  std::string shown_roof_ids;
  /// The same pairs as roofs (c, m first).
  std::vector<std::pair<const ComputeRoof*, const MemoryRoof*>> pairs;
  /// The pairs whose two roofs the chart draws: what its tooltip and the data exports name (a
  /// roof --roofs hid is not said to meet here).
  std::vector<std::pair<const ComputeRoof*, const MemoryRoof*>> shown_pairs;
};

struct Chart {
  const ReportInput* in = nullptr;
  UnitSystem units;  ///< axis units (OP for integer-only roof sets)
  std::string x_title, y_title;
  std::vector<Diagnosis> diagnoses;  ///< one per point
  /// One per point: the units its W, P and I read in, its compute roof's (judged_units).
  std::vector<UnitSystem> point_units;
  std::vector<DrawnRoof> roofs;   ///< machine 0 first, then overlays; shown and optional
  std::vector<RidgeMark> ridges;  ///< machine 0 only
  const ComputeRoof* default_compute = nullptr;
  const MemoryRoof* default_memory = nullptr;
  std::vector<std::pair<double, double>> no_overlap;  ///< (I, P) samples, empty when off
  std::vector<std::pair<double, double>> empirical;   ///< (I, P), sorted by I
  std::optional<Comparison> workload;                 ///< all machines at the workload line
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;      ///< log10 axis ranges
};

/// Diagnoses the points and lays out the chart for a plot area of `width` × `height` units in
/// which a decade has the same length on both axes (so memory roofs are true 45° lines,
/// docs/model.md §2). Throws InputError for a missing machine or roofs, or a point whose precision
/// or level the machine lacks.
Chart build_chart(const ReportInput& in, double width, double height);

/// Units of a roof set's axes: its own names, or OP when every compute roof is integer.
UnitSystem axis_units(const RoofSet& roofs);
/// Work-rate unit of one compute roof (OP/s for an integer roof in a FLOP set).
UnitSystem roof_units(const RoofSet& roofs, const ComputeRoof& c);
/// The unit the workload line's I reads in: the first machine's roof at it (OP/byte on an
/// integer roof), else the axis's.
UnitSystem workload_units(const Chart& ch);
/// The default compute roof's units (its ridge's I* in OP/byte on an integer roof).
UnitSystem default_roof_units(const Chart& ch);
/// The points' intensity unit for a column heading: "FLOP/byte", or "FLOP/byte or OP/byte"
/// when integer and floating-point points share the chart (the axis unit without points).
std::string points_intensity_unit(const Chart& ch);
/// A compute roof's name for labels: its own name (as the tables and `--roofs` say it), with
/// "(sparse)" when it is a sparse figure not named so.
std::string compute_name(const ComputeRoof& c);
/// compute_name and the peak: "fp32 avx2 fma 350 GFLOP/s".
std::string compute_label(const RoofSet& roofs, const ComputeRoof& c);
std::string memory_label(const RoofSet& roofs, const MemoryRoof& m);

/// Tick positions: decades (10^k) and minor ticks (2..9 × 10^k) inside [lo, hi] (log10).
std::vector<double> decade_ticks(double lo, double hi);
std::vector<double> minor_ticks(double lo, double hi);
/// Every how many decades an axis labels its ticks (1, 2, 5, 10, 20, 50, ...) so that labels
/// `extent` px long along the axis never overlap at `px_per_decade`.
int label_step(double px_per_decade, double extent);
/// Whether the decade tick `value` (10^k) carries a label at `step` (k a multiple of it).
bool labelled_decade(double value, int step);
/// Short tick text for a decade on a log axis spanning [lo, hi] (log10), one style per axis:
/// plain numbers ("0.01", "1", "1000") where every decade on it lies from 0.001 to 1000, powers
/// of ten ("1e-2", "1e+0", "1e+4") for all of them where one lies beyond.
std::string intensity_tick(double value, double lo, double hi);

/// The reports' number formats, one per kind of number, the same in every output for people
/// (SVG, HTML, terminal): a quantity with its unit through format_si (4 significant digits:
/// "117.8 GFLOP/s"), an intensity or I* through format_number (4: "1.127"), and a ratio, factor
/// or percentage with 3 significant digits, as the diagnosis words them ("9.8x", "91.8%").
/// CSV and JSON carry the values themselves, in base units.
std::string ratio_text(double r);
std::string percent_text(double fraction);
/// Machine k's ratio on the workload line ("0.609x"), marked "*" where its roof counts other
/// work than the first machine's (OP/s against FLOP/s: mixed_work_note says what it means).
std::string workload_ratio_text(const Comparison& c, size_t k);

/// Display width of UTF-8 text in characters (code points).
size_t text_columns(const std::string& s);

/// The line a chart draws for the points it leaves out (ReportInput::not_drawn): "2 points not
/// drawn: a (no roof for fp16), b (no roof for level L1)" with as many as `fits` takes, then
/// "and 3 more"; the first name cut with "…" where even it does not fit. "" when none is left
/// out. Text as given: the caller escapes it as it escapes every label.
std::string not_drawn_line(const std::vector<PointLeftOut>& left,
                           const std::function<bool(const std::string&)>& fits);
/// "name (reason)" for one point left out ("a point without a name" where it has none).
std::string not_drawn_item(const PointLeftOut& p);

}  // namespace roofline::report
