#include "roofline/hardware.hpp"
#include "roofline/strings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
/// A text field, trimmed: a field of blanks ("source": "   ") is as missing as an absent one.
std::string string_field(const json& info, const char* key) {
  if (auto it = info.find(key); it != info.end() && it->is_string())
    return trim(it->get<std::string>());
  return "";
}
}  // namespace

HardwareSummary summarize(const MachineDocument& m, const std::string& name, const fs::path& path) {
  HardwareSummary s;
  s.name = name.empty() ? m.roofs.name : name;
  s.path = path;
  s.machine = m;
  s.facts = machine_facts(m);
  s.display_name = s.facts.display_name.empty() ? m.roofs.name : s.facts.display_name;
  s.vendor = s.facts.vendor;
  s.kind = s.facts.kind;
  s.release_year = s.facts.release_year;
  s.aliases = s.facts.aliases;
  if (const MemoryRoof* main = m.roofs.default_memory_roof())
    if (const auto& size = main->size_bytes) s.memory_bytes = *size;
  return s;
}

HardwareSummary resolve_summary(const std::string& spec, const std::string& extra_dir) {
  MachineDocument m = resolve_machine(spec, extra_dir);
  return summarize(m, m.origin == spec || m.origin.empty() ? m.roofs.name : m.origin, m.origin);
}

namespace {
/// Whether `added` (from resolve_summary) is `x`: the same file, the catalogue entry it names (a
/// catalogue name resolves to a machine whose path is that name, not a file), or a copy of its
/// file (the same document at another path), as `plot --compare` and `hw compare` take it.
bool same_entry(const HardwareSummary& x, const HardwareSummary& added) {
  std::error_code ec;
  if (fs::is_regular_file(added.path, ec))
    return fs::equivalent(x.path, added.path, ec) ||
           machine_to_json(x.machine) == machine_to_json(added.machine);
  return x.name == added.path.string();
}

/// Entries of one name told apart (name_machines_apart), `added` following. `given`: each
/// entry's --add spec, "" for the catalogue's.
void name_entries_apart(std::vector<HardwareSummary>& entries, std::vector<std::string> given,
                        std::vector<AddedMachine>& added) {
  given.resize(entries.size());
  std::vector<MachineDocument> named(entries.size());
  std::vector<MachineDocument*> docs;
  for (size_t i = 0; i < entries.size(); ++i) {
    named[i].roofs.name = entries[i].name;
    named[i].file = entries[i].machine.file;
    if (given[i].empty()) given[i] = entries[i].name;  // a catalogue entry, by its name
    docs.push_back(&named[i]);
  }
  name_machines_apart(given, docs);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (named[i].roofs.name == entries[i].name) continue;
    for (auto& a : added)
      if (a.spec == given[i]) a.name = named[i].roofs.name;
    entries[i].name = named[i].roofs.name;
  }
}
}  // namespace

std::vector<AddedMachine> add_machines(std::vector<HardwareSummary>& entries,
                                       const std::vector<std::string>& specs,
                                       const std::string& extra_dir) {
  std::vector<AddedMachine> added;
  std::vector<std::string> given;  // per entry: the spec it came from ("" from the catalogue)
  for (const auto& spec : specs) {
    HardwareSummary e = resolve_summary(spec, extra_dir);
    // A ridge needs a compute roof over a memory roof; a machine given by name must show.
    if (e.machine.roofs.compute.empty() || e.machine.roofs.memory.empty())
      throw InputError("--add " + terminal_safe(spec) + ": the machine has no " +
                       (e.machine.roofs.compute.empty() ? "compute" : "memory") +
                       " roof, so it has no ridge");
    added.push_back({spec, e.name});
    // A catalogue entry, or one file added twice, is one row; two files of one document name
    // (a machine measured before and after a change) are two machines.
    if (std::none_of(entries.begin(), entries.end(),
                     [&](const HardwareSummary& x) { return same_entry(x, e); })) {
      entries.push_back(std::move(e));
      given.resize(entries.size());
      given.back() = spec;
    }
  }
  name_entries_apart(entries, given, added);
  return added;
}

const std::vector<std::string>& hardware_kinds() {
  static const std::vector<std::string> kinds = {"gpu", "cpu", "tpu", "accelerator", "soc"};
  return kinds;
}

