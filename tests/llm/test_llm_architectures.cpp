// Current architectures against their real config.json files, hand derivations and the
// figures their authors publish: DeepSeek-V2/V3 (multi-head latent attention, shared experts,
// dense first layers, MTP), Gemma 2/3 (local and global layers), Llama 4 (chunked attention,
// MoE with a shared expert). Sources of files and figures: tests/data/llm/README.md.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

const OpCost& op(const StepCost& c, const char* name) {
  for (std::size_t i = 0; i < c.size; ++i)
    if (std::strcmp(c.ops[i].name, name) == 0) return c.ops[i];
  throw std::runtime_error(std::string("no operator ") + name);
}
bool has_op(const StepCost& c, const char* name) {
  for (std::size_t i = 0; i < c.size; ++i)
    if (std::strcmp(c.ops[i].name, name) == 0) return true;
  return false;
}

Scenario scenario(double batch, double context, double prompt) {
  Scenario s;
  s.batch = batch;
  s.context = context;
  s.prompt = prompt;
  s.dtypes = make_dtypes("bf16");
  s.flash = false;  // the unfused kernels (q·kᵀ, softmax, attention·v) the counts name
  return s;
}

// --- DeepSeek-V3 -------------------------------------------------------------------------

// The shapes of DeepSeek-V3 (its config.json; technical report §4.2).
constexpr double kD = 7168, kH = 128, kQ = 1536, kC = 512, kNope = 128, kRope = 64, kV = 128;
constexpr double kLayers = 61, kDense = 3, kMoe = 58, kVocab = 129280;
constexpr double kE = 256, kTop = 8, kFf = 2048, kDenseFf = 18432;

TEST(LlmDeepSeek, ConfigLoadsAsThePreset) {
  const ModelConfig m = load_hf_config(kData + "deepseek-v3.config.json");
  EXPECT_TRUE(m.is_mla());
  EXPECT_EQ(m.mla.q_lora_rank, kQ);
  EXPECT_EQ(m.mla.kv_lora_rank, kC);
  EXPECT_EQ(m.mla.qk_nope_head_dim, kNope);
  EXPECT_EQ(m.mla.qk_rope_head_dim, kRope);
  EXPECT_EQ(m.mla.v_head_dim, kV);
  EXPECT_EQ(m.dense_layers, kDense);  // first_k_dense_replace
  EXPECT_EQ(m.moe_layers(), kMoe);
  EXPECT_EQ(m.experts, kE);
  EXPECT_EQ(m.shared_intermediate, kFf);  // n_shared_experts 1 × moe_intermediate_size
  EXPECT_EQ(m.intermediate, kDenseFf);
  EXPECT_EQ(m.mtp_layers, 1);
  EXPECT_TRUE(m.router_bias);  // topk_method noaux_tc: e_score_correction_bias
  EXPECT_FALSE(m.tied_embeddings);
  const ParameterCount file = count_parameters(m), pre = count_parameters(preset("deepseek-v3"));
  EXPECT_DOUBLE_EQ(file.total, pre.total);
  EXPECT_DOUBLE_EQ(file.active, pre.active);
  EXPECT_DOUBLE_EQ(file.mtp, pre.mtp);
  // R1 is V3's architecture.
  EXPECT_DOUBLE_EQ(count_parameters(preset("deepseek-r1")).total, pre.total);
}

