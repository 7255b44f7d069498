// The memory-wall trajectory (docs/model.md §8): ridge points I* against release year, log y, one
// series per precision group, each device labelled under its column. SVG first; the HTML page
// wraps the SVG with a table of the values; PNG rasterises the light SVG with svg_to_png.
#include "roofline/trajectory.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "report/chart.hpp"
#include "report/chart_fit.hpp"
#include "report/svg.hpp"
#include "report/svg_text.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

using report::kAxesStyleDark;
using report::kAxesStyleLight;
using report::text_width;
std::string num(double v) {
  return report::svg_num(v);
}
std::string exact(double v) {
  return report::svg_exact(v);
}
std::string attr(const std::string& name, const std::string& value) {
  return report::svg_attr(name, value);
}
std::string attr(const std::string& name, double value) {
  return report::svg_attr(name, value);
}
std::string text(double x, double y, const std::string& s, const std::string& cls,
                 const std::string& anchor = "start", const std::string& extra = "") {
  return report::svg_text(x, y, s, cls, anchor, extra);
}

// Okabe & Ito, "Color Universal Design" (2008): colours told apart with colour-vision
// deficiency; the shapes tell the series apart in print as well. A marker is a graphic that must
// be seen (WCAG 2.1 SC 1.4.11: 3:1 against the background), so the fill on the light page (the
// attribute, which PNG takes too) and on the dark one (a rule of the series' class) differ where
// Okabe & Ito's own does not read there: orange, sky blue and yellow darkened on white, black
// lightened on the dark page (tests/report/test_palette.cpp reads them back from the chart).
struct SeriesColour {
  const char *light, *dark;
};
constexpr SeriesColour kColours[] = {
    {"#0072B2", "#0072B2"}, {"#009E73", "#009E73"}, {"#D55E00", "#D55E00"}, {"#CC79A7", "#CC79A7"},
    {"#BB8100", "#E69F00"}, {"#1C95D9", "#56B4E9"}, {"#000000", "#C9D1D9"}, {"#978E0C", "#F0E442"}};
constexpr const char* kShapes[] = {"circle", "square", "diamond", "triangle"};
constexpr size_t kColourCount = sizeof kColours / sizeof kColours[0];

/// A series' marker attributes: its class (which the dark page's rule recolours) and its fill.
std::string series_fill(size_t k) {
  const size_t c = k % kColourCount;
  return " class=\"marker series-mark-" + std::to_string(c) + "\"" +
         attr("fill", kColours[c].light);
}
/// The dark page's fill of each series' markers.
std::string series_dark_rules() {
  std::string s = "@media (prefers-color-scheme: dark){\n";
  for (size_t c = 0; c < kColourCount; ++c)
    s += ".series-mark-" + std::to_string(c) + "{fill:" + kColours[c].dark + "}\n";
  return s + "}\n";
}

/// A marker centred on (0, 0); the group around it carries the position.
std::string shape_at_origin(const std::string& shape, double r, const std::string& extra) {
  if (shape == "square")
    return "<rect" + attr("x", -r * 0.85) + attr("y", -r * 0.85) + attr("width", r * 1.7) +
           attr("height", r * 1.7) + extra + "/>";
  if (shape == "diamond")
    return "<path d=\"M0 " + num(-r * 1.2) + "L" + num(r * 1.2) + " 0L0 " + num(r * 1.2) + "L" +
           num(-r * 1.2) + " 0Z\"" + extra + "/>";
  if (shape == "triangle")
    return "<path d=\"M0 " + num(-r * 1.2) + "L" + num(r * 1.1) + " " + num(r * 0.8) + "L" +
           num(-r * 1.1) + " " + num(r * 0.8) + "Z\"" + extra + "/>";
  return "<circle cx=\"0\" cy=\"0\"" + attr("r", r) + extra + "/>";
}

