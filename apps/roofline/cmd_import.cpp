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

#include "commands.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/strings.hpp"
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

void render(const ImportArgs& a, ImportResult res, const std::optional<MachineDocument>& m,
            const std::string& tool) {
  const std::string files = join(a.files);
  // An import is asked for points: none is an error (exit 2, nothing written).
  require_import_points(res, files);
  // Every point as `point` and `plot` will read it back: a name on one line, W, Q, T and their
  // ratios numbers (a 1e-300 s duration would print P = inf), with or without a machine.
  require_valid_points(res.doc, files);
  // Per point: judged against the machine's roofs, or (no roof for the unit it ran on) only
  // listed — a tensor kernel held against the fp32 roof would read as impossible.
  const RoofSet* roofs = m ? &m->roofs : nullptr;
  const JudgedPoints fit = judge_import(res, roofs, a.machine.precision);
  if (a.json) {
    emit(import_json_text(res, tool, a.files, roofs, fit), a.output);
    return;
  }
  const bool color = a.output.empty() && color_stdout();
  emit(render_import_text(tool, a.files, res.doc.points, res.notes, roofs, fit, color), a.output);
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
    // No machine given: judged against the roofs the report itself describes, if any.
    if (!m) m = machine_from_export_roofs(res);
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
