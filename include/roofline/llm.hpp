#pragma once
// LLM inference on the roofline (docs/llm.md): a transformer as a list of operators, each with
// work W and traffic Q in closed form, placed on a machine's roofs. Prefill over a prompt is a
// GEMM (compute-bound), decode a GEMV (memory-bound, I ≈ batch), decode attention stays
// memory-bound whatever the batch. docs/llm.md states every formula.
//
// Everything here is closed form and allocation-free in the hot path (evaluate_step): a sweep of
// a 70B model over 1024 batches × 8 contexts runs in milliseconds (bench/llm_sweep.cpp).
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/dtype.hpp"
#include "roofline/machine_facts.hpp"
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
  /// Layers that use the window (the others attend over the whole context). Mistral windows
  /// every layer; Gemma 2 alternates (half), Gemma 3 five local layers per global one, Qwen2
  /// the layers from max_window_layers on. Equals `layers` whenever the window covers all.
  double sliding_layers = 0;
  /// Chunked local attention (Llama 4): a query sees only the keys of its own chunk of C tokens
  /// (positions ⌊(i−1)/C⌋·C + 1 … i); `chunked_layers` layers use it, the rest are global.
  double attention_chunk = 0;
  double chunked_layers = 0;
  /// Norms per layer: 2 (pre-attention, pre-MLP), 4 with Gemma 2/3's post-attention and
  /// post-MLP norms.
  double norms_per_layer = 2;
  /// RMSNorm of each query and key head (head_dim γ each): Gemma 3, Qwen3.
  bool qk_norm = false;
  /// Multi-head latent attention (DeepSeek-V2 §2.1): K and V are compressed into a latent of
  /// kv_lora_rank, cached with a shared decoupled RoPE key of qk_rope_head_dim; queries through
  /// a q_lora_rank bottleneck (0: a direct projection). Zero kv_lora_rank = standard attention.
  struct Mla {
    double q_lora_rank = 0;
    double kv_lora_rank = 0;
    double qk_nope_head_dim = 0;
    double qk_rope_head_dim = 0;
    double v_head_dim = 0;
  } mla;
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
  /// Layers whose MLP is dense (width `intermediate`); the rest are MoE when moe(). DeepSeek:
  /// first_k_dense_replace; Llama 4 Maverick: every other layer (interleave_moe_layer_step 2).
  double dense_layers = 0;
  /// The router's per-expert score bias (DeepSeek-V3's e_score_correction_bias, "noaux_tc").
  bool router_bias = false;
  /// Multi-token prediction modules (DeepSeek-V3's num_nextn_predict_layers): each is one more
  /// layer of the MoE kind, an eh_proj 2d→d and two norms, sharing the embedding and LM head.
  /// Not part of the published parameter count; usable as speculative-decoding drafts.
  double mtp_layers = 0;
  double published_params = 0;  ///< the size the model's authors state, for comparison
  double published_active = 0;  ///< active parameters per token the authors state (MoE)
  /// Fields the file left out that the config class's defaults supplied ("head_dim = 256").
  std::vector<std::string> defaulted;
  /// What the reader costed by assumption: a model_type or activation it does not know
  /// (scenario_warnings says each with every estimate).
  std::vector<std::string> caveats;

  bool moe() const { return experts > 1; }
  bool is_mla() const { return mla.kv_lora_rank > 0; }
  double moe_layers() const { return moe() ? layers - dense_layers : 0; }
  double global_layers() const { return layers - sliding_layers - chunked_layers; }
  /// Keys a query at position `context` attends over in a sliding-window layer:
  /// min(context, sliding_window) with a window.
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
  /// Multi-token prediction modules (not in `total`, as the published sizes leave them out):
  /// their layer, eh_proj and norms; they share the embedding and the LM head.
  double mtp = 0;
};
/// `tp` > 1: what one of `tp` tensor-parallel devices holds (Megatron split as in step_cost:
/// heads, MLP/expert columns, vocabulary split; K/V heads replicated, one per device, when
/// fewer than tp; router, norms, position table, row-parallel biases replicated; MLA's
/// down-projections q_a_proj and kv_a_proj replicated).
ParameterCount count_parameters(const ModelConfig& m, int tp = 1);
/// Refuses a tensor-parallel degree the model cannot be split by: tp ≥ 1 dividing the
/// attention heads, and dividing or a multiple of the key-value heads (InputError "--tp ...").
void check_tensor_parallel(const ModelConfig& m, int tp);

/// Bytes of K and V cached per token: 2 · layers · kv_heads · head_dim · bytes; with MLA the
/// latent and the RoPE key: layers · (kv_lora_rank + qk_rope_head_dim) · bytes (DeepSeek-V2
/// Table 1). Windowed and chunked layers store as much per token, for fewer tokens.
Bytes kv_bytes_per_token(const ModelConfig& m, const DataType& kv);

/// Built-in presets with published config values (Hugging Face config.json of each model).
const std::vector<ModelConfig>& presets();
ModelConfig load_hf_config(const std::string& path);
/// A preset name (case-insensitive, "llama-2-7b", "Llama-2-7B") or a path to a config.json.
/// `flag` names the input in messages ("--model", "--draft").
ModelConfig resolve_model(const std::string& name_or_path, const std::string& flag = "--model");

/// The four precisions: stored weights, activations, KV cache, and the compute (roof) precision.
/// Weight-only quantisation (int4 weights) computes in fp16/bf16: the compute roof is that one's.
struct Dtypes {
  DataType weights;
  DataType activations;
  DataType kv_cache;
  DataType compute;
};
/// Defaults: weights `native` (fp16 unless the machine's 16-bit type is another: native_16bit);
/// activations = the weights' type when it is a float of ≥ 2 bytes (fp16, bf16, fp32), else
/// `native` (int8/int4/fp8 weights: weight-only quantisation); KV = activations; compute =
/// activations. Empty strings take the default.
Dtypes make_dtypes(const std::string& weights, const std::string& activations = "",
                   const std::string& kv_cache = "", const std::string& compute = "",
                   const std::string& native = "fp16");
/// The machine's native 16-bit float: "bf16" when its highest dense bf16 roof is above 1.5× its
/// highest fp16 one (a TPU, which publishes bf16 only; a CPU with AMX), else "fp16" (GPUs, whose
/// two roofs are equal or within measurement noise).
std::string native_16bit(const RoofSet& roofs);

enum class Phase { prefill, decode, mixed, verify };
std::string to_string(Phase p);
/// The attention form in words, as the reports' headers say it: "fused attention" or
/// "unfused attention (scores through memory)".
std::string attention_words(bool flash);
Phase parse_phase(const std::string& s);  ///< prefill or decode; throws InputError

