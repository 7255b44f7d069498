// likwid-perfctr CSV import: FLOPS_DP/SP, MEM, MEM_DP groups, regions, raw fallback, bad files.
#include <gtest/gtest.h>

#include <algorithm>
#include "unity_id.hpp"

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
  return import_likwid(read_text_file(p), p.string());
}

TEST(ImportLikwid, FlopsDpAloneHasNoTrafficSoNoPoint) {
  try {
    load("likwid-flops-dp.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(": line 5: region 'likwid run': Q cannot be counted: "
                                         "no memory or cache traffic in groups FLOPS_DP"),
              std::string::npos)
        << e.what();
  }
}

TEST(ImportLikwid, FlopsDpAndMemGroupsCombineTheirRates) {
  const auto r = load("likwid-flops-dp-mem.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  const Point& p = r.doc.points[0];
  // FLOPS_DP: 2 threads × 2002 MFLOP/s × 0.5 s in 0.5 s; MEM: 6 GB in 0.5 s; run = 1 s.
  EXPECT_DOUBLE_EQ(p.time.value, 1.0);
  EXPECT_DOUBLE_EQ(p.work.value, 2 * 2002e6 * 0.5 / 0.5 * 1.0);
  EXPECT_DOUBLE_EQ(p.traffic[0].bytes.value, 6e9 / 0.5 * 1.0);
  EXPECT_EQ(p.precision, "fp64");
  EXPECT_EQ(p.note, "run 1 (FLOPS_DP, MEM)");
}

TEST(ImportLikwid, MemDpRegionsGiveOnePointEach) {
  const auto r = load("likwid-mem-dp-regions.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  const Point& triad = r.doc.points[0];
  EXPECT_EQ(triad.name, "triad");
  EXPECT_DOUBLE_EQ(triad.work.value, 2 * 1250e6 * 0.8);
  EXPECT_DOUBLE_EQ(triad.traffic[0].bytes.value, 24e9);
  EXPECT_DOUBLE_EQ(triad.time.value, 0.8);
  EXPECT_NEAR(triad.intensity().value, 1.0 / 12, 1e-12);  // DAXPY-like, docs/model.md §3
  const Point& gemm = r.doc.points[1];
  EXPECT_EQ(gemm.name, "dgemm");
  EXPECT_DOUBLE_EQ(gemm.intensity().value, 40);
}

TEST(ImportLikwid, FlopsSpWithMemOnZen) {
  const auto r = load("likwid-flops-sp-mem.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  const Point& p = r.doc.points[0];
  EXPECT_DOUBLE_EQ(p.time.value, 4.0);
  EXPECT_DOUBLE_EQ(p.work.value, 8000e6 * 4.0);
  EXPECT_DOUBLE_EQ(p.traffic[0].bytes.value, 16e9 / 2.0 * 4.0);
  EXPECT_EQ(p.precision, "fp32");
  EXPECT_DOUBLE_EQ(p.intensity().value, 1.0);
}

TEST(ImportLikwid, RawCountersWhenTheMetricIsMissing) {
  const std::string text =
      "TABLE,Group 1 Raw,MEM_DP,4\n"
      "Event,Counter,HWThread 0\n"
      "FP_ARITH_INST_RETIRED_SCALAR_DOUBLE,PMC0,1000\n"
      "FP_ARITH_INST_RETIRED_512B_PACKED_DOUBLE,PMC1,\"1,000\"\n"
      "CAS_COUNT_RD,MBOX0C0,300\n"
      "CAS_COUNT_WR,MBOX0C1,100\n"
      "TABLE,Group 1 Metric,MEM_DP,1\n"
      "Metric,HWThread 0\n"
      "Runtime (RDTSC) [s],0.001\n";
  const auto r = import_likwid(text, "raw.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 1000 + 1000 * 8);
  EXPECT_DOUBLE_EQ(r.doc.points[0].traffic[0].bytes.value, 400 * 64);
  EXPECT_DOUBLE_EQ(r.doc.points[0].time.value, 0.001);
}

TEST(ImportLikwid, ARegionWhoseTrafficIsAllZeroIsNotAPoint) {
  // Found by fuzz_import (a mutation of real/likwid-zen2-text-memdp-flopsdp.txt): W from the
  // FLOPS_DP run, and the MEM_DP run's traffic damaged to nothing. A point with no traffic
  // fails validation; the region is named in a note instead (a zero runtime likewise).
  // No region is left with a point, so the file is refused, naming a region and why.
  try {
    const auto r = load("likwid-fuzz-zero-traffic.txt");
    for (const auto& p : r.doc.points) EXPECT_NO_THROW(p.validate()) << p.name;
    ADD_FAILURE() << "accepted with " << r.doc.points.size() << " points";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("likwid-fuzz-zero-traffic.txt"), std::string::npos)
        << e.what();
  }
}

TEST(ImportLikwid, BadFilesNameFileLineAndColumn) {
  const std::string trunc = (kData / "likwid-truncated.csv").string();
  try {
    import_likwid(read_text_file(trunc), trunc);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(trunc + ": line 26, column 1: table 'FLOPS_DP' (line 23) "
                                                 "declares 10 rows, found 2 (file truncated?)"),
              std::string::npos)
        << e.what();
  }
  try {
    import_likwid("TABLE,Group 1 Metric,MEM,1\nMetric,HWThread 0\nRuntime (RDTSC) [s],0.x1\n",
                  "m.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "m.csv: line 3, column 21: Runtime (RDTSC) [s]: not a number: '0.x1'");
  }
  try {
    import_likwid("hello,world\n", "x.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "x.csv: line 1: not likwid-perfctr output: no 'Group N: NAME' tables and no "
                 "TABLE lines (likwid-perfctr -g GROUP [-m] ./app, or -O -o out.csv)");
  }
  EXPECT_THROW(import_likwid("TABLE,Foo\n", "x.csv"), InputError);
}

TEST(ImportLikwid, NegativeValuesAndAMissingFlopRateOfAThreadThatRanAreRefused) {
  // Each would change W, Q or T silently: a negative rate subtracts, a thread without its rate
  // drops out of W. Refused at the value's line and column, naming the metric and the thread.
  const std::string good = read_text_file(kData / "likwid-mem-dp-regions.csv");
  auto replaced = [&](const std::string& from, const std::string& to) {
    return roofline::test::edited(good, from, to);
  };
  auto error_of = [](const std::string& text) {
    try {
      import_likwid(text, "l.csv");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of(replaced("DP [MFLOP/s],1250,1250", "DP [MFLOP/s],-5,1250")),
            "l.csv: line 16, column 14: DP [MFLOP/s] (HWThread 0): negative value -5");
  EXPECT_EQ(error_of(replaced("DP [MFLOP/s],1250,1250", "DP [MFLOP/s],1250,nan")),
            "l.csv: line 16, column 19: DP [MFLOP/s] (HWThread 1): no value for a thread that "
            "ran 800 ms");
  EXPECT_EQ(error_of(replaced("Runtime (RDTSC) [s],0.8,0.8", "Runtime (RDTSC) [s],-1,0.8")),
            "l.csv: line 12, column 21: Runtime (RDTSC) [s] (HWThread 0): negative value -1");
  EXPECT_EQ(error_of(replaced("Memory bandwidth [MBytes/s],30000,0",
                              "Memory bandwidth [MBytes/s],-30000,0")),
            "l.csv: line 17, column 29: Memory bandwidth [MBytes/s] (HWThread 0): negative value "
            "-30000");
  // A thread that did not run the region has no rate, and that is no error.
  const std::string idle = replaced("Runtime (RDTSC) [s],0.8,0.8", "Runtime (RDTSC) [s],0.8,-");
  const std::string idle_nan = idle.substr(0, idle.find("DP [MFLOP/s],1250,1250")) +
                               "DP [MFLOP/s],1250,nan" +
                               idle.substr(idle.find("DP [MFLOP/s],1250,1250") + 22);
  const auto r = import_likwid(idle_nan, "l.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 1250e6 * 0.8);
}

// A bandwidth printed "nan" for a thread that ran was passed over without a word, Q taken from
// the data volume: now a note names the file, line, metric and value and what replaced it; with
// nothing to replace it the region is refused, as a nan FLOP rate is.
TEST(ImportLikwid, ANanBandwidthIsReplacedWithANoteOrRefused) {
  const std::string good = read_text_file(kData / "likwid-mem-dp-regions.csv");
  const std::string nan_bw = roofline::test::edited(good, "Memory bandwidth [MBytes/s],30000,0",
                                                    "Memory bandwidth [MBytes/s],nan,0");
  const auto r = import_likwid(nan_bw, "l.csv");
  ASSERT_EQ(r.doc.points.size(), 2u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].traffic_at("DRAM").bytes.value, 24e9);  // the volume
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(),
                      "l.csv: line 17, column 29: Memory bandwidth [MBytes/s] (HWThread 0): nan "
                      "for a thread that ran: Q(DRAM) from 'Memory data volume [GBytes]' (line "
                      "18) instead"),
            r.notes.end())
      << (r.notes.empty() ? "" : r.notes.back());
  // The good file has no such note.
  for (const auto& n : import_likwid(good, "l.csv").notes)
    EXPECT_EQ(n.find("nan"), std::string::npos) << n;
  const std::string both = roofline::test::edited(nan_bw, "Memory data volume [GBytes],24,0",
                                                  "Memory data volume [GBytes],nan,0");
  try {
    import_likwid(both, "l.csv");
    ADD_FAILURE() << "a region without Q(DRAM) was imported";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "l.csv: line 17, column 29: Memory bandwidth [MBytes/s] (HWThread 0): nan for a "
                 "thread that ran 800 ms, and no other figure gives Q(DRAM) (its share would "
                 "drop out unseen)");
  }
}

// A ratio beyond a double (I = W/Q of a 1e-300 MBytes/s bandwidth) refuses the input at the
// values that gave it, as ncu's importer does; the region was left out with a note while ncu
// refused the file (docs/import.md: refused where it stands).
TEST(ImportLikwid, ARatioBeyondADoubleIsRefusedAtItsValues) {
  const std::string good = read_text_file(kData / "likwid-mem-dp-regions.csv");
  try {
    import_likwid(roofline::test::edited(good, "Memory bandwidth [MBytes/s],2000,0",
                                         "Memory bandwidth [MBytes/s],1e-307,0"),
                  "l.csv");
    ADD_FAILURE() << "an intensity beyond a double was imported";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "l.csv: line 20: region 'dgemm': I = W/Q at DRAM = 2e+10 / 2.5e-302 is too "
                 "large for a double (overflow) (W from l.csv: line 31, column 14: DP [MFLOP/s] "
                 "(HWThread 0) = 40000; Q(DRAM) from l.csv: line 32, column 29: Memory bandwidth "
                 "[MBytes/s] (HWThread 0) = 1e-307)");
  }
}

