// roofline.llm (llm.hpp): a transformer's operators on a machine's roofs — prefill, decode,
// TTFT, time per token — the analysis `roofline llm` prints.
#include <pybind11/stl.h>

#include <set>
#include <utility>

#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "common.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::python {

/// A model argument: a roofline.llm.Model, or what llm.model() takes (a preset name, a
/// config.json's path or its folder: a str or an os.PathLike), as --model takes them; anything
/// else a TypeError naming the parameter ("model: expected ...").
struct ModelArg {
  llm::ModelConfig value;
  operator const llm::ModelConfig&() const { return value; }  // NOLINT
};

}  // namespace roofline::python

namespace pybind11::detail {
template <>
struct type_caster<roofline::python::ModelArg> {
  PYBIND11_TYPE_CASTER(roofline::python::ModelArg, const_name("Union[Model, str, os.PathLike]"));
  bool load(handle src, bool convert) {
    return load_object_or_name(
        src, convert, "model", "a roofline.llm.Model, a preset name or a config.json's path",
        value.value, [](const std::string& p) { return roofline::llm::resolve_model(p, "model"); });
  }
  static handle cast(const roofline::python::ModelArg& m, return_value_policy policy,
                     handle parent) {
    return make_caster<roofline::llm::ModelConfig>::cast(m.value, policy, parent);
  }
};
}  // namespace pybind11::detail

namespace roofline::python {

namespace {

/// A batch, context or prompt length checked as the CLI checks its flags (a whole number from
/// 1 to 1e9, llm::parse_int_list), with the same message. A count the library holds to fewer
/// (output_tokens, concurrency, k) is checked by llm::check_count, as the CLI checks it.
double whole(double v, const char* what) {
  if (!std::isfinite(v))
    throw InputError(std::string(what) + ": must be a whole number (got " + format_number(v) + ")");
  return llm::parse_int_list(printf_g(v, 17), what).front();
}

struct LlmReport {
  llm::Report r;
  MachineDocument machine;
  double dp = 1;  ///< data-parallel replicas (the CLI's --dp)
};

/// Speculative decoding's and a training step's results, with the units of the compute roof
/// they were judged on (Roofs::units, the CLI's JSON `units`): on an integer compute type the
/// verification's intensity counts OP/byte and 6·N·D counts OP.
struct SpeculativeOnRoofs : llm::SpeculativeResult {
  UnitSystem units;
};
struct TrainingOnRoofs : llm::TrainingResult {
  UnitSystem units;
};

/// The replicas' section of `roofline llm --dp`, from the functions the CLI's comes from
/// (analyse is at decode: no request, serving or speculative section chooses another
/// throughput); none with one replica.
std::optional<llm::DataParallelSummary> data_parallel(const llm::Report& r, double dp) {
  return llm::data_parallel_summary(
      r.scenario, dp, llm::throughput_basis(r.tokens_per_s, nullptr, nullptr, nullptr, dp));
}

/// The report as `roofline llm --json` writes it for the same flags: with dp > 1 its
/// `data_parallel` section.
nlohmann::json report_json(const llm::Report& r, double dp) {
  nlohmann::json j = llm::to_json(r);
  if (const auto d = data_parallel(r, dp)) j["data_parallel"] = llm::data_parallel_to_json(*d);
  return j;
}

/// The report as `roofline llm` prints it for the same flags: with dp > 1 its "Data parallel"
/// line after the report (render_data_parallel_text).
std::string report_text(const llm::Report& r, double dp) {
  std::string text = llm::render_text(r);
  if (const auto d = data_parallel(r, dp)) text += llm::render_data_parallel_text(*d);
  return text;
}

/// A number that must be finite and > 0 (or ≥ 0 with `zero_ok`), named as the keyword.
double positive(double v, const char* what, bool zero_ok = false) {
  if (!std::isfinite(v) || !(zero_ok ? v >= 0 : v > 0))
    throw InputError(std::string(what) + ": must be " + (zero_ok ? "≥ 0" : "> 0") +
                     " and finite (got " + format_number(v) + ")");
  return v;
}

constexpr const char* kMessagesDoc =
    "as to_dict()'s, with the parameters named as Python names them (link_latency_s, not "
    "--link-latency)";

/// A result's warnings or notes as Python says them (python_message: "pp 3 does not divide",
/// not "--pp 3"); to_dict() keeps the CLI's JSON text.
std::vector<std::string> python_messages(const std::vector<std::string>& messages) {
  std::vector<std::string> out;
  out.reserve(messages.size());
  for (const auto& m : messages) out.push_back(python_message(m));
  return out;
}

/// A keyword's value as T, or a TypeError naming the keyword and what it takes.
template <class T>
T keyword(const py::handle& v, const char* key, const char* takes) {
  auto wrong_type = [&] {
    return py::type_error(std::string(key) + ": expected " + takes + " (got " +
                          std::string(py::str(py::type::handle_of(v).attr("__name__"))) + ")");
  };
  if constexpr (std::is_same_v<T, bool>) {
    // True or False only (is_bool): pybind's own bool read 0.5 and 2 as True.
    if (!is_bool(v)) throw wrong_type();
    return v.cast<Bool>().value;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!py::isinstance<py::str>(v)) throw wrong_type();
    return text_value(v, key);  // a lone surrogate: the InputError naming the keyword
  } else if constexpr (std::is_same_v<T, int>) {
    // A count is an integer (is_integer): pybind's own int took True as 1 and cut 2.7 to 2.
    if (!is_integer(v)) throw wrong_type();
    if (const auto n = int_value(v, key)) return *n;
    // An int too large for a C int is a value out of range, not a type error.
    throw InputError(std::string(key) + ": " + int_text(v) + " is out of range (at most " +
                     std::to_string(std::numeric_limits<int>::max()) + ")");
  } else if constexpr (std::is_same_v<T, Real>) {
    // Read by the one reader of a number, naming the keyword and the value given (10**400,
    // Decimal("1e400"), a numpy array).
    if (!is_real(v)) throw wrong_type();
    return Real{real_value(v, key)};
  } else {
    try {
      return v.cast<T>();
    } catch (const py::cast_error&) {
      throw wrong_type();
    }
  }
}

/// The scenario keywords every function shares — tp, ep, cp, pp, micro_batches, flash, mla,
/// the dtypes, interconnect_byte_per_s, link_latency_s, domain_size, attainment, calibrate —
/// as llm::SetupOptions (the flags of `roofline llm`); llm::setup checks the values. An
/// unknown keyword is a TypeError, as Python's own functions give.
llm::SetupOptions setup_options(const py::kwargs& kw, const char* function) {
  static const std::set<std::string> kNoneAllowed = {"interconnect_byte_per_s", "link_latency_s",
                                                     "domain_size", "attainment", "calibrate"};
  static const std::set<std::string> kKnown = {"tp",
                                               "ep",
                                               "cp",
                                               "pp",
                                               "micro_batches",
                                               "flash",
                                               "mla",
                                               "weights",
                                               "activations",
                                               "kv_cache",
                                               "compute",
                                               "interconnect_byte_per_s",
                                               "link_latency_s",
                                               "domain_size",
                                               "attainment",
                                               "calibrate"};
  llm::SetupOptions o;
  for (const auto& [k, v] : kw) {
    const std::string key = text_value(k, std::string(function) + "(): a keyword's name");
    if (!kKnown.count(key))
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" +
                           terminal_safe(key) + "'");
    if (v.is_none() && !kNoneAllowed.count(key))
      throw py::type_error(key + ": None is not a value here");
    if (key == "tp")
      o.tp = keyword<int>(v, "tp", "an int");
    else if (key == "ep")
      o.ep = keyword<bool>(v, "ep", "a bool");
    else if (key == "cp")
      o.cp = keyword<int>(v, "cp", "an int");
    else if (key == "pp")
      o.pp = keyword<int>(v, "pp", "an int");
    else if (key == "micro_batches")
      o.micro_batches = keyword<Real>(v, "micro_batches", "a number");
    else if (key == "flash")
      o.flash = keyword<bool>(v, "flash", "a bool");
    else if (key == "mla")
      o.mla = keyword<std::string>(v, "mla", "'auto', 'absorbed' or 'naive'");
    else if (key == "weights")
      o.weights = keyword<std::string>(v, "weights", "a dtype name");
    else if (key == "activations")
      o.activations = keyword<std::string>(v, "activations", "a dtype name");
    else if (key == "kv_cache")
      o.kv_cache = keyword<std::string>(v, "kv_cache", "a dtype name");
    else if (key == "compute")
      o.compute = keyword<std::string>(v, "compute", "a dtype name");
    else if (key == "interconnect_byte_per_s") {
      if (!v.is_none()) o.interconnect = ByteRate(keyword<Real>(v, key.c_str(), "a number"));
    } else if (key == "link_latency_s") {
      if (!v.is_none()) o.link_latency = Seconds(keyword<Real>(v, key.c_str(), "a number"));
    } else if (key == "domain_size") {
      if (!v.is_none()) o.domain_size = keyword<Real>(v, key.c_str(), "a number");
    } else if (key == "attainment") {
      if (!v.is_none())
        o.attainment = llm::parse_attainment(
            keyword<std::string>(v, key.c_str(), "a str such as 'compute=0.7,memory=0.85'"));
    } else if (key == "calibrate") {
      if (py::isinstance<Machine>(v)) {
        const MachineDocument& d = v.cast<const Machine&>().doc;
        llm::calibrate_with(o, d.roofs, machine_facts(d),
                            d.origin.empty() ? d.roofs.name : d.origin);
      } else if (!v.is_none()) {
        // A path: a str or an os.PathLike (pathlib.Path), as Machine.load takes it.
        const std::optional<std::string> path = path_arg(v, key);
        if (!path)
          throw py::type_error(key + ": expected a roofline.Machine or a machine file's path (a " +
                               "str or an os.PathLike; got " +
                               std::string(py::str(py::type::handle_of(v).attr("__name__"))) + ")");
        const MachineDocument d = load_machine_file(*path);
        llm::calibrate_with(o, d.roofs, machine_facts(d), *path);
      }
    } else {
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" + key +
                           "'");
    }
  }
  return o;
}

