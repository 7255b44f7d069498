#pragma once
// The energy roofline as a chart (Choi, Bedard, Fowler & Vuduc, IPDPS 2013; docs/energy.md):
// work per joule against operational intensity, both on log scales — the energy-efficiency roof
// W/E(I), its peak 1/ε̂_flop, the balance point (half the peak) and the time balance B_τ = π/β —
// with points of measured work, traffic and energy placed on it.
#include <filesystem>
#include <string>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/energy.hpp"
#include "roofline/energy_catalogue.hpp"
#include "roofline/power_interface.hpp"
#include "roofline/roof.hpp"

namespace roofline {

using EnergyChartPoint = EnergyPoint;

struct EnergyChartInput {
  std::string title;
  std::string subtitle;
  EnergyCosts costs;
  std::string work_unit = "FLOP";
  std::string traffic_unit = "byte";
  std::vector<EnergyChartPoint> points;
  /// Points given that the chart cannot place (no energy, no traffic at the model's level),
  /// named with why in a line under the subtitle, as the time roofline charts name theirs.
  std::vector<PointLeftOut> not_drawn;
};

/// SVG: the roof as a path through 241 log-spaced intensities, the peak as a dashed line, the
/// balance point as a ring, B_τ as a dotted vertical line, each point as a marker with its name;
/// the points not drawn in a line under the subtitle (the plot starts lower to make room).
/// The plot group carries its mapping (data-x-log-min ... data-bottom) so a reader or a test can
/// recover values from pixels. `dark_mode` adds the prefers-color-scheme rules (off for PNG).
/// InputError when the costs do not validate or a point's intensity or W/J is not > 0.
std::string render_energy_svg(const EnergyChartInput& in, bool dark_mode = true);

/// Throws InputError unless the extension is .svg or .png (any case).
void check_energy_chart_format(const std::filesystem::path& path);
/// Writes the chart atomically as SVG, or PNG through svg_to_png (Unavailable when rsvg-convert
/// is missing; nothing written).
void write_energy_chart(const std::filesystem::path& path, const EnergyChartInput& in);

/// What `roofline energy` prints of the energy model (docs/energy.md): the measured power, the
/// roofline of the costs (balances, peak work per joule, balance point, the roof at each of
/// `intensities`, and `points`, when given, against it), and the catalogue's power bound.
std::string render_energy_text(const EnergyAnalysis& an, const UnitSystem& u,
                               const std::vector<double>& intensities, const EnergyPoints* points,
                               const std::string& points_file);
/// `roofline energy`'s first line: the machine and the roofs its energy model takes,
/// "machine NAME: π = RATE (ROOF), β = RATE (LEVEL)".
std::string render_energy_roofs_text(const std::string& machine, const ComputeRoof& c,
                                     const MemoryRoof& m, const UnitSystem& u);
/// `roofline energy`'s text of `d`, whose roofs are those of `roofs` (src/report/energy_text.cpp):
/// render_energy_roofs_text, render_power_interface_text, render_energy_text, then for each
/// bandwidth-only run of the points document (W = 0: no point) "note: FILE: DETAIL: not
/// placed", then "warning: " and each of the analysis's warnings.
std::string render_energy_document_text(const EnergyDocument& d, const RoofSet& roofs);
/// The energy chart of `d` on `roofs`: "Energy roofline of MACHINE", "ROOF × LEVEL, costs
/// ORIGIN", the placed points, and the points not drawn (no energy, no traffic at the model's
/// level, the bandwidth-only runs) with why. InputError when `d` has no costs.
EnergyChartInput energy_chart_input(const EnergyDocument& d, const RoofSet& roofs);
/// What power interface this machine has: "power interface (RAPL, ROOT):" and a line per zone
/// ("  ID NAME: readable", or "not readable (WHY)"), or "power interface: none — WHY; no power
/// is measured here". Names read from the powercap files are escaped for a terminal.
std::string render_power_interface_text(const PowerInterface& pi);

}  // namespace roofline
