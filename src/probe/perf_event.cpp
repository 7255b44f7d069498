// perf_event plumbing: probing the PMUs, finding memory-controller events in sysfs, opening
// and reading counters. The arithmetic lives in counters_math.cpp.
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"

namespace roofline::counters {
namespace fs = std::filesystem;
namespace {

std::string read_small(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::map<std::string, std::string> read_formats(const fs::path& pmu_dir) {
  std::map<std::string, std::string> f;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(pmu_dir / "format", ec))
    f[e.path().filename().string()] = read_small(e.path());
  return f;
}

/// CPUs listed in a cpumask file ("0", "0,28", "0-1"): the first CPU of each range.
std::vector<int> cpumask_cpus(const std::string& text) {
  std::vector<int> cpus;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty()) continue;
    try {
      cpus.push_back(std::stoi(part.substr(0, part.find('-'))));
    } catch (const std::exception&) {
    }
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

/// Bytes per count from the kernel's .scale/.unit files (cas_count_read.scale =
/// 6.103515625e-05 with unit MiB = 64 B).
double bytes_per_count(const fs::path& event_file) {
  const std::string scale = read_small(event_file.string() + ".scale");
  const std::string unit = read_small(event_file.string() + ".unit");
  double s = 1;
  if (!scale.empty()) {
    try {
      s = std::stod(scale);
    } catch (const std::exception&) {
      s = 1;
    }
  }
  if (unit == "MiB") return s * 1024.0 * 1024.0;
  if (unit == "KiB") return s * 1024.0;
  if (unit == "GiB") return s * 1024.0 * 1024.0 * 1024.0;
  if (unit == "MB") return s * 1e6;
  if (unit.empty() && scale.empty()) return 64;  // one CAS = one 64-byte line
  return s;
}

long perf_event_open(perf_event_attr* attr, pid_t pid, int cpu, int group_fd, unsigned long flags) {
  return ::syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

std::string errno_text(int err) {
  std::string s = std::strerror(err);
  if (err == EACCES || err == EPERM) s += " (permission: perf_event_paranoid or CAP_PERFMON)";
  if (err == ENOENT || err == EOPNOTSUPP) s += " (event not supported by this PMU)";
  return s;
}

}  // namespace

CpuIdentity this_cpu() {
  return parse_cpuinfo(read_small("/proc/cpuinfo"));
}

void add_dram_events(EventPlan& plan, const CpuIdentity& cpu, const fs::path& sysfs_root) {
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(sysfs_root, ec)) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  const std::size_t before = plan.events.size();
  std::string skipped;  // uncore_imc_free_running_*: not used, said so in the message
  if (cpu.is_intel()) {
    // Intel: the kernel's uncore driver names the CAS events of every memory channel
    // (uncore_imc_N/events/cas_count_read, cas_count_write; client parts: uncore_imc
    // data_reads/data_writes), with a scale to MiB. Q = Σ CAS × 64 B (Intel uncore
    // performance monitoring guides: "UNC_M_CAS_COUNT.RD/WR ... × 64").
    for (const auto& d : dirs) {
      const std::string name = d.filename().string();
      if (name.rfind("uncore_imc", 0) != 0) continue;
      if (name.find("free_running") != std::string::npos) {
        skipped += (skipped.empty() ? "" : ", ") + name;
        continue;
      }
      const std::string type = read_small(d / "type");
      if (type.empty()) continue;
      const auto formats = read_formats(d);
      for (const auto& [ev, dir] : {std::pair{"cas_count_read", "RD"},
                                    {"cas_count_write", "WR"},
                                    {"data_reads", "RD"},
                                    {"data_writes", "WR"}}) {
        const fs::path f = d / "events" / ev;
        const std::string def = read_small(f);
        if (def.empty()) continue;
        for (int c : cpumask_cpus(read_small(d / "cpumask"))) {
          EventSpec e;
          e.name = name + "/" + ev + "/ (CAS " + dir + ", cpu " + std::to_string(c) + ")";
          e.pmu = name;
          e.type = static_cast<std::uint32_t>(std::stoul(type));
          e.config = encode_config(formats, def);
          e.role = Role::dram;
          e.level = "DRAM";
          e.weight = bytes_per_count(f);
          e.system_wide = true;
          e.cpu = c;
          e.group = 100;
          plan.events.push_back(e);
        }
      }
    }
  } else if (cpu.is_amd() && (cpu.family == 0x17 ||
                              (cpu.family == 0x19 &&
                               (cpu.model < 0x10 || (cpu.model >= 0x20 && cpu.model < 0x60))))) {
    // AMD Zen 1/2/3 data fabric: dram_channel_data_controller_0..7, event 0x07 + 0x40·N, umask
    // 0x38, 64 B per count (Linux tools/perf/pmu-events/arch/x86/amdzen{1,2,3}: data-fabric.json
    // and the nps1_die_to_dram metric, ScaleUnit 6.1e-5 MiB).
    const fs::path d = sysfs_root / "amd_df";
    const std::string type = read_small(d / "type");
    if (!type.empty()) {
      const auto formats = read_formats(d);
      for (int c : cpumask_cpus(read_small(d / "cpumask"))) {
        for (int ch = 0; ch < 8; ++ch) {
          char def[64];
          std::snprintf(def, sizeof def, "event=0x%x,umask=0x38", 0x07 + 0x40 * ch);
          EventSpec e;
          e.name = "amd_df/dram_channel_data_controller_" + std::to_string(ch) + "/ (cpu " +
                   std::to_string(c) + ")";
          e.pmu = "amd_df";
          e.type = static_cast<std::uint32_t>(std::stoul(type));
          e.config = encode_config(formats, def);
          e.role = Role::dram;
          e.level = "DRAM";
          e.weight = 64;
          e.system_wide = true;
          e.cpu = c;
          e.group = 101 + ch;  // 4 DF counters: each channel alone, multiplexed and scaled
          plan.events.push_back(e);
        }
      }
      plan.limits.push_back(
          "AMD data-fabric DRAM beats count reads and writes together, for "
          "the whole socket (all processes)");
    }
  } else if (cpu.is_amd()) {
    plan.missing.push_back("Q (DRAM traffic): memory-controller events for AMD family " +
                           std::to_string(cpu.family) + " model " + std::to_string(cpu.model) +
                           " (amd_umc) are not mapped yet");
    return;
  }
  if (plan.events.size() == before) {
    plan.missing.push_back(
        "Q (DRAM traffic): no memory-controller PMU found under " + sysfs_root.string() +
        " (uncore_imc_* on Intel, amd_df on AMD); needs bare metal with the uncore driver" +
        (skipped.empty() ? std::string()
                         : " (present but not used: " + skipped +
                               ", free-running counters without the CAS events)"));
  } else {
    plan.limits.push_back(
        "DRAM traffic is counted system-wide: other processes' traffic "
        "during the run is included");
  }
}

PmuStatus probe_pmu(const fs::path& sysfs_root) {
  PmuStatus s;
  const std::string par = read_small("/proc/sys/kernel/perf_event_paranoid");
  try {
    if (!par.empty()) s.paranoid = std::stoi(par);
  } catch (const std::exception&) {
  }
  // CapEff bit 38 = CAP_PERFMON, bit 21 = CAP_SYS_ADMIN (linux/capability.h).
  std::istringstream status(read_small("/proc/self/status"));
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("CapEff:", 0) == 0) {
      try {
        const auto caps = std::stoull(line.substr(7), nullptr, 16);
        s.cap_perfmon = ((caps >> 38) & 1) || ((caps >> 21) & 1);
      } catch (const std::exception&) {
      }
    }
  s.hypervisor = read_small("/proc/cpuinfo").find(" hypervisor") != std::string::npos;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sysfs_root, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("uncore_imc", 0) == 0 && n.find("free_running") != std::string::npos)
      s.skipped_uncore_pmus.push_back(n);  // not used by add_dram_events
    else if (n.rfind("uncore_imc", 0) == 0 || n == "amd_df" || n.rfind("amd_umc", 0) == 0)
      s.uncore_pmus.push_back(n);
  }
  std::sort(s.uncore_pmus.begin(), s.uncore_pmus.end());
  std::sort(s.skipped_uncore_pmus.begin(), s.skipped_uncore_pmus.end());
  for (const char* name : {"cpu", "cpu_core"})
    if (fs::exists(sysfs_root / name / "type", ec)) {
      s.core_pmu = name;
      break;
    }
  // Software event: task-clock on this process (works in VMs and containers).
  {
    perf_event_attr a{};
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    const long fd = perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd >= 0) {
      s.software_events = true;
      ::close(static_cast<int>(fd));
    } else {
      s.software_error = errno_text(errno);
    }
  }
  if (!s.core_pmu.empty()) {
    perf_event_attr a{};
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    const long fd = perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd >= 0) {
      s.core_pmu_usable = true;
      ::close(static_cast<int>(fd));
    } else {
      s.core_error = errno_text(errno);
    }
  }
  return s;
}

