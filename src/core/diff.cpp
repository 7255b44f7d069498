#include "roofline/diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "roofline/check.hpp"
#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/statistics.hpp"
#include "roofline/strings.hpp"

namespace roofline {

std::optional<double> roof_spread(const std::optional<Statistics>& s) {
  if (!s || s->repetitions < 2 || !(s->median > 0)) return std::nullopt;
  return robust_spread(*s);
}

std::optional<double> spread_noise(std::optional<double> a, std::optional<double> b, double floor) {
  if (!a && !b) return std::nullopt;
  return std::max({a.value_or(0), b.value_or(0), floor});
}

std::optional<bool> exceeds_spread(double ratio, std::optional<double> a, std::optional<double> b,
                                   double floor) {
  const auto noise = spread_noise(a, b, floor);
  // A noise of 100% or more judges neither way, as `check --baseline` does (too_noisy).
  if (!noise || *noise >= kBlindNoise) return std::nullopt;
  // The band check judges by (noise_band_low, check.hpp): symmetric in the ratio.
  return beyond_noise(ratio, *noise);
}

namespace {

RoofChange change(std::string name, std::string roof_a, std::string roof_b, bool compute, double a,
                  double b, const std::optional<Statistics>& sa,
                  const std::optional<Statistics>& sb) {
  RoofChange c;
  c.name = std::move(name);
  c.roof_a = std::move(roof_a);
  c.roof_b = std::move(roof_b);
  c.compute = compute;
  c.a = a;
  c.b = b;
  c.ratio = b / a;
  c.spread_a = roof_spread(sa);
  c.spread_b = roof_spread(sb);
  const double floor = compute ? kRunToRunCompute : kRunToRunMemory;
  c.noise = spread_noise(c.spread_a, c.spread_b, floor);
  c.exceeds_spread = exceeds_spread(c.ratio, c.spread_a, c.spread_b, floor);
  return c;
}

/// The highest roof of `precision` on a matrix engine (or on vectors), sparse ones aside (by
/// outranks: a full-precision accumulate before a narrow one).
const ComputeRoof* highest_on(const RoofSet& s, const std::string& precision, bool matrix) {
  const ComputeRoof* best = nullptr;
  for (const auto& c : s.compute)
    if (!c.sparse && iequals(c.precision, precision) && is_matrix_unit(c) == matrix &&
        outranks(c, best))
      best = &c;
  return best;
}

/// The highest roofs of one precision on the same kind of unit under different names (a
/// measured "bf16 AMX tile dot" against a catalogue's "bf16 amx", "fp32 512-bit fma" against
/// "fp32 avx-512 fma"): compared too, named as the default roofs are.
void compare_by_unit(const RoofSet& a, const RoofSet& b, RoofSetDiff& d) {
  if (a.compute.empty() || b.compute.empty()) return;
  const ComputeRoof* default_a = &a.select_compute("");
  const ComputeRoof* default_b = &b.select_compute("");
  std::set<std::pair<std::string, bool>> done;
  for (const auto& c : a.compute) {
    const std::string p = lower(c.precision);
    const bool matrix = is_matrix_unit(c);
    if (c.sparse || p.empty() || !done.insert({p, matrix}).second) continue;
    const ComputeRoof* ha = highest_on(a, p, matrix);
    const ComputeRoof* hb = highest_on(b, p, matrix);
    if (!ha || !hb || b.find_compute(ha->name) || a.find_compute(hb->name)) continue;
    if (ha == default_a && hb == default_b) continue;  // compared as the default roofs
    d.changes.push_back(change(ha->name + " → " + hb->name + " (highest " + p +
                                   (matrix ? " matrix-engine" : " vector") + " roofs)",
                               ha->name, hb->name, true, ha->peak.value, hb->peak.value, ha->stats,
                               hb->stats));
  }
}

/// A roof compared under two names (a default or highest-per-unit pair) is not "only in" its
/// document: only_a/only_b keep the roofs no row compares.
void drop_paired(RoofSetDiff& d) {
  std::set<std::string> in_a, in_b;
  for (const auto& c : d.changes) {
    const std::string kind = c.compute ? "compute " : "memory ";
    in_a.insert(kind + c.roof_a);
    in_b.insert(kind + c.roof_b);
  }
  auto drop = [](std::vector<std::string>& only, const std::set<std::string>& paired) {
    only.erase(std::remove_if(only.begin(), only.end(),
                              [&](const std::string& r) { return paired.count(r) > 0; }),
               only.end());
  };
  drop(d.only_a, in_a);
  drop(d.only_b, in_b);
}

/// Each compute row's work units (units_of): FLOP/s against OP/s (a fp32 default roof paired
/// with an int8 one) is no change of one rate (docs/model.md §11), so it is not judged against
/// the noise, as diff_points does not judge such points.
void mark_work_units(const RoofSet& a, const RoofSet& b, RoofSetDiff& d) {
  for (auto& c : d.changes) {
    if (!c.compute) continue;
    const ComputeRoof* ra = a.find_compute(c.roof_a);
    const ComputeRoof* rb = b.find_compute(c.roof_b);
    c.work_unit_a = ra ? a.units_of(*ra).work : a.units.work;
    c.work_unit_b = rb ? b.units_of(*rb).work : b.units.work;
    c.work_units_differ = c.work_unit_a != c.work_unit_b;
    if (c.work_units_differ) c.exceeds_spread.reset();
  }
}

}  // namespace

std::optional<std::pair<const ComputeRoof*, const ComputeRoof*>> paired_default_compute(
    const RoofSet& a, const RoofSet& b) {
  if (a.compute.empty() || b.compute.empty()) return std::nullopt;
  const ComputeRoof& ca = a.select_compute("");
  if (b.find_compute(ca.name)) return std::nullopt;
  return std::make_pair(&ca, &b.select_compute(""));
}

std::optional<std::pair<const MemoryRoof*, const MemoryRoof*>> paired_default_memory(
    const RoofSet& a, const RoofSet& b) {
  const MemoryRoof* ma = a.default_memory_roof();
  const MemoryRoof* mb = b.default_memory_roof();
  if (!ma || !mb || b.find_memory(ma->level)) return std::nullopt;
  return std::make_pair(ma, mb);
}

RoofSetDiff diff_roofs(const RoofSet& a, const RoofSet& b) {
  require_same_units(a, b);
  RoofSetDiff d;
  for (const auto& ca : a.compute) {
    const ComputeRoof* cb = b.find_compute(ca.name);
    if (!cb) {
      d.only_a.push_back("compute " + ca.name);
      continue;
    }
    d.changes.push_back(change(ca.name, ca.name, cb->name, true, ca.peak.value, cb->peak.value,
                               ca.stats, cb->stats));
  }
  for (const auto& cb : b.compute)
    if (!a.find_compute(cb.name)) d.only_b.push_back("compute " + cb.name);
  for (const auto& ma : a.memory) {
    const MemoryRoof* mb = b.find_memory(ma.level);
    if (!mb) {
      d.only_a.push_back("memory " + ma.level);
      continue;
    }
    d.changes.push_back(change(ma.level, ma.level, mb->level, false, ma.bandwidth.value,
                               mb->bandwidth.value, ma.stats, mb->stats));
  }
  for (const auto& mb : b.memory)
    if (!a.find_memory(mb.level)) d.only_b.push_back("memory " + mb.level);
  // The default roofs under different names (HBM3 against HBM3e, "fp32" against "fp32 avx2
  // fma"): the two documents' main roofs are still compared, under both names.
  if (const auto p = paired_default_compute(a, b)) {
    const ComputeRoof& ca = *p->first;
    const ComputeRoof& cb = *p->second;
    // Of different precisions (a measured fp64 default against a catalogue's fp32), the ratio
    // is no change of one machine's speed: said in the row, as hw compare warns of it.
    const bool mixed = !iequals(ca.precision, cb.precision);
    d.changes.push_back(change(
        ca.name + " → " + cb.name + " (default compute roofs" +
            (mixed ? ", of different precisions: " + ca.precision + " against " + cb.precision
                   : std::string()) +
            ")",
        ca.name, cb.name, true, ca.peak.value, cb.peak.value, ca.stats, cb.stats));
  }
  compare_by_unit(a, b, d);
  if (const auto p = paired_default_memory(a, b)) {
    const MemoryRoof& ma = *p->first;
    const MemoryRoof& mb = *p->second;
    d.changes.push_back(change(ma.level + " → " + mb.level + " (default memory roofs)", ma.level,
                               mb.level, false, ma.bandwidth.value, mb.bandwidth.value, ma.stats,
                               mb.stats));
  }
  drop_paired(d);
  mark_work_units(a, b, d);
  // Ridge I* = π / β (docs/model.md): where the slanted roof meets the flat one.
  auto ridge_of = [](const RoofSet& s, std::string& roofs, UnitSystem& units) {
    const ComputeRoof& c = s.select_compute("");
    const MemoryRoof& m = s.select_memory("");
    roofs = c.name + " / " + m.level;
    units = s.units_of(c);
    return ridge(c, m).value;
  };
  if (!a.compute.empty() && a.default_memory_roof() && !b.compute.empty() &&
      b.default_memory_roof()) {
    d.ridge_a = ridge_of(a, d.ridge_roofs_a, d.ridge_units_a);
    d.ridge_b = ridge_of(b, d.ridge_roofs_b, d.ridge_units_b);
    d.ridge_ratio = d.ridge_b / d.ridge_a;
    d.ridge_work_units_differ = d.ridge_units_a.work != d.ridge_units_b.work;
  }
  return d;
}

std::string noise_verdict(const std::optional<bool>& exceeds, const std::optional<double>& noise,
                          bool brief) {
  if (noise && *noise >= kBlindNoise)
    return brief ? "too noisy to judge (" + noise_percent(*noise) + ")"
                 : "too noisy to judge: the noise " + noise_percent(*noise) +
                       " is 100% or more, as check --baseline judges";
  if (!exceeds || !noise)
    return brief ? "no spread carried"
                 : "no spread carried: cannot say whether it exceeds the noise";
  const std::string band = brief ? "" : noise_band_text(*noise);
  return (*exceeds ? "exceeds the noise (" : "within the noise (") + noise_percent(*noise) +
         (band.empty() ? "" : ": " + band) + ")";
}

std::string work_units_not_compared(const std::string& unit_a, const std::string& unit_b) {
  return "not compared: work of different units (" + terminal_safe(unit_a) + " in A, " +
         terminal_safe(unit_b) + " in B)";
}

namespace {

/// Each name once in a document: points are paired by name, so a name given twice would pair
/// wrongly.
void refuse_repeated_names(const PointsDocument& d, const std::string& label) {
  std::set<std::string> names;
  for (const Point& p : d.points)
    if (!names.insert(p.name).second)
      throw InputError(label + ": two points are named '" + terminal_safe(p.name) +
                       "'; diff pairs points by name, so names must be unique");
}

std::optional<double> spread_at(const std::vector<std::optional<Spread>>& spreads, size_t i) {
  return i < spreads.size() && spreads[i] ? std::optional<double>(spreads[i]->value) : std::nullopt;
}

PointChange point_change(const Point& p, const UnitSystem& units_a, std::optional<double> s1,
                         const Point& q, const UnitSystem& units_b, std::optional<double> s2) {
  PointChange c;
  c.name = p.name;
  c.precision_a = p.precision;
  c.precision_b = q.precision;
  c.performance_a = p.performance();
  c.performance_b = q.performance();
  c.units_a = point_units(p, units_a);
  c.units_b = point_units(q, units_b);
  c.ratio = q.performance().value / p.performance().value;
  // I at a level both points have (the first of A's that B has too): an intensity at L2
  // against one at HBM is no change of the kernel.
  const LevelTraffic *at_a = nullptr, *at_b = nullptr;
  for (const auto& ta : p.traffic)
    for (const auto& tb : q.traffic)
      if (!at_a && iequals(ta.level, tb.level)) {
        at_a = &ta;
        at_b = &tb;
      }
  if (at_a) {
    c.intensity_ratio = (q.work / at_b->bytes).value / (p.work / at_a->bytes).value;
    c.intensity_level = at_a->level;
  }
  c.spread_a = s1;
  c.spread_b = s2;
  // The same rule as `check --baseline` and the roofs: the larger spread carried, no less than
  // the run-to-run agreement the tool aims at (kRunToRunCompute).
  c.exceeds_spread = exceeds_spread(c.ratio, s1, s2, kRunToRunCompute);
  c.noise = spread_noise(s1, s2, kRunToRunCompute);
  c.precision_changed = precision_changed(p, q);
  // FLOP/s against OP/s is no change of one rate (docs/model.md §11): not judged either way.
  c.work_units_differ = c.units_a.work != c.units_b.work;
  if (c.work_units_differ) c.exceeds_spread.reset();
  return c;
}

}  // namespace

PointsDiff diff_points(const PointsDocument& a, const std::vector<std::optional<Spread>>& spreads_a,
                       const std::string& label_a, const PointsDocument& b,
                       const std::vector<std::optional<Spread>>& spreads_b,
                       const std::string& label_b) {
  refuse_other_units(label_b, b.units, label_a + " holds", a.units);
  refuse_repeated_names(a, label_a);
  refuse_repeated_names(b, label_b);
  std::map<std::string, size_t> in_b;
  for (size_t i = 0; i < b.points.size(); ++i) in_b.emplace(b.points[i].name, i);
  std::set<std::string> in_a;
  PointsDiff d;
  for (size_t i = 0; i < a.points.size(); ++i) {
    const Point& p = a.points[i];
    in_a.insert(p.name);
    const auto it = in_b.find(p.name);
    if (it == in_b.end()) {
      d.only_a.push_back(p.name);
      continue;
    }
    d.changes.push_back(point_change(p, a.units, spread_at(spreads_a, i), b.points[it->second],
                                     b.units, spread_at(spreads_b, it->second)));
  }
  for (const auto& q : b.points)
    if (!in_a.count(q.name)) d.only_b.push_back(q.name);
  // The runs that are no point (copy: W = 0): listed, not compared, rather than dropped unsaid.
  d.not_compared_a = a.not_points;
  d.not_compared_b = b.not_points;
  return d;
}

}  // namespace roofline
