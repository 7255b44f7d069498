// The importers on files the real tools wrote, published in public repositories (sources in
// tests/data/import/real/README.md). Every W, Q and T is computed by hand from the numbers in
// the file, the computation written beside the expectation.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "import/edited.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/io.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kReal = fs::path(ROOFLINE_TEST_DATA) / "import" / "real";

std::string path(const std::string& name) {
  return (kReal / name).string();
}
ImportResult ncu(const std::string& name) {
  std::ifstream in = open_import_file(kReal / name);
  return import_ncu(in, path(name));
}
ImportResult likwid(const std::vector<std::string>& names) {
  ToolTable tab;
  for (const auto& n : names) {
    std::ifstream in = open_import_file(kReal / n);
    TextLines lines(in, path(n));
    read_likwid_table(lines, tab);
  }
  return likwid_points(tab);
}
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
const LevelTraffic& level(const Point& p, const std::string& l) {
  return p.traffic_at(l);
}
bool has_note(const ImportResult& r, const std::string& part) {
  for (const auto& n : r.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// ---- Nsight Compute -------------------------------------------------------------------------

TEST(RealNcu, A100DetailsPrintFpNerscMethod) {
  // A100 (CC 8.0), details page of `ncu --metrics ... --csv --print-fp`: smsp__ metrics, the
  // NERSC method's cycles for T, bytes in "byte", values printed with ".00".
  const auto r = ncu("ncu-a100-details-printfp-sgemm.csv");
  ASSERT_EQ(r.doc.points.size(), 3u);
  const Point& init = r.doc.points[0];
  EXPECT_EQ(init.name, "randomInit<float> #0");
  EXPECT_DOUBLE_EQ(init.work.value, 2 * 838860800.0);  // 2·FFMA, every other FP count 0.00
  EXPECT_DOUBLE_EQ(init.time.value, 5145083088.72 / 764999991.90);  // cycles / cycles per second
  EXPECT_DOUBLE_EQ(level(init, "DRAM").bytes.value, 5323503232.0);  // dram__bytes.sum
  EXPECT_DOUBLE_EQ(level(init, "L2").bytes.value, 693482995584.0);
  EXPECT_DOUBLE_EQ(level(init, "L1").bytes.value, 16840298332000.0);
  EXPECT_EQ(init.precision, "fp32 vector");
  const Point& init1 = r.doc.points[1];
  EXPECT_EQ(init1.name, "randomInit<float> #1");
  EXPECT_DOUBLE_EQ(init1.time.value, 5134280071.41 / 764999992.88);
  EXPECT_DOUBLE_EQ(level(init1, "DRAM").bytes.value, 5420639360.0);
  const Point& g = r.doc.points[2];
  EXPECT_EQ(g.name, "gemm_v1<float> #2");
  // W = 2·FFMA + 2·HFMA = 2·34,359,738,368,000 + 2·2,149,161,369,600
  EXPECT_DOUBLE_EQ(g.work.value, 2 * 34359738368000.0 + 2 * 2149161369600.0);
  EXPECT_EQ(g.precision, "fp32 vector");  // fp32 is 94% of W (≥ 90%)
  EXPECT_DOUBLE_EQ(g.time.value, 25610472227.46 / 764999999.31);
  EXPECT_DOUBLE_EQ(level(g, "DRAM").bytes.value, 807658682624.0);
  EXPECT_DOUBLE_EQ(level(g, "L2").bytes.value, 40927345510272.0);
  EXPECT_DOUBLE_EQ(level(g, "L1").bytes.value, 38708392755200.0);
  // Its tensor-pipe instructions (67,161,292,800) are exactly its HFMA thread instructions / 32:
  // no kernel was left out for them, so no note says one was (it had said "a kernel that ran
  // more than its FP16 ones is left out" beside three points).
  EXPECT_DOUBLE_EQ(2149161369600.0 / 32, 67161292800.0);
  EXPECT_FALSE(has_note(r, "tensor-pipe"));
}

// Kernels that ran on another compute capability than the machine given (--hw) are noted: an
// A100 export (CC 8.0) judged against h100-sxm (9.0) read as H100 kernels. The machine's CC
// comes from the catalogue (NVIDIA's table); a V100 export (7.0) against a V100 is not noted.
TEST(RealNcu, KernelsOfAnotherComputeCapabilityThanTheMachineAreNoted) {
  const MachineDocument h100 = resolve_machine("h100-sxm");
  NcuOptions o;
  o.roofs = &h100.roofs;
  o.machine_name = h100.roofs.name;
  o.machine_cc = machine_facts(h100).compute_capability;
  ASSERT_EQ(o.machine_cc, "9.0");
  std::ifstream in = open_import_file(kReal / "ncu-a100-details-printfp-sgemm.csv");
  const auto r = import_ncu(in, path("ncu-a100-details-printfp-sgemm.csv"), o);
  EXPECT_TRUE(has_note(r,
                       "all 3 kernels ('randomInit<float> #0', 'randomInit<float> #1', "
                       "'gemm_v1<float> #2') ran on compute capability 8.0 (the export's CC "
                       "column), and h100-sxm is 9.0: their times are another GPU's"));
  const MachineDocument v100 = resolve_machine("v100-sxm2");
  o.roofs = &v100.roofs;
  o.machine_name = v100.roofs.name;
  o.machine_cc = machine_facts(v100).compute_capability;
  ASSERT_EQ(o.machine_cc, "7.0");
  std::ifstream same = open_import_file(kReal / "ncu-v100-details-nersc-s884gemm.csv");
  const auto v = import_ncu(same, path("ncu-v100-details-nersc-s884gemm.csv"), o);
  EXPECT_FALSE(has_note(v, "compute capability"));
  // One kernel of the A100 export on another device of CC 9.0, judged against the A100: the
  // note names that kernel, not "the kernels" (it had said all three ran on 9.0), and the file
  // given whole says nothing.
  const MachineDocument a100 = resolve_machine("a100-40gb");
  o.roofs = &a100.roofs;
  o.machine_name = a100.roofs.name;
  o.machine_cc = machine_facts(a100).compute_capability;
  ASSERT_EQ(o.machine_cc, "8.0");
  const std::string sgemm = read_text_file(kReal / "ncu-a100-details-printfp-sgemm.csv");
  EXPECT_FALSE(has_note(import_ncu(sgemm, "a.csv", o), "compute capability"));
  std::string other;
  std::istringstream lines(sgemm);
  for (std::string l; std::getline(lines, l);)
    other +=
        (l.rfind("\"2\",", 0) == 0 ? roofline::test::edited(l, "\"0\",\"8.0\",", "\"1\",\"9.0\",")
                                   : l) +
        "\n";
  const auto one = import_ncu(other, "a.csv", o);
  EXPECT_EQ(one.doc.points.size(), 3u);
  EXPECT_TRUE(has_note(one,
                       "1 of 3 kernels ('gemm_v1<float> #2') ran on compute capability 9.0 (the "
                       "export's CC column), and a100-40gb is 8.0: its time is another GPU's, "
                       "judged here against a100-40gb's roofs"));
  // A machine of no known CC (a measured CPU, a given roof) compares nothing.
  o.machine_cc.clear();
  std::ifstream again = open_import_file(kReal / "ncu-a100-details-printfp-sgemm.csv");
  EXPECT_FALSE(has_note(import_ncu(again, path("ncu-a100-details-printfp-sgemm.csv"), o),
                        "compute capability"));
}

TEST(RealNcu, V100TensorPipeInstructionsAre512FlopEach) {
  // A CUTLASS HMMA.884 GEMM of 20480³ on a V100 (CC 7.0), collected without
  // sm__ops_path_tensor: W was the epilogue's 419 MFLOP of FMUL alone, 41,000 × too low, and
  // the kernel read "far below both roofs" at 2.3 GFLOP/s.
  const auto r = ncu("ncu-v100-details-nersc-s884gemm.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);  // kernel 0 (a fill) has W = 0
  const Point& g = r.doc.points[0];
  EXPECT_EQ(g.name, "cutlass::Kernel<cutlass_70_tensorop_s884gemm_f16_128x128_nn_align8> #10");
  // W = 512 × sm__inst_executed_pipe_tensor 33,554,432,000 + FMUL 419,430,400 = 2·20480³ + …
  EXPECT_DOUBLE_EQ(g.work.value, 512 * 33554432000.0 + 419430400.0);
  EXPECT_DOUBLE_EQ(512 * 33554432000.0, 2.0 * 20480 * 20480 * 20480);
  EXPECT_EQ(g.precision, "fp16 tensor");  // 99.998% of W
  // T = sm__cycles_elapsed.avg / its rate; Q = dram__bytes.sum
  EXPECT_DOUBLE_EQ(g.time.value, 224198002.15 / 1236080147.79);
  EXPECT_DOUBLE_EQ(level(g, "DRAM").bytes.value, 25174959968.0);
  EXPECT_TRUE(has_note(r, "counted as 512 FLOP each"));
  // Off Volta the MMA shape varies: the same rows on CC 8.0 leave the kernel out, not place it
  // with the FMUL count alone.
  std::ifstream in = open_import_file(kReal / "ncu-v100-details-nersc-s884gemm.csv");
  std::stringstream text;
  text << in.rdbuf();
  std::string ampere = text.str();
  for (std::size_t at = 0; (at = ampere.find("\"7.0\"", at)) != std::string::npos;)
    ampere.replace(at, 5, "\"8.0\"");
  std::istringstream edited_in(ampere);
  const auto a = import_ncu(edited_in, "cc80.csv");
  EXPECT_TRUE(a.doc.points.empty());
  EXPECT_TRUE(has_note(
      a, "left out, it ran 3.355e+10 tensor-pipe instructions beyond its FP16 ones on CC 8.0"));
  // Only a % of peak of the tensor pipe (no count): the pipe worked, nothing counts it — left
  // out, not placed with the FMUL count alone (2.3 GFLOP/s "far below both roofs").
  const std::string pct = roofline::test::edited(
      text.str(), R"("sm__inst_executed_pipe_tensor.sum","inst","33,554,432,000")",
      R"("sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active","%","95.5")");
  std::istringstream pct_in(roofline::test::edited(
      pct, R"("sm__inst_executed_pipe_tensor.sum","inst","0")",
      R"("sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active","%","0")"));
  const auto p = import_ncu(pct_in, "pct.csv");
  EXPECT_TRUE(p.doc.points.empty());
  EXPECT_TRUE(has_note(p, "left out, its tensor pipe was active and the export has no count"));
}

// A "Kernel Name" of only spaces names no kernel: the point is named by its ID ("kernel #2"),
// not " #2" with a leading space.
TEST(RealNcu, AKernelOfNoNameIsNamedByItsId) {
  std::string text = read_text_file(kReal / "ncu-a100-details-printfp-sgemm.csv");
  const std::string name = "\"void gemm_v1<float>(float *, float *, float *, int, int, int)\"";
  for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at))
    text.replace(at, name.size(), "\"   \"");
  const auto r = import_ncu(text, "sgemm.csv");
  ASSERT_EQ(r.doc.points.size(), 3u);
  EXPECT_EQ(r.doc.points[2].name, "kernel #2");
  EXPECT_DOUBLE_EQ(r.doc.points[2].work.value, 2 * 34359738368000.0 + 2 * 2149161369600.0);
}

// A value ncu printed as missing ("n/a": a metric it could not collect for that launch) is not
// 0. A Q metric missing leaves its kernel out; a W metric missing for some kernels only leaves
// those out (their W would lack a count the others have: an n/a FFMA made a GEMM's W 770 FLOP);
// one missing for every kernel is one the GPU does not give, counted 0 with one note.
TEST(RealNcu, AValueNcuLeftOutLeavesTheKernelOut) {
  const std::string real = read_text_file(kReal / "ncu-a100-details-printfp-sgemm.csv");
  const auto q =
      import_ncu(roofline::test::edited(real, R"("dram__bytes.sum","byte","5,323,503,232.00")",
                                        R"("dram__bytes.sum","byte","n/a")"),
                 "sgemm.csv");
  ASSERT_EQ(q.doc.points.size(), 2u);
  EXPECT_EQ(q.doc.points[0].name, "randomInit<float> #1");
  EXPECT_TRUE(has_note(q,
                       "kernel randomInit<float> #0: skipped, dram__bytes.sum (line 2) is not "
                       "given (n/a): its Q would lack it — not a point"));
  const std::string ffma = "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",";
  const auto w =
      import_ncu(roofline::test::edited(real, ffma + "\"34,359,738,368,000.00\"", ffma + "\"n/a\""),
                 "sgemm.csv");
  ASSERT_EQ(w.doc.points.size(), 2u);
  EXPECT_EQ(w.doc.points[1].name, "randomInit<float> #1");
  EXPECT_TRUE(has_note(w,
                       "kernel gemm_v1<float> #2: skipped, "
                       "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum (line 42) is not "
                       "given (n/a) though other kernels have it"));
  // The HFMA count n/a in all three kernels: W counts the rest, and one note says so.
  const std::string hfma = "\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\",\"inst\",";
  std::string none = real;
  std::size_t at = 0;
  int edited = 0;
  while ((at = none.find(hfma, at)) != std::string::npos) {
    const std::size_t value = at + hfma.size(), end = none.find('"', value + 1);
    none.replace(value, end + 1 - value, "\"n/a\"");
    at = value;
    ++edited;
  }
  ASSERT_EQ(edited, 3);
  const auto all = import_ncu(none, "sgemm.csv");
  EXPECT_TRUE(has_note(all,
                       "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum is n/a for "
                       "every kernel: counted as 0 in W"));
  // The GEMM's 67,161,292,800 tensor-pipe instructions were its HFMAs (÷ 32); without the HFMA
  // count they could be MMAs, whose FLOP nothing counts: it is left out, the other two placed.
  ASSERT_EQ(all.doc.points.size(), 2u);
  EXPECT_EQ(all.doc.points[1].name, "randomInit<float> #1");
  EXPECT_TRUE(has_note(all,
                       "kernel 'gemm_v1<float>' (ID 2, line 32): left out, it ran "
                       "6.716e+10 tensor-pipe instructions beyond its FP16 ones on CC 8.0"));
  // The same with kernel 0's Q n/a too: it is skipped for its Q, and the HFMA count is still
  // n/a for every kernel read, not "missing for some" (which dropped kernel 1 as well).
  const auto both =
      import_ncu(roofline::test::edited(none, R"("dram__bytes.sum","byte","5,323,503,232.00")",
                                        R"("dram__bytes.sum","byte","n/a")"),
                 "sgemm.csv");
  ASSERT_EQ(both.doc.points.size(), 1u);
  EXPECT_EQ(both.doc.points[0].name, "randomInit<float> #1");
  EXPECT_TRUE(has_note(both,
                       "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum is n/a for "
                       "every kernel: counted as 0 in W"));
}

TEST(RealNcu, A100DetailsSecondRun) {
  const auto r = ncu("ncu-a100-details-printfp-gemm.csv");
  ASSERT_EQ(r.doc.points.size(), 3u);
  const Point& g = r.doc.points[2];
  EXPECT_EQ(g.name, "gemm_v0<float> #2");
  // W = 2·FFMA + 2·HFMA = 2·34,359,738,368,000 + 2·3,355,443,200
  EXPECT_DOUBLE_EQ(g.work.value, 2 * 34359738368000.0 + 2 * 3355443200.0);
  EXPECT_DOUBLE_EQ(g.time.value, 28293058736.76 / 764999997.55);
  EXPECT_DOUBLE_EQ(level(g, "DRAM").bytes.value, 4394965922944.0);
  EXPECT_DOUBLE_EQ(level(g, "L2").bytes.value, 13077104026080.0);
  EXPECT_DOUBLE_EQ(r.doc.points[0].time.value, 5143174222.52 / 764999989.86);
}

TEST(RealNcu, A100CrashedRunKeepsTheProfiledKernels) {
  // ncu failed on one kernel (==ERROR== lines before the table); the kernels it did profile
  // are in the table and become points; its errors are in the notes.
  const auto r = ncu("ncu-a100-details-crashed-share-tile.csv");
  ASSERT_EQ(r.doc.points.size(), 3u);
  EXPECT_TRUE(has_note(r, "line 4: ==ERROR== Failed to profile \"gemm_shared_tile\""));
  const Point& g = r.doc.points[2];
  EXPECT_DOUBLE_EQ(g.work.value, 2 * 34359738368000.0 + 2 * 3355443200.0);
  EXPECT_DOUBLE_EQ(g.time.value, 27957495411.17 / 764444046.88);
  EXPECT_DOUBLE_EQ(level(g, "DRAM").bytes.value, 4419786379648.0);
  EXPECT_DOUBLE_EQ(r.doc.points[1].work.value, 2 * 838860800.0);
  EXPECT_DOUBLE_EQ(level(r.doc.points[1], "DRAM").bytes.value, 5552444672.0);
}

TEST(RealNcu, NoCountersNoTable) {
  // ERR_NVGPUCTRPERM: ncu could not read the counters and wrote no table.
  const std::string e = error_of([] { ncu("ncu-a100-errperm-profile.csv"); });
  EXPECT_EQ(e.rfind(path("ncu-a100-errperm-profile.csv") +
                        ": line 2: ncu wrote no table, it reported: ==ERROR== Error: "
                        "ERR_NVGPUCTRPERM - The user does not have permission",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("(run ncu with access to the GPU performance counters"), std::string::npos);
}

TEST(RealNcu, AProfileOfNoKernelIsSaidToBeOne) {
  // A B200 run whose processes (nvidia-smi children) all ended unprofiled: only ncu's ==PROF==
  // lines, no "No kernels were profiled" warning, no table.
  const std::string e = error_of([] { ncu("ncu-b200-noprofiled-trtllm.csv"); });
  const std::string why =
      "ncu profiled no kernels (ncu wrote its 31 ==PROF== lines and no result table): check "
      "--kernel-name/--launch-skip, or add --target-processes all";
  EXPECT_NE(e.find("ncu-b200-noprofiled-trtllm.csv: " + why), std::string::npos) << e;
  // The program's own output in the file too (ncu --csv > file) changes nothing.
  const std::string with_output =
      "Running benchmark...\n" + read_text_file(kReal / "ncu-b200-noprofiled-trtllm.csv");
  const std::string e2 = error_of([&] { import_ncu(with_output, "out.csv"); });
  EXPECT_NE(e2.find("out.csv: " + why), std::string::npos) << e2;
}

// ncu without --csv prints its text report: a kernel was profiled, the file is no CSV. It was
// refused as "ncu profiled no kernels ... check --kernel-name/--launch-skip", which is wrong
// advice; it is said to be the text report, with how to export CSV.
TEST(RealNcu, ATextReportIsSaidToBeOne) {
  const std::string how =
      "ncu prints this report without --csv; export the CSV with ncu --csv --page raw --metrics "
      "... ./app > out.csv, or from a saved report: ncu --import FILE.ncu-rep --csv --page raw "
      "> out.csv";
  // RTX 30 (CC 8.6), the report of softmax_forward_kernel2 after the program's lines.
  EXPECT_EQ(error_of([] { ncu("ncu-rtx30-text-softmax-k2.txt"); }),
            path("ncu-rtx30-text-softmax-k2.txt") +
                ": line 10: ncu's text report, not CSV ('Section: GPU Speed Of Light "
                "Throughput'): " +
                how);
  // Windows, ncu --kernel-name without --csv: its progress lines between the program's own CSV
  // lines, no section yet (an excerpt).
  EXPECT_EQ(error_of([] { ncu("ncu-win-nocsv-appcsv-excerpt.txt"); }),
            path("ncu-win-nocsv-appcsv-excerpt.txt") +
                ": line 3: ncu's text report, not CSV (ncu profiled kernel 'kernelUnary' and the "
                "file has no CSV table): " +
                how);
}

TEST(RealNcu, FilesWithoutFpMetricsAreRefusedForThat) {
  const std::string fp =
      "W cannot be counted: no FP instruction metrics "
      "({sm,smsp}__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum) nor tensor "
      "operations (sm__ops_path_tensor_*)";
  const std::string collect =
      "collect them with: ncu --csv --metrics sm__sass_thread_inst_executed_op_dadd_pred_on.sum,"
      "sm__sass_thread_inst_executed_op_dmul_pred_on.sum,";
  // RTX 5070 (CC 12.0), details page, CR LF line ends (a Windows run), the application's own
  // lines before the table: it has T (gpu__time_duration.sum, ns) and Q
  // (dram__bytes_op_read/_write.sum) but no FP instruction counts.
  for (const char* f : {"ncu-rtx5070-details-saxpy.csv", "ncu-rtx5070-details-gemm-tiled.csv"}) {
    const std::string e = error_of([&] { ncu(f); });
    EXPECT_EQ(e.find(path(f) + ": kernel '"), 0u) << e;
    EXPECT_NE(e.find("(ID 0, line 10): " + fp + "; " + collect), std::string::npos) << e;
    EXPECT_EQ(e.find("T cannot"), std::string::npos) << e;
    EXPECT_EQ(e.find("Q cannot"), std::string::npos) << e;
  }
  // B200 (CC 10.0), raw page of launch statistics and pipe utilisation: T but neither W nor Q.
  const std::string raw = error_of([] { ncu("ncu-b200-raw-flash-fwd.csv"); });
  EXPECT_NE(raw.find(": kernel 'flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, 0, 0, "
                     "half_t, Flash_kernel_traits<128, 128, 64, 4, half_t>>, 0, 0, 0, 0, 0, 1, 0, "
                     "0>' (ID 0, line 5): " +
                     fp + "; Q cannot be counted: no DRAM traffic"),
            std::string::npos)
      << raw;
  EXPECT_NE(raw.find(",dram__bytes_read.sum,dram__bytes_write.sum (docs/import.md"),
            std::string::npos)
      << raw;
  // B200, the default details page (--set basic sections, rule rows with trailing commas):
  // its "Duration" is T; W and Q are missing.
  const std::string det = error_of([] { ncu("ncu-b200-details-cublaslt-sol.csv"); });
  EXPECT_NE(det.find("(ID 0, line 5): " + fp + "; Q cannot be counted"), std::string::npos) << det;
  EXPECT_EQ(det.find("T cannot"), std::string::npos) << det;
}

TEST(RealNcu, V100DefaultSectionsInBaseUnitsGiveTAndQButNoW) {
  // Tesla V100-SXM2-16GB (CC 7.0), Nsight Compute of 2020, details page of the default
  // sections with base units (nsecond, byte/second, cycle/second). "Duration" of the section
  // then named "GPU Speed Of Light" is T; "Memory Throughput" of Memory Workload Analysis
  // (byte/second) is dram__bytes.sum.per_second, so Q = rate × T. What is missing is W only.
  const std::string f = "ncu-v100-details-baseunits-cfd.csv";
  const std::string e = error_of([&] { ncu(f); });
  EXPECT_EQ(e.find(path(f) + ": kernel 'cuda_compute_step_factor' (ID 0, line 13): W cannot be "
                             "counted: no FP instruction metrics"),
            0u)
      << e;
  EXPECT_EQ(e.find("T cannot"), std::string::npos) << e;
  EXPECT_EQ(e.find("Q cannot"), std::string::npos) << e;

  std::ifstream in = open_import_file(kReal / f);
  TextLines lines(in, "v100");
  const ToolTable tab = read_ncu_table(lines);
  EXPECT_EQ(tab.layout, "ncu details");
  ASSERT_EQ(tab.records.size(), 2u);  // the kept head of the file: kernels ID 0 and 1
  EXPECT_EQ(tab.records[1].name, "cuda_compute_flux");
  const ToolValue* t = tab.records[0].find("gpu__time_duration.sum");
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->value, 10720);  // "Duration","nsecond","10720"
  EXPECT_EQ(t->unit, "nsecond");
  const ToolValue* q = tab.records[1].find("dram__bytes.sum.per_second");
  ASSERT_NE(q, nullptr);
  EXPECT_DOUBLE_EQ(q->value, 300965714285.71);  // "Memory Throughput","byte/second"
  EXPECT_EQ(q->unit, "byte/second");
  // The Speed Of Light section's own percentages keep their display names.
  EXPECT_EQ(tab.metric_names.count("Memory [%]"), 1u);
}

TEST(RealNcu, TablesOfTheRefusedFilesAreRead) {
  // The refusals above are for what the files lack, not for how they are written: their
  // tables read completely, with the units of each layout.
  std::ifstream in = open_import_file(kReal / "ncu-b200-raw-flash-fwd.csv");
  TextLines lines(in, "raw");
  const ToolTable raw = read_ncu_table(lines);
  EXPECT_EQ(raw.layout, "ncu raw");
  ASSERT_EQ(raw.records.size(), 1u);
  const ToolValue* t = raw.records[0].find("gpu__time_duration.sum");
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->value, 692000);
  EXPECT_EQ(t->unit, "ns");
  EXPECT_EQ(raw.records[0].device, "0");
  EXPECT_EQ(raw.metric_names.count("device__attribute_display_name"), 1u);

  std::ifstream in2 = open_import_file(kReal / "ncu-b200-details-cublaslt-sol.csv");
  TextLines lines2(in2, "details");
  const ToolTable det = read_ncu_table(lines2);
  EXPECT_EQ(det.layout, "ncu details");
  ASSERT_EQ(det.records.size(), 1u);
  const ToolValue* d = det.records[0].find("gpu__time_duration.sum");  // "Duration"
  ASSERT_NE(d, nullptr);
  EXPECT_DOUBLE_EQ(d->value, 406240);
  EXPECT_EQ(d->unit, "ns");
  EXPECT_EQ(det.metric_names.count("DRAM Frequency"), 1u);

  std::ifstream in3 = open_import_file(kReal / "ncu-rtx5070-details-saxpy.csv");
  TextLines lines3(in3, "crlf");
  const ToolTable crlf = read_ncu_table(lines3);
  ASSERT_EQ(crlf.records.size(), 1u);
  const ToolValue* rd = crlf.records[0].find("dram__bytes_op_read.sum");
  ASSERT_NE(rd, nullptr);
  EXPECT_DOUBLE_EQ(rd->value, 134221568);
  EXPECT_EQ(rd->unit, "byte");  // no CR left on the last field of a CR LF line
  EXPECT_EQ(crlf.records[0].find("gpu__time_duration.sum")->value, 292928);
  bool foreign = false;
  for (const auto& n : crlf.notes) foreign = foreign || n.find("6 lines that are not ncu's") == 0;
  EXPECT_TRUE(foreign);
}

