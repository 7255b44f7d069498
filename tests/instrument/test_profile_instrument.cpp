// `roofline profile --instrument`: a C program built by the tests with the plugin gives one point
// per function — W counted, Q simulated (small simulated caches, so that "DRAM size" stays small
// under the simulator), T sampled natively.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/dtype.hpp"
#include "roofline/import.hpp"
#include "roofline/io.hpp"
#include "roofline/kernels.hpp"

namespace roofline::instrument {
namespace ROOFLINE_UNITY_ID {
using nlohmann::json;
using roofline::test::run_cli;

#ifdef ROOFLINE_FLOPCOUNT_PROGRAMS
const std::string kPrograms = ROOFLINE_FLOPCOUNT_PROGRAMS;
#else
const std::string kPrograms;
#endif

const char* const kNoPlugin =
    "the flopcount plugin is not built (needs llvm-14-dev and clang-14, "
    "scripts/deps.d/instrument.txt)";

bool have_valgrind() {
  return std::system("valgrind --version >/dev/null 2>&1") == 0;
}

#define REQUIRE_TOOLS()                             \
  if (kPrograms.empty()) GTEST_SKIP() << kNoPlugin; \
  if (!have_valgrind())                             \
  GTEST_SKIP() << "valgrind is not installed "      \
                  "(scripts/deps.d/instrument.txt)"

// Simulated: L1 32 KiB 8-way, L2 256 KiB 8-way, L3 1 MiB 16-way. Working sets of 4 MiB and more
// are then at "DRAM size" (4× the last level) while the simulator runs for seconds.
const char* kCaches = "L1=32K/8,L2=256K/8,L3=1M/16";
const DataType kFp64 = parse_dtype("fp64");

/// `profile --instrument --json` with the document written to a file (-o: the native run's
/// output is on standard output, and JSON is never written beside it), read back into `out`.
roofline::test::CliResult run_json(std::vector<std::string> args, const std::string& env = "") {
  roofline::test::TempDir dir;
  const std::string file = dir.file("profile.json");
  args.insert(std::find(args.begin(), args.end(), "--"), {"-o", file});
  roofline::test::CliResult r = run_cli(args, env);
  r.out = std::filesystem::exists(file) ? read_text_file(file) : std::string();
  return r;
}

const json* find_point(const json& doc, const std::string& name) {
  for (const auto& p : doc["points"])
    if (p["name"] == name) return &p;
  return nullptr;
}
const json* find_function(const json& doc, const std::string& name) {
  for (const auto& f : doc["run"]["functions"])
    if (f["name"] == name) return &f;
  return nullptr;
}

class ProfileInstrument : public ::testing::Test {
 protected:
  // One run shared by the tests of this suite: axpy and triad of n = 2^18 doubles six times,
  // gemm_tiled 256 with 32-tiles, stencil2d 512×512.
  static void SetUpTestSuite() {
    if (kPrograms.empty() || !have_valgrind()) return;
    result_ = new roofline::test::CliResult(
        run_json({"profile", "--instrument", "--json", "--sim-caches", kCaches, "--",
                  kPrograms + "/fc_kernels_v3", "mix", std::to_string(kN), std::to_string(kCalls),
                  "256", "32", "512", "512"},
                 "ROOFLINE_FLOPCOUNT_INTERVAL_US=100"));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static constexpr double kN = 262144, kCalls = 6;
  static roofline::test::CliResult* result_;
};
roofline::test::CliResult* ProfileInstrument::result_ = nullptr;

TEST_F(ProfileInstrument, PerFunctionPoints) {
  REQUIRE_TOOLS();
  ASSERT_EQ(result_->exit_code, 0) << result_->err;
  const json doc = json::parse(result_->out);
  // It is a points document like any other.
  const PointsDocument points = points_from_json(doc, "profile output");
  EXPECT_GE(points.points.size(), 5u);
  const std::vector<std::pair<std::string, double>> expected = {
      {"axpy", kCalls * roofline::axpy(kN, kFp64).work.value},
      {"triad", kCalls * roofline::triad(kN, kFp64).work.value},
      {"gemm_tiled", roofline::gemm(256, 256, 256, kFp64).work.value},
      {"stencil2d", roofline::stencil2d(512, 512, kFp64).work.value}};
  double weights = 0;
  for (const auto& [name, flops] : expected) {
    SCOPED_TRACE(name);
    const json* p = find_point(doc, name);
    ASSERT_NE(p, nullptr) << result_->out.substr(0, 2000);
    EXPECT_EQ((*p)["work"].get<double>(), flops);
    EXPECT_EQ((*p)["source"], "instrumented");
    EXPECT_EQ((*p)["precision"], "fp64");
    EXPECT_EQ((*p)["provenance"]["work"], "instrumented");
    EXPECT_EQ((*p)["provenance"]["traffic"], "simulated");
    EXPECT_EQ((*p)["provenance"]["time"], "sampled");
    EXPECT_GT((*p)["time"].get<double>(), 0);
    const double w = (*p)["weight"].get<double>();
    EXPECT_GT(w, 0);
    EXPECT_LE(w, 1);
    weights += w;
    EXPECT_EQ((*p)["traffic"][0]["level"], "DRAM");
  }
  EXPECT_LE(weights, 1.0 + 1e-9);
  // The whole program: every function's W, T of the native run.
  const json* whole = find_point(doc, "fc_kernels_v3");
  ASSERT_NE(whole, nullptr);
  double sum = 0;
  for (const auto& f : doc["run"]["functions"]) sum += f["flops"].get<double>();
  EXPECT_EQ((*whole)["work"].get<double>(), sum);
  EXPECT_EQ((*whole)["time"].get<double>(), doc["run"]["wall_seconds"].get<double>());
  // The counted and simulated runs are not the timed one.
  EXPECT_GT(doc["run"]["counting"]["slowdown"].get<double>(), 0);
  ASSERT_EQ(doc["run"]["simulations"].size(), 2u);  // LL = L3 and LL = L2
  EXPECT_GT(doc["run"]["simulations"][0]["slowdown"].get<double>(), 1);
  EXPECT_FALSE(doc["run"]["simulator_limits"].empty());
}

// Streaming kernels at DRAM size: within 10 % of the compulsory traffic.
TEST_F(ProfileInstrument, StreamingTrafficIsCompulsory) {
  REQUIRE_TOOLS();
  ASSERT_EQ(result_->exit_code, 0) << result_->err;
  const json doc = json::parse(result_->out);
  const json* axpy = find_function(doc, "axpy");
  ASSERT_NE(axpy, nullptr);
  const json& q = (*axpy)["traffic"];
  const double compulsory = kCalls * roofline::axpy(kN, kFp64).traffic.value;  // 3·n·8 B
  EXPECT_NEAR(q["DRAM"].get<double>() / compulsory, 1.0, 0.10) << q.dump();
  // Lines filled into L1 and into L2: x and y, 2·n·8 B per call (y's write-back is not a fill).
  const double fills = kCalls * 2 * kN * 8;
  EXPECT_NEAR(q["L2"].get<double>() / fills, 1.0, 0.10) << q.dump();
  EXPECT_NEAR(q["L3"].get<double>() / fills, 1.0, 0.10) << q.dump();
  // triad writes an array it does not read: the write-allocate read comes on top, as the
  // catalogue's moved count has it (4·n·8 B), never below the named 3·n·8 B.
  const json* triad = find_function(doc, "triad");
  ASSERT_NE(triad, nullptr);
  const KernelCount t = roofline::triad(kN, kFp64);
  const double dram = (*triad)["traffic"]["DRAM"].get<double>();
  EXPECT_GE(dram, kCalls * t.traffic.value);
  EXPECT_NEAR(dram / (kCalls * t.traffic_write_allocate.value), 1.0, 0.10);
}

// The other kernels: never below the compulsory traffic at any level.
TEST_F(ProfileInstrument, OtherKernelsNeverBelowCompulsory) {
  REQUIRE_TOOLS();
  ASSERT_EQ(result_->exit_code, 0) << result_->err;
  const json doc = json::parse(result_->out);
  const json* gemm = find_function(doc, "gemm_tiled");
  ASSERT_NE(gemm, nullptr);
  const double g = roofline::gemm(256, 256, 256, kFp64).traffic.value;  // 3·n²·8 B
  for (const char* level : {"L2", "L3", "DRAM"})
    EXPECT_GE((*gemm)["traffic"][level].get<double>(), g) << level;
  // stencil2d reads the whole grid and writes its interior rows 1..ny−2: the lines it touches
  // are nx·ny·8 + nx·(ny−2)·8 B (the catalogue's 2·nx·ny·8 counts the boundary rows of `out`,
  // which the kernel never writes; DRAM adds the write-backs and exceeds both).
  const json* st = find_function(doc, "stencil2d");
  ASSERT_NE(st, nullptr);
  const double touched = (512.0 * 512 + 512.0 * 510) * 8;
  for (const char* level : {"L2", "L3", "DRAM"})
    EXPECT_GE((*st)["traffic"][level].get<double>(), touched) << level;
  EXPECT_GE((*st)["traffic"]["DRAM"].get<double>(),
            roofline::stencil2d(512, 512, kFp64).traffic.value);
}

TEST(ProfileInstrumentCli, TextOutputSaysWhatTheSimulatorCannotSee) {
  REQUIRE_TOOLS();
  const auto r =
      run_cli({"profile", "--instrument", "--simulate", "last", "--sim-caches", "L1=32K/8,L3=1M/16",
               "--", kPrograms + "/fc_kernels_v3", "axpy", "262144", "4"},
              "ROOFLINE_FLOPCOUNT_INTERVAL_US=100 NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("what the simulator does not see"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("write-backs"), std::string::npos);
  EXPECT_NE(r.out.find("counted W = 2.097 MFLOP"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("× the native run"), std::string::npos);
}

TEST(ProfileInstrumentCli, ProgramWithoutThePluginStillGetsQAndT) {
  REQUIRE_TOOLS();
  const auto r =
      run_json({"profile", "--instrument", "--json", "--simulate", "last", "--sim-caches",
                "L1=32K/8,L3=1M/16", "--", kPrograms + "/fc_kernels_plain", "axpy", "100000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["run"]["counting"]["processes"], 0);
  EXPECT_NE(doc["run"]["messages"].dump().find("wrote no counts"), std::string::npos);
  ASSERT_EQ(doc["run"]["simulations"].size(), 1u);
  EXPECT_FALSE(doc["run"]["simulations"][0].contains("problem"));
  EXPECT_TRUE(doc["points"].empty());
}

// Marker regions: Q from the parts of the simulated run during which each was open (the marker
// runtime dumps the simulator's counts at every boundary). x and y are set before any region:
// that traffic must not be the regions'.
TEST(ProfileInstrumentCli, ARegionGetsTheSimulatedTrafficOfTheTimeItWasOpen) {
  REQUIRE_TOOLS();
  constexpr double n = 262144, passes = 3;  // 2 MiB per array: DRAM size for a 1 MiB L3
  const auto r = run_json({"profile", "--instrument", "--json", "--sim-caches", kCaches, "--",
                           kPrograms + "/fc_regions", "262144", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  const json* inner = find_point(doc, "inner");
  const json* outer = find_point(doc, "outer");
  ASSERT_NE(inner, nullptr) << doc["run"]["notes"].dump();
  ASSERT_NE(outer, nullptr) << doc["run"]["notes"].dump();
  const double compulsory = passes * roofline::axpy(n, kFp64).traffic.value;  // 3·n·8 B a pass
  for (const json* p : {inner, outer}) {
    SCOPED_TRACE((*p)["name"].get<std::string>());
    EXPECT_EQ((*p)["provenance"]["traffic"], "simulated");
    EXPECT_EQ((*p)["provenance"]["work"], "instrumented");
    EXPECT_EQ((*p)["provenance"]["time"], "marker");
    EXPECT_EQ((*p)["work"].get<double>(), passes * 2 * n);
    ASSERT_EQ((*p)["traffic"][0]["level"], "DRAM") << (*p).dump();
    EXPECT_NEAR((*p)["traffic"][0]["bytes"].get<double>() / compulsory, 1.0, 0.10) << (*p).dump();
  }
  // "outer" holds the passes of "inner" and nothing else that moves data.
  EXPECT_NEAR(
      (*outer)["traffic"][0]["bytes"].get<double>() / (*inner)["traffic"][0]["bytes"].get<double>(),
      1.0, 0.02);
  // The whole program adds the setting of x and y (write-allocate reads and write-backs).
  const json* whole = find_point(doc, "fc_regions");
  ASSERT_NE(whole, nullptr);
  EXPECT_GT((*whole)["traffic"][0]["bytes"].get<double>(),
            (*inner)["traffic"][0]["bytes"].get<double>() + 2 * n * 8);
}

// Past the runtime's cap on dumped boundaries a region's passes are not all seen: no simulated
// Q, and the note says how many were.
TEST(ProfileInstrumentCli, ARegionWithMorePassesThanTheDumpsSeeGetsNoSimulatedQ) {
  REQUIRE_TOOLS();
  const auto r =
      run_json({"profile", "--instrument", "--json", "--simulate", "last", "--sim-caches",
                "L1=32K/8,L3=1M/16", "--", kPrograms + "/fc_regions", "64", "2100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(find_point(doc, "inner"), nullptr);
  EXPECT_EQ(find_point(doc, "outer"), nullptr);
  const std::string notes = doc["run"]["notes"].dump();
  EXPECT_NE(notes.find("region 'inner'"), std::string::npos) << notes;
  EXPECT_NE(notes.find("of its 2100 passes"), std::string::npos) << notes;
  EXPECT_NE(notes.find("the first 4000 region boundaries"), std::string::npos) << notes;
}

// Simulated against measured: likwid-perfctr's MEM_DP group counted the DRAM traffic of two
// marker regions of a program on an AMD EPYC 7702 (tests/data/import/real, README there names
// the source). fc_matvec_regions runs the same loops at the same N = 10 000 with the same
// regions; the simulator gets that CPU's caches (L1d 32 KiB 8-way, L2 512 KiB 8-way, L3 16 MiB
// 16-way per CCX: AMD, Software Optimization Guide for Family 17h Models 30h and Greater, pub.
// 56305, §2.6). W counted must equal the PMU's FLOP count; Q simulated within 5 % of the PMU's.
TEST(ProfileInstrumentCli, RegionsTrafficAgainstARecordedPmu) {
  REQUIRE_TOOLS();
  const std::string file =
      std::string(ROOFLINE_TEST_DATA) + "/import/real/likwid-zen2-text-memdp-flopsdp.txt";
  const ImportResult pmu = import_likwid(read_text_file(file), file);
  ASSERT_EQ(pmu.doc.points.size(), 2u);
  const auto r =
      run_json({"profile", "--instrument", "--json", "--simulate", "last", "--sim-caches",
                "L1=32K/8,L2=512K/8,L3=16M/16", "--", kPrograms + "/fc_matvec_regions", "10000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  for (const Point& measured : pmu.doc.points) {
    SCOPED_TRACE(measured.name);
    const json* region = nullptr;
    for (const auto& g : doc["run"]["regions"])
      if (g["name"] == measured.name) region = &g;
    ASSERT_NE(region, nullptr) << doc["run"]["regions"].dump();
    ASSERT_EQ((*region)["simulated_passes"].size(), 1u);
    EXPECT_TRUE((*region)["simulated_passes"][0]["complete"].get<bool>());
    const double simulated = (*region)["traffic"]["DRAM"].get<double>();
    const double recorded = measured.traffic_at("DRAM").bytes.value;
    // Measured here: <function_a> 0.8170 GB simulated against 0.8174 GB counted; the filling
    // region 1.584 against 1.618 GB (its dirty lines still in the last level at its end are
    // written back during <function_a>, as on the hardware).
    EXPECT_NEAR(simulated / recorded, 1.0, 0.05)
        << simulated << " B simulated, " << recorded << " B counted by the PMU";
    if (measured.work.value > 1000) {  // <function_a>: 200 000 000 FLOP by both
      EXPECT_EQ((*region)["flops"].get<double>(), measured.work.value);
    }
  }
  const json* fa = find_point(doc, "<function_a>");
  ASSERT_NE(fa, nullptr);
  EXPECT_EQ((*fa)["provenance"]["traffic"], "simulated");
}

// --report: the functions on the given roofs, each dot sized by its share of the samples.
TEST(ProfileInstrumentCli, ReportDrawsFunctionsAsDotsSizedByTheirTime) {
  REQUIRE_TOOLS();
  roofline::test::TempDir dir;
  const std::string html = dir.file("profile.html");
  const auto r = run_cli(
      {"profile", "--instrument", "--simulate", "last", "--sim-caches", "L1=32K/8,L3=1M/16",
       "--machine", std::string(ROOFLINE_TEST_DATA) + "/report/machine.json", "--report", html,
       "--", kPrograms + "/fc_kernels_v3", "mix", "262144", "6", "128", "32", "256", "256"},
      "ROOFLINE_FLOPCOUNT_INTERVAL_US=100 NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = read_text_file(html);
  EXPECT_NE(page.find("<th>weight</th>"), std::string::npos);
  EXPECT_NE(page.find("dot area"), std::string::npos);
  EXPECT_NE(page.find("data-name=\"axpy\""), std::string::npos);
  EXPECT_NE(page.find("data-weight=\""), std::string::npos);
}

// The documented example on a catalogue CPU, which publishes DRAM alone: the region's simulated
// traffic is all at L2/L3 (12 MB stays in the 60 MB LLC), so it lost every level and vanished
// without a word, while the program declared Q = 12 MB at DRAM. It is judged at the declared Q;
// the document keeps the simulated levels beside it (they were dropped from it).
TEST(ProfileInstrumentCli, ARegionOffTheMachinesLevelsKeepsItsDeclaredTraffic) {
  REQUIRE_TOOLS();
  const auto r = run_json({"profile", "--instrument", "--hw", "xeon-platinum-8380", "--json", "--",
                           kPrograms + "/fc_saxpy_regions", "1000000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  const json* p = find_point(doc, "saxpy-c");
  ASSERT_NE(p, nullptr) << r.out;
  ASSERT_EQ((*p)["traffic"].size(), 3u) << *p;
  EXPECT_EQ((*p)["traffic"][0]["level"], "L3");
  EXPECT_EQ((*p)["traffic"][1]["level"], "L2");
  EXPECT_EQ((*p)["traffic"][2]["level"], "DRAM");
  EXPECT_DOUBLE_EQ((*p)["traffic"][2]["bytes"].get<double>(), 12e6);  // 3 arrays of 1e6 fp32
  EXPECT_EQ((*p)["provenance"]["traffic"], "simulated, and declared at DRAM");
  const json* judged = nullptr;
  for (const auto& a : doc["analysis"])
    if (a["name"] == "saxpy-c") judged = &a;
  ASSERT_NE(judged, nullptr) << r.out;
  ASSERT_EQ((*judged)["traffic"].size(), 1u) << *judged;
  EXPECT_EQ((*judged)["traffic"][0]["level"], "DRAM");
  EXPECT_DOUBLE_EQ((*judged)["traffic"][0]["bytes"].get<double>(), 12e6);
  std::string notes;
  for (const auto& n : doc["run"]["notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(notes.find("saxpy-c: Q declared (12 MB at DRAM)"), std::string::npos) << notes;
}

// A program killed in the native run: no point and -o left as it was, as plain profile does
// (an empty points file replaced it, with "was it built with the flopcount plugin?").
TEST(ProfileInstrumentCli, AKilledProgramLeavesTheOutputAlone) {
  REQUIRE_TOOLS();
  roofline::test::TempDir dir;
  const std::string out = dir.file("kept.json");
  roofline::test::write_text(out, "mine\n");
  const auto r =
      run_cli({"profile", "--instrument", "-o", out, "--", "/bin/sh", "-c", "kill -ABRT $$"});
  EXPECT_EQ(r.exit_code, 128 + 6) << r.err;
  EXPECT_NE(r.err.find("killed by signal 6 (SIGABRT)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(out + " is left as it was"), std::string::npos) << r.err;
  EXPECT_EQ(roofline::test::slurp(out), "mine\n");
}

TEST(ProfileInstrumentCli, MissingSimulatorIsSaidPlainly) {
  if (kPrograms.empty()) GTEST_SKIP() << kNoPlugin;
  // The default `valgrind`, on a PATH without it (a --valgrind given that runs nothing is bad
  // input instead: the bad-input table).
  const auto r = run_json({"profile", "--instrument", "--json", "--sim-caches", "L1=32K/8,L3=1M/16",
                           "--", kPrograms + "/fc_kernels_v3", "axpy", "1000"},
                          "PATH=/nonexistent");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_NE(doc["run"]["messages"].dump().find("install Debian's valgrind"), std::string::npos)
      << doc["run"]["messages"].dump();
  // W was still counted.
  ASSERT_FALSE(doc["run"]["functions"].empty());
}

TEST(ProfileInstrumentCli, FailingProgramIsNotRunAgain) {
  if (kPrograms.empty()) GTEST_SKIP() << kNoPlugin;
  const auto r = run_json(
      {"profile", "--instrument", "--json", "--", kPrograms + "/fc_kernels_v3", "no-such-kernel"});
  EXPECT_EQ(r.exit_code, 2);  // the program's own status
  const json doc = json::parse(r.out);
  EXPECT_NE(doc["run"]["messages"].dump().find("not run again"), std::string::npos);
  EXPECT_TRUE(doc["run"]["simulations"].empty());
}

TEST(ProfileInstrumentCli, BadOptionsNameTheProblem) {
  auto r = run_cli({"profile", "--instrument", "--sim-caches", "L1=32K", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sim-caches: 'L1=32K'"), std::string::npos) << r.err;
  r = run_cli({"profile", "--instrument", "--simulate", "some", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--simulate"), std::string::npos) << r.err;
  r = run_cli({"profile", "--instrument", "--work", "1e9", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_cli({"profile", "--instrument"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no program given"), std::string::npos) << r.err;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::instrument
