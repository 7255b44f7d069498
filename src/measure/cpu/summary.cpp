// Terminal summary of a measured machine (render_measure_summary in measure.hpp).
#include "roofline/engine.hpp"
#include "roofline/measure.hpp"
#include "roofline/quantity.hpp"
#include "roofline/table.hpp"

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

/// "fastest" column: the fastest sample over the sustained rate (the roof); "unconfirmed" when
/// the fastest samples do not agree (Statistics::confirmed).
std::string fastest_column(const std::optional<Statistics>& s) {
  if (!s || !(s->sustained > 0)) return "-";
  const std::string ratio = format_number(s->best / s->sustained, 3);
  return s->confirmed() ? ratio : ratio + " unconfirmed";
}

/// "size" column: the capacity per core and what the measuring threads reach, as the
/// measurement recorded them (measurement.memory.LEVEL), else the roof's size.
std::string size_column(const MachineFacts& f, const MemoryRoof& l) {
  if (const auto it = f.memory_reach.find(l.level); it != f.memory_reach.end()) {
    const LevelReach& d = it->second;
    std::string s = format_bytes(Bytes(d.size_per_core)) + "/core";
    if (std::abs(d.reported_size - d.size_per_core) > 1)
      s += ", " + format_bytes(Bytes(d.reported_size)) + " reached";
    return s;
  }
  return l.size_bytes ? format_bytes(Bytes(*l.size_bytes)) : "-";
}

/// "spread" column: the interquartile range over the median (the cv for documents without
/// quartiles), "noisy" when the statistics policy says so.
std::string spread_column(const std::optional<Statistics>& s) {
  if (!s) return "-";
  return format_number(s->shown_spread() * 100, 2) + "%" + (s->noisy ? " noisy" : "");
}

/// The machine's name, CPU and measured clock.
std::string summary_header(const MachineDocument& m, const MachineFacts& f) {
  std::string out = "machine: " + m.roofs.name;
  if (!f.cpu.empty()) out += " — " + f.cpu;
  out += "\n";
  if (f.clock_hz && f.threads)
    out += "clock: " + format_si(*f.clock_hz, "Hz") + " measured on " + std::to_string(*f.threads) +
           " pinned thread(s)" +
           (f.microarchitecture.empty() ? std::string()
                                        : ", microarchitecture " + f.microarchitecture) +
           "\n";
  return out + "\n";
}

/// The compute roofs against their theory; a roof below it with a known limit gets a numbered
/// note (one note for the roofs that share a limit), one above it (or below without a limit)
/// is flagged.
std::string compute_roof_table(const MachineDocument& m, bool color) {
  Table t({"compute roof", "measured", "theoretical", "measured/theory", "spread", "fastest",
           "samples"});
  std::vector<std::pair<std::string, std::string>> limits;  // why → the roofs it holds back
  for (const auto& c : m.roofs.compute) {
    const UnitSystem u = m.roofs.units_of(c);
    std::string ratio;
    std::string ratio_color;  // red for a roof flagged against its theory, with colour on
    if (c.theoretical) {
      const double r = c.peak / *c.theoretical;
      ratio = format_number(r, 3);
      if (r > engine::kAboveTheoryLimit) {
        ratio += " ABOVE THEORY";
        ratio_color = color ? "31" : "";
      } else if (r < engine::kBelowTheoryLimit) {
        const auto at = c.formula.find("; limit: ");
        if (at != std::string::npos) {
          const std::string why = c.formula.substr(at + 9);
          auto it = std::find_if(limits.begin(), limits.end(),
                                 [&](const auto& l) { return l.first == why; });
          if (it == limits.end())
            it = limits.insert(limits.end(), {why, c.name});
          else
            it->second += ", " + c.name;
          ratio += " limit [" + std::to_string(it - limits.begin() + 1) + "]";
        } else {
          ratio += " BELOW THEORY";
          ratio_color = color ? "31" : "";
        }
      }
    }
    t.add_row({c.name, format_work_rate(c.peak, u),
               c.theoretical ? format_work_rate(*c.theoretical, u) : "-",
               ratio.empty() ? "-" : ratio, spread_column(c.stats), fastest_column(c.stats),
               c.stats ? std::to_string(c.stats->repetitions) : "-"},
              {"", "", "", ratio_color});
  }
  std::string out = t.render();
  for (size_t i = 0; i < limits.size(); ++i)
    out += "[" + std::to_string(i + 1) + "] " + limits[i].second + ": " + limits[i].first + "\n";
  return out;
}