namespace {
std::optional<int> parse_year(const std::string& text, const std::string& whole) {
  if (text.empty()) return std::nullopt;
  const bool digits =
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!digits || text.size() != 4)
    throw InputError("--year: expected YEAR, FROM-TO, FROM- or -TO with four-digit years (got '" +
                     whole + "')");
  return std::stoi(text);
}
}  // namespace

void parse_year_filter(const std::string& text, HardwareFilter& filter) {
  const size_t dash = text.find('-');
  if (dash == std::string::npos) {
    filter.year_min = filter.year_max = parse_year(text, text);
    if (!filter.year_min) throw InputError("--year: empty value");
    return;
  }
  if (text.find('-', dash + 1) != std::string::npos || text.size() == 1)
    throw InputError("--year: expected YEAR, FROM-TO, FROM- or -TO with four-digit years (got '" +
                     text + "')");
  filter.year_min = parse_year(text.substr(0, dash), text);
  filter.year_max = parse_year(text.substr(dash + 1), text);
  if (filter.year_min && filter.year_max && *filter.year_min > *filter.year_max)
    throw InputError("--year: the range " + text + " is empty (FROM after TO)");
}

double parse_memory_min(const std::string& text) {
  double bytes = 0;
  bool bare = !text.empty();
  for (char c : text) bare = bare && (std::isdigit(static_cast<unsigned char>(c)) || c == '.');
  try {
    // A bare number is gigabytes (SI, as the catalogue's sizes): --memory-min 80.
    bytes = bare ? parse_quantity(text, Dimension::count, "--memory-min") * 1e9
                 : parse_quantity(text, Dimension::bytes, "--memory-min");
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (give GB as a number, or a size such as '80 GB')");
  }
  if (!(bytes >= 0)) throw InputError("--memory-min: expected a size >= 0 (got '" + text + "')");
  return bytes;
}

bool matches_filter(const HardwareSummary& e, const HardwareFilter& f) {
  if (!f.kind.empty() && lower(e.kind) != lower(f.kind)) return false;
  if (!f.vendor.empty() && lower(e.vendor) != lower(f.vendor)) return false;
  if (f.year_min || f.year_max) {
    if (!e.release_year) return false;
    if (f.year_min && *e.release_year < *f.year_min) return false;
    if (f.year_max && *e.release_year > *f.year_max) return false;
  }
  if (f.memory_min && !(e.memory_bytes && *e.memory_bytes >= *f.memory_min)) return false;
  if (!f.search.empty()) {
    const std::string key = hardware_key(f.search);
    std::vector<std::string> names = e.aliases;
    names.push_back(e.name);
    names.push_back(e.display_name);
    const bool found = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
      return hardware_key(n).find(key) != std::string::npos;
    });
    if (!found) return false;
  }
  return true;
}

namespace {

/// Why a link's latency row says "unknown": the file's value could not be read (the problem,
/// naming the field), else what its latency_source says (the catalogue names why none is
/// published), else that the file gives none.
std::string unknown_latency_reason(const InterconnectFacts& link) {
  if (link.problem.find("latency") != std::string::npos) return "not read: " + link.problem;
  if (!link.latency_source.empty()) return link.latency_source;
  return "not given in the file (latency null, and no latency_source says why)";
}

}  // namespace

