// The JSON of a CPU measurement's description and run record (roofline/cpu_record.hpp), the keys
// docs/schema.md lists.
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

namespace roofline {

using nlohmann::json;

namespace {

json seconds_by_name(const std::vector<std::pair<std::string, double>>& parts) {
  json j = json::object();
  for (const auto& [name, seconds] : parts) j[name] = seconds;
  return j;
}

}  // namespace

json cpu_description_to_json(const CpuDescription& d) {
  json caches = json::array();
  for (const CpuCacheRecord& c : d.caches) {
    json j = {{"level", c.level},
              {"size", c.size_bytes},
              {"cores_sharing", c.cores_sharing},
              {"line", c.line_bytes},
              {"size_per_core", c.size_per_core},
              {"instances", c.instances},
              {"size_machine", c.size_machine},
              {"size_for_threads", c.size_for_threads}};
    if (!c.note.empty()) {
      j["reported_size"] = c.reported_size;
      j["note"] = c.note;
    }
    caches.push_back(std::move(j));
  }
  return {{"kind", "cpu"},
          {"vendor", d.vendor},
          {"cpu", d.cpu},
          {"family", d.family},
          {"model", d.model},
          {"microarchitecture", d.microarchitecture},
          {"microarchitecture_source", d.microarchitecture_source},
          {"cores", d.cores},
          {"logical_cpus", d.logical_cpus},
          {"threads", d.threads},
          {"pinned", d.pinned},
          {"clock_hz", d.clock_hz.value},
          {"clock_one_core_hz", d.clock_one_core_hz.value},
          {"caches", std::move(caches)},
          {"features", d.features},
          {"backends", d.backends},
          {"os_kernel", d.os_kernel},
          {"tool_version", d.tool_version},
          {"memory_available", d.memory_available}};
}

json cpu_run_to_json(const CpuRunRecord& r) {
  json j = {{"tool", r.tool},
            {"tool_version", r.tool_version},
            {"quick", r.quick},
            {"probe", r.probe},
            {"threads", r.threads},
            {"cpus", r.cpus},
            {"topology_source", r.topology_source},
            {"pinned", r.pinned},
            {"sample_seconds", r.sample_seconds}};
  j["clock"] = {{"all_cores_hz", r.clock.all_cores_hz.value},
                {"one_core_hz", r.clock.one_core_hz.value},
                {"method", r.clock.method},
                {"stats", statistics_to_json(r.clock.stats)}};
  if (r.sweep) {
    json points = json::array(), plateaus = json::array();
    for (const auto& p : r.sweep->points) points.push_back({{"bytes", p.bytes}, {"rate", p.rate}});
    for (const auto& p : r.sweep->plateaus)
      plateaus.push_back(
          {{"min_bytes", p.min_bytes}, {"max_bytes", p.max_bytes}, {"rate", p.rate}});
    j["sweep"] = {{"kernel", r.sweep->kernel},
                  {"convention", r.sweep->convention},
                  {"points", std::move(points)},
                  {"plateaus", std::move(plateaus)}};
  }
  const PowerAtRestRecord& e = r.energy;
  if (e.available) {
    j["energy"] = {
        {"available", true}, {"source", e.source}, {"zones", e.zones}, {"method", e.method}};
    j["energy"]["idle_power_w"] = e.idle_power_w ? json(*e.idle_power_w) : json(nullptr);
  } else {
    j["energy"] = {{"available", false}, {"why", e.why}};
  }
  j["phase_seconds"] = seconds_by_name(r.phase_seconds);
  if (r.memory_part_seconds) j["memory_part_seconds"] = seconds_by_name(*r.memory_part_seconds);
  return j;
}

}  // namespace roofline
