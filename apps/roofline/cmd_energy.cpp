// roofline energy: the energy roofline of a machine (docs/energy.md) — from given energy costs
// (ε_flop, ε_mem, π0) on the machine's roofs, or bounded by the catalogue's power figure — and
// what power interface this machine has.
#include <algorithm>

#include "commands.hpp"
#include "roofline/energy.hpp"
#include "roofline/energy_catalogue.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/error.hpp"
#include "roofline/powercap.hpp"
#include "roofline/quantity.hpp"

namespace roofline::cli {
namespace {

struct EnergyArgs {
  MachineOptions machine;
  std::optional<double> eps_flop, eps_mem;
  double pi0 = 0;
  std::vector<double> intensities;
  std::string powercap = "/sys/class/powercap";
  bool json = false;
  std::string output;
  std::string points;  ///< --points FILE: points with measured energy, placed on the energy roof
  std::string report;  ///< --report FILE: the energy roofline chart (.svg, .png)
};

std::string joules(double j) {
  return format_si(j, "J");
}

/// The points of `file` that carry an energy, at the model's memory level (else their first):
/// I = W/Q and W/E. Points without an energy are named in `skipped`.
std::vector<EnergyChartPoint> energy_points(const std::string& file, const std::string& level,
                                            const UnitSystem& units,
                                            std::vector<std::string>& skipped) {
  const PointsDocument doc = load_points_file(file);
  if (!(doc.units == units))
    throw InputError(file + ": points are in " + doc.units.work + "/" + doc.units.traffic +
                     " but the machine's roofs are in " + units.work + "/" + units.traffic);
  std::vector<EnergyChartPoint> out;
  for (const Point& p : doc.points) {
    if (!(p.energy > 0)) {
      skipped.push_back(p.name);
      continue;
    }
    const auto at = std::find_if(p.traffic.begin(), p.traffic.end(),
                                 [&](const LevelTraffic& t) { return t.level == level; });
    const Bytes q = at != p.traffic.end() ? at->bytes : p.traffic.front().bytes;
    out.push_back({p.name, p.work.value / q.value, p.work.value / p.energy});
  }
  return out;
}

void run(const EnergyArgs& a) {
  if (!a.report.empty()) check_energy_chart_format(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}});
  const MachineDocument m = load_machine(a.machine);
  EnergyQuery q;
  q.precision = a.machine.precision;
  q.level = a.machine.level;
  q.eps_flop = a.eps_flop;
  q.eps_mem = a.eps_mem;
  q.pi0 = a.pi0;
  q.intensities = a.intensities;
  EnergyAnalysis an = analyse_energy(m, q);
  nlohmann::json& j = an.json;
  const ComputeRoof& c = *m.roofs.find_compute(an.compute_roof);
  const MemoryRoof& mem = *m.roofs.find_memory(an.memory_level);
  const UnitSystem& u = m.roofs.units;
  const PowerInterface pi = find_powercap_zones(a.powercap);

