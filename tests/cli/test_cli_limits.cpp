// The real executable at the edges: derived quantities that overflow, bit rates, malformed
// command lines, stated limits, and a crash that must stay a crash (MPI, with the signal
// handlers of its stack, is loaded only by the commands that measure a cluster).
#include <signal.h>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_hostile.hpp"
#include "cli/cli_runner.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

using nlohmann::json;
const std::string kData = ROOFLINE_TEST_DATA;
const std::string kA100 = kData + "/core/machine-a100.json";

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

void expect_no_inf_or_nan(const CliResult& r) {
  for (const std::string bad : {"inf", "nan", "NaN", "null"}) {
    EXPECT_FALSE(has(r.out, bad)) << bad << " printed: " << r.out;
    EXPECT_FALSE(has(r.err, " " + bad)) << bad << " printed: " << r.err;
  }
}

TEST(CliLimits, OverflowingDerivedQuantitiesAreRefused) {
  TempDir d;
  auto r = run_cli({"point", "-W", "1e308", "-Q", "1e9", "-T", "0.01", "--peak", "1T",
                    "--bandwidth", "1T", "--report", d.file("chart.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err,
                  "roofline: error: point 'point': P = W/T = 1e+308 / 0.01 s is too large "
                  "for a double (overflow)"))
      << r.err;
  expect_no_inf_or_nan(r);
  EXPECT_TRUE(entries_of(d.path).empty()) << "no chart with x=\"inf\"";

  r = run_cli({"kernel", "gemm", "--m", "1e200", "--n", "1e200", "--k", "1e200"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "gemm: W = 2·m·n·k is too large for a double for these sizes")) << r.err;
  expect_no_inf_or_nan(r);

  // A points document whose ratio underflows, a machine whose ridge overflows.
  write_text(d.file("tiny.json"), R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "tiny", "work": 1e-300, "traffic": 1e9, "time": 1e300}]})");
  r = run_cli({"plot", kA100, d.file("tiny.json"), "-o", d.file("x.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "point 'tiny': P = W/T")) << r.err;
  EXPECT_TRUE(has(r.err, "underflow")) << r.err;
  write_text(d.file("steep.json"), R"({"schema": "roofline.machine", "version": 1, "name": "steep",
    "compute": [{"name": "fp32", "peak": 1e300}], "memory": [{"level": "DRAM", "bandwidth": 1e-10}]})");
  r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "1", "--machine", d.file("steep.json")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "machine 'steep': the ridge I* = peak/bandwidth of 'fp32' over 'DRAM'"))
      << r.err;
  expect_no_inf_or_nan(r);

  // hw compare at an intensity so small that β·I underflows; a model config whose sizes would
  // overflow the operator counts.
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1e-320"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "compare: at I = 1e-320 the attainable performance of 'a100-80gb'"))
      << r.err;
  json config = json::parse(slurp(kData + "/llm/llama-2-7b.config.json"));
  config["hidden_size"] = 1e200;
  write_text(d.file("config.json"), config.dump());
  r = run_cli({"llm", "--model", d.file("config.json"), "--hw", "a100-80gb"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "hidden_size")) << r.err;
  EXPECT_TRUE(has(r.err, "must be at most 1e9")) << r.err;
  expect_no_inf_or_nan(r);
  EXPECT_EQ(entries_of(d.path), (std::set<std::string>{"config.json", "steep.json", "tiny.json"}));
}

TEST(CliLimits, BitRatesAreBits) {
  // ridge I* = π/β with π = 1 TFLOP/s: β = 2 Gb/s = 250 MB/s gives 4000 FLOP/byte.
  const std::vector<std::pair<std::string, double>> cases = {
      {"2 Gb/s", 4000}, {"2 Tbps", 4}, {"16 b/s", 5e11}, {"2 Gbit/s", 4000}, {"2 GB/s", 500}};
  for (const auto& [bandwidth, ridge] : cases) {
    const auto r = run_cli(
        {"kernel", "triad", "--n", "1e6", "--peak", "1T", "--bandwidth", bandwidth, "--json"});
    ASSERT_EQ(r.exit_code, 0) << bandwidth << ": " << r.err;
    EXPECT_DOUBLE_EQ(json::parse(r.out)["machine"]["ridge"].get<double>(), ridge) << bandwidth;
  }
}

