// roofline check: the roofline as a CI gate (docs/check.md). Each point of a points document is
// held to a minimum attainment of its roof and, given a baseline, to its earlier performance
// beyond the measurements' own noise. One line per point, optional JUnit XML, exit 5 when any
// point fails (docs/architecture.md, exit codes).
#include <cmath>
#include <cstdlib>
#include <map>

#include "commands.hpp"
#include "roofline/check.hpp"
#include "roofline/check_io.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline::cli {
namespace {

/// The exit status of a check that ran and found a failing point (0 pass, 2 bad input).
constexpr int kGateFailed = 5;

struct CheckArgs {
  MachineOptions machine;
  std::string points;
  std::string config;
  std::string baseline;
  double min_attainment = -1;  // unset
  double noise = -1;           // unset
  std::string junit;
  bool json = false;
  std::string output;
};

struct LoadedPoints {
  PointsDocument doc;
  std::vector<std::optional<Spread>> spreads;
};

LoadedPoints load_points(const std::string& path) {
  LoadedPoints l;
  const nlohmann::json raw = parse_json(read_text_file(path), path);
  l.doc = points_from_json(raw, path);
  l.spreads = point_spreads(raw, path);
  l.spreads.resize(l.doc.points.size());
  return l;
}

std::map<std::string, size_t> index_by_name(const PointsDocument& d, const std::string& flag) {
  std::map<std::string, size_t> m;
  for (size_t i = 0; i < d.points.size(); ++i)
    if (!m.emplace(d.points[i].name, i).second)
      throw InputError(flag + d.origin + ": two points are named '" + d.points[i].name +
                       "'; a baseline pairs points by name, so names must be unique");
  return m;
}

std::string percent(double x) {
  return format_number(100 * x, 3) + "%";
}

void run(const CheckArgs& a) {
  check_outputs({{"-o", a.output}, {"--junit", a.junit}});
  CheckConfig cfg;
  if (!a.config.empty()) cfg = load_check_config(a.config);
  if (a.min_attainment >= 0) cfg.min_attainment = a.min_attainment;
  if (a.noise >= 0) cfg.noise = a.noise;
  const double assumed = cfg.noise.value_or(default_assumed_noise());
  const bool thresholds = cfg.min_attainment.has_value() || !cfg.rules.empty();
  if (!thresholds && a.baseline.empty())
    throw InputError(
        "nothing to check: give --min-attainment X, --config FILE with thresholds, or "
        "--baseline FILE");

  LoadedPoints now = load_points(a.points);
  std::optional<MachineDocument> m;
  if (has_machine(a.machine)) {
    m = load_machine(a.machine);
    if (!(now.doc.units == m->roofs.units))
      throw InputError(a.points + ": points are in " + now.doc.units.work + "/" +
                       now.doc.units.traffic + " but the machine's roofs are in " +
                       m->roofs.units.work + "/" + m->roofs.units.traffic);
  } else if (thresholds) {
    throw InputError(
        "a minimum attainment needs roofs: give --machine FILE|NAME (or --peak and "
        "--bandwidth)");
  }
  std::optional<LoadedPoints> base;
  std::map<std::string, size_t> base_index;
  if (!a.baseline.empty()) {
    base = load_points(a.baseline);
    if (!(base->doc.units == now.doc.units))
      throw InputError("--baseline " + a.baseline + ": points are in " + base->doc.units.work +
                       "/" + base->doc.units.traffic + " but " + a.points + " holds " +
                       now.doc.units.work + "/" + now.doc.units.traffic);
    base_index = index_by_name(base->doc, "--baseline ");
    index_by_name(now.doc, "");
  }

  std::vector<PointCheck> checks;
  nlohmann::json out_points = nlohmann::json::array();
  std::map<std::string, bool> seen;
  for (size_t i = 0; i < now.doc.points.size(); ++i) {
    Point p = now.doc.points[i];
    if (p.precision.empty() && !a.machine.precision.empty()) p.precision = a.machine.precision;
    PointCheck c;
    c.name = p.name;
    nlohmann::json pj = {{"name", p.name}, {"performance", p.performance().value}};
    bool judged = false;
    std::vector<std::string> fails, passes;
    if (m) {
      const Diagnosis d = diagnose(p, m->roofs);
      const auto t = threshold_for(cfg, p.name);
      const AttainmentJudgement aj =
          judge_attainment(d.attainment, t, d.verdict == Verdict::above_roof);
      pj["attainment"] = d.attainment;
      pj["compute_roof"] = d.compute_roof;
      pj["binding_level"] = d.binding_level;
      if (t) {
        pj["min_attainment"] = t->min_attainment;
        pj["threshold_from"] = t->from;
      }
      (aj.failed ? fails : passes).push_back(aj.why);
      judged = judged || t.has_value() || aj.failed;
    }
    if (base) {
      const auto it = base_index.find(p.name);
      if (it == base_index.end()) {
        passes.push_back("not in the baseline: no regression check");
      } else {
        seen[p.name] = true;
        const Point& b = base->doc.points[it->second];
        const RegressionJudgement r =
            judge_regression(p.performance().value, b.performance().value, now.spreads[i],
                             base->spreads[it->second], assumed);
        if (!std::isfinite(r.ratio) || !(r.ratio > 0))
          throw InputError("point '" + p.name + "': P = W/T against the baseline's gives ratio " +
                           format_number(r.ratio) + ", not a finite positive number");
        const std::string why = "P " + format_work_rate(p.performance(), now.doc.units) + " = " +
                                format_number(r.ratio, 4) + "× baseline " +
                                format_work_rate(b.performance(), now.doc.units) +
                                (r.regressed  ? " — regressed beyond"
                                 : r.improved ? " — improved beyond"
                                              : " — within") +
                                " the noise ±" + percent(r.noise) + " (" + r.noise_from + ")";
        (r.regressed ? fails : passes).push_back(why);
        judged = true;
        pj["baseline_performance"] = b.performance().value;
        pj["ratio"] = r.ratio;
        pj["noise"] = r.noise;
        pj["noise_from"] = r.noise_from;
        pj["regressed"] = r.regressed;
        pj["improved"] = r.improved;
      }
    }
    c.status = !fails.empty() ? CheckStatus::failed
               : judged       ? CheckStatus::passed
                              : CheckStatus::skipped;
    c.why = fails;
    c.why.insert(c.why.end(), passes.begin(), passes.end());
    pj["status"] = to_string(c.status);
    pj["why"] = c.why;
    out_points.push_back(pj);
    checks.push_back(std::move(c));
  }
  if (base)
    for (const auto& b : base->doc.points)
      if (!seen.count(b.name)) {
        PointCheck c;
        c.name = b.name;
        c.status = CheckStatus::skipped;
        c.why.push_back("in the baseline only: missing from " + a.points);
        out_points.push_back(
            {{"name", b.name}, {"status", "skipped"}, {"why", c.why}, {"baseline_only", true}});
        checks.push_back(std::move(c));
      }

  int failed = 0, passed = 0, skipped = 0;
  for (const auto& c : checks) {
    failed += c.status == CheckStatus::failed;
    passed += c.status == CheckStatus::passed;
    skipped += c.status == CheckStatus::skipped;
  }
  const std::string summary = std::to_string(checks.size()) + " points: " + std::to_string(passed) +
                              " passed, " + std::to_string(failed) + " failed, " +
                              std::to_string(skipped) + " skipped";
  if (!a.junit.empty()) {
    const std::string suite =
        "roofline check " + a.points + (m ? " on " + m->roofs.name : std::string());
    write_file_atomic(a.junit, render_junit(suite, checks), "--junit");
  }
  if (a.json) {
    nlohmann::json j = {{"schema", "roofline.check.result"},
                        {"version", 1},
                        {"points_file", a.points},
                        {"passed", failed == 0},
                        {"counts", {{"passed", passed}, {"failed", failed}, {"skipped", skipped}}},
                        {"assumed_noise", assumed},
                        {"points", out_points}};
    if (m) j["machine"] = m->roofs.name;
    if (base) j["baseline"] = a.baseline;
    emit(j.dump(2) + "\n", a.output);
  } else {
    std::string text;
    for (const auto& c : checks) {
      text += c.status == CheckStatus::failed    ? "FAIL  "
              : c.status == CheckStatus::skipped ? "SKIP  "
                                                 : "PASS  ";
      text += terminal_safe(c.name) + ": ";
      for (size_t k = 0; k < c.why.size(); ++k) text += (k ? "; " : "") + c.why[k];
      text += "\n";
    }
    text += (failed ? "roofline check: FAILED, " : "roofline check: passed, ") + summary + "\n";
    emit(text, a.output);
  }
  if (failed) {
    if (!a.output.empty() || a.json) say("roofline check: FAILED, " + summary + "\n");
    std::exit(kGateFailed);
  }
}

const Registrar register_check(22, [](CLI::App& root) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* c = root.add_subcommand(
      "check",
      "Gate for CI: fail (exit 5) when a point is below a minimum attainment of its roof or "
      "regressed against a baseline beyond its noise; JUnit XML with --junit");
  c->add_option("points", args->points,
                "Points document (docs/schema.md), e.g. the output of `roofline run -o`")
      ->required();
  add_machine_options(*c, args->machine);
  c->add_option("--min-attainment", args->min_attainment,
                "Fail a point whose attainment P/attainable is below this (0 < X ≤ 1); "
                "overrides the config's global minimum")
      ->check(CLI::Range(1e-9, 1.0));
  c->add_option("--config", args->config,
                "Check config (JSON, docs/check.md): global and per-name-pattern minimums, noise");
  c->add_option("--baseline", args->baseline,
                "Earlier points document: fail a point whose P fell beyond the larger spread "
                "of the two runs");
  c->add_option("--noise", args->noise,
                "Relative spread assumed when neither document carries one (default 0.10)")
      ->check(CLI::Range(1e-9, 1.0));
  c->add_option("--junit", args->junit, "Also write JUnit XML to this file (atomically)");
  c->add_flag("--json", args->json, "Machine-readable output");
  c->add_option("-o,--output", args->output, "Write the output to a file (atomically)");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
