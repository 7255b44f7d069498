// The terminal report: a braille plot of roofs and points (2×4 dots per character cell, so a
// dot is about square and a decade has the same length on both axes), then aligned tables.
// ANSI colour only when asked (the caller checks the terminal).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "report/chart.hpp"
#include "report/svg_layout.hpp"
#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/table.hpp"
#include "roofline/text.hpp"
#include "roofline/utf8.hpp"

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
  /// Writes text into row `row` from column `col` over the dots, each character in the cells
  /// the terminal gives it: a wide one (東) two, the second left empty; a combining mark
  /// none, joined to the character before. A character that would cross the edge is left out.
  void put_text(int row, int col, const std::string& text) {
    if (row < 0 || row >= rows_) return;
    int c = col;
    int last = -1;  // the cell of the character before, for a combining mark
    for (size_t i = 0; i < text.size();) {
      char32_t cp = 0;
      const size_t len = std::max<size_t>(1, decode_utf8(text, i, cp));
      const std::string ch = text.substr(i, len);
      i += len;
      const int w = static_cast<int>(display_width(ch));
      if (w == 0) {
        if (last >= 0) overlay_[static_cast<size_t>(row * cols_ + last)] += ch;
        continue;
      }
      if (c + w > cols_) break;
      if (c >= 0) {
        overlay_[static_cast<size_t>(row * cols_ + c)] = ch;
        if (w == 2) overlay_[static_cast<size_t>(row * cols_ + c + 1)] = kCovered;
        last = c;
      }
      c += w;
    }
  }
  std::string row(int r) const {
    std::string out;
    for (int c = 0; c < cols_; ++c) {
      const size_t i = static_cast<size_t>(r * cols_ + c);
      if (overlay_[i] == kCovered) continue;  // the right half of a wide character
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
  static constexpr const char* kCovered = "\x01";  // no text has it: terminal_safe escapes C0
  int cols_, rows_;
  std::vector<unsigned char> bits_;
  std::vector<std::string> overlay_;
};

std::string pad_left(const std::string& s, size_t w) {
  const size_t n = display_width(s);
  return n >= w ? s : std::string(w - n, ' ') + s;
}

/// One character per point, so each takes one cell of the plot: A–Z, a–z, 0–9, then "+" for
/// every point from the 63rd (kLetters) on, which the legend says once.
constexpr char kGlyphs[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr size_t kLetters = sizeof kGlyphs - 1;
std::string point_letter(size_t k) {
  return k < kLetters ? std::string(1, kGlyphs[k]) : std::string("+");
}

/// Cells a label may not cover: every cell with a dot or a glyph, and labels placed before.
class Occupancy {
 public:
  Occupancy(int cols, int rows)
      : cols_(cols), rows_(rows), used_(static_cast<size_t>(cols * rows)) {}
  bool free(int row, int col, int len) const {
    if (row < 0 || row >= rows_ || col < 0 || col + len > cols_) return false;
    for (int c = col; c < col + len; ++c)
      if (used_[static_cast<size_t>(row * cols_ + c)]) return false;
    return true;
  }
  void take(int row, int col, int len) {
    for (int c = col; c < col + len && c < cols_; ++c)
      if (row >= 0 && row < rows_ && c >= 0) used_[static_cast<size_t>(row * cols_ + c)] = true;
  }

 private:
  int cols_, rows_;
  std::vector<bool> used_;
};

/// Columns text takes on a terminal (display_width: wide characters two, combining marks
/// none, colour sequences none).
size_t visible_columns(const std::string& s) {
  return display_width(s);
}

/// Cuts text (without colour) to `width` columns as the terminal counts them, with an
/// ellipsis (names from files can be long).
std::string fit(const std::string& s, size_t width) {
  return cut_to_columns(s, width);
}

/// The flat roofs' labels in the right margin, one per row, in the order of their lines and as
/// near them as the rows allow (each row is a factor of about two on a 20-row plot, so close
/// roofs share one); a label moved off its line's row points at it (↑ the line is above, ↓
/// below).
std::vector<std::string> margin_labels(const report::Chart& ch, const report::LogScale& Y, int rows,
                                       size_t width) {
  std::vector<std::string> margin(static_cast<size_t>(rows));
  struct Item {
    const report::DrawnRoof* roof;
    int row;
  };
  std::vector<Item> items;
  for (const auto& r : ch.roofs) {
    if (!r.shown || !r.compute || r.machine != 0) continue;
    const int row = static_cast<int>(std::lround(Y(r.value()))) / 4;
    if (row >= 0 && row < rows) items.push_back({&r, row});
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.row != b.row ? a.row < b.row : a.roof->value() > b.roof->value();
  });
  std::vector<double> want;
  for (const Item& it : items) want.push_back(it.row);
  const std::vector<double> at = report::spread_column(want, 1, 0, rows - 1);
  for (size_t i = 0; i < items.size(); ++i) {
    const int row = static_cast<int>(std::lround(at[i]));
    if (row < 0 || row >= rows) continue;
    const std::string arrow = row == items[i].row ? "" : (row < items[i].row ? "↓ " : "↑ ");
    margin[static_cast<size_t>(row)] =
        fit(arrow + terminal_safe(items[i].roof->name) + " " + items[i].roof->rate, width);
  }
  return margin;
}

}  // namespace

