// `roofline llm` as a user runs it: outputs, formats, and bad input → exit 2 with a clear message.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/llm/";
const std::string kA100 = kData + "a100-80gb.json";

size_t count_lines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(LlmCli, TextReport) {
  const auto r =
      run_cli({"llm", "--model", "llama-2-7b", "--hw", kA100, "--batch", "1", "--context", "2048"},
              "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s :
       {"q_proj", "lm_head", "attention (fused)", "Summary points", "decode linear layers",
        "decode attention", "TTFT", "time per output token", "tokens/s", "Critical batch", "fits",
        "524.3 kB per token", "153 FLOP/byte", "prompt 2048, fused attention"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  EXPECT_EQ(r.out.find("FLOPS"), std::string::npos);
  EXPECT_EQ(r.out.find("softmax"), std::string::npos);
  // Fused attention is the default; the unfused kernels are asked for, and --flash names the
  // default.
  const auto unfused = run_cli(
      {"llm", "--model", "llama-2-7b", "--hw", kA100, "--attention", "unfused"}, "NO_COLOR=1");
  ASSERT_EQ(unfused.exit_code, 0) << unfused.err;
  for (const char* s :
       {"q·kᵀ", "softmax", "attention·v", "unfused attention (scores through memory)"})
    EXPECT_NE(unfused.out.find(s), std::string::npos) << s << "\n" << unfused.out;
  const auto flash =
      run_cli({"llm", "--model", "llama-2-7b", "--hw", kA100, "--flash", "--attention", "fused"},
              "NO_COLOR=1");
  EXPECT_EQ(flash.exit_code, 0) << flash.err;
  EXPECT_EQ(flash.out, r.out);  // the default, named
  // --flash=false had read as the default, fused, where it used to mean unfused.
  const auto off = run_cli({"llm", "--model", "llama-2-7b", "--hw", kA100, "--flash=false"});
  EXPECT_EQ(off.exit_code, 2) << off.out;
  EXPECT_NE(off.err.find("flash was given a disallowed flag override"), std::string::npos)
      << off.err;
  const auto both =
      run_cli({"llm", "--model", "llama-2-7b", "--hw", kA100, "--flash", "--attention", "unfused"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--flash (fused attention) and --attention unfused"), std::string::npos)
      << both.err;
  const auto bad = run_cli({"llm", "--model", "llama-2-7b", "--hw", kA100, "--attention", "flash"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--attention: expected fused or unfused (got 'flash')"), std::string::npos)
      << bad.err;
}

// The operator table's total row says where most of the step's time goes, as the sweep's bound
// column: at batch 200 on the A100 the step's I (144.6) is below the ridge (153) but its
// linear layers are compute-bound and take most of the time.
TEST(LlmCli, AModelNamedAsAPresetAndFoundHereIsRefused) {
  // A folder holding a config.json, or a file, named as a preset: which was meant cannot be
  // told, as --hw refuses a machine file named as a catalogue entry.
  TempDir dir;
  std::filesystem::create_directory(dir.file("llama-3-8b"));
  std::filesystem::copy_file(kData + "mistral-7b-v0.1.config.json",
                             dir.file("llama-3-8b/config.json"));
  std::filesystem::copy_file(kData + "gpt2.config.json", dir.file("Llama-2-7B"));
  std::filesystem::create_directory(dir.file("mistral-7b"));  // no config.json: no model
  const std::string here = "cd " + dir.path.string() + " &&";
  auto r = run_cli({"llm", "--model", "llama-3-8b", "--hw", kA100}, here);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--model: 'llama-3-8b' is both a folder here and the preset llama-3-8b: "
                       "write ./llama-3-8b for the folder, or run elsewhere for the preset"),
            std::string::npos)
      << r.err;
  r = run_cli({"llm", "--model", "Llama-2-7B", "--hw", kA100}, here);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--model: 'Llama-2-7B' is both a file here and the preset llama-2-7b"),
            std::string::npos)
      << r.err;
  r = run_cli({"llm", "--model", "./llama-3-8b", "--hw", kA100, "--json"}, here);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["model"]["model_type"], "mistral") << r.out.substr(0, 400);
  r = run_cli({"llm", "--model", "mistral-7b", "--hw", kA100}, here);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(LlmCli, APeakOfTheOtherWorkNamesTheFlagLlmHas) {
  // llm sets the roof's precision with --cdtype (it has no --precision), kernel with --dtype.
  auto r = run_cli({"llm", "--model", "llama-2-7b", "--peak", "312 TOPS", "--bandwidth", "2 TB/s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--peak '312 TOPS' is OP/s, but the roof of no --cdtype counts FLOP/s: "
                       "give the peak in FLOP/s (TFLOPS), or --cdtype int8 for integer work"),
            std::string::npos)
      << r.err;
  r = run_cli({"kernel", "softmax", "--rows", "1e4", "--cols", "1e4", "--peak", "312 TOPS",
               "--bandwidth", "2 TB/s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("but the roof of --dtype fp32 counts FLOP/s: give the peak in FLOP/s "
                       "(TFLOPS), or --dtype int8 for integer work"),
            std::string::npos)
      << r.err;
}

TEST(LlmCli, TheTotalRowsBoundIsTheSweeps) {
  const std::vector<std::string> base{"llm", "--model",     "llama-3-8b", "--hw",
                                      kA100, "--batch",     "200",        "--context",
                                      "128", "--attention", "unfused"};
  auto r = run_cli(base, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t total = r.out.find("\ntotal ");
  ASSERT_NE(total, std::string::npos) << r.out;
  const std::string row = r.out.substr(total + 1, r.out.find('\n', total + 1) - total - 1);
  EXPECT_NE(row.find(" 144.6 "), std::string::npos) << row;
  EXPECT_NE(row.find(" compute "), std::string::npos) << row;
  auto sweep = base;
  sweep[6] = "200,201";
  r = run_cli(sweep, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t line = r.out.find("\n  200 ");
  ASSERT_NE(line, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(line, r.out.find('\n', line + 1) - line).find(" compute "),
            std::string::npos)
      << r.out;
}

TEST(LlmCli, AnIntegerComputeRoofCountsOp) {
  // --cdtype int8 on a100's int8 tensor roof (624 TOP/s): the products' W, π, I and the ridge in
  // OP (it printed "π = 624 TFLOP/s (int8 tensor)", "14.3 GFLOP" and "I (FLOP/byte)"), in every
  // form.
  const std::vector<std::string> args{"llm", "-m", "llama-2-7b", "--hw", kA100, "--cdtype", "int8"};
  const auto r = run_cli(args, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"π = 624 TOP/s (int8 tensor)", "ridge I* = π/β = 306 OP/byte"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  // Only the element-wise operators, on the fp16 vector roof, count FLOP (norms, adds and
  // activations run in the activations' fp16, not in int8).
  EXPECT_NE(r.out.find("π_v = 78 TFLOP/s (fp16 vector)"), std::string::npos) << r.out;
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = args;
    a.insert(a.end(), extra.begin(), extra.end());
    const auto out = run_cli(a);
    EXPECT_EQ(out.exit_code, 0) << out.err;
    return out.out;
  };
  const auto j = nlohmann::json::parse(with({"--json"}));
  EXPECT_EQ(j["units"]["work"], "OP");
  EXPECT_EQ(j["units"]["performance"], "OP/s");
  EXPECT_EQ(j["units"]["intensity"], "OP/byte");
  EXPECT_NE(with({"-b", "1,8"}).find("ridge I* = 306 OP/byte"), std::string::npos);
  EXPECT_NE(with({"--train"}).find("6·N·D = 162.4 TOP"), std::string::npos);
  // The default compute dtype (fp16) stays in FLOP.
  const auto f = nlohmann::json::parse(
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--cdtype", "fp16", "--json"}).out);
  EXPECT_EQ(f["units"]["work"], "FLOP");
}

// With --cdtype int8 the products count OP on the int8 tensor roof and the element-wise work
// FLOP on the fp16 vector roof: every W and I says which, and totals give the two side by side.
// They were added and called OP: the decode total "14.3 GOP" was 14.29 GOP of products and 13.57
// MFLOP of norms, adds, SiLU·mul and fused attention's softmax; the table's header read
// "I (OP/byte)" over the norms' FLOP/byte. Llama-2-7B decode, batch 1, context 2048, per layer:
// q_proj 2·4096² = 33.55 MOP over 33.57 MB (I = 0.9995 OP/byte), RMSNorm 4 FLOP × 4096 over
// 24.58 kB (0.6667 FLOP/byte), fused attention's products 2 × 2·4096·2048 = 33.55 MOP and its
// softmax 5 × 32 heads × 2048 keys = 327.7 kFLOP.
TEST(LlmCli, IntegerProductsAndFloatElementWiseWorkAreNeverAdded) {
  const std::vector<std::string> args{"llm", "-m", "llama-2-7b", "--hw", kA100, "--cdtype", "int8"};
  const auto r = run_cli(args, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto row = [&](const std::string& name) {
    const std::size_t at = r.out.find("\n" + name + " ");
    EXPECT_NE(at, std::string::npos) << name << "\n" << r.out;
    return at == std::string::npos ? "" : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  };
  const auto has = [](const std::string& line, const std::string& part) {
    return line.find(part) != std::string::npos;
  };
  EXPECT_EQ(r.out.find("I (OP/byte)"), std::string::npos) << r.out;  // each row says its unit
  const std::string q = row("q_proj"), norm = row("attention norm"),
                    fused = row("attention (fused)"), total = row("total"),
                    embedding = row("embedding");
  EXPECT_TRUE(has(q, " 1.074 GOP ") && has(q, " 0.9995 OP/byte ")) << q;
  EXPECT_TRUE(has(norm, " 524.3 kFLOP ") && has(norm, " 0.6667 FLOP/byte ")) << norm;
  EXPECT_TRUE(has(fused, " 1.074 GOP + 10.49 MFLOP ") &&
              has(fused, " 0.9995 OP/byte + 0.009761 FLOP/byte "))
      << fused;
  EXPECT_TRUE(has(embedding, " 0 FLOP ") && has(embedding, " 0 FLOP/byte ")) << embedding;
  // 14.29 GOP of products; 13.57 MFLOP = norms 1.049 M + adds 262.1 k + SiLU·mul 1.761 M +
  // final norm 16.38 k + softmax 10.49 M.
  EXPECT_TRUE(has(total, " 14.29 GOP + 13.57 MFLOP ") &&
              has(total, " 0.9992 OP/byte + 0.0009493 FLOP/byte "))
      << total;
  EXPECT_TRUE(has(row("prefill"), " 27.63 TOP + 17.07 GFLOP ")) << row("prefill");
  EXPECT_TRUE(has(row("decode linear layers"), " 13.21 GOP ")) << row("decode linear layers");
  EXPECT_FALSE(has(row("decode linear layers"), "FLOP")) << row("decode linear layers");
  // The critical batch: each operator's I and I* in its unit; fused attention, a layer and the
  // step in OP-equivalents (its FLOP × π/π_v = 8): (33.55 M + 8 × 327.7 k) / 33.57 MB = 1.078.
  EXPECT_TRUE(has(r.out, "smallest B with I(B) ≥ I* = 306 OP/byte")) << r.out;
  const std::string crit = r.out.substr(r.out.find("Critical batch"));
  EXPECT_TRUE(has(crit, "0.6667 FLOP/byte     38.25 FLOP/byte  never")) << crit;
  EXPECT_TRUE(has(crit, "1.078 OP/byte equiv.  306 OP/byte equiv.  never")) << crit;
  EXPECT_TRUE(has(crit, "× π/π_v = 8)")) << crit;

  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = args;
    a.insert(a.end(), extra.begin(), extra.end());
    const auto out = run_cli(a);
    EXPECT_EQ(out.exit_code, 0) << out.err;
    return out.out;
  };
  // MFU is the products' OP on π: 14.29 GOP × 100/s ÷ 624 TOP/s = 0.229%.
  EXPECT_NE(with({"--measured-tokens-per-s", "100"})
                .find("MFU = 14.29 GOP/token (the products; the element-wise 13.57 MFLOP/token "
                      "are on π_v) × tokens/s ÷ π = 0.229%"),
            std::string::npos);
  // CSV: a column of OP and one of FLOP, each operator's parts in them.
  const std::string csv = with({"--csv"});
  EXPECT_EQ(csv.rfind("phase,operator,kind,count,work_op,work_flop,traffic_bytes,weight_bytes,"
                      "activation_bytes,kv_bytes,intensity_op_per_byte,intensity_flop_per_byte,",
                      0),
            0u)
      << csv;
  EXPECT_NE(csv.find("decode,\"attention norm\",norm,32,0,524288,786432,"), std::string::npos);
  EXPECT_NE(csv.find("decode,\"attention (fused)\",attention (fused),32,1.07374182e+09,10485760,"),
            std::string::npos)
      << csv;
  // JSON: work and intensity the products' OP, vector_work the FLOP in vector_units.
  const auto j = nlohmann::json::parse(with({"--json"}));
  EXPECT_EQ(j["vector_units"]["work"], "FLOP");
  EXPECT_DOUBLE_EQ(j["decode"]["work"].get<double>(), 14287896576);
  EXPECT_DOUBLE_EQ(j["decode"]["vector_work"].get<double>(), 13574144);
  for (const auto& op : j["decode"]["operators"]) {
    if (op["name"] == "attention (fused)") {
      EXPECT_DOUBLE_EQ(op["work_total"].get<double>(), 1073741824);  // 32 × 33.55 M
      EXPECT_DOUBLE_EQ(op["vector_work_total"].get<double>(), 10485760);
    }
    if (op["name"] == "attention norm") {
      EXPECT_DOUBLE_EQ(op["work"].get<double>(), 0);
      EXPECT_DOUBLE_EQ(op["vector_intensity"].get<double>(), 16384.0 / 24576);
    }
  }
  EXPECT_DOUBLE_EQ(j["summary"]["decode_attention"]["vector_work"].get<double>(), 10485760);
  EXPECT_EQ(j["critical_batch"][0]["intensity_unit"], "FLOP/byte");
  // A sweep: I in the products' OP, the FLOP in a column of their own.
  const std::string sweep = with({"-b", "1,8"});
  EXPECT_NE(sweep.find("ridge I* = 306 OP/byte; I counts the products' OP, the element-wise FLOP "
                       "left out"),
            std::string::npos)
      << sweep;
  const std::string sweep_csv = with({"-b", "1,8", "--csv"});
  EXPECT_NE(sweep_csv.find(",decode_work_op,decode_work_flop,"), std::string::npos) << sweep_csv;
  EXPECT_NE(sweep_csv.find(",1.42878966e+10,13574144,"), std::string::npos) << sweep_csv;
  // fp16 throughout: one unit, one figure, as before.
  const auto f = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--cdtype", "fp16"});
  EXPECT_NE(f.out.find("I (FLOP/byte)"), std::string::npos) << f.out;
  for (const char* op : {" OP/byte", "GOP", "equiv."})
    EXPECT_EQ(f.out.find(op), std::string::npos) << op;
  EXPECT_EQ(f.out.find("FLOP + "), std::string::npos) << f.out;
}

TEST(LlmCli, PeakAndBandwidthInsteadOfAMachine) {
  const auto r =
      run_cli({"llm", "-m", "llama-2-7b", "--peak", "312T", "--bandwidth", "2 TB/s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["machine"]["ridge"].get<double>(), 156);  // A100 FP16 tensor: 312 T / 2 TB/s
  EXPECT_EQ(j["units"]["work"], "FLOP");
  // The given peak is the compute type's: an integer type's counts OP, as `kernel --dtype int8
  // --peak` reads it (it was judged as FLOP/s).
  const auto i8 = run_cli({"llm", "-m", "llama-2-7b", "--peak", "312T", "--bandwidth", "2 TB/s",
                           "--cdtype", "int8", "--json"});
  ASSERT_EQ(i8.exit_code, 0) << i8.err;
  EXPECT_EQ(nlohmann::json::parse(i8.out)["units"]["work"], "OP");
}

TEST(LlmCli, ListPresets) {
  const auto r = run_cli({"llm", "--list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* n : {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b",
                        "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "gpt3-175b"})
    EXPECT_NE(r.out.find(n), std::string::npos) << n;
  // Flags are refused rather than ignored.
  const auto other = run_cli({"llm", "--list", "--hw", "no-such-machine", "--batch", "0"});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("--list lists the model presets and takes only --json and -o; not "
                           "--machine, --batch"),
            std::string::npos)
      << other.err;
  EXPECT_EQ(run_cli({"llm", "--list", "--json"}).exit_code, 0);
}

double point_work(const nlohmann::json& report, const std::string& name) {
  for (const auto& p : report["points"])
    if (p["name"] == name) return p["work"].get<double>();
  ADD_FAILURE() << "no point " << name;
  return 0;
}

TEST(LlmCli, ReportDrawsTheOperatorsOnTheRoofline) {
  TempDir dir;
  const std::vector<std::string> base{"llm", "-m", "llama-2-7b", "--hw", kA100,
                                      "-b",  "4",  "-L",         "1024"};
  // JSON report: every operator point carries the model's W (count × per occurrence), judged
  // against the fp16 roof the model used.
  auto args = base;
  args.insert(args.end(), {"--report", dir.file("r.json")});
  const auto r = run_cli(args, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Summary points"), std::string::npos);  // the text still goes to stdout
  const auto rep = nlohmann::json::parse(slurp(dir.file("r.json")));
  EXPECT_EQ(rep["schema"], "roofline.report");
  auto js = base;
  js.push_back("--json");
  const auto model = nlohmann::json::parse(run_cli(js).out);
  for (const auto& op : model["decode"]["operators"]) {
    if (op["work"].get<double>() <= 0) continue;
    const std::string name = "decode " + op["name"].get<std::string>();
    EXPECT_DOUBLE_EQ(point_work(rep, name), op["work"].get<double>() * op["count"].get<double>())
        << name;
  }
  EXPECT_DOUBLE_EQ(point_work(rep, "prefill"), model["summary"]["prefill"]["work"].get<double>());
  // Each operator is judged on its own roof: products on fp16 tensor, element-wise work on fp16
  // vector (the summary points on the compute roof).
  std::map<std::string, std::string> roof_of;
  for (const auto& op : model["decode"]["operators"])
    roof_of["decode " + op["name"].get<std::string>()] = op["compute_roof"];
  for (const auto& p : rep["points"]) {
    const std::string name = p["name"];
    EXPECT_EQ(p["diagnosis"]["compute_roof"],
              roof_of.contains(name) ? roof_of[name] : std::string("fp16 tensor"))
        << name;
  }
  EXPECT_EQ(roof_of["decode attention norm"], "fp16 vector");
  // SVG and HTML: the chart with the operator points.
  for (const char* file : {"r.svg", "r.html"}) {
    auto a = base;
    a.insert(a.end(), {"--report", dir.file(file)});
    const auto rr = run_cli(a);
    ASSERT_EQ(rr.exit_code, 0) << rr.err;
    const std::string text = slurp(dir.file(file));
    EXPECT_NE(text.find(std::string(file) == "r.svg" ? "<svg" : "<!DOCTYPE html"),
              std::string::npos)
        << file;
    for (const char* name : {"decode q_proj", "decode lm_head", "decode attention"})
      EXPECT_NE(text.find(std::string("data-name=\"") + name + "\""), std::string::npos)
          << file << ": " << name;
  }
}

TEST(LlmCli, SweepReportHasOneDecodePointPerBatchMovingRight) {
  TempDir dir;
  const auto r = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1,8,64", "-L",
                          "512,2048", "--report", dir.file("sweep.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rep = nlohmann::json::parse(slurp(dir.file("sweep.json")));
  ASSERT_EQ(rep["points"].size(), 6u);  // 3 batches × 2 contexts, in sweep order
  EXPECT_EQ(rep["points"][0]["name"], "decode B=1 L=512");
  EXPECT_EQ(rep["points"][5]["name"], "decode B=64 L=2048");
  for (size_t c = 0; c < 2; ++c)
    for (size_t b = 1; b < 3; ++b)
      EXPECT_GT(rep["points"][c * 3 + b]["intensity"].get<double>(),
                rep["points"][c * 3 + b - 1]["intensity"].get<double>());
  // The point is the decode step's memory-roof operators: its W is the sweep row's decode work.
  const auto js = run_cli(
      {"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1,8,64", "-L", "512,2048", "--json"});
  const auto sw = nlohmann::json::parse(js.out);
  for (size_t i = 0; i < 6; ++i)
    EXPECT_DOUBLE_EQ(rep["points"][i]["work"].get<double>(),
                     sw["rows"][i]["decode_work"].get<double>());
  const auto svg = run_cli(
      {"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1..64", "--report", dir.file("sweep.svg")});
  ASSERT_EQ(svg.exit_code, 0) << svg.err;
  EXPECT_NE(slurp(dir.file("sweep.svg")).find("data-name=\"decode B=64 L=2048\""),
            std::string::npos);
}

TEST(LlmCli, ReportAndOutputPathsAreCheckedFirst) {
  TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string file;
    std::vector<std::string> words;
  };
  const std::vector<Case> cases = {
      {{"--report", dir.file("r.txt")}, dir.file("r.txt"), {"--report", "'.txt'", ".html"}},
      {{"--report", dir.file("none/r.svg")}, dir.file("none/r.svg"), {"--report", "folder"}},
      {{"-o", dir.file("out.svg")}, dir.file("out.svg"), {"-o", "--report"}},
      {{"-o", dir.file("out.html")}, dir.file("out.html"), {"-o", "--report"}},
      {{"-o", dir.file("none/out.txt")}, dir.file("none/out.txt"), {"-o", "folder"}},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"llm", "-m", "llama-2-7b", "--hw", kA100};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args[1] << ": computed before the path was checked";
    EXPECT_FALSE(std::filesystem::exists(c.file)) << c.file;
    for (const auto& w : c.words) EXPECT_NE(r.err.find(w), std::string::npos) << w << ": " << r.err;
  }
}

TEST(LlmCli, ScenarioChecksAndWarnings) {
  // Prompt longer than the context: refused.
  const auto longer =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-S", "4096", "-L", "2048"});
  EXPECT_EQ(longer.exit_code, 2);
  EXPECT_NE(longer.err.find("--prompt 4096 exceeds --context 2048"), std::string::npos)
      << longer.err;
  // Context beyond max_position_embeddings: costed, with a warning in the text...
  const auto text = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-L", "8192"}, "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(
      text.out.find("warning: context 8192 exceeds llama-2-7b's max_position_embeddings 4096"),
      std::string::npos)
      << text.out;
  // ... in the JSON and on stderr ...
  const auto js = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-L", "8192", "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_NE(js.err.find("warning: context 8192"), std::string::npos) << js.err;
  EXPECT_EQ(j["model"]["max_position_embeddings"], 4096);
  // ... and for the longest context of a sweep; none within the limit.
  const auto sw = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-L", "1024,8192", "--json"});
  ASSERT_EQ(sw.exit_code, 0) << sw.err;
  EXPECT_EQ(nlohmann::json::parse(sw.out)["warnings"].size(), 1u);
  EXPECT_NE(sw.err.find("warning: context 8192"), std::string::npos) << sw.err;
  const auto ok = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-L", "4096", "--json"});
  EXPECT_TRUE(nlohmann::json::parse(ok.out)["warnings"].empty());
  EXPECT_EQ(ok.err.find("warning"), std::string::npos) << ok.err;
  // Mistral's sliding window: stated, and a decode step at 8192 attends over 4096 keys.
  const auto mi = run_cli({"llm", "-m", "mistral-7b", "--hw", kA100, "-L", "8192"}, "NO_COLOR=1");
  ASSERT_EQ(mi.exit_code, 0) << mi.err;
  EXPECT_NE(mi.out.find("sliding window of 4096 tokens"), std::string::npos) << mi.out;
  EXPECT_NE(mi.out.find("attends over 4096 keys"), std::string::npos) << mi.out;
  const auto mj = run_cli({"llm", "-m", "mistral-7b", "--hw", kA100, "-L", "8192", "--json"});
  const auto mjj = nlohmann::json::parse(mj.out);
  EXPECT_EQ(mjj["scenario"]["attended_context"], 4096);
  EXPECT_EQ(mjj["model"]["sliding_window"], 4096);
  EXPECT_DOUBLE_EQ(mjj["memory"]["kv_cache"].get<double>(), 131072.0 * 4096);
  // A warning the step and the request both give goes to stderr once.
  const auto pp =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", "h100-sxm", "--pp", "3", "-N", "4", "--json"});
  ASSERT_EQ(pp.exit_code, 0) << pp.err;
  const auto first = pp.err.find("--pp 3 does not divide the 32 layers");
  ASSERT_NE(first, std::string::npos) << pp.err;
  EXPECT_EQ(pp.err.find("--pp 3 does not divide the 32 layers", first + 1), std::string::npos)
      << pp.err;
}

// A model that does not fit is costed as if it did, and the report says so (text and JSON).
TEST(LlmCli, AModelThatDoesNotFitIsSaid) {
  const auto js = run_cli({"llm", "-m", "llama-3-70b", "--hw", kData + "h100-sxm.json", "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  EXPECT_FALSE(j["memory"]["fits"].get<bool>());
  bool said = false;
  for (const auto& w : j["warnings"])
    said = said || w.get<std::string>().find("does not fit, and the times assume it did") !=
                       std::string::npos;
  EXPECT_TRUE(said) << j["warnings"].dump();
  const auto text =
      run_cli({"llm", "-m", "llama-3-70b", "--hw", kData + "h100-sxm.json"}, "NO_COLOR=1");
  EXPECT_NE(text.out.find("does not fit, and the times assume it did"), std::string::npos)
      << text.out;
  const auto fits = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--json"});
  EXPECT_TRUE(nlohmann::json::parse(fits.out)["warnings"].empty()) << fits.out;
}

// A sweep refuses what it would ignore (--phase, --dp) and states its layout.
TEST(LlmCli, ASweepRefusesPhaseAndDpAndStatesItsLayout) {
  const auto dp = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1,2", "--dp", "4"});
  EXPECT_EQ(dp.exit_code, 2);
  EXPECT_NE(dp.err.find("--dp"), std::string::npos) << dp.err;
  const auto ph =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1,2", "--phase", "prefill"});
  EXPECT_EQ(ph.exit_code, 2);
  EXPECT_NE(ph.err.find("--phase"), std::string::npos) << ph.err;
  const std::vector<std::string> layout{"--tp", "2", "--pp", "2", "--cp", "2"};
  std::vector<std::string> args{"llm", "-m", "llama-2-7b", "--hw", "h100-sxm", "-b", "1,2"};
  args.insert(args.end(), layout.begin(), layout.end());
  const auto text = run_cli(args, "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("sweep, tensor parallel 2, context parallel 2, pipeline 2 stages, "
                          "fused attention"),
            std::string::npos)
      << text.out;
  args.push_back("--json");
  const auto js = run_cli(args);
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  EXPECT_EQ(j["tp"], 2);
  EXPECT_EQ(j["cp"], 2);
  EXPECT_EQ(j["pp"], 2);
  EXPECT_EQ(j["ep"], false);
}

TEST(LlmCli, BadInputExitsTwoNamingTheProblem) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> words;
  };
  const std::vector<Case> cases = {
      {{"-m", kData + "bad-missing-hidden.config.json"},
       {"bad-missing-hidden.config.json", "hidden_size"}},
      {{"-m", kData + "bad-heads.config.json"}, {"bad-heads.config.json", "num_attention_heads"}},
      {{"-m", kData + "bad-zero-layers.config.json"},
       {"bad-zero-layers.config.json", "num_hidden_layers"}},
      {{"-m", kData + "bad-malformed.config.json"}, {"bad-malformed.config.json", "line"}},
      {{"-m", "llama-7"}, {"unknown model", "llama-2-7b"}},
      {{"-m", "llama-2-7b", "-b", "0"}, {"--batch"}},
      {{"-m", "llama-2-7b", "--phase", "train"}, {"--phase"}},
      {{"-m", "llama-2-7b", "--cdtype", "fp8"}, {"fp8", "--cdtype"}},
      {{"-m", "llama-2-7b", "--wdtype", "fp7"}, {"fp7"}},
      {{"-m", "llama-2-7b", "--tp", "3"}, {"--tp", "num_attention_heads"}},
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "0"},
       {"--measured-tokens-per-s", "(got 0)"}},
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "-40"},
       {"--measured-tokens-per-s", "(got -40)", "> 0"}},
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "fast"}, {"(got 'fast')"}},
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "fast"}, {"--measured-tokens-per-s"}},
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "inf"}, {"--measured-tokens-per-s"}},
      {{"-m", "llama-2-7b", "-b", "1,8", "--measured-tokens-per-s", "100"},
       {"--measured-tokens-per-s", "one --batch"}},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"llm", "--hw", kA100};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << ": " << r.err;
    for (const auto& w : c.words) EXPECT_NE(r.err.find(w), std::string::npos) << w << ": " << r.err;
  }
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
