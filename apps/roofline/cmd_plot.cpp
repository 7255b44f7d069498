// roofline plot: draw a machine's roofs with points on them — SVG, HTML, PNG, JSON or CSV by the
// output's extension, or a braille plot in the terminal.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace roofline::cli {
namespace {

struct PlotArgs {
  std::string machine;
  std::vector<std::string> points_files;
  std::string output;
  bool terminal = false;
  std::string at;
  std::vector<std::string> compare;
  bool no_overlap = false;
  std::string hw_dir;
  std::string title;
  std::string precision;
  double touching = DiagnosisOptions{}.touching;
  int width = 0;
  std::string roofs;
};

/// The terminal plot's width without --width: the terminal's, else $COLUMNS (a pipe to a pager),
/// else 100; within 40 (the narrowest plot drawn) and kMaxTerminalColumns. A 5-column terminal
/// had been drawn 100 wide and $COLUMNS ignored.
int terminal_columns() {
  double cols = 0;
  winsize ws{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) cols = ws.ws_col;
  if (const char* env = std::getenv("COLUMNS"); cols <= 0 && env)
    cols = decimal_number(env).value_or(0);
  if (!(cols >= 1)) return 100;
  return static_cast<int>(std::clamp(std::floor(cols), 40.0, double(kMaxTerminalColumns)));
}

void run(const PlotArgs& a) {
  const bool to_file = !a.output.empty() && a.output != "-";
  // --width is the terminal plot's: with -o alone nothing would use it.
  if (a.width != 0 && to_file && !a.terminal)
    throw InputError("--width " + std::to_string(a.width) +
                     ": sets the terminal plot's columns, and -o " + terminal_safe(a.output) +
                     " draws no terminal plot (add --terminal, or leave --width out)");
  ReportInput in;
  in.machines.push_back(resolve_machine(a.machine, a.hw_dir));
  in.machines.reserve(1 + a.compare.size());  // `roofs` stays valid while overlays are added
  const RoofSet& roofs = in.machines.front().roofs;
  // --precision is for points that name none; a value the machine has no roof for is refused
  // even where every point names its own (it was ignored without a word).
  // The roof it names, as `hw compare --precision` reads it (a roof name, a precision, or
  // alternatives "bf16/fp16": the form the --at warning suggests).
  const std::string precision_roof =
      a.precision.empty() ? "" : select_compute_roof(roofs, a.precision).name;
  // One file given twice (by another name, or a link to it) draws each of its points twice.
  refuse_repeated_files(a.points_files, "its points would be drawn twice");
  for (const auto& f : a.points_files) {
    PointsDocument doc = load_points_file(f);
    // As `point --points`: a file given is there for its points (the machine alone is drawn
    // by giving none). A run of no arithmetic (copy) is in it all the same: said not drawn.
    if (doc.points.empty() && doc.not_points.empty())
      throw InputError(terminal_safe(f) +
                       ": no points to draw (leave the file out to draw the "
                       "machine's roofs alone)");
    for (const auto& n : doc.not_points)
      say("roofline: note: " + bandwidth_run_note(n, "not drawn", f) + "\n");
    in.not_drawn.insert(in.not_drawn.end(), doc.not_points.begin(), doc.not_points.end());
    refuse_other_units(f, doc.units, "the machine's roofs are in", roofs.units);
    const size_t first = in.points.size();
    for (auto& p : doc.points) {
      if (p.precision.empty()) p.precision = precision_roof;
      in.points.push_back(p);
    }
    // The points left out are said on stderr and in the chart, from one list.
    const std::vector<PointLeftOut> left_out = fit_points(in.points, roofs, f, first);
    in.not_drawn.insert(in.not_drawn.end(), left_out.begin(), left_out.end());
  }
  for (const auto& other : a.compare) in.machines.push_back(resolve_machine(other, a.hw_dir));
  {
    // An overlay of the machine itself (by an alias, or its own file) draws every roof twice.
    std::vector<std::string> names{a.machine};
    names.insert(names.end(), a.compare.begin(), a.compare.end());
    tell_machines_apart(names, in.machines, "plot --compare");
  }
  // --precision draws every machine at that precision's roof: the headline pair is the one its
  // points are judged on, with or without --at (the subtitle and primary ridge stayed on the
  // fp32 vector roof while the points were judged on bf16 tensor).
  try {
    draw_at_precision(in.machines, a.precision);
  } catch (const InputError& e) {
    throw InputError("--precision " + terminal_safe(a.precision) + ": " + e.what() +
                     (a.compare.empty() ? ""
                                        : " (every machine, each --compare one too, is drawn at "
                                          "its roof of that precision)"));
  }
  if (!a.at.empty()) {
    in.workload_line = parse_workload_intensity(a.at);
    // As `hw compare --at`: with --precision every machine is compared (and drawn) at that
    // precision's roof (draw_at_precision above); without, default roofs of different precisions
    // are said (the H100's fp32 roof against TPU v5e's bf16 one read "1.22x" unsaid).
    std::vector<const RoofSet*> sets;
    for (const auto& m : in.machines) sets.push_back(&m.roofs);
    const std::vector<std::string> at_roofs = roofs_for(sets, a.precision);
    std::set<std::string> said;
    warn_if_narrow(sets, at_roofs, "--at", said);
    if (!a.precision.empty())
      in.workload_precision = a.precision;
    else if (in.machines.size() > 1)
      warn_if_mixed(sets, at_roofs, "--at", said);
  }
  in.no_overlap_curve = a.no_overlap;
  in.diagnosis.touching = a.touching;
  in.roofs = report_roof_terms(a.roofs);
  in.title = !a.title.empty() ? a.title : "Roofline of " + roofs.name;
  if (to_file) write_report(a.output, in);
  if (a.terminal || !to_file) {
    const int cols = a.width > 0 ? a.width : terminal_columns();
    emit(render_terminal(in, cols, color_stdout()), "");
  }
}

const Registrar register_plot(40, [](CLI::App& root) {
  auto args = std::make_shared<PlotArgs>();
  CLI::App* c = root.add_subcommand(
      "plot",
      "Draw the roofline: MACHINE [POINTS...] -o chart.svg|.html|.png|.json|.csv, or "
      "--terminal");
  c->add_option("machine", args->machine, "Machine document or hardware catalogue name")
      ->required();
  c->add_option("points", args->points_files, "Points documents (roofline.points)");
  c->add_option("-o,--output", args->output,
                "Output file; the format follows the extension: .svg .html .png .json .csv");
  c->add_flag("--terminal", args->terminal, "Draw in the terminal (braille plot and tables)");
  c->add_option("--at", args->at, "Workload intensity I for a vertical line with roof heights");
  c->add_option("--compare", args->compare,
                "Another machine (file or catalogue name) drawn over the first (repeatable)");
  c->add_flag("--no-overlap", args->no_overlap,
              "Draw the no-overlap curve 1/(1/π + 1/(β·I)) for the default roofs");
  c->add_option("--hw-dir", args->hw_dir, "Extra hardware catalogue directory");
  c->add_option("--title", args->title, "Chart title");
  c->add_option("--precision", args->precision,
                "Compute roof for points that name no precision (a precision or roof name): "
                "every machine is drawn at its roof of it (with --at, compared at it)");
  c->add_option("--touching", args->touching,
                "Attainment at which a point counts as touching its roof (default 0.8)")
      ->check(number_in(0.01, 1.0));
  c->add_option("--roofs", args->roofs,
                "Roofs to draw, comma-separated: all, default, roof names, memory levels, "
                "precisions (fp32), vector widths (256-bit, scalar), instruction classes (fma, "
                "add+mul); default: per precision its highest roof, the scalar baseline, the "
                "no-FMA roof, every memory level and the roofs points are judged against")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            // '' or ',' would silently draw the default roofs: a choice must name a roof.
            return report_roof_terms(text).empty()
                       ? "names no roof (leave --roofs out for the default roofs)"
                       : std::string();
          },
          "LIST"));
  c->add_option("--width", args->width,
                "Terminal plot width in columns, 40 to " + std::to_string(kMaxTerminalColumns) +
                    " (default: the terminal's)")
      ->transform(whole_in(40, kMaxTerminalColumns));
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
