// One step of a transformer as operators with closed-form W and Q (docs/llm.md states every
// formula; the counting conventions are in counting.hpp). A step is a batch of sequence groups
// (prefill, decode, a mixed continuous-batching step, a speculative verification); the
// operators are built in the order they run: embedding, the attention block, the MLP block,
// the head.
#include <cmath>
#include <string>

#include "counting.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {
namespace {

using counting::Span;

// Operator names of one attention form. Models with several forms (Gemma's local and global
// layers, Llama 4's chunked and global ones) tell them apart by a suffix.
struct AttentionNames {
  const char* scores;
  const char* softmax;
  const char* values;
  const char* fused;
};
constexpr AttentionNames kPlainNames{"q·kᵀ", "softmax", "attention·v", "attention (fused)"};
constexpr AttentionNames kGlobalNames{"q·kᵀ (global)", "softmax (global)", "attention·v (global)",
                                      "attention (fused, global)"};
constexpr AttentionNames kLocalNames{"q·kᵀ (local)", "softmax (local)", "attention·v (local)",
                                     "attention (fused, local)"};
constexpr AttentionNames kChunkNames{"q·kᵀ (chunked)", "softmax (chunked)", "attention·v (chunked)",
                                     "attention (fused, chunked)"};
// Absorbed MLA attends over the latent: scores against [c_KV; k_R], values are c_KV itself.
constexpr AttentionNames kLatentNames{"q·cᵀ (latent)", "softmax (latent)", "p·c (latent)",
                                      "attention (fused, latent)"};

const char* activation_name(const std::string& act, bool gated) {
  if (act.rfind("gelu", 0) == 0) return gated ? "gelu·mul" : "gelu";
  if (act == "relu") return gated ? "relu·mul" : "relu";
  if (act == "silu" || act == "swish") return gated ? "silu·mul" : "silu";
  return gated ? "activation·mul" : "activation";
}

/// Element-wise operators (norms, residual adds, activations, softmax, the embedding's position
/// add, the reductions of collectives) run on the vector units; products on the matrix unit.
ComputeUnit unit_of(OpKind k) {
  switch (k) {
    case OpKind::linear:
    case OpKind::expert_linear:
    case OpKind::attention_scores:
    case OpKind::attention_values:
    case OpKind::attention_fused:
    case OpKind::latent_decompression:
    case OpKind::lm_head:
    case OpKind::router:
      return ComputeUnit::matrix;
    default:
      return ComputeUnit::vector;
  }
}

/// Per key of one attention form: the head sizes and where K and V come from.
struct KeyLayout {
  double qk_dim = 0;        ///< per head, query·key dot length
  double v_dim = 0;         ///< per head, value length
  double cache_k = 0;       ///< K bytes per key read from the KV cache (all heads together)
  double cache_v = 0;       ///< V bytes per key read from the KV cache (0 when V = K's latent)
  double act_k = 0;         ///< K bytes per key read from activations (decompressed MLA)
  double act_v = 0;         ///< V bytes per key read from activations
  bool v_inside_k = false;  ///< V is part of K's cached bytes (absorbed MLA: V = c_KV)
};

/// Sums of one attention form over the groups that use it.
struct AttentionSums {
  double rows = 0;           ///< queries (tokens processed)
  double fused_pairs = 0;    ///< causal query-key pairs a mask-skipping kernel computes
  double unfused_pairs = 0;  ///< fresh × keys_read per sequence: the full score blocks
  double keys = 0;           ///< keys read, per sequence, summed over sequences
};

class StepBuilder {
 public:
  StepBuilder(const ModelConfig& m, const Scenario& s, Phase phase, const SequenceGroup* groups,
              std::size_t count, StepCost& out)
      : m_(m), s_(s), groups_(groups), count_(count), out_(out) {
    out_.phase = phase;
    P_ = s.tp;
    d_ = m.hidden;
    hd_ = m.head_dim;
    // Tensor parallelism (Megatron-LM, Shoeybi et al. 2019): heads and MLP columns are split
    // across P devices; K/V heads are split when there are at least P of them, else replicated.
    Hq_ = m.heads / P_;
    Hkv_ = m.kv_heads >= P_ ? m.kv_heads / P_ : 1;
    sa_ = s.dtypes.activations.bytes;
    sw_ = s.dtypes.weights.bytes;
    skv_ = s.dtypes.kv_cache.bytes;
    norm_flop_ = m.norm == Norm::rms ? counting::kRmsNormFlop : counting::kLayerNormFlop;
    norm_params_ = m.norm == Norm::rms ? 1 : 2;
    cp_ = s.cp < 1 ? 1 : s.cp;
    // Context parallelism splits each prompt's tokens over cp devices (ring attention); a
    // generated token is computed on every one of them (only its attention is split).
    for (std::size_t i = 0; i < count_; ++i) {
      const SequenceGroup& g = groups_[i];
      const double rows = g.sequences * g.fresh;
      rows_ += g.prompt ? rows / cp_ : rows;
      (g.prompt ? prompt_rows_ : generated_rows_) += rows;
      logit_rows_ += g.sequences * g.logits / (g.prompt ? cp_ : 1);
    }
    out_.tokens = rows_;
  }

