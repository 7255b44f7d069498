// Aligned text tables and colour sequences (roofline/table.hpp).
#include "roofline/table.hpp"

#include <algorithm>
#include <cctype>

#include "roofline/sanitize.hpp"

namespace roofline {
namespace {
// Columns a code point takes in a terminal: 2 for East Asian wide and fullwidth characters
// (Unicode UAX #11: Hangul, CJK, kana, fullwidth forms, the emoji blocks), 0 for combining
// marks, variation selectors and zero-width spaces, 1 otherwise.
int code_point_columns(char32_t c) {
  struct Range {
    char32_t lo, hi;
  };
  static constexpr Range kZero[] = {{0x0300, 0x036F}, {0x1AB0, 0x1AFF},  {0x1DC0, 0x1DFF},
                                    {0x200B, 0x200F}, {0x20D0, 0x20FF},  {0xFE00, 0xFE0F},
                                    {0xFE20, 0xFE2F}, {0xE0100, 0xE01EF}};
  static constexpr Range kWide[] = {{0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},
                                    {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
                                    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
                                    {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
                                    {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF},
                                    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
  for (const Range& r : kZero)
    if (c >= r.lo && c <= r.hi) return 0;
  for (const Range& r : kWide)
    if (c >= r.lo && c <= r.hi) return 2;
  return 1;
}

}  // namespace

// Display width of UTF-8 text in terminal columns: code points, not bytes (·, ², ≈ are one
// column each; 東, 한 two; a combining accent none); colour sequences (ESC [ ... m) take none.
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
    // A byte that is no well-formed UTF-8 takes a column (a terminal shows one replacement
    // character); cells reach here escaped, where there is none.
    char32_t c = 0;
    const size_t n = decode_utf8(s, i, c);
    if (n == 0) {
      ++w;
      continue;
    }
    i += n - 1;
    w += static_cast<size_t>(code_point_columns(c));
  }
  return w;
}

std::string cut_to_columns(const std::string& s, size_t width) {
  if (display_width(s) <= width) return s;
  if (width == 0) return "";
  std::string out;
  size_t cols = 0;
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const size_t len = std::max<size_t>(1, decode_utf8(s, i, cp));
    const std::string ch = s.substr(i, len);
    const size_t w = display_width(ch);
    if (cols + w + 1 > width) break;  // the ellipsis takes the last column
    out += ch;
    cols += w;
    i += len;
  }
  return out + "…";
}

namespace {
/// Cells are text (names from files among them): escaped, a colour sequence in one too, so a
/// cell is measured as it is printed. Colour comes from add_row's codes alone: a name written
/// as a coloured cell ("\033[31mRED\033[0m") had passed as colour, been measured three columns
/// wide, and shifted the row's later columns once the output's final pass escaped it.
std::vector<std::string> safe_cells(const std::vector<std::string>& cells) {
  std::vector<std::string> out;
  out.reserve(cells.size());
  for (const auto& c : cells) out.push_back(terminal_safe(c));
  return out;
}
/// A number, alone or followed by a unit, a percent sign, a ratio's x or words after a space
/// ("12.63 TOP/s", "2.5%", "1.718x", "0.858 limit [2]"): right-aligned. A name that only starts
/// with a digit ("5-point 2D stencil", "3x3 conv") is text.
bool looks_numeric(const std::string& s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  const std::size_t digits_from = i;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  if (i == digits_from || s.find_first_of("0123456789", digits_from) >= i) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {  // an exponent: 1e+09
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      i = j;
    }
  }
  if (i == s.size()) return true;
  const unsigned char next = static_cast<unsigned char>(s[i]);
  if (next == 'x') return i + 1 == s.size() || s[i + 1] == ' ';  // a ratio: "1.718x"
  if (next == '*') return i + 1 == s.size();                     // a footnote's mark: "306*"
  return next == ' ' || next == '%' || next >= 0x80;  // "× 2", "µs" and other UTF-8 units
}

/// A cell that says nothing ("", "-", "—"): it decides no column's alignment.
bool placeholder(const std::string& s) {
  return s.empty() || s == "-" || s == "—";
}
}  // namespace

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
  // A column of names is left-aligned throughout, its names that start with a digit too; in
  // a column mostly of numbers, the numbers are right-aligned and a word among them left.
  std::vector<bool> numeric_column(width.size(), false);
  for (size_t c = 0; c < width.size(); ++c) {
    int numbers = 0, words = 0;
    for (const auto& r : rows)
      if (c < r.size() && !placeholder(r[c])) ++(looks_numeric(r[c]) ? numbers : words);
    numeric_column[c] = numbers > words;
  }
  auto line = [&](const std::vector<std::string>& r, const std::vector<std::string>& colors,
                  bool is_header) {
    std::string out;
    for (size_t c = 0; c < width.size(); ++c) {
      std::string cell = c < r.size() ? r[c] : "";
      const size_t pad = width[c] - display_width(cell);
      const bool right = !is_header && numeric_column[c] && looks_numeric(cell);
      if (c < colors.size() && !colors[c].empty() && !cell.empty())
        cell = "\033[" + colors[c] + "m" + cell + "\033[0m";  // the padding stays outside
      if (c) out += "  ";
      if (right)
        out += std::string(pad, ' ') + cell;
      else
        out += cell + (c + 1 < width.size() ? std::string(pad, ' ') : "");
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header, {}, true);
  size_t total = 0;
  for (size_t c = 0; c < width.size(); ++c) total += width[c] + (c ? 2 : 0);
  std::string rule;
  for (size_t i = 0; i < total; ++i) rule += "─";
  out += rule + "\n";
  for (size_t i = 0; i < rows.size(); ++i) out += line(rows[i], colors_[i], false);
  return out;
}

std::string colorize(const std::string& text, const char* code, bool enabled) {
  if (!enabled || !code || !*code) return text;
  return std::string("\033[") + code + "m" + terminal_safe(text) + "\033[0m";
}

}  // namespace roofline
