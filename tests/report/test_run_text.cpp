// `roofline run`'s text, rendered by report (text.hpp: render_run_text and its rows) from a
// placement made by hand: each cell is checked against the figure worked out below, without a
// run of the suite or a diagnosis (the command's own output is checked in tests/suite).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>
#include <vector>

#include "roofline/report.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

using Row = std::vector<std::string>;

RunRecord run_record(const std::string& kernel, const std::string& level, double work,
                     double bytes) {
  RunRecord r;
  r.kernel = kernel;
  r.level = level;
  r.count.work = Work(work);
  r.count.traffic = Bytes(bytes);
  r.traffic = {{level, Bytes(bytes)}};
  // No times: the spread comes from min, median and max (statistics.hpp).
  r.sustained = 1e-6;
  r.min = 1e-6, r.median = 1.25e-6, r.max = 2.5e-6;
  return r;
}

Diagnosis diagnosis(Verdict v, double attainment, const std::string& level) {
  Diagnosis d;
  d.verdict = v;
  d.attainment = attainment;
  d.binding_level = level;
  d.compute_roof = "fp64 AVX2";
  d.title = "TITLE";
  d.prescription = "PRESCRIPTION";
  return d;
}

PlacedRun placed(const RunRecord& r) {
  PlacedRun p;
  p.result = r;
  p.point = r.to_point();
  p.kernel = r.label();
  return p;
}

/// axpy in L1 (judged), a 2-D stencil in DRAM (no roof), a BLAS gemm above its roof whose
/// check failed, and a copy (bandwidth only, a variant's run).
Placement placement() {
  Placement pl;
  RunRecord axpy = run_record("axpy-fp64", "L1", 2048, 24576);
  axpy.params = {{"n", 1024}};
  axpy.working_set_bytes = 16384;
  axpy.noisy = true;
  PlacedRun a = placed(axpy);
  a.diagnosis = diagnosis(Verdict::memory_bound, 0.91234, "L1");
  pl.placed.push_back(a);

  RunRecord stencil = run_record("stencil2d-fp64", "DRAM", 5e6, 4e7);
  stencil.params = {{"nx", 1000}, {"ny", 1000}};
  stencil.working_set_bytes = 1.6e7;
  PlacedRun s = placed(stencil);
  s.why_not = "the machine has no roof for DRAM";
  pl.placed.push_back(s);

  RunRecord gemm = run_record("gemm-blas-fp64", "L2", 2.68435456e8, 3145728);
  gemm.params = {{"m", 512}, {"n", 512}, {"k", 512}};
  gemm.working_set_bytes = 3145728;
  gemm.passed = false;
  gemm.check = "C[3] = 1, expected 2";
  PlacedRun g = placed(gemm);
  g.diagnosis = diagnosis(Verdict::above_roof, 1.2345, "L2");
  g.corename = "Haswell";
  g.above_cause = "CAUSE";
  pl.placed.push_back(g);

  RunRecord copy = run_record("copy-fp64", "L3", 0, 1e6);
  copy.variant = "V";
  copy.params = {{"n", 62500}};
  copy.working_set_bytes = 1e6;
  copy.sustained = 1e-4;
  copy.min = 1e-4, copy.median = 1e-4, copy.max = 1e-4;
  pl.bandwidth_only.push_back(copy);
  return pl;
}

TEST(RunText, EachCellOfEachRow) {
  const std::vector<Row> rows = run_table_rows(placement(), UnitSystem{});
  ASSERT_EQ(rows.size(), 4u);
  // I = 2048 / 24576 = 0.08333; P = 2048 FLOP / 1 us; spread = median·(max − min)/(min·max)
  // = 1.25·1.5/2.5 = 75%.
  EXPECT_EQ(rows[0], (Row{"axpy-fp64", "L1 16.38 kB n=1.02 k", "2.048 kFLOP", "24.58 kB",
                          "0.08333 FLOP/byte @L1", "1 us (1.25 us, 75% noisy)", "2.048 GFLOP/s",
                          "0.912 L1", "memory-bound"}));
  // No diagnosis: no attainment, "(no roof)"; a 2-D grid is nx².
  EXPECT_EQ(rows[1],
            (Row{"stencil2d-fp64", "DRAM 16 MB 1000²", "5 MFLOP", "40 MB", "0.125 FLOP/byte @DRAM",
                 "1 us (1.25 us, 75%)", "5 TFLOP/s", "—", "(no roof)"}));
  // gemm's n (not m, k); a failed check is said over the verdict.
  EXPECT_EQ(rows[2], (Row{"gemm-blas-fp64", "L2 3.146 MB n=512", "268.4 MFLOP", "3.146 MB",
                          "85.33 FLOP/byte @L2", "1 us (1.25 us, 75%)", "268.4 TFLOP/s", "1.23 L2",
                          "CHECK FAILED"}));
  // Bandwidth only: Q/T = 1 MB / 100 us = 10 GB/s; times all equal, spread 0.
  EXPECT_EQ(rows[3], (Row{"copy-fp64 [V]", "L3 1 MB n=62.5 k", "0", "1 MB", "0 (no arithmetic)",
                          "100 us (100 us, 0%)", "Q/T = 10 GB/s", "—", "bandwidth only"}));
  EXPECT_EQ(run_table_header(), (Row{"kernel", "working set", "W", "Q", "I", "T (median, spread)",
                                     "P", "attain.", "verdict"}));
}