  void build() {
    embedding();
    attention_block();
    mlp_block();
    head();
  }

 private:
  // --- the named steps ------------------------------------------------------------------

  // Embedding gather: N rows of the (vocab-parallel) table, written as activations; learned
  // positions add a second table's rows.
  void embedding() {
    const double N = rows_;
    add("embedding", OpKind::embedding, 1, false, m_.positions > 0 ? N * d_ : 0,
        N * d_ / P_ * sw_ + (m_.positions > 0 ? N * d_ * sw_ : 0), N * d_ * sa_);
    if (P_ > 1)
      add("embedding all-reduce", OpKind::all_reduce, 1, false,
          counting::all_reduce_flop(N * d_, P_), 0, counting::all_reduce_bytes(N * d_ * sa_, P_), 0,
          true, counting::all_reduce_hops(P_));
  }

  void attention_block() {
    const double L = m_.layers;
    norm("attention norm", L, rows_, d_);
    if (m_.is_mla())
      mla_attention();
    else
      standard_attention();
    context_parallel_exchange();
    linear("o_proj", OpKind::linear, L, out_dim_of_heads(), d_, rows_, m_.linear_bias, sa_, false);
    all_reduce("attention all-reduce", L, rows_ * d_);
    if (m_.norms_per_layer >= 4) norm("post-attention norm", L, rows_, d_);
    add("residual add", OpKind::residual, L, true, counting::kAddFlop * rows_ * d_, 0,
        3 * rows_ * d_ * sa_);
  }

  void mlp_block() {
    const double L = m_.layers;
    norm("mlp norm", L, rows_, d_);
    if (!m_.moe()) {
      const bool gated = m_.mlp == Mlp::gated;
      dense_mlp(gated ? "gate_proj" : "fc1", "up_proj", activation_name(m_.activation, gated),
                gated ? "down_proj" : "fc2", m_.intermediate, L);
    } else {
      if (m_.dense_layers > 0) {
        const bool gated = m_.mlp == Mlp::gated;
        dense_mlp(gated ? "gate_proj" : "fc1", "up_proj", activation_name(m_.activation, gated),
                  gated ? "down_proj" : "fc2", m_.intermediate, m_.dense_layers);
      }
      moe_mlp(m_.moe_layers());
    }
    all_reduce("mlp all-reduce", L, rows_ * d_);
    if (m_.norms_per_layer >= 4) norm("post-mlp norm", L, rows_, d_);
    add("residual add (mlp)", OpKind::residual, L, true, counting::kAddFlop * rows_ * d_, 0,
        3 * rows_ * d_ * sa_);
  }

