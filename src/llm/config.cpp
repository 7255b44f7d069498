// Model shapes: validation, parameter counts, presets and the Hugging Face config.json reader.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
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
  require_one_line(name, origin.empty() ? std::string("model name") : origin + ": model name");
  const std::string where = origin.empty() ? name : origin;
  auto positive_whole = [&](const char* field, double v) {
    if (!whole(v) || v < 1)
      bad(where, field, "must be a positive whole number", format_number(v, 10));
    if (v > kLargestModelCount) bad(where, field, "must be at most 1e9", format_number(v, 10));
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
  // Layer groups: how many layers use a window, a chunk, a dense MLP.
  auto layer_count = [&](const char* field, double v) {
    if (!whole(v) || v < 0 || v > layers)
      bad(where, field, "must be a whole number of layers from 0 to " + format_number(layers, 10),
          format_number(v, 10));
  };
  layer_count("sliding window layers", sliding_layers);
  layer_count("chunked attention layers", chunked_layers);
  layer_count("dense MLP layers (first_k_dense_replace)", dense_layers);
  if (sliding_layers + chunked_layers > layers)
    bad(where, "layer_types",
        "more windowed and chunked layers than layers (" + format_number(layers, 10) + ")",
        format_number(sliding_layers + chunked_layers, 10));
  if (sliding_layers > 0 && sliding_window < 1)
    bad(where, "sliding_window", "windowed layers need a window ≥ 1",
        format_number(sliding_window));
  if (attention_chunk < 0 || !whole(attention_chunk))
    bad(where, "attention_chunk_size", "must be a whole number ≥ 0",
        format_number(attention_chunk));
  if (chunked_layers > 0 && attention_chunk < 1)
    bad(where, "attention_chunk_size", "chunked layers need a chunk ≥ 1",
        format_number(attention_chunk));
  if (norms_per_layer != 2 && norms_per_layer != 4)
    bad(where, "norms per layer", "must be 2 or 4", format_number(norms_per_layer));
  if (mtp_layers < 0 || !whole(mtp_layers))
    bad(where, "num_nextn_predict_layers", "must be a whole number ≥ 0", format_number(mtp_layers));
  if (is_mla()) {
    positive_whole("kv_lora_rank", mla.kv_lora_rank);
    positive_whole("qk_nope_head_dim", mla.qk_nope_head_dim);
    positive_whole("qk_rope_head_dim", mla.qk_rope_head_dim);
    positive_whole("v_head_dim", mla.v_head_dim);
    if (mla.q_lora_rank < 0 || !whole(mla.q_lora_rank))
      bad(where, "q_lora_rank", "must be a whole number ≥ 0 (or null)",
          format_number(mla.q_lora_rank));
    if (sliding_layers > 0 || chunked_layers > 0)
      bad(where, "kv_lora_rank",
          "multi-head latent attention with sliding-window or chunked layers is not modelled", "");
  }
}

