// roofline llm: a transformer's inference operators on a machine's roofs (DIGEST §5) — per
// operator W, Q, I, bound and time; TTFT, time per token, tokens/s; memory; the critical batch;
// MFU from a measured throughput; sweeps over batch × context; --report draws the operators (or
// the sweep's decode points) on the machine's roofline.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct LlmArgs {
  std::string model;
  MachineOptions machine;
  std::string phase = "decode";
  std::string batch = "1";
  std::string context = "2048";
  std::string prompt;
  std::string wdtype, adtype, kvdtype, cdtype;
  int tp = 1;
  bool flash = false;
  std::string interconnect;
  std::string measured;  // --measured-tokens-per-s, checked in parse_measured
  bool list = false;
  bool json = false;
  bool csv = false;
  std::string output;
  std::string report;  // --report FILE: the chart/report (format by extension)
};

std::string extension_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// Charts -o must not take (write_report picks the format by extension).
bool chart_format(const std::string& ext) {
  return ext == ".html" || ext == ".htm" || ext == ".svg" || ext == ".png";
}

// --measured-tokens-per-s: absent, or a finite number > 0 (0, a negative or a non-number is an
// input error, not "no measurement").
std::optional<double> parse_measured(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const char* b = text.c_str();
  char* e = nullptr;
  const double v = std::strtod(b, &e);
  if (e == b || *e != '\0' || !std::isfinite(v) || !(v > 0))
    throw InputError("--measured-tokens-per-s: must be a number of tokens per second > 0 (got '" +
                     text + "')");
  return v;
}

void warn(const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) std::fprintf(stderr, "roofline llm: warning: %s\n", w.c_str());
}

void check_paths(const LlmArgs& a) {
  if (!a.output.empty() && a.output != "-") {
    const std::string ext = extension_of(a.output);
    // -o takes the text, --json or --csv output; a chart written there would be plain text in a
    // file named .svg, so it is refused and the right flag named.
    if (chart_format(ext))
      throw InputError("-o " + a.output + ": -o writes the text, --json or --csv output, not a " +
                       "chart; for the " + ext.substr(1) + " report give --report " + a.output);
    check_writable_path(a.output, "-o");
  }
  if (!a.report.empty()) {
    try {
      check_report_path(a.report);
    } catch (const InputError& e) {
      throw InputError("--report " + std::string(e.what()));
    }
    if (!a.output.empty() && std::filesystem::path(a.output) == std::filesystem::path(a.report))
      throw InputError("--report and -o name the same file (" + a.report + ")");
  }
}

// The machine as the report draws it: the roofs the model was judged against are the defaults
// (the compute dtype's flat roof and the default memory level, so the primary ridge is π/β of
// the model), and an --interconnect-bandwidth override becomes an interconnect roof.
MachineDocument report_machine(MachineDocument m, const llm::Roofs& r) {
  m.roofs.default_compute = r.compute_name;
  m.roofs.default_memory = r.memory_level;
  if (r.interconnect && !m.roofs.find_memory(r.interconnect_name)) {
    MemoryRoof ic;
    ic.level = r.interconnect_name;
    ic.kind = "interconnect";
    ic.bandwidth = *r.interconnect;
    ic.source = "--interconnect-bandwidth";
    m.roofs.memory.push_back(ic);
  }
  return m;
}

void write_llm_report(const LlmArgs& a, const MachineDocument& machine, const llm::Roofs& roofs,
                      std::string title, std::vector<Point> points) {
  if (a.report.empty()) return;
  ReportInput in;
  in.title = std::move(title);
  in.machines.push_back(report_machine(machine, roofs));
  in.points = std::move(points);
  write_report(a.report, in);
}

void list_models(const LlmArgs& a) {
  if (a.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& m : llm::presets()) j.push_back(llm::model_to_json(m));
    emit(j.dump(2) + "\n", a.output);
    return;
  }
  Table t({"preset", "parameters", "layers", "hidden", "heads", "kv heads", "mlp", "source"});
  for (const auto& m : llm::presets())
    t.add_row({m.name, format_si(llm::count_parameters(m).total, ""), format_number(m.layers),
               format_number(m.hidden), format_number(m.heads), format_number(m.kv_heads),
               m.moe()
                   ? format_number(m.experts) + " experts × " + format_number(m.expert_intermediate)
                   : format_number(m.intermediate),
               m.source});
  emit(t.render(), a.output);
}

