#include "roofline/check_io.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/json_fields.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

using io::Where;
using nlohmann::json;

namespace {

/// A number in (0, 1], or in (0, 1) with `open_above` (a noise of 100% is too noisy to judge).
double fraction(const json& obj, const std::string& key, const Where& w, bool open_above = false) {
  const json& v = io::require(obj, key, w);
  const std::string range = open_above ? "(0, 1)" : "(0, 1]";
  if (!v.is_number())
    io::fail(w / key, "expected a number in " + range + " (got " + v.dump() + ")");
  const double x = v.get<double>();
  if (!std::isfinite(x) || x <= 0 || x > 1)
    io::fail(w / key, "expected a number in " + range + " (got " + v.dump() + ")");
  return x;
}

/// An integer ≥ 1 (threads, calls per repetition), when present.
void whole_at_least_one(const json& obj, const std::string& key, const Where& w) {
  const auto it = obj.find(key);
  if (it == obj.end()) return;
  if (!it->is_number_integer() || it->get<double>() < 1)
    io::fail(w / key, "expected a whole number ≥ 1 (got " + it->dump() + ")");
}

/// A stated spread of a run record is the one the run's `from` gives (its times, else its min,
/// median and max: RunRecord::spread, rate_spread_from_summary): one that differs is no spread
/// of this run.
void check_stated_spread(const json& run, const std::string& key, std::optional<double> given,
                         const std::string& from, const Where& w) {
  const auto stated = io::get_optional_quantity(run, key, Dimension::count, w, false);
  if (!stated || !given) return;
  if (std::abs(*stated - *given) <= 1e-6 * std::max(1e-12, *given)) return;
  io::fail(w / key, format_number(*stated) + " is not the spread of the run's " + from + " (" +
                        format_number(*given) + ")");
}

/// Every field of a run record that `roofline run` writes, where the record carries it, read as
/// that record's reader reads it: text as text, true/false as such, counts and bytes ≥ 0, the
/// times and their sustained, median, min and max > 0 seconds, the quartiles ≥ 0 (0 = unknown),
/// whole threads and calls ≥ 1, and the spreads those of the run's times. A record may be
/// partial (a spread needs only its times, or its min, median and max).
void check_run_record(const json& run, const Where& w) {
  for (const char* key : {"kernel", "level", "dtype", "variant", "work_formula", "traffic_formula",
                          "check", "precision", "note"})
    io::get_string(run, key, w, std::string());
  io::get_bool(run, "noisy", w, false);
  io::get_bool(run, "passed", w, true);
  io::get_optional_quantity(run, "work", Dimension::work, w, false);
  io::get_optional_quantity(run, "working_set", Dimension::bytes, w, false);
  for (const char* key : {"traffic_compulsory", "traffic_write_allocate"})
    io::get_optional_quantity(run, key, Dimension::bytes, w, false);
  if (run.contains("params")) {
    const json& params = run["params"];
    if (!params.is_object()) io::fail(w / "params", "expected an object of numbers");
    for (const auto& [name, _] : params.items())
      io::get_quantity(params, name, Dimension::count, w / "params", false);
  }
  if (run.contains("traffic")) {
    const json& t = run["traffic"];
    if (!t.is_array()) io::fail(w / "traffic", "expected an array of {level, bytes}");
    for (size_t i = 0; i < t.size(); ++i) {
      io::get_string(t[i], "level", (w / "traffic")[i]);
      io::get_quantity(t[i], "bytes", Dimension::bytes, (w / "traffic")[i], false);
    }
  }
  for (const char* key : {"sustained", "median", "min", "max"})
    io::get_optional_quantity(run, key, Dimension::seconds, w);
  for (const char* key : {"q1", "q3", "seconds_per_repetition"})
    io::get_optional_quantity(run, key, Dimension::seconds, w, false);
  whole_at_least_one(run, "calls_per_repetition", w);
  whole_at_least_one(run, "threads", w);
  std::optional<double> all;
  if (run.contains("min") && run.contains("median") && run.contains("max")) {
    const double mn = io::get_quantity(run, "min", Dimension::seconds, w);
    const double md = io::get_quantity(run, "median", Dimension::seconds, w);
    const double mx = io::get_quantity(run, "max", Dimension::seconds, w);
    all = rate_spread_from_summary(mn, md, mx);
    if (!all)
      io::fail(w, "expected min ≤ median ≤ max, all > 0, with a finite spread (got " +
                      format_number(mn) + ", " + format_number(md) + ", " + format_number(mx) +
                      " s)");
  }
  std::optional<double> spread = all;
  std::string from = "min, median and max";
  if (run.contains("times") && run["times"].is_array()) {
    std::vector<double> times;
    for (const json& t : run["times"])
      if (t.is_number() && t.get<double>() > 0 && std::isfinite(t.get<double>()))
        times.push_back(t.get<double>());
    if (times.size() != run["times"].size()) spread.reset();  // refused with the times
    if (const auto s = rate_spread_from_times(times); s && times.size() == run["times"].size()) {
      spread = s;
      from = "times";
    }
  }
  check_stated_spread(run, "spread", spread, from, w);
  check_stated_spread(run, "spread_all", all, "min, median and max", w);
}

/// A run document's top-level "run" section, where there is one: an object whose threads are
/// whole, `quick` true or false, and whose bandwidth-only runs are run records (check_run_record).
void check_run_section(const json& doc, const Where& top) {
  if (!doc.is_object() || !doc.contains("run")) return;
  const json& run = doc["run"];
  const Where w = top / "run";
  if (!run.is_object())
    io::fail(w, "expected an object, how `roofline run` made the runs (got " +
                    std::string(run.dump().substr(0, 60)) + ")");
  whole_at_least_one(run, "threads", w);
  io::get_bool(run, "quick", w, false);
  io::get_optional_quantity(run, "mem_available", Dimension::bytes, w, false);
  if (run.contains("blas") && !run["blas"].is_object())
    io::fail(w / "blas", "expected an object (corename, config, ...)");
  if (run.contains("caches") && !run["caches"].is_array())
    io::fail(w / "caches", "expected an array of {level, size, ...}");
  if (!run.contains("bandwidth_only")) return;
  const json& bw = run["bandwidth_only"];
  if (!bw.is_array()) io::fail(w / "bandwidth_only", "expected an array of run records");
  for (size_t i = 0; i < bw.size(); ++i) {
    if (!bw[i].is_object()) io::fail((w / "bandwidth_only")[i], "expected a run record");
    check_run_record(bw[i], (w / "bandwidth_only")[i]);
  }
}

}  // namespace