TEST(LlmDeepSeek, ParametersFromTheShapesAndAsPublished) {
  const ParameterCount p = count_parameters(preset("deepseek-v3"));
  // Per layer: q_a d·1536 + q_b 1536·128·192 + kv_a d·576 + kv_b 512·128·256 + o 128·128·d,
  // norms 1536 + 512 (q_a_layernorm, kv_a_layernorm).
  const double attention = kD * kQ + kQ * kH * (kNope + kRope) + kD * (kC + kRope) +
                           kC * kH * (kNope + kV) + kH * kV * kD + kQ + kC;
  const double expert = 3 * kD * kFf;
  const double moe_layer = kE * expert + expert /*shared*/ + kD * kE /*router*/ + kE /*bias*/;
  const double dense_layer = 3 * kD * kDenseFf;
  const double norms = (2 * kLayers + 1) * kD;
  const double tables = 2 * kVocab * kD;  // untied embedding and LM head
  const double total =
      kLayers * attention + kDense * dense_layer + kMoe * moe_layer + norms + tables;
  EXPECT_DOUBLE_EQ(p.total, total);
  EXPECT_DOUBLE_EQ(p.total, 671026419200.0);
  // The technical report's 671B (rounded), to 0.01%.
  EXPECT_NEAR(p.total / 671e9, 1.0, 1e-4);
  // Active: 8 routed + the shared expert per MoE layer. README_WEIGHTS.md: 36.6B activated
  // including the 0.9B output head (the embedding lookup is not counted); the report: 37B.
  const double active = total - kMoe * (kE - kTop) * expert;  // routed experts a token does not use
  EXPECT_DOUBLE_EQ(p.active, active);
  EXPECT_NEAR((p.active - p.embedding) / 36.6e9, 1.0, 0.002);
  EXPECT_NEAR(p.active / 37e9, 1.0, 0.02);
  // One MTP module: a MoE layer, enorm and hnorm, eh_proj 2d → d, the shared head's norm:
  // 11.61B, against README_WEIGHTS' "11.5B unique parameters" (within 1%).
  const double mtp = attention + moe_layer + 2 * kD + 2 * kD + 2 * kD * kD + kD;
  EXPECT_DOUBLE_EQ(p.mtp, mtp);
  EXPECT_NEAR(p.mtp / 11.5e9, 1.0, 0.01);
}

TEST(LlmDeepSeek, LatentKvCacheAsPublished) {
  // DeepSeek-V2 Table 1: MLA caches (d_c + d_h^R)·l elements per token: 576 per layer.
  const ModelConfig& v3 = preset("deepseek-v3");
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(v3, parse_dtype("bf16")).value, kLayers * (kC + kRope) * 2);
  // Zhao et al. (ISCA 2025) Table 1, BF16: DeepSeek-V3 70.272 KB, Qwen-2.5 72B 327.680 KB,
  // LLaMA-3.1 405B 516.096 KB per token.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(v3, parse_dtype("bf16")).value, 70272);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(preset("qwen2.5-72b"), parse_dtype("bf16")).value, 327680);
  ModelConfig llama405 = preset("llama-3-70b");  // Llama 3.1 405B: 126 layers, 8 KV heads of 128
  llama405.layers = 126;
  llama405.hidden = 16384;
  llama405.heads = 128;
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(llama405, parse_dtype("bf16")).value, 516096);
  // DeepSeek-V2 §3.2.3: deployed with the KV cache quantised to 6 bits per element on average,
  // MLA cuts the cache by 93.3% against DeepSeek 67B (95 layers, 8 KV heads of 128, BF16).
  ModelConfig ds67 = preset("llama-2-70b");
  ds67.layers = 95;
  const double v2 = kv_bytes_per_token(preset("deepseek-v2"), parse_dtype("custom:kv6:0.75")).value;
  const double base = kv_bytes_per_token(ds67, parse_dtype("bf16")).value;
  EXPECT_DOUBLE_EQ(base, 2.0 * 95 * 8 * 128 * 2);
  EXPECT_NEAR(1 - v2 / base, 0.933, 0.0005);
  // The footprint holds that per token, replicated on every tensor-parallel device.
  Scenario s = scenario(4, 8192, 8192);
  s.tp = 8;
  EXPECT_DOUBLE_EQ(kv_cache_bytes(v3, s, 4, 8192).value, 4 * 8192 * 70272.0);
}

