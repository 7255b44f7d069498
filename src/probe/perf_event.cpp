// perf_event plumbing: probing the PMUs, finding memory-controller events in sysfs, opening
// and reading counters. The arithmetic lives in counters_math.cpp.
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/powercap.hpp"
#include "roofline/strings.hpp"

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
    const char* end = nullptr;
    const double read = parse_double_c(scale.c_str(), &end);
    if (end != scale.c_str()) s = read;
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

namespace {

EventSpec dram_event(const std::string& name, const std::string& pmu, const std::string& type,
                     std::uint64_t config, double weight, int cpu, int group) {
  EventSpec e;
  e.name = name;
  e.pmu = pmu;
  e.type = static_cast<std::uint32_t>(std::stoul(type));
  e.config = config;
  e.role = Role::dram;
  e.level = "DRAM";
  e.weight = weight;
  e.system_wide = true;
  e.cpu = cpu;
  e.group = group;
  return e;
}

/// PMU directories under `root` whose name starts with `prefix`, sorted by their number
/// ("uncore_imc_2" before "uncore_imc_10").
std::vector<fs::path> pmus_with_prefix(const std::vector<fs::path>& dirs,
                                       const std::string& prefix) {
  std::vector<fs::path> out;
  for (const auto& d : dirs) {
    const std::string n = d.filename().string();
    if (n.rfind(prefix, 0) == 0) out.push_back(d);
  }
  auto number = [&](const fs::path& p) {
    const std::string tail = p.filename().string().substr(prefix.size());
    try {
      return std::stol(tail);
    } catch (const std::exception&) {
      return -1L;
    }
  };
  std::sort(out.begin(), out.end(), [&](const fs::path& x, const fs::path& y) {
    return std::make_tuple(number(x), x.string()) < std::make_tuple(number(y), y.string());
  });
  return out;
}

/// Events of one table encoded for every PMU in `pmus` through its format files; `mask_field`
/// is the format field the row's umask goes to ("umask", or "rdwrmask" on amd_umc).
std::size_t add_table_pmus(EventPlan& plan, const std::string& table,
                           const std::vector<fs::path>& pmus, const std::string& mask_field) {
  std::size_t added = 0;
  for (const auto& d : pmus) {
    const std::string pmu = d.filename().string();
    const std::string type = read_small(d / "type");
    if (type.empty()) continue;
    const auto formats = read_formats(d);
    for (int c : cpumask_cpus(read_small(d / "cpumask")))
      for (const auto& r : event_table()) {
        if (r.table != table) continue;
        char def[96];
        std::snprintf(def, sizeof def, "event=0x%x,%s=0x%x", r.event, mask_field.c_str(), r.umask);
        plan.events.push_back(dram_event(pmu + "/" + r.name + "/ (cpu " + std::to_string(c) + ")",
                                         pmu, type, encode_config(formats, def), r.weight, c,
                                         r.group));
        ++added;
      }
  }
  return added;
}

}  // namespace

