// Model shapes: presets against published sizes, the Hugging Face config.json reader, bad configs.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

// Parameter counts from the weight shapes equal the sizes the authors publish (model cards /
// safetensors metadata): Llama-2-7B 6,738,415,616; Llama-2-13B 13,015,864,320; Llama-2-70B
// 68,976,648,192; Llama-3-8B 8,030,261,248; Llama-3-70B 70,553,706,496; Mistral-7B
// 7,241,732,096; Mixtral-8x7B 46,702,792,704; Qwen2.5-7B 7,615,616,512; Qwen2.5-72B
// 72,706,203,648.
TEST(LlmConfig, PresetParameterCountsMatchPublishedSizes) {
  const std::pair<const char*, double> exact[] = {
      {"llama-2-7b", 6738415616.0},    {"llama-2-13b", 13015864320.0},
      {"llama-2-70b", 68976648192.0},  {"llama-3-8b", 8030261248.0},
      {"llama-3-70b", 70553706496.0},  {"mistral-7b", 7241732096.0},
      {"mixtral-8x7b", 46702792704.0}, {"qwen2.5-7b", 7615616512.0},
      {"qwen2.5-72b", 72706203648.0}};
  for (const auto& [name, count] : exact) {
    SCOPED_TRACE(name);
    EXPECT_DOUBLE_EQ(count_parameters(preset(name)).total, count);
  }
  // Every preset within 1% of its published (rounded) size, GPT-3 "175B" included; Llama 4
  // Scout's published 109B includes its vision encoder, so only its active count is compared
  // (LlmConfig.Llama4ScoutActiveParameters).
  for (const auto& m : presets()) {
    SCOPED_TRACE(m.name);
    if (m.published_params == 0) {
      EXPECT_GT(m.published_active, 0);
      continue;
    }
    EXPECT_NEAR(count_parameters(m).total / m.published_params, 1.0, 0.01);
  }
}

TEST(LlmConfig, MixtralActiveParameters) {
  // Mixtral 8x7B: 12.9B active parameters per token (Mistral AI's announcement).
  const ParameterCount p = count_parameters(preset("mixtral-8x7b"));
  EXPECT_NEAR(p.active / 12.9e9, 1.0, 0.01);
  EXPECT_LT(p.active, p.total);
  EXPECT_DOUBLE_EQ(count_parameters(preset("llama-2-7b")).active,
                   count_parameters(preset("llama-2-7b")).total);
}

TEST(LlmConfig, KvCacheBytesPerToken) {
  // 2 · layers · kv_heads · head_dim · bytes.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(preset("llama-2-7b"), parse_dtype("fp16")).value,
                   2.0 * 32 * 32 * 128 * 2);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(preset("llama-2-7b"), parse_dtype("fp16")).value, 524288);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(preset("llama-3-8b"), parse_dtype("fp16")).value, 131072);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(preset("llama-3-8b"), parse_dtype("fp8")).value, 65536);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(preset("llama-2-70b"), parse_dtype("bf16")).value,
                   2.0 * 80 * 8 * 128 * 2);
}

TEST(LlmConfig, HfConfigEqualsPreset) {
  const ModelConfig hf = load_hf_config(kData + "llama-2-7b.config.json");
  const ModelConfig& p = preset("llama-2-7b");
  EXPECT_EQ(hf.name, "meta-llama/Llama-2-7b-hf");
  EXPECT_EQ(hf.hidden, p.hidden);
  EXPECT_EQ(hf.heads, p.heads);
  EXPECT_EQ(hf.kv_heads, p.kv_heads);
  EXPECT_EQ(hf.head_dim, 128);
  EXPECT_EQ(hf.intermediate, p.intermediate);
  EXPECT_EQ(hf.layers, p.layers);
  EXPECT_EQ(hf.vocab, p.vocab);
  EXPECT_FALSE(hf.tied_embeddings);
  EXPECT_EQ(hf.mlp, Mlp::gated);
  EXPECT_DOUBLE_EQ(count_parameters(hf).total, 6738415616.0);
}

TEST(LlmConfig, HfMixtralAndQwen) {
  const ModelConfig mx = load_hf_config(kData + "mixtral-8x7b.config.json");
  EXPECT_TRUE(mx.moe());
  EXPECT_EQ(mx.experts, 8);
  EXPECT_EQ(mx.experts_per_token, 2);
  EXPECT_EQ(mx.expert_intermediate, 14336);
  EXPECT_EQ(mx.kv_heads, 8);
  EXPECT_DOUBLE_EQ(count_parameters(mx).total, 46702792704.0);
  const ModelConfig qw = load_hf_config(kData + "qwen2.5-7b.config.json");
  EXPECT_TRUE(qw.attention_bias);  // Qwen2: q/k/v carry biases
  EXPECT_DOUBLE_EQ(count_parameters(qw).total, 7615616512.0);
}

