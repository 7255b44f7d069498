// The report of an instrumented run (`roofline profile --instrument`): its JSON document and
// its text, the messages and the fitted points (docs/instrument.md).
#include <algorithm>
#include <cstdint>
#include <map>

#include "roofline/diagnosis.hpp"
#include "roofline/import.hpp"
#include "roofline/instrument_report.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/table.hpp"

namespace roofline::instrument {

namespace {

std::string geometry_text(const CacheGeometry& g) {
  return g.level + " " + format_bytes(Bytes(static_cast<double>(g.size))) + " " +
         std::to_string(g.ways) + "-way " + std::to_string(g.line) + " B lines";
}

nlohmann::json geometry_json(const CacheGeometry& g) {
  nlohmann::json j = {{"level", g.level}, {"size", g.size}, {"ways", g.ways}, {"line", g.line}};
  if (!g.note.empty()) j["note"] = g.note;
  return j;
}

std::string ops_text(const std::vector<OpCount>& ops) {
  std::map<std::string, std::map<int, double>> m;
  for (const auto& o : ops)
    if (o.kind == "flops" || o.kind == "int_ops") m[o.precision][o.width] += o.count;
  std::string s;
  for (const auto& [prec, widths] : m) {
    double sum = 0;
    std::string parts;
    for (const auto& [w, c] : widths) {
      sum += c;
      parts += (parts.empty() ? "" : ", ") +
               (w == 0 ? std::string("scalar") : std::to_string(w) + "-bit") + " " +
               format_number(c, 4);
    }
    s += (s.empty() ? "" : "; ") + (prec.empty() ? std::string("?") : prec) + " " +
         format_number(sum, 4) + " (" + parts + ")";
  }
  return s;
}

/// The simulated traffic of one function's or region's costs (`costs_of` gives them from one
/// simulation's profile, or nullptr): L2 and DRAM (with its write-back share) from the
/// simulation whose last level is the outermost, the middle levels' fills from the others.
template <class CostsOf>
nlohmann::json simulated_traffic_json(const InstrumentedRun& r, CostsOf costs_of) {
  nlohmann::json q = nlohmann::json::object();
  for (const auto& sim : r.simulations) {
    const std::vector<double>* costs = costs_of(sim.profile);
    if (!costs) continue;
    const SimulatedTraffic t = simulated_traffic(
        sim.profile, *costs, static_cast<double>(sim.d1.line), static_cast<double>(sim.ll.line));
    if (sim.fills_from == "DRAM") {
      q["DRAM"] = t.ll_fills + t.ll_writebacks;
      q["DRAM_writebacks"] = t.ll_writebacks;
      q["L2"] = t.l1_fills;
    } else {
      q[sim.fills_from] = t.ll_fills;
    }
  }
  return q;
}

nlohmann::json ops_json(const std::vector<OpCount>& ops) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& o : ops)
    a.push_back({{"kind", o.kind},
                 {"precision", o.precision},
                 {"width", o.width},
                 {"masked", o.masked},
                 {"count", o.count}});
  return a;
}

/// Q per level of one function (or the whole run) as {level: bytes}.
std::map<std::string, double> levels_of(const std::vector<LevelTraffic>& t) {
  std::map<std::string, double> m;
  for (const auto& x : t) m[x.level] = x.bytes.value;
  return m;
}

/// The cache simulations: each one's geometry, cost and, where it ran, its event totals.
nlohmann::json simulations_json(const InstrumentedRun& r, const SampleTotals& st) {
  nlohmann::json sims = nlohmann::json::array();
  for (const auto& sim : r.simulations) {
    nlohmann::json s = {
        {"last_level", sim.ll_level},
        {"fills_from", sim.fills_from},
        {"caches", {geometry_json(sim.i1), geometry_json(sim.d1), geometry_json(sim.ll)}},
        {"wall_seconds", sim.wall_seconds},
        {"slowdown", sim.wall_seconds / st.native},
        {"exit_status", sim.exit_status}};
    if (!sim.problem.empty()) s["problem"] = sim.problem;
    if (!sim.profile.events.empty()) {
      s["events"] = sim.profile.events;
      s["totals"] = sim.profile.totals;
    }
    sims.push_back(s);
  }
  return sims;
}