TEST(LlmDeepSeek, V2ParametersAsPublished) {
  // DeepSeek-V2: 236B total, 21B activated per token (abstract).
  const ParameterCount p = count_parameters(preset("deepseek-v2"));
  EXPECT_NEAR(p.total / 236e9, 1.0, 0.005);
  EXPECT_NEAR(p.active / 21e9, 1.0, 0.02);
}

TEST(LlmDeepSeek, AbsorbedDecodeAttentionByHand) {
  // One decode token per sequence, B sequences at context L, absorbed MLA, unfused kernels:
  //   q absorb: 2·B·H·nope·d_c;  q·cᵀ: 2·B·H·(d_c + rope)·L;  p·c: 2·B·H·d_c·L;
  //   v up: 2·B·H·d_c·v.  The latent [c; k_R] is read once per key for all heads.
  const ModelConfig& m = preset("deepseek-v3");
  const double B = 4, L = 1000, s = 2;
  const StepCost c = step_cost(m, scenario(B, L, 512), Phase::decode);
  EXPECT_FALSE(has_op(c, "kv_b_proj"));  // automatic: decode uses the absorbed form
  EXPECT_DOUBLE_EQ(op(c, "q absorb (W_UK)").work.value, 2 * B * kH * kNope * kC);
  EXPECT_DOUBLE_EQ(op(c, "q absorb (W_UK)").weights.value, kH * kNope * kC * s);
  EXPECT_DOUBLE_EQ(op(c, "q·cᵀ (latent)").work.value, 2 * B * kH * (kC + kRope) * L);
  EXPECT_DOUBLE_EQ(op(c, "q·cᵀ (latent)").kv.value, B * L * (kC + kRope) * s);
  EXPECT_DOUBLE_EQ(op(c, "p·c (latent)").work.value, 2 * B * kH * kC * L);
  EXPECT_DOUBLE_EQ(op(c, "p·c (latent)").kv.value, B * L * kC * s);
  EXPECT_DOUBLE_EQ(op(c, "v up (W_UV)").work.value, 2 * B * kH * kC * kV);
  EXPECT_DOUBLE_EQ(op(c, "o_proj").work.value, 2 * B * kH * kV * kD);
  // kv_a_proj writes the new token's latent and RoPE key to the cache.
  EXPECT_DOUBLE_EQ(op(c, "kv_a_proj").kv.value, B * (kC + kRope) * s);
  EXPECT_EQ(op(c, "q·cᵀ (latent)").count, kLayers);
  // Fused (FlashMLA-style): the latent read once for scores and values.
  Scenario f = scenario(B, L, 512);
  f.flash = true;
  const StepCost fused_step = step_cost(m, f, Phase::decode);  // op() refers into it
  const OpCost& fused = op(fused_step, "attention (fused, latent)");
  EXPECT_DOUBLE_EQ(fused.kv.value, B * L * (kC + kRope) * s);
  EXPECT_DOUBLE_EQ(fused.work.value,
                   2 * B * kH * (kC + kRope) * L + 2 * B * kH * kC * L + 5 * B * kH * L);
  // Its traffic: q in and o out per token (H·(576 + 512) elements) and the latent once per key.
  EXPECT_DOUBLE_EQ(fused.traffic().value,
                   B * kH * (kC + kRope + kC) * s + B * L * (kC + kRope) * s);
  // As the context grows the latent dominates: B·H·(2·576 + 2·512) FLOP per 1152 bytes read,
  // I → 2·H·1088/1152 ≈ 1.9·H (242 FLOP/byte with 128 heads) — far above MHA decode's ≈ 1:
  // the cache is shared by all heads (DeepSeek-V2 §2.1.2).
  Scenario longer = f;
  longer.context = 1e6;
  const StepCost far_step = step_cost(m, longer, Phase::decode);
  const OpCost& far = op(far_step, "attention (fused, latent)");
  EXPECT_NEAR(far.work.value / far.traffic().value, 2 * kH * 1088 / 1152.0, 0.01 * kH);
}

