#pragma once
// Clocks, power and clock-event reasons from NVML (libnvidia-ml.so.1, shipped with the driver),
// opened at run time: a missing NVML is reported in the result, never an error.
#include <string>

#include <nlohmann/json.hpp>

namespace roofline::cuda::nvml {

/// A snapshot of the device's clocks (MHz), power (W) and clock-event reasons, for the device
/// with PCI bus id `pci_bus_id`. On failure the object holds {"available": false, "reason": ...}.
nlohmann::json snapshot(const std::string& pci_bus_id);

}  // namespace roofline::cuda::nvml