  // Serving engines normalise every row but compute logits only for the positions they sample
  // (the last token of each prompt, every generated token; none for a prompt chunk that is
  // not the last). The LM head's weights move only when some logits are computed.
  void head() {
    norm("final norm", 1, rows_, d_, false);
    const double R = logit_rows_, Vd = m_.vocab / P_;
    const bool any = R > 0;
    add("lm_head", OpKind::lm_head, 1, false, counting::matmul_flop(R, d_, Vd),
        any ? d_ * Vd * sw_ : 0, R * d_ * sa_ + R * Vd * sa_);
    if (P_ > 1)
      add("logits all-gather", OpKind::all_gather, 1, false, 0, 0,
          counting::all_gather_bytes(R * m_.vocab * sa_, P_), 0, true,
          any ? counting::all_gather_hops(P_) : 0);
  }

  // --- attention ------------------------------------------------------------------------

  double out_dim_of_heads() const { return Hq_ * (m_.is_mla() ? m_.mla.v_head_dim : hd_); }

  // MHA / GQA / MQA: q, k, v projections (k and v written to the KV cache), then attention per
  // span kind. GQA/MQA: K and V are read once per KV head, shared by its H/Hkv query heads.
  void standard_attention() {
    const double L = m_.layers, N = rows_;
    linear("q_proj", OpKind::linear, L, d_, Hq_ * hd_, N, m_.attention_bias, sa_, false);
    linear("k_proj", OpKind::linear, L, d_, Hkv_ * hd_, N, m_.attention_bias, skv_, true);
    linear("v_proj", OpKind::linear, L, d_, Hkv_ * hd_, N, m_.attention_bias, skv_, true);
    if (m_.qk_norm) {
      const double width = (Hq_ + Hkv_) * hd_;
      add("q/k norm", OpKind::norm, L, true, norm_flop_ * N * width, 2 * hd_ * sa_,
          2 * N * width * sa_);
    }
    KeyLayout k;
    k.qk_dim = hd_;
    k.v_dim = hd_;
    k.cache_k = k.cache_v = Hkv_ * hd_ * skv_;
    const int kinds = (m_.global_layers() > 0) + (m_.sliding_layers > 0) + (m_.chunked_layers > 0);
    const bool suffix = kinds > 1;
    if (m_.global_layers() > 0)
      attention(suffix ? kGlobalNames : kPlainNames, m_.global_layers(), Span{}, k, all_groups());
    if (m_.sliding_layers > 0)
      attention(suffix ? kLocalNames : kPlainNames, m_.sliding_layers,
                Span{Span::Kind::window, m_.sliding_window}, k, all_groups());
    if (m_.chunked_layers > 0)
      attention(suffix ? kChunkNames : kPlainNames, m_.chunked_layers,
                Span{Span::Kind::chunk, m_.attention_chunk}, k, all_groups());
  }

