// roofline import ncu|likwid|dcgm FILE: points from other tools' output (one per kernel, region
// or GPU), diagnosed against a machine when one is given.
//
// Names in the files (kernels, regions, units) are data: they are kept byte for byte in the
// points and in -o files, and escaped where this command prints to the terminal (stdout and
// its error messages), so that a control sequence in a kernel name cannot retitle the window
// or clear the screen.
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>

#include "commands.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct ImportArgs {
  MachineOptions machine;
  std::vector<std::string> files;
  bool json = false;
  std::string output;
  bool no_hierarchy = false;
  double interval = 1.0;
};

/// Notes that say the same of many points ("NAME: L2 traffic left out: ...") as one line:
/// `point_notes` holds (point name, note without the name).
std::vector<std::string> grouped(
    const std::vector<std::pair<std::string, std::string>>& point_notes) {
  std::map<std::string, std::vector<std::string>> by_text;
  std::vector<std::string> order, out;
  for (const auto& [name, text] : point_notes) {
    auto& names = by_text[text];
    if (names.empty()) order.push_back(text);
    names.push_back(name);
  }
  for (const auto& text : order) {
    const auto& names = by_text[text];
    if (names.size() == 1) {
      out.push_back(names[0] + ": " + text);
      continue;
    }
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 3) list += ", ...";
    out.push_back(std::to_string(names.size()) + " points (" + list + "): " + text);
  }
  return out;
}

/// --precision may not put work on a roof that counts other operations: the counters' FLOP of
/// an fp32 kernel against an int8 roof's OP/s is no bound (docs/import.md). Refused before
/// anything is written, naming the points and the precision their counters give.
void refuse_other_work(const ImportArgs& a, const std::vector<Point>& points, const RoofSet& roofs,
                       const ComputeRoof& chosen) {
  std::string named, why;
  size_t count = 0;
  for (const auto& p : points) {
    const std::string unit = stated_work_unit(p);
    const std::string mismatch = roofs.work_mismatch(chosen, unit);
    if (mismatch.empty()) continue;
    if (why.empty()) why = mismatch;
    if (++count <= 3)
      named += (named.empty() ? "'" : ", '") + p.name + "' (" + p.precision + ", " + unit + ")";
  }
  if (count == 0) return;
  if (count > 3) named += " and " + std::to_string(count - 3) + " more";
  throw InputError("--precision " + a.machine.precision + ": the counters of " +
                   (count == 1 ? "point " : std::to_string(count) + " points, ") + named +
                   ", count other work than the roof: " + why +
                   "; name a roof that counts their work, or leave --precision out");
}

/// The points as judged against a machine: each fitted to its roofs, and whether it is judged or
/// only listed (no roof for its precision or level, said in the notes).
struct Judged {
  std::vector<Point> points;  ///< traffic at the machine's levels only
  std::vector<bool> judged;
};

/// Fits each point to the machine's roofs (its levels, its precision or --precision's). The
/// document keeps every level the counters measured (an L2 or L1 the machine has no roof for,
/// DRAM by its name), so it can be judged later against a machine that has them; the precision
/// chosen is written on it, so every later reader judges it the same.
Judged judge(const ImportArgs& a, ImportResult& res, const std::optional<MachineDocument>& m) {
  Judged out{res.doc.points, std::vector<bool>(res.doc.points.size(), m.has_value())};
  std::vector<bool>& judged = out.judged;
  if (!m) return out;
  std::vector<std::pair<std::string, std::string>> point_notes;
  std::vector<std::string> notes;
  // --precision names the roof every point is judged against, in place of the precision its
  // counters gave (an import's points always have one): a value the machine has no roof for
  // is refused, naming its roofs, before anything is written.
  if (!a.machine.precision.empty()) {
    const ComputeRoof& chosen = m->roofs.select_compute(a.machine.precision);
    std::set<std::string> own;  // the precisions that would have judged a point elsewhere
    for (const auto& p : res.doc.points) {
      if (p.precision.empty() || p.precision == chosen.name) continue;
      const ComputeRoof* theirs = nullptr;
      try {
        theirs = &m->roofs.select_compute(p.precision);
      } catch (const InputError&) {  // no roof of its own: --precision gives it one
      }
      if (theirs != &chosen) own.insert(p.precision);
    }
    if (!own.empty())
      res.notes.push_back("judged against roof '" + chosen.name + "' (--precision " +
                          a.machine.precision + ") in place of the precision" +
                          (own.size() > 1 ? "s " : " ") + join({own.begin(), own.end()}) +
                          " the counters give");
    refuse_other_work(a, res.doc.points, m->roofs, chosen);
  }
  for (std::size_t i = 0; i < res.doc.points.size(); ++i) {
    Point& p = out.points[i];
    notes.clear();
    auto fitted = fit_levels(p.traffic, &m->roofs, notes, p.name);
    if (!a.machine.precision.empty()) {
      p.work_unit = stated_work_unit(p);  // the counters' unit stays with W
      p.precision = a.machine.precision;
    }
    if (fitted.empty()) {
      // No level the machine has a roof for: the point keeps its traffic, not judged.
      judged[i] = false;
    } else {
      p.traffic = std::move(fitted);
      judged[i] = fit_precision(p, m->roofs, notes);
    }
    res.doc.points[i].work_unit = p.work_unit;
    res.doc.points[i].precision = p.precision;
    for (const auto& n : notes)
      point_notes.emplace_back(p.name,
                               n.rfind(p.name + ": ", 0) == 0 ? n.substr(p.name.size() + 2) : n);
  }
  const auto g = grouped(point_notes);
  res.notes.insert(res.notes.end(), g.begin(), g.end());
  res.doc.machine = m->roofs.name;
  return out;
}

