// The roofline chart as SVG: log-log axes with decade and minor ticks, roofs (measured solid,
// theoretical/datasheet dashed, theoretical value of measured roofs faint), ridge points, points
// coloured and shaped by their diagnosis, headroom lines, overlays. Labels are placed so that
// none overlaps another label or a point marker (svg_layout.hpp); the HTML page's optional roofs
// are drawn hidden, their labels placed after every other label so any of them can be shown.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

#include "report/chart_fit.hpp"
#include "report/svg.hpp"
#include "report/svg_layout.hpp"
#include "report/svg_text.hpp"
#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/table.hpp"

namespace roofline::report {
namespace {

std::string num(double v) {
  return svg_num(v);
}
std::string attr(const std::string& name, const std::string& value) {
  return svg_attr(name, value);
}
std::string attr(const std::string& name, double value) {
  return svg_attr(name, value);
}
double fastest_bw(const RoofSet& s) {
  double b = 0;
  for (const auto& m : s.memory) b = std::max(b, m.bandwidth.value);
  return b;
}
std::string exact(double v) {
  return svg_exact(v);
}
/// ` display="none"` for the elements of the HTML page's optional roofs (its script shows them).
std::string hidden_unless(bool shown) {
  return shown ? std::string() : std::string(" display=\"none\"");
}

// Font sizes of the labels (the style sheet below uses the same).
constexpr double kFont = 12;          // roof labels
constexpr double kPointFont = 12;     // point labels, semibold
constexpr double kSmallFont = 10.5;   // ridge and headroom labels
constexpr double kLevelFont = 9.5;    // level names under hierarchical markers
constexpr double kWorkloadFont = 11;  // workload line labels
constexpr size_t kOverlayStyles = 4;  // colours of compared machines (.overlay-1 ... -4)
constexpr double kTickFont = 11.5;    // tick labels (.tick)
constexpr double kNoteFont = 11.5;    // the note of roofs not labelled (.not-labelled)
/// Up to this many points, each headroom line carries its factor.
constexpr size_t kMaxHeadroomLabels = 12;
/// Up to this many points, names and level labels are placed beside the markers; beyond, they
/// stay in the tooltips and the tables: each placement searches what lies near it, which in a
/// dense cloud is most of the chart (20,000 points took 17 s, almost all of it placing names
/// nobody could read).
constexpr size_t kMaxLabelledPoints = 1000;
constexpr double kMarkerRadius = 6.5;    // a point's marker without a weight
constexpr double kMaxWeightRadius = 16;  // the marker of the heaviest weighted point
constexpr double kMinWeightRadius = 3;   // the smallest weighted marker that stays visible
/// The line of points not drawn: its baseline under the subtitle's (48), and the plot's top
/// below it (66 without the line; 11.5 px text, 3 px of descent and 12 px of air).
constexpr double kNotDrawnBaseline = 66;
constexpr double kPlotTopBelowNotDrawn = 84;
/// The lines of the chart's warnings (ReportInput::warnings), one under the other below the
/// subtitle (and the line of points not drawn): 11.5 px semibold text (measured in DejaVu Sans
/// Bold), 18 px apart, at most 3 lines.
constexpr double kWarningFont = 11.5;
constexpr double kWarningLineStep = 18;
constexpr size_t kMostWarningLines = 3;
/// The legend's rows: their baselines 20 px apart, and the depth an entry takes below its
/// row's baseline (the 11.5 px text's descent under y = 4, a marker's lower half, 3 px of air).
constexpr double kLegendRowStep = 20;
constexpr double kLegendRowDepth = 10;

/// A weighted point's marker has an area proportional to its weight, the heaviest point's
/// radius kMaxWeightRadius (the way profilers draw functions as dots sized by their share of the
/// time); weights below (3/16)² ≈ 3.5 % of the heaviest are drawn at kMinWeightRadius. Points
/// without a weight keep kMarkerRadius.
double marker_radius(const std::vector<Point>& points, size_t k) {
  if (!(points[k].weight > 0)) return kMarkerRadius;
  double heaviest = 0;
  for (const Point& p : points) heaviest = std::max(heaviest, p.weight);
  return std::max(kMinWeightRadius, kMaxWeightRadius * std::sqrt(points[k].weight / heaviest));
}

std::string text(double x, double y, const std::string& s, const std::string& cls,
                 const std::string& anchor = "start", const std::string& extra = "") {
  return svg_text(x, y, s, cls, anchor, extra);
}

std::string marker_shape(const std::string& shape, double x, double y, double r,
                         const std::string& extra) {
  if (shape == "square")
    return "<rect" + attr("x", x - r * 0.85) + attr("y", y - r * 0.85) + attr("width", r * 1.7) +
           attr("height", r * 1.7) + extra + "/>";
  if (shape == "diamond")
    return "<path d=\"M" + num(x) + " " + num(y - r * 1.2) + "L" + num(x + r * 1.2) + " " + num(y) +
           "L" + num(x) + " " + num(y + r * 1.2) + "L" + num(x - r * 1.2) + " " + num(y) + "Z\"" +
           extra + "/>";
  if (shape == "triangle" || shape == "triangle-down") {
    const double s = shape == "triangle" ? 1 : -1;  // the apex up, or down
    return "<path d=\"M" + num(x) + " " + num(y - s * r * 1.2) + "L" + num(x + r * 1.1) + " " +
           num(y + s * r * 0.8) + "L" + num(x - r * 1.1) + " " + num(y + s * r * 0.8) + "Z\"" +
           extra + "/>";
  }
  if (shape == "cross") {
    // A filled X: a plus sign of arm half-width w and length l, turned by 45°.
    const double w = r * 0.4, l = r * 1.35, k = std::sqrt(0.5);
    const double pts[12][2] = {{w, l},   {w, w},   {l, w},   {l, -w}, {w, -w}, {w, -l},
                               {-w, -l}, {-w, -w}, {-l, -w}, {-l, w}, {-w, w}, {-w, l}};
    std::string d;
    for (const auto& p : pts)
      d += (d.empty() ? "M" : "L") + num(x + (p[0] - p[1]) * k) + " " + num(y + (p[0] + p[1]) * k);
    return "<path d=\"" + d + "Z\"" + extra + "/>";
  }
  return "<circle" + attr("cx", x) + attr("cy", y) + attr("r", r) + extra + "/>";
}

// The roofline chart's own rules, after kAxesStyleLight / kAxesStyleDark.
const char* kStyleLight = R"(
.roof{fill:none;stroke:#24292f;stroke-width:1.8;stroke-linecap:round}
.roof.default{stroke-width:2.6}
.roof.dashed{stroke-dasharray:8 5}
.roof.overlay{stroke:#56B4E9;stroke-width:1.8}
.roof.overlay-2,.roof.overlay-4{stroke:#8800DD}
.roof.overlay-3,.roof.overlay-4{stroke-dasharray:14 3 2 3}
.roof.dashed.overlay-3,.roof.dashed.overlay-4{stroke-dasharray:8 4 2 4 2 4}
.roof.secondary{stroke:#6e7781;stroke-width:1.3}
.roof-label{font-size:12px;fill:#24292f}
.roof-label.secondary{fill:#57606a}
.roof-leader{stroke:#8c959f;stroke-width:.8;fill:none}
.roof-label.overlay{fill:#1c7db5}
.roof-label.overlay-2,.roof-label.overlay-4{fill:#8800DD}
.theory{fill:none;stroke:#8c959f;stroke-width:1.1;stroke-dasharray:2 4}
.ridge{fill:#ffffff;stroke:#24292f;stroke-width:1.5}
.ridge-drop{stroke:#8c959f;stroke-width:1;stroke-dasharray:1 3}
.ridge-label{font-size:10.5px;fill:#57606a}
.no-overlap{fill:none;stroke:#6e7781;stroke-width:1.6;stroke-dasharray:10 3 2 3}
.curve{fill:none;stroke:#663300;stroke-width:1.6}
.curve-dot{fill:#663300}
.workload{stroke:#1f2328;stroke-width:1.4;stroke-dasharray:6 3}
.workload-mark{fill:#ffffff;stroke:#1f2328;stroke-width:1.5}
.workload-label{font-size:11px}
.headroom{stroke-width:1.4;stroke-dasharray:1.5 3;fill:none}
.headroom-label{font-size:10.5px;font-style:italic}
.point-label{font-size:12px;font-weight:600}
.level-label{font-size:9.5px;fill:#57606a}
.level-join{stroke-width:1.2;fill:none;opacity:.7}
.marker{stroke:#ffffff;stroke-width:1.2}
.marker.level{opacity:.55}
.roof-label,.ridge-label,.headroom-label,.point-label,.level-label,.workload-label{paint-order:stroke;
stroke:#ffffff;stroke-width:3px;stroke-linejoin:round}
.legend-line{fill:none}
.not-drawn{font-size:11.5px;fill:#9a3412}
.not-labelled{font-size:11.5px;fill:#57606a}
.chart-warning{font-size:11.5px;font-weight:600;fill:#b42318}
.marker.does-not-fit{fill:#ffffff;stroke-width:2.2}
)";
const char* kStyleDark = R"(
@media (prefers-color-scheme: dark){
.ridge-label,.level-label{fill:#9ea7b3}
.roof{stroke:#e6edf3}
.roof-label{fill:#e6edf3}
.roof.secondary{stroke:#8b949e}
.roof-label.secondary{fill:#9ea7b3}
.roof.overlay{stroke:#56B4E9}
.roof-label.overlay{fill:#56B4E9}
.roof.overlay-2,.roof.overlay-4{stroke:#F0E442}
.roof-label.overlay-2,.roof-label.overlay-4{fill:#F0E442}
.theory{stroke:#6e7681}
.ridge{fill:#0d1117;stroke:#e6edf3}
.no-overlap{stroke:#8b949e}
.curve{stroke:#9900FF}
.curve-dot{fill:#9900FF}
.workload{stroke:#e6edf3}
.workload-mark{fill:#0d1117;stroke:#e6edf3}
.marker{stroke:#0d1117}
.roof-label,.ridge-label,.headroom-label,.point-label,.level-label,.workload-label{stroke:#0d1117}
.not-drawn{fill:#f0883e}
.not-labelled{fill:#9ea7b3}
.chart-warning{fill:#ff7b72}
.marker.does-not-fit{fill:#0d1117}
}
)";

}  // namespace

const char* verdict_colour(Verdict v) {
  // Okabe & Ito, "Color Universal Design" (2008): distinguishable with colour-vision deficiency.
  switch (v) {
    case Verdict::memory_bound:
      return "#0072B2";  // blue
    case Verdict::compute_bound:
      return "#009E73";  // bluish green
    case Verdict::faster_unit_unused:
      return "#CC79A7";  // reddish purple
    case Verdict::far_below:
      return "#E69F00";  // orange
    case Verdict::just_below:
      // Wine, from Paul Tol's colour-blind safe "muted" scheme (personal.sron.nl/~pault): Okabe
      // and Ito's eight are taken (five verdicts, the overlays' sky blue and yellow — violet
      // #8800DD on a light page — and black, which a dark page hides). Under simulated
      // protanopia, deuteranopia and tritanopia (Machado et al. 2009) it lies at least 21
      // CIEDE2000 units from every colour above and the overlays' of its choosing (the five
      // verdicts' own closest pair: 11), and its shape differs; tests/report/test_palette.cpp
      // keeps every verdict and overlay colour ≥ 15 CIE76 units apart in each vision.
      return "#882255";
    case Verdict::above_roof:
      return "#D55E00";  // vermillion
  }
  return "#000000";
}
namespace {
/// Each verdict's text colour on the light page (#ffffff) and on the dark ones (the page
/// #0d1117, the HTML tooltip's panel #161b22), 5:1 or more on each. The markers keep
/// verdict_colour, whose hues stay apart in every vision (tests/report/test_palette.cpp); as
/// text on white the orange read at 2.25:1, the bluish green, the reddish purple and the
/// vermillion at 3.1 to 3.9, and on the dark page the blue at 3.7 and the wine at 2.2. Each
/// shade moves only the lightness (HSL) of its marker's colour.
struct VerdictText {
  Verdict verdict;
  const char *light, *dark;
};
constexpr VerdictText kVerdictText[] = {
    {Verdict::far_below, "#946700", "#E69F00"},
    {Verdict::just_below, "#882255", "#D7619C"},
    {Verdict::memory_bound, "#0072B2", "#0090E1"},
    {Verdict::compute_bound, "#007F5C", "#009E73"},
    {Verdict::faster_unit_unused, "#B64584", "#CC79A7"},
    {Verdict::above_roof, "#B75100", "#E36400"},
};
}  // namespace

std::string verdict_text_class(Verdict v) {
  return "verdict-text-" + to_string(v);
}
std::string verdict_text_rules(const std::string& scope, const std::string& property, bool dark) {
  std::string s;
  for (const VerdictText& t : kVerdictText)
    s += scope + "." + verdict_text_class(t.verdict) + "{" + property + ":" +
         (dark ? t.dark : t.light) + "}\n";
  return s;
}
const char* verdict_marker(Verdict v) {
  switch (v) {
    case Verdict::memory_bound:
      return "circle";
    case Verdict::compute_bound:
      return "square";
    case Verdict::faster_unit_unused:
      return "diamond";
    case Verdict::far_below:
      return "triangle";
    case Verdict::just_below:
      return "triangle-down";  // under its roof, pointing at the far-below triangle's opposite
    case Verdict::above_roof:
      return "cross";
  }
  return "circle";
}

PlotArea plot_area(const SvgOptions& o) {
  return {o.axis_left, o.width - 28 - o.label_column, o.plot_top, o.height - 124 - o.legend_extra};
}

namespace {

/// What every drawing step shares: the chart, the pixel mapping and the label placer.
struct Canvas {
  const Chart& ch;
  const SvgOptions& o;
  const ReportInput& in;
  PlotArea pa;
  LogScale X, Y;
  Placer placer;
  std::string clip = " clip-path=\"url(#roofline-plot-clip)\"";

  Canvas(const Chart& chart, const SvgOptions& options)
      : ch(chart),
        o(options),
        in(*chart.in),
        pa(plot_area(options)),
        X{chart.x_lo, chart.x_hi, pa.left, pa.right},
        Y{chart.y_lo, chart.y_hi, pa.bottom, pa.top},
        placer(Quad::box(pa.left + 2, pa.top + 2, pa.right - 2, pa.bottom - 2)) {}
  bool visible_y(double p) const {
    const double l = std::log10(p);
    return l >= ch.y_lo && l <= ch.y_hi;
  }
  /// Drawn at all: roofs of this view, and on the HTML page the optional ones too.
  bool drawn(const DrawnRoof& r) const { return r.shown || o.include_optional; }
  bool drawn(const RidgeMark& r) const { return r.shown || o.include_optional; }
  /// Takes the first of `candidates` that fits, trying them clear of every line, then of the
  /// roofs only, then (only where `loosest` asks for it) of the slanted roofs only, then of no
  /// line (down to `loosest`). Returns its index, or -1 when none fits.
  template <class Candidates>
  int place(const Candidates& candidates, const std::vector<int>& owners = {},
            Placer::Avoid loosest = Placer::Avoid::no_lines) {
    for (const Placer::Avoid avoid : {Placer::Avoid::all_lines, Placer::Avoid::roof_lines,
                                      Placer::Avoid::slanted_roof_lines, Placer::Avoid::no_lines}) {
      if (avoid == Placer::Avoid::slanted_roof_lines && loosest != avoid) continue;
      for (size_t k = 0; k < candidates.size(); ++k)
        if (placer.fits(candidates[k], owners, avoid)) {
          placer.take(candidates[k]);
          return static_cast<int>(k);
        }
      if (avoid == loosest) break;
    }
    return -1;
  }
};

/// Where each point's binding-level marker sits and the attainable height above it.
struct PointGeom {
  double xb = 0, y = 0, ya = 0;
  double r = kMarkerRadius;  // the main marker's radius: kMarkerRadius, or by the point's weight
  size_t bind = 0;
  std::vector<double> level_x;  // x of every level's marker
};

// --- step 1: the document, title and subtitle -------------------------------------------------
/// The line under the title, within the chart's width (`fits`): the machine, the compared
/// machines, the default roofs, the ridge I* and how many compute roofs are drawn. Too long, it
/// gives way part by part (fit_subtitle): the roof count shortened ("7 of 15 roofs drawn") and
/// the compared machines counted, then the roof count left out, the compared machines (the
/// legend names them), the default roofs' names (cut), the machine's name;
/// each figure stays whole with its unit ("ridge I* = 9.564 FL…" said no unit), and " · …"
/// marks a part left out. The roofs table and the page say the rest.
std::string subtitle_text(const Canvas& c, const FitsTest& fits) {
  const Chart& ch = c.ch;
  std::vector<SubtitlePart> parts;
  parts.push_back({"machine: " + c.in.machines.front().roofs.name, "", 3, true});
  if (c.in.machines.size() > 1) {
    std::string names;
    for (size_t i = 1; i < c.in.machines.size(); ++i)
      names += (i == 1 ? "" : ", ") + c.in.machines[i].roofs.name;
    parts.push_back(
        {" · compared with " + names,
         c.in.machines.size() > 2
             ? " · compared with " + std::to_string(c.in.machines.size() - 1) + " machines"
             : "",
         1, false});
  }
  parts.push_back(
      {" · default roofs: " + ch.default_compute->name + " × " + ch.default_memory->level, "", 2,
       true});
  parts.push_back(
      {" · ridge I* = " +
           format_intensity(ridge(*ch.default_compute, *ch.default_memory), default_roof_units(ch)),
       "", 4, false});
  size_t shown = 0, total = 0;
  for (const auto& r : ch.roofs)
    if (r.machine == 0 && r.compute) shown += r.shown, ++total;
  if (shown < total && !c.o.include_optional)
    parts.push_back(
        {" · " + std::to_string(shown) + " of " + std::to_string(total) + " compute roofs drawn",
         " · " + std::to_string(shown) + " of " + std::to_string(total) + " roofs drawn", 0,
         false});
  return fit_subtitle(std::move(parts), fits);
}

/// Where the lines of ReportInput::warnings start: under the subtitle, below the line of points
/// not drawn where there is one.
double warnings_baseline(const ReportInput& in) {
  return in.not_drawn.empty() ? kNotDrawnBaseline : kNotDrawnBaseline + kWarningLineStep;
}
/// The lines that say ReportInput::warnings, within `room` px (warning_lines).
std::vector<std::string> chart_warning_lines(const ReportInput& in, double room) {
  return warning_lines(
      in.warnings, [&](const std::string& l) { return text_width(l, kWarningFont, true) <= room; },
      kMostWarningLines);
}
/// The warnings' lines, in the band chart_for_svg keeps above the plot.
std::string warning_text(const Canvas& c) {
  std::string s;
  double y = warnings_baseline(c.in);
  for (const std::string& line : chart_warning_lines(c.in, c.o.width - c.pa.left - 8)) {
    s += text(c.pa.left, y, line, "chart-warning");
    y += kWarningLineStep;
  }
  return s;
}

}  // namespace

std::string title_text(double x, double room, const std::string& title) {
  return fitted_text(x, 28, room, title, "title", 17, true);  // .title: 17 px, semibold
}

std::string fitted_text(double x, double y, double room, const std::string& whole,
                        const std::string& cls, double font, bool bold) {
  const std::string shown = fit_title(
      whole, [&](const std::string& line) { return text_width(line, font, bold) <= room; });
  if (shown == whole) return svg_text(x, y, whole, cls);
  return "<text" + attr("x", x) + attr("y", y) + attr("class", cls) + "><title>" + xml_text(whole) +
         "</title>" + xml_text(shown) + "</text>\n";
}

namespace {

/// The document's head, for a canvas `height` px tall (o.height, or more where the note of
/// roofs not labelled needs a row under the legend).
std::string open_document(const Canvas& c, double height) {
  const Chart& ch = c.ch;
  const SvgOptions& o = c.o;
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" + attr("width", o.width) +
       attr("height", height) + " viewBox=\"0 0 " + num(o.width) + " " + num(height) +
       "\" class=\"roofline-chart\" role=\"img\"" + attr("aria-label", c.in.title) + ">\n";
  s += "<title>" + xml_text(c.in.title) + "</title>\n";
  s += "<desc>Roofline chart: " + xml_text(ch.x_title) + " against " + xml_text(ch.y_title) +
       ", log-log.</desc>\n";
  s += "<style>" + std::string(kAxesStyleLight) + kStyleLight +
       verdict_text_rules("", "fill", false) +
       (o.dark_mode
            ? std::string(kAxesStyleDark) + kStyleDark + "@media (prefers-color-scheme: dark){\n" +
                  verdict_text_rules("", "fill", true) + "}\n"
            : std::string()) +
       "</style>\n";
  s += "<defs><clipPath id=\"roofline-plot-clip\"><rect" + attr("x", c.pa.left) +
       attr("y", c.pa.top) + attr("width", c.pa.right - c.pa.left) +
       attr("height", c.pa.bottom - c.pa.top) + "/></clipPath></defs>\n";
  s += "<rect class=\"bg\" x=\"0\" y=\"0\"" + attr("width", o.width) + attr("height", height) +
       "/>\n";
  const double room = o.width - c.pa.left - 8;
  s += title_text(c.pa.left, room, c.in.title);
  const std::string sub = subtitle_text(c, [&](const std::string& line) {
    return text_width(line, 12) <= room;  // 12 px: .subtitle
  });
  s += text(c.pa.left, 48, sub, "subtitle");
  // The points given that the chart leaves out (ReportInput::not_drawn), in the band
  // chart_for_svg keeps above the plot: within the chart's width, as the subtitle is.
  const std::string left_out = not_drawn_line(
      c.in.not_drawn, [&](const std::string& line) { return text_width(line, 11.5) <= room; });
  if (!left_out.empty()) s += text(c.pa.left, kNotDrawnBaseline, left_out, "not-drawn");
  s += warning_text(c);
  return s;
}

// --- step 2: grid, frame, ticks and axis titles (opens the #plot group) -----------------------
std::string axes(const Canvas& c) {
  const Chart& ch = c.ch;
  const PlotArea& pa = c.pa;
  const LogScale &X = c.X, &Y = c.Y;
  std::string s;
  // The plot group carries the mapping so tests (and scripts) can check coordinates.
  s += "<g id=\"plot\"" + attr("data-x-log-min", exact(ch.x_lo)) +
       attr("data-x-log-max", exact(ch.x_hi)) + attr("data-y-log-min", exact(ch.y_lo)) +
       attr("data-y-log-max", exact(ch.y_hi)) + attr("data-left", exact(pa.left)) +
       attr("data-right", exact(pa.right)) + attr("data-top", exact(pa.top)) +
       attr("data-bottom", exact(pa.bottom)) + ">\n";
  s += "<g class=\"grid\">\n";
  for (double v : minor_ticks(ch.x_lo, ch.x_hi))
    s += "<line class=\"grid-minor\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.top) +
         attr("y2", pa.bottom) + "/>\n";
  for (double v : minor_ticks(ch.y_lo, ch.y_hi))
    s += "<line class=\"grid-minor\"" + attr("x1", pa.left) + attr("x2", pa.right) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
  for (double v : decade_ticks(ch.x_lo, ch.x_hi))
    s += "<line class=\"grid-major\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.top) +
         attr("y2", pa.bottom) + "/>\n";
  for (double v : decade_ticks(ch.y_lo, ch.y_hi))
    s += "<line class=\"grid-major\"" + attr("x1", pa.left) + attr("x2", pa.right) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
  s += "</g>\n<g class=\"axes\">\n";
  s += "<rect class=\"frame\"" + attr("x", pa.left) + attr("y", pa.top) +
       attr("width", pa.right - pa.left) + attr("height", pa.bottom - pa.top) + "/>\n";
  // Over many decades the labels are thinned to every 2nd, 5th, 10th... decade, so none runs
  // into the next; every decade keeps its tick mark.
  double x_extent = 0;
  for (double v : decade_ticks(ch.x_lo, ch.x_hi))
    x_extent = std::max(x_extent, text_width(intensity_tick(v, ch.x_lo, ch.x_hi), kTickFont));
  const int x_step = label_step((pa.right - pa.left) / (ch.x_hi - ch.x_lo), x_extent + 8);
  const int y_step = label_step((pa.bottom - pa.top) / (ch.y_hi - ch.y_lo), kTickFont + 4);
  for (double v : decade_ticks(ch.x_lo, ch.x_hi)) {
    s += "<line class=\"tick-mark\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.bottom) +
         attr("y2", pa.bottom + 6) + "/>\n";
    if (labelled_decade(v, x_step))
      s += text(X(v), pa.bottom + 21, intensity_tick(v, ch.x_lo, ch.x_hi), "tick x-tick", "middle",
                attr("data-value", exact(v)));
  }
  for (double v : minor_ticks(ch.x_lo, ch.x_hi))
    s += "<line class=\"tick-mark\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.bottom) +
         attr("y2", pa.bottom + 3) + "/>\n";
  for (double v : decade_ticks(ch.y_lo, ch.y_hi)) {
    s += "<line class=\"tick-mark\"" + attr("x1", pa.left - 6) + attr("x2", pa.left) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
    if (labelled_decade(v, y_step))
      s += text(pa.left - 9, Y(v) + 4, format_si(v, ch.units.work_rate(), 3), "tick y-tick", "end",
                attr("data-value", exact(v)));
  }
  for (double v : minor_ticks(ch.y_lo, ch.y_hi))
    s += "<line class=\"tick-mark\"" + attr("x1", pa.left - 3) + attr("x2", pa.left) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
  s += text((pa.left + pa.right) / 2, pa.bottom + 44, ch.x_title, "axis-title x-title", "middle");
  const double ymid = (pa.top + pa.bottom) / 2;
  s += text(0, 0, ch.y_title, "axis-title y-title", "middle",
            " transform=\"translate(" + num(22) + "," + num(ymid) + ") rotate(-90)\"");
  s += "</g>\n";
  return s;
}

// --- step 3: theoretical values of measured roofs (how far from nameplate) --------------------
std::string theory_layer(const Canvas& c) {
  const Chart& ch = c.ch;
  const RoofSet& rs = c.in.machines.front().roofs;
  std::string theory;
  for (const auto& r : ch.roofs) {
    if (r.machine != 0 || !c.drawn(r)) continue;
    const std::string ids = attr("data-ids", r.id) + hidden_unless(r.shown);
    if (r.compute && r.c->theoretical && r.c->provenance == Provenance::measured) {
      const double p = r.c->theoretical->value;
      if (!c.visible_y(p)) continue;
      theory += "<line class=\"theory\"" + attr("data-roof", r.c->name) + ids +
                attr("data-value", exact(p)) + attr("x1", c.X(p / fastest_bw(rs))) +
                attr("x2", c.pa.right) + attr("y1", c.Y(p)) + attr("y2", c.Y(p)) + "/>\n";
    }
    if (!r.compute && r.m->theoretical && r.m->provenance == Provenance::measured) {
      const double b = r.m->theoretical->value;
      const double i0 = std::pow(10.0, ch.x_lo),
                   i1 = std::min(r.to * r.m->bandwidth.value / b, std::pow(10.0, ch.x_hi));
      theory += "<line class=\"theory\"" + attr("data-roof", r.m->level) + ids +
                attr("data-value", exact(b)) + attr("x1", c.X(i0)) + attr("x2", c.X(i1)) +
                attr("y1", c.Y(b * i0)) + attr("y2", c.Y(b * i1)) + "/>\n";
    }
  }
  return theory.empty() ? std::string()
                        : "<g class=\"layer layer-theory\"" + c.clip + ">\n" + theory + "</g>\n";
}

// --- step 4: what labels must avoid ----------------------------------------------------------
/// Point markers, headroom lines, the workload line and its marks, and the roof lines and
/// ridge marks of one tier (the view's roofs, or the page's optional ones).
std::vector<PointGeom> register_points(Canvas& c) {
  const Chart& ch = c.ch;
  std::vector<PointGeom> geom(c.in.points.size());
  for (size_t k = 0; k < c.in.points.size(); ++k) {
    const Diagnosis& d = ch.diagnoses[k];
    PointGeom& g = geom[k];
    g.r = marker_radius(c.in.points, k);
    for (size_t l = 0; l < d.levels.size(); ++l)
      if (d.levels[l].level == d.binding_level) g.bind = l;
    g.xb = c.X(d.levels[g.bind].intensity.value);
    g.y = c.Y(d.performance.value);
    g.ya = c.Y(d.attainable.value);
    for (const auto& l : d.levels) g.level_x.push_back(c.X(l.intensity.value));
    for (double xl : g.level_x) c.placer.take(Quad::box(xl - 7.5, g.y - 7.5, xl + 7.5, g.y + 7.5));
    if (g.r > kMarkerRadius)
      c.placer.take(Quad::box(g.xb - g.r - 1, g.y - g.r - 1, g.xb + g.r + 1, g.y + g.r + 1));
    if (std::fabs(g.ya - g.y) > 3) c.placer.line({g.xb, g.y, g.xb, g.ya});
  }
  if (ch.workload) {
    const double x = c.X(ch.workload->intensity.value);
    c.placer.line({x, c.pa.top, x, c.pa.bottom});
    for (const auto& m : ch.workload->machines) {
      const double y = c.Y(m.attainable.value);
      c.placer.take(Quad::box(x - 6, y - 6, x + 6, y + 6));
    }
  }
  return geom;
}
void register_roofs(Canvas& c, bool optional) {
  const Chart& ch = c.ch;
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    const DrawnRoof& r = ch.roofs[ri];
    if (!c.drawn(r) || r.shown == optional) continue;
    c.placer.line(
        {c.X(r.from), c.Y(r.height(r.from)), c.X(r.to), c.Y(r.height(r.to)), static_cast<int>(ri)});
  }
  for (const auto& r : ch.ridges) {
    if (!c.drawn(r) || r.shown == optional) continue;
    const double x = c.X(r.intensity), y = c.Y(r.peak);
    c.placer.take(Quad::box(x - 5, y - 5, x + 5, y + 5));
  }
}

// --- step 5: roof lines ----------------------------------------------------------------------
/// The classes of a compared machine's lines and labels: " overlay overlay-N", N its place in
/// the style sheet's four looks, so each machine reads apart (all were one sky blue, named in
/// one legend entry): the two Okabe–Ito colours no verdict uses, sky blue and yellow (darkened
/// on a light page), solid, then the same two dash-dotted, then again. The verdicts' colours
/// (orange, reddish purple, bluish green...) are left to the points: a third machine in orange
/// read as far-below.
std::string overlay_classes(size_t machine) {
  if (machine == 0) return "";
  return " overlay overlay-" + std::to_string((machine - 1) % kOverlayStyles + 1);
}

/// The roofs of the view other than the headline ones (scalar baseline, no-FMA) are drawn
/// lighter, so the highest roof of each precision stands out.
bool secondary(const DrawnRoof& r) {
  return r.compute && r.machine == 0 &&
         (!r.shown || r.reason == "scalar baseline" || r.reason.rfind("no-FMA", 0) == 0);
}

std::string roof_lines(const Canvas& c, bool overlay) {
  std::string out;
  for (const DrawnRoof& r : c.ch.roofs) {
    if (!c.drawn(r) || (r.machine != 0) != overlay) continue;
    const std::string cls = std::string("roof ") + (r.compute ? "compute-roof" : "memory-roof") +
                            (r.is_default ? " default" : "") + (r.dashed ? " dashed" : "") +
                            overlay_classes(r.machine) + (secondary(r) ? " secondary" : "") +
                            (r.shown ? "" : " optional");
    const std::string prov = to_string(r.compute ? r.c->provenance : r.m->provenance);
    const std::string machine = c.in.machines[r.machine].roofs.name;
    std::string traits;
    if (r.compute && c.o.include_optional)
      traits = attr("data-precision", r.traits.precision) + attr("data-width", r.traits.width) +
               attr("data-class", r.traits.klass) + attr("data-reason", r.reason);
    out += "<line" + attr("class", cls + (r.noisy ? " noisy" : "")) +
           attr("data-machine", machine) + attr("data-roof", r.compute ? r.c->name : r.m->level) +
           attr("data-id", r.id) + attr("data-name", r.name) + attr("data-rate", r.rate) + traits +
           attr("data-value", exact(r.value())) + attr("data-provenance", prov) +
           hidden_unless(r.shown) + attr("x1", c.X(r.from)) + attr("x2", c.X(r.to)) +
           attr("y1", c.Y(r.height(r.from))) + attr("y2", c.Y(r.height(r.to))) + "><title>" +
           xml_text((overlay ? machine + ": " : std::string()) + r.label + " (" + prov +
                    (r.reason.empty() || !r.compute ? "" : "; " + r.reason) +
                    (r.noisy ? "; noisy: its samples spread beyond the noise policy's limit" : "") +
                    ")") +
           "</title></line>\n";
  }
  return out;
}

// --- step 6: roof labels --------------------------------------------------------------------
/// "fp32 512-bit fma 234.5 GFLOP/s", "DRAM 104.5 GB/s"; an overlay's with its machine's name.
std::string roof_label_text(const ReportInput& in, const DrawnRoof& r) {
  return (r.machine != 0 ? in.machines[r.machine].roofs.name + ": " : std::string()) + r.name +
         " " + r.rate + (r.noisy ? " (noisy)" : "");
}
std::string label_ids(const DrawnRoof& r) {
  return attr("data-ids", r.id) + hidden_unless(r.shown);
}

/// Distance from `p` to the segment from a to b.
double distance_to_segment(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const double t =
      len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0;
  return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}
/// Is the middle of `q` nearer roof `ri`'s line than any other drawn roof's?
bool nearest_roof_is(const Canvas& c, const Quad& q, size_t ri) {
  Vec2 mid;
  for (const Vec2& p : q.p) mid.x += p.x / 4, mid.y += p.y / 4;
  auto distance = [&](const DrawnRoof& r) {
    return distance_to_segment(mid, {c.X(r.from), c.Y(r.height(r.from))},
                               {c.X(r.to), c.Y(r.height(r.to))});
  };
  const double own = distance(c.ch.roofs[ri]);
  for (size_t o = 0; o < c.ch.roofs.size(); ++o)
    if (o != ri && c.drawn(c.ch.roofs[o]) && distance(c.ch.roofs[o]) <= own) return false;
  return true;
}

/// A slanted roof's label: along its 45° line, above it (overlays below), from near the left
/// end towards the ridge, clear of every other roof's line where it can be and never with
/// another slanted roof's running through the text (a neighbouring level a few pixels away would
/// strike it from end to end); a flat roof may cross it, cutting a letter or two. Where markers,
/// labels or slanted lines take every such spot (the points of a sweep lying on the roof), a second
/// row further out, clear of the markers on the line (their boxes reach 10.6 px from it), taken
/// only where it crosses no roof line and lies nearer its own roof than any other. Returns false
/// when no place is free.
bool place_slanted_label(Canvas& c, size_t ri, std::string& out) {
  const Chart& ch = c.ch;
  const DrawnRoof& r = ch.roofs[ri];
  const std::string label = roof_label_text(c.in, r);
  const double w = text_width(label, kFont);
  const double b = r.value();
  const double a_log = std::max(ch.x_lo, ch.y_lo - std::log10(b));
  const double b_log = std::min(std::log10(r.to), ch.y_hi - std::log10(b));
  if (b_log <= a_log) return true;  // not on the chart: nothing to label
  const bool overlay = r.machine != 0;
  struct Spot {
    double x, y, ly;
  };
  std::vector<Spot> spots;
  std::vector<Quad> quads;
  int k = -1;
  for (const bool far : {false, true}) {
    spots.clear();
    quads.clear();
    for (const bool below : {overlay, !overlay})
      for (double f = 0.06; f <= 0.86; f += 0.04) {
        const double il = a_log + f * (b_log - a_log);
        const double x = c.X(std::pow(10.0, il)), y = c.Y(b * std::pow(10.0, il));
        const double ly = below ? (far ? 24 : 13) : (far ? -16 : -5);
        const Quad q = turned_text_quad(x, y, -45, 6, ly, w, kFont);
        if (far && !nearest_roof_is(c, q, ri)) continue;
        spots.push_back({x, y, ly});
        quads.push_back(q);
      }
    k = c.place(quads, {static_cast<int>(ri)},
                far ? Placer::Avoid::roof_lines : Placer::Avoid::slanted_roof_lines);
    if (k >= 0) break;
  }
  if (k < 0) return false;
  const Spot& s = spots[static_cast<size_t>(k)];
  // Equal decades on both axes (build_chart) make every slanted roof a 45° line.
  out += text(
      6, s.ly, label, "roof-label memory" + overlay_classes(r.machine), "start",
      label_ids(r) + " transform=\"translate(" + num(s.x) + "," + num(s.y) + ") rotate(-45)\"");
  return true;
}

/// A flat roof's label in the column at (x, y), within the canvas (8 px from its right edge):
/// the name cut between characters with "…" where it is too long, its figure and unit kept
/// (fit_label); the whole label is then the text's <title>, as it is the line's.
std::string column_label(const Canvas& c, const DrawnRoof& r, double x, double y,
                         const std::string& cls, const std::string& extra) {
  const std::string whole = roof_label_text(c.in, r);
  const std::string name =
      (r.machine != 0 ? c.in.machines[r.machine].roofs.name + ": " : "") + r.name;
  const std::string shown = fit_label(
      name, whole.substr(name.size()),
      [&](const std::string& label) { return x + text_width(label, kFont) <= c.o.width - 8; });
  if (shown == whole) return text(x, y, whole, cls, "start", extra);
  return "<text" + attr("x", x) + attr("y", y) + attr("class", cls) + extra + "><title>" +
         xml_text(whole) + "</title>" + xml_text(shown) + "</text>\n";
}

/// The roofs' labels of one tier: the slanted roofs' inside the plot (machine's, overlays'), the
/// flat roofs' in the column; and the roofs whose label found no place (indices into
/// Chart::roofs), which the chart names in its note under the legend (not_labelled_note).
struct RoofLabels {
  std::string inside, inside_overlay, column;
  std::vector<size_t> left_out;
};

/// The flat roofs' labels, in a column right of the plot at the height of their lines, each
/// joined to its line's end by a short connector. Two layouts: one of the view's roofs, and on
/// the HTML page one of every roof, which its script uses when every roof is shown (any subset
/// of a layout keeps its labels apart). A label the canvas has no row for is left out.
void roof_column(Canvas& c, RoofLabels& labels) {
  std::string& out = labels.column;
  const double step = kFont * (kAscent + kDescent) + 1.2;  // baseline to baseline
  const double lift = kFont * 0.34;                        // baseline below the text's middle
  const double top = c.pa.top - 6 + kFont * kAscent, bottom = c.pa.bottom + 6;
  struct Item {
    size_t roof;
    double line_y, want;
  };
  std::vector<Item> items;
  for (size_t ri = 0; ri < c.ch.roofs.size(); ++ri) {
    const DrawnRoof& r = c.ch.roofs[ri];
    if (!r.compute || !c.drawn(r) || !c.visible_y(r.value())) continue;
    const double y = c.Y(r.value());
    items.push_back({ri, y, y + lift});
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.want < b.want; });
  std::vector<double> want_view, want_all;
  for (const Item& it : items) {
    want_all.push_back(it.want);
    if (c.ch.roofs[it.roof].shown) want_view.push_back(it.want);
  }
  const std::vector<double> at_view = spread_column(want_view, step, top, bottom);
  const std::vector<double> at_all = spread_column(want_all, step, top, bottom);
  const double x = c.pa.right + 9;
  size_t k = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const DrawnRoof& r = c.ch.roofs[items[i].roof];
    std::string y_attrs, y2_attrs;
    double y = at_all[i];
    if (r.shown) {
      y = at_view[k++];
      y_attrs += attr("data-y-view", num(y));
      y2_attrs += attr("data-y2-view", num(y - lift));
    }
    if (c.o.include_optional) {
      y_attrs += attr("data-y-all", num(at_all[i]));
      y2_attrs += attr("data-y2-all", num(at_all[i] - lift));
    }
    if (y > c.o.height - 4) {  // more roofs than rows: the note, the tooltip and table have it
      labels.left_out.push_back(items[i].roof);
      continue;
    }
    const std::string cls =
        "roof-label compute" + overlay_classes(r.machine) + (secondary(r) ? " secondary" : "");
    out += "<line class=\"roof-leader\"" + label_ids(r) + y2_attrs + attr("x1", c.pa.right) +
           attr("y1", items[i].line_y) + attr("x2", x - 3) + attr("y2", y - lift) + "/>\n";
    out += column_label(c, r, x, y, cls, label_ids(r) + y_attrs);
  }
}

/// Labels of one tier. The slanted roofs' are placed in order of need: the machine's default
/// memory roof first (the one its points are judged on, which an LLM chart's NVLink and PCIe
/// labels would otherwise crowd out), then each compared machine's default, then the machine's
/// other roofs, then the compared machines' others. Roofs whose label finds no free place keep
/// their name in the line's tooltip, the roofs table and the chart's note (RoofLabels::left_out).
void roof_labels(Canvas& c, bool optional, RoofLabels& out) {
  std::vector<size_t> order;
  for (size_t ri = 0; ri < c.ch.roofs.size(); ++ri) {
    const DrawnRoof& r = c.ch.roofs[ri];
    if (!r.compute && c.drawn(r) && r.shown != optional) order.push_back(ri);
  }
  auto rank = [&](size_t ri) {
    const DrawnRoof& r = c.ch.roofs[ri];
    return (r.is_default ? 0 : 2) + (r.machine == 0 ? 0 : 1);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rank(a) < rank(b); });
  for (size_t ri : order) {
    const DrawnRoof& r = c.ch.roofs[ri];
    if (!place_slanted_label(c, ri, r.machine != 0 ? out.inside_overlay : out.inside))
      out.left_out.push_back(ri);
  }
  if (!optional) roof_column(c, out);
}

// --- step 7: the no-overlap and empirical curves ---------------------------------------------
std::string curves(const Canvas& c) {
  const Chart& ch = c.ch;
  auto polyline = [&](const std::vector<std::pair<double, double>>& pts) {
    std::string d;
    for (const auto& [i, p] : pts) {
      if (!c.visible_y(p)) continue;
      d += (d.empty() ? "M" : "L") + num(c.X(i)) + " " + num(c.Y(p));
    }
    return d;
  };
  std::string s;
  if (!ch.no_overlap.empty())
    s += "<g class=\"layer layer-no-overlap\"" + c.clip + "><path class=\"no-overlap\" d=\"" +
         polyline(ch.no_overlap) + "\"><title>no overlap: P = 1/(1/π + 1/(β·I)) for " +
         xml_text(ch.default_compute->name + " × " + ch.default_memory->level) +
         "</title></path></g>\n";
  if (!ch.empirical.empty()) {
    s += "<g class=\"layer layer-curve\"" + c.clip + "><path class=\"curve\" d=\"" +
         polyline(ch.empirical) + "\"><title>empirical curve (measured)</title></path>\n";
    for (const auto& [i, p] : ch.empirical)
      s += "<circle class=\"curve-dot\"" + attr("cx", c.X(i)) + attr("cy", c.Y(p)) + " r=\"2\"/>\n";
    s += "</g>\n";
  }
  return s;
}

// --- step 8: ridge points --------------------------------------------------------------------
/// Rings at I* = π/β; the view's ridges of the default roof are labelled where a label fits.
struct RidgeLayers {
  std::string rings, labels;
};
/// Every drawn pair that meets at a ridge mark, each I* in its roof's unit: "590.7 FLOP/byte
/// (fp8 tensor / HBM3), 590.7 OP/byte (int8 tensor / HBM3)" (int8's OP/byte was not said).
std::string ridge_pairs_text(const RoofSet& rs, const RidgeMark& r) {
  const auto& pairs = r.shown_pairs.empty() ? r.pairs : r.shown_pairs;
  return join(pairs, [&](const auto& pair) {
    const auto& [cr, mr] = pair;
    return format_intensity(Intensity(r.intensity), roof_units(rs, *cr)) + " (" + cr->name + " / " +
           mr->level + ")";
  });
}

RidgeLayers ridges(Canvas& c) {
  const Chart& ch = c.ch;
  std::string rings, labels;
  for (const auto& r : ch.ridges) {
    if (!c.drawn(r)) continue;
    // The HTML page names every pair (its script shows the mark while both roofs of one are
    // shown); a chart of the view only the pairs it draws.
    const std::string& ids = c.o.include_optional ? r.roof_ids : r.shown_roof_ids;
    const double x = c.X(r.intensity), y = c.Y(r.peak);
    if (r.primary)
      rings += "<line class=\"ridge-drop\"" + attr("data-pairs", ids) + attr("x1", x) +
               attr("x2", x) + attr("y1", y) + attr("y2", c.pa.bottom) + "/>\n";
    rings += "<circle class=\"ridge" + std::string(r.primary ? " primary" : "") +
             (r.shown ? "" : " optional") + "\"" + attr("data-compute", r.c->name) +
             attr("data-memory", r.m->level) + attr("data-pairs", ids) + hidden_unless(r.shown) +
             attr("data-intensity", exact(r.intensity)) + attr("cx", x) + attr("cy", y) +
             attr("r", r.primary ? 4.5 : 3.5) + "><title>ridge I* = π/β = " +
             xml_text(ridge_pairs_text(c.in.machines.front().roofs, r)) + "</title></circle>\n";
    // Labels for the default flat roof's ridges (one per memory level): the others are read
    // from the tooltip and the ridge table, so the chart keeps few numbers.
    if (!r.shown || r.c != ch.default_compute) continue;
    const std::string label = "I* = " + format_number(r.intensity);
    const double w = text_width(label, kSmallFont);
    std::vector<std::tuple<double, double, const char*>> spots = {
        {7.0, 15.0, "start"},  {-7.0, 15.0, "end"},    {7.0, -7.0, "start"},  {-7.0, -7.0, "end"},
        {0.0, 24.0, "middle"}, {0.0, -14.0, "middle"}, {12.0, 28.0, "start"}, {-12.0, 28.0, "end"}};
    std::vector<Quad> quads;
    for (const auto& [dx, dy, anchor] : spots)
      quads.push_back(text_quad(x + dx, y + dy, w, kSmallFont, anchor));
    const int k = c.place(quads);
    if (k < 0) continue;
    const auto& [dx, dy, anchor] = spots[static_cast<size_t>(k)];
    labels += text(x + dx, y + dy, label, "ridge-label", anchor, attr("data-pairs", ids));
  }
  // The labels go in a group of their own, drawn over the headroom lines and the workload line.
  const std::string open = "<g class=\"layer layer-ridges\"" + c.clip + ">\n";
  return {open + rings + "</g>\n", labels.empty() ? "" : open + labels + "</g>\n"};
}

// --- step 9: the workload line: roof heights of every machine at I, with ratios (docs/model.md §7)
// --
/// Whether a workload label in `q` reads as the mark at height `own` (px): its middle nearer that
/// mark than any other flat line it sits beside — another drawn flat roof or another machine's
/// mark. A label 38 px under its 312 TFLOP/s mark sat on the 156 TFLOP/s roof 5 px away.
bool beside_own_mark(const Canvas& c, const Quad& q, double own, const std::vector<double>& marks) {
  const double mid = (q.min_y() + q.max_y()) / 2, mine = std::fabs(mid - own);
  auto nearer = [&](double y) { return std::fabs(y - own) > 0.5 && std::fabs(mid - y) <= mine; };
  for (double y : marks)
    if (nearer(y)) return false;
  for (const DrawnRoof& r : c.ch.roofs)
    if (r.compute && c.drawn(r) && c.X(r.from) < q.max_x() && c.X(r.to) > q.min_x() &&
        nearer(c.Y(r.value())))
      return false;
  return true;
}

std::string workload(Canvas& c) {
  const Chart& ch = c.ch;
  if (!ch.workload) return "";
  const UnitSystem u = workload_units(ch);
  const double i = ch.workload->intensity.value;
  const double x = c.X(i);
  const PlotArea& pa = c.pa;
  std::string s =
      "<g class=\"layer layer-workload\"" + c.clip + attr("data-intensity", exact(i)) + ">\n";
  s += "<line class=\"workload\"" + attr("x1", x) + attr("x2", x) + attr("y1", pa.top) +
       attr("y2", pa.bottom) + "/>\n";
  const bool right = x < (pa.left + pa.right) / 2;
  const char* side_anchor = right ? "start" : "end";
  const std::string head = "workload I = " + format_intensity(Intensity(i), u);
  {
    std::vector<Quad> quads;
    std::vector<double> ys;
    for (double y = pa.bottom - 8; y > pa.top + 20; y -= 14) {
      ys.push_back(y);
      quads.push_back(text_quad(x + (right ? 5 : -5), y, text_width(head, kWorkloadFont),
                                kWorkloadFont, side_anchor));
    }
    const int k = c.place(quads);
    if (k >= 0)
      s += text(x + (right ? 5 : -5), ys[static_cast<size_t>(k)], head, "workload-label",
                side_anchor);
  }
  std::vector<double> mark_ys;
  for (const auto& m : ch.workload->machines) mark_ys.push_back(c.Y(m.attainable.value));
  for (size_t k = 0; k < ch.workload->machines.size(); ++k) {
    const auto& m = ch.workload->machines[k];
    const double y = mark_ys[k];
    s += "<path class=\"workload-mark\" d=\"M" + num(x) + " " + num(y - 5) + "L" + num(x + 5) +
         " " + num(y) + "L" + num(x) + " " + num(y + 5) + "L" + num(x - 5) + " " + num(y) + "Z\"" +
         attr("data-machine", m.machine) + attr("data-attainable", exact(m.attainable.value)) +
         "/>\n";
    // Each roof height in its own unit (OP/s on an integer roof), as `hw compare` prints it.
    std::string label = (ch.workload->machines.size() > 1 ? m.machine + " " : std::string()) +
                        format_work_rate(m.attainable, m.units);
    if (k > 0)
      label += " (" + workload_ratio_text(*ch.workload, k) + ", " +
               to_string(ch.workload->regimes[k]) + ")";
    // The ratio is the point of the line (docs/model.md §7): tried on both sides, near its mark.
    struct Spot {
      double x, y;
      const char* anchor;
    };
    std::vector<Spot> spots;
    std::vector<Quad> quads;
    const double w = text_width(label, kWorkloadFont);
    for (const bool side : {right, !right})
      for (double dy : {-6.0, 14.0, -10.0, 18.0, -18.0, 26.0, -30.0, 38.0, -42.0, 50.0}) {
        const double lx = x + (side ? 8 : -8);
        const char* anchor = side ? "start" : "end";
        const Quad q = text_quad(lx, y + dy, w, kWorkloadFont, anchor);
        if (!beside_own_mark(c, q, y, mark_ys)) continue;
        spots.push_back({lx, y + dy, anchor});
        quads.push_back(q);
      }
    const int at = c.place(quads);
    if (at < 0) continue;  // the workload table under the chart has it
    const Spot& sp = spots[static_cast<size_t>(at)];
    s += text(sp.x, sp.y, label, "workload-label", sp.anchor);
  }
  return s + "</g>\n";
}

// --- step 10: points: headroom lines, markers, then labels -----------------------------------
struct PointLayers {
  std::string headroom, markers, labels;
};

/// The headroom factor beside the vertical line from a point to its binding roof.
void headroom_label(Canvas& c, const Diagnosis& d, const PointGeom& g, std::string& out) {
  const std::string hl = d.verdict == Verdict::above_roof
                             ? "above ×" + ratio_text(1 / d.headroom.factor)
                             : "×" + ratio_text(d.headroom.factor);
  const double w = text_width(hl, kSmallFont);
  const double ym = (g.y + g.ya) / 2 + 4;
  struct Spot {
    double x, y;
    const char* anchor;
  };
  std::vector<Spot> spots;
  std::vector<Quad> quads;
  for (double shift : {0.0, -0.25, 0.25, -0.4, 0.4})
    for (auto [dx, anchor] : {std::pair{5.0, "start"}, std::pair{-5.0, "end"}}) {
      const double yy = ym + shift * (g.ya - g.y);
      spots.push_back({g.xb + dx, yy, anchor});
      quads.push_back(text_quad(g.xb + dx, yy, w, kSmallFont, anchor));
    }
  const int k = c.place(quads);
  if (k < 0) return;  // the tooltip and the points table carry it
  const Spot& s = spots[static_cast<size_t>(k)];
  out += text(s.x, s.y, hl, "headroom-label " + verdict_text_class(d.verdict), s.anchor);
}

/// Where the point names may go: every marker (a name sits nearer its own than any other's)
/// and the leader lines drawn so far (no two cross).
struct NameSpots {
  std::vector<Vec2> markers;
  std::vector<Segment> leaders;
  /// Would a name in `q` with a leader `leader` (none when `spread` is 1) from the marker at
  /// `own` read as another point's: nearer another marker, or its leader crossing another?
  bool misleads(const Quad& q, Vec2 own, const Segment& leader, bool with_leader) const {
    const double mine = distance_to_box(q, own);
    const double x0 = q.min_x() - mine, x1 = q.max_x() + mine;
    const double y0 = q.min_y() - mine, y1 = q.max_y() + mine;
    for (const Vec2& m : markers)
      if (m.x > x0 && m.x < x1 && m.y > y0 && m.y < y1 && (m.x != own.x || m.y != own.y) &&
          distance_to_box(q, m) + 1 < mine)
        return true;
    if (with_leader)
      for (const Segment& l : leaders)
        if (segments_cross(l, leader)) return true;
    return false;
  }
};

/// Where a point's name goes: its baseline, anchor, and how far out (1: beside the marker).
struct NameSpot {
  double x, y;
  const char* anchor;
  double spread;
};
/// The first free spot for a name `w` px wide: beside its marker, then further out with a
/// leader line; none when every spot is taken.
std::optional<NameSpot> name_spot(Canvas& c, double px, double py, double w,
                                  const NameSpots& names) {
  using Spot = NameSpot;
  std::vector<Spot> spots;
  std::vector<Quad> quads;
  for (double spread : {1.0, 1.8, 2.8, 4.0})
    for (auto [dx, dy, anchor] :
         {std::tuple{11.0, 4.0, "start"}, std::tuple{-11.0, 4.0, "end"},
          std::tuple{8.0, -10.0, "start"}, std::tuple{8.0, 18.0, "start"},
          std::tuple{-8.0, -10.0, "end"}, std::tuple{-8.0, 18.0, "end"},
          std::tuple{0.0, -13.0, "middle"}, std::tuple{0.0, 22.0, "middle"}}) {
      const double lx = px + dx * spread, ly = py + (dy - 4) * spread + 4;
      // A little air between neighbouring names.
      const Quad q = text_quad(lx, ly, w, kPointFont, anchor, 3);
      if (names.misleads(q, {px, py}, {px, py, lx, ly - 4}, spread > 1)) continue;
      spots.push_back({lx, ly, anchor, spread});
      quads.push_back(q);
    }
  const int k = c.place(quads);
  if (k < 0) return std::nullopt;
  return spots[static_cast<size_t>(k)];
}

/// A point's name (`name`, and `more`: " +3 more" for a group) beside its marker, else further
/// out with a leader line. Where the whole name finds no free spot, it is cut with "…" to three
/// quarters, a half, then a third of its width (never under six characters), "+N more" kept,
/// and the first cut that finds one is drawn, the whole name its <title> (and the marker's
/// tooltip); a point left without a name is one whose name fits nowhere even cut (the points
/// table and the tooltip name it).
void point_label(Canvas& c, double px, double py, const std::string& name, const std::string& more,
                 Verdict verdict, NameSpots& names, std::string& out) {
  const std::string whole = name + more;
  const double full = text_width(whole, kPointFont, true);
  std::string shown = whole;
  std::optional<NameSpot> spot = name_spot(c, px, py, full, names);
  for (const double share : {0.75, 0.5, 1.0 / 3}) {
    if (spot) break;
    const std::string cut = cut_to_fit(name, "", more, [&](const std::string& t) {
      return text_width(t, kPointFont, true) <= share * full;
    });
    if (display_width(cut) < 7) break;  // six characters and "…"
    shown = cut + more;
    spot = name_spot(c, px, py, text_width(shown, kPointFont, true), names);
  }
  if (!spot) return;  // the points table and the tooltip name it
  const NameSpot& s = *spot;
  if (s.spread > 1) {  // a leader line when the label sits away from its marker
    out += "<line class=\"level-join\"" + attr("stroke", verdict_colour(verdict)) + attr("x1", px) +
           attr("y1", py) + attr("x2", s.x) + attr("y2", s.y - 4) + "/>\n";
    names.leaders.push_back({px, py, s.x, s.y - 4});
  }
  const std::string cls = "point-label " + verdict_text_class(verdict);
  if (shown == whole) {
    out += text(s.x, s.y, whole, cls, s.anchor);
    return;
  }
  out += "<text" + attr("x", s.x) + attr("y", s.y) + attr("class", cls) +
         (std::string(s.anchor) == "start" ? std::string() : attr("text-anchor", s.anchor)) +
         "><title>" + xml_text(whole) + "</title>" + xml_text(shown) + "</text>\n";
}

/// A hierarchical point's level name under its marker, else above it, clear of the marker's
/// box (7.5 px around it, register_points) and of the lines where it can be (Canvas::place).
void level_label(Canvas& c, double x, double y, const std::string& level, std::string& out) {
  const double w = text_width(level, kLevelFont);
  const std::array<double, 2> ys = {y + 18, y - 12};
  const std::array<Quad, 2> quads = {text_quad(x, ys[0], w, kLevelFont, "middle"),
                                     text_quad(x, ys[1], w, kLevelFont, "middle")};
  const int k = c.place(quads);
  if (k >= 0) out += text(x, ys[static_cast<size_t>(k)], level, "level-label", "middle");
}

/// A hierarchical point's level names. Levels whose markers coincide (within a pixel) share one
/// label, and the binding level's is named and placed first, so the level that carries the point
/// is the one named: with four levels at one spot "L1" and "L2" took the two places, not DRAM.
void level_labels(Canvas& c, const Diagnosis& d, const PointGeom& g, std::string& out) {
  std::vector<size_t> order{g.bind};
  for (size_t l = 0; l < d.levels.size(); ++l)
    if (l != g.bind) order.push_back(l);
  std::vector<bool> named(d.levels.size(), false);
  for (size_t l : order) {
    if (named[l]) continue;
    std::string levels;
    for (size_t o : order)
      if (!named[o] && std::fabs(g.level_x[o] - g.level_x[l]) < 1) {
        levels += (levels.empty() ? "" : ", ") + d.levels[o].level;
        named[o] = true;
      }
    level_label(c, g.level_x[l], g.y, levels, out);
  }
}

/// "does not fit in memory: 139 GB of 24 GB (GDDR6); the times assume it did" for a point of
/// ReportInput::does_not_fit, "" for any other.
std::string does_not_fit_note(const ReportInput& in, size_t k) {
  const auto it = in.does_not_fit.find(k);
  if (it == in.does_not_fit.end()) return "";
  return "does not fit in memory: " + it->second + "; the times assume it did";
}

/// A marker's class and colour: filled, or hollow (its outline in the colour) for a point whose
/// configuration does not fit in memory.
std::string marker_paint(const std::string& cls, const std::string& colour, bool does_not_fit) {
  if (!does_not_fit) return attr("class", cls) + attr("fill", colour);
  return attr("class", cls + " does-not-fit") + attr("fill", colour) +
         attr("style", "stroke:" + colour);
}

/// The legend's entry for hollow markers, when any point does not fit in memory.
void does_not_fit_legend(const ReportInput& in,
                         std::vector<std::pair<std::string, std::string>>& items) {
  if (in.does_not_fit.empty()) return;
  items.push_back(
      {"<circle class=\"marker does-not-fit\" cx=\"13\" cy=\"0\" r=\"5.5\" "
       "fill=\"#8c959f\" style=\"stroke:#8c959f\"/>",
       "hollow: does not fit in memory (times assume it did)"});
}

/// A point's name waiting to be placed, after every marker.
struct PendingName {
  double x, y;
  std::string name;
  std::string more;  ///< " +3 more" where the name stands for a group (name_groups)
  Verdict verdict;
  size_t index;  ///< into ReportInput::points
};

/// Is point a heavier than b: by its weight, else by its time (an LLM step's summary point
/// outweighs each of its operators)? Of two as heavy, the one later in the input: a summary
/// follows the points it sums, and one of a single operator ("decode attention" of one fused
/// attention) takes exactly its time.
bool heavier(const Point& a, size_t ia, const Point& b, size_t ib) {
  if (a.weight != b.weight) return a.weight > b.weight;
  if (a.time.value != b.time.value) return a.time.value > b.time.value;
  return ia > ib;
}

/// Points whose markers lie within a pixel of each other are named once, as a group: the
/// heaviest one's name and "+N more" (11 points at one spot got three names, with three leaders
/// to one dot, and the step's summary points none). Groups keep the order of their first member.
std::vector<PendingName> name_groups(const std::vector<Point>& points,
                                     const std::vector<PendingName>& pending) {
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < pending.size(); ++i) {
    auto close_by = [&](const std::vector<size_t>& g) {
      const PendingName& a = pending[g.front()];
      return std::fabs(a.x - pending[i].x) <= 1 && std::fabs(a.y - pending[i].y) <= 1;
    };
    const auto it = std::find_if(groups.begin(), groups.end(), close_by);
    if (it == groups.end())
      groups.push_back({i});
    else
      it->push_back(i);
  }
  std::vector<PendingName> out;
  for (const auto& g : groups) {
    size_t best = g.front();
    for (size_t i : g)
      if (heavier(points[pending[i].index], pending[i].index, points[pending[best].index],
                  pending[best].index))
        best = i;
    PendingName named = pending[best];
    if (g.size() > 1) named.more = " +" + std::to_string(g.size() - 1) + " more";
    out.push_back(named);
  }
  return out;
}

PointLayers points(Canvas& c, const std::vector<PointGeom>& geom) {
  const Chart& ch = c.ch;
  PointLayers out;
  std::vector<PendingName> pending;
  const bool labelled = c.in.points.size() <= kMaxLabelledPoints;
  // Larger dots first, so a weighted point's dot never hides a smaller one under it.
  std::vector<size_t> order(c.in.points.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return geom[a].r > geom[b].r; });
  std::vector<const PointGeom*> labelled_lines;  // headroom lines whose factor is placed
  for (size_t k : order) {
    const Point& p = c.in.points[k];
    const Diagnosis& d = ch.diagnoses[k];
    const std::string colour = verdict_colour(d.verdict);
    const std::string shape = verdict_marker(d.verdict);
    const PointGeom& g = geom[k];
    const double y = g.y, xb = g.xb, ya = g.ya;
    // Vertical distance to the binding roof, read on the log chart (docs/model.md §2).
    if (std::fabs(ya - y) > 3) {
      out.headroom += "<line class=\"headroom\"" + attr("data-index", std::to_string(k)) +
                      attr("stroke", colour) + attr("x1", xb) + attr("x2", xb) + attr("y1", y) +
                      attr("y2", ya) + "/>\n";
      // The factor beside the line while the chart has few points; with many, the dotted lines
      // alone (the factors are in the tooltips and the points table).
      // Points at one spot share one line, and one factor ("×3.35" was said once per point).
      const bool repeated =
          std::any_of(labelled_lines.begin(), labelled_lines.end(), [&](const PointGeom* o) {
            return std::fabs(o->xb - xb) <= 1 && std::fabs(o->y - y) <= 1 &&
                   std::fabs(o->ya - ya) <= 1;
          });
      if (std::fabs(ya - y) > 14 && c.in.points.size() <= kMaxHeadroomLabels && !repeated) {
        headroom_label(c, d, g, out.headroom);
        labelled_lines.push_back(&g);
      }
    }
    const UnitSystem& u = ch.point_units[k];  // OP/s for a point on an integer roof
    std::string tip = (p.name.empty() ? "point" : p.name) + " — " + d.title +
                      "\nP = " + format_work_rate(d.performance, u) + ", attainable " +
                      format_work_rate(d.attainable, u) + " (" + d.attainment_percent + "%" + ")";
    for (const auto& l : d.levels)
      tip += "\nI(" + l.level + ") = " + format_intensity(l.intensity, u);
    if (p.weight > 0) tip += "\nweight (dot area) " + format_number(p.weight, 3);
    const std::string over_memory = does_not_fit_note(c.in, k);
    if (!over_memory.empty()) tip += "\n" + over_memory;
    std::string& m = out.markers;
    m += "<g" + attr("class", "point verdict-" + to_string(d.verdict)) +
         (over_memory.empty() ? std::string() : attr("data-fits", "false")) +
         attr("data-index", std::to_string(k)) + attr("data-name", p.name) +
         attr("data-verdict", to_string(d.verdict)) +
         attr("data-intensity", exact(d.levels[g.bind].intensity.value)) +
         attr("data-performance", exact(d.performance.value)) + attr("tabindex", "0") +
         ">\n<title>" + xml_text(tip) + "</title>\n";
    if (d.levels.size() > 1) {
      double lo = xb, hi = xb;
      for (double xl : g.level_x) lo = std::min(lo, xl), hi = std::max(hi, xl);
      m += "<line class=\"level-join\"" + attr("stroke", colour) + attr("x1", lo) + attr("x2", hi) +
           attr("y1", y) + attr("y2", y) + "/>\n";
      for (size_t l = 0; l < d.levels.size(); ++l) {
        if (l == g.bind) continue;
        m += marker_shape(shape, g.level_x[l], y, 5,
                          marker_paint("marker level", colour, !over_memory.empty()) +
                              attr("data-level", d.levels[l].level));
      }
    }
    m += marker_shape(shape, xb, y, g.r,
                      marker_paint("marker", colour, !over_memory.empty()) +
                          attr("data-level", d.binding_level) +
                          (p.weight > 0 ? attr("data-weight", exact(p.weight)) : std::string()));
    if (labelled && d.levels.size() > 1) level_labels(c, d, g, m);
    m += "</g>\n";
    if (labelled)
      pending.push_back(
          {xb, y, p.name.empty() ? "point " + std::to_string(k + 1) : p.name, "", d.verdict, k});
  }
  // Names after every marker is known, so no name covers a later point.
  pending = name_groups(c.in.points, pending);
  NameSpots names;
  for (const auto& pl : pending) names.markers.push_back({pl.x, pl.y});
  for (const auto& pl : pending)
    point_label(c, pl.x, pl.y, pl.name, pl.more, pl.verdict, names, out.labels);
  return out;
}

// --- step 11: the legend: what the line styles and marker colours mean -----------------------
using LegendItems = std::vector<std::pair<std::string, std::string>>;  // (swatch at 0,0, text)

LegendItems legend_items(const Canvas& c, bool any_theory) {
  const Chart& ch = c.ch;
  LegendItems items;
  auto line_swatch = [&](const std::string& cls, const std::string& extra = "") {
    return "<line class=\"" + cls + "\" x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + extra + "/>";
  };
  bool any_measured = false, any_dashed = false;
  for (const auto& r : ch.roofs)
    if (r.machine == 0 && r.shown) (r.dashed ? any_dashed : any_measured) = true;
  if (any_measured) items.push_back({line_swatch("roof"), "measured roof"});
  if (any_dashed)
    items.push_back({line_swatch("roof dashed"), "datasheet / reported / theoretical roof"});
  if (any_theory) items.push_back({line_swatch("theory"), "theoretical value of a measured roof"});
  items.push_back({"<circle class=\"ridge\" cx=\"13\" cy=\"0\" r=\"4\"/>", "ridge point I* = π/β"});
  for (size_t i = 1; i < c.in.machines.size(); ++i) {
    // One entry per compared machine, drawn as its roofs are: dashed when every shown one is a
    // datasheet roof.
    bool measured = false;
    for (const auto& r : ch.roofs)
      if (r.machine == i && r.shown && !r.dashed) measured = true;
    items.push_back({line_swatch("roof" + overlay_classes(i) + (measured ? "" : " dashed"),
                                 attr("data-machine", c.in.machines[i].roofs.name)),
                     c.in.machines[i].roofs.name + " roofs"});
  }
  if (!ch.no_overlap.empty())
    items.push_back({line_swatch("no-overlap"), "no overlap 1/(1/π + 1/(β·I))"});
  if (!ch.empirical.empty()) items.push_back({line_swatch("curve"), "empirical curve"});
  if (ch.workload)
    items.push_back({line_swatch("workload"),
                     mixed_work_note(*ch.workload).empty()
                         ? "workload line"
                         : "workload line (* a ratio of integer to floating-point work)"});
  std::vector<Verdict> seen;
  for (const auto& d : ch.diagnoses)
    if (std::find(seen.begin(), seen.end(), d.verdict) == seen.end()) seen.push_back(d.verdict);
  std::sort(seen.begin(), seen.end());
  if (std::any_of(c.in.points.begin(), c.in.points.end(),
                  [](const Point& p) { return p.weight > 0; }))
    items.push_back(
        {"<circle class=\"marker\" cx=\"7\" cy=\"0\" r=\"3\" fill=\"#8c959f\"/>"
         "<circle class=\"marker\" cx=\"19\" cy=\"0\" r=\"6\" fill=\"#8c959f\"/>",
         "dot area ∝ weight (share of the time)"});
  for (Verdict v : seen)
    items.push_back({marker_shape(verdict_marker(v), 13, 0, 5.5,
                                  " class=\"marker\"" + attr("fill", verdict_colour(v))),
                     to_string(v)});
  does_not_fit_legend(c.in, items);
  return items;
}

/// Where each legend entry goes: left to right from the plot's left edge, 74 px under the plot,
/// a new row (kLegendRowStep lower) where an entry would pass the plot's right edge.
std::vector<Vec2> legend_places(const LegendItems& items, const PlotArea& pa) {
  std::vector<Vec2> at;
  double lx = pa.left, ly = pa.bottom + 74;
  for (const auto& item : items) {
    const double w = 34 + text_width(item.second, 11.5) + 18;
    if (lx + w > pa.right && lx > pa.left) lx = pa.left, ly += kLegendRowStep;
    at.push_back({lx, ly});
    lx += w;
  }
  return at;
}

std::string legend(const Canvas& c, bool any_theory) {
  const LegendItems items = legend_items(c, any_theory);
  const std::vector<Vec2> at = legend_places(items, c.pa);
  std::string s = "<g class=\"legend\">\n";
  for (size_t k = 0; k < items.size(); ++k)
    s += "<g transform=\"translate(" + num(at[k].x) + "," + num(at[k].y) + ")\">" + items[k].first +
         text(32, 4, items[k].second, "legend-text") + "</g>\n";
  return s + "</g>\n";
}

/// The note of the roofs whose label found no place (RoofLabels::left_out), one line at
/// baseline `y` within the chart's width: "roofs not labelled (no room): L2 1.1 TB/s, L3 850 GB/s",
/// each label as the roof's own would read ("h100-sxm: PCIe 128 GB/s" for a compared machine's),
/// as many as the width holds and the rest counted (" and 3 more"); "" when every roof is
/// labelled. Each name is a <tspan> naming its roof (data-ids), hidden with it on the HTML page,
/// where the optional roofs' names start hidden; the line names them all in its data-ids, so it
/// is hidden when all of them are.
std::string not_labelled_note(const Canvas& c, std::vector<size_t> left_out, double y) {
  if (left_out.empty()) return "";
  std::sort(left_out.begin(), left_out.end());
  const std::string head = "roofs not labelled (no room): ";
  const double room = c.o.width - c.pa.left - 8;
  const size_t n = left_out.size();
  auto more = [&](size_t named) {
    return named == n ? std::string() : " and " + std::to_string(n - named) + " more";
  };
  auto item = [&](size_t k) { return roof_label_text(c.in, c.ch.roofs[left_out[k]]); };
  // As many names as fit, in the chart's order of roofs; not even one whole: the first cut.
  size_t named = 0;
  std::string line = head;
  for (size_t k = 0; k < n; ++k) {
    line += (k ? ", " : "") + item(k);
    if (text_width(line + more(k + 1), kNoteFont) > room) break;
    named = k + 1;
  }
  std::string ids, spans;
  bool any_shown = false;
  for (size_t k = 0; k < n; ++k) {
    const DrawnRoof& r = c.ch.roofs[left_out[k]];
    ids += (k ? " " : "") + r.id;
    any_shown = any_shown || r.shown;
    if (k >= std::max<size_t>(named, 1)) continue;
    const std::string name =
        named > 0 ? item(k) : cut_to_fit(item(k), head, more(1), [&](const std::string& t) {
          return text_width(t, kNoteFont) <= room;
        });
    spans += "<tspan" + label_ids(r) + ">" + xml_text((k ? ", " : "") + name) + "</tspan>";
  }
  return "<text" + attr("x", c.pa.left) + attr("y", y) + attr("class", "not-labelled") +
         attr("data-ids", ids) + hidden_unless(any_shown) + ">" + xml_text(head) + spans +
         xml_text(more(std::max<size_t>(named, 1))) + "</text>\n";
}

}  // namespace

namespace {
/// The plot starts below the lines of the chart's warnings (ReportInput::warnings), as many as
/// warning_text draws in the width left of the plot's left edge (o.axis_left set).
void keep_room_for_warnings(const ReportInput& in, SvgOptions& o) {
  const size_t lines = chart_warning_lines(in, o.width - o.axis_left - 8).size();
  if (lines == 0) return;
  const double last = warnings_baseline(in) + static_cast<double>(lines - 1) * kWarningLineStep;
  o.plot_top = std::max(o.plot_top, last + kPlotTopBelowNotDrawn - kNotDrawnBaseline);
}
}  // namespace

double label_column_width(const Chart& ch, const SvgOptions& o) {
  double w = 0;
  for (const auto& r : ch.roofs)
    if (r.compute && (r.shown || o.include_optional))
      w = std::max(w, text_width(roof_label_text(*ch.in, r), kFont));  // "(noisy)" too
  return w > 0 ? std::min(w + 12, 0.34 * o.width) : 0;
}

Chart chart_for_svg(const ReportInput& in, SvgOptions& o) {
  // The column of roof labels takes its width from the labels; the plot gets the rest.
  const Chart probe = build_chart(in, 800, 450);
  o.label_column = label_column_width(probe, o);
  // Room left of the plot for the widest y tick ("100 MFLOP/s") and the axis title beside it.
  double ticks = 0;
  for (double v : decade_ticks(probe.y_lo - 1, probe.y_hi + 1))
    ticks = std::max(ticks, text_width(format_si(v, probe.units.work_rate(), 3), 11.5));
  o.axis_left = std::max(o.axis_left, ticks + 9 + 34);
  // A line under the subtitle says the points not drawn: the plot starts below it.
  if (!in.not_drawn.empty()) o.plot_top = std::max(o.plot_top, kPlotTopBelowNotDrawn);
  keep_room_for_warnings(in, o);
  const PlotArea pa = plot_area(o);
  Chart ch = build_chart(in, pa.right - pa.left, pa.bottom - pa.top);
  // Legend rows that would pass the canvas's bottom make it taller; the plot keeps its size.
  Canvas c(ch, o);
  const std::vector<Vec2> at = legend_places(legend_items(c, !theory_layer(c).empty()), c.pa);
  const double need = at.empty() ? 0 : at.back().y + kLegendRowDepth;
  if (need > o.height) {
    o.legend_extra += need - o.height;
    o.height = need;
  }
  return ch;
}

std::string render_svg_chart(const Chart& ch, const SvgOptions& o) {
  Canvas c(ch, o);
  const std::string theory = theory_layer(c);
  // Everything labels must avoid is registered before the first label is placed; the labels
  // of the view come first (workload, roofs, ridges, headroom, points), then those of the HTML
  // page's optional roofs, in what space is left.
  const std::vector<PointGeom> geom = register_points(c);
  register_roofs(c, false);
  // The workload line's ratios are what a comparison chart is for (docs/model.md §7): placed first.
  const std::string workload_layer = workload(c);
  RoofLabels labels;
  roof_labels(c, false, labels);
  const RidgeLayers ridge_layer = ridges(c);
  const PointLayers pts = points(c, geom);
  if (o.include_optional) {
    register_roofs(c, true);
    roof_labels(c, true, labels);
  }
  // The note of roofs not labelled takes a row under the legend, the canvas growing for it as
  // for legend rows (chart_for_svg); the plot keeps its place.
  const std::vector<Vec2> rows = legend_places(legend_items(c, !theory.empty()), c.pa);
  const double note_y =
      (rows.empty() ? c.pa.bottom + 74 - kLegendRowStep : rows.back().y) + kLegendRowStep;
  const std::string note = not_labelled_note(c, labels.left_out, note_y);
  const double height = note.empty() ? o.height : std::max(o.height, note_y + kLegendRowDepth);
  std::string s = open_document(c, height) + axes(c) + theory;
  s += "<g class=\"layer layer-roofs\"" + c.clip + ">\n" + roof_lines(c, false) + labels.inside +
       "</g>\n";
  const std::string overlay_lines = roof_lines(c, true);
  if (!overlay_lines.empty())
    s += "<g class=\"layer layer-overlay\"" + c.clip + ">\n" + overlay_lines +
         labels.inside_overlay + "</g>\n";
  // The label column lies outside the plot's clip; it is toggled with the roofs.
  if (!labels.column.empty())
    s += "<g class=\"layer layer-roofs roof-column\">\n" + labels.column + "</g>\n";
  s += curves(c) + ridge_layer.rings + workload_layer;
  if (!pts.headroom.empty())
    s += "<g class=\"layer layer-headroom\"" + c.clip + ">\n" + pts.headroom + "</g>\n";
  s += ridge_layer.labels;
  s += "<g class=\"layer layer-points\"" + c.clip + ">\n" + pts.markers + pts.labels + "</g>\n";
  s += "</g>\n";  // #plot
  s += legend(c, !theory.empty()) + note;
  return s + "</svg>\n";
}

}  // namespace roofline::report