namespace {

constexpr size_t kLabel = 8;              // y tick labels ("100 G")
constexpr int kMinPlotColumns = 24;       // the braille canvas is never narrower
constexpr const char* kSharedCell = "#";  // a cell that holds several points

/// The x axis with its decade marks and their labels.
std::string terminal_x_axis(const report::Chart& ch, const report::LogScale& X, int cols,
                            int columns) {
  auto dot = [](double v) { return static_cast<int>(std::lround(v)); };
  std::string out;
  std::string axis = std::string(kLabel + 1, ' ') + "└";
  // The tick labels (ASCII) end within the width, also the last decade's at the right edge.
  std::string labels(std::min(kLabel + 2 + static_cast<size_t>(cols) + 8,
                              static_cast<size_t>(std::max(columns, 0))),
                     ' ');
  std::vector<bool> mark(static_cast<size_t>(cols), false);
  size_t next_free = 0;
  for (double v : report::decade_ticks(ch.x_lo, ch.x_hi)) {
    const int c = dot(X(v)) / 2;
    if (c < 0 || c >= cols) continue;
    mark[static_cast<size_t>(c)] = true;
    const std::string t = report::intensity_tick(v, ch.x_lo, ch.x_hi);
    size_t start = kLabel + 2 + static_cast<size_t>(c);
    start = start >= t.size() / 2 ? start - t.size() / 2 : 0;
    if (start < next_free || start + t.size() > labels.size()) continue;
    labels.replace(start, t.size(), t);
    next_free = start + t.size() + 1;
  }
  for (int c = 0; c < cols; ++c) axis += mark[static_cast<size_t>(c)] ? "┴" : "─";
  while (!labels.empty() && labels.back() == ' ') labels.pop_back();
  out += axis + "\n" + labels + "\n";
  return out;
}

/// The legend under the plot: the ridge, the workload line, the slanted roofs with their
/// bandwidths, the points' letters by verdict, and how many compute roofs are not drawn.
std::string terminal_legend(const ReportInput& in, const report::Chart& ch, int columns, bool color,
                            const std::vector<std::vector<size_t>>& shared) {
  const std::string indent(kLabel + 2, ' ');
  // Each item within the width: names from files can be long (a line ran past --width).
  const size_t room =
      std::max<size_t>(static_cast<size_t>(std::max(columns, 0)), indent.size() + 16) -
      indent.size();
  std::string out;
  std::vector<std::string> items;
  items.push_back("* ridge I* = " +
                  format_intensity(ridge(*ch.default_compute, *ch.default_memory),
                                   report::default_roof_units(ch)) +
                  " (" + ch.default_compute->name + " × " + ch.default_memory->level + ")");
  if (ch.workload)
    items.push_back("⋮ workload I = " +
                    format_intensity(ch.workload->intensity, report::workload_units(ch)));
  {
    std::string slanted;
    for (const auto& r : ch.roofs)
      if (r.shown && !r.compute && r.machine == 0)
        slanted +=
            (slanted.empty() ? "slanted roofs: " : ", ") + terminal_safe(r.name) + " " + r.rate;
    if (!slanted.empty()) items.push_back(slanted);
  }
  std::vector<Verdict> verdicts;
  for (const auto& d : ch.diagnoses)
    if (std::find(verdicts.begin(), verdicts.end(), d.verdict) == verdicts.end())
      verdicts.push_back(d.verdict);
  std::sort(verdicts.begin(), verdicts.end());
  for (Verdict v : verdicts) {
    bool first = true;
    for (size_t k = 0; k < std::min(in.points.size(), kLetters); ++k) {
      if (ch.diagnoses[k].verdict != v) continue;
      const std::string head = (first ? to_string(v) + ": " : std::string());
      const size_t used = display_width(head + point_letter(k) + " ");
      items.push_back(head + colorize(point_letter(k), verdict_color(v), color) + " " +
                      fit(terminal_safe(in.points[k].name), room > used ? room - used : 1));
      first = false;
    }
  }
  // The points past the letters share one mark: said once, where they were listed as
  // "+ k62 · + k63 ...", each '+' reading as a point of its own.
  if (in.points.size() > kLetters) {
    const std::string first = std::to_string(kLetters + 1), last = std::to_string(in.points.size());
    const std::string letters = "the chart has " + std::to_string(kLetters) + " letters";
    items.push_back(in.points.size() == kLetters + 1
                        ? "+ point " + first + " (" + letters + "; the table names it)"
                        : "+ points " + first + " to " + last + ", one mark for " +
                              std::to_string(in.points.size() - kLetters) + " (" + letters +
                              "; the table names them)");
  }
  for (const auto& ks : shared) {
    std::vector<std::string> marks;  // the points past the letters as one "+"
    for (size_t k : ks)
      if (k < kLetters || std::find(marks.begin(), marks.end(), "+") == marks.end())
        marks.push_back(point_letter(k));
    items.push_back(std::string(kSharedCell) + " " + join(marks) + " in one cell");
  }
  size_t shown = 0, total = 0;
  for (const auto& r : ch.roofs)
    if (r.machine == 0 && r.compute) shown += r.shown, ++total;
  if (shown < total)
    items.push_back(std::to_string(shown) + " of " + std::to_string(total) +
                    " compute roofs drawn (--roofs all draws every one)");
  // The points left out (ReportInput::not_drawn), named escaped, as many as the width holds.
  std::vector<PointLeftOut> left = in.not_drawn;
  for (auto& p : left) p.name = terminal_safe(p.name), p.reason = terminal_safe(p.reason);
  const std::string left_out =
      report::not_drawn_line(left, [&](const std::string& s) { return display_width(s) <= room; });
  if (!left_out.empty()) items.push_back(left_out);
  std::string line = indent;
  for (auto& it : items) {
    if (visible_columns(it) > room && it.find('\033') == std::string::npos)
      it = fit(it, room);  // an item without colour (a point's is cut in its name above)
    const size_t w = visible_columns(line) + 3 + visible_columns(it);
    if (line.size() > indent.size() && w > static_cast<size_t>(columns)) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > indent.size() ? " · " : "") + it;
  }
  out += line + "\n\n";

