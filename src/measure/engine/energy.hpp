#pragma once
// The machine's energy counter for a measurement (docs/energy.md "Measured power"): RAPL's
// package zones under the Linux powercap interface, summed, with each zone's wrap handled.
#include <filesystem>
#include <string>
#include <vector>

#include "measure/engine/sampler.hpp"

namespace roofline::engine {

struct EnergyMeter {
  EnergyReader reader;             ///< empty when there is nothing to read
  std::vector<std::string> zones;  ///< "package-0 (intel-rapl:0)", ... the zones summed
  std::string why_none;            ///< why reader is empty ("no /sys/class/powercap", ...)
};

/// The package zones under `root` that can be read (all top-level zones when none is named
/// "package-…"). A reader keeps each zone's last value and adds the difference, allowing for a
/// wrap at max_energy_range_uj, so it can be read for as long as a measurement runs.
/// Where powercap gives no readable package zone, the same counters through the perf power
/// PMU under `devices` (find_perf_power); why_none then says why neither could be used.
EnergyMeter rapl_meter(const std::filesystem::path& root = "/sys/class/powercap",
                       const std::filesystem::path& devices = "/sys/bus/event_source/devices");

}  // namespace roofline::engine
