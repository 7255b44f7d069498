// Roofs and points as data: JSON (schema "roofline.report") and CSV, from the same chart model
// the pictures use, so every number a chart shows is also available to scripts.
#include <string>

#include "report/chart.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"

namespace roofline {
namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string csv_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

nlohmann::json render_json(const ReportInput& in) {
  const report::Chart ch = report::build_chart(in, 800, 480);
  const RoofSet& rs = in.machines.front().roofs;
  nlohmann::json j;
  j["schema"] = "roofline.report";
  j["version"] = 1;
  j["title"] = in.title;
  j["units"] = {{"work", ch.units.work},
                {"traffic", ch.units.traffic},
                {"performance", ch.units.work_rate()},
                {"intensity", ch.units.intensity()}};
  j["axes"] = {{"x", ch.x_title}, {"y", ch.y_title}};
  j["machines"] = nlohmann::json::array();
  for (const auto& m : in.machines) j["machines"].push_back(machine_to_json(m));
  j["default_roofs"] = {{"compute", ch.default_compute->name},
                        {"memory", ch.default_memory->level}};
  j["ridges"] = nlohmann::json::array();
  for (const auto& r : ch.ridges)
    j["ridges"].push_back({{"compute_roof", r.c->name},
                           {"memory_level", r.m->level},
                           {"intensity", r.intensity},
                           {"peak", r.peak},
                           {"primary", r.primary}});
  j["points"] = nlohmann::json::array();
  for (size_t i = 0; i < in.points.size(); ++i)
    j["points"].push_back(analysis_to_json(in.points[i], ch.diagnoses[i], rs));
  if (ch.workload) j["workload"] = comparison_to_json(*ch.workload);
  j["no_overlap_curve"] = in.no_overlap_curve;
  return j;
}

std::string render_csv(const ReportInput& in) {
  const report::Chart ch = report::build_chart(in, 800, 480);
  std::string out =
      "record,machine,name,level,precision,provenance,value,unit,theoretical,"
      "measured_over_theoretical,intensity,performance,attainable,attainment,verdict,"
      "binding_roof,compute_roof,work,traffic,time,source\n";
  auto row = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_field(cells[i]);
    out += "\n";
  };
  for (const auto& m : in.machines) {
    const RoofSet& s = m.roofs;
    for (const auto& c : s.compute) {
      const UnitSystem u = report::roof_units(s, c);
      row({"compute_roof",
           s.name,
           c.name,
           "",
           c.precision,
           to_string(c.provenance),
           csv_number(c.peak.value),
           u.work_rate(),
           c.theoretical ? csv_number(c.theoretical->value) : "",
           c.theoretical ? csv_number(c.peak / *c.theoretical) : "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           c.source});
    }
    for (const auto& r : s.memory)
      row({"memory_roof",
           s.name,
           r.level,
           r.level,
           "",
           to_string(r.provenance),
           csv_number(r.bandwidth.value),
           s.units.traffic_rate(),
           r.theoretical ? csv_number(r.theoretical->value) : "",
           r.theoretical ? csv_number(r.bandwidth / *r.theoretical) : "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           "",
           r.source});
  }
  const std::string machine = in.machines.front().roofs.name;
  for (size_t i = 0; i < in.points.size(); ++i) {
    const Point& p = in.points[i];
    const Diagnosis& d = ch.diagnoses[i];
    // One row per memory level: value = P (the point's performance); W, Q at that level and T.
    for (const auto& l : d.levels) {
      double q = 0;
      for (const auto& t : p.traffic)  // a point's only traffic may leave its level unnamed
        if (t.level == l.level || (p.traffic.size() == 1 && t.level.empty())) q = t.bytes.value;
      row({"point",
           machine,
           p.name,
           l.level,
           p.precision,
           "",
           csv_number(d.performance.value),
           ch.units.work_rate(),
           "",
           "",
           csv_number(l.intensity.value),
           csv_number(d.performance.value),
           csv_number(l.attainable.value),
           csv_number(l.attainment),
           to_string(d.verdict),
           l.level == d.binding_level ? (d.binding_is_memory ? "memory" : "compute") : "",
           d.compute_roof,
           csv_number(p.work.value),
           csv_number(q),
           csv_number(p.time.value),
           p.source});
    }
  }
  return out;
}

}  // namespace roofline