TEST(LlmDeepSeek, NaiveFormDecompressesEveryKey) {
  // Naive MLA: kv_b_proj turns each cached latent into K_nope and V for all heads
  // (2·keys·d_c·H·(nope + v) FLOP), then standard attention of head size nope + rope.
  const ModelConfig& m = preset("deepseek-v3");
  const double B = 2, L = 1000, s = 2;
  Scenario n = scenario(B, L, 512);
  n.mla_form = MlaForm::naive;
  const StepCost c = step_cost(m, n, Phase::decode);
  EXPECT_FALSE(has_op(c, "q absorb (W_UK)"));
  EXPECT_DOUBLE_EQ(op(c, "kv_b_proj").work.value, 2 * B * L * kC * kH * (kNope + kV));
  EXPECT_DOUBLE_EQ(op(c, "kv_b_proj").kv.value, B * L * kC * s);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ").work.value, 2 * B * kH * (kNope + kRope) * L);
  EXPECT_DOUBLE_EQ(op(c, "attention·v").work.value, 2 * B * kH * kV * L);
  // Decode FLOP per token: the naive form pays the decompression of the whole cache, ≈ 33.6 MFLOP
  // per key and layer against absorbed's 0.28 (per key: 2·H·(d_c + rope) + 2·H·d_c).
  Scenario a = n;
  a.mla_form = MlaForm::absorbed;
  const StepCost ca = step_cost(m, a, Phase::decode);
  auto attention_work = [](const StepCost& st) {
    double w = 0;
    for (std::size_t i = 0; i < st.size; ++i) {
      const OpKind k = st.ops[i].kind;
      const std::string name = st.ops[i].name;
      if (k == OpKind::attention_scores || k == OpKind::softmax || k == OpKind::attention_values ||
          name == "kv_b_proj" || name == "q absorb (W_UK)" || name == "v up (W_UV)")
        w += st.ops[i].work.value;
    }
    return w;
  };
  EXPECT_GT(attention_work(c), 20 * attention_work(ca));
  // The decompression is attention's (its rows are the keys read): the decode linear layers'
  // summary point stays a GEMV's (I ≈ B), the attention point carries it. It was in the linear
  // set, whose I became 52 at batch 1 (deepseek-v3 on h200, --mla naive).
  EXPECT_EQ(op(c, "kv_b_proj").kind, OpKind::latent_decompression);
  Scenario one = n;
  one.batch = 1;
  one.context = 2048;
  const Report rep = analyse(m, one, Phase::decode, a100());
  EXPECT_LT(rep.decode_linear.intensity().value, 2);
  const StepCost c1 = step_cost(m, one, Phase::decode);
  double attention = 0;
  for (std::size_t i = 0; i < c1.size; ++i)
    if (!c1.ops[i].interconnect &&
        (c1.ops[i].kind == OpKind::latent_decompression ||
         c1.ops[i].kind == OpKind::attention_scores || c1.ops[i].kind == OpKind::softmax ||
         c1.ops[i].kind == OpKind::attention_values))
      attention += c1.ops[i].work.value * c1.ops[i].count;
  EXPECT_DOUBLE_EQ(rep.decode_attention.work.value, attention);
  // Prefill (automatic) decompresses the prompt's own keys once: kv_b_proj over B·S rows.
  const double S = 512;
  const StepCost pre = step_cost(m, scenario(B, L, S), Phase::prefill);
  EXPECT_DOUBLE_EQ(op(pre, "kv_b_proj").work.value, 2 * B * S * kC * kH * (kNope + kV));
  EXPECT_FALSE(has_op(pre, "q absorb (W_UK)"));
}