// ---- likwid-perfctr -------------------------------------------------------------------------

TEST(RealLikwid, Zen2TextTablesTwoRuns) {
  // AMD EPYC 7702 (Zen 2), the terminal output of two runs (-g MEM_DP, then -g FLOPS_DP) of a
  // program with marker regions "<init_datastructures>" and "<function_a>", one thread.
  const auto r = likwid({"likwid-zen2-text-memdp-flopsdp.txt"});
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& a = r.doc.points[1];
  EXPECT_EQ(a.name, "<function_a>");
  // MEM_DP alone has W and Q; W = RETIRED_SSE_AVX_FLOPS_ALL = 200,000,000 (Zen counts FLOP)
  EXPECT_DOUBLE_EQ(a.work.value, 200000000.0);
  // T: "RDTSC Runtime [s]" 0.093733 (Region Info) has more digits than the Metric 0.0937
  EXPECT_DOUBLE_EQ(a.time.value, 0.093733);
  // Q = Memory bandwidth 8720.7732 MBytes/s × 0.093733 s
  EXPECT_DOUBLE_EQ(level(a, "DRAM").bytes.value, 8720.7732e6 * 0.093733);
  // ... which is the DRAM_CHANNEL_0 + _1 counts × 64 B, to the printed digits
  EXPECT_NEAR(level(a, "DRAM").bytes.value / ((6386432.0 + 6385763.0) * 64), 1, 1e-5);
  EXPECT_EQ(a.precision, "fp64");
  const Point& init = r.doc.points[0];
  EXPECT_EQ(init.name, "<init_datastructures>");
  EXPECT_DOUBLE_EQ(init.work.value, 12);
  EXPECT_DOUBLE_EQ(init.time.value, 0.109463);
  EXPECT_DOUBLE_EQ(level(init, "DRAM").bytes.value, 14778.5378e6 * 0.109463);
  // The FLOPS_DP run measured the same regions again: not mixed into the points, said so.
  EXPECT_TRUE(has_note(r, "<function_a>: run 2 (FLOPS_DP) not used"));
}

