// Model shapes: validation, parameter counts, presets and the Hugging Face config.json reader.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <string>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool whole(double v) {
  return std::isfinite(v) && v == std::floor(v);
}

[[noreturn]] void bad(const std::string& origin, const std::string& field, const std::string& why,
                      const std::string& got) {
  throw InputError(origin + ": " + field + ": " + why + (got.empty() ? "" : " (got " + got + ")"));
}

// Families whose MLP is gated (gate/up/down with SiLU): Llama, Mistral, Mixtral, Qwen2, Gemma.
bool gated_family(const std::string& t) {
  static const char* names[] = {
      "llama",  "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3",       "qwen3_moe",   "gemma",
      "gemma2", "phi3",    "olmo",    "olmo2", "granite",   "deepseek_v2", "deepseek_v3", "cohere"};
  for (const char* n : names)
    if (t == n) return true;
  return false;
}
// Families whose MLP is fc1/fc2 with a LayerNorm and biases (GPT-2, GPT-J, GPT-NeoX, OPT...).
bool gpt_family(const std::string& t) {
  static const char* names[] = {"gpt2",   "gptj",        "gpt_neox", "opt",       "bloom",
                                "falcon", "gpt_bigcode", "phi",      "starcoder2"};
  for (const char* n : names)
    if (t == n) return true;
  return false;
}
// Hugging Face's PretrainedConfig ties word embeddings unless the model's config class says
// otherwise; LlamaConfig, MistralConfig, MixtralConfig, Qwen2Config default to untied.
bool untied_by_default(const std::string& t) {
  static const char* names[] = {"llama",     "mistral",     "mixtral",     "qwen2",
                                "qwen2_moe", "qwen3_moe",   "phi3",        "olmo",
                                "olmo2",     "deepseek_v2", "deepseek_v3", "gpt_neox"};
  for (const char* n : names)
    if (t == n) return true;
  return false;
}

// Families whose sliding window covers only some layers (HF Gemma2/Gemma3 alternate local and
// global layers; Cohere2 likewise).
bool per_layer_window(const std::string& t) {
  static const char* names[] = {"gemma2", "gemma3", "gemma3_text", "cohere2"};
  for (const char* n : names)
    if (t == n) return true;
  return false;
}
// HF Qwen2 windows only the layers at index ≥ max_window_layers.
bool qwen_family(const std::string& t) {
  return t.rfind("qwen", 0) == 0;
}

ModelConfig dense(const char* name, const char* source, double d, double h, double kv, double ff,
                  double layers, double vocab, double published) {
  ModelConfig m;
  m.name = name;
  m.model_type = "llama";
  m.origin = "preset";
  m.source = source;
  m.hidden = d;
  m.heads = h;
  m.kv_heads = kv;
  m.head_dim = d / h;
  m.intermediate = ff;
  m.layers = layers;
  m.vocab = vocab;
  m.published_params = published;
  return m;
}

}  // namespace

void ModelConfig::validate() const {
  const std::string where = origin.empty() ? name : origin;
  auto positive_whole = [&](const char* field, double v) {
    if (!whole(v) || v < 1)
      bad(where, field, "must be a positive whole number", format_number(v, 10));
  };
  positive_whole("hidden_size", hidden);
  positive_whole("num_attention_heads", heads);
  positive_whole("num_key_value_heads", kv_heads);
  positive_whole("head_dim", head_dim);
  positive_whole("intermediate_size", intermediate);
  positive_whole("num_hidden_layers", layers);
  positive_whole("vocab_size", vocab);
  if (kv_heads > heads)
    bad(where, "num_key_value_heads", "exceeds num_attention_heads (" + format_number(heads) + ")",
        format_number(kv_heads));
  if (std::fmod(heads, kv_heads) != 0)
    bad(where, "num_key_value_heads",
        "must divide num_attention_heads (" + format_number(heads) +
            ") for grouped-query attention",
        format_number(kv_heads));
  if (positions < 0 || !whole(positions))
    bad(where, "n_positions", "must be a whole number ≥ 0", format_number(positions));
  if (max_positions < 0 || !whole(max_positions))
    bad(where, "max_position_embeddings", "must be a whole number ≥ 0",
        format_number(max_positions));
  if (sliding_window < 0 || !whole(sliding_window))
    bad(where, "sliding_window", "must be a whole number ≥ 0", format_number(sliding_window));
  if (moe()) {
    positive_whole("num_experts_per_tok", experts_per_token);
    positive_whole("moe_intermediate_size", expert_intermediate);
    if (experts_per_token > experts)
      bad(where, "num_experts_per_tok",
          "exceeds the number of experts (" + format_number(experts) + ")",
          format_number(experts_per_token));
  }
  if (shared_intermediate < 0 || !whole(shared_intermediate))
    bad(where, "shared_expert_intermediate_size", "must be a whole number ≥ 0",
        format_number(shared_intermediate));
}

