#pragma once
// LLM inference on the roofline (DIGEST §5): a transformer as a list of operators, each with
// work W and traffic Q in closed form, placed on a machine's roofs. Prefill over a prompt is a
// GEMM (compute-bound), decode a GEMV (memory-bound, I ≈ batch), decode attention stays
// memory-bound whatever the batch. docs/llm.md states every formula.
//
// Everything here is closed form and allocation-free in the hot path (evaluate_step): a sweep of
// a 70B model over 1024 batches × 8 contexts runs in milliseconds (bench/llm_sweep.cpp).
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/dtype.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"
#include "roofline/units.hpp"

namespace roofline::llm {

enum class Mlp { gated, plain };  ///< gate/up/down with a GLU (SwiGLU), or fc1/fc2
enum class Norm { rms, layer };   ///< RMSNorm (γ) or LayerNorm (γ, β)

/// The shape of a decoder-only transformer. Sizes are whole numbers stored as doubles (they
/// only ever enter products of FLOP and bytes).
struct ModelConfig {
  std::string name;
  std::string model_type;   ///< Hugging Face model_type ("llama", "mixtral", "qwen2", "gpt2"...)
  std::string origin;       ///< file it was read from, or "preset"
  std::string source;       ///< where the numbers come from (published config)
  double hidden = 0;        ///< d (hidden_size)
  double heads = 0;         ///< query heads H
  double kv_heads = 0;      ///< key/value heads (GQA/MQA: fewer than H)
  double head_dim = 0;      ///< per head; hidden / heads unless given
  double intermediate = 0;  ///< dense MLP width (intermediate_size)
  double layers = 0;
  double vocab = 0;
  double positions = 0;  ///< learned position embeddings (GPT); 0 for rotary
  /// Longest context the model was trained for (max_position_embeddings, n_positions...);
  /// 0 = not stated. A longer context is costed but warned about (scenario_warnings).
  double max_positions = 0;
  /// Sliding-window attention over the last W keys in every layer (Mistral-7B-v0.1: 4096);
  /// 0 = full causal attention. Caps the keys a decode step (and fused prefill) attends over and
  /// the KV cache (a rolling buffer of W tokens).
  double sliding_window = 0;
  bool tied_embeddings = false;  ///< LM head shares the embedding table
  Mlp mlp = Mlp::gated;
  std::string activation = "silu";
  Norm norm = Norm::rms;
  bool attention_bias = false;  ///< biases on q, k, v
  bool linear_bias = false;     ///< biases on o and the MLP (GPT style)
  // Mixture of experts: `experts` routed experts of width expert_intermediate, each token uses
  // experts_per_token of them; an optional always-on shared expert of width shared_intermediate.
  double experts = 0;
  double experts_per_token = 0;
  double expert_intermediate = 0;
  double shared_intermediate = 0;
  double published_params = 0;  ///< the size the model's authors state, for comparison

