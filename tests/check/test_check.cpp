// The judgement arithmetic of `roofline check` against hand derivations (docs/check.md).
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "report/xml_lite.hpp"
#include "roofline/check.hpp"
#include "roofline/check_io.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/statistics.hpp"

using namespace roofline;

TEST(CheckGlob, StarsQuestionMarksAndLiterals) {
  EXPECT_TRUE(glob_match("triad*", "triad @DRAM"));
  EXPECT_TRUE(glob_match("*@L1", "copy @L1"));
  EXPECT_FALSE(glob_match("*@L1", "copy @L1 x"));
  EXPECT_TRUE(glob_match("a?c", "abc"));
  EXPECT_FALSE(glob_match("a?c", "ac"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXbY"));
  EXPECT_TRUE(glob_match("a*b*c", "abbbc"));
  EXPECT_FALSE(glob_match("gemm", "gemm2"));
  EXPECT_TRUE(glob_match("gemm", "gemm"));
  EXPECT_FALSE(glob_match("", "x"));
  // Brackets are literal, not classes.
  EXPECT_TRUE(glob_match("gemm [v]", "gemm [v]"));
  EXPECT_FALSE(glob_match("gemm [v]", "gemm v"));
}

TEST(CheckThreshold, FirstMatchingRuleThenGlobal) {
  CheckConfig c;
  c.rules = {{"triad*", 0.5}, {"tri*", 0.6}, {"gemm", 0.9}};
  c.min_attainment = 0.7;
  auto t = threshold_for(c, "triad @L1");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->min_attainment, 0.5);
  EXPECT_EQ(t->from, "rule 'triad*'");
  t = threshold_for(c, "trickle");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->min_attainment, 0.6);
  t = threshold_for(c, "gemm");
  EXPECT_DOUBLE_EQ(t->min_attainment, 0.9);
  t = threshold_for(c, "copy");
  EXPECT_DOUBLE_EQ(t->min_attainment, 0.7);
  EXPECT_EQ(t->from, "the global minimum");
  c.min_attainment.reset();
  EXPECT_FALSE(threshold_for(c, "copy"));
}

TEST(CheckSpread, FromTimesIsTheRatesSpread) {
  // Times 1, 2, 4 s: rates 1, 0.5, 0.25; median 0.5; (1 − 0.25) / 0.5 = 1.5.
  auto s = rate_spread_from_times({1, 2, 4});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(*s, 1.5);
  // Times 10, 11, 12, 10 ms: rates 100, 90.909, 83.333, 100; median (90.909 + 100) / 2 =
  // 95.4545; spread (100 − 83.333) / 95.4545 = 0.174603.
  s = rate_spread_from_times({0.010, 0.011, 0.012, 0.010});
  ASSERT_TRUE(s);
  EXPECT_NEAR(*s, (100.0 - 100.0 / 1.2) / ((100.0 / 1.1 + 100.0) / 2), 1e-12);
  EXPECT_NEAR(*s, 0.174603, 1e-6);
  EXPECT_FALSE(rate_spread_from_times({0.01}));
  EXPECT_FALSE(rate_spread_from_times({0.01, 0}));
  EXPECT_FALSE(rate_spread_from_times({0.01, -1}));
}

TEST(CheckSpread, FromFiveTimesOnItIsTheQuartilesSpread) {
  // Four repetitions of 10 ms and one preempted at 100 ms: rates 100, 100, 100, 100, 10. The
  // full range (100 − 10) / 100 = 0.9 would hide a 10× slowdown; the quartiles (type 7: ranks
  // 1 and 3 of 0..4, both 100) say the run was steady.
  auto s = rate_spread_from_times({0.010, 0.010, 0.100, 0.010, 0.010});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(*s, 0.0);
  // Times 1..5 s: rates 1, 1/2, 1/3, 1/4, 1/5; quartiles 1/4 and 1/2, median 1/3: 0.75.
  s = rate_spread_from_times({1, 2, 3, 4, 5});
  ASSERT_TRUE(s);
  EXPECT_NEAR(*s, (0.5 - 0.25) / (1.0 / 3), 1e-12);
}