TEST(RunText, WorkingSetOfEachShape) {
  RunRecord r = run_record("k", "L2", 1, 1);
  r.working_set_bytes = 2.5e5;
  r.params = {{"nx", 40}, {"ny", 40}, {"nz", 40}};
  EXPECT_EQ(run_working_set_text(r), "L2 250 kB 40³");
  r.params = {{"rows", 123456}, {"n", 9}};
  EXPECT_EQ(run_working_set_text(r), "L2 250 kB rows=123 k");
  r.params = {};
  EXPECT_EQ(run_working_set_text(r), "L2 250 kB ");
}

TEST(RunText, WholeTextWithBlasAndCauses) {
  RoofSet roofs;
  roofs.name = "m";
  BlasInfo blas;
  blas.available = true;
  blas.corename = "Haswell";
  blas.config = "OpenBLAS 0.3.21";
  blas.best_core = "Zen";
  blas.generic = true;
  blas.environment = {{"OPENBLAS_NUM_THREADS", "2"}};
  const std::string text = render_run_text(placement(), roofs, 2, &blas);
  EXPECT_EQ(
      text.rfind("machine: m   threads: 2\n"
                 "OpenBLAS core: Haswell (OpenBLAS 0.3.21); best core for this CPU: Zen — the "
                 "detected core is narrower than the CPU\n"
                 "environment: OPENBLAS_NUM_THREADS=2\n",
                 0),
      0u);
  const std::string table_end = "bandwidth only\n";
  const size_t end = text.find(table_end);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(text.substr(end + table_end.size()),
            "gemm-blas-fp64 @L2 is 1.23× its L2 roof: CAUSE\n"
            "\ngemm-blas-fp64 @L2 (OpenBLAS core Haswell, judged against 'fp64 AVX2'): TITLE\n"
            "  PRESCRIPTION\n");
  // Without the BLAS kernels no summary; the table follows the machine line.
  const std::string plain = render_run_text(placement(), roofs, 1, nullptr);
  EXPECT_EQ(plain.rfind("machine: m   threads: 1\nkernel", 0), 0u);
}

TEST(RunText, BlasSummaryUnavailableOrPlain) {
  BlasInfo none;
  none.why_not = "libopenblas.so.0: cannot open";
  EXPECT_EQ(render_blas_summary(none), "OpenBLAS not available: libopenblas.so.0: cannot open");
  BlasInfo b;
  b.available = true;
  b.corename = "Zen";
  b.config = "C";
  EXPECT_EQ(render_blas_summary(b),
            "OpenBLAS core: Zen (C)\nenvironment: no OPENBLAS_*/OMP_NUM_THREADS set");
}

TEST(RunChart, JudgedDrawnOthersSaidNotDrawn) {
  Placement pl = placement();
  PlacedRun refused = placed(run_record("axpy-fp16", "L2", 1, 1));
  refused.why_not = "point 'axpy-fp16 @L2': no compute roof for fp16";
  pl.placed.push_back(refused);
  pl.placed.push_back(placed(run_record("quiet", "L1", 1, 1)));  // neither judged nor refused
  MachineDocument m;
  m.roofs.name = "box";
  const ReportInput in = run_report_input(pl, m);
  EXPECT_EQ(in.title, "roofline run on box");
  ASSERT_EQ(in.machines.size(), 1u);
  EXPECT_EQ(in.machines[0].roofs.name, "box");
  ASSERT_EQ(in.points.size(), 2u);
  EXPECT_EQ(in.points[0].name, "axpy-fp64 @L1");
  EXPECT_EQ(in.points[1].name, "gemm-blas-fp64 @L2");
  ASSERT_EQ(in.not_drawn.size(), 2u);
  EXPECT_EQ(in.not_drawn[0].name, "stencil2d-fp64 @DRAM");
  EXPECT_EQ(in.not_drawn[0].reason, "no roof for level DRAM");
  EXPECT_EQ(in.not_drawn[0].detail, "the machine has no roof for DRAM");
  EXPECT_EQ(in.not_drawn[1].name, "axpy-fp16 @L2");
  EXPECT_EQ(in.not_drawn[1].reason, "no roof to judge it on");
  EXPECT_EQ(in.not_drawn[1].detail, "point 'axpy-fp16 @L2': no compute roof for fp16");
  EXPECT_TRUE(in.no_overlap_curve);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