CheckConfig check_config_from_json(const json& j, const std::string& origin) {
  const Where top{origin, ""};
  io::check_schema(j, kCheckSchema, kCheckVersion, top);
  for (const auto& [key, _] : j.items())
    if (key != "schema" && key != "version" && key != "min_attainment" && key != "noise" &&
        key != "points")
      io::fail(top / key, "unknown field (expected min_attainment, noise, points)");
  CheckConfig c;
  c.origin = origin;
  if (j.contains("min_attainment")) {
    c.min_attainment = fraction(j, "min_attainment", top);
    c.min_attainment_from = "the config's global minimum";
  }
  if (j.contains("noise")) {
    c.noise = fraction(j, "noise", top, true);
    if (*c.noise >= kBlindNoise)
      io::fail(top / "noise", "expected a number in (0, 1) (got " + j["noise"].dump() +
                                  "): a noise of 100% or more is too noisy to judge");
    c.noise_from = "the config's noise";
  }
  if (j.contains("points")) {
    const json& pts = j["points"];
    if (!pts.is_array()) io::fail(top / "points", "expected an array of {name, min_attainment}");
    for (size_t i = 0; i < pts.size(); ++i) {
      const Where w = (top / "points")[i];
      if (!pts[i].is_object()) io::fail(w, "expected {name, min_attainment}");
      for (const auto& [key, _] : pts[i].items())
        if (key != "name" && key != "min_attainment")
          io::fail(w / key, "unknown field (expected name, min_attainment)");
      AttainmentRule r;
      r.pattern = io::get_string(pts[i], "name", w);
      if (r.pattern.empty()) io::fail(w / "name", "empty name or pattern");
      r.min_attainment = fraction(pts[i], "min_attainment", w);
      c.rules.push_back(std::move(r));
    }
  }
  return c;
}

CheckConfig load_check_config(const std::filesystem::path& path) {
  const std::string origin = path.string();
  return check_config_from_json(parse_json(read_text_file(path), origin), origin);
}

