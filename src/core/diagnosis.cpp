#include "roofline/diagnosis.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::far_below:
      return "far-below";
    case Verdict::just_below:
      return "just-below";
    case Verdict::memory_bound:
      return "memory-bound";
    case Verdict::compute_bound:
      return "compute-bound";
    case Verdict::faster_unit_unused:
      return "faster-unit-unused";
    case Verdict::above_roof:
      return "above-roof";
  }
  return "far-below";
}

namespace {

/// Below this attainment a point not touching its roof is far below it (the default touching
/// threshold, docs/model.md §6); from it up to a higher --touching, just below.
constexpr double kNearRoof = DiagnosisOptions{}.touching;

/// Each level judged against its own roof; the binding level is the lowest bound (docs/model.md
/// §7). Returns the binding level's index. Bounds that tie (two levels compute-side, both at π)
/// go to the machine's default memory level, else to the level listed first in its roofs: the
/// order the point gives its traffic in does not decide (a dict's order changed the level and
/// so the I a point was drawn at).
size_t judge_levels(const Point& p, const RoofSet& roofs, const ComputeRoof& c, Diagnosis& d) {
  size_t binding = 0;
  const MemoryRoof* const default_memory = roofs.default_memory_roof();  // null: links only
  std::vector<const MemoryRoof*> judged;
  const auto before = [&](size_t a, size_t b) {  // a ranks before b on a tie
    if ((judged[a] == default_memory) != (judged[b] == default_memory))
      return judged[a] == default_memory;
    return judged[a] < judged[b];  // roofs.memory is one vector: its order
  };
  for (size_t idx = 0; idx < p.traffic.size(); ++idx) {
    const auto& t = p.traffic[idx];
    const MemoryRoof& m = roofs.select_memory(t.level);
    judged.push_back(&m);
    LevelJudgement j;
    j.level = m.level;
    j.traffic = t.bytes;
    j.intensity = p.work / t.bytes;
    j.attainable = attainable(c.peak, m.bandwidth, j.intensity);
    j.attainment = d.performance / j.attainable;
    j.ridge = ridge(c.peak, m.bandwidth);
    j.memory_side = j.intensity < j.ridge;
    d.levels.push_back(j);
    if (j.attainable < d.levels[binding].attainable ||
        (j.attainable == d.levels[binding].attainable && before(idx, binding)))
      binding = idx;
  }
  return binding;
}

/// The dense compute roofs at least `higher_roof_factor` above the judged one, highest first,
/// of those that count the same work (units_of): floating-point work is never sent to an integer
/// roof (A100's int8 tensor 624 TOP/s is no faster unit for FLOP judged on fp16 tensor), nor
/// integer work to a floating-point one: their peaks count different operations.
///
/// The gain is what the other roof would allow at the point's own intensities over what this
/// one allows: min over levels of min(π', β·I) ÷ the attainable (docs/model.md §6). A faster
/// unit cannot lift a point its memory roof holds: at A100's I = 12 the HBM roof caps every unit
/// at 24.5 TFLOP/s, 1.25× fp32's 19.5 — "int4 tensor (64x)" was the peaks' ratio. A smaller type
/// that also raises I could gain more; that is a change of Q the point does not show.
void find_empty_roofs_above(const RoofSet& roofs, const ComputeRoof& c, const DiagnosisOptions& opt,
                            bool vector_only, Diagnosis& d) {
  const std::string work = roofs.units_of(c).work;
  for (const auto& other : roofs.compute) {
    if (other.sparse || &other == &c || roofs.units_of(other).work != work) continue;
    // Work on no matrix engine (Point::vector_only) cannot move to one: a matrix unit is no
    // faster unit for it (an fp16 axpy was told to move to the tensor cores).
    if (vector_only && is_matrix_unit(other)) continue;
    if (!(other.peak.value >= opt.higher_roof_factor * c.peak.value)) continue;
    WorkRate there = other.peak;
    for (const auto& l : d.levels)
      there = std::min(there,
                       attainable(other.peak, roofs.select_memory(l.level).bandwidth, l.intensity));
    const double gain = there / d.attainable;
    if (gain >= opt.higher_roof_factor)
      d.empty_roofs_above.push_back({other.name, other.peak, gain});
  }
  std::sort(d.empty_roofs_above.begin(), d.empty_roofs_above.end(),
            [](const EmptyRoof& x, const EmptyRoof& y) { return x.peak > y.peak; });
}

/// Every number of the diagnosis is finite, or the point is refused: validated inputs can
/// still be far enough apart (P = 1e-300 FLOP/s under a 1e15 roof) that a ratio overflows,
/// and an "inf%" or "nanx" must never be printed or drawn.
void check_finite(const Point& p, const RoofSet& roofs, const Diagnosis& d) {
  auto finite = [&](const char* what, double v) {
    if (!std::isfinite(v) || v < 0)
      throw InputError("point '" + p.name + "' on '" + roofs.name + "': " + what + " is " +
                       (std::isnan(v) ? "not a number" : "beyond a double's range") +
                       " (P = " + format_number(d.performance.value) +
                       ", attainable = " + format_number(d.attainable.value) +
                       "); the point and the roofs are too far apart to compare");
  };
  for (const auto& j : d.levels) {
    finite("the intensity I = W/Q", j.intensity.value);
    finite("the attainable performance", j.attainable.value);
    finite("the attainment P/attainable", j.attainment);
    finite("the ridge I* = π/β", j.ridge.value);
  }
  finite("the headroom attainable/P", d.headroom.factor);
  if (!std::isfinite(d.headroom.decades)) finite("the headroom in decades", d.headroom.decades);
  for (const auto& e : d.empty_roofs_above) finite("the gain of a higher roof", e.gain);
}

/// Row 6: above a roof is impossible — the flat roof (counting or unit) or the slanted one
/// (traffic counted at the wrong level or basis), and the timing in both cases.
void above_roof(const ComputeRoof& c, const LevelJudgement& b, const UnitSystem& u,
                const DiagnosisOptions& opt, Diagnosis& d) {
  d.verdict = Verdict::above_roof;
  // The factor is P over the roof that sets the attainable rate at I (the binding one); a point
  // left of the ridge may be above the flat roof too, by less, which is named beside it.
  const bool above_flat = d.performance.value > opt.above * c.peak.value;
  const std::string flat = "flat '" + c.name + "' roof";
  d.title =
      "above the " + (b.memory_side ? "slanted " + b.level + " roof" : flat) + " by " +
      format_number_apart(d.attainment, opt.above) + "x" +
      (b.memory_side && above_flat ? " (and the " + flat + " by " +
                                         format_number(d.performance.value / c.peak.value, 3) + "x)"
                                   : std::string()) +
      ": impossible, the measurement or the roof is wrong";
  d.prescription =
      "Check how W, Q and T were obtained and which roof the point is drawn "
      "against before reading anything else from the chart.";
  if (above_flat) {
    d.causes.push_back("FLOP counting basis: W counts an FMA as 2 " + u.work +
                       " while the roof counts it as 1 (or the reverse)");
    d.causes.push_back("model vs hardware " + u.work +
                       ": W counted from the algorithm differs from what executed");
    d.causes.push_back(
        "precision or unit mismatch: the run used a faster unit (e.g. an fp16 "
        "or tensor unit) than the '" +
        c.name + "' roof it is drawn against");
  }
  if (b.memory_side) {
    d.causes.push_back("data reused from a cache drawn against the " + b.level +
                       " roof: the real " + b.level +
                       " traffic was smaller than Q, so I is "
                       "underestimated (count Q at the level it came from)");
    d.causes.push_back(
        "traffic counting basis: Q counts bytes the code names while the roof "
        "was measured in bytes moved (or the reverse)");
  }
  d.causes.push_back(
      "time T too short: asynchronous work not waited for, or a timer "
      "resolution problem");
}

/// Row 1 when the point is not touching. "Far below" is below the default threshold, 80%
/// (docs/model.md §6: within 20%, about 0.1 decade, the eye reads a point as on its roof); a
/// higher --touching leaves points from 80% up short of touching, which are just below the roof
/// that binds them, not far below both (an 85% point read "far below both roofs"): their own
/// verdict, just_below, set here with the title so that the two never disagree (its JSON, chart
/// colour and Step 2 said "far-below" beside a title that said "just below").
void below_row(const ComputeRoof& c, const LevelJudgement& b, const DiagnosisOptions& opt,
               Diagnosis& d) {
  d.verdict = d.attainment < kNearRoof ? Verdict::far_below : Verdict::just_below;
  // Digits enough to read apart from the thresholds (79.99999%, not 80%).
  const std::string figures = d.attainment_percent + "% of attainable, " +
                              format_number(d.headroom.factor, 3) + "x headroom";
  if (d.verdict == Verdict::far_below) {
    d.title = "far below both roofs (" + figures + "): not a hardware limit yet";
    d.prescription =
        "Check the way it runs: memory access pattern, lack of parallelism (threads, vector "
        "lanes), kernel launch or synchronisation overhead, stalls feeding data. Its left/right "
        "position says nothing yet.";
    return;
  }
  const std::string roof =
      b.memory_side ? "slanted " + b.level + " roof" : "flat '" + c.name + "' roof";
  d.title = "just below the " + roof + " (" + figures + "; within " +
            format_number(100 * (1 - kNearRoof)) + "%, short of the touching threshold " +
            attainment_percent(opt.touching, opt) + "%): not yet read as a hardware limit";
  d.prescription = "Within " + format_number(100 * (1 - kNearRoof)) + "% of the " + roof +
                   ", which is the likely limit; what is left is in the way it runs: memory "
                   "access pattern, parallelism, launch or synchronisation overhead, stalls "
                   "feeding data.";
}

/// Rows 1 to 5: below, on the slanted roof, under an empty faster roof, on the flat roof;
/// and, when touching, which spec to upgrade.
void verdict_rows(const ComputeRoof& c, const LevelJudgement& b, const UnitSystem& u,
                  const DiagnosisOptions& opt, Diagnosis& d) {
  const std::string where =
      "I = " + format_intensity(b.intensity, u) + ", ridge I* = " + format_intensity(b.ridge, u);
  if (!d.touching) {
    // Row 1: below both roofs, far or just.
    below_row(c, b, opt, d);
  } else if (d.binding_is_memory) {
    // Row 2: on the slanted roof.
    d.verdict = Verdict::memory_bound;
    d.title = "on the slanted " + b.level + " roof (" + where + "): data movement (" + u.traffic +
              "s) is the bottleneck";
    d.prescription = "Reduce Q (" + u.traffic + "s moved per " + u.work +
                     ") to move right: fuse kernels, reuse data (tiling), use smaller data "
                     "types (quantisation), batch more work per " +
                     u.traffic + ".";
  } else if (!d.empty_roofs_above.empty()) {
    // Row 4: a higher flat roof is empty above it.
    d.verdict = Verdict::faster_unit_unused;
    const std::string names = join(d.empty_roofs_above, [](const auto& e) {
      return e.name + " (" + format_number(e.gain, 3) + "x)";
    });
    d.title = "on the flat '" + c.name +
              "' roof with a higher roof empty above it: a faster "
              "unit is unused";
    d.prescription = "Change precision or move to the faster unit: " + names + ".";
  } else {
    // Row 3: on the flat roof.
    d.verdict = Verdict::compute_bound;
    d.title = "on the flat '" + c.name + "' roof (" + where + "): compute is the bottleneck";
    d.prescription = "Reduce W (an algorithm with less " + u.work + ") or move to a faster unit.";
  }
  // At the ridge W/π = Q/β (docs/model.md §2): which side it reads is rounding (0.3/0.1 is
  // 2.9999999999999996), and lowering W or Q alone leaves the other's bound where it is.
  if (d.touching && std::fabs(b.intensity / b.ridge - 1) <= 1e-9)
    d.notes.push_back("At the ridge (I = I* = " + format_intensity(b.ridge, u) +
                      "): W/π = Q/β, both roofs bind; lowering W or Q alone leaves the other's "
                      "bound, so both must fall to go faster.");
  if (d.touching) {
    // Row 5: everything done and still short — the roof touched names the spec to upgrade.
    d.notes.push_back(std::string("If the software is done, the hardware is the limit: the roof "
                                  "it touches says which spec to upgrade (") +
                      (d.binding_is_memory ? b.level + " bandwidth" : "'" + c.name + "' peak") +
                      ").");
  }
}

/// Hierarchical points (docs/model.md §7): which level binds, and where there is cache headroom.
void hierarchy_notes(const RoofSet& roofs, const LevelJudgement& b, const DiagnosisOptions& opt,
                     Diagnosis& d) {
  if (d.levels.size() > 1) {
    const MemoryRoof& bm = roofs.select_memory(b.level);
    if (bm.kind == "cache" && d.touching && d.binding_is_memory) {
      d.notes.push_back("The " + b.level +
                        " roof binds: cache bandwidth is the limit; move "
                        "data closer (registers, L1 / shared memory).");
    }
    // Only a point on its memory roof is "on" it: far below, the roof is not what holds it.
    // Tiling cuts DRAM traffic only where the algorithm reads data more than once; a stream's
    // one use per byte is its bound already, which the note says instead of promising a gain.
    for (const auto& j : d.levels) {
      if (&j == &b || !d.touching || !d.binding_is_memory) continue;
      const MemoryRoof& jm = roofs.select_memory(j.level);
      if (jm.kind == "cache" && bm.kind != "cache" && j.attainment < opt.touching)
        d.notes.push_back("On the " + b.level + " roof with " + j.level + " headroom (" +
                          format_number(j.attainable / d.performance, 3) + "x): only less " +
                          b.level +
                          " traffic raises it — reuse from cache (tiling) where the "
                          "algorithm reads data more than once; a kernel that uses each byte "
                          "once (a stream) is at its bound.");
    }
  }
}

/// A point of stated work and no precision whose machine's default roof counts other work is
/// judged on the highest roof that counts its own (RoofSet::select_compute): said, since the
/// user named no roof ("2 TOP" on a machine whose default is fp32 vector).
void fallback_note(const Point& p, const RoofSet& roofs, const ComputeRoof& c,
                   const std::string& work_unit, Diagnosis& d) {
  if (!p.precision.empty() || work_unit.empty()) return;
  const ComputeRoof* def = roofs.find_compute(roofs.default_compute);
  if (!def || def == &c || roofs.counts(*def, work_unit)) return;
  const std::string which = work_unit == "OP" && c.precision == "int8"
                                ? "the int8 roof, as integer work of no stated type is judged"
                                : "the highest roof that counts " + work_unit;
  d.notes.push_back("Judged on '" + c.name + "', " + which + ": the default roof '" + def->name +
                    "' counts " + roofs.units_of(*def).work_rate() +
                    " (name a roof with --precision).");
}

/// A roof that accumulates narrower than fp32 (GeForce's fp16-accumulate tensor mode, twice its
/// fp32-accumulate rate) judges a point of fp32 accumulation, as frameworks run matrix products,
/// against a rate it cannot reach: said, since picking it was the catalogue's, not the user's.
void narrow_note(const ComputeRoof& c, const RoofSet& roofs, Diagnosis& d) {
  if (!accumulates_narrow(c)) return;
  d.notes.push_back("Judged on '" + c.name + "' of " + roofs.name +
                    ", which accumulates narrower than fp32: frameworks accumulate matrix "
                    "products in fp32, which GeForce tensor cores run at half that rate, so for "
                    "them the roof is about 2x high and the attainment reads low (name the "
                    "fp32-accumulate roof, or give --peak, where the catalogue lacks it).");
}

/// The roof a point is judged on: the one its precision picks (RoofSet::select_compute); for a
/// point whose work runs on no matrix engine (Point::vector_only) and whose precision is a data
/// type, not a roof's name nor "TYPE UNIT", the vector roof `roofline kernel` judges it on
/// (vector_roof_for), `note` saying where there is none.
const ComputeRoof& compute_roof_of(const Point& p, const RoofSet& roofs,
                                   const std::string& work_unit, std::string& note) {
  const ComputeRoof& c = roofs.select_compute(p.precision, work_unit);
  if (!p.vector_only || p.precision.empty() || p.precision.find(' ') != std::string::npos ||
      roofs.find_compute(p.precision))
    return c;
  return vector_roof_for(roofs, c, p.precision, "point '" + p.name + "'", note);
}

}  // namespace