// Counted from the shapes of the weight matrices (HF module shapes: q_proj d×H·hd, k_proj and
// v_proj d×Hkv·hd, o_proj H·hd×d; gate/up d×ff, down ff×d; fc1 d×ff, fc2 ff×d; embedding V×d;
// MLA: q_a_proj d×q_lora, q_b_proj q_lora×H·(nope+rope), kv_a_proj_with_mqa d×(kv_lora+rope),
// kv_b_proj kv_lora×H·(nope+v), o_proj H·v×d, with q_a_layernorm and kv_a_layernorm).
// Per device under tensor parallelism P (Megatron-LM, Shoeybi et al. 2019, as step_cost):
// query heads, MLP and expert columns, the token embedding and LM head split P ways; K/V heads
// split when there are at least P of them, else each device holds one (replicated); the
// router, norms, position table, MLA's down-projections and the biases of row-parallel layers
// (o, down, fc2) are replicated.
namespace {

struct LayerParams {
  double matmul = 0;  // matrices
  double other = 0;   // biases, per-layer norms inside attention (q/k norm, MLA norms)
};

LayerParams attention_params(const ModelConfig& m, double P) {
  LayerParams a;
  const double d = m.hidden, Hq = m.heads / P;
  if (m.is_mla()) {
    const auto& x = m.mla;
    const double qk = x.qk_nope_head_dim + x.qk_rope_head_dim;
    if (x.q_lora_rank > 0) {
      a.matmul += d * x.q_lora_rank + x.q_lora_rank * Hq * qk;
      a.other += x.q_lora_rank;  // q_a_layernorm
    } else {
      a.matmul += d * Hq * qk;
    }
    a.matmul += d * (x.kv_lora_rank + x.qk_rope_head_dim);
    a.matmul += x.kv_lora_rank * Hq * (x.qk_nope_head_dim + x.v_head_dim);
    a.matmul += Hq * x.v_head_dim * d;
    a.other += x.kv_lora_rank;  // kv_a_layernorm
    if (m.attention_bias)       // HF DeepseekV2Attention: q_a/q, kv_a and o carry the bias
      a.other +=
          (x.q_lora_rank > 0 ? x.q_lora_rank : Hq * qk) + x.kv_lora_rank + x.qk_rope_head_dim + d;
    return a;
  }
  const double hd = m.head_dim, q = Hq * hd;
  const double kv = (m.kv_heads >= P ? m.kv_heads / P : 1) * hd;
  a.matmul = d * q + 2 * d * kv + q * d;
  a.other = (m.attention_bias ? q + 2 * kv : 0) + (m.linear_bias ? d : 0);
  if (m.qk_norm) a.other += 2 * hd;  // q_norm and k_norm: one γ of head_dim each
  return a;
}

LayerParams mlp_params(const ModelConfig& m, double ff, double P) {
  LayerParams p;
  p.matmul = (m.mlp == Mlp::gated ? 3 : 2) * m.hidden * ff / P;
  p.other = m.linear_bias ? (m.mlp == Mlp::gated ? 2 * ff : ff) / P + m.hidden : 0;
  return p;
}

// One MoE layer's MLP: E experts + router (+ score bias) + shared expert; `used` experts
// (E for the whole layer, k for what one token touches).
LayerParams moe_params(const ModelConfig& m, double used, double P) {
  const LayerParams e = mlp_params(m, m.expert_intermediate, P);
  LayerParams p;
  p.matmul = used * e.matmul + m.hidden * m.experts;
  p.other = used * e.other + (m.router_bias ? m.experts : 0);
  if (m.shared_intermediate > 0) {
    const LayerParams sh = mlp_params(m, m.shared_intermediate, P);
    p.matmul += sh.matmul;
    p.other += sh.other;
  }
  return p;
}

}  // namespace

void check_tensor_parallel(const ModelConfig& m, int tp) {
  if (tp < 1) throw InputError("--tp: must be ≥ 1 (got " + std::to_string(tp) + ")");
  const double t = tp;
  if (std::fmod(m.heads, t) != 0)
    throw InputError("--tp " + std::to_string(tp) + ": must divide num_attention_heads (" +
                     format_number(m.heads) + ") of " + m.name);
  if (m.kv_heads >= t ? std::fmod(m.kv_heads, t) != 0 : std::fmod(t, m.kv_heads) != 0)
    throw InputError("--tp " + std::to_string(tp) +
                     ": must divide, or be a multiple of, "
                     "num_key_value_heads (" +
                     format_number(m.kv_heads) + ") of " + m.name);
}

