// roofline point: place one workload (W, Q, T) on a machine's roofs and diagnose it.
#include <optional>

#include "commands.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct PointArgs {
  MachineOptions machine;
  std::optional<std::string> given_name;  // --name; "point" when not given
  std::string work, traffic, time;
  std::vector<std::string> traffic_at;  // LEVEL=BYTES for hierarchical points
  std::string points_file;
  double touching = DiagnosisOptions{}.touching;
  bool json = false;
  std::string output;
  std::string report;  // --report FILE: the chart/report (format by extension)
};

/// The point of --work, --traffic/--traffic-at and --time, in the machine's units.
Point point_from_flags(const PointArgs& a, const UnitSystem& units) {
  Point p;
  p.name = a.given_name.value_or("point");
  p.precision = a.machine.precision;
  p.source = "command line";
  if (a.work.empty()) throw InputError("--work is required (W, e.g. 1e9 or \"2 GFLOP\")");
  if (a.time.empty()) throw InputError("--time is required (T, e.g. 0.01 or \"10 ms\")");
  if (a.traffic.empty() && a.traffic_at.empty())
    throw InputError("--traffic is required (Q, e.g. 1.2e9 or \"1.2 GB\")");
  p.work = parse_in<Work>(a.work, units, "--work");
  // "2 TOP" is integer work, "2 TFLOP" floating-point work: each is judged only on a roof that
  // counts it (diagnose); a bare number is in the unit of its roof.
  p.work_unit = work_unit_named(a.work, Dimension::work, "--work");
  p.time = parse<Seconds>(a.time, "--time");
  // --level names the level of --traffic; each --traffic-at names its own (it was ignored).
  if (a.traffic.empty() && !a.machine.level.empty())
    throw InputError("--level " + a.machine.level +
                     ": --level is the level of --traffic (Q); with --traffic-at alone every "
                     "traffic names its own level");
  if (!a.traffic.empty())
    p.traffic.push_back({a.machine.level, parse_in<Bytes>(a.traffic, units, "--traffic")});
  for (const auto& spec : a.traffic_at) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--traffic-at: expected LEVEL=BYTES (got '" + spec + "')");
    p.traffic.push_back(
        {spec.substr(0, eq),
         parse_in<Bytes>(spec.substr(eq + 1), units, "--traffic-at " + spec.substr(0, eq))});
  }
  p.validate();
  return p;
}

void run(const PointArgs& a) {
  // Every output is checked before any work; none may be an input or share another's file.
  if (!a.report.empty()) check_report_path(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, {a.machine.machine, a.points_file});
  MachineDocument m = load_machine(a.machine);
  std::vector<Point> points;
  std::vector<PointLeftOut> left_out;  // --points: those the machine has no roof for
  if (!a.points_file.empty()) {
    if (!a.work.empty() || !a.traffic.empty() || !a.traffic_at.empty() || !a.time.empty() ||
        a.given_name)
      throw InputError(
          "give either --points FILE or --name/--work/--traffic/--traffic-at/--time, not both");
    PointsDocument doc = load_points_file(a.points_file);
    if (doc.points.empty() && doc.not_points.empty())
      throw InputError(a.points_file + ": no points to place");
    // A run of no arithmetic (copy) is data, not a point: said, and left out.
    for (const auto& n : doc.not_points)
      say("roofline: note: " + bandwidth_run_note(n, "not placed", a.points_file) + "\n");
    if (!(doc.units == m.roofs.units))
      throw InputError(a.points_file + ": points are in " + doc.units.work + "/" +
                       doc.units.traffic + " but the machine's roofs are in " + m.roofs.units.work +
                       "/" + m.roofs.units.traffic);
    points = doc.points;
    // --precision and --level apply to the points that name none, as for a point of flags; a
    // value the machine has no roof for is refused even where every point names its own.
    if (!a.machine.precision.empty()) m.roofs.select_compute(a.machine.precision);
    if (!a.machine.level.empty()) m.roofs.select_memory(a.machine.level);
    for (auto& p : points) {
      if (p.precision.empty()) p.precision = a.machine.precision;
      for (auto& t : p.traffic)
        if (t.level.empty()) t.level = a.machine.level;
    }
    left_out = fit_points(points, m.roofs, a.points_file);
    left_out.insert(left_out.end(), doc.not_points.begin(), doc.not_points.end());
  } else {
    points.push_back(point_from_flags(a, m.roofs.units));
  }
  DiagnosisOptions opt;
  opt.touching = a.touching;
  nlohmann::json out = nlohmann::json::array();
  std::string text;
  for (auto& p : points) {
    const Diagnosis d = diagnose(p, m.roofs, opt);  // judges (and checks) the point as given
    // Traffic at no named level is at the memory roof it was judged against: named so in every
    // output (the JSON wrote level "", which no document could be read back with). Asked only
    // of such traffic: a machine of links only has none to name (--traffic-at IB=…).
    for (auto& t : p.traffic)
      if (t.level.empty()) t.level = m.roofs.select_memory(a.machine.level).level;
    if (a.json)
      out.push_back(analysis_to_json(p, d, m.roofs));
    else
      text += render_point_analysis(p, d, m.roofs, a.output.empty() && color_stdout());
  }
  if (!a.report.empty()) {
    ReportInput in;
    in.title =
        (points.size() == 1 ? points.front().name : std::string("points")) + " on " + m.roofs.name;
    in.machines.push_back(m);
    in.points = points;
    in.not_drawn = left_out;  // said on stderr by fit_points, and in the chart
    in.diagnosis = opt;
    write_report(a.report, in);
  }
  // A points file gives a list whatever number of its points were judged; a point left out is
  // listed after them as a chart's JSON lists it (its name, why in short and in full).
  if (a.json && !a.points_file.empty()) {
    for (const auto& p : left_out) out.push_back(left_out_to_json(p, true));
    emit(json_text(out) + "\n", a.output);
  } else if (a.json) {
    emit(json_text(out[0]) + "\n", a.output);
  } else {
    emit(text, a.output);
  }
}

const Registrar register_point(20, [](CLI::App& root) {
  auto args = std::make_shared<PointArgs>();
  CLI::App* c = root.add_subcommand(
      "point", "Place a workload (W, Q, T) on the roofs: I, P, attainable, the two-step diagnosis");
  c->add_option("--name", args->given_name, "Label of the point");
  c->add_option("--work,-W", args->work, "Work W, e.g. 2e9 or \"2 GFLOP\"");
  c->add_option("--traffic,-Q", args->traffic,
                "Traffic Q in bytes at --level, e.g. 1.2e9 or \"1.2 GB\"");
  c->add_option("--traffic-at", args->traffic_at,
                "Traffic at a named level for a hierarchical point, LEVEL=BYTES (repeatable)");
  c->add_option("--time,-T", args->time, "Time T, e.g. 0.01 or \"10 ms\"");
  c->add_option("--points", args->points_file, "A points document instead of the flags");
  c->add_option("--touching", args->touching,
                "Attainment at which a point counts as touching its roof (default 0.8)")
      ->check(number_in(0.01, 1.0));
  add_machine_options(*c, args->machine);
  add_output_options(*c, args->json, args->output);
  c->add_option("--report", args->report,
                "Also write the chart: .svg .html .png .json .csv (by extension)");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
