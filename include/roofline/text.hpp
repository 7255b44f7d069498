#pragma once
// Terminal text: the text form of core results (point analysis, kernel counts, roofs), on the
// tables of roofline/table.hpp, and whether a terminal takes colour. Charts live in report/
// (svg, html, terminal plot).
#include <cstdio>
#include <string>

#include "roofline/diagnosis.hpp"
#include "roofline/diff.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"
#include "roofline/table.hpp"

namespace roofline {

/// True when `stream` is a terminal that takes colour (not piped, TERM not "dumb", NO_COLOR unset
/// or empty): the decision the renderers' `color` argument and colorize's `enabled` take.
bool terminal_supports_color(std::FILE* stream);

/// ANSI colour for a verdict (green on a roof, yellow far below, bold blue just below, red
/// above).
const char* verdict_color(Verdict v);

/// The full text analysis of a point against a roof set: I, P, attainable, attainment, the
/// two steps of the diagnosis, the prescription and the notes.
std::string render_point_analysis(const Point& p, const Diagnosis& d, const RoofSet& roofs,
                                  bool color);
/// The kernel catalogue as a table (`roofline kernel list`): name, size flags (optional ones in
/// brackets), default dtype, what it computes.
std::string render_kernel_catalogue(const std::vector<KernelSpec>& kernels);
/// A kernel's hand count: W, Q, I, formulas, BLAS level.
std::string render_kernel_count(const KernelCount& k, const UnitSystem& u);
/// The kernel on a machine's roofs: ridge and side, attainable rate, time bounds.
std::string render_kernel_on_roofs(const KernelOnRoofs& k, const std::string& machine,
                                   const UnitSystem& u);
/// The roofs of a set as a table (name, value, provenance, theoretical ratio, ridge).
std::string render_roofs(const RoofSet& roofs);
/// `roofline diff` of two machines: a line per roof paired (values, B/A, spreads, the verdict
/// against the noise), the roofs one side lacks, the ridge moving. `origin_a` / `origin_b`: where
/// each machine was read from (a file or catalogue name), beside its name in the heading.
std::string render_machines_diff(const RoofSetDiff& d, const RoofSet& a,
                                 const std::string& origin_a, const RoofSet& b,
                                 const std::string& origin_b);
/// `roofline diff` of two points documents: a line per pair (P, B/A, the intensity ratio, spreads,
/// the verdict, a precision changed), then the points one side lacks. `label_a` / `label_b`: the
/// documents as given.
std::string render_points_diff(const PointsDiff& d, const std::string& label_a,
                               const std::string& label_b);

}  // namespace roofline