ParameterCount count_parameters(const ModelConfig& m, int tp) {
  check_tensor_parallel(m, tp);
  ParameterCount p;
  const double P = tp;
  const double d = m.hidden;
  const LayerParams attn = attention_params(m, P);
  const LayerParams dense = mlp_params(m, m.intermediate, P);
  const double dense_layers = m.moe() ? m.dense_layers : m.layers, moe_layers = m.moe_layers();
  const LayerParams moe_all = m.moe() ? moe_params(m, m.experts, P) : LayerParams{};
  const LayerParams moe_used = m.moe() ? moe_params(m, m.experts_per_token, P) : LayerParams{};
  const double norm = (m.norm == Norm::layer ? 2 : 1) * d;
  p.attention = m.layers * (attn.matmul + attn.other);
  p.mlp =
      dense_layers * (dense.matmul + dense.other) + moe_layers * (moe_all.matmul + moe_all.other);
  p.norms = (m.norms_per_layer * m.layers + 1) * norm;
  p.embedding = m.vocab / P * d + m.positions * d;
  p.lm_head = m.tied_embeddings ? 0 : m.vocab / P * d;
  p.total = p.attention + p.mlp + p.norms + p.embedding + p.lm_head;
  p.matmul = m.layers * attn.matmul + dense_layers * dense.matmul + moe_layers * moe_all.matmul +
             m.vocab / P * d;
  p.active = p.total -
             moe_layers * ((moe_all.matmul + moe_all.other) - (moe_used.matmul + moe_used.other));
  // DeepSeek-V3 README_WEIGHTS: each MTP module is one more layer (of the MoE kind: its index
  // is past first_k_dense_replace), enorm and hnorm, eh_proj (2d → d) and the shared head's
  // norm; embedding and output head are shared with the main model.
  if (m.mtp_layers > 0) {
    const LayerParams& mlp = m.moe() ? moe_all : dense;
    const double layer =
        attn.matmul + attn.other + mlp.matmul + mlp.other + m.norms_per_layer * norm;
    p.mtp = m.mtp_layers * (layer + 2 * norm + 2 * d * d + norm);
  }
  return p;
}

