// roofline llm: a transformer's inference operators on a machine's roofs (docs/llm.md) — per
// operator W, Q, I, bound and time; TTFT, time per token, tokens/s; memory; the critical batch;
// MFU from a measured throughput; sweeps over batch × context; --report draws the operators (or
// the sweep's decode points) on the machine's roofline.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

#include "commands.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

/// What refuse_non_finite says of an LLM result that is no number, and where it may come from.
const std::string kNonFinite =
    "roofline llm (check the roofs and --interconnect-bandwidth, --link-latency, --dp, "
    "--measured-tokens-per-s)";

struct LlmArgs {
  std::string model;
  MachineOptions machine;
  std::string phase = "decode";
  std::string batch = "1";
  std::string context = "2048";
  std::string prompt;
  std::string wdtype, adtype, kvdtype, cdtype;
  int tp = 1;
  bool flash = false;               // --flash: the default, named (kept for scripts)
  std::string attention = "fused";  // --attention fused|unfused
  std::string interconnect;
  std::string measured;  // --measured-tokens-per-s, checked in parse_measured
  bool list = false;
  bool json = false;
  bool csv = false;
  std::string output;
  std::string report;  // --report FILE: the chart/report (format by extension)
  // Parallelism beyond TP, links
  bool ep = false;
  int cp = 1, pp = 1;
  double micro_batches = 0, dp = 1;
  std::string link_latency, domain_size;
  std::string mla = "auto";
  // The whole request, serving
  double output_tokens = 0, chunk = 0;
  double concurrency = 0, max_batched_tokens = 0, num_requests = 0;
  std::string requests;
  // Speculative decoding
  double spec_k = 0, spec_alpha = 0.8;
  int draft_tp = 0;
  std::string draft;
  // Cost
  std::string price;  // one value, or NAME=VALUE per machine
  double power_w = 0;
  bool cost = false;
  // Training
  bool train = false;
  double seq = 4096, micro_batch = 1, global_batch = 0;
  std::string recompute = "none";
  int zero = 0;
  bool sequence_parallel = false;
  double measured_step_s = 0;
  // Calibration
  std::string attainment, calibrate;
  std::vector<std::string> given;  ///< the options on the command line (given_options)
};

/// A flag of one mode given in the other would be ignored without a word: refused, named.
void check_mode_flags(const LlmArgs& a) {
  static const std::vector<std::string> training = {
      "--seq",  "--micro-batch",       "--global-batch",   "--recompute",
      "--zero", "--sequence-parallel", "--measured-step-s"};
  static const std::vector<std::string> inference = {
      "--phase",         "--batch",         "--context",
      "--prompt",        "--output-tokens", "--chunk",
      "--concurrency",   "--requests",      "--max-batched-tokens",
      "--num-requests",  "--spec-k",        "--spec-alpha",
      "--draft",         "--draft-tp",      "--measured-tokens-per-s",
      "--micro-batches", "--cost",          "--price-per-hour",
      "--power-w"};
  const auto& other = a.train ? inference : training;
  for (const auto& name : a.given)
    if (std::find(other.begin(), other.end(), name) != other.end())
      throw InputError(name + (a.train ? " is for inference; with --train give the step's "
                                         "--seq, --micro-batch and --global-batch"
                                       : " is for --train (a training step); inference takes "
                                         "--batch, --context and --prompt"));
}

bool wants_serving(const LlmArgs& a);

bool flag_given(const LlmArgs& a, const char* name) {
  return std::find(a.given.begin(), a.given.end(), name) != a.given.end();
}

