#include "commands.hpp"

#include "roofline/dtype.hpp"

#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/import.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {

ScopedTempDir::ScopedTempDir(const std::string& prefix) {
  std::string tmpl = (temp_directory() / (prefix + "XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw Error("cannot create a temporary directory");
  path = tmpl;
}

ScopedTempDir::~ScopedTempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::vector<std::pair<int, Setup>>& registry() {
  static std::vector<std::pair<int, Setup>> r;
  return r;
}

Registrar::Registrar(int order, Setup setup) {
  registry().emplace_back(order, std::move(setup));
}

CLI::Validator number_in(double lo, double hi, bool below_hi) {
  return CLI::Validator(
      [lo, hi, below_hi](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v)) return "not a number: " + terminal_safe(text);
        if (!std::isfinite(v) || v < lo || v > hi || (below_hi && v == hi))
          return "must be a number from " + format_number(lo) + (below_hi ? " to below " : " to ") +
                 format_number(hi) + " (got " + terminal_safe(text) + ")";
        return std::string();
      },
      "NUMBER in [" + format_number(lo) + ", " + format_number(hi) + (below_hi ? ")" : "]"));
}

CLI::Validator whole_in(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        // A number of any spelling that is whole ("1e3" too), as the llm flags read theirs.
        double d = 0;
        if (!CLI::detail::lexical_cast(text, d) || !std::isfinite(d) || d != std::floor(d))
          return "not a whole number: " + terminal_safe(text) + " (a whole number from " +
                 std::to_string(lo) + " to " + std::to_string(hi) + ")";
        if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
          return "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                 " (got " + terminal_safe(text) + ")";
        // The option's own conversion reads the integer spelling.
        text = std::to_string(static_cast<long long>(d));
        return std::string();
      },
      "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v)) return "not a number: " + terminal_safe(text);
        if (!std::isfinite(v) || !(v > 0))
          return "must be a finite number > 0 (got " + terminal_safe(text) + ")";
        return std::string();
      },
      "NUMBER > 0");
}

CLI::Validator named_list() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        for (std::size_t start = 0;;) {
          const std::size_t comma = text.find(',', start);
          const std::string item = text.substr(start, comma - start);
          if (item.find_first_not_of(" \t") == std::string::npos)
            return "an empty name in the list '" + terminal_safe(text) + "'";
          if (comma == std::string::npos) return std::string();
          start = comma + 1;
        }
      },
      "LIST");
}

void refuse_empty_values(CLI::App& app) {
  static const CLI::Validator no_empty_file(
      [](std::string& text) -> std::string {
        return text.empty() ? "an empty file name" : std::string();
      },
      "FILE");
  static const CLI::Validator no_empty_value(
      [](std::string& text) -> std::string {
        return text.empty() ? "an empty value (leave the option out for its default)"
                            : std::string();
      },
      "");
  // CLI11 reads "0x10" as 16 and "0x1p-1" as 0.5 (and 0b, 0o): a number option is decimal, as
  // every number given as text is (decimal_number, parse_quantity).
  // Blanks around a number are no part of it: " 0.7" was read and "0.7 " refused (the validators
  // below are transforms, so the number read is the one trimmed).
  static const CLI::Validator decimal_only(
      [](std::string& text) -> std::string {
        text = trim(text);
        return has_base_prefix(text) ? "not a decimal number: " + terminal_safe(text)
                                     : std::string();
      },
      "");
  // ... and an integer with a leading zero as octal ("--tp 010" is 8): refused as well.
  static const CLI::Validator decimal_integer(
      [](std::string& text) -> std::string {
        text = trim(text);
        const std::string& t = text;
        const std::size_t d = !t.empty() && (t[0] == '+' || t[0] == '-') ? 1 : 0;
        const bool octal = t.size() > d + 1 && t[d] == '0' &&
                           std::isdigit(static_cast<unsigned char>(t[d + 1])) != 0;
        return has_base_prefix(text) || octal ? "not a decimal number: " + terminal_safe(text)
                                              : std::string();
      },
      "");
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    if (type.find("INT") != std::string::npos)
      o->transform(decimal_integer);
    else if (type.find("FLOAT") != std::string::npos || type.find("NUMBER") != std::string::npos)
      o->transform(decimal_only);
    for (const char* name : {"--output", "--report", "--junit", "--save-counters"})
      if (o->check_lname(std::string(name).substr(2))) o->check(no_empty_file);
    // Every other text option (a dtype, a model, a list, a quantity, a title) has no meaning
    // empty: "" would read as "not given" or as a name no one meant (--wdtype "",
    // --attainment "", --title "" giving the default title).
    const bool file = o->check_lname("output") || o->check_lname("report") ||
                      o->check_lname("junit") || o->check_lname("save-counters");
    if (!file && !o->get_lnames().empty() && type.find("TEXT") != std::string::npos)
      o->check(no_empty_value);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    refuse_empty_values(*sub);
}