TEST(LlmDeepSeek, DecodeWorkPerTokenIsTwiceTheActiveMatricesPlusAttention) {
  // At batch 1 every MoE layer runs 8 routed experts and the shared one: W per token ≈ 2 ×
  // active matrix parameters (no embedding lookup) + the absorbed attention terms.
  const ModelConfig& m = preset("deepseek-v3");
  const double L = 4096;
  Scenario s = scenario(1, L, L);
  const StepCost c = step_cost(m, s, Phase::decode);
  double w = 0;
  for (std::size_t i = 0; i < c.size; ++i) w += c.ops[i].work.value * c.ops[i].count;
  const ParameterCount p = count_parameters(m);
  const double attention_matrices =
      kLayers * (kD * kQ + kQ * kH * (kNope + kRope) + kD * (kC + kRope) + kC * kH * (kNope + kV) +
                 kH * kV * kD);
  const double mlp_active = kDense * 3 * kD * kDenseFf + kMoe * (9 * 3 * kD * kFf + kD * kE);
  const double head = kVocab * kD;
  // What else is active: the norms (2 per layer + final, and MLA's 1536 + 512 per layer) and
  // the routers' score biases.
  const double small = (2 * kLayers + 1) * kD + kLayers * (kQ + kC) + kMoe * kE;
  EXPECT_DOUBLE_EQ(attention_matrices + mlp_active + head + small, p.active - p.embedding);
  const double attention = kLayers * (2 * kH * (kC + kRope) * L + 2 * kH * kC * L);
  EXPECT_NEAR(w / (2 * (attention_matrices + mlp_active + head) + attention), 1.0, 0.002);
}

// --- Gemma -------------------------------------------------------------------------------

TEST(LlmGemma, Gemma3LayersAlternateFiveLocalToOneGlobal) {
  // transformers Gemma3: layer i is global when (i + 1) % sliding_window_pattern (6) == 0.
  const ModelConfig big = load_hf_config(kData + "gemma-3-27b-it.config.json");
  EXPECT_EQ(big.model_type, "gemma3_text");
  EXPECT_EQ(big.sliding_window, 1024);
  EXPECT_EQ(big.sliding_layers, 52);
  EXPECT_EQ(big.global_layers(), 10);
  EXPECT_EQ(big.norms_per_layer, 4);
  EXPECT_TRUE(big.qk_norm);
  EXPECT_TRUE(big.tied_embeddings);
  EXPECT_EQ(big.vocab, 262208);  // Gemma3TextConfig's default: the file does not name it
  const ModelConfig small = load_hf_config(kData + "gemma-3-4b-it.config.json");
  EXPECT_EQ(small.sliding_layers, 29);
  EXPECT_EQ(small.global_layers(), 5);
  EXPECT_EQ(small.heads, 8);
  EXPECT_EQ(small.kv_heads, 4);
  EXPECT_EQ(small.head_dim, 256);
  // Every value the file left out is listed.
  bool heads_defaulted = false;
  for (const auto& d : small.defaulted) heads_defaulted |= d.rfind("num_attention_heads", 0) == 0;
  EXPECT_TRUE(heads_defaulted);
  int head_dim_notes = 0;  // each field once, however often the reader looks it up
  for (const auto& d : small.defaulted) head_dim_notes += d.rfind("head_dim", 0) == 0;
  EXPECT_EQ(head_dim_notes, 1);
  EXPECT_TRUE(big.defaulted.size() < small.defaulted.size());
}

