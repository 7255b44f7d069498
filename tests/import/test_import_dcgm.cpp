// DCGM dmon import: the case of docs/model.md §13 (docs/model.md §13) and bad files.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>

#include "import/edited.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kData = fs::path(ROOFLINE_TEST_DATA) / "import";
RoofSet h100() {
  return load_machine_file(kData / "machine-h100-sxm.json").roofs;
}
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

TEST(ImportDcgm, PeaksComeFromTheMachine) {
  const DcgmPeaks p = dcgm_peaks(h100());
  EXPECT_DOUBLE_EQ(p.tensor.value, 989.5e12);  // dense fp16 tensor, the sparse figure is not used
  EXPECT_EQ(p.tensor_roof, "fp16 tensor");
  EXPECT_DOUBLE_EQ(p.fp32.value, 67e12);
  EXPECT_DOUBLE_EQ(p.fp64.value, 34e12);  // the non-tensor fp64 roof
  EXPECT_DOUBLE_EQ(p.fp16.value, 0);
  EXPECT_DOUBLE_EQ(p.bandwidth.value, 3.35e12);
}

// A GeForce card lists fp16 tensor twice: fp32 accumulate (165.2 TFLOP/s on the RTX 4090, Ada
// whitepaper) and fp16 accumulate at twice the rate. PIPE_TENSOR_ACTIVE's reference is the
// first (outranks): the second made W twice what the pipe did at fp32 accumulate.
TEST(ImportDcgm, TheTensorReferenceAccumulatesInFullPrecision) {
  const RoofSet rtx =
      load_machine_file(fs::path(ROOFLINE_SOURCE_DIR) / "data" / "hardware" / "rtx-4090.json")
          .roofs;
  const DcgmPeaks p = dcgm_peaks(rtx);
  EXPECT_NE(p.tensor_roof, "fp16 tensor fp16-accumulate");  // bf16 and fp16 tensor: one rate
  EXPECT_DOUBLE_EQ(p.tensor.value, 165.2e12);
}

TEST(ImportDcgm, SeedCaseIsFarBelowBothRoofs) {
  const auto path = (kData / "dcgm-seed-case.txt").string();
  const RoofSet roofs = h100();
  const DcgmResult r = import_dcgm(read_text_file(path), path, roofs);
  ASSERT_EQ(r.gpus.size(), 1u);
  const DcgmSummary& g = r.gpus[0];
  EXPECT_EQ(g.entity, "GPU 0");
  EXPECT_EQ(g.samples, 8);
  EXPECT_NEAR(g.gpu_util.value_or(-1), 0.98, 1e-12);
  EXPECT_NEAR(g.tensor_active.value_or(-1), 0.010, 1e-12);
  EXPECT_NEAR(g.dram_active.value_or(-1), 0.060, 1e-12);
  EXPECT_NEAR(g.power_w.value_or(Watt(-1)).value, 156.0, 1e-9);
  EXPECT_NEAR(g.power_limit_w.value_or(Watt(-1)).value, 600.0, 1e-9);
  EXPECT_FALSE(g.fp16_active);  // N/A throughout
  ASSERT_EQ(r.result.doc.points.size(), 1u);
  const Point& p = r.result.doc.points[0];
  EXPECT_DOUBLE_EQ(p.time.value, 8.0);
  // W/s = 0.010·989.5T + 0.080·67T; Q/s = 0.060·3.35 TB/s.
  EXPECT_NEAR(p.performance().value, 0.010 * 989.5e12 + 0.080 * 67e12, 1e3);
  EXPECT_NEAR(p.traffic[0].bytes.value / p.time.value, 0.060 * 3.35e12, 1e3);
  EXPECT_EQ(p.precision, "fp16 tensor");
  const Diagnosis d = diagnose(p, roofs);
  EXPECT_EQ(d.verdict, Verdict::far_below);
  EXPECT_LT(d.attainment, 0.1);
  const std::string notes = joined(r.result.notes);
  EXPECT_NE(notes.find("utilisation is a time metric"), std::string::npos) << notes;
  EXPECT_NE(notes.find("FLOP/s a throughput metric"), std::string::npos) << notes;
  EXPECT_NE(notes.find("a problem of how it runs, not of the hardware"), std::string::npos)
      << notes;
  EXPECT_NE(notes.find("power 156 W of 600 W (26%)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("GPU utilisation 98%"), std::string::npos) << notes;
}

// 'GPU 00' is the GPU 'GPU 0' names: one entity of all 8 samples, not two GPUs of 4 each.
TEST(ImportDcgm, AGpuNumberWithLeadingZerosIsTheSameGpu) {
  const std::string real = read_text_file(kData / "dcgm-seed-case.txt");
  std::string text = real;
  for (std::size_t at = text.find("GPU 0  "), n = 0; at != std::string::npos && n < 4;
       at = text.find("GPU 0  ", at + 8), ++n)
    text.replace(at, 7, "GPU 00 ");
  ASSERT_NE(text, real);
  const DcgmResult r = import_dcgm(text, "g.txt", h100());
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].entity, "GPU 0");
  EXPECT_EQ(r.gpus[0].samples, 8);
  const DcgmResult same = import_dcgm(real, "g.txt", h100());
  EXPECT_DOUBLE_EQ(r.result.doc.points.at(0).work.value, same.result.doc.points.at(0).work.value);
  EXPECT_EQ(
      import_dcgm("#Entity TENSO DRAMA\nGPU-I 007 0.5 0.5\n", "i.txt", h100()).gpus.at(0).entity,
      "GPU-I 7");
}