// Counted from the shapes of the weight matrices (HF module shapes: q_proj d×H·hd, k_proj and
// v_proj d×Hkv·hd, o_proj H·hd×d; gate/up d×ff, down ff×d; fc1 d×ff, fc2 ff×d; embedding V×d).
// Per device under tensor parallelism P (Megatron-LM, Shoeybi et al. 2019, as step_cost):
// query heads, MLP and expert columns, the token embedding and LM head split P ways; K/V heads
// split when there are at least P of them, else each device holds one (replicated); the
// router, norms, position table and the biases of row-parallel layers (o, down, fc2) are
// replicated.
ParameterCount count_parameters(const ModelConfig& m, int tp) {
  ParameterCount p;
  const double P = tp < 1 ? 1 : tp;
  const double d = m.hidden, hd = m.head_dim, q = m.heads / P * hd;
  const double kv = (m.kv_heads >= P ? m.kv_heads / P : 1) * hd;
  const double attn_matmul = d * q + 2 * d * kv + q * d;
  const double attn_bias = (m.attention_bias ? q + 2 * kv : 0) + (m.linear_bias ? d : 0);
  auto mlp_matmul = [&](double ff) { return (m.mlp == Mlp::gated ? 3 : 2) * d * ff / P; };
  auto mlp_bias = [&](double ff) {
    return m.linear_bias ? (m.mlp == Mlp::gated ? 2 * ff : ff) / P + d : 0;
  };
  double layer_mlp_matmul = 0, layer_mlp_bias = 0, layer_active_mlp = 0;
  if (m.moe()) {
    layer_mlp_matmul = m.experts * mlp_matmul(m.expert_intermediate) + d * m.experts;  // + router
    layer_mlp_bias = m.experts * mlp_bias(m.expert_intermediate);
    layer_active_mlp = m.experts_per_token * mlp_matmul(m.expert_intermediate) + d * m.experts;
    if (m.shared_intermediate > 0) {
      layer_mlp_matmul += mlp_matmul(m.shared_intermediate);
      layer_mlp_bias += mlp_bias(m.shared_intermediate);
      layer_active_mlp += mlp_matmul(m.shared_intermediate);
    }
  } else {
    layer_mlp_matmul = mlp_matmul(m.intermediate);
    layer_mlp_bias = mlp_bias(m.intermediate);
    layer_active_mlp = layer_mlp_matmul;
  }
  const double norm = (m.norm == Norm::layer ? 2 : 1) * d;
  p.attention = m.layers * (attn_matmul + attn_bias);
  p.mlp = m.layers * (layer_mlp_matmul + layer_mlp_bias);
  p.norms = (2 * m.layers + 1) * norm;
  p.embedding = m.vocab / P * d + m.positions * d;
  p.lm_head = m.tied_embeddings ? 0 : m.vocab / P * d;
  p.total = p.attention + p.mlp + p.norms + p.embedding + p.lm_head;
  p.matmul = m.layers * (attn_matmul + layer_mlp_matmul) + m.vocab / P * d;
  p.active = p.total - m.layers * (layer_mlp_matmul - layer_active_mlp);
  return p;
}

// DIGEST §5 refinement: each token keeps K and V of every layer: 2 · layers · Hkv · hd · s.
Bytes kv_bytes_per_token(const ModelConfig& m, const DataType& kv) {
  return Bytes(2 * m.layers * m.kv_heads * m.head_dim * kv.bytes);
}

