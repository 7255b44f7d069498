// Charts (report.hpp): the SVG and the self-contained HTML page `roofline plot` writes, for a
// notebook (_repr_svg_, _repr_html_ in python/roofline/__init__.py) or a file.
#include <pybind11/stl.h>

#include <filesystem>
#include <map>

#include "common.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"

namespace roofline::python {

namespace {

ReportInput report_input(const ChartSpec& c) {
  ReportInput in;
  in.title = c.title;
  in.machines = c.machines;
  in.points = c.points;
  if (c.workload_line) in.workload_line = Intensity(*c.workload_line);
  in.workload_precision = c.workload_precision;
  in.no_overlap_curve = c.no_overlap_curve;
  in.not_drawn = c.not_drawn;
  in.warnings = c.warnings;
  in.does_not_fit = c.does_not_fit;
  return in;
}

/// `over` (indices into `given`) as indices into the points fit_to_roofs keeps of them: it keeps
/// their order and leaves some out.
std::map<size_t, std::string> kept_indices(const std::vector<Point>& given, const RoofSet& roofs,
                                           const std::map<size_t, std::string>& over) {
  std::map<size_t, std::string> out;
  if (over.empty()) return out;
  size_t kept = 0;
  for (size_t k = 0; k < given.size(); ++k) {
    if (fit_to_roofs({given[k]}, roofs).points.empty()) continue;
    if (const auto it = over.find(k); it != over.end()) out[kept] = it->second;
    ++kept;
  }
  return out;
}

/// As `roofline plot --at --precision`: with a precision every machine is compared (and drawn)
/// at its roof of that precision; the comparison at the workload line warns as roofline.compare
/// does (default roofs of different precisions, a narrow-accumulate roof against full ones).
void compare_at_precision(ChartSpec& c, const std::string& precision, bool workload) {
  // The one rule `roofline plot --precision` draws by (report.hpp).
  std::vector<std::string> roofs = draw_at_precision(c.machines, precision);
  if (!precision.empty()) c.workload_precision = precision;
  if (!workload || c.machines.size() < 2) return;
  std::vector<const RoofSet*> sets;
  for (const auto& m : c.machines) sets.push_back(&m.roofs);
  if (roofs.empty())
    for (const RoofSet* r : sets) roofs.push_back(select_compute_roof(*r, "").name);
  warn_comparison(sets, roofs, precision.empty(), "roofline.Chart");
}

/// As `roofline plot`: a point whose W counts other work than the roof it is judged on (an int8
/// point, OP, on roofs given as FLOP/s) is refused, not left out; a point without a roof of
/// its precision or levels is left out (fit_to_roofs).
void refuse_work_of_other_units(const std::vector<Point>& points, const RoofSet& roofs) {
  for (const Point& p : fit_to_roofs(points, roofs).points) diagnose(p, roofs);
}

/// The points as the chart judges them: one that names no precision takes the roof `precision`
/// names (as `plot --precision` writes it into the point).
std::vector<Point> named_points(const std::vector<Point>& points, const RoofSet& roofs,
                                const std::string& precision) {
  const std::string roof = precision.empty() ? "" : select_compute_roof(roofs, precision).name;
  std::vector<Point> named = points;
  for (auto& p : named)
    if (p.precision.empty()) p.precision = roof;
  return named;
}

ChartSpec make_chart(const std::vector<Machine>& machines, const std::vector<Point>& points,
                     const TextArg<"Chart: title">& title, std::optional<Real> workload_line,
                     BoolArg<"no_overlap_curve"> no_overlap_curve,
                     const TextArg<"precision">& precision,
                     const std::vector<std::string>& warnings,
                     const std::map<size_t, std::string>& does_not_fit) {
  ChartSpec c;
  std::vector<std::string> given;
  for (const auto& m : machines) {
    c.machines.push_back(m.doc);
    given.push_back(m.given);
  }
  distinct_machines(c.machines, given, "Chart");
  // As `plot --precision`: a point that names no precision is judged on the roof the precision
  // names (its name, as the CLI writes it into the point), read before the machines are drawn
  // at it.
  std::vector<Point> named = named_points(points, c.machines.front().roofs, precision.value);
  compare_at_precision(c, precision.value, workload_line.has_value());
  // As `roofline plot`: a point without a roof for its precision, or with none of its levels, is
  // left out, and traffic at a level the machine lacks too, each with a warning.
  const RoofSet& roofs = c.machines.front().roofs;
  c.does_not_fit = kept_indices(named, roofs, does_not_fit);
  c.warnings = warnings;
  FittedPoints fitted = fit_to_roofs(std::move(named), roofs);
  warn_each("roofline.Chart", fitted.warnings);
  if (fitted.points.empty() && !points.empty())
    throw InputError("Chart: " + none_judged(points.size(), terminal_safe(roofs.name)));
  c.points = std::move(fitted.points);
  c.not_drawn = std::move(fitted.left_out);  // the warnings' list: the chart says it too
  c.title = title;
  c.workload_line = workload_line;
  c.no_overlap_curve = no_overlap_curve;
  return c;
}

/// A chart saved over the document of one of its machines, or over another file it was drawn
/// from (`inputs`: llm.chart's model config.json), would replace that input, as `roofline plot
/// m.json -o m.json` and `roofline llm -m cfg.json --report cfg.json` refuse to. One file under
/// any name (a hard link too) is one file, as the CLI's ledger of a command's inputs tells
/// them (same_file); an input no longer there is no file to keep.
void refuse_saving_over_an_input(const ChartSpec& c, const std::string& path,
                                 const std::vector<std::string>& inputs) {
  for (const auto& m : c.machines) {
    std::error_code ec;
    if (!m.file.empty() && std::filesystem::equivalent(path, m.file, ec) && !ec)
      throw InputError(terminal_safe(path) + ": is the document of machine '" +
                       terminal_safe(m.roofs.name) + "' (" + terminal_safe(m.file) +
                       "); refusing to replace it: save the chart elsewhere");
  }
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (!in.empty() && std::filesystem::is_regular_file(in, ec) && same_file(path, in))
      throw InputError(terminal_safe(path) + ": is the model config the chart was drawn from (" +
                       terminal_safe(in) + "); refusing to replace it: save the chart elsewhere");
  }
}

}  // namespace