  return out;
}

/// The roofs of every machine, the points with their diagnosis, the workload line's table.
std::string terminal_tables(const ReportInput& in, const report::Chart& ch, bool color) {
  std::string out;
  out += "Roofs of " + terminal_safe(in.machines.front().roofs.name) + "\n" +
         render_roofs(in.machines.front().roofs);
  for (size_t m = 1; m < in.machines.size(); ++m)
    out += "\nRoofs of " + terminal_safe(in.machines[m].roofs.name) + " (dotted)\n" +
           render_roofs(in.machines[m].roofs);
  if (!in.points.empty()) {
    Table t({"", "point", "I = W/Q", "P = W/T", "attainable", "attainment", "headroom", "verdict"});
    for (size_t k = 0; k < in.points.size(); ++k) {
      const Diagnosis& d = ch.diagnoses[k];
      const std::string is = join(d.levels, [&](const LevelJudgement& l) {
        return (d.levels.size() > 1 ? l.level + " " : "") + format_number(l.intensity.value);
      });
      const UnitSystem& pu = ch.point_units[k];  // OP/s for a point on an integer roof
      t.add_row({point_letter(k), in.points[k].name, is, format_work_rate(d.performance, pu),
                 format_work_rate(d.attainable, pu), d.attainment_percent + "%",
                 report::ratio_text(d.headroom.factor) + "x", to_string(d.verdict)});
    }
    out += "\nPoints (I in " + report::points_intensity_unit(ch) + ")\n" + t.render();
    for (size_t k = 0; k < in.points.size(); ++k)
      out += "  " + colorize(point_letter(k), verdict_color(ch.diagnoses[k].verdict), color) + " " +
             terminal_safe(in.points[k].name + ": " + ch.diagnoses[k].title) + "\n";
  }
  if (ch.workload) {
    Table t({"machine", "roofs", "attainable at I", "ratio", "regime"});
    for (size_t k = 0; k < ch.workload->machines.size(); ++k) {
      const auto& m = ch.workload->machines[k];
      t.add_row({m.machine, m.compute_roof + " × " + m.memory_level,
                 format_work_rate(m.attainable, m.units),
                 report::workload_ratio_text(*ch.workload, k),
                 k == 0 ? "" : to_string(ch.workload->regimes[k])});
    }
    out += "\nWorkload at I = " +
           format_intensity(ch.workload->intensity, report::workload_units(ch)) + "\n" + t.render();
    if (const std::string note = mixed_work_note(*ch.workload); !note.empty())
      out += "* " + terminal_safe(note) + "\n";
  }
  return out;
}

