#include "roofline/energy_catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

std::optional<TdpEnergyBound> tdp_energy_bound(const MachineDocument& m, std::string* why,
                                               const std::string& precision,
                                               const std::string& level) {
  const PowerFacts power = machine_facts(m).power;
  if (!power.watts) {
    if (why)
      *why = m.roofs.name + ": no power figure (info.power_w " +
             (power.listed ? power.written : std::string("absent")) + ")" +
             (power.source ? ": " + *power.source : std::string());
    return std::nullopt;
  }
  const double w = *power.watts;
  if (!std::isfinite(w) || w <= 0) {
    if (why) *why = m.roofs.name + ": info.power_w is not a power > 0 (" + power.written + ")";
    return std::nullopt;
  }
  if (m.roofs.compute.empty() || m.roofs.memory.empty()) {
    if (why) *why = m.roofs.name + ": needs a compute and a memory roof";
    return std::nullopt;
  }
  TdpEnergyBound b;
  b.power_w = w;
  b.power_source = power.source.value_or("(no power_source given)");
  const ComputeRoof& c = m.roofs.select_compute(precision);
  const MemoryRoof& mem = m.roofs.select_memory(level);
  b.compute_roof = c.name;
  b.memory_level = mem.level;
  // At most W joules per second while doing π work per second: ≤ W/π joules per unit of work.
  b.max_joules_per_work = w / c.peak.value;
  b.max_joules_per_byte = w / mem.bandwidth.value;
  b.min_work_per_joule = c.peak.value / w;
  // A figure so far from the roofs that a bound is no number (1e-300 W: inf FLOP/J) bounds
  // nothing: said, as a missing figure is.
  for (const double v : {b.max_joules_per_work, b.max_joules_per_byte, b.min_work_per_joule})
    if (!std::isfinite(v) || !(v >= std::numeric_limits<double>::min())) {
      if (why)
        *why = m.roofs.name + ": info.power_w " + power.written +
               " is too far from the roofs for a bound (a bound would be " + format_number(v) + ")";
      return std::nullopt;
    }
  return b;
}

std::optional<MeasuredEnergy> measured_energy(const MachineDocument& m, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<MeasuredEnergy> {
    if (why) *why = m.roofs.name + ": " + w;
    return std::nullopt;
  };
  const nlohmann::json measurement = section_json(m, "measurement");
  const nlohmann::json* ms = &measurement;
  if (!ms->is_object() || !ms->contains("energy"))
    return fail("no measured energy (measurement.energy absent: not measured by this tool)");
  const nlohmann::json& e = (*ms)["energy"];
  if (!e.is_object() || !e.value("available", false))
    return fail("no power interface when it was measured (" +
                (e.is_object() && e.contains("why") && e["why"].is_string()
                     ? e["why"].get<std::string>()
                     : std::string("measurement.energy.available is false")) +
                ")");
  if (!e.contains("idle_power_w") || !e["idle_power_w"].is_number())
    return fail("measurement.energy.idle_power_w is missing");
  if (m.roofs.compute.empty() || m.roofs.memory.empty())
    return fail("needs a compute and a memory roof");
  MeasuredEnergy r;
  r.idle_power_w = e["idle_power_w"].get<double>();
  const ComputeRoof& c = m.roofs.select_compute("");
  const MemoryRoof& mem = m.roofs.select_memory("");
  r.compute_roof = c.name;
  r.memory_level = mem.level;
  std::string zones;
  if (e.contains("zones") && e["zones"].is_array())
    for (const auto& z : e["zones"])
      if (z.is_string()) zones += (zones.empty() ? "" : ", ") + z.get<std::string>();
  if (!zones.empty())
    r.source = "RAPL: " + zones;
  else if (e.contains("device") && e["device"].is_string())
    r.source = "NVML: " + e["device"].get<std::string>();
  else
    r.source = "RAPL: zones not named";
  auto power_of = [](const nlohmann::json* d) -> std::optional<double> {
    if (!d || !d->is_object() || !d->contains("energy")) return std::nullopt;
    const nlohmann::json& en = (*d)["energy"];
    if (!en.is_object() || !en.contains("power_w") || !en["power_w"].is_number())
      return std::nullopt;
    return en["power_w"].get<double>();
  };
  const nlohmann::json* cd = nullptr;
  if (ms->contains("compute") && (*ms)["compute"].is_array())
    for (const auto& d : (*ms)["compute"])
      if (d.is_object() && d.value("roof", std::string()) == c.name) cd = &d;
  const nlohmann::json* md = nullptr;
  if (ms->contains("memory") && (*ms)["memory"].is_object() && (*ms)["memory"].contains(mem.level))
    md = &(*ms)["memory"][mem.level];
  const auto pc = power_of(cd);
  if (!pc) return fail("no power recorded for the compute roof '" + c.name + "'");
  const auto pm = power_of(md);
  if (!pm) return fail("no power recorded for the memory level '" + mem.level + "'");
  r.compute_power_w = *pc;
  r.memory_power_w = *pm;
  if (!(*pc > r.idle_power_w) || !(*pm > r.idle_power_w))
    return fail("the power under load (" + format_number(*pc) + " W compute, " +
                format_number(*pm) + " W memory) is not above the power at rest (" +
                format_number(r.idle_power_w) + " W): nothing to attribute to work or bytes");
  r.costs.tau_flop = 1.0 / c.peak.value;
  r.costs.tau_mem = 1.0 / mem.bandwidth.value;
  r.costs.pi0 = r.idle_power_w;
  r.costs.eps_flop = (*pc - r.idle_power_w) / c.peak.value;
  r.costs.eps_mem = (*pm - r.idle_power_w) / mem.bandwidth.value;
  return r;
}

