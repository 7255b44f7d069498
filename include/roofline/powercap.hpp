#pragma once
// Power from the Linux powercap interface (RAPL: /sys/class/powercap/intel-rapl:*, also used
// by AMD processors since Linux 5.8), for the energy roofline (docs/energy.md). Each zone has a
// `name` (package-0, core, uncore, dram, psys), a cumulative `energy_uj` counter in microjoules
// that wraps at `max_energy_range_uj`. Current kernels let only root read energy_uj. A machine
// without the interface (a VM, a container without /sys, a CPU without RAPL) has no zones: the
// reason is said, nothing is guessed.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct PowerZone {
  std::string id;    ///< folder name, e.g. "intel-rapl:0" or "intel-rapl:0:1"
  std::string name;  ///< contents of `name`, e.g. "package-0", "dram"
  std::filesystem::path dir;
  std::uint64_t max_energy_range_uj = 0;  ///< where energy_uj wraps (0 when unknown)
  bool readable = false;                  ///< energy_uj could be read
  std::string why_unreadable;             ///< e.g. "permission denied (root only)"
};

struct PowerInterface {
  std::vector<PowerZone> zones;
  /// Why there are no zones ("no /sys/class/powercap", "no RAPL zone in ..."); empty when
  /// there are.
  std::string why_none;
};

/// The RAPL zones under `root` (default /sys/class/powercap): every entry named
/// "intel-rapl:..." with a `name` and an `energy_uj` file, sorted by id.
PowerInterface find_powercap_zones(const std::filesystem::path& root = "/sys/class/powercap");

/// A zone's energy counter in microjoules; empty when it cannot be read or is not a number.
std::optional<std::uint64_t> read_energy_uj(const PowerZone& zone);

/// Joules between two readings of one counter, allowing for one wrap at `max_range_uj`
/// (after < before means it wrapped: max_range − before + after). InputError when it wrapped
/// and the range is unknown (0) or `before` exceeds it.
double energy_joules_between(std::uint64_t before, std::uint64_t after, std::uint64_t max_range_uj);

}  // namespace roofline