std::vector<ValueSource> value_sources(const MachineDocument& m) {
  std::vector<ValueSource> out;
  const MachineFacts f = machine_facts(m);
  const RoofSet& r = m.roofs;
  if (f.lists_release_year)
    out.push_back({"release year",
                   f.release_year ? std::to_string(*f.release_year) : std::string("not published"),
                   f.release_source});
  if (!f.compute_capability.empty())
    out.push_back({"compute capability", f.compute_capability, f.compute_capability_source});
  if (f.clock) {
    const ClockFacts& c = *f.clock;
    std::string figure = c.basis + " ";
    figure += c.mhz ? format_number(*c.mhz) + " MHz" : std::string("not published");
    if (c.lists_max_turbo)
      figure += c.max_turbo_mhz ? ", max turbo " + format_number(*c.max_turbo_mhz) + " MHz"
                                : std::string(", max turbo not published");
    out.push_back({"clock", figure, c.source});
  }
  if (f.power.listed)
    out.push_back(
        {"power",
         f.power.watts ? format_number(*f.power.watts) + " W" : std::string("not published"),
         f.power.source.value_or("")});
  for (const auto& link : f.interconnects) {
    if (link.bandwidth)
      out.push_back(
          {link.name + " bandwidth", format_byte_rate(ByteRate(*link.bandwidth)), link.source});
    if (link.lists_latency)
      out.push_back({link.name + " latency",
                     link.latency ? format_seconds(*link.latency) : std::string("unknown"),
                     link.latency ? link.latency_source : unknown_latency_reason(link)});
  }
  for (const auto& c : f.caches)
    out.push_back({c.level + " size", format_si(c.size_bytes, "B"), c.source});
  for (const auto& d : f.discrepancies) {
    for (const auto& fig : d.figures)
      out.push_back({d.value + " (disagreement)", fig.figure, fig.source});
    out.push_back({d.value + " (used)", d.used, d.reason});
  }
  for (const auto& c : r.compute) {
    std::string figure = format_work_rate(c.peak, r.units_of(c));
    if (c.provenance == Provenance::theoretical) figure += " = " + c.formula;
    if (c.provenance == Provenance::reported) figure += " (reported by a third party)";
    out.push_back({c.name, figure, c.source});
  }
  for (const auto& mem : r.memory) {
    std::string figure = format_byte_rate(mem.bandwidth, r.units);
    if (mem.size_bytes) figure += ", " + format_si(*mem.size_bytes, r.units.traffic_symbol());
    if (mem.provenance == Provenance::theoretical) figure += " = " + mem.formula;
    if (mem.provenance == Provenance::reported) figure += " (reported by a third party)";
    out.push_back({mem.level, figure, mem.source});
  }
  return out;
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
    if (wanted && outranks(c, best)) best = &c;
  }
  return best;
}

std::optional<MixedPrecisions> mixed_precisions(const std::vector<const RoofSet*>& machines,
                                                const std::vector<std::string>& roofs) {
  std::set<std::string> precisions;
  MixedPrecisions m;
  for (size_t i = 0; i < machines.size() && i < roofs.size(); ++i) {
    const ComputeRoof* c = machines[i]->find_compute(roofs[i]);
    if (!c) continue;
    // A roof that names no precision stands for every precision (docs/schema.md, as roofs given
    // as two numbers do): it differs from none ("fp32" without "precision" beside fp32 vector).
    if (!trim(c->precision).empty()) precisions.insert(lower(c->precision));
    m.named += (m.named.empty() ? "" : ", ") + machines[i]->name + " " + c->name;
  }
  if (precisions.size() < 2) return std::nullopt;
  for (const auto& g : default_precision_groups())
    if (std::all_of(machines.begin(), machines.end(),
                    [&](const RoofSet* r) { return find_compute_roof(*r, g) != nullptr; })) {
      m.common_group = g.label;
      break;
    }
  return m;
}

std::string narrow_against_full(const std::vector<const RoofSet*>& machines,
                                const std::vector<std::string>& roofs) {
  std::string narrow;
  bool full = false;
  for (size_t i = 0; i < machines.size() && i < roofs.size(); ++i) {
    const ComputeRoof* c = machines[i]->find_compute(roofs[i]);
    if (!c) continue;
    if (accumulates_narrow(*c))
      narrow += (narrow.empty() ? "" : ", ") + machines[i]->name + " " + c->name;
    else
      full = true;
  }
  if (!full || narrow.empty()) return "";
  return narrow +
         " accumulates narrower than fp32, the others' roofs in full precision (GeForce's "
         "fp16-accumulate mode runs twice its fp32-accumulate rate): the ratio is about 2x in "
         "its favour";
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
  for (std::string& p : split(spec, '/'))  // empty parts left out: "fp32//fp64", "fp32/"
    if (!p.empty()) g.precisions.push_back(std::move(p));
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
  // A roof that names no precision (roofs given as two numbers) stands for every precision, and
  // only for a precision, as RoofSet::select_compute takes it ("banana" was drawn and judged).
  const PrecisionGroup group = precision_group(spec);
  const bool precisions = std::all_of(
      group.precisions.begin(), group.precisions.end(),
      [](const std::string& p) { return is_point_precision(p.substr(0, p.find(' '))); });
  if (precisions)
    if (const ComputeRoof* c = highest_dense_roof(roofs, {""})) return *c;
  if (!precisions && highest_dense_roof(roofs, {""}))
    return roofs.select_compute(spec);  // its message: names no roof and no precision
  std::string dense;
  for (const auto& c : roofs.compute)
    if (!c.sparse) dense += (dense.empty() ? "" : ", ") + c.name;
  throw InputError("machine '" + roofs.name + "' has no compute roof for '" + spec +
                   "' (dense roofs: " + (dense.empty() ? "none" : dense) + ")");
}

