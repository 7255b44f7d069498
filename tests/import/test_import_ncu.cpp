// Nsight Compute CSV import: W, Q, T per kernel, units and separators, hierarchy, bad files.
#include <gtest/gtest.h>

#include <filesystem>

#include "roofline/error.hpp"
#include "roofline/import.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace {
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
}  // namespace

TEST(ImportCsv, QuotesPositionsAndErrors) {
  const auto rows = parse_csv("a,\"b,c\",\"d\"\"e\"\n1,2\r\n", "x.csv");
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows[0].size(), 3u);
  EXPECT_EQ(rows[0][1].text, "b,c");
  EXPECT_EQ(rows[0][2].text, "d\"e");
  EXPECT_EQ(rows[0][1].column, 3);
  EXPECT_EQ(rows[1][1].line, 2);
  EXPECT_EQ(rows[1][1].text, "2");
  try {
    parse_csv("a,b\n1,\"open", "x.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x.csv: line 2, column 3: unterminated quoted field (file truncated?)");
  }
}

TEST(ImportCsv, ProfilerNumbersAndNcuUnits) {
  EXPECT_DOUBLE_EQ(parse_profiler_number({"4,194.30", 1, 1}, "f", "c"), 4194.30);
  EXPECT_DOUBLE_EQ(parse_profiler_number({"1.5e3", 1, 1}, "f", "c"), 1500);
  EXPECT_THROW(parse_profiler_number({"12abc", 3, 7}, "f", "c"), InputError);
  EXPECT_DOUBLE_EQ(ncu_unit_scale("Kbyte", "w"), 1e3);
  EXPECT_DOUBLE_EQ(ncu_unit_scale("Mbyte", "w"), 1e6);
  EXPECT_DOUBLE_EQ(ncu_unit_scale("usecond", "w"), 1e-6);
  EXPECT_DOUBLE_EQ(ncu_unit_scale("msecond", "w"), 1e-3);
  EXPECT_DOUBLE_EQ(ncu_unit_scale("nsecond", "w"), 1e-9);
  EXPECT_DOUBLE_EQ(ncu_unit_scale("cycle/nsecond", "w"), 1e9);
  EXPECT_THROW(ncu_unit_scale("furlong", "w"), InputError);
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
  EXPECT_EQ(s.precision, "fp32");
  EXPECT_NEAR(s.intensity().value, 1.0 / 6, 1e-4);  // the seed's SAXPY: I = 1/6
  const Point& g = r.doc.points[1];
  EXPECT_EQ(g.name, "sgemm_tiled<128> #1");
  EXPECT_DOUBLE_EQ(g.work.value, 2.0 * 1073741824);
  EXPECT_DOUBLE_EQ(g.time.value, 1210.45e-6);  // "1,210.45" usecond
  // The kernel without floating-point work is reported, not placed.
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("fill_zero #2: skipped, no floating-point work"), std::string::npos);
}

TEST(ImportNcu, RooflineSetGivesDoublePrecisionTensorAndHierarchy) {
  const auto r = load("ncu-set-roofline.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& d = r.doc.points[0];
  EXPECT_EQ(d.name, "dgemm_nn_kernel<64, 64> #0");
  EXPECT_DOUBLE_EQ(d.work.value, 2.0 * 134217728 + 262144 + 262144);  // 2·DFMA + DADD + DMUL
  EXPECT_EQ(d.precision, "fp64");
  ASSERT_EQ(d.traffic.size(), 3u);
  EXPECT_DOUBLE_EQ(d.traffic[0].bytes.value, 6.29e6 + 2.10e6);
  EXPECT_EQ(d.traffic[1].level, "L2");
  EXPECT_DOUBLE_EQ(d.traffic[1].bytes.value, 1.61e9);
  EXPECT_EQ(d.traffic[2].level, "L1");
  EXPECT_DOUBLE_EQ(d.traffic[2].bytes.value, 6.44e9);
  EXPECT_DOUBLE_EQ(d.time.value, 31.07e-6);
  const Point& t = r.doc.points[1];
  EXPECT_DOUBLE_EQ(t.work.value, 17179869184.0);  // sm__ops_path_tensor_*: 2·2048³
  EXPECT_NE(t.note.find("tensor"), std::string::npos);
  // The export's peak metrics describe the device (an A100: 108 SMs × 64 FFMA/cycle at 1.41 GHz).
  ASSERT_TRUE(r.roofs.has_value());
  const ComputeRoof* fp32 = r.roofs->find_compute("fp32");
  ASSERT_NE(fp32, nullptr);
  EXPECT_DOUBLE_EQ(fp32->peak.value, 2 * 6912 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->find_compute("fp64")->peak.value, 2 * 3456 * 1.41e9);
  EXPECT_DOUBLE_EQ(r.roofs->memory.at(0).bandwidth.value, 1280 * 1.22e9);
  EXPECT_FALSE(load("ncu-raw-saxpy.csv").roofs.has_value());
  const auto flat = import_ncu(read_text_file(kData / "ncu-set-roofline.csv"), "x", {false});
  EXPECT_EQ(flat.doc.points[0].traffic.size(), 1u);
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
  EXPECT_EQ(error_of(head + "\"0\",\"k\",\"100\",\"100\"\n"),
            "r.csv: line 3, column 18: expected 6 fields, found 4 (file truncated?)");
  EXPECT_EQ(error_of(head + "\"0\",\"k\",\"1x0\",\"100\",\"5\",\"7\"\n"),
            "r.csv: line 3, column 9: dram__bytes_read.sum: not a number: '1x0'");
  EXPECT_NE(error_of("a,b\n1,2\n").find("no header with 'Kernel Name'"), std::string::npos);
  EXPECT_NE(error_of("\"Kernel Name\",\"dram__bytes_read.sum\"\n")
                .find("missing column "
                      "'gpu__time_duration.sum'"),
            std::string::npos);
  const std::string bad_unit =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"parsec\",\"nsecond\",\"inst\"\n";
  EXPECT_NE(error_of(bad_unit).find("line 2, column 7: dram__bytes.sum: unknown unit 'parsec'"),
            std::string::npos)
      << error_of(bad_unit);
}