TEST(LlmConfig, HfGpt2UsesItsOwnFieldNames) {
  // GPT-2 small: n_embd/n_head/n_layer, n_inner null ⇒ 4·d, tied embeddings by default,
  // learned positions; 124,439,808 parameters (the published "124M").
  const ModelConfig g = load_hf_config(kData + "gpt2.config.json");
  EXPECT_EQ(g.hidden, 768);
  EXPECT_EQ(g.intermediate, 3072);
  EXPECT_EQ(g.positions, 1024);
  EXPECT_TRUE(g.tied_embeddings);
  EXPECT_EQ(g.mlp, Mlp::plain);
  EXPECT_EQ(g.norm, Norm::layer);
  EXPECT_DOUBLE_EQ(count_parameters(g).total, 124439808.0);
  EXPECT_DOUBLE_EQ(count_parameters(g).lm_head, 0);  // tied: the table is counted once
}

// GPTBigCode (StarCoder) has GPT-2's learned position table (wpe): the fields of
// bigcode/starcoder's config.json (n_embd 6144, n_head 48, n_layer 40, n_positions 8192,
// n_inner 24576, vocab 49152, multi_query): 15,517,456,384 parameters by hand — wte 301,989,888
// + wpe 50,331,648 + 40 × 379,128,064 per layer (c_attn 6144·6400, c_proj 6144², c_fc and
// c_proj 6144·24576 each, their biases, two LayerNorms) + the final LayerNorm 12,288 (the
// published "15.5B"). The wpe was left out (15,467,124,736).
TEST(LlmConfig, GptBigCodeCountsItsLearnedPositions) {
  const nlohmann::json j = {{"model_type", "gpt_bigcode"},
                            {"n_embd", 6144},
                            {"n_head", 48},
                            {"n_layer", 40},
                            {"n_positions", 8192},
                            {"n_inner", 24576},
                            {"vocab_size", 49152},
                            {"multi_query", true},
                            {"activation_function", "gelu_pytorch_tanh"}};
  const ModelConfig m = model_from_hf_json(j, "starcoder.json");
  EXPECT_EQ(m.positions, 8192);
  EXPECT_EQ(m.kv_heads, 1);
  EXPECT_DOUBLE_EQ(count_parameters(m).embedding, 49152.0 * 6144 + 8192.0 * 6144);
  EXPECT_DOUBLE_EQ(count_parameters(m).total, 15517456384.0);
  EXPECT_TRUE(m.caveats.empty());
}

// A family the reader does not model (Jamba: Mamba layers, attention every 8th) was costed as a
// plain transformer unsaid, and an unknown activation (GeGLU, gated by definition) as an
// ungated MLP: each is said with every estimate, and GeGLU gates.
TEST(LlmConfig, AnUnknownFamilyOrActivationIsSaid) {
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "llama-2-7b.config.json"));
  j["model_type"] = "jamba";
  ModelConfig m = model_from_hf_json(j, "jamba.json");
  ASSERT_EQ(m.caveats.size(), 1u);
  EXPECT_NE(m.caveats[0].find("model_type 'jamba' of jamba.json is not a family the reader "
                              "models"),
            std::string::npos)
      << m.caveats[0];
  Scenario s;
  s.batch = 1;
  s.context = 128;
  const auto w = scenario_warnings(m, s);
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w.front(), m.caveats[0]);
  j["hidden_act"] = "geglu";
  j["model_type"] = "custom";  // not a gated family: the activation decides
  m = model_from_hf_json(j, "c.json");
  EXPECT_EQ(m.mlp, Mlp::gated);
  j["hidden_act"] = "swish_foo";
  m = model_from_hf_json(j, "c.json");
  ASSERT_EQ(m.caveats.size(), 2u);
  EXPECT_NE(m.caveats[1].find("the activation 'swish_foo' of c.json is not one the reader knows: "
                              "its MLP is costed ungated"),
            std::string::npos)
      << m.caveats[1];
  // A GLU gates in a GPT family too (StarCoder's fields with geglu were costed ungated).
  const nlohmann::json gpt = {{"model_type", "gpt2"}, {"n_embd", 64},
                              {"n_head", 4},          {"n_layer", 2},
                              {"vocab_size", 100},    {"activation_function", "geglu"}};
  EXPECT_EQ(model_from_hf_json(gpt, "g.json").mlp, Mlp::gated);
  // A state-space family fails on its missing heads, said as what it is.
  const nlohmann::json mamba = {{"model_type", "mamba"},
                                {"hidden_size", 768},
                                {"num_hidden_layers", 24},
                                {"vocab_size", 50280}};
  try {
    model_from_hf_json(mamba, "mamba.json");
    ADD_FAILURE() << "a mamba config was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("(model_type 'mamba' is not a family the reader models"),
              std::string::npos)
        << e.what();
  }
  j["model_type"] = "llama";  // known family, known activation: nothing to say
  j["hidden_act"] = "silu";
  EXPECT_TRUE(model_from_hf_json(j, "l.json").caveats.empty());
}