const std::vector<ModelConfig>& presets() {
  // Values from each model's Hugging Face config.json (hidden_size, num_attention_heads,
  // num_key_value_heads, intermediate_size, num_hidden_layers, vocab_size); published parameter
  // counts from the model cards / safetensors metadata.
  static const std::vector<ModelConfig> all = [] {
    std::vector<ModelConfig> v;
    // max_position_embeddings: Llama-2 4096, Llama-3 8192, Mistral/Mixtral 32768, Qwen2.5
    // 131072; Mistral-7B-v0.1 attends over a sliding window of 4096 (its "sliding_window").
    auto with_positions = [](ModelConfig m, double positions) {
      m.max_positions = positions;
      return m;
    };
    v.push_back(with_positions(dense("llama-2-7b", "meta-llama/Llama-2-7b-hf config.json", 4096, 32,
                                     32, 11008, 32, 32000, 6.74e9),
                               4096));
    v.push_back(with_positions(dense("llama-2-13b", "meta-llama/Llama-2-13b-hf config.json", 5120,
                                     40, 40, 13824, 40, 32000, 13.0e9),
                               4096));
    v.push_back(with_positions(dense("llama-2-70b", "meta-llama/Llama-2-70b-hf config.json", 8192,
                                     64, 8, 28672, 80, 32000, 69.0e9),
                               4096));
    v.push_back(with_positions(dense("llama-3-8b", "meta-llama/Meta-Llama-3-8B config.json", 4096,
                                     32, 8, 14336, 32, 128256, 8.03e9),
                               8192));
    v.push_back(with_positions(dense("llama-3-70b", "meta-llama/Meta-Llama-3-70B config.json", 8192,
                                     64, 8, 28672, 80, 128256, 70.6e9),
                               8192));
    auto mistral = dense("mistral-7b", "mistralai/Mistral-7B-v0.1 config.json", 4096, 32, 8, 14336,
                         32, 32000, 7.24e9);
    mistral.model_type = "mistral";
    mistral.max_positions = 32768;
    mistral.sliding_window = 4096;
    v.push_back(mistral);
    auto mixtral = dense("mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1 config.json", 4096, 32, 8,
                         14336, 32, 32000, 46.7e9);
    mixtral.model_type = "mixtral";
    mixtral.experts = 8;
    mixtral.experts_per_token = 2;
    mixtral.expert_intermediate = 14336;
    mixtral.max_positions = 32768;  // "sliding_window": null
    v.push_back(mixtral);
    // Qwen2 has biases on q, k, v (Qwen2Attention: q_proj/k_proj/v_proj bias=True).
    auto qwen7 =
        dense("qwen2.5-7b", "Qwen/Qwen2.5-7B config.json", 3584, 28, 4, 18944, 28, 152064, 7.61e9);
    qwen7.model_type = "qwen2";
    qwen7.attention_bias = true;
    qwen7.max_positions = 131072;  // "use_sliding_window": false
    v.push_back(qwen7);
    auto qwen72 = dense("qwen2.5-72b", "Qwen/Qwen2.5-72B config.json", 8192, 64, 8, 29568, 80,
                        152064, 72.7e9);
    qwen72.model_type = "qwen2";
    qwen72.attention_bias = true;
    qwen72.max_positions = 131072;
    v.push_back(qwen72);
    // GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, d = 12288, 96 heads of 128, FFN 4d,
    // context 2048 (learned positions); GPT-2 BPE vocabulary of 50257, tied embeddings,
    // LayerNorm, GELU, biases on every linear layer.
    auto gpt3 = dense("gpt3-175b",
                      "Brown et al. 2020, Language Models are Few-Shot Learners, "
                      "Table 2.1 (GPT-2 tokenizer: vocab 50257)",
                      12288, 96, 96, 4 * 12288, 96, 50257, 175e9);
    gpt3.model_type = "gpt2";
    gpt3.positions = 2048;
    gpt3.max_positions = 2048;
    gpt3.tied_embeddings = true;
    gpt3.mlp = Mlp::plain;
    gpt3.activation = "gelu";
    gpt3.norm = Norm::layer;
    gpt3.attention_bias = true;
    gpt3.linear_bias = true;
    v.push_back(gpt3);
    return v;
  }();
  return all;
}