TEST(CheckRegression, ANoiseOf100PercentOrMoreIsTooNoisyToJudge) {
  // Two times 10 and 50 ms: rates 100 and 20, spread (100 − 20) / 60 = 1.33. A 5× slowdown
  // (ratio 0.2) is not below 1 − 1.33: the comparison cannot see it, and says so.
  const auto s = rate_spread_from_times({0.010, 0.050});
  ASSERT_TRUE(s);
  EXPECT_NEAR(*s, 80.0 / 60.0, 1e-12);
  auto r = judge_regression(20, 100, Spread{*s, "now"}, std::nullopt, 0.1);
  EXPECT_TRUE(r.too_noisy);
  EXPECT_FALSE(r.regressed);
  EXPECT_FALSE(r.improved);
  r = judge_regression(20, 100, Spread{1.0, "now"}, std::nullopt, 0.1);
  EXPECT_TRUE(r.too_noisy);
  // Just below 100% it is judged, in the band [1/1.99, 1.99]: a 5× slowdown regressed (the
  // additive bound 1 − 0.99 passed it), 0.51 lies within.
  r = judge_regression(20, 100, Spread{0.99, "now"}, std::nullopt, 0.1);
  EXPECT_FALSE(r.too_noisy);
  EXPECT_TRUE(r.regressed);
  r = judge_regression(51, 100, Spread{0.99, "now"}, std::nullopt, 0.1);
  EXPECT_FALSE(r.regressed);
  r = judge_regression(0.5, 100, Spread{0.99, "now"}, std::nullopt, 0.1);
  EXPECT_TRUE(r.regressed);
}

TEST(CheckRegression, ATwentyfoldSlowdownFailsWhateverTheNoiseBelow100Percent) {
  // Times 1.0 and 2.9 s: rates 1 and 1/2.9, spread (1 − 1/2.9) / median = 0.974. P fell 20×:
  // the additive bound 1 − 0.974 = 0.026 let 0.05 through; the band's 1/1.974 = 0.507 does not.
  const auto s = rate_spread_from_times({1.0, 2.9});
  ASSERT_TRUE(s);
  EXPECT_NEAR(*s, 0.974, 5e-4);
  const auto r = judge_regression(1e9, 2e10, Spread{*s, "now"}, std::nullopt, 0.1);
  EXPECT_FALSE(r.too_noisy);
  EXPECT_TRUE(r.regressed);
  // As the noise nears 100%, a ratio below 1/2 still regresses.
  EXPECT_TRUE(judge_regression(0.2, 1, Spread{0.99999, "now"}, std::nullopt, 0.1).regressed);
  EXPECT_TRUE(judge_regression(0.2, 1, std::nullopt, std::nullopt, 0.99999).regressed);
}

TEST(CheckRegression, TheBandIsSymmetricInTheRatio) {
  // Swapping the runs swaps a regression and an improvement, at every noise.
  for (const double n : {0.03, 0.1, 0.6, 0.99})
    for (const double r : {0.3, 0.5, 0.62, 0.9, 0.97, 1.0, 1.03, 1.1, 1.6, 2.0, 3.3}) {
      const auto ab = judge_regression(r, 1, std::nullopt, std::nullopt, n);
      const auto ba = judge_regression(1, r, std::nullopt, std::nullopt, n);
      EXPECT_EQ(ab.regressed, ba.improved) << "n " << n << " r " << r;
      EXPECT_EQ(ab.improved, ba.regressed) << "n " << n << " r " << r;
    }
  // At 60%: 2× is an improvement and 0.5× a regression (the additive band passed 0.5×).
  EXPECT_TRUE(judge_regression(2, 1, std::nullopt, std::nullopt, 0.6).improved);
  EXPECT_TRUE(judge_regression(0.5, 1, std::nullopt, std::nullopt, 0.6).regressed);
  EXPECT_DOUBLE_EQ(noise_band_low(0.25), 0.8);
  EXPECT_DOUBLE_EQ(noise_band_high(0.25), 1.25);
  EXPECT_DOUBLE_EQ(noise_bound(0.7, 0.25), 0.8);
  EXPECT_DOUBLE_EQ(noise_bound(1.3, 0.25), 1.25);
  EXPECT_TRUE(beyond_noise(0.79, 0.25));
  EXPECT_FALSE(beyond_noise(0.8, 0.25));
  EXPECT_FALSE(beyond_noise(1.25, 0.25));
  EXPECT_TRUE(beyond_noise(1.26, 0.25));
}

