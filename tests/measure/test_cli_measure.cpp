// `roofline measure` as a user runs it: bad options, unwritable output, a short real run, and
// an interrupt that leaves the previous file untouched.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include "cli/cli_runner.hpp"
#include "roofline/io.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

TEST(CliMeasure, BadOptionsExitTwoWithAMessage) {
  auto r = run_cli({"measure", "--precisions", "fp9", "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fp9"), std::string::npos) << r.err;
  r = run_cli({"measure", "--precisions", "tf32", "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no CPU kernel"), std::string::npos) << r.err;
  r = run_cli({"measure", "--levels", "L1,L7", "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("L7"), std::string::npos) << r.err;
  r = run_cli({"measure", "--threads", "100000", "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--threads"), std::string::npos) << r.err;
  // A GPU index without the GPU backend would be ignored while the CPU is measured.
  r = run_cli({"measure", "--cuda-device", "0", "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--cuda-device 0 picks a GPU for --device cuda; this run measures cpu"),
            std::string::npos)
      << r.err;
  r = run_cli({"measure", "--mpi", "--cuda-device", "1", "-o", "-"});  // also under --mpi
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--cuda-device 1 picks a GPU for --device cuda"), std::string::npos)
      << r.err;
  // A node is measured whole under --mpi: a selection it would ignore is refused.
  for (const std::vector<std::string>& flag : {std::vector<std::string>{"--threads", "1"},
                                               {"--precisions", "fp64"},
                                               {"--levels", "L1"},
                                               {"--no-curve"},
                                               {"--no-single-core"}}) {
    std::vector<std::string> args{"measure", "--mpi", "-o", "-"};
    args.insert(args.end(), flag.begin(), flag.end());
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << flag[0];
    EXPECT_NE(r.err.find(flag[0] + " does not apply under --mpi"), std::string::npos) << r.err;
  }
}

// A level the machine lacks is refused before measuring (exit 3, as a precision it lacks), not
// measured for 9 s into a document without a memory roof.
TEST(CliMeasure, ALevelTheMachineLacksIsUnavailableBeforeMeasuring) {
  if (std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache/index4"))
    GTEST_SKIP() << "this CPU may have an L4";
  if (!std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache/index0"))
    GTEST_SKIP() << "this system reports no caches";
  const auto r = run_cli({"measure", "--levels", "L4", "-o", "-"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--levels L4: this machine reports no such memory level (it has L1"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CliMeasure, OutputIntoAMissingFolderFailsBeforeMeasuringAndWritesNothing) {
  TempDir d;
  const std::string path = d.file("no/such/folder/machine.json");
  const auto r = run_cli({"measure", "--quick", "-o", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(r.out.empty());
}

TEST(CliMeasure, QuickRunWritesAValidMachineDocument) {
  TempDir d;
  const std::string path = d.file("m.json");
  const auto r = run_cli({"measure", "--quick", "--threads", "1", "--precisions", "fp64",
                          "--levels", "L1", "--no-curve", "--no-single-core", "-o", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("compute roof"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("measured/theory"), std::string::npos);
  EXPECT_NE(r.out.find(path), std::string::npos);
  EXPECT_EQ(r.err.find("\r"), std::string::npos);  // no progress bar when stderr is not a TTY
  const MachineDocument m = load_machine_file(path);
  ASSERT_FALSE(m.roofs.compute.empty());
  for (const auto& c : m.roofs.compute) {
    EXPECT_EQ(c.precision, "fp64");
    // The summary prints each roof's name and measured value.
    EXPECT_NE(r.out.find(c.name), std::string::npos) << c.name;
  }
  // No temporary files left beside the output.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(d.path)) (void)e, ++files;
  EXPECT_EQ(files, 1);
  // --json prints the document and says on stderr where it was written too.
  const std::string second = d.file("j.json");
  const auto j =
      run_cli({"measure", "--quick", "--threads", "1", "--precisions", "fp64", "--levels", "L1",
               "--no-curve", "--no-single-core", "-o", second, "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out), nlohmann::json::parse(test::slurp(second)));
  EXPECT_NE(j.err.find("machine document: " + second), std::string::npos) << j.err;
}

TEST(CliMeasure, InterruptLeavesThePreviousFileAndExitsNonZero) {
  TempDir d;
  const std::string path = d.file("machine.json");
  write_text(path, "previous\n");
  const std::string cmd = "( " + shell_quote(ROOFLINE_CLI_PATH) + " measure -o " +
                          shell_quote(path) + " >/dev/null 2>" + shell_quote(d.file("err")) +
                          " & pid=$!; " + signal_when_handled(2) + "; wait $pid; echo $? > " +
                          shell_quote(d.file("rc")) + " )";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(d.file("rc")), "130\n");
  EXPECT_EQ(slurp(path), "previous\n");
  EXPECT_NE(slurp(d.file("err")).find("interrupted (SIGINT)"), std::string::npos)
      << slurp(d.file("err"));
  EXPECT_NE(slurp(d.file("err")).find("previous file is unchanged"), std::string::npos);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(d.path)) (void)e, ++files;
  EXPECT_EQ(files, 3);  // machine.json, err, rc: no temporary left
}

TEST(CliMeasure, TermSignalAlsoStopsCleanly) {
  TempDir d;
  const std::string path = d.file("machine.json");
  const std::string cmd = "( " + shell_quote(ROOFLINE_CLI_PATH) + " measure -o " +
                          shell_quote(path) + " >/dev/null 2>" + shell_quote(d.file("err")) +
                          " & pid=$!; " + signal_when_handled(15) + "; wait $pid; echo $? > " +
                          shell_quote(d.file("rc")) + " )";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(d.file("rc")), "143\n");
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_NE(slurp(d.file("err")).find("no file created"), std::string::npos);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