  std::string t = "machine " + m.roofs.name + ": π = " + format_work_rate(c.peak, u) + " (" +
                  c.name + "), β = " + format_byte_rate(mem.bandwidth, u) + " (" + mem.level +
                  ")\n";
  nlohmann::json zones = nlohmann::json::array();
  if (pi.zones.empty()) {
    t += "power interface: none — " + pi.why_none + "; no power is measured here\n";
  } else {
    t += "power interface (RAPL, " + a.powercap + "):\n";
    for (const auto& z : pi.zones) {
      t += "  " + z.id + " " + z.name +
           (z.readable ? ": readable" : ": not readable (" + z.why_unreadable + ")") + "\n";
      zones.push_back({{"id", z.id},
                       {"name", z.name},
                       {"readable", z.readable},
                       {"why_unreadable", z.why_unreadable},
                       {"max_energy_range_uj", z.max_energy_range_uj}});
    }
  }
  j["power_interface"] = {{"root", a.powercap}, {"zones", zones}, {"why_none", pi.why_none}};

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
    for (double i : a.intensities)
      t += "  at I = " + format_intensity(Intensity(i), u) + ": " +
           format_number(work_per_joule(k, i)) + " " + u.work + "/J, " +
           format_si(model_power(k, i), "W") + "\n";
    std::vector<EnergyChartPoint> pts;
    if (!a.points.empty()) {
      std::vector<std::string> skipped;
      pts = energy_points(a.points, mem.level, u, skipped);
      nlohmann::json pj = nlohmann::json::array();
      if (!pts.empty()) t += "  points (" + a.points + "):\n";
      for (const auto& p : pts) {
        const double roof = work_per_joule(k, p.intensity);
        t += "    " + p.name + ": I = " + format_intensity(Intensity(p.intensity), u) + ", " +
             format_number(p.work_per_joule) + " " + u.work + "/J measured, roof " +
             format_number(roof) + " " + u.work + "/J (" +
             format_number(100 * p.work_per_joule / roof, 3) + "%)\n";
        pj.push_back({{"name", p.name},
                      {"intensity", p.intensity},
                      {"work_per_joule", p.work_per_joule},
                      {"roof_work_per_joule", roof},
                      {"share_of_roof", p.work_per_joule / roof}});
      }
      for (const auto& n : skipped)
        t += "    " + n + ": no energy in the points file, not placed\n";
      j["points"] = pj;
      j["points_without_energy"] = skipped;
    }
    if (!a.report.empty()) {
      EnergyChartInput in;
      in.title = "Energy roofline of " + m.roofs.name;
      in.subtitle = c.name + " × " + mem.level + ", costs " + an.costs_origin;
      in.costs = k;
      in.work_unit = u.work;
      in.traffic_unit = u.traffic;
      in.points = pts;
      write_energy_chart(a.report, in);
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
  if (!an.costs && (!a.report.empty() || !a.points.empty()))
    throw InputError(std::string(!a.report.empty() ? "--report" : "--points") +
                     ": the energy roofline needs energy costs: give --eps-flop and --eps-mem, "
                     "or a machine measured where RAPL could be read (" +
                     an.measured_why + ")");
  if (!an.costs && !an.bound)
    throw Unavailable(
        "no energy figures: give --eps-flop and --eps-mem, a machine measured where RAPL could "
        "be read (" +
        an.measured_why + "), or a machine whose catalogue entry has a power figure (" +
        an.bound_why + "); " +
        (pi.zones.empty() ? pi.why_none : std::string("RAPL zones are present")));
  emit(a.json ? j.dump(2) + "\n" : t, a.output);
}

const Registrar register_energy(50, [](CLI::App& root) {
  auto args = std::make_shared<EnergyArgs>();
  CLI::App* c = root.add_subcommand(
      "energy",
      "The energy roofline (FLOP/J against I, balance point) from given energy costs, or "
      "bounded by the catalogue's power figure; and this machine's power interface");
  add_machine_options(*c, args->machine);
  c->add_option("--eps-flop", args->eps_flop, "Energy per unit of work ε_flop in J, e.g. 1e-10");
  c->add_option("--eps-mem", args->eps_mem, "Energy per byte ε_mem in J, e.g. 5e-10");
  c->add_option("--pi0", args->pi0, "Constant power π0 in W (default 0)");
  c->add_option("--intensity", args->intensities,
                "Intensities to evaluate the roof at (repeatable)");
  c->add_option("--powercap", args->powercap, "The powercap folder (default /sys/class/powercap)");
  c->add_flag("--json", args->json, "Machine-readable output");
  c->add_option("-o,--output", args->output, "Write the output to a file (atomically)");
  c->add_option("--points", args->points,
                "A points document whose points carry `energy` (J): each placed at W/E against "
                "I, beside the energy roof");
  c->add_option("--report", args->report,
                "The energy roofline chart (work per joule against I): .svg or .png");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