ModelConfig model_from_hf_json(const nlohmann::json& root, const std::string& origin) {
  if (!root.is_object()) bad(origin, "(document)", "a config.json must be a JSON object", "");
  // Multimodal configs nest the language model under text_config.
  const bool nested = !root.contains("hidden_size") && !root.contains("n_embd") &&
                      !root.contains("n_embed") && !root.contains("d_model") &&
                      root.contains("text_config") && root["text_config"].is_object();
  const nlohmann::json& j = nested ? root["text_config"] : root;
  auto find = [&](std::initializer_list<const char*> keys)
      -> std::pair<const char*, const nlohmann::json*> {
    for (const char* k : keys) {
      auto it = j.find(k);
      if (it != j.end() && !it->is_null()) return {k, &*it};
    }
    return {nullptr, nullptr};
  };
  auto number = [&](const char* key, const nlohmann::json& v) {
    if (!v.is_number() || v.is_boolean()) bad(origin, key, "must be a number", v.dump());
    const double x = v.get<double>();
    if (!whole(x) || x < 1) bad(origin, key, "must be a positive whole number", v.dump());
    return x;
  };
  auto required = [&](std::initializer_list<const char*> keys) {
    auto [k, v] = find(keys);
    if (!v) bad(origin, *keys.begin(), "missing (a required field of config.json)", "");
    return number(k, *v);
  };
  auto optional = [&](std::initializer_list<const char*> keys, double fallback) {
    auto [k, v] = find(keys);
    return v ? number(k, *v) : fallback;
  };
  // A count that may be 0 (0 experts = dense, a 0 window = none).
  auto optional_count = [&](std::initializer_list<const char*> keys, double fallback) {
    auto [k, v] = find(keys);
    if (!v) return fallback;
    if (!v->is_number() || v->is_boolean()) bad(origin, k, "must be a number", v->dump());
    const double x = v->get<double>();
    if (!whole(x) || x < 0) bad(origin, k, "must be a whole number ≥ 0", v->dump());
    return x;
  };
  auto flag = [&](const char* key, bool fallback) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) bad(origin, key, "must be true or false", it->dump());
    return it->get<bool>();
  };
  auto text = [&](const char* key, const std::string& fallback) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_string()) bad(origin, key, "must be a string", it->dump());
    return it->get<std::string>();
  };

  ModelConfig m;
  m.origin = origin;
  m.source = origin;
  m.model_type = lower(text("model_type", ""));
  // Name: _name_or_path when present; else the folder of a "config.json", else the file stem.
  const std::filesystem::path file(origin);
  m.name = text("_name_or_path", "");
  if (m.name.empty())
    m.name = file.filename() == "config.json" ? file.parent_path().filename().string()
                                              : file.stem().string();
  if (m.name.empty() || m.name == ".") m.name = m.model_type.empty() ? "model" : m.model_type;
  if (j.contains("kv_lora_rank") && !j["kv_lora_rank"].is_null())
    bad(origin, "kv_lora_rank",
        "multi-head latent attention (DeepSeek MLA) is not modelled; only MHA/GQA/MQA", "");

  m.hidden = required({"hidden_size", "n_embd", "n_embed", "d_model"});  // n_embed: Bloom
  m.heads = required({"num_attention_heads", "n_head", "num_heads"});
  m.layers = required({"num_hidden_layers", "n_layer", "num_layers"});
  m.vocab = required({"vocab_size"});
  if (find({"head_dim"}).second) {
    m.head_dim = number("head_dim", *find({"head_dim"}).second);
  } else {
    if (std::fmod(m.hidden, m.heads) != 0)
      bad(origin, "num_attention_heads",
          "must divide hidden_size (" + format_number(m.hidden, 10) +
              ") when head_dim is not given",
          format_number(m.heads, 10));
    m.head_dim = m.hidden / m.heads;
  }
  // MQA flag of GPT-BigCode/Falcon: one K/V head.
  const bool multi_query = flag("multi_query", false);
  m.kv_heads =
      optional({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, multi_query ? 1 : m.heads);

  // An explicit 0 (or 1) expert means a dense MLP, as an absent field does.
  m.experts = optional_count({"num_local_experts", "num_experts", "n_routed_experts"}, 0);
  if (m.experts <= 1) m.experts = 0;
  const bool gpt = gpt_family(m.model_type);
  // Plain MLPs default to 4d (GPT-2's n_inner: null means 4·n_embd).
  if (m.moe()) {
    m.experts_per_token = required({"num_experts_per_tok", "moe_top_k", "top_k"});
    m.expert_intermediate = optional_count({"moe_intermediate_size"}, 0);
    if (m.expert_intermediate == 0) m.expert_intermediate = required({"intermediate_size"});
    m.intermediate = optional({"intermediate_size"}, m.expert_intermediate);
    // 0 shared experts (or width 0) = none.
    m.shared_intermediate = optional_count({"shared_expert_intermediate_size"}, 0);
    const double shared = optional_count({"n_shared_experts"}, 0);
    if (m.shared_intermediate == 0 && shared > 0)
      m.shared_intermediate = shared * m.expert_intermediate;
  } else if (gpt) {
    m.intermediate = optional({"intermediate_size", "n_inner", "ffn_dim"}, 4 * m.hidden);
  } else {
    m.intermediate = required({"intermediate_size", "n_inner", "ffn_dim"});
  }

  m.activation = lower(text("hidden_act", text("activation_function", gpt ? "gelu" : "silu")));
  if (gated_family(m.model_type))
    m.mlp = Mlp::gated;
  else if (gpt)
    m.mlp = Mlp::plain;
  else
    m.mlp = (m.activation == "silu" || m.activation == "swish" || m.activation == "swiglu")
                ? Mlp::gated
                : Mlp::plain;
  m.norm = gpt ? Norm::layer : Norm::rms;
  if (m.model_type == "gpt2")
    m.positions = optional({"n_positions"}, 0);
  else if (m.model_type == "opt")
    m.positions = optional({"max_position_embeddings"}, 0);
  m.max_positions = optional(
      {"max_position_embeddings", "n_positions", "n_ctx", "max_sequence_length", "seq_length"}, 0);
  // Sliding-window attention when it applies to every layer (Mistral, Mixtral, Phi-3,
  // Starcoder2): off when use_sliding_window is false (Qwen2.5 ships a window it does not use);
  // families that window only some layers (Gemma-2/3 alternate, Qwen2's max_window_layers,
  // Cohere2) are costed with full attention, an upper bound (docs/llm.md). HF Qwen2Config
  // defaults: use_sliding_window false, max_window_layers 28.
  const bool qwen = qwen_family(m.model_type);
  if (flag("use_sliding_window", !qwen) && !per_layer_window(m.model_type) &&
      !(qwen && optional_count({"max_window_layers"}, 28) > 0))
    m.sliding_window = optional_count({"sliding_window"}, 0);
  // Tied LM head: the language model's own setting; in a multimodal config that nests it
  // without one, the top level's (where LlavaConfig and its kin keep it); else the per-class
  // default of the text model's type.
  {
    auto it = j.find("tie_word_embeddings");
    const bool own = it != j.end() && !it->is_null();
    const bool top =
        nested && root.contains("tie_word_embeddings") && !root["tie_word_embeddings"].is_null();
    if (!own && top) {
      if (!root["tie_word_embeddings"].is_boolean())
        bad(origin, "tie_word_embeddings", "must be true or false",
            root["tie_word_embeddings"].dump());
      m.tied_embeddings = root["tie_word_embeddings"].get<bool>();
    } else {
      m.tied_embeddings = flag("tie_word_embeddings", !untied_by_default(m.model_type));
    }
  }
  // Biases: Falcon's (and RW's) single "bias" switch sets every linear layer's, the default
  // for attention_bias and mlp_bias; GPT families carry biases unless it says otherwise.
  const bool bias = flag("bias", gpt);
  m.attention_bias =
      flag("attention_bias", m.model_type == "qwen2" || m.model_type == "qwen2_moe" || bias);
  m.linear_bias = flag("mlp_bias", bias);
  m.validate();
  return m;
}