  // Multi-head latent attention (DeepSeek-V2 §2.1, DeepSeek-V3 §2.1.1): queries through the
  // q_lora_rank bottleneck (q_a_proj, norm, q_b_proj to H·(nope + rope)); keys and values
  // compressed by kv_a_proj into the latent c_KV (kv_lora_rank) plus one shared RoPE key
  // (qk_rope_head_dim), which is all the KV cache holds. Under tensor parallelism the heads
  // split and the down-projections (q_a_proj, kv_a_proj) and the latent cache are replicated
  // on every device (vLLM's DeepSeek layers: ReplicatedLinear).
  void mla_attention() {
    const auto& a = m_.mla;
    const double L = m_.layers, N = rows_;
    const double dc = a.kv_lora_rank, dr = a.qk_rope_head_dim, dn = a.qk_nope_head_dim,
                 dv = a.v_head_dim, qk = dn + dr;
    if (a.q_lora_rank > 0) {
      linear("q_a_proj", OpKind::linear, L, d_, a.q_lora_rank, N, false, sa_, false);
      norm("q_a_norm", L, N, a.q_lora_rank);
      linear("q_b_proj", OpKind::linear, L, a.q_lora_rank, Hq_ * qk, N, false, sa_, false);
    } else {
      linear("q_proj", OpKind::linear, L, d_, Hq_ * qk, N, false, sa_, false);
    }
    linear("kv_a_proj", OpKind::linear, L, d_, dc + dr, N, false, skv_, true);
    norm("kv_a_norm", L, N, dc);

    const GroupFilter naive = mla_groups(true), absorbed = mla_groups(false);
    if (naive.any) {
      // Decompress every key the step reads: K_nope and V for its heads from the cached latent
      // (kv_b_proj: kv_lora_rank → H·(nope + v)), then standard attention of head size
      // nope + rope (the RoPE key read from the cache, shared by all heads) and value size v.
      // It is attention's work, not a linear layer's (its rows are the keys read, so it grows
      // with the context): the summaries count it with the decode attention (docs/llm.md).
      const double keys = sums(Span{}, naive).keys;
      add("kv_b_proj", OpKind::latent_decompression, L, true,
          counting::matmul_flop(keys, dc, Hq_ * (dn + dv)), dc * Hq_ * (dn + dv) * sw_,
          keys * Hq_ * (dn + dv) * sa_, keys * dc * skv_);
      KeyLayout k;
      k.qk_dim = qk;
      k.v_dim = dv;
      k.cache_k = dr * skv_;
      k.act_k = Hq_ * dn * sa_;
      k.act_v = Hq_ * dv * sa_;
      attention(kPlainNames, L, Span{}, k, naive);
    }
    if (absorbed.any) {
      // W_UK folded into the query (q_nope → latent per head) and W_UV applied to the latent
      // output: attention over [c_KV; k_R] (kv_lora_rank + rope per key, one copy shared by all
      // heads, MQA-like) with values c_KV (its first kv_lora_rank elements).
      const double rows = sums(Span{}, absorbed).rows;
      add("q absorb (W_UK)", OpKind::linear, L, true, counting::matmul_flop(rows, Hq_ * dn, dc),
          Hq_ * dn * dc * sw_, rows * Hq_ * (dn + dc) * sa_);
      KeyLayout k;
      k.qk_dim = dc + dr;
      k.v_dim = dc;
      k.cache_k = (dc + dr) * skv_;
      k.cache_v = dc * skv_;  // unfused p·c reads the latent again; fused reads it once
      k.v_inside_k = true;
      attention(kLatentNames, L, Span{}, k, absorbed);
      add("v up (W_UV)", OpKind::linear, L, true, counting::matmul_flop(rows, Hq_ * dc, dv),
          Hq_ * dc * dv * sw_, rows * Hq_ * (dc + dv) * sa_);
    }
  }

  // Context parallelism (ring attention, Liu et al. 2023): in a prompt, every device passes
  // its K/V block around the ring, sending and receiving (cp − 1)/cp of the sequence's K and V
  // per layer in cp − 1 steps; generated tokens attend over each device's share of the cache
  // and combine the partial outputs with an all-reduce (softmax statistics left out).
  void context_parallel_exchange() {
    if (cp_ <= 1) return;
    const double L = m_.layers;
    const double kv_token = m_.is_mla() ? (m_.mla.kv_lora_rank + m_.mla.qk_rope_head_dim) * skv_
                                        : 2 * Hkv_ * hd_ * skv_;
    if (prompt_rows_ > 0)
      add("ring K/V exchange", OpKind::send_receive, L, true, 0, 0,
          2 * (cp_ - 1) / cp_ * prompt_rows_ * kv_token, 0, true, cp_ - 1);
    if (generated_rows_ > 0)
      add("attention combine", OpKind::all_reduce, L, true,
          counting::all_reduce_flop(generated_rows_ * out_dim_of_heads(), cp_), 0,
          counting::all_reduce_bytes(generated_rows_ * out_dim_of_heads() * sa_, cp_), 0, true,
          counting::all_reduce_hops(cp_));
  }

  // Which groups a form of MLA attention covers.
  struct GroupFilter {
    bool any = false;
    bool want_naive = false;
    bool all = false;  ///< every group (standard attention)
  };
  GroupFilter all_groups() const { return {count_ > 0, false, true}; }
  bool naive_group(const SequenceGroup& g) const {
    switch (s_.mla_form) {
      case MlaForm::naive:
        return true;
      case MlaForm::absorbed:
        return false;
      case MlaForm::automatic:
        break;
    }
    return g.prompt;
  }
  GroupFilter mla_groups(bool naive) const {
    GroupFilter f{false, naive, false};
    for (std::size_t i = 0; i < count_; ++i)
      if (naive_group(groups_[i]) == naive) f.any = true;
    return f;
  }
  bool takes(const GroupFilter& f, const SequenceGroup& g) const {
    return f.all || naive_group(g) == f.want_naive;
  }

