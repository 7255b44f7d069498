// roofline hw: the hardware catalogue (data/hardware, docs/hardware.md) — list, show, compare
// at a workload's intensity (docs/model.md §7 "different hardware"), and the ridge-point table
// sorted by release year (docs/model.md §8, the memory-wall trajectory).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "commands.hpp"
#include "roofline/compare.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/hw_output.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/model.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"
#include "roofline/trajectory.hpp"

namespace roofline::cli {
namespace {

using Json = nlohmann::json;

void warn_skipped(const std::vector<std::string>& problems) {
  for (const auto& p : problems) say("roofline: warning: skipped " + p + "\n");
}

/// Refuses a --report path before any work: its format (by extension), its folder, and the PNG
/// converter. `trajectory`: the ridge chart (.svg .html .png); otherwise a roofline report.
void check_report(const std::string& path, bool trajectory) {
  try {
    if (trajectory) {
      check_trajectory_format(path);
      check_writable_path(path);
      if (lower(std::filesystem::path(path).extension().string()) == ".png") check_png_export(path);
    } else {
      check_report_path(path);
    }
  } catch (const InputError& e) {
    throw InputError("--report " + std::string(e.what()));
  }
}

// ------------------------------------------------------------------------------------ list
struct ListArgs {
  std::string hw_dir, kind, vendor, year, memory_min, search, output;
  bool json = false;
};

void check_kind(const std::string& kind) {
  const auto& kinds = hardware_kinds();
  if (!kind.empty() && std::find(kinds.begin(), kinds.end(), lower(kind)) == kinds.end())
    throw InputError("--kind: expected gpu, cpu, tpu, accelerator or soc (got '" +
                     terminal_safe(kind) + "')");
}

void run_list(const ListArgs& a) {
  check_kind(a.kind);
  // The filters are checked before the catalogue is read: a bad value writes nothing.
  HardwareFilter filter;
  filter.kind = a.kind;
  filter.vendor = a.vendor;
  filter.search = a.search;
  if (!a.year.empty()) parse_year_filter(a.year, filter);
  if (!a.memory_min.empty()) filter.memory_min = parse_memory_min(a.memory_min);
  std::vector<std::string> problems;
  auto entries = load_catalogue(a.hw_dir, &problems);
  warn_skipped(problems);
  std::vector<HardwareSummary> shown;
  for (auto& e : entries)
    if (matches_filter(e, filter)) shown.push_back(std::move(e));
  if (a.json)
    emit(json_text(hardware_list_to_json(shown)) + "\n", a.output);
  else
    emit(render_hardware_list(shown, entries.size()), a.output);
}

// ------------------------------------------------------------------------------------ show
struct ShowArgs {
  std::string name, hw_dir, level, output;
  std::string report;  // --report FILE: the device's roofs as a chart (format by extension)
  bool json = false;
};

void run_show(const ShowArgs& a) {
  if (!a.report.empty()) check_report(a.report, false);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, {a.name});
  const HardwareSummary s = resolve_summary(a.name, a.hw_dir);
  const RoofSet& r = s.machine.roofs;
  const auto ridges = ridges_per_roof(r, a.level);
  if (!a.report.empty()) {
    ReportInput in;
    in.title = "Roofs of " + s.display_name;
    in.machines.push_back(s.machine);
    // --level: the ridges on the chart are taken against that roof, as in the table.
    if (!a.level.empty()) in.machines.front().roofs.default_memory = r.select_memory(a.level).level;
    write_report(a.report, in);
  }
  if (a.json)
    emit(json_text(hardware_show_to_json(s, ridges)) + "\n", a.output);
  else
    emit(render_hardware_show(s, ridges), a.output);
}

// --------------------------------------------------------------------------------- compare
struct CompareArgs {
  std::vector<std::string> names;
  std::string hw_dir, at, points, precision, level, output;
  std::string report;  // --report FILE: first machine's roofs, the others as overlays
  bool json = false;
};

/// One comparison to make: at an intensity, or at a point's own intensity and precision.
struct CompareQuery {
  std::string label;  ///< the point's name ("" for --at)
  Intensity intensity;
  std::string precision;
  std::string level;
  std::string work_unit;  ///< the point's stated work unit (stated_work_unit; "" for --at)
};

/// The level a point is compared at without --level: its first level every machine has a roof
/// for (a CPU run's L1, L2, L3, DRAM on GPUs: DRAM, read as their HBM); with none, its first
/// level, which the comparison then refuses naming the point.
std::string level_all_have(const Point& p, const std::vector<const RoofSet*>& sets) {
  for (const auto& t : p.traffic) {
    const bool everywhere = std::all_of(sets.begin(), sets.end(), [&](const RoofSet* s) {
      try {
        s->select_memory(t.level);
        return true;
      } catch (const InputError&) {
        return false;
      }
    });
    if (everywhere) return t.level;
  }
  return p.traffic.front().level;
}

/// The comparisons --at or --point asks for (`doc` keeps the points for the chart).
std::vector<CompareQuery> compare_queries(const CompareArgs& a,
                                          const std::vector<const RoofSet*>& sets,
                                          PointsDocument& doc) {
  std::vector<CompareQuery> queries;
  if (!a.at.empty()) {
    queries.push_back({"", parse_workload_intensity(a.at), a.precision, a.level, ""});
    return queries;
  }
  doc = load_points_file(a.points);
  // A run of no arithmetic (copy) is no point: said, and left out, as plot and point say it; a
  // document of such runs alone has nothing to compare at, and says what it holds.
  if (doc.points.empty() && !doc.not_points.empty())
    throw InputError("hw compare: " + a.points + " has no points to compare: its " +
                     (doc.not_points.size() == 1
                          ? std::string("one run is a bandwidth run")
                          : std::to_string(doc.not_points.size()) + " runs are bandwidth runs") +
                     " (no arithmetic, W = 0, so no intensity to compare at), not points");
  if (doc.points.empty()) throw InputError("hw compare: " + a.points + " has no points to compare");
  for (const auto& n : doc.not_points)
    say("roofline: note: " + bandwidth_run_note(n, "not compared", a.points) + "\n");
  for (const auto& p : doc.points) {
    // The point's own intensity at the chosen level (docs/model.md §4: I depends on the level).
    const std::string level = a.level.empty() ? level_all_have(p, sets) : a.level;
    const Intensity i = p.intensity(level);
    const std::string precision = a.precision.empty() ? p.precision : a.precision;
    queries.push_back({p.name, i, precision, level, stated_work_unit(p)});
  }
  return queries;
}

/// The chart (docs/model.md §7): the first machine's roofs, the others as overlays; each
/// machine's highlighted roofs are the ones compared (`first_roofs`), so the --at line's ratios
/// match the table; a points document's points drawn on the first machine's roofs.
ReportInput comparison_chart(const CompareArgs& a, const std::vector<MachineDocument>& machines,
                             const std::vector<std::string>& first_roofs,
                             const CompareQuery& first_query, const PointsDocument& doc) {
  ReportInput in;
  in.machines = machines;
  for (size_t i = 0; i < in.machines.size(); ++i) {
    RoofSet& r = in.machines[i].roofs;
    r.default_compute = first_roofs[i];
    if (!a.level.empty()) r.default_memory = r.select_memory(a.level).level;
  }
  std::string others;
  for (size_t i = 1; i < machines.size(); ++i)
    others += (others.empty() ? "" : ", ") + machines[i].roofs.name;
  in.title = machines.front().roofs.name + " compared with " + others;
  if (!a.at.empty()) {
    in.workload_line = first_query.intensity;
    in.workload_precision = a.precision;
    in.workload_level = a.level;
    return in;
  }
  for (auto p : doc.points) {
    if (!a.precision.empty())
      p.precision = select_compute_roof(machines.front().roofs, a.precision).name;
    else if (p.precision.empty())
      p.precision = machines.front().roofs.select_compute("", stated_work_unit(p)).name;
    in.points.push_back(p);
  }
  return in;
}

void run_compare(const CompareArgs& a) {
  if (a.names.size() < 2) throw InputError("hw compare: give at least two machines (A B [C...])");
  if (a.at.empty() == a.points.empty())
    throw InputError("hw compare: give either --at INTENSITY or --point POINTS.json");
  if (!a.report.empty()) check_report(a.report, false);
  std::vector<std::string> inputs = a.names;
  inputs.push_back(a.points);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, inputs);
  // A catalogue entry is named by its canonical name; a file keeps its document name.
  std::vector<MachineDocument> machines = resolve_machines(a.names, a.hw_dir, "hw compare");
  std::vector<const RoofSet*> sets;
  for (const auto& m : machines) sets.push_back(&m.roofs);

