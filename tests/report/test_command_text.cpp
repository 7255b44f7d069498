// The text and chart inputs `roofline kernel`, `roofline energy` and `roofline profile` take from
// report: the kernel on a machine's roofs with its note and chart, the energy model's roofs line,
// this machine's power interface, the energy document's text and chart, and a list of points.
// Each figure is worked out in the comments.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/kernel_counts.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/error.hpp"
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

// A point of 2 GFLOP over 1 GB of HBM traffic in 1 ms (fp32): P = 2 TFLOP/s, I = 2.
Point hbm_point(const std::string& name) {
  Point p;
  p.name = name;
  p.work = Work(2e9);
  p.traffic = {{"HBM", Bytes(1e9)}};
  p.time = Seconds(1e-3);
  p.precision = "fp32";
  return p;
}

// Without roofs each point's brief, with them its analysis, each after an empty line.
TEST(PointsText, EachAnalysedOrBriefAfterAnEmptyLine) {
  const std::vector<Point> points = {hbm_point("k1"), hbm_point("k2")};
  EXPECT_EQ(render_points_text(points, nullptr, false),
            "\nk1\n  W = 2 GFLOP, T = 1 ms, P = W/T = 2 TFLOP/s (fp32)\n"
            "  Q(HBM) = 1 GB, I = W/Q = 2 FLOP/byte\n"
            "\nk2\n  W = 2 GFLOP, T = 1 ms, P = W/T = 2 TFLOP/s (fp32)\n"
            "  Q(HBM) = 1 GB, I = W/Q = 2 FLOP/byte\n");
  const MachineDocument m = gpu();
  const RoofSet& roofs = m.roofs;
  const auto analysis = [&](const Point& p, bool color) {
    return render_point_analysis(p, diagnose(p, roofs), roofs, color);
  };
  EXPECT_EQ(render_points_text(points, &roofs, false),
            "\n" + analysis(points[0], false) + "\n" + analysis(points[1], false));
  const std::string colored = render_points_text(points, &roofs, true);
  EXPECT_EQ(colored, "\n" + analysis(points[0], true) + "\n" + analysis(points[1], true));
  EXPECT_NE(colored.find("\x1b["), std::string::npos);
  EXPECT_EQ(render_points_text({}, &roofs, true), "");
}

// The energy document on gpu()'s fp32 fma (π = 10 TFLOP/s) and HBM (β = 2 TB/s), ε_flop 10 pJ,
// ε_mem 100 pJ/B, π0 0: B_τ = 5, B_ε = 10, ε̂ = 10 pJ (peak 1e11 FLOP/J), balance point
// η·B_ε = 10 (≥ B_τ). At I = 1: 1/(1e-11·(1 + 10/1)) = 9.091e9 FLOP/J, (1e-10 + 1e-11)/5e-13 s
// = 220 W. Point "a": 2 GFLOP over 1 GB of HBM with 0.1 J: I = 2, 2e10 FLOP/J measured against
// 1/(1e-11·(1 + 10/2)) = 1.667e10 (120%, above the roof).
EnergyDocument gpu_energy(const MachineDocument& m) {
  EnergyQuery q;
  q.precision = "fp32";
  q.eps_flop = JoulePerWork(1e-11);
  q.eps_mem = JoulePerByte(1e-10);
  q.intensities = {1};
  PointsDocument doc;
  Point a = hbm_point("a");
  a.energy = 0.1;
  Point idle = hbm_point("idle");
  Point l2 = hbm_point("l2 only");
  l2.traffic = {{"L2", Bytes(1e9)}};
  l2.energy = 0.1;
  doc.points = {a, idle, l2};
  doc.not_points = {{"copy @L1", "no arithmetic, W = 0",
                     "copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run, not "
                     "a point"}};
  PowerInterface pi;
  pi.root = "/tmp/powercap";
  pi.why_none = "no RAPL zone";
  return energy_document(m, analyse_energy(m, q), pi, &doc, "p.json");
}

