// The command line: custom-unit rooflines (examples/custom) diagnosed in their own units, and
// `roofline cluster` as a single rank (no mpirun): per-node documents, the rank-count check and a
// failing node, each leaving no partial document. The multi-rank runs are in tests/ci.d/mpi.sh.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_hostile.hpp"
#include "cli/cli_runner.hpp"
#include "roofline/cluster.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::TempDir;
using roofline::test::write_text;

namespace ROOFLINE_UNITY_ID {

std::string example(const std::string& name, const std::string& file) {
  return std::string(ROOFLINE_SOURCE_DIR) + "/examples/custom/" + name + "/" + file;
}

roofline::test::CliResult run_example(const std::string& name) {
  return run_cli({"point", "--machine", example(name, "machine.json"), "--points",
                  example(name, "points.json")},
                 "NO_COLOR=1");
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// MPICH keeps allocations until exit; under LeakSanitizer that would fail the run.
const char* kMpiEnv = "NO_COLOR=1 ASAN_OPTIONS=detect_leaks=0";

TEST(CustomUnits, DatabaseQueryReadsInTuplesAndDiskReads) {
  const auto r = run_example("db");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "I = W/Q") || has(r.out, "tuple/disk read")) << r.out;
  EXPECT_TRUE(has(r.out, "5 tuple/disk read")) << r.out;  // index lookups: 1e6 / 2e5
  EXPECT_TRUE(has(r.out, "data movement (disk reads) is the bottleneck")) << r.out;
  EXPECT_TRUE(has(r.out, "NVMe 128K sequential")) << r.out;
  EXPECT_TRUE(has(r.out, "on the flat 'scan' roof")) << r.out;
  EXPECT_FALSE(has(r.out, "FLOP")) << r.out;
  EXPECT_FALSE(has(r.out, "byte")) << r.out;
}

TEST(CustomUnits, WebServiceReadsInRequestsAndNicBytes) {
  const auto r = run_example("web");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "request/byte")) << r.out;
  EXPECT_TRUE(has(r.out, "request/s")) << r.out;
  EXPECT_TRUE(has(r.out, "on the slanted NIC roof")) << r.out;
  EXPECT_TRUE(has(r.out, "on the flat '32 cores' roof")) << r.out;
  EXPECT_TRUE(has(r.out, "far below both roofs")) << r.out;  // the API behind a slow database
  EXPECT_FALSE(has(r.out, "FLOP")) << r.out;
}

TEST(CustomUnits, FpgaReadsInMacs) {
  const auto r = run_example("fpga");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "MAC/byte")) << r.out;
  EXPECT_TRUE(has(r.out, "on the slanted DDR4 roof")) << r.out;     // batch-1 FC layer
  EXPECT_TRUE(has(r.out, "on the flat 'int8 DSP' roof")) << r.out;  // the convolution
  EXPECT_FALSE(has(r.out, "FLOP")) << r.out;
}

TEST(CustomUnits, DistributedStepAgainstNodeComputeAndInfiniBand) {
  const auto r = run_example("distributed");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "on the slanted InfiniBand roof")) << r.out;
  EXPECT_TRUE(has(r.out, "on the flat 'bf16 tensor' roof")) << r.out;
  EXPECT_TRUE(has(r.out, "far below both roofs")) << r.out;  // the NVLink-only step
}

TEST(CustomUnits, PointsInOtherUnitsThanTheMachineAreRefused) {
  const auto r = run_cli({"point", "--machine", example("db", "machine.json"), "--points",
                          example("web", "points.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "request/byte")) << r.err;
}

TEST(ClusterCli, SingleRankFromNodeDocuments) {
  TempDir dir;
  write_text(dir.file("node0.json"), R"({"schema": "roofline.machine", "version": 1,
    "name": "n", "compute": [{"name": "fp64", "precision": "fp64", "peak": 5e10}],
    "memory": [{"level": "DRAM", "bandwidth": 1e10}]})");
  const std::string out = dir.file("cluster.json");
  auto r = run_cli(
      {"cluster", "--node-machine", dir.file("node{rank}.json"), "-o", out, "--expect-ranks", "1"},
      kMpiEnv);
  if (!roofline::cluster::mpi_available()) {
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(has(r.err, "needs MPI")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    GTEST_SKIP() << "built without MPI";
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "1 rank on 1 host")) << r.out;
  EXPECT_TRUE(has(r.out, "one rank: nothing to talk to")) << r.out;
  const json doc = json::parse(roofline::test::slurp(out));
  EXPECT_EQ(doc["schema"], "roofline.machine");
  EXPECT_EQ(doc["cluster"]["ranks"], 1);
  EXPECT_DOUBLE_EQ(doc["compute"][0]["peak"].get<double>(), 5e10);
  EXPECT_DOUBLE_EQ(doc["cluster"]["roofs"][0]["sum"].get<double>(), 5e10);

  // -o -: the document on standard output, the summary on stderr (it printed the summary).
  r = run_cli({"cluster", "--node-machine", dir.file("node{rank}.json"), "-o", "-"}, kMpiEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["cluster"]["ranks"], 1);
  EXPECT_TRUE(has(r.err, "1 rank on 1 host")) << r.err;

  // The written document is a machine document `point` accepts.
  r = run_cli({"point", "--machine", out, "--work", "1e9", "--traffic", "1e9", "--time", "0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "DRAM")) << r.out;
}

// A full standard output is exit 4, as for every command (it was reported as an internal
// error, exit 1, through the ranks' agreement).
TEST(ClusterCli, AFullStandardOutputIsAnOutputError) {
  if (!roofline::cluster::mpi_available()) GTEST_SKIP() << "built without MPI";
  TempDir dir;
  write_text(dir.file("node0.json"), R"({"schema": "roofline.machine", "version": 1,
    "name": "n", "compute": [{"name": "fp64", "precision": "fp64", "peak": 5e10}],
    "memory": [{"level": "DRAM", "bandwidth": 1e10}]})");
  const auto r = roofline::test::run_cli_redirected(
      {"cluster", "--node-machine", dir.file("node{rank}.json"), "--no-network"}, ">/dev/full",
      kMpiEnv);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(has(r.err, "every rank: standard output: write failed (No space left on device)"))
      << r.err;
  EXPECT_FALSE(has(r.err, "internal error")) << r.err;
}

TEST(ClusterCli, WrongRankCountOrFailingNodeWritesNothing) {
  if (!roofline::cluster::mpi_available()) GTEST_SKIP() << "built without MPI";
  TempDir dir;
  const std::string out = dir.file("cluster.json");
  auto r = run_cli({"cluster", "--quick", "--expect-ranks", "2", "-o", out}, kMpiEnv);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "expected 2 ranks (--expect-ranks) but this run has 1")) << r.err;
  EXPECT_TRUE(has(r.err, "(reported by rank 0 of 1); no document written")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  r = run_cli({"cluster", "--node-machine", dir.file("missing-{rank}.json"), "-o", out}, kMpiEnv);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "while measuring the nodes")) << r.err;
  EXPECT_TRUE(has(r.err, "missing-0.json")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  // An output that cannot be written is found while the run is checked, before any node is
  // measured (the quick probe would otherwise run first).
  const std::string folder = dir.file("a-folder");
  std::filesystem::create_directory(folder);
  r = run_cli({"cluster", "--quick", "-o", folder}, kMpiEnv);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "while checking the run")) << r.err;
  EXPECT_TRUE(has(r.err, "is a directory")) << r.err;
  EXPECT_FALSE(has(r.out, "measuring every node")) << r.out;
}
}  // namespace ROOFLINE_UNITY_ID