void render(const ImportArgs& a, ImportResult res, const std::optional<MachineDocument>& m,
            const std::string& tool) {
  std::string files;
  for (const auto& f : a.files) files += (files.empty() ? "" : ", ") + f;
  // An import is asked for points: none is an error (exit 2, nothing written), with the
  // reasons the reader gave for what it left out.
  if (res.doc.points.empty()) {
    std::string why;
    for (std::size_t i = 0; i < res.notes.size() && i < 5; ++i) why += "\n  " + res.notes[i];
    if (res.notes.size() > 5) why += "\n  ... (" + std::to_string(res.notes.size() - 5) + " more)";
    throw InputError(files + ": no point could be made from it" +
                     (why.empty() ? std::string() : ":" + why));
  }
  // Every point as `point` and `plot` will read it back: a name on one line, W, Q, T and their
  // ratios numbers (a 1e-300 s duration would print P = inf), with or without a machine.
  require_valid_points(res.doc, files);
  // Per point: judged against the machine's roofs, or (no roof for the unit it ran on) only
  // listed — a tensor kernel held against the fp32 roof would read as impossible.
  const Judged fit = judge(a, res, m);
  const std::vector<bool>& judged = fit.judged;
  if (a.json) {
    PointsDocument head_doc = res.doc;
    head_doc.points.clear();
    nlohmann::json head = points_to_json(head_doc);
    head.erase("points");
    head["source"] = tool;
    head["file"] = a.files.front();
    if (a.files.size() > 1) head["files"] = a.files;
    head["notes"] = res.notes;
    const auto& pts = res.doc.points;
    std::vector<std::pair<std::string, JsonElement>> arrays;
    arrays.emplace_back("points", [&](std::size_t i, nlohmann::json& e) {
      if (i >= pts.size()) return false;
      e = point_to_json(pts[i]);
      return true;
    });
    if (m)
      arrays.emplace_back("analysis", [&](std::size_t i, nlohmann::json& e) {
        if (i >= pts.size()) return false;
        if (judged[i]) {
          e = analysis_to_json(fit.points[i], diagnose(fit.points[i], m->roofs), m->roofs);
        } else {
          e = point_to_json(pts[i]);
          e["machine"] = m->roofs.name;
          e["diagnosis"] = nullptr;  // no roof for its precision: see the notes
        }
        return true;
      });
    const std::string text = json_text_with_arrays(head, arrays);
    // Nothing written here is refused later (docs/architecture.md): the readers take a points
    // document up to kMaxPointsBytes.
    if (text.size() > kMaxPointsBytes)
      throw InputError(files + ": the points document would be " +
                       format_bytes(Bytes(static_cast<double>(text.size()))) + ", above the " +
                       exact_binary_size_text(kMaxPointsBytes) +
                       " a points document may hold: import fewer kernels (ncu --kernel-name, "
                       "--launch-count) or fewer files at once");
    emit(text, a.output);
    return;
  }
  const bool color = a.output.empty() && color_stdout();
  std::string t = tool + " import of " + files + ": " + std::to_string(res.doc.points.size()) +
                  " point" + (res.doc.points.size() == 1 ? "" : "s") + "\n";
  for (const auto& n : res.notes) t += "  " + n + "\n";
  for (std::size_t i = 0; i < res.doc.points.size(); ++i) {
    const auto& p = res.doc.points[i];
    t += "\n";
    if (m && judged[i])
      t += render_point_analysis(fit.points[i], diagnose(fit.points[i], m->roofs), m->roofs, color);
    else
      t += render_point_brief(p) +
           (m ? "  not judged: no roof for its precision or level (see notes)\n" : "");
    if (m && judged[i] && !p.note.empty()) t += "  source: " + p.note + "\n";
  }
  emit(t, a.output);
}

std::optional<MachineDocument> maybe_machine(const ImportArgs& a) {
  if (!has_machine(a.machine)) {
    if (!a.machine.precision.empty())
      throw InputError("--precision " + a.machine.precision +
                       ": names the roof to judge the points against, and no roofs are given "
                       "(--hw NAME, --machine FILE, or --peak and --bandwidth)");
    return std::nullopt;
  }
  return load_machine(a.machine);
}

