// The transformer as operators with closed-form W and Q (docs/llm.md states every formula).
//
// Counting rules (DIGEST §3): a matrix product of (m×k)·(k×n) is 2·m·k·n FLOP (a MAC counts as
// 2); compulsory traffic moves every distinct element once (DIGEST §4): weights once per step,
// inputs read once, outputs written once; a read and a write are separate traffic.
#include <cmath>
#include <string>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {
namespace {

// FLOP per element of the element-wise operators (a convention, stated in docs/llm.md; these
// operators are memory-bound at any size, so the convention moves no bound):
//   RMSNorm x·γ/√(mean x²): square, accumulate, scale, γ = 4
//   LayerNorm: 8 (as kernels.hpp's layernorm: mean, subtract, square, accumulate, scale, γ, β)
//   softmax: max, subtract, exp, accumulate, divide = 5 (as kernels.hpp)
//   SiLU x/(1 + e^−x): negate, exp, add, divide = 4; GELU (tanh form) 9; ReLU 1;
//   the GLU product silu(gate)·up adds 1.
constexpr double kRmsNormFlop = 4;
constexpr double kLayerNormFlop = 8;
constexpr double kSoftmaxFlop = 5;

double activation_flop(const std::string& act) {
  if (act.rfind("gelu", 0) == 0) return 9;
  if (act == "relu") return 1;
  return 4;  // silu / swish
}

const char* activation_name(const std::string& act, bool gated) {
  if (act.rfind("gelu", 0) == 0) return gated ? "gelu·mul" : "gelu";
  if (act == "relu") return gated ? "relu·mul" : "relu";
  if (act == "silu" || act == "swish") return gated ? "silu·mul" : "silu";
  return gated ? "activation·mul" : "activation";
}

struct Builder {
  StepCost& step;
  double layers;
  void add(const char* name, OpKind kind, bool per_layer, double work, double weights,
           double activations, double kv = 0, bool interconnect = false) {
    if (step.size >= kMaxOps) throw Error("llm: too many operators in one step");
    OpCost& op = step.ops[step.size++];
    op.name = name;
    op.kind = kind;
    op.per_layer = per_layer;
    op.interconnect = interconnect;
    op.count = per_layer ? layers : 1;
    op.work = Work(work);
    op.weights = Bytes(weights);
    op.activations = Bytes(activations);
    op.kv = Bytes(kv);
  }
};

}  // namespace

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
  }
  return "operator";
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
  if (s.tp < 1) throw InputError("--tp: must be ≥ 1 (got " + std::to_string(s.tp) + ")");
  const double tp = s.tp;
  if (std::fmod(m.heads, tp) != 0)
    throw InputError("--tp " + std::to_string(s.tp) + ": must divide num_attention_heads (" +
                     format_number(m.heads) + ") of " + m.name);
  if (m.kv_heads >= tp ? std::fmod(m.kv_heads, tp) != 0 : std::fmod(tp, m.kv_heads) != 0)
    throw InputError("--tp " + std::to_string(s.tp) +
                     ": must divide, or be a multiple of, "
                     "num_key_value_heads (" +
                     format_number(m.kv_heads) + ") of " + m.name);
}

std::vector<std::string> scenario_warnings(const ModelConfig& m, const Scenario& s) {
  std::vector<std::string> w;
  if (m.max_positions > 0 && s.context > m.max_positions)
    w.push_back("context " + format_number(s.context, 10) + " exceeds " + m.name +
                "'s max_position_embeddings " + format_number(m.max_positions, 10) +
                ": the model was not trained for it; the cost is modelled, the quality is not");
  return w;
}