std::vector<std::string> given_options(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options())
    if (o->count() > 0 && !o->get_lnames().empty()) names.push_back("--" + o->get_lnames().front());
  return names;
}

std::vector<PointLeftOut> fit_points(std::vector<Point>& points, const RoofSet& roofs,
                                     const std::string& file, size_t first) {
  std::vector<Point> kept(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(first));
  FittedPoints fitted =
      fit_to_roofs({points.begin() + static_cast<std::ptrdiff_t>(first), points.end()}, roofs);
  // Before a later point is refused below, not lost with it.
  for (const auto& w : fitted.warnings) say("roofline: warning: " + file + ": " + w + "\n");
  // What judging a point refuses (a level named twice, W in OP against a FLOP/s roof) is said
  // naming the file, as any other fault of it.
  for (const Point& p : fitted.points) {
    try {
      (void)diagnose(p, roofs);  // its messages name the point
    } catch (const InputError& e) {
      throw InputError(file + ": " + e.what());
    }
  }
  if (fitted.points.empty() && points.size() > first)
    throw InputError(file + ": " + none_judged(points.size() - first, roofs.name));
  kept.insert(kept.end(), std::make_move_iterator(fitted.points.begin()),
              std::make_move_iterator(fitted.points.end()));
  points = std::move(kept);
  return std::move(fitted.left_out);
}

void check_text_output(const std::string& path, const TextOutput& o) {
  if (path.empty() || path == "-") return;
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  const std::string shown = terminal_safe(path);
  if (ext == ".svg" || ext == ".html" || ext == ".htm" || ext == ".png")
    throw InputError("-o " + shown + ": -o writes the " +
                     (o.has_csv ? "text, --json or --csv" : "text or --json") +
                     " output, not a chart; " +
                     (o.has_report ? "for the " + ext.substr(1) + " report give --report " + shown
                                   : std::string("give another name (charts: roofline plot)")));
  // A name ending .json asks for JSON (json_by_extension); one ending .csv would hold the text
  // report unless --csv is given.
  if (ext == ".csv" && !o.csv_given)
    throw InputError("-o " + shown +
                     (o.has_csv ? ": a .csv file takes the --csv output (" + o.csv_what +
                                      "); give --csv, or another name for the text report"
                                : std::string(": a .csv file would hold the text report (this "
                                              "command writes no CSV); give another name")));
}

void add_output_options(CLI::App& app, bool& json, std::string& output) {
  app.add_flag("--json", json, "Machine-readable output");
  json_by_extension(app.add_option("-o,--output", output,
                                   "Write the output to a file (atomically; a name ending .json "
                                   "gets the --json form)"),
                    json)
      ->each([&app](const std::string& path) {
        check_text_output(path, {false, false, app.get_option_no_throw("--report") != nullptr, ""});
      });
}

CLI::Option* json_by_extension(CLI::Option* output, bool& json) {
  return output->each([&json](const std::string& path) {
    if (iends_with(path, ".json")) json = true;
  });
}