  AttentionSums sums(const Span& span, const GroupFilter& f) const {
    AttentionSums a;
    for (std::size_t i = 0; i < count_; ++i) {
      const SequenceGroup& g = groups_[i];
      if (!takes(f, g)) continue;
      const double read = counting::keys_read(span, g.past, g.fresh);
      a.rows += g.sequences * g.fresh / (g.prompt ? cp_ : 1);
      a.fused_pairs += g.sequences * counting::causal_pairs(span, g.past, g.fresh);
      a.unfused_pairs += g.sequences * g.fresh * read;
      a.keys += g.sequences * read;
    }
    // Context parallelism: each device holds 1/cp of the keys and, with a load-balanced
    // (striped) split, computes 1/cp of the pairs.
    a.fused_pairs /= cp_;
    a.unfused_pairs /= cp_;
    a.keys /= cp_;
    return a;
  }

  // Attention of one form over `layers` layers. Fused (FlashAttention, Dao et al. 2022): the
  // scores stay on chip, Q, K, V are read once and O written; a causal kernel skips the masked
  // blocks, so it scores the causal pairs. Unfused kernels (q·kᵀ GEMM, masked softmax, p·v
  // GEMM) compute the whole fresh × keys_read score block, masked entries included, write it,
  // and read it back in softmax and in p·v: W and Q count the same pairs.
  void attention(const AttentionNames& names, double layers, const Span& span, const KeyLayout& k,
                 const GroupFilter& f) {
    const AttentionSums a = sums(span, f);
    const double q_bytes = a.rows * Hq_ * k.qk_dim * sa_, o_bytes = a.rows * Hq_ * k.v_dim * sa_;
    const double k_cache = a.keys * k.cache_k, k_act = a.keys * k.act_k;
    const double v_cache = a.keys * k.cache_v, v_act = a.keys * k.act_v;
    if (s_.flash) {
      const double pairs = a.fused_pairs;
      const double softmax = counting::kSoftmaxFlop * Hq_ * pairs;
      const double work = counting::matmul_flop(pairs, Hq_, k.qk_dim) +
                          counting::matmul_flop(pairs, Hq_, k.v_dim) + softmax;
      // V that lives inside K's latent (absorbed MLA) is not read twice.
      add(names.fused, OpKind::attention_fused, layers, true, work, 0,
          q_bytes + o_bytes + k_act + v_act, k_cache + (k.v_inside_k ? 0 : v_cache));
      // The products run on the matrix unit, the online softmax on the vector units
      // (FlashAttention-2, Dao 2023, §3.1: its non-matmul FLOP run at a fraction of the rate).
      out_.ops[out_.size - 1].vector_part = Work(softmax);
      return;
    }
    const double pairs = a.unfused_pairs;
    const double scores = Hq_ * pairs * sa_;
    add(names.scores, OpKind::attention_scores, layers, true,
        counting::matmul_flop(pairs, Hq_, k.qk_dim), 0, q_bytes + scores + k_act, k_cache);
    add(names.softmax, OpKind::softmax, layers, true, counting::kSoftmaxFlop * Hq_ * pairs, 0,
        2 * scores);
    add(names.values, OpKind::attention_values, layers, true,
        counting::matmul_flop(pairs, Hq_, k.v_dim), 0, scores + o_bytes + v_act, v_cache);
  }

  // --- MLP ------------------------------------------------------------------------------