/// Which form of multi-head latent attention a step computes (DeepSeek-V2 §2.1.2): `naive`
/// decompresses the cached latents into per-head K and V (kv_b_proj over every key), `absorbed`
/// folds W_UK into the query and W_UV into the output and attends over the latent itself.
/// `automatic`: naive for prompt tokens (the decompression is shared by S queries), absorbed
/// for generated ones (as vLLM's and SGLang's MLA backends do).
enum class MlaForm { automatic, absorbed, naive };
std::string to_string(MlaForm f);
MlaForm parse_mla_form(const std::string& s);  ///< throws InputError

struct Scenario {
  double batch = 1;       ///< B sequences
  double prompt = 2048;   ///< S: prefill length
  double context = 2048;  ///< L: tokens a decode step attends over (in the KV cache, incl. new)
  int tp = 1;             ///< tensor-parallel degree: W and Q are per device
  /// Expert parallelism over the tensor-parallel group: each device holds experts/tp whole
  /// experts (not a 1/tp slice of every one) and tokens travel to them by all-to-all.
  bool ep = false;
  /// Context (sequence) parallelism: the sequence is split over cp devices (ring attention);
  /// each holds 1/cp of the KV cache.
  int cp = 1;
  /// Pipeline parallelism: the layers are split over pp stages (devices), the batch into
  /// micro_batches (0: as many as stages, at most one per sequence) that flow through them
  /// (pipeline_step).
  int pp = 1;
  double micro_batches = 0;
  bool flash = true;  ///< fused attention (the default): scores never reach memory
  MlaForm mla_form = MlaForm::automatic;
  Dtypes dtypes = make_dtypes("fp16");
};

/// Sequences that take part in one step alike: each has `past` tokens in its KV cache and
/// processes `fresh` new ones; logits are computed for `logits` positions of each (1 for the
/// sampled token, 0 for a prompt chunk that is not the last, k + 1 when verifying k drafts).
struct SequenceGroup {
  double sequences = 1;
  double fresh = 1;
  double past = 0;
  double logits = 1;
  bool prompt = false;  ///< prompt tokens (prefill or a prefill chunk), not generated ones
};
/// The groups a phase of a scenario makes: prefill {B, S, 0, 1, prompt}; decode
/// {B, 1, L − 1, 1}.
SequenceGroup phase_group(const Scenario& s, Phase phase);

enum class OpKind {
  embedding,
  norm,
  linear,
  expert_linear,
  attention_scores,
  softmax,
  attention_values,
  attention_fused,
  /// Naive MLA's kv_b_proj over the keys read (latent → K_nope, V): part of attention, its work
  /// grows with the context as the score and value products do.
  latent_decompression,
  activation,
  residual,
  lm_head,
  router,
  all_reduce,
  all_gather,
  all_to_all,
  send_receive
};
std::string to_string(OpKind k);

/// The execution unit an operator's work runs on: the matrix engine (tensor cores, MXU, AMX:
/// matrix products) or the vector units (CUDA cores, SIMD: element-wise work — norms, residual
/// adds, activations, softmax, the reductions of collectives). docs/llm.md, "Matrix and vector
/// work".
enum class ComputeUnit { matrix, vector };
std::string to_string(ComputeUnit u);

/// One operator's cost per occurrence, per device. `count` is how often it runs in a step
/// (layers, or 1). Operators on the interconnect are judged against the interconnect roof.
struct OpCost {
  const char* name = "";
  OpKind kind = OpKind::linear;
  bool per_layer = true;
  bool interconnect = false;
  double count = 1;
  Work work{0};
  /// Where `work` runs. A matrix operator may carry element-wise work too (`vector_part`: fused
  /// attention's softmax, which runs on the vector units between its two products).
  ComputeUnit unit = ComputeUnit::matrix;
  Work vector_part{0};
  Bytes weights{0};      ///< weight (and bias, norm γ) bytes read
  Bytes activations{0};  ///< activation bytes read + written (scores included when unfused)
  Bytes kv{0};           ///< KV-cache bytes read + written
  /// Sequential message steps of a collective, each costing one link latency α (α–β model).
  double hops = 0;
  Bytes traffic() const { return weights + activations + kv; }
  /// The work on the vector units: all of it for a vector operator, else `vector_part`.
  Work vector_work() const { return unit == ComputeUnit::vector ? work : vector_part; }
  Work matrix_work() const { return work - vector_work(); }
};

inline constexpr std::size_t kMaxOps = 64;

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
/// The same for any batch of sequence groups (mixed prefill + decode, verification, requests
/// of different lengths): weights move once for all rows, attention is summed over the groups.
/// `phase` labels the step. No allocation.
StepCost step_cost(const ModelConfig& m, const Scenario& s, Phase phase,
                   const SequenceGroup* groups, std::size_t count);
/// Checks the scenario against the model (the parts step_cost relies on); also refuses a prompt
/// longer than the context (a decode step's KV cache holds the prompt).
void validate_scenario(const ModelConfig& m, const Scenario& s);
/// What is costed but doubtful: the model's caveats (a family or activation the reader does not
/// model), a context longer than the model's max_positions, a --pp that does not divide the
/// layers.
std::vector<std::string> scenario_warnings(const ModelConfig& m, const Scenario& s);

/// The roofs a step is judged against.
struct Roofs {
  /// How the roofs were calibrated (empty: as the machine document gives them), and the
  /// document's own figures before scaling.
  std::string calibration;
  WorkRate document_peak{0};
  ByteRate document_bandwidth{0};
  std::string machine;
  std::string compute_name;  ///< the compute roof of the compute dtype
  /// The compute roof accumulates narrower than fp32 (accumulates_narrow): the dtype had no
  /// other roof, and frameworks accumulate in fp32, at a lower rate.
  bool compute_accumulates_narrow = false;
  /// What the counts are read in: OP, OP/s and OP/byte on an integer compute roof (--cdtype
  /// int8: RoofSet::units_of), FLOP otherwise.
  UnitSystem units;
  std::string memory_level;  ///< the default memory level
  WorkRate peak{0};
  /// The roof of element-wise (vector-unit) work: the highest dense roof of the activations'
  /// precision that is not a matrix unit's (is_matrix_unit), e.g. "fp16 vector"; for a float
  /// narrower than fp32 without one, the fp32 vector roof (vector_widened: the datasheet lists
  /// no narrower vector rate, and a narrower one runs at least at fp32's). A machine without
  /// either judges that work on the compute roof (vector_fallback; a warning says so).
  std::string vector_name;
  bool vector_widened = false;
  WorkRate vector_peak{0};
  WorkRate document_vector_peak{0};
  UnitSystem vector_units;
  bool vector_fallback = false;
  ByteRate bandwidth{0};
  std::optional<ByteRate> interconnect;
  std::string interconnect_name;
  std::optional<double> memory_capacity;  ///< bytes of the default memory level, if known
  /// Per-message latency α of the interconnect (the α–β model: a collective of h sequential
  /// steps costs h·α + bytes/β). Unknown (nullopt) when neither the catalogue nor
  /// --link-latency gives one; collectives are then costed by bandwidth alone.
  std::optional<Seconds> link_latency;
  std::string link_latency_source;
  /// Devices one NVLink (scale-up) domain joins; unknown when the catalogue does not say.
  std::optional<double> domain_size;
  std::string domain_source;
  /// What the catalogue says of the interconnect before collectives are costed over it (a
  /// link to the CPU, not between devices); empty for --interconnect-bandwidth.
  std::string link_caveat;
  Intensity ridge() const { return peak / bandwidth; }
  /// Element-wise work counts another unit than the matrix products: on an integer compute roof
  /// (--cdtype int8) the products count OP and the element-wise operators FLOP on the vector
  /// roof; the two are printed apart, never added (docs/llm.md, "Matrix and vector work").
  /// (Roofs built by hand without a vector roof judge that work on π, in its unit.)
  bool counts_apart() const { return vector_peak.value > 0 && vector_units.work != units.work; }
  /// The part of `total` counted in `units`: all of it, or its matrix part when counts_apart.
  Work in_compute_units(Work total, Work vector) const {
    return counts_apart() ? total - vector : total;
  }
};
/// Picks the compute roof of `compute` (by precision; a set with a single roof of unnamed
/// precision is used as is), the vector roof of `elementwise` (the activations' dtype; none:
/// the compute dtype's), the default memory roof, and an interconnect roof (kind
/// "interconnect", or `interconnect_override`). Throws InputError when nothing fits.
Roofs select_roofs(const RoofSet& set, const DataType& compute,
                   std::optional<ByteRate> interconnect_override = std::nullopt,
                   const std::optional<DataType>& elementwise = std::nullopt);
