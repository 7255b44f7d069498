// Terminal summary of a measured machine (render_measure_summary in measure.hpp).
#include "roofline/cpu_analysis.hpp"
#include "roofline/measure.hpp"
#include "roofline/quantity.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace {

/// "fastest" column: the fastest sample over the sustained rate (the roof); "unconfirmed" when
/// the three fastest samples differ by more than 2%.
std::string fastest_column(const std::optional<Statistics>& s) {
  if (!s || !(s->sustained > 0)) return "-";
  const std::string ratio = format_number(s->best / s->sustained, 3);
  return s->confirmed() ? ratio : ratio + " unconfirmed";
}

}  // namespace

std::string render_measure_summary(const MachineDocument& m, bool color) {
  std::string out;
  const auto& info = m.info;
  auto get = [&](const nlohmann::json& j, const char* key) -> nlohmann::json {
    return j.is_object() && j.contains(key) ? j.at(key) : nlohmann::json();
  };
  const auto cpu_name = get(info, "cpu");
  out += "machine: " + m.roofs.name;
  if (cpu_name.is_string()) out += " — " + cpu_name.get<std::string>();
  out += "\n";
  const auto clock = get(info, "clock_hz");
  const auto threads = get(info, "threads");
  if (clock.is_number() && threads.is_number())
    out += "clock: " + format_si(clock.get<double>(), "Hz") + " measured on " +
           std::to_string(threads.get<int>()) + " pinned thread(s)" +
           (get(info, "microarchitecture").is_string()
                ? ", microarchitecture " + get(info, "microarchitecture").get<std::string>()
                : std::string()) +
           "\n";
  out += "\n";

  if (!m.roofs.compute.empty()) {
    Table t({"compute roof", "measured", "theoretical", "measured/theory", "cv", "fastest",
             "repetitions"});
    for (const auto& c : m.roofs.compute) {
      const UnitSystem u = m.roofs.units_of(c);
      std::string ratio;
      if (c.theoretical) {
        const double r = c.peak / *c.theoretical;
        ratio = format_number(r, 3);
        if (r > cpu::kAboveTheoryLimit)
          ratio = colorize(ratio + " ABOVE THEORY", "\033[31m", color);
      }
      t.add_row(
          {c.name, format_work_rate(c.peak, u),
           c.theoretical ? format_work_rate(*c.theoretical, u) : "-", ratio.empty() ? "-" : ratio,
           c.stats ? format_number(c.stats->cv * 100, 2) + "%" + (c.stats->noisy ? " noisy" : "")
                   : "-",
           fastest_column(c.stats), c.stats ? std::to_string(c.stats->repetitions) : "-"});
    }
    out += t.render();
  }
  if (!m.roofs.memory.empty()) {
    out += "\n";
    Table t(
        {"memory roof", "bandwidth", "best mix", "reported size", "cv", "fastest", "repetitions"});
    std::vector<std::string> mixes;
    for (const auto& l : m.roofs.memory)
      for (const auto& [mix, v] : l.mixes)
        if (std::find(mixes.begin(), mixes.end(), mix) == mixes.end()) mixes.push_back(mix);
    for (const auto& l : m.roofs.memory) {
      std::string best;
      double bv = 0;
      for (const auto& [mix, v] : l.mixes)
        if (v > bv) bv = v, best = mix;
      t.add_row({l.level, format_byte_rate(l.bandwidth), best.empty() ? "-" : best,
                 l.size_bytes ? format_si(*l.size_bytes, "B") : "-",
                 l.stats
                     ? format_number(l.stats->cv * 100, 2) + "%" + (l.stats->noisy ? " noisy" : "")
                     : "-",
                 fastest_column(l.stats), l.stats ? std::to_string(l.stats->repetitions) : "-"});
    }
    out += t.render();
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
  }
  if (!m.roofs.compute.empty() || !m.roofs.memory.empty())
    out +=
        "roofs: the sustained rate (third-fastest sample); fastest = fastest sample / roof; cv "
        "over all samples (noisy: spread above 10%)\n";
  if (!m.roofs.empirical_curve.empty()) {
    const auto& c = m.roofs.empirical_curve;
    out += "\nempirical curve: " + std::to_string(c.size()) + " points, I from " +
           format_intensity(c.front().intensity) + " (" + format_work_rate(c.front().performance) +
           ") to " + format_intensity(c.back().intensity) + " (" +
           format_work_rate(c.back().performance) + ")\n";
  }
  const auto meas = get(m.sections, "measurement");
  const auto warnings = get(meas, "warnings");
  if (warnings.is_array())
    for (const auto& w : warnings)
      if (w.is_string())
        out += colorize("warning: " + w.get<std::string>(), "\033[33m", color) + "\n";
  const auto secs = get(meas, "seconds");
  if (secs.is_number()) out += "measured in " + format_seconds(Seconds(secs.get<double>())) + "\n";
  return out;
}

}  // namespace roofline
