// The Hugging Face config.json reader: the fields each family names its sizes by, the
// per-class defaults transformers fills in where a real file leaves them out, and the layer
// layouts (which layers window, chunk, or route to experts) the families derive from them.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <string>

#include "llm/config_checks.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::llm {
namespace {

bool one_of(const std::string& t, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (t == n) return true;
  return false;
}

// Families whose MLP is gated (gate/up/down with SiLU or GELU).
bool gated_family(const std::string& t) {
  return one_of(t, {"llama",     "mistral", "mixtral",    "qwen2",       "qwen2_moe",   "qwen3",
                    "qwen3_moe", "gemma",   "gemma2",     "gemma3",      "gemma3_text", "phi3",
                    "olmo",      "olmo2",   "granite",    "deepseek_v2", "deepseek_v3", "cohere",
                    "cohere2",   "llama4",  "llama4_text"});
}
// Families whose MLP is fc1/fc2 with a LayerNorm and biases (GPT-2, GPT-J, GPT-NeoX, OPT...).
bool gpt_family(const std::string& t) {
  return one_of(t, {"gpt2", "gptj", "gpt_neox", "opt", "bloom", "falcon", "gpt_bigcode", "phi",
                    "starcoder2"});
}
// Hugging Face's PretrainedConfig ties word embeddings unless the model's config class says
// otherwise; LlamaConfig, MistralConfig, MixtralConfig, Qwen2Config... default to untied.
bool untied_by_default(const std::string& t) {
  return one_of(
      t, {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3_moe", "phi3", "olmo", "olmo2",
          "deepseek_v2", "deepseek_v3", "gpt_neox", "llama4", "llama4_text"});
}
// Gemma 2 and 3 put a norm after attention and after the MLP too (4 per layer).
bool post_norm_family(const std::string& t) {
  return one_of(t, {"gemma2", "gemma3", "gemma3_text"});
}
// RMSNorm on every query and key head (q_norm, k_norm of head_dim).
bool qk_norm_family(const std::string& t) {
  return one_of(t, {"gemma3", "gemma3_text", "qwen3", "qwen3_moe"});
}
bool qwen_family(const std::string& t) {
  return t.rfind("qwen", 0) == 0;
}
bool deepseek_family(const std::string& t) {
  return one_of(t, {"deepseek_v2", "deepseek_v3"});
}
bool llama4_family(const std::string& t) {
  return one_of(t, {"llama4", "llama4_text"});
}
// The families whose layers the reader models; another is costed as the transformer its
// fields describe, and said (Jamba's Mamba layers read as attention: KV 8x, parameters 1.8x).
bool known_family(const std::string& t) {
  return gated_family(t) || gpt_family(t) || untied_by_default(t) ||
         one_of(t, {"gemma3", "qwen3_moe", "qwen2_moe", "phi3", "olmo", "olmo2", "granite"});
}
// Activations by the names transformers' ACT2FN gives them; a gated one (GLU) gates the MLP.
bool known_activation(const std::string& a) {
  return one_of(a, {"silu",      "swish",       "swiglu",        "geglu",
                    "reglu",     "gelu",        "gelu_new",      "gelu_pytorch_tanh",
                    "gelu_fast", "gelu_python", "gelu_accurate", "quick_gelu",
                    "relu",      "relu2",       "relu6",         "leaky_relu",
                    "tanh",      "sigmoid",     "mish",          "linear"});
}

// A value of the file echoed in a message: as given (not lowercased), escaped for a terminal,
// and cut to its first 64 bytes when longer (a 5000-character model_type was echoed whole).
std::string echoed(const std::string& v) {
  constexpr std::size_t kMost = 64;
  if (v.size() <= kMost) return terminal_safe(v);
  return terminal_safe(cut_at_code_point(v, kMost)) + "… (" + std::to_string(v.size()) + " bytes)";
}

// What transformers' config class fills in when config.json leaves a field out. Real files
// rely on it: google/gemma-3-4b-it's text_config names only hidden_size, intermediate_size,
// num_hidden_layers, rope_scaling and sliding_window. Source: transformers
// models/gemma3/configuration_gemma3.py, Gemma3TextConfig.__init__ defaults. Every field taken
// from here is listed in ModelConfig::defaulted (and the report says so).
const nlohmann::json* class_defaults(const std::string& model_type) {
  static const nlohmann::json gemma3 = {{"vocab_size", 262208},
                                        {"hidden_size", 2304},
                                        {"intermediate_size", 9216},
                                        {"num_hidden_layers", 26},
                                        {"num_attention_heads", 8},
                                        {"num_key_value_heads", 4},
                                        {"head_dim", 256},
                                        {"hidden_activation", "gelu_pytorch_tanh"},
                                        {"max_position_embeddings", 131072},
                                        {"sliding_window", 4096},
                                        {"sliding_window_pattern", 6}};
  // transformers models/llama4/configuration_llama4.py, Llama4TextConfig.__init__ defaults.
  static const nlohmann::json llama4 = {
      {"vocab_size", 202048},           {"hidden_size", 5120},
      {"intermediate_size", 8192},      {"intermediate_size_mlp", 16384},
      {"num_hidden_layers", 48},        {"num_attention_heads", 40},
      {"num_key_value_heads", 8},       {"head_dim", 128},
      {"num_local_experts", 16},        {"num_experts_per_tok", 1},
      {"interleave_moe_layer_step", 1}, {"attention_chunk_size", 8192},
      {"no_rope_layer_interval", 4}};
  if (model_type == "gemma3_text") return &gemma3;
  if (model_type == "llama4_text") return &llama4;
  return nullptr;
}

// A multimodal config's text_config is written by transformers' to_diff_dict, which leaves out
// every field equal to the sub-config class's default: llava-hf/llava-1.5-7b-hf's names only
// max_position_embeddings, model_type, rms_norm_eps and vocab_size of its Llama. The defaults
// of the classes a nested text_config is known to name, beside class_defaults' (which hold
// wherever the type appears). Source: transformers models/llama/configuration_llama.py,
// LlamaConfig.__init__ (num_key_value_heads None = num_attention_heads, head_dim None =
// hidden_size / num_attention_heads: the reader's own fallbacks).
const nlohmann::json* nested_class_defaults(const std::string& model_type) {
  static const nlohmann::json llama = {{"vocab_size", 32000},
                                       {"hidden_size", 4096},
                                       {"intermediate_size", 11008},
                                       {"num_hidden_layers", 32},
                                       {"num_attention_heads", 32},
                                       {"hidden_act", "silu"},
                                       {"max_position_embeddings", 2048}};
  if (model_type == "llama") return &llama;
  return class_defaults(model_type);
}

// Field access on the text model's config, with the class defaults behind it.
class Fields {
 public:
  Fields(const nlohmann::json& j, const std::string& origin, const nlohmann::json* defaults)
      : j_(j), origin_(origin), defaults_(defaults) {}