void add_machine_options(CLI::App& app, MachineOptions& o, bool with_level) {
  app.add_option("--machine,--hw", o.machine,
                 "Machine document (from `roofline measure`) or hardware catalogue name");
  app.add_option("--hw-dir", o.hw_dir, "Extra hardware catalogue directory");
  app.add_option("--peak", o.peak, "Peak performance π, e.g. 19.5T or \"19.5 TFLOP/s\"");
  app.add_option("--bandwidth", o.bandwidth,
                 "Peak bandwidth β, e.g. \"2 TB/s\" or 2e12 (B = byte, b = bit: \"400 Gb/s\" is "
                 "50 GB/s)");
  app.add_option("--precision", o.precision,
                 "Compute roof to judge against: a precision (fp32) or a roof name");
  if (with_level) app.add_option("--level", o.level, "Memory level of the traffic (e.g. DRAM, L2)");
}

void refuse_repeated_files(const std::vector<std::string>& files, const std::string& consequence) {
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (files[i] == files[j] || std::filesystem::equivalent(files[i], files[j], ec))
        throw InputError(terminal_safe(files[i]) + ": given twice (as " + terminal_safe(files[j]) +
                         " too): " + consequence);
    }
}

Intensity parse_workload_intensity(const std::string& text) {
  const Intensity i = parse<Intensity>(text, "--at");
  if (!(i.value > 0))
    throw InputError("--at: the workload intensity must be > 0 (got '" + terminal_safe(text) +
                     "')");
  return i;
}

bool has_machine(const MachineOptions& o) {
  return !o.machine.empty() || !o.peak.empty() || !o.bandwidth.empty();
}

MachineDocument load_machine(const MachineOptions& o) {
  if (!o.machine.empty()) {
    if (!o.peak.empty() || !o.bandwidth.empty())
      throw InputError("give either --machine/--hw or --peak/--bandwidth, not both");
    return resolve_machine(o.machine, o.hw_dir);
  }
  if (o.peak.empty() || o.bandwidth.empty())
    throw InputError("roofs needed: give --machine FILE|NAME, or both --peak and --bandwidth");
  GivenRoofs g;
  g.name = "given roofs";
  g.peak = parse<WorkRate>(o.peak, "--peak");
  g.bandwidth = parse<ByteRate>(o.bandwidth, "--bandwidth");
  g.precision = o.precision;
  // The one roof's precision: a data type, or a type and its unit ("fp16 tensor"); a typo
  // would become the roof's name and judge every point without a word.
  if (!o.precision.empty())
    require_roof_precision(o.precision, o.precision_flag + " " + o.precision + ": with --peak it");
  g.level = o.level;
  g.peak_source = "--peak";
  g.bandwidth_source = "--bandwidth";
  if (g.peak.value <= 0) throw InputError("--peak: must be > 0 (got '" + o.peak + "')");
  if (g.bandwidth.value <= 0)
    throw InputError("--bandwidth: must be > 0 (got '" + o.bandwidth + "')");
  // A bare number is in base units: "--peak 312" is 312 FLOP/s, where 312 TFLOP/s was surely
  // meant (no processor computes below a MFLOP/s, no memory moves below a MB/s).
  const auto warn_bare = [](const std::string& flag, const std::string& text, double value,
                            const std::string& unit) {
    if (value >= 1e6 || text.find_first_not_of("0123456789.eE+- ") != std::string::npos) return;
    say("roofline: warning: " + flag + " " + text + " is " + format_number(value) + " " + unit +
        " (a bare number is in " + unit + "): for " + format_number(value) + " T" + unit +
        " give " + format_number(value) + "T\n");
  };
  MachineDocument m;
  m.roofs = given_roofs(g);
  // A unit naming the other kind of work than the roof counts ("20 TFLOPS" with --precision
  // int8, "20 TOPS" with fp32 or none) was read as the roof's own: refused, as in a file.
  const std::string counts = m.roofs.units_of(m.roofs.compute.front()).work;
  if (const std::string named = work_unit_named(o.peak, Dimension::work_rate, "--peak");
      !named.empty() && named != counts)
    throw InputError(
        "--peak '" + terminal_safe(trim(o.peak)) + "' is " + named + "/s, but the " + "roof " +
        (o.precision.empty() ? "of no " + o.precision_flag
                             : "of " + o.precision_flag + " " + terminal_safe(o.precision)) +
        " counts " + counts + "/s" +
        (counts == "OP"
             ? std::string(": give the peak in OP/s (TOPS)")
             : ": give the peak in FLOP/s (TFLOPS), or " + o.precision_flag + " int8" +
                   (o.precision_flag == "--precision" ? " (or ops)" : "") + " for integer work"));
  // In the roof's own unit: OP/s for an integer precision (--precision int8).
  warn_bare("--peak", trim(o.peak), g.peak.value,
            m.roofs.units_of(m.roofs.compute.front()).work_rate());
  warn_bare("--bandwidth", trim(o.bandwidth), g.bandwidth.value, "B/s");
  m.origin = "command line";
  return m;
}