std::vector<std::optional<Spread>> point_spreads(const json& doc, const std::string& origin) {
  std::vector<std::optional<Spread>> out;
  const Where top{origin, ""};
  if (!doc.is_object() || !doc.contains("points") || !doc["points"].is_array()) return out;
  check_run_section(doc, top);
  const json& pts = doc["points"];
  for (size_t i = 0; i < pts.size(); ++i) {
    const Where w = (top / "points")[i] / "run";
    if (!pts[i].is_object() || !pts[i].contains("run")) {
      out.emplace_back();
      continue;
    }
    const json& run = pts[i]["run"];
    if (!run.is_object()) io::fail(w, "expected an object");
    // The fields `roofline run` writes: "tiems" beside "median" would leave the gate the
    // min/median/max spread, or none, and a regression read as noise.
    io::refuse_misspelt_fields(
        run, w, run_record_fields(),
        "a misspelt field is not read: the gate would judge the run's noise without it");
    check_run_record(run, w);
    if (run.contains("times")) {
      const json& t = run["times"];
      if (!t.is_array()) io::fail(w / "times", "expected an array of seconds");
      std::vector<double> times;
      for (size_t k = 0; k < t.size(); ++k) {
        if (!t[k].is_number() || !(t[k].get<double>() > 0) || !std::isfinite(t[k].get<double>()))
          io::fail((w / "times")[k], "expected seconds > 0 (got " + t[k].dump() + ")");
        times.push_back(t[k].get<double>());
      }
      // One repetition (or none) carries no spread, whatever min/median/max say.
      const auto s = rate_spread_from_times(times);
      // Two or more valid times whose spread is no number (1e-320 s beside 1e308 s) would
      // make any change look like noise: refused, not taken as "no spread".
      if (!s && times.size() >= 2)
        io::fail(w / "times",
                 "the spread of the rates 1/t is not a finite number (times from " +
                     format_number(*std::min_element(times.begin(), times.end())) + " to " +
                     format_number(*std::max_element(times.begin(), times.end())) + " s)");
      if (s)
        out.push_back(Spread{
            *s,
            std::to_string(times.size()) + " repetitions" +
                (times.size() >= static_cast<size_t>(kRobustSpreadTimes) ? ", quartiles" : "")});
      else
        out.emplace_back();
      continue;
    }
    if (run.contains("min") && run.contains("median") && run.contains("max")) {
      const double mn = io::get_quantity(run, "min", Dimension::seconds, w);
      const double md = io::get_quantity(run, "median", Dimension::seconds, w);
      const double mx = io::get_quantity(run, "max", Dimension::seconds, w);
      const auto s = rate_spread_from_summary(mn, md, mx);
      if (!s)
        io::fail(w, "expected min ≤ median ≤ max, all > 0, with a finite spread (got " +
                        format_number(mn) + ", " + format_number(md) + ", " + format_number(mx) +
                        " s)");
      out.push_back(Spread{*s, "min/median/max of the run"});
      continue;
    }
    out.emplace_back();
  }
  return out;
}

namespace {
json optional_number(const std::optional<double>& x) {
  return x ? json(*x) : json(nullptr);
}
}  // namespace

json machines_diff_to_json(const RoofSetDiff& d, const MachineDocument& a,
                           const MachineDocument& b) {
  json roofs = json::array();
  for (const auto& c : d.changes) {
    json row = {{"name", c.name},
                {"roof_a", c.roof_a},
                {"roof_b", c.roof_b},
                {"kind", c.compute ? "compute" : "memory"},
                {"a", c.a},
                {"b", c.b},
                {"ratio", c.ratio},
                {"spread_a", optional_number(c.spread_a)},
                {"spread_b", optional_number(c.spread_b)},
                {"noise", optional_number(c.noise)},
                {"exceeds_spread", c.exceeds_spread ? json(*c.exceeds_spread) : json(nullptr)},
                {"too_noisy", c.noise && *c.noise >= kBlindNoise},
                {"comparable", !c.work_units_differ}};
    // A compute roof's rate in its own unit (OP/s on an integer roof), as the points' are.
    if (c.compute) {
      row["unit_a"] = c.work_unit_a + "/s";
      row["unit_b"] = c.work_unit_b + "/s";
    }
    roofs.push_back(row);
  }
  json j = {{"schema", "roofline.diff"},
            {"version", 1},
            {"kind", "machines"},
            {"a", {{"name", a.roofs.name}, {"origin", a.origin}}},
            {"b", {{"name", b.roofs.name}, {"origin", b.origin}}},
            {"roofs", roofs},
            {"only_a", d.only_a},
            {"only_b", d.only_b}};
  if (d.ridge_a > 0)
    j["ridge"] = {{"a", d.ridge_a},
                  {"b", d.ridge_b},
                  {"ratio", d.ridge_ratio},
                  {"roofs_a", d.ridge_roofs_a},
                  {"roofs_b", d.ridge_roofs_b},
                  {"unit_a", d.ridge_units_a.intensity()},
                  {"unit_b", d.ridge_units_b.intensity()},
                  {"comparable", !d.ridge_work_units_differ}};
  return j;
}