// Each token keeps K and V of every layer: 2 · layers · Hkv · hd · s.
// MLA (DeepSeek-V2 §2.1.2, Table 1): the latent c_KV and the shared RoPE key, (d_c + d_h^R)
// elements per layer.
Bytes kv_bytes_per_token(const ModelConfig& m, const DataType& kv) {
  if (m.is_mla()) return Bytes(m.layers * (m.mla.kv_lora_rank + m.mla.qk_rope_head_dim) * kv.bytes);
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
    mistral.sliding_layers = 32;
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

    // DeepSeek-V3 (DeepSeek-AI, arXiv 2412.19437, §4.2 "Model Hyper-Parameters", and its
    // config.json): 61 layers, d = 7168, 128 heads, MLA with d_c = 512, d_c' = 1536, per-head
    // 128 + 64 (RoPE) for queries and keys and 128 for values; the first 3 layers dense (FFN
    // 18432), the rest MoE with 1 shared and 256 routed experts of 2048, 8 routed per token;
    // vocabulary 129280, one MTP module; 671B parameters, 37B activated per token.
    auto deepseek = [](const char* name, const char* source) {
      ModelConfig m;
      m.name = name;
      m.model_type = "deepseek_v3";
      m.origin = "preset";
      m.source = source;
      m.hidden = 7168;
      m.heads = 128;
      m.kv_heads = 128;
      m.mla = {1536, 512, 128, 64, 128};
      m.head_dim = 128 + 64;
      m.intermediate = 18432;
      m.layers = 61;
      m.vocab = 129280;
      m.max_positions = 163840;
      m.experts = 256;
      m.experts_per_token = 8;
      m.expert_intermediate = 2048;
      m.shared_intermediate = 2048;
      m.dense_layers = 3;
      m.router_bias = true;
      m.mtp_layers = 1;
      m.published_params = 671e9;
      m.published_active = 37e9;
      return m;
    };
    v.push_back(deepseek("deepseek-v3",
                         "deepseek-ai/DeepSeek-V3 config.json; DeepSeek-V3 Technical Report "
                         "(arXiv 2412.19437) §4.2"));
    // DeepSeek-R1 is DeepSeek-V3's architecture, trained further (arXiv 2501.12948): the same
    // config.json shapes.
    v.push_back(
        deepseek("deepseek-r1", "deepseek-ai/DeepSeek-R1 config.json (DeepSeek-V3 shapes)"));
    // DeepSeek-V2 (arXiv 2405.04434, §3.1.2 and its config.json): 60 layers, d = 5120, 128
    // heads, MLA d_c = 512, d_c' = 1536; first layer dense (12288), then 2 shared + 160 routed
    // experts of 1536, 6 per token; vocabulary 102400; 236B parameters, 21B activated.
    {
      ModelConfig m = deepseek("deepseek-v2",
                               "deepseek-ai/DeepSeek-V2 config.json; DeepSeek-V2 (arXiv "
                               "2405.04434) §3.1.2");
      m.model_type = "deepseek_v2";
      m.hidden = 5120;
      m.intermediate = 12288;
      m.layers = 60;
      m.vocab = 102400;
      m.max_positions = 163840;
      m.experts = 160;
      m.experts_per_token = 6;
      m.expert_intermediate = 1536;
      m.shared_intermediate = 2 * 1536;
      m.dense_layers = 1;
      m.router_bias = false;
      m.mtp_layers = 0;
      m.published_params = 236e9;
      m.published_active = 21e9;
      v.push_back(m);
    }
    // Gemma 2 9B (google/gemma-2-9b config.json; Gemma Team, arXiv 2408.00118, Table 1):
    // local (window 4096) and global layers alternate; norms before and after attention and
    // MLP; GeGLU; tied embeddings.
    {
      ModelConfig m = dense("gemma-2-9b", "google/gemma-2-9b config.json", 3584, 16, 8, 14336, 42,
                            256000, 9.24e9);
      m.model_type = "gemma2";
      m.head_dim = 256;
      m.activation = "gelu_pytorch_tanh";
      m.tied_embeddings = true;
      m.norms_per_layer = 4;
      m.max_positions = 8192;
      m.sliding_window = 4096;
      m.sliding_layers = 21;
      v.push_back(m);
    }
    // Gemma 3 27B (google/gemma-3-27b-it config.json's text_config, the rest from
    // transformers' Gemma3TextConfig defaults; Gemma Team, arXiv 2503.19786): five local layers
    // (window 1024) per global one, q/k norms, 4 norms per layer; text model only (the
    // vision encoder's 0.4B are not counted).
    {
      ModelConfig m = dense("gemma-3-27b", "google/gemma-3-27b-it config.json (text_config)", 5376,
                            32, 16, 21504, 62, 262208, 27e9);
      m.model_type = "gemma3_text";
      m.head_dim = 128;
      m.activation = "gelu_pytorch_tanh";
      m.tied_embeddings = true;
      m.norms_per_layer = 4;
      m.qk_norm = true;
      m.max_positions = 131072;
      m.sliding_window = 1024;
      m.sliding_layers = 52;
      v.push_back(m);
    }
    // Llama 4 Scout (meta-llama/Llama-4-Scout-17B-16E config.json's text_config): 48 MoE layers
    // of 16 experts (8192) + a shared expert, one routed per token; chunked attention (8192) in
    // the three RoPE layers of every four, the fourth (NoPE) global. Meta states 109B total
    // including the vision encoder, 17B active: the text model alone is compared with the
    // active figure only.
    {
      ModelConfig m =
          dense("llama-4-scout", "meta-llama/Llama-4-Scout-17B-16E config.json (text_config)", 5120,
                40, 8, 16384, 48, 202048, 0);
      m.model_type = "llama4_text";
      m.head_dim = 128;
      m.experts = 16;
      m.experts_per_token = 1;
      m.expert_intermediate = 8192;
      m.shared_intermediate = 8192;
      m.dense_layers = 0;
      m.max_positions = 262144;
      m.attention_chunk = 8192;
      m.chunked_layers = 36;
      m.published_active = 17e9;
      v.push_back(m);
    }
    return v;
  }();
  return all;
}

namespace {
/// OWNER/NAME as the Hugging Face Hub names a repository: two parts of letters, digits, '-',
/// '_' and '.', neither starting with '.' (so ./x and ../x are paths), no other '/'.
bool hub_repo_id(const std::string& spec) {
  const auto slash = spec.find('/');
  if (slash == std::string::npos || spec.find('/', slash + 1) != std::string::npos) return false;
  const auto part = [](const std::string& p) {
    if (p.empty() || p.size() > 96 || p.front() == '.') return false;
    return std::all_of(p.begin(), p.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '-' || c == '_' || c == '.';
    });
  };
  return part(spec.substr(0, slash)) && part(spec.substr(slash + 1));
}
}  // namespace