void emit(const std::string& text, const std::string& path) {
  if (path.empty() || path == "-") {
    write_stdout(terminal_safe_lines(text, color_stdout()));
    return;
  }
  write_file_atomic(path, terminal_safe_lines(text));
}

void say(const std::string& text) {
  const std::string safe = terminal_safe_lines(text);
  std::fwrite(safe.data(), 1, safe.size(), stderr);
  std::fflush(stderr);
}

void write_report_after(const std::string& path, const ReportInput& in,
                        const std::vector<std::string>& written, const std::string& redraw) {
  try {
    write_report(path, in);
  } catch (const Interrupted&) {
    throw;
  } catch (const Error& e) {
    std::string done;
    for (const auto& w : written)
      if (!w.empty() && w != "-") done += (done.empty() ? "" : ", ") + terminal_safe(w);
    const std::string msg = std::string(e.what()) + (done.empty() ? "" : "; written: " + done) +
                            (redraw.empty() ? "" : " (draw the report with `" + redraw + "`)");
    // A converter that is missing stays a missing capability (exit 3).
    if (dynamic_cast<const Unavailable*>(&e)) throw Unavailable(msg);
    throw OutputError(msg);
  }
}

Bytes parse_memory_size(const std::string& text, const std::string& flag) {
  const Bytes b = parse<Bytes>(text, flag);
  // The unit: what follows the number (IEC 80000-13: "b" and "bit" are bits).
  const std::string t = trim(text);
  size_t end = t.size();
  while (end > 0 && std::isalpha(static_cast<unsigned char>(t[end - 1]))) --end;
  const std::string unit = t.substr(end);
  const std::string l = lower(unit);
  const auto ends_with = [&](const std::string& s) {
    return l.size() >= s.size() && l.compare(l.size() - s.size(), s.size(), s) == 0;
  };
  if (!unit.empty() && (unit.back() == 'b' || ends_with("bit") || ends_with("bits")))
    throw InputError(flag + " '" + terminal_safe(text) + "': a size in memory is bytes (B); '" +
                     terminal_safe(unit) + "' is bits, " + format_bytes(b) +
                     " (write kB, MiB, ... for bytes)");
  return b;
}

std::vector<std::string> roofs_for(const std::vector<const RoofSet*>& sets,
                                   const std::string& precision, const std::string& work_unit) {
  std::vector<std::string> names;
  for (const RoofSet* r : sets) {
    const ComputeRoof& c =
        precision.empty() ? r->select_compute("", work_unit) : select_compute_roof(*r, precision);
    // W in OP compared on FLOP/s roofs (or FLOP on OP/s) is no comparison (docs/model.md §11).
    if (const std::string why = r->work_mismatch(c, work_unit); !why.empty())
      throw InputError("W counts " + work_unit + ", but " + why + "; name a roof that counts " +
                       work_unit + " (--precision)");
    names.push_back(c.name);
  }
  return names;
}

void warn_if_mixed(const std::vector<const RoofSet*>& sets, const std::vector<std::string>& roofs,
                   const std::string& label, std::set<std::string>& said) {
  const auto mixed = mixed_precisions(sets, roofs);
  if (!mixed) return;
  const std::string hint = mixed->common_group.empty()
                               ? "--precision P (a precision or roof name every machine has)"
                               : "--precision " + mixed->common_group;
  const std::string msg = "roofline: warning: " + (label.empty() ? "" : label + ": ") +
                          "comparing different precisions (" + mixed->named + "); give " + hint +
                          " to compare like with like\n";
  if (said.insert(msg).second) say(msg);
}

