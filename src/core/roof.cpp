#include "roofline/roof.hpp"

#include "roofline/dtype.hpp"
#include "roofline/strings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {
namespace {
std::string list_compute(const RoofSet& s) {
  std::string out;
  for (const auto& c : s.compute) out += (out.empty() ? "" : ", ") + c.name;
  return out.empty() ? "none" : out;
}
std::string list_memory(const RoofSet& s) {
  std::string out;
  for (const auto& m : s.memory) out += (out.empty() ? "" : ", ") + m.level;
  return out.empty() ? "none" : out;
}
}  // namespace

std::string to_string(Provenance p) {
  switch (p) {
    case Provenance::measured:
      return "measured";
    case Provenance::theoretical:
      return "theoretical";
    case Provenance::datasheet:
      return "datasheet";
    case Provenance::reported:
      return "reported";
    case Provenance::given:
      return "given";
  }
  return "datasheet";
}

Provenance parse_provenance(std::string_view s) {
  if (iequals(s, "measured")) return Provenance::measured;
  if (iequals(s, "theoretical")) return Provenance::theoretical;
  if (iequals(s, "datasheet")) return Provenance::datasheet;
  if (iequals(s, "reported")) return Provenance::reported;
  if (iequals(s, "given")) return Provenance::given;
  throw InputError("provenance must be measured, theoretical, datasheet, reported or given (got '" +
                   std::string(s) + "')");
}

const ComputeRoof* RoofSet::find_compute(std::string_view n) const {
  for (const auto& c : compute)
    if (iequals(c.name, n)) return &c;
  return nullptr;
}

UnitSystem RoofSet::units_of(const ComputeRoof& c) const {
  if (c.integer && units.work == "FLOP") return {"OP", units.traffic};
  return units;
}

bool RoofSet::counts(const ComputeRoof& c, std::string_view work_unit) const {
  return work_unit.empty() || units.work != "FLOP" || units_of(c).work == work_unit;
}

std::string RoofSet::work_mismatch(const ComputeRoof& c, std::string_view work_unit) const {
  if (counts(c, work_unit)) return "";
  const UnitSystem u = units_of(c);
  auto kind = [](std::string_view unit) {
    return unit == "OP" ? std::string("integer operations") : std::string("floating-point work");
  };
  return "roof '" + c.name + "' of machine '" + name + "' counts " + kind(u.work) + " (" +
         u.work_rate() + "), not " + kind(work_unit) + " (" + std::string(work_unit) +
         "): work counted in " + std::string(work_unit) + " against a peak in " + u.work_rate() +
         " is no bound";
}

const MemoryRoof* RoofSet::find_memory(std::string_view l) const {
  for (const auto& m : memory)
    if (iequals(m.level, l)) return &m;
  return nullptr;
}

namespace {
/// The data type's canonical name for a precision key ("e4m3" → "fp8-e4m3"), "" for a key that
/// names no type (a roof's name).
std::string canonical_dtype_name(std::string_view key) {
  try {
    return parse_dtype(lower(std::string(key))).name;
  } catch (const InputError&) {
    return "";
  }
}

/// Whether a roof of precision `roof` runs `key`'s: the same name (case aside), one type under
/// another spelling (bfloat16, e4m3), or either FP8 format on a roof that datasheets give once
/// as "fp8" (one figure for E4M3 and E5M2): kernel("gemm", "fp8-e4m3") could not be judged on
/// any machine's fp8 roof.
bool runs_precision(std::string_view roof, std::string_view key) {
  if (iequals(roof, key)) return true;
  if (roof.empty()) return false;
  const std::string t = canonical_dtype_name(key);
  if (t.empty()) return false;
  return iequals(roof, t) || canonical_dtype_name(roof) == t ||
         (t.rfind("fp8-", 0) == 0 && iequals(roof, "fp8"));
}
}  // namespace

bool is_matrix_unit(const ComputeRoof& c) {
  // "neuroncore": the catalogue's Trainium roofs print AWS's chip figures (667 BF16 TFLOP/s on
  // Trainium2), 632 of them the Tensor Engines', a systolic array (NeuronCore-v3 Architecture:
  // "A NeuronCore-v3 Tensor Engine delivers 158 cFP8 TFLOPS, and 79 BF16/FP16/TF32 TFLOPS"; 8
  // cores a chip), far above what its Vector and Scalar engines run element-wise work at.
  static const char* const kWords[] = {"tensor", "matrix", "amx",       "mxu",
                                       "mme",    "sme",    "neuroncore"};
  const std::string text = lower(c.unit) + " " + lower(c.name);
  return std::any_of(std::begin(kWords), std::end(kWords),
                     [&](const char* w) { return text.find(w) != std::string::npos; });
}