namespace {
/// The costs given on the command line (--eps-flop, --eps-mem, --pi0) on the roofs `c`, `mem`;
/// nothing when none is given. Half of them, or π0 alone, is refused.
std::optional<EnergyCosts> given_costs(const EnergyQuery& q, const ComputeRoof& c,
                                       const MemoryRoof& mem) {
  // π0 is part of the given costs: alone it would change nothing, silently.
  if (q.pi0 && !q.eps_flop && !q.eps_mem)
    throw InputError(
        "--pi0 goes with --eps-flop and --eps-mem (the given costs); without them "
        "the costs are measured or absent");
  if (!q.eps_flop && !q.eps_mem) return std::nullopt;
  if (!q.eps_flop || !q.eps_mem)
    throw InputError("give both --eps-flop (J per unit of work) and --eps-mem (J per byte)");
  EnergyCosts k;
  k.tau_flop = 1.0 / c.peak.value;
  k.tau_mem = 1.0 / mem.bandwidth.value;
  k.eps_flop = q.eps_flop->value;
  k.eps_mem = q.eps_mem->value;
  k.pi0 = q.pi0.value_or(Watt(0)).value;
  try {
    k.validate();
  } catch (const InputError& e) {
    throw InputError(std::string("energy costs: ") + e.what() + " (--eps-flop, --eps-mem, --pi0)");
  }
  return k;
}

/// The roof at each intensity, which must be a finite positive number.
std::vector<EnergyAt> energy_at(const EnergyCosts& k, const std::vector<double>& intensities) {
  std::vector<EnergyAt> at;
  for (double i : intensities) {
    const double wpj = work_per_joule(k, i), power = model_power(k, i).value;
    if (!std::isfinite(wpj) || !(wpj > 0) || !std::isfinite(power))
      throw InputError("--intensity " + format_number(i) +
                       ": the energy roof there is not a finite positive number (work per "
                       "joule " +
                       format_number(wpj) + ", power " + format_number(power) +
                       " W); give an intensity nearer the machine's balance");
    at.push_back({i, wpj, power});
  }
  return at;
}

/// The model the costs give (balances, peak work per joule, balance point) and the roof at
/// each intensity.
nlohmann::json model_to_json(const EnergyCosts& k, const std::vector<EnergyAt>& points) {
  nlohmann::json at = nlohmann::json::array();
  for (const EnergyAt& e : points)
    at.push_back(
        {{"intensity", e.intensity}, {"work_per_joule", e.work_per_joule}, {"power", e.power_w}});
  const double eh = effective_energy_per_flop(k);
  return {{"eps_flop", k.eps_flop},
          {"eps_mem", k.eps_mem},
          {"pi0", k.pi0},
          {"time_balance", time_balance(k)},
          {"energy_balance", energy_balance(k)},
          {"effective_eps_flop", eh},
          {"peak_work_per_joule", 1.0 / eh},
          {"balance_point", energy_balance_point(k)},
          {"at", at}};
}
}  // namespace

