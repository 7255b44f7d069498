#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

#include "io/json_fields.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {

using io::Where;
using nlohmann::json;

namespace {

Statistics stats_from_json(const json& j, const Where& w) {
  if (!j.is_object()) io::fail(w, "expected an object");
  Statistics s;
  const auto& reps = io::require(j, "repetitions", w);
  if (!reps.is_number_integer() || reps.get<long long>() < 1)
    io::fail(w / "repetitions", "expected a positive integer");
  s.repetitions = reps.get<int>();
  s.median = io::get_quantity(j, "median", Dimension::count, w);
  s.best = io::get_optional_quantity(j, "best", Dimension::count, w, false).value_or(s.median);
  s.min = io::get_optional_quantity(j, "min", Dimension::count, w).value_or(s.median);
  s.max = io::get_optional_quantity(j, "max", Dimension::count, w, false).value_or(s.median);
  // The samples' order: every spread printed ((max − min) / median) is then a number ≥ 0.
  if (s.min > s.median * (1 + 1e-9))
    io::fail(w / "min", "the slowest sample (" + format_number(s.min) +
                            ") cannot exceed the median (" + format_number(s.median) + ")");
  if (s.max < s.median * (1 - 1e-9))
    io::fail(w / "max", "the fastest sample (" + format_number(s.max) +
                            ") cannot be below the median (" + format_number(s.median) + ")");
  if (!std::isfinite(s.spread()))
    io::fail(w / "median", "the spread (max − min) / median is not a finite number (median " +
                               format_number(s.median) + ")");
  s.cv = io::get_optional_quantity(j, "cv", Dimension::count, w, false).value_or(0);
  s.noisy = io::get_bool(j, "noisy", w, false);
  s.sustained = io::get_optional_quantity(j, "sustained", Dimension::count, w, false).value_or(0);
  if (s.sustained > s.best * (1 + 1e-9))
    io::fail(w / "sustained", "the sustained rate cannot exceed the best sample");
  s.second = io::get_optional_quantity(j, "second", Dimension::count, w, false).value_or(0);
  if (s.second > s.best * (1 + 1e-9))
    io::fail(w / "second", "the second-fastest sample cannot exceed the best sample");
  s.q1 = io::get_optional_quantity(j, "q1", Dimension::count, w, false).value_or(0);
  s.q3 = io::get_optional_quantity(j, "q3", Dimension::count, w, false).value_or(0);
  if (s.q1 > s.q3 * (1 + 1e-9))
    io::fail(w / "q1", "the lower quartile cannot exceed the upper quartile");
  return s;
}

/// A roof's value is one of its own samples' rates (measure: the sustained rate; cluster: the
/// median pair), so it lies between the slowest and the fastest sample; a value edited by hand
/// beside the samples of another would be printed with their spread. Checked where the document
/// gives both ends (older documents may give the median alone).
void check_within_samples(double value, const json& stats, const Statistics& s, const Where& w,
                          const std::string& field) {
  if (!stats.contains("min") || !stats.contains("max")) return;
  if (value >= s.min * (1 - 1e-6) && value <= s.max * (1 + 1e-6)) return;
  io::fail(w / field, "the roof (" + format_number(value) + ") lies outside its own samples (" +
                          format_number(s.min) + " to " + format_number(s.max) +
                          " in stats): give the value the samples measured, or remove \"stats\" "
                          "for a value set by hand");
}

}  // namespace

json statistics_to_json(const Statistics& s) {
  json j = {{"repetitions", s.repetitions}, {"median", s.median}, {"best", s.best}};
  // An end equal to the median is what the reader assumes where the document leaves it out: left
  // out, so that a document giving the median alone (older ones) or one end reads back as it
  // was read, its value not checked against ends it never gave (written, they had refused the
  // document the tool wrote: "the roof (2.039e+12) lies outside its own samples (1.8e+12 to
  // 1.8e+12)").
  if (s.min != s.median) j["min"] = s.min;
  if (s.max != s.median) j["max"] = s.max;
  j["cv"] = s.cv;
  // 0 is "unknown" for these (a statistic the samples did not give, an older document): left
  // out, never written as a rate of 0 (docs/schema.md: every field but repetitions and median
  // is optional).
  if (s.sustained > 0) {
    j["sustained"] = s.sustained;
    j["confirmed"] = s.confirmed();
  }
  if (s.second > 0) j["second"] = s.second;
  if (s.q3 > 0) {
    j["q1"] = s.q1;
    j["q3"] = s.q3;
    j["iqr"] = s.iqr();
  }
  j["noisy"] = s.noisy;
  return j;
}

