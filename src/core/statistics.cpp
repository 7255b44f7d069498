// The statistics policy (statistics.hpp).
#include "roofline/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "roofline/error.hpp"

namespace roofline {

std::string noisy_rule_text() {
  const auto percent = [](double share) { return std::to_string(std::lround(100 * share)) + "%"; };
  return "interquartile range above " + percent(kNoisySpread) +
         " of the median, the second- and third-fastest samples more than " + percent(kAgreement) +
         " apart, or the roof more than " + percent(kNoisySpread) + " above the upper quartile";
}

double quantile_sorted(const std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const double h = (static_cast<double>(v.size()) - 1) * std::clamp(q, 0.0, 1.0);
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

Statistics summarize_rates(const std::vector<double>& rates) {
  Statistics s;
  if (rates.empty()) return s;
  std::vector<double> v = rates;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.repetitions = static_cast<int>(n);
  s.median = quantile_sorted(v, 0.5);
  s.q1 = quantile_sorted(v, 0.25);
  s.q3 = quantile_sorted(v, 0.75);
  s.min = v.front();
  s.max = v.back();
  s.best = s.max;
  // The second-fastest, when there is one besides the sustained sample (n ≥ 3); else 0, and
  // confirmed() compares the best.
  s.second = n >= static_cast<size_t>(kSustainingSamples) ? v[n - 2] : 0;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(n);
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  const double stddev = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0;
  s.cv = mean > 0 ? stddev / mean : 0;
  s.sustained = v[n - std::min<size_t>(n, kSustainingSamples)];
  // Also noisy: a roof far above the upper quartile. When most samples were slowed (a host
  // that ran this CPU a fraction of the time) the quartiles lie among the slowed, their range is
  // narrow, and the few clean samples agree: a DRAM roof 1.37 times its q3 passed, and the next
  // run read 47% higher.
  const bool above_the_bulk =
      n >= static_cast<size_t>(kRobustSpreadTimes) && s.sustained > s.q3 * (1 + kNoisySpread);
  s.noisy = robust_spread(s) > kNoisySpread || !s.confirmed() || above_the_bulk ||
            s.repetitions < kFewestSamples;
  return s;
}

double robust_spread(const Statistics& s) {
  return s.repetitions >= kRobustSpreadTimes && s.q3 > 0 ? s.iqr() : s.spread();
}

std::optional<double> rate_spread_from_times(const std::vector<double>& times) {
  if (times.size() < 2) return std::nullopt;
  std::vector<double> rates;
  rates.reserve(times.size());
  for (double t : times) {
    if (!std::isfinite(t) || t <= 0) return std::nullopt;
    rates.push_back(1.0 / t);  // W/t; W cancels in a relative spread
  }
  const Statistics s = summarize_rates(rates);
  if (!(s.median > 0) || !std::isfinite(s.spread())) return std::nullopt;
  return robust_spread(s);
}

std::optional<double> rate_spread_from_summary(double min, double median, double max) {
  if (!std::isfinite(min) || !std::isfinite(median) || !std::isfinite(max)) return std::nullopt;
  if (!(min > 0) || median < min || max < median) return std::nullopt;
  // Rates W/max ≤ W/median ≤ W/min: (W/min − W/max) / (W/median) = median·(max − min)/(min·max).
  const double spread = median * (max - min) / (min * max);
  if (!std::isfinite(spread)) return std::nullopt;  // times at the ends of a double's range
  return spread;
}

double Statistics::shown_spread() const {
  return q3 > 0 ? robust_spread(*this) : cv;
}

bool needs_retry(const Statistics& s) {
  return s.repetitions < kFewestSamples || !s.confirmed();
}

double median(std::vector<double> values) {
  if (values.empty()) throw InputError("median of no values");
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, 0.5);
}

}  // namespace roofline
