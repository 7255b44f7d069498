// roofline profile: run a program under counters (W, Q) and the clock (T), place its point (and
// one point per marker region), and exit with the program's own status.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "commands.hpp"
#include "profile_instrument.hpp"
#include "roofline/counters.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/suite.hpp"
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
  bool self_test = false;
  bool instrument = false;  ///< --instrument (profile_instrument.cpp)
  std::string sim_caches, simulate = "all", valgrind = "valgrind";
  std::string output;
  std::string report;  ///< --report FILE: the points on the roofs (needs --machine or --hw)
  std::vector<std::string> command;
};

// --- roofline profile --self-test ------------------------------------------------------------
// Built-in kernels whose W and Q are known by hand, run under the counters in this process; what
// each case should count (counters::self_test_case), the judging of the counts (self_test_rows)
// and the report are the probe layer's. The kernels come from the suite's public interface
// (make_workload), sized with its working_set_for.

// How the self-test sizes its runs: enough calls for about 2·10⁸ FLOP, and for the streaming
// kernel 10⁹ bytes at DRAM, so that start-up and other processes' DRAM traffic are small beside
// the counts; at most 10⁶ calls. DRAM cases run on up to 16 threads (each thread takes one set of
// counters: file descriptors) so that the DRAM-size gemm finishes in seconds.
constexpr double kSelfTestFlop = 2e8;
constexpr double kSelfTestDramBytes = 1e9;
constexpr double kSelfTestMostCalls = 1e6;
constexpr int kSelfTestMostThreads = 16;

SelfTestRun run_self_test_case(const std::string& kernel, const std::string& level,
                               const suite::Machine& machine, const EventPlan& plan,
                               const fs::path& sysfs) {
  SelfTestRun r;
  r.kernel = kernel;
  r.level = level;
  // L1 cases on one thread (L1 is per core).
  r.threads = level == "L1" ? 1 : std::clamp(machine.cores(), 1, kSelfTestMostThreads);
  std::unique_ptr<suite::Workload> w;
  try {
    suite::Context ctx;
    ctx.machine = machine;
    ctx.threads = r.threads;
    ctx.level = level;
    w = suite::make_workload(kernel, Bytes(suite::working_set_for(level, machine, r.threads)), ctx);
  } catch (const Error& e) {
    r.skipped = e.what();
    return r;
  }
  const double per_call = std::max(1.0, w->count.work.value);
  double calls = std::ceil(kSelfTestFlop / per_call);
  if (level == "DRAM" && kernel.rfind("axpy", 0) == 0)
    calls = std::max(calls, std::ceil(kSelfTestDramBytes / std::max(1.0, w->count.traffic.value)));
  calls = std::clamp(calls, 1.0, kSelfTestMostCalls);
  w->run_many(1);  // warm-up: pages touched, caches filled, the thread pool started
  // Every thread of this process counted: the kernel's threads exist after the warm-up.
  const ProcessCount counted = count_this_process(
      plan.events, [&] { w->run_many(static_cast<int>(calls)); }, sysfs);
  r.events = plan.events;
  r.readings = counted.readings;
  r.failures = counted.failures;
  r.counted_threads = counted.counted_threads;
  r.calls = calls;
  const std::string bad = w->check();
  r.check = bad.empty() ? "passed" : bad;
  const double n = w->params.count("n") ? w->params.at("n") : 0;
  r.rows =
      self_test_rows(self_test_case(kernel, level, n, w->precision, w->count.work.value, calls),
                     r.events, r.readings);
  return r;
}

