// roofline profile --instrument: points from any program on any machine, without hardware
// counters. W from the flopcount plugin's counted run, Q from callgrind with this machine's
// caches, T from a native run (per function by sampling, per region by the marker timers).
#include "profile_instrument.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/instrument.hpp"
#include "roofline/instrument_report.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;
using namespace roofline::instrument;

void check_report_option(const std::string& report, const MachineOptions& machine) {
  if (report.empty()) return;
  if (!has_machine(machine))
    throw InputError("--report " + report +
                     ": the chart needs roofs to place the points on: give --machine FILE or "
                     "--hw NAME");
  check_report_path(report);
}

void write_profile_report(const std::string& path, const std::string& name,
                          const MachineDocument& m, const std::vector<Point>& points,
                          const std::vector<PointLeftOut>& not_drawn) {
  ReportInput in;
  in.title = (name.empty() ? std::string("profile") : name) + " on " + m.roofs.name;
  in.machines.push_back(m);
  in.points = points;
  // One list gives the chart's line and the warnings: they name the same points.
  in.not_drawn = not_drawn;
  for (const auto& l : not_drawn)
    say("roofline: warning: " + terminal_safe(path) + ": not drawn: " + terminal_safe(l.detail) +
        "\n");
  write_report(path, in);
}

std::string signal_name(int sig) {
  // glibc's abbreviation ("ABRT", "PIPE"): every signal named, where a short list left SIGABRT
  // and SIGPIPE as "signal 6" and "signal 13".
  if (const char* abbrev = sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(sig);
}

void exit_killed(int sig, int exit_status, double wall_seconds, const std::string& output) {
  say("roofline profile: the program was killed by signal " + std::to_string(sig) + " (" +
      signal_name(sig) + ") after " + format_seconds(Seconds(wall_seconds)) +
      ": it did not finish its work, so no point is placed" +
      (output.empty() ? std::string() : " and " + terminal_safe(output) + " is left as it was") +
      "\n");
  std::fflush(stdout);
  std::exit(exit_status);
}

namespace {

/// The run's options from the flags; why the simulation cannot run goes to `messages`.
InstrumentOptions instrument_options(const InstrumentArgs& a, std::vector<std::string>& messages) {
  InstrumentOptions opt;
  if (a.simulate != "none") {
    try {
      opt.caches =
          a.sim_caches.empty() ? detect_simulator_caches() : parse_cache_spec(a.sim_caches);
      opt.valgrind = a.valgrind;
    } catch (const Unavailable& e) {
      messages.push_back(std::string("Q: ") + e.what());
      opt.valgrind.clear();
    }
  } else {
    opt.valgrind.clear();
  }
  opt.simulate_all_levels = a.simulate == "all";
  opt.hardware = a.hardware;
  opt.sysfs_root = a.sysfs;
  return opt;
}

}  // namespace

void run_profile_instrument(InstrumentArgs a) {
  if (a.command.empty())
    throw InputError(
        "no program given: roofline profile --instrument [options] -- PROGRAM ARGS...");
  if (a.simulate != "all" && a.simulate != "last" && a.simulate != "none")
    throw InputError("--simulate: expected all, last or none (got '" + a.simulate + "')");
  if (a.name.empty()) a.name = fs::path(a.command.front()).filename().string();
  std::optional<MachineDocument> m;
  if (has_machine(a.machine)) m = load_machine(a.machine);
  // A --precision the roofs have no compute roof for is refused before the program runs.
  if (m && !a.machine.precision.empty()) m->roofs.select_compute(a.machine.precision);

  std::vector<std::string> messages;
  InstrumentOptions opt = instrument_options(a, messages);
  ScopedTempDir work("roofline-instrument-");
  opt.work_dir = work.path;
  InstrumentedRun r;
  try {
    r = run_instrumented(a.command, opt);
  } catch (const counters::ExecError& e) {
    say(std::string("roofline: error: ") + e.what() + "\n");
    std::fflush(stdout);
    std::error_code ec;
    fs::remove_all(work.path, ec);  // std::exit skips the destructor
    std::exit(e.code());
  }
  if (r.interrupted_by != 0) {
    // Passed on to the program, which has ended; no later run was started. Nothing written.
    say("roofline: interrupted (" + signal_name(r.interrupted_by) +
        ") while the program ran; the signal was passed on to it; no point is placed and "
        "nothing written\n");
    std::fflush(stdout);
    std::error_code ec;
    fs::remove_all(work.path, ec);
    std::exit(128 + r.interrupted_by);
  }
  // Killed (a crash, a timeout): no point, and -o left as it was, as plain `profile` does.
  if (r.native.term_signal != 0)
    exit_killed(r.native.term_signal, r.native.exit_status, r.native.wall_seconds, a.output);
  run_messages(r, messages);
  std::vector<std::string> notes;
  const InstrumentedPoints ip =
      fitted_points(r, a.name, a.machine.precision, m ? &m->roofs : nullptr, notes);
  if (m && !a.report.empty()) write_profile_report(a.report, a.name, *m, ip.judged, ip.left_out);
  if (a.json)
    emit(json_text(run_to_json(a.command, r, ip, m, messages, notes)) + "\n", a.output);
  else
    emit(render_run(a.command, r, ip, messages, notes) +
             render_points_text(ip.judged, m ? &m->roofs : nullptr,
                                a.output.empty() && color_stdout()),
         a.output);
  if (r.native.exit_status != 0) {
    std::fflush(stdout);
    std::exit(r.native.exit_status);
  }
}

}  // namespace roofline::cli