ModelConfig resolve_model(const std::string& spec, const std::string& flag) {
  if (spec.empty()) throw InputError(flag + ": no model given (a preset name or a config.json)");
  const std::string key = lower(spec);
  std::error_code ec;
  for (const auto& m : presets()) {
    if (m.name != key) continue;
    // A bare name that is a file here, or a folder here holding a config.json, and also a
    // preset: which was meant cannot be told, and the preset silently stood in for the model
    // here (as --hw refuses a machine). A folder without a config.json is no model: the preset.
    const bool folder = std::filesystem::is_directory(spec, ec);
    if (folder ? std::filesystem::exists(std::filesystem::path(spec) / "config.json", ec)
               : std::filesystem::exists(spec, ec)) {
      throw InputError(flag + ": '" + terminal_safe(spec) + "' is both a " +
                       (folder ? "folder" : "file") + " here and the preset " + m.name +
                       ": write ./" + terminal_safe(spec) + " for the " +
                       (folder ? "folder" : "file") + ", or run elsewhere for the preset");
    }
    return m;
  }
  // A model's folder (a Hugging Face snapshot, a checkpoint) is read by its config.json.
  if (std::filesystem::is_directory(spec, ec)) {
    const std::filesystem::path config = std::filesystem::path(spec) / "config.json";
    if (!std::filesystem::exists(config, ec))
      throw InputError(flag + ": " + terminal_safe(spec) +
                       " is a folder without a config.json (give the model's config.json, or "
                       "the folder that holds it)");
    return load_hf_config(config.string());
  }
  const bool json_name = key.size() > 5 && key.substr(key.size() - 5) == ".json";
  const bool exists = std::filesystem::exists(spec, ec);
  if (!exists && !json_name && hub_repo_id(spec))
    throw InputError(flag + ": no file or folder " + spec +
                     "; it reads as a Hugging Face repo id (OWNER/NAME): roofline reads a "
                     "downloaded config.json and downloads nothing; fetch it with "
                     "`huggingface-cli download " +
                     spec + " config.json --local-dir DIR`, then give DIR or DIR/config.json");
  if (spec.find('/') != std::string::npos || exists || json_name) return load_hf_config(spec);
  const std::string names = join(presets(), [](const ModelConfig& m) { return m.name; });
  throw InputError(flag + ": unknown model '" + spec + "' (presets: " + names +
                   "; or a path to a Hugging Face config.json)");
}

namespace {
/// The sizes a custom element type may have: from one bit (1/8 byte; binary and ternary
/// weights pack below int4's half byte) to 64 bytes (a 512-bit element, beyond the widest
/// scalar, complex128's 16 bytes). Outside it the value is a typo, not a format, and
/// 1e300 bytes would overflow every traffic to inf while 1e-300 would make traffic vanish.
constexpr double kLeastCustomBytes = 0.125, kMostCustomBytes = 64;

/// A dtype flag's value, refused naming the flag.
DataType flag_dtype(const char* flag, const std::string& text) {
  DataType t;
  try {
    t = parse_dtype(text);
  } catch (const InputError& e) {
    throw InputError(std::string(flag) + ": " + e.what());
  }
  if (t.bytes < kLeastCustomBytes || t.bytes > kMostCustomBytes)
    throw InputError(std::string(flag) + " " + text + ": a custom type's BYTES must be from " +
                     format_number(kLeastCustomBytes) + " (one bit) to " +
                     format_number(kMostCustomBytes) + " per element (got " +
                     format_number(t.bytes) + ")");
  return t;
}
}  // namespace

