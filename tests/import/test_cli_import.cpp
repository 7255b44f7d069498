// roofline import / profile from the command line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::TempDir;

namespace {
const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/import/";
}

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
  const auto r = run_cli({"profile", "--events", "none", "--work", "2e9", "--traffic", "1.2e10",
                          "--json", "--", "sleep", "0.02"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u);
  EXPECT_EQ(j["points"][0]["name"], "sleep");
  EXPECT_DOUBLE_EQ(j["points"][0]["work"].get<double>(), 2e9);
  EXPECT_DOUBLE_EQ(j["points"][0]["traffic"][0]["bytes"].get<double>(), 1.2e10);
  EXPECT_GE(j["points"][0]["time"].get<double>(), 0.02);
  EXPECT_GE(j["run"]["wall_seconds"].get<double>(), 0.02);
}

TEST(CliProfile, MissingPmuPathSaysWhatIsMissing) {
  const auto r = run_cli({"profile", "--sysfs", kData + "sysfs/kvm-no-pmu", "--", "true"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("hardware counters are missing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Still measured: T (wall clock)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no memory-controller PMU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no point for the whole program"), std::string::npos) << r.out;
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
  EXPECT_EQ(p["traffic"][1]["level"], "L2");
  EXPECT_DOUBLE_EQ(p["traffic"][2]["bytes"].get<double>(), 6.4e9);
  EXPECT_DOUBLE_EQ(j["run"]["min_running_fraction"].get<double>(), 0.5);
  const auto t = run_cli({"profile", "--replay", kData + "perf-amd-zen3-triad.json", "--peak",
                          "50 GFLOP/s", "--bandwidth", "10 GB/s"},
                         "NO_COLOR=1");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("counted W = 2 GFLOP"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("0.3906 FLOP/byte"), std::string::npos) << t.out;
}
