#pragma once
// Reports: one input, several renderers (docs/architecture.md).
// Every command that draws a roofline (plot, point, kernel, measure, llm, hw compare) fills a
// ReportInput and calls one renderer, or write_report() which picks the format from the file
// name. Renderers only draw; the numbers come from core (diagnose, ridge, attainable, compare_at).
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/diagnosis.hpp"
#include "roofline/io.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/units.hpp"

namespace roofline {

struct ReportInput {
  std::string title;
  std::vector<MachineDocument> machines;  ///< [0] = the machine; others = overlays (comparisons)
  std::vector<Point> points;              ///< judged against machines[0] with diagnose()
  /// A vertical "your workload" line at this intensity with the ratio of roof heights
  /// (docs/model.md §7 "different hardware").
  std::optional<Intensity> workload_line;
  /// The precision and memory level the workload line was asked at, as the comparison's JSON
  /// names them ("" = each machine's default roof, which the caller sets to the roofs it used).
  std::string workload_precision, workload_level;
  /// Draw the no-overlap curve 1/(1/π + 1/(β·I)) for the default roofs (docs/model.md §2).
  bool no_overlap_curve = false;
  DiagnosisOptions diagnosis;
  /// Which roofs are drawn (`--roofs`): empty = the default view of the few that matter (per
  /// precision its highest roof, the scalar baseline, the no-FMA roof, every memory level, the
  /// roofs points are judged against; docs/charts.md). Terms: "all", "default", a roof name or
  /// memory level, a precision ("fp32"), a vector width ("256-bit", "scalar") or an
  /// instruction class ("fma", "add+mul"). The HTML page draws the others too, hidden behind
  /// its toggles.
  std::vector<std::string> roofs;
  /// Points given for this chart that it does not draw, each with why (fit_to_roofs' left_out,
  /// `run`'s points without a roof): the SVG and PNG say them in a line under the subtitle, the
  /// HTML page lists them, the terminal plot's legend and the JSON name them (docs/charts.md).
  /// A chart of 3 of 10 points no longer looks complete.
  std::vector<PointLeftOut> not_drawn;
  /// What the chart's numbers assume that does not hold, as the command's text says it (an LLM
  /// configuration larger than the machine's memory: llm::Report::warnings, llm::sweep_warnings):
  /// the SVG and PNG say them in lines under the subtitle (below the points not drawn), the HTML
  /// page lists them under its title, the JSON has them as `warnings` (docs/charts.md).
  std::vector<std::string> warnings;
  /// The points (indices into `points`) whose configuration does not fit in the machine's memory,
  /// each with the figures that say so ("139 GB of 24 GB (GDDR6)": llm::points_over_memory):
  /// drawn hollow, with a legend entry, "does not fit" in the tooltip and the JSON's point.
  std::map<size_t, std::string> does_not_fit;
};

/// Draws every machine (a chart's: ReportInput::machines) at its roof for `precision` (a precision,
/// alternatives "bf16/fp16" or a roof name, as select_compute_roof reads them): that roof becomes
/// each machine's default compute roof, so the chart's headline pair (subtitle, primary ridge,
/// no-overlap curve) is the roof its points that name no precision are judged on
/// (docs/charts.md) — `roofline plot --precision`, with or without --at, and a chart asked for at
/// one precision. "" changes nothing. Returns each machine's roof. InputError naming the machine
/// for a sparse roof (never drawn as a default) or a machine with no roof of that precision.
std::vector<std::string> draw_at_precision(std::vector<MachineDocument>& machines,
                                           const std::string& precision);

/// `roofline run --report`'s chart: titled "roofline run on NAME", on the machine's roofs with
/// the no-overlap curve; each placed run with a diagnosis drawn, each without one that says why
/// (its level has no roof, or its point was refused) listed as not drawn — "no roof for level
/// L" or "no roof to judge it on", with the whole message — as the run's table says "(no roof)".
ReportInput run_report_input(const Placement& placement, const MachineDocument& m);

/// `roofline kernel --report`'s chart: titled "KERNEL (DTYPE) on MACHINE", on `m` drawn at the
/// roofs the kernel was judged on (`on`'s compute roof and memory level become its defaults),
/// with the no-overlap curve and a workload line at the kernel's I — none for I = 0 (copy),
/// which has no place on a log axis. `level`: the memory level asked for ("" = the default), as
/// the chart's JSON names it.
ReportInput kernel_report_input(const KernelCount& k, const std::string& dtype,
                                const MachineDocument& m, const KernelOnRoofs& on,
                                const std::string& level);
/// What `roofline kernel --report` adds to its text for `in`: a line saying why the chart has no
/// workload line, or "" when it has one.
std::string kernel_report_text(const ReportInput& in);

/// Splits a `--roofs` value at commas, trimming spaces ("default, fp32" → {"default", "fp32"}).
std::vector<std::string> report_roof_terms(const std::string& value);

/// Publication-quality SVG (log-log, roofs, ridges, points coloured by diagnosis, overlays).
/// Styled for light and dark pages (prefers-color-scheme). Throws InputError when there is no
/// machine, the machine has no roof, or a point names a precision or level the machine lacks.
std::string render_svg(const ReportInput& in);
/// One self-contained HTML page (no network): the chart with tooltips, layer toggles, zoom and
/// pan, tables of roofs and points, and the machine's description.
std::string render_html(const ReportInput& in);
/// A compact braille plot of roofs and points plus aligned tables, `columns` wide; ANSI colour
/// only when `color`.
/// `columns` above kMaxTerminalColumns is InputError (nothing is allocated for it).
std::string render_terminal(const ReportInput& in, int columns, bool color);
/// The widest terminal plot: 1000 columns (a wide terminal at a small font has ~400).
inline constexpr int kMaxTerminalColumns = 1000;
/// Roofs and points as CSV (one row per roof and per point level, with the diagnosis; then one
/// per point not drawn, `drawn` false with its `reason` and `detail`; docs/charts.md).
std::string render_csv(const ReportInput& in);
/// Roofs, ridges, points with their analyses, and the workload comparison as JSON
/// (schema "roofline.report", version 2).
nlohmann::json render_json(const ReportInput& in);

/// Writes the report in the format named by the extension: .svg .html/.htm .png .json .csv.
/// Unknown extension → InputError (nothing written). PNG goes through rsvg-convert (Debian
/// librsvg2-bin); when it is missing → Unavailable. Atomic: a failed write leaves nothing.
void write_report(const std::filesystem::path& path, const ReportInput& in);
/// Checks, before any work, that write_report could write `path`: a known extension, an
/// existing folder, not a directory, and rsvg-convert on the PATH for .png. InputError (or
/// Unavailable for a missing rsvg-convert) naming the path otherwise.
void check_report_path(const std::filesystem::path& path);
/// Unavailable naming `path` when PNG export cannot work here (no rsvg-convert on the PATH).
void check_png_export(const std::filesystem::path& path);

/// Converts an SVG document to PNG bytes with rsvg-convert (run directly, no shell).
/// Throws Unavailable when rsvg-convert is not on the PATH, cannot start (its loader's message
/// said), fails, writes no PNG or runs past `timeout` (then it is killed); OutputError when a
/// file of the export could not be written (the SVG in a full TMPDIR, the converter's PNG
/// over a file size limit: ENOSPC, EFBIG, EDQUOT). The temporary folder is removed on every
/// path.
std::string svg_to_png(const std::string& svg, double zoom = 2.0,
                       std::chrono::milliseconds timeout = std::chrono::seconds(60));
/// svg_to_png for the file `target`: an OutputError names `target` and that its previous
/// content, if any, is unchanged.
std::string png_for_file(const std::filesystem::path& target, const std::string& svg);

}  // namespace roofline
