#pragma once
// Terminal text: the text form of core results (point analysis, kernel counts, roofs), on the
// tables of roofline/table.hpp, and whether a terminal takes colour. Charts live in report/
// (svg, html, terminal plot).
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "roofline/check.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/diff.hpp"
#include "roofline/documents.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"
#include "roofline/table.hpp"

namespace roofline {

/// True when `stream` is a terminal that takes colour (not piped, TERM not "dumb", NO_COLOR unset
/// or empty): the decision the renderers' `color` argument and colorize's `enabled` take.
bool terminal_supports_color(std::FILE* stream);

/// ANSI colour for a verdict (green on a roof, yellow far below, bold blue just below, red
/// above).
const char* verdict_color(Verdict v);

/// The full text analysis of a point against a roof set: I, P, attainable, attainment, the
/// two steps of the diagnosis, the prescription and the notes.
std::string render_point_analysis(const Point& p, const Diagnosis& d, const RoofSet& roofs,
                                  bool color);
/// The kernel catalogue as a table (`roofline kernel list`): name, size flags (optional ones in
/// brackets), default dtype, what it computes.
std::string render_kernel_catalogue(const std::vector<KernelSpec>& kernels);
/// A kernel's hand count: W, Q, I, formulas, BLAS level.
std::string render_kernel_count(const KernelCount& k, const UnitSystem& u);
/// The kernel on a machine's roofs: ridge and side, attainable rate, time bounds.
std::string render_kernel_on_roofs(const KernelOnRoofs& k, const std::string& machine,
                                   const UnitSystem& u);
/// `roofline kernel`'s text: the count (render_kernel_count) and, placed on roofs, the kernel on
/// them (render_kernel_on_roofs) and the roof's note ("  note: ...").
std::string render_kernel_result(const KernelCount& k, const UnitSystem& u,
                                 const std::optional<KernelOnMachine>& placed);
/// The roofs of a set as a table (name, value, provenance, theoretical ratio, ridge).
std::string render_roofs(const RoofSet& roofs);
/// `roofline diff` of two machines: a line per roof paired (values, B/A, spreads, the verdict
/// against the noise), the roofs one side lacks, the ridge moving. `origin_a` / `origin_b`: where
/// each machine was read from (a file or catalogue name), beside its name in the heading.
std::string render_machines_diff(const RoofSetDiff& d, const RoofSet& a,
                                 const std::string& origin_a, const RoofSet& b,
                                 const std::string& origin_b);
/// `roofline diff` of two points documents: a line per pair (P, B/A, the intensity ratio, spreads,
/// the verdict, a precision changed), then the points one side lacks. `label_a` / `label_b`: the
/// documents as given.
std::string render_points_diff(const PointsDiff& d, const std::string& label_a,
                               const std::string& label_b);

/// `roofline import`'s text (src/report/import_text.cpp): "TOOL import of FILES: N points", each
/// note indented, then per point after an empty line its analysis against `roofs` where
/// `fit` judged it (its source note after), else its brief form (render_point_brief), "not
/// judged" added when there are roofs. `files` joined by ", ".
std::string render_import_text(const std::string& tool, const std::vector<std::string>& files,
                               const std::vector<Point>& points,
                               const std::vector<std::string>& notes, const RoofSet* roofs,
                               const JudgedPoints& fit, bool color);

/// Each point after an empty line: its analysis against `roofs` (render_point_analysis, in
/// colour when `color`), or its brief form (render_point_brief) without roofs; "" for no point.
/// `roofline profile`'s points, after its head (src/report/import_text.cpp).
std::string render_points_text(const std::vector<Point>& points, const RoofSet* roofs, bool color);

/// `roofline check`'s text (src/report/check_text.cpp): a line per point — "PASS  ", "FAIL  " or
/// "SKIP  ", its name (escaped) and its reasons joined by "; " — then "note: " and each note, then
/// "roofline check: FAILED, " or "passed, " (as `gate_failed` says) and the summary.
std::string render_check_text(const std::vector<PointCheck>& checks,
                              const std::vector<std::string>& notes, bool gate_failed,
                              const std::string& summary);
/// " (failed: a, b, ... and 3 more)": the points that failed (escaped), at most 10 named, for
/// standard error when the report went to a file or is JSON; "" when none failed.
std::string render_failed_names(const std::vector<PointCheck>& checks);
/// What `roofline profile` says when it got a signal that ends it (SIGINT, SIGTERM, SIGHUP)
/// while its program ran, passed the signal on and the program ended
/// (src/report/profile_text.cpp): "roofline: interrupted (SIGINT) while the program ran; the
/// signal was passed on to it and it ended with exit status 130 (SIGINT); no point is placed and
/// nothing written (out.json, counts.json left as it was)" and a line end. `signal` and
/// `program_signal` are signals' names, `program_signal` the one that ended the program ("" when
/// it exited: no parenthesis); `outputs` the files asked for, "" and "-" (standard output) not
/// named, each made safe for the terminal (no parenthesis when none is named).
std::string render_profile_interrupted(const std::string& signal, int exit_status,
                                       const std::string& program_signal,
                                       const std::vector<std::string>& outputs);
/// `roofline run`'s text (src/report/run_text.cpp): "machine: NAME   threads: N", the BLAS
/// summary when `blas` is given (a run of the BLAS kernels), the table of every run
/// (run_table_header, run_table_rows), a line for each point above its roof with its causes, and
/// for each BLAS point the core that ran, the roof it was judged against and its diagnosis.
std::string render_run_text(const Placement& placement, const RoofSet& roofs, int threads,
                            const BlasInfo* blas);
/// The run table's columns: kernel, working set, W, Q, I, T (median, spread), P, attain., verdict.
std::vector<std::string> run_table_header();
/// One row per placed run, then one per bandwidth-only run (W = 0: "0 (no arithmetic)", its
/// bandwidth Q/T and "bandwidth only"), in `u`; a failed result check's verdict is "CHECK FAILED".
std::vector<std::vector<std::string>> run_table_rows(const Placement& placement,
                                                     const UnitSystem& u);
/// A run's working set: "L1 16.38 kB n=1.02k" — the level, the bytes and the size parameter
/// (gemm's n, a stencil grid's nx² or nx³, SpMV's rows, a vector's n).
std::string run_working_set_text(const RunRecord& r);
/// A run's time: "T (median, spread)" — the sustained time per call that places the point, then
/// the median and the robust spread (interquartile range / median) of the repetitions, "noisy"
/// when the statistics policy says so.
std::string run_timing_text(const RunRecord& r);
/// OpenBLAS as the run found it: the core and build, the best core for this CPU, whether the
/// detected core is narrower, and the OPENBLAS_* environment (two lines); or why it is not
/// available (one line).
std::string render_blas_summary(const BlasInfo& b);

/// How a progress line is drawn (src/report/progress.cpp): the terminal's `columns`, and whether
/// it takes escape sequences (false under TERM=dumb).
struct ProgressStyle {
  size_t columns = 80;
  bool escapes = true;
};

/// A long task's progress as text for a terminal, as the terminal plot's rules have it
/// (docs/charts.md: every line fits the width, TERM=dumb turns escapes off). With escapes, each
/// update redraws one line: "\r\033[K[####....]  40% what", cut to columns − 1 (the last column
/// would wrap on some terminals) with the bar narrowed first. Without, a plain line
/// ("[ 40%] what\n", cut the same way) when the step's name changes and nothing for its later
/// updates, so a dumb terminal or a log gets a line per step. `what` is shown escaped.
class ProgressLine {
 public:
  explicit ProgressLine(ProgressStyle style) : style_(style) {}
  /// The text to write for `fraction` (0 to 1) done, now at `what`; "" when nothing changes.
  std::string update(double fraction, const std::string& what);
  /// The text that clears the line before other output: "\r\033[K" once a line is drawn with
  /// escapes, else "".
  std::string clear() const;

 private:
  ProgressStyle style_;
  std::string last_;    // the step last named (plain lines) or the line last drawn (escapes)
  bool drawn_ = false;  // a line with escapes is on the screen
};

}  // namespace roofline