std::string chart_svg(const ChartSpec& c) {
  return render_svg(report_input(c));
}
std::string chart_html(const ChartSpec& c) {
  return render_html(report_input(c));
}

/// A chart's machines and precision checked as make_chart reads them, without drawing or
/// warning: Chart() checks its arguments when it is made (one machine given twice, a precision
/// a machine has no roof of, a point whose work its roof does not count).
void check_chart_machines(const std::vector<Machine>& machines,
                          const TextArg<"precision">& precision, const std::vector<Point>& points) {
  std::vector<MachineDocument> docs;
  std::vector<std::string> given;
  for (const auto& m : machines) {
    docs.push_back(m.doc);
    given.push_back(m.given);
  }
  distinct_machines(docs, given, "Chart");
  if (docs.empty()) return;
  if (!precision.empty()) {
    select_compute_roof(docs.front().roofs, precision);
    draw_at_precision(docs, precision.value);
  }
  const RoofSet& roofs = docs.front().roofs;
  refuse_work_of_other_units(named_points(points, roofs, precision.value), roofs);
}

void register_charts(py::module_& m) {
  m.def("_check_chart_machines", &check_chart_machines, py::arg("machines"), py::arg("precision"),
        py::arg("points") = std::vector<Point>{},
        "InputError when a Chart's machines hold one machine twice or one has no roof of this "
        "precision, or a point counts other work than the roof it is judged on (as "
        "Chart.to_svg() would refuse them).");
  py::class_<ChartSpec>(m, "_Chart")
      .def(py::init(&make_chart), py::arg("machines"), py::arg("points"), py::arg("title"),
           py::arg("workload_line"), py::arg("no_overlap_curve"), py::arg("precision") = "",
           py::arg("warnings") = std::vector<std::string>{},
           py::arg("does_not_fit") = std::map<size_t, std::string>{})
      .def("to_svg", &chart_svg)
      .def("to_html", &chart_html)
      .def("to_csv", [](const ChartSpec& c) { return render_csv(report_input(c)); })
      .def("to_json",
           [](const ChartSpec& c) { return json_to_python(render_json(report_input(c))); })
      .def("not_drawn",
           [](const ChartSpec& c) {
             py::list out;
             for (const auto& l : c.not_drawn) {
               py::dict d;
               d["name"] = l.name;
               d["reason"] = l.reason;
               d["detail"] = l.detail;
               out.append(d);
             }
             return out;
           })
      .def("to_terminal",
           [](const ChartSpec& c, int columns) {
             return render_terminal(report_input(c), columns, false);
           })
      .def(
          "save",
          [](const ChartSpec& c, const PathArg<"path">& path,
             const std::vector<std::string>& inputs) {
            // As Machine.save says it, not the format's "no extension" of a name with nothing.
            if (path.value.empty()) throw InputError("path: an empty file name");
            check_report_path(path.value);
            refuse_saving_over_an_input(c, path.value, inputs);
            write_report(path.value, report_input(c));
          },
          py::arg("path"), py::arg("inputs") = std::vector<std::string>{})
      .def("__repr__", [](const ChartSpec& c) {
        return "<_Chart '" + terminal_safe(c.title) + "': " + std::to_string(c.machines.size()) +
               (c.machines.size() == 1 ? " machine, " : " machines, ") +
               std::to_string(c.points.size()) + (c.points.size() == 1 ? " point>" : " points>");
      });
}

}  // namespace roofline::python
