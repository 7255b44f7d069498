#include "roofline/energy_catalogue.hpp"

#include <cmath>

namespace roofline {

std::optional<TdpEnergyBound> tdp_energy_bound(const MachineDocument& m, std::string* why) {
  const auto& info = m.info;
  const auto it = info.find("power_w");
  if (it == info.end() || !it->is_number()) {
    if (why)
      *why = m.roofs.name + ": no power figure (info.power_w " +
             (it == info.end() ? std::string("absent") : it->dump()) + ")" +
             (info.contains("power_source") && info["power_source"].is_string()
                  ? ": " + info["power_source"].get<std::string>()
                  : std::string());
    return std::nullopt;
  }
  const double w = it->get<double>();
  if (!std::isfinite(w) || w <= 0) {
    if (why) *why = m.roofs.name + ": info.power_w is not a power > 0 (" + it->dump() + ")";
    return std::nullopt;
  }
  if (m.roofs.compute.empty() || m.roofs.memory.empty()) {
    if (why) *why = m.roofs.name + ": needs a compute and a memory roof";
    return std::nullopt;
  }
  TdpEnergyBound b;
  b.power_w = w;
  b.power_source = info.value("power_source", std::string("(no power_source given)"));
  const ComputeRoof& c = m.roofs.select_compute("");
  const MemoryRoof& mem = m.roofs.select_memory("");
  b.compute_roof = c.name;
  b.memory_level = mem.level;
  // At most W joules per second while doing π work per second: ≤ W/π joules per unit of work.
  b.max_joules_per_work = w / c.peak.value;
  b.max_joules_per_byte = w / mem.bandwidth.value;
  b.min_work_per_joule = c.peak.value / w;
  return b;
}

}  // namespace roofline
