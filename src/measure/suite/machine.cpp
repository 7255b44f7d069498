// The machine the suite sizes for (the engine's topology) and working-set sizes per level.
#include <algorithm>
#include <cmath>
#include <set>

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
  m.mem_available_bytes = cpu::available_memory_bytes().value;
  return m;
}

Machine machine_from_sysfs(const std::filesystem::path& cpu_dir,
                           const std::filesystem::path& meminfo) {
  Machine m;
  m.topology = cpu::read_sysfs_topology(cpu_dir, {});
  m.mem_available_bytes =
      cpu::available_memory_bytes(meminfo, meminfo.parent_path() / "cgroup").value;
  return m;
}

namespace {
/// Cache instances `threads` threads (one per core) use on `cores` cores.
int instances_used(const cpu::CacheInfo& c, int threads, int cores) {
  const int users = std::clamp(threads, 1, std::max(1, cores));
  const int sharing = std::max(1, c.cores_sharing);
  return sharing <= 1 ? users : (users + sharing - 1) / sharing;
}
}  // namespace

std::vector<std::string> fit_caches_to_plateaus(Machine& machine, const MachineFacts& measured) {
  std::vector<std::string> lines;
  const int cores = machine.cores();
  for (cpu::CacheInfo& c : machine.topology.caches) {
    const std::string level = "L" + std::to_string(c.level);
    const auto it = measured.memory_reach.find(level);
    if (it == measured.memory_reach.end()) continue;
    const LevelReach& r = it->second;
    // Measured here: the document's capacity per core is this machine's (within 1%).
    if (r.size_agrees || !(r.plateau_edge > 0) ||
        std::fabs(r.size_per_core - c.per_core_bytes()) > 0.01 * c.per_core_bytes())
      continue;
    // The edge covers the instances the measuring threads used: per instance, that share.
    const double size = r.plateau_edge / instances_used(c, measured.threads.value_or(1), cores);
    if (!(size < c.size_bytes)) continue;  // a plateau past the size: the size stands
    machine.size_before_plateau[c.level] = c.size_bytes;
    if (!(c.reported_bytes > 0)) c.reported_bytes = c.size_bytes;
    c.note = "sized by the measured plateau, which ends at " + format_bytes(Bytes(r.plateau_edge)) +
             " over " + std::to_string(measured.threads.value_or(1)) +
             " threads (the system reports " + format_bytes(Bytes(c.reported_bytes)) +
             " per instance)";
    c.size_bytes = size;
    lines.push_back(level + ": " + c.note);
  }
  return lines;
}

std::vector<std::string> runs_beyond_plateaus(const std::vector<RunResult>& results,
                                              const MachineFacts& measured) {
  std::vector<std::string> lines;
  std::set<std::string> said;
  for (const RunResult& r : results) {
    const auto it = measured.memory_reach.find(r.level);
    if (it == measured.memory_reach.end() || it->second.size_agrees ||
        !(it->second.plateau_edge > 0) || !(r.working_set_bytes > it->second.plateau_edge) ||
        !said.insert(r.level).second)
      continue;
    lines.push_back(r.level + ": the runs' working set (" +
                    format_bytes(Bytes(r.working_set_bytes)) +
                    ") lies beyond the measured plateau, which ends at " +
                    format_bytes(Bytes(it->second.plateau_edge)) +
                    ": these runs may stream from the next level; give the measured machine "
                    "document (--machine) to size the level by its plateau");
  }
  return lines;
}

const std::vector<std::string>& all_levels() {
  static const std::vector<std::string> levels{"L1", "L2", "L3", "DRAM"};
  return levels;
}

namespace {
/// Bytes of one cache level that `threads` threads (one per core) use: a private cache (one
/// core) each thread's own, a shared one its instances the threads run on.
double cache_capacity(const cpu::CacheInfo& c, const Machine& machine, int threads) {
  const int users = std::max(1, std::min(threads, machine.cores()));
  const int sharing = std::max(1, c.cores_sharing);
  const int instances = sharing <= 1 ? users : (users + sharing - 1) / sharing;
  return c.size_bytes * instances;
}
}  // namespace

double working_set_for(const std::string& level, const Machine& machine, int threads) {
  if (threads < 1) throw InputError("threads must be at least 1");
  constexpr double kMiB = 1024.0 * 1024.0;
  const int cores = machine.cores();
  if (level == "DRAM") {
    // Well past the machine's last-level cache (every instance of it) so the repetitions stream
    // from memory, not from a cache.
    double llc = 0;
    // A cache sized by its measured plateau counts at its size before that here: past both.
    for (const auto& c : machine.topology.caches) {
      const auto before = machine.size_before_plateau.find(c.level);
      const double size =
          before != machine.size_before_plateau.end() ? before->second : c.size_bytes;
      llc = std::max(
          llc, size * ((cores + std::max(1, c.cores_sharing) - 1) / std::max(1, c.cores_sharing)));
    }
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
  return cache_capacity(*c, machine, threads) / 2;
}

std::string level_holding(Bytes bytes, const Machine& machine, int threads) {
  if (threads < 1) throw InputError("threads must be at least 1");
  // Half of the capacity, as the level sizes are chosen (working_set_for): a set filling a cache
  // whole is partly evicted to the next level by the arrays' conflicts and the other data.
  for (const auto& level : all_levels()) {
    if (level == "DRAM") break;
    const cpu::CacheInfo* c = machine.cache(level);
    if (c && bytes.value <= cache_capacity(*c, machine, threads) / 2) return level;
  }
  return "DRAM";
}

}  // namespace roofline::suite
