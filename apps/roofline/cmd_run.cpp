// roofline run: execute the built-in kernel suite on this machine and place each run as a point
// on the measured roofs — W and Q from the catalogue, T measured, every result checked.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/measure.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/suite.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct RunArgs {
  std::vector<std::string> kernels;
  std::string machine;
  bool json = false;
  std::string output;
  std::string report;        // --report FILE: the chart of the points (format by extension)
  std::string save_machine;  // --save-machine FILE: the roofs measured for this run
  bool quick = false;
  int threads = 0;
  std::string levels;
  std::string size;
  std::string blas_core;
  bool no_blas_child = false;
  bool results_only = false;  // internal: the child run under another OPENBLAS_CORETYPE
  double touching = DiagnosisOptions{}.touching;
};

/// The roofs the points are placed on when no --machine is given: a quick measurement of this
/// machine (`roofline measure --quick`, no curve, the run's threads), so every point sits on
/// roofs measured the same way; a Ctrl-C stops it.
MeasureOptions run_measure_options(int threads, const std::atomic<bool>* cancel) {
  MeasureOptions o;
  o.quick = true;
  o.threads = threads;
  o.curve = false;
  o.cancel = cancel;
  return o;
}

MachineDocument machine_for_run(const MeasureOptions& o) {
  std::fprintf(stderr, "roofline run: no --machine given, measuring this machine (--quick)...\n");
  return measure_machine(o);
}

// Runs the BLAS kernels again in a child process of ourselves with OPENBLAS_CORETYPE=core: the
// variable is read once, when the library initialises, so it cannot change in this process.
std::vector<suite::RunResult> run_blas_child(const RunArgs& a,
                                             const std::vector<std::string>& kernels, int threads,
                                             const std::string& core) {
  std::vector<std::string> args{"run"};
  args.insert(args.end(), kernels.begin(), kernels.end());
  args.insert(args.end(), {"--results-only", "--threads", std::to_string(threads)});
  if (!a.levels.empty()) args.insert(args.end(), {"--levels", a.levels});
  if (!a.size.empty()) args.insert(args.end(), {"--size", a.size});
  if (!a.machine.empty()) args.insert(args.end(), {"--machine", a.machine});  // caches fitted
  if (a.quick) args.push_back("--quick");
  say("running " + (kernels.size() == 1 ? kernels[0] : std::string("the BLAS kernels")) +
      " again with OPENBLAS_CORETYPE=" + core + " (child process)\n");
  const suite::ChildOutput out =
      suite::run_child("/proc/self/exe", args, {{"OPENBLAS_CORETYPE", core}});
  const std::string origin = "the child run with OPENBLAS_CORETYPE=" + core;
  RunResultsDocument child;
  try {
    child = run_results_from_json(parse_json(out.out, origin), origin);
  } catch (const InputError& e) {
    // A child that failed wrote no document (or half of one): its exit status says more.
    if (out.exit_code != 0)
      throw Error(origin + " failed (exit " + std::to_string(out.exit_code) + ")");
    throw Error(e.what());  // its own document, malformed: the message names the field
  }
  const std::string& corename = child.blas_corename;
  // OpenBLAS runs another core than the one named when it does not know the name, or maps it to
  // another (a build without AVX-512 runs Haswell for SkylakeX): those runs would be labelled
  // and judged as a core that never ran. A name the user gave is refused; the core this run
  // chose itself (a generic build's best) gives no points, and a note says why.
  if (lower(corename) != lower(core)) {
    if (!a.blas_core.empty())
      throw InputError("--blas-core " + core + ": OpenBLAS did not take it and ran " + corename +
                       " instead (a core name it does not know, or one this build maps to "
                       "another; OpenBLAS's names are those of its DYNAMIC_ARCH list, e.g. "
                       "Prescott, Haswell, SkylakeX, Zen)");
    say("note: OpenBLAS ran " + corename + " for OPENBLAS_CORETYPE=" + core +
        ": the child's runs are left out (they would be judged as " + core + ")\n");
    return {};
  }
  for (suite::RunResult& r : child.results) {
    r.variant = "OPENBLAS_CORETYPE=" + core;
    r.note = "OpenBLAS core " + corename + " forced with OPENBLAS_CORETYPE=" + core;
  }
  return child.results;
}

/// What the user typed, checked before anything runs: the kernels, the levels, the size.
struct CheckedRun {
  std::vector<std::string> kernels, levels;
  double size = 0;  ///< bytes; 0 = the level sizes
};