  PointsDocument doc;
  const std::vector<CompareQuery> queries = compare_queries(a, sets, doc);
  Json out = Json::array();
  std::string text;
  std::set<std::string> said;
  std::vector<std::string> first_roofs;  // of the first query: the roofs the chart highlights
  // Each point as point, check and plot take it on each machine: two of its levels at one roof
  // are refused (hw compare read the first and dropped the other).
  // A point's level or precision no machine has: the file and the point say where to look.
  auto naming = [&](const std::string& point, const auto& step) {
    try {
      step();
    } catch (const InputError& e) {
      if (point.empty()) throw;
      const std::string what = e.what(), tag = "point '" + point + "': ";
      throw InputError(terminal_safe(a.points) + ": " +
                       (what.rfind(tag, 0) == 0 ? what : tag + what));
    }
  };
  // With --level, the point's bytes at that level are read and no other level matters; without,
  // those of its first level every machine has, which must not share its roof with another of
  // its levels. Levels a machine lacks are no matter here (a CPU point's L2 on a GPU).
  if (a.level.empty())
    for (const auto& p : doc.points)
      for (const RoofSet* s : sets)
        naming(p.name, [&] { require_distinct_levels(p, *s, "point '" + p.name + "': ", true); });
  for (const auto& q : queries) {
    std::vector<std::string> roofs;
    Comparison c;
    naming(q.label, [&] {
      roofs = roofs_for(sets, q.precision, q.work_unit);
      c = compare_roofs_at(sets, q.intensity, roofs, q.level);
    });
    if (q.precision.empty()) warn_if_mixed(sets, roofs, q.label, said);
    warn_if_narrow(sets, roofs, q.label, said);
    if (first_roofs.empty()) first_roofs = roofs;
    c.precision = q.precision;
    if (a.json) {
      out.push_back(comparison_to_json(c, q.label));
    } else {
      if (!text.empty()) text += "\n";
      text += render_comparison(c, sets, comparison_label(q.label, q.level, q.precision));
    }
  }
  if (!a.report.empty())
    write_report(a.report, comparison_chart(a, machines, first_roofs, queries.front(), doc));
  if (a.json)
    emit(json_text((out.size() == 1 && !a.at.empty() ? out[0] : out)) + "\n", a.output);
  else
    emit(text, a.output);
}

