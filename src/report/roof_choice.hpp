#pragma once
// Which roofs a chart draws. A measured CPU has twenty-odd compute roofs (every precision ×
// vector width × instruction class); drawn together they hide the few a reader needs. The
// default view is chosen by one rule (docs/charts.md, "Which roofs are drawn"):
//   - per precision, its highest dense roof;
//   - the scalar baseline: the highest scalar roof of the default roof's precision (of any
//     precision when that one has none);
//   - the no-FMA roof (add+mul) of the default roof's precision, where it is more than 3% below
//     that precision's FMA roof;
//   - every memory level;
//   - the default compute and memory roofs (the pair the ridge I* is quoted for) and every roof
//     a point on the chart is judged against.
// The other roofs are "optional": the HTML page draws them hidden behind toggles, and
// `--roofs` (ReportInput::roofs) selects them for SVG, PNG and the terminal.
#include <string>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/roof.hpp"

namespace roofline::report {

/// What a compute roof is, for grouping: precision ("fp32"), vector width ("512-bit",
/// "scalar"; empty when the unit names none, e.g. "tensor") and instruction class ("fma",
/// "add+mul", "vnni", "tensor").
struct RoofTraits {
  std::string precision;
  std::string width;
  std::string klass;
};
RoofTraits roof_traits(const ComputeRoof& c);

/// Per roof of a set: drawn in this view or not, and why it is in the default view (empty
/// when it is not: "highest fp32", "scalar baseline", "no-FMA fp64", "judges a point").
struct RoofChoice {
  std::vector<bool> compute_shown;  ///< parallel to RoofSet::compute
  std::vector<bool> memory_shown;   ///< parallel to RoofSet::memory
  std::vector<std::string> compute_reason;
};

/// Applies the default rule, then the selection `terms` (ReportInput::roofs; empty = the
/// default view). Each term is "default", "all", a roof name or memory level, a precision, a
/// vector width or an instruction class (case-insensitive); a roof is drawn when a term
/// selects it. Compute roofs no term selects follow the default rule, as do memory roofs when
/// no term names a level. The default pair and the roofs points are judged against are always
/// drawn. Throws InputError naming a term that selects nothing and listing what it could be.
RoofChoice choose_roofs(const RoofSet& roofs, const std::vector<Diagnosis>& diagnoses,
                        const std::vector<std::string>& terms);

}  // namespace roofline::report
