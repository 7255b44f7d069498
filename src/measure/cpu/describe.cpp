// The machine description of a CPU measurement (steps.hpp describe_machine).
#include <unistd.h>

#include <fstream>

#include "measure/cpu/steps.hpp"

#ifndef ROOFLINE_VERSION
#define ROOFLINE_VERSION "unknown"
#endif

namespace roofline::cpu {
namespace {

std::string kernel_version() {
  std::ifstream in("/proc/sys/kernel/osrelease");
  std::string s;
  std::getline(in, s);
  return s;
}

}  // namespace

CpuDescription describe_machine(const Plan& plan, const Topology& topo, const CpuFeatures& f,
                                const Microarchitecture& uarch, const ClockResult& clock,
                                bool pinned, double available) {
  CpuDescription d;
  // Caches: the size of one instance as the system reports it, then per core, per machine (all
  // instances over the cores this process may use) and what the team of threads reaches.
  for (const auto& c : topo.caches) {
    CpuCacheRecord r;
    const int sharing = std::max(1, c.cores_sharing);
    r.level = c.level;
    r.size_bytes = c.size_bytes;
    r.cores_sharing = c.cores_sharing;
    r.line_bytes = c.line_bytes;
    r.size_per_core = c.size_bytes / sharing;
    r.instances = (std::max(1, topo.cores()) + sharing - 1) / sharing;
    r.size_machine = c.size_bytes * r.instances;
    r.size_for_threads = aggregate_capacity(c, plan.threads);
    r.reported_size = c.reported_bytes;
    r.note = c.note;
    d.caches.push_back(std::move(r));
  }
  for (const auto* b : supported_backends(f)) d.backends.push_back(b->name());
  d.vendor = f.vendor;
  d.cpu = f.brand;
  d.family = f.family;
  d.model = f.model;
  d.microarchitecture = uarch.name;
  d.microarchitecture_source = uarch.source;
  d.cores = topo.cores();
  d.logical_cpus = static_cast<int>(topo.allowed_cpus.size());
  d.threads = plan.threads;
  d.pinned = pinned;
  d.clock_hz = Hertz(clock.all_cores_hz);
  d.clock_one_core_hz = Hertz(clock.one_core_hz);
  d.features = f.names();
  d.os_kernel = kernel_version();
  d.tool_version = ROOFLINE_VERSION;
  d.memory_available = available;
  return d;
}

}  // namespace roofline::cpu
