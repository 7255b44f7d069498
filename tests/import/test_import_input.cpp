// The importers' input: files (regular only, limited), text lines (byte-order marks, UTF-16,
// NUL, CR LF, limits), CSV records with positions, profiler numbers and units.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <tuple>
#include "unity_id.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_runner.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
std::vector<std::string> lines_of(const std::string& text, std::uint64_t max = kMaxImportBytes) {
  std::istringstream in(text);
  TextLines lines(in, "t.txt", max);
  std::vector<std::string> out;
  std::string l;
  while (lines.next(l)) out.push_back(l);
  return out;
}
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ImportInput, LinesEndsAndByteOrderMarks) {
  EXPECT_EQ(lines_of("a\r\nb\nc"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(lines_of("\xEF\xBB\xBF#Entity\n"), (std::vector<std::string>{"#Entity"}));
  EXPECT_TRUE(lines_of("").empty());
  std::istringstream in("x\ny");
  TextLines l(in, "t");
  std::string s;
  ASSERT_TRUE(l.next(s));
  EXPECT_TRUE(l.last_line_ended());
  ASSERT_TRUE(l.next(s));
  EXPECT_EQ(l.line_number(), 2);
  EXPECT_FALSE(l.last_line_ended());  // a cut last line is visible to the readers
}

TEST(ImportInput, OtherEncodingsAreNamed) {
  const std::string le = std::string("\xFF\xFE\"\0I\0D\0\"\0\n\0", 12);
  EXPECT_EQ(error_of([&] { lines_of(le); }),
            "t.txt: the file is UTF-16LE text (byte-order mark FF FE); the importers read UTF-8 "
            "(or ASCII): convert it first, e.g. iconv -f UTF-16LE -t UTF-8 't.txt' > "
            "converted.csv");
  EXPECT_NE(error_of([&] { lines_of(std::string("\xFE\xFF\0\"", 4)); }).find("UTF-16BE"),
            std::string::npos);
  EXPECT_NE(error_of([&] { lines_of(std::string("\xFF\xFE\0\0\"\0\0\0", 8)); }).find("UTF-32LE"),
            std::string::npos);
  // UTF-16 without a byte-order mark: NUL bytes between the characters.
  EXPECT_NE(error_of([&] {
              lines_of(std::string("\"\0I\0D\0", 6));
            }).find("UTF-16LE text (NUL bytes between the characters, no byte-order mark)"),
            std::string::npos);
  // A NUL elsewhere: not text.
  EXPECT_EQ(error_of([&] { lines_of(std::string("ok\nab\0c\n", 8)); }),
            "t.txt: line 2, column 3: NUL byte: not a text file (a binary report? export it "
            "with --csv)");
}

TEST(ImportInput, LimitsOnSizeAndLineLength) {
  EXPECT_NE(error_of([&] {
              lines_of(std::string(100, 'a') + "\n", 64);
            }).find("t.txt: more than 64 bytes, the importers' limit"),
            std::string::npos);
  // A "line" that never ends (a device or a binary file) is refused at kMaxImportLine.
  EXPECT_NE(error_of([&] {
              lines_of(std::string(kMaxImportLine + 10, 'x'));
            }).find("t.txt: line 1 is longer than 64 MiB: not a text export"),
            std::string::npos);
}

TEST(ImportInput, OnlyRegularFilesAreOpened) {
  test::TempDir dir;
  EXPECT_EQ(error_of([&] { open_import_file("/dev/zero"); }),
            "/dev/zero: is a character device, expected a regular file");
  EXPECT_NE(error_of([&] { open_import_file(dir.path); }).find("is a directory"),
            std::string::npos);
  const fs::path fifo = dir.path / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(error_of([&] {
              open_import_file(fifo);
            }).find("is a FIFO (named pipe), expected a regular file"),
            std::string::npos);
  // A link to a device is the device.
  const fs::path link = dir.path / "link.csv";
  fs::create_symlink("/dev/zero", link);
  EXPECT_NE(error_of([&] { open_import_file(link); }).find("is a character device"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { open_import_file(dir.path / "none.csv"); }),
            (dir.path / "none.csv").string() + ": no such file");
  const fs::path big = dir.path / "big.csv";
  std::ofstream(big) << std::string(2048, 'a');
  EXPECT_NE(error_of([&] {
              open_import_file(big, 1024);
            }).find(": 2048 bytes, larger than the importers' limit of 1024 bytes"),
            std::string::npos);
  EXPECT_NO_THROW(open_import_file(big));
}

TEST(ImportInput, CsvRecordsWithPositions) {
  const auto rows = parse_csv("a,\"b,c\",\"d\"\"e\"\n1,2\r\n\"multi\nline\",x\n", "x.csv");
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_EQ(rows[0].size(), 3u);
  EXPECT_EQ(rows[0].fields[1], "b,c");
  EXPECT_EQ(rows[0].fields[2], "d\"e");
  EXPECT_EQ(rows[0].columns[1], 3);
  EXPECT_EQ(rows[1].line, 2);
  EXPECT_EQ(rows[1].fields[1], "2");
  EXPECT_EQ(rows[2].fields[0], "multi\nline");
  EXPECT_EQ(rows[2].fields[1], "x");
  EXPECT_EQ(parse_csv("\"a\",\n", "x").front().size(), 2u);  // a trailing comma: an empty field
  EXPECT_EQ(error_of([] { parse_csv("a,b\n1,\"open", "x.csv"); }),
            "x.csv: line 2, column 3: unterminated quoted field (file truncated?)");
  EXPECT_EQ(error_of([] { parse_csv("\"a\"b\n", "x.csv"); }),
            "x.csv: line 1, column 4: unexpected 'b' after a closing quote");
}

TEST(ImportInput, ProfilerNumbers) {
  auto num = [](const char* t) { return parse_profiler_number(t, "f", 1, 1, "c"); };
  EXPECT_DOUBLE_EQ(num("4,194.30"), 4194.30);
  EXPECT_DOUBLE_EQ(num("5,323,503,232.00"), 5323503232.0);  // --print-fp
  EXPECT_DOUBLE_EQ(num(" 1.5e3 "), 1500);
  EXPECT_DOUBLE_EQ(num("+2"), 2);
  EXPECT_DOUBLE_EQ(num("-0.5"), -0.5);
  EXPECT_DOUBLE_EQ(num("3995313115.40"), 3995313115.40);
  EXPECT_EQ(error_of([&] { num("12abc"); }), "f: line 1, column 1: c: not a number: '12abc'");
  EXPECT_EQ(error_of([&] { num("inf"); }), "f: line 1, column 1: c: not a number: 'inf'");
  EXPECT_EQ(error_of([&] { num("1e999"); }), "f: line 1, column 1: c: out of range: '1e999'");
  // Numbers of another locale are refused, not misread (65,77 is not 6577).
  EXPECT_NE(error_of([&] { num("65,77"); }).find("a decimal comma?"), std::string::npos);
  EXPECT_NE(error_of([&] { num("1,2345"); }).find("a decimal comma?"), std::string::npos);
  EXPECT_NE(error_of([&] { num("27.595.520"); }).find("dots as digit groups"), std::string::npos);
  // A comma after the digits' groups is a decimal comma ("1.234,5" is 1234.5 in German), not a
  // separator to drop (it was read as 1.2345).
  EXPECT_NE(error_of([&] { num("1.234,5"); }).find("a decimal comma?"), std::string::npos);
  EXPECT_NE(error_of([&] { num("1e3,5"); }).find("a decimal comma?"), std::string::npos);
  EXPECT_DOUBLE_EQ(num("1,234.5e3"), 1234.5e3);
}

// One quantity printed twice in two units (ncu's "Duration" in msecond beside
// gpu__time_duration.sum in usecond) is the same value once in base units, to ncu's rounding; it
// was refused as "given again with another value" by comparing 2.00 with 2000.00.
TEST(ImportInput, AValueRepeatedInAnotherUnitIsComparedInBaseUnits) {
  ToolRecord r;
  r.id = "0";
  ToolValue ms;
  ms.metric = "gpu__time_duration.sum";
  ms.unit = "msecond";
  ms.value = 2.00;
  ms.line = 2;
  ToolValue us = ms;
  us.unit = "usecond";
  us.value = 2000.00;
  us.line = 9;
  EXPECT_NO_THROW(r.require_same(ms, us, "f"));
  us.value = 2004.0;  // within ncu's three printed digits of 2.00 ms
  EXPECT_NO_THROW(r.require_same(ms, us, "f"));
  us.value = 2100.0;
  EXPECT_NE(error_of([&] { r.require_same(ms, us, "f"); })
                .find("is given again (line 2) with "
                      "another value"),
            std::string::npos);
  ToolValue bytes = ms;
  bytes.unit = "Mbyte";
  bytes.value = 2.00;
  EXPECT_THROW(r.require_same(ms, bytes, "f"), InputError);  // another dimension, never equal
}

TEST(ImportInput, NcuUnits) {
  EXPECT_DOUBLE_EQ(ncu_unit("Kbyte", "w").scale, 1e3);
  EXPECT_DOUBLE_EQ(ncu_unit("KB", "w").scale, 1e3);
  EXPECT_DOUBLE_EQ(ncu_unit("Mbyte", "w").scale, 1e6);
  EXPECT_DOUBLE_EQ(ncu_unit("GB", "w").scale, 1e9);
  EXPECT_DOUBLE_EQ(ncu_unit("KiB", "w").scale, 1024);
  EXPECT_DOUBLE_EQ(ncu_unit("usecond", "w").scale, 1e-6);
  EXPECT_DOUBLE_EQ(ncu_unit("us", "w").scale, 1e-6);
  EXPECT_DOUBLE_EQ(ncu_unit("msecond", "w").scale, 1e-3);
  EXPECT_DOUBLE_EQ(ncu_unit("ms", "w").scale, 1e-3);
  EXPECT_DOUBLE_EQ(ncu_unit("nsecond", "w").scale, 1e-9);
  EXPECT_DOUBLE_EQ(ncu_unit("ns", "w").scale, 1e-9);
  EXPECT_DOUBLE_EQ(ncu_unit("s", "w").scale, 1);
  EXPECT_DOUBLE_EQ(ncu_unit("cycle/nsecond", "w").scale, 1e9);
  EXPECT_DOUBLE_EQ(ncu_unit("cycle/second", "w").scale, 1);
  EXPECT_DOUBLE_EQ(ncu_unit("byte/s", "w").scale, 1);
  EXPECT_DOUBLE_EQ(ncu_unit("Gbyte/second", "w").scale, 1e9);
  EXPECT_DOUBLE_EQ(ncu_unit("Tbyte/second", "w").scale, 1e12);
  // Clock rates as ncu prints them: "m" in a hertz unit is mega.
  EXPECT_DOUBLE_EQ(ncu_unit("Ghz", "w").scale, 1e9);
  EXPECT_DOUBLE_EQ(ncu_unit("GHz", "w").scale, 1e9);
  EXPECT_DOUBLE_EQ(ncu_unit("Mhz", "w").scale, 1e6);
  EXPECT_DOUBLE_EQ(ncu_unit("mhz", "w").scale, 1e6);
  EXPECT_DOUBLE_EQ(ncu_unit("hz", "w").scale, 1);
  EXPECT_DOUBLE_EQ(ncu_unit("inst/cycle", "w").scale, 1);
  EXPECT_DOUBLE_EQ(ncu_unit("register/thread", "w").scale, 1);
  EXPECT_DOUBLE_EQ(ncu_unit("%", "w").scale, 1);
  EXPECT_EQ(error_of([] { ncu_unit("furlong", "w"); }), "w: unknown unit 'furlong'");
  EXPECT_THROW(ncu_unit("Xhz", "w"), InputError);
  EXPECT_THROW(ncu_unit("K%", "w"), InputError);
}

TEST(ImportInput, NcuUnitDimensions) {
  // byte^b second^s: what a metric's value may be checked against.
  auto dim = [](const char* u) {
    const NcuUnit n = ncu_unit(u, "w");
    return std::tuple{n.bytes, n.seconds, n.percent};
  };
  EXPECT_EQ(dim("Gbyte"), std::tuple(1, 0, false));
  EXPECT_EQ(dim("bit"), std::tuple(1, 0, false));
  EXPECT_EQ(dim("usecond"), std::tuple(0, 1, false));
  EXPECT_EQ(dim("Ghz"), std::tuple(0, -1, false));
  EXPECT_EQ(dim("cycle/nsecond"), std::tuple(0, -1, false));
  EXPECT_EQ(dim("Tbyte/second"), std::tuple(1, -1, false));
  EXPECT_EQ(dim("byte/cycle"), std::tuple(1, 0, false));
  EXPECT_EQ(dim("inst/cycle"), std::tuple(0, 0, false));
  EXPECT_EQ(dim("inst"), std::tuple(0, 0, false));
  EXPECT_EQ(dim(""), std::tuple(0, 0, false));
  EXPECT_EQ(dim("%"), std::tuple(0, 0, true));
  EXPECT_FALSE(ncu_unit("%", "w").same_dimension(ncu_unit("inst", "w")));
  EXPECT_TRUE(ncu_unit("KB", "w").same_dimension(ncu_unit("Gbyte", "w")));
  EXPECT_EQ(ncu_unit("msecond", "w").dimension(), "a time (second)");
  EXPECT_EQ(ncu_unit("Gbyte/second", "w").dimension(), "a bandwidth (byte/second)");
  EXPECT_THROW(ncu_unit("%/second", "w"), InputError);
}
}  // namespace ROOFLINE_UNITY_ID