TEST(CheckNoisePercent, FiniteAndApartFrom100Percent) {
  EXPECT_EQ(noise_percent(0.0952), "9.52%");
  EXPECT_EQ(noise_percent(0.974), "97.4%");
  // Below 100% it never reads "100%": that is the noise too high to judge.
  EXPECT_EQ(noise_percent(0.99999), "99.999%");
  EXPECT_EQ(noise_percent(0.9999996), "99.99996%");
  EXPECT_EQ(noise_percent(1.0), "100%");
  EXPECT_EQ(noise_percent(1.33), "133%");
  EXPECT_EQ(noise_percent(10), "1000%");
  // Past 1000% a bound, and never "inf%".
  EXPECT_EQ(noise_percent(10.5), "> 1000%");
  EXPECT_EQ(noise_percent(5e307), "> 1000%");
  EXPECT_EQ(noise_percent(std::numeric_limits<double>::infinity()), "> 1000%");
  EXPECT_EQ(noise_plus_minus(0.974), "±97.4%");
  EXPECT_EQ(noise_plus_minus(5e307), "beyond ±1000%");
}

TEST(CheckSpread, FromSummaryAgreesWithTimes) {
  // min 1, median 2, max 4: 2 · 3 / (1 · 4) = 1.5, as from the times 1, 2, 4.
  auto s = rate_spread_from_summary(1, 2, 4);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(*s, 1.5);
  EXPECT_DOUBLE_EQ(*rate_spread_from_summary(3, 3, 3), 0.0);
  EXPECT_FALSE(rate_spread_from_summary(2, 1, 4));
  EXPECT_FALSE(rate_spread_from_summary(0, 1, 4));
}

TEST(CheckRegression, TheLargerSpreadIsTheNoise) {
  // 90 against 100: ratio 0.9. Spreads 5% and 8%: noise 8%, 0.9 < 1/1.08 = 0.926, regressed.
  auto r = judge_regression(90, 100, Spread{0.05, "now"}, Spread{0.08, "base"}, 0.1);
  EXPECT_DOUBLE_EQ(r.ratio, 0.9);
  EXPECT_DOUBLE_EQ(r.noise, 0.08);
  EXPECT_TRUE(r.regressed);
  EXPECT_FALSE(r.improved);
  EXPECT_NE(r.noise_from.find("baseline"), std::string::npos) << r.noise_from;
  // 95 against 100 with the same spreads: 0.95 ≥ 1/1.08 = 0.926, within the noise.
  r = judge_regression(95, 100, Spread{0.05, "now"}, Spread{0.08, "base"}, 0.1);
  EXPECT_FALSE(r.regressed);
  EXPECT_FALSE(r.improved);
  // 110 against 100: 1.1 > 1.08, improved.
  r = judge_regression(110, 100, Spread{0.05, "now"}, Spread{0.08, "base"}, 0.1);
  EXPECT_TRUE(r.improved);
  EXPECT_FALSE(r.regressed);
}