TEST(LlmGemma, Gemma3NonEmbeddingParametersAsPublished) {
  // Gemma 3 report Table 1: non-embedding parameters 25,600M (27B) and 3,209M (4B). Per layer
  // q, o: d·H·hd; k, v: d·Hkv·hd; gated MLP 3·d·ff; 4 norms of d; q_norm, k_norm of hd.
  auto non_embedding = [](double d, double H, double Hkv, double hd, double ff, double L) {
    return L * (2 * d * H * hd + 2 * d * Hkv * hd + 3 * d * ff + 4 * d + 2 * hd) + d;
  };
  const ParameterCount big = count_parameters(load_hf_config(kData + "gemma-3-27b-it.config.json"));
  EXPECT_DOUBLE_EQ(big.total - big.embedding, non_embedding(5376, 32, 16, 128, 21504, 62));
  EXPECT_NEAR((big.total - big.embedding) / 25600e6, 1.0, 0.0001);
  const ParameterCount small =
      count_parameters(load_hf_config(kData + "gemma-3-4b-it.config.json"));
  EXPECT_DOUBLE_EQ(small.total - small.embedding, non_embedding(2560, 8, 4, 256, 10240, 34));
  EXPECT_NEAR((small.total - small.embedding) / 3209e6, 1.0, 0.0001);
  EXPECT_DOUBLE_EQ(big.total, count_parameters(preset("gemma-3-27b")).total);
}

TEST(LlmGemma, LocalLayersCapAttentionAndCache) {
  // Gemma 3 27B at context 8192: 52 local layers attend over the last 1024 keys, 10 global
  // layers over all 8192; the cache holds 1024 tokens in local layers.
  const ModelConfig m = load_hf_config(kData + "gemma-3-27b-it.config.json");
  const double B = 2, L = 8192, W = 1024, Hq = 32, Hkv = 16, hd = 128, s = 2;
  const StepCost c = step_cost(m, scenario(B, L, L), Phase::decode);
  EXPECT_EQ(op(c, "q·kᵀ (local)").count, 52);
  EXPECT_EQ(op(c, "q·kᵀ (global)").count, 10);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ (local)").work.value, 2 * B * Hq * hd * W);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ (local)").kv.value, B * W * Hkv * hd * s);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ (global)").work.value, 2 * B * Hq * hd * L);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ (global)").kv.value, B * L * Hkv * hd * s);
  const double per_token_layer = 2 * Hkv * hd * s;
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, scenario(B, L, L), B, L).value,
                   per_token_layer * B * (52 * W + 10 * L));
  // Fused prefill of S = 4096: local queries see min(i, 1024) keys, global ones i.
  Scenario f = scenario(1, 4096, 4096);
  f.flash = true;
  const StepCost pre = step_cost(m, f, Phase::prefill);
  const double S = 4096;
  const double local_pairs = W * (W + 1) / 2 + (S - W) * W, global_pairs = S * (S + 1) / 2;
  const double per_pair = 2 * Hq * hd + 2 * Hq * hd + 5 * Hq;
  EXPECT_DOUBLE_EQ(op(pre, "attention (fused, local)").work.value, per_pair * local_pairs);
  EXPECT_DOUBLE_EQ(op(pre, "attention (fused, global)").work.value, per_pair * global_pairs);
}

TEST(LlmGemma, Gemma2AlternatesAndCountsExactly) {
  // google/gemma-2-9b-it: 42 layers, every other one local (window 4096); 9,241,705,984
  // parameters from the shapes (42·(2·d·16·256 + 2·d·8·256 + 3·d·14336 + 4·d) + d + V·d, tied).
  const ModelConfig m = load_hf_config(kData + "gemma-2-9b-it.config.json");
  EXPECT_EQ(m.sliding_layers, 21);
  EXPECT_EQ(m.global_layers(), 21);
  EXPECT_EQ(m.activation, "gelu_pytorch_tanh");
  const double d = 3584;
  EXPECT_DOUBLE_EQ(
      count_parameters(m).total,
      42 * (2 * d * 16 * 256 + 2 * d * 8 * 256 + 3 * d * 14336 + 4 * d) + d + 256000 * d);
  EXPECT_DOUBLE_EQ(count_parameters(m).total, 9241705984.0);
  EXPECT_DOUBLE_EQ(count_parameters(m).total, count_parameters(preset("gemma-2-9b")).total);
}

// --- Llama 4 -----------------------------------------------------------------------------

