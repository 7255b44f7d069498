#include "report/spread.hpp"

#include "report/chart.hpp"
#include "roofline/quantity.hpp"

namespace roofline::report {

SpreadText describe_spread(const Statistics& s, const std::string& rate_unit) {
  SpreadText t;
  // The spread the measure summary shows and the noise policy judges (shown_spread: the
  // interquartile range over the median); the median leads because one preempted sample moves
  // it least.
  const double spread = s.shown_spread();
  const std::string pct = percent_text(spread);
  t.sort_key = spread;
  t.brief = pct + (s.noisy ? " noisy" : "");
  t.detail = "median " + format_si(s.median, rate_unit) + " · spread " + pct + " of " +
             std::to_string(s.repetitions) + (s.noisy ? " (noisy)" : "");
  return t;
}

}  // namespace roofline::report