StepCost step_cost(const ModelConfig& m, const Scenario& s, Phase phase) {
  StepCost step;
  step.phase = phase;
  Builder b{step, m.layers};
  const double B = s.batch;
  const double T = phase == Phase::prefill ? s.prompt : 1;  // new tokens per sequence
  // Keys attended over: the prompt in prefill; in decode the context, or its last W tokens with
  // a sliding window (Mistral 7B, Jiang et al. 2023 §2: each token attends to the W before it).
  const double Lk = phase == Phase::prefill ? s.prompt : m.attended(s.context);
  const double N = B * T;  // rows of every linear
  step.tokens = N;
  const double P = s.tp;
  const double d = m.hidden, hd = m.head_dim, V = m.vocab;
  // Tensor parallelism (Megatron-LM, Shoeybi et al. 2019): heads and MLP columns are split
  // across P devices; K/V heads are split when there are at least P of them, else replicated.
  const double Hq = m.heads / P;
  const double Hkv = m.kv_heads >= P ? m.kv_heads / P : 1;
  const double sa = s.dtypes.activations.bytes, sw = s.dtypes.weights.bytes,
               skv = s.dtypes.kv_cache.bytes;
  const double norm_flop = m.norm == Norm::rms ? kRmsNormFlop : kLayerNormFlop;
  const double norm_params = (m.norm == Norm::rms ? 1 : 2) * d;
  const double act_flop = activation_flop(m.activation);
  // Ring all-reduce (Patarasuk & Yuan 2009): each device sends 2·(P−1)/P of the message and
  // receives as much, and adds (P−1)/P of its elements. The bytes counted are sent + received,
  // 4·(P−1)/P·M, because interconnect roofs carry the bidirectional datasheet figure (A100
  // NVLink 600 GB/s = 300 GB/s each way; data/hardware notes). That is the same time as NCCL's
  // convention (nccl-tests doc/PERFORMANCE.md: bus bandwidth busBw = algBw·2(n−1)/n for
  // all-reduce, (n−1)/n for all-gather, measured against the unidirectional link rate): twice
  // the bytes against twice the rate. A ring all-gather sends and receives (P−1)/P of the
  // gathered result each, 2·(P−1)/P·M counted. Per-collective latency is not modelled.
  const double ring = (P - 1) / P;

  // A linear layer y = x·W (+ b) over `rows` rows: W = 2·rows·in·out (+ rows·out for the bias);
  // Q = weights in·out·s_w (+ bias out·s_a) + input rows·in·s_a + output rows·out·s_out.
  auto linear = [&](const char* name, OpKind kind, double in, double out, double rows, bool bias,
                    double out_bytes, bool to_cache) {
    const double work = 2 * rows * in * out + (bias ? rows * out : 0);
    const double weights = in * out * sw + (bias ? out * sa : 0);
    const double act_in = rows * in * sa, write = rows * out * out_bytes;
    b.add(name, kind, true, work, weights, act_in + (to_cache ? 0 : write), to_cache ? write : 0);
  };
  auto norm = [&](const char* name, bool per_layer, double rows) {
    b.add(name, OpKind::norm, per_layer, norm_flop * rows * d, norm_params * sa, 2 * rows * d * sa);
  };
  auto all_reduce = [&](const char* name, double elements) {
    if (P > 1)
      b.add(name, OpKind::all_reduce, true, ring * elements, 0, 4 * ring * elements * sa, 0, true);
  };
  // Gated MLP (SwiGLU): gate and up d→ff, silu(gate)·up, down ff→d. Plain: fc1, act, fc2.
  auto dense_mlp = [&](const char* gate, const char* up, const char* act, const char* down,
                       double ff) {
    const double f = ff / P;
    if (m.mlp == Mlp::gated) {
      linear(gate, OpKind::linear, d, f, N, m.linear_bias, sa, false);
      linear(up, OpKind::linear, d, f, N, m.linear_bias, sa, false);
      b.add(act, OpKind::activation, true, (act_flop + 1) * N * f, 0, 3 * N * f * sa);
      linear(down, OpKind::linear, f, d, N, m.linear_bias, sa, false);
    } else {
      linear(gate, OpKind::linear, d, f, N, m.linear_bias, sa, false);
      b.add(act, OpKind::activation, true, act_flop * N * f, 0, 2 * N * f * sa);
      linear(down, OpKind::linear, f, d, N, m.linear_bias, sa, false);
    }
  };

  // Embedding gather: N rows of the (vocab-parallel) table, written as activations.
  b.add("embedding", OpKind::embedding, false, m.positions > 0 ? N * d : 0,
        N * d / P * sw + (m.positions > 0 ? N * d * sw : 0), N * d * sa);
  if (P > 1)
    b.add("embedding all-reduce", OpKind::all_reduce, false, ring * N * d, 0, 4 * ring * N * d * sa,
          0, true);

  norm("attention norm", true, N);
  linear("q_proj", OpKind::linear, d, Hq * hd, N, m.attention_bias, sa, false);
  linear("k_proj", OpKind::linear, d, Hkv * hd, N, m.attention_bias, skv, true);
  linear("v_proj", OpKind::linear, d, Hkv * hd, N, m.attention_bias, skv, true);

  // Attention per sequence and head. GQA/MQA: K and V are read once per KV head.
  const double q_bytes = N * Hq * hd * sa, out_bytes = N * Hq * hd * sa;
  const double k_bytes = B * Lk * Hkv * hd * skv;  // K (and as much V)
  if (s.flash) {
    // FlashAttention (Dao et al. 2022): scores stay on chip; Q, K, V read once, O written. A
    // causal kernel skips the masked blocks: prefill scores S(S+1)/2 query-key pairs (the lower
    // triangle with its diagonal); with a window W < S, query i sees min(i, W) keys, so
    // Σ min(i, W) = W(W+1)/2 + (S−W)·W. A decode step scores its one query against Lk keys.
    const double W = m.sliding_window;
    const double pairs = phase == Phase::decode ? Lk
                         : (W > 0 && W < Lk)    ? W * (W + 1) / 2 + (Lk - W) * W
                                                : Lk * (Lk + 1) / 2;
    const double score_flop = 2 * B * Hq * hd * pairs;  // q·kᵀ, and the same again for p·v
    b.add("attention (fused)", OpKind::attention_fused, true,
          2 * score_flop + kSoftmaxFlop * B * Hq * pairs, 0, q_bytes + out_bytes, 2 * k_bytes);
  } else {
    // Unfused kernels (q·kᵀ GEMM, masked softmax, p·v GEMM) compute the whole T×L score matrix
    // — in prefill S², masked entries (causal and sliding-window) included — write it, read it
    // back in softmax and in p·v: W and Q count the same T·L pairs.
    const double pairs = T * Lk;
    const double score_flop = 2 * B * Hq * hd * pairs;
    const double scores = B * Hq * pairs * sa;
    b.add("q·kᵀ", OpKind::attention_scores, true, score_flop, 0, q_bytes + scores, k_bytes);
    b.add("softmax", OpKind::softmax, true, kSoftmaxFlop * B * Hq * pairs, 0, 2 * scores);
    b.add("attention·v", OpKind::attention_values, true, score_flop, 0, scores + out_bytes,
          k_bytes);
  }
  linear("o_proj", OpKind::linear, Hq * hd, d, N, m.linear_bias, sa, false);
  all_reduce("attention all-reduce", N * d);
  b.add("residual add", OpKind::residual, true, N * d, 0, 3 * N * d * sa);
  norm("mlp norm", true, N);

  if (m.moe()) {
    // Router: d → E logits per token, replicated on every device.
    const double E = m.experts, k = m.experts_per_token, f = m.expert_intermediate / P;
    b.add("router", OpKind::router, true, 2 * N * d * E, d * E * sw, N * d * sa + N * E * sa);
    // Each of N tokens picks k of E experts; with uniform routing an expert is untouched by one
    // token with probability 1 − k/E, so the batch touches E·(1 − (1 − k/E)^N) distinct experts
    // in expectation, and only their weights move (docs/llm.md).
    const double touched = E * (1 - std::pow(1 - k / E, N));
    const double rows = N * k;
    auto expert = [&](const char* name, double in, double out) {
      b.add(name, OpKind::expert_linear, true,
            2 * rows * in * out + (m.linear_bias ? rows * out : 0),
            touched * (in * out * sw + (m.linear_bias ? out * sa : 0)),
            rows * in * sa + rows * out * sa);
    };
    if (m.mlp == Mlp::gated) {
      expert("expert gate", d, f);
      expert("expert up", d, f);
      b.add("expert activation", OpKind::activation, true, (act_flop + 1) * rows * f, 0,
            3 * rows * f * sa);
      expert("expert down", f, d);
    } else {
      expert("expert fc1", d, f);
      b.add("expert activation", OpKind::activation, true, act_flop * rows * f, 0,
            2 * rows * f * sa);
      expert("expert fc2", f, d);
    }
    if (m.shared_intermediate > 0)
      dense_mlp("shared gate", "shared up", "shared activation", "shared down",
                m.shared_intermediate);
  } else if (m.mlp == Mlp::gated) {
    dense_mlp("gate_proj", "up_proj", activation_name(m.activation, true), "down_proj",
              m.intermediate);
  } else {
    dense_mlp("fc1", "", activation_name(m.activation, false), "fc2", m.intermediate);
  }
  all_reduce("mlp all-reduce", N * d);
  b.add("residual add (mlp)", OpKind::residual, true, N * d, 0, 3 * N * d * sa);

  // Serving engines normalise every row but compute logits only for the position they sample:
  // the last token of each sequence (B rows) in prefill, every row in decode.
  norm("final norm", false, N);
  const double Vd = V / P;
  b.add("lm_head", OpKind::lm_head, false, 2 * B * d * Vd, d * Vd * sw, B * d * sa + B * Vd * sa);
  if (P > 1)
    b.add("logits all-gather", OpKind::all_gather, false, 0, 0, 2 * ring * B * V * sa, 0, true);
  return step;
}