CheckedRun check_run_args(const RunArgs& a, const suite::Machine& machine) {
  if (!a.report.empty()) check_report_path(a.report);
  // The roofs a run measures are kept only where asked: a points document names its machine
  // ("vm"), which nothing can load again without them.
  if (!a.save_machine.empty() && !a.machine.empty())
    throw InputError("--save-machine: the roofs come from --machine " + a.machine +
                     " here, not from a measurement of this run");
  check_outputs({{"-o", a.output}, {"--report", a.report}, {"--save-machine", a.save_machine}},
                {a.machine});
  CheckedRun c;
  c.kernels = suite::resolve_kernels(a.kernels);
  // More threads than CPUs would pin two to one CPU and time them sharing it.
  const int allowed = std::max<int>(1, static_cast<int>(machine.topology.allowed_cpus.size()));
  if (a.threads > allowed)
    throw InputError("--threads: must be between 1 and " + std::to_string(allowed) +
                     " (the CPUs this process may use), got " + std::to_string(a.threads));
  if (!a.levels.empty()) {
    c.levels = parse_memory_levels({a.levels}, "--levels");
    for (const auto& l : c.levels)
      if (std::find(suite::all_levels().begin(), suite::all_levels().end(), l) ==
          suite::all_levels().end())
        throw InputError(
            "--levels: the kernel suite places working sets in L1, L2, L3 or DRAM, "
            "not " +
            l);
  }
  if (!a.size.empty()) {
    c.size = parse_memory_size(a.size, "--size").value;
    if (!(c.size > 0)) throw InputError("--size must be > 0 (got " + a.size + ")");
    if (machine.mem_available_bytes > 0 && c.size > machine.mem_available_bytes / 2)
      throw InputError("--size " + a.size + " is more than half of MemAvailable (" +
                       format_bytes(Bytes(machine.mem_available_bytes)) + ")");
  }
  for (char ch : a.blas_core)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_')
      throw InputError("--blas-core: '" + a.blas_core +
                       "' is not an OpenBLAS core name (e.g. "
                       "Prescott, Sandybridge, Haswell, Zen, SkylakeX)");
  return c;
}

/// --results-only: every run's record as JSON, no placement; exits 6 (kExitResultCheckFailed) when
/// a result check failed.
void emit_results_only(const suite::RunOptions& opt, const suite::Machine& machine,
                       const suite::BlasInfo& blas) {
  RunResultsDocument out{blas.corename, blas.config, suite::run_suite(opt, machine)};
  emit(json_text(run_results_to_json(out), -1) + "\n");
  for (const auto& r : out.results)
    if (!r.passed) std::exit(kExitResultCheckFailed);
}

/// The threads and caches the suite will run with, on stderr.
void say_run_machine(const suite::Machine& machine, int threads) {
  std::string said = "roofline run: " + std::to_string(threads) + " pinned thread" +
                     (threads > 1 ? "s" : "") + ", caches:";
  for (const auto& c : machine.topology.caches)
    said += " L" + std::to_string(c.level) + " " + format_bytes(Bytes(c.size_bytes)) +
            (c.cores_sharing > 1 ? " per " + std::to_string(c.cores_sharing) + " cores" : "/core");
  say(said + ", MemAvailable " + format_bytes(Bytes(machine.mem_available_bytes)) + "\n");
  for (const auto& c : machine.topology.caches)
    if (!c.note.empty())
      say("roofline run: note: L" + std::to_string(c.level) + ": " + c.note + "\n");
}

/// The suite's runs, then the BLAS kernels again in a child on another OpenBLAS core where one
/// is asked for or the detected core is generic (an unrecognised CPU gets narrow kernels, a
/// lower flat roof). An interrupt exits here, between runs.
std::vector<suite::RunResult> run_all_kernels(const RunArgs& a, const suite::RunOptions& opt,
                                              const suite::Machine& machine,
                                              const suite::BlasInfo& blas,
                                              const std::vector<std::string>& blas_names,
                                              InterruptGuard& guard) {
  std::vector<suite::RunResult> results;
  try {
    results = suite::run_suite(opt, machine);
  } catch (const Interrupted&) {
    guard.exit_interrupted({a.output, a.save_machine, a.report});
  }
  std::string extra_core = a.blas_core;
  if (extra_core.empty() && blas.generic && !a.no_blas_child &&
      !blas.environment.count("OPENBLAS_CORETYPE"))
    extra_core = blas.best_core;
  if (!blas_names.empty() && !extra_core.empty()) {
    if (!blas.available) throw Unavailable("OpenBLAS is not available: --blas-core cannot apply");
    std::vector<suite::RunResult> more;
    try {
      more = run_blas_child(a, blas_names, opt.threads, extra_core);
    } catch (const Error&) {
      if (guard.interrupted())
        guard.exit_interrupted({a.output, a.save_machine, a.report});  // the child was stopped too
      throw;
    }
    results.insert(results.end(), more.begin(), more.end());
  }
  if (guard.interrupted()) guard.exit_interrupted({a.output, a.save_machine, a.report});
  return results;
}