TEST(ImportDcgm, BusyAndOnTheRoofGetsNoSuchNote) {
  const std::string text =
      "#Entity GPUTL TENSO DRAMA FP32A\nID\nGPU 0 99 0.010 0.950 0.010\nGPU 1 99 0.010 0.950 "
      "0.010\n";
  const DcgmResult r = import_dcgm(text, "t.txt", h100(), {0.5});
  ASSERT_EQ(r.result.doc.points.size(), 2u);
  EXPECT_DOUBLE_EQ(r.result.doc.points[1].time.value, 0.5);
  EXPECT_EQ(r.result.doc.points[1].name, "GPU 1");
  EXPECT_EQ(joined(r.result.notes).find("time metric"), std::string::npos);
  EXPECT_NE(diagnose(r.result.doc.points[0], h100()).verdict, Verdict::far_below);
}

// Every pipe busy at once: W/s = 989.5T + 34T + 67T = 1090.5T, 110% of the fp16 tensor roof it
// is judged against. The note says the sum is an upper bound, not a measurement above the roof.
TEST(ImportDcgm, PipesBusyAtOnceSumAboveTheRoofAndSaySo) {
  const std::string text = "#Entity TENSO FP64A FP32A DRAMA\nID\nGPU 0 1.0 1.0 1.0 0.5\n";
  const DcgmResult r = import_dcgm(text, "t.txt", h100());
  ASSERT_EQ(r.result.doc.points.size(), 1u);
  EXPECT_NEAR(r.result.doc.points[0].performance().value, (989.5 + 34 + 67) * 1e12, 1e3);
  const std::string notes = joined(r.result.notes);
  EXPECT_NE(notes.find("GPU 0: the estimate 1.091 PFLOP/s is a sum of pipes active in the same "
                       "cycles, above the roof 'fp16 tensor' it is judged against (989.5 "
                       "TFLOP/s): an upper bound of W/s"),
            std::string::npos)
      << notes;
  // One pipe below its roof: no such note.
  const DcgmResult one = import_dcgm("#Entity TENSO DRAMA\nID\nGPU 0 0.5 0.5\n", "t.txt", h100());
  EXPECT_EQ(joined(one.result.notes).find("upper bound"), std::string::npos);
}