TEST(CliLimits, UsageErrorsExitTwoWithTheToolsPrefix) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "A subcommand is required"},
      {{"hw"}, "A subcommand is required"},
      {{"point", "--no-such-flag"}, "--no-such-flag"},
      {{"plot"}, "machine is required"},
      {{"point", "--touching", "5", "-W", "1", "-Q", "1", "-T", "1"}, "--touching"},
      {{"plot", kA100, "--terminal", "--width", "2000000000"}, "--width"},
      {{"plot", kA100, "--terminal", "--width", "1e12"}, "--width"}};
  for (const auto& [args, message] : cases) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("roofline: error: ", 0), 0u) << r.err;
    EXPECT_TRUE(has(r.err, message)) << r.err;
  }
  const auto help = run_cli({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(has(help.out, "plot")) << help.out;
}

// Blanks around a number option's value are no part of it, before and after alike (" 0.7" was
// read, "0.7 " refused as not a number).
TEST(CliLimits, BlanksAroundANumberAreTrimmedBeforeAndAfter) {
  for (const std::string v : {" 0.5", "0.5 ", " 0.5 "}) {
    const auto r = run_cli({"point", "--touching", v, "-W", "1e9", "-Q", "1e9", "-T", "1", "--peak",
                            "1e12", "--bandwidth", "1e11", "--json"});
    ASSERT_EQ(r.exit_code, 0) << "'" << v << "': " << r.err;
  }
  for (const std::string v : {" 2", "2 "}) {
    const auto r =
        run_cli({"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--tp", v, "--json"});
    ASSERT_EQ(r.exit_code, 0) << "'" << v << "': " << r.err;
    EXPECT_NE(r.out.find("\"tp\": 2"), std::string::npos) << r.out.substr(0, 400);
  }
  const auto octal = run_cli({"llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--tp", " 010"});
  EXPECT_EQ(octal.exit_code, 2);
  EXPECT_TRUE(has(octal.err, "--tp: not a decimal number: 010")) << octal.err;
}

TEST(CliLimits, LimitsAreStatedNotHidden) {
  auto r = run_cli({"llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--batch", "1e12"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--batch: '1e12' is not a whole number from 1 to 1e9")) << r.err;
  r = run_cli({"llm", "--help"});
  EXPECT_TRUE(has(r.out, "whole numbers 1 to 1e9")) << r.out;
  r = run_cli({"plot", "--help"});
  EXPECT_TRUE(has(r.out, "40 to 1000")) << r.out;
  // The widest plot is drawn.
  r = run_cli({"plot", kA100, "--terminal", "--width", "1000"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliLimits, TheExecutableDoesNotLinkMpi) {
  const std::string cmd = "readelf -d " + shell_quote(ROOFLINE_CLI_PATH);
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string needed;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p))
    if (has(buf, "(NEEDED)")) needed += buf;
  ::pclose(p);
  ASSERT_FALSE(needed.empty()) << "readelf gave nothing";
  for (const std::string lib : {"libmpi", "libucs", "libucp", "libopen-pal"})
    EXPECT_FALSE(has(needed, lib)) << needed;
}

TEST(CliLimits, ACrashIsACrashNotAHang) {
  // A live process: stdout a one-page pipe nobody reads, so `hw list --json` (10 KB) blocks.
  BlockedCli cli({"hw", "list", "--json"});
  ASSERT_GT(cli.pid, 0);
  EXPECT_EQ(cli.wait_for(1.0), -1) << "expected the process to block on its full stdout";
  const std::string maps = slurp("/proc/" + std::to_string(cli.pid) + "/maps");
  ASSERT_FALSE(maps.empty());
  for (const std::string lib : {"libmpi", "libucs", "libucp"})
    EXPECT_FALSE(has(maps, lib)) << lib << " is loaded by `hw list`";
  ASSERT_EQ(::kill(cli.pid, SIGSEGV), 0);
  const int status = cli.wait_for(20.0);
  ASSERT_NE(status, -1) << "the crash became a hang";
  const std::string err = slurp(cli.err_path);
#if defined(ROOFLINE_SANITIZED)
  // Built with ASan or TSan, the executable's SEGV is the sanitizer's to report: it prints
  // "<Sanitizer>: SEGV" and exits non-zero (1 for ASan, 66 for TSan) instead of dying by the
  // signal. It still ended: no hang.
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0) << status;
  EXPECT_TRUE(has(err, "Sanitizer: SEGV")) << err;
#else
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) << status;
#endif
  EXPECT_FALSE(has(err, "Caught signal")) << err;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