Roofs select_roofs(const RoofSet& set, const DataType& compute,
                   std::optional<ByteRate> interconnect_override) {
  Roofs r;
  r.machine = set.name;
  const ComputeRoof* c = nullptr;
  // The compute dtype's roof: by precision name, FP8 also as "fp8".
  std::vector<std::string> keys{compute.name};
  if (compute.name.rfind("fp8", 0) == 0) keys.push_back("fp8");
  for (const auto& k : keys) {
    for (const auto& roof : set.compute)
      if (!roof.sparse && roof.precision == k && (!c || roof.peak > c->peak)) c = &roof;
    if (c) break;
  }
  if (!c && set.compute.size() == 1 && set.compute.front().precision.empty())
    c = &set.compute.front();  // --peak without a precision: the one roof given
  if (!c) {
    std::string names;
    for (const auto& roof : set.compute)
      names += (names.empty() ? "" : ", ") + roof.name + " (" + roof.precision + ")";
    throw InputError("machine '" + set.name + "' has no compute roof for the compute dtype '" +
                     compute.name + "' (roofs: " + (names.empty() ? "none" : names) +
                     "); choose another with --cdtype");
  }
  r.compute_name = c->name;
  r.peak = c->peak;
  const MemoryRoof& mem = set.select_memory("");
  r.memory_level = mem.level;
  r.bandwidth = mem.bandwidth;
  r.memory_capacity = mem.size_bytes;
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
  return r;
}