void run_self_test(const ProfileArgs& a) {
  const PmuStatus pmu = probe_pmu(a.sysfs);
  const std::string no_core = explain_missing(pmu);
  if (!no_core.empty()) {
    // Nothing to check without counters: say so plainly and exit "unavailable" (3).
    emit(a.json ? self_test_no_pmu_json_text(no_core) : render_self_test_no_pmu_text(no_core),
         a.output);
    std::fflush(stdout);
    throw Unavailable("no PMU: the self-test needs hardware counters");
  }
  const CpuIdentity cpu = this_cpu();
  EventPlan plan = core_event_plan(cpu, pmu.core_pmu);
  const std::string no_uncore = explain_uncore_missing(pmu);
  if (no_uncore.empty())
    add_dram_events(plan, cpu, a.sysfs);
  else
    plan.missing.push_back(no_uncore);
  const suite::Machine machine = suite::detect_machine();
  const std::pair<const char*, const char*> cases[] = {
      {"axpy-fp64", "L1"}, {"axpy-fp64", "DRAM"}, {"gemm-tiled", "L1"}, {"gemm-tiled", "DRAM"}};
  std::vector<SelfTestRun> runs;
  for (const auto& [k, l] : cases) runs.push_back(run_self_test_case(k, l, machine, plan, a.sysfs));
  emit(a.json ? self_test_json_text(runs, plan) : render_self_test_text(runs, plan), a.output);
  if (!self_test_verdict(runs).passed()) {
    std::fflush(stdout);
    std::exit(kExitResultCheckFailed);
  }
}

/// An output that is the program being profiled would replace it: refused before it runs, as an
/// output that is an input of any command is.
void refuse_output_onto_program(const ProfileArgs& a,
                                const std::vector<std::pair<std::string, std::string>>& outputs) {
  const std::filesystem::path program = a.command.empty() ? "" : find_program(a.command.front());
  if (program.empty()) return;
  for (const auto& [flag, path] : outputs)
    if (!path.empty() && path != "-" && same_output(program, path))
      throw InputError(flag + " " + terminal_safe(path) + ": is the program being profiled (" +
                       terminal_safe(program.string()) +
                       "); refusing to replace it: write the output elsewhere");
}

/// The program writes to standard output (where it goes is not changed): a JSON document there
/// too would not be JSON (docs/architecture.md: two outputs never share standard output).
void refuse_json_beside_program(const ProfileArgs& a) {
  const bool to_stdout = a.output.empty() || a.output == "-";
  if (a.json && to_stdout)
    throw InputError(std::string(a.output.empty() ? "--json" : "--json -o -") +
                     ": the program's own output goes to standard output too, so the JSON "
                     "there would not be JSON: write it to a file with -o FILE");
  if (a.save_counters == "-")
    throw InputError(
        "--save-counters -: the program's own output goes to standard output too, so the "
        "recording there would not be JSON: give a file name");
}

void run_instrument_mode(const ProfileArgs& a) {
  if (!a.replay.empty() || !a.work.empty() || !a.traffic.empty() || !a.save_counters.empty())
    throw InputError(
        "--instrument counts W and simulates Q itself: give no --replay, "
        "--work, --traffic or --save-counters");
  if (a.events != "auto" && a.events != "none")
    throw InputError("--events: expected auto or none (got '" + a.events + "')");
  check_report_option(a.report, a.machine);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, {a.machine.machine});
  refuse_output_onto_program(a, {{"-o", a.output}, {"--report", a.report}});
  refuse_json_beside_program(a);  // the native run's output goes to standard output
  // A --valgrind given is the user's path: one that runs nothing is bad input, not a missing
  // tool to install (the default, `valgrind` not installed, is said as unavailable).
  if (a.valgrind != "valgrind" && a.simulate != "none") {
    const fs::path v = find_program(a.valgrind);
    std::error_code ec;
    if (v.empty() || ::access(v.c_str(), X_OK) != 0 || fs::is_directory(v, ec))
      throw InputError("--valgrind " + terminal_safe(a.valgrind) + ": " +
                       (a.valgrind.find('/') != std::string::npos ? "no executable file there"
                                                                  : "no such program on PATH"));
  }
  InstrumentArgs ia;
  ia.machine = a.machine;
  ia.name = a.name;
  ia.sim_caches = a.sim_caches;
  ia.simulate = a.simulate;
  ia.valgrind = a.valgrind;
  ia.hardware = a.events == "auto";
  ia.sysfs = a.sysfs;
  ia.json = a.json;
  ia.output = a.output;
  ia.report = a.report;
  ia.command = a.command;
  run_profile_instrument(ia);
}