json points_diff_to_json(const PointsDiff& d, const std::string& label_a,
                         const std::string& label_b) {
  json rows = json::array();
  for (const PointChange& c : d.changes)
    rows.push_back(
        {{"name", c.name},
         {"precision_a", c.precision_a.empty() ? json() : json(c.precision_a)},
         {"precision_b", c.precision_b.empty() ? json() : json(c.precision_b)},
         {"performance_a", c.performance_a.value},
         {"performance_b", c.performance_b.value},
         {"performance_unit_a", c.units_a.work_rate()},
         {"performance_unit_b", c.units_b.work_rate()},
         {"ratio", c.ratio},
         {"intensity_ratio", optional_number(c.intensity_ratio)},
         {"intensity_level",
          c.intensity_ratio && !c.intensity_level.empty() ? json(c.intensity_level) : json()},
         {"spread_a", optional_number(c.spread_a)},
         {"spread_b", optional_number(c.spread_b)},
         {"noise", optional_number(c.noise)},
         {"exceeds_spread", c.exceeds_spread ? json(*c.exceeds_spread) : json(nullptr)},
         {"too_noisy", c.noise && *c.noise >= kBlindNoise},
         {"comparable", !c.work_units_differ}});
  // The runs that are no point (copy: W = 0), as plot, point and check list them.
  auto runs = [](const std::vector<PointLeftOut>& left) {
    json out = json::array();
    for (const auto& n : left) out.push_back(left_out_to_json(n));
    return out;
  };
  return {{"schema", "roofline.diff"},
          {"version", 1},
          {"kind", "points"},
          {"a", label_a},
          {"b", label_b},
          {"points", rows},
          {"only_a", d.only_a},
          {"only_b", d.only_b},
          {"not_compared_a", runs(d.not_compared_a)},
          {"not_compared_b", runs(d.not_compared_b)}};
}

namespace {

std::map<std::string, size_t> index_by_name(const PointsDocument& d, const std::string& flag) {
  std::map<std::string, size_t> m;
  for (size_t i = 0; i < d.points.size(); ++i)
    if (!m.emplace(d.points[i].name, i).second)
      throw InputError(flag + d.origin + ": two points are named '" + d.points[i].name +
                       "'; a baseline pairs points by name, so names must be unique");
  return m;
}

}  // namespace

CheckedPoints load_checked_points(const std::string& path) {
  CheckedPoints l;
  JsonKeyOrder order = points_traffic_order();
  const nlohmann::json raw = parse_json(read_text_file(path, kMaxPointsBytes), path, &order);
  l.doc = points_from_json(raw, path, &order);
  l.spreads = point_spreads(raw, path);
  l.spreads.resize(l.doc.points.size());
  l.path = path;
  return l;
}

void check_gate_request(const CheckConfig& cfg, bool machine, bool baseline) {
  const bool thresholds = cfg.min_attainment.has_value() || !cfg.rules.empty();
  if (!thresholds && !baseline)
    throw InputError(
        "nothing to check: give --min-attainment X, --config FILE with thresholds, or "
        "--baseline FILE");
  if (thresholds && !machine)
    throw InputError(
        "a minimum attainment needs roofs: give --machine FILE|NAME (or --peak and "
        "--bandwidth)");
}