bool accumulates_narrow(const ComputeRoof& c) {
  static const char* const kNarrow[] = {"fp16-accumulate", "bf16-accumulate", "fp8-accumulate"};
  const std::string text = lower(c.unit) + " " + lower(c.name);
  return std::any_of(std::begin(kNarrow), std::end(kNarrow),
                     [&](const char* w) { return text.find(w) != std::string::npos; });
}

bool outranks(const ComputeRoof& c, const ComputeRoof* best) {
  if (!best) return true;
  if (accumulates_narrow(c) != accumulates_narrow(*best)) return !accumulates_narrow(c);
  return c.peak > best->peak;
}

const ComputeRoof* RoofSet::find_compute_on(std::string_view precision,
                                            std::string_view unit) const {
  const ComputeRoof* best = nullptr;
  auto take = [&](auto pred) {
    for (const auto& c : compute)
      if (!c.sparse && runs_precision(c.precision, precision) && pred(c) && outranks(c, best))
        best = &c;
  };
  const std::string u = lower(unit);
  take([&](const ComputeRoof& c) {
    return lower(c.unit).find(u) != std::string::npos || lower(c.name).find(u) != std::string::npos;
  });
  // A CUDA core's instructions never run on the tensor pipe, nor a tensor op on the CUDA cores:
  // judged against the other unit's roof the point would read as impossible or far below.
  if (!best && (u == "tensor" || u == "matrix"))
    take([](const ComputeRoof& c) { return is_matrix_unit(c); });
  if (!best && u == "vector") take([](const ComputeRoof& c) { return !is_matrix_unit(c); });
  return best;
}

const ComputeRoof& RoofSet::select_compute(std::string_view key, std::string_view work_unit) const {
  if (compute.empty()) throw InputError("machine '" + name + "' has no compute roof");
  auto highest_of = [&](auto pred) -> const ComputeRoof* {
    const ComputeRoof* best = nullptr;
    for (const auto& c : compute)
      if (!c.sparse && pred(c) && outranks(c, best)) best = &c;
    return best;
  };
  if (!key.empty()) {
    if (const auto* c = find_compute(key)) return *c;
    if (const auto* c =
            highest_of([&](const ComputeRoof& r) { return runs_precision(r.precision, key); }))
      return *c;
    // "PRECISION UNIT" (e.g. "fp16 tensor" from a profiler import).
    if (const auto space = key.find(' '); space != std::string_view::npos)
      if (const auto* c = find_compute_on(key.substr(0, space), key.substr(space + 1))) return *c;
    // A roof that names no precision (roofs given as two numbers) stands for every precision,
    // and only for a precision: a key that names no roof and no precision (a typo, "banana") is
    // refused, as on a machine whose roofs name theirs (is_point_precision, the one rule).
    const std::string_view type = key.substr(0, key.find(' '));
    if (is_point_precision(type))
      if (const auto* c = highest_of([](const ComputeRoof& r) { return r.precision.empty(); }))
        return *c;
    throw InputError("machine '" + name + "' has no compute roof for '" + std::string(key) +
                     "' (roofs: " + list_compute(*this) + ")" +
                     (is_point_precision(type) ? ""
                                               : ": '" + std::string(type) +
                                                     "' names no roof and no precision (fp64, "
                                                     "fp32, bf16, fp16, fp8, int8, ...)"));
  }
  if (!default_compute.empty())
    if (const auto* c = find_compute(default_compute)) {
      // Refused by validate(); a set built in code may not have been validated.
      if (c->sparse)
        throw InputError("machine '" + name + "': default_compute '" +
                         terminal_safe(default_compute) +
                         "' is a sparse roof, which is never a default (name a dense roof)");
      if (counts(*c, work_unit)) return *c;
    }
  // The fallback counts the work: stated, the roofs of its unit; unstated, a floating-point roof
  // (W is FLOP unless it says otherwise), an integer one only where there is nothing else.
  // Integer work of no stated type is int8's where the machine has an int8 roof: the integer
  // type of inference and of every published TOPS figure; an int4 roof (A100: 2x int8) binds
  // only int4 operands.
  if (work_unit == "OP")
    if (const auto* c = highest_of([&](const ComputeRoof& r) {
          return counts(r, work_unit) && runs_precision(r.precision, "int8");
        }))
      return *c;
  if (const auto* c = highest_of([&](const ComputeRoof& r) {
        return counts(r, work_unit) && (!work_unit.empty() || units_of(r).work != "OP");
      }))
    return *c;
  if (work_unit.empty())
    if (const auto* c = highest_of([](const ComputeRoof&) { return true; })) return *c;
  if (!work_unit.empty() && highest_of([](const ComputeRoof&) { return true; }))
    throw InputError("machine '" + name + "' has no dense compute roof that counts " +
                     std::string(work_unit) + " (roofs: " + list_compute(*this) + ")" +
                     (work_unit == "OP" ? ": integer work needs an integer roof (int8, OP/s)"
                                        : ": floating-point work is never judged on an integer "
                                          "roof (OP/s)"));
  throw InputError("machine '" + name + "' has only sparse compute roofs (" + list_compute(*this) +
                   "), which are never a default: name one (--precision) to judge against it");
}

