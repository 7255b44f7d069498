#include "report/chart.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "report/chart_fit.hpp"
#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::report {

double LogScale::operator()(double value) const {
  return px0 + (std::log10(value) - lo) / (hi - lo) * (px1 - px0);
}

double DrawnRoof::value() const {
  return compute ? c->peak.value : m->bandwidth.value;
}
double DrawnRoof::height(double i) const {
  return compute ? c->peak.value : m->bandwidth.value * i;
}

UnitSystem axis_units(const RoofSet& roofs) {
  if (roofs.units == UnitSystem::flop() && !roofs.compute.empty() &&
      std::all_of(roofs.compute.begin(), roofs.compute.end(),
                  [](const ComputeRoof& c) { return c.integer; }))
    return UnitSystem::op();
  return roofs.units;
}

UnitSystem roof_units(const RoofSet& roofs, const ComputeRoof& c) {
  return roofs.units_of(c);
}

UnitSystem workload_units(const Chart& ch) {
  if (ch.workload && !ch.workload->machines.empty()) return ch.workload->machines.front().units;
  return ch.units;
}

UnitSystem default_roof_units(const Chart& ch) {
  return ch.default_compute ? roof_units(ch.in->machines.front().roofs, *ch.default_compute)
                            : ch.units;
}

std::string points_intensity_unit(const Chart& ch) {
  std::string out;
  std::vector<std::string> seen;
  for (const auto& u : ch.point_units)
    if (std::find(seen.begin(), seen.end(), u.intensity()) == seen.end()) {
      seen.push_back(u.intensity());
      out += (out.empty() ? "" : " or ") + u.intensity();
    }
  return out.empty() ? ch.units.intensity() : out;
}

std::string compute_name(const ComputeRoof& c) {
  // The roof's own name, as the tables, the CSV, `hw show` and `--roofs` say it; a sparse
  // figure not named so is marked, as "(noisy)" marks a noisy one.
  if (c.sparse && c.name.find("sparse") == std::string::npos) return c.name + " (sparse)";
  return c.name;
}

std::string compute_label(const RoofSet& roofs, const ComputeRoof& c) {
  return compute_name(c) + " " + format_work_rate(c.peak, roof_units(roofs, c));
}

std::string memory_label(const RoofSet& roofs, const MemoryRoof& m) {
  return m.level + " " + format_byte_rate(m.bandwidth, roofs.units);
}

namespace {
/// An axis from 10^lo to 10^hi must lie within a double's normal range: a roof, point or
/// intensity at its edge (1e308, 1e-320) puts the chart's margins and ticks at inf or 0, and an
/// axis without end would draw ticks forever.
void check_axis(double lo, double hi) {
  static const double kTop = std::log10(std::numeric_limits<double>::max());
  static const double kBottom = std::log10(std::numeric_limits<double>::min());
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi > kTop || lo < kBottom)
    throw InputError("chart: an axis would run from 1e" + format_number(lo, 4) + " to 1e" +
                     format_number(hi, 4) +
                     ": a roof, point or intensity lies beyond what a chart can draw (the "
                     "limits of a double, 1e-307 to 1e308, with the chart's margins)");
}
}  // namespace

std::vector<double> decade_ticks(double lo, double hi) {
  check_axis(lo, hi);
  std::vector<double> out;
  for (double k = std::ceil(lo - 1e-9); k <= hi + 1e-9; k += 1) out.push_back(std::pow(10.0, k));
  return out;
}

std::vector<double> minor_ticks(double lo, double hi) {
  check_axis(lo, hi);
  std::vector<double> out;
  for (double k = std::floor(lo); k <= std::ceil(hi); k += 1)
    for (int m = 2; m <= 9; ++m) {
      const double v = m * std::pow(10.0, k);
      const double l = std::log10(v);
      if (l > lo + 1e-9 && l < hi - 1e-9) out.push_back(v);
    }
  return out;
}

int label_step(double px_per_decade, double extent) {
  // 1, 2, 5, 10, 20, 50, ...: a step that divides the next ones, so thinned labels stay on
  // round decades.
  for (int step = 1;; step *= 10)
    for (int m : {1, 2, 5})
      if (px_per_decade * m * step >= extent || m * step >= 1000000) return m * step;
}

bool labelled_decade(double value, int step) {
  const long k = std::lround(std::log10(value));
  return k % step == 0;
}

