#include "roofline/json_out.hpp"

#include <cmath>
#include <cstdint>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void release_json(nlohmann::json& j) noexcept {
  if (!j.is_array() && !j.is_object()) return;
  for (auto& child : j) release_json(child);
  j.clear();  // each child now empty or a scalar: destroyed without allocating
}

namespace {
/// `text` (a value as json_text writes it) as the value of a member `depth` levels in: each line
/// after the first indented by two spaces a level, as nlohmann indents a nested value.
void append_nested(std::string& out, const std::string& text, int depth) {
  const std::string pad(static_cast<std::size_t>(2 * depth), ' ');
  for (char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
}

/// `"key": [...]`, the array written element by element (one element in memory at a time).
void append_array(std::string& out, const std::string& key, const JsonElement& element) {
  out += "\"" + key + "\": [";
  nlohmann::json e;
  std::size_t i = 0;
  for (; element(i, e); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    append_nested(out, json_text(e), 2);
  }
  release_json(e);
  out += i == 0 ? "]" : "\n  ]";
}
}  // namespace

std::string json_text_with_arrays(const nlohmann::json& head,
                                  const std::vector<std::pair<std::string, JsonElement>>& arrays,
                                  ArrayPlace place) {
  std::string out = "{";
  bool first = true;
  const auto next_member = [&] {
    out += first ? "\n  " : ",\n  ";
    first = false;
  };
  auto array = arrays.begin();
  for (auto it = head.begin(); it != head.end(); ++it) {
    for (; place == ArrayPlace::in_key_order && array != arrays.end() && array->first < it.key();
         ++array) {
      next_member();
      append_array(out, array->first, array->second);
    }
    next_member();
    out += json_text(nlohmann::json(it.key())) + ": ";
    append_nested(out, json_text(it.value()), 1);
  }
  for (; array != arrays.end(); ++array) {
    next_member();
    append_array(out, array->first, array->second);
  }
  return out + "\n}\n";
}

namespace {
/// A key as one reference token of a JSON pointer: '~' is written "~0" and '/' "~1" (RFC 6901 §3).
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::optional<NonFiniteNumber> non_finite_under(const nlohmann::json& j, const std::string& at) {
  if (j.is_number_float() && !std::isfinite(j.get<double>()))
    return NonFiniteNumber{at, j.get<double>()};
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (auto found = non_finite_under(it.value(), at + "/" + pointer_token(it.key())))
        return found;
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i)
      if (auto found = non_finite_under(j[i], at + "/" + std::to_string(i))) return found;
  }
  return std::nullopt;
}
}  // namespace

std::optional<NonFiniteNumber> first_non_finite(const nlohmann::json& document) {
  return non_finite_under(document, "");
}

void refuse_non_finite(const nlohmann::json& document, const std::string& what,
                       const std::string& at) {
  const auto found = first_non_finite(document);
  if (!found) return;
  const std::string pointer = at + found->pointer;
  const std::string where = pointer.empty() ? "the result" : terminal_safe(pointer);
  throw InputError(what + ": " + where + " would be " + format_number(found->value) +
                   ": the roofs or options are beyond what can be computed");
}
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

json result_units_to_json(const UnitSystem& u) {
  return {{"work", u.work},
          {"traffic", u.traffic},
          {"performance", u.work_rate()},
          {"intensity", u.intensity()}};
}

json left_out_to_json(const PointLeftOut& p, bool flagged) {
  json j = {{"name", p.name}, {"reason", p.reason}, {"detail", p.detail}};
  if (flagged) j["not_drawn"] = true;
  if (p.bandwidth_only) {
    // A bandwidth run (W = 0): its Q and T, as its document gives them.
    j["bandwidth_only"] = true;
    json traffic = json::array();
    for (const auto& t : p.traffic)
      traffic.push_back({{"level", t.level}, {"bytes", t.bytes.value}});
    j["traffic"] = traffic;
    j["time"] = p.time > 0 ? json(p.time) : json(nullptr);
  }
  return j;
}

json analysis_to_json(const Point& p, const Diagnosis& d, const RoofSet& roofs) {
  json j = point_to_json(p);
  // Traffic at no named level was judged at a level the diagnosis names: written so, as every
  // output of the analysis (level "" could not be read back; `point --json`, Python's to_dict).
  for (size_t i = 0; i < p.traffic.size() && i < d.levels.size(); ++i)
    if (p.traffic[i].level.empty()) j["traffic"][i]["level"] = d.levels[i].level;
  j["performance"] = d.performance.value;
  j["intensity"] = binding_intensity(d).value;
  j["machine"] = roofs.name;
  // In the units of the roof it was judged against: OP for an integer roof.
  j["units"] = result_units_to_json(judged_units(roofs, d));
  j["diagnosis"] = diagnosis_to_json(d);
  return j;
}

json analyses_to_json(const std::vector<Point>& points, const RoofSet& roofs) {
  json out = json::array();
  for (const auto& p : points) out.push_back(analysis_to_json(p, diagnose(p, roofs), roofs));
  return out;
}