const MemoryRoof& RoofSet::select_memory(std::string_view level) const {
  if (memory.empty()) throw InputError("machine '" + name + "' has no memory roof");
  if (!level.empty()) {
    if (const auto* m = find_memory(level)) return *m;
    // Common synonyms: a DRAM point on an HBM machine and the reverse mean main memory.
    if (iequals(level, "dram") || iequals(level, "hbm") || iequals(level, "memory")) {
      for (const auto& m : memory)
        if (m.kind == "memory") return m;
    }
    throw InputError("machine '" + name + "' has no memory roof for level '" + std::string(level) +
                     "' (levels: " + list_memory(*this) + ")");
  }
  if (const MemoryRoof* m = default_memory_roof()) return *m;
  throw InputError("machine '" + name + "' has no default memory roof: its levels (" +
                   list_memory(*this) +
                   ") are links (interconnect or network), not a memory; give the traffic at "
                   "one of them (--level, --traffic-at LEVEL=BYTES)");
}

const MemoryRoof& RoofSet::headline_memory() const {
  if (const MemoryRoof* m = default_memory_roof()) return *m;
  if (memory.empty()) throw InputError("machine '" + name + "' has no memory roof");
  return *std::max_element(
      memory.begin(), memory.end(),
      [](const MemoryRoof& a, const MemoryRoof& b) { return a.bandwidth < b.bandwidth; });
}

const MemoryRoof* RoofSet::default_memory_roof() const {
  if (!default_memory.empty())
    if (const auto* m = find_memory(default_memory)) return m;
  for (const auto& m : memory)
    if (m.kind == "memory") return &m;
  // A link's bandwidth is not where a kernel's traffic comes from: never a default.
  const MemoryRoof* slowest = nullptr;
  for (const auto& m : memory)
    if (m.kind != "interconnect" && m.kind != "network" &&
        (!slowest || m.bandwidth < slowest->bandwidth))
      slowest = &m;
  return slowest;
}

const ComputeRoof& vector_roof_for(const RoofSet& roofs, const ComputeRoof& highest,
                                   std::string_view precision, const std::string& what,
                                   std::string& note) {
  note.clear();
  if (!is_matrix_unit(highest)) return highest;
  if (const ComputeRoof* vector = roofs.find_compute_on(precision, "vector")) return *vector;
  note = "judged on '" + highest.name + "', the only " +
         (highest.precision.empty() ? std::string(precision) : highest.precision) +
         " roof: " + what +
         " is no matrix product, which that unit runs, so the bound is optimistic";
  return highest;
}

void require_same_units(const RoofSet& a, const RoofSet& b) {
  if (!(a.units == b.units))
    throw InputError("the roofs are in different units: " + a.units.work + "/" + a.units.traffic +
                     " (" + a.name + ") against " + b.units.work + "/" + b.units.traffic + " (" +
                     b.name + ")");
}

