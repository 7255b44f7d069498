// Golden files for the text, JSON, CSV and JUnit output of the main commands on fixed inputs
// (catalogue entries, the report fixture machine, hand-given W, Q, T, the check fixtures, the
// real tools' exports and the recorded counter readings of tests/data/import, LLM presets; the
// catalogue is data/hardware alone, ROOFLINE_HW_PATH emptied): any change to what a user reads
// shows up here as a diff against tests/data/golden/*, to be looked at and accepted on purpose.
// They guard against unintended change only — each number's correctness is tested where it is
// computed. After an intended change: ROOFLINE_UPDATE_GOLDEN=1 ./roofline_tests
// --gtest_filter='MainCommands/Golden*', then read the diff before committing it.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using roofline::test::run_cli;
using roofline::test::TempDir;

const std::string kData = ROOFLINE_TEST_DATA;
const std::filesystem::path kGolden = std::filesystem::path(ROOFLINE_TEST_DATA) / "golden";

struct GoldenCase {
  std::string file;               ///< tests/data/golden/FILE
  std::vector<std::string> args;  ///< "<tmp>" in an argument stands for a fresh temporary folder
  int exit_code = 0;              ///< `check` exits 5 when its gate fails
};

void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.file;
}

/// The output with this checkout's test-data directory written as <data>, so the files do not
/// depend on where the repository lies; also as a JUnit classname writes it, each '.' a '_'.
std::string portable(std::string text) {
  std::string classname = kData;
  std::replace(classname.begin(), classname.end(), '.', '_');
  for (const std::string& dir : {kData, classname})
    for (auto at = text.find(dir); at != std::string::npos; at = text.find(dir, at))
      text.replace(at, dir.size(), "<data>");
  return text;
}

/// The arguments of `a`, then those of `b`.
std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// The gate over fixed points, config and baseline (tests/data/check) on the report fixture
/// machine: points pass, fail, improve, regress and are skipped, so the gate fails (exit 5).
std::vector<GoldenCase> check_cases() {
  const std::string check = kData + "/check";
  const std::vector<std::string> gate = {
      "check",    check + "/points.json", "--machine",  kData + "/report/machine.json",
      "--config", check + "/config.json", "--baseline", check + "/baseline.json"};
  return {
      {"check.txt", gate, 5},
      {"check.json", joined(gate, {"--json"}), 5},
      {"check-junit.xml", joined(gate, {"--junit", "-", "-o", "<tmp>/report.txt"}), 5},
  };
}

/// The catalogue's tables (data/hardware) and the vertical line between two of its machines.
std::vector<GoldenCase> hw_cases() {
  return {
      {"hw-list.txt", {"hw", "list"}},
      {"hw-ridges.txt", {"hw", "ridges"}},
      {"hw-ridges.json", {"hw", "ridges", "--json"}},
      {"hw-ridges.csv", {"hw", "ridges", "--csv"}},
      {"hw-compare.json", {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "10", "--json"}},
      {"hw-compare-point.txt",
       {"hw", "compare", "a100-80gb", "h100-sxm", "--point", kData + "/core/points.json"}},
  };
}

/// Exports the real tools wrote (tests/data/import/real) and recorded counter readings.
std::vector<GoldenCase> import_cases() {
  const std::string real = kData + "/import/real";
  const std::string ncu = real + "/ncu-a100-details-printfp-sgemm.csv";
  const std::string flops = real + "/likwid-coffeelake-csv-flopsdp-128.log";
  const std::string l3 = real + "/likwid-coffeelake-csv-l3-128.log";
  const std::string dcgm = real + "/dcgm-t4-triton-bert.txt";
  // A T4's datasheet roofs: the catalogue has no T4.
  const std::vector<std::string> t4 = {"--peak",   "65T",         "--bandwidth",
                                       "320 GB/s", "--precision", "fp16 tensor"};
  return {
      {"import-ncu.txt", {"import", "ncu", ncu, "--hw", "a100-40gb"}},
      {"import-ncu.json", {"import", "ncu", ncu, "--hw", "a100-40gb", "--json"}},
      {"import-likwid.txt", {"import", "likwid", flops, l3}},
      {"import-likwid.json", {"import", "likwid", flops, l3, "--json"}},
      {"import-dcgm.txt", joined({"import", "dcgm", dcgm}, t4)},
      {"import-dcgm.json", joined({"import", "dcgm", dcgm, "--json"}, t4)},
      {"profile-replay-icx.txt",
       {"profile", "--replay", kData + "/import/perf-intel-icx-dgemm.json", "--hw",
        "xeon-platinum-8380"}},
      {"profile-replay-zen3.json",
       {"profile", "--replay", kData + "/import/perf-amd-zen3-triad.json", "--hw", "epyc-7763",
        "--json"}},
  };
}

/// roofline llm beyond one decode step: several machines, training, a sweep, CSV, serving.
std::vector<GoldenCase> llm_cases() {
  const std::vector<std::string> step = {"llm", "--model",   "llama-2-7b", "--batch",
                                         "8",   "--context", "2048"};
  return {
      {"llm-machines.txt", joined(step, {"--hw", "a100-80gb,h100-sxm,mi300x"})},
      {"llm-decode.csv", joined(step, {"--hw", "a100-80gb", "--csv"})},
      {"llm-train.txt",
       {"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--train", "--seq", "4096",
        "--global-batch", "64", "--dp", "8"}},
      {"llm-sweep.txt",
       {"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--batch", "1..64", "--context",
        "1024,4096"}},
      {"llm-sweep.csv",
       {"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--batch", "1..64", "--context",
        "1024,4096", "--csv"}},
      {"llm-serving.json",
       {"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--concurrency", "8", "--requests",
        "1024:128,512:64", "--json"}},
  };
}

