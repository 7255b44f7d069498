#pragma once
// The CLI is thin (docs/architecture.md): each subcommand lives in its own cmd_*.cpp, registers
// itself here, parses its arguments, calls the library and renders. Errors are thrown as
// roofline::InputError and turned into one message and a non-zero exit in main.cpp.
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/roof.hpp"

namespace roofline::cli {

/// The exit statuses of the command line (docs/architecture.md, "Exit codes"), in one place:
/// main.cpp turns the library's errors into the first four; a command that ends itself with a
/// verdict uses the last two.
inline constexpr int kExitInternalError = 1;  ///< a bug
inline constexpr int kExitBadInput = 2;       ///< a value, flag, file or field; the command line
inline constexpr int kExitUnavailable = 3;    ///< a needed capability or memory is missing
inline constexpr int kExitOutputFailed = 4;   ///< an output could not be written
inline constexpr int kExitGateFailed = 5;     ///< `roofline check`: the gate failed
/// A result check failed: a kernel's answer was wrong (`run`), or profile's self-test counts
/// disagreed with the hand-worked ones.
inline constexpr int kExitResultCheckFailed = 6;

/// A new directory under temp_directory() named `prefix` + a unique suffix, removed with all it
/// holds when the object goes. Throws Error when it cannot be created.
struct ScopedTempDir {
  std::filesystem::path path;
  explicit ScopedTempDir(const std::string& prefix);
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
};

using Setup = std::function<void(CLI::App& root)>;

/// Registers a subcommand; `order` sorts the help listing.
struct Registrar {
  Registrar(int order, Setup setup);
};
std::vector<std::pair<int, Setup>>& registry();

/// Where a command gets its roofs: a machine file or catalogue name, or --peak/--bandwidth.
struct MachineOptions {
  std::string machine;    ///< --machine/--hw: a machine document path or a catalogue name
  std::string hw_dir;     ///< --hw-dir: extra catalogue directory
  std::string peak;       ///< --peak "19.5T" or "19.5 TFLOP/s"
  std::string bandwidth;  ///< --bandwidth "2 TB/s"
  std::string precision;  ///< --precision: which compute roof
  std::string level;      ///< --level: which memory roof
  /// The flag that sets `precision` on this command, for messages ("--cdtype" in llm, which
  /// has no --precision).
  std::string precision_flag = "--precision";
};
/// Adds --machine/--hw, --hw-dir, --peak, --bandwidth, --precision, --level to `app`.
void add_machine_options(CLI::App& app, MachineOptions& o, bool with_level = true);
/// A number option's check: finite and in [lo, hi] ([lo, hi) with `below_hi`). CLI11's own Range
/// and PositiveNumber let "nan" through (every comparison with NaN is false), so a NaN given on the
/// command line would be silently taken as "not given".
CLI::Validator number_in(double lo, double hi, bool below_hi = false);
/// A count option's check: a whole number in [lo, hi]; "1.5" and "2x" are "not a whole number"
/// where CLI11's Range said "Value 1.5 not in range 1 to 4096".
CLI::Validator whole_in(long long lo, long long hi);
/// A number option where 0 stands for "not given": when given, finite and > 0.
CLI::Validator positive_number();
/// A comma-separated list whose every item names something: '' or "L1,,L2" would otherwise be
/// taken as fewer names than were meant (no name at all: the defaults).
CLI::Validator named_list();

/// Gives every option of `app` and its subcommands that names a file to write (-o/--output,
/// --report, --junit, --save-counters) a check that refuses an empty name: "" is no file, and
/// writing the terminal output instead would pass unnoticed. The options whose empty value would
/// read as "not given" (--machine/--hw, --hw-dir, --size: measure this machine, the level
/// sizes) refuse it too.
void refuse_empty_values(CLI::App& app);
/// The long names ("--batch") of the options given on `app`'s command line.
std::vector<std::string> given_options(const CLI::App& app);

/// Fits the points from `first` on to `roofs`, as docs/schema.md says they are judged. A point
/// whose precision the machine has no roof for (an fp64 kernel on a machine of fp32 roofs, as
/// `import` lists it "not judged") is left out with a warning naming it: judged against another
/// unit's roof it would read as impossible or far below. Traffic at a level the machine has no
/// roof for (a CPU run's L1 on a catalogue machine with only DRAM) is left out with a warning,
/// the point judged at its other levels; a point with no level left is left out. Two levels at
/// one roof are refused (InputError naming the file and the point), as is a file none of whose
/// points is left. Returns the points left out, from which the warnings were made: a chart
/// says them too (ReportInput::not_drawn).
std::vector<PointLeftOut> fit_points(std::vector<Point>& points, const RoofSet& roofs,
                                     const std::string& file, size_t first = 0);

/// What a command's -o takes when it writes the command's text, --json (or --csv) output.
struct TextOutput {
  bool has_csv = false;     ///< the command has --csv
  bool csv_given = false;   ///< and it was given
  bool has_report = false;  ///< the command draws charts with --report
  std::string csv_what;     ///< what --csv writes ("the operator table or the sweep")
};
/// The one check of such an -o (every command whose -o writes text or JSON): a chart's name
/// (.svg, .html, .htm, .png) is refused, naming --report where the command has one, as a chart
/// written there would be plain text; a .csv name is refused unless --csv is given (or where
/// the command writes no CSV). "" and "-" pass. InputError "-o FILE: ...".
void check_text_output(const std::string& path, const TextOutput& o);
/// Adds --json ("Machine-readable output") and -o/--output (written atomically) to `app`; the
/// -o is checked by check_text_output (no --csv; --report where `app` has it).
void add_output_options(CLI::App& app, bool& json, std::string& output);
/// An -o/--output whose name ends in ".json" (any case) gets the JSON form, as if --json was
/// given: a file named .json holding the text summary would be read by nothing. Returns
/// `output` for chaining.
CLI::Option* json_by_extension(CLI::Option* output, bool& json);
/// Refuses one file given twice among `files` (by another name, or a link to it): InputError
/// "FILE: given twice (as OTHER too): `consequence`".
void refuse_repeated_files(const std::vector<std::string>& files, const std::string& consequence);
/// --at: a workload intensity (parse<Intensity>), refused unless > 0.
Intensity parse_workload_intensity(const std::string& text);
/// True when any roof source was given.
bool has_machine(const MachineOptions& o);
/// Builds the machine: from --machine/--hw, else from --peak and --bandwidth (both required).
MachineDocument load_machine(const MachineOptions& o);

/// Writes text to `path` atomically, or to stdout when `path` is empty or "-". Either way the
/// text goes through terminal_safe_lines() first (roofline/sanitize.hpp): control and
/// bidirectional characters from names in files and arguments are shown escaped, and JSON
/// stays the same JSON. On stdout the renderers' colour sequences pass when color_stdout().
/// A failed write to stdout throws OutputError.
void emit(const std::string& text, const std::string& path = "");

/// A message or progress line for stderr, sanitised like emit() (newlines kept, no colour).
void say(const std::string& text);

/// The compute roof of every machine for a --precision value (select_compute_roof: a roof
/// name, a precision, or "a/b" alternatives as in `hw ridges`); "" = each machine's default
/// for work in `work_unit` ("" = unstated; "OP": an integer roof, RoofSet::select_compute).
/// InputError when a roof found counts other work than `work_unit` (work_mismatch).
std::vector<std::string> roofs_for(const std::vector<const RoofSet*>& sets,
                                   const std::string& precision, const std::string& work_unit = "");

/// Writes a report after the command's documents were written (the measured machine, the run):
/// a failure to write it (its folder removed meanwhile, a full disk) is an OutputError (exit 4;
/// a PNG converter missing stays Unavailable, exit 3) that names the documents already written
/// and how to draw the report from them, not an input error as if the run had not happened.
void write_report_after(const std::string& path, const ReportInput& in,
                        const std::vector<std::string>& written, const std::string& redraw);

/// A size in memory (a working set, a message): parse<Bytes>, and a size in bits refused, naming
/// the byte it would be ("64 kb" read as 64 kilobits ran an 8 kB working set in L1 unsaid).
Bytes parse_memory_size(const std::string& text, const std::string& flag);

/// Without --precision each machine is judged on its default roof, which need not be of one
/// precision (V100's fp32 vector roof against TPU v5e's bf16 MXU roof): says so, naming the
/// roofs, and suggests the first default precision group every machine has.
/// `said` holds the warnings given, so each is said once.
void warn_if_mixed(const std::vector<const RoofSet*>& sets, const std::vector<std::string>& roofs,
                   const std::string& label, std::set<std::string>& said);

/// A roof that accumulates narrower than fp32 compared with full-precision ones
/// (narrow_against_full): says so, as a ratio about 2x in its favour. Each warning once.
void warn_if_narrow(const std::vector<const RoofSet*>& sets, const std::vector<std::string>& roofs,
                    const std::string& label, std::set<std::string>& said);

/// Checks, before any work, every output a command was given: each as check_writable_path()
/// (naming its flag), and no two naming the same file ("-o s.json --report s.json"), nor two
/// taking standard output: "-", or an empty first entry (-o, whose output is stdout when not
/// given) — "--save-counters -" beside the report on stdout mixed JSON into the text.
/// `inputs` are the files the command will read that its arguments name (a points document, a
/// machine document, a config; catalogue names are left alone): an output naming one of them is
/// refused here too, before any output is written (declare_input()).
void check_outputs(const std::vector<std::pair<std::string, std::string>>& flag_and_path,
                   const std::vector<std::string>& inputs = {});

/// Whether stdout takes colour.
bool color_stdout();

/// SIGINT/SIGTERM during a long command (measure, run): while it lives, the handlers only set a
/// flag that the command checks at safe points (between samples or runs), so nothing is left
/// half-written; the previous handlers come back when it is destroyed.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  /// The flag the library polls (MeasureOptions::cancel, suite::RunOptions::cancel).
  const std::atomic<bool>* flag() const;
  bool interrupted() const;
  /// Says which signal stopped the command and what became of `output` ("" or "-": nothing
  /// was to be written; else the previous file is unchanged or no file was created), then exits
  /// with 128 + the signal number (130 for SIGINT, 143 for SIGTERM).
  [[noreturn]] void exit_interrupted(const std::string& output) const;
  /// The same for each of a command's outputs (-o, --save-machine, --report; "" ones skipped).
  [[noreturn]] void exit_interrupted(const std::vector<std::string>& outputs) const;
  /// The signal came while the outputs were being written: the writes were completed first.
  /// Says so, naming each, and exits with 128 + the signal number.
  [[noreturn]] void exit_completed(const std::vector<std::string>& outputs) const;
};

/// `roofline measure --mpi`: the cluster measurement of cmd_cluster.cpp (every rank measures
/// its node with measure_machine at once; rank 0 writes the cluster document).
void run_cluster_measurement(bool quick, const std::string& output, bool json);

}  // namespace roofline::cli
