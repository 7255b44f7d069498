// The terminal report: a braille plot of roofs and points (2×4 dots per character cell, so a
// dot is about square and a decade has the same length on both axes), then aligned tables.
// ANSI colour only when asked (the caller checks the terminal).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "report/chart.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace {

class BrailleCanvas {
 public:
  BrailleCanvas(int cols, int rows)
      : cols_(cols),
        rows_(rows),
        bits_(static_cast<size_t>(cols * rows), 0),
        overlay_(static_cast<size_t>(cols * rows)) {}
  int dot_width() const { return cols_ * 2; }
  int dot_height() const { return rows_ * 4; }
  /// Sets the dot at (x, y), y = 0 at the top; outside the canvas is ignored.
  void set(int x, int y) {
    if (x < 0 || y < 0 || x >= dot_width() || y >= dot_height()) return;
    // Unicode braille: dots 1-3 and 7 in the left column, 4-6 and 8 in the right.
    static constexpr unsigned char left[4] = {0x01, 0x02, 0x04, 0x40};
    static constexpr unsigned char right[4] = {0x08, 0x10, 0x20, 0x80};
    const size_t cell = static_cast<size_t>((y / 4) * cols_ + x / 2);
    bits_[cell] |= (x % 2 ? right : left)[y % 4];
  }
  /// Puts a text glyph in the cell holding dot (x, y) (drawn over the dots).
  void put(int x, int y, const std::string& glyph) {
    if (x < 0 || y < 0 || x >= dot_width() || y >= dot_height()) return;
    overlay_[static_cast<size_t>((y / 4) * cols_ + x / 2)] = glyph;
  }
  std::string row(int r) const {
    std::string out;
    for (int c = 0; c < cols_; ++c) {
      const size_t i = static_cast<size_t>(r * cols_ + c);
      if (!overlay_[i].empty()) {
        out += overlay_[i];
        continue;
      }
      const unsigned cp = 0x2800u + bits_[i];
      if (bits_[i] == 0) {
        out += ' ';
        continue;
      }
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
  }

 private:
  int cols_, rows_;
  std::vector<unsigned char> bits_;
  std::vector<std::string> overlay_;
};

std::string pad_left(const std::string& s, size_t w) {
  const size_t n = report::text_columns(s);
  return n >= w ? s : std::string(w - n, ' ') + s;
}

std::string point_letter(size_t k) {
  return k < 26 ? std::string(1, static_cast<char>('A' + k)) : std::to_string(k + 1);
}

}  // namespace