// One FLOP event of 1e308 makes P = W/T overflow: the region was left out with a note (and the
// others imported) while ncu refused the file for the same; both now refuse it, naming the
// values W and T came from.
TEST(RealLikwid, APerformanceBeyondADoubleIsRefusedAtItsValues) {
  const std::string text =
      roofline::test::edited(read_text_file(kReal / "likwid-zen2-text-memdp-flopsdp.txt"),
                             "|   PMC2  |   200000000 |", "|   PMC2  |       1e308 |");
  const std::string e = error_of([&] { import_likwid(text, "z.txt"); });
  EXPECT_EQ(e,
            "z.txt: line 43: region '<function_a>': P = W/T = 1e+308 / 0.09373 s is too large "
            "for a double (overflow) (W from z.txt: line 58, column 47: "
            "RETIRED_SSE_AVX_FLOPS_ALL (HWThread 64) = 1e+308; T from z.txt: line 47, column 26: "
            "RDTSC Runtime [s] (HWThread 64) = 0.093733)");
}

TEST(RealLikwid, CoffeeLakeCsvFlopsAloneIsRefusedForItsTraffic) {
  // Intel Core i5-7500 (Coffee Lake), -O CSV of FLOPS_DP with marker regions, after the
  // program's own output: W but no traffic.
  for (const char* f :
       {"likwid-coffeelake-csv-flopsdp.log", "likwid-coffeelake-csv-flopsdp-32.txt"}) {
    const std::string e = error_of([&] { likwid({f}); });
    EXPECT_EQ(e.find(path(f) + ": line "), 0u) << e;
    EXPECT_NE(e.find(": Q cannot be counted: no memory or cache traffic in groups FLOPS_DP; "
                     "measure it too: likwid-perfctr -g MEM"),
              std::string::npos)
        << e;
  }
  const std::string l3 = error_of([] { likwid({"likwid-coffeelake-csv-l3.log"}); });
  EXPECT_NE(l3.find("line 14: region 'multMatPtrVet': W cannot be counted: no FP events nor "
                    "DP/SP [MFLOP/s] in groups L3; measure FLOP too: likwid-perfctr -g FLOPS_DP"),
            std::string::npos)
      << l3;
}

