#pragma once
// Small pieces every SVG and HTML renderer writes: numbers for coordinates and data attributes,
// attributes and text elements (escaped), a text-width estimate, and a file's lower-case
// extension (the renderers pick their format from it).
#include <filesystem>
#include <string>

namespace roofline::report {

/// A coordinate: at most two decimals, no trailing zeros ("12.5", "-3", "0").
std::string svg_num(double v);
/// A value kept for scripts and tests: nine significant digits ("1.95e+13").
std::string svg_exact(double v);
/// ` name="value"` with the value escaped, or a coordinate.
std::string svg_attr(const std::string& name, const std::string& value);
std::string svg_attr(const std::string& name, double value);
/// `<text x y class [text-anchor] extra>escaped</text>`.
std::string svg_text(double x, double y, const std::string& s, const std::string& cls,
                     const std::string& anchor = "start", const std::string& extra = "");
/// Width of a text in the sans-serif fonts the charts use, from DejaVu Sans's advance widths
/// (the widest of them); `bold` for DejaVu Sans Bold (font-weight 600 or more). The text is
/// measured as svg_text draws it: control and bidirectional characters escaped.
double text_width(const std::string& s, double font, bool bold = false);
/// The style every chart shares: background, text, title, subtitle, ticks, axis titles, frame,
/// grid and legend text; light, and the dark variant inside a prefers-color-scheme query. Each
/// chart appends the rules of its own elements.
extern const char* const kAxesStyleLight;
extern const char* const kAxesStyleDark;
/// ".svg", ".html", ... in lower case ("" when there is none): the format of a chart to write.
/// InputError for a folder ("out/"), which has no format to tell.
std::string lower_extension(const std::filesystem::path& path);
/// The InputError for a chart file whose extension `ext` is not one of `known` (".svg or
/// .png"): "no extension to tell the format" when the name has none, else "unknown format '.pdf'";
/// `chart` names the chart where a command writes several (" for the energy chart").
[[noreturn]] void unknown_chart_format(const std::filesystem::path& path, const std::string& ext,
                                       const std::string& chart, const std::string& known);

}  // namespace roofline::report