/// The braille canvas with the cells its marks take, in the chart's dot coordinates.
struct TerminalPlot {
  BrailleCanvas cv;
  Occupancy used;
  report::LogScale X, Y;
  TerminalPlot(const report::Chart& ch, int cols, int rows)
      : cv(cols, rows),
        used(cols, rows),
        X{ch.x_lo, ch.x_hi, 0, cv.dot_width() - 1.0},
        Y{ch.y_lo, ch.y_hi, cv.dot_height() - 1.0, 0} {}
  static int dot(double v) { return static_cast<int>(std::lround(v)); }
  bool inside(int x, int y) const {
    return x >= 0 && y >= 0 && x < cv.dot_width() && y < cv.dot_height();
  }
  void plot(int x, int y) {
    if (!inside(x, y)) return;
    cv.set(x, y);
    used.take(y / 4, x / 2, 1);
  }
  void glyph(int x, int y, const std::string& g) {
    if (!inside(x, y)) return;
    cv.put(x, y, g);
    used.take(y / 4, x / 2, 1);
  }
};

/// The right margin holds the flat roofs' labels: as wide as the longest, within limits.
size_t terminal_margin_width(const ReportInput& in, int columns) {
  const report::Chart probe = report::build_chart(in, 200, 100);
  size_t margin_w = 0;
  for (const auto& r : probe.roofs)
    if (r.shown && r.compute && r.machine == 0)
      margin_w = std::max(margin_w, display_width(terminal_safe(r.name + " " + r.rate)));
  // The plot keeps kMinPlotColumns; at the narrowest widths the margin takes what is left (its
  // labels cut), so that no row passes the width (a 40-column plot's rows took 50).
  const int left_over = columns - static_cast<int>(kLabel) - 2 - 1 - kMinPlotColumns;
  const size_t wanted =
      std::min<size_t>(margin_w + 3, static_cast<size_t>(std::max(14, columns * 2 / 5)));
  return std::min(wanted, static_cast<size_t>(std::max(left_over, 2)));
}

/// Per roof and row, the columns its dots take (for the slanted roofs' labels).
using RoofSpans = std::vector<std::vector<std::pair<int, int>>>;