// The diagnosis table (docs/model.md §6), row by row, with the unit names of the roof set so that a
// custom roofline (docs/model.md §12) reads in its own units.
void require_distinct_levels(const Point& p, const RoofSet& roofs, const std::string& who,
                             bool skip_missing) {
  std::map<const MemoryRoof*, std::string> given;  // roof → the level that named it first
  auto shown = [](const std::string& level) {
    return level.empty() ? std::string("no level (the default)") : "'" + level + "'";
  };
  for (const auto& t : p.traffic) {
    const MemoryRoof* found = nullptr;
    try {
      found = &roofs.select_memory(t.level);
    } catch (const InputError&) {
      if (skip_missing) continue;
      throw;
    }
    const MemoryRoof& m = *found;
    if (const auto [it, fresh] = given.emplace(&m, t.level); !fresh)
      throw InputError(who + "traffic at " + shown(it->second) + " and at " + shown(t.level) +
                       " is both at the '" + m.level + "' roof of machine '" + roofs.name +
                       "': one level cannot have two byte counts");
  }
}

UnitSystem judged_units(const RoofSet& roofs, const Diagnosis& d) {
  const ComputeRoof* c = roofs.find_compute(d.compute_roof);
  return c ? roofs.units_of(*c) : roofs.units;
}