TEST(ImportDcgm, BadFilesNameFileLineAndColumn) {
  const auto path = (kData / "dcgm-truncated.txt").string();
  try {
    import_dcgm(read_text_file(path), path, h100());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": line 5, column 48: expected 10 values after "
                                                "'GPU 0', found 5 (file truncated?)"),
              std::string::npos)
        << e.what();
  }
  // One value too many is no truncation.
  try {
    import_dcgm("#Entity TENSO DRAMA\nID\nGPU 0 0.5 0.5 0.7\n", "x.txt", h100());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected 2 values after 'GPU 0', found 3 (a field the "
                                         "header does not name)"),
              std::string::npos)
        << e.what();
  }
  try {
    import_dcgm("#Entity TENSO DRAMA\nGPU 0 0.5 1.7\n", "r.txt", h100());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "r.txt: line 2, column 11: DRAMA: an activity ratio must be in 0..1 (got 1.7)");
  }
  try {
    import_dcgm("#Entity TENSO DRAMA\nGPU 0 0.5 abc\n", "r.txt", h100());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "r.txt: line 2, column 11: DRAMA: not a number: 'abc'");
  }
  EXPECT_THROW(import_dcgm("GPU 0 0.5\n", "r.txt", h100()), InputError);
  EXPECT_THROW(import_dcgm("", "r.txt", h100()), InputError);
  // A last sample without its line end may have been cut inside a number (0.95 → 0.9): it was
  // read as less activity, where the likwid importer refuses the same cut.
  try {
    import_dcgm("#Entity TENSO DRAMA\nGPU 0 0.5 0.9\nGPU 0 0.5 0.9", "r.txt", h100());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "r.txt: line 3, column 14: the last line has no line end (file truncated?); "
                 "if the file is whole, end it with one");
  }
  EXPECT_EQ(
      import_dcgm("#Entity TENSO DRAMA\nGPU 0 0.5 0.9\n", "r.txt", h100()).result.doc.points.size(),
      1u);
}