json kernel_catalogue_to_json(const std::vector<KernelSpec>& kernels) {
  json j = json::array();
  for (const auto& s : kernels)
    j.push_back({{"name", s.name},
                 {"aliases", s.aliases},
                 {"params", s.params},
                 {"default_dtype", s.default_dtype},
                 {"description", s.description}});
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

json kernel_on_roofs_to_json(const KernelOnRoofs& k, const std::string& machine) {
  return {{"name", machine},
          {"compute_roof", k.compute_roof},
          {"memory_level", k.memory_level},
          {"ridge", k.ridge.value},
          {"bound", k.at_ridge       ? "both"
                    : k.memory_bound ? "memory"
                                     : "compute"},
          {"attainable", k.attainable.value},
          {"time_bound", k.time_bound.value},
          {"time_no_overlap", k.time_no_overlap.value}};
}

json kernel_result_to_json(const KernelCount& k, const std::string& dtype,
                           const std::map<std::string, double>& params,
                           const std::optional<KernelOnMachine>& placed) {
  json j = kernel_count_to_json(k);
  j["dtype"] = dtype;
  j["params"] = params;
  if (placed) {
    j["machine"] = kernel_on_roofs_to_json(placed->on, placed->machine);
    if (!placed->note.empty()) j["machine"]["note"] = placed->note;
  }
  return j;
}

json comparison_to_json(const Comparison& c, const std::string& point) {
  json machines = json::array();
  for (size_t i = 0; i < c.machines.size(); ++i) {
    const auto& m = c.machines[i];
    machines.push_back({{"machine", m.machine},
                        {"compute_roof", m.compute_roof},
                        {"memory_level", m.memory_level},
                        {"units", result_units_to_json(m.units)},
                        {"peak", m.peak.value},
                        {"bandwidth", m.bandwidth.value},
                        {"ridge", m.ridge.value},
                        {"attainable", m.attainable.value},
                        {"side", m.memory_side ? "memory" : "compute"},
                        {"ratio", c.ratios[i]},
                        {"regime", to_string(c.regimes[i])}});
  }
  // What was asked for; null where nothing was and each machine's default roof was used (each
  // machine's compute_roof and memory_level say which).
  const auto asked = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  json j = {{"intensity", c.intensity.value},
            {"machines", machines},
            {"precision", asked(c.precision)},
            {"level", asked(c.level)}};
  if (const std::string note = mixed_work_note(c); !note.empty()) j["note"] = note;
  if (!point.empty()) j["point"] = point;
  return j;
}

json hardware_list_to_json(const std::vector<HardwareSummary>& shown) {
  json out = json::array();
  for (const auto& e : shown) {
    const RoofSet& r = e.machine.roofs;
    json row = {{"name", e.name}, {"display_name", e.display_name}, {"vendor", e.vendor},
                {"kind", e.kind}, {"aliases", e.aliases},           {"path", e.path.string()}};
    row["release_year"] = e.release_year ? json(*e.release_year) : json(nullptr);
    row["memory_size"] = e.memory_bytes ? json(*e.memory_bytes) : json(nullptr);
    // A whole number of watts as the catalogue writes it (700, not 700.0).
    if (const auto& w = e.facts.power.watts)
      row["power_w"] =
          *w == std::floor(*w) && *w < 1e15 ? json(static_cast<std::int64_t>(*w)) : json(*w);
    else
      row["power_w"] = nullptr;
    if (!r.compute.empty()) {
      const ComputeRoof& c = r.select_compute("");
      row["default_compute"] = {{"name", c.name}, {"peak", c.peak.value}};
    }
    if (const MemoryRoof* m = r.default_memory_roof())
      row["default_memory"] = {{"level", m->level}, {"bandwidth", m->bandwidth.value}};
    out.push_back(std::move(row));
  }
  return out;
}

json ridge_to_json(const RidgePoint& p) {
  return {{"label", p.label},
          {"compute_roof", p.compute_roof},
          {"peak", p.peak.value},
          {"memory_level", p.memory_level},
          {"bandwidth", p.bandwidth.value},
          {"ridge", p.ridge.value},
          {"ridge_unit", p.units.intensity()}};
}

json hardware_show_to_json(const HardwareSummary& s, const std::vector<RidgePoint>& ridges) {
  json out = {{"name", s.name}, {"machine", machine_to_json(s.machine)}};
  json rj = json::array();
  for (const auto& p : ridges) rj.push_back(ridge_to_json(p));
  out["ridges"] = std::move(rj);
  return out;
}

json ridge_rows_to_json(const std::vector<RidgeRow>& rows,
                        const std::vector<PrecisionGroup>& groups) {
  json out = json::array();
  for (const auto& row : rows) {
    json rj = {
        {"name", row.device->name}, {"vendor", row.device->vendor}, {"kind", row.device->kind}};
    rj["release_year"] = row.device->release_year ? json(*row.device->release_year) : json(nullptr);
    json rs = json::object();
    for (size_t g = 0; g < groups.size(); ++g)
      rs[groups[g].label] = row.ridges[g] ? ridge_to_json(*row.ridges[g]) : json(nullptr);
    rj["ridges"] = std::move(rs);
    out.push_back(std::move(rj));
  }
  return out;
}

}  // namespace roofline