// Echoed values are the file's own (not lowercased), escaped and cut when long; a missing or
// empty model_type is said as an unknown family is.
TEST(LlmConfig, EchoedValuesAreTheFilesEscapedAndCut) {
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "llama-2-7b.config.json"));
  j["model_type"] = "\x1b[31mEVIL";
  ModelConfig m = model_from_hf_json(j, "e.json");
  ASSERT_FALSE(m.caveats.empty());
  EXPECT_NE(m.caveats[0].find("model_type '\\u001b[31mEVIL'"), std::string::npos) << m.caveats[0];
  j["model_type"] = std::string(5000, 'X');
  m = model_from_hf_json(j, "long.json");
  ASSERT_FALSE(m.caveats.empty());
  EXPECT_LT(m.caveats[0].size(), 400u) << m.caveats[0];
  EXPECT_NE(m.caveats[0].find("… (5000 bytes)"), std::string::npos) << m.caveats[0];
  j["hidden_act"] = "Swish_FOO";
  j["model_type"] = "llama";
  m = model_from_hf_json(j, "c.json");
  ASSERT_EQ(m.caveats.size(), 1u);
  EXPECT_NE(m.caveats[0].find("the activation 'Swish_FOO'"), std::string::npos) << m.caveats[0];
  j["hidden_act"] = "silu";
  for (const nlohmann::json& none : {nlohmann::json(nullptr), nlohmann::json("")}) {
    j["model_type"] = none;
    m = model_from_hf_json(j, "n.json");
    ASSERT_EQ(m.caveats.size(), 1u) << none.dump();
    // It read "no model_type of n.json is not a family the reader models".
    EXPECT_EQ(m.caveats[0].rfind("n.json names no model_type, so its family is unknown: costed "
                                 "as the transformer its fields describe",
                                 0),
              0u)
        << m.caveats[0];
  }
}

// Falcon-7B's parallel block has one LayerNorm per layer: costed as two, and said. OPT's learned
// position table has max_position_embeddings + 2 rows (facebook/opt-125m: 125,239,296).
TEST(LlmConfig, FalconParallelAttentionIsSaidAndOptPositionsOffsetByTwo) {
  const ModelConfig f = load_hf_config(kData + "falcon-7b.config.json");
  bool said = false;
  for (const auto& c : f.caveats) said = said || c.find("parallel_attn") != std::string::npos;
  EXPECT_TRUE(said);
  const nlohmann::json opt = {{"model_type", "opt"},
                              {"hidden_size", 768},
                              {"num_attention_heads", 12},
                              {"num_hidden_layers", 12},
                              {"ffn_dim", 3072},
                              {"max_position_embeddings", 2048},
                              {"vocab_size", 50272},
                              {"activation_function", "relu"},
                              {"word_embed_proj_dim", 768},
                              {"do_layer_norm_before", true}};
  const ModelConfig o = model_from_hf_json(opt, "opt-125m.json");
  EXPECT_EQ(o.positions, 2050);
  EXPECT_EQ(o.max_positions, 2048);
  EXPECT_DOUBLE_EQ(count_parameters(o).total, 125239296.0);
  // Without the field, OPTConfig's default of 2048 positions (it had given a table of 2 rows).
  nlohmann::json bare = opt;
  bare.erase("max_position_embeddings");
  EXPECT_EQ(model_from_hf_json(bare, "opt-bare.json").positions, 2050);
}

// A model's folder (a Hugging Face snapshot) is read by its config.json ("is a directory,
// expected a file" before); a folder without one is named.
TEST(LlmConfig, AModelsFolderIsReadByItsConfig) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("roofline-hf-" + std::to_string(::getpid()));
  fs::create_directories(dir / "empty");
  fs::copy_file(kData + "llama-2-7b.config.json", dir / "config.json",
                fs::copy_options::overwrite_existing);
  const ModelConfig m = resolve_model(dir.string());
  EXPECT_EQ(m.origin, (dir / "config.json").string());
  EXPECT_DOUBLE_EQ(count_parameters(m).total, 6738415616.0);
  try {
    resolve_model((dir / "empty").string(), "name_or_path");
    ADD_FAILURE() << "a folder without a config.json was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("name_or_path: " + (dir / "empty").string() +
                                         " is a folder without a config.json"),
              std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

