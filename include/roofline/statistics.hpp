#pragma once
// Statistics of repeated rate samples: one definition for every measurement (CPU kernels, the
// CUDA backend, cluster nodes), so a roof's median, best, spread and noise flag mean the same
// thing wherever it was measured.
#include <vector>

#include "roofline/roof.hpp"

namespace roofline {

/// Relative spread (max − min) / median above which samples are called noisy.
inline constexpr double kNoisySpread = 0.10;
/// How many samples must reach a rate for it to count as sustained (Statistics::sustained).
inline constexpr int kSustainingSamples = 3;

/// Statistics of rates (larger is better): median, best (= max: interference only slows a kernel
/// down, so the fastest sample is the closest to the machine's rate), min, max, coefficient of
/// variation (sample standard deviation / mean), the sustained rate (the kSustainingSamples-th
/// fastest sample) and the noisy flag (spread above `noisy_spread`).
/// Empty input gives all zeros.
Statistics summarize_rates(const std::vector<double>& rates, double noisy_spread = kNoisySpread);

}  // namespace roofline
