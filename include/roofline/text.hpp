#pragma once
// Terminal text: aligned tables, optional colour, and the text form of core results
// (point analysis, kernel counts). Charts live in report/ (svg, html, terminal plot).
#include <cstdio>
#include <string>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline {

/// True when `stream` is a terminal that takes colour (not piped, TERM not "dumb", NO_COLOR unset).
bool terminal_supports_color(std::FILE* stream);

/// A table with aligned columns; numbers right-aligned, text left-aligned.
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
/// ANSI colour for a verdict (green on a roof, yellow far below, red above).
const char* verdict_color(Verdict v);

/// The full text analysis of a point against a roof set: I, P, attainable, attainment, the
/// two steps of the diagnosis, the prescription and the notes.
std::string render_point_analysis(const Point& p, const Diagnosis& d, const RoofSet& roofs,
                                  bool color);
/// A kernel's hand count: W, Q, I, formulas, BLAS level.
std::string render_kernel_count(const KernelCount& k, const UnitSystem& u);
/// The roofs of a set as a table (name, value, provenance, theoretical ratio, ridge).
std::string render_roofs(const RoofSet& roofs);

}  // namespace roofline