TEST(EnergyDocumentText, RoofsInterfaceModelPointsThenNotesAndWarnings) {
  const MachineDocument m = gpu();
  EnergyDocument d = gpu_energy(m);
  d.analysis.warnings.push_back("the costs draw too much");
  EXPECT_EQ(render_energy_document_text(d, m.roofs),
            "machine gpu: π = 10 TFLOP/s (fp32 fma), β = 2 TB/s (HBM)\n"
            "power interface: none — no RAPL zone; no power is measured here\n"
            "energy roofline (Choi, Bedard, Fowler & Vuduc 2013), ε_flop 0.01 nJ/FLOP, ε_mem "
            "0.1 nJ/byte, π0 0 W:\n"
            "  time balance B_τ = π/β = 5 FLOP/byte; energy balance B_ε = ε_mem/ε_flop = 10 "
            "FLOP/byte\n"
            "  ε̂_flop = ε_flop + π0/π = 0.01 nJ/FLOP: peak 1e+11 FLOP/J\n"
            "  balance point (half the peak FLOP/J): I = 10 FLOP/byte\n"
            "  at I = 1 FLOP/byte: 9.091e+09 FLOP/J, 220 W\n"
            "  points (p.json):\n"
            "    a: I = 2 FLOP/byte, 2e+10 FLOP/J measured, roof 1.667e+10 FLOP/J (120%) — above "
            "the energy roof: impossible if the costs hold; the given ε and π0 are too high for "
            "this point, or its energy is under-counted\n"
            "    idle: no energy in the points file, not placed\n"
            "    l2 only: no traffic at HBM (the model's level), not placed\n"
            "catalogue power: gpu: no power figure (info.power_w absent)\n"
            "note: p.json: copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run, "
            "not a point: not placed\n"
            "warning: the costs draw too much\n");
}

TEST(EnergyChartInputOfADocument, PointsAndThoseNotDrawnWithWhy) {
  const MachineDocument m = gpu();
  const EnergyDocument d = gpu_energy(m);
  const EnergyChartInput in = energy_chart_input(d, m.roofs);
  EXPECT_EQ(in.title, "Energy roofline of gpu");
  EXPECT_EQ(in.subtitle, "fp32 fma × HBM, costs given");
  EXPECT_EQ(in.work_unit, "FLOP");
  EXPECT_EQ(in.traffic_unit, "byte");
  EXPECT_DOUBLE_EQ(in.costs.eps_flop, 1e-11);
  EXPECT_DOUBLE_EQ(in.costs.eps_mem, 1e-10);
  ASSERT_EQ(in.points.size(), 1u);
  EXPECT_EQ(in.points[0].name, "a");
  EXPECT_DOUBLE_EQ(in.points[0].intensity, 2);
  EXPECT_DOUBLE_EQ(in.points[0].work_per_joule, 2e10);
  ASSERT_EQ(in.not_drawn.size(), 3u);
  EXPECT_EQ(in.not_drawn[0].name, "idle");
  EXPECT_EQ(in.not_drawn[0].reason, "no energy");
  EXPECT_EQ(in.not_drawn[0].detail, "idle: no energy in the points file");
  EXPECT_EQ(in.not_drawn[1].name, "l2 only");
  EXPECT_EQ(in.not_drawn[1].reason, "no traffic at HBM");
  EXPECT_EQ(in.not_drawn[1].detail, "l2 only: no traffic at HBM (the model's level)");
  EXPECT_EQ(in.not_drawn[2].name, "copy @L1");
  EXPECT_EQ(in.not_drawn[2].reason, "no arithmetic, W = 0");
  // Without costs there is no roof to draw.
  EnergyDocument none = d;
  none.analysis.costs.reset();
  EXPECT_THROW((void)energy_chart_input(none, m.roofs), InputError);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