void warn_if_narrow(const std::vector<const RoofSet*>& sets, const std::vector<std::string>& roofs,
                    const std::string& label, std::set<std::string>& said) {
  const std::string narrow = narrow_against_full(sets, roofs);
  if (narrow.empty()) return;
  const std::string msg =
      "roofline: warning: " + (label.empty() ? "" : label + ": ") + narrow + "\n";
  if (said.insert(msg).second) say(msg);
}

void check_outputs(const std::vector<std::pair<std::string, std::string>>& flag_and_path,
                   const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  for (const std::string& in : inputs) declare_input(in);
  std::vector<std::pair<std::string, fs::path>> seen;
  std::string on_stdout;  // the flag whose output standard output already carries
  bool on_stdout_given = false;
  for (std::size_t i = 0; i < flag_and_path.size(); ++i) {
    const auto& [flag, path] = flag_and_path[i];
    if (path == "-" || (path.empty() && i == 0)) {
      if (!on_stdout.empty())
        throw InputError(flag + " -: standard output already carries " +
                         (on_stdout_given
                              ? "the output of " + on_stdout + " -; give one of them a file"
                              : "the main output (no " + on_stdout +
                                    " given): write that to a file with " + on_stdout +
                                    " FILE, or give " + flag + " a file"));
      on_stdout = flag;
      on_stdout_given = !path.empty();
      continue;
    }
    if (path.empty()) continue;
    check_writable_path(path, flag);
    for (const auto& [other_flag, other] : seen)
      if (same_output(other, path))
        throw InputError(flag + " " + terminal_safe(path) + ": names the same file as " +
                         other_flag + " " + terminal_safe(other.string()) +
                         "; one file cannot hold both outputs: give each its own path");
    seen.emplace_back(flag, path);
  }
}

bool color_stdout() {
  return terminal_supports_color(stdout);
}

namespace {
std::atomic<bool> g_interrupted{false};
volatile sig_atomic_t g_signal = 0;
struct sigaction g_old_int {};
struct sigaction g_old_term {};
extern "C" void on_interrupt(int sig) {
  g_signal = sig;
  g_interrupted.store(true);
}
}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<bool>* InterruptGuard::flag() const {
  return &g_interrupted;
}

bool InterruptGuard::interrupted() const {
  return g_interrupted.load();
}

void InterruptGuard::exit_interrupted(const std::string& output) const {
  exit_interrupted(std::vector<std::string>{output});
}

void InterruptGuard::exit_interrupted(const std::vector<std::string>& outputs) const {
  const bool term = g_signal == SIGTERM;
  std::string what;
  for (const auto& o : outputs) {
    if (o.empty() || o == "-") continue;
    what += "; " + terminal_safe(o) + " not written (" +
            (std::filesystem::exists(o) ? "the previous file is unchanged" : "no file created") +
            ")";
  }
  std::fprintf(stderr, "roofline: interrupted (%s)%s\n", term ? "SIGTERM" : "SIGINT",
               what.empty() ? "; nothing written" : what.c_str());
  std::fflush(stdout);
  std::exit(128 + (term ? SIGTERM : SIGINT));
}

void InterruptGuard::exit_completed(const std::vector<std::string>& outputs) const {
  const bool term = g_signal == SIGTERM;
  std::string files;
  size_t n = 0;
  for (const auto& o : outputs) {
    if (o.empty() || o == "-") continue;
    files += (files.empty() ? "" : ", ") + terminal_safe(o);
    ++n;
  }
  std::fprintf(stderr, "roofline: interrupted (%s) while writing; %s %s complete (new)\n",
               term ? "SIGTERM" : "SIGINT", files.c_str(), n == 1 ? "is" : "are");
  std::fflush(stdout);
  std::exit(128 + (term ? SIGTERM : SIGINT));
}

}  // namespace roofline::cli