/// The compute time of one occurrence of `op`: matrix work on π plus vector work on the vector
/// roof, W_m/π + W_v/π_v (docs/llm.md: the two are not overlapped).
Seconds compute_time(const OpCost& op, const Roofs& r);
/// The name of the roof `op`'s compute is judged against: the vector roof's for a vector
/// operator, the compute roof's for a matrix one (fused attention: the one of the larger
/// share of its compute time).
const std::string& compute_roof_of(const OpCost& op, const Roofs& r);
/// The machine's roofs as `r` judges the model against them: the compute dtype's roof and the
/// default memory level are the defaults (so a chart's primary ridge is the model's π/β), and
/// an --interconnect-bandwidth override becomes an interconnect roof. What a chart draws.
RoofSet roofs_as_judged(RoofSet set, const Roofs& r);

struct OpTiming {
  Seconds time{0};             ///< max(W/π, Q/β) (per occurrence)
  Seconds time_no_overlap{0};  ///< W/π + Q/β
  Seconds compute{0};          ///< W/π: compute_time, matrix and vector work on their roofs
  bool compute_bound = false;
};

struct StepResult {
  StepCost cost;
  std::array<OpTiming, kMaxOps> timing{};
  Work work{0};           ///< all operators, all layers
  Work vector_work{0};    ///< the part of `work` on the vector units (element-wise)
  Bytes traffic{0};       ///< memory traffic (interconnect excluded)
  Bytes interconnect{0};  ///< interconnect traffic
  Seconds time{0};        ///< Σ count · max(W/π, Q/β)
  Seconds time_no_overlap{0};
  Intensity intensity() const { return work / traffic; }
};
StepResult evaluate_step(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r);
/// The share of a step's time (Σ count · time) spent in operators bound by the compute roof.
double compute_time_share(const StepResult& s);
/// Where most of a step's time goes: "compute" (compute-bound operators), "memory" (operators
/// on the memory roof) or "interconnect" (collectives on the link) — the largest share, compute
/// first on a tie. Without collectives it is compute_time_share ≥ ½; with them a step that
/// spends most of its time in all-reduces is bound by the link, not by memory.
std::string step_bound(const StepResult& s);
/// Times the operators of a step already built (any sequence groups). Interconnect operators:
/// max(W/π, Q/β_link) + hops·α when the link latency α is known.
StepResult evaluate_cost(const StepCost& cost, const Scenario& s, const Roofs& r);

/// Aggregate of a group of operators (summary points).
struct Aggregate {
  std::string name;
  Work work{0};
  Work vector_work{0};  ///< the part of `work` on the vector units (element-wise)
  Bytes traffic{0};
  Seconds time{0};
  Seconds compute{0};  ///< Σ count · compute_time: matrix work on π, vector work on π_v
  Intensity intensity() const { return work / traffic; }
  /// Its compute time reaches its memory time (I ≥ π/β when all its work is matrix work).
  bool compute_bound(const Roofs& r) const { return compute >= traffic / r.bandwidth; }
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
  /// The prefill's chunk (tokens per prompt per step) the activations are of; 0: the whole
  /// prompt in one step.
  double prefill_chunk = 0;
};
/// Weights, the KV cache at max(prompt, context), and the activations of the largest step run:
/// the prefill of B × S in one step, or with 0 < prefill_chunk < S its largest chunk (as
/// request_timing runs it), and the decode step.
Footprint footprint(const ModelConfig& m, const Scenario& s, const Roofs& r,
                    double prefill_chunk = 0);
/// The largest working set of one operator of a step, with the residual stream held beside it
/// (the footprint's activations; serving's largest step).
Bytes step_activations(const ModelConfig& m, const Scenario& s, const StepCost& c);
/// KV-cache bytes per device of `sequences` sequences holding `tokens` tokens each (windowed
/// and chunked layers keep at most W or C of them; MLA's latent is replicated per device).
Bytes kv_cache_bytes(const ModelConfig& m, const Scenario& s, double sequences, double tokens);

/// Attainment factors that scale the roofs towards what kernels reach (a measured machine's
/// roof ÷ the datasheet's): predictions calibrated instead of datasheet peaks.
struct Calibration {
  double compute = 1;
  double memory = 1;
  double interconnect = 1;
  std::string source;
};
/// "compute=0.7,memory=0.85[,interconnect=0.8]" (each in (0, 1.5]); InputError otherwise.
Calibration parse_attainment(const std::string& spec);
/// The attainment of a measured machine document against the datasheet roofs `r`: its roof of
/// the same compute precision ÷ π, its default memory roof ÷ β (its interconnect roof ÷ the
/// interconnect's, when it has one). InputError naming the precision when it has none.
Calibration calibration_from(const RoofSet& measured, const std::string& origin, const Roofs& r,
                             const DataType& compute);
void apply_calibration(Roofs& r, const Calibration& c);

