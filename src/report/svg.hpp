#pragma once
// The SVG chart, with the options the HTML page and the PNG export need.
#include <string>

#include "report/chart.hpp"

namespace roofline::report {

struct SvgOptions {
  /// Include the prefers-color-scheme dark rules (off for PNG: rasterisers read them literally).
  bool dark_mode = true;
  /// Size in CSS pixels.
  double width = 960, height = 640;
};

/// Plot area inside the SVG (outside it: title, axes, legend).
struct PlotArea {
  double left, right, top, bottom;
};
PlotArea plot_area(const SvgOptions& o);

std::string render_svg_chart(const Chart& chart, const SvgOptions& o);

/// Okabe–Ito colour (colour-blind safe) for a verdict, and its marker shape name.
const char* verdict_colour(Verdict v);
const char* verdict_marker(Verdict v);

}  // namespace roofline::report