std::string attainment_percent(double attainment, const DiagnosisOptions& opt) {
  // The thresholds a verdict's words change at: touching, above, and far below (kNearRoof).
  double nearest = opt.above;
  for (const double t : {opt.touching, kNearRoof})
    if (std::fabs(attainment - t) < std::fabs(attainment - nearest)) nearest = t;
  return format_number_apart(attainment * 100, nearest * 100);
}

Diagnosis diagnose(const Point& p, const RoofSet& roofs, const DiagnosisOptions& opt) {
  p.validate();
  require_distinct_levels(p, roofs, "point '" + p.name + "': ");
  // From 1% (`roofline point --touching`'s range): below, a point at 0.5% of its roof would
  // be called "on" it.
  if (!(opt.touching >= 0.01 && opt.touching <= 1))
    throw InputError("diagnosis: touching threshold must be from 0.01 to 1 (got " +
                     format_number(opt.touching) + ")");
  // Below 1 a point under its roof would be called impossible; a factor ≤ 1 would name the
  // judged roof (or a lower one) as the empty roof above.
  if (!(opt.above >= 1) || !std::isfinite(opt.above))
    throw InputError("diagnosis: the above-roof threshold must be a finite number >= 1 (got " +
                     format_number(opt.above) + ")");
  if (!(opt.higher_roof_factor > 1) || !std::isfinite(opt.higher_roof_factor))
    throw InputError("diagnosis: the higher-roof factor must be a finite number > 1 (got " +
                     format_number(opt.higher_roof_factor) + ")");
  // FLOP judged on an OP/s roof (or OP on a FLOP/s one) is refused, never read in the roof's
  // unit: the two count different operations (docs/model.md §1).
  const std::string work_unit = stated_work_unit(p);
  std::string vector_note;
  const ComputeRoof& c = compute_roof_of(p, roofs, work_unit, vector_note);
  if (const std::string why = roofs.work_mismatch(c, work_unit); !why.empty())
    throw InputError("point '" + p.name + "': W counts " + work_unit +
                     (p.work_unit.empty() ? " (its precision is " + p.precision + ")" : "") +
                     ", but " + why + "; judge it on a roof that counts " + work_unit);
  Diagnosis d;
  d.compute_roof = c.name;
  d.performance = p.performance();
  const size_t binding = judge_levels(p, roofs, c, d);
  const LevelJudgement& b = d.levels[binding];
  d.binding_level = b.level;
  d.binding_is_memory = b.memory_side;
  d.attainable = b.attainable;
  d.attainment = b.attainment;
  d.headroom = distance(d.performance, d.attainable);
  d.touching = d.attainment >= opt.touching;
  d.attainment_percent = attainment_percent(d.attainment, opt);
  for (auto& l : d.levels) l.attainment_percent = attainment_percent(l.attainment, opt);
  find_empty_roofs_above(roofs, c, opt, p.vector_only, d);
  check_finite(p, roofs, d);
  fallback_note(p, roofs, c, work_unit, d);
  if (!vector_note.empty()) {  // as the other notes read: a sentence
    vector_note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(vector_note[0])));
    d.notes.push_back(vector_note + " (name a roof as the point's precision).");
  }
  narrow_note(c, roofs, d);
  if (d.attainment > opt.above) {
    above_roof(c, b, roofs.units_of(c), opt, d);
    return d;
  }
  // In the roof's own units: OP/s for an integer roof (docs/model.md §1).
  verdict_rows(c, b, roofs.units_of(c), opt, d);
  hierarchy_notes(roofs, b, opt, d);
  return d;
}