TEST(RealLikwid, XeonPhiFlopsDpCountsMicroOpsAndIsRefusedForThat) {
  // Intel Xeon Phi 7250 (Knights Landing): likwid's FLOPS_DP counts UOPS_RETIRED_PACKED_SIMD and
  // prints "DP [MFLOP/s] (SSE/AVX/AVX512 assumed)". It was refused as having no FLOP metric and
  // told to run -g FLOPS_DP, which it is: now the metric and why it is not W are named.
  const std::string e = error_of([] { likwid({"likwid-knl-text-flopsdp-page.txt"}); });
  EXPECT_NE(e.find("line 13: region 'MMULMarker': W cannot be counted: groups FLOPS_DP count "
                   "SIMD micro-ops here, not FLOP: 'DP [MFLOP/s] (SSE assumed)' guesses"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("give W yourself (roofline point -W)"), std::string::npos) << e;
  EXPECT_EQ(e.find("measure FLOP too"), std::string::npos) << e;
}

// A likwid -O file written where numbers take a decimal comma: "1,987080e-06" is two cells, and
// the first alone (1 s) would be read. More values than the header's columns are refused, at
// the first extra cell, never dropped.
TEST(RealLikwid, AValueSplitByADecimalCommaIsRefused) {
  const std::string real = read_text_file(kReal / "likwid-coffeelake-csv-flopsdp.log");
  const std::string comma = roofline::test::edited(real, "Runtime (RDTSC) [s],1.987080e-06,",
                                                   "Runtime (RDTSC) [s],1,987080e-06,");
  EXPECT_EQ(error_of([&] { import_likwid(comma, "flops.log"); }),
            "flops.log: line 27, column 23: 'Runtime (RDTSC) [s]': 2 values where the table's "
            "header has 1 column (a number written with a decimal comma, split in two?)");
}

TEST(RealLikwid, CoffeeLakeFlopsAndL3RunsTogether) {
  // The FLOPS_DP and L3 runs of the same program and regions, given together: W from the one,
  // Q(L3) from the other, T the mean of their runtimes.
  const auto r = likwid({"likwid-coffeelake-csv-flopsdp.log", "likwid-coffeelake-csv-l3.log"});
  ASSERT_EQ(r.doc.points.size(), 3u);
  const Point& p = r.doc.points[0];
  EXPECT_EQ(p.name, "multMatPtrVet");
  // W = FP_ARITH_INST_RETIRED_SCALAR_DOUBLE 5010 × 1 (+ 0 packed)
  EXPECT_DOUBLE_EQ(p.work.value, 5010);
  EXPECT_EQ(p.precision, "fp64");
  // T: the Metric runtimes (7 digits) beat Region Info's 0.000002 (1 digit); the mean of the
  // FLOPS_DP run's 1.987080e-06 s and the L3 run's 1.963059e-06 s
  EXPECT_DOUBLE_EQ(p.time.value, (1.987080e-06 + 1.963059e-06) / 2);
  // Q(L3) = L3 bandwidth 29570.1759 MBytes/s × 1.963059e-06 s
  EXPECT_DOUBLE_EQ(level(p, "L3").bytes.value, 29570.1759e6 * 1.963059e-06);
  // ... which is (L2_LINES_IN_ALL 833 + L2_TRANS_L2_WB 74) × 64 B = 58,048 B
  EXPECT_NEAR(level(p, "L3").bytes.value, (833 + 74) * 64.0, 1.0);
  EXPECT_EQ(p.traffic.size(), 1u);  // no DRAM group measured
  const Point& col = r.doc.points[2];
  EXPECT_EQ(col.name, "multMatColVet");
  EXPECT_DOUBLE_EQ(col.time.value, (2.183089e-06 + 2.084540e-06) / 2);
  EXPECT_DOUBLE_EQ(level(col, "L3").bytes.value, 25605.6492e6 * 2.084540e-06);
  EXPECT_TRUE(has_note(r,
                       "multMatPtrVet: W from run 1 (FLOPS_DP), Q(L3) from run 2 (L3); "
                       "separate runs: T = the mean of their runtimes"));
}

TEST(RealLikwid, Zen2L3GroupCountsL3Access) {
  // likwid's Zen L3 group prints "L3 access bandwidth" (L3_ACCESS × 64 B / time), not "L3
  // bandwidth": it was not read, and FLOPS_DP + L3 were refused for want of traffic.
  const auto two = likwid({"likwid-zen2-text-flopsdp-page.txt", "likwid-zen2-text-l3-page.txt"});
  ASSERT_EQ(two.doc.points.size(), 1u);
  const Point& p = two.doc.points[0];
  EXPECT_EQ(p.name, "function_a");
  // W = RETIRED_SSE_AVX_FLOPS_ALL 200,000,000 (580.7757 MFLOP/s × 0.344367 s agrees)
  EXPECT_DOUBLE_EQ(p.work.value, 200000000);
  // Q(L3) = 2385.3517 MBytes/s × 0.343499 s = 819.36 MB ≈ L3_ACCESS 12,802,600 × 64 B
  EXPECT_DOUBLE_EQ(level(p, "L3").bytes.value, 2385.3517e6 * 0.343499);
  EXPECT_NEAR(level(p, "L3").bytes.value, 12802600 * 64.0, 1e3);
  EXPECT_DOUBLE_EQ(p.time.value, (0.344367 + 0.343499) / 2);
  EXPECT_TRUE(has_note(two,
                       "Q(L3) is L3 access × 64 B: every L3 lookup, misses too, and no "
                       "writeback into L3"));
  // With the MEM run too, the point has both levels (L3 was dropped without a word).
  const auto three = likwid({"likwid-zen2-text-flopsdp-page.txt", "likwid-zen2-text-l3-page.txt",
                             "likwid-zen2-text-mem-page.txt"});
  ASSERT_EQ(three.doc.points.size(), 1u);
  const Point& q = three.doc.points[0];
  // Q(DRAM) = Memory bandwidth 2456.5124 MBytes/s × 0.344393 s ≈ (6608612 + 6610215) × 64 B
  EXPECT_DOUBLE_EQ(level(q, "DRAM").bytes.value, 2456.5124e6 * 0.344393);
  EXPECT_NEAR(level(q, "DRAM").bytes.value, (6608612 + 6610215) * 64.0, 1e3);
  EXPECT_DOUBLE_EQ(level(q, "L3").bytes.value, 2385.3517e6 * 0.343499);
  EXPECT_DOUBLE_EQ(q.time.value, (0.344367 + 0.343499 + 0.344393) / 3);
}

TEST(RealLikwid, CoffeeLake128RunsWhoseRuntimesDisagreeAreNoted) {
  // Another program's FLOPS_DP and L3 runs (128×128): four regions, each W from the one and
  // Q(L3) from the other, T their mean. multMatVet_COM_OTIM took 10.41 µs in the first and
  // 94.48 ns in the second (Region Info's 0.000000 beside the Metric's 9.448311e-08): the runs
  // did not time the same work, which the note says.
  const auto r =
      likwid({"likwid-coffeelake-csv-flopsdp-128.log", "likwid-coffeelake-csv-l3-128.log"});
  ASSERT_EQ(r.doc.points.size(), 4u);
  const Point& mm = r.doc.points[2];
  EXPECT_EQ(mm.name, "multMatMat_NAO_OTIM");
  EXPECT_DOUBLE_EQ(mm.work.value, 4194314);  // FP_ARITH_INST_RETIRED_SCALAR_DOUBLE, no packed
  // Region Info's 0.001908 and 0.002184 (4 digits) beat the Metric's 0.0019 and 0.0022.
  EXPECT_DOUBLE_EQ(mm.time.value, (0.001908 + 0.002184) / 2);
  EXPECT_DOUBLE_EQ(level(mm, "L3").bytes.value, 20925.2699e6 * 0.002184);
  // ... which is (L2_LINES_IN_ALL 712233 + L2_TRANS_L2_WB 1748) × 64 B
  EXPECT_NEAR(level(mm, "L3").bytes.value, (712233 + 1748) * 64.0, 0.01 * 45.7e6);
  const Point& vet = r.doc.points[1];
  EXPECT_EQ(vet.name, "multMatVet_COM_OTIM");
  EXPECT_DOUBLE_EQ(vet.time.value, (1.041077e-05 + 9.448311e-08) / 2);
  EXPECT_DOUBLE_EQ(level(vet, "L3").bytes.value, 260787.3513e6 * 9.448311e-08);
  EXPECT_TRUE(has_note(r,
                       "multMatVet_COM_OTIM: W from run 1 (FLOPS_DP), Q(L3) from run 2 (L3); "
                       "separate runs: T = the mean of their runtimes (10.41 us, 94.48 ns); "
                       "the runtimes differ by 110x, so the runs did not time the same work"));
  // Runs that agree (1.908 and 2.184 ms) carry no such warning.
  for (const auto& n : r.notes) {
    if (n.rfind("multMatMat_NAO_OTIM:", 0) == 0) {
      EXPECT_EQ(n.find("differ by"), std::string::npos) << n;
    }
  }
}

// One of two separate runs timed 0 s: the region is refused naming that run, not given T as
// half the other run's time (the mean with 0) and "runtimes differ by infx".
TEST(RealLikwid, ARunTimedZeroIsNotAveragedIn) {
  std::string flops = read_text_file(kReal / "likwid-coffeelake-csv-flopsdp-128.log");
  flops = roofline::test::edited(flops, "RDTSC Runtime [s],0.000015,", "RDTSC Runtime [s],0,");
  flops =
      roofline::test::edited(flops, "Runtime (RDTSC) [s],1.548999e-05,", "Runtime (RDTSC) [s],0,");
  ToolTable tab;
  std::istringstream a(flops);
  TextLines la(a, "flops.log");
  read_likwid_table(la, tab);
  std::ifstream b = open_import_file(kReal / "likwid-coffeelake-csv-l3-128.log");
  TextLines lb(b, "l3.log");
  read_likwid_table(lb, tab);
  const auto r = likwid_points(tab);
  ASSERT_EQ(r.doc.points.size(), 3u);
  for (const auto& p : r.doc.points) EXPECT_NE(p.name, "multMatVet_NAO_OTIM");
  EXPECT_TRUE(has_note(r,
                       "flops.log: line 11: region 'multMatVet_NAO_OTIM': run 1 (FLOPS_DP): "
                       "the runtime is 0 s"));
}

TEST(RealLikwid, RawCountsBeatRoundedRuntimes) {
  // The 32×32 run's multMatMat: Region Info 0.000115 s, Metric "Runtime (RDTSC)" rounded to
  // 0.0001 s; W from the event count is exact whatever the runtime.
  std::ifstream in = open_import_file(kReal / "likwid-coffeelake-csv-flopsdp-32.txt");
  TextLines lines(in, "f");
  ToolTable tab;
  read_likwid_table(lines, tab);
  ASSERT_EQ(tab.records.size(), 4u);
  const ToolRecord& mm = tab.records[2];
  EXPECT_EQ(mm.name, "multMatMat");
  EXPECT_EQ(mm.group, "FLOPS_DP");
  EXPECT_DOUBLE_EQ(mm.find("FP_ARITH_INST_RETIRED_SCALAR_DOUBLE")->value, 65546);
  EXPECT_EQ(mm.find("RDTSC Runtime [s]")->significant, 3);    // 0.000115
  EXPECT_EQ(mm.find("Runtime (RDTSC) [s]")->significant, 1);  // 0.0001
  EXPECT_EQ(mm.find("FP_ARITH_INST_RETIRED_SCALAR_DOUBLE")->instance, "Core 3");
  EXPECT_EQ(mm.find("FP_ARITH_INST_RETIRED_SCALAR_DOUBLE")->unit, "PMC1");
}

// ---- Separate runs pasted into one file -----------------------------------------------------

// Three likwid-perfctr runs of one program on an Intel Core i7-10875H (Comet Lake), pasted one
// after another without the CPU header between them: MEM_SP, FLOPS_SP, CYCLE_STALLS, each its
// own "Group 1". They were read as three groups of one run (runtimes added, each rate spread
// over the 374.2 s: W = 2.17 TFLOP, Q = 53.65 GB); a second "Group 1" is another run, and
// MEM_SP alone has W and Q, so it is the point.
TEST(RealLikwid, CometLakeRunsPastedInOneFileAreSeparateRuns) {
  const auto r = likwid({"likwid-cometlake-memsp-flopssp-stalls.md"});
  ASSERT_EQ(r.doc.points.size(), 1u);
  const Point& p = r.doc.points[0];
  // W = FP_ARITH_INST_RETIRED_128B_PACKED_SINGLE 176,841,417,550 × 4 + SCALAR_SINGLE
  // 15,671,340,907 × 1 + 256B_PACKED_SINGLE 1 × 8 = 723,037,011,115 FLOP (723.04 GFLOP)
  EXPECT_DOUBLE_EQ(p.work.value, 176841417550.0 * 4 + 15671340907.0 + 1 * 8);
  EXPECT_DOUBLE_EQ(p.work.value, 723037011115.0);
  // T = MEM_SP's "Runtime (RDTSC) [s]" 124.6938 (not 124.6938 + 124.6492 + 124.8074 = 374.2 s)
  EXPECT_DOUBLE_EQ(p.time.value, 124.6938);
  // Q(DRAM) = Memory bandwidth 143.3845 MBytes/s × 124.6938 s = 17.88 GB
  EXPECT_DOUBLE_EQ(level(p, "DRAM").bytes.value, 143.3845e6 * 124.6938);
  EXPECT_NEAR(level(p, "DRAM").bytes.value / 17.8792e9, 1, 1e-4);  // the printed volume
  EXPECT_EQ(p.precision, "fp32");
  EXPECT_TRUE(has_note(r, "likwid run: run 2 (FLOPS_SP) not used")) << r.notes.size();
}

// Sandy Bridge/Ivy Bridge (FP_COMP_OPS_EXE_* and SIMD_FP_256_PACKED_DOUBLE events, four memory
// channels), one thread: a MEM run and a FLOPS_DP run. Given as two files or pasted into one,
// they are the same two runs: W from the one, Q from the other, T the mean of their runtimes.
// Pasted, they were one run: 999.6 GFLOP, 8075 s, 2.77 TB.
TEST(RealLikwid, SandyBridgeRunsPastedInOneFileAreTheSameAsTwoFiles) {
  const std::string mem = read_text_file(kReal / "likwid-snb-mem-rivers.txt");
  const std::string flops = read_text_file(kReal / "likwid-snb-flopsdp-rivers.txt");
  const auto two = likwid({"likwid-snb-mem-rivers.txt", "likwid-snb-flopsdp-rivers.txt"});
  const auto one = import_likwid(mem + flops, "snb.txt");
  for (const ImportResult* r : {&two, &one}) {
    ASSERT_EQ(r->doc.points.size(), 1u);
    const Point& p = r->doc.points[0];
    // W = DP [MFLOP/s] 123.7936 × 4080.0487 s = 505.08 GFLOP ...
    EXPECT_DOUBLE_EQ(p.work.value, 123.7936e6 * 4080.0487);
    // ... which is PMC0 52,287,698,182 × 2 + PMC1 69,433,493,065 + PMC2 82,768,760,959 × 4
    // (likwid's formula), to the printed digits
    EXPECT_NEAR(p.work.value / (52287698182.0 * 2 + 69433493065.0 + 82768760959.0 * 4), 1, 1e-6);
    // Q(DRAM) = Memory bandwidth 343.0342 MBytes/s × 3994.6320 s = 1.37 TB
    EXPECT_DOUBLE_EQ(level(p, "DRAM").bytes.value, 343.0342e6 * 3994.6320);
    // T = the mean of the two runs' runtimes: (3994.6320 + 4080.0487) / 2 = 4037.3 s
    EXPECT_DOUBLE_EQ(p.time.value, (3994.6320 + 4080.0487) / 2);
    EXPECT_EQ(p.precision, "fp64");
  }
  EXPECT_TRUE(has_note(one,
                       "likwid run: W from run 2 (FLOPS_DP), Q(DRAM) from run 1 (MEM); separate "
                       "runs: T = the mean of their runtimes"));
}

// The same blocks as one run's groups (-g MEM -g FLOPS_DP: "Group 1", "Group 2") stay one run,
// also with the CPU header likwid-perfctr writes before each group's tables with -o FILE.txt,
// and with marker regions, whose blocks come group by group ("Region a, Group 1", "Region b,
// Group 1", "Region a, Group 2", ...): rates combined over the sum of the groups' runtimes.
TEST(RealLikwid, GroupsOfOneRunAreNotSplit) {
  const std::string mem = read_text_file(kReal / "likwid-snb-mem-rivers.txt");
  const std::string flops =
      roofline::test::edited(read_text_file(kReal / "likwid-snb-flopsdp-rivers.txt"),
                             "Group 1: FLOPS_DP", "Group 2: FLOPS_DP");
  const std::string header =
      "--------------------------------------------------------------------------------\n"
      "CPU name:\tIntel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz\n";
  const double t = 3994.6320 + 4080.0487;
  for (const std::string& text : {mem + flops, header + mem + header + flops}) {
    const auto r = import_likwid(text, "g.txt");
    ASSERT_EQ(r.doc.points.size(), 1u);
    const Point& p = r.doc.points[0];
    EXPECT_DOUBLE_EQ(p.time.value, t);
    // W = the FLOPS_DP rate over both groups' time; Q likewise the MEM rate
    EXPECT_DOUBLE_EQ(p.work.value, 123.7936e6 * 4080.0487 / 4080.0487 * t);
    EXPECT_DOUBLE_EQ(level(p, "DRAM").bytes.value, 343.0342e6 * 3994.6320 / 3994.6320 * t);
  }
  auto region = [](std::string text, const std::string& name) {
    const std::size_t at = text.find("Group ");
    return text.insert(at, "Region " + name + ", ");
  };
  const auto r = import_likwid(
      region(mem, "a") + region(mem, "b") + region(flops, "a") + region(flops, "b"), "m.txt");
  ASSERT_EQ(r.doc.points.size(), 2u);
  for (const Point& p : r.doc.points) EXPECT_DOUBLE_EQ(p.time.value, t) << p.name;
}

// likwid-perfctr -O runs pasted into one file (TABLE lines, "Group 1 Raw" in each) had the same
// defect once no text header stood between them (as in two `-o FILE.csv` files, CSV alone):
// FLOPS_DP and L3 read as groups of one run. Pasted, they give the points the two files give
// (CoffeeLakeFlopsAndL3RunsTogether).
TEST(RealLikwid, CsvRunsPastedInOneFileAreSeparateRuns) {
  const std::string flops = read_text_file(kReal / "likwid-coffeelake-csv-flopsdp.log");
  const std::string l3 = read_text_file(kReal / "likwid-coffeelake-csv-l3.log");
  const auto r = import_likwid(flops + l3.substr(l3.find("STRUCT,Info")), "both.log");
  ASSERT_EQ(r.doc.points.size(), 3u);
  const Point& p = r.doc.points[0];
  EXPECT_EQ(p.name, "multMatPtrVet");
  EXPECT_DOUBLE_EQ(p.work.value, 5010);
  EXPECT_DOUBLE_EQ(p.time.value, (1.987080e-06 + 1.963059e-06) / 2);
  EXPECT_DOUBLE_EQ(level(p, "L3").bytes.value, 29570.1759e6 * 1.963059e-06);
}

// likwid's FLOPS_DP on Sandy Bridge and Ivy Bridge counts FP_COMP_OPS_EXE_SSE_FP_* and
// SIMD_FP_256_PACKED_DOUBLE, which likwid's group files call potentially wrong: W is kept, with
// a note citing them (not a refusal, as for Xeon Phi's micro-ops).
TEST(RealLikwid, SandyBridgeFlopCountersAreNotedAsUntrusted) {
  const auto r = likwid({"likwid-snb-mem-rivers.txt", "likwid-snb-flopsdp-rivers.txt"});
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_TRUE(has_note(
      r, path("likwid-snb-flopsdp-rivers.txt") +
             ": line 9: the run: W from 'DP [MFLOP/s]', which likwid computes on Sandy Bridge and "
             "Ivy Bridge from FP_COMP_OPS_EXE_SSE_FP_* and SIMD_FP_256_PACKED_*: likwid's group "
             "files say these FLOP counts are potentially wrong and cannot be trusted "
             "(RRZE-HPC/likwid groups/sandybridge/FLOPS_DP.txt, "
             "groups/ivybridge/FLOPS_DP.txt)"));
  // Other CPUs' FLOP events carry no such note.
  const auto comet = likwid({"likwid-cometlake-memsp-flopssp-stalls.md"});
  EXPECT_FALSE(has_note(comet, "potentially wrong"));
}

// ---- DCGM -----------------------------------------------------------------------------------

TEST(RealDcgm, NvlinkAndPcieFieldsAreNoPoint) {
  // H800, `dcgmi dmon -i 0 -e 1011,1012,1009,1010 -c 5`: NVLink and PCIe bytes, two all-N/A
  // rows first. No pipe or DRAM activity: refused, naming the fields that give a point.
  RoofSet roofs;
  roofs.name = "m";
  std::ifstream in = open_import_file(kReal / "dcgm-h800-nvlink-pcie.txt");
  const std::string e =
      error_of([&] { import_dcgm(in, path("dcgm-h800-nvlink-pcie.txt"), roofs); });
  EXPECT_EQ(e, path("dcgm-h800-nvlink-pcie.txt") +
                   ": line 1: no activity fields in the header (NVLTX NVLRX PCITX PCIRX): a "
                   "point needs DRAMA (DRAM activity, field 1005) and the pipes' activity TENSO, "
                   "FP64A, FP32A, FP16A (1004, 1006, 1007, 1008); collect them with dcgmi dmon "
                   "-e 203,1002,1003,1004,1005,1006,1007,1008 -d 1000");
}

TEST(RealDcgm, T4TritonRunsGiveOnePointEach) {
  // Tesla T4 on GKE, three `dcgmi dmon` runs (GPUTL MCUTL DRAMA SMACT SMOCC TENSO PCITX PCIRX,
  // the older "# EntityId" header without an ID line), 3 samples each, dmon's default 1 s.
  // The roofs here are the test's: a T4-sized machine (65 TFLOP/s fp16 tensor, 320 GB/s); the
  // file's activity ratios are what is checked.
  RoofSet roofs;
  roofs.name = "t4-sized";
  ComputeRoof tensor;
  tensor.name = "fp16 tensor";
  tensor.precision = "fp16";
  tensor.unit = "tensor";
  tensor.peak = WorkRate{65e12};
  roofs.compute.push_back(tensor);
  MemoryRoof gddr;
  gddr.level = "GDDR6";
  gddr.bandwidth = ByteRate{320e9};
  roofs.memory.push_back(gddr);
  roofs.default_memory = "GDDR6";
  struct Case {
    const char* file;
    double tenso, drama, util;  // averages of the three rows, by hand
  };
  const Case cases[] = {
      // (0.267 + 0.227 + 0.231) / 3, (0.382 + 0.333 + 0.335) / 3, (79 + 92 + 93) / 3 %
      {"dcgm-t4-triton-resnet50-1inst.txt", 0.725 / 3, 1.050 / 3, 264.0 / 300},
      // (0.323 + 0.439 + 0.382) / 3, (0.423 + 0.494 + 0.458) / 3, (97 + 73 + 97) / 3 %
      {"dcgm-t4-triton-resnet50-4inst.txt", 1.144 / 3, 1.375 / 3, 267.0 / 300},
      // (0.540 + 0.525 + 0.546) / 3, (0.280 + 0.278 + 0.277) / 3, (99 + 93 + 99) / 3 %
      {"dcgm-t4-triton-bert.txt", 1.611 / 3, 0.835 / 3, 291.0 / 300},
  };
  for (const Case& c : cases) {
    std::ifstream in = open_import_file(kReal / c.file);
    const DcgmResult r = import_dcgm(in, path(c.file), roofs);
    ASSERT_EQ(r.gpus.size(), 1u) << c.file;
    const DcgmSummary& g = r.gpus[0];
    EXPECT_EQ(g.entity, "GPU 2") << c.file;
    EXPECT_EQ(g.samples, 3) << c.file;
    EXPECT_NEAR(g.tensor_active.value_or(-1), c.tenso, 1e-12) << c.file;
    EXPECT_NEAR(g.dram_active.value_or(-1), c.drama, 1e-12) << c.file;
    EXPECT_NEAR(g.gpu_util.value_or(-1), c.util, 1e-12) << c.file;
    ASSERT_EQ(r.result.doc.points.size(), 1u) << c.file;
    const Point& p = r.result.doc.points[0];
    // T = 3 samples × 1 s; W = TENSO·65 TFLOP/s·T; Q = DRAMA·320 GB/s·T.
    EXPECT_DOUBLE_EQ(p.time.value, 3.0) << c.file;
    EXPECT_NEAR(p.work.value, c.tenso * 65e12 * 3, 1e3) << c.file;
    EXPECT_NEAR(p.traffic[0].bytes.value, c.drama * 320e9 * 3, 1e-3) << c.file;
    EXPECT_EQ(p.precision, "fp16 tensor") << c.file;
  }
  // The BERT run with TENSO N/A in two of its samples (as while ncu holds the counters): the
  // mean of the one that gives it stands for the run, and a note says so.
  std::string bert = read_text_file(kReal / "dcgm-t4-triton-bert.txt");
  bert = roofline::test::edited(bert, "0.267  0.525", "0.267    N/A");
  bert = roofline::test::edited(bert, "0.276  0.546", "0.276    N/A");
  const DcgmResult r = import_dcgm(bert, "bert.txt", roofs);
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].samples, 3);
  EXPECT_DOUBLE_EQ(r.gpus[0].tensor_active.value_or(-1), 0.540);
  EXPECT_EQ(r.gpus[0].partial, std::vector<std::string>{"TENSO 1 of 3"});
  EXPECT_TRUE(has_note(r.result, "GPU 2: TENSO 1 of 3 samples give a value (N/A in the others"));
}

