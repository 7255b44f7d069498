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

/// A table with aligned columns; numbers right-aligned, text left-aligned. Cells are shown
/// escaped (sanitize.hpp): they may hold names from files and arguments.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render() const;
  size_t size() const { return rows_.size(); }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

/// Colours a piece of text when `enabled` (ANSI); otherwise returns it unchanged.
std::string colorize(const std::string& text, const char* ansi_code, bool enabled);

}  // namespace roofline