/// Expert parallelism's load on the busiest of `devices` devices, each holding experts/devices
/// whole experts, when `tokens` tokens each pick `per_token` of the `experts` uniformly and
/// independently (src/llm/routing.cpp derives it; docs/llm.md states it). A step waits for the
/// busiest device, so the expert operators are costed at these figures, not at the mean.
struct ExpertLoad {
  double touched_mean = 0;     ///< E[distinct experts touched on one device]
  double touched_busiest = 0;  ///< E[max over devices of the distinct experts touched] (exact)
  double rows_busiest = 0;     ///< max(tokens·k/devices, touched_busiest): a lower bound on
                               ///< E[max over devices of the token-expert rows]
};
ExpertLoad expert_parallel_load(double experts, double per_token, double devices, double tokens);

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
  /// The element-wise share of its work, W_v/W (the same at every batch): 0 for products only,
  /// 1 for element-wise work only (its I and I* then count the vector roof's unit).
  double vector_share = 0;
};
/// Per decode operator (memory-roof operators), per layer, and the whole step.
std::vector<CriticalBatch> critical_batches(const ModelConfig& m, const Scenario& s,
                                            const Roofs& r);

// --- Parallelism beyond tensor parallelism (parallel.cpp) ---------------------------------

/// What a machine document says of an interconnect: the per-message latency α and how many
/// devices one domain of it joins, each with its source; empty where the document does not
/// say (the report then says "not in the catalogue").
struct LinkFacts {
  std::optional<Seconds> latency;
  std::string latency_source;
  std::optional<double> domain_size;
  std::string domain_source;
  std::string caveat;  ///< the link's own caveat (InterconnectFacts::caveat), by its name only
};
/// The facts of the interconnect named `link` (else the first the machine lists; io's
/// machine_facts() reads and checks them from info.interconnects[]): its latency and domain,
/// each with the source the entry names for it, else the entry's source; a domain the machine
/// gives as a whole (info.nvlink_domain / scale_up_domain) where the link gives none.
/// InputError with the link's problem when a figure of the link used (or the machine's domain,
/// when it is used) could not be read.
LinkFacts link_facts(const MachineFacts& facts, const std::string& link);
/// Sets Roofs::link_latency and domain_size from the facts (flags given by the user win: pass
/// them as `latency_override` / `domain_override`).
void apply_link_facts(Roofs& r, const LinkFacts& facts,
                      std::optional<Seconds> latency_override = std::nullopt,
                      std::optional<double> domain_override = std::nullopt);

/// Pipeline parallelism (GPipe, Huang et al. 2019; Narayanan et al. 2021): pp stages of
/// layers/pp layers, the batch split into m micro-batches of B/m sequences.
struct PipelineStep {
  int stages = 1;
  double micro_batches = 1;
  double micro_batch = 1;   ///< sequences per micro-batch
  Seconds stage{0};         ///< the slowest stage for one micro-batch
  Seconds transfer{0};      ///< one stage boundary for one micro-batch (send/receive)
  Bytes transfer_bytes{0};  ///< activations crossing a boundary, sent + received per device
  Seconds path{0};  ///< one micro-batch through every stage: the step + (pp − 1) transfers
  /// The sampled token ids back from the last stage to the first (4 bytes per sequence, sent +
  /// received, one α): the next decode step's input, not hidden states.
  Seconds token_return{0};
  Seconds fill_drain{0};  ///< path + (m − 1)·(stage + transfer): a batch through an empty pipe
  /// max(path + token_return, m·(stage + transfer)): per step with the pipe full
  Seconds steady{0};
  double bubble = 0;  ///< (pp − 1)/(m + pp − 1): idle share of fill_drain
};
/// Times a step of the scenario's phase through the pipeline (pp = 1: one stage, no transfer,
/// both times equal the step's).
PipelineStep pipeline_step(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r);

/// The last stage's send of `sampled` token ids (4 bytes each, sent + received) back to the
/// first: one α and the bytes over the interconnect (0 without an interconnect roof).
Seconds pipeline_token_return(double sampled, const Roofs& r);

/// The time an iteration of `step` (the whole replica's operators) spends in each of s.pp
/// stages, first to last: layers/pp of the per-layer operators, the embedding on the first,
/// the final norm, LM head and logits on the last, each but the last plus the send of its
/// prompt_rows + decode_rows hidden states to the next stage (α–β), the last plus the return of
/// the `sampled` token ids to the first. They sum to pipeline_step's path + its token_return.
std::vector<Seconds> pipeline_stage_times(const ModelConfig& m, const Scenario& s,
                                          const StepResult& step, double prompt_rows,
                                          double decode_rows, double sampled, const Roofs& r);

/// Devices one model replica spans: tp · cp · pp.
int replica_devices(const Scenario& s);
/// What the roofs and the parallel layout risk: a compute roof that accumulates narrower than
/// frameworks do, tensor parallelism wider than the NVLink domain, a replica that spans
/// domains, collectives without a known link latency.
std::vector<std::string> parallel_warnings(const Scenario& s, const Roofs& r);
/// Every warning of an estimate for s on r: scenario_warnings then parallel_warnings. Each result
/// (a step's report, a sweep, a request, a serving run, speculative decoding) carries them.
std::vector<std::string> estimate_warnings(const ModelConfig& m, const Scenario& s, const Roofs& r);

// --- A scenario on a machine (setup.cpp) --------------------------------------------------

/// The choices `roofline llm` and roofline.llm share besides the model, the lengths and what
/// to compute: the parallel layout, the dtypes, the links and a calibration. Names in messages
/// are the CLI's flags.
struct SetupOptions {
  int tp = 1;
  bool ep = false;
  int cp = 1;
  int pp = 1;
  double micro_batches = 0;  ///< 0: as many as pipeline stages, at most one per sequence
  bool flash = true;         ///< fused attention; false: unfused (scores through memory)
  std::string mla = "auto";  ///< parse_mla_form
  /// Dtype names; "" derives them as make_dtypes does, the weights in the machine's native
  /// 16-bit type (native_16bit).
  std::string weights, activations, kv_cache, compute;
  std::optional<ByteRate> interconnect;  ///< replaces the machine's interconnect roof; > 0
  /// A training step over data-parallel replicas (--train --dp > 1): its gradient all-reduce
  /// uses the interconnect, so `interconnect` is used without tp, cp or pp.
  bool dp_uses_interconnect = false;
  std::optional<Seconds> link_latency;  ///< replaces the catalogue's α; ≥ 0
  std::optional<double> domain_size;    ///< replaces the catalogue's NVLink domain; ≥ 1
  /// Attainment factors (parse_attainment) or a measured machine's roofs to calibrate with
  /// (calibration_from); at most one of the two.
  std::optional<Calibration> attainment;
  std::optional<RoofSet> calibrate;
  std::string calibrate_origin;  ///< the measured document's path, for messages and the source
  /// The measured document's other names (its info.display_name and info.aliases): it must
  /// name the machine the scenario runs on by its name or one of these.
  std::vector<std::string> calibrate_names;
};
/// Sets `o` to calibrate with a measured document's roofs: `origin` names it in messages, and
/// its display name and aliases (`facts`) are names it may give the machine by.
void calibrate_with(SetupOptions& o, const RoofSet& measured, const MachineFacts& facts,
                    const std::string& origin);