bool has_memory_level(const RoofSet& roofs, const std::string& level) {
  if (roofs.memory.empty()) return false;
  if (level.empty()) return true;
  try {
    roofs.select_memory(level);  // by name or a synonym of main memory
    return true;
  } catch (const InputError&) {
    return false;
  }
}

std::optional<RidgePoint> ridge_for(const RoofSet& roofs, const PrecisionGroup& group,
                                    const std::string& level) {
  // A sparse roof is taken where the group names it (--precision "fp16 tensor sparse"), as hw
  // compare takes it; a precision's highest roof is a dense one.
  const ComputeRoof* c = find_compute_roof(roofs, group, true);
  if (!c || !has_memory_level(roofs, level)) return std::nullopt;
  const MemoryRoof& m = roofs.select_memory(level);
  // docs/model.md §2: the ridge point (machine balance) I* = π/β.
  return RidgePoint{group.label,       c->name,     c->peak,
                    m.level,           m.bandwidth, ridge(c->peak, m.bandwidth),
                    roofs.units_of(*c)};
}

std::vector<RidgePoint> ridges_per_roof(const RoofSet& roofs, const std::string& level) {
  std::vector<RidgePoint> out;
  if (roofs.memory.empty()) return out;
  // Without a level, against the roof a chart heads with: a machine of links only has no
  // default memory roof, and its ridges are at its fastest link, as it is drawn.
  const MemoryRoof& m = level.empty() ? roofs.headline_memory() : roofs.select_memory(level);
  for (const auto& c : roofs.compute)
    if (!c.sparse)
      out.push_back({c.precision, c.name, c.peak, m.level, m.bandwidth, ridge(c.peak, m.bandwidth),
                     roofs.units_of(c)});
  return out;
}

