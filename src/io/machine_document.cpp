// The free-form parts of a machine document (roofline/machine_document.hpp) as JSON: the one
// place their text is parsed and written.
#include <string>
#include <vector>

#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

namespace roofline {

using nlohmann::json;

JsonText to_json_text(const json& j) {
  return JsonText{json_text(j, -1)};
}

json from_json_text(const JsonText& t, const json& fallback) {
  // The text is io's own dump (to_json_text), so it parses; a failure is a bug, not bad input.
  return t.empty() ? fallback : json::parse(t.text);
}

json info_json(const MachineDocument& m) {
  return from_json_text(m.info, json::object());
}

void set_info(MachineDocument& m, const json& info) {
  m.info = info.is_object() && info.empty() ? JsonText{} : to_json_text(info);
}

json section_json(const MachineDocument& m, const std::string& key) {
  const auto it = m.sections.find(key);
  return it == m.sections.end() ? json() : from_json_text(it->second);
}

json sections_json(const MachineDocument& m) {
  json all = json::object();
  for (const auto& [key, text] : m.sections) all[key] = from_json_text(text);
  return all;
}

void set_section(MachineDocument& m, const std::string& key, const json& value) {
  m.sections[key] = to_json_text(value);
}

namespace {
/// A value as one line of text: a string as it is, an array's items joined by ", ".
std::string free_form_value_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : ", ") + free_form_value_text(e);
    return s;
  }
  return json_text(v, -1);
}

InfoEntry free_form_entry(const std::string& key, const json& v) {
  if (v.is_object()) return InfoEntry{key, json_text(v, 2), true};
  return InfoEntry{key, free_form_value_text(v), false};
}
}  // namespace

std::vector<InfoEntry> info_entries(const MachineDocument& m) {
  std::vector<InfoEntry> out;
  const json info = info_json(m);
  for (auto it = info.begin(); it != info.end(); ++it)
    out.push_back(free_form_entry(it.key(), it.value()));
  return out;
}

std::vector<InfoEntry> section_entries(const MachineDocument& m) {
  std::vector<InfoEntry> out;
  for (const auto& [key, text] : m.sections)
    out.push_back(free_form_entry(key, from_json_text(text)));
  return out;
}

}  // namespace roofline
