// The reporting interface: render_svg and write_report, which picks the renderer from the file
// name and writes atomically (nothing half-written on any error).
#include <algorithm>
#include <cctype>

#include "report/chart.hpp"
#include "report/svg.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"

namespace roofline {

std::string render_svg(const ReportInput& in) {
  const report::SvgOptions o;
  const report::PlotArea pa = report::plot_area(o);
  const report::Chart ch = report::build_chart(in, pa.right - pa.left, pa.bottom - pa.top);
  return report::render_svg_chart(ch, o);
}

void write_report(const std::filesystem::path& path, const ReportInput& in) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string content;
  if (ext == ".svg") {
    content = render_svg(in);
  } else if (ext == ".html" || ext == ".htm") {
    content = render_html(in);
  } else if (ext == ".json") {
    content = render_json(in).dump(2) + "\n";
  } else if (ext == ".csv") {
    content = render_csv(in);
  } else if (ext == ".png") {
    // Rasterisers take the light style only (no prefers-color-scheme).
    report::SvgOptions o;
    o.dark_mode = false;
    const report::PlotArea pa = report::plot_area(o);
    const report::Chart ch = report::build_chart(in, pa.right - pa.left, pa.bottom - pa.top);
    content = svg_to_png(report::render_svg_chart(ch, o));
  } else {
    throw InputError(path.string() + ": unknown report format '" + ext +
                     "' (use .svg, .html, .png, .json or .csv)");
  }
  write_file_atomic(path, content);
}

}  // namespace roofline
