// Statistics of repeated rate samples (statistics.hpp).
#include "roofline/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace roofline {

Statistics summarize_rates(const std::vector<double>& rates, double noisy_spread) {
  Statistics s;
  if (rates.empty()) return s;
  std::vector<double> v = rates;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.repetitions = static_cast<int>(n);
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  s.best = s.max;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(n);
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  const double stddev = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0;
  s.cv = mean > 0 ? stddev / mean : 0;
  s.sustained = v[n - std::min<size_t>(n, kSustainingSamples)];
  s.noisy = s.spread() > noisy_spread;
  return s;
}

}  // namespace roofline