std::vector<GoldenCase> cases() {
  const std::string machine = kData + "/report/machine.json";
  const std::string points = kData + "/report/points.json";
  // Two measured machines (roofs with statistics: verdicts against the noise, roofs in one only)
  // and two points documents (spreads from times and from min/median/max, a level in both, a
  // precision changed, an integer point, points in one only).
  const std::string zen4 = kData + "/io/zen4-quick.machine.json";
  const std::string sapphire = kData + "/io/sapphire-class-quick.machine.json";
  const std::string points_a = kData + "/diff/a.points.json";
  const std::string points_b = kData + "/diff/b.points.json";
  std::vector<GoldenCase> all = {
      {"point.txt",
       {"point", "--machine", machine, "--name", "saxpy", "--work", "2e9", "--traffic", "1.2e10",
        "--time", "0.1"}},
      {"point.json",
       {"point", "--machine", machine, "--name", "saxpy", "--work", "2e9", "--traffic", "1.2e10",
        "--time", "0.1", "--json"}},
      {"point-points.txt", {"point", "--machine", machine, "--points", points}},
      {"plot-terminal.txt", {"plot", machine, points, "--terminal", "--width", "100"}},
      {"hw-show-h100-sxm.txt", {"hw", "show", "h100-sxm"}},
      {"hw-show-h100-sxm.json", {"hw", "show", "h100-sxm", "--json"}},
      {"hw-compare.txt", {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "10"}},
      {"kernel-list.txt", {"kernel", "list"}},
      {"kernel-gemm.txt",
       {"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--dtype", "fp32"}},
      {"kernel-gemm.json",
       {"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--dtype", "fp32",
        "--json"}},
      {"kernel-list.json", {"kernel", "list", "--json"}},
      {"llm-decode.txt",
       {"llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch", "8", "--context", "2048"}},
      {"llm-decode.json",
       {"llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch", "8", "--context", "2048",
        "--json"}},
      {"llm-serving.txt",
       {"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--concurrency", "8", "--requests",
        "1024:128,512:64"}},
      {"diff-machines-catalogue.txt", {"diff", "h100-sxm", "h200"}},
      {"diff-machines-catalogue.json", {"diff", "h100-sxm", "h200", "--json"}},
      {"diff-machines-measured.txt", {"diff", zen4, sapphire}},
      {"diff-machines-measured.json", {"diff", zen4, sapphire, "--json"}},
      {"diff-points.txt", {"diff", points_a, points_b}},
      {"diff-points.json", {"diff", points_a, points_b, "--json"}},
      {"llm-compare-priced.json",
       {"llm", "--model", "llama-2-7b", "--hw", "a100,l4,h100-sxm", "--batch", "8", "--context",
        "2048", "--price-per-hour", "a100=2,L4=0.8", "--json"}},
      {"energy.txt",
       {"energy", "--machine", machine, "--eps-flop", "1e-10", "--eps-mem", "5e-10", "--pi0", "20",
        "--intensity", "0.25", "--intensity", "8", "--powercap",
        kData + "/energy/powercap/no-rapl"}},
      {"energy.json",
       {"energy", "--machine", machine, "--eps-flop", "1e-10", "--eps-mem", "5e-10", "--pi0", "20",
        "--intensity", "0.25", "--intensity", "8", "--powercap", kData + "/energy/powercap/no-rapl",
        "--json"}},
  };
  for (auto group : {check_cases(), hw_cases(), import_cases(), llm_cases()})
    all.insert(all.end(), group.begin(), group.end());
  return all;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputIsUnchanged) {
  const GoldenCase& c = GetParam();
  const TempDir tmp;
  std::vector<std::string> args = c.args;
  for (std::string& a : args)
    if (a.rfind("<tmp>", 0) == 0) a.replace(0, 5, tmp.path.string());
  // An empty ROOFLINE_HW_PATH: the catalogue is data/hardware whatever the environment adds.
  const auto r = run_cli(args, "NO_COLOR=1 COLUMNS=100 ROOFLINE_HW_PATH=");
  ASSERT_EQ(r.exit_code, c.exit_code) << r.err;
  const std::string out = portable(r.out);
  const std::filesystem::path file = kGolden / c.file;
  if (const char* u = std::getenv("ROOFLINE_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::filesystem::create_directories(kGolden);
    std::ofstream(file, std::ios::binary) << out;
    GTEST_SKIP() << "wrote " << file;
  }
  ASSERT_TRUE(std::filesystem::exists(file))
      << file << " is missing: ROOFLINE_UPDATE_GOLDEN=1 writes it";
  const std::string want = roofline::test::slurp(file);
  EXPECT_EQ(out, want) << "the output of roofline";
}

INSTANTIATE_TEST_SUITE_P(MainCommands, Golden, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& i) {
                           std::string n;
                           for (char ch : i.param.file)
                             n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return n;
                         });

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
