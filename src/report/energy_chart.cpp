// The energy roofline chart (energy_chart.hpp): work per joule against intensity on log scales,
// drawn from the model in roofline/energy.hpp — nothing here computes energy itself.
#include "roofline/energy_chart.hpp"

#include <algorithm>
#include <cmath>

#include "report/chart.hpp"
#include "report/svg_text.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"

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
)";
const char* kEnergyStyleDark = R"(
@media (prefers-color-scheme: dark){
.energy-roof{stroke:#e6edf3}
.balance-point{fill:#0d1117;stroke:#e6edf3}
.label{fill:#e6edf3}
.point-marker{stroke:#0d1117}
.point-label{fill:#56B4E9}
}
)";

double floor_decade(double v) {
  return std::floor(std::log10(v));
}
double ceil_decade(double v) {
  return std::ceil(std::log10(v));
}

}  // namespace

std::string render_energy_svg(const EnergyChartInput& in, bool dark_mode) {
  const EnergyCosts& k = in.costs;
  k.validate();
  for (const auto& p : in.points)
    if (!(p.intensity > 0) || !(p.work_per_joule > 0) || !std::isfinite(p.intensity) ||
        !std::isfinite(p.work_per_joule))
      throw InputError("energy chart: point '" + p.name +
                       "' needs an intensity and a work per joule > 0");
  const double peak = 1.0 / effective_energy_per_flop(k);
  const double balance = energy_balance_point(k);
  const double tb = time_balance(k);
  const std::string wu = in.work_unit, tu = in.traffic_unit;

  // A decade beyond the balances and the points either side; the roof's lowest value and the
  // points set the bottom, the peak the top.
  double ilo = std::min(balance, tb), ihi = std::max(balance, tb);
  for (const auto& p : in.points)
    ilo = std::min(ilo, p.intensity), ihi = std::max(ihi, p.intensity);
  const double xlo = floor_decade(ilo) - 1, xhi = ceil_decade(ihi) + 1;
  double ylo_v = work_per_joule(k, std::pow(10.0, xlo));
  for (const auto& p : in.points) ylo_v = std::min(ylo_v, p.work_per_joule);
  double yhi_v = peak * 1.5;
  for (const auto& p : in.points) yhi_v = std::max(yhi_v, p.work_per_joule * 1.5);
  const double ylo = floor_decade(ylo_v), yhi = ceil_decade(yhi_v);

  const double width = 960, height = 640, left = 96, right = width - 40, top = 70,
               bottom = height - 96;
  const report::LogScale X{xlo, xhi, left, right};
  const report::LogScale Y{ylo, yhi, bottom, top};

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" + svg_attr("width", width) +
       svg_attr("height", height) + " viewBox=\"0 0 " + svg_num(width) + " " + svg_num(height) +
       "\" class=\"roofline-energy\" role=\"img\"" + svg_attr("aria-label", in.title) + ">\n";
  s += "<title>" + report::xml_escape(in.title) + "</title>\n";
  s += "<desc>Energy roofline: " + report::xml_escape(wu) +
       "/J (log) against operational "
       "intensity in " +
       report::xml_escape(wu + "/" + tu) + " (log).</desc>\n";
  s += "<style>" + std::string(report::kAxesStyleLight) + kEnergyStyleLight +
       (dark_mode ? std::string(report::kAxesStyleDark) + kEnergyStyleDark : std::string()) +
       "</style>\n";
  s += "<rect class=\"bg\" x=\"0\" y=\"0\"" + svg_attr("width", width) +
       svg_attr("height", height) + "/>\n";
  s += svg_text(left, 28, in.title, "title", "start", "");
  if (!in.subtitle.empty()) s += svg_text(left, 48, in.subtitle, "subtitle", "start", "");
  s += "<g id=\"plot\"" + svg_attr("data-x-log-min", svg_exact(xlo)) +
       svg_attr("data-x-log-max", svg_exact(xhi)) + svg_attr("data-y-log-min", svg_exact(ylo)) +
       svg_attr("data-y-log-max", svg_exact(yhi)) + svg_attr("data-left", svg_exact(left)) +
       svg_attr("data-right", svg_exact(right)) + svg_attr("data-top", svg_exact(top)) +
       svg_attr("data-bottom", svg_exact(bottom)) + ">\n<g class=\"grid\">\n";
  for (double v : report::minor_ticks(ylo, yhi))
    s += "<line class=\"grid-minor\"" + svg_attr("x1", left) + svg_attr("x2", right) +
         svg_attr("y1", Y(v)) + svg_attr("y2", Y(v)) + "/>\n";
  for (double v : report::minor_ticks(xlo, xhi))
    s += "<line class=\"grid-minor\"" + svg_attr("x1", X(v)) + svg_attr("x2", X(v)) +
         svg_attr("y1", top) + svg_attr("y2", bottom) + "/>\n";
  for (double v : report::decade_ticks(ylo, yhi))
    s += "<line class=\"grid-major\"" + svg_attr("x1", left) + svg_attr("x2", right) +
         svg_attr("y1", Y(v)) + svg_attr("y2", Y(v)) + "/>\n";
  for (double v : report::decade_ticks(xlo, xhi))
    s += "<line class=\"grid-major\"" + svg_attr("x1", X(v)) + svg_attr("x2", X(v)) +
         svg_attr("y1", top) + svg_attr("y2", bottom) + "/>\n";
  s += "</g>\n<g class=\"axes\">\n<rect class=\"frame\"" + svg_attr("x", left) +
       svg_attr("y", top) + svg_attr("width", right - left) + svg_attr("height", bottom - top) +
       "/>\n";
  for (double v : report::decade_ticks(xlo, xhi))
    s += "<line class=\"tick-mark\"" + svg_attr("x1", X(v)) + svg_attr("x2", X(v)) +
         svg_attr("y1", bottom) + svg_attr("y2", bottom + 6) + "/>\n" +
         svg_text(X(v), bottom + 20, report::intensity_tick(v), "tick x-tick", "middle",
                  svg_attr("data-value", svg_exact(v)));
  for (double v : report::decade_ticks(ylo, yhi))
    s += "<line class=\"tick-mark\"" + svg_attr("x1", left - 6) + svg_attr("x2", left) +
         svg_attr("y1", Y(v)) + svg_attr("y2", Y(v)) + "/>\n" +
         svg_text(left - 9, Y(v) + 4, format_si(v, ""), "tick y-tick", "end",
                  svg_attr("data-value", svg_exact(v)));
  s += svg_text((left + right) / 2, bottom + 44, "Operational intensity [" + wu + "/" + tu + "]",
                "axis-title x-title", "middle", "");
  s += svg_text(0, 0, "Energy efficiency [" + wu + "/J]", "axis-title y-title", "middle",
                " transform=\"translate(24," + svg_num((top + bottom) / 2) + ") rotate(-90)\"");
  s += "</g>\n";

  // The roof: W/E(I) at 241 log-spaced intensities (40 per decade at most).
  const int n = 240;
  std::string d;
  for (int i = 0; i <= n; ++i) {
    const double l = xlo + (xhi - xlo) * i / n, I = std::pow(10.0, l);
    d += (i == 0 ? "M" : "L") + svg_num(X(I)) + " " + svg_num(Y(work_per_joule(k, I)));
  }
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
  s += svg_text(right - 6, Y(peak) - 7,
                "peak 1/ε̂ = " + format_si(peak, wu + "/J") + " (ε̂ = ε_flop + π0/π)", "label", "end",
                "");
  s += svg_text(X(balance) - 9, Y(peak / 2) + 4,
                "balance point I = " + format_number(balance, 4) + " (half the peak)", "label",
                "end", "");
  s += svg_text(X(tb) + 5, bottom - 8, "B_τ = π/β = " + format_number(tb, 4), "label", "start", "");
  for (const auto& p : in.points) {
    const double x = X(p.intensity), y = Y(p.work_per_joule);
    const double roof = work_per_joule(k, p.intensity);
    const std::string tip = p.name + ": I = " + format_number(p.intensity, 4) + " " + wu + "/" +
                            tu + ", " + format_si(p.work_per_joule, wu + "/J") + " (" +
                            format_number(100 * p.work_per_joule / roof, 3) +
                            "% of the energy roof)";
    s += "<g class=\"point\"" + svg_attr("data-name", p.name) +
         svg_attr("data-intensity", svg_exact(p.intensity)) +
         svg_attr("data-work-per-joule", svg_exact(p.work_per_joule)) + "><title>" +
         report::xml_escape(tip) + "</title><circle class=\"point-marker\"" + svg_attr("cx", x) +
         svg_attr("cy", y) + " r=\"6\"/></g>\n";
    s += svg_text(x + 10, y + 4, p.name, "point-label", "start", "");
  }
  s += "</g>\n";
  s += svg_text(left, height - 22,
                "ε_flop " + format_si(k.eps_flop, "J") + "/" + wu + ", ε_mem " +
                    format_si(k.eps_mem, "J") + "/" + tu + ", π0 " + format_si(k.pi0, "W") +
                    " — Choi, Bedard, Fowler & Vuduc, \"A roofline model of energy\", IPDPS 2013",
                "legend-text", "start", "");
  s += "</svg>\n";
  return s;
}

void check_energy_chart_format(const std::filesystem::path& path) {
  const std::string ext = report::lower_extension(path);
  if (ext != ".svg" && ext != ".png")
    throw InputError(path.string() + ": unknown format '" + ext +
                     "' for the energy chart (use .svg or .png)");
}

void write_energy_chart(const std::filesystem::path& path, const EnergyChartInput& in) {
  check_energy_chart_format(path);
  const bool png = report::lower_extension(path) == ".png";
  const std::string svg = render_energy_svg(in, !png);
  write_file_atomic(path, png ? svg_to_png(svg) : svg);
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
           format_si(model_power(k, i), "W") + "\n";
    if (points) {
      if (!points->placed.empty()) t += "  points (" + points_file + "):\n";
      for (const auto& p : points->placed) {
        const double roof = work_per_joule(k, p.intensity);
        t += "    " + p.name + ": I = " + format_intensity(Intensity(p.intensity), u) + ", " +
             format_number(p.work_per_joule) + " " + u.work + "/J measured, roof " +
             format_number(roof) + " " + u.work + "/J (" +
             format_number(100 * p.work_per_joule / roof, 3) + "%)\n";
      }
      for (const auto& n : points->skipped)
        t += "    " + n + ": no energy in the points file, not placed\n";
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
  return t;
}

}  // namespace roofline