ModelConfig load_hf_config(const std::string& path) {
  const std::string text = read_text_file(path);
  return model_from_hf_json(parse_json(text, path), path);
}

ModelConfig resolve_model(const std::string& spec) {
  if (spec.empty()) throw InputError("--model: no model given (a preset name or a config.json)");
  const std::string key = lower(spec);
  for (const auto& m : presets())
    if (m.name == key) return m;
  std::error_code ec;
  if (spec.find('/') != std::string::npos || std::filesystem::exists(spec, ec) ||
      (key.size() > 5 && key.substr(key.size() - 5) == ".json"))
    return load_hf_config(spec);
  std::string names;
  for (const auto& m : presets()) names += (names.empty() ? "" : ", ") + m.name;
  throw InputError("--model: unknown model '" + spec + "' (presets: " + names +
                   "; or a path to a Hugging Face config.json)");
}

Dtypes make_dtypes(const std::string& w, const std::string& a, const std::string& kv,
                   const std::string& c) {
  Dtypes d;
  d.weights = parse_dtype(w.empty() ? "fp16" : w);
  // Weight-only quantisation (int8/int4 weights) keeps activations in fp16.
  d.activations = !a.empty()                                   ? parse_dtype(a)
                  : (d.weights.integer || d.weights.bytes < 2) ? parse_dtype("fp16")
                                                               : d.weights;
  d.kv_cache = kv.empty() ? d.activations : parse_dtype(kv);
  d.compute = c.empty() ? d.activations : parse_dtype(c);
  return d;
}