  /// Reading a multimodal config's text_config of `model_type`: a required field missing
  /// there is named as text_config's, with what to add (the class defaults the reader knows
  /// are behind it already).
  void nested_in_text_config(const std::string& model_type) {
    nested_ = true;
    nested_type_ = model_type;
  }

  const std::string& origin() const { return origin_; }
  const std::vector<std::string>& defaulted() const { return defaulted_; }

  /// The first of `keys` present (and not null); the class default when none is there at all.
  /// A key present with null is read as transformers keeps it, None: not given, and no class
  /// default behind it (Gemma 3's "sliding_window": null is no window, not the class's 4096).
  std::pair<const char*, const nlohmann::json*> find(std::initializer_list<const char*> keys) {
    bool null = false;
    for (const char* k : keys) {
      auto it = j_.find(k);
      if (it != j_.end() && !it->is_null()) return {k, &*it};
      null = null || it != j_.end();
    }
    if (null) return {nullptr, nullptr};
    if (defaults_)
      for (const char* k : keys) {
        auto it = defaults_->find(k);
        if (it != defaults_->end()) {
          const std::string note = std::string(k) + " = " + it->dump();
          if (std::find(defaulted_.begin(), defaulted_.end(), note) == defaulted_.end())
            defaulted_.push_back(note);
          return {k, &*it};
        }
      }
    return {nullptr, nullptr};
  }
  bool has(const char* key) { return find({key}).second != nullptr; }

