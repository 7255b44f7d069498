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

nlohmann::json describe_machine(const Plan& plan, const Topology& topo, const CpuFeatures& f,
                                const Microarchitecture& uarch, const ClockResult& clock,
                                bool pinned, double available) {
  // Caches: the size of one instance as the system reports it, then per core, per machine (all
  // instances over the cores this process may use) and what the team of threads reaches.
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& c : topo.caches) {
    const int sharing = std::max(1, c.cores_sharing);
    const int instances = (std::max(1, topo.cores()) + sharing - 1) / sharing;
    caches.push_back({{"level", c.level},
                      {"size", c.size_bytes},
                      {"cores_sharing", c.cores_sharing},
                      {"line", c.line_bytes},
                      {"size_per_core", c.size_bytes / sharing},
                      {"instances", instances},
                      {"size_machine", c.size_bytes * instances},
                      {"size_for_threads", aggregate_capacity(c, plan.threads)}});
    if (!c.note.empty()) {
      caches.back()["reported_size"] = c.reported_bytes;
      caches.back()["note"] = c.note;
    }
  }
  std::vector<std::string> backend_names;
  for (const auto* b : supported_backends(f)) backend_names.push_back(b->name());
  return {{"kind", "cpu"},
          {"vendor", f.vendor},
          {"cpu", f.brand},
          {"family", f.family},
          {"model", f.model},
          {"microarchitecture", uarch.name},
          {"microarchitecture_source", uarch.source},
          {"cores", topo.cores()},
          {"logical_cpus", static_cast<int>(topo.allowed_cpus.size())},
          {"threads", plan.threads},
          {"pinned", pinned},
          {"clock_hz", clock.all_cores_hz},
          {"clock_one_core_hz", clock.one_core_hz},
          {"caches", caches},
          {"features", f.names()},
          {"backends", backend_names},
          {"os_kernel", kernel_version()},
          {"tool_version", ROOFLINE_VERSION},
          {"memory_available", available}};
}

}  // namespace roofline::cpu
