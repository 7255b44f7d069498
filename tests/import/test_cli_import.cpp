// roofline import / profile from the command line.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "import/edited.hpp"
#include "roofline/io.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::TempDir;

namespace ROOFLINE_UNITY_ID {
const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/import/";

TEST(CliImport, NcuJsonIsAPointsDocument) {
  TempDir dir;
  const auto out = dir.file("points.json");
  const auto r = run_cli({"import", "ncu", kData + "ncu-raw-saxpy.csv", "--json", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(roofline::test::slurp(out));
  EXPECT_EQ(j["schema"], "roofline.points");
  ASSERT_EQ(j["points"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["points"][0]["work"].get<double>(), 33554432);
  EXPECT_EQ(j["points"][0]["source"], "ncu");
  // The file is a valid points document for `roofline point --points`.
  const auto p = run_cli({"point", "--points", out, "--peak", "19.5T", "--bandwidth", "2 TB/s",
                          "--precision", "fp32"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.out.find("saxpy #0"), std::string::npos);
  EXPECT_NE(p.out.find("0.1667 FLOP/byte"), std::string::npos) << p.out;
}

TEST(CliImport, NcuTextWithoutMachine) {
  const auto r = run_cli({"import", "ncu", kData + "ncu-set-roofline.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ncu import of"), std::string::npos);
  // Judged against the roofs the report describes (ncu --set roofline peaks).
  EXPECT_NE(r.out.find("roofs from the report's peak metrics"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fp64 = 9.746 TFLOP/s"), std::string::npos) << r.out;
  const auto raw = run_cli({"import", "ncu", kData + "ncu-raw-saxpy.csv"});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_NE(raw.out.find("Q(DRAM) = 201.3 MB"), std::string::npos) << raw.out;
}

TEST(CliImport, NcuTensorKernelsAgainstTensorRoofs) {
  // fp16 tensor work is judged against the machine's fp16 tensor roof (not fp32, where it would
  // be "impossible"); bf16 tensor work on a machine without a bf16 tensor roof is not judged.
  const auto r = run_cli({"import", "ncu", kData + "ncu-tensor-nested.csv", "--machine",
                          kData + "machine-h100-sxm.json", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["analysis"].size(), 2u);
  const json& h = j["analysis"][0];
  EXPECT_EQ(h["precision"], "fp16 tensor");
  EXPECT_EQ(h["diagnosis"]["compute_roof"], "fp16 tensor");
  EXPECT_NE(h["diagnosis"]["verdict"], "above-roof");
  const json& b = j["analysis"][1];
  EXPECT_TRUE(b["diagnosis"].is_null());
  bool noted = false;
  for (const auto& n : j["notes"])
    noted = noted || n.get<std::string>().find(
                         "bf16gemm_tn<128, 128> #1: not judged: machine "
                         "'h100-sxm' has no bf16 tensor roof") == 0;
  EXPECT_TRUE(noted) << j["notes"].dump(2);
  // Against the report's own roofs (no tensor roof at all) the tensor kernel of the
  // --metrics export is listed, not called impossible.
  const auto own = run_cli({"import", "ncu", kData + "ncu-metrics-sums.csv"}, "NO_COLOR=1");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_EQ(own.out.find("the measurement or the roof is wrong"), std::string::npos) << own.out;
  EXPECT_EQ(own.out.find("above the"), std::string::npos) << own.out;
  EXPECT_NE(own.out.find("has no fp16 tensor roof"), std::string::npos) << own.out;
}

TEST(CliImport, PrecisionNamesTheRoofEveryPointIsJudgedAgainst) {
  // likwid's FLOPS_DP/MEM_DP points are fp64; --precision fp32 judges them against the fp32
  // roof instead (it was ignored: every point had a precision of its own), with a note.
  const std::string zen2 = kData + "real/likwid-zen2-text-memdp-flopsdp.txt";
  const auto r =
      run_cli({"import", "likwid", zen2, "--hw", "epyc-7763", "--precision", "fp32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["analysis"].size(), 2u);
  for (const auto& a : j["analysis"]) {
    EXPECT_EQ(a["diagnosis"]["compute_roof"], "fp32 avx2 fma") << a.dump();
    // attainable = min(π, β·I) on the fp32 roof: 5.018 TFLOP/s is far above these points' β·I.
    EXPECT_LE(a["diagnosis"]["attainable"].get<double>(), 5.0176e12);
  }
  bool noted = false;
  for (const auto& n : j["notes"])
    noted =
        noted || n.get<std::string>().find("in place of the precision fp64") != std::string::npos;
  EXPECT_TRUE(noted) << j["notes"].dump();
  // --precision of the roof the points would have had anyway: no note of a change.
  const auto same =
      run_cli({"import", "likwid", zen2, "--hw", "epyc-7763", "--precision", "fp64", "--json"});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(same.out.find("in place of the precision"), std::string::npos) << same.out;
  // Roofs given as two numbers name no precision: they judge every point, as `point` takes
  // them (the points were "not judged: machine 'given roofs' has no fp64 roof").
  const auto g =
      run_cli({"import", "likwid", zen2, "--peak", "1T", "--bandwidth", "100G", "--json"});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  const json gj = json::parse(g.out);
  for (const auto& a : gj["analysis"]) {
    ASSERT_FALSE(a["diagnosis"].is_null()) << a.dump();
    EXPECT_EQ(a["diagnosis"]["compute_roof"], "peak");
  }
}

TEST(CliImport, DcgmSeedCaseDiagnosis) {
  const auto r = run_cli({"import", "dcgm", kData + "dcgm-seed-case.txt", "--machine",
                          kData + "machine-h100-sxm.json"},
                         "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("far below"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("utilisation is a time metric"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not of the hardware"), std::string::npos) << r.out;
  const auto j = run_cli({"import", "dcgm", kData + "dcgm-seed-case.txt", "--machine",
                          kData + "machine-h100-sxm.json", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json doc = json::parse(j.out);
  EXPECT_EQ(doc["analysis"][0]["diagnosis"]["verdict"], "far-below") << doc["analysis"].dump(2);
  // DRAM_ACTIVE is device-memory traffic: the points document names the level whose bandwidth
  // sized it, the machine's default memory (it had written a level named "").
  EXPECT_EQ(doc["points"][0]["traffic"][0]["level"], "HBM") << doc["points"].dump(2);
  for (const std::vector<std::string>& roofs :
       {std::vector<std::string>{"--hw", "l4"},
        std::vector<std::string>{"--peak", "65T", "--bandwidth", "320 GB/s", "--precision",
                                 "fp32"}}) {
    std::vector<std::string> a = {"import", "dcgm", kData + "dcgm-seed-case.txt", "--json"};
    a.insert(a.end(), roofs.begin(), roofs.end());
    const auto given = run_cli(a);
    ASSERT_EQ(given.exit_code, 0) << given.err;
    const json g = json::parse(given.out);
    EXPECT_EQ(g["points"][0]["traffic"][0]["level"], roofs[0] == "--hw" ? "GDDR6" : "DRAM");
    EXPECT_EQ(g["analysis"].size(), g["points"].size()) << given.err;
  }
  const auto no_machine = run_cli({"import", "dcgm", kData + "dcgm-seed-case.txt"});
  EXPECT_EQ(no_machine.exit_code, 2);
  EXPECT_NE(no_machine.err.find("--hw NAME or --machine FILE"), std::string::npos);
}

TEST(CliImport, LikwidAndBadFiles) {
  const auto r = run_cli({"import", "likwid", kData + "likwid-mem-dp-regions.csv", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["points"].size(), 2u);
  const auto bad = run_cli({"import", "ncu", kData + "ncu-truncated.csv"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("ncu-truncated.csv: line 3, column"), std::string::npos) << bad.err;
  const auto missing = run_cli({"import", "likwid", kData + "no-such-file.csv"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no-such-file.csv"), std::string::npos) << missing.err;
}

TEST(CliImport, RealExportsImportAndRefusals) {
  const std::string real = kData + "real/";
  const auto a100 =
      run_cli({"import", "ncu", real + "ncu-a100-details-printfp-sgemm.csv", "--json"});
  ASSERT_EQ(a100.exit_code, 0) << a100.err;
  const json j = json::parse(a100.out);
  ASSERT_EQ(j["points"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["points"][2]["work"].get<double>(),
                   2 * 34359738368000.0 + 2 * 2149161369600.0);  // 2·FFMA + 2·HFMA
  const auto rtx = run_cli({"import", "ncu", real + "ncu-rtx5070-details-saxpy.csv"});
  EXPECT_EQ(rtx.exit_code, 2);
  EXPECT_NE(rtx.err.find("W cannot be counted: no FP instruction metrics"), std::string::npos)
      << rtx.err;
  EXPECT_TRUE(rtx.out.empty());
  // Two likwid runs of one program, given together.
  const auto lk = run_cli({"import", "likwid", real + "likwid-coffeelake-csv-flopsdp.log",
                           real + "likwid-coffeelake-csv-l3.log", "--json"});
  ASSERT_EQ(lk.exit_code, 0) << lk.err;
  const json l = json::parse(lk.out);
  EXPECT_EQ(l["points"].size(), 3u);
  EXPECT_EQ(l["files"].size(), 2u);
  EXPECT_EQ(l["points"][0]["traffic"][0]["level"], "L3");
}

TEST(CliImport, AMachineLeavesEveryMeasuredLevelInTheDocument) {
  // A real A100 export judged against a100-40gb, whose only memory roof of the three levels
  // measured is HBM2: the analysis holds DRAM's bytes at HBM2, while the points keep DRAM, L2 and
  // L1 as the counters gave them (they were rewritten to one level named "" and lost), so the
  // file can be judged later against a machine with L2 and L1 roofs.
  const auto r = run_cli({"import", "ncu", kData + "real/ncu-a100-details-printfp-sgemm.csv",
                          "--hw", "a100-40gb", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 3u);
  const json& traffic = j["points"][2]["traffic"];
  ASSERT_EQ(traffic.size(), 3u) << traffic;
  EXPECT_EQ(traffic[0]["level"], "DRAM");
  EXPECT_DOUBLE_EQ(traffic[0]["bytes"].get<double>(), 807658682624.0);
  EXPECT_EQ(traffic[1]["level"], "L2");
  EXPECT_DOUBLE_EQ(traffic[1]["bytes"].get<double>(), 40927345510272.0);
  EXPECT_EQ(traffic[2]["level"], "L1");
  const json& judged = j["analysis"][2]["traffic"];
  ASSERT_EQ(judged.size(), 1u) << judged;
  EXPECT_EQ(judged[0]["level"], "HBM2");
  EXPECT_DOUBLE_EQ(judged[0]["bytes"].get<double>(), 807658682624.0);
  // The document gates on the machine it was judged on: check judges it at HBM2 and says which
  // levels it left out (it refused the file, naming L2).
  TempDir dir;
  const std::string doc = dir.file("a.json");
  ASSERT_EQ(run_cli({"import", "ncu", kData + "real/ncu-a100-details-printfp-sgemm.csv", "--hw",
                     "a100-40gb", "-o", doc})
                .exit_code,
            0);
  const auto c = run_cli({"check", doc, "--hw", "a100-40gb", "--min-attainment", "1e-9", "--json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const json g = json::parse(c.out);
  const json& gemm = g["points"][2];
  EXPECT_EQ(gemm["status"], "passed") << gemm;
  EXPECT_EQ(gemm["binding_level"], "HBM2") << gemm;
  EXPECT_EQ(gemm["levels_not_judged"], json::array({"L2", "L1"})) << gemm;
  EXPECT_EQ(gemm["why"].back(), "traffic at L1 not judged: machine 'a100-40gb' has no roof for it");
}

TEST(CliImport, AnImportWithoutAPointIsRefusedAndWritesNothing) {
  // The real raw export with every FP count zeroed: each kernel is skipped (W = 0). An import
  // is asked for points, so none is exit 2 with the reasons, and -o keeps what it held.
  std::string text = roofline::test::slurp(kData + "ncu-raw-saxpy.csv");
  for (const char* count : {"\"16,777,216\"", "\"1,073,741,824\""}) {
    const auto at = text.find(count);
    ASSERT_NE(at, std::string::npos) << count;
    text.replace(at, std::string(count).size(), "\"0\"");
  }
  TempDir dir;
  const auto csv = dir.file("no-flop.csv");
  std::ofstream(csv) << text;
  const auto out = dir.file("keep.json");
  std::ofstream(out) << "kept";
  const auto r = run_cli({"import", "ncu", csv, "--json", "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-flop.csv: no point could be made from it:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kernel saxpy #0: skipped, no floating-point work counted (W = 0)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(roofline::test::slurp(out), "kept");
  // An empty output name is no file: refused, not taken as the terminal.
  const auto empty = run_cli({"import", "ncu", kData + "ncu-raw-saxpy.csv", "-o", ""});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("an empty file name"), std::string::npos) << empty.err;
  EXPECT_TRUE(empty.out.empty());
}

TEST(CliImport, APointsVerdictDoesNotDependOnTheRoofsItWasImportedWith) {
  // The CUDA-core dgemm of the --metrics export is an fp64 *vector* point whatever roofs the
  // import judged it on: imported against the export's own device roofs (named "fp64"), it had
  // been written as "fp64", which a later check on h100-sxm read as its highest fp64 roof, the
  // tensor one (66.9 TFLOP/s: attainment 0.129, FAIL), while the same file imported with --hw
  // h100-sxm passed against the fp64 vector roof (33.5 TFLOP/s: 0.258).
  TempDir dir;
  const std::string sums = kData + "ncu-metrics-sums.csv";
  const auto own = dir.file("own.json"), hw = dir.file("hw.json");
  ASSERT_EQ(run_cli({"import", "ncu", sums, "-o", own}).exit_code, 0);
  ASSERT_EQ(run_cli({"import", "ncu", sums, "--hw", "h100-sxm", "-o", hw}).exit_code, 0);
  for (const auto& f : {own, hw}) {
    const json doc = json::parse(roofline::test::slurp(f));
    EXPECT_EQ(doc["points"][0]["precision"], "fp64 vector") << f;
    const auto r = run_cli({"check", f, "--hw", "h100-sxm", "--min-attainment", "0.2", "--json"});
    ASSERT_EQ(r.exit_code, 5) << r.err;  // the fp16 tensor kernel fails (0.176) either way
    const json c = json::parse(r.out);
    const json* dgemm = nullptr;
    for (const auto& e : c["points"])
      if (e["name"].get<std::string>().starts_with("dgemm")) dgemm = &e;
    ASSERT_NE(dgemm, nullptr) << r.out;
    EXPECT_EQ((*dgemm)["compute_roof"], "fp64 vector") << dgemm->dump();
    EXPECT_NEAR((*dgemm)["attainment"].get<double>(), 0.258, 0.001) << dgemm->dump();
  }
}

TEST(CliImport, PointsAreCheckedWithOrWithoutAMachine) {
  // A duration of 1e-300 s gives P = W/T beyond a double, a name with a line break would forge
  // an output line: refused naming the file and the point, as `point` refuses them when read
  // back, not printed as "inf FLOP/s" and written.
  const std::string real = roofline::test::slurp(kData + "ncu-raw-saxpy.csv");
  TempDir dir;
  auto file_with = [&](const std::string& from, const std::string& to, const std::string& name) {
    const auto f = dir.file(name);
    std::ofstream(f) << roofline::test::edited(real, from, to);
    return f;
  };
  const auto tiny = file_with("\"96.58\"", "\"1e-300\"", "tiny.csv");
  for (const bool with_machine : {false, true}) {
    std::vector<std::string> args = {"import", "ncu", tiny};
    if (with_machine) args.insert(args.end(), {"--hw", "h100-sxm"});
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << with_machine;
    // Refused at the cell that gave it (the refusal named only the point).
    EXPECT_NE(r.err.find("tiny.csv: line 5, column 145: gpu__time_duration.sum = 1e-300 usecond: "
                         "kernel 'saxpy' (ID 0, line 5): P = W/T = 3.355e+07 / 1e-306 s is too "
                         "large for a double (overflow)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  }
  const auto broken = file_with("saxpy(int, float", "sax\npy(int, float", "name.csv");
  const auto out = dir.file("p.json");
  const auto r = run_cli({"import", "ncu", broken, "--json", "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("name.csv: line 5, column 34: Kernel Name 'sax\\u000apy(int, float, float "
                       "const*, float*)' is more than one line"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliImport, OnlyRegularFilesAreRead) {
  // /dev/zero would be read without end, a FIFO would block: both refused before reading.
  const auto zero = run_cli({"import", "ncu", "/dev/zero"});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("/dev/zero: is a character device, expected a regular file"),
            std::string::npos)
      << zero.err;
  TempDir dir;
  const auto fifo = dir.file("pipe.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const char* tool : {"ncu", "likwid"}) {
    const auto r = run_cli({"import", tool, fifo});
    EXPECT_EQ(r.exit_code, 2) << tool;
    EXPECT_NE(r.err.find("is a FIFO (named pipe), expected a regular file"), std::string::npos)
        << r.err;
  }
  const auto dcgm = run_cli({"import", "dcgm", fifo, "--machine", kData + "machine-h100-sxm.json"});
  EXPECT_EQ(dcgm.exit_code, 2);
  EXPECT_NE(dcgm.err.find("is a FIFO"), std::string::npos) << dcgm.err;
}

TEST(CliImport, NamesAreDataNotTerminalControl) {
  // A kernel name with OSC (retitle), CSI 2J (clear screen), BEL and U+202E (reorder): kept
  // byte for byte in the points, escaped on the terminal.
  TempDir dir;
  const std::string name = "void k\x1b]0;pwned\x07\x1b[2J\xe2\x80\xae(int)";
  const auto csv = dir.file("evil.csv");
  std::ofstream(csv) << "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
                        "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
                        "\"\",\"\",\"byte\",\"nsecond\",\"inst\"\n"
                        "\"0\",\""
                     << name << "\",\"100\",\"10\",\"5\"\n";
  const auto text = run_cli({"import", "ncu", csv});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.out.find('\x07'), std::string::npos);
  EXPECT_EQ(text.out.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_NE(text.out.find("k\\u001b]0;pwned\\u0007\\u001b[2J\\u202e #0"), std::string::npos)
      << text.out;
  const auto js = run_cli({"import", "ncu", csv, "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  EXPECT_EQ(js.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(json::parse(js.out)["points"][0]["name"], "k\x1b]0;pwned\x07\x1b[2J\xe2\x80\xae #0");
  // In a file the name is data: the JSON holds it as it was.
  const auto out = dir.file("p.json");
  ASSERT_EQ(run_cli({"import", "ncu", csv, "--json", "-o", out}).exit_code, 0);
  EXPECT_EQ(json::parse(roofline::test::slurp(out))["points"][0]["name"],
            "k\x1b]0;pwned\x07\x1b[2J\xe2\x80\xae #0");
  // Error messages quote the file: escaped as well.
  const auto bad = dir.file("bad.csv");
  std::ofstream(bad) << "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
                        "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
                        "\"\",\"\",\"\x1b[2Jbyte\",\"nsecond\",\"inst\"\n"
                        "\"0\",\"k\",\"100\",\"10\",\"5\"\n";
  const auto e = run_cli({"import", "ncu", bad});
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_EQ(e.err.find('\x1b'), std::string::npos);
  EXPECT_NE(e.err.find("unknown unit '\\u001b[2Jbyte'"), std::string::npos) << e.err;
}

TEST(CliProfile, PropagatesExitStatusAndReportsMissingProgram) {
  auto r = run_cli({"profile", "--events", "none", "--", "sh", "-c", "exit 5"});
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.out.find("exit status 5"), std::string::npos) << r.out;
  r = run_cli({"profile", "--", "/no/such/program-roofline", "x"});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.err.find("cannot run '/no/such/program-roofline': No such file or directory"),
            std::string::npos)
      << r.err;
  r = run_cli({"profile"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CliProfile, FlagsGiveWAndQWhenCountersCannot) {
  roofline::test::TempDir dir;  // the program's output is on stdout: the JSON goes to a file
  const std::string out = dir.file("points.json");
  const auto r = run_cli({"profile", "--events", "none", "--work", "2e9", "--traffic", "1.2e10",
                          "-o", out, "--", "sleep", "0.02"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(roofline::read_text_file(out));
  ASSERT_EQ(j["points"].size(), 1u);
  EXPECT_EQ(j["points"][0]["name"], "sleep");
  EXPECT_DOUBLE_EQ(j["points"][0]["work"].get<double>(), 2e9);
  EXPECT_DOUBLE_EQ(j["points"][0]["traffic"][0]["bytes"].get<double>(), 1.2e10);
  EXPECT_GE(j["points"][0]["time"].get<double>(), 0.02);
  EXPECT_GE(j["run"]["wall_seconds"].get<double>(), 0.02);
}

TEST(CliProfile, ReportPlacesThePointsOnTheGivenRoofs) {
  const std::string machine = std::string(ROOFLINE_TEST_DATA) + "/report/machine.json";
  roofline::test::TempDir dir;
  const std::string svg = dir.file("profile.svg");
  auto r = run_cli({"profile", "--events", "none", "--work", "2e9", "--traffic", "1.2e10",
                    "--machine", machine, "--report", svg, "--", "sleep", "0.02"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string chart = roofline::read_text_file(svg);
  EXPECT_NE(chart.find("data-name=\"sleep\""), std::string::npos);
  EXPECT_NE(chart.find("sleep on zen3-2core-vm"), std::string::npos);
  // Without roofs there is nothing to place the points on: refused before the program runs.
  const std::string never = dir.file("never.html");
  r = run_cli({"profile", "--events", "none", "--work", "2e9", "--traffic", "1.2e10", "--report",
               never, "--", "sh", "-c", "echo ran > " + dir.file("ran")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--report " + never + ": the chart needs roofs"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(never));
  EXPECT_FALSE(std::filesystem::exists(dir.file("ran")));
}

TEST(CliProfile, MissingPmuPathSaysWhatIsMissing) {
  const auto r = run_cli({"profile", "--sysfs", kData + "sysfs/kvm-no-pmu", "--", "true"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("hardware counters are missing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Still measured: T (wall clock)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no memory-controller PMU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no point for the whole program"), std::string::npos) << r.out;
}

TEST(CliProfile, AMachineLeavesEveryCountedLevelInTheDocument) {
  // Counted on an Ice Lake at DRAM, L3 and L2, judged against h100-sxm (HBM3 only): the analysis
  // holds DRAM's bytes at HBM3, the point keeps the three levels as counted (they were written as
  // one level named "" and the caches lost).
  const auto r = run_cli(
      {"profile", "--replay", kData + "perf-intel-icx-dgemm.json", "--hw", "h100-sxm", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& traffic = j["points"][0]["traffic"];
  ASSERT_EQ(traffic.size(), 3u) << traffic;
  EXPECT_EQ(traffic[0]["level"], "DRAM");
  EXPECT_EQ(traffic[1]["level"], "L3");
  EXPECT_EQ(traffic[2]["level"], "L2");
  EXPECT_DOUBLE_EQ(traffic[2]["bytes"].get<double>(), 6.4e9);
  const json& judged = j["analysis"][0]["traffic"];
  ASSERT_EQ(judged.size(), 1u) << judged;
  EXPECT_EQ(judged[0]["level"], "HBM3");
  EXPECT_DOUBLE_EQ(judged[0]["bytes"].get<double>(), 5.12e8);
}

// --save-counters beside --replay had been left unwritten with exit 0.
TEST(CliProfile, ReplayRefusesSaveCountersItWouldNotWrite) {
  TempDir d;
  const auto r = run_cli({"profile", "--replay", kData + "perf-intel-icx-dgemm.json",
                          "--save-counters", d.file("new.json")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--save-counters"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d.file("new.json")));
}

TEST(CliProfile, ReplayOfRecordedCountersPlacesTheHierarchicalPoint) {
  const auto r = run_cli({"profile", "--replay", kData + "perf-intel-icx-dgemm.json", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& p = j["points"][0];
  EXPECT_DOUBLE_EQ(p["work"].get<double>(), 2.001012e9);
  EXPECT_DOUBLE_EQ(p["time"].get<double>(), 0.25);
  EXPECT_EQ(p["precision"], "fp64");
  ASSERT_EQ(p["traffic"].size(), 3u);
  EXPECT_EQ(p["traffic"][0]["level"], "DRAM");
  EXPECT_DOUBLE_EQ(p["traffic"][0]["bytes"].get<double>(), 5.12e8);
  // L2_LINES_IN.ALL: lines L3 or memory serves to L2; L1D.REPLACEMENT: lines L2 serves to L1.
  EXPECT_EQ(p["traffic"][1]["level"], "L3");
  EXPECT_EQ(p["traffic"][2]["level"], "L2");
  EXPECT_DOUBLE_EQ(p["traffic"][2]["bytes"].get<double>(), 6.4e9);
  EXPECT_DOUBLE_EQ(j["run"]["min_running_fraction"].get<double>(), 0.5);
  const auto t = run_cli({"profile", "--replay", kData + "perf-amd-zen3-triad.json", "--peak",
                          "50 GFLOP/s", "--bandwidth", "10 GB/s"},
                         "NO_COLOR=1");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("counted W = 2 GFLOP"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("0.3906 FLOP/byte"), std::string::npos) << t.out;
}
}  // namespace ROOFLINE_UNITY_ID