TEST(CheckRegression, OneSpreadAloneOrTheAssumedOne) {
  auto r = judge_regression(96, 100, Spread{0.03, "now"}, std::nullopt, 0.1);
  EXPECT_DOUBLE_EQ(r.noise, 0.03);
  EXPECT_TRUE(r.regressed);  // 0.96 < 0.97
  EXPECT_NE(r.noise_from.find("the other carries none"), std::string::npos);
  // Neither: the assumed 10%; the band's low end is 1/1.1 = 0.90909: 0.91 is within, 0.909
  // below.
  r = judge_regression(91, 100, std::nullopt, std::nullopt, 0.1);
  EXPECT_DOUBLE_EQ(r.noise, 0.1);
  EXPECT_FALSE(r.regressed);
  EXPECT_NE(r.noise_from.find("assumed"), std::string::npos);
  r = judge_regression(90.9, 100, std::nullopt, std::nullopt, 0.1);
  EXPECT_TRUE(r.regressed);
  EXPECT_DOUBLE_EQ(default_assumed_noise(), 0.10);
}

TEST(CheckAttainment, BelowFailsAboveRoofFails) {
  const Threshold t{0.7, "the global minimum"};
  auto j = judge_attainment(0.42, t, false);
  EXPECT_TRUE(j.failed);
  EXPECT_EQ(j.why, "attainment 0.42 < 0.7 (the global minimum)");
  j = judge_attainment(0.7, t, false);
  EXPECT_FALSE(j.failed);
  EXPECT_EQ(j.why, "attainment 0.7 ≥ 0.7 (the global minimum)");
  j = judge_attainment(1.3, t, true);
  EXPECT_TRUE(j.failed);
  EXPECT_NE(j.why.find("above its roof"), std::string::npos);
  j = judge_attainment(0.1, std::nullopt, false);
  EXPECT_FALSE(j.failed);
  // Beside its threshold a value gets the digits that tell them apart, never "0.7 < 0.7".
  j = judge_attainment(0.6999999, t, false);
  EXPECT_TRUE(j.failed);
  EXPECT_EQ(j.why, "attainment 0.6999999 < 0.7 (the global minimum)");
  j = judge_attainment(1.0501, t, true);
  EXPECT_EQ(j.why.rfind("attainment 1.0501 is above its roof", 0), 0u) << j.why;
}

TEST(FormatNumberApart, DigitsEnoughToReadApartFromTheThreshold) {
  EXPECT_EQ(format_number_apart(0.6999999, 0.7), "0.6999999");
  EXPECT_EQ(format_number_apart(0.42, 0.7), "0.42");
  EXPECT_EQ(format_number_apart(0.7, 0.7), "0.7");
  EXPECT_EQ(format_number_apart(0.8999999, 0.9, 4), "0.8999999");
  EXPECT_EQ(format_number_apart(79.999994, 80), "79.99999");
}

TEST(CheckJunit, WellFormedWithHostileNamesAndCounts) {
  std::vector<PointCheck> pts(3);
  pts[0].name = "ok <&> \"q\" 'a'";
  pts[0].why = {"attainment 0.9 ≥ 0.7"};
  pts[1].name = std::string("esc \x1b[31m red \xff");
  pts[1].status = CheckStatus::failed;
  pts[1].why = {"attainment 0.2 < 0.7 (rule 'x<y')", "second"};
  pts[2].name = "gone";
  pts[2].status = CheckStatus::skipped;
  pts[2].why = {"in the baseline only"};
  const std::string x = render_junit("roofline check <p>", pts);
  auto root = test::XmlReader(x).parse();
  EXPECT_EQ(root->name, "testsuites");
  EXPECT_EQ(root->attr("tests"), "3");
  EXPECT_EQ(root->attr("failures"), "1");
  const auto suites = root->find_all([](const test::XmlNode& n) { return n.name == "testsuite"; });
  ASSERT_EQ(suites.size(), 1u);
  EXPECT_EQ(suites[0]->attr("name"), "roofline check <p>");
  EXPECT_EQ(suites[0]->attr("tests"), "3");
  EXPECT_EQ(suites[0]->attr("failures"), "1");
  EXPECT_EQ(suites[0]->attr("skipped"), "1");
  const auto cases = root->find_all([](const test::XmlNode& n) { return n.name == "testcase"; });
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0]->attr("name"), "ok <&> \"q\" 'a'");
  // The escape character and the ill-formed byte are shown escaped, never raw.
  EXPECT_EQ(cases[1]->attr("name"), "esc \\u001b[31m red \\xff");
  const auto failures = root->find_all([](const test::XmlNode& n) { return n.name == "failure"; });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0]->attr("message"), "attainment 0.2 < 0.7 (rule 'x<y'); second");
  const auto skips = root->find_all([](const test::XmlNode& n) { return n.name == "skipped"; });
  ASSERT_EQ(skips.size(), 1u);
  EXPECT_EQ(x.find('\x1b'), std::string::npos);
}

