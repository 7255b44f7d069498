// The transformer as operators with closed-form W and Q (docs/llm.md states every formula).
//
// Counting rules (docs/model.md, counting.hpp): a matrix product of (m×k)·(k×n) is 2·m·k·n FLOP (a
// MAC counts as 2); compulsory traffic moves every distinct element once: weights once per step,
// inputs read once, outputs written once; a read and a write are separate traffic.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "counting.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline::llm {
std::string to_string(OpKind k) {
  switch (k) {
    case OpKind::embedding:
      return "embedding";
    case OpKind::norm:
      return "norm";
    case OpKind::linear:
      return "linear";
    case OpKind::expert_linear:
      return "expert linear";
    case OpKind::attention_scores:
      return "attention scores";
    case OpKind::softmax:
      return "softmax";
    case OpKind::attention_values:
      return "attention values";
    case OpKind::attention_fused:
      return "attention (fused)";
    case OpKind::latent_decompression:
      return "latent decompression";
    case OpKind::activation:
      return "activation";
    case OpKind::residual:
      return "residual";
    case OpKind::lm_head:
      return "lm head";
    case OpKind::router:
      return "router";
    case OpKind::all_reduce:
      return "all-reduce";
    case OpKind::all_gather:
      return "all-gather";
    case OpKind::all_to_all:
      return "all-to-all";
    case OpKind::send_receive:
      return "send/receive";
  }
  return "operator";
}

std::string to_string(ComputeUnit u) {
  return u == ComputeUnit::vector ? "vector" : "matrix";
}

void validate_scenario(const ModelConfig& m, const Scenario& s) {
  auto whole_positive = [](double v) { return std::isfinite(v) && v >= 1 && v == std::floor(v); };
  if (!whole_positive(s.batch))
    throw InputError("--batch: must be a whole number ≥ 1 (got " + format_number(s.batch) + ")");
  if (!whole_positive(s.prompt))
    throw InputError("--prompt: must be a whole number ≥ 1 (got " + format_number(s.prompt) + ")");
  if (!whole_positive(s.context))
    throw InputError("--context: must be a whole number ≥ 1 (got " + format_number(s.context) +
                     ")");
  if (s.prompt > s.context)
    throw InputError("--prompt " + format_number(s.prompt, 10) + " exceeds --context " +
                     format_number(s.context, 10) +
                     ": a decode step's context holds the prompt; give a context ≥ the prompt");
  check_tensor_parallel(m, s.tp);
  const double tp = s.tp;
  // A form of latent attention on a model without it would be ignored (as --ep is refused).
  if (s.mla_form != MlaForm::automatic && !m.is_mla())
    throw InputError("--mla " + to_string(s.mla_form) + ": " + m.name +
                     " has no multi-head latent attention (kv_lora_rank)");
  if (s.ep) {
    if (!m.moe()) throw InputError("--ep: " + m.name + " has no experts");
    if (s.tp < 2)
      throw InputError("--ep spreads the experts over the tensor-parallel group: give --tp ≥ 2");
    if (std::fmod(m.experts, tp) != 0)
      throw InputError("--ep with --tp " + std::to_string(s.tp) + ": must divide the " +
                       format_number(m.experts) + " experts of " + m.name);
  }
  if (s.cp < 1) throw InputError("--cp: must be ≥ 1 (got " + std::to_string(s.cp) + ")");
  // Context parallelism splits the prompt's tokens (and their KV cache) over the devices: each
  // holds at least one, or its share of W and of the cache would be a fraction of a token.
  if (s.cp > s.prompt)
    throw InputError("--cp " + std::to_string(s.cp) + " exceeds the prompt's " +
                     format_number(s.prompt, 10) +
                     " tokens: context parallelism gives each device a share of the prompt's "
                     "tokens, at least one; give --cp ≤ the prompt");
}

namespace {
/// The warning of a context past the model's max_positions ("" when within it or unknown).
std::string context_warning(const ModelConfig& m, double context) {
  if (!(m.max_positions > 0 && context > m.max_positions)) return "";
  const std::string past = "context " + format_number(context, 10) + " exceeds " + m.name +
                           "'s max_position_embeddings " + format_number(m.max_positions, 10);
  // Learned absolute positions (GPT-2's wpe, OPT's embed_positions) are a table with one row
  // per position: a token past it has no position embedding, so the model cannot run there at
  // all (transformers fails on the index), where a rotary model runs untrained.
  if (m.positions > 0)
    return past +
           ": its positions are a learned table, and a token past the table has no embedding: "
           "the model cannot run at this context (the cost is of a model that could)";
  return past + ": the model was not trained for it; the cost is modelled, the quality is not";
}
}  // namespace

std::vector<std::string> scenario_warnings(const ModelConfig& m, const Scenario& s) {
  std::vector<std::string> w = m.caveats;
  if (std::string c = context_warning(m, s.context); !c.empty()) w.push_back(std::move(c));
  // Stages are costed with layers/pp layers each; whole layers put ⌈layers/pp⌉ on the heaviest.
  if (s.pp > 1 && std::fmod(m.layers, s.pp) != 0)
    w.push_back("--pp " + std::to_string(s.pp) + " does not divide the " +
                format_number(m.layers, 10) + " layers of " + m.name +
                ": each stage is costed with " + format_number(m.layers / s.pp, 4) +
                " layers, where the heaviest holds " +
                format_number(std::ceil(m.layers / s.pp), 10) + " (" +
                format_number((std::ceil(m.layers / s.pp) / (m.layers / s.pp) - 1) * 100, 2) +
                "% more per-layer time and memory on it)");
  return w;
}