/// Draws every shown roof and returns the columns each takes in each row.
RoofSpans terminal_roof_spans(TerminalPlot& tp, const report::Chart& ch, int rows) {
  RoofSpans spans(ch.roofs.size(),
                  std::vector<std::pair<int, int>>(static_cast<size_t>(rows), {-1, -1}));
  const int width = tp.cv.dot_width();
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    const auto& r = ch.roofs[ri];
    if (!r.shown) continue;
    const int x0 = std::max(0, tp.dot(tp.X(r.from))), x1 = std::min(width - 1, tp.dot(tp.X(r.to)));
    for (int x = x0; x <= x1; ++x) {
      if (r.dashed && (x / 3) % 2 == 1) continue;  // datasheet/theoretical roofs dashed
      if (r.machine != 0 && x % 2 == 1) continue;  // comparison machine dotted
      const double i = std::pow(10.0, ch.x_lo + (ch.x_hi - ch.x_lo) * x / (width - 1.0));
      const int y = tp.dot(tp.Y(r.height(i)));
      tp.plot(x, y);
      if (y < 0 || y >= tp.cv.dot_height()) continue;
      auto& sp = spans[ri][static_cast<size_t>(y / 4)];
      sp.first = sp.first < 0 ? x / 2 : std::min(sp.first, x / 2);
      sp.second = std::max(sp.second, x / 2);
    }
  }
  return spans;
}

/// The no-overlap curve, the empirical curve, the workload's line, the ridge and the points.
/// Returns the points that share a cell (each group in the order of the points), which the plot
/// marks kSharedCell.
std::vector<std::vector<size_t>> terminal_marks(TerminalPlot& tp, const ReportInput& in,
                                                const report::Chart& ch, bool color) {
  for (const auto& [i, p] : ch.no_overlap)
    if (tp.dot(tp.X(i)) % 3 == 0) tp.plot(tp.dot(tp.X(i)), tp.dot(tp.Y(p)));
  for (const auto& [i, p] : ch.empirical) tp.plot(tp.dot(tp.X(i)), tp.dot(tp.Y(p)));
  if (ch.workload) {
    const int x = tp.dot(tp.X(ch.workload->intensity.value));
    for (int y = 0; y < tp.cv.dot_height(); y += 2) tp.plot(x, y);
  }
  for (const auto& r : ch.ridges)
    if (r.primary) tp.glyph(tp.dot(tp.X(r.intensity)), tp.dot(tp.Y(r.peak)), "*");
  // The other levels' dots first, so none covers a binding level's letter (docs/charts.md: the
  // binding level carries the point's name; four levels in one cell showed "·").
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Diagnosis& d = ch.diagnoses[k];
    for (const auto& l : d.levels)
      if (l.level != d.binding_level)
        tp.glyph(tp.dot(tp.X(l.intensity.value)), tp.dot(tp.Y(d.performance.value)),
                 colorize("·", verdict_color(d.verdict), color));
  }
  // Then the letters, a cell at a time: one holding several points shows kSharedCell, and the
  // legend names them (two points at one spot showed the later letter alone).
  std::vector<std::pair<int, std::vector<size_t>>> cells;  // (cell, points in it)
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Diagnosis& d = ch.diagnoses[k];
    const int x = tp.dot(tp.X(binding_intensity(d).value));
    const int y = tp.dot(tp.Y(d.performance.value));
    if (!tp.inside(x, y)) continue;
    const int cell = (y / 4) * tp.cv.dot_width() + x / 2;
    auto it =
        std::find_if(cells.begin(), cells.end(), [&](const auto& c) { return c.first == cell; });
    if (it == cells.end()) it = cells.emplace(cells.end(), cell, std::vector<size_t>{});
    it->second.push_back(k);
    tp.glyph(x, y,
             colorize(it->second.size() > 1 ? kSharedCell : point_letter(k),
                      verdict_color(d.verdict), color));
  }
  std::vector<std::vector<size_t>> shared;
  for (auto& [cell, ks] : cells)
    if (ks.size() > 1) shared.push_back(ks);
  return shared;
}