/// The scenario (batch and lengths left at their defaults) and the roofs it runs on.
struct Setup {
  Scenario scenario;
  Roofs roofs;
};
/// Checks the options and sets up the scenario on a machine (its roofs, and its facts for the
/// link latency and domain). InputError naming the flag for a value out of range.
Setup setup(const RoofSet& roofs, const MachineFacts& facts, const SetupOptions& o);

// --- The whole request (request.cpp) ---------------------------------------------------

/// One request: `prompt` tokens in, `output` tokens generated (the first by the prefill).
struct Request {
  double prompt = 0;
  double output = 0;
};
/// "1024:128" or a comma list "1024:128,4096:512" (prompt:output). InputError naming `flag`.
std::vector<Request> parse_requests(const std::string& spec, const std::string& flag);

/// A batch of B identical requests run together from start to end (static batching): the
/// prefill of B × S tokens (in chunks of `chunk` tokens when > 0), then N − 1 decode steps, the
/// j-th attending over S + j keys.
struct RequestTiming {
  double batch = 0, prompt = 0, output = 0, chunk = 0;
  Seconds ttft{0};                 ///< the prefill: one step, or Σ of its chunk steps
  Seconds decode{0};               ///< Σ_{j=1}^{N−1} t_decode(L = S + j)
  Seconds e2e{0};                  ///< ttft + decode
  Seconds mean_tpot{0};            ///< decode / (N − 1) (0 when N = 1)
  Seconds first_decode{0};         ///< the step at L = S + 1
  Seconds last_decode{0};          ///< the step at L = S + N − 1
  double output_tokens_per_s = 0;  ///< B·N / e2e
  double requests_per_s = 0;       ///< B / e2e
  std::vector<std::string> warnings;
};
/// The most output tokens request_timing costs: one decode step per token, so 1e6 tokens take
/// about a second.
inline constexpr double kMostOutputTokens = 1e6;
/// A prefill chunk (`--chunk`, chunk=), returned: a whole number of tokens ≥ 1, or 0 for none
/// given (the prefill in one step: the CLI without --chunk, Python's default chunk=0); anything
/// else (a fraction, a negative or non-finite number) an InputError "--chunk: must be a whole
/// number of tokens ≥ 1 (got V); without it the prefill runs in one step".
double check_chunk(double chunk);
/// A count the CLI and the Python package read alike (--output-tokens, --concurrency, --spec-k):
/// `v` when a whole number from 1 to `most`, else InputError "FLAG: must be a whole number from
/// 1 to MOST (got V)" (0 too: a count given is never "not given"). Python's message is this one
/// with the flag named as its parameter (python_message).
double check_count(double v, double most, const std::string& flag);
/// --measured-tokens-per-s (measured_tokens_per_s=): `v` when a finite number > 0, else
/// InputError "--measured-tokens-per-s: must be a number of tokens per second > 0 (got V)".
double check_measured_tokens_per_s(double v);
RequestTiming request_timing(const ModelConfig& m, const Scenario& s, double output, const Roofs& r,
                             double chunk = 0);

/// A continuous-batching engine under a closed loop (as `vllm bench serve --max-concurrency C
/// --request-rate inf`): up to `concurrency` requests in flight, a new one admitted as soon as
/// one finishes; each step carries one token for every request in decode and prompt tokens of
/// the others (whole prompts, or chunks filling a `max_batched_tokens` budget after the
/// decode tokens — chunked prefill); weights move once per step for all of them.
struct ServingOptions {
  double concurrency = 1;
  double max_batched_tokens = 0;  ///< 0: no chunking (a prompt's prefill in one step)
  std::vector<Request> requests;  ///< the workload, cycled
  double total_requests = 0;      ///< 0: max(8 × concurrency, requests)
};
struct LatencyStats {
  Seconds mean{0}, median{0}, p99{0}, max{0};
  std::size_t count = 0;  ///< requests measured (0: none has the figure, e.g. TPOT at N = 1)
};
struct ServingResult {
  ServingOptions options;
  double requests = 0;
  double steps = 0;
  double mixed_steps = 0;   ///< steps that carried prompt and decode tokens together
  double decode_steps = 0;  ///< steps that carried decode tokens (with or without prompts)
  Seconds makespan{0};
  double output_tokens_per_s = 0, input_tokens_per_s = 0, requests_per_s = 0;
  LatencyStats ttft, tpot, e2e;  ///< TTFT and E2E from arrival; TPOT over tokens 2…N
  /// Requests in decode per step that decodes, on average (prompt-only steps are left out:
  /// they have no decode batch); 0 when no step decodes.
  double mean_decode_batch = 0;
  Seconds mean_step{0};       ///< makespan ÷ iterations (of all engines)
  int stages = 1;             ///< pipeline stages
  double engines = 1;         ///< iterations in flight: min(stages, concurrency)
  Bytes peak_kv_cache{0};     ///< the most KV cache per device held at once
  double peak_tokens = 0;     ///< the tokens it held then
  Bytes peak_activations{0};  ///< the largest step's activations per device (step_activations)
  std::vector<std::string> warnings;  ///< e.g. the peak beyond the memory's capacity
};
/// The most concurrent requests simulate_serving takes: each step is costed over its running
/// requests, so that a run ends in seconds (1e4 concurrent requests take about one).
inline constexpr double kMostConcurrency = 1e4;
ServingResult simulate_serving(const ModelConfig& m, const Scenario& s, const ServingOptions& o,
                               const Roofs& r);

// --- Speculative decoding (speculative.cpp) -----------------------------------------------

/// k tokens drafted per step, each accepted with probability α (i.i.d., as Leviathan et al.
/// 2023 assume), by a smaller draft model or by the target's own multi-token-prediction
/// modules (DeepSeek-V3's MTP).
struct SpeculativeOptions {
  double k = 4;
  double alpha = 0.8;
  bool mtp = false;                        ///< draft with the target's MTP modules
  std::optional<ModelConfig> draft_model;  ///< else this model drafts
  /// The drafter's tensor-parallel degree, 1 … the target's (engines run a small drafter on
  /// fewer devices: vLLM's draft_tensor_parallel_size); none: the target's.
  std::optional<int> draft_tp;
};
/// Leviathan et al. 2023 (Fast Inference from Transformers via Speculative Decoding), eq. 1:
/// tokens gained per verification step E = (1 − α^(k+1))/(1 − α) (k + 1 when α = 1).
double expected_tokens_per_step(double alpha, double k);

