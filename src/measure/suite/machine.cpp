// The machine the suite sizes for (the engine's topology) and working-set sizes per level.
#include <algorithm>
#include <cmath>

#include "roofline/cpu_topology.hpp"
#include "roofline/quantity.hpp"
#include "roofline/suite.hpp"

namespace roofline::suite {

const cpu::CacheInfo* Machine::cache(const std::string& level) const {
  if (level.size() != 2 || level[0] != 'L' || level[1] < '1' || level[1] > '9') return nullptr;
  const int n = level[1] - '0';
  for (const auto& c : topology.caches)
    if (c.level == n) return &c;
  return nullptr;
}

Machine detect_machine() {
  Machine m;
  m.topology = cpu::detect_topology();
  m.mem_available_bytes = cpu::available_memory_bytes();
  return m;
}

Machine machine_from_sysfs(const std::filesystem::path& cpu_dir,
                           const std::filesystem::path& meminfo) {
  Machine m;
  m.topology = cpu::read_sysfs_topology(cpu_dir, {});
  m.mem_available_bytes = cpu::available_memory_bytes(meminfo, meminfo.parent_path() / "cgroup");
  return m;
}

const std::vector<std::string>& all_levels() {
  static const std::vector<std::string> levels{"L1", "L2", "L3", "DRAM"};
  return levels;
}

double working_set_for(const std::string& level, const Machine& machine, int threads) {
  if (threads < 1) throw InputError("threads must be at least 1");
  constexpr double kMiB = 1024.0 * 1024.0;
  const int cores = machine.cores();
  if (level == "DRAM") {
    // Well past the machine's last-level cache (every instance of it) so the repetitions stream
    // from memory, not from a cache.
    double llc = 0;
    for (const auto& c : machine.topology.caches)
      llc = std::max(llc, c.size_bytes * ((cores + std::max(1, c.cores_sharing) - 1) /
                                          std::max(1, c.cores_sharing)));
    const double want = std::max(4 * llc, 64 * kMiB);
    const double avail = machine.mem_available_bytes;
    const double cap = avail > 0 ? avail / 4 : want;
    if (cap < std::max(2 * llc, 16 * kMiB))
      throw Unavailable("DRAM: the memory available (" + format_bytes(Bytes(avail)) +
                        ") is too small for a working set well past the caches");
    return std::min(want, cap);
  }
  const cpu::CacheInfo* c = machine.cache(level);
  if (!c) throw Unavailable(level + ": this machine reports no such cache");
  // A private cache (one core) holds each thread's share; a shared one holds its threads' shares.
  const int users = std::min(threads, cores);
  const int sharing = std::max(1, c->cores_sharing);
  const double per_instance = c->size_bytes / 2;
  const int instances = sharing <= 1 ? users : (users + sharing - 1) / sharing;
  return per_instance * instances;
}

}  // namespace roofline::suite