/// The scenario on a machine, as `roofline llm` sets it up from the same flags.
llm::Setup setup(const Machine& machine, const py::kwargs& kw, const char* function,
                 bool dp_uses_interconnect = false) {
  llm::SetupOptions o = setup_options(kw, function);
  o.dp_uses_interconnect = dp_uses_interconnect;
  return llm::setup(machine.doc.roofs, machine_facts(machine.doc), o);
}

/// A result refused as `roofline llm` refuses it when its JSON would hold an inf or a nan (a
/// sequence of 1e300 tokens): the roofs or options are beyond what the model computes.
template <class T, class Json>
T finite(T result, Json to_json, const char* function) {
  refuse_non_finite(to_json(result), std::string("roofline.llm.") + function);
  return result;
}

LlmReport analyse(const ModelArg& model_arg, const MachineArg<"machine">& machine_arg,
                  RealArg<"batch"> batch, RealArg<"context"> context,
                  std::optional<RealArg<"prompt">> prompt, const TextArg<"phase">& phase,
                  std::optional<RealArg<"measured_tokens_per_s">> measured, RealArg<"dp"> dp,
                  RealArg<"chunk"> chunk, const py::kwargs& kw) {
  const llm::ModelConfig& model = model_arg;
  const Machine& machine = machine_arg;
  llm::AnalyseOptions o;
  if (measured)
    o.measured_tokens_per_s = llm::check_measured_tokens_per_s(*measured);  // the CLI's check
  // As --dp and --chunk: replicas a whole number ≥ 1 (the measured rate is theirs together),
  // the prefill's chunk a whole number of tokens (0: in one step).
  llm::check_dp(dp);
  o.replicas = dp;
  o.prefill_chunk = llm::check_chunk(chunk);
  llm::Setup st = setup(machine, kw, "analyse");
  st.scenario.batch = whole(batch, "batch");
  st.scenario.context = whole(context, "context");
  st.scenario.prompt = prompt ? whole(*prompt, "prompt") : st.scenario.context;
  return LlmReport{finite(
                       llm::analyse(model, st.scenario, llm::parse_phase(phase), st.roofs, o),
                       [&](const llm::Report& r) { return report_json(r, dp); }, "analyse"),
                   machine.doc, dp};
}

llm::RequestTiming request(const ModelArg& model, const MachineArg<"machine">& machine,
                           RealArg<"output_tokens"> output_tokens, RealArg<"batch"> batch,
                           RealArg<"prompt"> prompt, RealArg<"chunk"> chunk, const py::kwargs& kw) {
  llm::Setup st = setup(machine, kw, "request");
  st.scenario.batch = whole(batch, "batch");
  st.scenario.context = st.scenario.prompt = whole(prompt, "prompt");
  return finite(llm::request_timing(
                    model, st.scenario,
                    llm::check_count(output_tokens, llm::kMostOutputTokens, "--output-tokens"),
                    st.roofs, llm::check_chunk(chunk)),
                llm::request_to_json, "request");
}