  // Gated MLP (SwiGLU/GeGLU): gate and up d→ff, act(gate)·up, down ff→d. Plain: fc1, act, fc2.
  void dense_mlp(const char* gate, const char* up, const char* act, const char* down, double ff,
                 double layers) {
    const double f = ff / P_, N = rows_;
    const double act_flop = counting::activation_flop(m_.activation);
    if (m_.mlp == Mlp::gated) {
      linear(gate, OpKind::linear, layers, d_, f, N, m_.linear_bias, sa_, false);
      linear(up, OpKind::linear, layers, d_, f, N, m_.linear_bias, sa_, false);
      add(act, OpKind::activation, layers, true, (act_flop + counting::kGluProductFlop) * N * f, 0,
          3 * N * f * sa_);
    } else {
      linear(gate, OpKind::linear, layers, d_, f, N, m_.linear_bias, sa_, false);
      add(act, OpKind::activation, layers, true, act_flop * N * f, 0, 2 * N * f * sa_);
    }
    linear(down, OpKind::linear, layers, f, d_, N, m_.linear_bias, sa_, false);
  }

  // Mixture of experts: a router (replicated), k of E routed experts per token, and an
  // optional always-on shared expert.
  // Tensor-parallel experts (the default): every device holds a 1/P column slice of every
  // expert and computes all N·k routed rows on it; every device reads its slice of each expert
  // the batch touches, so all devices carry the same load. Expert parallelism (--ep): the N
  // tokens are sharded over the P devices of the group (N/P each, as after a reduce-scatter),
  // each routes its share, sends each token to the devices of its k experts and gets the
  // results back (two all-to-alls), and computes the rows that land on its E/P whole experts.
  // The step waits for the busiest device: its expected distinct experts touched and (a lower
  // bound on) its rows, under uniform independent routing (expert_parallel_load, routing.cpp).
  void moe_mlp(double layers) {
    const double E = m_.experts, k = m_.experts_per_token, N = rows_;
    const bool ep = s_.ep && P_ > 1;
    const double f = ep ? m_.expert_intermediate : m_.expert_intermediate / P_;
    const double routed = ep ? N / P_ : N;  // tokens this device routes
    add("router", OpKind::router, layers, true, counting::matmul_flop(routed, d_, E),
        d_ * E * sw_ + (m_.router_bias ? E * sa_ : 0), routed * d_ * sa_ + routed * E * sa_);
    // Tensor-parallel: each of N tokens picks k of E experts; with uniform routing an expert is
    // untouched by one token with probability 1 − k/E, so the batch touches E·(1 − (1 − k/E)^N)
    // distinct experts in expectation, and only their weights move (docs/llm.md).
    double touched = E * (1 - std::pow(1 - k / E, N)), rows = N * k;
    if (ep) {
      const ExpertLoad load = expert_parallel_load(E, k, P_, N);
      touched = load.touched_busiest;
      rows = load.rows_busiest;
      // The busiest device sends (P − 1)/P of its N/P·k token copies and receives the rows
      // of its experts that other devices routed, (P − 1)/P of them (uniform sources).
      const double copies = (routed * k + rows) * d_ * sa_ * (P_ - 1) / P_;
      add("expert dispatch", OpKind::all_to_all, layers, true, 0, 0, copies, 0, true, P_ - 1);
    }
    auto expert = [&](const char* name, double in, double out) {
      add(name, OpKind::expert_linear, layers, true,
          counting::matmul_flop(rows, in, out, m_.linear_bias),
          touched * (in * out * sw_ + (m_.linear_bias ? out * sa_ : 0)),
          rows * in * sa_ + rows * out * sa_);
    };
    const double act_flop = counting::activation_flop(m_.activation);
    if (m_.mlp == Mlp::gated) {
      expert("expert gate", d_, f);
      expert("expert up", d_, f);
      add("expert activation", OpKind::activation, layers, true,
          (act_flop + counting::kGluProductFlop) * rows * f, 0, 3 * rows * f * sa_);
      expert("expert down", f, d_);
    } else {
      expert("expert fc1", d_, f);
      add("expert activation", OpKind::activation, layers, true, act_flop * rows * f, 0,
          2 * rows * f * sa_);
      expert("expert fc2", f, d_);
    }
    if (ep) {
      const double copies = (routed * k + rows) * d_ * sa_ * (P_ - 1) / P_;
      add("expert combine", OpKind::all_to_all, layers, true, 0, 0, copies, 0, true, P_ - 1);
    }
    if (m_.shared_intermediate > 0)
      dense_mlp("shared gate", "shared up", "shared activation", "shared down",
                m_.shared_intermediate, layers);
  }