std::vector<RidgeRow> ridge_rows(const std::vector<HardwareSummary>& entries,
                                 const std::vector<PrecisionGroup>& groups,
                                 const std::string& level) {
  std::vector<RidgeRow> rows;
  for (const auto& e : entries) {
    RidgeRow row{&e, {}};
    bool any = false;
    for (const auto& g : groups) {
      row.ridges.push_back(ridge_for(e.machine.roofs, g, level));
      any = any || row.ridges.back().has_value();
    }
    if (any) rows.push_back(std::move(row));
  }
  return rows;
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

namespace {
/// Why a roof's source is a third party's copy of the vendor's figure, "" when it is not: it
/// begins with a publication that reproduces vendor figures (reviews, cloud providers, wikis),
/// or its first document (before the first ';'; a later one corroborates) was read "as
/// reproduced", "as reported", "as tabulated" or "as quoted" by someone else (docs/hardware.md:
/// such a figure is "reported").
std::string secondary_publication(const std::string& source) {
  static const char* const names[] = {
      "Tom's Hardware", "Verda",   "DataCrunch", "TechPowerUp",      "AnandTech",
      "Wikipedia",      "aiwiki",  "Spheron",    "ServeTheHome",     "Chips and Cheese",
      "Phoronix",       "HPCwire", "VideoCardz", "The Next Platform"};
  const std::string l = lower(source);
  for (const char* n : names)
    if (l.rfind(lower(n), 0) == 0) return "its source is a third party's publication";
  const std::string first = l.substr(0, l.find(';'));
  static const char* const phrases[] = {"as reproduced", "as reported", "as tabulated",
                                        "as quoted"};
  for (const char* phrase : phrases)
    for (auto at = first.find(phrase); at != std::string::npos; at = first.find(phrase, at + 1))
      // A word of its own: "was reported" is no copy.
      if (at == 0 || !std::isalpha(static_cast<unsigned char>(first[at - 1])))
        return std::string("its source says the figure was read in a third party's copy ('") +
               phrase + "')";
  return "";
}

// The steps of catalogue_entry_problems, each adding what it finds through `problem`.
using Problem = std::function<void(const std::string&)>;

/// The most a catalogue roof may reach per second (work or bytes).
constexpr double kMostPerSecond = 1e20;

void check_compute_roofs(const RoofSet& r, const Problem& problem) {
  // Roofs: a source on every one, a formula on every theoretical one; integer precisions
  // counted in OP; sparse figures named "... sparse" and only beside a dense twin.
  bool has_dense = false;
  for (const auto& c : r.compute) {
    if (trim(c.source).empty()) problem("compute roof '" + c.name + "' has no source");
    if (c.precision.empty())
      problem("compute roof '" + c.name + "' has no precision");
    else if (!is_roof_precision(c.precision))
      problem(
          "compute roof '" + c.name + "': precision '" + c.precision +
          "' is no data type (fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8, int4, ops...)");
    // A device's peak up to 10^20/s (a rack sold as one device reaches 10^18 at fp4 with
    // sparsity): 1e308 passed and drew a ridge of 3e295.
    if (!(c.peak.value <= kMostPerSecond))
      problem("compute roof '" + c.name + "': peak " + format_number(c.peak.value) +
              " is beyond any device (at most 1e20 per second)");
    if (c.unit.empty()) problem("compute roof '" + c.name + "' has no unit");
    if (c.provenance == Provenance::theoretical && c.formula.empty())
      problem("compute roof '" + c.name + "' is theoretical but has no formula");
    if (const std::string why = secondary_publication(c.source);
        c.provenance == Provenance::datasheet && !why.empty())
      problem("compute roof '" + c.name + "' is marked datasheet but " + why +
              ": mark it \"reported\"");
    // OP or FLOP: the reader took it from the precision and refused an "integer" that says
    // otherwise (int8, int4, "ops": OP), so a roof here counts what its precision does.
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
}

void check_memory_roofs(const RoofSet& r, const Problem& problem) {
  bool has_main_memory = false;
  for (const auto& mem : r.memory) {
    if (trim(mem.source).empty()) problem("memory roof '" + mem.level + "' has no source");
    if (!(mem.bandwidth.value <= kMostPerSecond))
      problem("memory roof '" + mem.level + "': bandwidth " + format_number(mem.bandwidth.value) +
              " is beyond any device (at most 1e20 per second)");
    if (const std::string why = secondary_publication(mem.source);
        mem.provenance == Provenance::datasheet && !why.empty())
      problem("memory roof '" + mem.level + "' is marked datasheet but " + why +
              ": mark it \"reported\"");
    if (mem.provenance == Provenance::theoretical && mem.formula.empty())
      problem("memory roof '" + mem.level + "' is theoretical but has no formula");
    has_main_memory = has_main_memory || mem.kind == "memory";
  }
  if (!has_main_memory) problem("no memory roof of kind \"memory\" (HBM/DRAM)");
}

void check_defaults(const RoofSet& r, const Problem& problem) {
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
}

/// Name, vendor, kind, aliases and release year.
void check_identity(const json& info, const Problem& problem) {
  const std::set<std::string> kinds(hardware_kinds().begin(), hardware_kinds().end());
  auto needs_source = [&](const char* key, const std::string& what) {
    if (string_field(info, key).empty())
      problem("info." + std::string(key) + " is missing " + what);
  };
  if (string_field(info, "display_name").empty()) problem("info.display_name is missing");
  if (string_field(info, "vendor").empty()) problem("info.vendor is missing");
  const std::string kind = string_field(info, "kind");
  if (!kinds.count(kind)) problem("info.kind must be gpu, cpu, tpu, accelerator or soc");
  if (!info.contains("aliases") || !info["aliases"].is_array()) {
    problem("info.aliases must be an array of names");
  } else {
    for (const auto& a : info["aliases"])
      if (!a.is_string() || trim(a.get<std::string>()).empty())
        problem("info.aliases holds a value that is not a name");
      else if (terminal_safe(a.get<std::string>()) != a.get<std::string>())
        problem("info.aliases: '" + terminal_safe(a.get<std::string>()) +
                "' holds a control character (a name is typed on a command line)");
  }
  if (!info.contains("release_year") || !release_year_of(info["release_year"]))
    problem("info.release_year must be a year from " + std::to_string(kFirstYear) + " to " +
            std::to_string(kLastYear));
  needs_source("release_source", "(where the release year comes from)");
  // An NVIDIA GPU's compute capability, which `import ncu --hw` compares with the export's.
  if (info.contains("compute_capability")) {
    if (!is_compute_capability(string_field(info, "compute_capability")))
      problem("info.compute_capability must be MAJOR.MINOR as NVIDIA writes it (\"9.0\")");
    needs_source("compute_capability_source", "(where the compute capability comes from)");
  }
}

/// The clock the peaks assume and the power figure, each with its source.
void check_clock_and_power(const json& info, const Problem& problem) {
  const std::string kind = string_field(info, "kind");
  auto needs_source = [&](const char* key, const std::string& what) {
    if (string_field(info, key).empty())
      problem("info." + std::string(key) + " is missing " + what);
  };
  if (!info.contains("clock") || !info["clock"].is_object()) {
    problem("info.clock must be an object {basis, mhz, source}");
  } else {
    const json& clock = info["clock"];
    const std::string basis = string_field(clock, "basis");
    if (basis != "boost" && basis != "base") problem("info.clock.basis must be boost or base");
    if (!clock.contains("mhz") || !(clock["mhz"].is_null() || clock["mhz"].is_number()))
      problem("info.clock.mhz must be a number or null (not published)");
    if (string_field(clock, "source").empty()) problem("info.clock.source is missing");
    // CPU roofs are cores x base clock x FLOP/cycle (docs/model.md §9), so a CPU records its base
    // clock and the maximum turbo beside it (docs/hardware.md).
    if (kind == "cpu") {
      if (basis != "base") problem("info.clock.basis must be base for a cpu (got '" + basis + "')");
      if (!clock.contains("max_turbo_mhz") ||
          !(clock["max_turbo_mhz"].is_null() || clock["max_turbo_mhz"].is_number()))
        problem("info.clock.max_turbo_mhz must be a number or null (not published) for a cpu");
    }
  }
  // null (not published), or a power > 0: watts, or a text with its unit ("400 W"), as every
  // loader reads it (docs/hardware.md); "72 W" was refused here alone.
  bool power_ok = false;
  if (auto it = info.find("power_w"); it != info.end()) {
    double w = 0;
    if (it->is_number() && !it->is_boolean()) {
      w = it->get<double>();
    } else if (it->is_string()) {
      try {
        w = parse_quantity(it->get<std::string>(), Dimension::power, "info.power_w");
      } catch (const InputError&) {
      }
    }
    // From a milliwatt (a microcontroller) to ten megawatts (a rack and more): 1e-300 W passed
    // and made an energy bound of inf FLOP/J.
    power_ok = it->is_null() || (w >= 1e-3 && w <= 1e7);
  }
  if (!power_ok)
    problem(
        "info.power_w must be a power from 1 mW to 10 MW (watts, or a text with its unit: "
        "\"400 W\") or null (not published)");
  needs_source("power_source", "(where power_w comes from, or where it is not published)");
}

void check_caches(const json& info, const Problem& problem) {
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
}

/// The sources list and each interconnect (a roof of its own, with bandwidth and latency sourced).
void check_sources_and_links(const json& info, const RoofSet& r, const Problem& problem) {
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
      // Its latency (seconds > 0 in any spelling, or null where no primary source gives it)
      // and its latency_source are checked by catalogue_entry_problems, through the reader
      // every command uses.
      if (!link.contains("bandwidth") || !link["bandwidth"].is_number() ||
          link["bandwidth"].get<double>() != roof->bandwidth.value)
        problem("info.interconnects: '" + name + "' bandwidth differs from its roof");
      // Said in llm's warning where collectives use the link: one line of text.
      if (auto c = link.find("caveat");
          c != link.end() && (!c->is_string() || trim(c->get<std::string>()).empty() ||
                              terminal_safe(c->get<std::string>()) != c->get<std::string>()))
        problem("info.interconnects: '" + name +
                "' caveat must be one line of text (what to know before collectives use the "
                "link)");
    }
  }
}

/// The values not re-read (unverified) and the recorded disagreements.
void check_records(const json& info, const Problem& problem) {
  if (auto it = info.find("unverified"); it != info.end()) {
    const bool names = it->is_array() && std::all_of(it->begin(), it->end(), [](const json& v) {
                         return v.is_string() && !v.get<std::string>().empty();
                       });
    if (!names)
      problem(
          "info.unverified must be an array of value names (values whose named source was "
          "not re-read)");
  }
  if (auto it = info.find("discrepancies"); it != info.end()) {
    if (!it->is_array()) {
      problem("info.discrepancies must be an array of {value, figures, used, reason}");
    } else {
      for (const auto& d : *it) {
        const std::string what = d.is_object() ? string_field(d, "value") : "";
        const std::string name = "info.discrepancies: '" + (what.empty() ? "?" : what) + "'";
        if (what.empty()) problem("info.discrepancies holds an entry without a value");
        const bool figures = d.is_object() && d.contains("figures") && d["figures"].is_array() &&
                             d["figures"].size() >= 2;
        if (!figures) problem(name + " needs at least two figures [{figure, source}]");
        if (figures)
          for (const auto& f : d["figures"])
            if (!f.is_object() || string_field(f, "figure").empty() ||
                string_field(f, "source").empty())
              problem(name + " has a figure without its figure or source");
        if (!d.is_object() || string_field(d, "used").empty() || string_field(d, "reason").empty())
          problem(name + " needs the figure used and the reason");
      }
    }
  }
}

}  // namespace