/// The counts: replayed from --replay, or from running the program under the counters (its
/// marker regions into `regions`). Names the point after the
/// recording or the program when --name is not given (run() writes --save-counters once the
/// points are checked). A program that cannot be started exits
/// with its code (127 not found, 126 otherwise).
RunResult counted_run(ProfileArgs& a, std::vector<RegionResult>& regions,
                      std::vector<std::string>& marker_notes) {
  RunResult r;
  if (!a.replay.empty()) {
    if (!a.command.empty()) throw InputError("give either --replay FILE or a program, not both");
    r = recording_from_json(read_text_file(a.replay), a.replay);
    r.pmu.core_pmu = "cpu";
    r.pmu.core_pmu_usable = true;
    r.pmu.software_events = true;
    if (a.name.empty()) a.name = fs::path(a.replay).stem().string();
    return r;
  }
  if (a.command.empty())
    throw InputError("no program given: roofline profile [options] -- PROGRAM ARGS...");
  if (a.name.empty()) {
    a.name = fs::path(a.command.front()).filename().string();
    require_one_line(a.name, "the point's name (the program's file name; give --name)");
  }
  ScopedTempDir dir("roofline-markers-");
  RunOptions opt;
  opt.hardware = a.events == "auto";
  opt.marker_dir = dir.path;
  opt.sysfs_root = a.sysfs;
  try {
    r = run_counted(a.command, opt);
  } catch (const ExecError& e) {
    say(std::string("roofline: error: ") + e.what() + "\n");
    std::fflush(stdout);
    std::error_code ec;
    fs::remove_all(dir.path, ec);  // std::exit skips the destructor
    std::exit(e.code());
  }
  if (r.interrupted_by != 0) return r;  // nothing read or written; the folder goes at return
  regions = read_marker_results(dir.path, &marker_notes, Seconds(r.wall_seconds));
  return r;
}

/// What the user declared, checked before the program runs: a W or Q that no point could hold
/// (≤ 0, as `point` refuses; below a double's normal range, so W/T or W/Q underflows to 0), or
/// a W/Q that is no number (1G / 1e-320 is inf), would otherwise be found only after a run of
/// any length. P = W/T is checked with the point, once T is known (counted_points).
PointInputs declared_inputs(const ProfileArgs& a) {
  PointInputs in;
  const auto normal = [](double v, const std::string& text, const char* flag) {
    if (!(v > 0)) throw InputError(std::string(flag) + ": must be > 0 (got '" + text + "')");
    if (!std::isnormal(v))
      throw InputError(std::string(flag) + ": " + terminal_safe(text) +
                       " is too small for a double (below 2.2e-308: its ratios underflow)");
  };
  if (!a.work.empty()) {
    in.work = parse<Work>(a.work, "--work");
    in.work_unit = work_unit_named(a.work, Dimension::work, "--work");
    normal(in.work->value, a.work, "--work");
  }
  if (!a.traffic.empty()) {
    in.traffic = parse<Bytes>(a.traffic, "--traffic");
    normal(in.traffic->value, a.traffic, "--traffic");
  }
  if (in.work && in.traffic) {
    const double i = in.work->value / in.traffic->value;
    if (!std::isfinite(i) || !std::isnormal(i))
      throw InputError("--work " + terminal_safe(a.work) + " / --traffic " +
                       terminal_safe(a.traffic) + ": I = W/Q is " +
                       (std::isfinite(i) ? "too small for a double (underflow)"
                                         : "too large for a double (overflow)") +
                       "; give W and Q in a range where their ratio is a number");
  }
  in.level = a.machine.level;
  in.precision = a.machine.precision;
  return in;
}

/// roofline profile itself got SIGINT, SIGTERM or SIGHUP while the program ran: the signal was
/// passed on to the program and it has ended; nothing is written (the marker folder is gone
/// with counted_run) and the exit status is 128 + the signal number, as `measure`'s.
[[noreturn]] void exit_interrupted(const ProfileArgs& a, const RunResult& r) {
  say(render_profile_interrupted(signal_name(r.interrupted_by), r.exit_status,
                                 r.term_signal ? signal_name(r.term_signal) : std::string(),
                                 {a.output, a.save_counters, a.report}));
  std::fflush(stdout);
  std::exit(128 + r.interrupted_by);
}

