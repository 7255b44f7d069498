// roofline diff A B: two machine documents (or catalogue names) or two points documents side by
// side (docs/check.md): ratios B/A, whether each change exceeds the spread both runs carry, what
// one side lacks, the ridge moving; text, JSON and an overlay chart (--report).
#include <filesystem>

#include "commands.hpp"
#include "roofline/check.hpp"
#include "roofline/check_io.hpp"
#include "roofline/diff.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct DiffArgs {
  std::string a, b;
  std::string hw_dir;
  bool json = false;
  std::string output;
  std::string report;
};

struct Side {
  std::string arg;
  std::optional<MachineDocument> machine;
  std::optional<PointsDocument> points;
  std::vector<std::optional<Spread>> spreads;
};

Side load_side(const std::string& arg, const std::string& hw_dir) {
  Side s;
  s.arg = arg;
  std::error_code ec;
  if (std::filesystem::exists(arg, ec)) {
    // A points document may be as large as `import -o` writes.
    JsonKeyOrder order = points_traffic_order();
    const nlohmann::json raw = parse_json(read_text_file(arg, kMaxPointsBytes), arg, &order);
    if (raw.is_object() && raw.value("schema", std::string()) == kPointsSchema) {
      s.points = points_from_json(raw, arg, &order);
      s.spreads = point_spreads(raw, arg);
    } else {
      // A machine document is read as every command reads one (its 64 MiB limit: a 65 MiB
      // one was compared here and refused elsewhere).
      s.machine = load_machine_file(arg);
    }
  } else {
    s.machine = resolve_machine(arg, hw_dir);  // a catalogue name; unknown names get suggestions
  }
  return s;
}

void run_machines_diff(const DiffArgs& a, const MachineDocument& ma, const MachineDocument& mb) {
  const RoofSetDiff d = diff_roofs(ma.roofs, mb.roofs);
  if (!a.report.empty()) {
    ReportInput in;
    in.title = ma.roofs.name + " (A) against " + mb.roofs.name + " (B)";
    in.machines = {ma, mb};
    write_report(a.report, in);
  }
  if (a.json)
    emit(json_text(machines_diff_to_json(d, ma, mb)) + "\n", a.output);
  else
    emit(render_machines_diff(d, ma.roofs, ma.origin, mb.roofs, mb.origin), a.output);
}

void run_points_diff(const DiffArgs& a, const Side& sa, const Side& sb) {
  const PointsDiff d =
      roofline::diff_points(*sa.points, sa.spreads, sa.arg, *sb.points, sb.spreads, sb.arg);
  if (a.json)
    emit(json_text(points_diff_to_json(d, sa.arg, sb.arg)) + "\n", a.output);
  else
    emit(render_points_diff(d, sa.arg, sb.arg), a.output);
}

void run(const DiffArgs& a) {
  if (!a.report.empty()) check_report_path(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, {a.a, a.b});
  const Side sa = load_side(a.a, a.hw_dir);
  const Side sb = load_side(a.b, a.hw_dir);
  if (sa.machine && sb.machine) return run_machines_diff(a, *sa.machine, *sb.machine);
  if (sa.points && sb.points) {
    if (!a.report.empty())
      throw InputError("--report draws two machines' roofs; " + a.a + " and " + a.b +
                       " are points documents (use `roofline plot` for points)");
    return run_points_diff(a, sa, sb);
  }
  throw InputError("give two machine documents or two points documents: " + a.a + " is " +
                   (sa.machine ? "a machine" : "a points document") + ", " + a.b + " is " +
                   (sb.machine ? "a machine" : "a points document"));
}

const Registrar register_diff(45, [](CLI::App& root) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* c = root.add_subcommand(
      "diff",
      "Two machines (documents or catalogue names) or two points documents side by side: "
      "ratios, changes beyond the runs' spread, roofs in one only, the ridge moving");
  c->add_option("A", args->a, "First machine document, catalogue name or points document")
      ->required();
  c->add_option("B", args->b, "Second, of the same kind")->required();
  c->add_option("--hw-dir", args->hw_dir, "Extra hardware catalogue directory");
  add_output_options(*c, args->json, args->output);
  c->add_option("--report", args->report,
                "Also write both rooflines on one chart: .svg .html .png .json .csv");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