/// serve()'s requests: a list (or another iterable, not a str) of (prompt, output) pairs, each
/// a sequence of two numbers; anything else a TypeError naming `requests` or the pair's place
/// ("requests[0]: expected a (prompt, output) pair of numbers (got tuple of 1)").
std::vector<std::pair<double, double>> request_pairs(const py::object& given) {
  auto type_of = [](const py::handle& v) {
    return std::string(py::str(py::type::handle_of(v).attr("__name__")));
  };
  if (py::isinstance<py::str>(given) || py::isinstance<py::bytes>(given) ||
      py::isinstance<py::dict>(given) || !py::hasattr(given, "__iter__"))
    throw py::type_error("requests: expected a list of (prompt, output) pairs (got " +
                         type_of(given) + ")");
  std::vector<std::pair<double, double>> out;
  for (const py::handle item : given) {
    const std::string at = "requests[" + std::to_string(out.size()) + "]";
    const bool sequence = PySequence_Check(item.ptr()) && !py::isinstance<py::str>(item) &&
                          !py::isinstance<py::bytes>(item);
    const Py_ssize_t n = sequence ? PySequence_Size(item.ptr()) : -1;
    if (n < 0) PyErr_Clear();
    if (n != 2)
      throw py::type_error(at + ": expected a (prompt, output) pair of numbers (got " +
                           type_of(item) + (n >= 0 ? " of " + std::to_string(n) : "") + ")");
    const py::sequence pair = py::reinterpret_borrow<py::sequence>(item);
    double v[2];
    for (int i = 0; i < 2; ++i) {
      const py::object x = pair[static_cast<std::size_t>(i)];
      const std::string what = at + (i == 0 ? ": prompt" : ": output");
      if (!is_real(x)) throw py::type_error(what + ": expected a number (got " + type_of(x) + ")");
      v[i] = real_value(x, what);
    }
    out.emplace_back(v[0], v[1]);
  }
  return out;
}

llm::ServingResult serve(const ModelArg& model, const MachineArg<"machine">& machine,
                         RealArg<"concurrency"> concurrency, const py::object& requests_given,
                         RealArg<"max_batched_tokens"> max_batched_tokens,
                         RealArg<"total_requests"> total_requests, const py::kwargs& kw) {
  const std::vector<std::pair<double, double>> requests = request_pairs(requests_given);
  if (requests.empty()) throw InputError("requests: give at least one (prompt, output) pair");
  llm::ServingOptions o;
  o.concurrency = llm::check_count(concurrency, llm::kMostConcurrency, "--concurrency");
  o.max_batched_tokens = positive(max_batched_tokens, "max_batched_tokens", true);
  o.total_requests = positive(total_requests, "total_requests", true);
  for (const auto& [prompt, output] : requests)
    o.requests.push_back({whole(prompt, "requests: prompt"), whole(output, "requests: output")});
  // Each request sets its own batch, prompt and context (simulate_serving); the rest of the
  // scenario is the CLI's defaults.
  const llm::Setup st = setup(machine, kw, "serve");
  return finite(llm::simulate_serving(model, st.scenario, o, st.roofs), llm::serving_to_json,
                "serve");
}

SpeculativeOnRoofs speculative(const ModelArg& model, const MachineArg<"machine">& machine,
                               py::object draft, RealArg<"k"> k, RealArg<"alpha"> alpha,
                               RealArg<"batch"> batch, RealArg<"context"> context,
                               std::optional<IntArg<"draft_tp">> draft_tp, const py::kwargs& kw) {
  llm::SpeculativeOptions o;
  o.k = llm::check_count(k, llm::kMostDraftedTokens, "--spec-k");
  // An int, as tp is; 1 … tp is checked by speculative_decoding, with the CLI's message.
  if (draft_tp) o.draft_tp = draft_tp->value;
  o.alpha = alpha;
  if (py::isinstance<py::str>(draft) && draft.cast<std::string>() == "mtp")
    o.mtp = true;
  else if (py::isinstance<llm::ModelConfig>(draft))
    o.draft_model = draft.cast<llm::ModelConfig>();
  else if (auto path = draft.is_none() ? std::nullopt : path_arg(draft, "draft"))
    o.draft_model = llm::resolve_model(*path, "draft");  // a preset or a config, as --draft
  else
    throw InputError(
        "draft: a roofline.llm.Model, a preset name or a config.json's path, or 'mtp' (the "
        "target's own MTP modules)");
  llm::Setup st = setup(machine, kw, "speculative");
  st.scenario.batch = whole(batch, "batch");
  st.scenario.context = st.scenario.prompt = whole(context, "context");
  llm::SpeculativeResult res = finite(llm::speculative_decoding(model, st.scenario, o, st.roofs),
                                      llm::speculative_to_json, "speculative");
  // The library's warnings (a drafter of another vocabulary) are said, as the CLI says them on
  // stderr, and kept in .warnings (as the CLI's JSON holds them); python -W error turns them
  // into errors. Said with the Python parameters' names, as an error is (python_message).
  for (const auto& w : res.warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, ("roofline.llm.speculative: " + python_message(w)).c_str(),
                     1) < 0)
      throw py::error_already_set();
  return SpeculativeOnRoofs{std::move(res), st.roofs.units};
}

TrainingOnRoofs train(const ModelArg& model, const MachineArg<"machine">& machine,
                      RealArg<"sequence"> sequence, RealArg<"micro_batch"> micro_batch,
                      RealArg<"global_batch"> global_batch, RealArg<"dp"> dp,
                      const TextArg<"recompute">& recompute, IntArg<"zero"> zero,
                      BoolArg<"sequence_parallel"> sequence_parallel,
                      std::optional<RealArg<"measured_step_s">> measured_step_s,
                      const py::kwargs& kw) {
  llm::TrainingOptions o;
  o.sequence = sequence;
  o.micro_batch = micro_batch;
  o.global_batch = global_batch;
  o.dp = dp;
  o.recompute = llm::parse_recompute(recompute);
  o.zero = zero;
  o.sequence_parallel = sequence_parallel;
  if (measured_step_s) o.measured_step_s = positive(*measured_step_s, "measured_step_s");
  // As `roofline llm --train`: the scenario's batch and context are the CLI's defaults; the
  // training options carry the sequence and batches.
  const llm::Setup st = setup(machine, kw, "train", o.dp > 1);
  return TrainingOnRoofs{
      finite(llm::training_step(model, st.scenario, o, st.roofs), llm::training_to_json, "train"),
      st.roofs.units};
}

/// compare's price_per_hour: one price for every device, or a dict of prices by machine name
/// (as --price-per-hour NAME=PRICE,...), read into the CLI's llm::PriceList.
llm::PriceList price_list(const py::object& price_per_hour) {
  llm::PriceList prices;
  if (py::isinstance<py::dict>(price_per_hour)) {
    for (const auto& item : price_per_hour.cast<py::dict>()) {
      const std::string key = py::isinstance<py::str>(item.first)
                                  ? text_value(item.first, "price_per_hour: a machine's name")
                                  : std::string(py::str(item.first));
      prices.add(key, positive(keyword<Real>(item.second, "price_per_hour", "a number"),
                               "price_per_hour", true));
    }
  } else if (!price_per_hour.is_none()) {
    prices.set_all(
        positive(keyword<Real>(price_per_hour, "price_per_hour", "a number or a dict by machine"),
                 "price_per_hour", true));
  }
  return prices;
}