namespace {

UnitSystem units_from_json(const json& j, const Where& w) {
  UnitSystem u;
  auto it = j.find("units");
  if (it == j.end()) return u;
  if (!it->is_object()) io::fail(w / "units", "expected an object {\"work\":..., \"traffic\":...}");
  u.work = io::get_string(*it, "work", w / "units", std::string("FLOP"));
  u.traffic = io::get_string(*it, "traffic", w / "units", std::string("byte"));
  if (u.work.empty() || u.traffic.empty()) io::fail(w / "units", "unit names must not be empty");
  if (u.work == "FLOPS" || u.work == "FLOP/s")
    io::fail(w / "units" / "work",
             "a work unit is a count (\"FLOP\"), not a rate (got \"" + u.work + "\")");
  return u;
}

json units_to_json(const UnitSystem& u) {
  return {{"work", u.work}, {"traffic", u.traffic}};
}

const json& array_field(const json& j, const std::string& key, const Where& w) {
  auto it = j.find(key);
  static const json empty = json::array();
  if (it == j.end()) return empty;
  if (!it->is_array()) io::fail(w / key, "expected an array");
  return *it;
}

}  // namespace

namespace {

/// A roof's "provenance" field when given (else `fallback`), the error naming the field.
Provenance provenance_from(const json& c, const Where& w, Provenance fallback) {
  if (!c.contains("provenance")) return fallback;
  try {
    return parse_provenance(io::get_string(c, "provenance", w));
  } catch (const InputError& e) {
    io::fail(w / "provenance", e.what());
  }
}

/// Whether the roof counts OP: its precision says it (int8, int4, "ops": OP; fp32, bf16, ...:
/// FLOP, docs/schema.md), and an "integer" field that says otherwise is refused, naming it; a
/// roof of no precision, or of none known, counts what its "integer" says (FLOP without it).
bool integer_from_json(const json& c, const std::string& precision, const Where& w) {
  const std::optional<bool> by_precision = precision_counts_operations(precision);
  const auto it = c.find("integer");
  if (it == c.end() || it->is_null()) return by_precision.value_or(false);
  const bool given = io::get_bool(c, "integer", w, false);
  if (by_precision && *by_precision != given)
    io::fail(w / "integer",
             *by_precision
                 ? "precision '" + terminal_safe(precision) +
                       "' counts integer operations (OP): \"integer\" is true or left out "
                       "(got false)"
                 : "precision '" + terminal_safe(precision) +
                       "' is a floating-point type, counted in FLOP: \"integer\": true would "
                       "count its peak in OP/s (leave it out, or name an integer precision)");
  return given;
}

/// A rate's text that names the other kind of work than its roof counts ("20 TOPS" on an fp32
/// roof, "20 TFLOPS" on an int8 one) is refused, naming the roof and the value: it was read as
/// the roof's own unit, 20 TFLOP/s of what the vendor counted as integer operations.
void check_work_named(const json& c, const std::string& key, const ComputeRoof& r,
                      const UnitSystem& units, const Where& w) {
  const auto it = c.find(key);
  if (it == c.end() || !it->is_string()) return;
  if (units.traffic != "byte" || (units.work != "FLOP" && units.work != "OP")) return;
  const std::string named = work_unit_named(it->get<std::string>(), Dimension::work_rate);
  const std::string counts = r.integer ? "OP" : units.work;
  if (named.empty() || named == counts) return;
  io::fail(w / key,
           "'" + terminal_safe(it->get<std::string>()) + "' is " + named + "/s, but roof '" +
               terminal_safe(r.name) + "'" +
               (r.precision.empty() ? std::string()
                                    : " (precision '" + terminal_safe(r.precision) + "')") +
               " counts " +
               (counts == "OP" ? "integer operations (OP/s: TOPS)"
                               : "floating-point work (FLOP/s: TFLOPS)") +
               ": give its figure in " + counts + "/s, or a bare number");
}

/// One entry of a machine document's "compute" array (docs/schema.md).
ComputeRoof compute_roof_from_json(const json& c, const Where& w, const UnitSystem& units) {
  ComputeRoof r;
  r.precision = io::get_string(c, "precision", w, std::string());
  r.unit = io::get_string(c, "unit", w, std::string());
  std::string fallback_name = r.precision + (r.unit.empty() ? "" : " " + r.unit);
  r.name = io::get_string(c, "name", w,
                          fallback_name.empty() ? std::nullopt : std::optional(fallback_name));
  r.peak = WorkRate(io::get_quantity(c, "peak", Dimension::work_rate, w));
  r.provenance = provenance_from(c, w, Provenance::datasheet);
  r.source = io::get_string(c, "source", w, std::string());
  if (auto t = io::get_optional_quantity(c, "theoretical", Dimension::work_rate, w))
    r.theoretical = WorkRate(*t);
  r.formula = io::get_string(c, "formula", w, std::string());
  if (c.contains("stats")) {
    r.stats = stats_from_json(c["stats"], w / "stats");
    check_within_samples(r.peak.value, c["stats"], *r.stats, w, "peak");
  }
  r.integer = integer_from_json(c, r.precision, w);
  check_work_named(c, "peak", r, units, w);
  check_work_named(c, "theoretical", r, units, w);
  r.sparse = io::get_bool(c, "sparse", w, false);
  return r;
}

/// One entry of a machine document's "memory" array (docs/schema.md).
MemoryRoof memory_roof_from_json(const json& c, const Where& w) {
  MemoryRoof r;
  r.level = io::get_string(c, "level", w);
  r.kind = io::get_string(c, "kind", w, std::string("memory"));
  // The kinds docs/schema.md lists: "memory" decides the default level and DRAM/HBM synonyms.
  static const char* const kKinds[] = {"cache",   "memory",  "interconnect",
                                       "network", "storage", "custom"};
  if (std::find(std::begin(kKinds), std::end(kKinds), r.kind) == std::end(kKinds))
    io::fail(w / "kind", "expected cache, memory, interconnect, network, storage or custom (got '" +
                             terminal_safe(r.kind) + "')");
  r.bandwidth = ByteRate(io::get_quantity(c, "bandwidth", Dimension::byte_rate, w));
  r.provenance = provenance_from(c, w, r.provenance);
  r.source = io::get_string(c, "source", w, std::string());
  if (auto t = io::get_optional_quantity(c, "theoretical", Dimension::byte_rate, w))
    r.theoretical = ByteRate(*t);
  r.formula = io::get_string(c, "formula", w, std::string());
  if (c.contains("stats")) {
    r.stats = stats_from_json(c["stats"], w / "stats");
    check_within_samples(r.bandwidth.value, c["stats"], *r.stats, w, "bandwidth");
  }
  r.size_bytes = io::get_optional_quantity(c, "size", Dimension::bytes, w);
  r.convention = io::get_string(c, "convention", w, std::string());
  if (!r.convention.empty() && r.convention != "named" && r.convention != "moved")
    io::fail(w / "convention", "expected \"named\" or \"moved\" (got \"" + r.convention + "\")");
  if (auto it = c.find("mixes"); it != c.end()) {
    if (!it->is_object()) io::fail(w / "mixes", "expected an object {mix: byte/s}");
    for (const auto& [mix, _] : it->items())
      r.mixes[mix] = io::get_quantity(*it, mix, Dimension::byte_rate, w / "mixes");
  }
  return r;
}

}  // namespace

