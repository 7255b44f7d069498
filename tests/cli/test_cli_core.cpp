#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::TempDir;
using roofline::test::write_text;

TEST(CliKernel, SaxpyPrintsTheSeedsIntensity) {
  auto r = run_cli({"kernel", "saxpy", "--n", "1e6", "--dtype", "fp32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["work"].get<double>(), 2e6);
  EXPECT_DOUBLE_EQ(j["traffic"].get<double>(), 12e6);
  EXPECT_DOUBLE_EQ(j["intensity"].get<double>(), 1.0 / 6);
  EXPECT_EQ(j["blas_level"], 1);
  r = run_cli({"kernel", "daxpy", "--n", "1e6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("I = W/Q = 0.08333 FLOP/byte"), std::string::npos) << r.out;
}

TEST(CliKernel, GemmWithAMachinePredictsBoundAndTime) {
  auto r = run_cli({"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--peak",
                    "19.5T", "--bandwidth", "2 TB/s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_NEAR(j["intensity"].get<double>(), 170.67, 0.005);
  EXPECT_EQ(j["machine"]["bound"], "compute");
  EXPECT_DOUBLE_EQ(j["machine"]["ridge"].get<double>(), 9.75);
  EXPECT_DOUBLE_EQ(j["machine"]["attainable"].get<double>(), 19.5e12);
  EXPECT_DOUBLE_EQ(j["machine"]["time_bound"].get<double>(), 2.0 * 1024 * 1024 * 1024 / 19.5e12);
  r = run_cli({"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--peak", "19.5T",
               "--bandwidth", "2 TB/s"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("ridge I* = 9.75 FLOP/byte"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute-bound"), std::string::npos) << r.out;
}

// A kernel that is no matrix product is judged on its dtype's vector roof, never on a matrix
// engine's: fp16 add-double-loop on a100-80gb read tensor's 312 TFLOP/s and a 64.1 us bound,
// where the vector units' 78 TFLOP/s give W/π = 2e10/78e12 = 256.4 us.
TEST(CliKernel, OnlyAMatrixProductIsJudgedOnAMatrixEngine) {
  auto r = run_cli({"kernel", "add-double-loop", "--n", "1e5", "--hw", "a100-80gb", "--dtype",
                    "fp16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out)["machine"];
  EXPECT_EQ(j["compute_roof"], "fp16 vector");
  EXPECT_DOUBLE_EQ(j["time_bound"].get<double>(), 2e10 / 78e12);
  EXPECT_FALSE(j.contains("note")) << j.dump();
  r = run_cli({"kernel", "stencil3d", "--nx", "512", "--ny", "512", "--nz", "512", "--hw",
               "h100-sxm", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(r.out)["machine"];
  EXPECT_EQ(j["compute_roof"], "fp64 vector");
  EXPECT_DOUBLE_EQ(j["ridge"].get<double>(), 33.5e12 / 3.35e12);
  // gemm runs on the tensor cores.
  r = run_cli({"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--hw", "a100-80gb",
               "--dtype", "fp16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["machine"]["compute_roof"], "fp16 tensor");
  // No vector roof of the type (fp8 on h100-sxm): its tensor roof, and a note says so.
  r = run_cli({"kernel", "axpy", "--n", "1e6", "--hw", "h100-sxm", "--dtype", "fp8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("note: judged on 'fp8 tensor', the only fp8 roof: axpy is no matrix "
                       "product, which that unit runs, so the bound is optimistic"),
            std::string::npos)
      << r.out;
  // A named roof is the one used.
  r = run_cli({"kernel", "axpy", "--n", "1e6", "--hw", "a100-80gb", "--dtype", "fp16",
               "--precision", "fp16 tensor", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["machine"]["compute_roof"], "fp16 tensor");
}

// rtx-5090 lists fp16 tensor with fp16 accumulation only (twice its fp32-accumulate rate): a
// point or a kernel judged there says so.
TEST(CliKernel, ANarrowAccumulateRoofIsSaid) {
  auto r = run_cli({"point", "-W", "1e12", "-Q", "1e9", "-T", "0.01", "--hw", "rtx-5090",
                    "--precision", "fp16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Judged on 'fp16 tensor fp16-accumulate' of rtx-5090, which accumulates "
                       "narrower than fp32"),
            std::string::npos)
      << r.out;
  r = run_cli({"kernel", "gemm", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "fp16",
               "--hw", "rtx-5090"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("note: judged on 'fp16 tensor fp16-accumulate', the only fp16 matrix "
                       "roof, which accumulates narrower than fp32"),
            std::string::npos)
      << r.out;
  // A full-precision roof says nothing of it.
  r = run_cli({"point", "-W", "1e12", "-Q", "1e9", "-T", "0.01", "--hw", "rtx-4090", "--precision",
               "fp16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("narrower"), std::string::npos) << r.out;
}

// I = I* (axpy: 1/6 FLOP/byte on 1 TFLOP/s and 6 TB/s) is neither side: both roofs bind.
TEST(CliKernel, AKernelAtTheRidgeIsBoundByBoth) {
  auto r = run_cli({"kernel", "axpy", "--n", "1e6", "--peak", "1T", "--bandwidth", "6T"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("at the ridge (W/π = Q/β: both roofs bind)"), std::string::npos) << r.out;
  r = run_cli({"kernel", "axpy", "--n", "1e6", "--peak", "1T", "--bandwidth", "6T", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["machine"]["bound"], "both");
  // A point there says so, whichever side rounding puts it (0.3/0.1 = 2.9999999999999996), and
  // its headroom is 0 decades, not the -4.8e-17 of rounding.
  r = run_cli(
      {"point", "-W", "0.3", "-Q", "0.1", "-T", "1e-13", "--peak", "3T", "--bandwidth", "1T"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("At the ridge (I = I* = 3 FLOP/byte): W/π = Q/β, both roofs bind"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("headroom 1x, 0 decades"), std::string::npos) << r.out;
}

TEST(CliKernel, BadInputsGiveClearErrors) {
  auto r = run_cli({"kernel", "fft", "--n", "10"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown kernel 'fft'"), std::string::npos) << r.err;
  r = run_cli({"kernel", "axpy", "--n", "1e6", "--dtype", "fp7"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown data type 'fp7'"), std::string::npos) << r.err;
  r = run_cli({"kernel", "axpy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--n is required"), std::string::npos) << r.err;
  r = run_cli({"kernel", "axpy", "--n", "-4"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_cli({"kernel", "axpy", "--n", "1e6", "--m", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("takes no --m"), std::string::npos) << r.err;
}

// A bare number is in base units: "--peak 312" is 312 FLOP/s, surely 312 TFLOP/s meant; it ran
// with exit 0 and "time per output token = 45.84 Ms" without a word.
TEST(CliPoint, ATinyBarePeakOrBandwidthIsSaid) {
  auto r = run_cli(
      {"point", "-W", "1e9", "-Q", "1e9", "-T", "1", "--peak", "312", "--bandwidth", "2e12"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --peak 312 is 312 FLOP/s (a bare number is in FLOP/s): for 312 "
                       "TFLOP/s give 312T"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("--bandwidth"), std::string::npos) << r.err;
  // An integer roof's peak is in OP/s.
  r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "1", "--peak", "624", "--bandwidth", "2e12",
               "--precision", "int8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("--peak 624 is 624 OP/s (a bare number is in OP/s)"), std::string::npos)
      << r.err;
  r = run_cli({"llm", "-m", "llama-2-7b", "--peak", "312T", "--bandwidth", "2039"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --bandwidth 2039 is 2039 B/s"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--peak"), std::string::npos) << r.err;
  // With a unit or prefix it is what was asked for.
  r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "1", "--peak", "312 FLOP/s", "--bandwidth",
               "2 kB/s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(CliPoint, DiagnosesAndPrintsJson) {
  auto r = run_cli({"point", "--work", "1e9", "--traffic", "1e10", "--time", "1", "--peak",
                    "19.5e12", "--bandwidth", "2e12", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["intensity"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(j["performance"].get<double>(), 1e9);
  EXPECT_DOUBLE_EQ(j["diagnosis"]["attainable"].get<double>(), 2e11);
  EXPECT_DOUBLE_EQ(j["diagnosis"]["attainment"].get<double>(), 0.005);
  EXPECT_EQ(j["diagnosis"]["verdict"], "far-below");
  EXPECT_EQ(j["units"]["intensity"], "FLOP/byte");
}

TEST(CliPoint, APointOnAnIntegerRoofIsReadInOp) {
  // On a100-80gb's int8 tensor roof (624 TOP/s): W, P, I, the roof and the attainable in OP
  // units (the text said "int8 tensor = 624 TFLOP/s", the JSON "FLOP/s").
  const auto r = run_cli({"point", "-W", "2e12", "-Q", "10e9", "-T", "0.008", "--hw", "a100-80gb",
                          "--precision", "int8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("W = 2 TOP, T = 8 ms, P = W/T = 250 TOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flat roof: int8 tensor = 624 TOP/s"), std::string::npos) << r.out;
  // attainable = min(624 T, 2.039 TB/s × 200) = 407.8 TOP/s; 250 / 407.8 = 61.3%
  EXPECT_NE(r.out.find("61.3% of the attainable 407.8 TOP/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLOP"), std::string::npos) << r.out;
  const auto j = run_cli({"point", "-W", "2e12", "-Q", "10e9", "-T", "0.008", "--hw", "a100-80gb",
                          "--precision", "int8", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json doc = json::parse(j.out);
  EXPECT_EQ(doc["units"]["performance"], "OP/s");
  EXPECT_EQ(doc["units"]["intensity"], "OP/byte");
}

TEST(CliPoint, AFasterUnitForFlopWorkIsNeverAnIntegerRoof) {
  // On a100-80gb's fp16 tensor roof (312 TFLOP/s) the int8 tensor roof (624 TOP/s) counts
  // other operations: it was "a faster unit is unused: int8 tensor (2x)".
  const auto r = run_cli({"point", "-W", "2.5e12", "-Q", "1e9", "-T", "10ms", "--hw", "a100-80gb",
                          "--precision", "fp16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("on the flat 'fp16 tensor' roof"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute is the bottleneck"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("int8"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("int4"), std::string::npos) << r.out;
}

TEST(CliPoint, WorkGivenInOpIsIntegerWork) {
  // "2 TOP" was read as 2 TFLOP and judged on a100-80gb's default fp32 vector roof; it is OP,
  // judged on the int8 roof (624 TOP/s; not int4 tensor's 1.248 POP/s, which binds int4
  // operands only), which a note says.
  const auto r = run_cli({"point", "-W", "2 TOP", "-Q", "10e9", "-T", "8ms", "--hw", "a100-80gb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("W = 2 TOP, T = 8 ms, P = W/T = 250 TOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flat roof: int8 tensor = 624 TOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Judged on 'int8 tensor', the int8 roof, as integer work of no stated type "
                       "is judged: the default roof 'fp32 vector' counts FLOP/s"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("FLOP,"), std::string::npos) << r.out;
  // With --precision int8 it is judged there, in OP.
  const auto i = run_cli({"point", "-W", "2 TOP", "-Q", "10e9", "-T", "8ms", "--hw", "a100-80gb",
                          "--precision", "int8"});
  ASSERT_EQ(i.exit_code, 0) << i.err;
  EXPECT_NE(i.out.find("flat roof: int8 tensor = 624 TOP/s"), std::string::npos) << i.out;
}

TEST(CliPoint, WorkUnitTravelsInThePointsDocument) {
  // `profile -W "2 TOP"` wrote a points document without the unit, so its point read back was
  // a bare count, judged on a100-80gb's default fp32 vector roof rather than in OP.
  TempDir d;
  const auto w =
      run_cli({"profile", "-W", "2 TOP", "-Q", "10e9", "-o", d.file("p.json"), "--", "/bin/true"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const auto doc = nlohmann::json::parse(roofline::test::slurp(d.file("p.json")));
  EXPECT_EQ(doc["points"][0]["work_unit"], "OP") << doc.dump();
  // W and Q from the flags: not the counters' point (it said "perf_event").
  // (Where counters add L2/L3 traffic to --traffic's DRAM bytes, the point is theirs too.)
  EXPECT_EQ(doc["points"][0]["source"],
            doc["points"][0]["traffic"].size() == 1 ? "command line" : "perf_event")
      << doc.dump();
  const auto r = run_cli({"point", "--points", d.file("p.json"), "--hw", "a100-80gb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("flat roof: int8 tensor = 624 TOP/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLOP,"), std::string::npos) << r.out;
  // A work string naming its unit says the same in a hand-written file.
  write_text(d.file("q.json"), R"({"schema":"roofline.points","version":1,
    "points":[{"name":"k","work":"2 TOP","traffic":1e10,"time":0.008}]})");
  const auto q = run_cli({"point", "--points", d.file("q.json"), "--hw", "a100-80gb"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("flat roof: int8 tensor = 624 TOP/s"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("P = W/T = 250 TOP/s"), std::string::npos) << q.out;
  // work_unit in any case, as Python's Point takes it.
  write_text(d.file("l.json"), R"({"schema":"roofline.points","version":1,
    "points":[{"name":"k","work":2e12,"work_unit":"op","traffic":1e10,"time":0.008}]})");
  const auto l = run_cli({"point", "--points", d.file("l.json"), "--hw", "a100-80gb"});
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_NE(l.out.find("P = W/T = 250 TOP/s"), std::string::npos) << l.out;
}

// 85% of its roof with --touching 0.9 does not touch, but it is within 20% of the flat roof,
// not "far below both roofs" (which it read); with the default 0.8 it touches.
TEST(CliPoint, ShortOfAHigherTouchingThresholdIsJustBelowTheRoof) {
  const std::vector<std::string> args = {"point", "-W",     "1.7e12", "-Q",          "1e9", "-T",
                                         "0.1",   "--peak", "20T",    "--bandwidth", "1T"};
  std::vector<std::string> strict = args;
  strict.insert(strict.end(), {"--touching", "0.9"});
  const auto r = run_cli(strict);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Diagnosis: just below the flat 'peak' roof (85% of attainable, 1.18x "
                       "headroom; within 20%, short of the touching threshold 90%)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("far below"), std::string::npos) << r.out;
  // Its verdict and Step 2 say the same: the roof it is just below and by how much (they said
  // far-below and "none yet" beside that title).
  EXPECT_NE(r.out.find("Step 2 — which roof? just below the flat 'peak' roof, not yet touching "
                       "it: at 85% of it, 1.18x headroom\n"),
            std::string::npos)
      << r.out;
  strict.push_back("--json");
  const auto j = run_cli(strict);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["diagnosis"]["verdict"], "just-below") << j.out;
  EXPECT_NE(run_cli(args).out.find("Diagnosis: on the flat 'peak' roof"), std::string::npos);
}

TEST(CliPoint, AttainmentNearAThresholdIsPrintedApartFromIt) {
  // 104.96% (touching) and 105.04% (above the roof, impossible) both printed "105%"; 79.96%
  // (far below) printed "80%".
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1.0496e12", "touching a roof? yes: 104.96% of the attainable 20 TFLOP/s"},
      {"1.0504e12", "touching a roof? above it (impossible): 105.04% of the attainable"},
      {"0.7996e12", "touching a roof? no: 79.96% of the attainable"},
      {"0.8004e12", "touching a roof? yes: 80.04% of the attainable"},
      {"0.5e12", "touching a roof? no: 50% of the attainable"}};
  for (const auto& [work, expected] : cases) {
    const auto r = run_cli(
        {"point", "-W", work, "-Q", "1e9", "-T", "0.05", "--peak", "20T", "--bandwidth", "1T"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(expected), std::string::npos) << work << "\n" << r.out;
  }
  // The per-level table says it the same way (it printed 105% beside Step 1's 104.96%).
  const auto level = run_cli({"point", "-W", "1.0496e12", "-Q", "1e9", "-T", "0.05", "--peak",
                              "20T", "--bandwidth", "1T"});
  EXPECT_EQ(level.out.find("105%"), std::string::npos) << level.out;
  EXPECT_NE(level.out.find("104.96%\n"), std::string::npos) << level.out;
  const auto above = run_cli({"point", "-W", "1.0504e12", "-Q", "1e9", "-T", "0.05", "--peak",
                              "20T", "--bandwidth", "1T"});
  EXPECT_NE(above.out.find("above the flat 'peak' roof by 1.0504x"), std::string::npos)
      << above.out;
}

TEST(CliPoint, FlopWorkNeverFallsBackToAnIntegerRoof) {
  // A machine without default_compute whose highest dense roof is int8: FLOP work (and a bare
  // number) fell back to it ("2 TFLOP" printed as "W = 2 TOP" on int8 mac).
  TempDir d;
  write_text(d.file("m.json"), R"({"schema":"roofline.machine","version":1,"name":"soc",
    "compute":[{"name":"fp16 gpu","precision":"fp16","peak":1e13},
               {"name":"int8 npu","precision":"int8","integer":true,"peak":4e13}],
    "memory":[{"level":"DRAM","bandwidth":1e11}]})");
  for (const std::string work : {"2 GFLOP", "2e9"}) {
    const auto r =
        run_cli({"point", "-W", work, "-Q", "1e9", "-T", "1s", "--machine", d.file("m.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("flat roof: fp16 gpu = 10 TFLOP/s"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("int8"), std::string::npos) << r.out;
  }
  const auto op =
      run_cli({"point", "-W", "2 GOP", "-Q", "1e9", "-T", "1s", "--machine", d.file("m.json")});
  ASSERT_EQ(op.exit_code, 0) << op.err;
  EXPECT_NE(op.out.find("flat roof: int8 npu = 40 TOP/s"), std::string::npos) << op.out;
}

TEST(CliPoint, TextShowsTheTwoSteps) {
  auto r = run_cli({"point", "--work", "2e9", "--traffic", "12e9", "--time", "0.0065", "--peak",
                    "19.5T", "--bandwidth", "2 TB/s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Step 1"), std::string::npos);
  EXPECT_NE(r.out.find("Step 2"), std::string::npos);
  EXPECT_NE(r.out.find("on the slanted DRAM roof"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLOPS"), std::string::npos);
  EXPECT_EQ(r.out.find("\033["), std::string::npos) << "no colour when piped";
}

TEST(CliPoint, MachineFileAndHierarchicalTraffic) {
  TempDir d;
  write_text(d.file("m.json"), R"({"schema":"roofline.machine","version":1,"name":"box",
    "compute":[{"name":"fp64 fma","precision":"fp64","peak":1e11}],
    "memory":[{"level":"L2","kind":"cache","bandwidth":4e11},{"level":"DRAM","kind":"memory","bandwidth":2e10}]})");
  auto r = run_cli({"point", "--work", "1e9", "--traffic-at", "DRAM=1e9", "--traffic-at", "L2=4e9",
                    "--time", "0.06", "--machine", d.file("m.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["diagnosis"]["binding_level"], "DRAM");
  EXPECT_DOUBLE_EQ(j["diagnosis"]["attainable"].get<double>(), 2e10);
  EXPECT_EQ(j["diagnosis"]["levels"].size(), 2u);
}

TEST(CliPoint, BadInputsExitNonZeroWithAMessage) {
  struct Case {
    std::vector<std::string> args;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {{"point", "--work", "1e9", "--traffic", "1e9", "--time", "-1", "--peak", "1T", "--bandwidth",
        "1T"},
       "time must be > 0"},
      {{"point", "--work", "1e9", "--traffic", "1e9", "--time", "0", "--peak", "1T", "--bandwidth",
        "1T"},
       "time must be > 0"},
      {{"point", "--work", "nan", "--traffic", "1e9", "--time", "1", "--peak", "1T", "--bandwidth",
        "1T"},
       "--work"},
      {{"point", "--work", "0", "--traffic", "1e9", "--time", "1", "--peak", "1T", "--bandwidth",
        "1T"},
       "work must be > 0"},
      {{"point", "--work", "1e9", "--traffic", "1e9", "--time", "1", "--peak", "1 TB/s",
        "--bandwidth", "1T"},
       "--peak"},
      {{"point", "--work", "1e9", "--traffic", "1e9", "--time", "1"}, "roofs needed"},
      {{"point", "--work", "1e9", "--traffic", "1e9", "--time", "1", "--machine",
        "/nonexistent.json"},
       "no such file"},
      {{"point", "--work", "1e9", "--traffic", "1e9", "--time", "1", "--machine", "a100-8gb"},
       "unknown machine"},
  };
  for (const auto& c : cases) {
    auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.expect << "\n" << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(CliPoint, MalformedAndWrongVersionFiles) {
  TempDir d;
  write_text(d.file("bad.json"), "{\"schema\": \"roofline.machine\", \"version\": 1,,}");
  write_text(d.file("v9.json"), R"({"schema":"roofline.machine","version":9,"name":"x"})");
  write_text(d.file("empty.json"), "");
  auto r = run_cli({"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", d.file("bad.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("line 1, column"), std::string::npos) << r.err;
  r = run_cli({"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", d.file("v9.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unsupported version 9"), std::string::npos) << r.err;
  r = run_cli({"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", d.file("empty.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("empty file"), std::string::npos) << r.err;
  r = run_cli({"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", d.path.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

TEST(CliPoint, OutputFileIsWrittenWholeOrNotAtAll) {
  TempDir d;
  const std::string out = d.file("result.json");
  auto r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "1", "--peak", "1T", "--bandwidth",
                    "1T", "--json", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string before = roofline::test::slurp(out);
  EXPECT_TRUE(json::accept(before));
  r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "-1", "--peak", "1T", "--bandwidth", "1T",
               "--json", "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(roofline::test::slurp(out), before);
}

TEST(CliPoint, APointNoRoofCanJudgeIsLeftOutWithAWarning) {
  // An fp64 kernel beside an fp32 one on a machine of fp32 roofs (`import` lists it "not
  // judged" and writes it): point and plot judge the fp32 one and name the other.
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "s", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp32"},
    {"name": "d", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp64"}]})");
  const std::vector<std::string> roofs = {"--peak", "1T",          "--bandwidth",
                                          "1T",     "--precision", "fp32"};
  std::vector<std::string> args = {"point", "--points", dir.file("p.json"), "--json"};
  args.insert(args.end(), roofs.begin(), roofs.end());
  auto r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  // A points file gives a list however many of its points were judged: 's' judged, then 'd'
  // listed as a chart's JSON lists a point it leaves out.
  ASSERT_TRUE(j.is_array()) << r.out;
  ASSERT_EQ(j.size(), 2u) << r.out;
  EXPECT_EQ(j[0]["name"], "s") << r.out;
  EXPECT_TRUE(j[0].contains("diagnosis")) << r.out;
  EXPECT_EQ(j[1]["name"], "d") << r.out;
  EXPECT_EQ(j[1]["not_drawn"], true) << r.out;
  EXPECT_EQ(j[1]["reason"], "no roof for fp64") << r.out;
  EXPECT_EQ(j[1]["detail"].get<std::string>().rfind(
                "machine 'given roofs' has no compute roof for 'fp64'", 0),
            0u)
      << r.out;
  EXPECT_EQ(j[1].size(), 4u) << r.out;  // no analysis's fields
  EXPECT_NE(r.err.find("p.json: point 'd' not judged: machine 'given roofs' has no compute roof "
                       "for 'fp64'"),
            std::string::npos)
      << r.err;
  write_text(dir.file("m.json"), R"({"schema": "roofline.machine", "version": 1, "name": "m",
    "compute": [{"name": "fp32", "precision": "fp32", "peak": 1e12}],
    "memory": [{"level": "DRAM", "bandwidth": 1e12}]})");
  r = run_cli({"plot", dir.file("m.json"), dir.file("p.json"), "-o", dir.file("c.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("point 'd' not judged: machine 'm' has no compute roof for 'fp64'"),
            std::string::npos)
      << r.err;
  const std::string csv = roofline::test::slurp(dir.file("c.csv"));
  EXPECT_NE(csv.find("\npoint,m,s,"), std::string::npos) << csv;
  // 'd' is not drawn: its one row says so and why, with no figure of a diagnosis.
  EXPECT_NE(csv.find("\npoint,m,d" + std::string(20, ',') + ",false,no roof for fp64,"),
            std::string::npos)
      << csv;
  // Seven fp64 points: one warning line naming five of them and counting the rest.
  std::string many = R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "s", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp32"})";
  for (int i = 1; i <= 7; ++i)
    many += R"(, {"name": "d)" + std::to_string(i) +
            R"(", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp64"})";
  write_text(dir.file("many.json"), many + "]}");
  r = run_cli({"plot", dir.file("m.json"), dir.file("many.json"), "-o", dir.file("c2.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("many.json: points 'd1', 'd2', 'd3', 'd4', 'd5' and 2 more not judged: "
                       "machine 'm' has no compute roof for 'fp64'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("'d6'"), std::string::npos) << r.err;
  size_t warnings = 0;
  for (size_t at = r.err.find("warning:"); at != std::string::npos;
       at = r.err.find("warning:", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.err;
  // None left: refused, as a file of no points is.
  write_text(dir.file("d.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "d", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp64"}]})");
  r = run_cli({"plot", dir.file("m.json"), dir.file("d.json"), "-o", dir.file("d.csv")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("d.json: its one point cannot be judged on machine 'm'"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("d.csv")));
}

// A CPU run's point (L1 … DRAM) on a catalogue machine that publishes only its main memory: the
// levels without a roof are left out with a warning and the point is judged at the rest
// (docs/schema.md); a point with no level left is not judged. hw compare compares such a point
// at its first level every machine has.
TEST(CliPoint, LevelsWithoutARoofAreLeftOutWithAWarning) {
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "triad", "work": 2e9, "time": 0.05,
     "traffic": {"L1": 2.4e10, "L2": 2.4e10, "DRAM": 1.2e10}},
    {"name": "l1 only", "work": 2e9, "time": 0.05, "traffic": {"L1": 2.4e10}}]})");
  auto r = run_cli({"point", "--points", dir.file("p.json"), "--hw", "a100-80gb", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json list = json::parse(r.out);
  ASSERT_TRUE(list.is_array() && list.size() == 2u) << r.out;
  EXPECT_EQ(list[1]["name"], "l1 only") << r.out;
  EXPECT_EQ(list[1]["not_drawn"], true) << r.out;
  EXPECT_EQ(list[1]["reason"], "no roof for level L1") << r.out;
  const json& j = list[0];
  EXPECT_EQ(j["name"], "triad") << r.out;
  // I = 2e9 / 1.2e10 at HBM2e (DRAM read as the machine's main memory), the only level judged.
  const json& levels = j["diagnosis"]["levels"];
  ASSERT_EQ(levels.size(), 1u) << r.out;
  EXPECT_EQ(levels[0]["level"], "HBM2e");
  EXPECT_DOUBLE_EQ(levels[0]["intensity"].get<double>(), 2e9 / 1.2e10);
  EXPECT_NE(r.err.find("p.json: point 'triad' judged at its other levels: machine 'a100-80gb' has "
                       "no memory roof for level 'L1'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("level 'L2'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p.json: point 'l1 only' not judged: machine 'a100-80gb' has no memory "
                       "roof for level 'L1'"),
            std::string::npos)
      << r.err;
  // hw compare at the point's DRAM intensity, 1/6 FLOP/byte: both left of their ridges, the
  // bandwidth ratio 3.35 / 2.039.
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("p.json"), "--json"});
  ASSERT_EQ(r.exit_code, 2) << r.out;  // 'l1 only' has no level both machines have
  EXPECT_NE(r.err.find("point 'l1 only': machine 'a100-80gb' has no memory roof for level 'L1'"),
            std::string::npos)
      << r.err;
  write_text(dir.file("t.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "triad", "work": 2e9, "time": 0.05,
     "traffic": {"L1": 2.4e10, "L2": 2.4e10, "DRAM": 1.2e10}}]})");
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("t.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json c = json::parse(r.out);
  ASSERT_EQ(c.size(), 1u) << r.out;
  EXPECT_DOUBLE_EQ(c[0]["intensity"].get<double>(), 2e9 / 1.2e10) << r.out;
  EXPECT_NEAR(c[0]["machines"][1]["ratio"].get<double>(), 3.35e12 / 2.039e12, 1e-9) << r.out;
  EXPECT_EQ(c[0]["level"], "DRAM") << r.out;
  // The text says at which of the point's levels it compared.
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("t.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("At I = 0.1667 FLOP/byte (triad at DRAM)"), std::string::npos) << r.out;
}

TEST(CliPoint, AMachineOfLinksOnlyJudgesTrafficAtANamedLink) {
  // A machine whose only slanted roof is a network (a cluster's InfiniBand): plain traffic has
  // no roof to be judged at, traffic named at the link has. --traffic-at IB=… and a points file
  // at IB were refused by the error that asks for them (it was raised naming the level of plain
  // traffic, and by every chart of such a machine).
  TempDir dir;
  write_text(dir.file("ib.json"), R"({"schema": "roofline.machine", "version": 1, "name": "ib",
    "compute": [{"name": "fp64", "precision": "fp64", "peak": 1e12}],
    "memory": [{"level": "IB", "kind": "network", "bandwidth": "400 Gb/s"}]})");
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "x", "work": 1e12, "traffic": {"IB": 1e9}, "time": 1}]})");
  auto r = run_cli({"point", "--machine", dir.file("ib.json"), "-W", "1e12", "--traffic-at",
                    "IB=1e9", "-T", "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  // 400 Gb/s = 50 GB/s: ridge 1e12 / 5e10 = 20 FLOP/byte; I = 1000, on the flat roof.
  EXPECT_DOUBLE_EQ(j["diagnosis"]["levels"][0]["ridge"].get<double>(), 20) << r.out;
  EXPECT_EQ(j["diagnosis"]["levels"][0]["level"], "IB");
  r = run_cli({"plot", dir.file("ib.json"), dir.file("p.json"), "-o", dir.file("c.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(roofline::test::slurp(dir.file("c.svg")).find("IB"), std::string::npos);
  // hw show's ridges and plot --at are at the fastest link, as the chart heads with it (both
  // were refused by the error asking for --traffic-at, which neither takes).
  r = run_cli({"hw", "show", dir.file("ib.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"ridge\": 20"), std::string::npos) << r.out;
  r = run_cli({"plot", dir.file("ib.json"), "--at", "10", "-o", dir.file("at.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Plain traffic is still refused, asking for the level.
  r = run_cli({"point", "--machine", dir.file("ib.json"), "-W", "1e12", "-Q", "1e9", "-T", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("its levels (IB) are links (interconnect or network), not a memory; give "
                       "the traffic at one of them"),
            std::string::npos)
      << r.err;
}

TEST(CliPlot, CsvRowsGiveTheTrafficOfTheLevelTheyJudge) {
  // A point at "DRAM" on a machine whose main memory is HBM3: the row of level HBM3 carries the
  // point's Q, so I = W/Q holds within the row (it read 0 before).
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 33554432, "traffic": [{"level": "DRAM", "bytes": 201328860}],
     "time": 1e-4}]})");
  auto r = run_cli({"plot", "h100-sxm", dir.file("p.json"), "-o", dir.file("c.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = roofline::test::slurp(dir.file("c.csv"));
  const size_t row = csv.find("\npoint,");
  ASSERT_NE(row, std::string::npos) << csv;
  const std::string line = csv.substr(row + 1, csv.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find(",HBM3,"), std::string::npos) << line;
  EXPECT_NE(line.find(",33554432,201328860,"), std::string::npos) << line;
}

TEST(CliPoint, PointsFileAgainstAMachineFile) {
  const std::string data = ROOFLINE_TEST_DATA;
  auto r = run_cli({"point", "--points", data + "/core/points.json", "--machine",
                    data + "/core/machine-a100.json", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["diagnosis"]["verdict"], "memory-bound");
  EXPECT_NEAR(j[0]["diagnosis"]["attainment"].get<double>(), (2e8 / 0.00065) / (2.039e12 / 6),
              1e-9);
  EXPECT_EQ(j[1]["diagnosis"]["verdict"], "faster-unit-unused");  // fp16 tensor is 16x higher
  EXPECT_EQ(j[1]["diagnosis"]["levels"].size(), 2u);
  EXPECT_EQ(j[1]["diagnosis"]["empty_roofs_above"][0]["name"], "fp16 tensor");  // sparse excluded
  EXPECT_EQ(j[2]["diagnosis"]["verdict"], "far-below");
  EXPECT_EQ(j[2]["diagnosis"]["compute_roof"], "fp32");  // the machine's default_compute
}

// A points document saved by PowerShell's `>` (UTF-16LE with its byte-order mark) is named by
// its encoding with the command that converts it, as an importer names an export so saved.
TEST(CliPoint, APointsDocumentInUtf16IsNamedWithTheCommandThatConvertsIt) {
  TempDir dir;
  const std::string doc =
      roofline::test::slurp(std::string(ROOFLINE_SOURCE_DIR) + "/examples/custom/db/points.json");
  std::string utf16 = "\xFF\xFE";
  for (char c : doc) utf16 += std::string(1, c) + std::string(1, '\0');
  write_text(dir.file("u.json"), utf16);
  const auto r = run_cli({"point", "--points", dir.file("u.json"), "--hw", "h100-sxm"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("u.json: the file is UTF-16LE text (byte-order mark FF FE); JSON documents "
                       "are read as UTF-8 (or ASCII): convert it first, e.g. iconv -f UTF-16LE -t "
                       "UTF-8 '" +
                       dir.file("u.json") + "' > converted.json"),
            std::string::npos)
      << r.err;
}
