// roofline profile: run a program under counters (W, Q) and the clock (T), place its point (and
// one point per marker region), and exit with the program's own status.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "commands.hpp"
#include "roofline/counters.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/json_out.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {
namespace fs = std::filesystem;
using namespace roofline::counters;

struct ProfileArgs {
  MachineOptions machine;
  std::string events = "auto";
  std::string name;
  std::string work, traffic;
  std::string save_counters, replay;
  std::string sysfs = "/sys/bus/event_source/devices";
  bool json = false;
  std::string output;
  std::vector<std::string> command;
};

/// A temporary directory for marker results, removed at scope exit.
struct MarkerDir {
  fs::path path;
  MarkerDir() {
    std::string tmpl = (fs::temp_directory_path() / "roofline-markers-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw Error("cannot create a temporary directory");
    path = tmpl;
  }
  ~MarkerDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string dominant_precision(const CounterTotals& t) {
  for (const auto& [prec, flops] : t.flops_by_precision)
    if (prec != "fp" && flops >= 0.9 * t.flops) return prec;
  return "";
}

struct Outcome {
  std::vector<Point> points;
  std::vector<std::string> notes;
};

Outcome build_points(const ProfileArgs& a, const RunResult& r,
                     const std::vector<RegionResult>& regions, const RoofSet* roofs) {
  Outcome o;
  Point p;
  p.name = a.name;
  p.time = Seconds(r.wall_seconds);
  p.source = "perf_event";
  std::vector<std::string> from;
  if (!a.work.empty()) {
    p.work = Work(quantity(a.work, Dimension::work, "--work"));
    from.push_back("W from --work");
  } else if (r.totals.flops_counted && r.totals.flops > 0) {
    p.work = Work(r.totals.flops);
    p.precision = dominant_precision(r.totals);
    from.push_back("W from FLOP counters");
  }
  std::vector<LevelTraffic> traffic;
  if (!a.traffic.empty()) {
    traffic.push_back({a.machine.level.empty() ? "DRAM" : a.machine.level,
                       Bytes(quantity(a.traffic, Dimension::bytes, "--traffic"))});
    from.push_back("Q from --traffic");
  } else if (r.totals.bytes_by_level.count("DRAM") && r.totals.bytes_by_level.at("DRAM") > 0) {
    traffic.push_back({"DRAM", Bytes(r.totals.bytes_by_level.at("DRAM"))});
    from.push_back("Q from memory-controller counters");
  }
  if (!traffic.empty())
    for (const char* lvl : {"L2", "L1"})
      if (r.totals.bytes_by_level.count(lvl) && r.totals.bytes_by_level.at(lvl) > 0)
        traffic.push_back({lvl, Bytes(r.totals.bytes_by_level.at(lvl))});
  if (!a.machine.precision.empty()) p.precision = a.machine.precision;
  p.traffic = fit_levels(traffic, roofs, o.notes, p.name);
  p.note = from.empty() ? "" : from.front();
  for (std::size_t i = 1; i < from.size(); ++i) p.note += "; " + from[i];
  if (p.work.value > 0 && !p.traffic.empty() && p.time.value > 0) {
    o.points.push_back(p);
  } else {
    std::string what;
    if (!(p.work.value > 0)) what += "W";
    if (p.traffic.empty()) what += what.empty() ? "Q" : " and Q";
    o.notes.push_back("no point for the whole program: " + what +
                      " unknown (counters missing or zero); give --work/--traffic, or mark "
                      "regions with roofline_region_add_flops/bytes");
  }
  for (const auto& reg : regions) {
    if (!(reg.flops > 0) || !(reg.bytes > 0) || !(reg.time > 0)) {
      o.notes.push_back("region '" + reg.name + "': " + std::to_string(reg.calls) +
                        " calls, T = " + format_seconds(Seconds(reg.time)) +
                        "; no point (declare W and Q with add_flops/add_bytes)");
      continue;
    }
    Point rp;
    rp.name = reg.name;
    rp.work = Work(reg.flops);
    rp.time = Seconds(reg.time);
    rp.traffic = fit_levels({{"DRAM", Bytes(reg.bytes)}}, roofs, o.notes, reg.name);
    rp.precision = a.machine.precision;
    rp.source = "marker";
    rp.note = std::to_string(reg.calls) + " calls on " + std::to_string(reg.threads) +
              " thread(s); W and Q declared by the program";
    o.points.push_back(rp);
  }
  return o;
}

void run(ProfileArgs& a) {
  if (a.events != "auto" && a.events != "none")
    throw InputError("--events: expected auto or none (got '" + a.events + "')");
  RunResult r;
  std::vector<RegionResult> regions;
  const bool hardware = a.events == "auto";
  if (!a.replay.empty()) {
    if (!a.command.empty()) throw InputError("give either --replay FILE or a program, not both");
    r = recording_from_json(read_text_file(a.replay), a.replay);
    r.pmu.core_pmu = "cpu";
    r.pmu.core_pmu_usable = true;
    r.pmu.software_events = true;
    if (a.name.empty()) a.name = fs::path(a.replay).stem().string();
  } else {
    if (a.command.empty())
      throw InputError("no program given: roofline profile [options] -- PROGRAM ARGS...");
    if (a.name.empty()) a.name = fs::path(a.command.front()).filename().string();
    MarkerDir dir;
    RunOptions opt;
    opt.hardware = hardware;
    opt.marker_dir = dir.path;
    opt.sysfs_root = a.sysfs;
    try {
      r = run_counted(a.command, opt);
    } catch (const ExecError& e) {
      std::fprintf(stderr, "roofline: error: %s\n", e.what());
      std::fflush(stdout);
      std::exit(e.code());
    }
    regions = read_marker_results(dir.path);
    if (!a.save_counters.empty()) emit(recording_to_json(r, this_cpu()), a.save_counters);
  }

  std::optional<MachineDocument> m;
  if (has_machine(a.machine)) m = load_machine(a.machine);
  Outcome o = build_points(a, r, regions, m ? &m->roofs : nullptr);

  std::vector<std::string> messages;
  if (hardware && a.replay.empty()) {
    const std::string core = explain_missing(r.pmu);
    if (!core.empty())
      messages.push_back(core);
    else if (!r.totals.flops_counted && r.plan.missing.empty())
      messages.push_back("W: no FLOP counter ran (all counters busy?)");
    const std::string unc = explain_uncore_missing(r.pmu);
    if (!unc.empty()) messages.push_back(unc);
  }
  if (!a.replay.empty() || r.pmu.core_pmu_usable)
    for (const auto& s : r.plan.missing) messages.push_back(s);
  for (const auto& f : r.open_failures) messages.push_back("could not open " + f);
  if (!r.totals.not_counted.empty())
    messages.push_back(std::to_string(r.totals.not_counted.size()) +
                       " counters never ran (more events than counters)");

  if (a.json) {
    PointsDocument doc;
    doc.points = o.points;
    if (m) doc.machine = m->roofs.name;
    nlohmann::json j = points_to_json(doc);
    nlohmann::json run = {
        {"command", a.command}, {"exit_status", r.exit_status}, {"wall_seconds", r.wall_seconds}};
    if (r.totals.cpu_seconds > 0) run["cpu_seconds"] = r.totals.cpu_seconds;
    if (r.totals.flops_counted) {
      run["flops"] = r.totals.flops;
      run["flops_by_precision"] = r.totals.flops_by_precision;
    }
    if (!r.totals.bytes_by_level.empty()) run["bytes_by_level"] = r.totals.bytes_by_level;
    run["cpu"] = r.plan.cpu_description;
    run["limits"] = r.plan.limits;
    run["messages"] = messages;
    run["notes"] = o.notes;
    run["min_running_fraction"] = r.totals.min_running_fraction;
    j["run"] = run;
    if (m) {
      nlohmann::json analyses = nlohmann::json::array();
      for (const auto& p : o.points)
        analyses.push_back(analysis_to_json(p, diagnose(p, m->roofs), m->roofs));
      j["analysis"] = analyses;
    }
    emit(j.dump(2) + "\n", a.output);
  } else {
    std::string t;
    t += "profile of " + (a.replay.empty() ? a.command.front() : a.replay) + "\n";
    t += "  exit status " + std::to_string(r.exit_status) +
         (r.term_signal ? " (signal " + std::to_string(r.term_signal) + ")" : "") +
         ", T = " + format_seconds(Seconds(r.wall_seconds)) + " (wall clock)";
    if (r.totals.cpu_seconds > 0)
      t += ", CPU time " + format_seconds(Seconds(r.totals.cpu_seconds)) + " (" +
           format_number(r.totals.cpu_seconds / std::max(r.wall_seconds, 1e-12), 3) +
           " cores busy)";
    t += "\n";
    if (!r.plan.cpu_description.empty()) t += "  CPU: " + r.plan.cpu_description + "\n";
    if (r.totals.flops_counted) {
      t += "  counted W = " + format_work(Work(r.totals.flops));
      std::string parts;
      for (const auto& [prec, f] : r.totals.flops_by_precision)
        parts += (parts.empty() ? "" : ", ") + prec + " " + format_work(Work(f));
      t += " (" + parts + ")\n";
    }
    for (const auto& [lvl, b] : r.totals.bytes_by_level)
      t += "  counted Q(" + lvl + ") = " + format_bytes(Bytes(b)) + "\n";
    if (r.totals.min_running_fraction < 1)
      t += "  counters were multiplexed (lowest running share " +
           format_number(r.totals.min_running_fraction * 100, 3) +
           "%): counts scaled by time enabled / time running\n";
    for (const auto& l : r.plan.limits) t += "  limit: " + l + "\n";
    for (const auto& msg : messages) t += "  " + msg + "\n";
    for (const auto& n : o.notes) t += "  note: " + n + "\n";
    for (const auto& p : o.points) {
      t += "\n";
      if (m)
        t += render_point_analysis(p, diagnose(p, m->roofs), m->roofs,
                                   a.output.empty() && color_stdout());
      else
        t += render_point_brief(p);
    }
    emit(t, a.output);
  }
  if (r.exit_status != 0) {
    std::fflush(stdout);
    std::exit(r.exit_status);
  }
}

const Registrar reg(60, [](CLI::App& root) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* c = root.add_subcommand(
      "profile",
      "Run a program (no shell) and place its point: W and Q from hardware counters (or "
      "--work/--traffic, or marker regions), T from the clock");
  c->add_option("--events", args->events,
                "auto: hardware counters where the machine has them; none: software events only")
      ->capture_default_str();
  c->add_option("--name", args->name, "Label of the whole-program point (default: program name)");
  c->add_option("--work,-W", args->work, "W of the whole program when counters cannot count it");
  c->add_option("--traffic,-Q", args->traffic, "Q of the whole program in bytes (DRAM)");
  c->add_option("--save-counters", args->save_counters, "Write the raw counter readings (JSON)");
  c->add_option("--replay", args->replay, "Compute from saved counter readings instead of running");
  c->add_option("--sysfs", args->sysfs,
                "Where the PMUs are described (sysfs event_source devices; for containers/tests)")
      ->capture_default_str();
  add_machine_options(*c, args->machine);
  c->add_flag("--json", args->json, "Points document (with the run's counts) as JSON");
  c->add_option("-o,--output", args->output, "Write the output to a file (atomically)");
  c->add_option("command", args->command, "-- PROGRAM ARGS...: the program to run")->expected(-1);
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