RoofSet given_roofs(const GivenRoofs& g) {
  RoofSet r;
  r.name = g.name;
  ComputeRoof c;
  c.name = g.precision.empty() ? "peak" : g.precision;
  // "fp16 tensor" is a type and its unit, as a catalogue roof holds them apart: an fp16 point
  // finds it by its precision (it was a precision "fp16 tensor" no fp16 point named).
  const auto space = g.precision.find(' ');
  c.precision = g.precision.substr(0, space);
  if (space != std::string::npos) c.unit = trim(std::string_view(g.precision).substr(space + 1));
  // An integer precision's peak is in OP/s, as a catalogue's int8 roof is (any spelling: "i8";
  // and "ops", a TOPS figure of unnamed precision), read by the machine document's rule.
  c.integer = precision_counts_operations(c.precision).value_or(false);
  c.peak = g.peak;
  c.provenance = Provenance::given;  // the user's number, not a vendor's document
  c.source = g.peak_source;
  MemoryRoof m;
  m.level = g.level.empty() ? "DRAM" : g.level;
  m.bandwidth = g.bandwidth;
  m.provenance = Provenance::given;
  m.source = g.bandwidth_source;
  r.compute.push_back(std::move(c));
  r.memory.push_back(std::move(m));
  r.validate();
  return r;
}

void RoofSet::validate() const {
  // Names first: every later message prints them.
  require_one_line(name, "machine name");
  for (const auto& c : compute) require_one_line(c.name, "machine '" + name + "': compute roof");
  for (const auto& m : memory) require_one_line(m.level, "machine '" + name + "': memory level");
  std::set<std::string> seen;
  for (const auto& c : compute) {
    if (c.name.empty()) throw InputError("machine '" + name + "': a compute roof has no name");
    if (!seen.insert("c:" + lower(c.name)).second)
      throw InputError("machine '" + name + "': compute roof '" + c.name + "' appears twice");
    if (!std::isfinite(c.peak.value) || c.peak.value <= 0)
      throw InputError("machine '" + name + "': compute roof '" + c.name +
                       "': peak must be a positive finite rate");
  }
  for (const auto& m : memory) {
    if (m.level.empty()) throw InputError("machine '" + name + "': a memory roof has no level");
    if (!seen.insert("m:" + lower(m.level)).second)
      throw InputError("machine '" + name + "': memory level '" + m.level + "' appears twice");
    if (!std::isfinite(m.bandwidth.value) || m.bandwidth.value <= 0)
      throw InputError("machine '" + name + "': memory roof '" + m.level +
                       "': bandwidth must be a positive finite rate");
  }
  // A default that names no roof would silently judge every point against another roof.
  if (!default_compute.empty() && !find_compute(default_compute))
    throw InputError("machine '" + name + "': default_compute '" + terminal_safe(default_compute) +
                     "' names no compute roof");
  // A structured-sparsity figure holds only for 2:4-sparse operands: never a default, so a
  // machine that can judge a point needs a dense roof (select_compute).
  if (const auto* c = default_compute.empty() ? nullptr : find_compute(default_compute);
      c && c->sparse)
    throw InputError("machine '" + name + "': default_compute '" + terminal_safe(default_compute) +
                     "' is a sparse roof, which is never a default (name a dense roof)");
  if (!compute.empty() &&
      std::all_of(compute.begin(), compute.end(), [](const ComputeRoof& c) { return c.sparse; }))
    throw InputError("machine '" + name + "' has only sparse compute roofs (" +
                     list_compute(*this) + "), which are never a default: add its dense roof");
  if (!default_memory.empty() && !find_memory(default_memory))
    throw InputError("machine '" + name + "': default_memory '" + terminal_safe(default_memory) +
                     "' names no memory roof");
  // Each ridge I* = π/β must be a number too (a peak of 1e300 over a bandwidth of 1e-10
  // overflows), or every chart and table of the machine would show inf.
  for (const auto& c : compute)
    for (const auto& m : memory) {
      const double r = c.peak.value / m.bandwidth.value;
      if (!std::isfinite(r) || !std::isnormal(r))
        throw InputError("machine '" + name + "': the ridge I* = peak/bandwidth of '" + c.name +
                         "' over '" + m.level + "' (" + format_number(c.peak.value) + " / " +
                         format_number(m.bandwidth.value) +
                         ") is beyond a double's range; check the units of both roofs");
    }
}

}  // namespace roofline