std::string no_energy_figures(const EnergyAnalysis& an) {
  return "no energy figures: give --eps-flop and --eps-mem, a machine measured where RAPL could "
         "be read (" +
         an.measured_why + "), or a machine whose catalogue entry has a power figure (" +
         an.bound_why + ")";
}

EnergyAnalysis analyse_energy(const MachineDocument& m, const EnergyQuery& q) {
  EnergyAnalysis a;
  const ComputeRoof& c = m.roofs.select_compute(q.precision);
  const MemoryRoof& mem = m.roofs.select_memory(q.level);
  a.machine = m.roofs.name;
  a.compute_roof = c.name;
  a.memory_level = mem.level;
  for (double i : q.intensities)
    if (!(i > 0) || !std::isfinite(i))
      throw InputError("--intensity: must be finite and > 0 (got " + format_number(i) + ")");
  if ((a.costs = given_costs(q, c, mem))) {
    a.costs_origin = "given";
  } else if ((a.measured = measured_energy(m, &a.measured_why))) {
    // Measured by `roofline measure` on this machine (docs/energy.md "Measured power").
    a.costs = a.measured->costs;
    a.costs_origin = "measured";
  }
  if (a.costs) a.at = energy_at(*a.costs, q.intensities);
  // The bound at the roofs the rest of the analysis uses (--precision, --level).
  a.bound = tdp_energy_bound(m, &a.bound_why, q.precision, q.level);
  // The model draws most at the ridge I = B_τ, where work and traffic both run at their peaks:
  // π·ε_flop + β·ε_mem + π0 (model_power). Costs that need more than the device's power figure
  // cannot both hold at its peaks.
  if (a.costs && a.bound) {
    const double most = model_power(*a.costs, time_balance(*a.costs)).value;
    if (most > a.bound->power_w)
      a.warnings.push_back("the costs draw up to " +
                           format_number_apart(most, a.bound->power_w, 4) +
                           " W (at I = B_τ, work and traffic "
                           "both at their peaks: π·ε_flop + β·ε_mem + π0), above the catalogue's " +
                           format_number(a.bound->power_w) +
                           " W: the device would slow its clock there, or "
                           "ε_flop, ε_mem or π0 is too high for it");
  }
  return a;
}

nlohmann::json energy_analysis_to_json(const EnergyAnalysis& a) {
  nlohmann::json j = {{"schema", "roofline.energy"},
                      {"version", 1},
                      {"machine", a.machine},
                      {"compute_roof", a.compute_roof},
                      {"memory_level", a.memory_level}};
  if (a.measured) {
    const MeasuredEnergy& me = *a.measured;
    j["measured"] = {{"source", me.source},
                     {"idle_power_w", me.idle_power_w},
                     {"compute_roof", me.compute_roof},
                     {"compute_power_w", me.compute_power_w},
                     {"memory_level", me.memory_level},
                     {"memory_power_w", me.memory_power_w}};
  } else if (!a.costs) {
    j["measured_why_not"] = a.measured_why;
  }
  if (a.costs) j["costs_origin"] = a.costs_origin;
  j["model"] = a.costs ? model_to_json(*a.costs, a.at) : nlohmann::json(nullptr);
  if (a.bound) {
    const TdpEnergyBound& b = *a.bound;
    j["tdp_bound"] = {{"power_w", b.power_w},
                      {"power_source", b.power_source},
                      {"compute_roof", b.compute_roof},
                      {"memory_level", b.memory_level},
                      {"max_joules_per_work", b.max_joules_per_work},
                      {"max_joules_per_byte", b.max_joules_per_byte},
                      {"min_work_per_joule", b.min_work_per_joule}};
  } else {
    j["tdp_bound"] = nullptr;
    j["tdp_bound_why_not"] = a.bound_why;
  }
  j["warnings"] = a.warnings;
  return j;
}