void run(const LlmArgs& a) {
  check_paths(a);
  if (a.list) {
    if (!a.report.empty()) throw InputError("--report draws a model on a machine; not with --list");
    return list_models(a);
  }
  if (a.json && a.csv) throw InputError("give --json or --csv, not both");
  if (a.model.empty()) throw InputError("--model is required (a preset or a config.json; --list)");
  if (!has_machine(a.machine))
    throw InputError("roofs needed: give --hw NAME|machine.json, or --peak and --bandwidth");
  const llm::ModelConfig model = llm::resolve_model(a.model);
  const llm::Phase phase = llm::parse_phase(a.phase);
  llm::Scenario s;
  s.tp = a.tp;
  s.flash = a.flash;
  s.dtypes = llm::make_dtypes(a.wdtype, a.adtype, a.kvdtype, a.cdtype);
  const auto batches = llm::parse_int_list(a.batch, "--batch");
  const auto contexts = llm::parse_int_list(a.context, "--context");
  double prompt = 0;
  if (!a.prompt.empty()) {
    const auto p = llm::parse_int_list(a.prompt, "--prompt");
    if (p.size() != 1)
      throw InputError("--prompt: one length, not a list (got '" + a.prompt + "')");
    prompt = p.front();
  }
  std::optional<ByteRate> interconnect;
  if (!a.interconnect.empty()) {
    interconnect =
        ByteRate(quantity(a.interconnect, Dimension::byte_rate, "--interconnect-bandwidth"));
    if (interconnect->value <= 0)
      throw InputError("--interconnect-bandwidth: must be > 0 (got '" + a.interconnect + "')");
  }
  const std::optional<double> measured = parse_measured(a.measured);
  const MachineDocument machine = load_machine(a.machine);
  const llm::Roofs roofs = llm::select_roofs(machine.roofs, s.dtypes.compute, interconnect);

  if (batches.size() == 1 && contexts.size() == 1) {
    s.batch = batches.front();
    s.context = contexts.front();
    s.prompt = prompt > 0 ? prompt : s.context;
    const llm::Report r = llm::analyse(model, s, phase, roofs, measured);
    // Warnings are part of the text report; elsewhere (JSON, CSV, a file) they also go to stderr.
    if (a.json || a.csv || !(a.output.empty() || a.output == "-")) warn(r.warnings);
    write_llm_report(a, machine, roofs,
                     model.name + " on " + roofs.machine + ": " + llm::to_string(phase) +
                         " operators, batch " + format_number(s.batch) + ", context " +
                         format_number(s.context) + ", prompt " + format_number(s.prompt),
                     llm::to_points(r));
    if (a.json)
      emit(llm::to_json(r).dump(2) + "\n", a.output);
    else if (a.csv)
      emit(llm::operators_csv(r), a.output);
    else
      emit(llm::render_text(r), a.output);
    return;
  }
  if (measured) throw InputError("--measured-tokens-per-s needs one --batch and one --context");
  s.prompt = prompt;  // ≤ 0: each row's prompt is its context
  const auto rows = llm::sweep(model, s, batches, contexts, roofs);
  llm::Scenario longest = s;
  longest.context = *std::max_element(contexts.begin(), contexts.end());
  warn(llm::scenario_warnings(model, longest));
  write_llm_report(a, machine, roofs,
                   model.name + " on " + roofs.machine + ": decode step per (batch, context)",
                   llm::sweep_points(rows, roofs));
  if (a.json)
    emit(llm::sweep_to_json(rows, model, s, roofs).dump(2) + "\n", a.output);
  else if (a.csv)
    emit(llm::sweep_csv(rows), a.output);
  else
    emit(llm::render_sweep_text(rows, model, roofs), a.output);
}

const Registrar reg(60, [](CLI::App& root) {
  auto args = std::make_shared<LlmArgs>();
  CLI::App* c = root.add_subcommand(
      "llm",
      "LLM inference on the roofline: per-operator W, Q, I and time for prefill and decode, "
      "TTFT, tokens/s, memory, critical batch");
  c->add_option(
      "--model,-m", args->model,
      "Preset (llama-2-7b, llama-3-70b, mixtral-8x7b, ...; --list) or a Hugging Face config.json");
  c->add_flag("--list", args->list, "List the built-in model presets");
  c->add_option("--machine,--hw", args->machine.machine,
                "Machine document or hardware catalogue name");
  c->add_option("--hw-dir", args->machine.hw_dir, "Extra hardware catalogue directory");
  c->add_option("--peak", args->machine.peak, "Peak π of the compute dtype instead of a machine");
  c->add_option("--bandwidth", args->machine.bandwidth, "Memory bandwidth β instead of a machine");
  c->add_option("--phase", args->phase,
                "Operator table to show: prefill or decode (default decode)");
  c->add_option("--batch,-b", args->batch, "Batch B: 8, 1..256 (powers of two) or 1,8,64");
  c->add_option("--context,-L", args->context,
                "Context L of a decode step (tokens in the KV cache): 2048, 512..8192 or 512,1024");
  c->add_option("--prompt,-S", args->prompt, "Prompt length S of prefill (default: the context)");
  c->add_option("--wdtype", args->wdtype, "Weight dtype (default fp16; int4/int8 = weight-only)");
  c->add_option("--adtype", args->adtype, "Activation dtype (default: weights', fp16 if integer)");
  c->add_option("--kvdtype", args->kvdtype, "KV-cache dtype (default: activations')");
  c->add_option("--cdtype", args->cdtype,
                "Compute dtype, whose roof is used (default: activations')");
  c->add_option("--tp", args->tp, "Tensor-parallel degree (W and Q per device, plus all-reduces)");
  c->add_flag("--flash", args->flash, "Fused (FlashAttention-style) attention: no score traffic");
  c->add_option("--interconnect-bandwidth", args->interconnect,
                "Interconnect bandwidth for --tp, both directions as datasheets give it (NVLink 3: "
                "600 GB/s); default: the machine's \"interconnect\" roof");
  c->add_option("--measured-tokens-per-s", args->measured,
                "Measured throughput: gives MFU and bandwidth utilisation");
  c->add_flag("--json", args->json, "Machine-readable output");
  c->add_flag("--csv", args->csv, "CSV: the operator table, or the sweep");
  c->add_option("-o,--output", args->output,
                "Write the text, --json or --csv output to a file (atomically); charts: --report");
  c->add_option("--report", args->report,
                "Also write the roofline chart of the operators (a sweep: its decode points): "
                ".html .svg .png .json .csv (by extension)");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