TEST(LlmConfig, MaxPositionsAndSlidingWindow) {
  // Mistral-7B-v0.1: max_position_embeddings 32768, sliding_window 4096 (its config.json), as
  // the preset.
  const ModelConfig mi = load_hf_config(kData + "mistral-7b-v0.1.config.json");
  EXPECT_EQ(mi.max_positions, 32768);
  EXPECT_EQ(mi.sliding_window, 4096);
  EXPECT_EQ(preset("mistral-7b").sliding_window, 4096);
  EXPECT_EQ(preset("mistral-7b").max_positions, 32768);
  EXPECT_EQ(mi.attended(8192), 4096);
  EXPECT_EQ(mi.attended(1000), 1000);
  // Mixtral: "sliding_window": null ⇒ full attention.
  EXPECT_EQ(load_hf_config(kData + "mixtral-8x7b.config.json").sliding_window, 0);
  // Qwen2.5 ships "sliding_window": 131072 with "use_sliding_window": false ⇒ none.
  const ModelConfig qw = load_hf_config(kData + "qwen2.5-7b.config.json");
  EXPECT_EQ(qw.sliding_window, 0);
  EXPECT_EQ(qw.max_positions, 131072);
  // GPT-2: n_positions.
  EXPECT_EQ(load_hf_config(kData + "gpt2.config.json").max_positions, 1024);
  EXPECT_EQ(preset("llama-2-7b").max_positions, 4096);
  EXPECT_EQ(preset("llama-2-7b").sliding_window, 0);
  // Gemma-2 windows every other layer (HF Gemma2DecoderLayer: layer 0, 2, ...): of this
  // fixture's 2 layers, 1.
  const ModelConfig g2 = load_hf_config(kData + "gemma2-like-window.config.json");
  EXPECT_EQ(g2.sliding_window, 4096);
  EXPECT_EQ(g2.sliding_layers, 1);
  EXPECT_EQ(g2.global_layers(), 1);
  EXPECT_EQ(g2.activation, "gelu_pytorch_tanh");  // Gemma names it hidden_activation
  // Qwen2 with use_sliding_window true and max_window_layers 0 windows every layer.
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "qwen2.5-7b.config.json"));
  j["use_sliding_window"] = true;
  j["sliding_window"] = 4096;
  EXPECT_EQ(model_from_hf_json(j, "q.json").sliding_window, 0);  // max_window_layers 28
  j["max_window_layers"] = 0;
  EXPECT_EQ(model_from_hf_json(j, "q.json").sliding_window, 4096);
  EXPECT_EQ(model_from_hf_json(j, "q.json").sliding_layers, 28);
  // HF Qwen2Attention windows the layers from max_window_layers on: 20 of them here.
  j["max_window_layers"] = 8;
  EXPECT_EQ(model_from_hf_json(j, "q.json").sliding_layers, 20);
  j["sliding_window"] = -1;
  EXPECT_THROW(model_from_hf_json(j, "q.json"), InputError);
}

TEST(LlmConfig, ExplicitZeroExpertsIsDense) {
  // num_local_experts / num_experts / n_shared_experts / moe_intermediate_size of 0: no experts.
  const ModelConfig m = load_hf_config(kData + "moe-zero-experts.config.json");
  EXPECT_FALSE(m.moe());
  EXPECT_EQ(m.experts, 0);
  EXPECT_EQ(m.shared_intermediate, 0);
  EXPECT_EQ(m.intermediate, 1536);
  // d = 512, 8 heads of 64, 4 KV heads, gated MLP 1536, 4 layers, V = 32000, untied, and
  // Qwen3's q_norm and k_norm (64 each per layer):
  // 4·(512·512·2 + 2·512·256 + 3·512·1536 + 2·64) + (2·4 + 1)·512 + 2·32000·512.
  EXPECT_TRUE(m.qk_norm);
  EXPECT_DOUBLE_EQ(count_parameters(m).total,
                   4 * (512.0 * 512 * 2 + 2 * 512 * 256 + 3 * 512 * 1536 + 2 * 64) + 9 * 512 +
                       2 * 32000.0 * 512);
  // A negative count is still an error naming the field.
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "moe-zero-experts.config.json"));
  j["num_local_experts"] = -2;
  try {
    model_from_hf_json(j, "neg.json");
    ADD_FAILURE() << "num_local_experts -2 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("num_local_experts"), std::string::npos) << e.what();
  }
  // A Mixtral-style config with n_shared_experts 0 has routed experts and no shared one.
  nlohmann::json mx = nlohmann::json::parse(read_text_file(kData + "mixtral-8x7b.config.json"));
  mx["n_shared_experts"] = 0;
  const ModelConfig mm = model_from_hf_json(mx, "mx.json");
  EXPECT_TRUE(mm.moe());
  EXPECT_EQ(mm.shared_intermediate, 0);
  EXPECT_DOUBLE_EQ(count_parameters(mm).total, 46702792704.0);
}

TEST(LlmConfig, FalconBiasFalse) {
  // Falcon-7B: "bias": false (no biases anywhere), multi-query (1 KV head), 71 heads of 64,
  // plain 4d GELU MLP, tied head. Its published 6,921,720,704 parameters plus the second
  // LayerNorm per layer this model assumes (Falcon-7B's parallel block has one): 32·2·4544.
  const ModelConfig f = load_hf_config(kData + "falcon-7b.config.json");
  EXPECT_FALSE(f.attention_bias);
  EXPECT_FALSE(f.linear_bias);
  EXPECT_EQ(f.kv_heads, 1);
  EXPECT_EQ(f.head_dim, 64);
  EXPECT_EQ(f.intermediate, 4 * 4544);
  EXPECT_TRUE(f.tied_embeddings);
  EXPECT_DOUBLE_EQ(count_parameters(f).total, 6921720704.0 + 32 * 2 * 4544);
  // Without the switch a GPT-family config keeps its biases.
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "falcon-7b.config.json"));
  j.erase("bias");
  EXPECT_TRUE(model_from_hf_json(j, "f.json").linear_bias);
}