/// Runs whose result check failed make their timings invalid: named on stderr, exit status 6.
void exit_on_failed_checks(const std::vector<suite::RunResult>& results) {
  std::string failed;
  for (const auto& r : results)
    if (!r.passed) failed += "\n  " + r.kernel + " @" + r.level + ": " + r.check;
  if (!failed.empty()) {
    std::fflush(stdout);
    say("roofline: result check failed — these timings are not valid:" + failed + "\n");
    std::exit(kExitResultCheckFailed);
  }
}

/// --machine, read before the suite runs: an output onto it is refused now, not after; its
/// caches size the suite's where their plateaus ended short; other threads than its are said.
MachineDocument read_given_machine(const RunArgs& a, int threads, suite::Machine& machine) {
  MachineDocument given = resolve_machine(a.machine);
  check_outputs({{"-o", a.output}, {"--report", a.report}});
  const MachineFacts facts = machine_facts(given);
  suite::fit_caches_to_plateaus(machine, facts);
  // Roofs measured on more threads than the run's are a whole machine's: the kernels, on a
  // share of it, read a fraction of them (1 thread of 2: attainment 0.5 at best), unsaid.
  if (!a.results_only && facts.threads && *facts.threads != threads) {
    const std::string measured =
        std::to_string(*facts.threads) + " thread" + (*facts.threads == 1 ? "" : "s");
    say("roofline run: warning: " + a.machine + "'s roofs were measured on " + measured +
        ", this run uses " + std::to_string(threads) +
        ": each point is judged against the roofs of " + measured + " (give --threads " +
        std::to_string(*facts.threads) + " to match them)\n");
  }
  return given;
}

