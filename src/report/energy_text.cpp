// `roofline energy`'s text and chart input, from the energy document the library assembled
// (roofline/energy_catalogue.hpp): the roofs, the power interface, the model and the points.
#include <string>
#include <vector>

#include "roofline/energy_chart.hpp"
#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

std::string render_energy_document_text(const EnergyDocument& d, const RoofSet& roofs) {
  const EnergyAnalysis& an = d.analysis;
  const ComputeRoof& c = *roofs.find_compute(an.compute_roof);
  const MemoryRoof& mem = *roofs.find_memory(an.memory_level);
  const UnitSystem u = roofs.units_of(c);  // OP, OP/J and nJ/OP on an integer roof
  std::string t = render_energy_roofs_text(roofs.name, c, mem, u);
  t += render_power_interface_text(d.power_interface);
  std::vector<double> intensities;
  for (const EnergyAt& e : an.at) intensities.push_back(e.intensity);
  // The warnings close the text, after the runs not placed.
  EnergyAnalysis body = an;
  body.warnings.clear();
  t += render_energy_text(body, u, intensities, d.points ? &*d.points : nullptr, d.points_file);
  if (d.points)
    for (const PointLeftOut& n : d.points->not_points)
      t += "note: " + terminal_safe(bandwidth_run_note(n, "not placed", d.points_file)) + "\n";
  for (const auto& w : an.warnings) t += "warning: " + w + "\n";
  return t;
}

EnergyChartInput energy_chart_input(const EnergyDocument& d, const RoofSet& roofs) {
  const EnergyAnalysis& an = d.analysis;
  if (!an.costs) throw InputError("the energy roofline chart needs energy costs");
  const ComputeRoof& c = *roofs.find_compute(an.compute_roof);
  const UnitSystem u = roofs.units_of(c);
  EnergyChartInput in;
  in.title = "Energy roofline of " + roofs.name;
  in.subtitle = c.name + " × " + an.memory_level + ", costs " + an.costs_origin;
  in.costs = *an.costs;
  in.work_unit = u.work;
  in.traffic_unit = u.traffic;
  if (d.points) {
    const std::string& level = an.memory_level;
    in.points = d.points->placed;
    for (const auto& n : d.points->skipped)
      in.not_drawn.push_back({n, "no energy", n + ": no energy in the points file"});
    for (const auto& n : d.points->off_level)
      in.not_drawn.push_back(
          {n, "no traffic at " + level, n + ": no traffic at " + level + " (the model's level)"});
    in.not_drawn.insert(in.not_drawn.end(), d.points->not_points.begin(),
                        d.points->not_points.end());
  }
  return in;
}

}  // namespace roofline
