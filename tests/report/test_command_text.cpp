// The text and chart inputs `roofline kernel` and `roofline energy` take from report: the kernel
// on a machine's roofs with its note and chart, the energy model's roofs line and this machine's
// power interface. Each figure is worked out in the comments.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "core/kernel_counts.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

using test::gemm_1024_fp32;

// A machine of two compute roofs (fp16 tensor the default) and two memory levels (HBM the
// default): the kernel is judged on fp32 fma 10 TFLOP/s and L2 1 TB/s.
MachineDocument gpu() {
  MachineDocument m;
  m.roofs.name = "gpu";
  ComputeRoof tensor;
  tensor.name = "fp16 tensor";
  tensor.precision = "fp16";
  tensor.peak = WorkRate(3e14);
  ComputeRoof fma;
  fma.name = "fp32 fma";
  fma.precision = "fp32";
  fma.peak = WorkRate(1e13);
  m.roofs.compute = {tensor, fma};
  MemoryRoof hbm;
  hbm.level = "HBM";
  hbm.bandwidth = ByteRate(2e12);
  MemoryRoof l2;
  l2.level = "L2";
  l2.kind = "cache";
  l2.bandwidth = ByteRate(1e12);
  m.roofs.memory = {hbm, l2};
  m.roofs.default_compute = "fp16 tensor";
  m.roofs.default_memory = "HBM";
  return m;
}

const std::string kGemmCount =
    "gemm (BLAS level 3)\n"
    "  W = 2.147 GFLOP  [2·m·n·k]\n"
    "  Q = 12.58 MB  [(m·k + k·n + m·n)·s (A, B read once, C written once) (s = 4 B, fp32)]\n"
    "  Q with write-allocate = 16.78 MB\n"
    "  I = W/Q = 170.7 FLOP/byte\n"
    "  I with write-allocate = 128 FLOP/byte\n";

// Unplaced: the count alone (tests/data/golden/kernel-gemm.txt). Placed on 10 TFLOP/s and
// 1 TB/s: ridge 10 FLOP/byte, I = 170.7 right of it, P = π; W/π = 2147483648 / 1e13 s =
// 214.7 us, Q/β = 12.58 us, their sum 227.3 us; then the roof's note.
TEST(KernelResultText, CountThenRoofsThenNote) {
  const KernelCount k = gemm_1024_fp32();
  const UnitSystem u;
  EXPECT_EQ(render_kernel_result(k, u, std::nullopt), kGemmCount);
  const MachineDocument m = gpu();
  const KernelOnMachine placed{"gpu", kernel_on_roofs(k, m.roofs.compute[1], m.roofs.memory[1]),
                               "accumulates in fp16"};
  const std::string on =
      "on gpu (fp32 fma 10 TFLOP/s, L2 1 TB/s):\n"
      "  ridge I* = 10 FLOP/byte ⇒ compute-bound (right of the ridge)\n"
      "  attainable P = min(π, β·I) = 10 TFLOP/s\n"
      "  predicted time ≥ max(W/π, Q/β) = 214.7 us (no overlap: W/π + Q/β = 227.3 us)\n";
  EXPECT_EQ(render_kernel_result(k, u, placed), kGemmCount + on + "  note: accumulates in fp16\n");
  const KernelOnMachine no_note{"gpu", placed.on, ""};
  EXPECT_EQ(render_kernel_result(k, u, no_note), kGemmCount + on);
}