  // --- building blocks ------------------------------------------------------------------

  void add(const char* name, OpKind kind, double count, bool per_layer, double work, double weights,
           double activations, double kv = 0, bool interconnect = false, double hops = 0) {
    if (out_.size >= kMaxOps) throw Error("llm: too many operators in one step");
    OpCost& op = out_.ops[out_.size++];
    op.name = name;
    op.kind = kind;
    op.unit = unit_of(kind);
    op.vector_part = Work(0);
    op.per_layer = per_layer;
    op.interconnect = interconnect;
    op.count = count;
    op.work = Work(work);
    op.weights = Bytes(weights);
    op.activations = Bytes(activations);
    op.kv = Bytes(kv);
    op.hops = hops;
  }

  // A linear layer y = x·W (+ b) over `rows` rows: W = 2·rows·in·out (+ rows·out for the bias);
  // Q = weights in·out·s_w (+ bias out·s_a) + input rows·in·s_a + output rows·out·s_out (to the
  // KV cache for k_proj, v_proj and kv_a_proj).
  void linear(const char* name, OpKind kind, double layers, double in, double out, double rows,
              bool bias, double out_bytes, bool to_cache) {
    const double weights = in * out * sw_ + (bias ? out * sa_ : 0);
    const double act_in = rows * in * sa_, write = rows * out * out_bytes;
    add(name, kind, layers, true, counting::matmul_flop(rows, in, out, bias), weights,
        act_in + (to_cache ? 0 : write), to_cache ? write : 0);
  }

  void norm(const char* name, double count, double rows, double width, bool per_layer = true) {
    add(name, OpKind::norm, count, per_layer, norm_flop_ * rows * width, norm_params_ * width * sa_,
        2 * rows * width * sa_);
  }

  void all_reduce(const char* name, double layers, double elements) {
    if (P_ > 1)
      add(name, OpKind::all_reduce, layers, true, counting::all_reduce_flop(elements, P_), 0,
          counting::all_reduce_bytes(elements * sa_, P_), 0, true, counting::all_reduce_hops(P_));
  }

  const ModelConfig& m_;
  const Scenario& s_;
  const SequenceGroup* groups_;
  std::size_t count_;
  StepCost& out_;
  double P_ = 1, d_ = 0, hd_ = 0, Hq_ = 0, Hkv_ = 0, sa_ = 0, sw_ = 0, skv_ = 0;
  double norm_flop_ = 0, norm_params_ = 1;
  double rows_ = 0, logit_rows_ = 0;
  double cp_ = 1, prompt_rows_ = 0, generated_rows_ = 0;  // before the split over cp devices
};

}  // namespace

SequenceGroup phase_group(const Scenario& s, Phase phase) {
  SequenceGroup g;
  g.sequences = s.batch;
  if (phase == Phase::prefill) {
    g.fresh = s.prompt;
    g.past = 0;
    g.prompt = true;
  } else {
    g.fresh = 1;
    g.past = s.context - 1;  // the context includes the new token's key
  }
  g.logits = 1;
  return g;
}

StepCost step_cost(const ModelConfig& m, const Scenario& s, Phase phase,
                   const SequenceGroup* groups, std::size_t count) {
  StepCost step;
  StepBuilder(m, s, phase, groups, count, step).build();
  return step;
}

StepCost step_cost(const ModelConfig& m, const Scenario& s, Phase phase) {
  const SequenceGroup g = phase_group(s, phase);
  return step_cost(m, s, phase, &g, 1);
}

std::string to_string(MlaForm f) {
  switch (f) {
    case MlaForm::absorbed:
      return "absorbed";
    case MlaForm::naive:
      return "naive";
    case MlaForm::automatic:
      break;
  }
  return "auto";
}

MlaForm parse_mla_form(const std::string& s) {
  if (s == "auto" || s.empty()) return MlaForm::automatic;
  if (s == "absorbed") return MlaForm::absorbed;
  if (s == "naive") return MlaForm::naive;
  throw InputError("--mla: must be auto, absorbed or naive (got '" + s + "')");
}

}  // namespace roofline::llm