  double number(const char* key, const nlohmann::json& v) const {
    if (!v.is_number() || v.is_boolean()) bad(origin_, key, "must be a number", v.dump());
    const double x = v.get<double>();
    if (!whole(x) || x < 1) bad(origin_, key, "must be a positive whole number", v.dump());
    return at_most_the_largest(key, x, v);
  }
  double required(std::initializer_list<const char*> keys) {
    auto [k, v] = find(keys);
    if (!v) {
      for (const char* key : keys)
        if (j_.contains(key)) bad(origin_, key, "null (a required field of config.json)", "");
      if (nested_) missing_in_text_config(*keys.begin());
      bad(origin_, *keys.begin(), "missing (a required field of config.json)", "");
    }
    return number(k, *v);
  }
  double optional(std::initializer_list<const char*> keys, double fallback) {
    auto [k, v] = find(keys);
    return v ? number(k, *v) : fallback;
  }
  /// A count that may be 0 where 0 means "none" (0 experts = dense, a 0 window = none, 0 MTP
  /// modules, 0 dense layers first); a size is `optional` or `required` (≥ 1).
  double count(std::initializer_list<const char*> keys, double fallback) {
    auto [k, v] = find(keys);
    if (!v) return fallback;
    if (!v->is_number() || v->is_boolean()) bad(origin_, k, "must be a number", v->dump());
    const double x = v->get<double>();
    if (!whole(x) || x < 0) bad(origin_, k, "must be a whole number ≥ 0", v->dump());
    return at_most_the_largest(k, x, *v);
  }
  bool flag(const char* key, bool fallback) {
    auto [k, v] = find({key});
    if (!v) return fallback;
    if (!v->is_boolean()) bad(origin_, k, "must be true or false", v->dump());
    return v->get<bool>();
  }
  std::string text(std::initializer_list<const char*> keys, const std::string& fallback) {
    auto [k, v] = find(keys);
    if (!v) return fallback;
    if (!v->is_string()) bad(origin_, k, "must be a string", v->dump());
    return v->get<std::string>();
  }
  /// An array of whole numbers ≥ 0 (no_rope_layers, moe_layers, mlp_only_layers); empty when
  /// absent.
  std::vector<double> list(const char* key) {
    auto [k, v] = find({key});
    std::vector<double> out;
    if (!v) return out;
    if (!v->is_array()) bad(origin_, k, "must be an array", v->dump().substr(0, 60));
    for (const auto& e : *v) {
      if (!e.is_number() || e.is_boolean() || !whole(e.get<double>()) || e.get<double>() < 0)
        bad(origin_, k, "must hold whole numbers ≥ 0", e.dump());
      out.push_back(at_most_the_largest(k, e.get<double>(), e));
    }
    return out;
  }
  /// layer_types (transformers ≥ 4.53): one attention type per layer.
  std::vector<std::string> strings(const char* key) {
    auto [k, v] = find({key});
    std::vector<std::string> out;
    if (!v) return out;
    if (!v->is_array()) bad(origin_, k, "must be an array of strings", v->dump().substr(0, 60));
    for (const auto& e : *v) {
      if (!e.is_string()) bad(origin_, k, "must hold strings", e.dump());
      out.push_back(e.get<std::string>());
    }
    return out;
  }

 private:
  double at_most_the_largest(const char* key, double x, const nlohmann::json& v) const {
    if (x > kLargestModelCount) bad(origin_, key, "must be at most 1e9", v.dump());
    return x;
  }

  // transformers fills a text_config's missing field from its model_type's config class; the
  // reader knows only some classes' defaults (nested_class_defaults), so for another it says
  // which field to copy into text_config (from the text model's own config.json).
  [[noreturn]] void missing_in_text_config(const char* key) const {
    const std::string type =
        nested_type_.empty() ? "no model_type" : "model_type '" + echoed(nested_type_) + "'";
    bad(origin_, std::string("text_config.") + key,
        "missing; transformers fills it from the text model's config class, whose defaults the "
        "reader does not know for " +
            type + ": add \"" + key +
            "\" to text_config (the language model's own config.json gives it)",
        "");
  }