TEST(LlmConfig, BloomNEmbedIsTheHiddenSize) {
  // bloom-560m's sizes under BLOOM's field names: 559,214,592 published, less the 2·1024 of the
  // LayerNorm BLOOM applies to the embeddings (not part of this model).
  const ModelConfig b = load_hf_config(kData + "bloom-n-embed.config.json");
  EXPECT_EQ(b.hidden, 1024);
  EXPECT_EQ(b.heads, 16);
  EXPECT_EQ(b.layers, 24);
  EXPECT_EQ(b.intermediate, 4096);
  EXPECT_DOUBLE_EQ(count_parameters(b).total, 559214592.0 - 2 * 1024);
}

TEST(LlmConfig, MultimodalTieWordEmbeddingsFromTheTopLevel) {
  // The text model (llama: untied by default) nests under text_config; the top level says
  // tie_word_embeddings true.
  const ModelConfig m = load_hf_config(kData + "multimodal-nested.config.json");
  EXPECT_EQ(m.hidden, 512);
  EXPECT_EQ(m.model_type, "llama");
  EXPECT_TRUE(m.tied_embeddings);
  EXPECT_EQ(count_parameters(m).lm_head, 0);
  nlohmann::json j = nlohmann::json::parse(read_text_file(kData + "multimodal-nested.config.json"));
  j["tie_word_embeddings"] = false;
  EXPECT_FALSE(model_from_hf_json(j, "mm.json").tied_embeddings);
  j.erase("tie_word_embeddings");
  EXPECT_FALSE(model_from_hf_json(j, "mm.json").tied_embeddings);  // llama's default
  // The text model's own setting, when it has one, wins.
  j["tie_word_embeddings"] = false;
  j["text_config"]["tie_word_embeddings"] = true;
  EXPECT_TRUE(model_from_hf_json(j, "mm.json").tied_embeddings);
  j["text_config"].erase("tie_word_embeddings");
  j["tie_word_embeddings"] = "yes";
  EXPECT_THROW(model_from_hf_json(j, "mm.json"), InputError);
}

void expect_error(const std::string& file, const std::vector<std::string>& words) {
  try {
    load_hf_config(kData + file);
    ADD_FAILURE() << file << " was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    for (const auto& w : words) EXPECT_NE(msg.find(w), std::string::npos) << msg;
  }
}

TEST(LlmConfig, BadConfigsNameFileAndField) {
  expect_error("bad-missing-hidden.config.json", {"hidden_size", "missing"});
  expect_error("bad-heads.config.json", {"num_attention_heads", "divide", "30"});
  expect_error("bad-zero-layers.config.json", {"num_hidden_layers", "0"});
  expect_error("bad-kv-heads.config.json", {"num_key_value_heads", "6"});
  expect_error("bad-malformed.config.json", {"line"});
  expect_error("no-such.config.json", {});
}

TEST(LlmConfig, ResolveModelByNameOrPath) {
  EXPECT_EQ(resolve_model("Llama-2-7B").name, "llama-2-7b");
  EXPECT_EQ(resolve_model(kData + "gpt2.config.json").model_type, "gpt2");
  try {
    resolve_model("llama-9-1b");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("llama-2-7b"), std::string::npos);  // lists presets
  }
}

TEST(LlmConfig, DtypeDefaults) {
  const Dtypes d = make_dtypes("fp16");
  EXPECT_EQ(d.activations.name, "fp16");
  EXPECT_EQ(d.kv_cache.name, "fp16");
  EXPECT_EQ(d.compute.name, "fp16");
  // Weight-only quantisation computes in fp16: the compute roof is fp16's.
  const Dtypes q = make_dtypes("int4");
  EXPECT_EQ(q.weights.bytes, 0.5);
  EXPECT_EQ(q.activations.name, "fp16");
  EXPECT_EQ(q.compute.name, "fp16");
  const Dtypes b = make_dtypes("bf16", "", "fp8");
  EXPECT_EQ(b.activations.name, "bf16");
  EXPECT_EQ(b.kv_cache.name, "fp8-e4m3");
  EXPECT_EQ(b.compute.name, "bf16");
  // Activations take the weights' type only when it is a float of ≥ 2 bytes.
  EXPECT_EQ(make_dtypes("fp32").activations.name, "fp32");
  EXPECT_EQ(make_dtypes("fp8").activations.name, "fp16");
  EXPECT_EQ(make_dtypes("int8").activations.name, "fp16");
}