// A region timed 0 s (likwid under WSL printed 0 beside '-' events and metrics of 0) is said to
// be untimed where it stands, not "time must be > 0" of a point it never was.
TEST(ImportLikwid, ARegionOfZeroRuntimeIsSaidToBeUntimed) {
  const std::string good = read_text_file(kData / "likwid-mem-dp-regions.csv");
  const std::string zero =
      roofline::test::edited(good, "Runtime (RDTSC) [s],0.25,0.25", "Runtime (RDTSC) [s],0,0");
  const auto r = import_likwid(zero, "l.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);  // triad; dgemm noted
  EXPECT_EQ(r.doc.points[0].name, "triad");
  const std::string note =
      "l.csv: line 20: region 'dgemm': the runtime is 0 s (RDTSC Runtime [s], Runtime (RDTSC) "
      "[s]): nothing was timed; events printed as '-' and metrics of 0 mean likwid could not "
      "read the counters here (a VM, WSL)";
  EXPECT_TRUE(std::find(r.notes.begin(), r.notes.end(), note) != r.notes.end())
      << ::testing::PrintToString(r.notes);
}

// A header naming one thread twice (two runs' columns pasted side by side) would have its
// values summed as two threads' (W of 1250 and 500 MFLOP/s read as 1.75 GFLOP/s): refused naming
// the file, the line and the column, in CSV and in text tables alike.
TEST(ImportLikwid, AThreadColumnTwiceInAHeaderIsRefused) {
  const std::string good = read_text_file(kData / "likwid-mem-dp-regions.csv");
  const std::string twice =
      roofline::test::edited(roofline::test::edited(good, "Metric,HWThread 0,HWThread 1,,,",
                                                    "Metric,HWThread 0,HWThread 0,,,"),
                             "DP [MFLOP/s],1250,1250", "DP [MFLOP/s],1250,500");
  try {
    import_likwid(twice, "l.csv");
    ADD_FAILURE() << "a thread column twice was read";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "l.csv: line 11, column 19: column 'HWThread 0' given twice in the table's "
                 "header (two runs' columns pasted side by side?)");
  }
  const std::string text = read_text_file(kData / "real" / "likwid-zen2-text-flopsdp-page.txt");
  const std::string text_twice =
      roofline::test::edited(text, "| HWThread 0 |", "| HWThread 0 | HWThread 0 |");
  try {
    import_likwid(text_twice, "z.txt");
    ADD_FAILURE() << "a thread column twice was read";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find(
            "z.txt: line 10, column 36: column 'HWThread 0' given twice in the table's header"),
        std::string::npos)
        << e.what();
  }
}

