// roofline diff A B: two machine documents (or catalogue names) or two points documents side by
// side (docs/check.md): ratios B/A, whether each change exceeds the spread both runs carry, what
// one side lacks, the ridge moving; text, JSON and an overlay chart (--report).
#include <filesystem>
#include <map>
#include <set>

#include "commands.hpp"
#include "roofline/check.hpp"
#include "roofline/check_io.hpp"
#include "roofline/diff.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

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
    const nlohmann::json raw = parse_json(read_text_file(arg, kMaxPointsBytes), arg);
    if (raw.is_object() && raw.value("schema", std::string()) == kPointsSchema) {
      s.points = points_from_json(raw, arg);
      s.spreads = point_spreads(raw, arg);
      s.spreads.resize(s.points->points.size());
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

std::string percent(const std::optional<double>& x) {
  return x ? noise_percent(*x) : std::string("none");
}

nlohmann::json optional_json(const std::optional<double>& x) {
  return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

/// The verdict on a change: against `noise`, the larger spread carried and the run-to-run
/// agreement (set whenever `exceeds` is).
std::string verdict(const std::optional<bool>& exceeds, const std::optional<double>& noise) {
  if (!exceeds || !noise) return "no spread carried: cannot say whether it exceeds the noise";
  const std::string band = noise_band_text(*noise);
  return (*exceeds ? "exceeds the noise (" : "within the noise (") + percent(noise) +
         (band.empty() ? "" : ": " + band) + ")";
}

void diff_machines(const DiffArgs& a, const MachineDocument& ma, const MachineDocument& mb) {
  const RoofSetDiff d = diff_roofs(ma.roofs, mb.roofs);
  const UnitSystem& u = ma.roofs.units;
  if (!a.report.empty()) {
    ReportInput in;
    in.title = ma.roofs.name + " (A) against " + mb.roofs.name + " (B)";
    in.machines = {ma, mb};
    write_report(a.report, in);
  }
  if (a.json) {
    const nlohmann::json j = machines_diff_to_json(d, ma, mb);
    emit(json_text(j) + "\n", a.output);
    return;
  }
  std::string t = "A: " + ma.roofs.name + " (" + ma.origin + ")\nB: " + mb.roofs.name + " (" +
                  mb.origin + ")\n";
  for (const auto& c : d.changes) {
    // An integer roof's rate is in OP/s (units_of), as `hw show` prints it.
    const ComputeRoof* roof = c.compute ? ma.roofs.find_compute(c.roof_a) : nullptr;
    const UnitSystem cu = roof ? ma.roofs.units_of(*roof) : u;
    const std::string va =
        c.compute ? format_work_rate(WorkRate(c.a), cu) : format_byte_rate(ByteRate(c.a), u);
    const std::string vb =
        c.compute ? format_work_rate(WorkRate(c.b), cu) : format_byte_rate(ByteRate(c.b), u);
    t += std::string(c.compute ? "compute " : "memory ") + terminal_safe(c.name) + ": " + va +
         " → " + vb + ", B/A = " +
         (c.noise ? format_number_apart(c.ratio, noise_bound(c.ratio, *c.noise), 4)
                  : format_number(c.ratio, 4)) +
         " (spread A " + percent(c.spread_a) + ", B " + percent(c.spread_b) +
         "): " + verdict(c.exceeds_spread, c.noise) + "\n";
  }
  for (const auto& n : d.only_a) t += "only in A: " + terminal_safe(n) + "\n";
  for (const auto& n : d.only_b) t += "only in B: " + terminal_safe(n) + "\n";
  if (d.ridge_a > 0)
    t += "ridge I* = π/β: " + format_intensity(Intensity(d.ridge_a), u) + " (" + d.ridge_roofs_a +
         ") → " + format_intensity(Intensity(d.ridge_b), u) + " (" + d.ridge_roofs_b +
         "), B/A = " + format_number(d.ridge_ratio, 4) + "\n";
  emit(t, a.output);
}

/// Two points documents diff can pair: the same units, and each name once in each (points are
/// paired by name, so a name given twice would pair wrongly).
void refuse_unpairable(const Side& sa, const Side& sb) {
  const PointsDocument& pa = *sa.points;
  const PointsDocument& pb = *sb.points;
  if (!(pa.units == pb.units))
    throw InputError(sb.arg + ": points are in " + pb.units.work + "/" + pb.units.traffic +
                     " but " + sa.arg + " holds " + pa.units.work + "/" + pa.units.traffic);
  for (const Side* side : {&sa, &sb}) {
    std::set<std::string> names;
    for (const Point& p : side->points->points)
      if (!names.insert(p.name).second)
        throw InputError(side->arg + ": two points are named '" + terminal_safe(p.name) +
                         "'; diff pairs points by name, so names must be unique");
  }
}

void diff_points(const DiffArgs& a, const Side& sa, const Side& sb) {
  refuse_unpairable(sa, sb);
  const PointsDocument& pa = *sa.points;
  const PointsDocument& pb = *sb.points;
  std::map<std::string, size_t> in_b;
  for (size_t i = 0; i < pb.points.size(); ++i) in_b.emplace(pb.points[i].name, i);
  std::map<std::string, bool> in_a;
  nlohmann::json rows = nlohmann::json::array();
  std::string t = "A: " + sa.arg + "\nB: " + sb.arg + "\n";
  std::vector<std::string> only_a, only_b;
  for (size_t i = 0; i < pa.points.size(); ++i) {
    const Point& p = pa.points[i];
    in_a.emplace(p.name, true);
    const auto it = in_b.find(p.name);
    if (it == in_b.end()) {
      only_a.push_back(p.name);
      continue;
    }
    const Point& q = pb.points[it->second];
    const double ratio = q.performance().value / p.performance().value;
    // I at a level both points have (the first of A's that B has too): an intensity at L2
    // against one at HBM is no change of the kernel.
    const LevelTraffic *at_a = nullptr, *at_b = nullptr;
    for (const auto& ta : p.traffic)
      for (const auto& tb : q.traffic)
        if (!at_a && iequals(ta.level, tb.level)) {
          at_a = &ta;
          at_b = &tb;
        }
    const double iratio = at_a ? (q.work / at_b->bytes).value / (p.work / at_a->bytes).value : 0.0;
    const std::string i_text =
        !at_a
            ? "I: no traffic level in both"
            : "I" + (at_a->level.empty() ? std::string() : "(" + terminal_safe(at_a->level) + ")") +
                  " B/A = " + format_number(iratio, 4);
    const auto s1 = sa.spreads[i] ? std::optional<double>(sa.spreads[i]->value) : std::nullopt;
    const auto s2 = sb.spreads[it->second] ? std::optional<double>(sb.spreads[it->second]->value)
                                           : std::nullopt;
    // The same rule as `check --baseline` and the roofs above: the larger spread carried, no less
    // than the run-to-run agreement the tool aims at (kRunToRunCompute).
    const auto ex = exceeds_spread(ratio, s1, s2, kRunToRunCompute);
    const std::optional<double> noise = spread_noise(s1, s2, kRunToRunCompute);
    // Work counted on another unit (fp32 in A, fp16 in B) is said beside the ratio.
    const bool other_precision = precision_changed(p, q);
    rows.push_back(
        {{"name", p.name},
         {"precision_a", p.precision.empty() ? nlohmann::json() : nlohmann::json(p.precision)},
         {"precision_b", q.precision.empty() ? nlohmann::json() : nlohmann::json(q.precision)},
         {"performance_a", p.performance().value},
         {"performance_b", q.performance().value},
         {"performance_unit_a", point_units(p, pa.units).work_rate()},
         {"performance_unit_b", point_units(q, pb.units).work_rate()},
         {"ratio", ratio},
         {"intensity_ratio", at_a ? nlohmann::json(iratio) : nlohmann::json()},
         {"intensity_level",
          at_a && !at_a->level.empty() ? nlohmann::json(at_a->level) : nlohmann::json()},
         {"spread_a", optional_json(s1)},
         {"spread_b", optional_json(s2)},
         {"noise", optional_json(noise)},
         {"exceeds_spread", ex ? nlohmann::json(*ex) : nlohmann::json(nullptr)}});
    // B/A with digits enough to read apart from the noise it is judged against (0.96996, not
    // 0.97, when the noise is 3%).
    const std::string ratio_text =
        noise ? format_number_apart(ratio, noise_bound(ratio, *noise), 4) : format_number(ratio, 4);
    // An integer point's P in OP/s, as `point` prints it.
    t += terminal_safe(p.name) + ": P " +
         format_work_rate(p.performance(), point_units(p, pa.units)) + " → " +
         format_work_rate(q.performance(), point_units(q, pb.units)) + ", B/A = " + ratio_text +
         "; " + i_text + " (spread A " + percent(s1) + ", B " + percent(s2) +
         "): " + verdict(ex, noise) +
         (other_precision ? "; precision " + terminal_safe(p.precision) + " → " +
                                terminal_safe(q.precision) + ": P counts work on different units"
                          : std::string()) +
         "\n";
  }
  for (const auto& q : pb.points)
    if (!in_a.count(q.name)) only_b.push_back(q.name);
  for (const auto& n : only_a) t += "only in A: " + terminal_safe(n) + "\n";
  for (const auto& n : only_b) t += "only in B: " + terminal_safe(n) + "\n";
  if (a.json) {
    const nlohmann::json j = {{"schema", "roofline.diff"},
                              {"version", 1},
                              {"kind", "points"},
                              {"a", sa.arg},
                              {"b", sb.arg},
                              {"points", rows},
                              {"only_a", only_a},
                              {"only_b", only_b}};
    emit(json_text(j) + "\n", a.output);
  } else {
    emit(t, a.output);
  }
}

void run(const DiffArgs& a) {
  if (!a.report.empty()) check_report_path(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}});
  const Side sa = load_side(a.a, a.hw_dir);
  const Side sb = load_side(a.b, a.hw_dir);
  if (sa.machine && sb.machine) return diff_machines(a, *sa.machine, *sb.machine);
  if (sa.points && sb.points) {
    if (!a.report.empty())
      throw InputError("--report draws two machines' roofs; " + a.a + " and " + a.b +
                       " are points documents (use `roofline plot` for points)");
    return diff_points(a, sa, sb);
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