  bool moe() const { return experts > 1; }
  /// Keys a query at position `context` attends over: min(context, sliding_window) with a window.
  double attended(double context) const {
    return sliding_window > 0 && sliding_window < context ? sliding_window : context;
  }
  /// Checks every size; throws InputError "ORIGIN: field: why (got VALUE)".
  void validate() const;
};

/// Parameter counts (elements, not bytes): of the whole model, or of one device under tensor
/// parallelism (count_parameters with tp > 1).
struct ParameterCount {
  double attention = 0;  ///< q, k, v, o (+ biases), all layers
  double mlp = 0;        ///< MLP or experts + router (+ shared expert), all layers
  double norms = 0;      ///< γ (and β) of every norm
  double embedding = 0;  ///< token (+ position) embeddings
  double lm_head = 0;    ///< 0 when tied
  double total = 0;
  double matmul = 0;  ///< weights of matrix products (attention + mlp + lm_head), no biases
  double active = 0;  ///< used per token (MoE: only experts_per_token experts)
};
/// `tp` > 1: what one of `tp` tensor-parallel devices holds (Megatron split as in step_cost:
/// heads, MLP/expert columns, vocabulary split; K/V heads replicated, one per device, when
/// fewer than tp; router, norms, position table, row-parallel biases replicated).
ParameterCount count_parameters(const ModelConfig& m, int tp = 1);

/// Bytes of K and V cached per token: 2 · layers · kv_heads · head_dim · bytes.
Bytes kv_bytes_per_token(const ModelConfig& m, const DataType& kv);

/// Built-in presets with published config values (Hugging Face config.json of each model).
const std::vector<ModelConfig>& presets();
/// A Hugging Face config.json already parsed; `origin` names the file in errors.
ModelConfig model_from_hf_json(const nlohmann::json& j, const std::string& origin);
ModelConfig load_hf_config(const std::string& path);
/// A preset name (case-insensitive, "llama-2-7b", "Llama-2-7B") or a path to a config.json.
ModelConfig resolve_model(const std::string& name_or_path);

/// The four precisions: stored weights, activations, KV cache, and the compute (roof) precision.
/// Weight-only quantisation (int4 weights) computes in fp16/bf16: the compute roof is that one's.
struct Dtypes {
  DataType weights;
  DataType activations;
  DataType kv_cache;
  DataType compute;
};
/// Defaults: weights fp16; activations = the weights' type when it is a float of ≥ 2 bytes (fp16,
/// bf16, fp32), else fp16 (int8/int4/fp8 weights: weight-only quantisation); KV = activations;
/// compute = activations. Empty strings take the default.
Dtypes make_dtypes(const std::string& weights, const std::string& activations = "",
                   const std::string& kv_cache = "", const std::string& compute = "");

enum class Phase { prefill, decode };
std::string to_string(Phase p);
Phase parse_phase(const std::string& s);  ///< throws InputError

struct Scenario {
  double batch = 1;       ///< B sequences
  double prompt = 2048;   ///< S: prefill length
  double context = 2048;  ///< L: tokens a decode step attends over (in the KV cache, incl. new)
  int tp = 1;             ///< tensor-parallel degree: W and Q are per device
  bool flash = false;     ///< fused attention: scores never reach memory
  Dtypes dtypes = make_dtypes("fp16");
};

enum class OpKind {
  embedding,
  norm,
  linear,
  expert_linear,
  attention_scores,
  softmax,
  attention_values,
  attention_fused,
  activation,
  residual,
  lm_head,
  router,
  all_reduce,
  all_gather
};
std::string to_string(OpKind k);

/// One operator's cost per occurrence, per device. `count` is how often it runs in a step
/// (layers, or 1). Operators on the interconnect are judged against the interconnect roof.
struct OpCost {
  const char* name = "";
  OpKind kind = OpKind::linear;
  bool per_layer = true;
  bool interconnect = false;
  double count = 1;
  Work work{0};
  Bytes weights{0};      ///< weight (and bias, norm γ) bytes read
  Bytes activations{0};  ///< activation bytes read + written (scores included when unfused)
  Bytes kv{0};           ///< KV-cache bytes read + written
  Bytes traffic() const { return weights + activations + kv; }
};

inline constexpr std::size_t kMaxOps = 32;

/// The operators of one step (prefill of B×S tokens, or one decode step of B tokens).
struct StepCost {
  Phase phase = Phase::decode;
  double tokens = 0;  ///< tokens processed in the step (B·S or B)
  std::array<OpCost, kMaxOps> ops{};
  std::size_t size = 0;
};
/// Closed-form W and Q of every operator. Throws InputError for a scenario that does not fit the
/// model (tp not dividing the heads, batch < 1...). No allocation.
StepCost step_cost(const ModelConfig& m, const Scenario& s, Phase phase);
/// Checks the scenario against the model (the parts step_cost relies on); also refuses a prompt
/// longer than the context (a decode step's KV cache holds the prompt).
void validate_scenario(const ModelConfig& m, const Scenario& s);
/// What is costed but doubtful: a context (or prompt) longer than the model's max_positions.
std::vector<std::string> scenario_warnings(const ModelConfig& m, const Scenario& s);

/// The roofs a step is judged against.
struct Roofs {
  std::string machine;
  std::string compute_name;  ///< the compute roof of the compute dtype
  std::string memory_level;  ///< the default memory level
  WorkRate peak{0};
  ByteRate bandwidth{0};
  std::optional<ByteRate> interconnect;
  std::string interconnect_name;
  std::optional<double> memory_capacity;  ///< bytes of the default memory level, if known
  Intensity ridge() const { return peak / bandwidth; }
};
/// Picks the compute roof of `compute` (by precision; a set with a single roof of unnamed
/// precision is used as is), the default memory roof, and an interconnect roof (kind
/// "interconnect", or `interconnect_override`). Throws InputError when nothing fits.
Roofs select_roofs(const RoofSet& set, const DataType& compute,
                   std::optional<ByteRate> interconnect_override = std::nullopt);

struct OpTiming {
  Seconds time{0};             ///< max(W/π, Q/β) (per occurrence)
  Seconds time_no_overlap{0};  ///< W/π + Q/β
  bool compute_bound = false;
};

struct StepResult {
  StepCost cost;
  std::array<OpTiming, kMaxOps> timing{};
  Work work{0};           ///< all operators, all layers
  Bytes traffic{0};       ///< memory traffic (interconnect excluded)
  Bytes interconnect{0};  ///< interconnect traffic
  Seconds time{0};        ///< Σ count · max(W/π, Q/β)
  Seconds time_no_overlap{0};
  Intensity intensity() const { return work / traffic; }
};
StepResult evaluate_step(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r);

/// Aggregate of a group of operators (the seed's summary points).
struct Aggregate {
  std::string name;
  Work work{0};
  Bytes traffic{0};
  Seconds time{0};
  Intensity intensity() const { return work / traffic; }
  bool compute_bound(const Roofs& r) const { return intensity() >= r.ridge(); }
};
Aggregate aggregate_linear(const StepResult& s, const char* name);
Aggregate aggregate_attention(const StepResult& s, const char* name);
Aggregate aggregate_all(const StepResult& s, const char* name);

/// Memory needed on one device: weights + KV cache + the largest activation working set.
struct Footprint {
  Bytes weights{0};
  Bytes kv_cache{0};
  Bytes activations{0};
  Bytes total() const { return weights + kv_cache + activations; }
  std::optional<double> capacity;  ///< the default memory level's size, when known
  std::optional<bool> fits;
};
Footprint footprint(const ModelConfig& m, const Scenario& s, const Roofs& r);

/// The decode batch at which a group of operators turns compute-bound (I(B) ≥ I* = π/β).
/// W(B) = w·B and Q(B) = q0 + q1·B are affine in B for dense models, so
///   B* = I*·q0 / (w − I*·q1)  when w > I*·q1, never otherwise.
/// MoE expert traffic is not affine in B (distinct experts touched); there B* is found by
/// bisection on the monotone I(B).
struct CriticalBatch {
  std::string name;
  Intensity ridge{0};
  Intensity at_batch_1{0};
  double batch = 0;  ///< real B*; 0 = compute-bound at any batch; inf = never
  bool never = false;
  bool closed_form = true;
  double w = 0, q0 = 0, q1 = 0;  ///< the affine coefficients (closed form only)
};
/// Per decode operator (memory-roof operators), per layer, and the whole step.
std::vector<CriticalBatch> critical_batches(const ModelConfig& m, const Scenario& s,
                                            const Roofs& r);

/// MFU and bandwidth utilisation from a measured throughput (DIGEST §11).
struct Utilisation {
  double tokens_per_s = 0;
  Work work_per_token{0};
  Bytes bytes_per_token{0};
  double mfu = 0;
  double bandwidth = 0;
  double of_roofline = 0;  ///< measured tokens/s ÷ the model's predicted tokens/s
};
Utilisation utilisation(const StepResult& step, double measured_tokens_per_s, const Roofs& r);

/// Everything the command prints for one (batch, context).
struct Report {
  ModelConfig model;
  ParameterCount params;
  Scenario scenario;
  Phase phase = Phase::decode;
  Roofs roofs;
  StepResult prefill;
  StepResult decode;
  Aggregate prefill_point, decode_linear, decode_attention;
  Seconds ttft{0};
  Seconds time_per_token{0};  ///< one decode step (each sequence gets one token)
  double tokens_per_s = 0;    ///< B / decode step time
  Footprint memory;
  std::vector<CriticalBatch> critical;
  std::optional<Utilisation> measured;
  std::vector<std::string> warnings;  ///< scenario_warnings
};
Report analyse(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r,
               std::optional<double> measured_tokens_per_s = std::nullopt);

/// One row of a batch × context sweep.
struct SweepRow {
  double batch = 0, context = 0, prompt = 0;
  Work decode_work{0};
  Bytes decode_traffic{0};
  Seconds ttft{0}, time_per_token{0};
  double tokens_per_s = 0;
  Intensity decode_intensity{0}, linear_intensity{0}, attention_intensity{0}, prefill_intensity{0};
  bool decode_compute_bound = false;
  Bytes memory{0};
  std::optional<bool> fits;
  /// The decode step's memory-roof operators (interconnect ones left out) as one chart point:
  /// W, Q and Σ count·time of those operators (sweep_points).
  Aggregate decode_point;
};
/// `prompt` ≤ 0: each row's prompt is its context.
std::vector<SweepRow> sweep(const ModelConfig& m, const Scenario& base,
                            const std::vector<double>& batches, const std::vector<double>& contexts,
                            const Roofs& r);

/// "1", "1..256" (powers of two from the first, the last included), "1,8,64". Throws
/// InputError naming `flag`.
std::vector<double> parse_int_list(const std::string& spec, const std::string& flag);

/// The operators of a step as chart points (time = the modelled time); zero-work operators
/// (embedding gather, all-gather) are left out. Each point names the compute roof
/// (Roofs::compute_name) and the memory level or interconnect it was judged against.
std::vector<Point> to_points(const Report& r);
/// One decode point per sweep row ("decode B=8 L=2048": the row's decode_point), in row order:
/// on a chart the points move right as B grows (DIGEST §5).
std::vector<Point> sweep_points(const std::vector<SweepRow>& rows, const Roofs& r);

// Rendering (text, JSON, CSV).
std::string render_text(const Report& r);
nlohmann::json to_json(const Report& r);
std::string operators_csv(const Report& r);
std::string render_sweep_text(const std::vector<SweepRow>& rows, const ModelConfig& m,
                              const Roofs& r);
nlohmann::json sweep_to_json(const std::vector<SweepRow>& rows, const ModelConfig& m,
                             const Scenario& s, const Roofs& r);
std::string sweep_csv(const std::vector<SweepRow>& rows);
nlohmann::json model_to_json(const ModelConfig& m);

}  // namespace roofline::llm
