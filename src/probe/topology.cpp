// Topology from hwloc (when built with it) or from Linux sysfs.
#include "roofline/counters.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/strings.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#if defined(ROOFLINE_HAVE_HWLOC)
#include <hwloc.h>
#endif

namespace roofline::cpu {
namespace {

const std::filesystem::path kSysfsCpu = "/sys/devices/system/cpu";

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// "0-3,8,10-11" → {0,1,2,3,8,10,11}
std::vector<int> parse_cpu_list(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    const auto dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        out.push_back(std::stoi(part));
      } else {
        const int a = std::stoi(part.substr(0, dash)), b = std::stoi(part.substr(dash + 1));
        for (int i = a; i <= b; ++i) out.push_back(i);
      }
    } catch (...) {
    }
  }
  return out;
}

double parse_size(const std::string& s) {  // "32K", "512K", "32768K", "1M"
  if (s.empty()) return 0;
  const char* end = nullptr;
  const double v = parse_double_c(s.c_str(), &end);
  const char unit = end && *end ? *end : ' ';
  if (unit == 'K') return v * 1024;
  if (unit == 'M') return v * 1024 * 1024;
  if (unit == 'G') return v * 1024 * 1024 * 1024;
  return v;
}

std::vector<int> allowed() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    for (int i = 0; i < CPU_SETSIZE; ++i)
      if (CPU_ISSET(static_cast<size_t>(i), &set)) out.push_back(i);
  return out;
}

void sysfs_topology(Topology& t, const std::filesystem::path& dir) {
  // One CPU per (package, core) pair.
  std::set<std::pair<int, int>> seen;
  for (int cpu : t.allowed_cpus) {
    const std::string base = (dir / ("cpu" + std::to_string(cpu)) / "topology").string() + "/";
    const std::string core = read_line(base + "core_id");
    const std::string pkg = read_line(base + "physical_package_id");
    const int c = core.empty() ? cpu : std::atoi(core.c_str());
    const int p = pkg.empty() ? 0 : std::atoi(pkg.c_str());
    if (seen.insert({p, c}).second) t.core_cpus.push_back(cpu);
  }
  if (t.caches.empty() && !t.allowed_cpus.empty()) {
    const int cpu0 = t.allowed_cpus.front();
    std::map<int, CacheInfo> by_level;
    for (int i = 0; i < 16; ++i) {
      const std::string base =
          (dir / ("cpu" + std::to_string(cpu0)) / "cache" / ("index" + std::to_string(i)))
              .string() +
          "/";
      const std::string type = read_line(base + "type");
      if (type.empty()) break;
      if (type == "Instruction") continue;
      CacheInfo c;
      c.level = std::atoi(read_line(base + "level").c_str());
      c.size_bytes = parse_size(read_line(base + "size"));
      const std::string line = read_line(base + "coherency_line_size");
      if (!line.empty()) c.line_bytes = std::atoi(line.c_str());
      // Cores sharing: logical CPUs sharing, counted as distinct cores among ours.
      const std::vector<int> sharing = parse_cpu_list(read_line(base + "shared_cpu_list"));
      int cores = 0;
      for (int s : sharing)
        if (std::find(t.core_cpus.begin(), t.core_cpus.end(), s) != t.core_cpus.end()) ++cores;
      c.cores_sharing = std::max(1, cores);
      if (c.level > 0 && c.size_bytes > 0) by_level[c.level] = c;
    }
    for (auto& [lvl, c] : by_level) t.caches.push_back(c);
  }
}

#if defined(ROOFLINE_HAVE_HWLOC)
bool hwloc_topology(Topology& t) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return false;
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return false;
  }
  const int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  for (int i = 0; i < ncores; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
    if (!core || !core->cpuset) continue;
    int pu = -1;
    hwloc_bitmap_foreach_begin(pu, core->cpuset) {
      if (std::find(t.allowed_cpus.begin(), t.allowed_cpus.end(), static_cast<int>(pu)) !=
          t.allowed_cpus.end()) {
        t.core_cpus.push_back(static_cast<int>(pu));
        break;
      }
    }
    hwloc_bitmap_foreach_end();
  }
  const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                    HWLOC_OBJ_L4CACHE};
  for (int lvl = 0; lvl < 4; ++lvl) {
    hwloc_obj_t c = hwloc_get_obj_by_type(topo, types[lvl], 0);
    if (!c || !c->attr) continue;
    if (c->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION) continue;
    CacheInfo ci;
    ci.level = lvl + 1;
    ci.size_bytes = static_cast<double>(c->attr->cache.size);
    ci.line_bytes = static_cast<int>(c->attr->cache.linesize);
    ci.cores_sharing =
        std::max(1, hwloc_get_nbobjs_inside_cpuset_by_type(topo, c->cpuset, HWLOC_OBJ_CORE));
    if (ci.size_bytes > 0) t.caches.push_back(ci);
  }
  hwloc_topology_destroy(topo);
  return !t.core_cpus.empty();
}
#endif

