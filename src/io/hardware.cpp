#include "roofline/hardware.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "roofline/error.hpp"
#include "roofline/model.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
bool iequals(const std::string& a, const std::string& b) {
  return lower(a) == lower(b);
}

std::string string_field(const json& info, const char* key) {
  if (auto it = info.find(key); it != info.end() && it->is_string()) return it->get<std::string>();
  return "";
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(sep, start);
    const std::string part = s.substr(start, end == std::string::npos ? end : end - start);
    if (!part.empty()) out.push_back(part);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}
}  // namespace

HardwareSummary summarize(const MachineDocument& m, const std::string& name, const fs::path& path) {
  HardwareSummary s;
  s.name = name.empty() ? m.roofs.name : name;
  s.path = path;
  s.machine = m;
  const json& info = m.info;
  s.display_name = string_field(info, "display_name");
  if (s.display_name.empty()) s.display_name = m.roofs.name;
  s.vendor = string_field(info, "vendor");
  s.kind = string_field(info, "kind");
  if (auto it = info.find("release_year"); it != info.end() && it->is_number_integer())
    s.release_year = it->get<int>();
  if (auto it = info.find("aliases"); it != info.end() && it->is_array())
    for (const auto& a : *it)
      if (a.is_string()) s.aliases.push_back(a.get<std::string>());
  return s;
}

std::vector<HardwareSummary> load_catalogue(const std::string& extra_dir,
                                            std::vector<std::string>* problems) {
  std::vector<HardwareSummary> out;
  for (const auto& entry : list_catalogue(extra_dir)) {
    try {
      out.push_back(summarize(load_machine_file(entry.path), entry.name, entry.path));
    } catch (const InputError& e) {
      if (problems) problems->push_back(e.what());
    }
  }
  return out;
}

const ComputeRoof* highest_dense_roof(const RoofSet& roofs,
                                      const std::vector<std::string>& precisions) {
  const ComputeRoof* best = nullptr;
  for (const auto& c : roofs.compute) {
    if (c.sparse) continue;
    const bool wanted = std::any_of(precisions.begin(), precisions.end(),
                                    [&](const std::string& p) { return iequals(p, c.precision); });
    if (wanted && (!best || c.peak > best->peak)) best = &c;
  }
  return best;
}

const std::vector<PrecisionGroup>& default_precision_groups() {
  static const std::vector<PrecisionGroup> groups = {
      {"fp64", {"fp64"}},
      {"fp32", {"fp32"}},
      {"bf16/fp16", {"bf16", "fp16"}},
      {"fp8/int8", {"fp8", "int8"}},
  };
  return groups;
}

PrecisionGroup precision_group(const std::string& spec) {
  if (spec.empty()) throw InputError("--precision: empty value");
  PrecisionGroup g;
  g.label = spec;
  g.precisions = split(spec, '/');
  return g;
}

const ComputeRoof* find_compute_roof(const RoofSet& roofs, const PrecisionGroup& group,
                                     bool sparse_by_name) {
  if (const ComputeRoof* named = roofs.find_compute(group.label);
      named && (sparse_by_name || !named->sparse))
    return named;
  return highest_dense_roof(roofs, group.precisions);
}

const ComputeRoof& select_compute_roof(const RoofSet& roofs, const std::string& spec) {
  if (spec.empty()) return roofs.select_compute("");
  if (const ComputeRoof* c = find_compute_roof(roofs, precision_group(spec), true)) return *c;
  std::string dense;
  for (const auto& c : roofs.compute)
    if (!c.sparse) dense += (dense.empty() ? "" : ", ") + c.name;
  throw InputError("machine '" + roofs.name + "' has no compute roof for '" + spec +
                   "' (dense roofs: " + (dense.empty() ? "none" : dense) + ")");
}

std::optional<RidgePoint> ridge_for(const RoofSet& roofs, const PrecisionGroup& group,
                                    const std::string& level) {
  const ComputeRoof* c = find_compute_roof(roofs, group);
  if (!c || roofs.memory.empty()) return std::nullopt;
  const MemoryRoof& m = roofs.select_memory(level);
  // DIGEST §2: the ridge point (machine balance) I* = π/β.
  return RidgePoint{group.label, c->name,     c->peak,
                    m.level,     m.bandwidth, ridge(c->peak, m.bandwidth)};
}