struct SpeculativeResult {
  double k = 0, alpha = 0;
  double expected_tokens = 0;  ///< E per sequence per step
  std::string drafter;         ///< the draft model's name, or "MTP"
  int draft_tp = 0;            ///< the drafter's tensor-parallel degree (0 for MTP)
  Seconds draft_step{0};       ///< one draft token for the batch
  Seconds drafting{0};         ///< the k draft steps (contexts L … L + k − 1)
  Seconds verify{0};           ///< the target over k + 1 tokens per sequence
  Seconds plain{0};            ///< the target's ordinary decode step
  Seconds cycle{0};            ///< drafting + verify
  Seconds time_per_token{0};   ///< cycle / E, per sequence
  double speedup = 0;          ///< plain / time_per_token
  double tokens_per_s = 0;     ///< B·E / cycle
  /// Leviathan et al. 2023's walltime improvement (1 − α^(k+1)) / ((1 − α)(k·c + 1)) with
  /// c = draft_step / plain: the same as `speedup` when verifying costs a plain step.
  double paper_speedup = 0;
  /// On the roofline: the verification step reads the weights once for (k + 1)·B tokens, so
  /// its intensity is ≈ (k + 1)× the plain step's, and it computes (k + 1)/E FLOP per FLOP of
  /// tokens kept.
  Intensity plain_intensity{0}, verify_intensity{0};
  Work plain_work_per_token{0}, verify_work_per_token{0};  ///< target FLOP per kept token
  bool verify_compute_bound = false;  ///< most of the verify step's time is compute-bound
  std::string verify_bound;           ///< step_bound of the verify step
  /// What makes the figures doubtful (a drafter of another vocabulary, so another tokenizer).
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};
/// The most tokens speculative_decoding drafts per step (SpeculativeOptions::k).
inline constexpr double kMostDraftedTokens = 64;
SpeculativeResult speculative_decoding(const ModelConfig& target, const Scenario& s,
                                       const SpeculativeOptions& o, const Roofs& r);

// --- Cost (cost.cpp) ----------------------------------------------------------------------

/// A device's power figure from a catalogue entry (info.power_w, info.power_source); empty
/// where the catalogue gives none (TPU v5e: power_w null) or the document is a measured one.
struct DevicePower {
  std::optional<double> watts;
  std::string source;
};
DevicePower device_power(const MachineFacts& facts);

/// $/M tokens = price per device-hour × devices / (tokens/s × 3600) × 10⁶; J/token = power ×
/// devices / tokens/s (at the catalogue's board power: TDP is the ceiling of the draw, so this
/// is an upper bound for a device running at it).
struct TokenCost {
  double devices = 1;
  double tokens_per_s = 0;
  std::optional<double> price_per_hour;  ///< per device
  std::optional<double> usd_per_million_tokens;
  std::optional<double> power_w;  ///< per device
  std::string power_source;
  std::optional<double> joules_per_token;
  std::vector<std::string> notes;  ///< what is missing and why
  /// Whose throughput it is at: "decode", "speculative decoding", "the request's output",
  /// "serving output" (the JSON's `basis`); empty where the caller did not say.
  std::string basis;
};
TokenCost token_cost(double tokens_per_s, double devices, std::optional<double> price_per_hour,
                     const DevicePower& power, const std::string& machine);

/// Prices per device-hour (`llm --price-per-hour`, roofline.llm.compare's price_per_hour): one
/// price for every machine, or prices by machine name. A name that prices none of the machines,
/// one priced twice, or (in the flag's text) an empty one is refused: a price silently not
/// applied would read as "no price given". Names in messages are the CLI's flags.
class PriceList {
 public:
  PriceList() = default;
  /// The flag's text: "" (no price), one price ("2.5") or NAME=PRICE,NAME=PRICE. A price is a
  /// decimal number ≥ 0 (dollars per device-hour); InputError otherwise, or for an item that is
  /// not NAME=PRICE or a NAME priced twice.
  static PriceList parse(const std::string& spec);
  /// One price for every machine.
  void set_all(double price) { all_ = price; }
  /// A price under a name; InputError when the name is priced already.
  void add(const std::string& name, double price);
  /// The price of a machine given as `given` (to --hw: a catalogue name or alias, a file; "" when
  /// not known), named `machine` in its document and `catalogue` in the catalogue ("a100"
  /// given, "a100-80gb" its entry): a NAME equal to `given` or `machine`, or the catalogue's
  /// name as hardware_key compares names ("A100_80GB"). The first NAME that matches is used.
  std::optional<double> of(const std::string& given, const std::string& machine,
                           const std::string& catalogue);
  /// Once every machine is priced: refuses a NAME that priced none of `machines` (their names,
  /// listed in the message).
  void check_all_used(const std::vector<std::string>& machines) const;

 private:
  void refuse_priced(const std::string& name) const;
  std::optional<double> all_;
  std::vector<std::pair<std::string, double>> by_name_;
  std::vector<bool> used_;
};

/// Data-parallel replicas (`--dp`, dp=): InputError unless a finite whole number ≥ 1.
void check_dp(double dp);

/// The throughput the cost and the data-parallel line of one (batch, context) are at, of one
/// replica: the decode step's; the whole request's output when there is a request (-N); serving
/// output when there is serving. Speculative decoding is how decode runs, so it replaces decode
/// alone; beside a request or serving, which decode one token per step, it is said in a note.
struct ThroughputBasis {
  double tokens_per_s = 0;  ///< one replica's
  /// "decode", "the request's output", "serving output" or "speculative decoding"
  /// (TokenCost::basis)
  std::string what = "decode";
  /// Speculative decoding beside a request or serving: not in their cost, and what it would
  /// give at decode (over every replica); empty otherwise.
  std::string note;
};
/// `decode_tokens_per_s` is the step's (Report::tokens_per_s); each section is given when it was
/// computed (nullptr otherwise); `replicas` (--dp) scales the note's speculative rate.
ThroughputBasis throughput_basis(double decode_tokens_per_s, const RequestTiming* request,
                                 const ServingResult* serving, const SpeculativeResult* speculative,
                                 double replicas);

/// Data-parallel replicas of one model replica: every replica's throughput together.
struct DataParallelSummary {
  double replicas = 1;
  int devices_per_replica = 1;  ///< replica_devices
  double tokens_per_s_all = 0;  ///< one replica's throughput × replicas
  std::string what;             ///< ThroughputBasis::what
};
/// The replicas of `s` at `b`'s throughput; none for one replica (replicas ≤ 1).
std::optional<DataParallelSummary> data_parallel_summary(const Scenario& s, double replicas,
                                                         const ThroughputBasis& b);
/// The cost of a token at `b`'s throughput of every replica, on every replica's devices
/// (token_cost), with `b`'s note and `b.what` as its basis.
TokenCost basis_cost(const ThroughputBasis& b, const Scenario& s, double replicas,
                     std::optional<double> price_per_hour, const DevicePower& power,
                     const std::string& machine);
/// What the cost section's heading says its throughput is: "(decode)", or with replicas
/// "(decode, all 4 replicas)".
std::string cost_basis_label(const std::string& what, double replicas);

// --- One model on several machines (compare.cpp) ----------------------------------------

