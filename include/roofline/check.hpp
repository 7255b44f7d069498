#pragma once
// The roofline as a gate (`roofline check`, docs/check.md): each point is judged against a
// minimum attainment of its roof (P / attainable, from diagnose()) and, given a baseline, against
// its own earlier performance, allowing for the measurements' own noise. Pure arithmetic: the
// CLI reads the documents, this decides.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// The noise at which a regression can no longer be seen: from 100% on no ratio P/P_baseline
/// can fall below 1 − noise, so a gate would pass any slowdown (a run whose times spread 133%
/// passed a 5× slowdown). A comparison this noisy is too noisy to judge, and fails.
inline constexpr double kBlindNoise = 1.0;

/// A point against its baseline: ratio = P_now / P_base; the noise allowed is the larger of the
/// two spreads carried (one alone when only one is; `assumed` when neither is); it regressed
/// when the ratio falls below 1 − noise. A ratio above 1 + noise is an improvement. A noise of
/// kBlindNoise or more judges neither way (`too_noisy`).
struct RegressionJudgement {
  double ratio = 1;
  double noise = 0;
  std::string noise_from;
  bool regressed = false;
  bool improved = false;
  bool too_noisy = false;
};
RegressionJudgement judge_regression(double p_now, double p_base, const std::optional<Spread>& now,
                                     const std::optional<Spread>& base, double assumed);

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
/// point, <failure> for a failed one, <skipped> for a skipped one). Every name and message goes
/// through xml_text() (sanitize.hpp), so the file is well-formed whatever the names hold.
/// `gate_failure`, when given, is one more failed test case, "(the gate)": the gate failing as a
/// whole (no point was judged).
std::string render_junit(const std::string& suite_name, std::vector<PointCheck> points,
                         const std::string& gate_failure = "");

}  // namespace roofline