// ---------------------------------------------------------------------------------- ridges
struct RidgesArgs {
  std::string hw_dir, precision, level, kind, output;
  std::string report;              // --report FILE: the trajectory chart (.svg .html .png)
  std::vector<std::string> extra;  // machine files or names to add to the catalogue's
  bool json = false, csv = false;
};

void run_ridges(const RidgesArgs& a) {
  if (a.json && a.csv) throw InputError("give --json or --csv, not both");
  check_kind(a.kind);
  if (!a.report.empty()) check_report(a.report, true);
  check_text_output(a.output, {true, a.csv, true, "one row per device and precision"});
  check_outputs({{"-o", a.output}, {"--report", a.report}}, a.extra);
  std::vector<std::string> problems;
  auto entries = load_catalogue(a.hw_dir, &problems);
  warn_skipped(problems);
  // The --add machines, told apart from entries of their names.
  const std::vector<AddedMachine> added = add_machines(entries, a.extra, a.hw_dir);
  if (!a.kind.empty())
    entries.erase(
        std::remove_if(entries.begin(), entries.end(),
                       [&](const HardwareSummary& e) { return lower(e.kind) != lower(a.kind); }),
        entries.end());
  // The memory-wall trajectory reads left to right in time (docs/model.md §8).
  std::stable_sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) {
    const int yx = x.release_year.value_or(9999), yy = y.release_year.value_or(9999);
    return yx != yy ? yx < yy : x.name < y.name;
  });
  const std::vector<PrecisionGroup> groups =
      a.precision.empty() ? default_precision_groups()
                          : std::vector<PrecisionGroup>{precision_group(a.precision)};

  const std::vector<RidgeRow> rows = ridge_rows(entries, groups, a.level);
  // A machine without the --level memory roof is left out and named, as one without the
  // precision is.
  const auto lacks_level = [&](const HardwareSummary& e) {
    return !a.level.empty() && !has_memory_level(e.machine.roofs, a.level);
  };
  if (rows.empty() && !a.level.empty() && std::all_of(entries.begin(), entries.end(), lacks_level))
    throw InputError("--level: no machine has a memory roof '" + terminal_safe(a.level) + "'");
  if (rows.empty())
    throw InputError("no machine has a dense compute roof for '" + a.precision + "'");
  // A machine asked for by --add is in the table, or the reason it is not is said (a custom
  // roofline in tuples has no roof of the precisions the table shows).
  if (const std::string why = ridge_added_not_shown(added, entries, rows, groups, a.level);
      !why.empty())
    throw InputError(why);
  if (!a.report.empty()) {
    const TrajectoryInput t = ridge_trajectory(rows, groups, a.level, a.kind);
    if (!t.undated.empty())
      say("roofline: warning: --report: not drawn (no release year): " + join(t.undated) + "\n");
    write_trajectory(a.report, t);
  }
  // The devices with no dense roof of the groups shown (an SoC whose vendor publishes only its
  // NPU's TOPS) are named, not dropped without a word.
  // A machine without the --level roof is named on its own line, not as one without a dense roof.
  const std::string left_out =
      render_ridges_left_out(ridge_rows_left_out(entries, rows, a.level), groups);
  const std::string no_level_line = render_ridges_not_at_level(entries, a.level);
  if (a.json || a.csv) {
    // The JSON and CSV are the table's rows alone; the devices left out are said on stderr.
    if (!left_out.empty()) say("roofline: note: " + left_out);
    if (!no_level_line.empty()) say("roofline: note: " + no_level_line);
    emit(a.json ? json_text(ridge_rows_to_json(rows, groups)) + "\n"
                : ridge_rows_to_csv(rows, groups),
         a.output);
  } else {
    emit(render_ridge_rows(rows, groups, a.level) + left_out + no_level_line, a.output);
  }
}