/// `roofline llm --hw a,b,c --json`'s "machines": one row per machine at one (batch, context).
py::list compare(const ModelArg& model, const py::object& machines_given, RealArg<"batch"> batch,
                 RealArg<"context"> context, std::optional<RealArg<"prompt">> prompt,
                 RealArg<"output_tokens"> output_tokens, RealArg<"chunk"> chunk, RealArg<"dp"> dp,
                 py::object price_per_hour, std::optional<RealArg<"power_w">> power_w,
                 const py::kwargs& kw) {
  // A list of machines, each read as every machine argument is, named by its place.
  const std::vector<Machine> machines = machines_arg(machines_given, "machines");
  if (machines.empty()) throw InputError("machines: give at least one");
  // Each machine named as it was given (a catalogue name, alias or path), as the CLI names what
  // --hw was given: in the refusal of one machine twice and in a price by name. Machines of one
  // document name (one machine measured before and after a change) are told apart in the rows
  // as `roofline llm --hw a,b` tells them (name_machines_apart: "vm (m1.json)").
  std::vector<std::string> given;
  std::vector<std::string> as_given;  // "" for a Machine not asked by name (distinct_machines)
  std::vector<MachineDocument> apart;
  for (const Machine& m : machines) {
    given.push_back(m.given.empty() ? m.doc.roofs.name : m.given);
    as_given.push_back(m.given);
    apart.push_back(m.doc);
  }
  {
    std::vector<const MachineDocument*> docs;
    for (const MachineDocument& d : apart) docs.push_back(&d);
    refuse_one_machine_twice(given, docs, "compare: machines");
  }
  distinct_machines(apart, as_given, "compare: machines");
  llm::check_dp(dp);
  llm::CompareOptions o;
  o.output_tokens = output_tokens == 0 ? 0
                                       : llm::check_count(output_tokens, llm::kMostOutputTokens,
                                                          "--output-tokens");
  o.chunk = positive(chunk, "chunk", true);
  o.dp = dp;
  if (power_w) o.power_w = positive(*power_w, "power_w");
  llm::PriceList prices = price_list(price_per_hour);
  py::list rows;
  for (size_t i = 0; i < machines.size(); ++i) {
    const Machine& machine = machines[i];
    llm::Setup st = setup(machine, kw, "compare");
    st.scenario.batch = whole(batch, "batch");
    st.scenario.context = whole(context, "context");
    st.scenario.prompt = prompt ? whole(*prompt, "prompt") : st.scenario.context;
    // As given, by the document's name or the catalogue's (as --price-per-hour NAME=PRICE,...).
    o.price_per_hour = prices.of(machine.given, st.roofs.machine, machine.doc.origin);
    st.roofs.machine = apart[i].roofs.name;
    llm::MachineComparison c = llm::compare_on(model, st, machine_facts(machine.doc), o);
    // A row is Python's result, not to_dict(): its messages name Python's parameters.
    c.warnings = python_messages(c.warnings);
    c.cost.notes = python_messages(c.cost.notes);
    if (c.request) c.request->warnings = python_messages(c.request->warnings);
    const nlohmann::json row = llm::comparison_to_json(c);
    refuse_non_finite(row, "roofline.llm.compare");
    rows.append(json_to_python(row));
  }
  // A price under a name that is no machine's would be silently left out ("no price given").
  prices.check_all_used(given);
  return rows;
}

llm::TokenCost cost(RealArg<"tokens_per_s"> tokens_per_s, const MachineArg<"machine">& machine_arg,
                    RealArg<"devices"> devices,
                    std::optional<RealArg<"price_per_hour">> price_per_hour,
                    std::optional<RealArg<"power_w">> power_w) {
  const Machine& machine = machine_arg;
  llm::DevicePower power = llm::device_power(machine_facts(machine.doc));
  if (power_w) power = {positive(*power_w, "power_w"), "--power-w"};
  if (price_per_hour) positive(*price_per_hour, "price_per_hour", true);
  return finite(
      llm::token_cost(positive(tokens_per_s, "tokens_per_s"), positive(devices, "devices"),
                      price_per_hour, power, machine.doc.roofs.name),
      llm::cost_to_json, "cost");
}

/// A list attribute of messages (`warnings`, `notes`), translated by python_messages.
template <class T, class Of>
void add_messages(py::class_<T>& c, const char* name, std::vector<std::string> Of::*member,
                  const char* doc) {
  c.def_property_readonly(
      name, [member](const T& x) { return python_messages(x.*member); }, doc);
}

/// `to_dict()` of a result type: the CLI's JSON object for it (its `repr` is its own).
template <class T, class Json>
void add_dict(py::class_<T>& c, Json to_json) {
  c.def(
      "to_dict", [to_json](const T& x) { return json_to_python(to_json(x)); },
      "The same object as the section of `roofline llm --json`.");
}

}  // namespace

/// The keywords every scenario function takes (setup_options), for the docstrings.
#define ROOFLINE_LLM_SCENARIO_DOC                                                         \
  "\n\nScenario keywords (the flags of `roofline llm`): tp=1, ep=False, cp=1, pp=1, "     \
  "micro_batches=0, flash=True (fused attention; False: unfused), mla='auto', "           \
  "weights/activations/kv_cache/compute='' (dtype "                                       \
  "names; '' = derived as the CLI does: weights in the machine's native 16-bit type), "   \
  "interconnect_byte_per_s=None, link_latency_s=None, domain_size=None, attainment=None " \
  "('compute=0.7,memory=0.85'), calibrate=None (a measured roofline.Machine or its file)."