std::string render_terminal(const ReportInput& in, int columns, bool color) {
  constexpr size_t kLabel = 8;  // y tick labels ("100 G")
  const int cols = std::max(24, columns - static_cast<int>(kLabel) - 2);
  const int rows = std::clamp(cols / 3, 10, 22);
  const report::Chart ch = report::build_chart(in, cols * 2, rows * 4);
  BrailleCanvas cv(cols, rows);
  const report::LogScale X{ch.x_lo, ch.x_hi, 0, cv.dot_width() - 1.0};
  const report::LogScale Y{ch.y_lo, ch.y_hi, cv.dot_height() - 1.0, 0};
  auto dot = [](double v) { return static_cast<int>(std::lround(v)); };
  const UnitSystem& u = ch.units;

  for (const auto& r : ch.roofs) {
    const int x0 = std::max(0, dot(X(r.from))), x1 = std::min(cv.dot_width() - 1, dot(X(r.to)));
    for (int x = x0; x <= x1; ++x) {
      if (r.dashed && (x / 3) % 2 == 1) continue;  // datasheet/theoretical roofs dashed
      if (r.machine != 0 && x % 2 == 1) continue;  // comparison machine dotted
      const double i = std::pow(10.0, ch.x_lo + (ch.x_hi - ch.x_lo) * x / (cv.dot_width() - 1.0));
      cv.set(x, dot(Y(r.height(i))));
    }
  }
  for (const auto& [i, p] : ch.no_overlap)
    if (dot(X(i)) % 3 == 0) cv.set(dot(X(i)), dot(Y(p)));
  for (const auto& [i, p] : ch.empirical) cv.set(dot(X(i)), dot(Y(p)));
  if (ch.workload) {
    const int x = dot(X(ch.workload->intensity.value));
    for (int y = 0; y < cv.dot_height(); y += 2) cv.set(x, y);
  }
  for (const auto& r : ch.ridges)
    if (r.primary) cv.put(dot(X(r.intensity)), dot(Y(r.peak)), "*");
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Diagnosis& d = ch.diagnoses[k];
    for (const auto& l : d.levels)
      cv.put(dot(X(l.intensity.value)), dot(Y(d.performance.value)),
             colorize(l.level == d.binding_level ? point_letter(k) : "·", verdict_color(d.verdict),
                      color));
  }

  std::string out;
  out += colorize(in.title, "1", color) + "\n";
  out += ch.y_title + "\n";
  // Rows: a y label on the row that holds each decade.
  std::vector<std::string> ylabels(static_cast<size_t>(rows));
  for (double v : report::decade_ticks(ch.y_lo, ch.y_hi)) {
    const int r = dot(Y(v)) / 4;
    if (r >= 0 && r < rows) ylabels[static_cast<size_t>(r)] = format_si(v, "", 3);
  }
  for (int r = 0; r < rows; ++r)
    out += pad_left(ylabels[static_cast<size_t>(r)], kLabel) + " │" + cv.row(r) + "\n";
  // x axis with decade marks and labels.
  std::string axis = std::string(kLabel + 1, ' ') + "└";
  std::string labels(kLabel + 2 + static_cast<size_t>(cols) + 8, ' ');
  std::vector<bool> mark(static_cast<size_t>(cols), false);
  size_t next_free = 0;
  for (double v : report::decade_ticks(ch.x_lo, ch.x_hi)) {
    const int c = dot(X(v)) / 2;
    if (c < 0 || c >= cols) continue;
    mark[static_cast<size_t>(c)] = true;
    const std::string t = report::intensity_tick(v);
    size_t start = kLabel + 2 + static_cast<size_t>(c);
    start = start >= t.size() / 2 ? start - t.size() / 2 : 0;
    if (start < next_free || start + t.size() > labels.size()) continue;
    labels.replace(start, t.size(), t);
    next_free = start + t.size() + 1;
  }
  for (int c = 0; c < cols; ++c) axis += mark[static_cast<size_t>(c)] ? "┴" : "─";
  while (!labels.empty() && labels.back() == ' ') labels.pop_back();
  out += axis + "\n" + labels + "\n";
  out += std::string(kLabel + 2, ' ') + ch.x_title + "\n";
  out += std::string(kLabel + 2, ' ') +
         "* ridge I* = " + format_intensity(ridge(*ch.default_compute, *ch.default_memory), u) +
         " (" + ch.default_compute->name + " × " + ch.default_memory->level + ")";
  if (ch.workload) out += "   ⋮ workload I = " + format_intensity(ch.workload->intensity, u);
  out += "\n\n";

  out +=
      "Roofs of " + in.machines.front().roofs.name + "\n" + render_roofs(in.machines.front().roofs);
  for (size_t m = 1; m < in.machines.size(); ++m)
    out += "\nRoofs of " + in.machines[m].roofs.name + " (dotted)\n" +
           render_roofs(in.machines[m].roofs);
  if (!in.points.empty()) {
    Table t({"", "point", "I = W/Q", "P = W/T", "attainable", "attainment", "headroom", "verdict"});
    for (size_t k = 0; k < in.points.size(); ++k) {
      const Diagnosis& d = ch.diagnoses[k];
      std::string is;
      for (const auto& l : d.levels)
        is += (is.empty() ? "" : ", ") + (d.levels.size() > 1 ? l.level + " " : "") +
              format_number(l.intensity.value);
      t.add_row({point_letter(k), in.points[k].name, is, format_work_rate(d.performance, u),
                 format_work_rate(d.attainable, u), format_number(d.attainment * 100, 3) + "%",
                 format_number(d.headroom.factor, 3) + "x", to_string(d.verdict)});
    }
    out += "\nPoints (I in " + u.intensity() + ")\n" + t.render();
    for (size_t k = 0; k < in.points.size(); ++k)
      out += "  " + colorize(point_letter(k), verdict_color(ch.diagnoses[k].verdict), color) + " " +
             in.points[k].name + ": " + ch.diagnoses[k].title + "\n";
  }
  if (ch.workload) {
    Table t({"machine", "roofs", "attainable at I", "ratio", "regime"});
    for (size_t k = 0; k < ch.workload->machines.size(); ++k) {
      const auto& m = ch.workload->machines[k];
      t.add_row({m.machine, m.compute_roof + " × " + m.memory_level,
                 format_work_rate(m.attainable, u), format_number(ch.workload->ratios[k], 3) + "x",
                 to_string(ch.workload->regimes[k])});
    }
    out += "\nWorkload at I = " + format_intensity(ch.workload->intensity, u) + "\n" + t.render();
  }
  return out;
}

}  // namespace roofline