namespace {
std::set<std::string> attribute_names(const test::XmlNode& n) {
  std::set<std::string> names;
  for (const auto& [k, v] : n.attrs) names.insert(k);
  return names;
}
}  // namespace

TEST(CheckJunit, AttributesAreThoseOfJenkinsXunitSchema) {
  // junit-10.xsd (Jenkins xUnit) allows `skipped` on <testsuite> only: on <testsuites> it
  // made every file invalid.
  std::vector<PointCheck> pts(2);
  pts[0].name = "a";
  pts[1].name = "b";
  pts[1].status = CheckStatus::skipped;
  const auto root = test::XmlReader(render_junit("roofline check p.json", pts, "why")).parse();
  EXPECT_EQ(attribute_names(*root), (std::set<std::string>{"name", "tests", "failures", "errors"}));
  const auto suite = root->find_all([](const test::XmlNode& n) { return n.name == "testsuite"; });
  ASSERT_EQ(suite.size(), 1u);
  EXPECT_EQ(attribute_names(*suite[0]),
            (std::set<std::string>{"name", "tests", "failures", "errors", "skipped"}));
  EXPECT_EQ(root->attr("tests"), "3");
  EXPECT_EQ(root->attr("failures"), "1");
  EXPECT_EQ(suite[0]->attr("skipped"), "1");
  for (const auto* c : root->find_all([](const test::XmlNode& n) { return n.name == "testcase"; }))
    EXPECT_EQ(attribute_names(*c), (std::set<std::string>{"classname", "name"}));
}

TEST(CheckJunit, ClassnameHasNoDotAndTheGateIsApartFromAPointOfItsName) {
  // A point named as the gate's test case: the two differ by classname.
  std::vector<PointCheck> pts(1);
  pts[0].name = "(the gate)";
  pts[0].status = CheckStatus::skipped;
  const auto root =
      test::XmlReader(render_junit("roofline check ./p.v2.json on given roofs", pts, "no point"))
          .parse();
  const auto cases = root->find_all([](const test::XmlNode& n) { return n.name == "testcase"; });
  ASSERT_EQ(cases.size(), 2u);
  // CI systems split a classname at its last '.': the file's dots are '_'.
  EXPECT_EQ(cases[0]->attr("classname"), "roofline check _/p_v2_json on given roofs");
  EXPECT_EQ(cases[1]->attr("classname"), "roofline check _/p_v2_json on given roofs gate");
  EXPECT_EQ(cases[0]->attr("name"), "(the gate)");
  EXPECT_EQ(cases[1]->attr("name"), "(the gate)");
  const auto failures = root->find_all([](const test::XmlNode& n) { return n.name == "failure"; });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0]->attr("message"), "no point");
  EXPECT_EQ(junit_classname("a.b.c"), "a_b_c");
}