TEST(ImportLikwid, AMetricTwiceInATableIsRefusedWhenItsValuesDiffer) {
  // Two rows of one metric in a region's table would be summed into W or Q: another value is
  // refused naming both lines, the same figure again is read once. An event read on several
  // counters (CAS_COUNT_RD on each memory channel) is several values, summed as before.
  const std::string good = read_text_file(kData / "likwid-mem-dp-regions.csv");
  auto with_cpi_as = [&](const std::string& row) {
    std::string t = good;
    return t.replace(t.find("CPI,1.2,1.2"), 11, row);
  };
  try {
    import_likwid(with_cpi_as("DP [MFLOP/s],9999,9999"), "l.csv");
    ADD_FAILURE() << "a metric twice with another value was read";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "l.csv: line 16, column 14: DP [MFLOP/s] (HWThread 0) of region 'triad' is "
                 "given again (line 15) with another value");
  }
  const auto once = import_likwid(with_cpi_as("DP [MFLOP/s],1250,1250"), "l.csv");
  const auto plain = import_likwid(good, "l.csv");
  ASSERT_EQ(once.doc.points.size(), plain.doc.points.size());
  EXPECT_DOUBLE_EQ(once.doc.points[0].work.value, plain.doc.points[0].work.value);
  EXPECT_DOUBLE_EQ(load("likwid-flops-dp-mem.csv").doc.points.at(0).traffic.at(0).bytes.value,
                   6e9 / 0.5 * 1.0);
}