namespace {
// The highest dense non-matrix roof of the element-wise dtype (fp8 also as "fp8"); for a float
// narrower than fp32 without one, fp32's (vector_widened: MI300X's datasheet lists fp32 vector
// at 163.4 TFLOP/s and no fp16 vector rate; packed narrower arithmetic runs at least at it, so
// this errs slow by up to the packing factor where the matrix roof erred 8x fast). None: the
// compute roof stands in, and vector_fallback says so. A roof of unnamed precision (--peak) is
// the only roof there is: it stands in without a warning.
void select_vector_roof(const RoofSet& set, const DataType& dtype, const ComputeRoof& compute,
                        Roofs& r) {
  const ComputeRoof* v = nullptr;
  std::vector<std::string> keys{dtype.name};
  if (dtype.name.rfind("fp8", 0) == 0) keys.push_back("fp8");
  const bool narrow_float = dtype.name == "fp16" || dtype.name == "bf16" ||
                            dtype.name.rfind("fp8", 0) == 0 || dtype.name.rfind("fp4", 0) == 0 ||
                            dtype.name.rfind("fp6", 0) == 0;
  if (narrow_float) keys.push_back("fp32");
  for (const auto& k : keys) {
    for (const auto& roof : set.compute)
      if (!roof.sparse && roof.precision == k && !is_matrix_unit(roof) && outranks(roof, v))
        v = &roof;
    if (v) {
      r.vector_widened = k == "fp32" && dtype.name != "fp32";
      break;
    }
  }
  r.vector_fallback = !v && !compute.precision.empty();
  if (!v) v = &compute;
  r.vector_name = v->name;
  r.vector_peak = v->peak;
  r.document_vector_peak = v->peak;
  r.vector_units = set.units_of(*v);
}
}  // namespace

namespace {
// Roofs built by hand (not by select_roofs) may lack a vector roof: π stands in.
WorkRate vector_rate(const Roofs& r) {
  return r.vector_peak.value > 0 ? r.vector_peak : r.peak;
}
}  // namespace

Seconds compute_time(const OpCost& op, const Roofs& r) {
  return op.matrix_work() / r.peak + op.vector_work() / vector_rate(r);
}

const std::string& compute_roof_of(const OpCost& op, const Roofs& r) {
  if (r.vector_name.empty()) return r.compute_name;
  const double matrix = (op.matrix_work() / r.peak).value,
               vector = (op.vector_work() / vector_rate(r)).value;
  return vector > matrix || (op.unit == ComputeUnit::vector && vector == matrix) ? r.vector_name
                                                                                 : r.compute_name;
}

Roofs select_roofs(const RoofSet& set, const DataType& compute,
                   std::optional<ByteRate> interconnect_override,
                   const std::optional<DataType>& elementwise) {
  // Every count here is FLOP and bytes: roofs in other units (tuples/s, disk reads/s:
  // docs/custom-rooflines.md) would be read as if they were.
  if (!(set.units == UnitSystem{}))
    throw InputError("machine '" + set.name + "' counts in " + set.units.work + " and " +
                     set.units.traffic + ": llm needs roofs in FLOP/s and byte/s");
  Roofs r;
  r.machine = set.name;
  const ComputeRoof* c = nullptr;
  // The compute dtype's roof: by precision name, FP8 also as "fp8".
  std::vector<std::string> keys{compute.name};
  if (compute.name.rfind("fp8", 0) == 0) keys.push_back("fp8");
  for (const auto& k : keys) {
    for (const auto& roof : set.compute)
      if (!roof.sparse && roof.precision == k && outranks(roof, c)) c = &roof;
    if (c) break;
  }
  if (!c && set.compute.size() == 1 && set.compute.front().precision.empty())
    c = &set.compute.front();  // --peak without a precision: the one roof given
  if (!c) {
    const std::string names = join(set.compute, [](const ComputeRoof& roof) {
      return roof.name + " (" + roof.precision + ")";
    });
    throw InputError("machine '" + set.name + "' has no compute roof for the compute dtype '" +
                     compute.name + "' (roofs: " + (names.empty() ? "none" : names) +
                     "); choose another with --cdtype");
  }
  r.compute_name = c->name;
  r.compute_accumulates_narrow = accumulates_narrow(*c);
  r.units = set.units_of(*c);  // an int8 compute roof counts OP
  r.peak = c->peak;
  r.document_peak = c->peak;
  // Element-wise work runs in the activations' float type even when the products are integer
  // (--cdtype int8: norms, softmax and activations are not computed in int8).
  select_vector_roof(set, elementwise.value_or(compute), *c, r);
  // A rate beyond any device (the catalogue checker's bound, 1e20 per second) made every step
  // free: a memory bandwidth of 1e300 priced a decode step at 1e-288 s.
  const auto plausible = [&](const std::string& roof, const char* field, double v) {
    if (v > 1e20)
      throw InputError("machine '" + set.name + "': " + roof + ": " + field + " " +
                       format_number(v) + " per second is beyond any device (at most 1e20)");
  };
  plausible("compute roof '" + c->name + "'", "peak", c->peak.value);
  plausible("compute roof '" + r.vector_name + "'", "peak", r.vector_peak.value);
  const MemoryRoof& mem = set.select_memory("");
  r.memory_level = mem.level;
  r.bandwidth = mem.bandwidth;
  r.document_bandwidth = mem.bandwidth;
  r.memory_capacity = mem.size_bytes;
  plausible("memory roof '" + mem.level + "'", "bandwidth", mem.bandwidth.value);
  if (interconnect_override) {
    r.interconnect = interconnect_override;
    r.interconnect_name = "--interconnect-bandwidth";
  } else {
    for (const auto& m : set.memory)
      if (m.kind == "interconnect" && (!r.interconnect || m.bandwidth > *r.interconnect)) {
        r.interconnect = m.bandwidth;
        r.interconnect_name = m.level;
      }
  }
  if (r.interconnect)
    plausible("interconnect '" + r.interconnect_name + "'", "bandwidth", r.interconnect->value);
  return r;
}

