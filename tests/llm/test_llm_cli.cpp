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
  // --cdtype int8 on a100's int8 tensor roof (624 TOP/s): W, π, I and the ridge in OP (it printed
  // "π = 624 TFLOP/s (int8 tensor)", "14.3 GFLOP" and "I (FLOP/byte)"), in every form.
  const std::vector<std::string> args{"llm", "-m", "llama-2-7b", "--hw", kA100, "--cdtype", "int8"};
  const auto r = run_cli(args, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"π = 624 TOP/s (int8 tensor)", "ridge I* = π/β = 306 OP/byte",
                        "I (OP/byte)", "14.3 GOP", "27.64 TOP"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  // Only the element-wise operators, on the fp16 vector roof, count FLOP (norms, adds and
  // activations run in the activations' fp16, not in int8).
  EXPECT_NE(r.out.find("π_v = 78 TFLOP/s (fp16 vector)"), std::string::npos) << r.out;
  std::size_t from = 0;
  while ((from = r.out.find("FLOP", from)) != std::string::npos) {
    const std::size_t start = r.out.rfind('\n', from) + 1, end = r.out.find('\n', from);
    const std::string line = r.out.substr(start, end - start);
    EXPECT_TRUE(line.find("fp16 vector") != std::string::npos) << line;
    from = end;
  }
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
  EXPECT_EQ(with({"--csv"}).rfind("phase,operator,kind,count,work_op,", 0), 0u);
  const std::string sweep = with({"-b", "1,8"});
  EXPECT_NE(sweep.find("ridge I* = 306 OP/byte"), std::string::npos) << sweep;
  EXPECT_NE(with({"--train"}).find("6·N·D = 162.4 TOP"), std::string::npos);
  EXPECT_NE(with({"--measured-tokens-per-s", "100"}).find("MFU = 14.3 GOP/token"),
            std::string::npos);
  // The default compute dtype (fp16) stays in FLOP.
  const auto f = nlohmann::json::parse(
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "--cdtype", "fp16", "--json"}).out);
  EXPECT_EQ(f["units"]["work"], "FLOP");
}

TEST(LlmCli, JsonReportCarriesTheNumbers) {
  const auto r = run_cli({"llm", "-m", "llama-3-8b", "--hw", kA100, "-b", "4", "-L", "1024",
                          "--kvdtype", "fp8", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "roofline.llm");
  EXPECT_DOUBLE_EQ(j["kv_bytes_per_token"].get<double>(), 65536.0);  // fp8 KV
  EXPECT_EQ(j["scenario"]["dtypes"]["kv_cache"], "fp8-e4m3");
  EXPECT_DOUBLE_EQ(j["tokens_per_s"].get<double>(), 4 / j["time_per_output_token"].get<double>());
  EXPECT_GT(j["decode"]["operators"].size(), 10u);
  EXPECT_EQ(j["summary"]["decode_attention"]["bound"], "memory");
  EXPECT_EQ(j["summary"]["prefill"]["bound"], "compute");
}

TEST(LlmCli, JsonOperatorsGivePerOccurrenceAndTotals) {
  const auto r = run_cli(
      {"llm", "-m", "llama-2-70b", "--hw", kA100, "--tp", "8", "-b", "4", "-L", "1024", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* phase : {"prefill", "decode"}) {
    const auto& st = j[phase];
    double time = 0, work = 0;
    for (const auto& op : st["operators"]) {
      const double n = op["count"].get<double>();
      SCOPED_TRACE(op["name"].get<std::string>());
      for (const char* f :
           {"work", "traffic", "weights", "activations", "kv_cache", "time", "time_no_overlap"})
        EXPECT_DOUBLE_EQ(op[std::string(f) + "_total"].get<double>(), op[f].get<double>() * n) << f;
      EXPECT_DOUBLE_EQ(op["share"].get<double>(),
                       op["time_total"].get<double>() / st["time"].get<double>());
      time += op["time_total"].get<double>();
      work += op["work_total"].get<double>();
    }
    // The totals add up to the step (per-occurrence figures would not: layers × 80).
    EXPECT_NEAR(time, st["time"].get<double>(), 1e-12 * time) << phase;
    EXPECT_NEAR(work, st["work"].get<double>(), 1e-12 * work) << phase;
  }
  // The CSV's work column (the fifth) is the total, for every operator in order.
  const auto csv = run_cli(
      {"llm", "-m", "llama-2-70b", "--hw", kA100, "--tp", "8", "-b", "4", "-L", "1024", "--csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = csv.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(csv.out.substr(at, nl - at));
  const auto& ops = j["decode"]["operators"];
  ASSERT_EQ(lines.size(), 1 + ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string& line = lines[i + 1];
    size_t field = 0;
    bool quoted = false;
    std::string work;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      if (ch == ',' && !quoted) {
        ++field;
        continue;
      }
      if (field == 4) work += ch;
    }
    EXPECT_NEAR(std::stod(work), ops[i]["work_total"].get<double>(),
                1e-8 * ops[i]["work_total"].get<double>() + 1e-9)
        << line;
  }
}

TEST(LlmCli, SummaryPointsSayTheyLeaveOutInterconnectOperators) {
  const auto tp = run_cli({"llm", "-m", "llama-2-70b", "--hw", kA100, "--tp", "8", "--json"});
  const auto j = nlohmann::json::parse(tp.out);
  double ic = 0;
  for (const auto& op : j["prefill"]["operators"])
    if (op["roof"] == "NVLink") ic += op["time_total"].get<double>();
  ASSERT_GT(ic, 0);
  // The prefill point's time is the step's less its interconnect operators.
  EXPECT_NEAR(j["summary"]["prefill"]["time"].get<double>(),
              j["prefill"]["time"].get<double>() - ic, 1e-9 * j["prefill"]["time"].get<double>());
  const auto text = run_cli({"llm", "-m", "llama-2-70b", "--hw", kA100, "--tp", "8"}, "NO_COLOR=1");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("memory-roof operators only"), std::string::npos) << text.out;
  const auto one = run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100}, "NO_COLOR=1");
  EXPECT_EQ(one.out.find("memory-roof operators only"), std::string::npos);
}