// The trajectory chart's own rules, after kAxesStyleLight / kAxesStyleDark.
const char* kTrajectoryStyleLight = R"(
.note{font-size:12px;fill:#57606a}
.year-sep{stroke:#d0d7de;stroke-width:.8}
.device-guide{stroke:#8c959f;stroke-width:.6;stroke-dasharray:1 3}
.device-label{font-size:10.5px;fill:#3d444d}
.marker{stroke:#ffffff;stroke-width:1.1}
)";
const char* kTrajectoryStyleDark = R"(
@media (prefers-color-scheme: dark){
.note{fill:#9ea7b3}
.device-label{fill:#c9d1d9}
.year-sep{stroke:#30363d}
.device-guide{stroke:#6e7681}
.marker{stroke:#0d1117}
}
)";

struct Column {
  std::string device;
  int year = 0;
  double x = 0;  ///< year axis value of the device's column (year ± its slot)
};

void check_input(const TrajectoryInput& in) {
  size_t n = 0;
  for (const auto& s : in.series)
    for (const auto& p : s.points) {
      ++n;
      if (p.year <= 0)
        throw InputError("trajectory: '" + p.device + "' has no release year (series " + s.label +
                         ")");
      if (!(p.ridge > 0) || !std::isfinite(p.ridge))
        throw InputError("trajectory: '" + p.device + "' has ridge " + format_number(p.ridge) +
                         " in series " + s.label + " (must be > 0)");
    }
  if (n == 0) throw InputError("trajectory: no device with a release year and a ridge point");
}

/// The distance between the columns of a year's `n` devices, in years: they share 0.86 of the
/// year, at most 0.22 apart.
double column_slot(size_t n) {
  return std::min(0.86 / static_cast<double>(n), 0.22);
}
/// The least distance between two device names (10.5 px, set on end): the font's height and air.
constexpr double kNamePitch = 12.5;
/// The legend's text (.legend-text, 11.5 px) and its rows' baselines, 20 px apart; the note
/// that names the undated devices (.note, 12 px).
constexpr double kLegendFont = 11.5;
constexpr double kLegendRowStep = 20;
constexpr double kNoteFont = 12;

/// One column per device, devices of one year side by side in the order they first appear,
/// so a device's markers of every series stand one above the other over its name.
std::vector<Column> columns_of(const TrajectoryInput& in) {
  std::vector<Column> cols;
  std::set<std::string> seen;
  for (const auto& s : in.series)
    for (const auto& p : s.points)
      if (seen.insert(p.device).second) cols.push_back({p.device, p.year, 0});
  std::stable_sort(cols.begin(), cols.end(),
                   [](const Column& a, const Column& b) { return a.year < b.year; });
  std::map<int, size_t> per_year;
  for (const auto& c : cols) ++per_year[c.year];
  std::map<int, size_t> index;
  for (auto& c : cols) {
    const double n = static_cast<double>(per_year[c.year]);
    const double slot = column_slot(per_year[c.year]);
    const double k = static_cast<double>(index[c.year]++);
    c.x = c.year + (k - (n - 1) / 2) * slot;
  }
  return cols;
}

/// The legend's entries, "LABEL (N devices)", each within a row (cut with "…" where wider), and
/// where each goes: left to right from the plot's left edge, a new row kLegendRowStep lower where
/// an entry would pass the canvas's right margin.
struct LegendEntry {
  std::string label;
  double x = 0, row = 0;
};
std::vector<LegendEntry> legend_entries(const TrajectoryInput& in, double left, double right) {
  std::vector<LegendEntry> out;
  double lx = left, row = 0;
  for (const auto& ser : in.series) {
    // The marker takes 22 px before the text, and 18 px of air follow it.
    const std::string label = report::fit_title(
        ser.label + " (" + std::to_string(ser.points.size()) + " devices)",
        [&](const std::string& t) { return 22 + text_width(t, kLegendFont) <= right - left; });
    const double w = 22 + text_width(label, kLegendFont);
    if (lx + w > right && lx > left) lx = left, row += 1;
    out.push_back({label, lx, row});
    lx += w + 18;
  }
  return out;
}
/// The rows the legend takes (at least one).
double legend_rows(const TrajectoryInput& in, double left, double right) {
  const auto entries = legend_entries(in, left, right);
  return entries.empty() ? 1 : entries.back().row + 1;
}
/// The chart's geometry: the axes' ranges, the plot's box in pixels, where the device names and
/// the legend go, the axis titles, and each device's column.
struct TrajectoryFrame {
  int y0 = 0, y1 = 0;           ///< first and last release year
  double x_min = 0, x_max = 0;  ///< year axis
  double ylo = 0, yhi = 0;      ///< log10 of the I* axis
  double width = 0, height = 0, left = 0, right = 0, top = 0, bottom = 0;
  double names_top = 0, legend_y = 0;
  double undated_y = 0;  ///< the baseline of the line of devices without a release year
  report::LogScale Y;
  std::string y_title, x_title;
  std::map<std::string, double> column_x;  ///< device → year axis value of its column
  /// Pixel x of a year axis value.
  double X(double year) const { return left + (year - x_min) / (x_max - x_min) * (right - left); }
};

/// The geometry from the points: ranges, size (wider with many devices, taller with long
/// names), titles.
TrajectoryFrame trajectory_frame(const TrajectoryInput& in, const std::vector<Column>& cols) {
  TrajectoryFrame f;
  for (const auto& c : cols) f.column_x[c.device] = c.x;

  // Axis ranges: whole years with half a year either side; whole decades of I*.
  int y0 = cols.front().year, y1 = cols.front().year;
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  std::set<std::string> units;
  for (const auto& s : in.series)
    for (const auto& p : s.points) {
      y0 = std::min(y0, p.year), y1 = std::max(y1, p.year);
      lo = std::min(lo, p.ridge), hi = std::max(hi, p.ridge);
      units.insert(p.unit.empty() ? "FLOP/byte" : p.unit);
    }
  f.y0 = y0, f.y1 = y1;
  f.x_min = y0 - 0.6, f.x_max = y1 + 0.6;
  double ylo = std::floor(std::log10(lo) - 0.02), yhi = std::ceil(std::log10(hi) + 0.02);
  if (yhi - ylo < 1) yhi = ylo + 1;
  f.ylo = ylo, f.yhi = yhi;

  // Wide enough that the names of the busiest year's devices stand clear of each other.
  std::map<int, size_t> per_year;
  for (const auto& c : cols) ++per_year[c.year];
  double slot = 1;
  for (const auto& [year, n] : per_year) slot = std::min(slot, column_slot(n));
  const double plot_width = kNamePitch / slot * (f.x_max - f.x_min);
  f.width = std::max({960.0, 140 + 16.0 * static_cast<double>(cols.size()), 124 + plot_width});
  f.left = 96, f.right = f.width - 28, f.top = 70, f.bottom = f.top + 420;
  double name_len = 0;
  for (const auto& c : cols) name_len = std::max(name_len, text_width(c.device, 10.5));
  f.names_top = f.bottom + 52;
  f.legend_y = f.names_top + name_len + 28;
  // The legend's rows, then the line of undated devices under them.
  const double last_row = f.legend_y + (legend_rows(in, f.left, f.width - 8) - 1) * kLegendRowStep;
  f.undated_y = last_row + 24;
  f.height = last_row + 26 + (in.undated.empty() ? 0 : 20);
  f.Y = report::LogScale{ylo, yhi, f.bottom, f.top};

  f.y_title = "Ridge point I* [" + join(units) + "]";
  f.x_title = "Release year";
  return f;
}

/// The <svg> element's opening: title, description, style, background, the chart's titles.
std::string trajectory_svg_head(const TrajectoryInput& in, const TrajectoryFrame& f,
                                bool dark_mode) {
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" + attr("width", f.width) +
       attr("height", f.height) + " viewBox=\"0 0 " + num(f.width) + " " + num(f.height) +
       "\" class=\"roofline-trajectory\" role=\"img\"" + attr("aria-label", in.title) + ">\n";
  s += "<title>" + xml_text(in.title) + "</title>\n";
  s += "<desc>Memory-wall trajectory: " + xml_text(f.y_title) + " (log) against " +
       xml_text(f.x_title) + ", one series per precision group.</desc>\n";
  s += "<style>" + std::string(kAxesStyleLight) + kTrajectoryStyleLight +
       (dark_mode ? std::string(kAxesStyleDark) + kTrajectoryStyleDark + series_dark_rules()
                  : std::string()) +
       "</style>\n";
  s += "<rect class=\"bg\" x=\"0\" y=\"0\"" + attr("width", f.width) + attr("height", f.height) +
       "/>\n";
  s += report::title_text(f.left, f.width - f.left - 8, in.title);
  // Within the width, as the title: cut with "…", the whole line in its <title>.
  if (!in.subtitle.empty())
    s += report::fitted_text(f.left, 48, f.width - f.left - 8, in.subtitle, "subtitle", 12);
  return s;
}

/// The plot group's opening and the grid: decades of I*, the boundaries between years, a guide
/// up each device's column.
std::string trajectory_grid(const TrajectoryFrame& f, const std::vector<Column>& cols) {
  const double left = f.left, right = f.right, top = f.top, bottom = f.bottom;
  std::string s;
  // The plot group carries the mapping so a reader (or a test) can recover values from pixels.
  s += "<g id=\"plot\"" + attr("data-x-min", exact(f.x_min)) + attr("data-x-max", exact(f.x_max)) +
       attr("data-y-log-min", exact(f.ylo)) + attr("data-y-log-max", exact(f.yhi)) +
       attr("data-left", exact(left)) + attr("data-right", exact(right)) +
       attr("data-top", exact(top)) + attr("data-bottom", exact(bottom)) + ">\n";
  s += "<g class=\"grid\">\n";
  for (double v : report::minor_ticks(f.ylo, f.yhi))
    s += "<line class=\"grid-minor\"" + attr("x1", left) + attr("x2", right) + attr("y1", f.Y(v)) +
         attr("y2", f.Y(v)) + "/>\n";
  for (double v : report::decade_ticks(f.ylo, f.yhi))
    s += "<line class=\"grid-major\"" + attr("x1", left) + attr("x2", right) + attr("y1", f.Y(v)) +
         attr("y2", f.Y(v)) + "/>\n";
  for (int y = f.y0; y < f.y1; ++y)  // boundaries between years
    s += "<line class=\"year-sep\"" + attr("x1", f.X(y + 0.5)) + attr("x2", f.X(y + 0.5)) +
         attr("y1", top) + attr("y2", bottom) + "/>\n";
  for (const auto& c : cols)
    s += "<line class=\"device-guide\"" + attr("data-device", c.device) + attr("x1", f.X(c.x)) +
         attr("x2", f.X(c.x)) + attr("y1", top) + attr("y2", bottom) + "/>\n";
  s += "</g>\n";
  return s;
}

/// The axes: frame, a tick per year and per decade of I* (minor ticks between), axis titles.
std::string trajectory_axes(const TrajectoryFrame& f) {
  const double left = f.left, right = f.right, top = f.top, bottom = f.bottom;
  std::string s = "<g class=\"axes\">\n";
  s += "<rect class=\"frame\"" + attr("x", left) + attr("y", top) + attr("width", right - left) +
       attr("height", bottom - top) + "/>\n";
  for (int y = f.y0; y <= f.y1; ++y) {
    s += "<line class=\"tick-mark\"" + attr("x1", f.X(y)) + attr("x2", f.X(y)) +
         attr("y1", bottom) + attr("y2", bottom + 6) + "/>\n";
    s += text(f.X(y), bottom + 20, std::to_string(y), "tick x-tick", "middle",
              attr("data-value", std::to_string(y)));
  }
  for (double v : report::decade_ticks(f.ylo, f.yhi)) {
    s += "<line class=\"tick-mark\"" + attr("x1", left - 6) + attr("x2", left) +
         attr("y1", f.Y(v)) + attr("y2", f.Y(v)) + "/>\n";
    s += text(left - 9, f.Y(v) + 4, report::intensity_tick(v, f.ylo, f.yhi), "tick y-tick", "end",
              attr("data-value", exact(v)));
  }
  for (double v : report::minor_ticks(f.ylo, f.yhi))
    s += "<line class=\"tick-mark\"" + attr("x1", left - 3) + attr("x2", left) +
         attr("y1", f.Y(v)) + attr("y2", f.Y(v)) + "/>\n";
  s += text((left + right) / 2, bottom + 40, f.x_title, "axis-title x-title", "middle");
  s += text(0, 0, f.y_title, "axis-title y-title", "middle",
            " transform=\"translate(24," + num((top + bottom) / 2) + ") rotate(-90)\"");
  s += "</g>\n";
  return s;
}

/// A marker's radius, and how far apart (px) markers of one column that would hide each other
/// are drawn side by side.
constexpr double kMarkerRadius = 5.5;
constexpr double kBesideStep = 9;

/// Where a device's markers would hide each other (centres less than a marker's radius apart
/// up the column: a100-40gb's fp64 and fp32 ridges are both 12.54), they stand side by side,
/// kBesideStep px apart and centred on the column, in the order of their series. Per series and
/// point: the shift in px (0 for a marker alone) and the other series' labels of its group.
struct Beside {
  double dx = 0;
  std::vector<std::string> others;
};
std::map<std::pair<size_t, size_t>, Beside> markers_beside(const TrajectoryInput& in,
                                                           const TrajectoryFrame& f) {
  struct Mark {
    double y;
    size_t series, point;
  };
  std::map<std::string, std::vector<Mark>> per_device;
  for (size_t k = 0; k < in.series.size(); ++k)
    for (size_t i = 0; i < in.series[k].points.size(); ++i)
      per_device[in.series[k].points[i].device].push_back(
          {f.Y(in.series[k].points[i].ridge), k, i});
  std::map<std::pair<size_t, size_t>, Beside> out;
  for (auto& [device, marks] : per_device) {
    std::stable_sort(marks.begin(), marks.end(),
                     [](const Mark& a, const Mark& b) { return a.y < b.y; });
    for (size_t a = 0; a < marks.size();) {
      size_t b = a + 1;  // a run of marks, each within a radius of the one before
      while (b < marks.size() && marks[b].y - marks[b - 1].y < kMarkerRadius) ++b;
      std::vector<Mark> group(marks.begin() + static_cast<std::ptrdiff_t>(a),
                              marks.begin() + static_cast<std::ptrdiff_t>(b));
      std::stable_sort(group.begin(), group.end(),
                       [](const Mark& x, const Mark& y) { return x.series < y.series; });
      const double n = static_cast<double>(group.size());
      for (size_t g = 0; g < group.size() && group.size() > 1; ++g) {
        Beside& at = out[{group[g].series, group[g].point}];
        at.dx = (static_cast<double>(g) - (n - 1) / 2) * kBesideStep;
        for (const Mark& other : group)
          if (other.series != group[g].series) at.others.push_back(in.series[other.series].label);
      }
      a = b;
    }
  }
  return out;
}

/// The markers: one per device and series, at (its column, I*), each with its values as a
/// tooltip and data attributes; markers that would hide each other side by side (markers_beside).
std::string trajectory_markers(const TrajectoryInput& in, const TrajectoryFrame& f) {
  const auto beside = markers_beside(in, f);
  std::string s;
  for (size_t k = 0; k < in.series.size(); ++k) {
    const TrajectorySeries& ser = in.series[k];
    const std::string shape = kShapes[k % 4];
    s += "<g" + attr("class", "series series-" + std::to_string(k)) +
         attr("data-series", ser.label) + ">\n";
    for (size_t i = 0; i < ser.points.size(); ++i) {
      const TrajectoryPoint& p = ser.points[i];
      const double column = f.column_x.at(p.device);
      const auto near = beside.find({k, i});
      const double dx = near == beside.end() ? 0 : near->second.dx;
      const double x = f.X(column) + dx, y = f.Y(p.ridge);
      const std::string unit = p.unit.empty() ? "FLOP/byte" : p.unit;
      std::string tip = p.device + " (" + std::to_string(p.year) + "), " + ser.label +
                        ": I* = " + format_number(p.ridge, 4) + " " + unit + " (" + p.compute_roof +
                        " / " + p.memory_level + ")";
      if (near != beside.end())
        tip += "; drawn beside " + join(near->second.others) + " at about the same I*";
      s += "<g class=\"trajectory-point\"" + attr("data-device", p.device) +
           (near != beside.end() ? attr("data-beside", exact(dx)) : std::string()) +
           attr("data-series", ser.label) + attr("data-year", std::to_string(p.year)) +
           attr("data-x", exact(column)) + attr("data-ridge", exact(p.ridge)) +
           attr("data-unit", unit) + attr("data-compute-roof", p.compute_roof) +
           attr("data-memory-level", p.memory_level) + " transform=\"translate(" + num(x) + "," +
           num(y) + ")\"><title>" + xml_text(tip) + "</title>" +
           shape_at_origin(shape, kMarkerRadius, series_fill(k)) + "</g>\n";
    }
    s += "</g>\n";
  }
  return s;
}

/// Device names under their columns, read bottom to top.
std::string trajectory_device_labels(const TrajectoryFrame& f, const std::vector<Column>& cols) {
  std::string s = "<g class=\"device-labels\">\n";
  for (const auto& c : cols)
    s += "<text class=\"device-label\"" + attr("data-device", c.device) + " text-anchor=\"end\"" +
         " transform=\"translate(" + num(f.X(c.x) + 3.5) + "," + num(f.names_top) +
         ") rotate(-90)\">" + xml_text(c.device) + "</text>\n";
  s += "</g>\n";
  return s;
}

/// The line under the legend that names the devices left out for want of a release year: as
/// many as the width holds, the rest counted.
std::string undated_line(const TrajectoryInput& in, double room) {
  return report::fit_list("Not drawn (no release year): ", in.undated,
                          [&](const std::string& l) { return text_width(l, kNoteFont) <= room; });
}

/// The legend: one entry per series (its marker, label and device count), then the devices
/// left out for want of a release year.
std::string trajectory_legend(const TrajectoryInput& in, const TrajectoryFrame& f) {
  std::string s = "<g class=\"legend\">\n";
  const auto entries = legend_entries(in, f.left, f.width - 8);
  for (size_t k = 0; k < in.series.size(); ++k) {
    const LegendEntry& e = entries[k];
    const double y = f.legend_y + e.row * kLegendRowStep;
    s += "<g" + attr("data-series", in.series[k].label) + " transform=\"translate(" + num(e.x) +
         "," + num(y) + ")\">" + "<g transform=\"translate(8,0)\">" +
         shape_at_origin(kShapes[k % 4], 5.5, series_fill(k)) + "</g>" +
         text(22, 4, e.label, "legend-text") + "</g>\n";
  }
  s += "</g>\n";
  const std::string undated = undated_line(in, f.width - f.left - 8);
  if (!undated.empty()) s += text(f.left, f.undated_y, undated, "note");
  return s;
}

}  // namespace

std::string render_trajectory_svg(const TrajectoryInput& in, bool dark_mode) {
  check_input(in);
  // The devices' columns and the chart's geometry.
  const std::vector<Column> cols = columns_of(in);
  const TrajectoryFrame f = trajectory_frame(in, cols);
  // Head, then the plot group (grid, axes, markers), the device names and the legend.
  std::string s = trajectory_svg_head(in, f, dark_mode);
  s += trajectory_grid(f, cols);
  s += trajectory_axes(f);
  s += trajectory_markers(in, f);
  s += "</g>\n";  // #plot
  s += trajectory_device_labels(f, cols);
  s += trajectory_legend(in, f);
  s += "</svg>\n";
  return s;
}

std::string render_trajectory_html(const TrajectoryInput& in) {
  const std::string svg = render_trajectory_svg(in, true);
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>" + xml_text(in.title) + "</title>\n<style>\n";
  h += "body{margin:24px;font-family:\"DejaVu Sans\",\"Helvetica Neue\",Helvetica,Arial,"
       "sans-serif;color:#1f2328;background:#ffffff}\n"
       "svg{max-width:100%;height:auto}\n"
       "table{border-collapse:collapse;margin-top:16px;font-size:13px}\n"
       "th,td{border-bottom:1px solid #d0d7de;padding:3px 10px;text-align:left}\n"
       "td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
       "@media (prefers-color-scheme: dark){body{color:#e6edf3;background:#0d1117}"
       "th,td{border-color:#30363d}}\n";
  h += "</style>\n</head>\n<body>\n";
  h += svg;
  h += "<table class=\"trajectory-data\">\n<thead><tr><th>series</th><th>year</th><th>device</th>"
       "<th>compute roof</th><th>memory</th><th>I*</th></tr></thead>\n<tbody>\n";
  for (const auto& ser : in.series)
    for (const auto& p : ser.points)
      h += "<tr><td>" + xml_text(ser.label) + "</td><td class=\"num\">" + std::to_string(p.year) +
           "</td><td>" + xml_text(p.device) + "</td><td>" + xml_text(p.compute_roof) + "</td><td>" +
           xml_text(p.memory_level) + "</td><td class=\"num\">" +
           xml_text(format_number(p.ridge, 4)) + " " +
           xml_text(p.unit.empty() ? "FLOP/byte" : p.unit) + "</td></tr>\n";
  h += "</tbody>\n</table>\n</body>\n</html>\n";
  return h;
}

void check_trajectory_format(const std::filesystem::path& path) {
  const std::string ext = report::lower_extension(path);
  if (ext != ".svg" && ext != ".html" && ext != ".htm" && ext != ".png")
    report::unknown_chart_format(path, ext, " for the trajectory chart", ".svg, .html or .png");
}

void write_trajectory(const std::filesystem::path& path, const TrajectoryInput& in) {
  check_trajectory_format(path);
  const std::string ext = report::lower_extension(path);
  std::string content;
  if (ext == ".svg")
    content = render_trajectory_svg(in, true);
  else if (ext == ".png")  // rasterisers take the light style only (no prefers-color-scheme)
    content = png_for_file(path, render_trajectory_svg(in, false));
  else
    content = render_trajectory_html(in);
  write_file_atomic(path, content);
}

}  // namespace roofline
