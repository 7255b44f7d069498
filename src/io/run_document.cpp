// The document of `roofline run` in JSON (docs/schema.md): a points document whose points carry
// their run and diagnosis, and a `run` section saying how the runs were made.
#include <climits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/json_fields.hpp"
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

namespace {

std::string record_value_text(const json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

/// A number field; `fallback` when it is absent (a field the record can do without).
double record_number(const json& j, const std::string& key, const io::Where& w,
                     std::optional<double> fallback = std::nullopt) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (fallback) return *fallback;
    io::fail(w / key, "missing field");
  }
  if (!it->is_number()) io::fail(w / key, "expected a number (got " + record_value_text(*it) + ")");
  return it->get<double>();
}

int record_integer(const json& j, const std::string& key, const io::Where& w, int fallback) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_number_integer() || it->get<double>() < INT_MIN || it->get<double>() > INT_MAX)
    io::fail(w / key, "expected an integer (got " + record_value_text(*it) + ")");
  return it->get<int>();
}

const json& record_array(const json& j, const std::string& key, const io::Where& w) {
  const json& a = io::require(j, key, w);
  if (!a.is_array()) io::fail(w / key, "expected an array (got " + record_value_text(a) + ")");
  return a;
}

std::map<std::string, double> record_params(const json& j, const io::Where& w) {
  std::map<std::string, double> params;
  const auto it = j.find("params");
  if (it == j.end()) return params;
  if (!it->is_object())
    io::fail(w / "params", "expected an object (got " + record_value_text(*it) + ")");
  for (const auto& [name, _] : it->items()) params[name] = record_number(*it, name, w / "params");
  return params;
}

RunRecord read_run_record(const json& j, const io::Where& w) {
  if (!j.is_object())
    io::fail(w, "expected a run record, an object (got " + record_value_text(j) + ")");
  RunRecord r;
  r.kernel = io::get_string(j, "kernel", w);
  r.level = io::get_string(j, "level", w);
  r.dtype = io::get_string(j, "dtype", w, "");
  r.variant = io::get_string(j, "variant", w, "");
  r.params = record_params(j, w);
  r.working_set_bytes = record_number(j, "working_set", w, 0.0);
  r.count.kernel = r.kernel;
  r.count.work = Work(record_number(j, "work", w));
  r.count.traffic = Bytes(record_number(j, "traffic_compulsory", w));
  r.count.traffic_write_allocate =
      Bytes(record_number(j, "traffic_write_allocate", w, r.count.traffic.value));
  r.count.work_formula = io::get_string(j, "work_formula", w, "");
  r.count.traffic_formula = io::get_string(j, "traffic_formula", w, "");
  const json& traffic = record_array(j, "traffic", w);
  for (size_t i = 0; i < traffic.size(); ++i) {
    const io::Where t = (w / "traffic")[i];
    r.traffic.push_back(
        {io::get_string(traffic[i], "level", t), Bytes(record_number(traffic[i], "bytes", t))});
  }
  const json& times = record_array(j, "times", w);
  for (size_t i = 0; i < times.size(); ++i) {
    if (!times[i].is_number())
      io::fail((w / "times")[i], "expected a number (got " + record_value_text(times[i]) + ")");
    r.times.push_back(times[i].get<double>());
  }
  r.median = record_number(j, "median", w);
  r.sustained = record_number(j, "sustained", w, r.median);
  r.min = record_number(j, "min", w);
  r.max = record_number(j, "max", w);
  r.q1 = record_number(j, "q1", w, 0.0);
  r.q3 = record_number(j, "q3", w, 0.0);
  r.noisy = io::get_bool(j, "noisy", w, false);
  r.seconds_per_repetition = record_number(j, "seconds_per_repetition", w, 0.0);
  r.calls_per_repetition = record_integer(j, "calls_per_repetition", w, 1);
  r.threads = record_integer(j, "threads", w, 1);
  r.check = io::get_string(j, "check", w, "passed");
  r.passed = io::get_bool(j, "passed", w, true);
  r.precision = io::get_string(j, "precision", w, "");
  r.note = io::get_string(j, "note", w, "");
  return r;
}

}  // namespace

RunRecord run_record_from_json(const json& j, const std::string& origin) {
  return read_run_record(j, io::Where{origin, ""});
}

json run_results_to_json(const RunResultsDocument& d) {
  json results = json::array();
  for (const auto& r : d.results) results.push_back(run_record_to_json(r));
  return {{"blas", {{"corename", d.blas_corename}, {"config", d.blas_config}}},
          {"results", results}};
}

RunResultsDocument run_results_from_json(const json& j, const std::string& origin) {
  const io::Where w{origin, ""};
  if (!j.is_object()) io::fail(w, "expected an object (got " + record_value_text(j) + ")");
  RunResultsDocument d;
  const json& blas = io::require(j, "blas", w);
  d.blas_corename = io::get_string(blas, "corename", w / "blas");
  d.blas_config = io::get_string(blas, "config", w / "blas", "");
  const json& results = record_array(j, "results", w);
  for (size_t i = 0; i < results.size(); ++i)
    d.results.push_back(read_run_record(results[i], (w / "results")[i]));
  return d;
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
