#pragma once
// The CPU topology measurement needs: which logical CPUs this process may use, one CPU per
// physical core (for one pinned thread per core), and the data caches with their sizes and how
// many cores share each. From hwloc when the build has it, else from Linux sysfs
// (/sys/devices/system/cpu/cpu*/topology and cpu0/cache). Sizes are what the system reports —
// on virtual machines they can be wrong, so measurement checks them against the sweep.
#include <filesystem>
#include <string>
#include <vector>

#include "roofline/units.hpp"

namespace roofline::cpu {

/// One data (or unified) cache level: the one description of caches every part of the tool uses
/// (measure's level naming, the suite's working sets, the machine document's info).
struct CacheInfo {
  int level = 0;          ///< 1, 2, 3...
  double size_bytes = 0;  ///< capacity of one instance
  int cores_sharing = 1;  ///< cores that share one instance
  int line_bytes = 64;
  /// The size the system reported when it was not believed (bound_reported_caches), else 0.
  double reported_bytes = 0;
  /// Why the reported size was replaced; empty when it was believed.
  std::string note;
  /// Capacity per core: the instance shared among its cores.
  double per_core_bytes() const { return size_bytes / (cores_sharing > 0 ? cores_sharing : 1); }
};

struct Topology {
  std::vector<int> allowed_cpus;  ///< logical CPUs in this process's affinity mask
  std::vector<int> core_cpus;     ///< one allowed logical CPU per physical core
  std::vector<CacheInfo> caches;  ///< data/unified caches, ascending level
  std::string source;             ///< "hwloc" or "sysfs"
  int cores() const { return static_cast<int>(core_cpus.size()); }
};

/// Reads the topology of this machine (never throws; missing parts stay empty): hwloc when the
/// build has it, else sysfs.
Topology detect_topology();
/// The topology from a sysfs-like folder (`cpu_dir` = /sys/devices/system/cpu or a fixture):
/// `allowed_cpus`, or when empty the CPUs listed in cpu_dir/online; one CPU per (package, core)
/// from cpuN/topology (each CPU its own core when absent); data caches from the first CPU's
/// cache/index*/ (level, type, size, coherency_line_size, shared_cpu_list).
Topology read_sysfs_topology(const std::filesystem::path& cpu_dir, std::vector<int> allowed_cpus);

/// The largest L3 instance `vendor` (a /proc/cpuinfo vendor_id) has shipped, in bytes; 0 when
/// no bound is known (one instance may then be as large as reported).
double largest_l3_instance(const std::string& vendor);
/// Replaces a cache size no part of `vendor` has by the largest one shipped, keeping the
/// reported size and a note (what a virtual machine shows when it passes the host's whole L3
/// through CPUID: 508 MiB "shared by 2 cores" on a 2-vCPU AMD Zen 5 guest). Measurement checks
/// the bound against the sweep's plateau like any reported size.
void bound_reported_caches(Topology& t, const std::string& vendor);

/// Total capacity of cache `c` reachable by `threads` threads pinned one per core: private
/// caches add up, shared ones count once per instance used.
double aggregate_capacity(const CacheInfo& c, int threads);

/// Memory this process may still allocate: min(MemAvailable, cgroup limit − usage); 0 when
/// unknown.
Bytes available_memory_bytes();
/// The same from given files (tests use fixtures): MemAvailable in `meminfo`, lowered to the
/// room left under a cgroup v2 limit (memory.max − memory.current in `cgroup_dir`) when there
/// is one. 0 when nothing can be read.
Bytes available_memory_bytes(const std::filesystem::path& meminfo,
                             const std::filesystem::path& cgroup_dir);

}  // namespace roofline::cpu