TEST(LlmConfig, IntLists) {
  EXPECT_EQ(parse_int_list("1..256", "--batch"),
            (std::vector<double>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
  EXPECT_EQ(parse_int_list("3..20", "--batch"), (std::vector<double>{3, 6, 12, 20}));
  EXPECT_EQ(parse_int_list("1,8,64", "--batch"), (std::vector<double>{1, 8, 64}));
  EXPECT_EQ(parse_int_list("2048", "--context"), (std::vector<double>{2048}));
  EXPECT_THROW(parse_int_list("0", "--batch"), InputError);
  EXPECT_THROW(parse_int_list("1.5", "--batch"), InputError);
  EXPECT_THROW(parse_int_list("8..2", "--batch"), InputError);
  EXPECT_THROW(parse_int_list("1,,2", "--batch"), InputError);
  EXPECT_THROW(parse_int_list("", "--batch"), InputError);
}

// Which layers are MoE, from the layout fields of DeepSeek (first_k_dense_replace,
// moe_layer_freq) and Qwen-MoE (decoder_sparse_step, mlp_only_layers): the reader's count
// equals one taken layer by layer, as HF DeepseekV3DecoderLayer and Qwen2MoeDecoderLayer decide
// it, over a grid of layouts on the real DeepSeek-V3 config.
TEST(LlmConfig, MoeLayerLayoutsCountLayerByLayer) {
  nlohmann::json ds = nlohmann::json::parse(read_text_file(kData + "deepseek-v3.config.json"));
  for (int first : {0, 1, 3, 7, 60, 61})
    for (int freq : {1, 2, 3, 5, 61, 100}) {
      ds["first_k_dense_replace"] = first;
      ds["moe_layer_freq"] = freq;
      int moe = 0;
      for (int i = 0; i < 61; ++i) moe += i >= first && i % freq == 0;
      EXPECT_EQ(model_from_hf_json(ds, "ds.json").moe_layers(), moe) << first << " " << freq;
    }
  nlohmann::json q =
      nlohmann::json::parse(read_text_file(kData + "qwen2.5-7b.config.json"));  // 28 layers
  q["model_type"] = "qwen2_moe";
  q["num_experts"] = 60;
  q["num_experts_per_tok"] = 4;
  q["moe_intermediate_size"] = 1408;
  for (int step : {1, 2, 3, 28, 40})
    for (const auto& only : {std::vector<int>{}, {0, 1, 5, 27}, {3, 3, 27}}) {
      q["decoder_sparse_step"] = step;
      q["mlp_only_layers"] = only;
      int moe = 0;
      for (int i = 0; i < 28; ++i)
        moe += (i + 1) % step == 0 && std::find(only.begin(), only.end(), i) == only.end();
      EXPECT_EQ(model_from_hf_json(q, "q.json").moe_layers(), moe) << step;
    }
}

// Counts past 1e9 are refused as they are read, by name: a layer count of 4.8e30 (a fuzzed
// Llama 4 config) once reached a conversion to a 64-bit integer before the model was checked.
TEST(LlmConfig, CountsPastOneBillionAreRefusedAsRead) {
  nlohmann::json j =
      nlohmann::json::parse(read_text_file(kData + "llama-4-scout-17b-16e.config.json"));
  j["text_config"]["num_hidden_layers"] = 4.77778e30;
  try {
    model_from_hf_json(j, "l4.json");
    ADD_FAILURE() << "a layer count of 4.8e30 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("num_hidden_layers: must be at most 1e9"),
              std::string::npos)
        << e.what();
  }
  nlohmann::json d = nlohmann::json::parse(read_text_file(kData + "deepseek-v3.config.json"));
  d["moe_layer_freq"] = 1e300;
  EXPECT_THROW(model_from_hf_json(d, "ds.json"), InputError);
  d["moe_layer_freq"] = 1e9;  // the largest step: layer 0 alone is MoE
  d["first_k_dense_replace"] = 0;
  EXPECT_EQ(model_from_hf_json(d, "ds.json").moe_layers(), 1);
}

// A layer listed twice in Llama 4's moe_layers is one MoE layer (it counted three for [1, 1, 1]).
TEST(LlmConfig, MoeLayersListedTwiceCountOnce) {
  nlohmann::json j =
      nlohmann::json::parse(read_text_file(kData + "llama-4-scout-17b-16e.config.json"));
  j["text_config"]["moe_layers"] = {1, 1, 1};
  const double thrice = model_from_hf_json(j, "l4.json").moe_layers();
  j["text_config"]["moe_layers"] = {1};
  EXPECT_EQ(thrice, 1);
  EXPECT_EQ(model_from_hf_json(j, "l4.json").moe_layers(), 1);
}

// Refused with the file and field named (msg: a part of the InputError's text).
void expect_refused(const nlohmann::json& j, const std::string& msg) {
  try {
    model_from_hf_json(j, "cfg.json");
    ADD_FAILURE() << "accepted; expected: " << msg;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(msg), std::string::npos) << e.what();
  }
}

