// The points of a counted run (counters.hpp counted_points): the whole program and its marked
// regions, from the counts, the clock and what the user declared.
#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"

namespace roofline::counters {
namespace {

std::string dominant_precision(const CounterTotals& t) {
  for (const auto& [prec, flops] : t.flops_by_precision)
    if (prec != "fp" && flops >= 0.9 * t.flops) return prec;
  return "";
}

/// "--work 1G", "--traffic 1e-300" or both: what the user declared, for a message.
std::string declared_flags(const PointInputs& in) {
  std::string s;
  if (in.work) s = "--work " + format_number(in.work->value);
  if (in.traffic)
    s += (s.empty() ? "" : ", ") + std::string("--traffic ") + format_number(in.traffic->value);
  return s;
}

/// A point the run could not make (W, Q or T missing, P or I no number): said by `note`, which
/// names it, and in a chart's line by `reason`.
void leave_out(CountedPoints& o, const std::string& name, const std::string& reason,
               const std::string& note) {
  o.left_out.push_back({name, reason, note});
  o.notes.push_back(note);
}

/// A point made: into the document, and judged where the roofs can judge it (judged_point).
void place(CountedPoints& o, const Point& p, const std::vector<LevelTraffic>& fitted,
           const RoofSet* roofs) {
  o.points.push_back(p);
  if (!roofs) {
    o.judged.push_back(p);
    return;
  }
  if (auto judged = judged_point(p, fitted, *roofs, o.notes, o.left_out))
    o.judged.push_back(std::move(*judged));
}

/// The short reason a chart gives for a region whose P = W/T or I = W/Q is no number.
std::string ratio_reason(const Point& p) {
  const RatioProblem r = ratio_problem(p);
  if (!r) return "W, Q or T no number";
  return std::string(r.is_p ? "P = W/T" : "I = W/Q") +
         (r.why.find("overflow") != std::string::npos ? " overflows" : " underflows");
}

/// "W", "Q" or "W and Q": what a point lacks.
std::string missing_quantities(bool has_work, bool has_traffic) {
  std::string what;
  if (!has_work) what += "W";
  if (!has_traffic) what += what.empty() ? "Q" : " and Q";
  return what;
}

}  // namespace

std::optional<Point> judged_point(const Point& p, std::vector<LevelTraffic> fitted,
                                  const RoofSet& roofs, std::vector<std::string>& notes,
                                  std::vector<PointLeftOut>& left_out) {
  const std::string who = "point '" + p.name + "' not judged: ";
  if (fitted.empty()) {
    // Every level measured is one the machine has no roof for (fit_levels noted each).
    std::string levels;
    for (const auto& t : p.traffic) levels += (levels.empty() ? "" : ", ") + t.level;
    const bool one = p.traffic.size() == 1;
    left_out.push_back({p.name,
                        std::string(one ? "no roof for level " : "no roof for levels ") + levels,
                        who + "machine '" + roofs.name + "' has no roof for " +
                            (one ? "the level of its traffic, " : "any level of its traffic, ") +
                            levels + "; kept in the document"});
    notes.push_back(left_out.back().detail);
    return std::nullopt;
  }
  Point judged = p;
  judged.traffic = std::move(fitted);
  // The one rule `point` and `plot` fit points by: a roof for its precision and each level.
  FittedPoints f = fit_to_roofs({judged}, roofs);
  if (!f.left_out.empty()) {
    PointLeftOut l = f.left_out.front();
    l.detail = who + l.detail + "; kept in the document";
    notes.push_back(l.detail);
    left_out.push_back(std::move(l));
    return std::nullopt;
  }
  return std::move(f.points.front());
}

CountedPoints counted_points(const RunResult& r, const std::vector<RegionResult>& regions,
                             const PointInputs& in, const RoofSet* roofs) {
  CountedPoints o;
  Point p;
  p.name = in.name;
  p.time = Seconds(r.wall_seconds);
  std::vector<std::string> from;
  if (in.work) {
    p.work = *in.work;
    p.work_unit = in.work_unit;
    from.push_back("W from --work");
  } else if (r.totals.flops_counted && r.totals.flops > 0) {
    p.work = Work(r.totals.flops);
    p.precision = dominant_precision(r.totals);
    from.push_back("W from FLOP counters");
  }
  std::vector<LevelTraffic> traffic;
  if (in.traffic) {
    traffic.push_back({in.level.empty() ? "DRAM" : in.level, *in.traffic});
    from.push_back("Q from --traffic");
  } else if (r.totals.bytes_by_level.count("DRAM") && r.totals.bytes_by_level.at("DRAM") > 0) {
    traffic.push_back({"DRAM", Bytes(r.totals.bytes_by_level.at("DRAM"))});
    from.push_back("Q from memory-controller counters");
  }
  // The cache levels the counters gave, beside DRAM's Q, or alone where no memory-controller
  // counter counted DRAM (a recording without uncore events): the point is then judged there.
  const bool dram_known = !traffic.empty();
  for (const char* lvl : {"L3", "L2"})
    if (r.totals.bytes_by_level.count(lvl) && r.totals.bytes_by_level.at(lvl) > 0)
      traffic.push_back({lvl, Bytes(r.totals.bytes_by_level.at(lvl))});
  if (!dram_known && !traffic.empty())
    from.push_back("Q from cache-fill counters (no DRAM count: no memory-controller counters)");
  if (!in.precision.empty()) p.precision = in.precision;
  // The counters' point, unless W and every level's Q came from the flags (T is the clock's).
  const bool counted =
      (!in.work && p.work.value > 0) || (!in.traffic && !traffic.empty()) || traffic.size() > 1;
  p.source = counted ? "perf_event" : "command line";
  const std::vector<LevelTraffic> fitted = fit_levels(traffic, roofs, o.notes, p.name);
  p.traffic = traffic;  // the levels measured, by their names
  p.note = from.empty() ? "" : from.front();
  for (std::size_t i = 1; i < from.size(); ++i) p.note += "; " + from[i];
  if (p.work.value > 0 && !p.traffic.empty() && p.time.value > 0) {
    try {
      p.validate();  // as `point` and `check` will read it back: P and I numbers, not inf or 0
    } catch (const InputError& e) {
      if (!in.work && !in.traffic) throw;
      throw InputError(declared_flags(in) + ": " + e.what());
    }
    place(o, p, fitted, roofs);
  } else {
    const std::string what = missing_quantities(p.work.value > 0, !p.traffic.empty());
    if (what.empty())  // W and Q known: the clock gave no time
      leave_out(o, p.name, "no time",
                "no point for the whole program: T = " + format_seconds(Seconds(p.time.value)) +
                    " is no time");
    else
      leave_out(o, p.name, what + " unknown",
                "no point for the whole program: " + what +
                    " unknown (counters missing or zero); give --work/--traffic, or mark "
                    "regions with roofline_region_add_flops/bytes");
  }
  for (const auto& reg : regions) {
    if (!(reg.flops > 0) || !(reg.bytes > 0) || !(reg.time > 0)) {
      const std::string missing = missing_quantities(reg.flops > 0, reg.bytes > 0);
      leave_out(o, reg.name, missing.empty() ? "no time" : missing + " not declared",
                "region '" + reg.name + "': " + std::to_string(reg.calls) +
                    (reg.calls == 1 ? " call" : " calls") +
                    ", T = " + format_seconds(Seconds(reg.time)) + "; no point (" +
                    (missing.empty() ? "T = 0 is no time: its clock measured none"
                                     : missing + " not declared: add_flops/add_bytes") +
                    ")");
      continue;
    }
    Point rp;
    rp.name = reg.name;
    rp.work = Work(reg.flops);
    rp.time = Seconds(reg.time);
    rp.traffic = {{"DRAM", Bytes(reg.bytes)}};
    rp.precision = in.precision;
    rp.source = "marker";
    rp.note = std::to_string(reg.calls) + " calls on " + std::to_string(reg.threads) +
              " thread(s); W and Q declared by the program";
    try {
      rp.validate();
    } catch (const InputError& e) {  // the program's declaration: a note, not the run's end
      leave_out(o, reg.name, ratio_reason(rp), std::string("no point for a region: ") + e.what());
      continue;
    }
    place(o, rp, fit_levels(rp.traffic, roofs, o.notes, reg.name), roofs);
  }
  return o;
}

}  // namespace roofline::counters