/// Every counted function: its calls and operations, the simulated traffic, the sampled time.
nlohmann::json functions_json(const InstrumentedRun& r) {
  nlohmann::json fns = nlohmann::json::array();
  for (const auto& f : r.counts.functions) {
    nlohmann::json x = {
        {"name", f.name}, {"calls", f.calls}, {"ops", ops_json(f.ops)}, {"flops", total(f.ops)}};
    if (!f.file.empty()) x["file"] = f.file;
    if (f.line > 0) x["line"] = f.line;
    if (!f.skipped.empty()) {
      x["skipped"] = f.skipped;
      x["static_flops"] = f.static_flops;
    }
    x["traffic"] = simulated_traffic_json(r, [&](const CallgrindProfile& p) {
      const auto it = p.functions.find(f.name);
      return it == p.functions.end() ? nullptr : &it->second;
    });
    for (const auto& t : r.times)
      if (t.name == f.name) {
        x["samples"] = t.samples;
        x["cpu_seconds"] = t.cpu_seconds;
        x["seconds"] = t.seconds;
      }
    fns.push_back(x);
  }
  return fns;
}

/// The samples: their totals, the sampler, and the time of each sampled function.
nlohmann::json samples_json(const InstrumentedRun& r, const SampleTotals& st) {
  nlohmann::json times = nlohmann::json::array();
  for (const auto& t : r.times)
    times.push_back({{"name", t.name},
                     {"object", t.object},
                     {"samples", t.samples},
                     {"cpu_seconds", t.cpu_seconds},
                     {"seconds", t.seconds}});
  return {{"total", st.samples},
          {"cpu_seconds", st.cpu_sampled},
          {"sampler", st.sampler},
          {"by_function", times}};
}

/// Marker regions: the timers' calls and T, counted W, and the simulated traffic of the time
/// each was open (with the passes the simulation saw), whether or not they became points.
nlohmann::json regions_json(const InstrumentedRun& r) {
  std::vector<std::string> names;
  for (const auto& g : r.regions) names.push_back(g.name);
  for (const auto& g : r.counts.regions)
    if (std::find(names.begin(), names.end(), g.name) == names.end()) names.push_back(g.name);
  nlohmann::json regs = nlohmann::json::array();
  for (const auto& name : names) {
    nlohmann::json x = {{"name", name}};
    for (const auto& g : r.regions)
      if (g.name == name) x["calls"] = g.calls, x["seconds"] = g.time;
    for (const auto& g : r.counts.regions)
      if (g.name == name) {
        x["counted_calls"] = g.calls, x["ops"] = ops_json(g.ops), x["flops"] = total(g.ops);
      }
    nlohmann::json passes = nlohmann::json::array();
    x["traffic"] = simulated_traffic_json(r, [&](const CallgrindProfile& p) {
      const auto it = p.regions.find(name);
      if (it == p.regions.end()) return static_cast<const std::vector<double>*>(nullptr);
      passes.push_back({{"passes", it->second.passes}, {"complete", it->second.complete}});
      return &it->second.costs;
    });
    x["simulated_passes"] = passes;
    regs.push_back(x);
  }
  return regs;
}

}  // namespace

/// What the three runs said, and what is missing from them, as messages for the user.
void run_messages(const InstrumentedRun& r, std::vector<std::string>& messages) {
  for (const auto& s : r.messages) messages.push_back(s);
  if (r.native.exit_status == 0 && r.counts.processes == 0)
    messages.push_back(
        "W: the program wrote no counts. Build it with the flopcount plugin and link its runtime "
        "(clang -O2 -fpass-plugin=RooflineFlopCount.so ... -lroofline_flopcount; "
        "docs/instrument.md), "
        "and let it exit normally (exit() or return from main)");
  if (r.counts.dropped > 0)
    messages.push_back("W: " + format_number(r.counts.dropped, 4) +
                       " counter blocks or region records could not be allocated: counts are low");
  for (const auto& s : r.samples)
    if (!s.problem.empty()) messages.push_back("T per function: " + s.problem);
  if (r.native.exit_status == 0 && r.samples.empty() && r.counts.processes > 0)
    messages.push_back("T per function: the native run wrote no samples");
  for (const auto& sim : r.simulations)
    if (!sim.problem.empty()) messages.push_back("Q (" + sim.ll_level + "): " + sim.problem);
}