std::vector<RidgePoint> ridges_per_roof(const RoofSet& roofs, const std::string& level) {
  std::vector<RidgePoint> out;
  if (roofs.memory.empty()) return out;
  const MemoryRoof& m = roofs.select_memory(level);
  for (const auto& c : roofs.compute)
    if (!c.sparse)
      out.push_back(
          {c.precision, c.name, c.peak, m.level, m.bandwidth, ridge(c.peak, m.bandwidth)});
  return out;
}

bool is_canonical_hardware_name(const std::string& name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  char prev = 0;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && prev == '-')) return false;
    prev = c;
  }
  return true;
}

std::vector<std::string> catalogue_entry_problems(const fs::path& file) {
  std::vector<std::string> problems;
  const std::string where = file.string();
  auto problem = [&](const std::string& what) { problems.push_back(where + ": " + what); };
  MachineDocument m;
  json j;
  try {
    j = parse_json(read_text_file(file), where);
    m = machine_from_json(j, where);
  } catch (const InputError& e) {
    problems.push_back(e.what());
    return problems;
  }
  const RoofSet& r = m.roofs;
  const std::string stem = file.stem().string();
  if (!is_canonical_hardware_name(stem))
    problem("file name '" + stem + "' is not lower-case and hyphenated (e.g. a100-80gb.json)");
  if (r.name != stem) problem("name '" + r.name + "' differs from the file name '" + stem + "'");

  // Roofs: a source on every one, a formula on every theoretical one; integer precisions
  // counted in OP; sparse figures named "... sparse" and only beside a dense twin.
  bool has_dense = false;
  for (const auto& c : r.compute) {
    if (c.source.empty()) problem("compute roof '" + c.name + "' has no source");
    if (c.precision.empty()) problem("compute roof '" + c.name + "' has no precision");
    if (c.unit.empty()) problem("compute roof '" + c.name + "' has no unit");
    if (c.provenance == Provenance::theoretical && c.formula.empty())
      problem("compute roof '" + c.name + "' is theoretical but has no formula");
    const bool int_precision = lower(c.precision).rfind("int", 0) == 0;
    if (int_precision && !c.integer)
      problem("compute roof '" + c.name + "' of precision '" + c.precision +
              "' needs \"integer\": true (counted in OP)");
    if (!int_precision && c.integer)
      problem("compute roof '" + c.name + "' is \"integer\": true but its precision '" +
              c.precision + "' is not an integer one");
    const bool sparse_name =
        c.name.size() > 7 && c.name.compare(c.name.size() - 7, 7, " sparse") == 0;
    if (c.sparse != sparse_name)
      problem("compute roof '" + c.name + "': " +
              (c.sparse ? std::string("\"sparse\": true but the name does not end in ' sparse'")
                        : std::string("named '... sparse' but lacks \"sparse\": true")));
    has_dense = has_dense || !c.sparse;
    if (c.sparse) {
      const bool twin = std::any_of(r.compute.begin(), r.compute.end(), [&](const ComputeRoof& d) {
        return !d.sparse && iequals(d.precision, c.precision) && iequals(d.unit, c.unit) &&
               d.peak < c.peak;
      });
      if (!twin)
        problem("sparse roof '" + c.name +
                "' has no lower dense roof of the same precision and unit");
    }
  }
  if (!has_dense) problem("no dense compute roof");
  bool has_main_memory = false;
  for (const auto& mem : r.memory) {
    if (mem.source.empty()) problem("memory roof '" + mem.level + "' has no source");
    if (mem.provenance == Provenance::theoretical && mem.formula.empty())
      problem("memory roof '" + mem.level + "' is theoretical but has no formula");
    has_main_memory = has_main_memory || mem.kind == "memory";
  }
  if (!has_main_memory) problem("no memory roof of kind \"memory\" (HBM/DRAM)");

  // Defaults: the dense roof and the main-memory level a point is judged against.
  if (r.default_compute.empty()) {
    problem("default_compute is not set");
  } else if (const ComputeRoof* c = r.find_compute(r.default_compute); !c) {
    problem("default_compute '" + r.default_compute + "' is not a compute roof");
  } else if (c->sparse) {
    problem("default_compute '" + r.default_compute + "' is a sparse roof");
  }
  if (r.default_memory.empty()) {
    problem("default_memory is not set");
  } else if (const MemoryRoof* mem = r.find_memory(r.default_memory); !mem) {
    problem("default_memory '" + r.default_memory + "' is not a memory roof");
  } else if (mem->kind != "memory") {
    problem("default_memory '" + r.default_memory + "' is of kind '" + mem->kind +
            "', not \"memory\"");
  }

  // info: the catalogue fields (docs/hardware.md).
  const json& info = m.info;
  static const std::set<std::string> kinds = {"gpu", "cpu", "tpu", "accelerator"};
  auto needs_source = [&](const char* key, const std::string& what) {
    if (string_field(info, key).empty())
      problem("info." + std::string(key) + " is missing " + what);
  };
  if (string_field(info, "display_name").empty()) problem("info.display_name is missing");
  if (string_field(info, "vendor").empty()) problem("info.vendor is missing");
  const std::string kind = string_field(info, "kind");
  if (!kinds.count(kind)) problem("info.kind must be gpu, cpu, tpu or accelerator");
  if (!info.contains("aliases") || !info["aliases"].is_array()) {
    problem("info.aliases must be an array of names");
  } else {
    for (const auto& a : info["aliases"])
      if (!a.is_string() || a.get<std::string>().empty())
        problem("info.aliases holds a value that is not a name");
  }
  if (!info.contains("release_year") || !info["release_year"].is_number_integer() ||
      info["release_year"].get<int>() < 1990 || info["release_year"].get<int>() > 2100)
    problem("info.release_year must be a year");
  needs_source("release_source", "(where the release year comes from)");
  if (!info.contains("clock") || !info["clock"].is_object()) {
    problem("info.clock must be an object {basis, mhz, source}");
  } else {
    const json& clock = info["clock"];
    const std::string basis = string_field(clock, "basis");
    if (basis != "boost" && basis != "base") problem("info.clock.basis must be boost or base");
    if (!clock.contains("mhz") || !(clock["mhz"].is_null() || clock["mhz"].is_number()))
      problem("info.clock.mhz must be a number or null (not published)");
    if (string_field(clock, "source").empty()) problem("info.clock.source is missing");
    // CPU roofs are cores x base clock x FLOP/cycle (DIGEST §9), so a CPU records its base
    // clock and the maximum turbo beside it (docs/hardware.md).
    if (kind == "cpu") {
      if (basis != "base") problem("info.clock.basis must be base for a cpu (got '" + basis + "')");
      if (!clock.contains("max_turbo_mhz") ||
          !(clock["max_turbo_mhz"].is_null() || clock["max_turbo_mhz"].is_number()))
        problem("info.clock.max_turbo_mhz must be a number or null (not published) for a cpu");
    }
  }
  if (!info.contains("power_w") ||
      !(info["power_w"].is_null() ||
        (info["power_w"].is_number() && info["power_w"].get<double>() > 0)))
    problem("info.power_w must be a positive number or null (not published)");
  needs_source("power_source", "(where power_w comes from, or where it is not published)");
  if (auto it = info.find("caches"); it != info.end()) {
    if (!it->is_array()) {
      problem("info.caches must be an array of {level, size, source}");
    } else {
      for (const auto& c : *it) {
        const std::string level = c.is_object() ? string_field(c, "level") : "";
        const std::string name = "info.caches: '" + (level.empty() ? "?" : level) + "'";
        if (level.empty()) problem("info.caches holds an entry without a level");
        if (!c.is_object() || !c.contains("size") || !c["size"].is_number() ||
            !(c["size"].get<double>() > 0))
          problem(name + " needs a positive size in bytes");
        if (!c.is_object() || string_field(c, "source").empty()) problem(name + " has no source");
      }
    }
  }
  if (!info.contains("sources") || !info["sources"].is_array() || info["sources"].empty())
    problem("info.sources must be a non-empty array");
  if (!info.contains("interconnects") || !info["interconnects"].is_array()) {
    problem("info.interconnects must be an array of {name, bandwidth, source}");
  } else {
    for (const auto& link : info["interconnects"]) {
      const std::string name = link.is_object() ? string_field(link, "name") : "";
      const MemoryRoof* roof = name.empty() ? nullptr : r.find_memory(name);
      if (!roof || (roof->kind != "interconnect" && roof->kind != "network")) {
        problem("info.interconnects: '" + name +
                "' is not also a memory roof of kind interconnect or network");
        continue;
      }
      if (string_field(link, "source").empty())
        problem("info.interconnects: '" + name + "' has no source");
      if (!link.contains("bandwidth") || !link["bandwidth"].is_number() ||
          link["bandwidth"].get<double>() != roof->bandwidth.value)
        problem("info.interconnects: '" + name + "' bandwidth differs from its roof");
    }
  }
  return problems;
}

}  // namespace roofline