CounterSet::~CounterSet() {
  for (int fd : fds_)
    if (fd >= 0) ::close(fd);
}

void CounterSet::open(const std::vector<EventSpec>& events, pid_t pid, bool on_exec,
                      const fs::path& root) {
  events_ = events;
  fds_.assign(events.size(), -1);
  std::map<std::tuple<int, std::string, int>, int> leaders;  // (group, pmu, cpu) → fd
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EventSpec& e = events[i];
    perf_event_attr a{};
    a.size = sizeof a;
    a.type = e.type;
    if (a.type == 0 && e.pmu != "software") {
      const std::string t = read_small(root / e.pmu / "type");
      if (t.empty()) {
        failures_.push_back(e.name + ": PMU '" + e.pmu + "' not found under " + root.string());
        continue;
      }
      a.type = static_cast<std::uint32_t>(std::stoul(t));
    }
    a.config = e.config;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    const auto key = std::make_tuple(e.group, e.pmu, e.cpu);
    const auto leader = leaders.find(key);
    const int group_fd = leader == leaders.end() ? -1 : leader->second;
    long fd;
    if (e.system_wide) {
      a.disabled = 1;  // started by enable_system_wide() around the child's run
      fd = perf_event_open(&a, -1, e.cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    } else {
      a.inherit = 1;  // count the program's threads and children too
      a.exclude_kernel = 1;
      a.exclude_hv = 1;
      a.disabled = on_exec ? 1 : 0;
      a.enable_on_exec = on_exec ? 1 : 0;
      fd = perf_event_open(&a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0) {
      failures_.push_back(e.name + ": " + errno_text(errno));
      continue;
    }
    fds_[i] = static_cast<int>(fd);
    if (group_fd < 0) leaders[key] = fds_[i];
  }
}

void CounterSet::enable_system_wide() {
  for (std::size_t i = 0; i < fds_.size(); ++i)
    if (fds_[i] >= 0 && events_[i].system_wide) ::ioctl(fds_[i], PERF_EVENT_IOC_ENABLE, 0);
}

void CounterSet::disable_system_wide() {
  for (std::size_t i = 0; i < fds_.size(); ++i)
    if (fds_[i] >= 0 && events_[i].system_wide) ::ioctl(fds_[i], PERF_EVENT_IOC_DISABLE, 0);
}

void CounterSet::disable_all() {
  for (int fd : fds_)
    if (fd >= 0) ::ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

std::vector<Reading> CounterSet::read() const {
  std::vector<Reading> out(events_.size());
  for (std::size_t i = 0; i < events_.size(); ++i) {
    out[i].name = events_[i].name;
    if (fds_[i] < 0) continue;
    std::uint64_t buf[3] = {0, 0, 0};
    if (::read(fds_[i], buf, sizeof buf) == static_cast<ssize_t>(sizeof buf)) {
      out[i].value = buf[0];
      out[i].time_enabled = buf[1];
      out[i].time_running = buf[2];
    }
  }
  return out;
}

std::size_t CounterSet::opened() const {
  std::size_t n = 0;
  for (int fd : fds_) n += fd >= 0;
  return n;
}

}  // namespace roofline::counters