void add_common(CLI::App* c, ImportArgs& a, const char* what, bool many = false) {
  if (many)
    c->add_option("files", a.files, what)->required();
  else
    c->add_option("file", a.files, what)->required()->expected(1);
  add_machine_options(*c, a.machine, false);
  add_output_options(*c, a.json, a.output);
}

const Registrar register_import(70, [](CLI::App& root) {
  CLI::App* imp = root.add_subcommand(
      "import",
      "Points from profilers: Nsight Compute CSV, likwid-perfctr output, dcgmi dmon logs");
  imp->require_subcommand(1);

  auto ncu = std::make_shared<ImportArgs>();
  CLI::App* c = imp->add_subcommand(
      "ncu",
      "Nsight Compute CSV export (--page raw or the details page): one point per kernel "
      "(W from FP instruction and tensor metrics, Q from dram__bytes, T from "
      "gpu__time_duration or cycles)");
  add_common(c, *ncu, "CSV file from ncu --csv (docs/import.md shows the command)");
  c->add_flag("--no-hierarchy", ncu->no_hierarchy, "Only DRAM traffic (leave out L2/L1 levels)");
  c->callback([ncu] {
    NcuOptions o;
    o.hierarchy = !ncu->no_hierarchy;
    auto m = maybe_machine(*ncu);
    o.own_roofs = !m;
    if (m) {
      o.roofs = &m->roofs;
      o.machine_name = m->roofs.name;
      o.machine_cc = machine_facts(*m).compute_capability;
    }
    const std::string& file = ncu->files.front();
    std::ifstream in = open_import_file(file);
    ImportResult res = import_ncu(in, file, o);
    if (!m && res.roofs) {
      // No machine given: judge against the roofs the report itself describes.
      m = MachineDocument{};
      m->roofs = *res.roofs;
      res.notes.push_back("roofs from the report's peak metrics (ncu --set roofline): " +
                          std::to_string(res.roofs->compute.size()) +
                          " compute roofs (no tensor roof: give --hw for one), DRAM " +
                          format_byte_rate(res.roofs->memory.front().bandwidth));
    }
    render(*ncu, std::move(res), m, "ncu");
  });

  auto lk = std::make_shared<ImportArgs>();
  c = imp->add_subcommand(
      "likwid",
      "likwid-perfctr output, its text tables or -O CSV (FLOPS_DP/SP, MEM, MEM_DP/SP, L3, L2 "
      "groups; several files are several runs of one program): one point per region or run");
  add_common(c, *lk, "likwid-perfctr output files (one run or more each)", true);
  c->callback([lk] {
    const auto m = maybe_machine(*lk);
    // Several files are several runs: one given twice would count its runs twice.
    refuse_repeated_files(lk->files, "each file is a run and would be counted twice");
    ToolTable tab;
    for (const auto& f : lk->files) {
      std::ifstream in = open_import_file(f);
      TextLines lines(in, f);
      read_likwid_table(lines, tab);
    }
    tab.origin = lk->files.front();
    render(*lk, likwid_points(tab), m, "likwid");
  });

  auto dc = std::make_shared<ImportArgs>();
  c = imp->add_subcommand(
      "dcgm",
      "dcgmi dmon output: an application-level point per GPU from activity ratios × the "
      "machine's peaks (needs --hw/--machine)");
  add_common(c, *dc, "text output of dcgmi dmon -e ...");
  // dmon -d takes whole milliseconds; a day per sample is already more than a log holds.
  c->add_option("--interval", dc->interval, "Seconds per sample (dmon -d in ms / 1000)")
      ->capture_default_str()
      ->check(number_in(1e-3, 86400));
  c->callback([dc] {
    const auto m = maybe_machine(*dc);
    if (!m)
      throw InputError(
          "import dcgm: the activity ratios need the GPU's peaks: give --hw NAME or "
          "--machine FILE");
    // W is each pipe's activity × that pipe's own roof (PIPE_TENSOR_ACTIVE × the tensor roof):
    // judged against another roof, its ratios would mean nothing. Given as --peak, the one roof
    // needs --precision to say which pipe it is (import_dcgm).
    if (!dc->machine.machine.empty() && !dc->machine.precision.empty())
      throw InputError("import dcgm: --precision " + dc->machine.precision +
                       " does not apply with --hw/--machine: each GPU's W is its pipes' "
                       "activity × their own roofs, and its point is judged against those");
    DcgmOptions o;
    o.interval_seconds = dc->interval;
    const std::string& file = dc->files.front();
    std::ifstream in = open_import_file(file);
    render(*dc, import_dcgm(in, file, m->roofs, o).result, m, "dcgm");
  });
});

}  // namespace
}  // namespace roofline::cli
