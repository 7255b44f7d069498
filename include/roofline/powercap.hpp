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

#include "roofline/power_interface.hpp"

namespace roofline {

/// The RAPL zones under `root` (default /sys/class/powercap): every entry named
/// "intel-rapl:..." with a `name` and an `energy_uj` file, sorted by id (PowerInterface,
/// roofline/power_interface.hpp; its `root` is `root` as given).
PowerInterface find_powercap_zones(const std::filesystem::path& root = "/sys/class/powercap");

/// A zone's energy counter in microjoules; empty when it cannot be read or is not a number.
std::optional<std::uint64_t> read_energy_uj(const PowerZone& zone);

/// Joules between two readings of one counter, allowing for one wrap at `max_range_uj`
/// (after < before means it wrapped: max_range − before + after). InputError when it wrapped
/// and the range is unknown (0) or `before` exceeds it.
double energy_joules_between(std::uint64_t before, std::uint64_t after, std::uint64_t max_range_uj);

// ---- the same RAPL counters through perf (the `power` PMU, Linux arch/x86/events/rapl.c) ----
// A reader that may open system-wide perf events (root, CAP_PERFMON, or perf_event_paranoid
// ≤ 0) but not read energy_uj (root only) still gets the package energy this way. The PMU
// describes each event in sysfs: events/energy-pkg ("event=0x02"), its .scale (2⁻³² J per
// count, as perf's own power metrics use) and .unit ("Joules"); format/event gives the config
// bits ("config:0-7"); cpumask names one CPU per package, where the event must be opened.

struct PerfPowerEvent {
  std::string name;          ///< e.g. "energy-pkg"
  std::uint32_t type = 0;    ///< the PMU's perf type (power/type)
  std::uint64_t config = 0;  ///< the event's config, placed by format/event
  double joules_per_count = 0;
  std::vector<int> cpus;  ///< one per package (power/cpumask)
};

struct PerfPower {
  std::optional<PerfPowerEvent> package;  ///< energy-pkg, when the PMU has it
  std::string why_none;                   ///< why not ("no power PMU in ...", ...)
};

/// The `power` PMU's package-energy event under `devices` (default
/// /sys/bus/event_source/devices). InputError naming the file on a malformed description.
PerfPower find_perf_power(const std::filesystem::path& devices = "/sys/bus/event_source/devices");

/// The event opened system-wide on each of its CPUs; `joules()` is the energy since it was
/// opened, summed over them. `open` returns why it failed (empty on success).
class PerfEnergyCounter {
 public:
  PerfEnergyCounter() = default;
  PerfEnergyCounter(const PerfEnergyCounter&) = delete;
  PerfEnergyCounter& operator=(const PerfEnergyCounter&) = delete;
  ~PerfEnergyCounter();
  std::string open(const PerfPowerEvent& e);
  std::optional<double> joules() const;

 private:
  std::vector<int> fds_;
  double scale_ = 0;
};

}  // namespace roofline