TEST(LlmCli, CsvOperatorsAndSweep) {
  const auto ops = run_cli(
      {"llm", "-m", "mistral-7b", "--hw", kA100, "--phase", "prefill", "--prompt", "512", "--csv"});
  ASSERT_EQ(ops.exit_code, 0) << ops.err;
  EXPECT_EQ(ops.out.rfind("phase,operator,", 0), 0u);
  EXPECT_NE(ops.out.find("prefill,\"attention (fused)\",attention (fused),"), std::string::npos)
      << ops.out;
  const auto sw = run_cli(
      {"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1..256", "-L", "512,1024,4096", "--csv"});
  ASSERT_EQ(sw.exit_code, 0) << sw.err;
  EXPECT_EQ(count_lines(sw.out), 1u + 9u * 3u);  // header + 9 batches × 3 contexts
  const auto js =
      run_cli({"llm", "-m", "llama-2-7b", "--hw", kA100, "-b", "1,8,64", "-L", "2048", "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  ASSERT_EQ(j["rows"].size(), 3u);
  // Batching moves decode right: I ≈ B for the linear layers (docs/llm.md).
  EXPECT_NEAR(j["rows"][1]["linear_intensity"].get<double>(), 8, 0.2);
  EXPECT_NEAR(j["rows"][2]["linear_intensity"].get<double>(), 64, 3);
}

TEST(LlmCli, OutputFileAndHfConfig) {
  TempDir dir;
  const auto r = run_cli({"llm", "-m", kData + "qwen2.5-7b.config.json", "--hw", kA100, "--json",
                          "-o", dir.file("out.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir.file("out.json")));
  EXPECT_DOUBLE_EQ(j["model"]["parameters"]["total"].get<double>(), 7615616512.0);
}

TEST(LlmCli, TensorParallelAndMeasured) {
  const auto r = run_cli({"llm", "-m", "llama-2-70b", "--hw", kA100, "--tp", "8", "-b", "16",
                          "--measured-tokens-per-s", "500"},
                         "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("attention all-reduce"), std::string::npos);
  EXPECT_NE(r.out.find("sent + received"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MFU"), std::string::npos);
  const auto bare =
      run_cli({"llm", "-m", "llama-2-70b", "--hw", kData + "no-interconnect.json", "--tp", "8"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("--interconnect-bandwidth"), std::string::npos) << bare.err;
  const auto given = run_cli({"llm", "-m", "llama-2-70b", "--hw", kData + "no-interconnect.json",
                              "--tp", "8", "--interconnect-bandwidth", "300 GB/s"});
  EXPECT_EQ(given.exit_code, 0) << given.err;
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
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "0"}, {"--measured-tokens-per-s", "'0'"}},
      {{"-m", "llama-2-7b", "--measured-tokens-per-s", "-40"},
       {"--measured-tokens-per-s", "'-40'", "> 0"}},
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