/// The points of the run, fitted to the machine's levels in `judged` (points none of whose
/// levels it has, or no roof of whose precision, go to `left_out` and stay in the document).
InstrumentedPoints fitted_points(const InstrumentedRun& r, const std::string& name,
                                 const std::string& precision, const RoofSet* roofs,
                                 std::vector<std::string>& notes) {
  InstrumentedPoints ip = instrumented_points(r, name);
  notes = ip.notes;
  for (Point& p : ip.points)
    if (!precision.empty()) p.precision = precision;
  if (!roofs) {
    ip.judged = ip.points;
    return ip;
  }
  for (size_t i = 0; i < ip.points.size(); ++i) {
    const Point& p = ip.points[i];
    std::vector<LevelTraffic> fitted = fit_levels(p.traffic, roofs, notes, p.name);
    // A region whose simulated traffic is only at levels the machine lacks (a catalogue CPU
    // publishes only its DRAM; the data stayed in its caches) keeps the Q it declared at DRAM,
    // in the document beside the simulated levels too.
    const auto reg =
        std::find_if(r.regions.begin(), r.regions.end(),
                     [&](const counters::RegionResult& x) { return x.name == p.name; });
    if (fitted.empty() && ip.origins[i].traffic == "simulated" && reg != r.regions.end() &&
        reg->bytes > 0) {
      fitted = fit_levels({{"DRAM", Bytes(reg->bytes)}}, roofs, notes, p.name);
      if (!fitted.empty()) {
        ip.origins[i].traffic = "simulated, and declared at DRAM";
        ip.points[i].traffic.push_back({"DRAM", Bytes(reg->bytes)});
        notes.push_back(p.name + ": Q declared (" + format_bytes(Bytes(reg->bytes)) +
                        " at DRAM): the simulated traffic is at levels this machine has no roof "
                        "for");
      }
    }
    // The one list of points not judged: the chart says it (ReportInput::not_drawn).
    if (auto judged =
            counters::judged_point(ip.points[i], std::move(fitted), *roofs, notes, ip.left_out))
      ip.judged.push_back(std::move(*judged));
  }
  return ip;
}

/// The native run's time (for the slowdowns) and its samples over all its processes.
SampleTotals sample_totals(const InstrumentedRun& r) {
  SampleTotals st;
  st.native = std::max(r.native.wall_seconds, 1e-9);
  for (const auto& s : r.samples) {
    st.samples += s.total;
    st.cpu_sampled += s.cpu_seconds;
    if (!s.sampler.empty() && st.sampler.find(s.sampler) == std::string::npos)
      st.sampler += (st.sampler.empty() ? "" : ", ") + s.sampler;
  }
  return st;
}

/// `profile --instrument --json`: the points with their provenance, the runs, every counted
/// function and region, and the analysis on the machine where one is given.
nlohmann::json run_to_json(const std::vector<std::string>& command, const InstrumentedRun& r,
                           const InstrumentedPoints& ip, const std::optional<MachineDocument>& m,
                           const std::vector<std::string>& messages,
                           const std::vector<std::string>& notes) {
  const SampleTotals st = sample_totals(r);
  PointsDocument doc;
  doc.points = ip.points;
  if (m) doc.machine = m->roofs.name;
  nlohmann::json j = points_to_json(doc);
  for (size_t i = 0; i < ip.points.size(); ++i) {
    const PointOrigin& o = ip.origins.at(i);
    j["points"][i]["provenance"] = {{"work", o.work}, {"traffic", o.traffic}, {"time", o.time}};
  }
  nlohmann::json run = {
      {"command", command},
      {"exit_status", r.native.exit_status},
      {"wall_seconds", r.native.wall_seconds},
      {"provenance", {{"work", "instrumented"}, {"traffic", "simulated"}, {"time", "measured"}}}};
  if (r.native.totals.cpu_seconds > 0) run["cpu_seconds"] = r.native.totals.cpu_seconds;
  run["counting"] = {{"wall_seconds", r.counting.wall_seconds},
                     {"exit_status", r.counting.exit_status},
                     {"slowdown", r.counting.wall_seconds / st.native},
                     {"processes", r.counts.processes}};
  run["simulations"] = simulations_json(r, st);
  run["simulator_limits"] = simulator_limits();
  run["functions"] = functions_json(r);
  run["samples"] = samples_json(r, st);
  run["regions"] = regions_json(r);
  if (r.native.totals.flops_counted) run["pmu_flops"] = r.native.totals.flops;
  if (!r.native.totals.bytes_by_level.empty())
    run["pmu_bytes_by_level"] = r.native.totals.bytes_by_level;
  run["messages"] = messages;
  run["notes"] = notes;
  j["run"] = run;
  if (m) j["analysis"] = analyses_to_json(ip.judged, m->roofs);
  return j;
}