RoofSet roofs_as_judged(RoofSet set, const Roofs& r) {
  set.default_compute = r.compute_name;
  set.default_memory = r.memory_level;
  if (r.interconnect && !set.find_memory(r.interconnect_name)) {
    MemoryRoof ic;
    ic.level = r.interconnect_name;
    ic.kind = "interconnect";
    ic.bandwidth = *r.interconnect;
    ic.source = "--interconnect-bandwidth";
    set.memory.push_back(ic);
  }
  return set;
}

namespace {
/// The most a roof may be scaled by (--attainment, --calibrate): a machine sustains about its
/// datasheet figure or less; 1.5 leaves room for a conservative datasheet, not for another
/// machine's measurement.
constexpr double kMostAttainment = 1.5;
}  // namespace

Calibration parse_attainment(const std::string& spec) {
  Calibration c;
  c.source = "--attainment " + spec;
  std::size_t start = 0;
  if (spec.empty()) throw InputError("--attainment: empty value");
  std::vector<std::string> seen;
  while (start <= spec.size()) {
    const auto comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma == std::string::npos ? comma : comma - start);
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double* slot = key == "compute"        ? &c.compute
                   : key == "memory"       ? &c.memory
                   : key == "interconnect" ? &c.interconnect
                                           : nullptr;
    if (eq == std::string::npos || !slot)
      throw InputError("--attainment: '" + item +
                       "' must be compute=F, memory=F or interconnect=F (a fraction of the roof)");
    // A roof named twice would silently take its last factor.
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw InputError("--attainment: " + key + " is given twice in '" + spec + "'; give it once");
    seen.push_back(key);
    const std::string value = item.substr(eq + 1);
    const double v = decimal_number(value).value_or(-1);
    if (!(v > 0) || v > kMostAttainment)
      throw InputError("--attainment: " + key + " must be a fraction in (0, 1.5] (got '" + value +
                       "')");
    *slot = v;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return c;
}

Calibration calibration_from(const RoofSet& measured, const std::string& origin, const Roofs& r,
                             const DataType& compute) {
  Roofs m;
  try {
    m = select_roofs(measured, compute);
  } catch (const InputError& e) {
    throw InputError("--calibrate " + origin + ": " + e.what());
  }
  // A calibration is a measurement: a roof of the document the factor would come from that is
  // a datasheet (or reported, or theoretical) figure is refused, naming it.
  const auto measured_only = [&](const std::string& roof, Provenance p) {
    if (p != Provenance::measured)
      throw InputError("--calibrate " + origin + ": its " + roof + " is a " + to_string(p) +
                       " figure, not a measurement; --calibrate takes a document of `roofline "
                       "measure` on the device (for a factor you know, give --attainment)");
  };
  measured_only(m.compute_name + " roof", measured.find_compute(m.compute_name)->provenance);
  measured_only(m.memory_level + " roof", measured.find_memory(m.memory_level)->provenance);
  const bool link = m.interconnect && r.interconnect;
  if (link) {
    const MemoryRoof* ic = measured.find_memory(m.interconnect_name);
    if (ic) measured_only(m.interconnect_name + " roof", ic->provenance);
  }
  Calibration c;
  c.compute = m.peak.value / r.document_peak.value;
  c.memory = m.bandwidth.value / r.document_bandwidth.value;
  if (link) c.interconnect = m.interconnect->value / r.interconnect->value;
  c.source = "--calibrate " + origin + " (" + m.compute_name + ", " + m.memory_level + ")";
  // A measurement of this machine sustains about its datasheet roofs or less: a factor beyond
  // --attainment's bound is another machine's document (an H100's roofs over an A100's).
  const auto bound = [&](double f, const std::string& what, const std::string& roof) {
    if (!(f > 0 && f <= kMostAttainment))
      throw InputError("--calibrate " + origin + ": its " + roof + " is " + format_number(f, 3) +
                       " × " + r.machine + "'s " + what + " roof; a measurement of " + r.machine +
                       " gives at most " + format_number(kMostAttainment) +
                       " × (as --attainment): is the document another machine's?");
  };
  bound(c.compute, "compute", m.compute_name + " roof");
  bound(c.memory, "memory", m.memory_level + " roof");
  if (link) bound(c.interconnect, "interconnect", m.interconnect_name + " roof");
  return c;
}