TEST(CheckJunit, AnErrorReportSaysWhyTheGateCouldNotRun) {
  const std::string x = render_junit_error("roofline check p.json", "p.json: points[0]: <bad>");
  const auto root = test::XmlReader(x).parse();
  EXPECT_EQ(root->attr("tests"), "1");
  EXPECT_EQ(root->attr("errors"), "1");
  EXPECT_EQ(root->attr("failures"), "0");
  const auto suite = root->find_all([](const test::XmlNode& n) { return n.name == "testsuite"; });
  ASSERT_EQ(suite.size(), 1u);
  EXPECT_EQ(suite[0]->attr("errors"), "1");
  EXPECT_EQ(suite[0]->attr("skipped"), "0");
  const auto cases = root->find_all([](const test::XmlNode& n) { return n.name == "testcase"; });
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0]->attr("classname"), "roofline check p_json gate");
  EXPECT_EQ(cases[0]->attr("name"), "(the gate)");
  const auto errors = root->find_all([](const test::XmlNode& n) { return n.name == "error"; });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]->attr("message"), "p.json: points[0]: <bad>");
  EXPECT_EQ(errors[0]->attr("type"), "roofline.input");
}

TEST(CheckConfigFile, ParsesAndRefusesBadFields) {
  const nlohmann::json j = nlohmann::json::parse(R"({"schema": "roofline.check", "version": 1,
      "min_attainment": 0.7, "noise": 0.05,
      "points": [{"name": "triad*", "min_attainment": 0.5}]})");
  const CheckConfig c = check_config_from_json(j, "c.json");
  EXPECT_DOUBLE_EQ(*c.min_attainment, 0.7);
  EXPECT_DOUBLE_EQ(*c.noise, 0.05);
  ASSERT_EQ(c.rules.size(), 1u);
  EXPECT_EQ(c.rules[0].pattern, "triad*");
  auto refused = [](const std::string& text, const std::string& needle) {
    try {
      check_config_from_json(nlohmann::json::parse(text), "c.json");
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused(R"({"schema": "roofline.check", "version": 1, "min_attainment": 1.5})",
          "c.json: min_attainment: expected a number in (0, 1] (got 1.5)");
  refused(R"({"schema": "roofline.check", "version": 1, "min_attainmnt": 0.5})",
          "c.json: min_attainmnt: unknown field");
  refused(R"({"schema": "roofline.check", "version": 2})", "version");
  refused(R"({"schema": "roofline.check", "version": 1, "points": [{"name": "x"}]})",
          "c.json: points[0].min_attainment: missing field");
  refused(R"({"schema": "roofline.check", "version": 1, "points": [{"min_attainment": 0.5}]})",
          "points[0]");
}

TEST(CheckSpreads, ReadFromTheRunSection) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"schema": "roofline.points", "version": 1,
      "points": [
        {"name": "a", "work": 1, "traffic": 1, "time": 1, "run": {"times": [1, 2, 4]}},
        {"name": "b", "work": 1, "traffic": 1, "time": 1,
         "run": {"min": 1, "median": 2, "max": 4}},
        {"name": "c", "work": 1, "traffic": 1, "time": 1},
        {"name": "d", "work": 1, "traffic": 1, "time": 1, "run": {"times": [1]}}]})");
  const auto s = point_spreads(doc, "p.json");
  ASSERT_EQ(s.size(), 4u);
  ASSERT_TRUE(s[0]);
  EXPECT_DOUBLE_EQ(s[0]->value, 1.5);
  EXPECT_EQ(s[0]->from, "3 repetitions");
  ASSERT_TRUE(s[1]);
  EXPECT_DOUBLE_EQ(s[1]->value, 1.5);
  EXPECT_FALSE(s[2]);
  EXPECT_FALSE(s[3]);
  const nlohmann::json bad = nlohmann::json::parse(R"({"points": [
      {"name": "a", "run": {"times": [1, "x"]}}]})");
  try {
    point_spreads(bad, "p.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.json: points[0].run.times[1]"), std::string::npos)
        << e.what();
  }
}

