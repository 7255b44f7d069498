// Nsight Compute CSV import: W, Q, T per kernel, units and separators, hierarchy, bad files.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <filesystem>

#include "import/edited.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kData = fs::path(ROOFLINE_TEST_DATA) / "import";
ImportResult load(const std::string& name) {
  const auto p = kData / name;
  return import_ncu(read_text_file(p), p.string());
}
std::string error_of(const std::string& text, const std::string& origin = "r.csv") {
  try {
    import_ncu(text, origin);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ImportNcu, RawPageOnePointPerKernel) {
  const auto r = load("ncu-raw-saxpy.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& s = r.doc.points[0];
  EXPECT_EQ(s.name, "saxpy #0");
  EXPECT_DOUBLE_EQ(s.work.value, 2.0 * 16777216);  // 2·FFMA
  ASSERT_EQ(s.traffic.size(), 1u);
  EXPECT_EQ(s.traffic[0].level, "DRAM");
  EXPECT_DOUBLE_EQ(s.traffic[0].bytes.value, 134.22e6 + 67108.86e3);  // Mbyte + Kbyte
  EXPECT_DOUBLE_EQ(s.time.value, 96.58e-6);
  EXPECT_EQ(s.precision, "fp32 vector");
  EXPECT_NEAR(s.intensity().value, 1.0 / 6, 1e-4);  // the seed's SAXPY: I = 1/6
  const Point& g = r.doc.points[1];
  EXPECT_EQ(g.name, "sgemm_tiled<128> #1");
  EXPECT_DOUBLE_EQ(g.work.value, 2.0 * 1073741824);
  EXPECT_DOUBLE_EQ(g.time.value, 1210.45e-6);  // "1,210.45" usecond
  // The kernel without floating-point work is reported, not placed.
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("fill_zero #2: skipped, no floating-point work"), std::string::npos);
}

TEST(ImportNcu, MetricSumsGiveDoublePrecisionTensorAndHierarchy) {
  const auto r = load("ncu-metrics-sums.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& d = r.doc.points[0];
  EXPECT_EQ(d.name, "dgemm_nn_kernel<64, 64> #0");
  EXPECT_DOUBLE_EQ(d.work.value, 2.0 * 134217728 + 262144 + 262144);  // 2·DFMA + DADD + DMUL
  EXPECT_EQ(d.precision, "fp64 vector");
  ASSERT_EQ(d.traffic.size(), 3u);
  EXPECT_DOUBLE_EQ(d.traffic[0].bytes.value, 6.29e6 + 2.10e6);
  EXPECT_EQ(d.traffic[1].level, "L2");
  EXPECT_DOUBLE_EQ(d.traffic[1].bytes.value, 1.61e9);
  EXPECT_EQ(d.traffic[2].level, "L1");
  EXPECT_DOUBLE_EQ(d.traffic[2].bytes.value, 6.44e9);
  EXPECT_DOUBLE_EQ(d.time.value, 31.07e-6);
  const Point& t = r.doc.points[1];
  EXPECT_DOUBLE_EQ(t.work.value, 17179869184.0);  // sm__ops_path_tensor_*: 2·2048³
  EXPECT_NE(t.note.find("fp16 tensor"), std::string::npos);
  EXPECT_EQ(t.precision, "fp16 tensor");  // from ..._src_fp16_dst_fp32, not the fp32 roof
  // The export's peak metrics describe the device (an A100: 108 SMs × 64 FFMA/cycle at 1.41 GHz).
  ASSERT_TRUE(r.roofs.has_value());
  const ComputeRoof* fp32 = r.roofs->find_compute("fp32");
  ASSERT_NE(fp32, nullptr);
  EXPECT_DOUBLE_EQ(fp32->peak.value, 2 * 6912 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->find_compute("fp64")->peak.value, 2 * 3456 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->memory.at(0).bandwidth.value, 1280 * 1.22e9);
  EXPECT_FALSE(load("ncu-raw-saxpy.csv").roofs.has_value());
  NcuOptions no_hierarchy;
  no_hierarchy.hierarchy = false;
  const auto flat = import_ncu(read_text_file(kData / "ncu-metrics-sums.csv"), "x", no_hierarchy);
  EXPECT_EQ(flat.doc.points[0].traffic.size(), 1u);
}

TEST(ImportNcu, SetRooflineRatesBecomeCounts) {
  // `ncu --csv --page raw --set roofline`: rates per elapsed cycle and per second, a units row
  // with "Ghz" and "cycle/nsecond", ==PROF== lines around the table.
  const auto r = load("ncu-set-roofline.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& d = r.doc.points[0];
  EXPECT_EQ(d.name, "dgemm_nn_kernel<64, 64> #0");
  EXPECT_EQ(d.precision, "fp64 vector");
  const double t = 31.07e-6;
  EXPECT_DOUBLE_EQ(d.time.value, t);
  // W = (2·DFMA + DADD + DMUL) per elapsed cycle × smsp__cycles_elapsed.avg.per_second × T.
  EXPECT_DOUBLE_EQ(d.work.value, (2 * 3063.72 + 5.98 + 5.98) * 1.41e9 * t);
  // ... which is the 512³ DGEMM's 2·512³ FLOP (plus its 2·512² adds and multiplies) to the
  // rates' printed precision.
  EXPECT_NEAR(d.work.value / (2.0 * 512 * 512 * 512 + 2 * 262144), 1, 1e-4);
  ASSERT_EQ(d.traffic.size(), 3u);
  EXPECT_EQ(d.traffic[0].level, "DRAM");
  EXPECT_DOUBLE_EQ(d.traffic[0].bytes.value, 270.07e9 * t);  // dram__bytes.sum.per_second × T
  EXPECT_EQ(d.traffic[1].level, "L2");
  EXPECT_DOUBLE_EQ(d.traffic[1].bytes.value, 2.10e12 * t);  // lts__t_bytes.sum.per_second × T
  EXPECT_EQ(d.traffic[2].level, "L1");
  EXPECT_DOUBLE_EQ(d.traffic[2].bytes.value, 9.80e12 * t);
  const Point& s = r.doc.points[1];
  EXPECT_EQ(s.name, "(anonymous namespace)::sgemm_nn<128, 64> #1");
  EXPECT_EQ(s.precision, "fp32 vector");
  EXPECT_DOUBLE_EQ(s.work.value, 2 * 6328.59 * 1.41e9 * 120.33e-6);
  EXPECT_NEAR(s.work.value / (2.0 * 1024 * 1024 * 1024), 1, 1e-4);
  // The tensor kernel has only tensor-pipe instruction rates (CC 8.0): no FLOP, said so, not
  // placed.
  bool tensor_note = false, skipped = false;
  for (const auto& n : r.notes) {
    tensor_note = tensor_note || n.find("smsp}__inst_executed_pipe_tensor") != std::string::npos;
    skipped = skipped || (n.find("'ampere_h16816gemm_256x128_ldg8_stages_32x3_nn' (ID 2") !=
                              std::string::npos &&
                          n.find("left out, it ran") != std::string::npos);
  }
  EXPECT_TRUE(tensor_note);
  EXPECT_TRUE(skipped);
  // Roofs from the peaks, with the clocks in Ghz: an A100's 3456 DFMA and 6912 FFMA per cycle
  // at 1.41 GHz, 1280 byte/cycle of DRAM at 1.22 GHz.
  ASSERT_TRUE(r.roofs.has_value());
  EXPECT_DOUBLE_EQ(r.roofs->find_compute("fp64")->peak.value, 2 * 3456 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->find_compute("fp32")->peak.value, 2 * 6912 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->find_compute("fp16")->peak.value, 2 * 13824 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->memory.at(0).bandwidth.value, 1280 * 1.22e9);
}

TEST(ImportNcu, RateColumnsNeedTheirClock) {
  const std::string text =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum.per_second\",\"gpu__time_duration.sum\","
      "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed\"\n"
      "\"\",\"\",\"Gbyte/second\",\"usecond\",\"inst/cycle\"\n"
      "\"0\",\"k\",\"100\",\"10\",\"5\"\n";
  EXPECT_EQ(error_of(text),
            "r.csv: line 3, column 20: "
            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed needs "
            "smsp__cycles_elapsed.avg.per_second to become a count (collect it with --metrics "
            "smsp__cycles_elapsed.avg.per_second)");
  // With the sm__ clock (the same SM cycles) it counts: 5 inst/cycle × 2 GHz × 10 µs.
  const std::string with_clock =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum.per_second\",\"gpu__time_duration.sum\","
      "\"sm__cycles_elapsed.avg.per_second\","
      "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed\",\"x\"\n"
      "\"\",\"\",\"Gbyte/second\",\"usecond\",\"Mhz\",\"inst/cycle\",\"furlong\"\n"
      "\"0\",\"k\",\"100\",\"10\",\"2,000\",\"5\",\"1\"\n";
  const auto r = import_ncu(with_clock, "c.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 2 * 5 * 2e9 * 10e-6);
  EXPECT_DOUBLE_EQ(r.doc.points[0].traffic[0].bytes.value, 100e9 * 10e-6);
}

TEST(ImportNcu, TensorFamiliesCountOnlyLeaves) {
  const auto r = load("ncu-tensor-nested.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& h = r.doc.points[0];
  // ..._src_fp16 and ..._src_fp16_dst_fp32 sum their sparsity_off/on leaves, and op_hmma_*
  // counts the same MMAs again: W is the leaves once, plus 2·FFMA.
  EXPECT_DOUBLE_EQ(h.work.value, 17179869184.0 + 2 * 4096);
  EXPECT_EQ(h.precision, "fp16 tensor");
  const Point& b = r.doc.points[1];
  EXPECT_DOUBLE_EQ(b.work.value, 2147483648.0);
  EXPECT_EQ(b.precision, "bf16 tensor");
  bool noted = false;
  for (const auto& n : r.notes)
    noted = noted || (n.find("tensor metrics left out of W") != std::string::npos &&
                      n.find("ops_path_tensor_op_hmma_src_fp16_dst_fp32") != std::string::npos &&
                      n.find("ops_path_tensor_src_fp16, ") != std::string::npos &&
                      n.find("ops_path_tensor_src_fp16_dst_fp32,") == std::string::npos);
  EXPECT_TRUE(noted);
}

TEST(ImportNcu, TensorPointsAreJudgedAgainstTheirTensorRoof) {
  RoofSet rs;
  rs.name = "gpu";
  ComputeRoof c;
  c.name = "fp32";
  c.precision = "fp32";
  c.unit = "cuda cores";
  c.peak = WorkRate(67e12);
  rs.compute.push_back(c);
  c.name = "half tensor";
  c.precision = "fp16";
  c.unit = "tensor cores";
  c.peak = WorkRate(989e12);
  rs.compute.push_back(c);
  c.name = "half tensor sparse";
  c.peak = WorkRate(1979e12);
  c.sparse = true;
  rs.compute.push_back(c);
  std::vector<std::string> notes;
  Point p;
  p.name = "k";
  p.precision = "fp16 tensor";
  EXPECT_TRUE(fit_precision(p, rs, notes));
  EXPECT_EQ(p.precision, "fp16 tensor");  // kept: it finds the roof on any machine
  EXPECT_EQ(rs.select_compute(p.precision).name, "half tensor");  // the dense roof, by unit
  p.precision = "bf16 tensor";
  EXPECT_FALSE(fit_precision(p, rs, notes));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("k: not judged: machine 'gpu' has no bf16 tensor roof", 0), 0u)
      << notes[0];
  p.precision = "fp32";
  EXPECT_TRUE(fit_precision(p, rs, notes));
  p.precision = "fp64";
  EXPECT_FALSE(fit_precision(p, rs, notes));
  p.precision = "";
  EXPECT_TRUE(fit_precision(p, rs, notes));
  EXPECT_EQ(notes.size(), 2u);
}

TEST(ImportNcu, CudaCorePointsAreJudgedAgainstTheirVectorRoof) {
  // ncu's dfma/dadd/dmul counts (the dgemm kernel of this export) run on the CUDA cores: on an
  // H100-like set whose fp64 tensor roof is twice its fp64 vector roof, the point is named
  // "fp64 vector" and held to 33.5 TFLOP/s, not to the 66.9 TFLOP/s its instructions cannot use.
  const auto r = load("ncu-metrics-sums.csv");
  Point p = r.doc.points.at(0);
  ASSERT_EQ(p.precision, "fp64 vector");
  RoofSet rs;
  rs.name = "h100";
  auto add = [&](const std::string& name, const std::string& unit, double peak) {
    ComputeRoof c;
    c.name = name;
    c.precision = "fp64";
    c.unit = unit;
    c.peak = WorkRate(peak);
    rs.compute.push_back(c);
  };
  add("fp64 cuda", "cuda cores", 33.5e12);
  add("fp64 tensor", "tensor", 66.9e12);
  std::vector<std::string> notes;
  EXPECT_TRUE(fit_precision(p, rs, notes));
  // The point keeps its unit (a roof's name, "fp64" on other roofs, could mean the tensor roof):
  // no roof here says "vector", so the one on no matrix engine judges it.
  EXPECT_EQ(p.precision, "fp64 vector");
  EXPECT_EQ(rs.select_compute("fp64 vector").name, "fp64 cuda");
  // A machine whose only fp64 roof is a tensor roof cannot judge it.
  rs.compute.erase(rs.compute.begin());
  p.precision = "fp64 vector";
  EXPECT_FALSE(fit_precision(p, rs, notes));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("has no fp64 vector roof"), std::string::npos) << notes[0];
}

TEST(ImportNcu, TensorPipeNoteOnlyWhereAKernelUsedThePipe) {
  // Every `--set roofline` export has the tensor-pipe columns; the note that their counts are
  // not FLOP was given also when no kernel ran a tensor instruction.
  const std::string real = read_text_file(kData / "ncu-set-roofline.csv");
  auto noted = [](const ImportResult& r) {
    for (const auto& n : r.notes)
      if (n.find("left out for tensor-pipe instructions beyond their FP16 ones") !=
          std::string::npos)
        return true;
    return false;
  };
  EXPECT_TRUE(noted(import_ncu(real, "r.csv")));  // the h16816 GEMM: 1.84 per cycle
  // A kernel of compute capability 7.0 beside it, its tensor-pipe instructions counted as
  // Volta's 512 FLOP each: the A100 GEMM is left out all the same, and both are said.
  const std::string gemm = real.substr(real.find("\"2\",\"31337\""));
  const std::string volta = roofline::test::edited(
      roofline::test::edited(gemm.substr(0, gemm.find('\n') + 1), "\"2\",", "\"3\","),
      "\"0\",\"8.0\"", "\"0\",\"7.0\"");
  const auto both = import_ncu(
      roofline::test::edited(real, "==PROF== Disconnected", volta + "==PROF== Disconnected"),
      "r.csv");
  EXPECT_TRUE(noted(both)) << ::testing::PrintToString(both.notes);
  EXPECT_TRUE(std::any_of(both.notes.begin(), both.notes.end(), [](const std::string& n) {
    return n.find("tensor-pipe instructions on Volta (CC 7.0, 7.2) are counted as 512 FLOP") == 0;
  })) << ::testing::PrintToString(both.notes);
  EXPECT_FALSE(noted(
      import_ncu(roofline::test::edited(real, R"("1.41","1.84")", R"("1.41","0")"), "r.csv")));
}

TEST(ImportNcu, SelfRoofsStandOnlyForTheDeviceTheyDescribe) {
  // `--set roofline` without --hw: the export's peaks are its roofs. A kernel of another device
  // would be judged against device 0's peaks, so then no roofs are taken from the export; a
  // kernel whose peaks differ on the same device (another SM clock) is noted.
  const std::string real = read_text_file(kData / "ncu-set-roofline.csv");
  auto changed = [&](const std::string& from, const std::string& to) {
    return roofline::test::edited(real, from, to);
  };
  auto notes_of = [](const ImportResult& r) {
    std::string all;
    for (const auto& n : r.notes) all += n + "\n";
    return all;
  };
  const auto same = import_ncu(real, "r.csv");
  EXPECT_TRUE(same.roofs.has_value());
  EXPECT_EQ(notes_of(same).find("peaks differ"), std::string::npos) << notes_of(same);
  const auto two = import_ncu(changed(R"x("(16, 8, 1)","0","8.0","1,280","104.55")x",
                                      R"x("(16, 8, 1)","1","8.0","1,280","104.55")x"),
                              "r.csv");
  EXPECT_FALSE(two.roofs.has_value());
  EXPECT_NE(notes_of(two).find("the kernels ran on more than one device (device 0, device 1)"),
            std::string::npos)
      << notes_of(two);
  const auto clocks =
      import_ncu(changed(R"("3.26","1.41","432")", R"("3.26","0.705","432")"), "r.csv");
  ASSERT_TRUE(clocks.roofs.has_value());
  EXPECT_DOUBLE_EQ(clocks.roofs->find_compute("fp32")->peak.value, 2 * 6912 * 1.41e9);
  EXPECT_NE(notes_of(clocks).find("the kernels' own peaks differ up to 2x"), std::string::npos)
      << notes_of(clocks);
  // With a machine given (--hw) the export's roofs judge nothing, and the notes say nothing of
  // them.
  NcuOptions with_machine;
  with_machine.own_roofs = false;
  for (const auto& text : {changed(R"("3.26","1.41","432")", R"("3.26","0.705","432")"),
                           changed(R"x("(16, 8, 1)","0","8.0","1,280","104.55")x",
                                   R"x("(16, 8, 1)","1","8.0","1,280","104.55")x")}) {
    const std::string notes = notes_of(import_ncu(text, "r.csv", with_machine));
    EXPECT_EQ(notes.find("peaks differ"), std::string::npos) << notes;
    EXPECT_EQ(notes.find("more than one device"), std::string::npos) << notes;
  }
}

TEST(ImportNcu, ShortKernelNames) {
  EXPECT_EQ(short_kernel_name("void gemm<float, 128>(int, float const*)"), "gemm<float, 128>");
  EXPECT_EQ(short_kernel_name("void (anonymous namespace)::axpy<float>(int, float*)"),
            "(anonymous namespace)::axpy<float>");
  EXPECT_EQ(short_kernel_name("(anonymous namespace)::fill(float*)"),
            "(anonymous namespace)::fill");
  EXPECT_EQ(short_kernel_name("void ns::Functor::operator()(int)"), "ns::Functor::operator()");
  EXPECT_EQ(short_kernel_name("ampere_sgemm_128x64_nn"), "ampere_sgemm_128x64_nn");
  // Any return type, not only void: cuBLAS's gemv kernels are printed with an enable_if one.
  EXPECT_EQ(short_kernel_name("std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, "
                              "double, double, double, double, false, true, true, false, 7, "
                              "false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<"
                              "double const>, cublasGemvTensorStridedBatched<double>, double>>"
                              "(T13)"),
            "internal::gemvx::kernel<int, int, double, double, double, double, false, true, true, "
            "false, 7, false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<double "
            "const>, cublasGemvTensorStridedBatched<double>, double>>");
  EXPECT_EQ(short_kernel_name("unsigned int ns::count<float>(float*)"), "ns::count<float>");
  EXPECT_EQ(short_kernel_name("void InitializeMatrix_kernel<__half, (bool)1>(T1 *, int, int)"),
            "InitializeMatrix_kernel<__half, (bool)1>");
  // What a demangler writes after the parameter list is no part of the name.
  EXPECT_EQ(short_kernel_name("ns::Functor::run(int) const"), "ns::Functor::run");
  EXPECT_EQ(short_kernel_name("void f(int) [clone .cold]"), "f");
  EXPECT_EQ(short_kernel_name("ns::Functor::operator()"), "ns::Functor::operator()");
  // A name that is no C++ signature (no parameter list at its end) is data, kept as written:
  // the stripping made "=cmd|' /C calc'!A0" "calc'!A0" (a "return type" before its last
  // space), "\t=1+2" "=1+2" and cut "alert(1)</script>&amp;'k1" at its '('.
  EXPECT_EQ(short_kernel_name("=cmd|' /C calc'!A0"), "=cmd|' /C calc'!A0");
  EXPECT_EQ(short_kernel_name("\t=1+2"), "\t=1+2");
  EXPECT_EQ(short_kernel_name("</title><script>alert(1)</script>&amp;'k1"),
            "</title><script>alert(1)</script>&amp;'k1");
  EXPECT_EQ(short_kernel_name("saxpy(int, float"), "saxpy(int, float");  // a cut signature
  EXPECT_EQ(short_kernel_name(" \t "), "");
}

TEST(ImportNcu, KernelsOfAnotherComputeCapabilityAreNamedAFewThenCounted) {
  // Five kernels of CC 8.0 judged against a 9.0 machine: the note names the first three and
  // counts the rest, per compute capability.
  std::string text = read_text_file(kData / "ncu-raw-saxpy.csv");
  const std::string row0 = text.substr(text.find("\"0\",\"31337\""));
  const std::string saxpy = row0.substr(0, row0.find('\n') + 1);
  for (const char* id : {"3", "4"})
    text +=
        roofline::test::edited(saxpy, "\"0\",\"31337\"", "\"" + std::string(id) + "\",\"31337\"");
  NcuOptions o;
  o.machine_name = "h100-sxm";
  o.machine_cc = "9.0";
  const auto r = import_ncu(text, "r.csv", o);
  std::string notes;
  for (const auto& n : r.notes) notes += n + "\n";
  EXPECT_NE(notes.find("all 5 kernels ('saxpy #0', 'sgemm_tiled<128> #1', 'fill_zero #2' and 2 "
                       "more) ran on compute capability 8.0 (the export's CC column), and "
                       "h100-sxm is 9.0: their times are another GPU's"),
            std::string::npos)
      << notes;
}

TEST(ImportNcu, BadFilesNameFileLineAndColumn) {
  const std::string trunc = (kData / "ncu-truncated.csv").string();
  try {
    import_ncu(read_text_file(trunc), trunc);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(trunc + ": line 3, column 34: unterminated quoted field"),
              std::string::npos)
        << e.what();
  }
  const std::string head =
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\","
      "\"gpu__time_duration.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"byte\",\"byte\",\"nsecond\",\"inst\"\n";
  // A row cut short: where it ends, how many fields there should be.
  EXPECT_EQ(error_of(head + "\"0\",\"k\",\"100\",\"100\"\n"),
            "r.csv: line 3, column 20: expected 6 fields, found 4 (file truncated?)");
  EXPECT_EQ(error_of(head + "\"0\",\"k\",\"1x0\",\"100\",\"5\",\"7\"\n"),
            "r.csv: line 3, column 9: dram__bytes_read.sum: not a number: '1x0'");
  EXPECT_NE(error_of("a,b\n1,2\n").find("no header with \"Kernel Name\""), std::string::npos);
  // A header and nothing else: no kernels.
  EXPECT_EQ(error_of(head), "r.csv: line 2: no kernel rows after the header (file truncated?)");
  EXPECT_EQ(error_of("hello\n"),
            "r.csv: line 1: not an Nsight Compute CSV export: no header with \"Kernel Name\" "
            "(export with: ncu --csv --page raw --metrics ... or ncu --import report.ncu-rep "
            "--csv --page raw)");
  // ncu's own lines and a table whose lines do not start with a quote (an edited copy of a
  // --print-summary table, as published with columns cut to "..."): said as that, not as "ncu
  // profiled no kernels".
  EXPECT_EQ(error_of("==PROF== Connected to process 1 (a)\n==PROF== Disconnected from process 1\n"
                     "...,\"Kernel Name\",\"...\",\"Metric Name\",\"Average\"\n"
                     "...,\"add_vector.\",\"...\",\"dram__bytes.sum\",\"5\"\n"),
            "r.csv: line 3: a \"Kernel Name\" header that is no row of ncu's CSV (ncu quotes every "
            "field, and its rows start with a quote): an edited or cut copy? (export with: ncu "
            "--csv --page raw --metrics ...)");
  // T, W and Q missing together are named together, with the --metrics that collect them.
  const std::string no_t_w =
      "==PROF== x\n\"ID\",\"Kernel Name\",\"dram__bytes.sum\"\n\"\",\"\",\"byte\"\n"
      "\"0\",\"void k(int)\",\"5\"\n";
  const std::string e = error_of(no_t_w);
  EXPECT_EQ(e.rfind("r.csv: kernel 'k' (ID 0, line 4): T cannot be counted: no "
                    "gpu__time_duration.sum",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("; W cannot be counted: no FP instruction metrics"), std::string::npos) << e;
  EXPECT_EQ(e.find("Q cannot be counted"), std::string::npos) << e;
  EXPECT_NE(e.find("collect them with: ncu --csv --metrics gpu__time_duration.sum,"
                   "sm__sass_thread_inst_executed_op_dadd_pred_on.sum,"),
            std::string::npos)
      << e;
  // A unit the importer does not know stops it only in a column it uses.
  const std::string bad_unit =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"parsec\",\"nsecond\",\"inst\"\n"
      "\"0\",\"k\",\"1\",\"1\",\"1\"\n";
  EXPECT_NE(error_of(bad_unit).find("line 3, column 9: dram__bytes.sum: unknown unit 'parsec'"),
            std::string::npos)
      << error_of(bad_unit);
}

TEST(ImportNcu, AKernelNameOverSeveralLinesIsRefusedNotHandedOut) {
  // A quoted field may span lines in CSV; a kernel name that does (a cut or forged export, found
  // by fuzz_import) would make a point whose name forges output lines: the library refuses it,
  // not only the CLI, at the Kernel Name cell (the refusal named no line: "point name ... must
  // be one line"). ncu writes every kernel name on one line, so this is no name to mend.
  const std::string real = read_text_file(kData / "ncu-raw-saxpy.csv");
  const std::string cut = roofline::test::edited(real, "\"saxpy(int, float,",
                                                 "\"sax\nTABLE,Group 1 Metric,\npy(int, float,");
  try {
    import_ncu(cut, "r.csv");
    ADD_FAILURE() << "a kernel name over several lines was handed out";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "r.csv: line 5, column 34: Kernel Name 'sax\\u000aTABLE,Group 1 "
              "Metric,\\u000apy(int, float, "
              "float const*, float*)' is more than one line (ncu writes each kernel name on one "
              "line: a quote left open, or an edited export?)");
  }
  // A carriage return alone, in a details page (the hostile "a\rb\nc" of a later kernel).
  const std::string details = read_text_file(kData / "real" / "ncu-a100-details-printfp-sgemm.csv");
  EXPECT_EQ(
      error_of(roofline::test::edited(
                   details, "\"2\",\"1961118\",\"profile\",\"127.0.0.1\",\"void gemm_v1",
                   "\"2\",\"1961118\",\"profile\",\"127.0.0.1\",\"a\rb\nc gemm_v1"))
          .rfind("r.csv: line 32, column 37: Kernel Name 'a\\u000db\\u000ac gemm_v1<float>(", 0),
      0u)
      << error_of(roofline::test::edited(
             details, "\"2\",\"1961118\",\"profile\",\"127.0.0.1\",\"void gemm_v1",
             "\"2\",\"1961118\",\"profile\",\"127.0.0.1\",\"a\rb\nc gemm_v1"));
}

TEST(ImportNcu, AUnitOfAnotherKindIsRefusedNotScaled) {
  // The real raw export with one unit changed: a duration in Gbyte would be read 1e9 too long,
  // a byte count in % or an instruction count in bytes as a number of the wrong kind.
  const std::string real = read_text_file(kData / "ncu-raw-saxpy.csv");
  const std::string units = "\"Mbyte\",\"Kbyte\",\"usecond\",\"inst\",\"inst\",\"inst\"";
  ASSERT_NE(real.find(units), std::string::npos);
  auto with_units = [&](const std::string& u) {
    std::string t = real;
    return t.replace(t.find(units), units.size(), u);
  };
  const std::string time_in_bytes =
      error_of(with_units("\"Mbyte\",\"Kbyte\",\"Gbyte\",\"inst\",\"inst\",\"inst\""));
  EXPECT_NE(time_in_bytes.find("gpu__time_duration.sum: unit 'Gbyte' is an amount of data (byte), "
                               "this metric is a time (second)"),
            std::string::npos)
      << time_in_bytes;
  EXPECT_EQ(time_in_bytes.rfind("r.csv: line 5, column ", 0), 0u) << time_in_bytes;
  for (const char* u : {"cycle", "%", "cycle/nsecond"})
    EXPECT_NE(error_of(with_units("\"Mbyte\",\"Kbyte\",\"" + std::string(u) +
                                  "\",\"inst\",\"inst\",\"inst\""))
                  .find("this metric is a time"),
              std::string::npos)
        << u;
  EXPECT_NE(error_of(with_units("\"%\",\"Kbyte\",\"usecond\",\"inst\",\"inst\",\"inst\""))
                .find("dram__bytes_read.sum: unit '%' is a percentage, this metric is an amount of "
                      "data (byte)"),
            std::string::npos);
  EXPECT_NE(error_of(with_units("\"Mbyte\",\"Kbyte\",\"usecond\",\"inst\",\"byte\",\"inst\""))
                .find("unit 'byte' is an amount of data (byte), this metric is a count"),
            std::string::npos);
  // An empty unit cell is ncu's base unit of the metric, as without a units row: nanoseconds.
  const ImportResult empty_time =
      import_ncu(with_units("\"Mbyte\",\"Kbyte\",\"\",\"inst\",\"inst\",\"inst\""), "r.csv");
  ASSERT_FALSE(empty_time.doc.points.empty());
  EXPECT_DOUBLE_EQ(empty_time.doc.points[0].time.value, 96.58e-9);
  const ImportResult same = import_ncu(real, "r.csv");
  EXPECT_DOUBLE_EQ(same.doc.points[0].time.value, 96.58e-6);
}

TEST(ImportNcu, AMetricTwiceIsRefusedWhereWhichCountsWouldBeChance) {
  // Raw page: the fadd column renamed to the ffma one — two columns of one metric.
  std::string raw = read_text_file(kData / "ncu-raw-saxpy.csv");
  const std::string fadd = "sm__sass_thread_inst_executed_op_fadd_pred_on.sum";
  raw.replace(raw.find(fadd), fadd.size(), "sm__sass_thread_inst_executed_op_ffma_pred_on.sum");
  const std::string e = error_of(raw);
  EXPECT_NE(e.find("r.csv: line 3, column "), std::string::npos) << e;
  EXPECT_NE(e.find(": sm__sass_thread_inst_executed_op_ffma_pred_on.sum is a column twice (also "
                   "column "),
            std::string::npos)
      << e;
  // Details page (the real A100 export): a kernel's dram__bytes.sum given again, once with the
  // same figure (accepted: one value) and once with another (refused).
  const std::string real = read_text_file(kData / "real" / "ncu-a100-details-printfp-gemm.csv");
  const auto row_start = real.find("\"dram__bytes.sum\"");
  ASSERT_NE(row_start, std::string::npos);
  const auto line_begin = real.rfind('\n', row_start) + 1;
  const auto line_end = real.find('\n', row_start) + 1;
  const std::string row = real.substr(line_begin, line_end - line_begin);
  std::string again = real;
  again.insert(line_end, row);
  const ImportResult same = import_ncu(again, "d.csv");
  const ImportResult original = import_ncu(real, "d.csv");
  ASSERT_EQ(same.doc.points.size(), original.doc.points.size());
  EXPECT_EQ(same.doc.points[0].traffic[0].bytes.value,
            original.doc.points[0].traffic[0].bytes.value);
  std::string other_row = row;
  const auto value_at = other_row.rfind(",\"");
  other_row.replace(value_at, other_row.size() - value_at, ",\"1\"\n");
  std::string conflicting = real;
  conflicting.insert(line_end, other_row);
  const std::string c = error_of(conflicting, "d.csv");
  EXPECT_NE(c.find(": dram__bytes.sum of kernel ID 0 is given again (line "), std::string::npos)
      << c;
  EXPECT_NE(c.find(") with another value"), std::string::npos) << c;
}

TEST(ImportNcu, HugeValuesAreRefusedNotWrittenAsNull) {
  // 1e300 Gbyte = 1e309 byte does not fit a double: refused where it stands, never an
  // infinite Q that the points document would write as null.
  const std::string text =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"Gbyte\",\"usecond\",\"inst\"\n"
      "\"0\",\"k\",\"1e300\",\"10\",\"5\"\n";
  EXPECT_EQ(error_of(text),
            "r.csv: line 3, column 9: dram__bytes.sum: 1e+300 Gbyte is out of range (more than "
            "1e308 base units)");
  // A number beyond a double already in the file.
  EXPECT_NE(error_of(text.substr(0, text.find("1e300")) + "1e400\",\"10\",\"5\"\n")
                .find("dram__bytes.sum: out of range: '1e400'"),
            std::string::npos);
  // Two counts that fit but whose sum W does not.
  const std::string sum =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\","
      "\"sm__sass_thread_inst_executed_op_fadd_pred_on.sum\"\n"
      "\"\",\"\",\"byte\",\"usecond\",\"inst\",\"inst\"\n"
      "\"0\",\"k\",\"1\",\"10\",\"1e308\",\"1e308\"\n";
  EXPECT_EQ(error_of(sum), "r.csv: kernel 'k' (ID 0, line 3): W overflows (more than 1e308)");
  // Negative counts are not counts.
  EXPECT_NE(error_of(text.substr(0, text.find("1e300")) + "-5\",\"10\",\"5\"\n")
                .find("dram__bytes.sum: negative value -5"),
            std::string::npos);
}

TEST(ImportNcu, WarningLinesAnywhereAndNoIdColumn) {
  // ncu prints ==WARNING== lines between the header and the units row (and the application
  // prints its own output): skipped, the units still honoured.
  const std::string text =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "==WARNING== Backing up device memory in system memory. Kernel replay might be slow.\n"
      "\"\",\"\",\"Mbyte\",\"usecond\",\"inst\"\n"
      "result = 42\n"
      "\"0\",\"k\",\"2\",\"10\",\"5\"\n"
      "==PROF== Disconnected from process 1\n";
  const auto r = import_ncu(text, "w.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].traffic[0].bytes.value, 2e6);  // Mbyte
  EXPECT_DOUBLE_EQ(r.doc.points[0].time.value, 10e-6);            // usecond
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 2 * 5);
  bool warned = false, foreign = false;
  for (const auto& n : r.notes) {
    warned = warned || n.find("line 2: ==WARNING== Backing up") != std::string::npos;
    foreign = foreign || n.find("1 lines that are not ncu's") != std::string::npos;
  }
  EXPECT_TRUE(warned);
  EXPECT_TRUE(foreign);
  // Without an ID column the kernels are numbered in order.
  const auto n = import_ncu(
      "\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n\"\",\"byte\",\"second\",\"inst\"\n"
      "\"a\",\"1\",\"1\",\"1\"\n\"b\",\"1\",\"1\",\"1\"\n",
      "n.csv");
  ASSERT_EQ(n.doc.points.size(), 2u);
  EXPECT_EQ(n.doc.points[1].name, "b #1");
}

TEST(ImportNcu, DetailsPageAndNewerNames) {
  // The details layout of newer ncu: one row per metric, abbreviated units, dram__bytes_op_*,
  // rule rows and trailing commas; a kernel whose metrics stop early is listed, not placed.
  const std::string h =
      "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric "
      "Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\"\n";
  auto row = [](const char* id, const char* k, const char* m, const char* u, const char* v) {
    return std::string("\"") + id + "\",\"" + k + "\",\"Command line profiler metrics\",\"" + m +
           "\",\"" + u + "\",\"" + v + "\",\n";
  };
  const std::string text =
      h + row("0", "void axpy(double)", "dram__bytes_op_read.sum", "KB", "1,000") +
      row("0", "void axpy(double)", "dram__bytes_op_write.sum", "MB", "0.5") +
      row("0", "void axpy(double)", "gpu__time_duration.sum", "ms", "2") +
      row("0", "void axpy(double)", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "inst",
          "250,000") +
      "\"0\",\"void axpy(double)\",\"SpeedOfLight\",\"\",\"\",\"\",\"SOLBottleneck\",\"OPT\","
      "\"text\"\n" +
      row("1", "void cut(double)", "gpu__time_duration.sum", "ns", "5");
  const auto r = import_ncu(text, "d.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  const Point& p = r.doc.points[0];
  EXPECT_EQ(p.name, "axpy #0");
  EXPECT_DOUBLE_EQ(p.work.value, 2 * 250000.0);                // 2·DFMA
  EXPECT_DOUBLE_EQ(p.traffic[0].bytes.value, 1000e3 + 0.5e6);  // KB + MB, decimal
  EXPECT_DOUBLE_EQ(p.time.value, 2e-3);
  EXPECT_EQ(p.precision, "fp64 vector");
  bool left_out = false, rules = false;
  for (const auto& n : r.notes) {
    left_out = left_out || n.find(
                               "kernel 'cut' (ID 1, line 7): left out, no W (FP instruction "
                               "metrics), Q (dram__bytes_*)") == 0;
    rules = rules || n.find("1 rule results") == 0;
  }
  EXPECT_TRUE(left_out);
  EXPECT_TRUE(rules);
}

TEST(ImportNcu, CyclesGiveTheDuration) {
  // The NERSC roofline method collects cycles and their rate, not gpu__time_duration.
  const std::string text =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"sm__cycles_elapsed.avg\","
      "\"sm__cycles_elapsed.avg.per_second\",\"sm__sass_thread_inst_executed_op_ffma_pred_on."
      "sum\"\n"
      "\"\",\"\",\"byte\",\"cycle\",\"cycle/usecond\",\"inst\"\n"
      "\"0\",\"k\",\"100\",\"3,000\",\"1,500\",\"7\"\n";
  const auto r = import_ncu(text, "c.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].time.value, 3000 / 1500e6);  // cycles / (cycles per second)
  EXPECT_NE(r.doc.points[0].note.find("T = sm__cycles_elapsed.avg / "
                                      "sm__cycles_elapsed.avg.per_second"),
            std::string::npos);
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {
// A raw page cut right after a comma: the empty last cell read as a metric ncu did not give
// ("FMUL is n/a for every kernel: counted as 0"), or dropped the kernel, exit 0.
TEST(ImportNcu, ARawPageCutAfterACommaIsTruncated) {
  const std::string text = read_text_file(kData / "ncu-raw-saxpy.csv");
  const std::string row_end = "\"1,073,741,824\",\"0\"\n";
  const auto at = text.find(row_end);
  ASSERT_NE(at, std::string::npos);
  const std::string cut = text.substr(0, at + row_end.find(",\"0\"") + 1);  // ends "…824",
  const auto line_start = cut.rfind('\n') + 1;
  EXPECT_EQ(error_of(cut), "r.csv: line 6, column " + std::to_string(cut.size() - line_start + 1) +
                               ": the last row has no line end (file truncated?); if the file is "
                               "whole, end it with one");
  // Cut after the row's closing quote: no line end either.
  EXPECT_NE(error_of(text.substr(0, at + row_end.size() - 1)).find("the last row has no line end"),
            std::string::npos);
  // Lines of the application after the table may end without one.
  EXPECT_EQ(import_ncu(text + "done", "r.csv").doc.points.size(), 2u);
}

const std::string kTensorHead =
    "\"ID\",\"Kernel Name\",\"CC\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\","
    "\"gpu__time_duration.sum\",\"sm__sass_thread_inst_executed_op_hfma_pred_on.sum\","
    "\"sm__inst_executed_pipe_tensor.sum\"\n"
    "\"\",\"\",\"\",\"byte\",\"byte\",\"usecond\",\"inst\",\"inst\"\n";

// 32e9 HFMA thread instructions are 1e9 warp instructions; the tensor pipe ran 1.04e9: 4e7
// beyond them, 3.85% of the pipe's, within the 5% margin for predicated-off lanes. W keeps its
// 64 GFLOP of HFMA, and a note says what W would be if the 4e7 were HMMA.16816 MMAs (4096 FLOP
// each: 163.84 GFLOP more, 227.84 GFLOP).
TEST(ImportNcu, TensorInstructionsWithinTheMarginAreNoted) {
  const auto r =
      import_ncu(kTensorHead +
                     "\"0\",\"mixed\",\"8.0\",\"1000000000\",\"0\",\"1000\",\"32000000000\","
                     "\"1040000000\"\n",
                 "r.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 64e9);
  EXPECT_EQ(r.doc.points[0].precision, "fp16 vector");
  std::string note;
  for (const auto& n : r.notes)
    if (n.find("within the 5% margin") != std::string::npos) note = n;
  EXPECT_EQ(note,
            "kernel 'mixed' (ID 0, line 3): 4e+07 tensor-pipe instructions beyond its FP16 ones "
            "(3.85% of its 1.04e+09), within the 5% margin for predicated-off lanes: not counted "
            "in W (64 GFLOP); if they are MMAs, W misses 163.8 GFLOP (4096 FLOP each as "
            "HMMA.16816, more for larger shapes) and would be 227.8 GFLOP — collect "
            "sm__ops_path_tensor_src_*.sum to count them");
  // Exactly the FP16 ones: nothing to say.
  const auto exact =
      import_ncu(kTensorHead +
                     "\"0\",\"h\",\"8.0\",\"1000000000\",\"0\",\"1000\",\"32000000000\","
                     "\"1000000000\"\n",
                 "r.csv");
  for (const auto& n : exact.notes) EXPECT_EQ(n.find("within the 5% margin"), std::string::npos);
}

// dfma 1.5e9 (3 GFLOP, 75%) beside ffma 5e8 (1 GFLOP, 25%) in 100 µs: no precision has 90% of
// W. Against the machine (fp64 34, fp32 67 TFLOP/s) it is judged on the higher roof, fp32, and
// the note gives both attainments: 40 TFLOP/s is 59.7% of fp32's roof and 117.6% of fp64's,
// and the least time at those roofs, 3e9/34e12 + 1e9/67e12 = 103.16 us (103.2% of T).
TEST(ImportNcu, NoDominantPrecisionIsJudgedOnTheHighestOfItsRoofsWithANote) {
  const std::string csv =
      "\"ID\",\"Kernel Name\",\"CC\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\","
      "\"gpu__time_duration.sum\",\"sm__sass_thread_inst_executed_op_dfma_pred_on.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"\",\"byte\",\"byte\",\"usecond\",\"inst\",\"inst\"\n"
      "\"0\",\"mixed\",\"9.0\",\"1000000\",\"0\",\"100\",\"1500000000\",\"500000000\"\n";
  const RoofSet h100 = load_machine_file(kData / "machine-h100-sxm.json").roofs;
  NcuOptions o;
  o.roofs = &h100;
  const auto r = import_ncu(csv, "r.csv", o);
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 4e9);
  EXPECT_EQ(r.doc.points[0].precision, "fp32 vector");
  ASSERT_FALSE(r.notes.empty());
  EXPECT_EQ(r.notes.back(),
            "kernel mixed #0: no precision has 90% of W (fp32 vector 25%, fp64 vector 75%): "
            "judged against the highest of their roofs, 'fp32' (W/T passes none while the units "
            "take turns); W/T = 40 TFLOP/s would read fp32 vector on roof 'fp32' (67 TFLOP/s): "
            "59.7%, fp64 vector on roof 'fp64' (34 TFLOP/s): 118%; at those roofs the work "
            "takes at least 103.2 us if the units take turns (103% of T)");
  // Without roofs the shares alone are said, and the point keeps no precision.
  const auto bare = import_ncu(csv, "r.csv");
  EXPECT_EQ(bare.doc.points[0].precision, "");
  EXPECT_EQ(bare.notes.back(),
            "kernel mixed #0: no precision has 90% of W (fp32 vector 25%, fp64 vector 75%)");
}
}  // namespace ROOFLINE_UNITY_ID