void apply_calibration(Roofs& r, const Calibration& c) {
  r.peak = WorkRate(r.document_peak.value * c.compute);
  r.vector_peak = WorkRate(r.document_vector_peak.value * c.compute);
  r.bandwidth = ByteRate(r.document_bandwidth.value * c.memory);
  if (r.interconnect && c.interconnect != 1)
    r.interconnect = ByteRate(r.interconnect->value * c.interconnect);
  r.calibration =
      c.source + ": π × " + format_number(c.compute, 3) + ", β × " + format_number(c.memory, 3) +
      (c.interconnect != 1 ? ", interconnect × " + format_number(c.interconnect, 3) : "");
}

StepResult evaluate_cost(const StepCost& cost, const Scenario& s, const Roofs& r) {
  const bool collectives = s.tp > 1 || s.cp > 1;
  if (collectives && !r.interconnect)
    throw InputError((s.tp > 1 ? "--tp " + std::to_string(s.tp) : "--cp " + std::to_string(s.cp)) +
                     ": machine '" + r.machine +
                     "' has no roof of kind \"interconnect\"; give --interconnect-bandwidth");
  StepResult res;
  res.cost = cost;
  const double alpha = r.link_latency ? r.link_latency->value : 0;
  for (std::size_t i = 0; i < res.cost.size; ++i) {
    const OpCost& op = res.cost.ops[i];
    const ByteRate beta = op.interconnect ? *r.interconnect : r.bandwidth;
    OpTiming& t = res.timing[i];
    // Williams et al. 2009 (docs/model.md): T ≥ max(W/π, Q/β); without overlap W/π + Q/β (core's
    // model.hpp). A collective adds one link latency per sequential step (α–β model, Hockney 1994).
    // Matrix and vector work are timed on their own roofs and added (compute_time, docs/llm.md
    // "Matrix and vector work").
    const Seconds latency(op.interconnect ? op.hops * alpha : 0);
    const Seconds compute = compute_time(op, r), memory = op.traffic() / beta;
    t.time = std::max(compute, memory) + latency;
    t.time_no_overlap = compute + memory + latency;
    t.compute = compute;
    t.compute_bound = compute > memory;
    res.work += op.work * op.count;
    res.vector_work += op.vector_work() * op.count;
    if (op.interconnect)
      res.interconnect += op.traffic() * op.count;
    else
      res.traffic += op.traffic() * op.count;
    res.time += t.time * op.count;
    res.time_no_overlap += t.time_no_overlap * op.count;
  }
  return res;
}

StepResult evaluate_step(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r) {
  return evaluate_cost(step_cost(m, s, phase), s, r);
}

double compute_time_share(const StepResult& s) {
  if (!(s.time.value > 0)) return 0;
  double compute = 0;
  for (std::size_t i = 0; i < s.cost.size; ++i)
    if (s.timing[i].compute_bound) compute += s.timing[i].time.value * s.cost.ops[i].count;
  return compute / s.time.value;
}

std::string step_bound(const StepResult& s) {
  double compute = 0, memory = 0, link = 0;
  for (std::size_t i = 0; i < s.cost.size; ++i) {
    const double t = s.timing[i].time.value * s.cost.ops[i].count;
    (s.timing[i].compute_bound ? compute : s.cost.ops[i].interconnect ? link : memory) += t;
  }
  if (compute >= memory && compute >= link) return "compute";
  return link > memory ? "interconnect" : "memory";
}

namespace {
bool is_linear(OpKind k) {
  return k == OpKind::linear || k == OpKind::expert_linear || k == OpKind::lm_head ||
         k == OpKind::router;
}
bool is_attention(OpKind k) {
  return k == OpKind::attention_scores || k == OpKind::softmax || k == OpKind::attention_values ||
         k == OpKind::attention_fused || k == OpKind::latent_decompression;
}
template <class Pred>
Aggregate aggregate(const StepResult& s, const char* name, Pred pred) {
  Aggregate a;
  a.name = name;
  for (std::size_t i = 0; i < s.cost.size; ++i) {
    const OpCost& op = s.cost.ops[i];
    if (op.interconnect || !pred(op.kind)) continue;
    a.work += op.work * op.count;
    a.vector_work += op.vector_work() * op.count;
    a.traffic += op.traffic() * op.count;
    a.time += s.timing[i].time * op.count;
    a.compute += s.timing[i].compute * op.count;
  }
  return a;
}
}  // namespace

Aggregate aggregate_linear(const StepResult& s, const char* name) {
  return aggregate(s, name, is_linear);
}
Aggregate aggregate_attention(const StepResult& s, const char* name) {
  return aggregate(s, name, is_attention);
}
Aggregate aggregate_all(const StepResult& s, const char* name) {
  return aggregate(s, name, [](OpKind) { return true; });
}

// KV cache of `sequences` sequences of `tokens` tokens, per device: every layer's K and V per
// KV head (split P ways, or one replicated head when fewer than P), for all tokens in global
// layers, a rolling buffer of W in windowed ones (Mistral 7B, Jiang et al. 2023 §2, "Rolling
// Buffer Cache"), at most one chunk in chunked ones; MLA's latent and RoPE key, replicated on
// every tensor-parallel device (each needs all of it for its heads).
Bytes kv_cache_bytes(const ModelConfig& m, const Scenario& s, double sequences, double tokens) {
  const double skv = s.dtypes.kv_cache.bytes;
  // Pipeline stages hold layers/pp layers each; context parallelism splits the tokens.
  const double split = (s.pp < 1 ? 1 : s.pp) * (s.cp < 1 ? 1 : s.cp);
  if (m.is_mla())
    return Bytes(m.layers * (m.mla.kv_lora_rank + m.mla.qk_rope_head_dim) * skv * sequences *
                 tokens / split);
  const double P = s.tp;
  const double per_token_layer = 2 * (m.kv_heads >= P ? m.kv_heads / P : 1) * m.head_dim * skv;
  using counting::Span;
  const double cached = m.global_layers() * tokens +
                        m.sliding_layers * counting::cached_tokens(
                                               Span{Span::Kind::window, m.sliding_window}, tokens) +
                        m.chunked_layers * counting::cached_tokens(
                                               Span{Span::Kind::chunk, m.attention_chunk}, tokens);
  return Bytes(per_token_layer * sequences * cached / split);
}