TEST(ImportDcgm, ValuesOutsideTheirRangeAndEntitiesThatAreNoGpuAreRefused) {
  // The real T4 log (Triton, BERT) with one value changed at a time.
  const std::string real = read_text_file(kData / "real" / "dcgm-t4-triton-bert.txt");
  auto changed = [&](const std::string& from, const std::string& to) {
    return roofline::test::edited(real, from, to);
  };
  auto error_of = [&](const std::string& text) {
    try {
      import_dcgm(text, "t4.txt", h100());
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of(real), "");
  EXPECT_NE(error_of(changed("GPU 2          99 ", "GPU 2         250 "))
                .find(": GPUTL: GPU utilisation is a percentage of time, at most 100 (got 250)"),
            std::string::npos);
  // Every range refusal names the field beside its line and column, as the others do.
  EXPECT_EQ(error_of("#Entity GPUTL TENSO DRAMA\nID\nGPU 0 -5 0.5 0.5\n"),
            "t4.txt: line 3, column 7: GPUTL: must be >= 0 (got -5)");
  EXPECT_NE(error_of(changed("    GPU 2          99 ", "    CPU 2          99 "))
                .find(": entity 'CPU 2' is not a GPU: expected GPU, GPU-I or GPU-CI"),
            std::string::npos);
  EXPECT_NE(error_of(changed("    GPU 2          99 ", "    GPU x          99 "))
                .find("entity 'GPU x' is not a GPU"),
            std::string::npos);
  // Power: at most 1e5 W a sample, a limit > 0.
  const std::string power = "#Entity TENSO DRAMA POWER PMLMT\nGPU 0 0.5 0.5 ";
  EXPECT_NE(error_of(power + "1e308 700\n").find("POWER: 1e308 W is more than a device draws"),
            std::string::npos);
  EXPECT_NE(error_of(power + "300 0\n").find("PMLMT: a power limit must be > 0 W (got 0)"),
            std::string::npos);
  EXPECT_EQ(error_of(power + "300 700\n"), "");
  // One metric in two columns (by one name, or by its field name and its alias) would be
  // averaged into one figure.
  EXPECT_EQ(error_of("# EntityId GPUTL DRAMA TENSO DRAMA\n GPU 0 99 0.2 0.5 0.9\n"),
            "t4.txt: line 1, column 30: field DRAMA measures what field DRAMA does: one metric "
            "given twice");
  EXPECT_NE(error_of("# EntityId DRAMA DCGM_FI_PROF_DRAM_ACTIVE\n GPU 0 0.2 0.9\n")
                .find("field DCGM_FI_PROF_DRAM_ACTIVE measures what field DRAMA does"),
            std::string::npos);
  // Numbers as every profiler's: no hexadecimal float.
  EXPECT_NE(error_of("#Entity TENSO DRAMA\nGPU 0 0.5 0x1p-2\n").find("DRAMA: not a number"),
            std::string::npos);
  EXPECT_NE(error_of(power + "75,250 700\n").find("POWER: not a number: '75,250'"),
            std::string::npos);
}

TEST(ImportDcgm, MissingValuesAreNotSamples) {
  // N/A (no value yet) and N/W (not watched, older dcgmi) are missing; a row of only missing
  // values is not a sample (it would stretch T); a row with some values is.
  const std::string text =
      "\xEF\xBB\xBF#Entity   TENSO  DRAMA  FP32A\n"
      "ID\n"
      "GPU 0     N/A    N/A    N/A\n"
      "GPU 0     N/W    N/W    N/W\n"
      "GPU 0     0.100  0.200  N/W\n"
      "GPU 0     0.300  0.400  0.500\n"
      "GPU-I 1   0.500  0.500  N/A\n";
  const DcgmResult r = import_dcgm(text, "m.txt", h100(), {0.5});
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[0].entity, "GPU 0");
  EXPECT_EQ(r.gpus[0].samples, 2);
  EXPECT_DOUBLE_EQ(r.gpus[0].tensor_active.value_or(-1), (0.1 + 0.3) / 2);
  EXPECT_DOUBLE_EQ(r.gpus[0].fp32_active.value_or(-1), 0.5);  // its only value
  EXPECT_EQ(r.gpus[1].entity, "GPU-I 1");  // a MIG instance: summed, but no point
  ASSERT_EQ(r.result.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.result.doc.points[0].time.value, 2 * 0.5);  // 2 samples × 0.5 s
  const std::string notes = joined(r.result.notes);
  EXPECT_NE(notes.find("2 rows with only N/A/N/W values are not samples"), std::string::npos)
      << notes;
  // Only missing values: no samples, said why.
  try {
    import_dcgm("#Entity TENSO DRAMA\nGPU 0 N/A N/A\n", "n.txt", h100());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("n.txt: no samples: every row is N/A"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(import_dcgm(std::string("\xFF\xFE#\0E\0", 6), "u.txt", h100()), InputError);
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {
// The tensor pipe by instruction (DCGM fields 1014 THMMA, 1015 TDFMA, 1013 TIMMA) says which
// roof its busy cycles ran at. THMMA 0.9 on the H100 is 0.9 × 989.5 TFLOP/s of fp16 tensor work
// beside FP32A 0.05 × 67: W/s = 893.9 TFLOP/s, judged on the fp16 tensor roof — read from FP32A
// alone it was "far below both roofs".
TEST(ImportDcgm, TensorPipesByInstructionUseTheirRoofs) {
  const DcgmResult r = import_dcgm(
      "#Entity   GPUTL  THMMA  DRAMA  FP32A\nID\nGPU 0     100    "
      "0.900  0.300  0.050\n",
      "t.txt", h100());
  ASSERT_EQ(r.result.doc.points.size(), 1u);
  const Point& p = r.result.doc.points[0];
  EXPECT_NEAR(p.performance().value, 0.9 * 989.5e12 + 0.05 * 67e12, 1e3);
  EXPECT_EQ(p.precision, "fp16 tensor");
  EXPECT_EQ(joined(r.result.notes).find("far below both roofs"), std::string::npos);
  // Without TENSO the fields not collected are said as they are beside it, and the summary line
  // gives the tensor pipe's activity as THMMA gives it.
  const std::string alone = joined(r.result.notes);
  EXPECT_NE(alone.find("GPU 0: the tensor pipe is read from THMMA alone: TDFMA TIMMA not "
                       "collected, nor TENSO (PIPE_TENSOR_ACTIVE, field 1004): tensor work they "
                       "would count is not in W\n"),
            std::string::npos)
      << alone;
  EXPECT_NE(alone.find("GPU 0: 1 sample, GPU utilisation 100%, tensor pipe HMMA 90%, DRAM 30%\n"),
            std::string::npos)
      << alone;
  // TDFMA at the fp64 tensor roof (67 TFLOP/s), FP64A at the fp64 one (34): 0.8 × 67 + 0.1 × 34.
  const DcgmResult d = import_dcgm(
      "#Entity   GPUTL  TDFMA  THMMA  DRAMA  FP64A\nID\nGPU 0     "
      "100    0.800  0.000  0.300  0.100\n",
      "t.txt", h100());
  ASSERT_EQ(d.result.doc.points.size(), 1u);
  EXPECT_NEAR(d.result.doc.points[0].performance().value, 0.8 * 67e12 + 0.1 * 34e12, 1e3);
  EXPECT_EQ(d.result.doc.points[0].precision, "fp64 tensor");
  // With all three, TENSO (any tensor pipe busy) is not added again; TIMMA counts OP, not FLOP.
  const DcgmResult both = import_dcgm(
      "#Entity TENSO THMMA TDFMA TIMMA DRAMA\nID\nGPU 0 0.600 0.500 0.000 0.100 0.300\n", "t.txt",
      h100());
  ASSERT_EQ(both.result.doc.points.size(), 1u);
  EXPECT_NEAR(both.result.doc.points[0].performance().value, 0.5 * 989.5e12, 1e3);
  const std::string notes = joined(both.result.notes);
  EXPECT_NE(notes.find("GPU 0: PIPE_TENSOR_ACTIVE = 0.6 left out of W: the tensor pipe's "
                       "instruction fields (THMMA, TDFMA, TIMMA) count the same busy cycles by "
                       "precision"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("GPU 0: PIPE_TENSOR_IMMA_ACTIVE = 0.1 left out of W: integer MMAs are "
                       "operations (OP), not FLOP"),
            std::string::npos)
      << notes;
  // With only some collected, TENSO less theirs stays at the tensor roof: TDFMA alone dropped
  // TENSO 0.9 and read the GPU at 30% of fp32 vector.
  const DcgmResult part = import_dcgm(
      "#Entity TENSO TDFMA DRAMA FP32A\nID\nGPU 0 0.900 0.000 0.300 0.050\n", "t.txt", h100());
  ASSERT_EQ(part.result.doc.points.size(), 1u);
  EXPECT_NEAR(part.result.doc.points[0].performance().value, 0.9 * 989.5e12 + 0.05 * 67e12, 1e3);
  EXPECT_NE(joined(part.result.notes)
                .find("GPU 0: PIPE_TENSOR_ACTIVE = 0.9 less the instruction fields collected (0) "
                      "is read at the fp16/bf16 tensor roof: THMMA TIMMA not collected"),
            std::string::npos)
      << joined(part.result.notes);
}

// A column the importer does not know is named, not passed over in silence.
TEST(ImportDcgm, UnknownFieldsAreNamed) {
  const DcgmResult r =
      import_dcgm("#Entity XYZZY TENSO DRAMA PCITX\nID\nGPU 0 7 0.5 0.5 100\n", "t.txt", h100());
  ASSERT_EQ(r.result.doc.points.size(), 1u);
  EXPECT_NE(joined(r.result.notes)
                .find("fields not read (not fields this importer knows): XYZZY, PCITX; W and Q "
                      "come from the pipes' and DRAM activity (docs/import.md)"),
            std::string::npos)
      << joined(r.result.notes);
  const DcgmResult known = import_dcgm("#Entity TENSO DRAMA\nID\nGPU 0 0.5 0.5\n", "t.txt", h100());
  EXPECT_EQ(joined(known.result.notes).find("fields not read"), std::string::npos);
}
}  // namespace ROOFLINE_UNITY_ID