// ----------------------------------------------------------------------------------- check
struct HwCheckArgs {
  std::vector<std::string> files;
  std::string hw_dir;
};

void run_check(const HwCheckArgs& a) {
  std::vector<std::filesystem::path> files(a.files.begin(), a.files.end());
  if (files.empty())
    for (const auto& e : list_catalogue(a.hw_dir)) files.push_back(e.path);
  std::vector<std::string> problems;
  // Each file once (overlapping globs name one twice), then, for files given by name, the
  // catalogue beside them: a copy of an entry keeps its aliases, which would clash.
  std::vector<CatalogueEntry> entries;
  auto listed = [&](const std::filesystem::path& f) {
    std::error_code ec;
    return std::any_of(entries.begin(), entries.end(), [&](const CatalogueEntry& e) {
      return std::filesystem::equivalent(e.path, f, ec);
    });
  };
  for (const auto& f : files) {
    if (listed(f)) continue;
    const auto p = catalogue_entry_problems(f);
    problems.insert(problems.end(), p.begin(), p.end());
    entries.push_back(catalogue_entry(f));
  }
  const size_t checked = entries.size();
  // A catalogue entry of a checked file's name is the one that file replaces (the first
  // directory wins a name, as --hw-dir does): not a clash. Checked by path, a changed copy of
  // h100-sxm.json clashed with h100-sxm's aliases, while --hw-dir found it valid.
  std::set<std::string> checked_names;
  for (const auto& e : entries) checked_names.insert(hardware_key(e.name));
  if (!a.files.empty()) {
    // Files checked against the catalogue's names where there is one; without one (an install
    // that lost its data) there is nothing to clash with, and the files are checked alone.
    std::vector<CatalogueEntry> catalogue;
    try {
      catalogue = list_catalogue(a.hw_dir);
    } catch (const Unavailable&) {
    }
    for (const auto& e : catalogue)
      if (!listed(e.path) && !checked_names.count(hardware_key(e.name))) entries.push_back(e);
  }
  const auto clashes = ambiguous_names(entries);
  problems.insert(problems.end(), clashes.begin(), clashes.end());
  if (!problems.empty()) {
    std::string msg = std::to_string(problems.size()) + " problem(s) in the catalogue:";
    for (const auto& p : problems) msg += "\n  " + p;
    throw InputError(msg);
  }
  emit(std::to_string(checked) + " catalogue file(s) valid\n");
}