Bytes step_activations(const ModelConfig& m, const Scenario& s, const StepCost& c) {
  // The largest working set of one operator, with the residual stream x (N·d·s_a for the
  // step's N rows per device) held beside it while the operator runs. The residual add's
  // 3·N·d·s_a (x, the block's output, x + output), the embedding's written rows and a norm's
  // 2·N·d·s_a (x read, x̂ written) already hold x: it is not added to those again (it was:
  // Llama-3-70B --tp 8, B = 16, S = 4096 gave 3.22 + 1.07 = 4.29 GB where the residual add's
  // 3.22 GB is the peak). A norm of another input (q/k norm, a post-norm) is below 3·N·d·s_a
  // with the stream added, so leaving it out does not change the maximum.
  const double stream = c.tokens * m.hidden * s.dtypes.activations.bytes;
  double largest = 0;
  for (std::size_t i = 0; i < c.size; ++i) {
    const OpCost& op = c.ops[i];
    if (op.interconnect) continue;
    const bool holds_stream =
        op.kind == OpKind::residual || op.kind == OpKind::embedding || op.kind == OpKind::norm;
    largest = std::max(largest, op.activations.value + (holds_stream ? 0 : stream));
  }
  return Bytes(largest);
}

namespace {
// The footprint given the steps run (the sweep has the two phases' operators already).
Footprint footprint_of(const ModelConfig& m, const Scenario& s, const Roofs& r,
                       std::initializer_list<const StepCost*> steps) {
  // Weights: matrices in the weight dtype, norms and biases in the activation dtype; per device
  // as step_cost splits them (count_parameters with tp): with fewer K/V heads than devices each
  // device holds a whole K/V head, so k_proj and v_proj do not shrink by P.
  const double P = s.tp;
  const ParameterCount p = count_parameters(m, s.tp);
  const double layer_matrices = p.matmul - m.vocab / P * m.hidden;  // less the LM head
  const double biases = p.attention + p.mlp - layer_matrices;
  // Pipeline stages hold layers/pp layers each; the heaviest holds one of the tables too (the
  // first the embedding, the last the LM head; with tied embeddings each keeps a copy).
  const double stages = s.pp < 1 ? 1 : s.pp;
  const double tables = stages > 1
                            ? std::max(p.embedding, m.tied_embeddings ? p.embedding : p.lm_head)
                            : p.embedding + p.lm_head;  // tied: one table
  Footprint f;
  f.weights = Bytes((layer_matrices / stages + tables) * s.dtypes.weights.bytes +
                    (biases + p.norms) / stages * s.dtypes.activations.bytes);
  f.kv_cache = kv_cache_bytes(m, s, s.batch, std::max(s.prompt, s.context));
  // Activations: the largest step actually run (step_activations), over both phases.
  double largest = 0;
  for (const StepCost* c : steps) largest = std::max(largest, step_activations(m, s, *c).value);
  f.activations = Bytes(largest);
  f.capacity = r.memory_capacity;
  if (f.capacity) f.fits = f.total().value <= *f.capacity;
  return f;
}
}  // namespace

Footprint footprint(const ModelConfig& m, const Scenario& s, const Roofs& r, double prefill_chunk) {
  const StepCost decode = step_cost(m, s, Phase::decode);
  if (!(prefill_chunk > 0 && prefill_chunk < s.prompt)) {
    const StepCost prefill = step_cost(m, s, Phase::prefill);
    return footprint_of(m, s, r, {&prefill, &decode});
  }
  // A prefill in chunks of C (request_timing's): chunk i takes C tokens of every prompt with
  // i·C cached, the last the remainder and the logits. An operator's working set grows with
  // the chunk's rows and, for unfused scores and decompressed MLA keys, with the keys it
  // attends over, never shrinking as the cache fills: of the full chunks the last is the
  // largest, and the final chunk is the only other candidate.
  const double chunks = std::ceil(s.prompt / prefill_chunk);
  SequenceGroup final_chunk;
  final_chunk.sequences = s.batch;
  final_chunk.past = (chunks - 1) * prefill_chunk;
  final_chunk.fresh = s.prompt - final_chunk.past;
  final_chunk.logits = 1;
  final_chunk.prompt = true;
  SequenceGroup last_full = final_chunk;
  if (final_chunk.fresh < prefill_chunk) {
    last_full.past = (chunks - 2) * prefill_chunk;
    last_full.fresh = prefill_chunk;
    last_full.logits = 0;
  }
  const StepCost a = step_cost(m, s, Phase::prefill, &final_chunk, 1);
  const StepCost b = step_cost(m, s, Phase::prefill, &last_full, 1);
  Footprint f = footprint_of(m, s, r, {&decode, &a, &b});
  f.prefill_chunk = prefill_chunk;
  return f;
}