// The CPUID vendor string from /proc/cpuinfo (the counters' reader); empty where it cannot be
// read: the bound below is then not applied.
std::string cpu_vendor() {
  try {
    return counters::this_cpu().vendor;
  } catch (const std::exception&) {
    return {};
  }
}

std::string mib_words(double bytes) {
  std::ostringstream o;
  o << std::lround(bytes / (1024.0 * 1024.0)) << " MiB";
  return o.str();
}

}  // namespace

double largest_l3_instance(const std::string& vendor) {
  // AMD's L3 is one per core complex (CCX/CCD); the largest is 96 MiB: a Zen 4 or Zen 5 CCD
  // with 3D V-Cache, 32 MiB + 64 MiB stacked (AMD EPYC 9684X: 1152 MB L3 over 12 CCDs, AMD's
  // product page). Intel's L3 is one instance per socket (or per sub-NUMA cluster), as large
  // as the socket's: no per-instance bound short of the socket.
  if (vendor == "AuthenticAMD") return 96.0 * 1024 * 1024;
  return 0;
}

void bound_reported_caches(Topology& t, const std::string& vendor) {
  const double bound = largest_l3_instance(vendor);
  if (bound <= 0) return;
  for (CacheInfo& c : t.caches) {
    if (c.level != 3 || c.size_bytes <= bound) continue;
    c.reported_bytes = c.size_bytes;
    c.size_bytes = bound;
    c.note =
        "the system reports an L3 of " + mib_words(c.reported_bytes) + " shared by " +
        std::to_string(c.cores_sharing) + " core" + (c.cores_sharing == 1 ? "" : "s") +
        ", larger than any " + vendor + " L3 (" + mib_words(bound) +
        " per core complex; a virtual machine passing on its host's total): " + mib_words(bound) +
        " assumed";
  }
}

Topology detect_topology() {
  Topology t;
  t.allowed_cpus = allowed();
#if defined(ROOFLINE_HAVE_HWLOC)
  if (hwloc_topology(t)) {
    t.source = "hwloc";
    if (t.caches.empty()) sysfs_topology(t, kSysfsCpu);
    bound_reported_caches(t, cpu_vendor());
    return t;
  }
  t.core_cpus.clear();
  t.caches.clear();
#endif
  t.source = "sysfs";
  sysfs_topology(t, kSysfsCpu);
  if (t.core_cpus.empty()) t.core_cpus = t.allowed_cpus;
  bound_reported_caches(t, cpu_vendor());
  return t;
}

Topology read_sysfs_topology(const std::filesystem::path& cpu_dir, std::vector<int> allowed) {
  Topology t;
  t.allowed_cpus = allowed.empty() ? parse_cpu_list(read_line((cpu_dir / "online").string()))
                                   : std::move(allowed);
  t.source = "sysfs (" + cpu_dir.string() + ")";
  sysfs_topology(t, cpu_dir);
  if (t.core_cpus.empty()) t.core_cpus = t.allowed_cpus;
  return t;
}

double aggregate_capacity(const CacheInfo& c, int threads) {
  const int sharing = std::max(1, c.cores_sharing);
  const int instances = (std::max(1, threads) + sharing - 1) / sharing;
  return c.size_bytes * instances;
}

Bytes available_memory_bytes(const std::filesystem::path& meminfo,
                             const std::filesystem::path& cgroup_dir) {
  double avail = 0;
  {
    std::ifstream in(meminfo);
    std::string key;
    double kb = 0;
    std::string unit;
    while (in >> key >> kb) {
      std::getline(in, unit);
      if (key == "MemAvailable:") {
        avail = kb * 1024;
        break;
      }
    }
  }
  const std::string max = read_line((cgroup_dir / "memory.max").string());
  const std::string cur = read_line((cgroup_dir / "memory.current").string());
  if (!max.empty() && max != "max" && !cur.empty()) {
    const char* end = nullptr;
    const double room = parse_double_c(max.c_str(), &end) - parse_double_c(cur.c_str(), &end);
    if (room > 0 && (avail == 0 || room < avail)) avail = room;
  }
  return Bytes(avail);
}

Bytes available_memory_bytes() {
  return available_memory_bytes("/proc/meminfo", "/sys/fs/cgroup");
}

}  // namespace roofline::cpu
