#include "other_work.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

namespace roofline::engine {
namespace {

std::string slurp(const char* path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<double> busy_seconds(const std::string& proc_stat, const std::vector<int>& cpus,
                                   double ticks_per_s) {
  const std::set<int> wanted(cpus.begin(), cpus.end());
  std::set<int> seen;
  double ticks = 0;
  std::istringstream in(proc_stat);
  std::string line;
  while (std::getline(in, line)) {
    // "cpuN user nice system idle iowait irq softirq steal guest guest_nice" (proc(5)); guest
    // time is already inside user and nice.
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 ||
        !std::isdigit(static_cast<unsigned char>(line[3])))
      continue;
    std::istringstream f(line.substr(3));
    int cpu = -1;
    double v[8] = {};
    if (!(f >> cpu) || !wanted.count(cpu)) continue;
    for (double& x : v)
      if (!(f >> x)) return std::nullopt;
    ticks += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];  // not idle (3), not iowait (4)
    seen.insert(cpu);
  }
  if (seen != wanted) return std::nullopt;
  return ticks / ticks_per_s;
}

std::optional<double> own_seconds(const std::string& self_stat, double ticks_per_s) {
  // The command name (field 2) is in parentheses and may hold spaces: fields after the last ')'.
  const size_t close = self_stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream f(self_stat.substr(close + 1));
  std::string field;
  double utime = 0, stime = 0;
  // Fields 3 .. 13, then utime (14) and stime (15).
  for (int i = 3; i <= 13; ++i)
    if (!(f >> field)) return std::nullopt;
  if (!(f >> utime >> stime)) return std::nullopt;
  return (utime + stime) / ticks_per_s;
}

OtherWork::OtherWork(std::vector<int> cpus) : cpus_(std::move(cpus)) {
  std::sort(cpus_.begin(), cpus_.end());
  cpus_.erase(std::unique(cpus_.begin(), cpus_.end()), cpus_.end());
  const long hz = sysconf(_SC_CLK_TCK);
  if (hz > 0) ticks_per_s_ = static_cast<double>(hz);
  wall0_ = now_s();
  busy0_ = busy_seconds(slurp("/proc/stat"), cpus_, ticks_per_s_);
  own0_ = own_seconds(slurp("/proc/self/stat"), ticks_per_s_);
}

std::optional<double> OtherWork::share() const {
  if (!busy0_ || !own0_ || cpus_.empty()) return std::nullopt;
  const auto busy1 = busy_seconds(slurp("/proc/stat"), cpus_, ticks_per_s_);
  const auto own1 = own_seconds(slurp("/proc/self/stat"), ticks_per_s_);
  const double wall = now_s() - wall0_;
  const double capacity = wall * static_cast<double>(cpus_.size());
  if (!busy1 || !own1 || capacity * ticks_per_s_ < 20) return std::nullopt;
  const double other = (*busy1 - *busy0_) - (*own1 - *own0_);
  return std::clamp(other / capacity, 0.0, 1.0);
}

}  // namespace roofline::engine
