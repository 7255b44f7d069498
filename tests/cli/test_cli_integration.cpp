// Commands wired across layers: the CUDA backend behind `measure --device cuda`.
#include <gtest/gtest.h>

#include "cli/cli_runner.hpp"
#include "roofline/cuda.hpp"

using roofline::test::run_cli;
using roofline::test::TempDir;

TEST(CliMeasure, CudaWithoutADeviceSaysWhyAndWritesNothing) {
  if (roofline::cuda::status().find("(cuda:") != std::string::npos)
    GTEST_SKIP() << "a CUDA device is present: " << roofline::cuda::status();
  TempDir d;
  const std::string out = d.file("gpu.json");
  auto r = run_cli({"measure", "--device", "cuda", "--quick", "--no-progress", "-o", out});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("unavailable"), std::string::npos) << r.err;
  EXPECT_TRUE(r.err.find("CUDA") != std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliMeasure, UnknownDeviceIsABadOption) {
  auto r = run_cli({"measure", "--device", "tpu"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("tpu"), std::string::npos) << r.err;
}