  const nlohmann::json& j_;
  std::string origin_;
  const nlohmann::json* defaults_;
  std::vector<std::string> defaulted_;
  bool nested_ = false;
  std::string nested_type_;
};

// --- the named steps of the reader -------------------------------------------------------

void read_name(ModelConfig& m, Fields& f) {
  // _name_or_path when present; else the folder of a "config.json", else the file stem.
  const std::filesystem::path file(f.origin());
  m.name = f.text({"_name_or_path"}, "");
  if (m.name.empty())
    m.name = file.filename() == "config.json" ? file.parent_path().filename().string()
                                              : file.stem().string();
  if (m.name.empty() || m.name == ".") m.name = m.model_type.empty() ? "model" : m.model_type;
}

void read_shape(ModelConfig& m, Fields& f) {
  m.hidden = f.required({"hidden_size", "n_embd", "n_embed", "d_model"});  // n_embed: Bloom
  m.heads = f.required({"num_attention_heads", "n_head", "num_heads"});
  m.layers = f.required({"num_hidden_layers", "n_layer", "num_layers"});
  m.vocab = f.required({"vocab_size"});
  if (f.has("head_dim")) {
    m.head_dim = f.required({"head_dim"});
  } else if (f.has("kv_lora_rank")) {
    m.head_dim = 1;  // MLA: set from qk_nope_head_dim + qk_rope_head_dim (read_mla)
  } else {
    if (std::fmod(m.hidden, m.heads) != 0)
      bad(f.origin(), "num_attention_heads",
          "must divide hidden_size (" + format_number(m.hidden, 10) +
              ") when head_dim is not given",
          format_number(m.heads, 10));
    m.head_dim = m.hidden / m.heads;
  }
  // MQA flag of GPT-BigCode/Falcon: one K/V head.
  const bool multi_query = f.flag("multi_query", false);
  m.kv_heads =
      f.optional({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, multi_query ? 1 : m.heads);
}

// Multi-head latent attention (DeepSeek-V2/V3): the query-key head is nope + rope wide.
void read_mla(ModelConfig& m, Fields& f) {
  if (!f.has("kv_lora_rank")) return;
  m.mla.kv_lora_rank = f.required({"kv_lora_rank"});
  // null (V2-Lite): a direct q_proj; a rank given must be ≥ 1 (0 is no rank, not "none").
  m.mla.q_lora_rank = f.optional({"q_lora_rank"}, 0);
  m.mla.qk_nope_head_dim = f.required({"qk_nope_head_dim"});
  m.mla.qk_rope_head_dim = f.required({"qk_rope_head_dim"});
  m.mla.v_head_dim = f.required({"v_head_dim"});
  m.head_dim = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
  m.kv_heads = m.heads;  // the latent serves every head; num_key_value_heads is not used
  m.mtp_layers = f.count({"num_nextn_predict_layers"}, 0);
}

// Which layers are MoE: DeepSeek from first_k_dense_replace on, every moe_layer_freq-th
// (HF DeepseekV3DecoderLayer); Llama 4 the moe_layers list or every interleave_moe_layer_step-th
// (HF Llama4TextConfig); Qwen-MoE every decoder_sparse_step-th outside mlp_only_layers.
double moe_layer_count(const ModelConfig& m, Fields& f) {
  // Counted in closed form over 64-bit integers (Fields refuses counts above 1e9), so a config
  // naming a huge layer count costs no loop over its layers.
  const auto L = static_cast<std::int64_t>(m.layers);
  if (deepseek_family(m.model_type)) {
    // Layers i in [first, L) with i % freq == 0: the multiples of freq below L less those
    // below first; ceil(a / freq) multiples lie in [0, a).
    // transformers reads layer i as MoE when i >= first_k_dense_replace, whatever its value:
    // one at or past the layers makes every layer dense (small test configs cut the layers and
    // keep the value), as it does here.
    const auto first = static_cast<std::int64_t>(f.count({"first_k_dense_replace"}, 0));
    const auto freq = static_cast<std::int64_t>(f.optional({"moe_layer_freq"}, 1));
    const auto below = [freq](std::int64_t a) { return a / freq + (a % freq != 0); };
    return first >= L ? 0.0 : static_cast<double>(below(L) - below(first));
  }
  if (llama4_family(m.model_type)) {
    const auto listed = f.list("moe_layers");
    if (f.has("moe_layers")) {
      // A layer is MoE or not: one listed twice is counted once (transformers reads the list
      // as `idx in moe_layers`).
      const std::set<double> distinct(listed.begin(), listed.end());
      for (double i : distinct)
        if (i >= m.layers)
          bad(f.origin(), "moe_layers", "names a layer past the last", format_number(i));
      return static_cast<double>(distinct.size());
    }
    const double step = f.optional({"interleave_moe_layer_step"}, 1);
    return std::floor(m.layers / step);
  }
  if (one_of(m.model_type, {"qwen2_moe", "qwen3_moe"})) {
    // Layers i in [0, L) with (i + 1) % step == 0, less those mlp_only_layers keeps dense.
    const auto step = static_cast<std::int64_t>(f.optional({"decoder_sparse_step"}, 1));
    const auto listed = f.list("mlp_only_layers");
    const std::set<double> only(listed.begin(), listed.end());
    for (double i : only)
      if (i >= m.layers)
        bad(f.origin(), "mlp_only_layers",
            "names a layer outside [0, num_hidden_layers = " + format_number(m.layers, 10) + ")",
            format_number(i, 10));
    std::int64_t n = L / step;
    for (double i : only) n -= (static_cast<std::int64_t>(i) + 1) % step == 0;
    return static_cast<double>(n);
  }
  return m.layers;
}

void read_mlp(ModelConfig& m, Fields& f) {
  // An explicit 0 (or 1) expert means a dense MLP, as an absent field does.
  m.experts = f.count({"num_local_experts", "num_experts", "n_routed_experts"}, 0);
  if (m.experts <= 1) m.experts = 0;
  const bool gpt = gpt_family(m.model_type);
  if (m.moe()) {
    m.experts_per_token = f.required({"num_experts_per_tok", "moe_top_k", "top_k"});
    // Absent (or null): the experts are intermediate_size wide (Mixtral); given, ≥ 1.
    m.expert_intermediate = f.optional({"moe_intermediate_size"}, 0);
    if (m.expert_intermediate == 0) m.expert_intermediate = f.required({"intermediate_size"});
    // The dense layers' width: Llama 4 names it intermediate_size_mlp (intermediate_size is
    // the experts'); others intermediate_size.
    m.intermediate = llama4_family(m.model_type)
                         ? f.optional({"intermediate_size_mlp"}, m.expert_intermediate)
                         : f.optional({"intermediate_size"}, m.expert_intermediate);
    // 0 shared experts (or width 0) = none. Llama 4's MoE layers always add one shared expert
    // of the experts' width (HF Llama4TextMoe.shared_expert).
    m.shared_intermediate = f.count({"shared_expert_intermediate_size"}, 0);
    const double shared = f.count({"n_shared_experts"}, 0);
    if (m.shared_intermediate == 0 && shared > 0)
      m.shared_intermediate = shared * m.expert_intermediate;
    if (llama4_family(m.model_type)) m.shared_intermediate = m.expert_intermediate;
    m.dense_layers = m.layers - moe_layer_count(m, f);
    // DeepSeek-V3's aux-loss-free balancing adds a score bias per expert to the router.
    m.router_bias = f.text({"topk_method"}, "") == "noaux_tc";
  } else if (gpt) {
    // Plain MLPs default to 4d (GPT-2's n_inner: null means 4·n_embd).
    m.intermediate = f.optional({"intermediate_size", "n_inner", "ffn_dim"}, 4 * m.hidden);
  } else {
    m.intermediate = f.required({"intermediate_size", "n_inner", "ffn_dim"});
  }
  const std::string activation =
      f.text({"hidden_act", "hidden_activation", "activation_function"}, gpt ? "gelu" : "silu");
  m.activation = lower(activation);
  // A GLU activation gates by definition, whatever the family (a GPT-family config naming
  // geglu was costed fc1/fc2 unsaid); SiLU gates outside the GPT families' plain MLPs.
  if (gated_family(m.model_type) || one_of(m.activation, {"swiglu", "geglu", "reglu"}))
    m.mlp = Mlp::gated;
  else if (gpt)
    m.mlp = Mlp::plain;
  else
    m.mlp = one_of(m.activation, {"silu", "swish"}) ? Mlp::gated : Mlp::plain;
  if (!known_activation(m.activation))
    m.caveats.push_back(
        "the activation '" + echoed(activation) + "' of " + terminal_safe(f.origin()) +
        " is not one the reader knows: its MLP is costed " +
        (m.mlp == Mlp::gated ? "gated (gate, up, down)" : "ungated (up, down)") +
        (gated_family(m.model_type) || gpt_family(m.model_type) ? ", as its model_type's"
                                                                : ", the form of unknown names"));
}

// Which layers attend locally. Sources (transformers): layer_types when the file has it
// ("full_attention", "sliding_attention", "chunked_attention"); else Gemma 2 windows the even
// layers (Gemma2DecoderLayer: is_sliding = not layer_idx % 2); Gemma 3 and Cohere 2 all but
// every sliding_window_pattern-th (default 6 and 4); Llama 4 chunks the RoPE layers
// (no_rope_layers[i] = 1; by default all but every 4th, no_rope_layer_interval); Qwen2 windows
// the layers from max_window_layers on, only with use_sliding_window; Mistral-style configs
// window every layer.
void read_attention_layout(ModelConfig& m, Fields& f) {
  const std::string& t = m.model_type;
  const double window = f.count({"sliding_window"}, 0);
  const double chunk = f.count({"attention_chunk_size"}, 0);
  const auto types = f.strings("layer_types");
  if (!types.empty()) {
    if (types.size() != static_cast<std::size_t>(m.layers))
      bad(f.origin(), "layer_types",
          "must name one type per layer (" + format_number(m.layers, 10) + ")",
          std::to_string(types.size()) + " entries");
    double sliding = 0, chunked = 0;
    for (const auto& ty : types) {
      if (ty == "sliding_attention")
        ++sliding;
      else if (ty == "chunked_attention")
        ++chunked;
      else if (ty != "full_attention")
        bad(f.origin(), "layer_types",
            "'" + ty + "' is not modelled (full_attention, sliding_attention, chunked_attention)",
            "");
    }
    if (sliding > 0) {
      m.sliding_window = window;
      m.sliding_layers = sliding;
    }
    if (chunked > 0) {
      m.attention_chunk = chunk;
      m.chunked_layers = chunked;
    }
    return;
  }
  if (t == "gemma2") {
    if (window > 0) {
      m.sliding_window = window;
      m.sliding_layers = std::ceil(m.layers / 2);
    }
    return;
  }
  if (one_of(t, {"gemma3", "gemma3_text", "cohere2"})) {
    const double pattern = f.optional({"sliding_window_pattern"}, t == "cohere2" ? 4 : 6);
    if (window > 0) {
      m.sliding_window = window;
      m.sliding_layers = m.layers - std::floor(m.layers / pattern);
    }
    return;
  }
  if (llama4_family(t)) {
    if (chunk == 0) return;  // Llama Guard 4: attention_chunk_size null
    const auto rope = f.list("no_rope_layers");
    double chunked = 0;
    if (!rope.empty()) {
      if (rope.size() != static_cast<std::size_t>(m.layers))
        bad(f.origin(), "no_rope_layers",
            "must have one entry per layer (" + format_number(m.layers, 10) + ")",
            std::to_string(rope.size()) + " entries");
      for (double r : rope) chunked += r != 0;
    } else {
      const double interval = f.optional({"no_rope_layer_interval"}, 4);
      chunked = m.layers - std::floor(m.layers / interval);
    }
    m.attention_chunk = chunk;
    m.chunked_layers = chunked;
    return;
  }
  // HF Qwen2Config defaults: use_sliding_window false, max_window_layers 28.
  const bool qwen = qwen_family(t);
  if (window > 0 && f.flag("use_sliding_window", !qwen)) {
    const double from = qwen ? f.count({"max_window_layers"}, 28) : 0;
    m.sliding_window = window;
    m.sliding_layers = std::max(0.0, m.layers - from);
    if (m.sliding_layers == 0) m.sliding_window = 0;
  }
}

// Tied LM head: the language model's own setting; in a multimodal config that nests it
// without one, the top level's (where LlavaConfig and its kin keep it); else the per-class
// default of the text model's type.
bool read_tied(const nlohmann::json& root, const nlohmann::json& j, bool nested,
               const std::string& origin, const std::string& model_type) {
  auto it = j.find("tie_word_embeddings");
  const bool own = it != j.end() && !it->is_null();
  const bool top =
      nested && root.contains("tie_word_embeddings") && !root["tie_word_embeddings"].is_null();
  const nlohmann::json* v = own ? &*it : top ? &root["tie_word_embeddings"] : nullptr;
  if (!v) return !untied_by_default(model_type);
  if (!v->is_boolean()) bad(origin, "tie_word_embeddings", "must be true or false", v->dump());
  return v->get<bool>();
}

}  // namespace

ModelConfig model_from_hf_json(const nlohmann::json& root, const std::string& origin) {
  if (!root.is_object()) bad(origin, "(document)", "a config.json must be a JSON object", "");
  // Multimodal configs (Llava, Gemma 3, Llama 4) nest the language model under text_config.
  const bool sizes = root.contains("hidden_size") || root.contains("n_embd") ||
                     root.contains("n_embed") || root.contains("d_model");
  // A text_config that is no object is named, not read past as "hidden_size: missing".
  if (!sizes && root.contains("text_config") && !root["text_config"].is_object())
    bad(origin, "text_config", "must be an object (the text model's config)",
        root["text_config"].dump().substr(0, 60));
  const bool nested = !sizes && root.contains("text_config");
  const nlohmann::json& j = nested ? root["text_config"] : root;

  ModelConfig m;
  m.origin = origin;
  m.source = origin;
  std::string given_type;  // as the file spells it, for messages
  {
    auto it = j.find("model_type");
    if (it != j.end() && !it->is_null()) {
      if (!it->is_string()) bad(origin, "model_type", "must be a string", it->dump());
      given_type = it->get<std::string>();
      m.model_type = lower(given_type);
    }
  }
  Fields f(j, origin, nested ? nested_class_defaults(m.model_type) : class_defaults(m.model_type));
  if (nested) f.nested_in_text_config(given_type);
  read_name(m, f);
  try {
    read_shape(m, f);
  } catch (const InputError& e) {
    // A family without attention heads (Mamba, RWKV) fails here: said as what it is.
    if (m.model_type.empty() || known_family(m.model_type)) throw;
    throw InputError(std::string(e.what()) + " (model_type '" + echoed(given_type) +
                     "' is not a family the reader models: it costs transformers)");
  }
  read_mla(m, f);
  read_mlp(m, f);
  const bool gpt = gpt_family(m.model_type);
  m.norm = gpt ? Norm::layer : Norm::rms;
  m.norms_per_layer = post_norm_family(m.model_type) ? 4 : 2;
  m.qk_norm = qk_norm_family(m.model_type);
  // Learned position tables (wpe): GPT-2's and GPTBigCode's (StarCoder) n_positions rows.
  if (m.model_type == "gpt2" || m.model_type == "gpt_bigcode")
    m.positions = f.optional({"n_positions"}, 0);
  else if (m.model_type == "opt")
    // OPTLearnedPositionalEmbedding (transformers models/opt/modeling_opt.py) holds
    // max_position_embeddings + 2 rows: positions are offset by 2 (fairseq's padding offset).
    // A config without the field gets OPTConfig's default, 2048 (configuration_opt.py).
    m.positions = f.optional({"max_position_embeddings"}, 2048) + 2;
  m.max_positions = f.optional(
      {"max_position_embeddings", "n_positions", "n_ctx", "max_sequence_length", "seq_length"}, 0);
  read_attention_layout(m, f);
  m.tied_embeddings = read_tied(root, j, nested, origin, m.model_type);
  // Biases: Falcon's (and RW's) single "bias" switch sets every linear layer's, the default
  // for attention_bias and mlp_bias; GPT families carry biases unless it says otherwise.
  const bool bias = f.flag("bias", gpt);
  m.attention_bias =
      f.flag("attention_bias", m.model_type == "qwen2" || m.model_type == "qwen2_moe" || bias);
  m.linear_bias = f.flag("mlp_bias", bias);
  m.defaulted = f.defaulted();
  if (!known_family(m.model_type))
    m.caveats.insert(m.caveats.begin(),
                     (m.model_type.empty()
                          ? terminal_safe(origin) + " names no model_type, so its family is unknown"
                          : "model_type '" + echoed(given_type) + "' of " + terminal_safe(origin) +
                                " is not a family the reader models") +
                         ": costed as the transformer its fields describe, every layer attention "
                         "and MLP; layers of other kinds (state-space, recurrent, hybrid "
                         "periods) are not modelled");
  // Falcon's parallel block (new_decoder_architecture false): attention and MLP both read one
  // input_layernorm's output (transformers models/falcon/modeling_falcon.py, FalconDecoderLayer).
  if (f.flag("parallel_attn", false) && !f.flag("new_decoder_architecture", false))
    m.caveats.push_back(
        "parallel_attn of " + terminal_safe(origin) +
        ": attention and MLP read one LayerNorm in parallel; costed as sequential blocks, with a "
        "second LayerNorm (" +
        format_number(2 * m.hidden * m.layers, 10) +
        " parameters) and a second residual add per layer that the model does not have");
  m.validate();
  return m;
}

ModelConfig load_hf_config(const std::string& path) {
  const std::string text = read_text_file(path);
  return model_from_hf_json(parse_json(text, path), path);
}

}  // namespace roofline::llm
