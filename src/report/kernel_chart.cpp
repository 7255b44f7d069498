// `roofline kernel --report`'s chart: a machine's roofs with a line at a kernel's intensity.
#include <string>

#include "roofline/report.hpp"

namespace roofline {

ReportInput kernel_report_input(const KernelCount& k, const std::string& dtype,
                                const MachineDocument& m, const KernelOnRoofs& on,
                                const std::string& level) {
  ReportInput in;
  in.title = k.kernel + " (" + dtype + ") on " + m.roofs.name;
  // The chart's workload line on the roofs the text judged it against (--dtype or --precision,
  // --level), not the machine's defaults.
  in.machines.push_back(m);
  in.machines.front().roofs.default_compute = on.compute_roof;
  in.machines.front().roofs.default_memory = on.memory_level;
  in.workload_precision = on.compute_roof;
  in.workload_level = level;
  if (k.intensity().value > 0) in.workload_line = k.intensity();
  in.no_overlap_curve = true;
  return in;
}

std::string kernel_report_text(const ReportInput& in) {
  return in.workload_line
             ? ""
             : "  --report: no workload line (I = 0 has no place on the log intensity axis)\n";
}

}  // namespace roofline
