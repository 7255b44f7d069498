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
  if (json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& s : kernel_catalogue())
      j.push_back({{"name", s.name},
                   {"aliases", s.aliases},
                   {"params", s.params},
                   {"default_dtype", s.default_dtype},
                   {"description", s.description}});
    emit(j.dump(2) + "\n", output);
    return;
  }
  Table t({"kernel", "sizes", "dtype", "what"});
  for (const auto& s : kernel_catalogue()) {
    std::string params;
    for (const auto& p : s.params) params += (params.empty() ? "--" : " --") + p;
    for (const auto& [p, _] : s.defaults) params += " [--" + p + "]";
    t.add_row({s.name, params, s.default_dtype, s.description});
  }
  emit(t.render(), output);
}

void run(const KernelArgs& a) {
  if (!a.report.empty()) check_report_path(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}});
  if (a.name == "list") return list_kernels(a.json, a.output);
  const KernelSpec& spec = find_kernel(a.name);
  // The alias can carry the dtype (saxpy = fp32, daxpy = fp64, haxpy = fp16).
  std::string dtype_name = a.dtype;
  if (dtype_name.empty()) {
    const char first = a.name.empty() ? ' ' : static_cast<char>(std::tolower(a.name[0]));
    const bool alias = a.name != spec.name;
    if (alias && first == 'd')
      dtype_name = "fp64";
    else if (alias && first == 's')
      dtype_name = "fp32";
    else if (alias && first == 'h')
      dtype_name = "fp16";
    else
      dtype_name = spec.default_dtype;
  }
  const DataType t = parse_dtype(dtype_name);
  std::map<std::string, double> params;
  for (const auto& p : spec.params) {
    auto it = a.sizes.find(p);
    if (it == a.sizes.end() || it->second.empty())
      throw InputError("kernel " + spec.name + ": --" + p + " is required");
    params[p] =
        parse_quantity(it->second, p == "cache" ? Dimension::bytes : Dimension::count, "--" + p);
  }
  for (const auto& [p, def] : spec.defaults) {
    auto it = a.sizes.find(p);
    params[p] = (it == a.sizes.end() || it->second.empty())
                    ? def
                    : parse_quantity(it->second, p == "cache" ? Dimension::bytes : Dimension::count,
                                     "--" + p);
  }
  for (const auto& [p, v] : a.sizes) {
    if (!v.empty() && !params.count(p))
      throw InputError("kernel " + spec.name + " takes no --" + p);
  }
  const KernelCount k = spec.count(params, t);
  UnitSystem u;
  u.work = k.integer ? "OP" : "FLOP";
  nlohmann::json j = kernel_count_to_json(k);
  j["dtype"] = t.name;
  j["params"] = params;
  std::string text = render_kernel_count(k, u);
  if (has_machine(a.machine)) {
    MachineOptions mo = a.machine;
    if (mo.precision.empty()) mo.precision = t.name;
    MachineDocument m = load_machine(mo);
    const ComputeRoof& c = m.roofs.select_compute(mo.precision);
    const MemoryRoof& mem = m.roofs.select_memory(mo.level);
    const Intensity i = k.intensity();
    const WorkRate att = attainable(c.peak, mem.bandwidth, i);
    const Intensity rdg = ridge(c.peak, mem.bandwidth);
    const Seconds tb = time_bound(k.work, k.traffic, c.peak, mem.bandwidth);
    const Seconds tn = time_no_overlap(k.work, k.traffic, c.peak, mem.bandwidth);
    const bool memory = i < rdg;
    j["machine"] = {{"name", m.roofs.name},
                    {"compute_roof", c.name},
                    {"memory_level", mem.level},
                    {"ridge", rdg.value},
                    {"bound", memory ? "memory" : "compute"},
                    {"attainable", att.value},
                    {"time_bound", tb.value},
                    {"time_no_overlap", tn.value}};
    text += "on " + m.roofs.name + " (" + c.name + " " + format_work_rate(c.peak, u) + ", " +
            mem.level + " " + format_byte_rate(mem.bandwidth, u) + "):\n";
    text += "  ridge I* = " + format_intensity(rdg, u) + " ⇒ " +
            (memory ? "memory-bound (left of the ridge)" : "compute-bound (right of the ridge)") +
            "\n";
    text += "  attainable P = min(π, β·I) = " + format_work_rate(att, u) + "\n";
    text += "  predicted time ≥ max(W/π, Q/β) = " + format_seconds(tb) +
            " (no overlap: W/π + Q/β = " + format_seconds(tn) + ")\n";
    if (!a.report.empty()) {
      ReportInput in;
      in.title = k.kernel + " (" + t.name + ") on " + m.roofs.name;
      in.machines.push_back(m);
      in.workload_line = i;
      in.no_overlap_curve = true;
      write_report(a.report, in);
    }
  } else if (!a.report.empty()) {
    throw InputError("--report needs roofs: give --machine/--hw or --peak and --bandwidth");
  }
  emit(a.json ? j.dump(2) + "\n" : text, a.output);
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
