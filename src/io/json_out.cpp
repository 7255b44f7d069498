#include "roofline/json_out.hpp"

#include "roofline/io.hpp"

namespace roofline {
using nlohmann::json;

json diagnosis_to_json(const Diagnosis& d) {
  json levels = json::array();
  for (const auto& l : d.levels)
    levels.push_back({{"level", l.level},
                      {"intensity", l.intensity.value},
                      {"ridge", l.ridge.value},
                      {"attainable", l.attainable.value},
                      {"attainment", l.attainment},
                      {"side", l.memory_side ? "memory" : "compute"}});
  json empty = json::array();
  for (const auto& e : d.empty_roofs_above)
    empty.push_back({{"name", e.name}, {"peak", e.peak.value}, {"gain", e.gain}});
  return {{"verdict", to_string(d.verdict)},
          {"compute_roof", d.compute_roof},
          {"binding_level", d.binding_level},
          {"binding_roof", d.binding_is_memory ? "memory" : "compute"},
          {"performance", d.performance.value},
          {"attainable", d.attainable.value},
          {"attainment", d.attainment},
          {"headroom_factor", d.headroom.factor},
          {"headroom_decades", d.headroom.decades},
          {"touching", d.touching},
          {"levels", levels},
          {"empty_roofs_above", empty},
          {"title", d.title},
          {"prescription", d.prescription},
          {"causes", d.causes},
          {"notes", d.notes}};
}

json analysis_to_json(const Point& p, const Diagnosis& d, const RoofSet& roofs) {
  json j = point_to_json(p);
  j["performance"] = d.performance.value;
  j["intensity"] = d.levels.empty() ? 0.0 : d.levels.front().intensity.value;
  j["machine"] = roofs.name;
  j["units"] = {{"work", roofs.units.work},
                {"traffic", roofs.units.traffic},
                {"performance", roofs.units.work_rate()},
                {"intensity", roofs.units.intensity()}};
  j["diagnosis"] = diagnosis_to_json(d);
  return j;
}

json kernel_count_to_json(const KernelCount& k) {
  return {{"kernel", k.kernel},
          {"work", k.work.value},
          {"traffic", k.traffic.value},
          {"traffic_write_allocate", k.traffic_write_allocate.value},
          {"intensity", k.traffic.value > 0 ? k.work.value / k.traffic.value : 0.0},
          {"blas_level", k.blas_level},
          {"work_formula", k.work_formula},
          {"traffic_formula", k.traffic_formula},
          {"work_unit", k.integer ? "OP" : "FLOP"},
          {"note", k.note}};
}

json comparison_to_json(const Comparison& c) {
  json machines = json::array();
  for (size_t i = 0; i < c.machines.size(); ++i) {
    const auto& m = c.machines[i];
    machines.push_back({{"machine", m.machine},
                        {"compute_roof", m.compute_roof},
                        {"memory_level", m.memory_level},
                        {"peak", m.peak.value},
                        {"bandwidth", m.bandwidth.value},
                        {"ridge", m.ridge.value},
                        {"attainable", m.attainable.value},
                        {"side", m.memory_side ? "memory" : "compute"},
                        {"ratio", c.ratios[i]},
                        {"regime", to_string(c.regimes[i])}});
  }
  return {{"intensity", c.intensity.value}, {"machines", machines}};
}

}  // namespace roofline
