#pragma once
// Aligned text tables and colour sequences: the neutral home every layer prints its tables with
// (measure's, llm's and cluster's summaries, report's renderers), so that none of them needs
// report to draw a table. Core looks at no terminal: whether output takes colour is the caller's
// decision (report's terminal_supports_color), passed in as `enabled`.
#include <string>
#include <vector>

namespace roofline {

/// Columns UTF-8 text takes in a terminal: wide East Asian characters two, combining marks
/// none, colour sequences (ESC [ ... m) none, every other code point one.
size_t display_width(const std::string& s);

/// Text cut to `width` terminal columns (display_width), with "…" in the last column when it
/// does not fit; never inside a character, and a combining mark stays with its base. Text
/// without colour sequences.
std::string cut_to_columns(const std::string& s, size_t width);

/// A table with aligned columns; numbers right-aligned, text left-aligned. Every cell is text,
/// shown escaped (sanitize.hpp) and measured as shown: cells may hold names from files and
/// arguments, a colour sequence in one included. A cell takes colour only from the codes given
/// with its row, never from its text.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { add_row(std::move(row), {}); }
  /// A row whose cell c is coloured with the SGR code `colors[c]` ("31": red) around its
  /// escaped text, the padding outside the colour; an empty code, or none given, leaves the
  /// cell plain. Pass no codes where the output takes no colour.
  void add_row(std::vector<std::string> row, std::vector<std::string> colors) {
    rows_.push_back(std::move(row));
    colors_.push_back(std::move(colors));
  }
  std::string render() const;
  size_t size() const { return rows_.size(); }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::vector<std::string>> colors_;  // per row, as given to add_row
};

/// Colours a piece of text when `enabled` (ANSI); otherwise returns it unchanged.
std::string colorize(const std::string& text, const char* ansi_code, bool enabled);

}  // namespace roofline