EnergyPoints energy_points(const PointsDocument& doc, const std::string& origin,
                           const std::string& level, const RoofSet& roofs,
                           std::optional<double> power_w) {
  const UnitSystem& units = roofs.units;
  if (!(doc.units == units))
    throw InputError(origin + ": points are in " + doc.units.work + "/" + doc.units.traffic +
                     " but the machine's roofs are in " + units.work + "/" + units.traffic);
  EnergyPoints out;
  for (const Point& p : doc.points) {
    if (!(p.energy > 0)) {
      out.skipped.push_back(p.name);
      continue;
    }
    // A device draws up to its power figure over a run (a CPU's short-term limit some way
    // above it): twice that on average is no measurement of this run in joules, placed or not.
    const double watts = p.energy / p.time.value;
    constexpr double kPowerMargin = 2;
    if (power_w && watts > kPowerMargin * *power_w)
      out.warnings.push_back(
          "point '" + terminal_safe(p.name) + "': E/T = " + format_number(p.energy, 4) + " J / " +
          format_seconds(p.time) + " = " + format_number(watts, 4) + " W, " +
          format_number(watts / *power_w, 3) + "x the device's " + format_number(*power_w) +
          " W (info.power_w): is the energy in J, and of this run?");
    // Q at the model's level: traffic whose level is that roof as the machine reads level names
    // (case aside; DRAM, HBM and memory are main memory; unnamed is the default level), as
    // `point` judges it. A point without it is not placed (its L2 bytes judged against the
    // DRAM model gave another intensity).
    const auto at = std::find_if(p.traffic.begin(), p.traffic.end(), [&](const LevelTraffic& t) {
      try {
        return roofs.select_memory(t.level).level == level;
      } catch (const InputError&) {
        return false;  // a level this machine has no roof for
      }
    });
    if (at == p.traffic.end()) {
      out.off_level.push_back(p.name);
      continue;
    }
    const Bytes q = at->bytes;
    const double wpj = p.work.value / p.energy;
    if (!std::isfinite(wpj))
      throw InputError(origin + ": point '" + terminal_safe(p.name) + "': work per joule " +
                       format_number(p.work.value) + " / " + format_number(p.energy) +
                       " J is not a finite number (energy too small)");
    out.placed.push_back({p.name, p.work.value / q.value, wpj});
  }
  out.not_points = doc.not_points;
  return out;
}

nlohmann::json energy_points_to_json(const std::vector<EnergyPoint>& points, const EnergyCosts& k) {
  nlohmann::json pj = nlohmann::json::array();
  for (const auto& p : points) {
    const double roof = work_per_joule(k, p.intensity);
    pj.push_back({{"name", p.name},
                  {"intensity", p.intensity},
                  {"work_per_joule", p.work_per_joule},
                  {"roof_work_per_joule", roof},
                  {"share_of_roof", p.work_per_joule / roof},
                  {"above_roof", p.work_per_joule > DiagnosisOptions{}.above * roof}});
  }
  return pj;
}

EnergyDocument energy_document(const MachineDocument& m, EnergyAnalysis an, PowerInterface pi,
                               const PointsDocument* points, const std::string& points_file) {
  EnergyDocument d;
  d.analysis = std::move(an);
  d.power_interface = std::move(pi);
  d.points_file = points_file;
  EnergyAnalysis& a = d.analysis;
  if (a.costs && points) {
    d.points = energy_points(*points, points_file, a.memory_level, m.roofs,
                             a.bound ? std::optional(a.bound->power_w) : std::nullopt);
    a.warnings.insert(a.warnings.end(), d.points->warnings.begin(), d.points->warnings.end());
  }
  return d;
}

nlohmann::json energy_document_to_json(const EnergyDocument& d) {
  nlohmann::json j = energy_analysis_to_json(d.analysis);
  j["power_interface"] = power_interface_to_json(d.power_interface);
  if (d.points) {
    j["points"] = energy_points_to_json(d.points->placed, *d.analysis.costs);
    j["points_without_energy"] = d.points->skipped;
    j["points_without_traffic_at_level"] = d.points->off_level;
    // Only where the document holds runs that are no point: a document of points alone has no
    // such key.
    for (const PointLeftOut& n : d.points->not_points)
      j["points_not_placed"].push_back(left_out_to_json(n));
  }
  return j;
}

nlohmann::json power_interface_to_json(const PowerInterface& pi) {
  nlohmann::json zones = nlohmann::json::array();
  for (const auto& z : pi.zones)
    zones.push_back({{"id", z.id},
                     {"name", z.name},
                     {"readable", z.readable},
                     {"why_unreadable", z.why_unreadable},
                     {"max_energy_range_uj", z.max_energy_range_uj}});
  return {{"root", pi.root}, {"zones", zones}, {"why_none", pi.why_none}};
}

}  // namespace roofline
