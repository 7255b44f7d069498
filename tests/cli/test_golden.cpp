// Golden files for the text and JSON output of the main commands on fixed inputs (catalogue
// entries, the report fixture machine, hand-given W, Q, T): any change to what a user reads
// shows up here as a diff against tests/data/golden/*, to be looked at and accepted on purpose.
// They guard against unintended change only — each number's correctness is tested where it is
// computed. After an intended change: ROOFLINE_UPDATE_GOLDEN=1 ./roofline_tests
// --gtest_filter='Golden*', then read the diff before committing it.
#include <gtest/gtest.h>
#include "unity_id.hpp"

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

const std::string kData = ROOFLINE_TEST_DATA;
const std::filesystem::path kGolden = std::filesystem::path(ROOFLINE_TEST_DATA) / "golden";

struct GoldenCase {
  std::string file;  ///< tests/data/golden/FILE
  std::vector<std::string> args;
};

void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.file;
}

/// The output with this checkout's test-data directory written as <data>, so the files do not
/// depend on where the repository lies.
std::string portable(std::string text) {
  for (auto at = text.find(kData); at != std::string::npos; at = text.find(kData, at))
    text.replace(at, kData.size(), "<data>");
  return text;
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
  return {
      {"point.txt",
       {"point", "--machine", machine, "--name", "saxpy", "--work", "2e9", "--traffic", "1.2e10",
        "--time", "0.1"}},
      {"point.json",
       {"point", "--machine", machine, "--name", "saxpy", "--work", "2e9", "--traffic", "1.2e10",
        "--time", "0.1", "--json"}},
      {"point-points.txt", {"point", "--machine", machine, "--points", points}},
      {"hw-show-h100-sxm.txt", {"hw", "show", "h100-sxm"}},
      {"hw-show-h100-sxm.json", {"hw", "show", "h100-sxm", "--json"}},
      {"hw-compare.txt", {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "10"}},
      {"kernel-gemm.txt",
       {"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--dtype", "fp32"}},
      {"kernel-gemm.json",
       {"kernel", "gemm", "--m", "1024", "--n", "1024", "--k", "1024", "--dtype", "fp32",
        "--json"}},
      {"kernel-list.txt", {"kernel", "list"}},
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
  };
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputIsUnchanged) {
  const GoldenCase& c = GetParam();
  const auto r = run_cli(c.args, "NO_COLOR=1 COLUMNS=100");
  ASSERT_EQ(r.exit_code, 0) << r.err;
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