/// A flag that only means something with another would be ignored without it: refused, naming
/// both.
void check_flag_needs(const LlmArgs& a) {
  // A count given is checked as the Python package checks it (llm::check_count): 0 is refused,
  // never read as the flag left out.
  if (flag_given(a, "--output-tokens"))
    llm::check_count(a.output_tokens, llm::kMostOutputTokens, "--output-tokens");
  if (flag_given(a, "--concurrency"))
    llm::check_count(a.concurrency, llm::kMostConcurrency, "--concurrency");
  if (flag_given(a, "--spec-k")) llm::check_count(a.spec_k, llm::kMostDraftedTokens, "--spec-k");
  const auto needs = [&](const char* flag, bool enabled, const std::string& what) {
    if (flag_given(a, flag) && !enabled) throw InputError(std::string(flag) + " " + what);
  };
  needs("--chunk", a.output_tokens > 0,
        "cuts the request's prefill into chunks: it needs --output-tokens (-N) (serving chunks "
        "prompts with --max-batched-tokens)");
  needs("--spec-alpha", a.spec_k > 0,
        "is speculative decoding's acceptance rate: it needs --spec-k");
  needs("--draft", a.spec_k > 0,
        "names speculative decoding's drafter: it needs --spec-k (the tokens drafted per step)");
  needs("--draft-tp", a.spec_k > 0,
        "is the drafter's tensor parallelism: it needs --spec-k and --draft MODEL");
  const std::string serving = "is for serving: it needs --concurrency or --requests";
  needs("--num-requests", wants_serving(a), serving);
  needs("--max-batched-tokens", wants_serving(a), serving);
}

// --measured-tokens-per-s: absent, or a finite number > 0 (0, a negative or a non-number is an
// input error, not "no measurement").
std::optional<double> parse_measured(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::optional<double> v = decimal_number(text);
  if (!v)
    throw InputError("--measured-tokens-per-s: must be a number of tokens per second > 0 (got '" +
                     terminal_safe(text) + "')");
  return llm::check_measured_tokens_per_s(*v);
}

void warn_llm(const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) say("roofline llm: warning: " + w + "\n");
}

void check_paths(const LlmArgs& a) {
  // The model's config.json and a machine document are inputs no output may replace.
  for (const std::string& in : {a.model, a.machine.machine}) declare_input(in);
  if (!a.output.empty() && a.output != "-") {
    check_text_output(a.output, {true, a.csv, true, "the operator table or the sweep"});
    check_writable_path(a.output, "-o");
  }
  if (!a.report.empty()) {
    try {
      check_report_path(a.report);
    } catch (const InputError& e) {
      throw InputError("--report " + std::string(e.what()));
    }
    check_outputs({{"-o", a.output}, {"--report", a.report}});
  }
}

/// The chart of `points`, with what the text warns of (`warnings`) and the points whose
/// configuration does not fit in memory (`over_memory`), as the text says them (docs/llm.md).
void write_llm_report(const LlmArgs& a, const MachineDocument& machine, const llm::Roofs& roofs,
                      std::string title, std::vector<Point> points,
                      std::vector<std::string> warnings,
                      std::map<std::size_t, std::string> over_memory) {
  if (a.report.empty()) return;
  ReportInput in;
  in.title = std::move(title);
  in.machines.push_back(machine);
  in.machines.back().roofs = llm::roofs_as_judged(machine.roofs, roofs);
  in.points = std::move(points);
  in.warnings = std::move(warnings);
  in.does_not_fit = std::move(over_memory);
  write_report(a.report, in);
}

void list_models(const LlmArgs& a) {
  if (a.json) {
    emit(json_text(llm::models_to_json(llm::presets())) + "\n", a.output);
    return;
  }
  emit(llm::render_presets_text(llm::presets()), a.output);
}

