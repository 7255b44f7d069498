#pragma once
// What power interface a machine has: the RAPL zones of the Linux powercap interface
// (/sys/class/powercap/intel-rapl:*), as probe's find_powercap_zones (roofline/powercap.hpp)
// finds them, or why there are none. Plain data, so that io writes it (power_interface_to_json)
// and report says it (render_power_interface_text) without the probe that read it.
#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

struct PowerZone {
  std::string id;                         ///< folder name, e.g. "intel-rapl:0" or "intel-rapl:0:1"
  std::string name;                       ///< contents of `name`, e.g. "package-0", "dram"
  std::string dir;                        ///< the zone's folder, where its `energy_uj` is read
  std::uint64_t max_energy_range_uj = 0;  ///< where energy_uj wraps (0 when unknown)
  bool readable = false;                  ///< energy_uj could be read
  std::string why_unreadable;             ///< e.g. "permission denied (root only)"
};

struct PowerInterface {
  std::string root;  ///< the powercap folder searched, e.g. "/sys/class/powercap"
  std::vector<PowerZone> zones;
  /// Why there are no zones ("no /sys/class/powercap", "no RAPL zone in ..."); empty when
  /// there are.
  std::string why_none;
};

}  // namespace roofline
