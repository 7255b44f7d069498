// Roofs and points as data: JSON (schema "roofline.report") and CSV, from the same chart model
// the pictures use, so every number a chart shows is also available to scripts.
#include <map>
#include <set>
#include <string>

#include "report/chart.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

nlohmann::json render_json(const ReportInput& in) {
  const report::Chart ch = report::build_chart(in, 800, 480);
  const RoofSet& rs = in.machines.front().roofs;
  nlohmann::json j;
  j["schema"] = "roofline.report";
  j["version"] = 2;  // 2: `ridges` are the drawn marks with their pairs (1: every roof pair)
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
  // The ridge marks the chart draws, each with every roof pair that meets there (roofs of one
  // height share a mark), so a ridge is found by any of its roofs' names.
  for (const auto& r : ch.ridges) {
    if (!r.shown) continue;
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& [c, m] : r.shown_pairs)
      pairs.push_back({{"compute_roof", c->name},
                       {"memory_level", m->level},
                       {"intensity_unit", report::roof_units(rs, *c).intensity()}});
    j["ridges"].push_back({{"compute_roof", r.c->name},
                           {"memory_level", r.m->level},
                           {"intensity", r.intensity},
                           {"intensity_unit", report::roof_units(rs, *r.c).intensity()},
                           {"peak", r.peak},
                           {"primary", r.primary},
                           {"pairs", pairs}});
  }
  j["points"] = nlohmann::json::array();
  for (size_t i = 0; i < in.points.size(); ++i)
    j["points"].push_back(analysis_to_json(in.points[i], ch.diagnoses[i], rs));
  // The points given that the chart leaves out, with why (ReportInput::not_drawn): only when
  // there are any, so a chart of every point keeps the document it had.
  if (!in.not_drawn.empty()) {
    j["not_drawn"] = nlohmann::json::array();
    for (const auto& p : in.not_drawn) j["not_drawn"].push_back(left_out_to_json(p));
  }
  // What the chart's numbers assume that does not hold, and which points' configurations do
  // not fit in memory (ReportInput::warnings, does_not_fit): only when there are any.
  if (!in.warnings.empty()) j["warnings"] = in.warnings;
  for (const auto& [k, figures] : in.does_not_fit)
    if (k < in.points.size()) j["points"][k]["does_not_fit"] = figures;
  if (ch.workload) j["workload"] = comparison_to_json(*ch.workload);
  j["no_overlap_curve"] = in.no_overlap_curve;
  return j;
}

namespace {
/// A cell of render_csv's column: the columns of numbers hold csv_number's text ("-1.5e+09",
/// read as that number); every other cell is text, csv_cell's, so a name "-2e5" or "+1" gets
/// its leading quote as any text starting with a sign does.
std::string report_csv_cell(const std::string& column, const std::string& value) {
  static const std::set<std::string> numbers = {
      "value",      "theoretical", "measured_over_theoretical",
      "intensity",  "performance", "attainable",
      "attainment", "work",        "traffic",
      "time",       "spread"};
  return numbers.count(column) != 0 ? value : csv_cell(value);
}

/// A measured roof's spread (the noise policy's: Statistics::shown_spread) and its flag.
void spread_cells(const std::optional<Statistics>& s, std::map<std::string, std::string>& r) {
  if (!s) return;
  r["spread"] = csv_number(s->shown_spread());
  r["noisy"] = s->noisy ? "true" : "false";
}
}  // namespace

std::string render_csv(const ReportInput& in) {
  const report::Chart ch = report::build_chart(in, 800, 480);
  static const std::vector<std::string> columns = {
      "record",       "machine",      "name",       "level",       "precision",
      "provenance",   "value",        "unit",       "theoretical", "measured_over_theoretical",
      "intensity",    "performance",  "attainable", "attainment",  "verdict",
      "binding_roof", "compute_roof", "work",       "traffic",     "time",
      "source",       "spread",       "noisy",      "drawn",       "reason",
      "detail"};
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
  out += "\n";
  // One row: the named cells, every other column empty.
  auto row = [&](const std::map<std::string, std::string>& cells) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const auto it = cells.find(columns[i]);
      out += (i ? "," : "") +
             (it == cells.end() ? std::string() : report_csv_cell(columns[i], it->second));
    }
    out += "\n";
  };
  for (const auto& m : in.machines) {
    const RoofSet& s = m.roofs;
    for (const auto& c : s.compute) {
      std::map<std::string, std::string> r = {{"record", "compute_roof"},
                                              {"machine", s.name},
                                              {"name", c.name},
                                              {"precision", c.precision},
                                              {"provenance", to_string(c.provenance)},
                                              {"value", csv_number(c.peak.value)},
                                              {"unit", report::roof_units(s, c).work_rate()},
                                              {"source", c.source}};
      if (c.theoretical) {
        r["theoretical"] = csv_number(c.theoretical->value);
        r["measured_over_theoretical"] = csv_number(c.peak / *c.theoretical);
      }
      spread_cells(c.stats, r);
      row(r);
    }
    for (const auto& b : s.memory) {
      std::map<std::string, std::string> r = {{"record", "memory_roof"},
                                              {"machine", s.name},
                                              {"name", b.level},
                                              {"level", b.level},
                                              {"provenance", to_string(b.provenance)},
                                              {"value", csv_number(b.bandwidth.value)},
                                              {"unit", s.units.traffic_rate()},
                                              {"source", b.source}};
      if (b.theoretical) {
        r["theoretical"] = csv_number(b.theoretical->value);
        r["measured_over_theoretical"] = csv_number(b.bandwidth / *b.theoretical);
      }
      spread_cells(b.stats, r);
      row(r);
    }
  }
  const std::string machine = in.machines.front().roofs.name;
  for (size_t i = 0; i < in.points.size(); ++i) {
    const Point& p = in.points[i];
    const Diagnosis& d = ch.diagnoses[i];
    // One row per memory level: value = P (the point's performance); W, Q at that level and T.
    for (const auto& l : d.levels) {
      row({{"record", "point"},
           {"machine", machine},
           {"name", p.name},
           {"level", l.level},
           {"precision", p.precision},
           {"value", csv_number(d.performance.value)},
           {"unit", ch.point_units[i].work_rate()},
           {"intensity", csv_number(l.intensity.value)},
           {"performance", csv_number(d.performance.value)},
           {"attainable", csv_number(l.attainable.value)},
           {"attainment", csv_number(l.attainment)},
           {"verdict", to_string(d.verdict)},
           {"binding_roof",
            l.level == d.binding_level ? (d.binding_is_memory ? "memory" : "compute") : ""},
           {"compute_roof", d.compute_roof},
           {"work", csv_number(p.work.value)},
           {"traffic", csv_number(l.traffic.value)},
           {"time", csv_number(p.time.value)},
           {"source", p.source},
           {"drawn", "true"}});
    }
  }
  // The points given that the chart leaves out (ReportInput::not_drawn), one row each with why,
  // so a spreadsheet counts every point given; the columns added last keep the others' places.
  for (const auto& p : in.not_drawn)
    row({{"record", "point"},
         {"machine", machine},
         {"name", p.name},
         {"drawn", "false"},
         {"reason", p.reason},
         {"detail", p.detail}});
  return out;
}

}  // namespace roofline