// Every field of a run record that `roofline run` writes is read as it writes it, where the
// record carries it: a spread of "x", -0.5 or 50 (beside times that spread by 25%), a sustained
// time of "fast" and a top-level "run" of "x" were accepted, while a median of -1 was refused.
TEST(CheckSpreads, EveryRunRecordFieldIsReadAsRunWritesIt) {
  RunRecord r;
  r.kernel = "axpy-fp64";
  r.level = "L1";
  r.count.work = Work(4096);
  r.count.traffic = Bytes(49152);
  r.traffic = {{"L1", Bytes(49152)}};
  r.times = {1e-3, 1.1e-3, 1.2e-3, 1.3e-3, 2e-3};
  r.min = 1e-3;
  r.q1 = 1.1e-3;
  r.median = r.sustained = 1.2e-3;
  r.q3 = 1.3e-3;
  r.max = 2e-3;
  nlohmann::json doc = {
      {"schema", "roofline.points"},
      {"version", 1},
      {"points",
       {{{"name", "axpy"},
         {"work", 4096},
         {"traffic", 49152},
         {"time", 1.2e-3},
         {"run", run_record_to_json(r)}}}},
      {"run", {{"threads", 2}, {"quick", true}, {"bandwidth_only", nlohmann::json::array()}}}};
  const auto s = point_spreads(doc, "p.json");
  ASSERT_TRUE(s[0]);
  EXPECT_DOUBLE_EQ(s[0]->value, r.spread());  // as written: read back
  const auto refused = [&](const std::string& field, const nlohmann::json& value,
                           const std::string& expected, bool top_level = false) {
    nlohmann::json bad = doc;
    if (top_level)
      bad["run"] = value;
    else
      bad["points"][0]["run"][field] = value;
    try {
      (void)point_spreads(bad, "p.json");
      ADD_FAILURE() << field << " = " << value.dump() << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
          << field << ": " << e.what();
    }
  };
  refused("spread", "x", "p.json: points[0].run.spread");
  refused("spread", -0.5, "p.json: points[0].run.spread: must be ≥ 0 (got -0.5)");
  refused("spread", 50,
          "p.json: points[0].run.spread: 50 is not the spread of the run's times (" +
              format_number(r.spread()) + ")");
  refused("spread_all", 50,
          "points[0].run.spread_all: 50 is not the spread of the run's min, "
          "median and max");
  refused("sustained", "fast", "p.json: points[0].run.sustained");
  refused("median", -1, "p.json: points[0].run.median: must be > 0 (got -1)");
  refused("min", 3e-3, "points[0].run: expected min ≤ median ≤ max");
  refused("q1", -1, "points[0].run.q1: must be ≥ 0");
  refused("noisy", "yes", "points[0].run.noisy: expected true or false");
  refused("passed", 1, "points[0].run.passed: expected true or false");
  refused("kernel", 3, "points[0].run.kernel: expected a string");
  refused("threads", 0, "points[0].run.threads: expected a whole number ≥ 1 (got 0)");
  refused("calls_per_repetition", 1.5, "points[0].run.calls_per_repetition");
  refused("work", -1, "points[0].run.work: must be ≥ 0");
  refused("params", {{"n", "many"}}, "points[0].run.params.n");
  refused("traffic", {{{"level", "L1"}, {"bytes", -1}}}, "points[0].run.traffic[0].bytes");
  refused("run", "x", "p.json: run: expected an object", true);
  refused("run", {{"threads", "two"}}, "p.json: run.threads", true);
  nlohmann::json bw = run_record_to_json(r);
  bw["spread"] = "x";
  refused("run", {{"bandwidth_only", {bw}}}, "p.json: run.bandwidth_only[0].spread", true);
  // A partial record is read for what it holds: its times alone, or its min, median and max.
  nlohmann::json partial = doc;
  partial["points"][0]["run"] = {{"min", 1e-3},
                                 {"median", 1.2e-3},
                                 {"max", 2e-3},
                                 {"spread", *rate_spread_from_summary(1e-3, 1.2e-3, 2e-3)}};
  partial.erase("run");
  EXPECT_TRUE(point_spreads(partial, "p.json")[0]);
}