TEST(ImportLikwid, ShortAndCutRowsAreTruncation) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      import_likwid(text, "m.csv");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  // A row with fewer values than the header has thread columns.
  EXPECT_EQ(error_of("TABLE,Group 1 Metric,MEM,2\nMetric,HWThread 0,HWThread 1\n"
                     "Runtime (RDTSC) [s],0.5\nMemory data volume [GBytes],1,1\n"),
            "m.csv: line 3, column 24: 'Runtime (RDTSC) [s]': expected 2 values (one per column "
            "of the table's header), found 1 (file truncated?)");
  EXPECT_EQ(error_of("TABLE,Group 1 Raw,MEM,1\nEvent,Counter,HWThread 0,HWThread 1\n"
                     "CAS_COUNT_RD,MBOX0C0,300\n"),
            "m.csv: line 3, column 25: 'CAS_COUNT_RD': expected 2 values (one per column of the "
            "table's header), found 1 (file truncated?)");
  // The final row cut inside a number: complete in shape, but without its line end.
  const std::string whole =
      "TABLE,Group 1 Metric,MEM_DP,3\nMetric,HWThread 0\nRuntime (RDTSC) [s],0.5\n"
      "DP [MFLOP/s],4\nMemory data volume [GBytes],1.25\n";
  EXPECT_EQ(error_of(whole), "");
  EXPECT_EQ(error_of(whole.substr(0, whole.size() - 2)),
            "m.csv: line 5, column 32: the last line has no line end (file truncated?)");
}

