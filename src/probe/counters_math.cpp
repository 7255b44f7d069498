// Counter arithmetic: pure functions from readings to W and Q, and the missing-PMU message.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::counters {
namespace {

std::uint64_t parse_u64(const std::string& text, const std::string& what) {
  const std::string t = trim(text);
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(t, &used, 0);
    if (used != t.size()) throw std::invalid_argument(t);
    return v;
  } catch (const std::exception&) {
    throw InputError(what + ": not a number: '" + t + "'");
  }
}

}  // namespace

CpuIdentity parse_cpuinfo(const std::string& text) {
  CpuIdentity c;
  std::istringstream in(text);
  std::string line;
  bool seen_vendor = false;
  while (std::getline(in, line)) {
    if (trim(line).empty() && seen_vendor) break;  // end of the first processor block
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    const std::string value = trim(line.substr(colon + 1));
    try {
      if (key == "vendor_id") {
        c.vendor = value;
        seen_vendor = true;
      } else if (key == "cpu family") {
        c.family = std::stoi(value);
      } else if (key == "model") {
        c.model = std::stoi(value);
      } else if (key == "model name") {
        c.model_name = value;
      }
    } catch (const std::exception&) {
      throw InputError("cpuinfo: field '" + key + "': not a number: '" + value + "'");
    }
  }
  return c;
}

std::uint64_t encode_config(const std::map<std::string, std::string>& formats,
                            const std::string& event_string) {
  std::uint64_t config = 0;
  std::istringstream terms(event_string);
  std::string term;
  while (std::getline(terms, term, ',')) {
    term = trim(term);
    if (term.empty()) continue;
    const auto eq = term.find('=');
    const std::string field = trim(term.substr(0, eq));
    std::uint64_t value = eq == std::string::npos ? 1 : parse_u64(term.substr(eq + 1), field);
    const auto f = formats.find(field);
    if (f == formats.end())
      throw InputError("event '" + event_string + "': field '" + field + "' has no format");
    // "config:0-7,32-35": the value's low bits go to the first range, the next to the second.
    const std::string fmt = trim(f->second);
    const auto colon = fmt.find(':');
    if (colon == std::string::npos || fmt.substr(0, colon) != "config")
      throw InputError("format of '" + field + "': only 'config:' formats are supported (got '" +
                       fmt + "')");
    std::istringstream ranges(fmt.substr(colon + 1));
    std::string range;
    while (std::getline(ranges, range, ',')) {
      const auto dash = range.find('-');
      const auto lo = parse_u64(range.substr(0, dash), "format " + field);
      const auto hi = dash == std::string::npos ? lo : parse_u64(range.substr(dash + 1), field);
      if (hi < lo || hi > 63)
        throw InputError("format of '" + field + "': bad range '" + range + "'");
      const auto width = hi - lo + 1;
      const std::uint64_t mask = width == 64 ? ~0ULL : ((1ULL << width) - 1);
      config |= (value & mask) << lo;
      value = width == 64 ? 0 : value >> width;
    }
    if (value != 0)
      throw InputError("event '" + event_string + "': value of '" + field +
                       "' does not fit its format '" + fmt + "'");
  }
  return config;
}

std::optional<double> scaled_value(const Reading& r) {
  if (r.time_running == 0) return std::nullopt;
  if (r.time_running >= r.time_enabled) return static_cast<double>(r.value);
  // perf_event_open(2): when multiplexed, estimate = count × time_enabled / time_running.
  return static_cast<double>(r.value) * static_cast<double>(r.time_enabled) /
         static_cast<double>(r.time_running);
}

CounterTotals combine(const std::vector<EventSpec>& events, const std::vector<Reading>& readings) {
  if (events.size() != readings.size())
    throw InputError("counter readings: " + std::to_string(readings.size()) + " readings for " +
                     std::to_string(events.size()) + " events");
  CounterTotals t;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EventSpec& e = events[i];
    const Reading& r = readings[i];
    const auto v = scaled_value(r);
    if (!v) {
      t.not_counted.push_back(e.name);
      continue;
    }
    if (r.time_enabled > 0)
      t.min_running_fraction =
          std::min(t.min_running_fraction,
                   static_cast<double>(r.time_running) / static_cast<double>(r.time_enabled));
    switch (e.role) {
      case Role::flops:
        t.flops_by_precision[e.precision] += *v * e.weight;
        t.flops += *v * e.weight;
        t.flops_counted = true;
        break;
      case Role::dram:
      case Role::level:
        t.bytes_by_level[e.level] += *v * e.weight;
        break;
      case Role::software:
        if (e.config == 1) t.cpu_seconds += *v * 1e-9;  // task-clock is in ns
        break;
    }
  }
  return t;
}

