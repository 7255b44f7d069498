// What `roofline hw` prints (hw_output.hpp).
#include "roofline/hw_output.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "roofline/dtype.hpp"
#include "roofline/hardware.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/table.hpp"

namespace roofline {
namespace {

/// A roof's provenance as `hw show` prints it: a reported figure says who reported it (the
/// source column names the third party), a theoretical one its formula.
std::string provenance_cell(Provenance p, const std::string& formula) {
  if (p == Provenance::reported) return "reported by a third party";
  return to_string(p) + (formula.empty() ? "" : ": " + terminal_safe(formula));
}

std::string intensity_text(Intensity i, const UnitSystem& u) {
  return format_number(i.value) + " " + u.intensity();
}
std::string year_text(const HardwareSummary& s) {
  return s.release_year ? std::to_string(*s.release_year) : "";
}

}  // namespace

std::string render_hardware_list(const std::vector<HardwareSummary>& shown, size_t total) {
  Table t({"name", "vendor", "kind", "year", "default compute roof", "peak", "memory", "bandwidth",
           "capacity"});
  for (const auto& e : shown) {
    const RoofSet& r = e.machine.roofs;
    std::string roof, peak, level, bw;
    const std::string capacity = e.memory_bytes ? format_si(*e.memory_bytes, "B") : "";
    if (!r.compute.empty()) {
      const ComputeRoof& c = r.select_compute("");
      roof = c.name;
      peak = format_work_rate(c.peak, r.units_of(c));
    }
    if (const MemoryRoof* m = r.default_memory_roof()) {
      level = m->level;
      bw = format_byte_rate(m->bandwidth, r.units);
    }
    t.add_row({terminal_safe(e.name), terminal_safe(e.vendor), terminal_safe(e.kind), year_text(e),
               terminal_safe(roof), peak, terminal_safe(level), bw, capacity});
  }
  std::string text = t.render();
  text += std::to_string(shown.size()) + " of " + std::to_string(total) +
          " devices (datasheet roofs; `roofline hw show NAME` for sources and ridges)\n";
  return text;
}

std::string render_hardware_show(const HardwareSummary& s, const std::vector<RidgePoint>& ridges) {
  const RoofSet& r = s.machine.roofs;
  std::string text = terminal_safe(s.display_name) + " (" + terminal_safe(s.name) + ")\n";
  std::vector<std::string> facts;
  if (!s.vendor.empty()) facts.push_back("vendor " + terminal_safe(s.vendor));
  if (!s.kind.empty()) facts.push_back("kind " + terminal_safe(s.kind));
  if (s.release_year) facts.push_back("released " + std::to_string(*s.release_year));
  const MachineFacts& f = s.facts;
  if (f.clock) {
    if (f.clock->mhz)
      facts.push_back(f.clock->basis + " clock " + format_number(*f.clock->mhz) + " MHz");
    else if (!f.clock->basis.empty())
      facts.push_back(f.clock->basis + " clock (not published)");
  }
  if (f.power.watts) facts.push_back("power " + format_number(*f.power.watts) + " W");
  if (!facts.empty()) text += join(facts) + "\n";
  if (!s.aliases.empty()) text += "aliases: " + terminal_safe(join(s.aliases)) + "\n";
  text += "\n";

  Table ct({"compute roof", "peak", "kind", "provenance", "source"});
  for (const auto& c : r.compute)
    ct.add_row({terminal_safe(c.name), format_work_rate(c.peak, r.units_of(c)),
                c.sparse ? "sparse" : "dense", provenance_cell(c.provenance, c.formula),
                terminal_safe(c.source)});
  text += ct.render() + "\n";
  Table mt({"memory roof", "kind", "bandwidth", "size", "provenance", "source"});
  const MemoryRoof* default_memory = r.default_memory_roof();
  for (const auto& m : r.memory)
    mt.add_row({terminal_safe(m.level) + (&m == default_memory ? " (default)" : ""),
                terminal_safe(m.kind), format_byte_rate(m.bandwidth, r.units),
                m.size_bytes ? format_si(*m.size_bytes, r.units.traffic_symbol()) : "",
                provenance_cell(m.provenance, m.formula), terminal_safe(m.source)});
  text += mt.render();
  if (!ridges.empty()) {
    text += "\nRidge points I* = peak / bandwidth against " + ridges.front().memory_level + " (" +
            format_byte_rate(ridges.front().bandwidth, r.units) +
            "): left of I* memory-bound, right of it compute-bound\n";
    Table rt({"compute roof", "peak", "ridge I*"});
    // Each ridge's roof by name, looked up once (a search per ridge made a document of 100000
    // roofs take two minutes); the first roof of a name, as find_compute gives it.
    std::map<std::string, const ComputeRoof*> by_name;
    for (const auto& c : r.compute) by_name.emplace(lower(c.name), &c);
    for (const auto& p : ridges) {
      const auto found = by_name.find(lower(p.compute_roof));
      const ComputeRoof* c = found == by_name.end() ? nullptr : found->second;
      const UnitSystem u = c ? r.units_of(*c) : r.units;
      rt.add_row({p.compute_roof + (c && r.default_compute == c->name ? " (default)" : ""),
                  format_work_rate(p.peak, u), intensity_text(p.ridge, u)});
    }
    text += rt.render();
  }
  if (!f.caches.empty()) {
    text += "\nCaches (size only: no published bandwidth, so no roof):";
    for (const auto& c : f.caches)
      text += " " + terminal_safe(c.level.empty() ? "?" : c.level) + " " +
              format_number(c.size_bytes / 1048576.0) + " MiB";
    text += "\n";
  }
  // The source of every other value (the roofs carry theirs in the tables above): release
  // year, clock, power, interconnect bandwidth and latency, caches, recorded disagreements.
  const auto sources = value_sources(s.machine);
  const size_t info_rows = sources.size() - r.compute.size() - r.memory.size();
  if (info_rows > 0) {
    Table st({"value", "figure", "source"});
    for (size_t i = 0; i < info_rows; ++i)
      st.add_row({terminal_safe(sources[i].value), terminal_safe(sources[i].figure),
                  sources[i].source.empty() ? "(no source)" : terminal_safe(sources[i].source)});
    text += "\nSources\n" + st.render();
  }
  if (!f.unverified.empty()) {
    std::vector<std::string> names;
    for (const auto& v : f.unverified) names.push_back(terminal_safe(v));
    text += "not re-read against their source in this revision: " + join(names) + "\n";
  }
  for (const auto& n : f.notes) text += "note: " + terminal_safe(n) + "\n";
  return text;
}

std::string render_comparison(const Comparison& c, const std::vector<const RoofSet*>& sets,
                              const std::string& label) {
  // The intensity in each roof's own unit: OP/byte on an integer roof, FLOP/byte on the others.
  const UnitSystem& first = c.machines.front().units;
  std::string at = intensity_text(c.intensity, first);
  for (size_t i = 1; i < c.machines.size(); ++i)
    if (other_work_than_first(c, i)) {
      at += " on the " + first.work_rate() + " roofs, " + c.machines[i].units.intensity() +
            " on the " + c.machines[i].units.work_rate() + " ones";
      break;
    }
  std::string text = "At I = " + at + (label.empty() ? "" : " (" + label + ")") +
                     ": the vertical line through each machine's roofs (docs/model.md §7)\n";
  Table t({"machine", "compute roof", "peak", "memory", "bandwidth", "ridge I*", "side",
           "attainable", "vs first", "regime"});
  for (size_t i = 0; i < c.machines.size(); ++i) {
    const auto& m = c.machines[i];
    const UnitSystem& mu = m.units;
    t.add_row({m.machine, m.compute_roof, format_work_rate(m.peak, mu), m.memory_level,
               format_byte_rate(m.bandwidth, sets[i]->units), intensity_text(m.ridge, mu),
               m.memory_side ? "memory-bound" : "compute-bound", format_work_rate(m.attainable, mu),
               format_number(c.ratios[i], 4) + "x" + (other_work_than_first(c, i) ? " *" : ""),
               i == 0 ? "" : to_string(c.regimes[i])});
  }
  text += t.render();
  const auto& base = c.machines.front();
  for (size_t i = 1; i < c.machines.size(); ++i) {
    const auto& m = c.machines[i];
    std::string why;
    switch (c.regimes[i]) {
      case Regime::bandwidth:
        why = "both left of their ridges: the ratio of bandwidths";
        break;
      case Regime::peak:
        why = "both right of their ridges: the ratio of peaks";
        break;
      case Regime::mixed:
        why = "one memory-bound, one compute-bound: neither ratio alone";
        break;
      case Regime::reference:  // the first machine only; this loop starts at the second
        break;
    }
    // Below 1 the ratio is a slowdown: named so, with its inverse.
    const std::string ratio = c.ratios[i] >= 1
                                  ? format_number(c.ratios[i], 4) + "x best-case speedup"
                                  : format_number(c.ratios[i], 4) + "x: a best-case slowdown (" +
                                        base.machine + " is " + format_number(1 / c.ratios[i], 4) +
                                        "x faster)";
    text += m.machine + " vs " + base.machine + ": " + ratio + " (" + to_string(c.regimes[i]) +
            ", " + why +
            (other_work_than_first(c, i)
                 ? "; " + m.units.work_rate() + " over " + base.units.work_rate() + ": see *"
                 : std::string()) +
            ")\n";
  }
  if (const std::string note = mixed_work_note(c); !note.empty()) text += "* " + note + "\n";
  return text;
}

std::string comparison_label(const std::string& point, const std::string& level,
                             const std::string& precision) {
  std::string label = point;
  if (!label.empty() && !level.empty()) label += " at " + level;
  if (!precision.empty())
    label += (label.empty() ? "" : ", ") + std::string("precision ") + precision;
  return label;
}

std::vector<std::string> ridge_rows_left_out(const std::vector<HardwareSummary>& entries,
                                             const std::vector<RidgeRow>& rows,
                                             const std::string& level) {
  std::vector<std::string> out;
  for (const auto& e : entries)
    if ((level.empty() || has_memory_level(e.machine.roofs, level)) &&
        std::none_of(rows.begin(), rows.end(), [&](const RidgeRow& r) { return r.device == &e; }))
      out.push_back(e.name);
  return out;
}

std::string render_ridges_not_at_level(const std::vector<HardwareSummary>& entries,
                                       const std::string& level) {
  std::vector<std::string> names;
  for (const auto& e : entries)
    if (!level.empty() && !has_memory_level(e.machine.roofs, level)) names.push_back(e.name);
  return names.empty() ? std::string()
                       : "not listed (no memory roof '" + terminal_safe(level) +
                             "'): " + terminal_safe(join(names)) + "\n";
}

namespace {

/// Why a device has no column of the ridge table (find_compute_roof's rule): "no dense roof of
/// fp64, fp32" for groups of precisions ("fp16/bf16": each part a precision), "no roof named
/// fp16 tensor sparse" for a --precision value that names a roof, both where given together; the
/// labels made safe for the terminal.
std::string missing_ridge_roof(const std::vector<PrecisionGroup>& groups) {
  std::vector<std::string> precisions, roofs;
  for (const auto& g : groups) {
    const bool of_precisions =
        !g.precisions.empty() &&
        std::all_of(g.precisions.begin(), g.precisions.end(),
                    [](const std::string& p) { return is_roof_precision(p); });
    (of_precisions ? precisions : roofs).push_back(terminal_safe(g.label));
  }
  std::string why = precisions.empty() ? "" : "no dense roof of " + join(precisions);
  if (!roofs.empty())
    why += (why.empty() ? "" : ", ") + std::string("no roof named ") + join(roofs, " or ");
  return why;
}

/// The roof a ridge column was taken at, as the table's heading says it (find_compute_roof's
/// rule): "highest dense roof of fp32" for a precision, "sparse roof 'fp16 tensor sparse'" for a
/// roof named by the --precision value, both where some machines have the roof by name and
/// others only by precision.
std::string ridge_roof_basis(const std::vector<RidgeRow>& rows, const PrecisionGroup& g,
                             size_t column) {
  bool named = false, sparse = false, by_precision = false;
  for (const auto& row : rows) {
    if (column >= row.ridges.size() || !row.ridges[column]) continue;
    const ComputeRoof* c = row.device->machine.roofs.find_compute(row.ridges[column]->compute_roof);
    const bool by_name = c && c->name == g.label;
    named |= by_name;
    sparse |= by_name && c->sparse;
    by_precision |= !by_name;
  }
  const std::string label = terminal_safe(g.label);
  if (!named) return "highest dense roof of " + label;
  return std::string(sparse ? "sparse roof '" : "roof '") + label + "'" +
         (by_precision ? " (else the highest dense roof of " + label + ")" : "");
}

/// The roofs the ridge columns were taken at: `all_dense` ("highest dense roof of each
/// precision") when every column took the highest dense roof, else each column's roof
/// (ridge_roof_basis), joined by "; ".
std::string ridge_roofs_heading(const std::vector<RidgeRow>& rows,
                                const std::vector<PrecisionGroup>& groups,
                                const std::string& all_dense_text) {
  std::vector<std::string> bases;
  bool all_dense = true;
  for (size_t g = 0; g < groups.size(); ++g) {
    bases.push_back(ridge_roof_basis(rows, groups[g], g));
    all_dense = all_dense && bases.back().rfind("highest dense roof of ", 0) == 0;
  }
  return all_dense ? all_dense_text : join(bases, "; ");
}

}  // namespace

std::string render_ridges_left_out(const std::vector<std::string>& left_out,
                                   const std::vector<PrecisionGroup>& groups) {
  if (left_out.empty()) return "";
  const std::string why = missing_ridge_roof(groups);
  return "not listed (" + why + "): " + terminal_safe(join(left_out)) + "\n";
}

std::string ridge_added_not_shown(const std::vector<AddedMachine>& added,
                                  const std::vector<HardwareSummary>& entries,
                                  const std::vector<RidgeRow>& rows,
                                  const std::vector<PrecisionGroup>& groups,
                                  const std::string& level) {
  for (const AddedMachine& a : added) {
    // Named, not bound: clang before 16 (the sanitizer builds) lets no lambda capture a binding.
    const std::string& spec = a.spec;
    const std::string& name = a.name;
    const auto is = [&](const HardwareSummary& e) { return e.name == name; };
    const auto kept = std::find_if(entries.begin(), entries.end(), is);
    const auto shows = [&](const RidgeRow& r) { return r.device->name == name; };
    if (kept == entries.end() || std::any_of(rows.begin(), rows.end(), shows)) continue;
    if (!level.empty() && !has_memory_level(kept->machine.roofs, level))
      return "--add " + terminal_safe(spec) + ": no memory roof '" + terminal_safe(level) +
             "', the level the table shows";
    return "--add " + terminal_safe(spec) + ": " + missing_ridge_roof(groups) +
           ", the roofs the table shows (give --precision for another)";
  }
  return "";
}

std::string render_ridge_rows(const std::vector<RidgeRow>& rows,
                              const std::vector<PrecisionGroup>& groups, const std::string& level) {
  std::vector<std::string> header = {"year", "name", "memory", "bandwidth"};
  for (const auto& g : groups) header.push_back("I* " + g.label);
  Table t(header);
  bool integer = false;  // a cell in OP/byte, starred: a group of both kinds mixes the units
  bool narrow = false;   // a cell of a narrow-accumulate roof (†): half the rate in fp32
  for (const auto& row : rows) {
    const RidgePoint* any = nullptr;
    for (const auto& r : row.ridges)
      if (r) any = &*r;
    std::vector<std::string> cells = {year_text(*row.device), row.device->name, any->memory_level,
                                      format_byte_rate(any->bandwidth)};
    // An empty cell: the device publishes no dense roof of that precision.
    for (const auto& r : row.ridges) {
      const bool op = r && r->units.work == "OP";
      const ComputeRoof* c = r ? row.device->machine.roofs.find_compute(r->compute_roof) : nullptr;
      const bool acc = c && accumulates_narrow(*c);
      integer |= op;
      narrow |= acc;
      cells.push_back(r ? format_number(r->ridge.value, 4) + (op ? "*" : "") + (acc ? "†" : "")
                        : "");
    }
    t.add_row(cells);
  }
  const std::string dense = "highest dense roof of each precision";
  const std::string heading = ridge_roofs_heading(rows, groups, dense);
  std::string text = "Ridge points I* = peak / bandwidth (FLOP/byte; OP/byte for integer roofs), " +
                     heading + " against " +
                     (level.empty() ? std::string("main memory") : terminal_safe(level)) +
                     ", by release year (docs/model.md §8)\n";
  text += t.render();
  if (integer)
    text += std::string("* OP/byte: the group's ") +
            (heading == dense ? "highest dense roof" : "roof") +
            " is an integer one (int8: OP/s), the other cells FLOP/byte\n";
  if (narrow)
    text +=
        "† the device's only roof of the group accumulates narrower than fp32 (GeForce's "
        "fp16-accumulate mode): frameworks accumulate matrix products in fp32, at half that "
        "rate, so the ridge reads 2x high beside the other cells\n";
  return text;
}

std::string ridge_rows_to_csv(const std::vector<RidgeRow>& rows,
                              const std::vector<PrecisionGroup>& groups) {
  std::string text =
      "name,vendor,kind,release_year,group,compute_roof,peak,memory_level,bandwidth,ridge,"
      "ridge_unit\n";
  for (const auto& row : rows)
    for (size_t g = 0; g < groups.size(); ++g) {
      if (!row.ridges[g]) continue;
      const RidgePoint& p = *row.ridges[g];
      // Names come from catalogue files: one rule for every cell (sanitize.hpp).
      text += csv_cell(row.device->name) + "," + csv_cell(row.device->vendor) + "," +
              csv_cell(row.device->kind) + "," + year_text(*row.device) + "," +
              csv_cell(groups[g].label) + "," + csv_cell(p.compute_roof) + "," +
              csv_number(p.peak.value, 6) + "," + csv_cell(p.memory_level) + "," +
              csv_number(p.bandwidth.value, 6) + "," + csv_number(p.ridge.value, 6) + "," +
              csv_cell(p.units.intensity()) + "\n";
    }
  return text;
}

TrajectoryInput ridge_trajectory(const std::vector<RidgeRow>& rows,
                                 const std::vector<PrecisionGroup>& groups,
                                 const std::string& level, const std::string& kind) {
  TrajectoryInput t;
  t.title = "Memory-wall trajectory: ridge points by release year";
  t.subtitle = "I* = π/β of the " +
               ridge_roofs_heading(rows, groups, "highest dense roof of each precision group") +
               " against " + (level.empty() ? std::string("main memory") : level) +
               (kind.empty() ? std::string() : ", kind " + lower(kind)) + " (docs/model.md §8)";
  for (size_t g = 0; g < groups.size(); ++g) {
    TrajectorySeries series{groups[g].label, {}};
    for (const auto& row : rows) {
      const HardwareSummary& e = *row.device;
      if (!row.ridges[g] || !e.release_year) continue;
      const RidgePoint& p = *row.ridges[g];
      const ComputeRoof* c = e.machine.roofs.find_compute(p.compute_roof);
      const UnitSystem u = c ? e.machine.roofs.units_of(*c) : e.machine.roofs.units;
      series.points.push_back(
          {e.name, *e.release_year, p.ridge.value, u.intensity(), p.compute_roof, p.memory_level});
    }
    if (!series.points.empty()) t.series.push_back(std::move(series));
  }
  for (const auto& row : rows)
    if (!row.device->release_year) t.undated.push_back(row.device->name);
  return t;
}

}  // namespace roofline
