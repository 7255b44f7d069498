// roofline kernel: hand-counted W, compulsory Q and I of catalogue kernels (docs/model.md §3), and
// — given roofs — the bound, attainable P and predicted time.
#include <map>
#include <set>

#include "commands.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/kernels.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct KernelArgs {
  std::string name;
  std::map<std::string, std::string> sizes;
  std::string dtype;
  MachineOptions machine;
  bool json = false;
  std::string output;
  std::string report;  // --report FILE: the machine's roofs with a line at the kernel's I
};

void list_kernels(bool json, const std::string& output) {
  if (json)
    emit(json_text(kernel_catalogue_to_json(kernel_catalogue())) + "\n", output);
  else
    emit(render_kernel_catalogue(kernel_catalogue()), output);
}

void run(const KernelArgs& a) {
  if (!a.report.empty()) check_report_path(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, {a.machine.machine});
  if (a.name == "list") return list_kernels(a.json, a.output);
  const KernelRequest req = kernel_request(a.name, a.dtype, a.sizes);
  const DataType& t = req.dtype;
  const KernelCount k = req.spec->count(req.params, t);
  UnitSystem u;
  u.work = k.integer ? "OP" : "FLOP";
  if (!has_machine(a.machine) && (!a.machine.precision.empty() || !a.machine.level.empty()))
    throw InputError(std::string(a.machine.precision.empty() ? "--level" : "--precision") +
                     ": names a roof to place the kernel on, and no roofs are given (--hw NAME, "
                     "--machine FILE, or --peak and --bandwidth)");
  if (!has_machine(a.machine)) {
    if (!a.report.empty())
      throw InputError("--report needs roofs: give --machine/--hw or --peak and --bandwidth");
    emit(a.json ? json_text(kernel_result_to_json(k, t.name, req.params)) + "\n"
                : render_kernel_result(k, u, std::nullopt),
         a.output);
    return;
  }
  MachineOptions mo = a.machine;
  if (mo.precision.empty()) {
    mo.precision = t.name;
    mo.precision_flag = "--dtype";  // named as given, in load_machine's messages
  }
  const MachineDocument m = load_machine(mo);
  const KernelOnMachine placed = place_kernel(m.roofs, k, t, a.machine.precision, mo.level);
  std::string text = render_kernel_result(k, u, placed);
  if (!a.report.empty()) {
    const ReportInput in = kernel_report_input(k, t.name, m, placed.on, mo.level);
    text += kernel_report_text(in);
    write_report(a.report, in);
  }
  emit(a.json ? json_text(kernel_result_to_json(k, t.name, req.params, placed)) + "\n" : text,
       a.output);
}

const Registrar register_kernel(30, [](CLI::App& root) {
  auto args = std::make_shared<KernelArgs>();
  CLI::App* c = root.add_subcommand(
      "kernel", "Hand-counted W, compulsory Q and I of a kernel (`roofline kernel list`)");
  c->add_option("name", args->name, "Kernel name or alias, or `list`")->required();
  std::set<std::string> all;
  for (const auto& s : kernel_catalogue()) {
    for (const auto& p : s.params) all.insert(p);
    for (const auto& [p, _] : s.defaults) all.insert(p);
  }
  for (const auto& p : all)
    c->add_option("--" + p, args->sizes[p], "Size parameter " + p + " (e.g. 1e6, 4M)");
  c->add_option("--dtype", args->dtype, "Data type: fp64 fp32 tf32 fp16 bf16 fp8 int8 int4 ...");
  add_machine_options(*c, args->machine);
  add_output_options(*c, args->json, args->output);
  c->add_option("--report", args->report,
                "Write a chart of the roofs with a line at the kernel's I (.svg .html .png ...)");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
