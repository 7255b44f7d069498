// roofline check: the roofline as a CI gate (docs/check.md). Each point of a points document is
// held to a minimum attainment of its roof and, given a baseline, to its earlier performance
// beyond the measurements' own noise. One line per point, optional JUnit XML, exit 5 when any
// point fails (docs/architecture.md, exit codes).
#include <cstdlib>

#include "commands.hpp"
#include "roofline/check.hpp"
#include "roofline/check_io.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

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

/// The JUnit suite's name: the points file, and the machine when one was given.
std::string junit_suite(const CheckArgs& a, const CheckRequest& req) {
  return "roofline check " + a.points + (req.machine ? " on " + req.machine->roofs.name : "");
}

/// The request read from the arguments and files: bad input throws InputError.
CheckRequest read_request(const CheckArgs& a) {
  CheckRequest req;
  if (!a.config.empty()) req.config = load_check_config(a.config);
  if (a.min_attainment >= 0) {
    req.config.min_attainment = a.min_attainment;
    req.config.min_attainment_from = "--min-attainment";
  }
  if (a.noise >= 0) {
    req.config.noise = a.noise;
    req.config.noise_from = "--noise";
  }
  check_gate_request(req.config, has_machine(a.machine), !a.baseline.empty());
  req.points = load_checked_points(a.points);
  if (has_machine(a.machine)) req.machine = load_machine(a.machine);
  if (!a.baseline.empty()) req.baseline = load_checked_points(a.baseline);
  req.precision = a.machine.precision;
  req.level = a.machine.level;
  return req;
}

void write_junit(const CheckArgs& a, const CheckRequest& req, const CheckReport& rep) {
  std::string gate;
  if (rep.nothing_judged) {
    gate = "no point was judged: the gate checked nothing";
    for (const auto& n : rep.notes) gate += "; " + n;
  }
  const std::string xml = render_junit(junit_suite(a, req), rep.checks, gate);
  if (a.junit == "-")  // standard output, as for -o (check_outputs: the report is not there)
    emit(xml, "-");
  else
    write_file_atomic(a.junit, xml, "--junit");
}

/// Whether --junit names a file an error report may replace: a path that could be written, and
/// neither the file -o names nor one of the inputs (a refusal can come before they are read).
bool junit_replaceable(const CheckArgs& a) {
  if (a.junit.empty() || a.junit == "-") return false;
  try {
    check_writable_path(a.junit, "--junit");
  } catch (const InputError&) {
    return false;
  }
  for (const std::string& other : {a.output, a.points, a.config, a.baseline, a.machine.machine})
    if (!other.empty() && other != "-" && same_output(other, a.junit)) return false;
  return true;
}

void run(const CheckArgs& a) {
  CheckRequest req;
  CheckReport rep;
  try {
    check_outputs({{"-o", a.output}, {"--junit", a.junit}},
                  {a.points, a.config, a.baseline, a.machine.machine});
    req = read_request(a);
    rep = run_check(req);
  } catch (const InputError& e) {
    // A report left by an earlier run would stand for this one (and may be green): replaced by
    // one whose gate errs with the reason, a refused -o included. Standard output holds no
    // earlier report.
    if (junit_replaceable(a))
      write_file_atomic(a.junit, render_junit_error("roofline check " + a.points, e.what()),
                        "--junit");
    throw;
  }
  if (!a.junit.empty()) write_junit(a, req, rep);
  if (a.json) {
    emit(json_text(rep.json) + "\n", a.output);
  } else {
    emit(render_check_text(rep.checks, rep.notes, rep.failed || rep.nothing_judged, rep.summary),
         a.output);
  }
  if (rep.failed || rep.nothing_judged) {
    // The report is in a file or JSON: the CI log still names the points that failed.
    if (!a.output.empty() || a.json)
      say("roofline check: FAILED, " + rep.summary + render_failed_names(rep.checks) + "\n");
    std::exit(kExitGateFailed);
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
      ->check(number_in(1e-9, 1.0));
  c->add_option("--config", args->config,
                "Check config (JSON, docs/check.md): global and per-name-pattern minimums, noise");
  c->add_option("--baseline", args->baseline,
                "Earlier points document: fail a point whose P fell beyond the larger spread "
                "of the two runs");
  c->add_option("--noise", args->noise,
                "Relative spread assumed when neither document carries one (default 0.10; below "
                "1: a noise of 100% or more is too noisy to judge)")
      ->check(number_in(1e-9, kBlindNoise, /*below_hi=*/true));
  c->add_option("--junit", args->junit,
                "Also write JUnit XML to this file (atomically; - for standard output, with -o "
                "FILE for the report)");
  add_output_options(*c, args->json, args->output);
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