std::vector<std::string> catalogue_entry_problems(const fs::path& file) {
  std::vector<std::string> problems;
  const std::string where = file.string();
  const Problem problem = [&](const std::string& what) { problems.push_back(where + ": " + what); };
  MachineDocument m;
  try {
    m = machine_from_json(parse_json(read_text_file(file), where), where);
  } catch (const InputError& e) {
    problems.push_back(e.what());
    return problems;
  }
  const RoofSet& r = m.roofs;
  const std::string stem = file.stem().string();
  if (!is_canonical_hardware_name(stem))
    problem("file name '" + stem + "' is not lower-case and hyphenated (e.g. a100-80gb.json)");
  if (r.name != stem) problem("name '" + r.name + "' differs from the file name '" + stem + "'");
  check_compute_roofs(r, problem);
  check_memory_roofs(r, problem);
  check_defaults(r, problem);
  // info: the catalogue fields (docs/hardware.md).
  const nlohmann::json info = info_json(m);
  check_identity(info, problem);
  check_clock_and_power(info, problem);
  check_caches(info, problem);
  check_sources_and_links(info, r, problem);
  check_records(info, problem);
  // The facts the commands read, by the one reader they use (machine_facts): a file the
  // checker accepts loads everywhere, and a link latency read there (in seconds or with a unit,
  // latency_s, latency_us, latency_ns) passes here. A latency, given or null, says where it was
  // found or looked for (optional, so older files stay valid; every file in data/hardware has
  // it), for an alpha-beta model of the link.
  try {
    const MachineFacts f = machine_facts(m);
    for (const auto& link : f.interconnects) {
      if (!link.problem.empty()) problems.push_back(link.problem);  // file, link and field
      if (link.lists_latency && link.latency_source.empty())
        problem("info.interconnects: '" + link.name +
                "' has no latency_source (where the latency comes from, or where it was "
                "looked for)");
    }
    if (!f.scale_up_domain_problem.empty()) problems.push_back(f.scale_up_domain_problem);
  } catch (const InputError& e) {
    problems.push_back(e.what());
  }
  return problems;
}

std::string hardware_key(const std::string& name) {
  std::string out;
  for (char c : lower(name))
    if (c != '-' && c != '_' && c != ' ') out += c;
  return out;
}

}  // namespace roofline