namespace {

/// The gate's inputs, resolved once: the points, the machine and the baseline (either may be
/// absent), the baseline's points by name, and the noise assumed when no run carries a spread.
struct CheckRun {
  const CheckRequest& r;
  const CheckedPoints& now;
  std::string now_name;
  const MachineDocument* m;
  const CheckedPoints* base;
  std::map<std::string, size_t> base_index;
  double assumed;
  std::string assumed_from;
};

/// What one point's judgements say: failures and passes (one phrase each), and whether anything
/// judged it at all.
struct CheckVerdicts {
  std::vector<std::string> fails, passes;
  bool judged = false;
  /// A check not made, and why, for the report's notes as well as the point's line (a pair of
  /// work of different units: no regression check).
  std::vector<std::string> not_made;
};

/// Resolves the request: the points' units must be the machine's and the baseline's, and with a
/// baseline the names must be unique in both documents.
CheckRun check_run_context(const CheckRequest& r, double assumed) {
  const CheckedPoints& now = r.points;
  const std::string now_name = now.path.empty() ? std::string("the points") : now.path;
  const MachineDocument* m = r.machine ? &*r.machine : nullptr;
  if (m && !(now.doc.units == m->roofs.units))
    throw InputError(now_name + ": points are in " + now.doc.units.work + "/" +
                     now.doc.units.traffic + " but the machine's roofs are in " +
                     m->roofs.units.work + "/" + m->roofs.units.traffic);
  const CheckedPoints* base = r.baseline ? &*r.baseline : nullptr;
  std::map<std::string, size_t> base_index;
  if (base) {
    const std::string base_name = base->path.empty() ? std::string("the baseline") : base->path;
    // The run against itself: every ratio 1, the regression check would pass whatever it held.
    if (!base->path.empty() && !now.path.empty() && same_file(base->path, now.path))
      throw InputError("--baseline " + terminal_safe(base_name) + " is the points document " +
                       terminal_safe(now_name) +
                       " itself (one file): a run compared with itself cannot regress; give an "
                       "earlier run's document");
    if (!(base->doc.units == now.doc.units))
      throw InputError("--baseline " + base_name + ": points are in " + base->doc.units.work + "/" +
                       base->doc.units.traffic + " but " + now_name + " holds " +
                       now.doc.units.work + "/" + now.doc.units.traffic);
    // A file is named with its flag; a list given in memory (Python) names itself.
    base_index = index_by_name(base->doc, base->path.empty() ? "" : "--baseline ");
    index_by_name(now.doc, "");
  }
  return CheckRun{r,        now,
                  now_name, m,
                  base,     std::move(base_index),
                  assumed,  r.config.noise ? r.config.noise_from : ""};
}

/// What an attainment is made of, so a CI log can recompute it: P, the attainable P and the
/// roof that sets it (attainable = min(π, I·β) over the levels, docs/model.md) — "P 5 GFLOP/s of
/// attainable 10 GFLOP/s (L3: I 0.05 FLOP/byte × 200 GB/s)", or "(fp32 vector, 51 TFLOP/s)".
std::string attainment_figures(const Diagnosis& d, const RoofSet& roofs) {
  const UnitSystem u = judged_units(roofs, d);
  std::string roof;
  if (d.binding_is_memory) {
    const MemoryRoof* m = roofs.find_memory(d.binding_level);
    roof = terminal_safe(d.binding_level) + ": I " + format_intensity(binding_intensity(d), u) +
           (m ? " × " + format_byte_rate(m->bandwidth, u) : std::string());
  } else {
    const ComputeRoof* c = roofs.find_compute(d.compute_roof);
    roof = terminal_safe(d.compute_roof) + (c ? ", " + format_work_rate(c->peak, u) : "");
  }
  return "P " + format_work_rate(d.performance, u) + " of attainable " +
         format_work_rate(d.attainable, u) + " (" + roof + ")";
}

/// The point's attainment of its roof against its minimum (if any); above the roof fails.
void check_point_attainment(const Point& given, const RoofSet& roofs, const CheckConfig& cfg,
                            json& pj, CheckVerdicts& v) {
  // Judged at the levels the machine has roofs for, as `point` judges it (fit_to_roofs); each
  // level left out is said in the point's lines and its JSON, so nothing passes unseen. A point
  // with no level or no roof for its precision is refused, naming why: its precision first (a
  // misspelt --precision had been reported as a level the machine lacks).
  roofs.select_compute(given.precision, stated_work_unit(given));
  const FittedPoints fitted = fit_to_roofs({given}, roofs);
  const Point& p = fitted.points.empty() ? given : fitted.points.front();
  json not_judged = json::array();
  for (const auto& t : given.traffic)
    if (std::none_of(p.traffic.begin(), p.traffic.end(),
                     [&](const LevelTraffic& k) { return k.level == t.level; }))
      not_judged.push_back(t.level);
  const Diagnosis d = diagnose(p, roofs);
  const auto t = threshold_for(cfg, p.name);
  const AttainmentJudgement aj =
      judge_attainment(d.attainment, t, d.verdict == Verdict::above_roof);
  pj["attainment"] = d.attainment;
  pj["attainable"] = d.attainable.value;
  pj["compute_roof"] = d.compute_roof;
  pj["binding_level"] = d.binding_level;
  pj["binding_is_memory"] = d.binding_is_memory;
  if (t) {
    pj["min_attainment"] = t->min_attainment;
    pj["threshold_from"] = t->from;
  }
  (aj.failed ? v.fails : v.passes).push_back(aj.why + ": " + attainment_figures(d, roofs));
  if (!not_judged.empty()) {
    pj["levels_not_judged"] = not_judged;
    for (const auto& level : not_judged)
      v.passes.push_back("traffic at " + terminal_safe(level.get<std::string>()) +
                         " not judged: machine '" + terminal_safe(roofs.name) +
                         "' has no roof for it");
  }
  v.judged = v.judged || t.has_value() || aj.failed;
}

/// The point's P = W/T against its baseline partner's, beyond the larger spread of the two runs
/// (or the assumed noise); a point without a partner passes unjudged.
void check_point_regression(const CheckRun& run, const Point& p, size_t i, json& pj,
                            CheckVerdicts& v, std::map<std::string, bool>& seen) {
  const auto it = run.base_index.find(p.name);
  if (it == run.base_index.end()) {
    // A run of that name the baseline holds as a bandwidth run (W = 0) is no point to compare.
    const auto& base_runs = run.base->doc.not_points;
    const auto as_run = std::find_if(base_runs.begin(), base_runs.end(),
                                     [&](const PointLeftOut& n) { return n.name == p.name; });
    v.passes.push_back(as_run == base_runs.end()
                           ? std::string("not in the baseline: no regression check")
                           : "in the baseline as a bandwidth run (" + as_run->reason +
                                 "), not a point: no regression check");
    return;
  }
  seen[p.name] = true;
  const CheckedPoints& now = run.now;
  const CheckedPoints* base = run.base;
  const Point& b = base->doc.points[it->second];
  // FLOP/s against OP/s is no change of one rate (docs/model.md §11): neither a regression nor
  // an improvement, and said so.
  if (work_units_differ(b, p, now.doc.units)) {
    const std::string unit_b = point_units(b, now.doc.units).work,
                      unit_p = point_units(p, now.doc.units).work;
    const std::string why = "work of different units (" + terminal_safe(unit_b) +
                            " in the baseline, " + terminal_safe(unit_p) + " now)";
    v.passes.push_back("P " + format_work_rate(p.performance(), point_units(p, now.doc.units)) +
                       " against baseline " +
                       format_work_rate(b.performance(), point_units(b, now.doc.units)) +
                       ": not compared: " + why + ": no regression check");
    // Said where the points not judged are looked for too: a note, and the entry's field.
    v.not_made.push_back("point '" + terminal_safe(p.name) +
                         "' not compared with the baseline: " + why + ": no regression check");
    pj["baseline_performance"] = b.performance().value;
    pj["baseline_work_unit"] = unit_b;
    pj["comparable"] = false;
    pj["baseline_not_compared"] = why;
    return;
  }
  const RegressionJudgement rj =
      judge_regression(p.performance().value, b.performance().value,
                       i < now.spreads.size() ? now.spreads[i] : std::nullopt,
                       it->second < base->spreads.size() ? base->spreads[it->second] : std::nullopt,
                       run.assumed, run.assumed_from);
  if (!std::isfinite(rj.ratio) || !(rj.ratio > 0))
    throw InputError("point '" + p.name + "': P = W/T against the baseline's gives ratio " +
                     format_number(rj.ratio) + ", not a finite positive number");
  const std::string p_line =
      "P " + format_work_rate(p.performance(), point_units(p, now.doc.units)) + " = ";
  const std::string base_line =
      "× baseline " + format_work_rate(b.performance(), point_units(b, now.doc.units));
  std::string why;
  if (rj.too_noisy)
    why = p_line + format_number(rj.ratio, 4) + base_line + " — too noisy to judge: the noise " +
          noise_plus_minus(rj.noise) + " (" + rj.noise_from + ") is " + noise_percent(kBlindNoise) +
          " or more: the rates spread by as much as their median; rerun with more repetitions or "
          "on a "
          "quieter machine";
  else
    why = p_line + format_number_apart(rj.ratio, noise_bound(rj.ratio, rj.noise), 4) + base_line +
          (rj.regressed  ? " — regressed beyond"
           : rj.improved ? " — improved beyond"
                         : " — within") +
          " the noise " + noise_plus_minus(rj.noise) + " (" + rj.noise_from +
          (noise_band_text(rj.noise).empty() ? "" : "; " + noise_band_text(rj.noise)) + ")";
  (rj.regressed || rj.too_noisy ? v.fails : v.passes).push_back(why);
  // P compares rates: a point whose W changed (another problem size, an algorithm doing less
  // work) is said to have, since its P can fall while it got faster, or the reverse.
  const double work_ratio = p.work.value / b.work.value;
  if (std::fabs(work_ratio - 1) > 1e-9) {
    v.passes.push_back("note: W " + format_work(p.work, now.doc.units) + " is " +
                       format_number(work_ratio, 4) + " × the baseline's " +
                       format_work(b.work, now.doc.units) +
                       ": P compares rates of different work; T " + format_seconds(p.time) +
                       " against " + format_seconds(b.time));
    pj["work_ratio"] = work_ratio;
  }
  if (precision_changed(b, p)) {
    v.passes.push_back("note: precision " + terminal_safe(b.precision) + " in the baseline, " +
                       terminal_safe(p.precision) + " now: P compares work on different units");
    pj["baseline_precision"] = b.precision;
  }
  v.judged = true;
  pj["baseline_performance"] = b.performance().value;
  pj["ratio"] = rj.ratio;
  pj["noise"] = rj.noise;
  pj["noise_from"] = rj.noise_from;
  pj["regressed"] = rj.regressed;
  pj["improved"] = rj.improved;
  pj["too_noisy"] = rj.too_noisy;
}

/// Point i of the run judged: its status, its reasons (failures first) and its JSON entry.
void check_judge_point(const CheckRun& run, size_t i, CheckReport& out, json& out_points,
                       std::map<std::string, bool>& seen) {
  Point p = run.now.doc.points[i];
  if (p.precision.empty() && !run.r.precision.empty()) p.precision = run.r.precision;
  for (auto& t : p.traffic)
    if (t.level.empty()) t.level = run.r.level;
  PointCheck c;
  c.name = p.name;
  json pj = {{"name", p.name}, {"performance", p.performance().value}};
  CheckVerdicts v;
  if (run.m) {
    try {
      check_point_attainment(p, run.m->roofs, run.r.config, pj, v);
    } catch (const InputError& e) {
      // No roof for its precision or a level: the file and the point say where to look.
      // Named once: the diagnosis may already have named the point.
      const std::string what = e.what(), tag = "point '" + p.name + "': ";
      throw InputError(run.now_name + ": " + (what.rfind(tag, 0) == 0 ? what : tag + what));
    }
  }
  if (run.base) check_point_regression(run, p, i, pj, v, seen);
  c.status = !v.fails.empty() ? CheckStatus::failed
             : v.judged       ? CheckStatus::passed
                              : CheckStatus::skipped;
  c.why = v.fails;
  c.why.insert(c.why.end(), v.passes.begin(), v.passes.end());
  out.notes.insert(out.notes.end(), v.not_made.begin(), v.not_made.end());
  pj["status"] = to_string(c.status);
  pj["why"] = c.why;
  out_points.push_back(pj);
  out.checks.push_back(std::move(c));
}

/// The baseline's points the run does not have: listed as skipped.
void check_baseline_only_points(const CheckRun& run, const std::map<std::string, bool>& seen,
                                CheckReport& out, json& out_points) {
  for (const auto& b : run.base->doc.points)
    if (!seen.count(b.name)) {
      PointCheck c;
      c.name = b.name;
      c.status = CheckStatus::skipped;
      c.why.push_back("in the baseline only: missing from " + run.now_name);
      out_points.push_back(
          {{"name", b.name}, {"status", "skipped"}, {"why", c.why}, {"baseline_only", true}});
      out.checks.push_back(std::move(c));
    }
}

/// A bandwidth run listed as skipped: its line's reasons and its JSON entry (left_out_to_json's,
/// as plot, point and diff list one, with the status and why).
void check_skip_bandwidth_run(const PointLeftOut& n, std::vector<std::string> why,
                              bool baseline_only, CheckReport& out, json& out_points) {
  PointCheck c;
  c.name = n.name;
  c.status = CheckStatus::skipped;
  c.why = std::move(why);
  json entry = left_out_to_json(n);
  entry["status"] = "skipped";
  entry["why"] = c.why;
  if (baseline_only) entry["baseline_only"] = true;
  out_points.push_back(entry);
  out.checks.push_back(std::move(c));
}

/// The run's records that are no point (a copy's bandwidth, W = 0): listed as skipped, not
/// judged, rather than left out unsaid (or the file refused when they are all it holds); then
/// the baseline's that are neither a bandwidth run nor a point of the run, as the baseline's
/// points the run lacks are.
void check_bandwidth_only_runs(const CheckRun& run, CheckReport& out, json& out_points) {
  auto named = [](const std::vector<PointLeftOut>& runs, const std::string& name) {
    return std::any_of(runs.begin(), runs.end(),
                       [&](const PointLeftOut& r) { return r.name == name; });
  };
  const std::vector<PointLeftOut> none;
  const std::vector<PointLeftOut>& base_runs = run.base ? run.base->doc.not_points : none;
  for (const auto& n : run.now.doc.not_points) {
    std::vector<std::string> why = {bandwidth_run_note(n, "not judged", "", true)};
    if (named(base_runs, n.name))
      why.push_back("a bandwidth run in the baseline too: not compared");
    check_skip_bandwidth_run(n, std::move(why), false, out, out_points);
  }
  for (const auto& n : base_runs) {
    if (named(run.now.doc.not_points, n.name) ||
        std::any_of(run.now.doc.points.begin(), run.now.doc.points.end(),
                    [&](const Point& p) { return p.name == n.name; }))
      continue;
    check_skip_bandwidth_run(n,
                             {"in the baseline only: missing from " + run.now_name + "; " +
                              bandwidth_run_note(n, "not compared", "", true)},
                             true, out, out_points);
  }
}

/// The counts of passed, failed and skipped points, and the summary line's text.
void check_count_and_summarise(CheckReport& out) {
  for (const auto& c : out.checks) {
    out.failed += c.status == CheckStatus::failed;
    out.passed += c.status == CheckStatus::passed;
    out.skipped += c.status == CheckStatus::skipped;
  }
  out.nothing_judged = out.passed + out.failed == 0;
  out.summary = std::to_string(out.checks.size()) +
                (out.checks.size() == 1 ? " point: " : " points: ") + std::to_string(out.passed) +
                " passed, " + std::to_string(out.failed) + " failed, " +
                std::to_string(out.skipped) + " skipped" +
                (out.nothing_judged ? " (no point was judged: the gate checked nothing)" : "");
}

/// A rule whose pattern matches none of the run's points (a typo, a renamed kernel).
void check_unmatched_rules(const CheckRun& run, CheckReport& out) {
  for (const auto& rule : run.r.config.rules) {
    bool matched = false;
    for (const auto& p : run.now.doc.points) matched = matched || glob_match(rule.pattern, p.name);
    if (!matched)
      out.notes.push_back(
          "rule '" + terminal_safe(rule.pattern) + "' of " +
          (run.r.config.origin.empty() ? std::string("the config") : run.r.config.origin) +
          " matches no point of " + run.now_name);
  }
}

/// A baseline taken on another machine (the documents' `machine` fields differ): its ratios
/// compare machines, not runs of one program.
void check_baseline_machine(const CheckRun& run, CheckReport& out) {
  if (!run.base) return;
  const std::string& now = run.now.doc.machine;
  const std::string& base = run.base->doc.machine;
  if (!now.empty() && !base.empty() && now != base)
    out.notes.push_back("the baseline was taken on '" + terminal_safe(base) + "' and " +
                        run.now_name + " on '" + terminal_safe(now) +
                        "': its ratios compare two machines, not two runs of one");
}

/// The roofline.check.result document (version 1) of the judged points.
json check_result_json(const CheckRun& run, const CheckReport& out, const json& out_points) {
  json j = {{"schema", "roofline.check.result"},
            {"version", 1},
            {"points_file", run.now.path},
            {"passed", out.failed == 0 && !out.nothing_judged},
            {"nothing_judged", out.nothing_judged},
            {"notes", out.notes},
            {"counts", {{"passed", out.passed}, {"failed", out.failed}, {"skipped", out.skipped}}},
            {"assumed_noise", run.assumed},
            {"points", out_points}};
  if (run.m) j["machine"] = run.m->roofs.name;
  if (run.base) j["baseline"] = run.base->path;
  return j;
}

}  // namespace

CheckReport run_check(const CheckRequest& r) {
  const CheckConfig& cfg = r.config;
  const double assumed = cfg.noise.value_or(default_assumed_noise());
  check_gate_request(cfg, r.machine.has_value(), r.baseline.has_value());
  // A run that measured nothing does not pass the gate (its baseline's points would only be
  // skipped).
  if (r.points.doc.points.empty() && r.points.doc.not_points.empty())
    throw InputError((r.points.path.empty() ? std::string("the points document") : r.points.path) +
                     ": no points: nothing to check");
  // The inputs resolved: units agree, names unique where a baseline pairs them.
  const CheckRun run = check_run_context(r, assumed);
  CheckReport out;
  json out_points = json::array();
  std::map<std::string, bool> seen;
  // Each point of the run, then the baseline's points the run lacks.
  for (size_t i = 0; i < run.now.doc.points.size(); ++i)
    check_judge_point(run, i, out, out_points, seen);
  if (run.base) check_baseline_only_points(run, seen, out, out_points);
  check_bandwidth_only_runs(run, out, out_points);
  check_unmatched_rules(run, out);
  check_baseline_machine(run, out);
  check_count_and_summarise(out);
  out.json = check_result_json(run, out, out_points);
  return out;
}

}  // namespace roofline