// The DCGM user guide's two A100 logs. MIG: rows GPU 0, GPU-I 0 and GPU-I 1, whose ratios are of
// each instance's own share (two 3g instances, 3 of 7 slices each, at 0.986 make the GPU's
// 2 × 3/7 × 0.986 = 0.845): an instance gets no point, as scaled by the whole GPU's peaks it
// read 1/share too high; the GPU row has no DRAMA here, and the refusal names that field. The
// other log's DRAMA is 0.000 in every row, and its refusal says so (it said "missing or zero,
// or no memory roof").
TEST(RealDcgm, A100DocsMigInstancesAndAZeroDramaGiveNoPoint) {
  const RoofSet a100 = resolve_machine("a100-40gb").roofs;
  const auto import_real = [&](const char* file) {
    std::ifstream in = open_import_file(kReal / file);
    return import_dcgm(in, path(file), a100);
  };
  const DcgmResult mig = import_real("dcgm-a100-mig-docs-gract-tenso.txt");
  EXPECT_TRUE(mig.result.doc.points.empty());
  EXPECT_TRUE(
      has_note(mig.result, "GPU 0: no point — the log has no DRAMA (DRAM_ACTIVE, field 1005)"));
  for (const char* instance : {"GPU-I 0", "GPU-I 1"})
    EXPECT_TRUE(has_note(mig.result, std::string(instance) +
                                         ": no point — a MIG instance's activity is relative to "
                                         "its own share"));
  const DcgmResult zero = import_real("dcgm-a100-docs-gract-tenso-drama.txt");
  EXPECT_TRUE(zero.result.doc.points.empty());
  EXPECT_TRUE(has_note(zero.result, "GPU 0: no point — DRAMA (DRAM_ACTIVE) is 0 in every sample"));
  // The MIG log with a DRAMA column (edited in at one row of each entity, the GPU's own row
  // taking the guide's 0.845/0.816): the GPU row is a point, the instances still are not.
  std::string text = read_text_file(kReal / "dcgm-a100-mig-docs-gract-tenso.txt");
  text = roofline::test::edited(text, "# Entity  GRACT  TENSO", "# Entity  GRACT  TENSO  DRAMA");
  std::string edited_rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    edited_rows += line + (line.find("GPU") != std::string::npos ? "  0.400\n" : "\n");
  const DcgmResult r = import_dcgm(edited_rows, "mig.txt", a100);
  ASSERT_EQ(r.result.doc.points.size(), 1u);
  EXPECT_EQ(r.result.doc.points[0].name.rfind("GPU 0", 0), 0u) << r.result.doc.points[0].name;
  EXPECT_TRUE(has_note(r.result, "GPU-I 1: no point — a MIG instance's activity"));
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {
// ncu ends every line: a real export cut right after a comma left an empty last cell, read as a
// metric ncu did not give — the A100 gemm kernel dropped (FFMA "n/a" for it only) and the import
// went on with the others, exit 0.
TEST(RealNcu, AnExportCutAfterACommaIsTruncated) {
  const std::string text = read_text_file(kReal / "ncu-a100-details-printfp-gemm.csv");
  const std::string cell = "ffma_pred_on.sum\",\"inst\",\"34,359,738,368,000.00\"";
  const auto at = text.find(cell);
  ASSERT_NE(at, std::string::npos);
  const std::string cut = text.substr(0, at + cell.find("\"34,"));  // ends with "inst",
  const auto line_start = cut.rfind('\n') + 1;
  const std::string got = error_of([&] { import_ncu(cut, "gemm.csv"); });
  EXPECT_EQ(got, "gemm.csv: line 42, column " + std::to_string(cut.size() - line_start + 1) +
                     ": the last row has no line end (file truncated?); if the file is whole, "
                     "end it with one");
  // The same row whole (its line end kept) is read.
  EXPECT_EQ(ncu("ncu-a100-details-printfp-gemm.csv").doc.points.size(), 3u);
}

// Cut at a line end, the export's last kernel lacks the rows after its FFMA count (FMUL, HADD,
// HFMA, HMUL: a cut that no line shows): the note says which metrics it lacks that another kernel
// has.
TEST(RealNcu, ALastKernelWithFewerMetricsIsNoted) {
  const std::string text = read_text_file(kReal / "ncu-a100-details-printfp-gemm.csv");
  const std::string row = "ffma_pred_on.sum\",\"inst\",\"34,359,738,368,000.00\"\n";
  const auto at = text.find(row);
  ASSERT_NE(at, std::string::npos);
  const auto r = import_ncu(text.substr(0, at + row.size()), "gemm.csv");
  EXPECT_TRUE(has_note(r,
                       "kernel ID 2 (line 32), the table's last, lacks metrics kernel ID 0 has "
                       "(smsp__sass_thread_inst_executed_op_fmul_pred_on.sum, "
                       "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum, "
                       "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum, "
                       "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum): the file may be cut "
                       "at a line end"));
  // The whole export: no such note.
  EXPECT_FALSE(has_note(ncu("ncu-a100-details-printfp-gemm.csv"), "the file may be cut"));
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {
ImportResult likwid_texts(const std::vector<std::pair<std::string, std::string>>& files) {
  ToolTable tab;
  for (const auto& [name, text] : files) {
    std::istringstream in(text);
    TextLines lines(in, name);
    read_likwid_table(lines, tab);
  }
  return likwid_points(tab);
}

// A negative value in the second or third file is refused naming that file, at its own line and
// column (the message named the first file with the other's line and column).
TEST(RealLikwid, ANegativeValueNamesItsOwnFile) {
  const std::string flops = read_text_file(kReal / "likwid-coffeelake-csv-flopsdp-128.log");
  const std::string l3 = read_text_file(kReal / "likwid-coffeelake-csv-l3-128.log");
  const std::string bad = roofline::test::edited(l3, "L3 bandwidth [MBytes/s],14124.0883,",
                                                 "L3 bandwidth [MBytes/s],-14124.0883,");
  EXPECT_EQ(error_of([&] {
              likwid_texts({{"A.log", flops}, {"B.log", bad}});
            }),
            "B.log: line 31, column 25: L3 bandwidth [MBytes/s] (Core 3): negative value "
            "-14124");
  EXPECT_EQ(error_of([&] {
              likwid_texts({{"A.log", flops}, {"B.log", l3}, {"C.log", bad}});
            }),
            "C.log: line 31, column 25: L3 bandwidth [MBytes/s] (Core 3): negative value "
            "-14124");
  // In the first file it names the first.
  EXPECT_EQ(error_of([&] {
              likwid_texts({{"A.log", bad}, {"B.log", flops}});
            }),
            "A.log: line 31, column 25: L3 bandwidth [MBytes/s] (Core 3): negative value "
            "-14124");
}

// Runs of two machines (a Coffee Lake FLOPS_DP run, an EPYC 7702 L3 run) would make one point
// of one CPU's FLOP over another's traffic: refused, naming both files and both CPUs.
TEST(RealLikwid, RunsOfDifferentCpusAreRefused) {
  const std::string got = error_of([] {
    likwid({"likwid-coffeelake-csv-flopsdp-128.log", "likwid-zen2-text-l3-page.txt"});
  });
  EXPECT_EQ(got, path("likwid-zen2-text-l3-page.txt") +
                     ": line 2: a run on CPU 'AMD EPYC 7702 64-Core Processor', where " +
                     path("likwid-coffeelake-csv-flopsdp-128.log") +
                     ": line 2 is a run on 'Intel(R) Core(TM) i5-7500 CPU @ 3.40GHz': the inputs "
                     "must be runs of one program on one machine (import each machine's runs by "
                     "themselves)");
  // One machine's runs, in text and CSV headers alike, are read together.
  EXPECT_EQ(likwid({"likwid-coffeelake-csv-flopsdp-128.log", "likwid-coffeelake-csv-l3-128.log"})
                .doc.points.size(),
            4u);
}

// likwid could not program the counters ("MSR write operation failed"): the FLOP event printed
// '-' for a thread that ran 2.145 ms. That is no W of 0: refused, naming the event and the file.
TEST(RealLikwid, AFlopEventNotMeasuredIsSaidAsSuch) {
  const std::string msr = "likwid-zen2-text-flopssp-msr-failed.txt";
  const std::string want = path(msr) +
                           ": line 56, column 46: RETIRED_SSE_AVX_FLOPS_ALL (HWThread 0): the "
                           "FLOP event was not measured (printed without a value, such as '-') "
                           "for a thread that ran 2.145 ms: likwid could not read the counter "
                           "(see its ERROR lines, e.g. 'MSR write operation failed')";
  EXPECT_EQ(error_of([&] { likwid({msr}); }), want);
}
// Nehalem's and Westmere's FLOPS_DP count FP_COMP_OPS_EXE_SSE_FP_PACKED and _SCALAR (no
// _DOUBLE), which likwid's group files do not call untrusted: the Sandy Bridge file with those
// names (and no 256-bit row, which those CPUs lack) gets no note.
TEST(RealLikwid, WestmereFlopCountersAreNotNotedAsUntrusted) {
  std::string flops = read_text_file(kReal / "likwid-snb-flopsdp-rivers.txt");
  flops = roofline::test::edited(flops, "FP_COMP_OPS_EXE_SSE_FP_PACKED_DOUBLE |",
                                 "   FP_COMP_OPS_EXE_SSE_FP_PACKED    |");
  flops = roofline::test::edited(flops, "FP_COMP_OPS_EXE_SSE_FP_SCALAR_DOUBLE |",
                                 "   FP_COMP_OPS_EXE_SSE_FP_SCALAR    |");
  flops = roofline::test::edited(
      flops, "|       SIMD_FP_256_PACKED_DOUBLE      |   PMC2  |    82768760959 |\n", "");
  const std::string mem = read_text_file(kReal / "likwid-snb-mem-rivers.txt");
  const auto r = likwid_texts({{"westmere-mem.txt", mem}, {"westmere-flops.txt", flops}});
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_FALSE(has_note(r, "potentially wrong"));
}
}  // namespace ROOFLINE_UNITY_ID
