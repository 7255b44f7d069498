// The reporting interface: render_svg and write_report, which picks the renderer from the file
// name and writes atomically (nothing half-written on any error).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "report/chart.hpp"
#include "report/svg.hpp"
#include "report/svg_text.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

std::string render_svg(const ReportInput& in) {
  report::SvgOptions o;
  const report::Chart ch = report::chart_for_svg(in, o);
  return report::render_svg_chart(ch, o);
}

std::vector<std::string> draw_at_precision(std::vector<MachineDocument>& machines,
                                           const std::string& precision) {
  std::vector<std::string> names;
  if (precision.empty()) return names;
  for (auto& m : machines) {
    const ComputeRoof& c = select_compute_roof(m.roofs, precision);
    if (c.sparse)
      throw InputError("--precision '" + terminal_safe(precision) + "': '" + terminal_safe(c.name) +
                       "' of " + terminal_safe(m.roofs.name) +
                       " is a sparse roof, never drawn as a machine's default; name a dense roof "
                       "or a precision");
    names.push_back(c.name);
  }
  for (size_t k = 0; k < machines.size(); ++k) machines[k].roofs.default_compute = names[k];
  return names;
}

namespace {
constexpr const char* kReportFormats = ".svg, .html, .png, .json or .csv";
std::string report_extension(const std::filesystem::path& path) {
  return report::lower_extension(path);
}
}  // namespace

void check_report_path(const std::filesystem::path& path) {
  const std::string ext = report_extension(path);
  if (ext != ".svg" && ext != ".html" && ext != ".htm" && ext != ".json" && ext != ".csv" &&
      ext != ".png")
    report::unknown_chart_format(path, ext, "", kReportFormats);
  check_writable_path(path);
  if (ext == ".png") check_png_export(path);
}

void check_png_export(const std::filesystem::path& path) {
  temp_directory();  // where the SVG is rasterised: a folder that cannot be written is said now
  if (find_program("rsvg-convert").empty())
    throw Unavailable(path.string() +
                      ": PNG export needs rsvg-convert (Debian package librsvg2-bin), which is "
                      "not on the PATH; write .svg or .html instead");
}

void write_report(const std::filesystem::path& path, const ReportInput& in) {
  const std::string ext = report_extension(path);
  std::string content;
  if (ext == ".svg") {
    content = render_svg(in);
  } else if (ext == ".html" || ext == ".htm") {
    content = render_html(in);
  } else if (ext == ".json") {
    content = terminal_safe_lines(json_text(render_json(in)) + "\n");  // the same JSON, escaped
  } else if (ext == ".csv") {
    content = render_csv(in);
  } else if (ext == ".png") {
    // Rasterisers take the light style only (no prefers-color-scheme).
    report::SvgOptions o;
    o.dark_mode = false;
    const report::Chart ch = report::chart_for_svg(in, o);
    content = png_for_file(path, report::render_svg_chart(ch, o));
  } else {
    report::unknown_chart_format(path, ext, "", kReportFormats);
  }
  write_file_atomic(path, content);
}

}  // namespace roofline
