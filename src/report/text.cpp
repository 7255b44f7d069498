#include "roofline/text.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "report/spread.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {
namespace {
// Display width of UTF-8 text: count code points, not bytes (·, ², ≈ are one column each);
// colour sequences (ESC [ ... m) take no column.
size_t display_width(const std::string& s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\033' && i + 1 < s.size() && s[i + 1] == '[') {
      const size_t end = s.find('m', i);
      if (end != std::string::npos) {
        i = end;
        continue;
      }
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++w;
  }
  return w;
}
std::vector<std::string> safe_cells(const std::vector<std::string>& cells) {
  std::vector<std::string> out;
  out.reserve(cells.size());
  // A cell may be coloured by a renderer (colorize): its colour sequences pass; the final
  // pass on stdout removes them too unless stdout takes colour.
  for (const auto& c : cells) out.push_back(terminal_safe(c, true));
  return out;
}
bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  const char c = s[0];
  return (c >= '0' && c <= '9') ||
         ((c == '-' || c == '+' || c == '.') && s.size() > 1 && s[1] >= '0' && s[1] <= '9');
}
}  // namespace

bool terminal_supports_color(std::FILE* stream) {
  // no-color.org: only a NO_COLOR that is present and not empty turns colour off.
  if (const char* no_color = std::getenv("NO_COLOR"); no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(::fileno(stream)) != 0;
}

std::string Table::render() const {
  // Cells hold names from files and arguments: shown escaped (sanitize.hpp), and measured so.
  const std::vector<std::string> header = safe_cells(header_);
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : rows_) rows.push_back(safe_cells(r));
  std::vector<size_t> width(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) width[c] = display_width(header[c]);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], display_width(r[c]));
  auto line = [&](const std::vector<std::string>& r, bool is_header) {
    std::string out;
    for (size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < r.size() ? r[c] : "";
      const size_t pad = width[c] - display_width(cell);
      const bool right = !is_header && looks_numeric(cell);
      if (c) out += "  ";
      if (right)
        out += std::string(pad, ' ') + cell;
      else
        out += cell + (c + 1 < width.size() ? std::string(pad, ' ') : "");
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header, true);
  size_t total = 0;
  for (size_t c = 0; c < width.size(); ++c) total += width[c] + (c ? 2 : 0);
  std::string rule;
  for (size_t i = 0; i < total; ++i) rule += "─";
  out += rule + "\n";
  for (const auto& r : rows) out += line(r, false);
  return out;
}

std::string colorize(const std::string& text, const char* code, bool enabled) {
  if (!enabled || !code || !*code) return text;
  return std::string("\033[") + code + "m" + terminal_safe(text) + "\033[0m";
}

const char* verdict_color(Verdict v) {
  switch (v) {
    case Verdict::far_below:
      return "33";  // yellow
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
  const UnitSystem& u = roofs.units;
  std::string out;
  out += colorize(p.name.empty() ? std::string("point") : p.name, "1", color) + " on " +
         roofs.name + "\n";
  out += "  W = " + format_work(p.work, u) + ", T = " + format_seconds(p.time) +
         ", P = W/T = " + format_work_rate(d.performance, u) + "\n";
  const ComputeRoof* c = roofs.find_compute(d.compute_roof);
  Table t({"level", "Q", "I = W/Q", "roof β", "ridge I*", "side", "attainable", "attainment"});
  for (size_t i = 0; i < d.levels.size(); ++i) {
    const auto& j = d.levels[i];
    const MemoryRoof* m = roofs.find_memory(j.level);
    t.add_row({j.level, format_bytes(p.traffic[i].bytes, u), format_intensity(j.intensity, u),
               m ? format_byte_rate(m->bandwidth, u) : "?", format_number(j.ridge.value),
               j.memory_side ? "memory" : "compute", format_work_rate(j.attainable, u),
               format_number(j.attainment * 100, 3) + "%"});
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
  out += "  Step 1 — touching a roof? " + std::string(d.touching ? "yes" : "no") + ": " +
         format_number(d.attainment * 100, 3) + "% of the attainable " +
         format_work_rate(d.attainable, u) + " (headroom " + format_number(d.headroom.factor, 3) +
         "x, " + format_number(d.headroom.decades, 2) + " decades)\n";
  out += "  Step 2 — which roof? " +
         std::string(d.verdict == Verdict::far_below
                         ? "none yet (left/right position is not meaningful)"
                         : (d.binding_is_memory ? "the slanted " + d.binding_level + " roof"
                                                : "the flat '" + d.compute_roof + "' roof")) +
         "\n";
  out += "  Diagnosis: " + colorize(d.title, verdict_color(d.verdict), color) + "\n";
  out += "  What to do: " + d.prescription + "\n";
  for (const auto& cause : d.causes) out += "    - likely cause: " + cause + "\n";
  for (const auto& note : d.notes) out += "  Note: " + note + "\n";
  if (!d.empty_roofs_above.empty() && d.verdict != Verdict::faster_unit_unused) {
    std::string names;
    for (const auto& e : d.empty_roofs_above)
      names += (names.empty() ? "" : ", ") + e.name + " " + format_number(e.gain, 3) + "x";
    out += "  Higher flat roofs on this machine: " + names + "\n";
  }
  return out;
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

}  // namespace roofline