// A size given in the file is a positive whole number: 0 is no size. moe_intermediate_size 0
// was read as "absent" and replaced by intermediate_size (DeepSeek-V3 became 5.9 T parameters:
// 58 MoE layers × 256 experts × 3 × 7168 × 18432); q_lora_rank 0 as null (a direct q_proj).
TEST(LlmConfig, AZeroSizeIsRefusedNotReadAsAbsent) {
  const nlohmann::json ds =
      nlohmann::json::parse(read_text_file(kData + "deepseek-v3.config.json"));
  nlohmann::json j = ds;
  j["moe_intermediate_size"] = 0;
  expect_refused(j, "cfg.json: moe_intermediate_size: must be a positive whole number (got 0)");
  j = ds;
  j["q_lora_rank"] = 0;
  expect_refused(j, "cfg.json: q_lora_rank: must be a positive whole number (got 0)");
  // null stays allowed: DeepSeek-V2-Lite's direct q_proj (d·H·(nope + rope) = 7168·128·192 per
  // layer in place of q_a_proj, its norm and q_b_proj).
  j = ds;
  j["q_lora_rank"] = nullptr;
  EXPECT_EQ(model_from_hf_json(j, "cfg.json").mla.q_lora_rank, 0);
  // Absent moe_intermediate_size: the experts are intermediate_size wide (Mixtral).
  nlohmann::json q = nlohmann::json::parse(read_text_file(kData + "qwen2.5-7b.config.json"));
  q["model_type"] = "qwen2_moe";
  q["num_experts"] = 60;
  q["num_experts_per_tok"] = 4;
  EXPECT_EQ(model_from_hf_json(q, "cfg.json").expert_intermediate, 18944);
  q["moe_intermediate_size"] = 0;
  expect_refused(q, "moe_intermediate_size: must be a positive whole number (got 0)");
}

// Qwen-MoE's mlp_only_layers names layers: one outside the model was accepted (and [0, 1, 100]
// of 24 layers counted as [0, 1]).
TEST(LlmConfig, LayerIndicesOutsideTheModelAreRefused) {
  nlohmann::json q = nlohmann::json::parse(read_text_file(kData + "qwen2.5-7b.config.json"));
  q["model_type"] = "qwen2_moe";  // 28 layers
  q["num_experts"] = 60;
  q["num_experts_per_tok"] = 4;
  q["moe_intermediate_size"] = 1408;
  q["mlp_only_layers"] = {0, 1, 100};
  expect_refused(q,
                 "cfg.json: mlp_only_layers: names a layer outside [0, num_hidden_layers = 28) "
                 "(got 100)");
  q["mlp_only_layers"] = {0, 28};
  expect_refused(q, "mlp_only_layers: names a layer outside [0, num_hidden_layers = 28) (got 28)");
  q["mlp_only_layers"] = {0, 27};
  EXPECT_EQ(model_from_hf_json(q, "cfg.json").moe_layers(), 26);
  nlohmann::json ds = nlohmann::json::parse(read_text_file(kData + "deepseek-v3.config.json"));
  // DeepSeek's first_k_dense_replace is no layer index: at or past the 61 layers every layer
  // is dense, as transformers reads it (i >= 61 and i >= 62 never hold).
  for (int first : {61, 62, 1000}) {
    ds["first_k_dense_replace"] = first;
    EXPECT_EQ(model_from_hf_json(ds, "cfg.json").moe_layers(), 0) << first;
  }
  ds["first_k_dense_replace"] = 3;
  EXPECT_EQ(model_from_hf_json(ds, "cfg.json").moe_layers(), 58);
}

// A key present with null is None, as transformers keeps it; only an absent key takes the config
// class's default. Gemma 3's "sliding_window": null was reported as taken from the class
// defaults and replaced by 4096.
TEST(LlmConfig, NullIsNoneNotTheClassDefault) {
  nlohmann::json g = nlohmann::json::parse(read_text_file(kData + "gemma-3-27b-it.config.json"));
  nlohmann::json& t = g["text_config"];
  t["sliding_window"] = nullptr;
  const ModelConfig none = model_from_hf_json(g, "g3.json");
  EXPECT_EQ(none.sliding_window, 0);
  EXPECT_EQ(none.sliding_layers, 0);
  for (const auto& d : none.defaulted)
    EXPECT_EQ(d.find("sliding_window ="), std::string::npos) << d;
  // Absent: the class default (Gemma3TextConfig: 4096), listed as such.
  t.erase("sliding_window");
  const ModelConfig dflt = model_from_hf_json(g, "g3.json");
  EXPECT_EQ(dflt.sliding_window, 4096);
  EXPECT_NE(std::find(dflt.defaulted.begin(), dflt.defaulted.end(), "sliding_window = 4096"),
            dflt.defaulted.end());
  // A required size given as null is named as null, not taken from the class.
  t["vocab_size"] = nullptr;
  expect_refused(g, "cfg.json: vocab_size: null (a required field of config.json)");
}

// A text_config that is no object is named ("hidden_size: missing" before).
TEST(LlmConfig, ATextConfigOfTheWrongTypeIsNamed) {
  expect_refused(nlohmann::json{{"model_type", "llava"}, {"text_config", 5}},
                 "cfg.json: text_config: must be an object (the text model's config) (got 5)");
}