namespace {
// What a critical batch is solved for: one operator (per occurrence), one layer (the average
// layer: each per-layer operator weighted by the share of layers it runs in — 1 when every
// layer is alike), or the whole step; interconnect operators are always left out.
enum class Selection { one_operator, one_layer, whole_step };

// Step W and memory Q of the selected operators at decode batch B, and W's compute time in
// matrix work: W_eq = W_m + W_v·π/π_v, so that W_eq/π is the compute time of matrix work on π
// and vector work on π_v (compute_time), and the selection is compute-bound when
// W_eq/Q ≥ π/β. With only matrix work W_eq = W.
struct DecodeWq {
  double w = 0, q = 0, w_eq = 0, w_vector = 0;
};
DecodeWq decode_wq(const ModelConfig& m, Scenario s, const Roofs& r, double B, Selection sel,
                   std::size_t index) {
  s.batch = B;
  const StepCost c = step_cost(m, s, Phase::decode);
  const double vector_cost = r.peak.value / vector_rate(r).value;
  DecodeWq out;
  for (std::size_t i = 0; i < c.size; ++i) {
    const OpCost& op = c.ops[i];
    if (sel == Selection::one_operator ? i != index : op.interconnect) continue;
    if (sel == Selection::one_layer && !op.per_layer) continue;
    const double n = sel == Selection::one_layer    ? op.count / m.layers
                     : sel == Selection::whole_step ? op.count
                                                    : 1;
    out.w += op.work.value * n;
    out.q += op.traffic().value * n;
    out.w_eq += (op.matrix_work().value + op.vector_work().value * vector_cost) * n;
    out.w_vector += op.vector_work().value * n;
  }
  return out;
}

CriticalBatch solve(const ModelConfig& m, const Scenario& s, const Roofs& r, Selection sel,
                    std::size_t index, std::string name, bool affine) {
  CriticalBatch cb;
  cb.name = std::move(name);
  const DecodeWq b1 = decode_wq(m, s, r, 1, sel, index);
  // The ridge of the selection's own mix of matrix and vector work: π_eff/β with π_eff =
  // W/(W_m/π + W_v/π_v) — π/β for matrix work, π_v/β for element-wise work. The mix is the
  // same at every batch (each kind of work is ∝ B), so it is read at B = 1.
  cb.ridge = b1.w_eq > 0 ? Intensity(r.ridge().value * b1.w / b1.w_eq) : r.ridge();
  cb.vector_share = b1.w > 0 ? b1.w_vector / b1.w : 0;
  const double I = cb.ridge.value;
  const double w1 = b1.w, q1v = b1.q;
  cb.at_batch_1 = Intensity(q1v > 0 ? w1 / q1v : 0);
  // W = w·B, Q = q0 + q1·B (exact for dense models: every term is a constant or ∝ B), fitted at
  // B = 1 and 2 and checked at B = 4: an operator whose rows follow the routing (an expert's
  // activation under --ep, where the busiest device's rows are not ∝ B) is bisected instead.
  const DecodeWq b2 = affine ? decode_wq(m, s, r, 2, sel, index) : DecodeWq{};
  const DecodeWq b4 = affine ? decode_wq(m, s, r, 4, sel, index) : DecodeWq{};
  const double w2 = b2.w, q2 = b2.q, w4 = b4.w, q4 = b4.q;
  const auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::fabs(b); };
  affine = affine && w2 - w1 > 0 && near(w4, w1 + 3 * (w2 - w1)) && near(q4, q1v + 3 * (q2 - q1v));
  if (affine) {
    cb.w = w2 - w1;
    cb.q1 = q2 - q1v;
    cb.q0 = q1v - cb.q1;
    if (std::fabs(cb.q0) < 1e-9 * q1v) cb.q0 = 0;
    const double denom = cb.w - I * cb.q1;
    if (denom <= 0 || cb.w <= 0) {
      cb.never = true;
      cb.batch = INFINITY;
    } else {
      cb.batch = I * cb.q0 / denom;
    }
    return cb;
  }
  // MoE: I(B) rises monotonically (distinct experts grow slower than B); bisect on B.
  cb.closed_form = false;
  // In matrix-equivalent work against π/β (the mix of the experts' rows and the router's may
  // shift with B).
  auto intensity = [&](double B) {
    const DecodeWq x = decode_wq(m, s, r, B, sel, index);
    return x.q > 0 ? x.w_eq / x.q : 0;
  };
  const double ridge = r.ridge().value;
  if (intensity(1) >= ridge) return cb;  // batch 0 ⇒ compute-bound already at B = 1
  double lo = 1, hi = 2;
  while (intensity(hi) < ridge) {
    lo = hi;
    hi *= 2;
    if (hi > 1e9) {
      cb.never = true;
      cb.batch = INFINITY;
      return cb;
    }
  }
  for (int it = 0; it < 60 && hi - lo > 1e-6 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (intensity(mid) >= ridge ? hi : lo) = mid;
  }
  cb.batch = hi;
  return cb;
}
}  // namespace

std::vector<CriticalBatch> critical_batches(const ModelConfig& m, const Scenario& s,
                                            const Roofs& r) {
  std::vector<CriticalBatch> out;
  const StepCost c = step_cost(m, s, Phase::decode);
  for (std::size_t i = 0; i < c.size; ++i) {
    const OpCost& op = c.ops[i];
    if (op.interconnect || op.work.value <= 0) continue;
    const bool affine = op.kind != OpKind::expert_linear;
    out.push_back(solve(m, s, r, Selection::one_operator, i, op.name, affine));
  }
  out.push_back(solve(m, s, r, Selection::one_layer, 0, "one layer", !m.moe()));
  out.push_back(solve(m, s, r, Selection::whole_step, 0, "whole step", !m.moe()));
  return out;
}

