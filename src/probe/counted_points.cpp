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

}  // namespace

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
  p.traffic = fitted.empty() ? fitted : traffic;  // the levels measured, when one is judged
  p.note = from.empty() ? "" : from.front();
  for (std::size_t i = 1; i < from.size(); ++i) p.note += "; " + from[i];
  if (p.work.value > 0 && !p.traffic.empty() && p.time.value > 0) {
    try {
      p.validate();  // as `point` and `check` will read it back: P and I numbers, not inf or 0
    } catch (const InputError& e) {
      if (!in.work && !in.traffic) throw;
      throw InputError(declared_flags(in) + ": " + e.what());
    }
    o.points.push_back(p);
    o.judged.push_back(p);
    o.judged.back().traffic = fitted;
  } else {
    std::string what;
    if (!(p.work.value > 0)) what += "W";
    if (p.traffic.empty()) what += what.empty() ? "Q" : " and Q";
    if (what.empty())  // W and Q known: the clock gave no time
      o.notes.push_back("no point for the whole program: T = " +
                        format_seconds(Seconds(p.time.value)) + " is no time");
    else
      o.notes.push_back("no point for the whole program: " + what +
                        " unknown (counters missing or zero); give --work/--traffic, or mark "
                        "regions with roofline_region_add_flops/bytes");
  }
  for (const auto& reg : regions) {
    if (!(reg.flops > 0) || !(reg.bytes > 0) || !(reg.time > 0)) {
      std::string missing;
      if (!(reg.flops > 0)) missing += "W";
      if (!(reg.bytes > 0)) missing += missing.empty() ? "Q" : " and Q";
      o.notes.push_back("region '" + reg.name + "': " + std::to_string(reg.calls) +
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
    const std::vector<LevelTraffic> declared{{"DRAM", Bytes(reg.bytes)}};
    const std::vector<LevelTraffic> region_fitted = fit_levels(declared, roofs, o.notes, reg.name);
    rp.traffic = region_fitted.empty() ? region_fitted : declared;
    rp.precision = in.precision;
    rp.source = "marker";
    rp.note = std::to_string(reg.calls) + " calls on " + std::to_string(reg.threads) +
              " thread(s); W and Q declared by the program";
    try {
      rp.validate();
    } catch (const InputError& e) {  // the program's declaration: a note, not the run's end
      o.notes.push_back(std::string("no point for a region: ") + e.what());
      continue;
    }
    o.points.push_back(rp);
    o.judged.push_back(rp);
    o.judged.back().traffic = region_fitted;
  }
  return o;
}

}  // namespace roofline::counters
