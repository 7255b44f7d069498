#pragma once
// The SVG chart, with the options the HTML page and the PNG export need.
#include <string>

#include "report/chart.hpp"

namespace roofline::report {

struct SvgOptions {
  /// Include the prefers-color-scheme dark rules (off for PNG: rasterisers read them literally).
  bool dark_mode = true;
  /// Also draw the roofs outside the view, hidden (display="none"), with the attributes the
  /// HTML page's toggles use; their labels are placed after all others.
  bool include_optional = false;
  /// Size in CSS pixels.
  double width = 960, height = 640;
  /// Width of the column right of the plot that holds the flat roofs' labels (chart_for_svg).
  double label_column = 0;
  /// Left of the plot: the y ticks and axis title (chart_for_svg widens it for long ticks).
  double axis_left = 104;
  /// Top of the plot: 66 px, 84 where a line under the subtitle says the points not drawn
  /// (chart_for_svg).
  double plot_top = 66;
  /// Height added under the plot for legend rows the canvas would not hold (chart_for_svg adds
  /// as much to `height`): the plot keeps its size, the canvas grows.
  double legend_extra = 0;
};

/// Plot area inside the SVG (outside it: title, axes, legend).
struct PlotArea {
  double left, right, top, bottom;
};
PlotArea plot_area(const SvgOptions& o);

/// The column width the flat roofs' labels need (at most a third of the width; 0: no flat roof).
double label_column_width(const Chart& chart, const SvgOptions& o);
/// Sets o.label_column and lays the chart out for the plot area that leaves.
Chart chart_for_svg(const ReportInput& in, SvgOptions& o);

std::string render_svg_chart(const Chart& chart, const SvgOptions& o);

/// The chart's title at (x, 28) within `room` px (fit_title): whole, or cut with "…" and the
/// whole title as the text's <title>. The energy and trajectory charts draw theirs with it.
std::string title_text(double x, double room, const std::string& title);
/// A line of text with its baseline at (x, y), of class `cls`, within `room` px as measured at
/// `font` px (`bold`: DejaVu Sans Bold): whole, or cut with "…" (fit_title) and the whole text
/// as the element's <title>. The energy and trajectory charts draw their subtitles with it.
std::string fitted_text(double x, double y, double room, const std::string& text,
                        const std::string& cls, double font, bool bold = false);

/// Okabe–Ito colour (colour-blind safe) for a verdict, and its marker shape name.
const char* verdict_colour(Verdict v);
const char* verdict_marker(Verdict v);
/// The class that gives a text (a point's name, its headroom factor, the tooltip's verdict)
/// its verdict's text colour ("verdict-text-far-below").
std::string verdict_text_class(Verdict v);
/// One rule per verdict, `scope.verdict-text-…{property:colour}`, for the light or the dark
/// page: a shade of the marker's colour that reads at 5:1 or more there (WCAG AA asks 4.5:1 of
/// text), the marker's own where it does.
std::string verdict_text_rules(const std::string& scope, const std::string& property, bool dark);

}  // namespace roofline::report
