// The document of `roofline run` in JSON (docs/schema.md): a points document whose points carry
// their run and diagnosis, and a `run` section saying how the runs were made.
#include <map>
#include <string>
#include <vector>

#include "roofline/documents.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/statistics.hpp"

namespace roofline {

using nlohmann::json;

json run_record_to_json(const RunRecord& r) {
  json traffic = json::array();  // an array keeps the levels' order
  for (const auto& t : r.traffic) traffic.push_back({{"level", t.level}, {"bytes", t.bytes.value}});
  return {{"kernel", r.kernel},
          {"level", r.level},
          {"dtype", r.dtype},
          {"variant", r.variant},
          {"params", r.params},
          {"working_set", r.working_set_bytes},
          {"work", r.count.work.value},
          {"traffic_compulsory", r.count.traffic.value},
          {"traffic_write_allocate", r.count.traffic_write_allocate.value},
          {"work_formula", r.count.work_formula},
          {"traffic_formula", r.count.traffic_formula},
          {"traffic", traffic},
          {"times", r.times},
          {"sustained", r.sustained},
          {"median", r.median},
          {"min", r.min},
          {"max", r.max},
          {"q1", r.q1},
          {"q3", r.q3},
          {"spread", r.spread()},
          // Every repetition's rate, a preempted one too: (W/min − W/max)/(W/median).
          {"spread_all", rate_spread_from_summary(r.min, r.median, r.max).value_or(0)},
          {"noisy", r.noisy},
          {"seconds_per_repetition", r.seconds_per_repetition},
          {"calls_per_repetition", r.calls_per_repetition},
          {"threads", r.threads},
          {"check", r.check},
          {"passed", r.passed},
          {"precision", r.precision},
          {"note", r.note}};
}

const std::vector<std::string>& run_record_fields() {
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> out;
    const json written = run_record_to_json(RunRecord{});
    for (const auto& [key, _] : written.items()) out.push_back(key);
    return out;
  }();
  return fields;
}

RunRecord run_record_from_json(const json& j) {
  RunRecord r;
  r.kernel = j.at("kernel").get<std::string>();
  r.level = j.at("level").get<std::string>();
  r.dtype = j.value("dtype", "");
  r.variant = j.value("variant", "");
  r.params = j.value("params", std::map<std::string, double>{});
  r.working_set_bytes = j.value("working_set", 0.0);
  r.count.kernel = r.kernel;
  r.count.work = Work(j.at("work").get<double>());
  r.count.traffic = Bytes(j.at("traffic_compulsory").get<double>());
  r.count.traffic_write_allocate = Bytes(j.value("traffic_write_allocate", r.count.traffic.value));
  r.count.work_formula = j.value("work_formula", "");
  r.count.traffic_formula = j.value("traffic_formula", "");
  for (const auto& t : j.at("traffic"))
    r.traffic.push_back({t.at("level").get<std::string>(), Bytes(t.at("bytes").get<double>())});
  r.times = j.at("times").get<std::vector<double>>();
  r.median = j.at("median").get<double>();
  r.sustained = j.value("sustained", r.median);
  r.min = j.at("min").get<double>();
  r.max = j.at("max").get<double>();
  r.q1 = j.value("q1", 0.0);
  r.q3 = j.value("q3", 0.0);
  r.noisy = j.value("noisy", false);
  r.seconds_per_repetition = j.value("seconds_per_repetition", 0.0);
  r.calls_per_repetition = j.value("calls_per_repetition", 1);
  r.threads = j.value("threads", 1);
  r.check = j.value("check", "passed");
  r.passed = j.value("passed", true);
  r.precision = j.value("precision", "");
  r.note = j.value("note", "");
  return r;
}

json run_document_to_json(const RunDocument& d) {
  PointsDocument doc;
  doc.machine = d.machine;
  for (const auto& p : d.points) doc.points.push_back(p.point);
  json j = points_to_json(doc);
  for (size_t i = 0; i < d.points.size(); ++i) {
    const auto& p = d.points[i];
    auto& pj = j["points"][i];
    pj["run"] = run_record_to_json(p.run);
    if (p.diagnosis)
      pj["diagnosis"] = diagnosis_to_json(*p.diagnosis);
    else
      pj["diagnosis_unavailable"] = p.diagnosis_unavailable;
    if (!p.above_roof_cause.empty()) pj["above_roof_cause"] = p.above_roof_cause;
  }
  j["run"] = {{"threads", d.threads},
              {"quick", d.quick},
              {"blas",
               {{"corename", d.blas.corename},
                {"config", d.blas.config},
                {"best_core", d.blas.best_core},
                {"generic", d.blas.generic},
                {"environment", d.blas.environment}}}};
  json cj = json::array();
  for (const auto& c : d.caches) {
    json e = {{"level", "L" + std::to_string(c.level)},
              {"size", c.size_bytes},
              {"cores_sharing", c.cores_sharing},
              {"size_per_core", c.size_per_core_bytes}};
    if (!c.note.empty()) {
      e["reported_size"] = c.reported_bytes;
      e["note"] = c.note;
    }
    cj.push_back(e);
  }
  j["run"]["caches"] = cj;
  json bw = json::array();
  for (const auto& r : d.bandwidth_only) {
    auto rj = run_record_to_json(r);
    rj["bandwidth"] = r.count.traffic.value / r.sustained;
    bw.push_back(rj);
  }
  j["run"]["bandwidth_only"] = bw;
  j["run"]["mem_available"] = d.mem_available_bytes;
  return j;
}

}  // namespace roofline