Dtypes make_dtypes(const std::string& w, const std::string& a, const std::string& kv,
                   const std::string& c, const std::string& native) {
  Dtypes d;
  const std::string base = native.empty() ? "fp16" : native;
  d.weights = flag_dtype("--wdtype", w.empty() ? base : w);
  // Weight-only quantisation (int8/int4/fp8 weights) keeps activations in 16-bit floats.
  d.activations = !a.empty()                                   ? flag_dtype("--adtype", a)
                  : (d.weights.integer || d.weights.bytes < 2) ? parse_dtype(base)
                                                               : d.weights;
  d.kv_cache = kv.empty() ? d.activations : flag_dtype("--kvdtype", kv);
  d.compute = c.empty() ? d.activations : flag_dtype("--cdtype", c);
  return d;
}

std::string native_16bit(const RoofSet& roofs) {
  auto peak = [&](const char* precision) {
    const ComputeRoof* best = nullptr;  // as select_roofs picks it (outranks)
    for (const auto& c : roofs.compute)
      if (!c.sparse && c.precision == precision && outranks(c, best)) best = &c;
    return best ? best->peak.value : 0.0;
  };
  // bf16 where it is clearly the faster (a CPU with AMX: bf16 tiles 7× the fp16 vectors; a
  // TPU: bf16 only); fp16 otherwise — GPUs run both at one rate, and a measured GPU whose bf16
  // roof reads a little above its fp16 one must not flip every default.
  constexpr double kClearly = 1.5;
  return peak("bf16") > kClearly * peak("fp16") ? "bf16" : "fp16";
}

std::string to_string(Phase p) {
  switch (p) {
    case Phase::prefill:
      return "prefill";
    case Phase::mixed:
      return "mixed";
    case Phase::verify:
      return "verify";
    case Phase::decode:
      break;
  }
  return "decode";
}

std::string attention_words(bool flash) {
  return flash ? "fused attention" : "unfused attention (scores through memory)";
}

Phase parse_phase(const std::string& s) {
  const std::string k = lower(s);
  if (k == "prefill") return Phase::prefill;
  if (k == "decode") return Phase::decode;
  throw InputError("--phase: must be prefill or decode (got '" + s + "')");
}

std::vector<double> parse_int_list(const std::string& spec, const std::string& flag) {
  auto one = [&](const std::string& t) {
    const double v = decimal_number(t).value_or(0);
    if (!whole(v) || v < 1 || v > kLargestModelCount)
      throw InputError(flag + ": '" + t + "' is not a whole number from 1 to 1e9 (in '" + spec +
                       "')");
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
  if (m.sliding_window > 0) {
    j["sliding_window"] = m.sliding_window;
    j["sliding_window_layers"] = m.sliding_layers;
  }
  if (m.chunked_layers > 0) {
    j["attention_chunk_size"] = m.attention_chunk;
    j["chunked_attention_layers"] = m.chunked_layers;
  }
  j["global_attention_layers"] = m.global_layers();
  j["norms_per_layer"] = m.norms_per_layer;
  j["qk_norm"] = m.qk_norm;
  if (m.is_mla())
    j["mla"] = {{"q_lora_rank", m.mla.q_lora_rank},
                {"kv_lora_rank", m.mla.kv_lora_rank},
                {"qk_nope_head_dim", m.mla.qk_nope_head_dim},
                {"qk_rope_head_dim", m.mla.qk_rope_head_dim},
                {"v_head_dim", m.mla.v_head_dim}};
  if (m.moe()) {
    j["dense_mlp_layers"] = m.dense_layers;
    j["moe_layers"] = m.moe_layers();
  }
  if (m.mtp_layers > 0) {
    j["num_nextn_predict_layers"] = m.mtp_layers;
    j["parameters"]["mtp"] = p.mtp;
  }
  if (m.published_active > 0) j["published_active_parameters"] = m.published_active;
  if (!m.defaulted.empty()) j["defaulted_fields"] = m.defaulted;
  if (m.published_params > 0) j["published_parameters"] = m.published_params;
  return j;
}

nlohmann::json models_to_json(const std::vector<ModelConfig>& models) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& m : models) j.push_back(model_to_json(m));
  return j;
}

}  // namespace roofline::llm