/// What `roofline llm --hw a,b,c` adds to each machine's decode step: the whole request when
/// output_tokens > 0, data-parallel replicas, the price and power of the cost.
struct CompareOptions {
  double output_tokens = 0;  ///< 0: decode throughput; else the request's output (TTFT too)
  double chunk = 0;          ///< chunked prefill of the request (request_timing)
  double dp = 1;             ///< data-parallel replicas
  std::optional<double> price_per_hour;  ///< per device
  std::optional<double> power_w;         ///< replaces the catalogue's board power
};
/// One machine's row: latency, throughput (× dp), memory per device and cost at one (batch,
/// context).
struct MachineComparison {
  std::string machine;
  std::string compute_roof;
  UnitSystem units;  ///< of the compute roof (Roofs::units)
  WorkRate peak{0};
  ByteRate bandwidth{0};
  std::string dtype;  ///< the compute dtype
  bool flash = true;  ///< the attention form of the step (Scenario::flash)
  Seconds ttft{0};    ///< the request's when output_tokens > 0, else the prefill's
  Seconds time_per_output_token{0};
  /// Output tokens/s of decode alone: B·dp / time_per_output_token (every machine, always).
  double decode_tokens_per_s = 0;
  /// Output tokens/s of whole requests with output_tokens > 0: B·N·dp / end-to-end (prefill
  /// included); none without. The cost is per token at this rate when given, else at decode's.
  std::optional<double> request_tokens_per_s;
  Bytes memory{0};
  std::optional<bool> fits;
  TokenCost cost;
  std::vector<std::string> warnings;  ///< the step's
  std::optional<RequestTiming> request;
};
/// The row of one machine: `st` is its setup (llm::setup) with batch, context and prompt set;
/// `facts` the machine's (its board power).
MachineComparison compare_on(const ModelConfig& m, const Setup& st, const MachineFacts& facts,
                             const CompareOptions& o);
/// Each row's warnings and cost notes, named by machine.
std::vector<std::string> comparison_notes(const std::vector<MachineComparison>& rows);
/// `roofline llm --hw a,b,c`: one line saying what is compared, the table (roofs, TTFT,
/// time/token, decode tokens/s, request tokens/s with output tokens, memory, fits, $/M tokens,
/// J/token) and the notes.
std::string render_comparison_text(const ModelConfig& m, double batch, double context,
                                   double output_tokens,
                                   const std::vector<MachineComparison>& rows);

// --- Training (training.cpp) --------------------------------------------------------------

enum class Recompute { none, selective, full };
std::string to_string(Recompute r);
Recompute parse_recompute(const std::string& s);  ///< none|selective|full; throws InputError

/// One optimizer step of data-parallel training (mixed-precision Adam) on the roofline.
struct TrainingOptions {
  double sequence = 4096;   ///< s tokens per sequence
  double micro_batch = 1;   ///< b sequences per device per micro-step
  double global_batch = 0;  ///< sequences per optimizer step (0: micro_batch × dp)
  double dp = 1;            ///< data-parallel replicas
  Recompute recompute = Recompute::none;
  int zero = 0;  ///< ZeRO stage 0–3 (Rajbhandari et al. 2020)
  bool sequence_parallel = false;
  std::optional<double> measured_step_s;  ///< a measured step time: measured MFU and HFU
};
struct TrainingResult {
  TrainingOptions options;
  bool flash = true;       ///< the scenario's attention: fused (scores never stored) or not
  double tokens = 0;       ///< D per optimizer step (all replicas)
  double micro_steps = 0;  ///< gradient accumulation steps per replica
  double parameters = 0;   ///< N: active matrix parameters (embedding lookup excluded)
  Work six_nd{0};          ///< 6·N·D (Kaplan et al. 2020)
  Work forward{0};         ///< the operator model's forward W for D tokens (logits for all)
  Work model_work{0};      ///< 3 × forward (backward ≈ 2 × forward): what MFU counts
  Work hardware_work{0};   ///< + the recomputed forward: what HFU counts
  Seconds compute{0};      ///< per device: micro_steps × (3 + recomputed) × forward time
  Seconds gradient_all_reduce{0};
  Bytes gradient_traffic{0};  ///< per device, sent + received
  Seconds optimizer{0};       ///< the Adam update, memory-bound
  Seconds step{0};            ///< compute + all-reduce (not overlapped) + optimizer
  double mfu = 0, hfu = 0;    ///< predicted: model/hardware work per device ÷ (step × π)
  std::optional<double> measured_mfu, measured_hfu;
  Bytes weights{0}, gradients{0}, optimizer_state{0}, activations{0};
  Bytes memory() const { return weights + gradients + optimizer_state + activations; }
  std::optional<bool> fits;
  std::vector<std::string> notes;
};
TrainingResult training_step(const ModelConfig& m, const Scenario& s, const TrainingOptions& o,
                             const Roofs& r);
/// Activation bytes per layer per device (Korthikanti et al. 2022, "Reducing Activation
/// Recomputation in Large Transformer Models", Table 2; 16-bit activations): s·b·h·(34 +
/// 5·a·s/h) without parallelism; with tensor parallelism t: 10 + 24/t + 5as/(ht); with sequence
/// parallelism as well: 34/t + 5as/(ht); selective recompute drops the 5as/(ht) term; full
/// recompute keeps the layer input, 2·s·b·h. Fused attention stores no score matrix either.
double activation_bytes_per_layer(const ModelConfig& m, const Scenario& s,
                                  const TrainingOptions& o);

/// MFU and bandwidth utilisation from a measured throughput (docs/model.md, utilisation).
struct Utilisation {
  double tokens_per_s = 0;  ///< as measured: of all `replicas` together
  /// Data-parallel replicas the measurement is of (--dp): each runs the step at tokens_per_s ÷
  /// replicas, which MFU, bandwidth and the prediction's share are of.
  double replicas = 1;
  /// W per token in the compute roof's unit: all of it, or the matrix products' OP when the
  /// element-wise work counts FLOP apart (Roofs::counts_apart; then vector_work_per_token).
  Work work_per_token{0};
  Work vector_work_per_token{0};
  Bytes bytes_per_token{0};
  double mfu = 0;
  double bandwidth = 0;
  double of_roofline = 0;  ///< measured tokens/s ÷ the model's predicted tokens/s
  /// Why the measurement is above what the roofs allow (MFU, bandwidth utilisation or the
  /// share of the prediction beyond DiagnosisOptions::above, as `point` judges a point above
  /// its roof), or "" when it is not.
  std::string above_roof;
};
Utilisation utilisation(const StepResult& step, double measured_tokens_per_s, const Roofs& r,
                        double replicas = 1);