MachineDocument machine_from_json(const json& j, const std::string& origin) {
  const Where top{origin, ""};
  io::check_schema(j, kMachineSchema, kMachineVersion, top);
  MachineDocument m;
  m.origin = origin;
  m.roofs.name = io::get_string(j, "name", top);
  // Every message, table and chart names the machine: "machine : …" reads as a fault.
  if (trim(m.roofs.name).empty()) io::fail(top / "name", "an empty machine name");
  m.roofs.units = units_from_json(j, top);
  m.roofs.default_compute = io::get_string(j, "default_compute", top, std::string());
  m.roofs.default_memory = io::get_string(j, "default_memory", top, std::string());
  if (auto it = j.find("info"); it != j.end()) {
    if (!it->is_object()) io::fail(top / "info", "expected an object");
    set_info(m, *it);
  }
  const json& compute = array_field(j, "compute", top);
  for (size_t i = 0; i < compute.size(); ++i)
    m.roofs.compute.push_back(
        compute_roof_from_json(compute[i], (top / "compute")[i], m.roofs.units));
  const json& memory = array_field(j, "memory", top);
  for (size_t i = 0; i < memory.size(); ++i)
    m.roofs.memory.push_back(memory_roof_from_json(memory[i], (top / "memory")[i]));
  const json& curve = array_field(j, "curve", top);
  for (size_t i = 0; i < curve.size(); ++i) {
    const Where w = (top / "curve")[i];
    CurveSample s;
    s.intensity = Intensity(io::get_quantity(curve[i], "intensity", Dimension::intensity, w));
    s.performance = WorkRate(io::get_quantity(curve[i], "performance", Dimension::work_rate, w));
    m.roofs.empirical_curve.push_back(s);
  }
  if (m.roofs.compute.empty() && m.roofs.memory.empty())
    io::fail(top, "a machine needs at least one compute or memory roof");
  try {
    m.roofs.validate();
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
  static const char* known[] = {"schema",         "version", "name",    "units",  "default_compute",
                                "default_memory", "info",    "compute", "memory", "curve"};
  for (const auto& [key, value] : j.items()) {
    bool is_known = false;
    for (const char* k : known) is_known = is_known || key == k;
    if (!is_known) set_section(m, key, value);
  }
  return m;
}

json machine_to_json(const MachineDocument& m) {
  json j = {{"schema", kMachineSchema}, {"version", kMachineVersion}, {"name", m.roofs.name}};
  if (!(m.roofs.units == UnitSystem{})) j["units"] = units_to_json(m.roofs.units);
  if (!m.roofs.default_compute.empty()) j["default_compute"] = m.roofs.default_compute;
  if (!m.roofs.default_memory.empty()) j["default_memory"] = m.roofs.default_memory;
  if (!m.info.empty()) j["info"] = info_json(m);
  json compute = json::array();
  for (const auto& r : m.roofs.compute) {
    json c = {{"name", r.name},
              {"precision", r.precision},
              {"unit", r.unit},
              {"peak", r.peak.value},
              {"provenance", to_string(r.provenance)}};
    if (!r.source.empty()) c["source"] = r.source;
    if (r.theoretical) c["theoretical"] = r.theoretical->value;
    if (!r.formula.empty()) c["formula"] = r.formula;
    if (r.stats) c["stats"] = statistics_to_json(*r.stats);
    if (r.integer) c["integer"] = true;
    if (r.sparse) c["sparse"] = true;
    compute.push_back(std::move(c));
  }
  j["compute"] = std::move(compute);
  json memory = json::array();
  for (const auto& r : m.roofs.memory) {
    json c = {{"level", r.level},
              {"kind", r.kind},
              {"bandwidth", r.bandwidth.value},
              {"provenance", to_string(r.provenance)}};
    if (!r.source.empty()) c["source"] = r.source;
    if (r.theoretical) c["theoretical"] = r.theoretical->value;
    if (!r.formula.empty()) c["formula"] = r.formula;
    if (r.stats) c["stats"] = statistics_to_json(*r.stats);
    if (r.size_bytes) c["size"] = *r.size_bytes;
    if (!r.convention.empty()) c["convention"] = r.convention;
    if (!r.mixes.empty()) c["mixes"] = r.mixes;
    memory.push_back(std::move(c));
  }
  j["memory"] = std::move(memory);
  if (!m.roofs.empirical_curve.empty()) {
    json curve = json::array();
    for (const auto& s : m.roofs.empirical_curve)
      curve.push_back({{"intensity", s.intensity.value}, {"performance", s.performance.value}});
    j["curve"] = std::move(curve);
  }
  for (const auto& [key, text] : m.sections) j[key] = from_json_text(text);
  return j;
}

MachineDocument load_machine_file(const std::filesystem::path& path) {
  const std::string origin = path.string();
  MachineDocument m = machine_from_json(parse_json(read_text_file(path), origin), origin);
  m.file = origin;
  return m;
}

namespace {
/// What a point's W counts: `work_unit` ("FLOP" or "OP") where given, else the unit its `work`
/// string names ("2 TOP"), else "" (as its precision says). The two, when both are given, agree.
std::string work_unit_from_json(const json& pj, const Where& w) {
  const json* work = pj.contains("work") ? &pj["work"] : nullptr;
  const std::string named = work && work->is_string()
                                ? work_unit_named(work->get<std::string>(), Dimension::work)
                                : std::string();
  if (!pj.contains("work_unit")) return named;
  const std::string given = io::get_string(pj, "work_unit", w);
  // Any case, as Python's Point(work_unit=) takes it; written back as "FLOP" or "OP".
  const std::string unit = iequals(given, "FLOP") ? "FLOP" : iequals(given, "OP") ? "OP" : "";
  if (unit.empty())
    io::fail(w / "work_unit", "'" + terminal_safe(given) + "': expected \"FLOP\" or \"OP\"");
  if (!named.empty() && named != unit)
    io::fail(w / "work", "names " + named + " but work_unit is " + unit);
  return unit;
}
/// A point's field that is a known one misspelt ("precison", "Precision") is refused: it would
/// not be read, and the point judged without it (on the default roof: the verdict flips).
void refuse_misspelt_fields(const json& pj, const Where& w) {
  io::refuse_misspelt_fields(
      pj, w,
      {"name", "work", "work_unit", "time", "precision", "source", "note", "energy", "weight",
       "traffic", "level", "run", "diagnosis", "above_roof_cause", "vector_only"},
      "a misspelt field is not read: the point would be judged without it");
}

/// `roofline run`'s runs that are no point (run.bandwidth_only: W = 0, such as copy), named as
/// a run's point is ("copy @L1", RunRecord::to_point), each with why none was made.
std::vector<PointLeftOut> bandwidth_only_runs(const json& j, const Where& top) {
  std::vector<PointLeftOut> out;
  if (!j.contains("run") || !j["run"].is_object() || !j["run"].contains("bandwidth_only"))
    return out;
  const Where w = top / "run" / "bandwidth_only";
  const json& runs = j["run"]["bandwidth_only"];
  if (!runs.is_array()) io::fail(w, "expected an array of runs");
  for (size_t i = 0; i < runs.size(); ++i) {
    const Where rw = w[i];
    if (!runs[i].is_object()) io::fail(rw, "expected a run (kernel, level, bandwidth, ...)");
    const std::string variant = io::get_string(runs[i], "variant", rw, std::string());
    const std::string level = io::get_string(runs[i], "level", rw, std::string());
    const std::string name = io::get_string(runs[i], "kernel", rw) +
                             (variant.empty() ? "" : " [" + variant + "]") +
                             (level.empty() ? "" : " @" + level);
    std::string detail = name + " does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run";
    if (const auto b = io::get_optional_quantity(runs[i], "bandwidth", Dimension::byte_rate, rw))
      detail += " (Q/T = " + format_byte_rate(ByteRate(*b)) + ")";
    PointLeftOut run{name, "no arithmetic, W = 0", detail + ", not a point"};
    run.bandwidth_only = true;
    // Its Q and T, as a run's point carries them (run_record_to_json: traffic, sustained).
    if (runs[i].contains("traffic")) {
      const json& t = runs[i]["traffic"];
      if (!t.is_array()) io::fail(rw / "traffic", "expected [{level, bytes}]");
      for (size_t k = 0; k < t.size(); ++k)
        run.traffic.push_back(
            {io::get_string(t[k], "level", (rw / "traffic")[k]),
             Bytes(io::get_quantity(t[k], "bytes", Dimension::bytes, (rw / "traffic")[k]))});
    }
    run.time = io::get_optional_quantity(runs[i], "sustained", Dimension::seconds, rw).value_or(0);
    out.push_back(std::move(run));
  }
  return out;
}
}  // namespace

PointsDocument points_from_json(const json& j, const std::string& origin,
                                const JsonKeyOrder* traffic_order) {
  const Where top{origin, ""};
  io::check_schema(j, kPointsSchema, kPointsVersion, top);
  PointsDocument doc;
  doc.origin = origin;
  doc.machine = io::get_string(j, "machine", top, std::string());
  doc.units = units_from_json(j, top);
  const json& points = io::require(j, "points", top);
  if (!points.is_array()) io::fail(top / "points", "expected an array");
  // A point without a name is named by its place ("point 3"), unless the file gives that name
  // to another point: then "point 3 (no name)" (or "(no name 2)", ... past those too), so no
  // generated name collides with a real one (diff and check pair points by name).
  std::set<std::string> given;
  for (const json& pj : points)
    if (pj.is_object() && pj.contains("name") && pj["name"].is_string())
      given.insert(pj["name"].get<std::string>());
  for (size_t i = 0; i < points.size(); ++i) {
    const json& pj = points[i];
    const Where w = (top / "points")[i];
    refuse_misspelt_fields(pj, w);
    Point p;
    const std::string n = std::to_string(i + 1);
    std::string place = "point " + n;
    if (given.count(place)) place += " (no name)";
    for (int k = 2; given.count(place); ++k)
      place = "point " + n + " (no name " + std::to_string(k) + ")";
    p.name = io::get_string(pj, "name", w, place);
    p.work = Work(io::get_quantity(pj, "work", Dimension::work, w));
    p.work_unit = work_unit_from_json(pj, w);
    p.time = Seconds(io::get_quantity(pj, "time", Dimension::seconds, w));
    p.precision = io::get_string(pj, "precision", w, std::string());
    p.source = io::get_string(pj, "source", w, std::string());
    p.note = io::get_string(pj, "note", w, std::string());
    // Work on no matrix engine (an axpy, an elementwise operator): judged on the vector roof of
    // its precision (Point::vector_only), in a file as in the program that wrote it.
    p.vector_only = io::get_bool(pj, "vector_only", w, false);
    // Joules, a number or a string with its unit ("1.2 kJ"), as work and time are; > 0, a
    // negative energy as 0: 0 would read as "not measured", which is the field left out (or
    // null).
    if (const auto it = pj.find("energy"); it != pj.end() && it->is_number() && *it == 0)
      io::fail(w / "energy", "must be > 0 (got 0): leave it out when not measured");
    if (const auto e = io::get_optional_quantity(pj, "energy", Dimension::energy, w)) p.energy = *e;
    if (pj.contains("weight")) {
      if (!pj["weight"].is_number()) io::fail(w / "weight", "expected a number >= 0");
      p.weight = pj["weight"].get<double>();
    }
    const json& t = io::require(pj, "traffic", w);
    const std::string level = io::get_string(pj, "level", w, std::string());
    if (t.is_number() || t.is_string()) {
      p.traffic.push_back({level, Bytes(io::get_quantity(pj, "traffic", Dimension::bytes, w))});
    } else if (t.is_object()) {
      // In the file's order where the parser recorded it (the JSON object keeps its keys
      // sorted): the first level given is the one diff quotes I at, as Python's Point keeps it.
      const std::vector<std::string>* given_order =
          traffic_order && i < traffic_order->keys.size() ? &traffic_order->keys[i] : nullptr;
      std::vector<std::string> levels;
      if (given_order && given_order->size() == t.size() &&
          std::all_of(given_order->begin(), given_order->end(),
                      [&](const std::string& k) { return t.contains(k); }))
        levels = *given_order;
      else
        for (const auto& [lvl, _] : t.items()) levels.push_back(lvl);
      for (const auto& lvl : levels)
        p.traffic.push_back(
            {lvl, Bytes(io::get_quantity(t, lvl, Dimension::bytes, w / "traffic"))});
    } else if (t.is_array()) {
      for (size_t k = 0; k < t.size(); ++k) {
        const Where tw = (w / "traffic")[k];
        p.traffic.push_back({io::get_string(t[k], "level", tw),
                             Bytes(io::get_quantity(t[k], "bytes", Dimension::bytes, tw))});
      }
    } else {
      io::fail(w / "traffic", "expected bytes, {level: bytes} or [{level, bytes}]");
    }
    if (p.traffic.empty()) io::fail(w / "traffic", "no traffic given");
    try {
      p.validate();
    } catch (const InputError& e) {
      io::fail(w, e.what());
    }
    doc.points.push_back(std::move(p));
  }
  doc.not_points = bandwidth_only_runs(j, top);
  return doc;
}

json point_to_json(const Point& p) {
  json traffic = json::array();
  for (const auto& t : p.traffic) traffic.push_back({{"level", t.level}, {"bytes", t.bytes.value}});
  json j = {{"name", p.name}, {"work", p.work.value}, {"traffic", traffic}, {"time", p.time.value}};
  if (!p.precision.empty()) j["precision"] = p.precision;
  if (!p.work_unit.empty()) j["work_unit"] = p.work_unit;
  if (!p.source.empty()) j["source"] = p.source;
  if (!p.note.empty()) j["note"] = p.note;
  if (p.weight > 0) j["weight"] = p.weight;
  if (p.energy > 0) j["energy"] = p.energy;
  if (p.vector_only) j["vector_only"] = true;
  return j;
}

json points_to_json(const PointsDocument& doc) {
  json j = {{"schema", kPointsSchema}, {"version", kPointsVersion}};
  if (!doc.machine.empty()) j["machine"] = doc.machine;
  if (!(doc.units == UnitSystem{})) j["units"] = units_to_json(doc.units);
  json pts = json::array();
  for (const auto& p : doc.points) pts.push_back(point_to_json(p));
  j["points"] = std::move(pts);
  return j;
}

PointsDocument load_points_file(const std::filesystem::path& path) {
  const std::string origin = path.string();
  JsonKeyOrder order = points_traffic_order();
  const json j = parse_json(read_text_file(path, kMaxPointsBytes), origin, &order);
  return points_from_json(j, origin, &order);
}

}  // namespace roofline