std::string explain_missing(const PmuStatus& s, bool given) {
  if (!s.core_pmu.empty() && s.core_pmu_usable) return "";
  std::string m;
  if (s.core_pmu.empty()) {
    m = "hardware counters are missing: the kernel exposes no core PMU (" +
        terminal_safe(s.sysfs_root) +
        "/cpu is absent), so W (FLOP) and Q (DRAM bytes) cannot be counted.\n";
    if (s.hypervisor)
      m += "  This is a virtual machine whose hypervisor passes no virtual PMU through. Enable "
           "one (KVM/QEMU: -cpu host,pmu=on; libvirt: <pmu state='on'/>; cloud: an instance "
           "type with a vPMU) or run on bare metal.\n";
    else
      m += "  The kernel may lack CONFIG_PERF_EVENTS or a PMU driver for this CPU.\n";
  } else {
    m = "hardware counters are refused: the core PMU '" + s.core_pmu + "' exists but a counter " +
        "could not be opened (" + s.core_error + ").\n";
    // Counting one's own program in user space needs paranoid ≤ 2: above it, that is the cause;
    // at or below it the cause is another (an event the PMU driver lacks, a container's seccomp
    // profile), which the error names.
    if (s.paranoid > 2)
      m += "  kernel.perf_event_paranoid is " + std::to_string(s.paranoid) +
           ": counting your own program needs ≤ 2 (user space only); lower it with "
           "`sudo sysctl kernel.perf_event_paranoid=2`, or grant CAP_PERFMON "
           "(`sudo setcap cap_perfmon+ep $(command -v roofline)`).";
    else
      m += "  kernel.perf_event_paranoid is " + std::to_string(s.paranoid) +
           ", which allows counting your own program: the error above is the cause (an event "
           "this kernel's PMU driver does not offer, or a policy that refuses perf_event_open).";
    m += " In a container the seccomp profile must allow perf_event_open (docker run "
         "--cap-add PERFMON).\n";
  }
  m += "  Still measured: T (wall clock)";
  if (s.software_events) m += " and CPU time (task-clock, a software event)";
  m += given ? "; W and Q from --work/--traffic."
             : ". Give W and Q with --work/--traffic, or from marker regions "
               "(roofline_region_add_flops / roofline_region_add_bytes).";
  return m;
}

std::string explain_uncore_missing(const PmuStatus& s) {
  if (s.uncore_pmus.empty())
    return "Q (DRAM traffic): no memory-controller PMU (uncore_imc_*, amd_df, amd_umc_*) is "
           "exposed; needs bare metal with the uncore driver loaded (Intel: intel_uncore; AMD: "
           "amd_uncore)";
  if (s.paranoid > 0 && !s.cap_perfmon)
    return "Q (DRAM traffic): memory-controller counters are system-wide and need "
           "kernel.perf_event_paranoid ≤ 0 (now " +
           std::to_string(s.paranoid) + ") or CAP_PERFMON / CAP_SYS_ADMIN";
  return "";
}

std::vector<std::string> run_messages(const RunResult& r, bool hardware, bool replayed,
                                      bool given) {
  std::vector<std::string> messages;
  if (hardware && !replayed) {
    const std::string core = explain_missing(r.pmu, given);
    if (!core.empty())
      messages.push_back(core);
    else if (!r.totals.flops_counted && r.plan.missing.empty())
      messages.push_back("W: no FLOP counter ran (all counters busy?)");
    const std::string unc = explain_uncore_missing(r.pmu);
    if (!unc.empty()) messages.push_back(unc);
  }
  if (replayed || r.pmu.core_pmu_usable)
    for (const auto& s : r.plan.missing) messages.push_back(s);
  for (const auto& f : r.open_failures) messages.push_back("could not open " + f);
  if (!r.totals.not_counted.empty())
    messages.push_back(std::to_string(r.totals.not_counted.size()) +
                       " counters never ran (more events than counters)");
  return messages;
}

}  // namespace roofline::counters