/// ", all R replicas" for a measurement of R > 1 data-parallel replicas; "" for one.
std::string measured_replicas(double replicas);
/// A measurement's shares of what the roofs allow, by name: "" when none is beyond
/// DiagnosisOptions::above (5% slack), else the sentence that says which and what it means.
std::string above_the_roofs(const std::vector<std::pair<std::string, double>>& shares);

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
  std::vector<std::string> warnings;  ///< scenario_warnings and parallel_warnings
  /// With --pp > 1: the pipeline's timing of the two phases (TTFT is the prefill's fill and
  /// drain, the time per token the decode's steady state).
  std::optional<PipelineStep> pipeline_prefill, pipeline_decode;
};
Report analyse(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r,
               std::optional<double> measured_tokens_per_s = std::nullopt);
/// What `roofline llm` adds to one (batch, context)'s report.
struct AnalyseOptions {
  /// A measured throughput of the phase, of all `replicas` together (as the "Data parallel"
  /// line's tokens/s in all).
  std::optional<double> measured_tokens_per_s;
  double replicas = 1;  ///< data-parallel replicas (--dp)
  /// The prefill runs in chunks of this many tokens (--chunk; 0: in one step): the
  /// footprint's activations are its largest chunk's.
  double prefill_chunk = 0;
};
Report analyse(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r,
               const AnalyseOptions& o);

/// One row of a batch × context sweep.
struct SweepRow {
  double batch = 0, context = 0, prompt = 0;
  /// The decode step's W in the compute roof's unit (Roofs::in_compute_units; the intensities
  /// below likewise), and, counted apart, its element-wise work in the vector roof's.
  Work decode_work{0};
  Work decode_vector_work{0};
  Bytes decode_traffic{0};
  Seconds ttft{0}, time_per_token{0};
  double tokens_per_s = 0;
  Intensity decode_intensity{0}, linear_intensity{0}, attention_intensity{0}, prefill_intensity{0};
  /// Most of the decode step's time is in compute-bound operators (step_bound "compute"): the
  /// step's time is Σ max(W/π, Q/β) per operator, so past its linear layers' critical batch
  /// the throughput stops growing though the whole step's I is still below the ridge.
  bool decode_compute_bound = false;
  std::string decode_bound;  ///< step_bound of the decode step
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
/// on a chart the points move right as B grows (docs/llm.md).
std::vector<Point> sweep_points(const std::vector<SweepRow>& rows, const Roofs& r);
/// The points of to_points(r) whose configuration does not fit in memory, by index, each with
/// the figures the text's memory line gives ("139 GB of 24 GB (GDDR6)"): every point when the
/// report's footprint exceeds the memory level (Report::memory.fits false), none when it fits or
/// the capacity is unknown. A chart draws them hollow (ReportInput::does_not_fit).
std::map<std::size_t, std::string> points_over_memory(const Report& r);
/// The points of sweep_points(rows, r) whose row does not fit (SweepRow::fits false, the table's
/// "fits no"), by index: "91.93 GB of 80 GB (HBM2e)".
std::map<std::size_t, std::string> sweep_points_over_memory(const std::vector<SweepRow>& rows,
                                                            const Roofs& r);
/// What a chart of the sweep says of the rows that do not fit, as the one-run report warns of
/// its step: "B=64 L=2048 (91.93 GB) and B=256 L=2048 (327.3 GB) exceed the 80 GB of HBM2e per
/// device: they do not fit, and the times assume they did"; empty when every row fits. The first
/// kSweepRowsNamed rows are named and the rest counted ("B=1 L=128 (17 GB), …, B=5 L=128 (21 GB)
/// and 995 more exceed ..."), so a sweep of thousands of rows warns in one line.
inline constexpr std::size_t kSweepRowsNamed = 5;
std::vector<std::string> sweep_warnings(const std::vector<SweepRow>& rows, const Roofs& r);
/// What a sweep warns of its model on the machine (estimate_warnings), at the longest context
/// swept (a shorter one warns of nothing more): the warnings `llm` prints for a sweep and its
/// JSON document's "warnings". `s` is the sweep's scenario, as `sweep` took it.
std::vector<std::string> sweep_estimate_warnings(const std::vector<SweepRow>& rows,
                                                 const ModelConfig& m, const Scenario& s,
                                                 const Roofs& r);
/// What the chart of a sweep (`llm --report` with several batches or contexts) says:
/// sweep_estimate_warnings, then sweep_warnings (the rows that do not fit).
std::vector<std::string> sweep_chart_warnings(const std::vector<SweepRow>& rows,
                                              const ModelConfig& m, const Scenario& s,
                                              const Roofs& r);

// Rendering (text and CSV; JSON in roofline/llm_json.hpp).
/// `llm --list`'s table: a row per model — its name, parameters (SI), layers, hidden size,
/// heads, kv heads, the MLP ("E experts × I" for a mixture of experts, else its intermediate
/// size) and its source.
std::string render_presets_text(const std::vector<ModelConfig>& models);
std::string render_text(const Report& r);
/// The whole text of one (batch, context)'s report: render_text(r), then `sections`, the text of
/// the sections the flags add below it (request, serving, speculative decoding, data parallel,
/// cost), as they come.
std::string render_report_text(const Report& r, const std::string& sections);
/// The warnings one (batch, context)'s report says on standard error where its text does not
/// (JSON, CSV, a file): the step's (r.warnings, in order), then each of `sections` (the
/// request's, serving's and speculative decoding's warnings, in order) not already among them,
/// so that one the step and the request both give (a --pp that does not divide the layers) is
/// said once.
std::vector<std::string> report_warnings(const Report& r, const std::vector<std::string>& sections);
/// The title of the report's operator chart (`llm --report`, Python's llm.chart): "MODEL on
/// MACHINE: PHASE operators, batch B, context L, prompt P".
std::string chart_title(const Report& r);
/// The title of a sweep's chart (`llm --report` with several batches or contexts): "MODEL on
/// MACHINE: decode step per (batch, context)".
std::string sweep_chart_title(const ModelConfig& m, const Roofs& r);
std::string operators_csv(const Report& r);
/// Its header states the layout (tensor, expert, context, pipeline parallelism) and the
/// attention form of `s`.
std::string render_sweep_text(const std::vector<SweepRow>& rows, const ModelConfig& m,
                              const Roofs& r, const Scenario& s);
std::string sweep_csv(const std::vector<SweepRow>& rows, const Roofs& r);

// Rendering of the request, serving, speculative, cost and training sections (text; JSON in
// roofline/llm_json.hpp).
std::string render_request_text(const RequestTiming& t);
std::string render_serving_text(const ServingResult& s);
std::string render_speculative_text(const SpeculativeResult& s, const Roofs& r);
std::string render_cost_text(const TokenCost& c, const std::string& what);
/// "Data parallel: 4 replicas of 2 device(s): 1234 tokens/s in all (decode, all replicas)",
/// after an empty line.
std::string render_data_parallel_text(const DataParallelSummary& d);
std::string render_training_text(const TrainingResult& t, const ModelConfig& m, const Roofs& r);

}  // namespace roofline::llm
