#include "measure/engine/energy.hpp"

#include <cstdint>
#include <memory>
#include <optional>

#include "roofline/error.hpp"
#include "roofline/powercap.hpp"

namespace roofline::engine {

namespace {

/// RAPL's package energy through the perf power PMU, for when powercap cannot be read:
/// `powercap_why` says why, and is kept in why_none if perf cannot be used either.
EnergyMeter perf_meter(const std::filesystem::path& devices, const std::string& powercap_why) {
  EnergyMeter m;
  std::string why;
  try {
    const PerfPower pp = find_perf_power(devices);
    if (pp.package) {
      auto counter = std::make_shared<PerfEnergyCounter>();
      why = counter->open(*pp.package);
      if (why.empty()) {
        m.zones.push_back(pp.package->name + " (perf power PMU, " +
                          std::to_string(pp.package->cpus.size()) + " package" +
                          (pp.package->cpus.size() == 1 ? "" : "s") + ")");
        m.reader = [counter]() { return counter->joules(); };
        return m;
      }
    } else {
      why = pp.why_none;
    }
  } catch (const InputError& e) {
    why = e.what();
  }
  m.why_none = powercap_why + "; perf: " + why;
  return m;
}

}  // namespace

EnergyMeter rapl_meter(const std::filesystem::path& root, const std::filesystem::path& devices) {
  EnergyMeter m;
  const PowerInterface pi = find_powercap_zones(root);
  if (pi.zones.empty())
    return perf_meter(devices, pi.why_none.empty() ? "no RAPL zone" : pi.why_none);
  auto top_level = [](const PowerZone& z) { return z.id.find(':') == z.id.rfind(':'); };
  bool named_package = false;
  for (const PowerZone& z : pi.zones)
    named_package = named_package || (top_level(z) && z.name.rfind("package", 0) == 0);
  std::vector<PowerZone> chosen;
  std::string unreadable;
  for (const PowerZone& z : pi.zones) {
    if (!top_level(z) || (named_package && z.name.rfind("package", 0) != 0)) continue;
    if (!z.readable) {
      unreadable += (unreadable.empty() ? "" : "; ") + z.name + " (" + z.id +
                    "): " + (z.why_unreadable.empty() ? "unreadable" : z.why_unreadable);
      continue;
    }
    chosen.push_back(z);
    m.zones.push_back(z.name + " (" + z.id + ")");
  }
  if (chosen.empty())
    return perf_meter(devices, unreadable.empty() ? "no package zone" : unreadable);
  // Per zone: the last raw reading and the joules added up since the first.
  struct State {
    std::vector<PowerZone> zones;
    std::vector<std::optional<std::uint64_t>> last;
    double joules = 0;
  };
  auto state = std::make_shared<State>();
  state->zones = std::move(chosen);
  state->last.resize(state->zones.size());
  m.reader = [state]() -> std::optional<double> {
    for (size_t i = 0; i < state->zones.size(); ++i) {
      const std::optional<std::uint64_t> now = read_energy_uj(state->zones[i]);
      if (!now) return std::nullopt;
      if (state->last[i]) {
        try {
          state->joules +=
              energy_joules_between(*state->last[i], *now, state->zones[i].max_energy_range_uj);
        } catch (const std::exception&) {
          return std::nullopt;  // a wrap with no known range: this reading means nothing
        }
      }
      state->last[i] = now;
    }
    return state->joules;
  };
  return m;
}

}  // namespace roofline::engine
