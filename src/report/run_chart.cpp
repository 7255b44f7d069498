// `roofline run --report`'s chart input (report.hpp): the placed runs drawn on the machine's
// roofs, and those without a roof to judge them on said as not drawn.
#include <string>

#include "roofline/report.hpp"

namespace roofline {
namespace {

/// The short reason a chart's line gives for a run placed without a diagnosis (its why_not is
/// the whole message, the HTML page's and the JSON's).
std::string run_not_drawn_reason(const PlacedRun& p) {
  if (!p.result.level.empty() && p.why_not.rfind("the machine has no roof for ", 0) == 0)
    return "no roof for level " + p.result.level;
  return "no roof to judge it on";
}

}  // namespace

ReportInput run_report_input(const Placement& placement, const MachineDocument& m) {
  ReportInput in;
  in.title = "roofline run on " + m.roofs.name;
  in.machines.push_back(m);
  for (const auto& p : placement.placed)
    if (p.diagnosis)
      in.points.push_back(p.point);
    else if (!p.why_not.empty())
      in.not_drawn.push_back({p.point.name, run_not_drawn_reason(p), p.why_not});
  in.no_overlap_curve = true;
  return in;
}

}  // namespace roofline