std::string intensity_tick(double value, double lo, double hi) {
  const double l = std::log10(value);
  // The decades on the axis: 10^ceil(lo) ... 10^floor(hi) (a small slack for rounding).
  const bool plain = std::ceil(lo - 1e-9) >= -3 && std::floor(hi + 1e-9) <= 3;
  if (plain) return format_number(value, 3);
  char buf[32];
  std::snprintf(buf, sizeof buf, "1e%+d", static_cast<int>(std::lround(l)));
  return buf;
}

std::string ratio_text(double r) {
  return format_number(r, 3);
}
std::string workload_ratio_text(const Comparison& c, size_t k) {
  return ratio_text(c.ratios[k]) + "x" + (other_work_than_first(c, k) ? " *" : "");
}
std::string percent_text(double fraction) {
  return format_number(fraction * 100, 3) + "%";
}

size_t text_columns(const std::string& s) {
  size_t w = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++w;
  return w;
}

std::string not_drawn_item(const PointLeftOut& p) {
  return (p.name.empty() ? std::string("a point without a name") : p.name) + " (" + p.reason + ")";
}

std::string not_drawn_line(const std::vector<PointLeftOut>& left,
                           const std::function<bool(const std::string&)>& fits) {
  const size_t n = left.size();
  if (n == 0) return "";
  std::vector<std::string> items;
  items.reserve(n);
  for (const PointLeftOut& p : left) items.push_back(not_drawn_item(p));
  return fit_list(
      (n == 1 ? std::string("1 point") : std::to_string(n) + " points") + " not drawn: ", items,
      fits);
}