/// Slanted roofs: the level's name beside its line, as high up as there is room: left of it
/// (the empty region above the roofs), else right of it; with a free cell on each side where
/// possible. The legend lists every slanted roof with its bandwidth.
void terminal_slanted_labels(TerminalPlot& tp, const report::Chart& ch, const RoofSpans& spans,
                             int rows) {
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    const auto& r = ch.roofs[ri];
    if (!r.shown || r.compute || r.machine != 0) continue;
    const std::string label = terminal_safe(r.name);  // names from files: escaped
    const int len = static_cast<int>(display_width(label));
    bool placed = false;
    for (const int air : {1, 0})
      for (const bool left : {true, false})
        for (int row = 0; row < rows && !placed; ++row) {
          const auto [lo, hi] = spans[ri][static_cast<size_t>(row)];
          if (lo < 0) continue;
          const int start = left ? lo - air - len : hi + 1 + air;
          if (!tp.used.free(row, start - air, len + 2 * air)) continue;
          tp.cv.put_text(row, start, label);
          tp.used.take(row, start, len);
          placed = true;
        }
  }
}

/// The plot's rows: a y label on the row that holds each decade, the canvas, the margin labels.
std::string terminal_rows(const TerminalPlot& tp, const report::Chart& ch, int rows,
                          size_t margin_w) {
  const std::vector<std::string> margin = margin_labels(ch, tp.Y, rows, margin_w - 1);
  std::vector<std::string> ylabels(static_cast<size_t>(rows));
  for (double v : report::decade_ticks(ch.y_lo, ch.y_hi)) {
    const int r = tp.dot(tp.Y(v)) / 4;
    if (r >= 0 && r < rows) ylabels[static_cast<size_t>(r)] = format_si(v, "", 3);
  }
  std::string out;
  for (int r = 0; r < rows; ++r) {
    std::string line = pad_left(ylabels[static_cast<size_t>(r)], kLabel) + " │" + tp.cv.row(r);
    const std::string& m = margin[static_cast<size_t>(r)];
    if (!m.empty()) line += " " + m;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string render_terminal(const ReportInput& in, int columns, bool color) {
  if (columns > kMaxTerminalColumns)
    throw InputError("terminal plot: " + std::to_string(columns) + " columns is wider than the " +
                     std::to_string(kMaxTerminalColumns) + " a plot may be");
  if (columns < 1)
    throw InputError("terminal plot: " + std::to_string(columns) + " columns (give at least 1)");
  const size_t margin_w = terminal_margin_width(in, columns);
  const int cols = std::max(
      kMinPlotColumns, columns - static_cast<int>(kLabel) - 2 - 1 - static_cast<int>(margin_w));
  const int rows = std::clamp(cols / 3, 10, 24);
  const report::Chart ch = report::build_chart(in, cols * 2, rows * 4);
  TerminalPlot tp(ch, cols, rows);
  const RoofSpans spans = terminal_roof_spans(tp, ch, rows);
  const std::vector<std::vector<size_t>> shared = terminal_marks(tp, in, ch, color);
  terminal_slanted_labels(tp, ch, spans, rows);

  std::string out;
  // Every line of the plot and its legend within `columns` (docs/charts.md); the tables after
  // it are as wide as their columns.
  const auto width = static_cast<size_t>(columns);
  out += colorize(fit(terminal_safe(in.title), width), "1", color) + "\n";
  out += fit(ch.y_title, width) + "\n";
  out += terminal_rows(tp, ch, rows, margin_w);
  out += terminal_x_axis(ch, tp.X, cols, columns);
  const std::string x_indent(kLabel + 2, ' ');
  out += (display_width(x_indent + ch.x_title) <= width ? x_indent + ch.x_title
                                                        : fit(ch.x_title, width)) +
         "\n";
  out += terminal_legend(in, ch, columns, color, shared) + terminal_tables(in, ch, color);
  // Tables let colour sequences through (the renderers colour cells): without colour, a name's
  // own sequences are escaped here too, for callers that print it without the CLI's final pass
  // (Python's Chart.to_terminal()).
  return terminal_safe_lines(out, color);
}

}  // namespace roofline
