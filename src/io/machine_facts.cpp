// machine_facts(): the one reader of a machine document's `info` and `measurement` sections
// (include/roofline/machine_facts.hpp). Free-form fields are read leniently (a field of the
// wrong type is absent, as a reader of a document written by another version expects); a link
// latency or domain size that is there but not a positive number is kept as the link's problem,
// an error only where that link is used (llm::link_facts) and in the catalogue checker.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

using nlohmann::json;

std::string text_field(const json& o, const char* key) {
  if (!o.is_object()) return "";
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<double> number_field(const json& o, const char* key) {
  if (!o.is_object()) return std::nullopt;
  auto it = o.find(key);
  if (it == o.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::vector<std::string> names_field(const json& o, const char* key) {
  std::vector<std::string> out;
  auto it = o.find(key);
  if (it == o.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

/// A cache's level as the catalogue writes it ("L2") or a measured machine does (2 → "L2").
std::string cache_level(const json& c) {
  auto it = c.find("level");
  if (it != c.end() && it->is_number_integer()) return "L" + std::to_string(it->get<int>());
  return text_field(c, "level");
}

/// A positive figure: a number (times `scale`) or a string with a unit ("1.5 us").
double positive(const json& v, const std::string& where, const std::string& field, Dimension dim,
                double scale) {
  double x = 0;
  if (v.is_number() && !v.is_boolean()) {
    x = v.get<double>() * scale;
  } else if (v.is_string()) {
    x = parse_quantity(v.get<std::string>(), dim, where + ": " + field);
  } else {
    throw InputError(where + ": " + field + ": must be a number (got " + v.dump() + ")");
  }
  if (!(x > 0) || !std::isfinite(x))
    throw InputError(where + ": " + field + ": must be > 0 (got " + v.dump() + ")");
  return x;
}

/// A number of devices: a whole number ≥ 1, as --domain-size takes it (2.5 devices read as a
/// domain that --tp 4 exceeded).
double devices(const json& v, const std::string& where, const std::string& field) {
  const double x = positive(v, where, field, Dimension::count, 1);
  if (x < 1 || x != std::floor(x))
    throw InputError(where + ": " + field + ": must be a whole number of devices ≥ 1 (got " +
                     v.dump() + ")");
  return x;
}

void read_link_figures(const json& e, const std::string& where, InterconnectFacts& f);

/// The spellings of a link's latency, each with its unit's scale to seconds, and of its domain.
constexpr struct {
  const char* key;
  double scale;
} kLatencyKeys[] = {{"latency", 1}, {"latency_s", 1}, {"latency_us", 1e-6}, {"latency_ns", 1e-9}};
constexpr const char* kDomainKeys[] = {"domain_size", "domain_devices", "max_devices"};

/// The one spelling of a field that `e` gives a value in (null, "no source gives it", beside
/// another spelling's figure is no second value), or nullptr; two values given together are
/// refused naming both, as which was meant cannot be told ("latency": 1e-6 beside
/// "latency_ns": 500).
template <class Keys, class KeyOf>
const char* one_spelling(const json& e, const std::string& where, const Keys& keys, KeyOf key_of) {
  const char* found = nullptr;
  for (const auto& k : keys) {
    if (!e.contains(key_of(k)) || e[key_of(k)].is_null()) continue;
    if (found)
      throw InputError(where + ": " + found + " and " + key_of(k) +
                       " are two spellings of one field: give one");
    found = key_of(k);
  }
  return found;
}

InterconnectFacts interconnect_facts(const json& e, const std::string& origin) {
  InterconnectFacts f;
  f.name = text_field(e, "name");
  f.bandwidth = number_field(e, "bandwidth");
  f.source = text_field(e, "source");
  for (const auto& k : kLatencyKeys) f.lists_latency |= e.contains(k.key);
  f.latency_source = text_field(e, "latency_source");
  // Said inside one warning line: a line break or control character in it is escaped.
  f.caveat = terminal_safe(text_field(e, "caveat"));
  const std::string where = origin + ": info.interconnects[" + f.name + "]";
  try {
    read_link_figures(e, where, f);
  } catch (const InputError& err) {
    f.problem = err.what();
  }
  return f;
}

void read_link_figures(const json& e, const std::string& where, InterconnectFacts& f) {
  const auto latency_key = [](const auto& k) { return k.key; };
  if (const char* key = one_spelling(e, where, kLatencyKeys, latency_key)) {
    const json& v = e[key];
    double scale = 1;
    for (const auto& k : kLatencyKeys)
      if (std::string(k.key) == key) scale = k.scale;
    const double latency = positive(v, where, key, Dimension::seconds, scale);
    // A link's per-message latency is microseconds (NVLink, InfiniBand) to milliseconds (a
    // wide-area link); 1e9 s loaded and put a decode step at 1e11 s.
    if (latency > kMostLinkLatencyS)
      throw InputError(link_latency_beyond(where + ": " + key, latency, v.dump()));
    f.latency = Seconds(latency);
  }
  const auto domain_key = [](const char* k) { return k; };
  if (const char* key = one_spelling(e, where, kDomainKeys, domain_key)) {
    f.domain_size = devices(e[key], where, key);
    f.domain_source = text_field(e, "domain_source");
  }
}

void read_scale_up_domain(const json& info, const std::string& origin, MachineFacts& f) {
  for (const char* k : {"nvlink_domain", "scale_up_domain"}) {
    auto it = info.find(k);
    if (it == info.end() || it->is_null()) continue;
    if (it->is_object()) {
      auto size = it->find("size");
      if (size == it->end())
        throw InputError(origin + ": info." + k + ": an object needs \"size\"");
      f.scale_up_domain = devices(*size, origin + ": info." + k, "size");
      f.scale_up_domain_source = text_field(*it, "source");
    } else {
      f.scale_up_domain = devices(*it, origin + ": info", k);
      f.scale_up_domain_source = text_field(info, "domain_source");
    }
    break;
  }
}

void read_catalogue_facts(const json& info, const std::string& origin, MachineFacts& f) {
  f.display_name = text_field(info, "display_name");
  f.vendor = text_field(info, "vendor");
  f.kind = text_field(info, "kind");
  f.aliases = names_field(info, "aliases");
  f.lists_release_year = info.contains("release_year");
  // Left out when it is no year (`hw check` says so): never a wrapped or made-up one.
  if (auto it = info.find("release_year"); it != info.end()) f.release_year = release_year_of(*it);
  f.release_source = text_field(info, "release_source");
  // "9.0": MAJOR.MINOR, as ncu's CC column and cudaGetDeviceProperties give it; anything else
  // is left out (`hw check` says so), never compared.
  if (const std::string cc = trim(text_field(info, "compute_capability"));
      is_compute_capability(cc))
    f.compute_capability = cc;
  f.compute_capability_source = text_field(info, "compute_capability_source");
  if (auto it = info.find("clock"); it != info.end() && it->is_object()) {
    ClockFacts c;
    c.basis = text_field(*it, "basis");
    c.mhz = number_field(*it, "mhz");
    c.lists_max_turbo = it->contains("max_turbo_mhz");
    c.max_turbo_mhz = number_field(*it, "max_turbo_mhz");
    c.source = text_field(*it, "source");
    f.clock = c;
  }
  // null: not published; otherwise a power > 0, a number of watts or a text with its unit
  // ("400 W"), as every figure of a document may be given (0, -400 or a word were ignored).
  if (auto it = info.find("power_w"); it != info.end()) {
    f.power.listed = true;
    f.power.written = it->dump();
    if (!it->is_null())
      f.power.watts = positive(*it, origin + ": info", "power_w", Dimension::power, 1);
  }
  if (auto it = info.find("power_source"); it != info.end() && it->is_string())
    f.power.source = it->get<std::string>();
  if (auto it = info.find("interconnects"); it != info.end() && it->is_array())
    for (const auto& e : *it)
      if (e.is_object()) f.interconnects.push_back(interconnect_facts(e, origin));
  try {
    read_scale_up_domain(info, origin, f);
  } catch (const InputError& err) {
    f.scale_up_domain_problem = err.what();
  }
  if (auto it = info.find("caches"); it != info.end() && it->is_array())
    for (const auto& c : *it)
      if (auto size = number_field(c, "size"))
        f.caches.push_back({cache_level(c), *size, text_field(c, "source")});
  f.sources = names_field(info, "sources");
  f.unverified = names_field(info, "unverified");
  f.notes = names_field(info, "notes");
  if (auto it = info.find("discrepancies"); it != info.end() && it->is_array())
    for (const auto& d : *it) {
      if (!d.is_object()) continue;
      DiscrepancyFacts x;
      x.value = text_field(d, "value");
      if (auto figs = d.find("figures"); figs != d.end() && figs->is_array())
        for (const auto& fig : *figs)
          if (fig.is_object())
            x.figures.push_back({text_field(fig, "figure"), text_field(fig, "source")});
      x.used = text_field(d, "used");
      x.reason = text_field(d, "reason");
      f.discrepancies.push_back(std::move(x));
    }
}

void read_measured_facts(const json& info, const json& measurement, MachineFacts& f) {
  f.cpu = text_field(info, "cpu");
  f.microarchitecture = text_field(info, "microarchitecture");
  f.clock_hz = number_field(info, "clock_hz");
  if (auto it = info.find("threads"); it != info.end() && it->is_number_integer())
    f.threads = it->get<int>();
  if (!measurement.is_object()) return;
  const json* ms = &measurement;
  if (auto mem = ms->find("memory"); mem != ms->end() && mem->is_object())
    for (const auto& [level, d] : mem->items()) {
      const auto per_core = number_field(d, "size_per_core");
      const auto reach = number_field(d, "reported_size");
      if (!per_core || !reach) continue;
      LevelReach r{*per_core, *reach};
      if (const auto edge = number_field(d, "plateau_edge"); edge && *edge > 0)
        r.plateau_edge = *edge;
      if (auto agrees = d.find("size_agrees"); agrees != d.end() && agrees->is_boolean())
        r.size_agrees = agrees->get<bool>();
      f.memory_reach[level] = r;
    }
  f.warnings = names_field(*ms, "warnings");
  f.measured_seconds = number_field(*ms, "seconds");
}

}  // namespace

std::optional<int> release_year_of(const json& v) {
  if (!v.is_number_integer()) return std::nullopt;
  // Read at full width: a 32-bit read wrapped 2^32 + 2023 to 2023.
  const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(kLastYear)
                                           : v.get<std::int64_t>() <= kLastYear;
  if (!fits || v.get<std::int64_t>() < kFirstYear) return std::nullopt;
  return static_cast<int>(v.get<std::int64_t>());
}

MachineFacts machine_facts(const MachineDocument& m) {
  MachineFacts f;
  const std::string origin = m.origin.empty() ? m.roofs.name : m.origin;
  const json info = info_json(m);
  if (info.is_object()) read_catalogue_facts(info, origin, f);
  if (info.is_object()) read_measured_facts(info, section_json(m, "measurement"), f);
  return f;
}

}  // namespace roofline