void add_dram_events(EventPlan& plan, const CpuIdentity& cpu, const fs::path& sysfs_root) {
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(sysfs_root, ec)) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  const std::size_t before = plan.events.size();
  const CpuModel* model = find_cpu_model(cpu);
  const std::string table = model ? model->dram_table : "";
  std::string expected_pmus;  // named in the "missing" line
  if (cpu.is_intel() && table == "intel-gnr-imc") {
    // Granite Rapids / Sierra Forest: both schedulers of every channel, encoded from the table
    // (kernels before gnr_uncore_imc_events name only scheduler 0, as cas_count_read/write).
    expected_pmus = "uncore_imc_*";
    std::vector<fs::path> imcs;
    for (const auto& d : pmus_with_prefix(dirs, "uncore_imc_"))
      if (d.filename().string().find("free_running") == std::string::npos) imcs.push_back(d);
    if (add_table_pmus(plan, table, imcs, "umask") > 0) {
      const bool named = !imcs.empty() && fs::exists(imcs[0] / "events" / "cas_count_read_sch1");
      plan.limits.push_back(
          std::string("Granite Rapids / Sierra Forest memory controllers: both schedulers of each "
                      "channel counted (events 0x05 and 0x06, umask 0xCF reads, 0xF0 writes)") +
          (named ? ""
                 : "; this kernel names only scheduler 0 (cas_count_read/write), scheduler 1 is "
                   "programmed from its encoding"));
    }
  } else if (cpu.is_intel()) {
    // The kernel's uncore driver names the CAS events of every memory channel with a scale to
    // MiB (uncore_imc_N/events/cas_count_read|write; client parts before Tiger Lake:
    // uncore_imc data_reads/data_writes; Tiger Lake and later clients: free-running
    // uncore_imc_free_running_N data_read/data_write). Q = Σ count × 64 B.
    expected_pmus = "uncore_imc_*";
    for (const auto& d : dirs) {
      const std::string name = d.filename().string();
      if (name.rfind("uncore_imc", 0) != 0) continue;
      const std::string type = read_small(d / "type");
      if (type.empty()) continue;
      const bool free_running = name.find("free_running") != std::string::npos;
      const auto formats = read_formats(d);
      using Ev = std::pair<const char*, const char*>;
      const std::vector<Ev> names = free_running
                                        ? std::vector<Ev>{{"data_read", "RD"}, {"data_write", "WR"}}
                                        : std::vector<Ev>{{"cas_count_read", "CAS RD"},
                                                          {"cas_count_write", "CAS WR"},
                                                          {"data_reads", "RD"},
                                                          {"data_writes", "WR"}};
      int g = free_running ? 120 : 100;
      for (const auto& [ev, dir] : names) {
        const fs::path f = d / "events" / ev;
        const std::string def = read_small(f);
        if (def.empty()) continue;
        for (int c : cpumask_cpus(read_small(d / "cpumask")))
          plan.events.push_back(
              dram_event(name + "/" + ev + "/ (" + dir + ", cpu " + std::to_string(c) + ")", name,
                         type, encode_config(formats, def), bytes_per_count(f), c,
                         free_running ? g : 100));  // free-running counters each on their own
        ++g;
      }
    }
  } else if (cpu.is_amd() && table == "amd-df") {
    // Zen 1-3 data fabric: one amd_df PMU per die, eight DRAM channel events (table).
    expected_pmus = "amd_df";
    std::vector<fs::path> df;
    if (fs::exists(sysfs_root / "amd_df" / "type", ec)) df.push_back(sysfs_root / "amd_df");
    if (add_table_pmus(plan, table, df, "umask") > 0)
      plan.limits.push_back(
          "AMD data-fabric DRAM beats count reads and writes together, for "
          "the whole socket (all processes)");
  } else if (cpu.is_amd() && table == "amd-umc") {
    // Zen 4/5: one amd_umc_N PMU per memory channel (Linux's amd_uncore, PerfMonV2), CAS
    // commands for reads and writes.
    expected_pmus = "amd_umc_*";
    add_table_pmus(plan, table, pmus_with_prefix(dirs, "amd_umc_"), "rdwrmask");
  } else if (cpu.is_amd()) {
    plan.missing.push_back("Q (DRAM traffic): memory-controller events for AMD family " +
                           std::to_string(cpu.family) + " model " + std::to_string(cpu.model) +
                           " are not mapped");
    return;
  }
  if (plan.events.size() == before) {
    plan.missing.push_back(
        "Q (DRAM traffic): no memory-controller PMU found under " + sysfs_root.string() + " (" +
        (expected_pmus.empty() ? std::string("uncore_imc_* on Intel, amd_df/amd_umc_* on AMD")
                               : expected_pmus + " for this CPU") +
        "); needs bare metal with the uncore driver loaded" +
        (table == "amd-umc" ? " (amd_uncore with its UMC part, on kernels that expose amd_umc_*)"
                            : ""));
  } else {
    plan.limits.push_back(
        "DRAM traffic is counted system-wide: other processes' traffic "
        "during the run is included");
  }
}

PmuStatus probe_pmu(const fs::path& sysfs_root) {
  PmuStatus s;
  s.sysfs_root = sysfs_root.string();
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
    if (n.rfind("uncore_imc", 0) == 0 || n == "amd_df" || n.rfind("amd_umc", 0) == 0)
      s.uncore_pmus.push_back(n);
  }
  std::sort(s.uncore_pmus.begin(), s.uncore_pmus.end());
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

namespace {

/// One set of the per-thread events on each thread of this process.
std::vector<std::unique_ptr<CounterSet>> open_on_threads(const std::vector<EventSpec>& events,
                                                         const fs::path& sysfs_root) {
  std::vector<std::unique_ptr<CounterSet>> threads;
  std::error_code ec;
  for (const auto& t : fs::directory_iterator("/proc/self/task", ec)) {
    const std::string tid = t.path().filename().string();
    if (tid.empty() || tid.find_first_not_of("0123456789") != std::string::npos) continue;
    threads.push_back(std::make_unique<CounterSet>());
    threads.back()->open(events, static_cast<pid_t>(std::stol(tid)), /*on_exec=*/false, sysfs_root);
  }
  return threads;
}

/// Per event: the threads' scaled counts summed.
std::vector<Reading> sum_over_threads(const std::vector<EventSpec>& events,
                                      const std::vector<std::unique_ptr<CounterSet>>& threads) {
  std::vector<std::vector<Reading>> per_thread;
  for (const auto& t : threads) per_thread.push_back(t->read());
  std::vector<Reading> sum(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    sum[i].name = events[i].name;
    double v = 0;
    for (const auto& readings : per_thread) {
      const Reading& x = readings[i];
      if (const auto sv = scaled_value(x)) {
        v += *sv;
        sum[i].time_enabled += x.time_enabled;
        sum[i].time_running += x.time_enabled;  // already scaled
      }
    }
    sum[i].value = static_cast<std::uint64_t>(std::llround(v));
  }
  return sum;
}

}  // namespace