namespace {

/// The highest compute roof among those drawn (`shown`), sparse ones included when drawn; the
/// highest dense roof when none is drawn: where the slanted roofs end. With `--roofs fp32,HBM3`
/// the HBM3 line climbed past the one flat roof drawn, to the height of a hidden fp8 roof, and
/// no longer showed min(π, β·I); with `--roofs all` it stopped below the sparse roofs drawn.
const ComputeRoof* highest_drawn(const RoofSet& s, const std::vector<bool>& shown) {
  const ComputeRoof* best = nullptr;
  for (int pass = 0; pass < 2 && !best; ++pass)
    for (size_t k = 0; k < s.compute.size(); ++k)
      if ((pass == 0 ? shown[k] : !s.compute[k].sparse) &&
          (!best || s.compute[k].peak > best->peak))
        best = &s.compute[k];
  return best ? best : &s.compute.front();
}
/// The fastest memory roof among those drawn (all when none is): where the flat roofs begin.
const MemoryRoof* fastest(const RoofSet& s, const std::vector<bool>& shown) {
  const MemoryRoof* best = nullptr;
  for (int pass = 0; pass < 2 && !best; ++pass)
    for (size_t k = 0; k < s.memory.size(); ++k)
      if ((pass == 1 || shown[k]) && (!best || s.memory[k].bandwidth > best->bandwidth))
        best = &s.memory[k];
  return best;
}

void check_machine(const MachineDocument& m) {
  const std::string who = m.origin.empty() ? m.roofs.name : m.origin;
  if (m.roofs.compute.empty())
    throw InputError(who + ": machine '" + m.roofs.name + "' has no compute roof to draw");
  if (m.roofs.memory.empty())
    throw InputError(who + ": machine '" + m.roofs.name + "' has no memory roof to draw");
}

/// Which roofs this view draws (roof_choice.hpp), per machine. Overlays follow the default rule
/// on their own roofs, or "all" when every roof is asked for.
std::vector<RoofChoice> roof_choices(const ReportInput& in, const Chart& ch) {
  std::vector<RoofChoice> choices;
  for (size_t mi = 0; mi < in.machines.size(); ++mi) {
    const RoofSet& s = in.machines[mi].roofs;
    if (mi == 0) {
      choices.push_back(choose_roofs(s, ch.diagnoses, in.roofs));
      continue;
    }
    const bool all = std::any_of(in.roofs.begin(), in.roofs.end(),
                                 [](const std::string& t) { return iequals(t, "all"); });
    choices.push_back(
        choose_roofs(s, {}, all ? std::vector<std::string>{"all"} : std::vector<std::string>{}));
  }

  return choices;
}

/// Every roof of every machine as drawn: memory roofs from the left edge to the highest flat
/// roof drawn; flat roofs from the fastest memory roof drawn to the right edge (the usual
/// drawing of a hierarchy). The left and right edges are set with the axes.
void add_drawn_roofs(Chart& ch, const ReportInput& in, const std::vector<RoofChoice>& choices) {
  for (size_t mi = 0; mi < in.machines.size(); ++mi) {
    const RoofSet& s = in.machines[mi].roofs;
    const ComputeRoof* top = highest_drawn(s, choices[mi].compute_shown);
    const MemoryRoof* fast = fastest(s, choices[mi].memory_shown);
    const ComputeRoof& dc = s.select_compute("");
    const MemoryRoof& dm = s.headline_memory();
    const std::string prefix = mi == 0 ? "" : "o" + std::to_string(mi);
    for (size_t k = 0; k < s.memory.size(); ++k) {
      const MemoryRoof& m = s.memory[k];
      DrawnRoof r;
      r.compute = false;
      r.machine = mi;
      r.m = &m;
      r.from = 0;  // left edge, set below
      r.to = (top->peak / m.bandwidth).value;
      r.is_default = &m == &dm;
      r.dashed = m.provenance != Provenance::measured;
      r.label = memory_label(s, m);
      r.name = m.level;
      r.rate = format_byte_rate(m.bandwidth, s.units);
      r.noisy = m.stats && m.stats->noisy;
      r.shown = choices[mi].memory_shown[k];
      r.reason = "memory level";
      r.id = prefix + "m" + std::to_string(k);
      ch.roofs.push_back(r);
    }
    for (size_t k = 0; k < s.compute.size(); ++k) {
      const ComputeRoof& c = s.compute[k];
      DrawnRoof r;
      r.compute = true;
      r.machine = mi;
      r.c = &c;
      r.from = (c.peak / fast->bandwidth).value;
      r.to = std::numeric_limits<double>::infinity();
      r.is_default = &c == &dc;
      r.dashed = c.provenance != Provenance::measured;
      r.label = compute_label(s, c);
      r.name = compute_name(c);
      r.rate = format_work_rate(c.peak, roof_units(s, c));
      r.noisy = c.stats && c.stats->noisy;
      r.shown = choices[mi].compute_shown[k];
      r.reason = choices[mi].compute_reason[k];
      r.traits = roof_traits(c);
      r.id = prefix + "c" + std::to_string(k);
      ch.roofs.push_back(r);
    }
  }
}

/// Ridge points (docs/model.md §2, §8): each flat roof against the default memory roof (a
/// sparse one too: the HTML page can show it), and the default flat roof against every memory
/// level; one mark per distinct point.
void add_ridges(Chart& ch, const RoofSet& rs, const std::vector<RoofChoice>& choices) {
  auto add_ridge = [&](const ComputeRoof& c, const MemoryRoof& m) {
    const size_t ci = static_cast<size_t>(&c - rs.compute.data());
    const size_t mi = static_cast<size_t>(&m - rs.memory.data());
    const bool shown = choices[0].compute_shown[ci] && choices[0].memory_shown[mi];
    const std::string pair = "c" + std::to_string(ci) + ":m" + std::to_string(mi);
    // One mark per distinct point: roofs of one height against one bandwidth share it (shown
    // when either pair is). Heights that only lie close (int8 at 1e11 OP/s, bf16 at 1.0009e11
    // FLOP/s) are two marks, each at its own I* and peak.
    const double i = ridge(c.peak, m.bandwidth).value;
    for (auto& r : ch.ridges) {
      if (r.c == &c && r.m == &m) return;
      if (r.peak == c.peak.value && r.m->bandwidth.value == m.bandwidth.value) {
        if (shown && !r.shown) r.c = &c, r.m = &m, r.shown = true;
        r.roof_ids += " " + pair;
        r.pairs.emplace_back(&c, &m);
        if (shown) {
          r.shown_pairs.emplace_back(&c, &m);
          r.shown_roof_ids += (r.shown_roof_ids.empty() ? "" : " ") + pair;
        }
        return;
      }
    }
    RidgeMark r;
    r.c = &c;
    r.m = &m;
    r.intensity = i;
    r.peak = c.peak.value;
    r.primary = &c == ch.default_compute && &m == ch.default_memory;
    r.shown = shown;
    r.roof_ids = pair;
    r.pairs.emplace_back(&c, &m);
    if (shown) {
      r.shown_pairs.emplace_back(&c, &m);
      r.shown_roof_ids = pair;
    }
    ch.ridges.push_back(r);
  };
  add_ridge(*ch.default_compute, *ch.default_memory);
  for (const auto& c : rs.compute) add_ridge(c, *ch.default_memory);
  for (const auto& m : rs.memory) add_ridge(*ch.default_compute, m);
}

/// The least and the greatest positive finite value on one axis, and what gave each (named when
/// the axis cannot be drawn).
struct Extent {
  double min = std::numeric_limits<double>::infinity(), max = 0;
  std::string min_who, max_who;
  template <class Who>
  void take(double v, const Who& who) {
    if (!(v > 0) || !std::isfinite(v)) return;
    if (v < min) min = v, min_who = who();
    if (v > max) max = v, max_who = who();
  }
};

/// An axis beyond a double's range is refused naming what put it there: the extreme value whose
/// own margin reaches out, else (the equal length per decade carried the longer axis's span
/// into the other) both ends of the longer span; check_axis says it of anything left.
void refuse_beyond(const Extent& x, const Extent& y, double xlo, double xhi, double ylo,
                   double yhi) {
  static const double kTop = std::log10(std::numeric_limits<double>::max());
  static const double kBottom = std::log10(std::numeric_limits<double>::min());
  if (xlo >= kBottom && ylo >= kBottom && xhi <= kTop && yhi <= kTop) return;
  const std::string limits =
      "an axis beyond the limits of a double (1e-307 to 1e308, with the "
      "chart's margins)";
  const auto refuse = [&](const std::string& who, const char* what, double v) {
    if (who.empty()) return;
    throw InputError("chart: " + who + " cannot be drawn: its " + what + " " + format_number(v) +
                     " puts " + limits);
  };
  if (std::log10(x.min) - 0.7 < kBottom) refuse(x.min_who, "intensity", x.min);
  if (std::log10(x.max) + 0.7 > kTop) refuse(x.max_who, "intensity", x.max);
  if (std::log10(y.min) - 0.35 < kBottom) refuse(y.min_who, "performance", y.min);
  if (std::log10(y.max) + 0.3 > kTop) refuse(y.max_who, "performance", y.max);
  const bool x_longer =
      std::log10(x.max) - std::log10(x.min) >= std::log10(y.max) - std::log10(y.min);
  const Extent& e = x_longer ? x : y;
  if (e.min_who.empty() || e.max_who.empty()) return;
  throw InputError(std::string("chart: the ") + (x_longer ? "intensities" : "performances") +
                   " run from " + format_number(e.min) + " (" + e.min_who + ") to " +
                   format_number(e.max) + " (" + e.max_who +
                   "): with one length per decade on both axes, that span puts " + limits);
}

/// The axis ranges (log10) over roofs, ridges, points, the workload line and the curve, with
/// the same length per decade on both axes; the roofs' open ends are cut at the edges.
void set_axes(Chart& ch, const ReportInput& in, double width, double height) {
  Extent x, y;
  // A sparse roof's ridge widens the axis only where the view draws it.
  for (const auto& r : ch.ridges)
    if (r.shown || !r.c->sparse) x.take(r.intensity, [] { return std::string("a ridge"); });
  for (const auto& m : in.machines) {
    const RoofSet& s = m.roofs;
    const auto who = [&] { return "machine '" + terminal_safe(s.name) + "'"; };
    x.take((s.select_compute("").peak / s.headline_memory().bandwidth).value, who);
    for (const auto& c : s.compute) y.take(c.peak.value, who);
  }
  // The lowest point or workload mark, log10: never cut off.
  double ypoints = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < in.points.size(); ++i) {
    const auto who = [&] { return "point '" + terminal_safe(in.points[i].name) + "'"; };
    for (const auto& l : ch.diagnoses[i].levels) x.take(l.intensity.value, who);
    y.take(ch.diagnoses[i].performance.value, who);
    if (ch.diagnoses[i].performance.value > 0)
      ypoints = std::min(ypoints, std::log10(ch.diagnoses[i].performance.value));
  }
  const auto line = [] { return std::string("the workload line (--at)"); };
  if (in.workload_line) x.take(in.workload_line->value, line);
  // Each machine's roof height at the workload line is what the line is for (docs/model.md §7):
  // kept on the chart like a point, however low I puts it.
  if (ch.workload)
    for (const auto& m : ch.workload->machines) {
      y.take(m.attainable.value, line);
      if (m.attainable.value > 0) ypoints = std::min(ypoints, std::log10(m.attainable.value));
    }
  const auto curve = [] { return std::string("the empirical curve"); };
  for (const auto& [i, p] : ch.empirical) x.take(i, curve), y.take(p, curve);
  const double xmin = x.min, xmax = x.max, ymin = y.min, ymax = y.max;
  double xlo = std::log10(xmin) - 0.7, xhi = std::log10(xmax) + 0.7;
  if (xhi - xlo < 3) {
    const double mid = (xlo + xhi) / 2;
    xlo = mid - 1.5, xhi = mid + 1.5;
  }
  // Bottom: the lowest point or curve sample, and at least 2.5 decades below the top peak so the
  // slanted roofs are visible; at most 7 decades for the roofs alone, but never above a point
  // (a point off the chart would be lost).
  double yhi = std::log10(ymax) + 0.3;
  double ylo = std::min(std::log10(ymin), yhi - 0.3 - 2.5) - 0.35;
  ylo = std::max(ylo, yhi - 7);
  if (std::isfinite(ypoints)) ylo = std::min(ylo, ypoints - 0.35);
  // The same length per decade on both axes: extend the shorter one.
  const double per_x = width / (xhi - xlo), per_y = height / (yhi - ylo);
  if (per_x > per_y) {
    const double extra = width / per_y - (xhi - xlo);
    xlo -= extra / 2, xhi += extra / 2;
  } else {
    ylo -= height / per_x - (yhi - ylo);
  }
  // Room for a label above the highest roof: 5% of the height, the x range following.
  if (const double room = 0.05 * (yhi - ylo); yhi - std::log10(ymax) < room) {
    yhi = std::log10(ymax) + room;
    const double extra = width * (yhi - ylo) / height - (xhi - xlo);
    if (extra > 0) xlo -= extra / 2, xhi += extra / 2;
  }
  refuse_beyond(x, y, xlo, xhi, ylo, yhi);
  ch.x_lo = xlo, ch.x_hi = xhi, ch.y_lo = ylo, ch.y_hi = yhi;
  for (auto& r : ch.roofs) {
    if (!r.compute) r.from = std::pow(10.0, xlo);
    r.to = std::min(r.to, std::pow(10.0, xhi));
  }
}

