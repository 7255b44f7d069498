// The points of an instrumented run: W counted, Q simulated, T measured natively.
#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "probe/marker/marker_internal.hpp"
#include "roofline/import.hpp"
#include "roofline/instrument.hpp"
#include "roofline/quantity.hpp"

namespace roofline::instrument {

namespace {

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

enum class Scope { whole, function, region };

/// Q per level for the whole program's, one function's or one marker region's costs, DRAM
/// first: the level the point is placed at by default. A level whose simulated traffic is zero
/// is left out. A region's traffic counts only from simulations that saw all `passes` of it.
std::vector<LevelTraffic> traffic_for(const InstrumentedRun& r, Scope scope,
                                      const std::string& name = "", std::uint64_t passes = 0) {
  std::map<std::string, double> level;
  for (const auto& sim : r.simulations) {
    if (sim.profile.events.empty()) continue;
    const std::vector<double>* costs = nullptr;
    if (scope == Scope::whole) {
      costs = &sim.profile.totals;
    } else if (scope == Scope::function) {
      const auto it = sim.profile.functions.find(name);
      if (it == sim.profile.functions.end()) continue;
      costs = &it->second;
    } else {
      const auto it = sim.profile.regions.find(name);
      if (it == sim.profile.regions.end() || !it->second.complete || it->second.passes != passes)
        return {};  // one level without the others would misplace the point
      costs = &it->second.costs;
    }
    const SimulatedTraffic t = simulated_traffic(
        sim.profile, *costs, static_cast<double>(sim.d1.line), static_cast<double>(sim.ll.line));
    if (sim.fills_from == "DRAM") {
      level["DRAM"] = t.ll_fills + t.ll_writebacks;
      level["L2"] = t.l1_fills;
    } else {
      level[sim.fills_from] = t.ll_fills;
      if (!level.count("L2")) level["L2"] = t.l1_fills;
    }
  }
  std::vector<LevelTraffic> out;
  for (const char* l : {"DRAM", "L4", "L3", "L2"})
    if (level.count(l) && level.at(l) > 0) out.push_back({l, Bytes(level.at(l))});
  return out;
}

std::string sim_description(const InstrumentedRun& r) {
  for (const auto& sim : r.simulations)
    if (sim.fills_from == "DRAM" && !sim.profile.events.empty())
      return "L1 " + format_bytes(Bytes(static_cast<double>(sim.d1.size))) + " " +
             std::to_string(sim.d1.ways) + "-way, " + sim.ll_level + " " +
             format_bytes(Bytes(static_cast<double>(sim.ll.size))) + " " +
             std::to_string(sim.ll.ways) + "-way";
  return "";
}

/// Why a marker region got no simulated Q.
std::string region_q_problem(const InstrumentedRun& r, const counters::RegionResult& reg) {
  for (const auto& sim : r.simulations) {
    if (sim.profile.events.empty()) continue;
    const auto it = sim.profile.regions.find(reg.name);
    if (it == sim.profile.regions.end())
      return "the simulated run dumped no boundary of it: the program's marker runtime was "
             "built without Valgrind's callgrind.h, or the name has control characters";
    if (!it->second.complete || it->second.passes != reg.calls)
      return "the simulator saw " + std::to_string(it->second.passes) + " of its " +
             std::to_string(reg.calls) + " passes (the runtime dumps the first " +
             std::to_string(marker_detail::kMaxRegionDumps) + " region boundaries)";
  }
  return r.simulations.empty() ? "no simulation" : "the simulation gave no profile";
}

/// Every function's operation counts merged by kind, precision, width and masking: the whole
/// program's.
std::vector<OpCount> program_ops(const InstrumentedRun& r) {
  std::vector<OpCount> all_ops;
  for (const auto& f : r.counts.functions)
    for (const auto& o : f.ops) {
      auto it = std::find_if(all_ops.begin(), all_ops.end(), [&](const OpCount& x) {
        return x.kind == o.kind && x.precision == o.precision && x.width == o.width &&
               x.masked == o.masked;
      });
      if (it == all_ops.end())
        all_ops.push_back(o);
      else
        it->count += o.count;
    }
  return all_ops;
}

/// The whole program's point: W counted, Q simulated, T the native run's wall clock; else a note
/// saying what is missing.
void add_program_point(const InstrumentedRun& r, const std::string& program_name,
                       const std::string& sim, InstrumentedPoints& out) {
  const std::vector<OpCount> all_ops = program_ops(r);
  Point p;
  p.name = program_name;
  p.work = Work(total(all_ops));
  p.time = Seconds(r.native.wall_seconds);
  p.traffic = traffic_for(r, Scope::whole);
  p.precision = dominant_precision(all_ops);
  p.source = "instrumented";
  p.note = "W counted by instrumentation; Q simulated" + (sim.empty() ? "" : " (" + sim + ")") +
           "; T the native run's wall clock";
  if (p.work.value > 0 && !p.traffic.empty() && p.time.value > 0)
    out.points.push_back(p), out.origins.push_back({"instrumented", "simulated", "measured"});
  else
    out.notes.push_back("no point for the whole program: " +
                        std::string(!(p.work.value > 0) ? "no counted W"
                                    : p.traffic.empty() ? "no simulated Q"
                                                        : "no time") +
                        (r.counts.processes == 0
                             ? " (the program wrote no counts: was it built with the "
                               "flopcount plugin and run to a normal exit?)"
                             : ""));
}

/// A point per counted function (W counted, Q simulated, T sampled), names shortened unless two
/// functions would share one; notes for skipped functions, uncounted operations, missing Q or T.
void add_function_points(const InstrumentedRun& r, InstrumentedPoints& out) {
  std::uint64_t all_samples = 0;
  for (const auto& s : r.samples) all_samples += s.total;
  std::map<std::string, int> short_uses;
  for (const auto& f : r.counts.functions) ++short_uses[short_kernel_name(demangle(f.name))];
  for (const auto& f : r.counts.functions) {
    const std::string full = demangle(f.name);
    const std::string shown =
        short_uses[short_kernel_name(full)] > 1 ? full : short_kernel_name(full);
    if (!f.skipped.empty()) {
      out.notes.push_back(shown + ": not counted (" + f.skipped + " function; " +
                          format_work(Work(f.static_flops)) + " in its code, each operation once)");
      continue;
    }
    const double math = total(f.ops, "math"), unc = total(f.ops, "uncounted");
    if (math > 0)
      out.notes.push_back(shown + ": " + format_number(math, 4) +
                          " math-library evaluations (exp, sin, pow, ...) are not in W");
    if (unc > 0)
      out.notes.push_back(shown + ": " + format_number(unc, 4) +
                          " target intrinsics on floating-point data are not counted");
    const double w = total(f.ops);
    if (!(w > 0)) continue;
    Point p;
    p.name = shown;
    p.work = Work(w);
    p.precision = dominant_precision(f.ops);
    p.traffic = traffic_for(r, Scope::function, f.name);
    const auto t = std::find_if(r.times.begin(), r.times.end(),
                                [&](const FunctionTime& x) { return x.name == f.name; });
    const std::uint64_t samples = t == r.times.end() ? 0 : t->samples;
    p.time = Seconds(t == r.times.end() ? 0 : t->seconds);
    p.weight =
        all_samples > 0 ? static_cast<double>(samples) / static_cast<double>(all_samples) : 0;
    p.source = "instrumented";
    p.note = format_number(f.calls, 6) + " calls; W counted, Q simulated, T sampled (" +
             std::to_string(samples) + " samples, " + format_number(100.0 * p.weight, 3) +
             " % of the run)";
    std::string missing;
    if (p.traffic.empty())
      missing = r.simulations.empty() ? "no simulated Q" : "no simulated misses at any level";
    else if (!(p.time.value > 0))
      missing = "no samples in the native run (less CPU time than one sampling interval)";
    if (!missing.empty()) {
      out.notes.push_back(shown + ": W = " + format_work(p.work) + ", " + missing + "; no point");
      continue;
    }
    out.points.push_back(p);
    out.origins.push_back({"instrumented", "simulated", "sampled"});
  }
}

/// Marker regions: counted W (declared W where nothing was counted), the marker timer's T, and
/// Q simulated over the parts of the run the region was open for (the marker runtime dumps the
/// simulator's counts at each boundary) where the simulator saw every pass, else declared Q.
void add_region_points(const InstrumentedRun& r, const std::string& sim, InstrumentedPoints& out) {
  for (const auto& reg : r.regions) {
    const auto c = std::find_if(r.counts.regions.begin(), r.counts.regions.end(),
                                [&](const RegionCount& x) { return x.name == reg.name; });
    const double counted = c == r.counts.regions.end() ? 0 : total(c->ops);
    const std::vector<LevelTraffic> simulated = traffic_for(r, Scope::region, reg.name, reg.calls);
    Point p;
    p.name = reg.name;
    p.work = Work(counted > 0 ? counted : reg.flops);
    p.time = Seconds(reg.time);
    if (!simulated.empty())
      p.traffic = simulated;
    else if (reg.bytes > 0)
      p.traffic = {{"DRAM", Bytes(reg.bytes)}};
    p.precision = c == r.counts.regions.end() ? "" : dominant_precision(c->ops);
    p.source = counted > 0 || !simulated.empty() ? "instrumented" : "marker";
    std::string q = "Q declared";
    if (!simulated.empty()) {
      q = "Q simulated while the region was open" + (sim.empty() ? "" : " (" + sim + ")");
      const auto dram = std::find_if(simulated.begin(), simulated.end(),
                                     [](const LevelTraffic& t) { return t.level == "DRAM"; });
      if (reg.bytes > 0 && dram != simulated.end())
        q += ", declared " + format_bytes(Bytes(reg.bytes)) + " (simulated/declared at DRAM " +
             format_number(dram->bytes.value / reg.bytes, 4) + ")";
    }
    p.note = std::to_string(reg.calls) + " calls; W " +
             (counted > 0 ? "counted" : "declared by the program") +
             (counted > 0 && reg.flops > 0
                  ? " (declared " + format_work(Work(reg.flops)) + ", counted/declared " +
                        format_number(counted / reg.flops, 4) + ")"
                  : "") +
             "; " + q + "; T the region's timer";
    if (!(p.work.value > 0) || p.traffic.empty() || !(p.time.value > 0)) {
      out.notes.push_back("region '" + reg.name +
                          "': " + (p.work.value > 0 ? "W = " + format_work(p.work) : "no W") +
                          ", T = " + format_seconds(p.time) +
                          (p.traffic.empty() ? "; no point: no Q (" + region_q_problem(r, reg) +
                                                   "; or declare it with roofline_region_add_bytes)"
                                             : "; no point"));
      continue;
    }
    out.points.push_back(p);
    out.origins.push_back({counted > 0 ? "instrumented" : "declared",
                           simulated.empty() ? "declared" : "simulated", "marker"});
  }
}

}  // namespace

InstrumentedPoints instrumented_points(const InstrumentedRun& r, const std::string& program_name) {
  InstrumentedPoints out;
  const std::string sim = sim_description(r);
  add_program_point(r, program_name, sim, out);
  add_function_points(r, out);
  add_region_points(r, sim, out);
  return out;
}

}  // namespace roofline::instrument
