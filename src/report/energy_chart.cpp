// The energy roofline chart (energy_chart.hpp): work per joule against intensity on log scales,
// drawn from the model in roofline/energy.hpp — nothing here computes energy itself.
#include "roofline/energy_chart.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "report/chart.hpp"
#include "report/chart_fit.hpp"
#include "report/svg.hpp"
#include "report/svg_layout.hpp"
#include "report/svg_text.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {
namespace {

using report::svg_attr;
using report::svg_exact;
using report::svg_num;
using report::svg_text;

const char* kEnergyStyleLight = R"(
.energy-roof{fill:none;stroke:#24292f;stroke-width:2.4}
.energy-peak{stroke:#6e7781;stroke-width:1.2;stroke-dasharray:8 5}
.time-balance{stroke:#8c959f;stroke-width:1;stroke-dasharray:2 4}
.balance-point{fill:#ffffff;stroke:#24292f;stroke-width:1.6}
.label{font-size:11.5px;fill:#24292f}
.point-marker{fill:#0072B2;stroke:#ffffff;stroke-width:1.2}
.point-label{font-size:12px;font-weight:600;fill:#0072B2}
.not-drawn{font-size:11.5px;fill:#9a3412}
)";
const char* kEnergyStyleDark = R"(
@media (prefers-color-scheme: dark){
.energy-roof{stroke:#e6edf3}
.balance-point{fill:#0d1117;stroke:#e6edf3}
.label{fill:#e6edf3}
.point-marker{stroke:#0d1117}
.point-label{fill:#56B4E9}
.not-drawn{fill:#f0883e}
}
)";

/// The baseline of the line of points not drawn, under the subtitle's (48).
constexpr double kNotDrawnBaseline = 66;
/// The sizes of .label and .point-label (semibold), for measuring them.
constexpr double kLabelFont = 11.5;
constexpr double kPointFont = 12;

double floor_decade(double v) {
  return std::floor(std::log10(v));
}
double ceil_decade(double v) {
  return std::ceil(std::log10(v));
}

/// InputError for a point the log scales cannot place: its intensity and work per joule must be
/// finite and > 0.
void energy_check_points(const EnergyChartInput& in) {
  for (const auto& p : in.points)
    if (!(p.intensity > 0) || !(p.work_per_joule > 0) || !std::isfinite(p.intensity) ||
        !std::isfinite(p.work_per_joule))
      throw InputError("energy chart: point '" + p.name +
                       "' needs an intensity and a work per joule > 0");
}

/// The chart's geometry and the model's landmarks: peak 1/ε̂, the energy balance point, the
/// time balance, the axes' decades and the plot's box in pixels.
struct EnergyFrame {
  double peak = 0, balance = 0, tb = 0;
  double xlo = 0, xhi = 0, ylo = 0, yhi = 0;  ///< log10 of the axes' ends
  double width = 0, height = 0, left = 0, right = 0, top = 0, bottom = 0;
  report::LogScale X, Y;
};

/// The landmarks and the axes' ranges from the costs and the points.
EnergyFrame energy_frame(const EnergyChartInput& in) {
  const EnergyCosts& k = in.costs;
  EnergyFrame f;
  f.peak = 1.0 / effective_energy_per_flop(k);
  f.balance = energy_balance_point(k);
  f.tb = time_balance(k);

  // A decade beyond the balances and the points either side; the roof's lowest value and the
  // points set the bottom, the peak the top.
  double ilo = std::min(f.balance, f.tb), ihi = std::max(f.balance, f.tb);
  for (const auto& p : in.points)
    ilo = std::min(ilo, p.intensity), ihi = std::max(ihi, p.intensity);
  f.xlo = floor_decade(ilo) - 1, f.xhi = ceil_decade(ihi) + 1;
  double ylo_v = work_per_joule(k, std::pow(10.0, f.xlo));
  for (const auto& p : in.points) ylo_v = std::min(ylo_v, p.work_per_joule);
  double yhi_v = f.peak * 1.5;
  for (const auto& p : in.points) yhi_v = std::max(yhi_v, p.work_per_joule * 1.5);
  f.ylo = floor_decade(ylo_v), f.yhi = ceil_decade(yhi_v);

  // The line of points not drawn (kNotDrawnBaseline) moves the plot's top down.
  f.width = 960, f.height = 640, f.left = 96, f.right = f.width - 40,
  f.top = in.not_drawn.empty() ? 70 : 84, f.bottom = f.height - 96;
  // The same length per decade on both axes, as the time roofline's (docs/charts.md), so the
  // memory-bound side is drawn at its true slope: the shorter range is extended (x either side,
  // y downwards, keeping room above the peak).
  const double per_x = (f.right - f.left) / (f.xhi - f.xlo),
               per_y = (f.bottom - f.top) / (f.yhi - f.ylo);
  if (per_x > per_y) {
    const double extra = (f.right - f.left) / per_y - (f.xhi - f.xlo);
    f.xlo -= extra / 2, f.xhi += extra / 2;
  } else {
    f.ylo -= (f.bottom - f.top) / per_x - (f.yhi - f.ylo);
  }
  f.X = report::LogScale{f.xlo, f.xhi, f.left, f.right};
  f.Y = report::LogScale{f.ylo, f.yhi, f.bottom, f.top};
  return f;
}

/// The <svg> element's opening: title, description, style, background, the chart's titles.
std::string energy_svg_head(const EnergyChartInput& in, const EnergyFrame& f, bool dark_mode) {
  const std::string wu = in.work_unit, tu = in.traffic_unit;
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" + svg_attr("width", f.width) +
       svg_attr("height", f.height) + " viewBox=\"0 0 " + svg_num(f.width) + " " +
       svg_num(f.height) + "\" class=\"roofline-energy\" role=\"img\"" +
       svg_attr("aria-label", in.title) + ">\n";
  s += "<title>" + xml_text(in.title) + "</title>\n";
  s += "<desc>Energy roofline: " + xml_text(wu) +
       "/J (log) against operational "
       "intensity in " +
       xml_text(wu + "/" + tu) + " (log).</desc>\n";
  s += "<style>" + std::string(report::kAxesStyleLight) + kEnergyStyleLight +
       (dark_mode ? std::string(report::kAxesStyleDark) + kEnergyStyleDark : std::string()) +
       "</style>\n";
  s += "<rect class=\"bg\" x=\"0\" y=\"0\"" + svg_attr("width", f.width) +
       svg_attr("height", f.height) + "/>\n";
  s += report::title_text(f.left, f.width - f.left - 8, in.title);
  // Within the width, as the title: a long roof name cut, the whole line in its <title>.
  if (!in.subtitle.empty())
    s += report::fitted_text(f.left, 48, f.width - f.left - 8, in.subtitle, "subtitle", 12);
  // The points given that the chart leaves out, as many as the width holds, the rest counted.
  const std::string left_out = report::not_drawn_line(in.not_drawn, [&](const std::string& l) {
    return report::text_width(l, 11.5) <= f.width - f.left - 8;
  });
  if (!left_out.empty())
    s += svg_text(f.left, kNotDrawnBaseline, left_out, "not-drawn", "start", "");
  return s;
}

/// The plot group's opening (with the pixel mapping) and the grid: minor and major lines of
/// both log axes.
std::string energy_grid(const EnergyFrame& f) {
  const double left = f.left, right = f.right, top = f.top, bottom = f.bottom;
  const report::LogScale &X = f.X, &Y = f.Y;
  std::string s;
  s += "<g id=\"plot\"" + svg_attr("data-x-log-min", svg_exact(f.xlo)) +
       svg_attr("data-x-log-max", svg_exact(f.xhi)) + svg_attr("data-y-log-min", svg_exact(f.ylo)) +
       svg_attr("data-y-log-max", svg_exact(f.yhi)) + svg_attr("data-left", svg_exact(left)) +
       svg_attr("data-right", svg_exact(right)) + svg_attr("data-top", svg_exact(top)) +
       svg_attr("data-bottom", svg_exact(bottom)) + ">\n<g class=\"grid\">\n";
  for (double v : report::minor_ticks(f.ylo, f.yhi))
    s += "<line class=\"grid-minor\"" + svg_attr("x1", left) + svg_attr("x2", right) +
         svg_attr("y1", Y(v)) + svg_attr("y2", Y(v)) + "/>\n";
  for (double v : report::minor_ticks(f.xlo, f.xhi))
    s += "<line class=\"grid-minor\"" + svg_attr("x1", X(v)) + svg_attr("x2", X(v)) +
         svg_attr("y1", top) + svg_attr("y2", bottom) + "/>\n";
  for (double v : report::decade_ticks(f.ylo, f.yhi))
    s += "<line class=\"grid-major\"" + svg_attr("x1", left) + svg_attr("x2", right) +
         svg_attr("y1", Y(v)) + svg_attr("y2", Y(v)) + "/>\n";
  for (double v : report::decade_ticks(f.xlo, f.xhi))
    s += "<line class=\"grid-major\"" + svg_attr("x1", X(v)) + svg_attr("x2", X(v)) +
         svg_attr("y1", top) + svg_attr("y2", bottom) + "/>\n";
  s += "</g>\n";
  return s;
}

/// The axes: frame, a tick per decade on both, axis titles in the chart's units.
std::string energy_axes(const EnergyFrame& f, const std::string& wu, const std::string& tu) {
  const double left = f.left, right = f.right, top = f.top, bottom = f.bottom;
  const report::LogScale &X = f.X, &Y = f.Y;
  std::string s = "<g class=\"axes\">\n<rect class=\"frame\"" + svg_attr("x", left) +
                  svg_attr("y", top) + svg_attr("width", right - left) +
                  svg_attr("height", bottom - top) + "/>\n";
  for (double v : report::decade_ticks(f.xlo, f.xhi))
    s += "<line class=\"tick-mark\"" + svg_attr("x1", X(v)) + svg_attr("x2", X(v)) +
         svg_attr("y1", bottom) + svg_attr("y2", bottom + 6) + "/>\n" +
         svg_text(X(v), bottom + 20, report::intensity_tick(v, f.xlo, f.xhi), "tick x-tick",
                  "middle", svg_attr("data-value", svg_exact(v)));
  for (double v : report::decade_ticks(f.ylo, f.yhi))
    s += "<line class=\"tick-mark\"" + svg_attr("x1", left - 6) + svg_attr("x2", left) +
         svg_attr("y1", Y(v)) + svg_attr("y2", Y(v)) + "/>\n" +
         svg_text(left - 9, Y(v) + 4, format_si(v, ""), "tick y-tick", "end",
                  svg_attr("data-value", svg_exact(v)));
  s += svg_text((left + right) / 2, bottom + 44, "Operational intensity [" + wu + "/" + tu + "]",
                "axis-title x-title", "middle", "");
  s += svg_text(0, 0, "Energy efficiency [" + wu + "/J]", "axis-title y-title", "middle",
                " transform=\"translate(24," + svg_num((top + bottom) / 2) + ") rotate(-90)\"");
  s += "</g>\n";
  return s;
}

/// The model drawn: the roof W/E(I) clipped to the plot, the peak and the time balance as lines,
/// the balance point, and their labels; the lines and labels filed in `placer`, which the points'
/// names then keep clear of.
std::string energy_roof(const EnergyCosts& k, const EnergyFrame& f, const std::string& wu,
                        report::Placer& placer) {
  const double left = f.left, right = f.right, top = f.top, bottom = f.bottom;
  const double peak = f.peak, balance = f.balance, tb = f.tb;
  const report::LogScale &X = f.X, &Y = f.Y;
  // The roof: W/E(I) at 241 log-spaced intensities (40 per decade at most).
  const int n = 240;
  std::string d;
  double px = 0, py = 0;
  for (int i = 0; i <= n; ++i) {
    const double l = f.xlo + (f.xhi - f.xlo) * i / n, I = std::pow(10.0, l);
    const double x = X(I), y = Y(work_per_joule(k, I));
    d += (i == 0 ? "M" : "L") + svg_num(x) + " " + svg_num(y);
    if (i > 0) placer.line({px, py, x, y, 0});  // owner 0: the roof
    px = x, py = y;
  }
  placer.line({left, Y(peak), right, Y(peak)});
  placer.line({X(tb), top, X(tb), bottom});
  placer.take(report::Quad::box(X(balance) - 6, Y(peak / 2) - 6, X(balance) + 6, Y(peak / 2) + 6));
  std::string s;
  s += "<defs><clipPath id=\"energy-clip\"><rect" + svg_attr("x", left) + svg_attr("y", top) +
       svg_attr("width", right - left) + svg_attr("height", bottom - top) +
       "/></clipPath></defs>\n<g clip-path=\"url(#energy-clip)\">\n";
  s += "<line class=\"energy-peak\"" + svg_attr("data-value", svg_exact(peak)) +
       svg_attr("x1", left) + svg_attr("x2", right) + svg_attr("y1", Y(peak)) +
       svg_attr("y2", Y(peak)) + "/>\n";
  s += "<line class=\"time-balance\"" + svg_attr("data-value", svg_exact(tb)) +
       svg_attr("x1", X(tb)) + svg_attr("x2", X(tb)) + svg_attr("y1", top) +
       svg_attr("y2", bottom) + "/>\n";
  s += "<path class=\"energy-roof\"" + svg_attr("data-peak", svg_exact(peak)) + " d=\"" + d +
       "\"/>\n</g>\n";
  s += "<circle class=\"balance-point\"" + svg_attr("data-intensity", svg_exact(balance)) +
       svg_attr("data-value", svg_exact(peak / 2)) + svg_attr("cx", X(balance)) +
       svg_attr("cy", Y(peak / 2)) + " r=\"4.5\"/>\n";
  // The three labels, each filed where it is drawn.
  const auto label = [&](double x, double y, const std::string& t, const char* anchor) {
    placer.take(report::text_quad(x, y, report::text_width(t, kLabelFont), kLabelFont, anchor));
    s += svg_text(x, y, t, "label", anchor, "");
  };
  label(right - 6, Y(peak) - 7, "peak 1/ε̂ = " + format_si(peak, wu + "/J") + " (ε̂ = ε_flop + π0/π)",
        "end");
  label(X(balance) - 9, Y(peak / 2) + 4,
        "balance point I = " + format_number(balance, 4) + " (half the peak)", "end");
  label(X(tb) + 5, bottom - 8, "B_τ = π/β = " + format_number(tb, 4), "start");
  return s;
}

/// The measured points: a marker with its values as a tooltip (and its share of the roof). Then
/// their names, in their order, each at the first spot beside its marker that is clear of the
/// other markers, the names placed before it and the chart's labels (clear of the lines where
/// one is); a name longer than half the plot is cut with "…", and one with no clear spot is
/// left to its tooltip, as the roofline chart's are.
std::string energy_points_svg(const EnergyChartInput& in, const EnergyFrame& f,
                              report::Placer& placer) {
  const EnergyCosts& k = in.costs;
  const std::string wu = in.work_unit, tu = in.traffic_unit;
  std::string s;
  for (const auto& p : in.points) {
    const double x = f.X(p.intensity), y = f.Y(p.work_per_joule);
    const double roof = work_per_joule(k, p.intensity);
    const std::string tip = p.name + ": I = " + format_number(p.intensity, 4) + " " + wu + "/" +
                            tu + ", " + format_si(p.work_per_joule, wu + "/J") + " (" +
                            format_number(100 * p.work_per_joule / roof, 3) +
                            "% of the energy roof)";
    s += "<g class=\"point\"" + svg_attr("data-name", p.name) +
         svg_attr("data-intensity", svg_exact(p.intensity)) +
         svg_attr("data-work-per-joule", svg_exact(p.work_per_joule)) + "><title>" + xml_text(tip) +
         "</title><circle class=\"point-marker\"" + svg_attr("cx", x) + svg_attr("cy", y) +
         " r=\"6\"/></g>\n";
    placer.take(report::Quad::box(x - 7, y - 7, x + 7, y + 7));  // r = 6 and 1 px of air
  }
  const double most = (f.right - f.left) / 2;
  for (const auto& p : in.points) {
    const double x = f.X(p.intensity), y = f.Y(p.work_per_joule);
    const std::string name = report::fit_title(p.name, [&](const std::string& t) {
      return report::text_width(t, kPointFont, true) <= most;
    });
    const double w = report::text_width(name, kPointFont, true);
    struct Spot {
      double dx, dy;
      const char* anchor;
    };
    // Beside the marker, then above and below it: each clear of the marker's own box with the
    // name's 3 px of air.
    constexpr Spot kSpots[] = {{11, 4, "start"},   {-11, 4, "end"},  {4, -14, "start"},
                               {4, 24, "start"},   {-4, -14, "end"}, {-4, 24, "end"},
                               {0, -14, "middle"}, {0, 24, "middle"}};
    bool placed = false;
    for (const auto avoid : {report::Placer::Avoid::all_lines, report::Placer::Avoid::no_lines}) {
      for (const Spot& at : kSpots) {
        const report::Quad q = report::text_quad(x + at.dx, y + at.dy, w, kPointFont, at.anchor, 3);
        if (!placer.fits(q, {}, avoid)) continue;
        placer.take(q);
        s += svg_text(x + at.dx, y + at.dy, name, "point-label", at.anchor,
                      svg_attr("data-name", p.name));
        placed = true;
        break;
      }
      if (placed) break;
    }
  }
  return s;
}

/// The line under the plot: the costs the roof is drawn from, and the model's source.
std::string energy_costs_line(const EnergyCosts& k, const EnergyFrame& f, const std::string& wu,
                              const std::string& tu) {
  return svg_text(f.left, f.height - 22,
                  "ε_flop " + format_si(k.eps_flop, "J") + "/" + wu + ", ε_mem " +
                      format_si(k.eps_mem, "J") + "/" + tu + ", π0 " + format_si(k.pi0, "W") +
                      " — Choi, Bedard, Fowler & Vuduc, \"A roofline model of energy\", IPDPS 2013",
                  "legend-text", "start", "");
}

}  // namespace

std::string render_energy_svg(const EnergyChartInput& in, bool dark_mode) {
  const EnergyCosts& k = in.costs;
  k.validate();
  energy_check_points(in);
  const EnergyFrame f = energy_frame(in);
  const std::string wu = in.work_unit, tu = in.traffic_unit;
  // Head, then the plot group (grid, axes, roof, points), then the costs under it.
  std::string s = energy_svg_head(in, f, dark_mode);
  s += energy_grid(f);
  s += energy_axes(f, wu, tu);
  report::Placer placer(report::Quad::box(f.left + 2, f.top + 2, f.right - 2, f.bottom - 2));
  s += energy_roof(k, f, wu, placer);
  s += energy_points_svg(in, f, placer);
  s += "</g>\n";
  s += energy_costs_line(k, f, wu, tu);
  s += "</svg>\n";
  return s;
}

void check_energy_chart_format(const std::filesystem::path& path) {
  const std::string ext = report::lower_extension(path);
  if (ext != ".svg" && ext != ".png")
    report::unknown_chart_format(path, ext, " for the energy chart", ".svg or .png");
}

void write_energy_chart(const std::filesystem::path& path, const EnergyChartInput& in) {
  check_energy_chart_format(path);
  const bool png = report::lower_extension(path) == ".png";
  const std::string svg = render_energy_svg(in, !png);
  write_file_atomic(path, png ? png_for_file(path, svg) : svg);
}

std::string render_energy_text(const EnergyAnalysis& an, const UnitSystem& u,
                               const std::vector<double>& intensities, const EnergyPoints* points,
                               const std::string& points_file) {
  const auto joules = [](double j) { return format_si(j, "J"); };
  std::string t;
  if (an.measured) {
    const MeasuredEnergy& me = *an.measured;
    t += "measured power (" + me.source + "): at rest " + format_si(me.idle_power_w, "W") +
         " (π0), " + format_si(me.compute_power_w, "W") + " running " + me.compute_roof + ", " +
         format_si(me.memory_power_w, "W") + " running " + me.memory_level +
         "'s best mix; ε_flop = (P − π0)/π, ε_mem = (P − π0)/β\n";
  }
  if (an.costs) {
    const EnergyCosts& k = *an.costs;
    const double eh = effective_energy_per_flop(k);
    const double bp = energy_balance_point(k);
    t += "energy roofline (Choi, Bedard, Fowler & Vuduc 2013), ε_flop " + joules(k.eps_flop) + "/" +
         u.work + ", ε_mem " + joules(k.eps_mem) + "/" + u.traffic + ", π0 " +
         format_si(k.pi0, "W") + ":\n";
    t += "  time balance B_τ = π/β = " + format_intensity(Intensity(time_balance(k)), u) +
         "; energy balance B_ε = ε_mem/ε_flop = " +
         format_intensity(Intensity(energy_balance(k)), u) + "\n";
    t += "  ε̂_flop = ε_flop + π0/π = " + joules(eh) + "/" + u.work + ": peak " +
         format_number(1.0 / eh) + " " + u.work + "/J\n";
    t += "  balance point (half the peak " + u.work +
         "/J): I = " + format_intensity(Intensity(bp), u) + "\n";
    for (double i : intensities)
      t += "  at I = " + format_intensity(Intensity(i), u) + ": " +
           format_number(work_per_joule(k, i)) + " " + u.work + "/J, " +
           format_si(model_power(k, i).value, "W") + "\n";
    if (points) {
      if (!points->placed.empty()) t += "  points (" + points_file + "):\n";
      for (const auto& p : points->placed) {
        const double roof = work_per_joule(k, p.intensity);
        t += "    " + p.name + ": I = " + format_intensity(Intensity(p.intensity), u) + ", " +
             format_number(p.work_per_joule) + " " + u.work + "/J measured, roof " +
             format_number(roof) + " " + u.work + "/J (" +
             format_number(100 * p.work_per_joule / roof, 3) + "%)" +
             // Above the roof (with `point`'s 5% slack) the costs cannot both hold: said.
             (p.work_per_joule > DiagnosisOptions{}.above * roof
                  ? " — above the energy roof: impossible if the costs hold; the given ε and π0 "
                    "are too high for this point, or its energy is under-counted"
                  : "") +
             "\n";
      }
      for (const auto& n : points->skipped)
        t += "    " + n + ": no energy in the points file, not placed\n";
      for (const auto& n : points->off_level)
        t += "    " + n + ": no traffic at " + an.memory_level +
             " (the model's level), not placed\n";
    }
  }
  if (an.bound) {
    const TdpEnergyBound& b = *an.bound;
    t += "catalogue power " + format_si(b.power_w, "W") + " (" + b.power_source + "):\n";
    t += "  at most " + joules(b.max_joules_per_work) + "/" + u.work + " at π (" + b.compute_roof +
         "), so at least " + format_number(b.min_work_per_joule) + " " + u.work + "/J; at most " +
         joules(b.max_joules_per_byte) + "/" + u.traffic + " at β (" + b.memory_level + ")\n";
  } else {
    t += "catalogue power: " + an.bound_why + "\n";
  }
  for (const auto& w : an.warnings) t += "warning: " + w + "\n";
  return t;
}

std::string render_energy_roofs_text(const std::string& machine, const ComputeRoof& c,
                                     const MemoryRoof& m, const UnitSystem& u) {
  return "machine " + machine + ": π = " + format_work_rate(c.peak, u) + " (" + c.name +
         "), β = " + format_byte_rate(m.bandwidth, u) + " (" + m.level + ")\n";
}

std::string render_power_interface_text(const PowerInterface& pi) {
  if (pi.zones.empty())
    return "power interface: none — " + terminal_safe(pi.why_none) +
           "; no power is measured here\n";
  std::string t = "power interface (RAPL, " + terminal_safe(pi.root) + "):\n";
  for (const auto& z : pi.zones)
    t += "  " + terminal_safe(z.id) + " " + terminal_safe(z.name) +
         (z.readable ? ": readable" : ": not readable (" + terminal_safe(z.why_unreadable) + ")") +
         "\n";
  return t;
}

}  // namespace roofline