void run(const RunArgs& a) {
  suite::Machine machine = suite::detect_machine();
  const CheckedRun checked = check_run_args(a, machine);
  const auto& kernels = checked.kernels;
  const int threads = a.threads > 0 ? a.threads : machine.cores();
  // OpenBLAS is opened only by a run of a BLAS kernel: any other run leaves it unloaded (its
  // pool would start for nothing, and hang at exit under `ulimit -v`).
  suite::BlasInfo no_blas;
  no_blas.why_not = "no BLAS kernel asked for";
  const suite::BlasInfo blas = suite::blas_kernels(kernels).empty() ? no_blas : suite::blas_info();

  // Held to the end: SIGINT/SIGTERM stop between runs, or wait for a write to complete.
  InterruptGuard guard;
  suite::RunOptions opt;
  opt.cancel = guard.flag();
  opt.kernels = kernels;
  opt.levels = checked.levels;
  opt.threads = threads;
  opt.quick = a.quick;
  opt.working_set_override = checked.size;
  opt.progress = [](const std::string& what) { say("  " + what + "\n"); };
  // A machine given is read first (a bad one is refused at once); a cache whose measured
  // plateau ends far short of its reported size is sized by it (the machine line below says
  // so), also in the BLAS child, which is given the same document.
  std::optional<MachineDocument> given;
  if (!a.machine.empty()) given = read_given_machine(a, threads, machine);
  if (a.results_only) return emit_results_only(opt, machine, blas);

  // This machine is measured after the suite, so that a run the suite refuses (a --size too
  // small for a kernel) is refused before the seconds of measuring; a measurement that cannot
  // happen (no backend for this CPU) is refused before the suite all the same.
  const MeasureOptions measure_options = run_measure_options(threads, guard.flag());
  if (!given) check_measurable(measure_options);
  const auto blas_names = suite::blas_kernels(kernels);
  // It reruns the BLAS kernels: with none of them asked for it would do nothing, unsaid.
  if (!a.blas_core.empty() && blas_names.empty())
    throw InputError("--blas-core " + a.blas_core +
                     ": reruns the BLAS kernels (gemm-blas-fp64, gemm-blas-fp32), and none of "
                     "them is run here");
  say_run_machine(machine, threads);
  const std::vector<suite::RunResult> results =
      run_all_kernels(a, opt, machine, blas, blas_names, guard);
  std::optional<MachineDocument> measured;
  if (!given) {
    try {
      measured = machine_for_run(measure_options);
    } catch (const Interrupted&) {
      guard.exit_interrupted({a.output, a.save_machine, a.report});
    }
    if (guard.interrupted())
      guard.exit_interrupted({a.output, a.save_machine, a.report});  // nothing written yet
    const MachineFacts facts = machine_facts(*measured);
    // What `measure` would say of these roofs (other work, noisy roofs, no plateau): they judge
    // every point below, and were kept out of sight in the saved document alone.
    for (const auto& w : facts.warnings)
      say("warning: the roofs measured for this run: " + w + "\n");
    if (checked.size == 0)  // the level sizes, not the user's own --size
      for (const auto& line : suite::runs_beyond_plateaus(results, facts))
        say("warning: " + line + "\n");
  }
  const MachineDocument& m = given ? *given : *measured;

  const suite::Placement placement = suite::place_runs(results, m.roofs, machine, blas, a.touching);
  const nlohmann::json j = run_document_to_json(
      suite::run_document(placement, m.roofs.name, machine, blas, threads, a.quick));
  const std::string document_text = json_text(j) + "\n";
  if (!a.output.empty()) emit(document_text, a.output);
  // Runs of no arithmetic (copy) make no point: a document of them alone is said so.
  if (!a.output.empty() && placement.placed.empty() && !placement.bandwidth_only.empty())
    say("roofline run: note: " + a.output +
        " holds no point: every run did no arithmetic (W = 0), so each is a bandwidth "
        "(run.bandwidth_only) that plot, point and check list as not drawn, placed or judged\n");
  if (!a.save_machine.empty()) emit(json_text(machine_to_json(*measured)) + "\n", a.save_machine);
  if (!a.output.empty() && a.save_machine.empty() && !given)
    say("roofline run: note: the roofs measured for this run are not kept; --save-machine FILE "
        "keeps them, to draw " +
        a.output + " again (`roofline plot FILE " + a.output + "`)\n");
  if (!a.report.empty()) {
    write_report_after(a.report, run_report_input(placement, m), {a.output, a.save_machine},
                       a.output.empty() || (a.save_machine.empty() && !given)
                           ? ""
                           : "roofline plot " + (given ? a.machine : a.save_machine) + " " +
                                 a.output + " -o " + a.report);
  }

  if (guard.interrupted()) {  // during the writes: what was written is complete
    if (!a.output.empty() || !a.save_machine.empty() || !a.report.empty())
      guard.exit_completed({a.output, a.save_machine, a.report});
    guard.exit_interrupted("");
  }
  if (a.json) {
    emit(document_text);
  } else {
    emit(render_run_text(placement, m.roofs, threads, blas_names.empty() ? nullptr : &blas));
  }
  exit_on_failed_checks(results);
}

const Registrar register_run(40, [](CLI::App& root) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* c = root.add_subcommand(
      "run", "Run the built-in kernel suite and place each run on the measured roofs");
  c->add_option("kernels", args->kernels,
                "Kernels or groups (stream, axpy, gemm, blas, stencil); none = the whole suite");
  c->add_option("--machine", args->machine,
                "Machine document (from `roofline measure`) or catalogue name for the roofs");
  c->add_flag("--json", args->json, "Print the points document (JSON) instead of the table");
  c->add_option("-o,--output", args->output, "Write the points document to a file (atomically)");
  c->add_option("--report", args->report,
                "Write the chart/report of the points (tour.html, .svg, .png, .json, .csv)");
  c->add_option("--save-machine", args->save_machine,
                "Also write the machine document of the roofs this run measured (without "
                "--machine), to plot its points again");
  c->add_flag("--quick", args->quick, "Fewer, shorter repetitions");
  c->add_option("--threads", args->threads, "Threads (default: one per online CPU)")
      ->transform(whole_in(1, 4096));
  c->add_option("--levels", args->levels,
                "Where the working sets go: comma-separated L1,L2,L3,DRAM (default: per kernel)")
      ->check(named_list());
  c->add_option("--size", args->size,
                "Working-set size for every run instead of the level sizes, e.g. \"64 MiB\"");
  c->add_option("--blas-core", args->blas_core,
                "Also run the BLAS kernels with OPENBLAS_CORETYPE=NAME (e.g. Prescott, Haswell)");
  c->add_flag("--no-blas-child", args->no_blas_child,
              "Do not rerun the BLAS kernels with the best core when OpenBLAS picked a narrow one");
  c->add_option("--touching", args->touching,
                "Attainment at which a point counts as touching its roof (default 0.8)")
      ->check(number_in(0.01, 1.0));
  c->add_flag("--results-only", args->results_only, "Internal: raw results as JSON, no roofs")
      ->group("");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