namespace {

void register_model(py::module_& m) {
  py::class_<llm::ModelConfig>(m, "Model", "The shape of a decoder-only transformer.")
      .def_readonly("model_type", &llm::ModelConfig::model_type)
      // A model named by its folder, and the file it was read from, as the str the user gave
      // (os.fsdecode's: a folder os.fsdecode(b"mod\xe9") is no UTF-8).
      .def_property_readonly("name", [](const llm::ModelConfig& c) { return fs_text(c.name); })
      .def_property_readonly("origin", [](const llm::ModelConfig& c) { return fs_text(c.origin); })
      .def_property_readonly("source", [](const llm::ModelConfig& c) { return fs_text(c.source); })
      .def_readonly("hidden", &llm::ModelConfig::hidden)
      .def_readonly("heads", &llm::ModelConfig::heads)
      .def_readonly("kv_heads", &llm::ModelConfig::kv_heads)
      .def_readonly("head_dim", &llm::ModelConfig::head_dim)
      .def_readonly("intermediate", &llm::ModelConfig::intermediate)
      .def_readonly("layers", &llm::ModelConfig::layers)
      .def_readonly("vocab", &llm::ModelConfig::vocab)
      .def_readonly("experts", &llm::ModelConfig::experts)
      .def_readonly("experts_per_token", &llm::ModelConfig::experts_per_token)
      .def_readonly("sliding_window", &llm::ModelConfig::sliding_window)
      .def_readonly("max_positions", &llm::ModelConfig::max_positions)
      .def_property_readonly(
          "published_params",
          [](const llm::ModelConfig& c) {
            return c.published_params > 0 ? std::optional<double>(c.published_params)
                                          : std::nullopt;
          },
          "the parameter count the model's authors state; None where the catalogue has none")
      .def(
          "parameters",
          [](const llm::ModelConfig& c, const py::object& tp_object) {
            const int tp = keyword<int>(tp_object, "tp", "an int");
            const auto p = llm::count_parameters(c, tp);
            py::dict d;
            d["attention"] = p.attention;
            d["mlp"] = p.mlp;
            d["norms"] = p.norms;
            d["embedding"] = p.embedding;
            d["lm_head"] = p.lm_head;
            d["total"] = p.total;
            d["matmul"] = p.matmul;
            d["active"] = p.active;
            return d;
          },
          py::arg("tp") = 1, "Parameter counts (elements), of one of `tp` tensor-parallel devices.")
      .def("to_dict",
           [](const llm::ModelConfig& c) { return json_to_python(llm::model_to_json(c)); })
      .def("__repr__",
           [](const llm::ModelConfig& c) { return "<llm.Model '" + terminal_safe(c.name) + "'>"; });

  // A pathlib.Path (any os.PathLike) where a str names a file; bytes is a TypeError (PathArg).
  m.def(
      "model",
      [](const PathArg<"name_or_path">& name_or_path) {
        return llm::resolve_model(name_or_path.value, "name_or_path");
      },
      py::arg("name_or_path"),
      "A preset ('llama-2-7b', case-insensitive) or the path of a Hugging Face config.json.");
  m.def(
      "models", []() { return llm::presets(); }, "The built-in presets (`roofline llm --list`).");
}

// The reprs: one line, the type and the figures looked at first, numbers as `roofline llm`
// prints them (quantity.hpp), names escaped (terminal_safe) and quoted.

/// A group of operators as one point, with the roofs that say its units: on an integer compute
/// roof (Roofs::counts_apart) the products' OP and the element-wise FLOP are never added, as
/// `roofline llm` prints them ("781.3 OP/byte + 0.4827 FLOP/byte").
struct AggregateView {
  llm::Aggregate a;
  llm::Roofs roofs;
  Work work() const { return roofs.in_compute_units(a.work, a.vector_work); }
  Work vector_work() const { return roofs.counts_apart() ? a.vector_work : Work(0); }
};

/// A result's units as the CLI's JSON gives them (`units`, `vector_units`: {"work": "OP", ...}).
py::object units_dict(const UnitSystem& u) {
  return json_to_python(result_units_to_json(u));
}
/// `vector_units`: the element-wise work's, where counted apart (else None, as the JSON has none).
py::object vector_units_of(const llm::Roofs& r) {
  return r.counts_apart() ? units_dict(r.vector_units) : py::object(py::none());
}

std::string aggregate_repr(const AggregateView& v) {
  std::string i = format_intensity(v.work() / v.a.traffic, v.roofs.units);
  if (v.roofs.counts_apart())
    i += " + " + format_intensity(v.vector_work() / v.a.traffic, v.roofs.vector_units);
  return "<llm.Aggregate " + quoted(v.a.name) + " I=" + i + " T=" + format_seconds(v.a.time) + ">";
}

std::string report_repr(const LlmReport& x) {
  return "<llm.Report " + quoted(x.r.model.name) + " on " + quoted(x.machine.roofs.name) +
         ", batch " + format_number(x.r.scenario.batch) + ", context " +
         format_number(x.r.scenario.context) + ": " + format_seconds(x.r.time_per_token) +
         "/token, " + format_number(x.r.tokens_per_s, 4) + " tokens/s, TTFT " +
         format_seconds(x.r.ttft) + ">";
}

std::string request_repr(const llm::RequestTiming& t) {
  return "<llm.Request batch " + format_number(t.batch) + " × prompt " + format_number(t.prompt) +
         ", " + format_number(t.output) + (t.output == 1 ? " output token" : " output tokens") +
         ": TTFT " + format_seconds(t.ttft) + ", end-to-end " + format_seconds(t.e2e) + ", " +
         format_number(t.output_tokens_per_s, 4) + " output tokens/s>";
}

std::string serving_repr(const llm::ServingResult& s) {
  return "<llm.Serving " + format_number(s.requests, 10) + " requests at concurrency " +
         format_number(s.options.concurrency) + ": " + format_number(s.output_tokens_per_s, 4) +
         " output tokens/s, TTFT median " + format_seconds(s.ttft.median) +
         (s.tpot.count == 0 ? "" : ", TPOT median " + format_seconds(s.tpot.median)) + ">";
}

std::string speculative_repr(const SpeculativeOnRoofs& s) {
  return "<llm.Speculative k=" + format_number(s.k) + " alpha=" + format_number(s.alpha) +
         " drafter " + quoted(s.drafter) + ": " + format_number(s.speedup, 4) + "x speedup, " +
         format_seconds(s.time_per_token) + "/token, " + format_number(s.tokens_per_s, 4) +
         " tokens/s>";
}

std::string training_repr(const TrainingOnRoofs& t) {
  std::string fits;
  if (t.fits) fits = *t.fits ? ", fits" : ", does NOT fit";
  return "<llm.Training step " + format_seconds(t.step) + ": MFU " + percent(t.mfu) +
         ", 6·N·D = " + format_work(t.six_nd, t.units) + ", " + format_bytes(t.memory()) +
         " per device" + fits + ">";
}

std::string cost_repr(const llm::TokenCost& c) {
  const std::string price = c.usd_per_million_tokens
                                ? "$" + format_number(*c.usd_per_million_tokens, 4) + "/M tokens"
                                : std::string("no price");
  const std::string energy = c.joules_per_token ? format_number(*c.joules_per_token, 4) + " J/token"
                                                : std::string("no power figure");
  return "<llm.Cost " + price + ", " + energy + " (at " + format_number(c.tokens_per_s, 4) +
         " tokens/s on " + format_number(c.devices) + " device" + (c.devices == 1 ? "" : "s") +
         ")>";
}

void register_aggregate(py::module_& m) {
  py::class_<AggregateView>(m, "Aggregate",
                            "A group of operators as one point. On an integer compute roof "
                            "(compute='int8') work_flop and intensity_flop_per_byte count the "
                            "products' OP, and vector_work_flop the element-wise FLOP, never "
                            "added (docs/llm.md).")
      .def_property_readonly("name", [](const AggregateView& v) { return v.a.name; })
      .def_property_readonly("work_flop", [](const AggregateView& v) { return v.work().value; })
      .def_property_readonly(
          "vector_work_flop", [](const AggregateView& v) { return v.vector_work().value; },
          "the element-wise FLOP counted apart from work_flop's OP (0 when one unit counts both)")
      .def_property_readonly("traffic_byte",
                             [](const AggregateView& v) { return v.a.traffic.value; })
      .def_property_readonly("time_s", [](const AggregateView& v) { return v.a.time.value; })
      .def_property_readonly("intensity_flop_per_byte",
                             [](const AggregateView& v) { return (v.work() / v.a.traffic).value; })
      // The names of the CLI's JSON (its `summary`), read in `units` and `vector_units`: on an
      // integer compute type the products count OP, where the names above say FLOP.
      .def_property_readonly(
          "work", [](const AggregateView& v) { return v.work().value; },
          "W in units['work'] (OP on an integer compute type, the element-wise work left out)")
      .def_property_readonly(
          "vector_work",
          [](const AggregateView& v) -> std::optional<double> {
            if (!v.roofs.counts_apart()) return std::nullopt;
            return v.vector_work().value;
          },
          "the element-wise work in vector_units['work'], where counted apart; else None")
      .def_property_readonly(
          "intensity", [](const AggregateView& v) { return (v.work() / v.a.traffic).value; },
          "work ÷ traffic, in units['intensity']")
      .def_property_readonly(
          "vector_intensity",
          [](const AggregateView& v) -> std::optional<double> {
            if (!v.roofs.counts_apart()) return std::nullopt;
            return (v.vector_work() / v.a.traffic).value;
          },
          "vector_work ÷ traffic, in vector_units['intensity'], where counted apart; else None")
      .def_property_readonly(
          "units", [](const AggregateView& v) { return units_dict(v.roofs.units); },
          "what work and intensity count, as the CLI's JSON `units` ({'work': 'OP', ...} on an "
          "integer compute type)")
      .def_property_readonly(
          "vector_units", [](const AggregateView& v) { return vector_units_of(v.roofs); },
          "what vector_work counts where counted apart (the JSON's `vector_units`), else None")
      .def("__repr__", &aggregate_repr);
}

/// The report's roofs, by the package's names (FLOP) and by the CLI's JSON's (its `machine`,
/// `units` and `data_parallel`): on an integer compute type the peak counts OP/s, where the
/// names with FLOP in them say FLOP.
void add_report_roofs(py::class_<LlmReport>& report) {
  report
      .def_property_readonly("vector_peak_flop_per_s",
                             [](const LlmReport& x) { return x.r.roofs.vector_peak.value; })
      .def_property_readonly("peak_flop_per_s",
                             [](const LlmReport& x) { return x.r.roofs.peak.value; })
      .def_property_readonly("ridge_flop_per_byte",
                             [](const LlmReport& x) { return x.r.roofs.ridge().value; })
      .def_property_readonly(
          "peak", [](const LlmReport& x) { return x.r.roofs.peak.value; },
          "π of compute_roof, in units['performance'] (OP/s on an integer compute type)")
      .def_property_readonly(
          "vector_peak", [](const LlmReport& x) { return x.r.roofs.vector_peak.value; },
          "π of vector_roof, in vector_units['performance'] where counted apart, else in "
          "units['performance']")
      .def_property_readonly(
          "ridge", [](const LlmReport& x) { return x.r.roofs.ridge().value; },
          "peak ÷ bandwidth, in units['intensity']")
      .def_property_readonly(
          "units", [](const LlmReport& x) { return units_dict(x.r.roofs.units); },
          "what the work, intensities and peak count, as the CLI's JSON `units` ({'work': 'OP', "
          "'performance': 'OP/s', ...} on an integer compute type)")
      .def_property_readonly(
          "vector_units", [](const LlmReport& x) { return vector_units_of(x.r.roofs); },
          "the element-wise work's units where counted apart (the JSON's `vector_units`), else "
          "None")
      .def_property_readonly(
          "data_parallel",
          [](const LlmReport& x) -> py::object {
            if (!(x.dp > 1)) return py::none();
            return json_to_python(report_json(x.r, x.dp)["data_parallel"]);
          },
          "with dp > 1: {'replicas', 'devices_per_replica', 'tokens_per_s'} (of all replicas), "
          "as the CLI's JSON `data_parallel`; None with one replica");
}

void register_report(py::module_& m) {
  register_aggregate(m);

  py::class_<LlmReport> report(
      m, "Report",
      "One (batch, context) on a machine: prefill and decode operators, TTFT, "
      "time per token, tokens/s, memory, critical batch.");
  report.def_property_readonly("model", [](const LlmReport& x) { return x.r.model; })
      .def_property_readonly(
          "chart_title",
          [](const LlmReport& x) {
            // Text to show, not a path: a model's folder that is no UTF-8 shows U+FFFD for each
            // such byte, as the JSON does (a surrogate escape would be refused as a title).
            const std::string t = llm::chart_title(x.r);
            return py::reinterpret_steal<py::str>(
                PyUnicode_DecodeUTF8(t.data(), static_cast<Py_ssize_t>(t.size()), "replace"));
          },
          "the title llm.chart and `roofline llm --report` give its chart")
      .def_property_readonly("machine", [](const LlmReport& x) { return Machine{x.machine}; })
      .def_property_readonly(
          "judged_machine",
          [](const LlmReport& x) {
            Machine j{x.machine};
            j.doc.roofs = llm::roofs_as_judged(x.machine.roofs, x.r.roofs);
            return j;
          },
          "the machine with the roofs the model was judged against as its defaults (the compute "
          "dtype's roof, the memory level): what llm.chart and `roofline llm --report` draw")
      .def_property_readonly("compute_roof",
                             [](const LlmReport& x) { return x.r.roofs.compute_name; })
      .def_property_readonly(
          "vector_roof", [](const LlmReport& x) { return x.r.roofs.vector_name; },
          "the roof element-wise operators (norms, residual adds, activations, softmax) are "
          "judged against: the activations' vector roof, else the compute roof")
      .def_property_readonly("memory_level",
                             [](const LlmReport& x) { return x.r.roofs.memory_level; })
      .def_property_readonly("bandwidth_byte_per_s",
                             [](const LlmReport& x) { return x.r.roofs.bandwidth.value; })
      .def_property_readonly("prefill",
                             [](const LlmReport& x) {
                               return AggregateView{x.r.prefill_point, x.r.roofs};
                             })
      .def_property_readonly("decode_linear",
                             [](const LlmReport& x) {
                               return AggregateView{x.r.decode_linear, x.r.roofs};
                             })
      .def_property_readonly("decode_attention",
                             [](const LlmReport& x) {
                               return AggregateView{x.r.decode_attention, x.r.roofs};
                             })
      .def_property_readonly(
          "ttft_s", [](const LlmReport& x) { return x.r.ttft.value; },
          "time to first token: the prefill of batch × prompt tokens")
      .def_property_readonly(
          "time_per_token_s", [](const LlmReport& x) { return x.r.time_per_token.value; },
          "one decode step (each sequence gets one token)")
      .def_property_readonly(
          "tokens_per_s", [](const LlmReport& x) { return x.r.tokens_per_s; },
          "batch ÷ decode step time")
      .def_property_readonly(
          "memory_byte", [](const LlmReport& x) { return x.r.memory.total().value; },
          "weights + KV cache + largest activation working set, per device")
      .def_property_readonly(
          "fits", [](const LlmReport& x) { return x.r.memory.fits; },
          "None when the memory size is unknown")
      .def_property_readonly(
          "above_roof",
          [](const LlmReport& x) -> std::optional<std::string> {
            if (!x.r.measured || x.r.measured->above_roof.empty()) return std::nullopt;
            return x.r.measured->above_roof;
          },
          "with measured_tokens_per_s: why the measured rate is above what the roofs allow "
          "(impossible if it counts what the model counts); None when it is not, or when no "
          "rate was given (to_dict()['measured']['above_roof'])")
      .def_property_readonly(
          "warnings",
          [](const LlmReport& x) {
            // The scenario's warnings, and a measured rate above the roofs (the CLI prints it
            // as a warning beside the measurement), with Python's names for the flags.
            return python_messages(x.r.warnings);
          },
          "the report's warnings, as the CLI's JSON `warnings` (a measured rate above the roofs "
          "among them)")
      .def(
          "points", [](const LlmReport& x) { return llm::to_points(x.r); },
          "The operators of the phase as Points (time = the modelled time).")
      .def(
          "_points_over_memory", [](const LlmReport& x) { return llm::points_over_memory(x.r); },
          "{index in points(): figures} of the points llm.chart draws hollow (they do not fit)")
      .def(
          "to_dict", [](const LlmReport& x) { return json_to_python(report_json(x.r, x.dp)); },
          "The same object as `roofline llm --json` (with dp > 1 its `data_parallel`).")
      .def(
          "__str__", [](const LlmReport& x) { return terminal_safe_lines(report_text(x.r, x.dp)); },
          "The text `roofline llm` prints for the same flags (with dp > 1 its \"Data parallel\" "
          "line).")
      .def("__repr__", &report_repr);
  add_report_roofs(report);
}

/// The serving run's result (`roofline.llm.serve`).
void register_serving(py::module_& m) {
  py::class_<llm::ServingResult> serving(
      m, "Serving",
      "A continuous-batching engine under a closed loop of `concurrency` requests "
      "(`roofline llm --concurrency --requests`): throughput and TTFT/TPOT/E2E latencies.");
  serving.def_readonly("requests", &llm::ServingResult::requests)
      .def_readonly("steps", &llm::ServingResult::steps)
      .def_property_readonly("makespan_s",
                             [](const llm::ServingResult& x) { return x.makespan.value; })
      .def_readonly("output_tokens_per_s", &llm::ServingResult::output_tokens_per_s)
      .def_readonly("input_tokens_per_s", &llm::ServingResult::input_tokens_per_s)
      .def_readonly("requests_per_s", &llm::ServingResult::requests_per_s)
      .def_property_readonly("ttft_median_s",
                             [](const llm::ServingResult& x) { return x.ttft.median.value; })
      .def_property_readonly("ttft_p99_s",
                             [](const llm::ServingResult& x) { return x.ttft.p99.value; })
      .def_property_readonly(
          "tpot_median_s",
          [](const llm::ServingResult& x) -> std::optional<double> {
            if (x.tpot.count == 0) return std::nullopt;  // every request has one output token
            return x.tpot.median.value;
          },
          "None when every request has one output token (TPOT covers tokens 2…N)")
      .def_property_readonly("e2e_median_s",
                             [](const llm::ServingResult& x) { return x.e2e.median.value; })
      .def_readonly("mean_decode_batch", &llm::ServingResult::mean_decode_batch)
      .def_property_readonly("peak_kv_cache_bytes",
                             [](const llm::ServingResult& x) { return x.peak_kv_cache.value; })
      .def_property_readonly(
          "peak_activations_bytes",
          [](const llm::ServingResult& x) { return x.peak_activations.value; },
          "the largest step's activations per device")
      .def_readonly("peak_tokens", &llm::ServingResult::peak_tokens);
  add_messages(serving, "warnings", &llm::ServingResult::warnings, kMessagesDoc);
  add_dict(serving, llm::serving_to_json);
  serving.def("__repr__", &serving_repr);
}

/// Speculative decoding's and a training step's results (`roofline.llm.speculative`, `.train`).
void register_speculative_and_training(py::module_& m) {
  py::class_<SpeculativeOnRoofs> spec(
      m, "Speculative",
      "Speculative decoding (Leviathan et al. 2023): k drafted tokens accepted with rate α, the "
      "verification step on the roofline (`roofline llm --spec-k --draft`). Its intensities "
      "read in `units`, the CLI's JSON's: OP/byte on an integer compute type (compute='int8').");
  spec.def_readonly("k", &llm::SpeculativeResult::k)
      .def_readonly("alpha", &llm::SpeculativeResult::alpha)
      .def_readonly("expected_tokens", &llm::SpeculativeResult::expected_tokens)
      .def_readonly("drafter", &llm::SpeculativeResult::drafter)
      .def_property_readonly("draft_tp",
                             [](const SpeculativeOnRoofs& s) -> std::optional<int> {
                               return s.draft_tp > 0 ? std::optional<int>(s.draft_tp)
                                                     : std::nullopt;
                             })
      .def_property_readonly("time_per_token_s",
                             [](const SpeculativeOnRoofs& x) { return x.time_per_token.value; })
      .def_property_readonly("plain_step_s",
                             [](const SpeculativeOnRoofs& x) { return x.plain.value; })
      .def_readonly("speedup", &llm::SpeculativeResult::speedup)
      .def_readonly("paper_speedup", &llm::SpeculativeResult::paper_speedup)
      .def_readonly("tokens_per_s", &llm::SpeculativeResult::tokens_per_s)
      .def_property_readonly(
          "verify_intensity", [](const SpeculativeOnRoofs& x) { return x.verify_intensity.value; },
          "the verification step's I, in units['intensity'] (OP/byte on an integer compute "
          "type; the JSON's verify_intensity)")
      .def_property_readonly(
          "verify_intensity_flop_per_byte",
          [](const SpeculativeOnRoofs& x) { return x.verify_intensity.value; },
          "verify_intensity by its older name: the same number, in units['intensity'] (OP/byte, "
          "not FLOP/byte, on an integer compute type)")
      .def_property_readonly(
          "units", [](const SpeculativeOnRoofs& x) { return units_dict(x.units); },
          "what the intensities count, as the CLI's JSON `units` ({'work': 'OP', 'intensity': "
          "'OP/byte', ...} on an integer compute type)")
      .def_readonly("verify_compute_bound", &llm::SpeculativeResult::verify_compute_bound);
  add_messages(spec, "warnings", &llm::SpeculativeResult::warnings, kMessagesDoc);
  add_messages(spec, "notes", &llm::SpeculativeResult::notes, kMessagesDoc);
  add_dict(spec, llm::speculative_to_json);
  spec.def("__repr__", &speculative_repr);

  py::class_<TrainingOnRoofs> training(
      m, "Training",
      "One optimizer step of data-parallel mixed-precision Adam training (`roofline llm "
      "--train`): 6ND, the step time, MFU/HFU, memory per device. Its work reads in `units`, "
      "the CLI's JSON's: OP on an integer compute type (compute='int8').");
  training.def_readonly("tokens", &llm::TrainingResult::tokens)
      .def_readonly("parameters", &llm::TrainingResult::parameters)
      .def_property_readonly(
          "six_nd", [](const TrainingOnRoofs& x) { return x.six_nd.value; },
          "6·N·D in units['work'] (OP on an integer compute type; the JSON's six_nd)")
      .def_property_readonly(
          "six_nd_flop", [](const TrainingOnRoofs& x) { return x.six_nd.value; },
          "six_nd by its older name: the same number, in units['work'] (OP, not FLOP, on an "
          "integer compute type)")
      .def_property_readonly(
          "units", [](const TrainingOnRoofs& x) { return units_dict(x.units); },
          "what six_nd counts, as the CLI's JSON `units` ({'work': 'OP', ...} on an integer "
          "compute type)")
      .def_property_readonly("step_s", [](const TrainingOnRoofs& x) { return x.step.value; })
      .def_readonly("mfu", &llm::TrainingResult::mfu)
      .def_readonly("hfu", &llm::TrainingResult::hfu)
      .def_readonly("measured_mfu", &llm::TrainingResult::measured_mfu)
      .def_property_readonly("memory_byte",
                             [](const TrainingOnRoofs& x) { return x.memory().value; })
      .def_readonly("fits", &llm::TrainingResult::fits);
  add_messages(training, "notes", &llm::TrainingResult::notes, kMessagesDoc);
  add_dict(training, llm::training_to_json);
  training.def("__repr__", &training_repr);
}

void register_results(py::module_& m) {
  py::class_<llm::RequestTiming> req(
      m, "Request",
      "A batch of identical requests from prompt to last token (static batching): TTFT, the "
      "decode steps, end to end (`roofline llm --output-tokens`).");
  req.def_readonly("batch", &llm::RequestTiming::batch)
      .def_readonly("prompt", &llm::RequestTiming::prompt)
      .def_readonly("output", &llm::RequestTiming::output)
      .def_property_readonly("ttft_s", [](const llm::RequestTiming& t) { return t.ttft.value; })
      .def_property_readonly("decode_s", [](const llm::RequestTiming& t) { return t.decode.value; })
      .def_property_readonly("e2e_s", [](const llm::RequestTiming& t) { return t.e2e.value; })
      .def_property_readonly("mean_tpot_s",
                             [](const llm::RequestTiming& t) { return t.mean_tpot.value; })
      .def_readonly("output_tokens_per_s", &llm::RequestTiming::output_tokens_per_s)
      .def_readonly("requests_per_s", &llm::RequestTiming::requests_per_s);
  add_messages(req, "warnings", &llm::RequestTiming::warnings, kMessagesDoc);
  add_dict(req, llm::request_to_json);
  req.def("__repr__", &request_repr);

  register_serving(m);
  register_speculative_and_training(m);

  py::class_<llm::TokenCost> tc(
      m, "Cost", "Cost per token: $/M tokens from a price, J/token at the board power.");
  tc.def_readonly("devices", &llm::TokenCost::devices)
      .def_readonly("tokens_per_s", &llm::TokenCost::tokens_per_s)
      .def_readonly("usd_per_million_tokens", &llm::TokenCost::usd_per_million_tokens)
      .def_readonly("joules_per_token", &llm::TokenCost::joules_per_token)
      .def_readonly("power_w", &llm::TokenCost::power_w)
      .def_readonly("power_source", &llm::TokenCost::power_source);
  add_messages(tc, "notes", &llm::TokenCost::notes, kMessagesDoc);
  add_dict(tc, llm::cost_to_json);
  tc.def("__repr__", &cost_repr);
}

void register_scenarios(py::module_& m) {
  m.def("request", &request, py::arg("model"), py::arg("machine"), py::arg("output_tokens"),
        py::arg("batch") = 1.0, py::arg("prompt") = 2048.0, py::arg("chunk") = 0.0,
        "`roofline llm --batch B --context S --output-tokens N [--chunk C]`: the whole "
        "request." ROOFLINE_LLM_SCENARIO_DOC);
  m.def("serve", &serve, py::arg("model"), py::arg("machine"), py::arg("concurrency"),
        py::arg("requests"), py::arg("max_batched_tokens") = 0.0, py::arg("total_requests") = 0.0,
        "`roofline llm --concurrency C --requests P:N,...`: requests are (prompt, output) "
        "pairs, cycled; max_batched_tokens > 0 chunks prefills; total_requests 0 = max(8 × C, "
        "len(requests))." ROOFLINE_LLM_SCENARIO_DOC);
  m.def("speculative", &speculative, py::arg("model"), py::arg("machine"), py::arg("draft"),
        py::arg("k") = 4.0, py::arg("alpha") = 0.8, py::arg("batch") = 1.0,
        py::arg("context") = 2048.0, py::arg("draft_tp") = std::nullopt,
        "`roofline llm --spec-k K --spec-alpha A --draft MODEL|mtp [--draft-tp N]`: draft is a "
        "Model or 'mtp'; draft_tp the drafter's tensor parallelism, 1 to tp (None: "
        "tp)." ROOFLINE_LLM_SCENARIO_DOC);
  m.def("train", &train, py::arg("model"), py::arg("machine"), py::arg("sequence") = 4096.0,
        py::arg("micro_batch") = 1.0, py::arg("global_batch") = 0.0, py::arg("dp") = 1.0,
        py::arg("recompute") = "none", py::arg("zero") = 0, py::arg("sequence_parallel") = false,
        py::arg("measured_step_s") = std::nullopt,
        "`roofline llm --train`: one optimizer step." ROOFLINE_LLM_SCENARIO_DOC);
  m.def("compare", &compare, py::arg("model"), py::arg("machines"), py::arg("batch") = 1.0,
        py::arg("context") = 2048.0, py::arg("prompt") = std::nullopt,
        py::arg("output_tokens") = 0.0, py::arg("chunk") = 0.0, py::arg("dp") = 1.0,
        py::arg("price_per_hour") = py::none(), py::arg("power_w") = std::nullopt,
        "`roofline llm --hw a,b,c --json`'s machines: per machine the TTFT, time per output token, "
        "tokens/s (× dp), memory per device, whether it fits and the cost (price_per_hour: one "
        "price or a dict by machine name), as dicts." ROOFLINE_LLM_SCENARIO_DOC);
  m.def("cost", &cost, py::arg("tokens_per_s"), py::arg("machine"), py::arg("devices") = 1.0,
        py::arg("price_per_hour") = std::nullopt, py::arg("power_w") = std::nullopt,
        "`roofline llm --cost [--price-per-hour P] [--power-w W]`: $/M tokens and J/token of a "
        "throughput on `devices` of the machine (power from its catalogue entry unless given).");

  m.def("analyse", &analyse, py::arg("model"), py::arg("machine"), py::arg("batch") = 1.0,
        py::arg("context") = 2048.0, py::arg("prompt") = std::nullopt, py::arg("phase") = "decode",
        py::kw_only(), py::arg("measured_tokens_per_s") = std::nullopt, py::arg("dp") = 1.0,
        py::arg("chunk") = 0.0,
        "`roofline llm` for one batch and context: prompt None = the context; dp data-parallel "
        "replicas (--dp: measured_tokens_per_s is of all of them, to_dict()'s data_parallel); "
        "chunk the prefill's tokens per chunk, 0 = one step (--chunk: the footprint's "
        "activations are its largest chunk's)." ROOFLINE_LLM_SCENARIO_DOC);
}

}  // namespace

void register_llm(py::module_& root) {
  py::module_ m = root.def_submodule("llm", "LLM inference on the roofline (docs/llm.md).");
  register_model(m);
  register_report(m);
  register_results(m);
  register_scenarios(m);
}

}  // namespace roofline::python
