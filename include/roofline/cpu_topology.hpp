#pragma once
// The CPU topology measurement needs: which logical CPUs this process may use, one CPU per
// physical core (for one pinned thread per core), and the data caches with their sizes and how
// many cores share each. From hwloc when the build has it, else from Linux sysfs
// (/sys/devices/system/cpu/cpu*/topology and cpu0/cache). Sizes are what the system reports —
// on virtual machines they can be wrong, so measurement checks them against the sweep.
#include <filesystem>
#include <string>
#include <vector>

namespace roofline::cpu {

struct CacheInfo {
  int level = 0;          ///< 1, 2, 3...
  double size_bytes = 0;  ///< capacity of one instance
  int cores_sharing = 1;  ///< cores that share one instance
  int line_bytes = 64;
};

struct Topology {
  std::vector<int> allowed_cpus;  ///< logical CPUs in this process's affinity mask
  std::vector<int> core_cpus;     ///< one allowed logical CPU per physical core
  std::vector<CacheInfo> caches;  ///< data/unified caches, ascending level
  std::string source;             ///< "hwloc" or "sysfs"
  int cores() const { return static_cast<int>(core_cpus.size()); }
};

/// Reads the topology of this machine (never throws; missing parts stay empty).
Topology detect_topology();

/// Total capacity of cache `c` reachable by `threads` threads pinned one per core: private
/// caches add up, shared ones count once per instance used.
double aggregate_capacity(const CacheInfo& c, int threads);

/// Memory this process may still allocate: min(MemAvailable, cgroup limit − usage), in bytes;
/// 0 when unknown.
double available_memory_bytes();
/// The same from given files (tests use fixtures): MemAvailable in `meminfo`, lowered to the
/// room left under a cgroup v2 limit (memory.max − memory.current in `cgroup_dir`) when there
/// is one. 0 when nothing can be read.
double available_memory_bytes(const std::filesystem::path& meminfo,
                              const std::filesystem::path& cgroup_dir);

}  // namespace roofline::cpu