const Registrar register_hw(60, [](CLI::App& root) {
  CLI::App* hw = root.add_subcommand("hw",
                                     "Hardware catalogue: list devices, show their roofs and "
                                     "ridges, compare them at an intensity");
  hw->require_subcommand(1);

  auto la = std::make_shared<ListArgs>();
  CLI::App* list = hw->add_subcommand(
      "list", "List the catalogue (filter by --kind, --vendor, --year, --memory-min, --search)");
  list->add_option("--kind", la->kind, "gpu, cpu, tpu, accelerator or soc");
  list->add_option("--vendor", la->vendor, "Vendor name, e.g. NVIDIA, AMD, Google, Intel");
  list->add_option("--year", la->year,
                   "Release year: 2024, a range 2022-2024, 2023- (and later) or -2020");
  list->add_option("--memory-min", la->memory_min,
                   "Main memory at least N GB (a number), or a size such as '1.5 TB'");
  list->add_option("--search", la->search,
                   "A fragment of the name, display name or an alias (case, '-', ' ' ignored)");
  list->add_option("--hw-dir", la->hw_dir, "Extra catalogue directory (also $ROOFLINE_HW_PATH)");
  add_output_options(*list, la->json, la->output);
  list->callback([la] { run_list(*la); });

  auto sa = std::make_shared<ShowArgs>();
  CLI::App* show = hw->add_subcommand("show", "Roofs of one device with sources, and ridge points");
  show->add_option("name", sa->name, "Catalogue name or alias, or a machine document path")
      ->required();
  show->add_option("--level", sa->level,
                   "Memory roof the ridges are taken against (default: main memory)");
  show->add_option("--hw-dir", sa->hw_dir, "Extra catalogue directory (also $ROOFLINE_HW_PATH)");
  add_output_options(*show, sa->json, sa->output);
  show->add_option("--report", sa->report,
                   "Also write the chart of the roofs: .svg .html .png .json .csv (by extension)");
  show->callback([sa] { run_show(*sa); });

  auto ca = std::make_shared<CompareArgs>();
  CLI::App* cmp = hw->add_subcommand(
      "compare",
      "Attainable performance of two or more devices at one intensity, ratio and regime");
  cmp->add_option("machines", ca->names, "Two or more catalogue names or machine documents")
      ->required();
  cmp->add_option("--at", ca->at, "Intensity I, e.g. 1.0 or \"0.25 FLOP/byte\"");
  cmp->add_option("--point", ca->points, "A points document: compare at each point's intensity");
  cmp->add_option("--precision", ca->precision,
                  "Compute roof on each machine: a precision (bf16), alternatives (bf16/fp16: the "
                  "higher dense roof of the two) or a roof name");
  cmp->add_option("--level", ca->level, "Memory roof on each machine (default: main memory)");
  cmp->add_option("--hw-dir", ca->hw_dir, "Extra catalogue directory (also $ROOFLINE_HW_PATH)");
  add_output_options(*cmp, ca->json, ca->output);
  cmp->add_option("--report", ca->report,
                  "Also write the chart: the first machine's roofs, the others over them, the --at "
                  "line with the ratios (.svg .html .png .json .csv)");
  cmp->callback([ca] { run_compare(*ca); });

  auto ra = std::make_shared<RidgesArgs>();
  CLI::App* rid =
      hw->add_subcommand("ridges", "Ridge-point table by release year: the memory-wall trajectory");
  rid->add_option("--precision", ra->precision,
                  "One precision (bf16), alternatives (bf16/fp16) or a roof name; default: fp64, "
                  "fp32, bf16/fp16, fp8/int8");
  rid->add_option("--level", ra->level, "Memory roof (default: main memory)");
  rid->add_option("--kind", ra->kind, "Only gpu, cpu, tpu, accelerator or soc");
  rid->add_option("--add", ra->extra, "Also include a machine document or name (repeatable)");
  rid->add_option("--hw-dir", ra->hw_dir, "Extra catalogue directory (also $ROOFLINE_HW_PATH)");
  rid->add_flag("--json", ra->json, "Machine-readable output (the trajectory data)");
  rid->add_flag("--csv", ra->csv, "CSV output, one row per device and precision");
  json_by_extension(rid->add_option("-o,--output", ra->output,
                                    "Write the output to a file (atomically; a name ending .json "
                                    "gets the --json form)"),
                    ra->json);
  rid->add_option("--report", ra->report,
                  "Also write the trajectory chart: I* against release year (.svg .html .png)");
  rid->callback([ra] { run_ridges(*ra); });

  auto ka = std::make_shared<HwCheckArgs>();
  CLI::App* check = hw->add_subcommand(
      "check", "Validate catalogue files (default: the whole catalogue) against docs/hardware.md");
  check->add_option("files", ka->files, "Catalogue JSON files to check");
  check->add_option("--hw-dir", ka->hw_dir, "Extra catalogue directory (also $ROOFLINE_HW_PATH)");
  check->callback([ka] { run_check(*ka); });
});

}  // namespace
}  // namespace roofline::cli