/// The text report: the runs, the counted W, messages, the functions by time, each point.
std::string render_run(const std::vector<std::string>& command, const InstrumentedRun& r,
                       const InstrumentedPoints& ip, const std::vector<std::string>& messages,
                       const std::vector<std::string>& notes) {
  const SampleTotals st = sample_totals(r);
  std::string t = "profile --instrument of " + command.front() + "\n";
  t += "  native run: exit status " + std::to_string(r.native.exit_status) +
       ", T = " + format_seconds(Seconds(r.native.wall_seconds)) + " (wall clock)";
  if (r.native.totals.cpu_seconds > 0)
    t += ", CPU time " + format_seconds(Seconds(r.native.totals.cpu_seconds));
  if (st.samples > 0)
    t += ", " + std::to_string(st.samples) + " samples (" + st.sampler + ") of " +
         format_seconds(Seconds(st.cpu_sampled)) + " CPU time";
  t += "\n";
  if (r.counting.wall_seconds > 0)
    t += "  counting run: " + format_seconds(Seconds(r.counting.wall_seconds)) + " (" +
         format_number(r.counting.wall_seconds / st.native, 3) + "× the native run)\n";
  for (const auto& sim : r.simulations) {
    if (sim.wall_seconds <= 0) continue;
    t += "  simulation (" + geometry_text(sim.d1) + "; " + geometry_text(sim.ll) +
         " as the last level): " + format_seconds(Seconds(sim.wall_seconds)) + " (" +
         format_number(sim.wall_seconds / st.native, 3) + "× the native run)\n";
    for (const auto* g : {&sim.d1, &sim.ll})
      if (!g->note.empty()) t += "    " + g->level + ": " + g->note + "\n";
  }
  std::vector<OpCount> all;
  for (const auto& f : r.counts.functions) all.insert(all.end(), f.ops.begin(), f.ops.end());
  if (r.counts.processes > 0)
    t += "  counted W = " + format_work(Work(total(all))) +
         (total(all) > 0 ? " — " + ops_text(all) : "") + "\n";
  if (total(all, "int_ops") > 0)
    t += "  counted integer dot-product operations: " + format_number(total(all, "int_ops"), 4) +
         " (not in W)\n";
  if (r.native.totals.flops_counted)
    t += "  PMU (native run): W = " + format_work(Work(r.native.totals.flops)) + "\n";
  for (const auto& [lvl, b] : r.native.totals.bytes_by_level)
    t += "  PMU (native run): Q(" + lvl + ") = " + format_bytes(Bytes(b)) + "\n";
  if (!r.simulations.empty()) {
    bool any = false;
    for (const auto& sim : r.simulations) any = any || !sim.profile.events.empty();
    if (any) {
      t += "  what the simulator does not see:\n";
      for (const auto& l : simulator_limits()) t += "    - " + l + "\n";
    }
  }
  for (const auto& msg : messages) t += "  " + msg + "\n";
  // Functions with W, by time.
  Table table({"function", "calls", "W", "Q(L2)", "Q(L3)", "Q(DRAM)", "T", "share"});
  for (const auto& p : ip.points) {
    if (p.weight <= 0) continue;
    std::map<std::string, double> q = levels_of(p.traffic);
    auto qs = [&](const char* l) {
      return q.count(l) ? format_bytes(Bytes(q.at(l))) : std::string("-");
    };
    const std::string calls = p.note.substr(0, p.note.find(" calls"));
    table.add_row({p.name, calls, format_work(p.work), qs("L2"), qs("L3"), qs("DRAM"),
                   format_seconds(p.time), format_number(100 * p.weight, 3) + " %"});
  }
  if (table.size() > 0) t += "\n" + table.render();
  for (const auto& n : notes) t += "  note: " + n + "\n";
  return t;
}

}  // namespace roofline::instrument