TEST(LlmLlama4, ScoutChunksThreeLayersInFour) {
  // no_rope_layers is [] in the file: transformers derives it (all but every 4th layer use
  // RoPE and chunked attention of 8192); the fourth layers are global.
  const ModelConfig m = load_hf_config(kData + "llama-4-scout-17b-16e.config.json");
  EXPECT_EQ(m.model_type, "llama4_text");
  EXPECT_EQ(m.attention_chunk, 8192);
  EXPECT_EQ(m.chunked_layers, 36);
  EXPECT_EQ(m.global_layers(), 12);
  EXPECT_EQ(m.experts, 16);
  EXPECT_EQ(m.moe_layers(), 48);  // interleave_moe_layer_step 1
  EXPECT_EQ(m.shared_intermediate, 8192);
  EXPECT_EQ(m.vocab, 202048);  // Llama4TextConfig default: the quoted file breaks off
  EXPECT_FALSE(m.tied_embeddings);
  EXPECT_FALSE(m.defaulted.empty());
  // A decode step at context 10000 in a chunked layer sees the keys of its own chunk:
  // ((10000 − 1) mod 8192) + 1 = 1808.
  const double B = 1, L = 10000, Hq = 40, Hkv = 8, hd = 128, s = 2;
  const StepCost c = step_cost(m, scenario(B, L, L), Phase::decode);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ (chunked)").kv.value, B * 1808 * Hkv * hd * s);
  EXPECT_DOUBLE_EQ(op(c, "q·kᵀ (global)").kv.value, B * L * Hkv * hd * s);
  // Fused prefill of 10000: a full chunk's C(C+1)/2 pairs plus the partial one's r(r+1)/2.
  Scenario f = scenario(1, L, L);
  f.flash = true;
  const double pairs = 8192.0 * 8193 / 2 + 1808.0 * 1809 / 2;
  EXPECT_DOUBLE_EQ(op(step_cost(m, f, Phase::prefill), "attention (fused, chunked)").work.value,
                   (4 * Hq * hd + 5 * Hq) * pairs);
}

TEST(LlmLlama4, ScoutParametersFromTheShapes) {
  const ModelConfig m = load_hf_config(kData + "llama-4-scout-17b-16e.config.json");
  const double d = 5120, ff = 8192, E = 16, V = 202048;
  const double attention = 2 * d * 40 * 128 + 2 * d * 8 * 128;
  const double moe = E * 3 * d * ff + 3 * d * ff /*shared*/ + d * E /*router*/;
  const ParameterCount p = count_parameters(m);
  EXPECT_DOUBLE_EQ(p.total, 48 * (attention + moe + 2 * d) + d + 2 * V * d);
  // Meta: 17B active per token (one routed expert + the shared one).
  EXPECT_NEAR(p.active / 17e9, 1.0, 0.02);
  EXPECT_DOUBLE_EQ(p.total, count_parameters(preset("llama-4-scout")).total);
}

TEST(LlmLayerTypes, ExplicitListWinsAndUnknownTypesAreRefused) {
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "llama-2-7b.config.json"));
  j["sliding_window"] = 512;
  j["layer_types"] = nlohmann::json::array();
  for (int i = 0; i < 32; ++i)
    j["layer_types"].push_back(i % 4 == 3 ? "full_attention" : "sliding_attention");
  const ModelConfig m = model_from_hf_json(j, "types.json");
  EXPECT_EQ(m.sliding_layers, 24);
  EXPECT_EQ(m.global_layers(), 8);
  j["layer_types"][0] = "linear_attention";
  try {
    model_from_hf_json(j, "types.json");
    ADD_FAILURE() << "linear_attention accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("linear_attention"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("layer_types"), std::string::npos) << e.what();
  }
  j["layer_types"] = nlohmann::json::array({"full_attention"});
  EXPECT_THROW(model_from_hf_json(j, "types.json"), InputError);  // 1 entry for 32 layers
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