/// The memory roofs, the bandwidth of every load/store mix per level, and the byte convention.
std::string memory_roof_tables(const MachineDocument& m, const MachineFacts& f) {
  Table t({"memory roof", "bandwidth", "best mix", "size", "spread", "fastest", "samples"});
  std::vector<std::string> mixes;
  for (const auto& l : m.roofs.memory)
    for (const auto& [mix, v] : l.mixes)
      if (std::find(mixes.begin(), mixes.end(), mix) == mixes.end()) mixes.push_back(mix);
  for (const auto& l : m.roofs.memory) {
    std::string best;
    double bv = 0;
    for (const auto& [mix, v] : l.mixes)
      if (v > bv) bv = v, best = mix;
    t.add_row({l.level, format_byte_rate(l.bandwidth), best.empty() ? "-" : best, size_column(f, l),
               spread_column(l.stats), fastest_column(l.stats),
               l.stats ? std::to_string(l.stats->repetitions) : "-"});
  }
  std::string out = "\n" + t.render();
  if (!mixes.empty()) {
    out += "\n";
    std::vector<std::string> header = {"level (GB/s)"};
    header.insert(header.end(), mixes.begin(), mixes.end());
    Table mt(header);
    for (const auto& l : m.roofs.memory) {
      std::vector<std::string> row = {l.level};
      for (const auto& mix : mixes) {
        const auto it = l.mixes.find(mix);
        row.push_back(it == l.mixes.end() ? "-" : format_number(it->second / 1e9, 4));
      }
      mt.add_row(row);
    }
    out += mt.render();
  }
  const std::string conv = m.roofs.memory.front().convention;
  if (conv == "named")
    out +=
        "byte convention: named — the bytes the code names (STREAM's); bytes moved "
        "including write-allocate are in the JSON (measurement.memory.LEVEL.mixes_moved)\n";
  else if (conv == "moved")
    out += "byte convention: moved — the bytes moved, including write-allocate\n";
  return out;
}

}  // namespace

std::string render_measure_summary(const MachineDocument& m, bool color) {
  const MachineFacts f = machine_facts(m);
  std::string out = summary_header(m, f);
  if (!m.roofs.compute.empty()) out += compute_roof_table(m, color);
  if (!m.roofs.memory.empty()) out += memory_roof_tables(m, f);
  if (!m.roofs.compute.empty() || !m.roofs.memory.empty())
    out +=
        "roofs: the sustained rate (third-fastest sample); spread = interquartile range / "
        "median; noisy: " +
        noisy_rule_text() + "; fastest = fastest sample / roof\n";
  if (!m.roofs.empirical_curve.empty()) {
    const auto& c = m.roofs.empirical_curve;
    out += "\nempirical curve: " + std::to_string(c.size()) + " points, I from " +
           format_intensity(c.front().intensity) + " (" + format_work_rate(c.front().performance) +
           ") to " + format_intensity(c.back().intensity) + " (" +
           format_work_rate(c.back().performance) + ")\n";
  }
  for (const auto& w : f.warnings) out += colorize("warning: " + w, "33", color) + "\n";
  if (f.measured_seconds)
    out += "measured in " + format_seconds(Seconds(*f.measured_seconds)) + "\n";
  return out;
}

}  // namespace roofline