std::string above_the_roofs(const std::vector<std::pair<std::string, double>>& shares) {
  const double above = DiagnosisOptions{}.above;
  std::string over;
  for (const auto& [name, share] : shares)
    if (share > above)
      over += (over.empty() ? "" : ", ") + name + " " + format_number(100 * share, 3) + "%";
  if (over.empty()) return over;
  return "above the roofs (" + over +
         "): impossible if the measurement counts what the model counts; check the tokens or "
         "steps measured (speculative or cached tokens, another phase, batch or sequence) and "
         "the roofs";
}

std::string measured_replicas(double replicas) {
  return replicas > 1 ? ", all " + format_number(replicas, 10) + " replicas" : "";
}

Utilisation utilisation(const StepResult& step, double measured_all, const Roofs& r,
                        double replicas) {
  if (!(measured_all > 0) || !std::isfinite(measured_all))
    throw InputError("--measured-tokens-per-s: must be > 0 (got " + format_number(measured_all) +
                     ")");
  check_dp(replicas);
  Utilisation u;
  u.tokens_per_s = measured_all;
  u.replicas = replicas;
  // Each replica runs the step: the rate the step's roofs and prediction are judged at.
  const double measured = measured_all / replicas;
  // Per device: a token's share of the device's W and Q (tensor parallel devices work together on
  // every token, so each device does W_dev per token at the system's token rate).
  // On an integer compute roof only the products' OP are π's; the element-wise FLOP run on π_v
  // and are said apart (Roofs::counts_apart).
  u.work_per_token = r.in_compute_units(step.work, step.vector_work) / step.cost.tokens;
  if (r.counts_apart()) u.vector_work_per_token = step.vector_work / step.cost.tokens;
  u.bytes_per_token = step.traffic / step.cost.tokens;
  // docs/model.md (utilisation): MFU = model FLOP per token × tokens/s ÷ peak.
  u.mfu = u.work_per_token.value * measured / r.peak.value;
  u.bandwidth = u.bytes_per_token.value * measured / r.bandwidth.value;
  u.of_roofline = measured / (step.cost.tokens / step.time.value);
  u.above_roof = above_the_roofs({{"MFU", u.mfu},
                                  {"bandwidth utilisation", u.bandwidth},
                                  {"the roofline prediction", u.of_roofline}});
  return u;
}

Report analyse(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r,
               std::optional<double> measured) {
  AnalyseOptions o;
  o.measured_tokens_per_s = measured;
  return analyse(m, s, phase, r, o);
}

Report analyse(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r,
               const AnalyseOptions& o) {
  validate_scenario(m, s);
  Report rep;
  rep.model = m;
  rep.params = count_parameters(m);
  rep.scenario = s;
  rep.phase = phase;
  rep.roofs = r;
  rep.prefill = evaluate_step(m, s, Phase::prefill, r);
  rep.decode = evaluate_step(m, s, Phase::decode, r);
  rep.prefill_point = aggregate_all(rep.prefill, "prefill");
  rep.decode_linear = aggregate_linear(rep.decode, "decode linear layers");
  rep.decode_attention = aggregate_attention(rep.decode, "decode attention");
  rep.ttft = rep.prefill.time;
  rep.time_per_token = rep.decode.time;
  if (s.pp > 1) {
    rep.pipeline_prefill = pipeline_step(m, s, Phase::prefill, r);
    rep.pipeline_decode = pipeline_step(m, s, Phase::decode, r);
    rep.ttft = rep.pipeline_prefill->fill_drain;
    rep.time_per_token = rep.pipeline_decode->steady;
  }
  rep.tokens_per_s = s.batch / rep.time_per_token.value;
  rep.memory = footprint(m, s, r, o.prefill_chunk);
  rep.critical = critical_batches(m, s, r);
  rep.warnings = estimate_warnings(m, s, r);
  // As request_timing and simulate_serving say it: the times assume the model fits.
  if (rep.memory.fits && !*rep.memory.fits)
    rep.warnings.push_back("the weights " + format_bytes(rep.memory.weights) + ", KV cache " +
                           format_bytes(rep.memory.kv_cache) + " and activations " +
                           format_bytes(rep.memory.activations) + " (" +
                           format_bytes(rep.memory.total()) + ") exceed the " +
                           format_bytes(Bytes(*rep.memory.capacity)) + " of " + r.memory_level +
                           " per device: it does not fit, and the times assume it did");
  if (const auto& measured = o.measured_tokens_per_s) {
    rep.measured =
        utilisation(phase == Phase::prefill ? rep.prefill : rep.decode, *measured, r, o.replicas);
    // Above a roof by more than `roofline point`'s slack (docs/model.md): one of the report's
    // warnings, so that every output (text, JSON, stderr, Python) carries it.
    if (!rep.measured->above_roof.empty())
      rep.warnings.push_back("the measured " + format_number(*measured, 6) + " tokens/s (" +
                             to_string(phase) + measured_replicas(o.replicas) + ") is " +
                             rep.measured->above_roof);
  }
  return rep;
}

