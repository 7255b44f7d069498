#include "roofline/text.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "report/chart.hpp"
#include "report/spread.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
bool terminal_supports_color(std::FILE* stream) {
  // no-color.org: only a NO_COLOR that is present and not empty turns colour off.
  if (const char* no_color = std::getenv("NO_COLOR"); no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(::fileno(stream)) != 0;
}

const char* verdict_color(Verdict v) {
  switch (v) {
    case Verdict::far_below:
      return "33";  // yellow
    case Verdict::just_below:
      // Blue, the one hue the others leave; bold, as plain blue is dim on a black terminal (the
      // renderers' output keeps SGR codes 0, 1 and 30-37 only: sanitize.cpp's color_sequence).
      return "34;1";
    case Verdict::memory_bound:
      return "36";  // cyan
    case Verdict::compute_bound:
      return "32";  // green
    case Verdict::faster_unit_unused:
      return "35";  // magenta
    case Verdict::above_roof:
      return "31;1";  // bold red
  }
  return "";
}

std::string render_point_analysis(const Point& p, const Diagnosis& d, const RoofSet& roofs,
                                  bool color) {
  const ComputeRoof* c = roofs.find_compute(d.compute_roof);
  // The point is read in its roof's units: OP, OP/s and OP/byte on an integer roof.
  const UnitSystem u = judged_units(roofs, d);
  std::string out;
  out += colorize(p.name.empty() ? std::string("point") : p.name, "1", color) + " on " +
         roofs.name + "\n";
  out += "  W = " + format_work(p.work, u) + ", T = " + format_seconds(p.time) +
         ", P = W/T = " + format_work_rate(d.performance, u) + "\n";
  Table t({"level", "Q", "I = W/Q", "roof β", "ridge I*", "side", "attainable", "attainment"});
  for (size_t i = 0; i < d.levels.size(); ++i) {
    const auto& j = d.levels[i];
    const MemoryRoof* m = roofs.find_memory(j.level);
    t.add_row({j.level, format_bytes(p.traffic[i].bytes, u), format_intensity(j.intensity, u),
               m ? format_byte_rate(m->bandwidth, u) : "?", format_number(j.ridge.value),
               j.memory_side ? "memory" : "compute", format_work_rate(j.attainable, u),
               j.attainment_percent + "%"});
  }
  std::string table = t.render();
  // indent
  std::string indented;
  size_t start = 0;
  while (start < table.size()) {
    const size_t end = table.find('\n', start);
    indented += "  " + table.substr(start, end - start + 1);
    start = end + 1;
  }
  out += "  flat roof: " + d.compute_roof +
         (c ? " = " + format_work_rate(c->peak, u) : std::string()) + "\n";
  out += indented;
  out += "  Step 1 — touching a roof? " +
         std::string(d.verdict == Verdict::above_roof ? "above it (impossible)"
                     : d.touching                     ? "yes"
                                                      : "no") +
         ": " + d.attainment_percent + "% of the attainable " + format_work_rate(d.attainable, u) +
         " (headroom " + format_number(d.headroom.factor, 3) + "x, " +
         // Two decimals: a point on its roof is 0 decades, not the -4.8e-17 of rounding.
         format_number(std::fabs(d.headroom.decades) < 0.005 ? 0.0 : d.headroom.decades, 2) +
         " decades)\n";
  const std::string roof = d.binding_is_memory ? "the slanted " + d.binding_level + " roof"
                                               : "the flat '" + d.compute_roof + "' roof";
  out += "  Step 2 — which roof? " +
         (d.verdict == Verdict::far_below
              ? std::string("none yet (left/right position is not meaningful)")
          // Not touching, yet within 20% of the roof that binds it (docs/model.md §6).
          : d.verdict == Verdict::just_below
              ? "just below " + roof + ", not yet touching it: at " + d.attainment_percent +
                    "% of it, " + format_number(d.headroom.factor, 3) + "x headroom"
              : roof) +
         "\n";
  out += "  Diagnosis: " + colorize(d.title, verdict_color(d.verdict), color) + "\n";
  out += "  What to do: " + d.prescription + "\n";
  for (const auto& cause : d.causes) out += "    - likely cause: " + cause + "\n";
  for (const auto& note : d.notes) out += "  Note: " + note + "\n";
  if (!d.empty_roofs_above.empty() && d.verdict != Verdict::faster_unit_unused) {
    const std::string names = join(d.empty_roofs_above, [](const auto& e) {
      return e.name + " " + format_number(e.gain, 3) + "x";
    });
    out += "  Higher flat roofs on this machine: " + names + "\n";
  }
  return out;
}

std::string render_kernel_catalogue(const std::vector<KernelSpec>& kernels) {
  Table t({"kernel", "sizes", "dtype", "what"});
  for (const auto& s : kernels) {
    std::string params;
    for (const auto& p : s.params) params += (params.empty() ? "--" : " --") + p;
    for (const auto& [p, _] : s.defaults) params += " [--" + p + "]";
    t.add_row({s.name, params, s.default_dtype, s.description});
  }
  return t.render();
}

std::string render_kernel_count(const KernelCount& k, const UnitSystem& u) {
  std::string out;
  out +=
      k.kernel + (k.blas_level ? " (BLAS level " + std::to_string(k.blas_level) + ")" : "") + "\n";
  out += "  W = " + format_work(k.work, u) + "  [" + k.work_formula + "]\n";
  out += "  Q = " + format_bytes(k.traffic, u) + "  [" + k.traffic_formula + "]\n";
  if (k.traffic_write_allocate.value != k.traffic.value)
    out += "  Q with write-allocate = " + format_bytes(k.traffic_write_allocate, u) + "\n";
  out += "  I = W/Q = " + format_intensity(k.intensity(), u) + "\n";
  if (k.traffic_write_allocate.value != k.traffic.value && k.work.value > 0)
    out += "  I with write-allocate = " + format_intensity(k.work / k.traffic_write_allocate, u) +
           "\n";
  if (!k.note.empty()) out += "  note: " + k.note + "\n";
  return out;
}

std::string render_kernel_on_roofs(const KernelOnRoofs& k, const std::string& machine,
                                   const UnitSystem& u) {
  std::string out = "on " + machine + " (" + k.compute_roof + " " + format_work_rate(k.peak, u) +
                    ", " + k.memory_level + " " + format_byte_rate(k.bandwidth, u) + "):\n";
  out += "  ridge I* = " + format_intensity(k.ridge, u) + " ⇒ " +
         (k.at_ridge       ? "at the ridge (W/π = Q/β: both roofs bind)"
          : k.memory_bound ? "memory-bound (left of the ridge)"
                           : "compute-bound (right of the ridge)") +
         "\n";
  out += "  attainable P = min(π, β·I) = " + format_work_rate(k.attainable, u) + "\n";
  out += "  predicted time ≥ max(W/π, Q/β) = " + format_seconds(k.time_bound) +
         " (no overlap: W/π + Q/β = " + format_seconds(k.time_no_overlap) + ")\n";
  return out;
}

std::string render_kernel_result(const KernelCount& k, const UnitSystem& u,
                                 const std::optional<KernelOnMachine>& placed) {
  std::string out = render_kernel_count(k, u);
  if (!placed) return out;
  out += render_kernel_on_roofs(placed->on, placed->machine, u);
  if (!placed->note.empty()) out += "  note: " + placed->note + "\n";
  return out;
}

std::string render_roofs(const RoofSet& roofs) {
  const UnitSystem& u = roofs.units;
  std::string out;
  if (!roofs.compute.empty()) {
    Table t({"compute roof", "peak", "provenance", "theoretical", "measured/theory", "spread"});
    for (const auto& c : roofs.compute) {
      const UnitSystem cu = roofs.units_of(c);  // integer roofs in OP/s
      t.add_row({c.name + (c.sparse ? " (sparse)" : ""), format_work_rate(c.peak, cu),
                 to_string(c.provenance), c.theoretical ? format_work_rate(*c.theoretical, cu) : "",
                 c.theoretical && c.provenance == Provenance::measured
                     ? format_number(c.peak / *c.theoretical, 3)
                     : "",
                 c.stats ? report::describe_spread(*c.stats, cu.work_rate()).brief : ""});
    }
    out += t.render();
  }
  if (!roofs.memory.empty()) {
    if (!out.empty()) out += "\n";
    Table t(
        {"memory roof", "bandwidth", "provenance", "size", "ridge I* (default roof)", "spread"});
    const ComputeRoof* c = roofs.compute.empty() ? nullptr : &roofs.select_compute("");
    for (const auto& m : roofs.memory) {
      t.add_row({m.level, format_byte_rate(m.bandwidth, u), to_string(m.provenance),
                 m.size_bytes ? format_si(*m.size_bytes, u.traffic_symbol()) : "",
                 c ? format_intensity(ridge(c->peak, m.bandwidth), roofs.units_of(*c)) : "",
                 m.stats ? report::describe_spread(*m.stats, u.traffic_rate()).brief : ""});
    }
    out += t.render();
  }
  return out;
}

namespace {

std::string spread_or_none(const std::optional<double>& x) {
  return x ? noise_percent(*x) : std::string("none");
}

/// B/A with digits enough to read apart from the noise it is judged against (0.96996, not 0.97,
/// when the noise is 3%).
std::string ratio_beside_noise(double ratio, const std::optional<double>& noise) {
  return noise ? format_number_apart(ratio, noise_bound(ratio, *noise), 4)
               : format_number(ratio, 4);
}

}  // namespace

std::string render_machines_diff(const RoofSetDiff& d, const RoofSet& a,
                                 const std::string& origin_a, const RoofSet& b,
                                 const std::string& origin_b) {
  const UnitSystem& u = a.units;
  std::string t = "A: " + terminal_safe(a.name) + " (" + terminal_safe(origin_a) +
                  ")\nB: " + terminal_safe(b.name) + " (" + terminal_safe(origin_b) + ")\n";
  for (const auto& c : d.changes) {
    // Each side's integer roof in OP/s (units_of), as `hw show` prints it.
    const std::string va = c.compute ? format_work_rate(WorkRate(c.a), {c.work_unit_a, u.traffic})
                                     : format_byte_rate(ByteRate(c.a), u);
    const std::string vb = c.compute
                               ? format_work_rate(WorkRate(c.b), {c.work_unit_b, b.units.traffic})
                               : format_byte_rate(ByteRate(c.b), u);
    t += std::string(c.compute ? "compute " : "memory ") + terminal_safe(c.name) + ": " + va +
         " → " + vb + ", B/A = " + ratio_beside_noise(c.ratio, c.noise) + " (spread A " +
         spread_or_none(c.spread_a) + ", B " + spread_or_none(c.spread_b) + "): " +
         // FLOP/s against OP/s: no change of one rate, so not judged against the noise.
         (c.work_units_differ ? work_units_not_compared(c.work_unit_a, c.work_unit_b)
                              : noise_verdict(c.exceeds_spread, c.noise)) +
         "\n";
  }
  for (const auto& n : d.only_a) t += "only in A: " + terminal_safe(n) + "\n";
  for (const auto& n : d.only_b) t += "only in B: " + terminal_safe(n) + "\n";
  if (d.ridge_a > 0)
    t += "ridge I* = π/β: " + format_intensity(Intensity(d.ridge_a), d.ridge_units_a) + " (" +
         terminal_safe(d.ridge_roofs_a) + ") → " +
         format_intensity(Intensity(d.ridge_b), d.ridge_units_b) + " (" +
         terminal_safe(d.ridge_roofs_b) + "), " +
         (d.ridge_work_units_differ
              ? work_units_not_compared(d.ridge_units_a.work, d.ridge_units_b.work)
              : "B/A = " + format_number(d.ridge_ratio, 4)) +
         "\n";
  return t;
}

std::string render_points_diff(const PointsDiff& d, const std::string& label_a,
                               const std::string& label_b) {
  std::string t = "A: " + terminal_safe(label_a) + "\nB: " + terminal_safe(label_b) + "\n";
  for (const PointChange& c : d.changes) {
    const std::string i_text =
        !c.intensity_ratio
            ? "I: no traffic level in both"
            : "I" +
                  (c.intensity_level.empty() ? std::string()
                                             : "(" + terminal_safe(c.intensity_level) + ")") +
                  " B/A = " + format_number(*c.intensity_ratio, 4);
    // An integer point's P in OP/s, as `point` prints it.
    t += terminal_safe(c.name) + ": P " + format_work_rate(c.performance_a, c.units_a) + " → " +
         format_work_rate(c.performance_b, c.units_b) +
         ", B/A = " + ratio_beside_noise(c.ratio, c.noise) + "; " + i_text + " (spread A " +
         spread_or_none(c.spread_a) + ", B " + spread_or_none(c.spread_b) + "): " +
         // FLOP/s against OP/s: no change of one rate, so not judged against the noise.
         (c.work_units_differ ? work_units_not_compared(c.units_a.work, c.units_b.work)
                              : noise_verdict(c.exceeds_spread, c.noise)) +
         // Work counted on another unit (fp32 in A, fp16 in B) is said beside the ratio.
         (c.precision_changed
              ? "; precision " + terminal_safe(c.precision_a) + " → " +
                    terminal_safe(c.precision_b) + ": P counts work on different units"
              : std::string()) +
         "\n";
  }
  for (const auto& n : d.only_a) t += "only in A: " + terminal_safe(n) + "\n";
  for (const auto& n : d.only_b) t += "only in B: " + terminal_safe(n) + "\n";
  // The runs that are no point (copy: W = 0), each once, with the documents that hold it.
  auto holds = [](const std::vector<PointLeftOut>& runs, const std::string& name) {
    return std::any_of(runs.begin(), runs.end(),
                       [&](const PointLeftOut& r) { return r.name == name; });
  };
  for (const auto& n : d.not_compared_a)
    t += terminal_safe(n.name) + (holds(d.not_compared_b, n.name) ? " (A and B): " : " (A): ") +
         terminal_safe(bandwidth_run_note(n, "not compared", "", true)) + "\n";
  for (const auto& n : d.not_compared_b)
    if (!holds(d.not_compared_a, n.name))
      t += terminal_safe(n.name) +
           " (B): " + terminal_safe(bandwidth_run_note(n, "not compared", "", true)) + "\n";
  return t;
}

}  // namespace roofline
