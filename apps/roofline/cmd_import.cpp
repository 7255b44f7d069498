// roofline import ncu|likwid|dcgm FILE: points from other tools' output (one per kernel, region
// or GPU), diagnosed against a machine when one is given.
#include "commands.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/json_out.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct ImportArgs {
  MachineOptions machine;
  std::string file;
  bool json = false;
  std::string output;
  bool no_hierarchy = false;
  double interval = 1.0;
};

void render(const ImportArgs& a, ImportResult res, const std::optional<MachineDocument>& m,
            const std::string& tool) {
  // Per point: judged against the machine's roofs, or (no roof for the unit it ran on) only
  // listed — a tensor kernel held against the fp32 roof would read as impossible.
  std::vector<bool> judged(res.doc.points.size(), m.has_value());
  if (m) {
    for (std::size_t i = 0; i < res.doc.points.size(); ++i) {
      auto& p = res.doc.points[i];
      p.traffic = fit_levels(p.traffic, &m->roofs, res.notes, p.name);
      if (p.precision.empty() && !a.machine.precision.empty()) p.precision = a.machine.precision;
      judged[i] = fit_precision(p, m->roofs, res.notes);
    }
    res.doc.machine = m->roofs.name;
  }
  if (a.json) {
    nlohmann::json j = points_to_json(res.doc);
    j["source"] = tool;
    j["file"] = a.file;
    j["notes"] = res.notes;
    if (m) {
      nlohmann::json an = nlohmann::json::array();
      for (std::size_t i = 0; i < res.doc.points.size(); ++i) {
        const auto& p = res.doc.points[i];
        if (judged[i])
          an.push_back(analysis_to_json(p, diagnose(p, m->roofs), m->roofs));
        else {
          nlohmann::json x = point_to_json(p);
          x["machine"] = m->roofs.name;
          x["diagnosis"] = nullptr;  // no roof for its precision: see the notes
          an.push_back(x);
        }
      }
      j["analysis"] = an;
    }
    emit(j.dump(2) + "\n", a.output);
    return;
  }
  std::string t = tool + " import of " + a.file + ": " + std::to_string(res.doc.points.size()) +
                  " point" + (res.doc.points.size() == 1 ? "" : "s") + "\n";
  for (const auto& n : res.notes) t += "  " + n + "\n";
  for (std::size_t i = 0; i < res.doc.points.size(); ++i) {
    const auto& p = res.doc.points[i];
    t += "\n";
    if (m && judged[i])
      t += render_point_analysis(p, diagnose(p, m->roofs), m->roofs,
                                 a.output.empty() && color_stdout());
    else
      t += render_point_brief(p) +
           (m ? "  not judged: no roof for its precision (see notes)\n" : "");
    if (m && judged[i] && !p.note.empty()) t += "  source: " + p.note + "\n";
  }
  emit(t, a.output);
}

std::optional<MachineDocument> maybe_machine(const ImportArgs& a) {
  if (!has_machine(a.machine)) return std::nullopt;
  return load_machine(a.machine);
}

void add_common(CLI::App* c, ImportArgs& a, const char* what) {
  c->add_option("file", a.file, what)->required();
  add_machine_options(*c, a.machine, false);
  c->add_flag("--json", a.json, "Points document (docs/schema.md) as JSON, with notes");
  c->add_option("-o,--output", a.output, "Write the output to a file (atomically)");
}

const Registrar reg(70, [](CLI::App& root) {
  CLI::App* imp = root.add_subcommand(
      "import", "Points from profilers: Nsight Compute CSV, likwid-perfctr CSV, dcgmi dmon");
  imp->require_subcommand(1);

  auto ncu = std::make_shared<ImportArgs>();
  CLI::App* c = imp->add_subcommand(
      "ncu",
      "Nsight Compute `--csv --page raw` export: one point per kernel (W from FP "
      "instruction and tensor metrics, Q from dram__bytes, T from gpu__time_duration)");
  add_common(c, *ncu, "CSV file from ncu --csv --page raw");
  c->add_flag("--no-hierarchy", ncu->no_hierarchy, "Only DRAM traffic (leave out L2/L1 levels)");
  c->callback([ncu] {
    NcuOptions o;
    o.hierarchy = !ncu->no_hierarchy;
    auto m = maybe_machine(*ncu);
    ImportResult res = import_ncu(read_text_file(ncu->file), ncu->file, o);
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
  c = imp->add_subcommand("likwid",
                          "likwid-perfctr -O CSV (FLOPS_DP/SP, MEM, MEM_DP groups): one point per "
                          "region or run");
  add_common(c, *lk, "CSV file from likwid-perfctr -O");
  c->callback([lk] {
    const auto m = maybe_machine(*lk);
    render(*lk, import_likwid(read_text_file(lk->file), lk->file), m, "likwid");
  });

  auto dc = std::make_shared<ImportArgs>();
  c = imp->add_subcommand(
      "dcgm",
      "dcgmi dmon output: an application-level point per GPU from activity ratios × the "
      "machine's peaks (needs --hw/--machine)");
  add_common(c, *dc, "text output of dcgmi dmon -e ...");
  c->add_option("--interval", dc->interval, "Seconds per sample (dmon -d in ms / 1000)")
      ->capture_default_str();
  c->callback([dc] {
    const auto m = maybe_machine(*dc);
    if (!m)
      throw InputError(
          "import dcgm: the activity ratios need the GPU's peaks: give --hw NAME or "
          "--machine FILE");
    DcgmOptions o;
    o.interval_seconds = dc->interval;
    render(*dc, import_dcgm(read_text_file(dc->file), dc->file, m->roofs, o).result, m, "dcgm");
  });
});

}  // namespace
}  // namespace roofline::cli
