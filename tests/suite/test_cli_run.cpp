// `roofline run`: errors for bad kernels, levels, sizes and core names (exit 2), and the points
// document it writes (tiny working sets, so the runs take milliseconds; nothing here is timed).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/io.hpp"
#include "roofline/suite.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

const std::string kMachine = std::string(ROOFLINE_TEST_DATA) + "/run/machine-2core.json";

TEST(CliRun, UnknownKernelIsExit2) {
  const auto r = run_cli({"run", "axpy", "bogus", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown kernel 'bogus'"), std::string::npos) << r.err;
}

TEST(CliRun, UnknownLevelIsExit2) {
  const auto r = run_cli({"run", "axpy", "--levels", "L1,L7", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown level 'L7'"), std::string::npos) << r.err;
}

TEST(CliRun, BadSizesAreExit2) {
  auto r = run_cli({"run", "axpy-fp64", "--size", "3 GFLOP", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;
  r = run_cli({"run", "axpy-fp64", "--size", "-4 MiB", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_cli({"run", "axpy-fp64", "--size", "900 PB", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("MemAvailable"), std::string::npos) << r.err;
  r = run_cli({"run", "axpy-fp64", "--size", "1 KiB", "--machine", kMachine, "--quick"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("too small"), std::string::npos) << r.err;
  // Without a machine: refused by the suite before this machine is measured (it was measured
  // first, seconds spent before the refusal).
  r = run_cli({"run", "axpy-fp64", "--size", "1 KiB", "--quick"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("too small"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("measuring this machine"), std::string::npos) << r.err;
}

// A level too small for one of the kernels is refused before any kernel runs: spmv at the
// fixture's 32 KiB L1 came after axpy had run, its result dropped.
TEST(CliRun, ALevelTooSmallForAKernelIsRefusedBeforeAnyRuns) {
  const auto r =
      run_cli({"run", "axpy-fp64", "spmv", "--levels", "L1", "--quick", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("spmv: a working set of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is too small"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("axpy-fp64 at L1"), std::string::npos) << r.err;
}

// A --size of the user's is judged at the level that holds it, once; a level asked for that does
// not hold it is refused before anything runs (64 MiB was judged at L1, L2, L3 and DRAM alike:
// four verdicts for one working set, one "above-roof").
TEST(CliRun, AGivenSizeIsJudgedAtTheLevelThatHoldsIt) {
  if (suite::detect_machine().cache("L1") == nullptr)
    GTEST_SKIP() << "this system reports no caches (no /sys/devices/system/cpu/cpu0/cache)";
  // 16 KiB on one thread fits every L1 data cache this suite meets (32 KiB or more).
  auto r = run_cli({"run", "axpy-fp64", "--size", "16 KiB", "--threads", "1", "--quick",
                    "--machine", kMachine, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u) << r.out;
  EXPECT_EQ(j["points"][0]["run"]["level"], "L1") << j["points"][0].dump();
  r = run_cli({"run", "axpy-fp64", "--size", "16 KiB", "--threads", "1", "--levels", "L1,DRAM",
               "--quick", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--size 16.38 kB with --levels DRAM: axpy-fp64 on 1 thread holds it in L1, "
                       "not DRAM (leave --levels out to judge it at L1)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("axpy-fp64 at L1"), std::string::npos) << "ran before the refusal";
  const suite::Machine m = suite::detect_machine();
  EXPECT_EQ(suite::level_holding(Bytes(1), m, 1), "L1");
  EXPECT_EQ(suite::level_holding(Bytes(1e15), m, 1), "DRAM");
}

TEST(CliRun, BadThreadsAndCoreNames) {
  auto r = run_cli({"run", "axpy", "--threads", "0", "--machine", kMachine});
  EXPECT_NE(r.exit_code, 0);
  r = run_cli({"run", "dgemm", "--blas-core", "Zen;rm", "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--blas-core"), std::string::npos) << r.err;
}

TEST(CliRun, MissingMachineFileIsExit2) {
  const auto r = run_cli({"run", "axpy-fp64", "--machine", "/no/such/machine.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/machine.json"), std::string::npos) << r.err;
}

TEST(CliRun, TriadPointsWithAndWithoutWriteAllocate) {
  TempDir dir;
  const std::string out = dir.file("points.json");
  const auto r = run_cli({"run", "triad", "--levels", "L1", "--quick", "--threads", "1",
                          "--machine", kMachine, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("triad +write-allocate"), std::string::npos) << r.out;
  // The file is a points document the rest of the tools read.
  const PointsDocument doc = load_points_file(out);
  EXPECT_EQ(doc.machine, "fixture-2core-avx2");
  ASSERT_EQ(doc.points.size(), 2u);
  const auto j = nlohmann::json::parse(slurp(out));
  const double n = j["points"][0]["run"]["params"]["n"].get<double>();
  EXPECT_DOUBLE_EQ(doc.points[0].work.value, 2 * n);
  EXPECT_DOUBLE_EQ(doc.points[0].traffic.front().bytes.value, 24 * n);
  EXPECT_DOUBLE_EQ(doc.points[1].traffic.front().bytes.value, 32 * n);
  EXPECT_DOUBLE_EQ(doc.points[0].time.value, j["points"][0]["run"]["sustained"].get<double>());
  EXPECT_EQ(j["points"][0]["run"]["check"], "passed");
  EXPECT_EQ(j["points"][0]["diagnosis"]["binding_level"], "L1");
  // I at L1 drops by 4/3 with write-allocate: the point moves left.
  EXPECT_NEAR(j["points"][1]["diagnosis"]["levels"][0]["intensity"].get<double>() * 4 / 3,
              j["points"][0]["diagnosis"]["levels"][0]["intensity"].get<double>(), 1e-12);
}

// copy does no arithmetic: W = 0, I = 0, no point. A run of it alone wrote a document that plot,
// check and point refused whole ("no points to draw"); run says the document holds no point, and
// the consumers read it, saying the run is not drawn, placed or judged.
TEST(CliRun, ARunOfNoArithmeticIsSaidAndItsDocumentRead) {
  TempDir dir;
  const std::string out = dir.file("copy.json");
  auto r = run_cli({"run", "copy", "--levels", "L1", "--quick", "--threads", "1", "--machine",
                    kMachine, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("roofline run: note: " + out +
                       " holds no point: every run did no arithmetic (W = 0)"),
            std::string::npos)
      << r.err;
  const PointsDocument doc = load_points_file(out);
  EXPECT_TRUE(doc.points.empty());
  ASSERT_EQ(doc.not_points.size(), 1u);
  EXPECT_EQ(doc.not_points[0].name, "copy @L1");
  EXPECT_EQ(doc.not_points[0].reason, "no arithmetic, W = 0");
  // Its bandwidth, Q/T, as the document gives it.
  const auto j = nlohmann::json::parse(slurp(out));
  const std::string bandwidth =
      format_byte_rate(ByteRate(j["run"]["bandwidth_only"][0]["bandwidth"].get<double>()));
  EXPECT_EQ(doc.not_points[0].detail,
            "copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run (Q/T = " +
                bandwidth + "), not a point");

  r = run_cli({"plot", kMachine, out, "--terminal", "--width", "100"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("roofline: note: " + out + ": copy @L1 does no arithmetic"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("not a point: not drawn"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("1 point not drawn: copy @L1 (no arithmetic, W = 0)"), std::string::npos)
      << r.out;

  r = run_cli({"point", "--points", out, "--machine", kMachine});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not a point: not placed"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");

  // Listed as skipped; a gate that judged nothing fails (exit 5), as for any document.
  r = run_cli({"check", out, "--machine", kMachine, "--min-attainment", "0.5"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("SKIP  copy @L1: no arithmetic, W = 0: a bandwidth run, not a point: not "
                       "judged"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 point: 0 passed, 0 failed, 1 skipped (no point was judged"),
            std::string::npos)
      << r.out;
  r = run_cli({"check", out, "--machine", kMachine, "--min-attainment", "0.5", "--json"});
  const auto c = nlohmann::json::parse(r.out);
  ASSERT_EQ(c["points"].size(), 1u);
  EXPECT_EQ(c["points"][0]["status"], "skipped");
  EXPECT_EQ(c["points"][0]["bandwidth_only"], true);
}

TEST(CliRun, LevelsWithoutARoofAreReported) {
  const auto r =
      run_cli({"run", "axpy-fp64", "--levels", "L1", "--quick", "--threads", "1", "--machine",
               std::string(ROOFLINE_TEST_DATA) + "/run/machine-dram-only.json", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u);
  EXPECT_NE(j["points"][0]["diagnosis_unavailable"].get<std::string>().find("no roof for L1"),
            std::string::npos);
}

// Roofs measured on 2 threads judge a 1-thread run at half of them at best: said, with the
// flag that matches them; a machine measured on the run's threads gives no such warning.
TEST(CliRun, ThreadsOtherThanTheMachinesAreSaid) {
  const std::string zen4 = std::string(ROOFLINE_TEST_DATA) + "/io/zen4-quick.machine.json";
  auto r = run_cli({"run", "axpy-fp64", "--levels", "L1", "--quick", "--threads", "1", "--machine",
                    zen4, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("zen4-quick.machine.json's roofs were measured on 2 threads, this run "
                       "uses 1: each point is judged against the roofs of 2 threads (give "
                       "--threads 2 to match them)"),
            std::string::npos)
      << r.err;
  TempDir dir;
  auto doc = nlohmann::json::parse(slurp(zen4));
  doc["info"]["threads"] = 1;
  const std::string one = dir.file("one.json");
  test::write_text(one, doc.dump());
  r = run_cli({"run", "axpy-fp64", "--levels", "L1", "--quick", "--threads", "1", "--machine", one,
               "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("were measured on"), std::string::npos) << r.err;
}

// OpenBLAS is opened by the run that asks for a BLAS kernel, not linked: linked, it started its
// thread pool in every command, and under `ulimit -v` every command hung at exit in that pool.
TEST(CliRun, OpenBlasIsNotAmongTheLibrariesEveryCommandLoads) {
  // The dynamic loader lists the binary's libraries without running it (what ldd does).
  const auto r = run_cli({"--version"}, "LD_TRACE_LOADED_OBJECTS=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("libc.so"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("openblas"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("libblas"), std::string::npos) << r.out;
}

// Only a run of a BLAS kernel opens OpenBLAS (the loader's LD_DEBUG=files names every library
// opened, dlopen's too): a run of axpy opened it all the same.
TEST(CliRun, OnlyARunOfABlasKernelOpensOpenBlas) {
  if (!suite::blas_info().available) GTEST_SKIP() << "built without OpenBLAS";
  auto r =
      run_cli({"run", "axpy-fp64", "--levels", "L1", "--quick", "--machine", kMachine, "--json"},
              "LD_DEBUG=files");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("file="), std::string::npos) << "LD_DEBUG gave nothing";
  EXPECT_EQ(r.err.find("openblas"), std::string::npos);
  r = run_cli({"run", "dgemm", "--size", "1 MiB", "--quick", "--machine", kMachine, "--json"},
              "LD_DEBUG=files");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("openblas"), std::string::npos);
}

// A BLAS that gives a wrong answer fails the run's result check: exit 6, the kernel named, its
// timing said to be invalid. The wrong answer comes from outside the product: a libopenblas.so.0
// whose gemm leaves C unwritten (tests/support/broken_openblas.cpp), first on LD_LIBRARY_PATH,
// which the loader searches for the soname blas.cpp opens.
TEST(CliRun, AWrongAnswerFailsTheResultCheckWithExit6) {
  if (!suite::blas_info().available) GTEST_SKIP() << "built without OpenBLAS";
  const std::string env = std::string("LD_LIBRARY_PATH=") + ROOFLINE_BROKEN_OPENBLAS_DIR;
  const std::vector<std::string> args = {
      "run", "dgemm",     "--size", "1 MiB",  "--quick",        "--threads",
      "1",   "--machine", kMachine, "--json", "--no-blas-child"};
  const auto r = run_cli(args, env);
  EXPECT_EQ(r.exit_code, 6) << r.out << r.err;
  EXPECT_NE(r.err.find("result check failed — these timings are not valid:\n  gemm-blas-fp64 @"),
            std::string::npos)
      << r.err;
  // It was the stand-in that ran (its core name), and its record says the check failed.
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u) << r.out;
  EXPECT_NE(j["points"][0]["run"]["note"].get<std::string>().find("OpenBLAS core Haswell"),
            std::string::npos)
      << j["points"][0]["run"]["note"];
  EXPECT_EQ(j["points"][0]["run"]["passed"], false) << j["points"][0]["run"].dump(2);
  // The real OpenBLAS passes the same run.
  EXPECT_EQ(run_cli(args).exit_code, 0);
}

TEST(CliRun, ForcedBlasCoreRunsInAChildAndIsJudgedOnItsRoof) {
  if (!suite::blas_info().available) GTEST_SKIP() << "built without OpenBLAS";
  if (suite::blas_info().config.find("DYNAMIC_ARCH") == std::string::npos)
    GTEST_SKIP() << "an OpenBLAS without DYNAMIC_ARCH takes no OPENBLAS_CORETYPE";
  const auto r = run_cli({"run", "dgemm", "--size", "1 MiB", "--quick", "--blas-core", "Prescott",
                          "--machine", kMachine, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 2u);
  EXPECT_EQ(j["points"][0]["run"]["variant"], "");
  EXPECT_EQ(j["points"][1]["run"]["variant"], "OPENBLAS_CORETYPE=Prescott");
  EXPECT_NE(j["points"][1]["run"]["note"].get<std::string>().find("Prescott"), std::string::npos)
      << j["points"][1]["run"]["note"];
  EXPECT_EQ(j["points"][1]["precision"], "fp64 sse2");
  EXPECT_EQ(j["points"][1]["run"]["check"], "passed");
}

// A core name OpenBLAS does not know: it runs its own choice, which the points would have been
// labelled and judged as the name given.
TEST(CliRun, ACoreNameOpenBlasIgnoresIsRefused) {
  if (!suite::blas_info().available) GTEST_SKIP() << "built without OpenBLAS";
  if (suite::blas_info().config.find("DYNAMIC_ARCH") == std::string::npos)
    GTEST_SKIP() << "an OpenBLAS without DYNAMIC_ARCH takes no OPENBLAS_CORETYPE";
  const auto r = run_cli({"run", "dgemm", "--size", "1 MiB", "--quick", "--blas-core", "Bogus",
                          "--machine", kMachine, "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--blas-core Bogus: OpenBLAS did not take it and ran "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(" instead (a core name it does not know"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// Until measure_machine is built into the library, a run without --machine names what to do.
TEST(CliRun, WithoutAMachineMeasuresThisOneQuickly) {
  // --save-machine keeps the roofs it measured: its points can be drawn again on them (the
  // document names its machine "vm", which nothing else could load).
  TempDir d;
  const std::string machine = d.file("m.json"), points = d.file("p.json");
  const auto r = run_cli({"run", "axpy-fp64", "--levels", "L1", "--quick", "--json",
                          "--save-machine", machine, "-o", points});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("measuring this machine"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["points"].empty());
  EXPECT_TRUE(j["points"][0].contains("diagnosis")) << j["points"][0].dump();
  const MachineDocument m = load_machine_file(machine);
  EXPECT_EQ(m.roofs.name, j["machine"].get<std::string>());
  const auto again = run_cli({"point", "--points", points, "--machine", machine, "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  // The attainment on the saved roofs is the one the run printed.
  const auto a = nlohmann::json::parse(again.out);
  ASSERT_TRUE(a.is_array()) << again.out;  // a points file gives a list, one point or many
  const auto& first = a[0];
  EXPECT_DOUBLE_EQ(first["diagnosis"]["attainment"].get<double>(),
                   j["points"][0]["diagnosis"]["attainment"].get<double>());
}

/// Runs `roofline ARGS -o points.json` (which holds "previous") in the background, sends SIGINT
/// once `wait_then_kill` (shell, $pid and $err set) says so, and checks the points document is
/// not written (the old one stays), the message says so, the status is 128 + SIGINT and no
/// temporary is left.
void expect_interrupt_writes_nothing(const std::string& args, const std::string& wait_then_kill,
                                     bool save_machine = false) {
  TempDir d;
  const std::string path = d.file("points.json");
  { std::ofstream(path) << "previous\n"; }
  const std::string saved = d.file("m.json");
  const std::string more = save_machine ? " --save-machine " + shell_quote(saved) : "";
  const std::string cmd = "( err=" + shell_quote(d.file("err")) + "; " +
                          shell_quote(ROOFLINE_CLI_PATH) + " " + args + more + " -o " +
                          shell_quote(path) + " >/dev/null 2>\"$err\" & pid=$!; " + wait_then_kill +
                          "; wait $pid; echo $? > " + shell_quote(d.file("rc")) + " )";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(d.file("rc")), "130\n") << slurp(d.file("err"));
  EXPECT_EQ(slurp(path), "previous\n");
  EXPECT_NE(
      slurp(d.file("err"))
          .find("interrupted (SIGINT); " + path + " not written (the previous file is unchanged)"),
      std::string::npos)
      << slurp(d.file("err"));
  // Every output is named (--save-machine was not).
  if (save_machine) {
    EXPECT_NE(slurp(d.file("err")).find("; " + saved + " not written (no file created)"),
              std::string::npos)
        << slurp(d.file("err"));
  }
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(d.path)) (void)e, ++files;
  EXPECT_EQ(files, 3);  // points.json, err, rc: no temporary left
}

TEST(CliRun, InterruptLeavesThePreviousPointsFileAndSaysSo) {
  // SIGINT while the suite runs.
  expect_interrupt_writes_nothing("run --machine " + shell_quote(kMachine), signal_when_handled(2));
}

TEST(CliRun, InterruptWhileMeasuringThisMachineWritesNothing) {
  // Without --machine the machine is measured after the kernels: a SIGINT then stops the
  // measurement, and nothing is written (it used to finish, write and call itself complete).
  expect_interrupt_writes_nothing("run axpy-fp64 --levels L1 --quick",
                                  "i=0; while [ $i -lt 1200 ] && ! grep -q 'measuring this "
                                  "machine' \"$err\"; do sleep 0.05; i=$((i + 1)); done; "
                                  "sleep 0.5; kill -2 $pid",
                                  /*save_machine=*/true);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