StepResult evaluate_step(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r) {
  StepResult res;
  res.cost = step_cost(m, s, phase);
  if (s.tp > 1 && !r.interconnect)
    throw InputError("--tp " + std::to_string(s.tp) + ": machine '" + r.machine +
                     "' has no roof of kind \"interconnect\"; give --interconnect-bandwidth");
  for (std::size_t i = 0; i < res.cost.size; ++i) {
    const OpCost& op = res.cost.ops[i];
    const ByteRate beta = op.interconnect ? *r.interconnect : r.bandwidth;
    OpTiming& t = res.timing[i];
    // DIGEST §2: T ≥ max(W/π, Q/β); without overlap W/π + Q/β (core's model.hpp).
    t.time = time_bound(op.work, op.traffic(), r.peak, beta);
    t.time_no_overlap = time_no_overlap(op.work, op.traffic(), r.peak, beta);
    t.compute_bound = op.work / r.peak > op.traffic() / beta;
    res.work += op.work * op.count;
    if (op.interconnect)
      res.interconnect += op.traffic() * op.count;
    else
      res.traffic += op.traffic() * op.count;
    res.time += t.time * op.count;
    res.time_no_overlap += t.time_no_overlap * op.count;
  }
  return res;
}

namespace {
bool is_linear(OpKind k) {
  return k == OpKind::linear || k == OpKind::expert_linear || k == OpKind::lm_head ||
         k == OpKind::router;
}
bool is_attention(OpKind k) {
  return k == OpKind::attention_scores || k == OpKind::softmax || k == OpKind::attention_values ||
         k == OpKind::attention_fused;
}
template <class Pred>
Aggregate aggregate(const StepResult& s, const char* name, Pred pred) {
  Aggregate a;
  a.name = name;
  for (std::size_t i = 0; i < s.cost.size; ++i) {
    const OpCost& op = s.cost.ops[i];
    if (op.interconnect || !pred(op.kind)) continue;
    a.work += op.work * op.count;
    a.traffic += op.traffic() * op.count;
    a.time += s.timing[i].time * op.count;
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

namespace {
// The footprint given the two steps' operators (the sweep has them already).
Footprint footprint_of(const ModelConfig& m, const Scenario& s, const Roofs& r,
                       const StepCost& prefill, const StepCost& decode) {
  // Weights: matrices in the weight dtype, norms and biases in the activation dtype; per device
  // as step_cost splits them (count_parameters with tp): with fewer K/V heads than devices each
  // device holds a whole K/V head, so k_proj and v_proj do not shrink by P.
  const double P = s.tp;
  const ParameterCount p = count_parameters(m, s.tp);
  const double layer_matrices = p.matmul - m.vocab / P * m.hidden;  // less the LM head
  const double tables = p.embedding + p.lm_head;                    // tied: one table
  const double biases = p.attention + p.mlp - layer_matrices;
  Footprint f;
  f.weights = Bytes((layer_matrices + tables) * s.dtypes.weights.bytes +
                    (biases + p.norms) * s.dtypes.activations.bytes);
  // KV cache of B sequences at the larger of prompt and context, per device; with a sliding
  // window a rolling buffer of W tokens (Mistral 7B, Jiang et al. 2023 §2, "Rolling Buffer
  // Cache").
  const double kv_heads_dev = m.kv_heads >= P ? m.kv_heads / P : 1;
  const double tokens = m.attended(std::max(s.prompt, s.context));
  f.kv_cache =
      Bytes(2 * m.layers * kv_heads_dev * m.head_dim * s.dtypes.kv_cache.bytes * s.batch * tokens);
  // Activations: the residual stream plus the largest single operator's activation working set
  // over both phases (the score matrix of unfused prefill attention dominates).
  double largest = 0;
  for (const StepCost* c : {&prefill, &decode})
    for (std::size_t i = 0; i < c->size; ++i)
      if (!c->ops[i].interconnect) largest = std::max(largest, c->ops[i].activations.value);
  f.activations = Bytes(largest + s.batch * s.prompt * m.hidden * s.dtypes.activations.bytes);
  f.capacity = r.memory_capacity;
  if (f.capacity) f.fits = f.total().value <= *f.capacity;
  return f;
}
}  // namespace

Footprint footprint(const ModelConfig& m, const Scenario& s, const Roofs& r) {
  return footprint_of(m, s, r, step_cost(m, s, Phase::prefill), step_cost(m, s, Phase::decode));
}

namespace {
// Step W and memory Q of the operators selected by `index` (-1: every memory-roof operator;
// -2: one layer's memory-roof operators) at decode batch B.
std::pair<double, double> decode_wq(const ModelConfig& m, Scenario s, double B, int index) {
  s.batch = B;
  const StepCost c = step_cost(m, s, Phase::decode);
  if (index >= 0) {
    const OpCost& op = c.ops[static_cast<std::size_t>(index)];
    return {op.work.value, op.traffic().value};
  }
  double w = 0, q = 0;
  for (std::size_t i = 0; i < c.size; ++i) {
    const OpCost& op = c.ops[i];
    if (op.interconnect) continue;
    if (index == -2 && !op.per_layer) continue;
    const double n = index == -2 ? 1 : op.count;
    w += op.work.value * n;
    q += op.traffic().value * n;
  }
  return {w, q};
}

CriticalBatch solve(const ModelConfig& m, const Scenario& s, const Roofs& r, int index,
                    std::string name, bool affine) {
  CriticalBatch cb;
  cb.name = std::move(name);
  cb.ridge = r.ridge();
  const double I = cb.ridge.value;
  const auto [w1, q1v] = decode_wq(m, s, 1, index);
  cb.at_batch_1 = Intensity(q1v > 0 ? w1 / q1v : 0);
  if (affine) {
    // W = w·B, Q = q0 + q1·B (exact for dense models: every term is a constant or ∝ B).
    const auto [w2, q2] = decode_wq(m, s, 2, index);
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
  auto intensity = [&](double B) {
    const auto [w, q] = decode_wq(m, s, B, index);
    return q > 0 ? w / q : 0;
  };
  if (intensity(1) >= I) return cb;  // batch 0 ⇒ compute-bound already at B = 1
  double lo = 1, hi = 2;
  while (intensity(hi) < I) {
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
    (intensity(mid) >= I ? hi : lo) = mid;
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
    out.push_back(solve(m, s, r, static_cast<int>(i), op.name, affine));
  }
  out.push_back(solve(m, s, r, -2, "one layer", !m.moe()));
  out.push_back(solve(m, s, r, -1, "whole step", !m.moe()));
  return out;
}

Utilisation utilisation(const StepResult& step, double measured, const Roofs& r) {
  if (!(measured > 0) || !std::isfinite(measured))
    throw InputError("--measured-tokens-per-s: must be > 0 (got " + format_number(measured) + ")");
  Utilisation u;
  u.tokens_per_s = measured;
  // Per device: a token's share of the device's W and Q (tensor parallel devices work together on
  // every token, so each device does W_dev per token at the system's token rate).
  u.work_per_token = step.work / step.cost.tokens;
  u.bytes_per_token = step.traffic / step.cost.tokens;
  // DIGEST §11: MFU = model FLOP per token × tokens/s ÷ peak.
  u.mfu = u.work_per_token.value * measured / r.peak.value;
  u.bandwidth = u.bytes_per_token.value * measured / r.bandwidth.value;
  u.of_roofline = measured / (step.cost.tokens / step.time.value);
  return u;
}

Report analyse(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r,
               std::optional<double> measured) {
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
  rep.tokens_per_s = s.batch / rep.decode.time.value;
  rep.memory = footprint(m, s, r);
  rep.critical = critical_batches(m, s, r);
  rep.warnings = scenario_warnings(m, s);
  if (measured)
    rep.measured = utilisation(phase == Phase::prefill ? rep.prefill : rep.decode, *measured, r);
  return rep;
}

std::vector<SweepRow> sweep(const ModelConfig& m, const Scenario& base,
                            const std::vector<double>& batches, const std::vector<double>& contexts,
                            const Roofs& r) {
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
      row.decode_work = dec.work;
      row.decode_traffic = dec.traffic;
      row.decode_intensity = dec.intensity();
      row.decode_compute_bound = dec.intensity() >= r.ridge();
      row.linear_intensity = aggregate_linear(dec, "").intensity();
      row.attention_intensity = aggregate_attention(dec, "").intensity();
      row.prefill_intensity = pre.intensity();
      row.ttft = pre.time;
      row.time_per_token = dec.time;
      row.tokens_per_s = B / dec.time.value;
      const Footprint f = footprint_of(m, s, r, pre.cost, dec.cost);
      row.memory = f.total();
      row.fits = f.fits;
      row.decode_point = aggregate_all(dec, "");
      rows.push_back(row);
    }
  }
  return rows;
}

std::vector<Point> to_points(const Report& r) {
  std::vector<Point> pts;
  const StepResult& st = r.phase == Phase::prefill ? r.prefill : r.decode;
  const std::string phase = to_string(r.phase);
  for (std::size_t i = 0; i < st.cost.size; ++i) {
    const OpCost& op = st.cost.ops[i];
    if (op.work.value <= 0 || op.traffic().value <= 0) continue;
    Point p;
    p.name = phase + " " + op.name;
    p.work = op.work * op.count;
    p.traffic.push_back({op.interconnect ? r.roofs.interconnect_name : r.roofs.memory_level,
                         op.traffic() * op.count});
    p.time = st.timing[i].time * op.count;
    p.precision = r.roofs.compute_name;  // the roof it was judged against, by name
    p.source = "llm model";
    pts.push_back(std::move(p));
  }
  for (const Aggregate* a : {&r.prefill_point, &r.decode_linear, &r.decode_attention}) {
    Point p;
    p.name = a->name;
    p.work = a->work;
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
    p.work = row.decode_point.work;
    p.traffic.push_back({r.memory_level, row.decode_point.traffic});
    p.time = row.decode_point.time;
    p.precision = r.compute_name;
    p.source = "llm model (decode step, memory-roof operators)";
    pts.push_back(std::move(p));
  }
  return pts;
}

}  // namespace roofline::llm