std::vector<SweepRow> sweep(const ModelConfig& m, const Scenario& base,
                            const std::vector<double>& batches, const std::vector<double>& contexts,
                            const Roofs& r) {
  // Each row costs two steps and holds a few hundred bytes of text: bounded so that a sweep
  // ends in seconds (a list of 20000 batches by 20000 contexts ran out of memory).
  constexpr double kMostSweepRows = 1e5;
  const double cells = static_cast<double>(batches.size()) * static_cast<double>(contexts.size());
  if (cells > kMostSweepRows)
    throw InputError("--batch × --context: " + std::to_string(batches.size()) + " × " +
                     std::to_string(contexts.size()) + " = " + format_number(cells, 10) +
                     " rows; at most " + format_number(kMostSweepRows) +
                     " are computed (give shorter lists or ranges)");
  std::vector<SweepRow> rows;
  rows.reserve(batches.size() * contexts.size());
  const bool prompt_from_context = base.prompt <= 0;
  for (double L : contexts) {
    for (double B : batches) {
      Scenario s = base;
      s.batch = B;
      s.context = L;
      if (prompt_from_context) s.prompt = L;
      validate_scenario(m, s);
      const StepResult dec = evaluate_step(m, s, Phase::decode, r);
      const StepResult pre = evaluate_step(m, s, Phase::prefill, r);
      SweepRow row;
      row.batch = B;
      row.context = L;
      row.prompt = s.prompt;
      // W and I in the compute roof's unit: on an integer roof the products' OP, the
      // element-wise FLOP apart (Roofs::counts_apart).
      const auto intensity = [&](Work w, Work vector, Bytes q) {
        return r.in_compute_units(w, vector) / q;
      };
      const Aggregate attention = aggregate_attention(dec, "");
      row.decode_work = r.in_compute_units(dec.work, dec.vector_work);
      if (r.counts_apart()) row.decode_vector_work = dec.vector_work;
      row.decode_traffic = dec.traffic;
      row.decode_intensity = intensity(dec.work, dec.vector_work, dec.traffic);
      row.decode_bound = step_bound(dec);
      row.decode_compute_bound = row.decode_bound == "compute";
      row.linear_intensity = aggregate_linear(dec, "").intensity();
      row.attention_intensity = intensity(attention.work, attention.vector_work, attention.traffic);
      row.prefill_intensity = intensity(pre.work, pre.vector_work, pre.traffic);
      row.ttft = pre.time;
      row.time_per_token = dec.time;
      if (s.pp > 1) {
        row.ttft = pipeline_step(m, s, Phase::prefill, r).fill_drain;
        row.time_per_token = pipeline_step(m, s, Phase::decode, r).steady;
      }
      row.tokens_per_s = B / row.time_per_token.value;
      const Footprint f = footprint_of(m, s, r, {&pre.cost, &dec.cost});
      row.memory = f.total();
      row.fits = f.fits;
      row.decode_point = aggregate_all(dec, "");
      rows.push_back(row);
    }
  }
  return rows;
}

namespace {
/// An operator's W as its point is drawn: counted apart (--cdtype int8), the work of the unit of
/// the roof it is judged against — the products' OP on π, the element-wise FLOP on π_v — never
/// the two added.
Work drawn_work(const OpCost& op, const Roofs& r) {
  if (!r.counts_apart()) return op.work;
  return compute_roof_of(op, r) == r.vector_name ? op.vector_work() : op.matrix_work();
}
}  // namespace

std::vector<Point> to_points(const Report& r) {
  std::vector<Point> pts;
  const StepResult& st = r.phase == Phase::prefill ? r.prefill : r.decode;
  const std::string phase = to_string(r.phase);
  for (std::size_t i = 0; i < st.cost.size; ++i) {
    const OpCost& op = st.cost.ops[i];
    if (op.work.value <= 0 || op.traffic().value <= 0) continue;
    Point p;
    p.name = phase + " " + op.name;
    p.work = drawn_work(op, r.roofs) * op.count;
    p.traffic.push_back({op.interconnect ? r.roofs.interconnect_name : r.roofs.memory_level,
                         op.traffic() * op.count});
    p.time = st.timing[i].time * op.count;
    p.precision = compute_roof_of(op, r.roofs);  // the roof it was judged against, by name
    p.source = "llm model";
    pts.push_back(std::move(p));
  }
  for (const Aggregate* a : {&r.prefill_point, &r.decode_linear, &r.decode_attention}) {
    Point p;
    p.name = a->name;
    p.work = r.roofs.in_compute_units(a->work, a->vector_work);  // on π: the products'
    p.traffic.push_back({r.roofs.memory_level, a->traffic});
    p.time = a->time;
    p.precision = r.roofs.compute_name;
    p.source = "llm model (summary)";
    pts.push_back(std::move(p));
  }
  return pts;
}

std::vector<Point> sweep_points(const std::vector<SweepRow>& rows, const Roofs& r) {
  std::vector<Point> pts;
  pts.reserve(rows.size());
  for (const auto& row : rows) {
    Point p;
    p.name = "decode B=" + format_number(row.batch, 10) + " L=" + format_number(row.context, 10);
    p.work = r.in_compute_units(row.decode_point.work, row.decode_point.vector_work);
    p.traffic.push_back({r.memory_level, row.decode_point.traffic});
    p.time = row.decode_point.time;
    p.precision = r.compute_name;
    p.source = "llm model (decode step, memory-roof operators)";
    pts.push_back(std::move(p));
  }
  return pts;
}

}  // namespace roofline::llm
