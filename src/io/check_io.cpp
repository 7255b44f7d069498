#include "roofline/check_io.hpp"

#include <cmath>

#include "io/json_fields.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"

namespace roofline {

using io::Where;
using nlohmann::json;

namespace {

double fraction(const json& obj, const std::string& key, const Where& w) {
  const json& v = io::require(obj, key, w);
  if (!v.is_number()) io::fail(w / key, "expected a number in (0, 1] (got " + v.dump() + ")");
  const double x = v.get<double>();
  if (!std::isfinite(x) || x <= 0 || x > 1)
    io::fail(w / key, "expected a number in (0, 1] (got " + v.dump() + ")");
  return x;
}

}  // namespace

CheckConfig check_config_from_json(const json& j, const std::string& origin) {
  const Where top{origin, ""};
  io::check_schema(j, kCheckSchema, kCheckVersion, top);
  for (const auto& [key, _] : j.items())
    if (key != "schema" && key != "version" && key != "min_attainment" && key != "noise" &&
        key != "points")
      io::fail(top / key, "unknown field (expected min_attainment, noise, points)");
  CheckConfig c;
  c.origin = origin;
  if (j.contains("min_attainment")) c.min_attainment = fraction(j, "min_attainment", top);
  if (j.contains("noise")) c.noise = fraction(j, "noise", top);
  if (j.contains("points")) {
    const json& pts = j["points"];
    if (!pts.is_array()) io::fail(top / "points", "expected an array of {name, min_attainment}");
    for (size_t i = 0; i < pts.size(); ++i) {
      const Where w = (top / "points")[i];
      if (!pts[i].is_object()) io::fail(w, "expected {name, min_attainment}");
      AttainmentRule r;
      r.pattern = io::get_string(pts[i], "name", w);
      if (r.pattern.empty()) io::fail(w / "name", "empty name or pattern");
      r.min_attainment = fraction(pts[i], "min_attainment", w);
      c.rules.push_back(std::move(r));
    }
  }
  return c;
}

CheckConfig load_check_config(const std::filesystem::path& path) {
  const std::string origin = path.string();
  return check_config_from_json(parse_json(read_text_file(path), origin), origin);
}

std::vector<std::optional<Spread>> point_spreads(const json& doc, const std::string& origin) {
  std::vector<std::optional<Spread>> out;
  const Where top{origin, ""};
  if (!doc.is_object() || !doc.contains("points") || !doc["points"].is_array()) return out;
  const json& pts = doc["points"];
  for (size_t i = 0; i < pts.size(); ++i) {
    const Where w = (top / "points")[i] / "run";
    if (!pts[i].is_object() || !pts[i].contains("run")) {
      out.emplace_back();
      continue;
    }
    const json& run = pts[i]["run"];
    if (!run.is_object()) io::fail(w, "expected an object");
    if (run.contains("times")) {
      const json& t = run["times"];
      if (!t.is_array()) io::fail(w / "times", "expected an array of seconds");
      std::vector<double> times;
      for (size_t k = 0; k < t.size(); ++k) {
        if (!t[k].is_number() || !(t[k].get<double>() > 0) || !std::isfinite(t[k].get<double>()))
          io::fail((w / "times")[k], "expected seconds > 0 (got " + t[k].dump() + ")");
        times.push_back(t[k].get<double>());
      }
      // One repetition (or none) carries no spread, whatever min/median/max say.
      const auto s = rate_spread_from_times(times);
      if (s)
        out.push_back(Spread{*s, std::to_string(times.size()) + " repetitions"});
      else
        out.emplace_back();
      continue;
    }
    if (run.contains("min") && run.contains("median") && run.contains("max")) {
      const double mn = io::get_quantity(run, "min", Dimension::seconds, w);
      const double md = io::get_quantity(run, "median", Dimension::seconds, w);
      const double mx = io::get_quantity(run, "max", Dimension::seconds, w);
      const auto s = rate_spread_from_summary(mn, md, mx);
      if (!s) io::fail(w, "expected min ≤ median ≤ max");
      out.push_back(Spread{*s, "min/median/max of the run"});
      continue;
    }
    out.emplace_back();
  }
  return out;
}

namespace {
json optional_number(const std::optional<double>& x) {
  return x ? json(*x) : json(nullptr);
}
}  // namespace

json machines_diff_to_json(const RoofSetDiff& d, const MachineDocument& a,
                           const MachineDocument& b) {
  json roofs = json::array();
  for (const auto& c : d.changes)
    roofs.push_back(
        {{"name", c.name},
         {"kind", c.compute ? "compute" : "memory"},
         {"a", c.a},
         {"b", c.b},
         {"ratio", c.ratio},
         {"spread_a", optional_number(c.spread_a)},
         {"spread_b", optional_number(c.spread_b)},
         {"exceeds_spread", c.exceeds_spread ? json(*c.exceeds_spread) : json(nullptr)}});
  json j = {{"schema", "roofline.diff"},
            {"version", 1},
            {"kind", "machines"},
            {"a", {{"name", a.roofs.name}, {"origin", a.origin}}},
            {"b", {{"name", b.roofs.name}, {"origin", b.origin}}},
            {"roofs", roofs},
            {"only_a", d.only_a},
            {"only_b", d.only_b}};
  if (d.ridge_a > 0)
    j["ridge"] = {{"a", d.ridge_a},
                  {"b", d.ridge_b},
                  {"ratio", d.ridge_ratio},
                  {"roofs_a", d.ridge_roofs_a},
                  {"roofs_b", d.ridge_roofs_b}};
  return j;
}

}  // namespace roofline