/// The no-overlap curve 1/(1/π + 1/(β·I)) of the default roofs across the x range.
void add_no_overlap(Chart& ch) {
  const WorkRate pi = ch.default_compute->peak;
  const ByteRate beta = ch.default_memory->bandwidth;
  for (int k = 0; k <= 240; ++k) {
    const double i = std::pow(10.0, ch.x_lo + (ch.x_hi - ch.x_lo) * k / 240.0);
    ch.no_overlap.emplace_back(i, no_overlap(pi, beta, Intensity(i)).value);
  }
}

}  // namespace

Chart build_chart(const ReportInput& in, double width, double height) {
  if (in.machines.empty()) throw InputError("report: no machine given");
  // A title is one line, as a name is: SVG and HTML kept a raw line break, JSON "\n", the
  // terminal an escape.
  require_one_line(in.title, "chart title");
  for (const auto& m : in.machines) {
    check_machine(m);
    require_same_units(in.machines.front().roofs, m.roofs);
  }
  Chart ch;
  ch.in = &in;
  const RoofSet& rs = in.machines.front().roofs;
  ch.units = axis_units(rs);
  // A FLOP roof set with some integer roofs: both axes carry both units.
  const auto integer = [](const ComputeRoof& c) { return c.integer; };
  const bool mixed = rs.units == UnitSystem::flop() &&
                     std::any_of(rs.compute.begin(), rs.compute.end(), integer) &&
                     !std::all_of(rs.compute.begin(), rs.compute.end(), integer);
  ch.x_title = "Operational intensity [" + ch.units.intensity() +
               (mixed ? ", " + UnitSystem::op().intensity() : "") + "]";
  ch.y_title = "Performance [" + ch.units.work_rate() + (mixed ? ", OP/s" : "") + "]";
  ch.default_compute = &rs.select_compute("");
  ch.default_memory = &rs.headline_memory();

  for (const auto& p : in.points) {
    ch.diagnoses.push_back(diagnose(p, rs, in.diagnosis));
    ch.point_units.push_back(judged_units(rs, ch.diagnoses.back()));
  }

  const std::vector<RoofChoice> choices = roof_choices(in, ch);
  add_drawn_roofs(ch, in, choices);
  add_ridges(ch, rs, choices);
  if (in.workload_line) {
    if (!(in.workload_line->value > 0) || !std::isfinite(in.workload_line->value))
      throw InputError("workload intensity must be > 0 (got " +
                       format_number(in.workload_line->value) + ")");
    std::vector<const RoofSet*> sets;
    for (const auto& m : in.machines) sets.push_back(&m.roofs);
    ch.workload = compare_at(sets, *in.workload_line);
    ch.workload->precision = in.workload_precision;
    ch.workload->level = in.workload_level;
  }
  for (const auto& s : rs.empirical_curve)
    if (s.intensity.value > 0 && s.performance.value > 0)
      ch.empirical.emplace_back(s.intensity.value, s.performance.value);
  std::sort(ch.empirical.begin(), ch.empirical.end());

  set_axes(ch, in, width, height);
  if (in.no_overlap_curve) add_no_overlap(ch);
  return ch;
}

}  // namespace roofline::report
