#include "roofline/documents.hpp"

#include "roofline/error.hpp"
#include "roofline/statistics.hpp"

namespace roofline {

void refuse_other_units(const std::string& file, const UnitSystem& points,
                        const std::string& against, const UnitSystem& against_units) {
  if (points == against_units) return;
  throw InputError(file + ": points are in " + points.work + "/" + points.traffic + " but " +
                   against + " " + against_units.work + "/" + against_units.traffic);
}

std::string bandwidth_run_note(const PointLeftOut& run, const std::string& outcome,
                               const std::string& file, bool brief) {
  const std::string what =
      brief ? run.reason + ": a bandwidth run, not a point" : run.detail;  // detail names the run
  return (file.empty() ? "" : file + ": ") + what + (outcome.empty() ? "" : ": " + outcome);
}

double RunRecord::spread() const {
  if (const auto s = rate_spread_from_times(times)) return *s;
  return rate_spread_from_summary(min, median, max).value_or(0);
}

std::string RunRecord::label() const {
  return kernel + (variant.empty() ? "" : " [" + variant + "]");
}

Point RunRecord::to_point() const {
  Point p;
  p.name = label() + " @" + level;
  p.work = count.work;
  p.traffic = traffic;
  p.time = Seconds(sustained);
  p.precision = precision;
  p.source = "roofline run (measured T, catalogue W and Q)";
  p.note = note;
  return p;
}

}  // namespace roofline