Intensity binding_intensity(const Diagnosis& d) {
  for (const auto& l : d.levels)
    if (l.level == d.binding_level) return l.intensity;
  return d.levels.empty() ? Intensity{0} : d.levels.front().intensity;
}

namespace {
/// Points grouped by why something of theirs is not judged, in the order first met.
class Unjudged {
 public:
  void add(const std::string& why, const std::string& point) {
    auto it =
        std::find_if(groups_.begin(), groups_.end(), [&](const auto& g) { return g.first == why; });
    if (it == groups_.end()) it = groups_.insert(groups_.end(), {why, {}});
    it->second.push_back(point);
  }
  /// One line per reason (the precision no roof has), naming up to five of its points: a
  /// profile of thousands of int64 index kernels is one line, not thousands.
  void say(const std::string& what, std::vector<std::string>& lines) const {
    constexpr size_t kNamed = 5;
    for (const auto& [why, names] : groups_) {
      std::string who = names.size() == 1 ? "point" : "points";
      for (size_t i = 0; i < names.size() && i < kNamed; ++i)
        who += std::string(i ? ", '" : " '") + terminal_safe(names[i]) + "'";
      if (names.size() > kNamed) who += " and " + std::to_string(names.size() - kNamed) + " more";
      // "point 'a' judged at its other levels", "points 'a', 'b' judged at their ...".
      std::string said = what;
      if (names.size() > 1)
        if (const auto its = said.find("its "); its != std::string::npos)
          said.replace(its, 4, "their ");
      lines.push_back(who + " " + said + ": " + terminal_safe(why));
    }
  }

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> groups_;
};

/// The short reason a chart's line gives for a point without a roof for its precision (the
/// whole message, select_compute's, goes to the warning).
std::string precision_reason(const Point& p) {
  if (!p.precision.empty()) return "no roof for " + p.precision;
  const std::string unit = stated_work_unit(p);
  return unit.empty() ? "no dense compute roof" : "no dense roof counting " + unit;
}

/// Leaves out the point's traffic at levels `roofs` has no roof for, each noted in `levels`;
/// false when no level is left (then the point is in `left_out`).
bool drop_roofless_levels(Point& p, const RoofSet& roofs, Unjudged& levels,
                          std::vector<PointLeftOut>& left_out) {
  std::vector<LevelTraffic> kept;
  std::vector<std::string> why, missing;
  for (auto& t : p.traffic) {
    try {
      roofs.select_memory(t.level);
      kept.push_back(std::move(t));
    } catch (const InputError& e) {
      why.push_back(e.what());
      missing.push_back(t.level.empty() ? std::string("the default level") : t.level);
    }
  }
  if (kept.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    left_out.push_back(
        {p.name,
         std::string(missing.size() == 1 ? "no roof for level " : "no roof for levels ") + list,
         why.front()});
    return false;
  }
  for (const auto& w : why) levels.add(w, p.name);
  p.traffic = std::move(kept);
  return true;
}
}  // namespace

std::string none_judged(std::size_t count, const std::string& machine) {
  if (count == 1)
    return "its one point cannot be judged on machine '" + machine +
           "' (no roof for its precision or levels: see the warning)";
  return "none of its " + std::to_string(count) + " points can be judged on machine '" + machine +
         "' (no roof for their precision or levels: see the warnings)";
}

FittedPoints fit_to_roofs(std::vector<Point> points, const RoofSet& roofs) {
  FittedPoints out;
  Unjudged levels;
  for (Point& p : points) {
    try {
      roofs.select_compute(p.precision, stated_work_unit(p));
    } catch (const InputError& e) {
      out.left_out.push_back({p.name, precision_reason(p), e.what()});
      continue;
    }
    if (drop_roofless_levels(p, roofs, levels, out.left_out)) out.points.push_back(std::move(p));
  }
  // The warning is made from the list a chart says (ReportInput::not_drawn): one list, two
  // readers.
  Unjudged unjudged;
  for (const auto& l : out.left_out) unjudged.add(l.detail, l.name);
  unjudged.say("not judged", out.warnings);
  levels.say("judged at its other levels", out.warnings);
  return out;
}

}  // namespace roofline