// The machines a --hw value names: one, or a comma list to compare (a path containing a comma
// is still one machine).
std::vector<std::string> machine_names(const MachineOptions& o) {
  std::vector<std::string> out;
  std::error_code ec;
  if (o.machine.find(',') == std::string::npos || std::filesystem::exists(o.machine, ec))
    return {o.machine};
  std::size_t start = 0;
  while (start <= o.machine.size()) {
    const auto comma = o.machine.find(',', start);
    out.push_back(o.machine.substr(start, comma == std::string::npos ? comma : comma - start));
    if (out.back().empty()) throw InputError("--hw: empty machine name in '" + o.machine + "'");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

struct LlmSetup {
  std::string given;  ///< the machine as given to --hw (a catalogue name or alias, a file)
  llm::ModelConfig model;
  llm::Scenario scenario;
  MachineDocument machine;
  llm::Roofs roofs;
};

// Fused attention unless --attention unfused: the fused form moves the least (no score matrix
// through memory, masked pairs skipped), so it is the bound any engine's kernels are held to.
bool attention_fused(const LlmArgs& a) {
  if (a.attention != "fused" && a.attention != "unfused")
    throw InputError("--attention: expected fused or unfused (got '" + a.attention + "')");
  if (a.flash && a.attention == "unfused")
    throw InputError("--flash (fused attention) and --attention unfused: give one");
  return a.attention == "fused";
}

// The flags of the scenario, parsed; llm::setup checks their values.
llm::SetupOptions setup_options(const LlmArgs& a) {
  llm::check_dp(a.dp);
  llm::SetupOptions o;
  o.tp = a.tp;
  o.ep = a.ep;
  o.cp = a.cp;
  o.pp = a.pp;
  o.micro_batches = a.micro_batches;
  o.dp_uses_interconnect = a.train && a.dp > 1;
  o.flash = attention_fused(a);
  o.mla = a.mla;
  o.weights = a.wdtype;
  o.activations = a.adtype;
  o.kv_cache = a.kvdtype;
  o.compute = a.cdtype;
  if (!a.interconnect.empty())
    o.interconnect = parse<ByteRate>(a.interconnect, "--interconnect-bandwidth");
  if (!a.link_latency.empty()) o.link_latency = parse<Seconds>(a.link_latency, "--link-latency");
  if (!a.domain_size.empty()) {
    const auto d = llm::parse_int_list(a.domain_size, "--domain-size");
    if (d.size() != 1) throw InputError("--domain-size: one number of devices");
    o.domain_size = d.front();
  }
  if (!a.attainment.empty() && !a.calibrate.empty())
    throw InputError("give --attainment or --calibrate, not both");
  if (!a.attainment.empty()) o.attainment = llm::parse_attainment(a.attainment);
  if (!a.calibrate.empty()) {
    const MachineDocument doc = load_machine_file(a.calibrate);
    llm::calibrate_with(o, doc.roofs, machine_facts(doc), a.calibrate);
  }
  return o;
}

bool is_dtype(const std::string& name) {
  try {
    parse_dtype(name);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// The machine one name gives and the scenario on it.
LlmSetup setup_for(const LlmArgs& a, const llm::ModelConfig& model, const std::string& name) {
  const llm::SetupOptions options = setup_options(a);
  LlmSetup st;
  st.given = name;
  st.model = model;
  MachineOptions mo = a.machine;
  mo.machine = name;
  // Roofs given as --peak/--bandwidth are the compute type's: an integer --cdtype's peak counts
  // OP/s, as `kernel --dtype int8 --peak` and `point --precision int8 --peak` read it.
  // (A --cdtype that is no type is left to the scenario's check, which names --cdtype.)
  if (name.empty() && mo.precision.empty() && is_dtype(a.cdtype)) mo.precision = a.cdtype;
  mo.precision_flag = "--cdtype";  // llm has no --precision
  st.machine = load_machine(mo);
  llm::Setup s = llm::setup(st.machine.roofs, machine_facts(st.machine), options);
  st.scenario = s.scenario;
  st.roofs = std::move(s.roofs);
  return st;
}

double single_length(const std::string& text, const char* flag) {
  const auto v = llm::parse_int_list(text, flag);
  if (v.size() != 1)
    throw InputError(std::string(flag) + ": one length, not a list (got '" + text + "')");
  return v.front();
}

bool wants_serving(const LlmArgs& a) {
  return a.concurrency > 0 || !a.requests.empty();
}
bool wants_speculative(const LlmArgs& a) {
  return a.spec_k > 0;
}
bool wants_cost(const LlmArgs& a) {
  return a.cost || !a.price.empty() || a.power_w > 0;
}

llm::ServingOptions serving_options(const LlmArgs& a, const llm::Scenario& s) {
  llm::ServingOptions o;
  o.concurrency = a.concurrency > 0 ? a.concurrency : s.batch;
  o.max_batched_tokens = a.max_batched_tokens;
  o.total_requests = a.num_requests;
  if (!a.requests.empty())
    o.requests = llm::parse_requests(a.requests, "--requests");
  else
    o.requests = {{s.prompt, a.output_tokens > 0 ? a.output_tokens : 128}};
  return o;
}

llm::SpeculativeOptions speculative_options(const LlmArgs& a) {
  llm::SpeculativeOptions o;
  o.k = a.spec_k;
  o.alpha = a.spec_alpha;
  if (flag_given(a, "--draft-tp")) o.draft_tp = a.draft_tp;
  if (a.draft == "mtp")
    o.mtp = true;
  else if (!a.draft.empty())
    o.draft_model = llm::resolve_model(a.draft, "--draft");
  else
    throw InputError("--spec-k needs a drafter: --draft MODEL|config.json, or --draft mtp");
  return o;
}

// The extra sections of one (batch, context) report, in text and JSON.
struct Sections {
  std::string text;
  nlohmann::json json = nlohmann::json::object();
  std::vector<std::string> warnings;
};

// A section's result as its text shows it: without the warnings the step's report above it
// already says (each result carries its step's; its JSON keeps them all).
template <class Result>
Result unsaid(Result res, const llm::Report& rep) {
  std::erase_if(res.warnings, [&](const std::string& w) {
    return std::find(rep.warnings.begin(), rep.warnings.end(), w) != rep.warnings.end();
  });
  return res;
}

Sections extra_sections(const LlmArgs& a, const LlmSetup& st, const llm::Report& rep) {
  Sections out;
  const llm::Scenario& s = st.scenario;
  std::optional<llm::RequestTiming> request;
  std::optional<llm::ServingResult> serving;
  std::optional<llm::SpeculativeResult> speculative;
  if (a.output_tokens > 0) {
    request = llm::request_timing(st.model, s, a.output_tokens, st.roofs, a.chunk);
    out.text += llm::render_request_text(unsaid(*request, rep));
    out.json["request"] = llm::request_to_json(*request);
    out.warnings.insert(out.warnings.end(), request->warnings.begin(), request->warnings.end());
  }
  if (wants_serving(a)) {
    serving = llm::simulate_serving(st.model, s, serving_options(a, s), st.roofs);
    out.text += llm::render_serving_text(unsaid(*serving, rep));
    out.json["serving"] = llm::serving_to_json(*serving);
    out.warnings.insert(out.warnings.end(), serving->warnings.begin(), serving->warnings.end());
  }
  if (wants_speculative(a)) {
    speculative = llm::speculative_decoding(st.model, s, speculative_options(a), st.roofs);
    out.text += llm::render_speculative_text(unsaid(*speculative, rep), st.roofs);
    out.json["speculative"] = llm::speculative_to_json(*speculative);
    out.warnings.insert(out.warnings.end(), speculative->warnings.begin(),
                        speculative->warnings.end());
  }
  const llm::ThroughputBasis basis = llm::throughput_basis(
      rep.tokens_per_s, request ? &*request : nullptr, serving ? &*serving : nullptr,
      speculative ? &*speculative : nullptr, a.dp);
  if (const auto dp = llm::data_parallel_summary(s, a.dp, basis)) {
    out.text += llm::render_data_parallel_text(*dp);
    out.json["data_parallel"] = llm::data_parallel_to_json(*dp);
  }
  if (wants_cost(a)) {
    llm::DevicePower power = llm::device_power(machine_facts(st.machine));
    if (a.power_w > 0) power = {a.power_w, "--power-w"};
    llm::PriceList prices = llm::PriceList::parse(a.price);
    const auto price = prices.of(st.given, st.roofs.machine, st.machine.origin);
    prices.check_all_used({st.given.empty() ? st.roofs.machine : st.given});
    const llm::TokenCost c = llm::basis_cost(basis, s, a.dp, price, power, st.roofs.machine);
    out.text += llm::render_cost_text(c, llm::cost_basis_label(basis.what, a.dp));
    out.json["cost"] = llm::cost_to_json(c);
  }
  return out;
}

void run_training(const LlmArgs& a, const LlmSetup& st) {
  llm::TrainingOptions o;
  o.sequence = a.seq;
  o.micro_batch = a.micro_batch;
  o.global_batch = a.global_batch;
  o.dp = a.dp;
  o.recompute = llm::parse_recompute(a.recompute);
  o.zero = a.zero;
  o.sequence_parallel = a.sequence_parallel;
  if (a.measured_step_s > 0) o.measured_step_s = a.measured_step_s;
  const llm::TrainingResult t = llm::training_step(st.model, st.scenario, o, st.roofs);
  const nlohmann::json doc = llm::training_document(t, st.model, st.roofs);
  refuse_non_finite(doc, kNonFinite);
  if (a.json)
    emit(json_text(doc) + "\n", a.output);
  else
    emit(llm::render_training_text(t, st.model, st.roofs), a.output);
}

// --hw a,b,c: one row per machine at the same (batch, context): latency, throughput, memory,
// and cost side by side.
void run_compare(const LlmArgs& a, const llm::ModelConfig& model,
                 const std::vector<std::string>& names) {
  const auto batch = llm::parse_int_list(a.batch, "--batch");
  const auto context = llm::parse_int_list(a.context, "--context");
  if (batch.size() != 1 || context.size() != 1)
    throw InputError("--hw with several machines compares one --batch and one --context");
  std::vector<llm::MachineComparison> rows;
  llm::PriceList prices = llm::PriceList::parse(a.price);
  // Machines of one document name told apart in the table (their file names, else as given).
  const std::vector<MachineDocument> machines =
      resolve_machines(names, a.machine.hw_dir, "llm --hw");
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    LlmSetup st = setup_for(a, model, name);
    st.scenario.batch = batch.front();
    st.scenario.context = context.front();
    st.scenario.prompt =
        a.prompt.empty() ? st.scenario.context : single_length(a.prompt, "--prompt");
    llm::CompareOptions o;
    o.output_tokens = a.output_tokens;
    o.chunk = a.chunk;
    o.dp = a.dp;
    o.price_per_hour = prices.of(st.given, st.roofs.machine, st.machine.origin);
    if (a.power_w > 0) o.power_w = a.power_w;
    st.roofs.machine = machines[i].roofs.name;
    rows.push_back(
        llm::compare_on(model, llm::Setup{st.scenario, st.roofs}, machine_facts(st.machine), o));
  }
  prices.check_all_used(names);
  const nlohmann::json doc = llm::comparison_document(model, batch.front(), context.front(), rows);
  refuse_non_finite(doc, kNonFinite);
  if (a.json) {
    warn_llm(llm::comparison_notes(rows));
    emit(json_text(doc) + "\n", a.output);
  } else {
    emit(llm::render_comparison_text(model, batch.front(), context.front(), a.output_tokens, rows),
         a.output);
  }
}

/// One batch and one context: the operators, the summary and the sections the flags ask for
/// (the whole request, serving, speculative decoding, cost), as text, JSON or CSV.
void run_single(const LlmArgs& a, const llm::ModelConfig& model, llm::Phase phase, LlmSetup& st,
                double batch, double context, double prompt) {
  llm::Scenario& s = st.scenario;
  const llm::Roofs& roofs = st.roofs;
  const MachineDocument& machine = st.machine;
  const std::optional<double> measured = parse_measured(a.measured);
  s.batch = batch;
  s.context = context;
  s.prompt = prompt > 0 ? prompt : s.context;
  llm::AnalyseOptions options;
  options.measured_tokens_per_s = measured;
  options.replicas = a.dp;  // the measured rate is of all replicas, as the "in all" line's
  options.prefill_chunk = a.output_tokens > 0 ? a.chunk : 0;  // the request's prefill
  const llm::Report r = llm::analyse(model, s, phase, roofs, options);
  const Sections extra = a.csv ? Sections{} : extra_sections(a, st, r);
  nlohmann::json j = llm::to_json(r);
  for (auto it = extra.json.begin(); it != extra.json.end(); ++it) j[it.key()] = it.value();
  // Checked before anything is written: the text, CSV and chart show the same numbers.
  refuse_non_finite(j, kNonFinite);
  // Warnings are part of the text report; elsewhere (JSON, CSV, a file) they also go to stderr.
  if (a.json || a.csv || !(a.output.empty() || a.output == "-"))
    warn_llm(llm::report_warnings(r, extra.warnings));
  write_llm_report(a, machine, roofs, llm::chart_title(r), llm::to_points(r), r.warnings,
                   llm::points_over_memory(r));
  if (a.json) {
    emit(json_text(j) + "\n", a.output);
  } else if (a.csv) {
    emit(llm::operators_csv(r), a.output);
  } else {
    emit(llm::render_report_text(r, extra.text), a.output);
  }
}

/// Several batches or contexts: one decode step per (batch, context).
void run_sweep(const LlmArgs& a, const llm::ModelConfig& model, LlmSetup& st,
               const std::vector<double>& batches, const std::vector<double>& contexts,
               double prompt) {
  llm::Scenario& s = st.scenario;
  const llm::Roofs& roofs = st.roofs;
  const MachineDocument& machine = st.machine;
  if (!a.measured.empty())
    throw InputError("--measured-tokens-per-s needs one --batch and one --context");
  if (a.output_tokens > 0 || wants_serving(a) || wants_speculative(a) || wants_cost(a))
    throw InputError(
        "--output-tokens, --concurrency, --spec-k and the cost flags need one --batch and one "
        "--context");
  // A sweep gives each row's TTFT and decode step of one replica: a --phase (which operator
  // table) or --dp (replicas) would be ignored, so they are refused (docs/llm.md).
  if (flag_given(a, "--phase"))
    throw InputError(
        "--phase picks the operator table of one (batch, context); a sweep gives each row's "
        "TTFT and decode step: give one --batch and one --context");
  if (a.dp > 1)
    throw InputError(
        "--dp multiplies one (batch, context)'s throughput; a sweep's tokens/s are of one "
        "replica: give one --batch and one --context, or leave --dp out");
  s.prompt = prompt;  // ≤ 0: each row's prompt is its context
  const auto rows = llm::sweep(model, s, batches, contexts, roofs);
  // Checked before anything is written, row by row: the document is never one JSON tree.
  std::string json;
  if (a.json)
    json = llm::sweep_json_text(rows, model, s, roofs, kNonFinite);
  else
    llm::refuse_non_finite_sweep(rows, model, s, roofs, kNonFinite);
  warn_llm(llm::sweep_estimate_warnings(rows, model, s, roofs));
  // The chart says them too, and which rows do not fit (the table's "fits no").
  write_llm_report(a, machine, roofs, llm::sweep_chart_title(model, roofs),
                   llm::sweep_points(rows, roofs), llm::sweep_chart_warnings(rows, model, s, roofs),
                   llm::sweep_points_over_memory(rows, roofs));
  if (a.json)
    emit(json, a.output);
  else if (a.csv)
    emit(llm::sweep_csv(rows, roofs), a.output);
  else
    emit(llm::render_sweep_text(rows, model, roofs, s), a.output);
}

void run(const LlmArgs& a) {
  check_paths(a);
  if (a.list) {
    if (!a.report.empty()) throw InputError("--report draws a model on a machine; not with --list");
    // Flags are refused rather than ignored: --list takes only its output's.
    std::string others;
    for (const auto& g : a.given)
      if (g != "--list" && g != "--json" && g != "--output")
        others += (others.empty() ? "" : ", ") + g;
    if (!others.empty())
      throw InputError("--list lists the model presets and takes only --json and -o; not " +
                       others);
    return list_models(a);
  }
  check_mode_flags(a);
  check_flag_needs(a);
  if (a.json && a.csv)
    throw InputError("give --json or --csv, not both (an -o name ending .json asks for JSON)");
  if (a.model.empty()) throw InputError("--model is required (a preset or a config.json; --list)");
  if (!has_machine(a.machine))
    throw InputError("roofs needed: give --hw NAME|machine.json, or --peak and --bandwidth");
  const llm::ModelConfig model = llm::resolve_model(a.model);
  const llm::Phase phase = llm::parse_phase(a.phase);
  const auto names = machine_names(a.machine);
  if (names.size() > 1) {
    if (!a.report.empty() || a.csv || a.train)
      throw InputError("--hw with several machines gives a comparison table (text or --json)");
    if (flag_given(a, "--phase"))
      throw InputError(
          "--phase picks the operator table of one machine; --hw with several "
          "machines gives a comparison table of both phases");
    // The comparison is of one decode step (and a request with -N) per machine: serving,
    // speculative decoding and a measured rate are of one machine.
    if (wants_serving(a) || wants_speculative(a) || !a.measured.empty())
      throw InputError(
          "--concurrency, --requests, --spec-k and --measured-tokens-per-s are of one machine; "
          "--hw with several machines compares their decode steps (and requests with -N)");
    return run_compare(a, model, names);
  }
  LlmSetup st = setup_for(a, model, names.front());
  if (a.train) {
    if (!a.report.empty() || a.csv) throw InputError("--train gives text or --json");
    return run_training(a, st);
  }
  const auto batches = llm::parse_int_list(a.batch, "--batch");
  const auto contexts = llm::parse_int_list(a.context, "--context");
  const double prompt = a.prompt.empty() ? 0 : single_length(a.prompt, "--prompt");
  if (batches.size() == 1 && contexts.size() == 1)
    return run_single(a, model, phase, st, batches.front(), contexts.front(), prompt);
  run_sweep(a, model, st, batches, contexts, prompt);
}

// The model, the machine, the batch and context, the dtypes, tensor parallelism.
void add_model_flags(CLI::App* c, LlmArgs* args) {
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
  c->add_option("--batch,-b", args->batch,
                "Batch B: 8, 1..256 (powers of two) or 1,8,64; whole numbers 1 to 1e9");
  c->add_option("--context,-L", args->context,
                "Context L of a decode step (tokens in the KV cache): 2048, 512..8192 or "
                "512,1024; whole numbers 1 to 1e9");
  c->add_option("--prompt,-S", args->prompt, "Prompt length S of prefill (default: the context)");
  c->add_option("--wdtype", args->wdtype,
                "Weight dtype (default: the machine's 16-bit float, fp16 or bf16; int4/int8 = "
                "weight-only)");
  c->add_option("--adtype", args->adtype, "Activation dtype (default: weights', fp16 if integer)");
  c->add_option("--kvdtype", args->kvdtype, "KV-cache dtype (default: activations')");
  c->add_option("--cdtype", args->cdtype,
                "Compute dtype, whose roof is used (default: activations')");
  c->add_option("--tp", args->tp, "Tensor-parallel degree (W and Q per device, plus all-reduces)");
  c->add_option("--attention", args->attention,
                "fused (the default: FlashAttention-style, scores stay on chip, masked pairs "
                "skipped) or unfused (q·kᵀ, softmax and p·v through memory, every pair)")
      ->capture_default_str();
  // --flash=false read as the default, fused: refused (use --attention unfused).
  c->add_flag("--flash", args->flash, "Fused attention (the default; as --attention fused)")
      ->disable_flag_override();
  c->add_option("--interconnect-bandwidth", args->interconnect,
                "Interconnect bandwidth for --tp, both directions as datasheets give it (NVLink 3: "
                "600 GB/s); default: the machine's \"interconnect\" roof");
  c->add_option("--measured-tokens-per-s", args->measured,
                "Measured throughput of the shown phase, of all --dp replicas together (as "
                "the \"tokens/s in all\" line): gives MFU and bandwidth utilisation");
  c->add_option("--mla", args->mla,
                "Multi-head latent attention form: auto (naive prefill, absorbed decode), "
                "absorbed, naive");
}

// Parallelism beyond tensor parallelism.
void add_parallelism_flags(CLI::App* c, LlmArgs* args) {
  c->add_flag("--ep", args->ep, "Expert parallelism over the --tp group (all-to-all dispatch)");
  c->add_option("--cp", args->cp, "Context-parallel degree (ring attention, split KV cache)");
  c->add_option("--pp", args->pp, "Pipeline stages (layers split; GPipe bubbles)");
  c->add_option("--micro-batches", args->micro_batches,
                "Micro-batches through the pipeline (default: min(stages, batch))");
  c->add_option("--dp", args->dp, "Data-parallel replicas (throughput, cost; training)");
  c->add_option("--link-latency", args->link_latency,
                "Per-message interconnect latency α (\"3 us\"); default: the catalogue's");
  c->add_option("--domain-size", args->domain_size,
                "Devices per NVLink domain (default: the catalogue's)");
}

// The whole request, serving, speculative decoding and cost.
void add_request_flags(CLI::App* c, LlmArgs* args) {
  // The whole request and serving.
  c->add_option("--output-tokens,-N", args->output_tokens,
                "Tokens to generate: end-to-end latency of the request (TTFT + Σ decode steps)");
  c->add_option("--chunk", args->chunk, "Chunked prefill of the request: tokens per chunk")
      ->check(positive_number());
  c->add_option("--concurrency", args->concurrency,
                "Serve at this concurrency (continuous batching, closed loop)");
  c->add_option("--requests", args->requests,
                "Serving workload PROMPT:OUTPUT[,PROMPT:OUTPUT...] (default: --prompt and "
                "--output-tokens, 128 output tokens without it)");
  c->add_option("--max-batched-tokens", args->max_batched_tokens,
                "Token budget per step: chunked prefill mixed with decode (default: no chunking)")
      ->check(positive_number());
  c->add_option("--num-requests", args->num_requests,
                "Requests to simulate (default: max(8 × concurrency, the --requests pairs))")
      ->check(positive_number());
  // Speculative decoding.
  c->add_option("--spec-k", args->spec_k, "Speculative decoding: tokens drafted per step");
  c->add_option("--spec-alpha", args->spec_alpha, "Speculative decoding: acceptance rate α");
  c->add_option("--draft", args->draft, "Draft model (preset or config.json), or mtp");
  c->add_option("--draft-tp", args->draft_tp,
                "The drafter's tensor parallelism, 1 to --tp (default: --tp)");
  // Cost.
  c->add_option("--price-per-hour", args->price,
                "Dollars per device-hour (or NAME=PRICE,... per machine): $/M tokens");
  c->add_option("--power-w", args->power_w,
                "Watts per device (default: the catalogue's power figure)")
      ->check(positive_number());
  c->add_flag("--cost", args->cost, "Cost section: J/token (and $/M tokens with a price)");
}

// Training.
void add_training_flags(CLI::App* c, LlmArgs* args) {
  c->add_flag("--train", args->train, "A training step instead of inference");
  c->add_option("--seq", args->seq, "Training: tokens per sequence (default 4096)");
  c->add_option("--micro-batch", args->micro_batch, "Training: sequences per device per step");
  c->add_option("--global-batch", args->global_batch,
                "Training: sequences per optimizer step (default micro-batch × dp)")
      ->check(positive_number());
  c->add_option("--recompute", args->recompute, "Training: none, selective or full");
  c->add_option("--zero", args->zero, "Training: ZeRO stage 0-3");
  c->add_flag("--sequence-parallel", args->sequence_parallel, "Training: sequence parallelism");
  c->add_option("--measured-step-s", args->measured_step_s,
                "Training: a measured step time, for measured MFU and HFU")
      ->check(positive_number());
}

// Calibration and output.
void add_output_flags(CLI::App* c, LlmArgs* args) {
  // Calibration.
  c->add_option("--attainment", args->attainment,
                "Scale the roofs: compute=F,memory=F[,interconnect=F] (measured ÷ datasheet)");
  c->add_option("--calibrate", args->calibrate,
                "A measured machine document: scale the roofs by its attainment");
  c->add_flag("--json", args->json, "Machine-readable output");
  c->add_flag("--csv", args->csv, "CSV: the operator table, or the sweep");
  json_by_extension(
      c->add_option("-o,--output", args->output,
                    "Write the text, --json or --csv output to a file (atomically; a name ending "
                    ".json gets the --json form); charts: --report"),
      args->json);
  c->add_option("--report", args->report,
                "Also write the roofline chart of the operators (a sweep: its decode points): "
                ".html .svg .png .json .csv (by extension)");
}

const Registrar register_llm(60, [](CLI::App& root) {
  auto args = std::make_shared<LlmArgs>();
  CLI::App* c = root.add_subcommand(
      "llm",
      "LLM inference on the roofline: per-operator W, Q, I and time for prefill and decode, "
      "TTFT, tokens/s, memory, critical batch");
  add_model_flags(c, args.get());
  add_parallelism_flags(c, args.get());
  add_request_flags(c, args.get());
  add_training_flags(c, args.get());
  add_output_flags(c, args.get());
  c->callback([args, c] {
    args->given = given_options(*c);
    run(*args);
  });
});

}  // namespace
}  // namespace roofline::cli
