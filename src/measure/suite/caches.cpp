// Cache sizes from sysfs and working-set sizes per memory level.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "roofline/cpu_topology.hpp"
#include "roofline/quantity.hpp"
#include "roofline/suite.hpp"

namespace roofline::suite {
namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

// sysfs sizes read "32K", "512K", "32768K", sometimes "1M".
double parse_sysfs_size(const std::string& s) {
  if (s.empty()) return 0;
  size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(s, &pos);
  } catch (...) {
    return 0;
  }
  const std::string suffix = s.substr(pos);
  if (suffix == "K")
    v *= 1024;
  else if (suffix == "M")
    v *= 1024 * 1024;
  else if (suffix == "G")
    v *= 1024.0 * 1024 * 1024;
  else if (!suffix.empty())
    return 0;
  return v;
}

// "0-1", "0,2,4-7" → number of CPUs listed.
int count_cpu_list(const std::string& s) {
  int n = 0;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        if (!part.empty()) n += 1;
      } else {
        n += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
      }
    } catch (...) {
    }
  }
  return std::max(n, 1);
}

}  // namespace

const CacheLevel* CacheInfo::find(const std::string& level) const {
  for (const auto& c : caches)
    if (c.level == level) return &c;
  return nullptr;
}

CacheInfo detect_caches(const std::filesystem::path& cpu_dir,
                        const std::filesystem::path& meminfo) {
  namespace fs = std::filesystem;
  CacheInfo info;
  info.source = (cpu_dir / "cpu0" / "cache").string();
  std::error_code ec;
  const fs::path cache_dir = cpu_dir / "cpu0" / "cache";
  if (fs::is_directory(cache_dir, ec)) {
    for (const auto& e : fs::directory_iterator(cache_dir, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("index", 0) != 0) continue;
      const std::string type = read_line(e.path() / "type");
      if (type != "Data" && type != "Unified") continue;
      const std::string lvl = read_line(e.path() / "level");
      const double size = parse_sysfs_size(read_line(e.path() / "size"));
      if (lvl.empty() || size <= 0) continue;
      CacheLevel c;
      c.level = "L" + lvl;
      c.size_bytes = size;
      c.shared_by = count_cpu_list(read_line(e.path() / "shared_cpu_list"));
      info.caches.push_back(c);
    }
  }
  std::sort(info.caches.begin(), info.caches.end(),
            [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
  // MemAvailable, and the cgroup limit when these are this machine's files (a fixture's
  // meminfo has no cgroup beside it).
  info.mem_available_bytes = cpu::available_memory_bytes(
      meminfo, meminfo == "/proc/meminfo" ? std::filesystem::path("/sys/fs/cgroup")
                                          : meminfo.parent_path() / "cgroup");
  const std::string online = read_line(cpu_dir / "online");
  info.cpus = online.empty() ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                             : count_cpu_list(online);
  return info;
}

const std::vector<std::string>& all_levels() {
  static const std::vector<std::string> levels{"L1", "L2", "L3", "DRAM"};
  return levels;
}

std::vector<std::string> parse_levels(const std::string& csv) {
  std::vector<std::string> out;
  std::stringstream ss(csv);
  std::string part;
  while (std::getline(ss, part, ',')) {
    std::string up;
    for (char ch : part)
      if (!std::isspace(static_cast<unsigned char>(ch)))
        up += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (up == "MEM" || up == "RAM" || up == "MEMORY") up = "DRAM";
    const auto& known = all_levels();
    if (std::find(known.begin(), known.end(), up) == known.end())
      throw InputError("--levels: unknown level '" + part + "' (known: L1, L2, L3, DRAM)");
    if (std::find(out.begin(), out.end(), up) == out.end()) out.push_back(up);
  }
  if (out.empty()) throw InputError("--levels: no level given (known: L1, L2, L3, DRAM)");
  return out;
}

double working_set_for(const std::string& level, const CacheInfo& caches, int threads) {
  if (threads < 1) throw InputError("threads must be at least 1");
  constexpr double kMiB = 1024.0 * 1024.0;
  if (level == "DRAM") {
    // Well past the last-level cache so the repetitions stream from memory, not from a cache.
    double llc = 0;
    for (const auto& c : caches.caches)
      llc = std::max(llc, c.size_bytes * std::max(1, caches.cpus / std::max(1, c.shared_by)));
    const double want = std::max(4 * llc, 64 * kMiB);
    const double cap = caches.mem_available_bytes > 0 ? caches.mem_available_bytes / 4 : want;
    if (cap < std::max(2 * llc, 16 * kMiB))
      throw Unavailable("DRAM: MemAvailable " + format_bytes(Bytes(caches.mem_available_bytes)) +
                        " is too small for a working set well past the caches");
    return std::min(want, cap);
  }
  const CacheLevel* c = caches.find(level);
  if (!c) throw Unavailable(level + ": this machine reports no such cache (" + caches.source + ")");
  // A private cache (shared by one CPU) holds each thread's share; a shared one holds all of it.
  const int users = std::min(threads, std::max(1, caches.cpus));
  const double per_instance = c->size_bytes / 2;
  const int instances = c->shared_by <= 1 ? users : (users + c->shared_by - 1) / c->shared_by;
  return per_instance * instances;
}

}  // namespace roofline::suite
