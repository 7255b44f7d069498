#include "roofline/check.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/diagnosis.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/statistics.hpp"

namespace roofline {

bool glob_match(std::string_view pattern, std::string_view name) {
  // Iterative matching with one backtrack point (the last '*'): linear in practice, no
  // recursion, so no pattern can exhaust the stack.
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_n = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<Threshold> threshold_for(const CheckConfig& c, std::string_view name) {
  for (const auto& r : c.rules)
    if (glob_match(r.pattern, name)) return Threshold{r.min_attainment, "rule '" + r.pattern + "'"};
  if (c.min_attainment)
    return Threshold{*c.min_attainment,
                     c.min_attainment_from.empty() ? "the global minimum" : c.min_attainment_from};
  return std::nullopt;
}

double default_assumed_noise() {
  return kNoisySpread;
}

namespace {
/// Past 1000% a noise's figure says no more than "far too noisy"; past ~1e306 it is not finite.
constexpr double kMostPercent = 1000;
}  // namespace

std::string noise_plus_minus(double noise) {
  if (!(100 * noise <= kMostPercent)) return "beyond ±" + format_number(kMostPercent) + "%";
  return "±" + noise_percent(noise);
}

std::string noise_band_text(double noise) {
  if (!(100 * noise <= kMostPercent)) return "";  // "> 1000%" says it
  // Six digits: a ratio printed apart from the bound (0.97088 within, 0.97086 beyond a 3% band
  // whose low end is 0.970874) reads on the right side of it.
  return "ratios " + format_number(noise_band_low(noise), 6) + "x to " +
         format_number(noise_band_high(noise), 6) + "x";
}

bool beyond_noise(double ratio, double noise) {
  return below_threshold(ratio, noise_band_low(noise)) ||
         above_threshold(ratio, noise_band_high(noise));
}

double noise_bound(double ratio, double noise) {
  return ratio < 1 ? noise_band_low(noise) : noise_band_high(noise);
}

std::string noise_percent(double noise) {
  const double pc = 100 * noise;
  if (!(pc <= kMostPercent)) return "> " + format_number(kMostPercent) + "%";
  // Apart from 100% when below it: a comparison judged beside "±100%" reads as one that was
  // too noisy to judge.
  return (noise < kBlindNoise ? format_number_apart(pc, 100 * kBlindNoise) : format_number(pc, 3)) +
         "%";
}

RegressionJudgement judge_regression(double p_now, double p_base, const std::optional<Spread>& now,
                                     const std::optional<Spread>& base, double assumed,
                                     const std::string& assumed_from) {
  RegressionJudgement j;
  j.ratio = p_now / p_base;
  if (now && base) {
    j.noise = std::max(now->value, base->value);
    j.noise_from = now->value >= base->value ? "this run's spread (" + now->from + ")"
                                             : "the baseline's spread (" + base->from + ")";
  } else if (now || base) {
    const Spread& s = now ? *now : *base;
    j.noise = s.value;
    j.noise_from = std::string(now ? "this run's" : "the baseline's") + " spread (" + s.from +
                   "; the other carries none)";
  } else {
    j.noise = assumed;
    j.noise_from = "assumed (" +
                   (assumed_from.empty() ? "the default " + format_number(100 * assumed) + "%"
                                         : assumed_from) +
                   "): neither document carries a spread";
  }
  // A measured spread is of one run's samples: what changes between runs (the clock, where the
  // buffers land) it does not hold, so it is no less than the run-to-run agreement the tool
  // aims at (kRunToRunCompute, as `diff` takes it). Times all equal (durations rounded to whole
  // microseconds) gave a noise of 0 and failed a 1-ppm slowdown. An assumed noise is the user's.
  if ((now || base) && j.noise < kRunToRunCompute) {
    j.noise_from = "the run-to-run floor of " + format_number(100 * kRunToRunCompute) +
                   "%, above " + j.noise_from + ": " + format_number(100 * j.noise, 3) + "%";
    j.noise = kRunToRunCompute;
  }
  j.too_noisy = j.noise >= kBlindNoise;
  // The band [1/(1 + n), 1 + n] (noise_band_low, check.hpp): symmetric in the ratio.
  j.regressed = !j.too_noisy && below_threshold(j.ratio, noise_band_low(j.noise));
  j.improved = !j.too_noisy && above_threshold(j.ratio, noise_band_high(j.noise));
  return j;
}

AttainmentJudgement judge_attainment(double attainment, const std::optional<Threshold>& t,
                                     bool above_roof) {
  AttainmentJudgement j;
  if (above_roof) {
    j.failed = true;
    j.why = "attainment " + format_number_apart(attainment, DiagnosisOptions{}.above) +
            " is above its roof: the measurement or the roof is wrong";
    return j;
  }
  if (!t) {
    j.why = "attainment " + format_number(attainment, 3) + " (no minimum)";
    return j;
  }
  j.failed = below_threshold(attainment, t->min_attainment);
  j.why = "attainment " + format_number_apart(attainment, t->min_attainment) +
          (j.failed ? " < " : " ≥ ") + format_number(t->min_attainment, 3) + " (" + t->from + ")";
  return j;
}

std::string to_string(CheckStatus s) {
  switch (s) {
    case CheckStatus::passed:
      return "passed";
    case CheckStatus::failed:
      return "failed";
    case CheckStatus::skipped:
      return "skipped";
  }
  return "?";
}

namespace {

/// The name of the gate's own test case (no point judged, or bad input), under a classname of its
/// own (junit_classname(suite) + " gate"): a point may be named "(the gate)" too.
constexpr const char* kGateCase = "(the gate)";

/// The opening of the report: the XML declaration, <testsuites> with the totals and <testsuite>
/// with them and `skipped` (junit-10.xsd, Jenkins xUnit's schema, allows `skipped` on
/// <testsuite> only).
std::string junit_head(const std::string& suite_name, size_t tests, int failures, int errors,
                       int skipped) {
  const std::string suite = xml_text(suite_name);
  const std::string counts = " tests=\"" + std::to_string(tests) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                             "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + suite + "\"" + counts +
         ">\n  <testsuite name=\"" + suite + "\"" + counts + " skipped=\"" +
         std::to_string(skipped) + "\">\n";
}

constexpr const char* kJunitTail = "  </testsuite>\n</testsuites>\n";

}  // namespace

std::string junit_classname(const std::string& suite_name) {
  // Jenkins splits a classname at its last '.' into a package and a class: "roofline check
  // p.json" would show as class "json" of package "roofline check p".
  std::string c = suite_name;
  std::replace(c.begin(), c.end(), '.', '_');
  return c;
}

std::string render_junit(const std::string& suite_name, std::vector<PointCheck> points,
                         const std::string& gate_failure) {
  const std::string classname = xml_text(junit_classname(suite_name));
  // The gate's own failure (no point judged) is a failed test case: a report of skipped cases
  // alone would show green in the CI's view of it.
  int failures = !gate_failure.empty(), skipped = 0;
  for (const auto& p : points) {
    failures += p.status == CheckStatus::failed;
    skipped += p.status == CheckStatus::skipped;
  }
  std::string x =
      junit_head(suite_name, points.size() + !gate_failure.empty(), failures, 0, skipped);
  for (const auto& p : points) {
    std::string all;
    for (const auto& w : p.why) all += (all.empty() ? "" : "; ") + w;
    x += "    <testcase classname=\"" + classname + "\" name=\"" + xml_text(p.name) + "\"";
    if (p.status == CheckStatus::passed) {
      x += ">\n      <system-out>" + xml_text(all) + "</system-out>\n    </testcase>\n";
    } else if (p.status == CheckStatus::skipped) {
      x += ">\n      <skipped message=\"" + xml_text(all) + "\"/>\n    </testcase>\n";
    } else {
      x += ">\n      <failure message=\"" + xml_text(all) + "\" type=\"roofline.check\">" +
           xml_text(all) + "</failure>\n    </testcase>\n";
    }
  }
  if (!gate_failure.empty())
    x += "    <testcase classname=\"" + classname + " gate\" name=\"" + kGateCase +
         "\">\n      <failure message=\"" + xml_text(gate_failure) + "\" type=\"roofline.check\">" +
         xml_text(gate_failure) + "</failure>\n    </testcase>\n";
  return x + kJunitTail;
}

std::string render_junit_error(const std::string& suite_name, const std::string& error) {
  const std::string text = xml_text(error);
  return junit_head(suite_name, 1, 0, 1, 0) + "    <testcase classname=\"" +
         xml_text(junit_classname(suite_name)) + " gate\" name=\"" + kGateCase +
         "\">\n      <error message=\"" + text + "\" type=\"roofline.input\">" + text +
         "</error>\n    </testcase>\n" + kJunitTail;
}

}  // namespace roofline