void run(ProfileArgs& a) {
  // The name is printed inside sentences and written to every output: one line, as `point`.
  require_one_line(a.name, "--name");
  if (a.self_test) {
    if (!a.command.empty() || !a.replay.empty())
      throw InputError("--self-test runs its own kernels: give no program and no --replay");
    run_self_test(a);
    return;
  }
  if (a.instrument) {
    run_instrument_mode(a);
    return;
  }
  if (a.events != "auto" && a.events != "none")
    throw InputError("--events: expected auto or none (got '" + a.events + "')");
  check_report_option(a.report, a.machine);
  check_outputs({{"-o", a.output}, {"--save-counters", a.save_counters}, {"--report", a.report}},
                {a.machine.machine, a.replay});
  refuse_output_onto_program(
      a, {{"-o", a.output}, {"--save-counters", a.save_counters}, {"--report", a.report}});
  if (a.replay.empty()) refuse_json_beside_program(a);
  if (!a.replay.empty() && !a.save_counters.empty())
    throw InputError(
        "--save-counters writes the readings of a program run under the counters; "
        "with --replay they are the replayed file already: give one of the two");
  PointInputs in = declared_inputs(a);
  std::optional<MachineDocument> m;
  if (has_machine(a.machine)) m = load_machine(a.machine);
  // The level --traffic is at and the compute roof --precision picks are ones the roofs have,
  // checked before the program runs (as `point` checks them), not found missing after.
  if (m && in.traffic && !in.level.empty()) m->roofs.select_memory(in.level);
  if (m && !in.precision.empty()) m->roofs.select_compute(in.precision);
  std::vector<RegionResult> regions;
  std::vector<std::string> marker_notes;
  const RunResult r = counted_run(a, regions, marker_notes);
  if (r.interrupted_by != 0) exit_interrupted(a, r);
  if (r.term_signal != 0) exit_killed(r.term_signal, r.exit_status, r.wall_seconds, a.output);

  in.name = a.name;
  CountedPoints o = counted_points(r, regions, in, m ? &m->roofs : nullptr);
  o.notes.insert(o.notes.begin(), marker_notes.begin(), marker_notes.end());
  const std::vector<std::string> messages =
      run_messages(r, a.events == "auto", !a.replay.empty(), in.work && in.traffic);

  if (!a.save_counters.empty() && a.replay.empty())
    emit(recording_to_json(r, this_cpu()), a.save_counters);
  if (m && !a.report.empty()) write_profile_report(a.report, a.name, *m, o.judged, o.left_out);
  if (a.json)
    emit(profile_json_text(a.command, r, o, messages, m ? &m->roofs : nullptr), a.output);
  else
    emit(render_profile_head(a.replay.empty() ? a.command.front() : a.replay, r, o, messages) +
             render_points_text(o.judged, m ? &m->roofs : nullptr,
                                a.output.empty() && color_stdout()),
         a.output);
  if (r.exit_status != 0) {
    std::fflush(stdout);
    std::exit(r.exit_status);
  }
}

const Registrar register_profile(60, [](CLI::App& root) {
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
  c->add_flag("--self-test", args->self_test,
              "Run built-in kernels whose W and Q are known (axpy, gemm at L1 and DRAM sizes) "
              "under the counters and report counted/expected; exit 3 when there is no PMU");
  c->add_flag("--instrument", args->instrument,
              "No hardware counters needed: W counted by instrumentation (a program built with "
              "the flopcount plugin), Q by cache simulation (Valgrind's callgrind with this "
              "machine's caches), T from a native run; per-function and per-region points");
  c->add_option("--sim-caches", args->sim_caches,
                "--instrument: cache geometry to simulate instead of this machine's, e.g. "
                "L1=32K/8,L2=1M/8,L3=32M/16 (SIZE/WAYS[/LINE])");
  c->add_option("--simulate", args->simulate,
                "--instrument: all (one simulation per level: Q(L2), Q(L3), Q(DRAM)), last (L1 "
                "and the last level only: Q(L2), Q(DRAM)), none")
      ->capture_default_str();
  c->add_option("--valgrind", args->valgrind, "--instrument: the valgrind executable")
      ->capture_default_str();
  json_by_extension(c->add_option("-o,--output", args->output,
                                  "Write the output to a file (atomically; a name ending .json "
                                  "gets the --json form)"),
                    args->json);
  c->add_option("--report", args->report,
                "Also write the points on the roofs (needs --machine or --hw): .svg .html .png "
                ".json .csv (by extension); --instrument's functions are dots sized by their "
                "share of the time");
  c->add_option("command", args->command, "-- PROGRAM ARGS...: the program to run")->expected(-1);
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
