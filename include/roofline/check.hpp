#pragma once
// The roofline as a gate (`roofline check`, docs/check.md): each point is judged against a
// minimum attainment of its roof (P / attainable, from diagnose()) and, given a baseline, against
// its own earlier performance, allowing for the measurements' own noise. Pure arithmetic: the
// CLI reads the documents, this decides.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/quantity.hpp"
#include "roofline/roof.hpp"
#include "roofline/statistics.hpp"

namespace roofline {

/// A minimum attainment for the points whose name matches `pattern`: a glob where `*` is any run
/// of characters and `?` any one character; a pattern without either is one point's name.
struct AttainmentRule {
  std::string pattern;
  double min_attainment = 0;
};

/// What a check holds points to (docs/check.md, the config file).
struct CheckConfig {
  std::optional<double> min_attainment;  ///< for every point no rule matches
  std::vector<AttainmentRule> rules;     ///< the first matching rule wins
  /// Relative spread assumed when neither the point nor its baseline carries one.
  std::optional<double> noise;
  std::string origin;  ///< the config file, when one was read
  /// Where min_attainment and noise came from, as the lines name them ("--min-attainment",
  /// "the config's global minimum"); "" for the plain "the global minimum" and, for the noise,
  /// the default.
  std::string min_attainment_from, noise_from;
};

/// Whether `name` matches the glob `pattern` (`*`, `?`; everything else literal, byte-wise).
bool glob_match(std::string_view pattern, std::string_view name);

/// The threshold a point is held to: the first rule whose pattern matches its name, else the
/// global minimum, else none.
struct Threshold {
  double min_attainment = 0;
  std::string from;  ///< "rule 'triad*'" or "the global minimum"
};
std::optional<Threshold> threshold_for(const CheckConfig& c, std::string_view name);

/// A point's relative spread, (max − min) / median of its rates, and where it came from.
struct Spread {
  double value = 0;
  std::string from;  ///< e.g. "9 repetitions" or "assumed"
};

/// The noise past which a comparison is not judged: a run whose rates spread by as much as their
/// median (its slowest repetition could run at any rate down to 0) does not measure the point.
/// Judged additively (a regression below 1 − noise, as this gate once did), such a noise let any
/// slowdown pass (a run whose times spread 133% passed a 5× slowdown, one at 97.4% a 20× one);
/// judged by the band below, a ratio under 1/2 would still fail, but the gate refuses to judge
/// a measurement this noisy at all: it is too noisy to judge, and fails.
inline constexpr double kBlindNoise = 1.0;

/// The ratios a relative noise n explains: [1/(1 + n), 1 + n]. The noise is a relative spread of
/// one run's rates ((max − min) / median, or the interquartile range over the median): two rates
/// of the same work lie apart by up to n of a typical rate, so the faster is up to 1 + n times
/// the slower, whichever run is faster. A ratio r = P_now / P_base is therefore within the noise
/// when max(r, 1/r) ≤ 1 + n: the band is symmetric in log r, and swapping the two runs swaps a
/// regression for an improvement. The additive band [1 − n, 1 + n] was not: it called 2× an
/// improvement at n = 0.6 and 0.5× within the noise, and its lower bound 1 − n reached 0 as n
/// neared 1, so it passed any slowdown.
inline double noise_band_low(double noise) {
  return 1.0 / (1.0 + noise);
}
inline double noise_band_high(double noise) {
  return 1.0 + noise;
}
/// x < bound, beyond kThresholdTolerance (quantity.hpp): a figure equal to its threshold in
/// exact arithmetic is judged at the threshold, however it rounded.
inline bool below_threshold(double x, double bound) {
  return x < bound * (1 - kThresholdTolerance);
}
/// x > bound, beyond kThresholdTolerance.
inline bool above_threshold(double x, double bound) {
  return x > bound * (1 + kThresholdTolerance);
}
/// Whether `ratio` lies outside the band `noise` explains (above or below).
bool beyond_noise(double ratio, double noise);
/// The bound of the band on the ratio's side: what the ratio is printed apart from.
double noise_bound(double ratio, double noise);
/// A noise as a percentage, always a finite figure ("> 1000%" past that: a run of times from
/// 1e-308 s to 1e308 s read "inf%"), and apart from 100% (kBlindNoise) when below it: "99.999%",
/// never "100%", beside a comparison it judged.
std::string noise_percent(double noise);
/// The noise as a comparison's line says it: "±9.52%", or "beyond ±1000%".
std::string noise_plus_minus(double noise);
/// The ratios a noise explains, as a line says them beside the noise: "ratios 0.970874x to
/// 1.03x" (a 2.9% drop is beyond a noise of 3%: the band is 1/(1 + n) below); "" past 1000%.
std::string noise_band_text(double noise);

/// A point against its baseline: ratio = P_now / P_base; the noise allowed is the larger of the
/// two spreads carried (one alone when only one is; `assumed` when neither is); it regressed
/// when the ratio falls below noise_band_low(noise), improved above noise_band_high(noise). A
/// noise of kBlindNoise or more judges neither way (`too_noisy`).
struct RegressionJudgement {
  double ratio = 1;
  double noise = 0;
  std::string noise_from;
  bool regressed = false;
  bool improved = false;
  bool too_noisy = false;
};
/// `assumed_from` names where the assumed noise came from ("--noise"; "" for the default).
RegressionJudgement judge_regression(double p_now, double p_base, const std::optional<Spread>& now,
                                     const std::optional<Spread>& base, double assumed,
                                     const std::string& assumed_from = "");

/// The spread assumed when no document carries one: kNoisySpread (statistics.hpp), the spread
/// above which the toolkit calls a measurement noisy, so a quiet measurement is within it.
double default_assumed_noise();

/// A point's attainment against its threshold. `above_roof` (diagnose()'s alarm) fails too: a
/// point above its roof means the measurement or the roof is wrong, and a gate must not pass it.
struct AttainmentJudgement {
  bool failed = false;
  std::string why;  ///< "attainment 0.42 < 0.70 (rule 'triad*')" or "attainment 0.85 ≥ 0.70 ..."
};
AttainmentJudgement judge_attainment(double attainment, const std::optional<Threshold>& t,
                                     bool above_roof);

/// One point's outcome: passed, failed (each reason in `why`), or skipped (nothing to judge it
/// by, e.g. a baseline point missing now).
enum class CheckStatus { passed, failed, skipped };
std::string to_string(CheckStatus s);

struct PointCheck {
  std::string name;
  CheckStatus status = CheckStatus::passed;
  std::vector<std::string> why;  ///< one phrase per judgement, failures first
};

/// The JUnit XML of a check (the format CI systems read: one <testsuite>, one <testcase> per
/// point, <failure> for a failed one, <skipped> for a skipped one), valid against Jenkins xUnit's
/// junit-10.xsd. Every name and message goes through xml_text() (sanitize.hpp), so the file is
/// well-formed whatever the names hold. The points' classname is junit_classname(suite_name).
/// `gate_failure`, when given, is one more failed test case, "(the gate)" of classname
/// junit_classname(suite_name) + " gate" (apart from a point of that name): the gate failing as a
/// whole (no point was judged).
std::string render_junit(const std::string& suite_name, std::vector<PointCheck> points,
                         const std::string& gate_failure = "");
/// The JUnit XML of a check that could not run (bad input): the gate's test case "(the gate)"
/// with an <error> saying why, so a report left by an earlier run does not stand for this one.
std::string render_junit_error(const std::string& suite_name, const std::string& error);
/// A JUnit classname of `suite_name`: its '.' replaced by '_' (CI systems split a classname at
/// its last '.' into package and class, and a file name's dot would split it).
std::string junit_classname(const std::string& suite_name);

}  // namespace roofline
