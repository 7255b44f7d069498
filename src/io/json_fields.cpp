#include "io/json_fields.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::io {

void fail(const Where& w, const std::string& why) {
  throw InputError(w.str() + ": " + why);
}

namespace {
std::string shown(const nlohmann::json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}
}  // namespace

const nlohmann::json& require(const nlohmann::json& obj, const std::string& key, const Where& w) {
  if (!obj.is_object()) fail(w, "expected an object (got " + shown(obj) + ")");
  auto it = obj.find(key);
  if (it == obj.end()) fail(w / key, "missing field");
  return *it;
}

std::string get_string(const nlohmann::json& obj, const std::string& key, const Where& w,
                       std::optional<std::string> fallback) {
  if (!obj.is_object()) fail(w, "expected an object (got " + shown(obj) + ")");
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (fallback) return *fallback;
    fail(w / key, "missing field");
  }
  if (!it->is_string()) fail(w / key, "expected a string (got " + shown(*it) + ")");
  return it->get<std::string>();
}

std::optional<double> get_optional_quantity(const nlohmann::json& obj, const std::string& key,
                                            Dimension dim, const Where& w, bool positive) {
  if (!obj.is_object()) fail(w, "expected an object (got " + shown(obj) + ")");
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  const Where at = w / key;
  double v = 0;
  if (it->is_number()) {
    v = it->get<double>();
  } else if (it->is_string()) {
    try {
      v = parse_quantity(it->get<std::string>(), dim, at.str());
    } catch (const InputError& e) {
      throw InputError(e.what());
    }
  } else {
    fail(at, "expected " + dimension_name(dim) + " as a number or a string with units (got " +
                 shown(*it) + ")");
  }
  if (!std::isfinite(v)) fail(at, "must be finite (got " + shown(*it) + ")");
  if (positive && v <= 0) fail(at, "must be > 0 (got " + shown(*it) + ")");
  if (!positive && v < 0) fail(at, "must be ≥ 0 (got " + shown(*it) + ")");
  return v;
}

double get_quantity(const nlohmann::json& obj, const std::string& key, Dimension dim,
                    const Where& w, bool positive) {
  auto v = get_optional_quantity(obj, key, dim, w, positive);
  if (!v) fail(w / key, "missing field (" + dimension_name(dim) + ")");
  return *v;
}

bool get_bool(const nlohmann::json& obj, const std::string& key, const Where& w, bool fallback) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) fail(w / key, "expected true or false (got " + shown(*it) + ")");
  return it->get<bool>();
}

void check_schema(const nlohmann::json& j, const char* schema, int version, const Where& w) {
  if (!j.is_object()) fail(w, "expected a JSON object at the top level");
  // The output of `roofline point --json` (one analysed point) is no document: say what it is.
  if (!j.contains("schema") && j.contains("diagnosis") && j.contains("work"))
    fail(w / "schema",
         "missing field: this is one analysed point (`roofline point --json`), not a \"" +
             std::string(schema) +
             "\" document (docs/schema.md; `roofline point --points FILE` places a points file)");
  const std::string s = get_string(j, "schema", w);
  if (s != schema)
    fail(w / "schema", "expected \"" + std::string(schema) + "\" (got \"" + s + "\")");
  const auto& v = require(j, "version", w);
  if (!v.is_number_integer()) fail(w / "version", "expected an integer (got " + shown(v) + ")");
  if (v.get<long long>() != version)
    fail(w / "version", "unsupported version " + shown(v) + " (this build reads version " +
                            std::to_string(version) + ")");
}

void refuse_misspelt_fields(const nlohmann::json& obj, const Where& w,
                            const std::vector<std::string>& known, const std::string& consequence) {
  if (!obj.is_object()) return;
  for (const auto& [key, _] : obj.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    const std::string folded = lower(key);
    for (const std::string& k : known) {
      // "noise" (check's output) is no "note"; "Run" is "run"; a name of three letters or
      // fewer ("min", "run") is matched only by case ("mins", "runs" are other fields).
      const size_t edits = k.size() >= 7 ? 2u : 1u;
      const bool near = k.size() >= 4 && key.size() >= 4 && edit_distance(folded, k) <= edits;
      // Beside the right field a longer name is another field ("times" beside "time", "notes"
      // beside "note"); a letter left out, changed or swapped ("precison") is that one misspelt.
      const bool another = obj.contains(k) && key.size() > k.size();
      if (folded == k || (near && !another))
        fail(w / terminal_safe(key), "unknown field; did you mean '" + k + "'? (" + consequence +
                                         (obj.contains(k) ? "; both are given" : "") + ")");
    }
  }
}

}  // namespace roofline::io