ProcessCount count_this_process(const std::vector<EventSpec>& events,
                                const std::function<void()>& body, const fs::path& sysfs_root) {
  std::vector<EventSpec> core, uncore;
  for (const auto& e : events) (e.system_wide ? uncore : core).push_back(e);
  const std::vector<std::unique_ptr<CounterSet>> threads = open_on_threads(core, sysfs_root);
  CounterSet system;
  system.open(uncore, 0, /*on_exec=*/false, sysfs_root);
  system.enable_system_wide();
  body();
  system.disable_all();
  for (auto& t : threads) t->disable_all();
  const std::vector<Reading> core_sum = sum_over_threads(core, threads);
  ProcessCount out;
  for (const auto& t : threads)
    for (const auto& f : t->failures())
      if (std::find(out.failures.begin(), out.failures.end(), f) == out.failures.end())
        out.failures.push_back(f);
  for (const auto& f : system.failures()) out.failures.push_back(f);
  const std::vector<Reading> sys = system.read();
  std::size_t ci = 0, ui = 0;
  for (const auto& e : events) out.readings.push_back(e.system_wide ? sys[ui++] : core_sum[ci++]);
  out.counted_threads = static_cast<int>(threads.size());
  return out;
}

}  // namespace roofline::counters

// ---- RAPL through the power PMU (powercap.hpp) ----
namespace roofline {

namespace fs = std::filesystem;

PerfPower find_perf_power(const std::filesystem::path& devices) {
  PerfPower out;
  const fs::path pmu = devices / "power";
  std::error_code ec;
  if (!fs::exists(pmu / "type", ec)) {
    out.why_none = "no power PMU in " + devices.string() + " (no RAPL, or a virtual machine)";
    return out;
  }
  const fs::path event = pmu / "events" / "energy-pkg";
  if (!fs::exists(event, ec)) {
    out.why_none = "the power PMU has no energy-pkg event";
    return out;
  }
  PerfPowerEvent e;
  e.name = "energy-pkg";
  const std::string type = counters::read_small(pmu / "type");
  try {
    e.type = static_cast<std::uint32_t>(std::stoul(type));
  } catch (const std::exception&) {
    throw InputError((pmu / "type").string() + ": not a PMU type number: '" + type + "'");
  }
  e.config = counters::encode_config(counters::read_formats(pmu), counters::read_small(event));
  const std::string scale = counters::read_small(event.string() + ".scale");
  const std::string unit = counters::read_small(event.string() + ".unit");
  const char* end = nullptr;
  e.joules_per_count = parse_double_c(scale.c_str(), &end);
  if (end == scale.c_str()) {
    throw InputError(event.string() + ".scale: not a number: '" + scale + "'");
  }
  if (unit != "Joules" || !(e.joules_per_count > 0))
    throw InputError(event.string() + ": expected a positive scale in Joules (got '" + scale +
                     "' '" + unit + "')");
  e.cpus = counters::cpumask_cpus(counters::read_small(pmu / "cpumask"));
  out.package = e;
  return out;
}

PerfEnergyCounter::~PerfEnergyCounter() {
  for (int fd : fds_) ::close(fd);
}

std::string PerfEnergyCounter::open(const PerfPowerEvent& e) {
  for (int fd : fds_) ::close(fd);
  fds_.clear();
  scale_ = e.joules_per_count;
  for (int cpu : e.cpus) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = e.type;
    attr.config = e.config;
    // System-wide on the package's CPU: the power PMU counts no task (pid −1).
    const long fd = counters::perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      for (int f : fds_) ::close(f);
      fds_.clear();
      return "perf power/" + e.name + "/ on CPU " + std::to_string(cpu) + ": " +
             counters::errno_text(err);
    }
    fds_.push_back(static_cast<int>(fd));
  }
  return fds_.empty() ? "perf power/" + e.name + "/: no CPU in the PMU's cpumask" : "";
}

std::optional<double> PerfEnergyCounter::joules() const {
  if (fds_.empty()) return std::nullopt;
  double total = 0;
  for (int fd : fds_) {
    std::uint64_t count = 0;
    if (::read(fd, &count, sizeof count) != static_cast<ssize_t>(sizeof count)) return std::nullopt;
    total += static_cast<double>(count) * scale_;
  }
  return total;
}

}  // namespace roofline
