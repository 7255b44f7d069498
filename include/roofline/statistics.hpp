#pragma once
// The statistics policy of every measurement — CPU kernels, the CUDA backend, the kernel suite,
// cluster nodes — in one place, so that a roof's value, its spread and its noise judgement mean
// the same thing wherever it was measured (docs/measure.md "Statistics and trust" gives the
// reason for each choice).
//
//  - Samples are rates (larger is better). Interference (another process, a host's time slice,
//    a page fault) only slows a kernel whose work is declared exactly, so the roof lies near the
//    top of the samples.
//  - The roof value is the sustained rate: the kSustainingSamples-th fastest sample. A single
//    lucky or mistimed sample never sets the roof; the rate was reached at least that often.
//  - The spread a user reads is robust: the interquartile range over the median. A preempted
//    sample (or a few) does not move it; a machine busy for a quarter of the run or more does.
//  - A roof is confirmed when its fastest samples agree (Statistics::confirmed: the second-fastest
//    within kAgreement of the roof). An unconfirmed roof is sampled again (the retry rule,
//    needs_retry), since more samples can only raise it towards the machine's rate.
//  - A roof is noisy when its samples' robust spread exceeds kNoisySpread, it stays
//    unconfirmed, or it stands more than kNoisySpread above the upper quartile (most samples
//    slowed, so the quartiles lie among the slowed): the numbers it rests on were disturbed,
//    and a repeat may differ by more than the run-to-run agreement the tool promises.
#include <optional>
#include <string>
#include <vector>

#include "roofline/roof.hpp"

namespace roofline {

/// Robust relative spread (interquartile range / median) above which samples are called noisy.
inline constexpr double kNoisySpread = 0.10;
/// How many samples must reach a rate for it to count as sustained (Statistics::sustained).
inline constexpr int kSustainingSamples = 3;
/// Fewest samples a roof is judged on; fewer give a roof but always "noisy" (nothing to agree).
inline constexpr int kFewestSamples = 3;

/// The noise rule in words, as every output says it ("interquartile range above 10% of the
/// median, ..."): one text for the warnings, the summary's legend and the document's statistic.
std::string noisy_rule_text();

/// The q-quantile (0 ≤ q ≤ 1) of ascending `sorted` values, linear between the closest ranks
/// (Hyndman & Fan type 7, the default of R and NumPy). 0 for an empty input.
double quantile_sorted(const std::vector<double>& sorted, double q);

/// Statistics of rates by the policy above: median, best (= max), second-fastest, min, max,
/// quartiles, coefficient of variation (sample standard deviation / mean), the sustained rate
/// and the noisy flag. Empty input gives all zeros.
Statistics summarize_rates(const std::vector<double>& rates);

/// The run-to-run agreement the tool aims at between two measurements of one machine (docs/
/// measure.md "Statistics and trust"): a compute roof within 3%, a memory roof within 5%. The
/// spread of one run's samples does not hold what changes between runs (the clock, where the
/// buffers land), so `roofline diff` calls no smaller change of a measured roof a change.
inline constexpr double kRunToRunCompute = 0.03, kRunToRunMemory = 0.05;

/// Samples from which a spread is the interquartile range over the median (robust_spread).
inline constexpr int kRobustSpreadTimes = 5;

/// The relative spread two runs are compared by (`roofline diff`, a point's repetitions in
/// `check`): from kRobustSpreadTimes samples with quartiles the interquartile range over the
/// median — the spread the summary shows and the noise rule judges, which a preempted sample
/// does not move —, below (too few samples for quartiles, or a document without them) the full
/// range (max − min) / median.
double robust_spread(const Statistics& s);

/// The retry rule: a roof whose fastest samples do not agree (or that has fewer than
/// kFewestSamples samples) gets more samples.
bool needs_retry(const Statistics& s);

/// The relative spread of a rate W/t over repeated times t (seconds per call), as
/// summarize_rates() defines them (statistics.hpp): from kRobustSpreadTimes times on the
/// interquartile range over the median (one preempted repetition of a shared machine, which
/// made a quick run's full range exceed 100%, does not move it, as it does not move the median
/// P is taken at); below, with too few times for quartiles, (max − min) / median. Empty when
/// fewer than two times are given or any is not finite and > 0.
std::optional<double> rate_spread_from_times(const std::vector<double>& times);
/// The same from the times' min, median and max only: rates W/max … W/min around W/median, so
/// the spread is median · (max − min) / (min · max). Empty unless 0 < min ≤ median ≤ max.
std::optional<double> rate_spread_from_summary(double min, double median, double max);

/// The median of `values` (the mean of the two middle ones for an even count). Throws
/// InputError on empty input.
double median(std::vector<double> values);

}  // namespace roofline
