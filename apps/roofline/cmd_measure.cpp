// roofline measure: measure this machine's roofs → machine JSON (written atomically) + summary.
#include <sys/ioctl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "commands.hpp"
#include "roofline/engine.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/measure.hpp"
#include "roofline/report.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct MeasureArgs {
  std::string output = "machine.json";
  bool quick = false;
  int threads = 0;
  std::vector<std::string> precisions;
  std::vector<std::string> levels;
  bool json = false;
  bool no_curve = false;
  bool no_single = false;
  bool no_progress = false;
  std::string device = "cpu";
  bool mpi = false;
  std::string report;              // --report FILE: the chart/report of the measured roofs
  std::optional<int> cuda_device;  ///< given only with --device cuda
};

void check_output_path(const std::string& path) {
  if (path != "-") check_writable_path(path, "-o");
}

/// The columns of the terminal on stderr, else $COLUMNS, else 80.
size_t stderr_columns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* env = std::getenv("COLUMNS"))
    if (const auto cols = decimal_number(env); cols && *cols >= 1 && *cols <= 10000)
      return static_cast<size_t>(*cols);
  return 80;
}

/// The progress line on stderr when it is a terminal: fits its width, and takes no escape
/// sequence under TERM=dumb (ProgressLine).
class ProgressBar {
 public:
  explicit ProgressBar(bool on) : on_(on), line_(style()) {}
  void update(double f, const std::string& what) {
    if (!on_) return;
    if (const std::string text = line_.update(f, what); !text.empty()) {
      std::fputs(text.c_str(), stderr);
      std::fflush(stderr);
    }
  }
  void clear() {
    if (on_) std::fputs(line_.clear().c_str(), stderr);
  }

 private:
  static ProgressStyle style() {
    const char* term = std::getenv("TERM");
    return {stderr_columns(), !(term && std::strcmp(term, "dumb") == 0)};
  }
  bool on_;
  ProgressLine line_;
};

void run(const MeasureArgs& a) {
  if (!a.report.empty() && a.mpi)
    throw InputError(
        "--report goes with a single machine; under --mpi use `roofline plot "
        "cluster.json -o report.html` on the cluster document");
  if (!a.report.empty() && a.output == "-")
    throw InputError("--report needs the machine document in a file: give -o FILE, not -o -");
  if (a.cuda_device && a.device != "cuda")
    throw InputError("--cuda-device " + std::to_string(*a.cuda_device) +
                     " picks a GPU for --device cuda; this run measures " + a.device +
                     " (add --device cuda, or drop --cuda-device)");
  if (a.mpi) {
    // One rank per node under mpirun: the cluster roofline (docs/cluster.md).
    if (a.device != "cpu") throw InputError("--mpi measures CPU nodes; drop --device " + a.device);
    // Each node is measured whole, as `roofline cluster` measures it: a selection would be
    // ignored (it was, without a word).
    for (const auto& [given, flag] :
         std::vector<std::pair<bool, const char*>>{{a.threads != 0, "--threads"},
                                                   {!a.precisions.empty(), "--precisions"},
                                                   {!a.levels.empty(), "--levels"},
                                                   {a.no_curve, "--no-curve"},
                                                   {a.no_single, "--no-single-core"}})
      if (given)
        throw InputError(std::string(flag) +
                         " does not apply under --mpi: every node is measured whole "
                         "(docs/cluster.md); drop it, or measure one machine without --mpi");
    if (a.output != "-") check_output_path(a.output);
    return run_cluster_measurement(a.quick, a.output, a.json);
  }
  check_output_path(a.output);
  // Refuse a report we could not write before spending the measurement time.
  if (!a.report.empty()) check_report_path(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}});
  MeasureOptions o;
  o.device = a.device;
  o.device_index = a.cuda_device.value_or(0);
  o.quick = a.quick;
  o.threads = a.threads;
  o.precisions = a.precisions;
  o.levels = a.levels;
  o.curve = !a.no_curve;
  o.single_core = !a.no_single;
  ProgressBar bar(!a.no_progress && ::isatty(STDERR_FILENO));
  o.progress = [&bar](double f, const std::string& what) { bar.update(f, what); };

  // Held to the end: a signal during the writes below is acted on once they are complete.
  InterruptGuard guard;
  o.cancel = guard.flag();
  MachineDocument m;
  try {
    // The engine picks the backend (engine::backends()); a missing device is Unavailable with
    // the reason (exit 3).
    m = engine::measure(o);
  } catch (const Interrupted&) {
    bar.clear();
    guard.exit_interrupted({a.output, a.report});
  } catch (...) {
    bar.clear();
    throw;
  }
  bar.clear();
  if (guard.interrupted()) guard.exit_interrupted({a.output, a.report});

  const std::string text = json_text(machine_to_json(m)) + "\n";
  if (a.output == "-") {
    emit(text);
    if (!a.json) say(render_measure_summary(m, false));
    return;
  }
  emit(text, a.output);
  if (!a.report.empty()) {
    ReportInput in;
    in.title = "Roofline of " + m.roofs.name;
    in.machines.push_back(m);
    in.no_overlap_curve = true;
    write_report_after(a.report, in, {a.output}, "roofline plot " + a.output + " -o " + a.report);
  }
  if (guard.interrupted()) guard.exit_completed({a.output, a.report});
  if (a.json) {
    emit(text);
    say("machine document: " + a.output + "\n");  // written too, not only printed
  } else {
    emit(render_measure_summary(m, color_stdout()) + "machine document: " + a.output + "\n");
  }
}

const Registrar register_measure(10, [](CLI::App& root) {
  auto args = std::make_shared<MeasureArgs>();
  CLI::App* c = root.add_subcommand(
      "measure",
      "Measure this machine's roofs (compute per precision and instruction class, bandwidth per "
      "memory level, the empirical curve) and write the machine document");
  c->add_option("-o,--output", args->output,
                "Machine document to write, atomically (default machine.json; - for stdout)");
  c->add_flag("--quick", args->quick,
              "Fewer sizes and repetitions: a quicker, less precise roofline");
  c->add_option("--threads", args->threads, "Threads, one pinned per core (default: every core)")
      ->transform(whole_in(1, 4096));
  // The lists are checked whole (an empty name between two commas is refused) and split by the
  // library.
  c->add_option("--precisions", args->precisions,
                "Precisions to measure, comma-separated (fp64,fp32,fp16,bf16,int16,int8)")
      ->check(named_list());
  c->add_option("--levels", args->levels,
                "Memory levels to report, comma-separated (L1,L2,L3,DRAM)")
      ->check(named_list());
  c->add_flag("--json", args->json, "Print the machine document instead of the summary");
  c->add_flag("--no-curve", args->no_curve, "Skip the empirical roofline curve");
  c->add_flag("--no-single-core", args->no_single, "Skip the one-core measurements");
  c->add_flag("--no-progress", args->no_progress, "No progress bar on the terminal");
  c->add_option(
      "--report", args->report,
      "Also write the report of the roofs (report.html, .svg, .png; format by extension)");
  c->add_flag("--mpi", args->mpi,
              "Under mpirun: measure every node at once and write the cluster document "
              "(same as `roofline cluster`)");
  std::vector<std::string> devices;
  for (const auto* b : engine::backends()) devices.push_back(b->name());
  c->add_option("--device", args->device, "What to measure: cpu (default) or cuda")
      ->check(CLI::IsMember(devices));
  c->add_option("--cuda-device", args->cuda_device, "CUDA device index for --device cuda")
      ->transform(whole_in(0, 4095));
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