TEST(ImportLikwid, TextTablesWithThreadsAndStat) {
  // The terminal output with two threads: the STAT tables are left out, the threads summed,
  // T the longer thread's runtime.
  const std::string text =
      "--------------------------------------------------------------------------------\n"
      "CPU name:\tIntel(R) Xeon(R) Gold 6132 CPU @ 2.60GHz\n"
      "--------------------------------------------------------------------------------\n"
      "Region Solve, Group 1: MEM_DP\n"
      "+-------------------+-----------+-----------+\n"
      "|    Region Info    |   Core 0  |  Core 14  |\n"
      "+-------------------+-----------+-----------+\n"
      "| RDTSC Runtime [s] | 26.930680 | 26.930650 |\n"
      "|     call count    |         1 |         1 |\n"
      "+-------------------+-----------+-----------+\n"
      "+------------------------------+---------+---------+---------+\n"
      "|            Metric            |  Core 0 | Core 14 |\n"
      "+------------------------------+---------+---------+\n"
      "|      Runtime (RDTSC) [s]     | 26.9307 | 26.9306 |\n"
      "|         DP [MFLOP/s]         |  426.95 |  411.14 |\n"
      "|  Memory bandwidth [MBytes/s] | 1491.59 |  109.66 |\n"
      "+------------------------------+---------+---------+\n"
      "+-----------------------------------+-----------+-----------+-----------+-----------+\n"
      "|               Metric              |    Sum    |    Min    |    Max    |    Avg    |\n"
      "+-----------------------------------+-----------+-----------+-----------+-----------+\n"
      "|      DP [MFLOP/s] STAT            |  838.0908 |  411.1445 |  426.9463 |  419.0454 |\n"
      "+-----------------------------------+-----------+-----------+-----------+-----------+\n";
  const auto r = import_likwid(text, "t.txt");
  ASSERT_EQ(r.doc.points.size(), 1u);
  const Point& p = r.doc.points[0];
  EXPECT_EQ(p.name, "Solve");
  EXPECT_DOUBLE_EQ(p.time.value, 26.930680);  // the longer thread, Region Info's digits
  // W = Σ_threads DP rate × the thread's runtime
  EXPECT_DOUBLE_EQ(p.work.value, 426.95e6 * 26.930680 + 411.14e6 * 26.930650);
  EXPECT_DOUBLE_EQ(p.traffic[0].bytes.value, 1491.59e6 * 26.930680 + 109.66e6 * 26.930650);
  // A table cut before its closing rule is a truncated file.
  const std::string cut = text.substr(0, text.find("|      DP [MFLOP/s] STAT"));
  try {
    import_likwid(cut, "t.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the last table ends without its closing rule (file "
                                         "truncated?)"),
              std::string::npos)
        << e.what();
  }
  // A row cut inside its cells.
  const std::string cut_row = text.substr(0, text.find("5 |  411.14")) + "\n";
  try {
    import_likwid(cut_row, "t.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("table row cut before its closing '|'"), std::string::npos)
        << e.what();
  }
}

TEST(ImportLikwid, ByteOrderMarkAndEncodings) {
  const std::string csv =
      "TABLE,Group 1 Metric,MEM_DP,3\nMetric,HWThread 0\nRuntime (RDTSC) [s],2\n"
      "DP [MFLOP/s],10\nMemory bandwidth [MBytes/s],20\n";
  const auto r = import_likwid("\xEF\xBB\xBF" + csv, "b.csv");
  ASSERT_EQ(r.doc.points.size(), 1u);
  EXPECT_DOUBLE_EQ(r.doc.points[0].work.value, 10e6 * 2);
  EXPECT_DOUBLE_EQ(r.doc.points[0].traffic[0].bytes.value, 20e6 * 2);
  EXPECT_THROW(import_likwid(std::string("\xFF\xFET\0A\0", 6), "u.csv"), InputError);
}
}  // namespace ROOFLINE_UNITY_ID