std::string to_string(Phase p) {
  return p == Phase::prefill ? "prefill" : "decode";
}

Phase parse_phase(const std::string& s) {
  const std::string k = lower(s);
  if (k == "prefill") return Phase::prefill;
  if (k == "decode") return Phase::decode;
  throw InputError("--phase: must be prefill or decode (got '" + s + "')");
}

std::vector<double> parse_int_list(const std::string& spec, const std::string& flag) {
  auto one = [&](const std::string& t) {
    const char* b = t.c_str();
    char* e = nullptr;
    const double v = std::strtod(b, &e);
    if (e == b || *e != '\0' || !whole(v) || v < 1 || v > 1e9)
      throw InputError(flag + ": '" + t + "' is not a whole number ≥ 1 (in '" + spec + "')");
    return v;
  };
  std::vector<double> out;
  if (spec.empty()) throw InputError(flag + ": empty value");
  const auto dots = spec.find("..");
  if (dots != std::string::npos) {
    const double lo = one(spec.substr(0, dots)), hi = one(spec.substr(dots + 2));
    if (hi < lo) throw InputError(flag + ": range '" + spec + "' goes down");
    for (double v = lo; v <= hi; v *= 2) out.push_back(v);
    if (out.back() != hi) out.push_back(hi);
    return out;
  }
  size_t start = 0;
  while (true) {
    const auto comma = spec.find(',', start);
    out.push_back(one(spec.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

nlohmann::json model_to_json(const ModelConfig& m) {
  const ParameterCount p = count_parameters(m);
  nlohmann::json j = {{"name", m.name},
                      {"model_type", m.model_type},
                      {"source", m.source},
                      {"hidden_size", m.hidden},
                      {"num_attention_heads", m.heads},
                      {"num_key_value_heads", m.kv_heads},
                      {"head_dim", m.head_dim},
                      {"intermediate_size", m.intermediate},
                      {"num_hidden_layers", m.layers},
                      {"vocab_size", m.vocab},
                      {"tie_word_embeddings", m.tied_embeddings},
                      {"mlp", m.mlp == Mlp::gated ? "gated" : "plain"},
                      {"activation", m.activation},
                      {"norm", m.norm == Norm::rms ? "rmsnorm" : "layernorm"},
                      {"parameters",
                       {{"total", p.total},
                        {"active", p.active},
                        {"matmul", p.matmul},
                        {"attention", p.attention},
                        {"mlp", p.mlp},
                        {"norms", p.norms},
                        {"embedding", p.embedding},
                        {"lm_head", p.lm_head}}}};
  if (m.moe()) {
    j["experts"] = m.experts;
    j["experts_per_token"] = m.experts_per_token;
    j["expert_intermediate_size"] = m.expert_intermediate;
    if (m.shared_intermediate > 0) j["shared_expert_intermediate_size"] = m.shared_intermediate;
  }
  if (m.max_positions > 0) j["max_position_embeddings"] = m.max_positions;
  if (m.sliding_window > 0) j["sliding_window"] = m.sliding_window;
  if (m.published_params > 0) j["published_parameters"] = m.published_params;
  return j;
}

}  // namespace roofline::llm