// The chart: titled by kernel, type and machine, drawn at the roofs the kernel was judged on,
// with its workload line at I = 12884901888 / 75497472 (2·1024³ / 12·1024²) = 170.67.
TEST(KernelReportInput, DrawnAtTheRoofsItWasJudgedOn) {
  const KernelCount k = gemm_1024_fp32();
  const MachineDocument m = gpu();
  const KernelOnRoofs on = kernel_on_roofs(k, m.roofs.compute[1], m.roofs.memory[1]);
  const ReportInput in = kernel_report_input(k, "fp32", m, on, "L2");
  EXPECT_EQ(in.title, "gemm (fp32) on gpu");
  ASSERT_EQ(in.machines.size(), 1u);
  EXPECT_EQ(in.machines[0].roofs.name, "gpu");
  EXPECT_EQ(in.machines[0].roofs.default_compute, "fp32 fma");
  EXPECT_EQ(in.machines[0].roofs.default_memory, "L2");
  EXPECT_EQ(in.workload_precision, "fp32 fma");
  EXPECT_EQ(in.workload_level, "L2");
  ASSERT_TRUE(in.workload_line.has_value());
  EXPECT_DOUBLE_EQ(in.workload_line->value, 2147483648.0 / 12582912.0);
  EXPECT_TRUE(in.no_overlap_curve);
  EXPECT_TRUE(in.points.empty());
  EXPECT_EQ(kernel_report_text(in), "");
  // The level not asked for: "" in the chart's JSON, the default level drawn.
  const KernelOnRoofs on_hbm = kernel_on_roofs(k, m.roofs.compute[1], m.roofs.memory[0]);
  const ReportInput by_default = kernel_report_input(k, "fp32", m, on_hbm, "");
  EXPECT_EQ(by_default.workload_level, "");
  EXPECT_EQ(by_default.machines[0].roofs.default_memory, "HBM");
}

// copy does no work: I = 0 has no place on a log axis, so no line, and the text says why.
TEST(KernelReportInput, NoWorkloadLineForAKernelOfNoWork) {
  const KernelRequest req =
      kernel_request("copy", "fp64", std::map<std::string, std::string>{{"n", "1000"}});
  const KernelCount k = req.spec->count(req.params, req.dtype);
  ASSERT_EQ(k.work.value, 0);
  const MachineDocument m = gpu();
  const ReportInput in = kernel_report_input(
      k, "fp64", m, kernel_on_roofs(k, m.roofs.compute[1], m.roofs.memory[0]), "");
  EXPECT_EQ(in.title, "copy (fp64) on gpu");
  EXPECT_FALSE(in.workload_line.has_value());
  EXPECT_EQ(kernel_report_text(in),
            "  --report: no workload line (I = 0 has no place on the log intensity axis)\n");
}

TEST(EnergyRoofsText, MachineAndTheRoofsTaken) {
  const MachineDocument m = gpu();
  EXPECT_EQ(render_energy_roofs_text("gpu", m.roofs.compute[1], m.roofs.memory[0], UnitSystem{}),
            "machine gpu: π = 10 TFLOP/s (fp32 fma), β = 2 TB/s (HBM)\n");
}

TEST(PowerInterfaceText, ZonesReadableOrWhyNot) {
  PowerInterface pi;
  pi.root = "/sys/class/powercap";
  pi.zones.push_back({"intel-rapl:0", "package-0", "", 262143328850, true, ""});
  pi.zones.push_back({"intel-rapl:0:0", "dram", "", 0, false, "permission denied (root only)"});
  EXPECT_EQ(render_power_interface_text(pi),
            "power interface (RAPL, /sys/class/powercap):\n"
            "  intel-rapl:0 package-0: readable\n"
            "  intel-rapl:0:0 dram: not readable (permission denied (root only))\n");
  // A zone's name is a file's text: a newline or an escape sequence in it is shown escaped.
  pi.zones = {{"intel-rapl:1", "pkg\n\x1b[2J", "", 0, true, ""}};
  const std::string text = render_power_interface_text(pi);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  PowerInterface none;
  none.root = "/tmp/powercap";
  none.why_none = "no RAPL zone (intel-rapl:*) in /tmp/powercap";
  EXPECT_EQ(render_power_interface_text(none),
            "power interface: none — no RAPL zone (intel-rapl:*) in /tmp/powercap; no power is "
            "measured here\n");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