// llava-hf/llava-1.5-7b-hf's text_config names no size: transformers fills them from
// LlamaConfig's defaults (hidden 4096, 32 layers and heads, MLP 11008), and so does the reader.
// It was refused "hidden_size: missing" though docs/llm.md names Llava as read.
TEST(LlmConfig, LlavaTakesLlamaConfigDefaultsForWhatItsTextConfigLeavesOut) {
  const ModelConfig m = load_hf_config(kData + "llava-1.5-7b-hf.config.json");
  EXPECT_EQ(m.model_type, "llama");
  EXPECT_EQ(m.name, "lmsys/vicuna-7b-v1.5");
  EXPECT_EQ(m.hidden, 4096);
  EXPECT_EQ(m.layers, 32);
  EXPECT_EQ(m.heads, 32);
  EXPECT_EQ(m.kv_heads, 32);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.intermediate, 11008);
  EXPECT_EQ(m.mlp, Mlp::gated);
  EXPECT_EQ(m.vocab, 32064);         // the file's, not the class's 32000
  EXPECT_EQ(m.max_positions, 4096);  // the file's, not the class's 2048
  EXPECT_FALSE(m.tied_embeddings);
  // Llama-2-7B's 6,738,415,616 with 64 more vocabulary rows in the embedding and the LM head.
  EXPECT_DOUBLE_EQ(count_parameters(m).total, 6738415616.0 + 2 * 64 * 4096);
  const std::vector<std::string> filled = {"hidden_size = 4096", "num_attention_heads = 32",
                                           "num_hidden_layers = 32", "intermediate_size = 11008",
                                           "hidden_act = \"silu\""};
  EXPECT_EQ(m.defaulted, filled);
  // The text report says which fields came from the class, as Gemma 3's does.
  const Report rep = analyse(m, Scenario{}, Phase::decode, a100());
  EXPECT_NE(render_text(rep).find("config: not in the file, taken from the config class's "
                                  "defaults: hidden_size = 4096, num_attention_heads = 32"),
            std::string::npos);
}

// A top-level config gets no class defaults (transformers writes every size there), and a
// text_config of a class whose defaults the reader does not know names text_config and what
// to add.
TEST(LlmConfig, ATextConfigMissingASizeOfAnUnknownClassSaysWhatToAdd) {
  nlohmann::json top = {{"model_type", "llama"}, {"vocab_size", 32000}};
  expect_refused(top, "cfg.json: hidden_size: missing (a required field of config.json)");
  nlohmann::json nested = {{"model_type", "llava"},
                           {"text_config", {{"model_type", "mistral"}, {"vocab_size", 32000}}}};
  expect_refused(nested,
                 "cfg.json: text_config.hidden_size: missing; transformers fills it from the "
                 "text model's config class, whose defaults the reader does not know for "
                 "model_type 'mistral': add \"hidden_size\" to text_config (the language "
                 "model's own config.json gives it)");
  nested["text_config"].erase("model_type");
  expect_refused(nested, "whose defaults the reader does not know for no model_type: add");
}

// A Hugging Face repo id is no file: the message says that nothing is downloaded and how to get
// the config.json (it said "no such file").
TEST(LlmConfig, AHubRepoIdSaysHowToGetItsConfig) {
  for (const std::string id : {"meta-llama/Meta-Llama-3-8B", "Qwen/Qwen2.5-7B-Instruct"}) {
    try {
      (void)resolve_model(id, "--model");
      ADD_FAILURE() << id;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                "--model: no file or folder " + id +
                    "; it reads as a Hugging Face repo id (OWNER/NAME): roofline reads a "
                    "downloaded config.json and downloads nothing; fetch it with "
                    "`huggingface-cli download " +
                    id + " config.json --local-dir DIR`, then give DIR or DIR/config.json");
    }
  }
  // A path that is plainly a file's keeps the file's message.
  for (const std::string path : {"./none/x", "none/config.json", "a/b/c"}) {
    try {
      (void)resolve_model(path, "--model");
      ADD_FAILURE() << path;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find("repo id"), std::string::npos) << e.what();
    }
  }
}

// GPT-2's positions are a learned table of 1024 rows: at context 2048 it cannot run at all (no
// embedding for position 1024 on), where a rotary model runs untrained. It was told "the cost
// is modelled, the quality is not" as a rotary model is.
TEST(LlmConfig, PastALearnedPositionTableTheModelCannotRun) {
  const ModelConfig g = load_hf_config(kData + "gpt2.config.json");
  ASSERT_EQ(g.positions, 1024);
  Scenario s;
  s.context = s.prompt = 2048;
  const auto w = scenario_warnings(g, s);
  ASSERT_EQ(w.size(), 1u) << ::testing::PrintToString(w);
  EXPECT_EQ(w[0],
            "context 2048 exceeds gpt2.config's max_position_embeddings 1024: its positions are "
            "a learned table, and a token past the table has no embedding: the model "
            "cannot run at this context (the cost is of a model that could)");
  s.context = s.prompt = 8192;
  const auto rotary = scenario_warnings(preset("llama-2-7b"), s);
  ASSERT_EQ(rotary.size(), 1u);
  EXPECT_EQ(rotary[0],
            "context 8192 exceeds llama-2-7b's max_position_embeddings 4096: the "
            "model was not trained for it; the cost is modelled, the quality is not");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
