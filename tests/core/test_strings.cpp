// The small text helpers every layer shares (roofline/strings.hpp).
#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "roofline/strings.hpp"
#include "roofline/table.hpp"

using namespace roofline;

TEST(Strings, JoinPutsTheSeparatorBetweenEachTwoPartsOnly) {
  EXPECT_EQ(join({}), "");
  EXPECT_EQ(join({"a"}), "a");
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join({"x", "y"}, " | "), "x | y");
  // An empty part keeps its place: the separators still count the parts.
  EXPECT_EQ(join({"", "b"}), ", b");
  EXPECT_EQ(join({"a", "", "c"}, "/"), "a//c");
}

TEST(Strings, JoinOfTextsOfAnyRange) {
  struct Roof {
    std::string name;
    int n;
  };
  const std::vector<Roof> roofs = {{"fp32", 1}, {"", 2}, {"fp64", 3}};
  EXPECT_EQ(join(roofs, [](const Roof& r) { return r.name; }), "fp32, , fp64");
  EXPECT_EQ(join(
                roofs, [](const Roof& r) { return std::to_string(r.n); }, "+"),
            "1+2+3");
  EXPECT_EQ(join(std::set<std::string>{"b", "a"}), "a, b");
  EXPECT_EQ(join(std::vector<int>{}, [](int i) { return std::to_string(i); }), "");
  const char* const names[] = {"x", "y"};
  EXPECT_EQ(join(names, [](const char* p) { return p; }), "x, y");
}

TEST(Strings, SplitKeepsEmptyPartsSoAListCanBeRefused) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split("fp64,fp32"), (V{"fp64", "fp32"}));
  EXPECT_EQ(split("a,,b"), (V{"a", "", "b"}));
  EXPECT_EQ(split("a,"), (V{"a", ""}));
  EXPECT_EQ(split(",a"), (V{"", "a"}));
  EXPECT_EQ(split(""), (V{""}));
  EXPECT_EQ(split("a b;c", ';'), (V{"a b", "c"}));
  EXPECT_EQ(join(split("L1, DRAM"), ","), "L1, DRAM");
}

TEST(Strings, LowerAndTrimTouchOnlyAscii) {
  EXPECT_EQ(lower("H100-SXM Ä"), "h100-sxm Ä");
  EXPECT_EQ(trim(" \t\r\n x y \v\f"), "x y");
  EXPECT_EQ(trim("   "), "");
  EXPECT_EQ(upper("h100-sxm ä kib"), "H100-SXM ä KIB");
  // Blanks only: space and tab, not line ends.
  EXPECT_EQ(trim_blanks(" \t x y\t "), "x y");
  EXPECT_EQ(trim_blanks("\r\n x \n"), "\r\n x \n");
  EXPECT_EQ(trim_blanks(" \t "), "");
  EXPECT_EQ(trim_blanks(""), "");
}

TEST(Strings, CaseBlindComparisonsOfAsciiLetters) {
  EXPECT_TRUE(iequals("HBM3", "hbm3"));
  EXPECT_FALSE(iequals("HBM", "HBM3"));
  EXPECT_FALSE(iequals("Ä", "ä"));  // only ASCII letters fold
  EXPECT_TRUE(iends_with("out/Report.JSON", ".json"));
  EXPECT_FALSE(iends_with("out/report.json.txt", ".json"));
  EXPECT_FALSE(iends_with("json", ".json"));
}

TEST(Table, NumbersRightTextLeftANameStartingWithADigitIsText) {
  // `kernel list` pushed "5-point 2D stencil" ~60 columns right: a name that starts with a
  // digit is text; numbers with units, percents and ratios stay right-aligned.
  Table t({"name", "what", "rate", "ratio"});
  t.add_row({"stencil2d", "5-point 2D stencil", "12.63 TOP/s", "1x"});
  t.add_row({"gemm", "dense matrix product", "1e+09", "1.718x"});
  t.add_row({"3x3 conv", "convolution", "2.5%", "-"});
  EXPECT_EQ(t.render(),
            "name       what                  rate         ratio\n"
            "────────────────────────────────────────────────────\n"
            "stencil2d  5-point 2D stencil    12.63 TOP/s      1x\n"
            "gemm       dense matrix product        1e+09  1.718x\n"
            "3x3 conv   convolution                  2.5%  -\n");
}

// A wide character takes two terminal columns and a combining accent none: a machine named in
// Chinese or Korean pushed its row's next columns out of line (it was counted one per code point).
TEST(Table, WideAndCombiningCharactersAlign) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("\u6771\u4eac"), 4u);         // 東京
  EXPECT_EQ(display_width("\ud55c\uad6d"), 4u);         // 한국
  EXPECT_EQ(display_width("e\u0301"), 1u);              // e + combining acute
  EXPECT_EQ(display_width("\xef\xbc\xa1"), 2u);         // Ａ fullwidth
  EXPECT_EQ(display_width("\U0001F680"), 2u);           // 🚀
  EXPECT_EQ(display_width("I\u00b7\u00b2\u2248"), 4u);  // I·²≈
  EXPECT_EQ(display_width("\033[31mred\033[0m"), 3u);
  // Bytes that are no UTF-8 take a column each; a cut sequence does not swallow what follows.
  EXPECT_EQ(display_width("\xE4"
                          "AB"),
            3u);
  EXPECT_EQ(display_width("\xE4\xB8"
                          "A"),
            3u);
  EXPECT_EQ(display_width("\xFF\xFF"), 2u);
  Table t({"machine", "peak"});
  t.add_row({"\u6771\u4eac-1", "1 TFLOP/s"});
  t.add_row({"tokyo-1", "2 TFLOP/s"});
  EXPECT_EQ(t.render(),
            "machine  peak\n"
            "──────────────────\n"
            "\u6771\u4eac-1   1 TFLOP/s\n"
            "tokyo-1  2 TFLOP/s\n");
}

// A name holding a colour sequence is text, escaped and measured escaped: it passed as colour,
// took no width, and once the output's final pass escaped it every later column shifted. A
// name written exactly as a coloured cell is text too; colour comes from add_row's codes only,
// the padding outside it.
TEST(Table, ANameHoldingEscapesIsMeasuredAsShown) {
  Table t({"name", "peak"});
  t.add_row({"\033[31mRED\033[0m\a", "1 TFLOP/s"});
  t.add_row({"\033[31mRED\033[0m", "2 TFLOP/s"});
  t.add_row({"\033[1mB", "3 TFLOP/s"});
  t.add_row({"ok", "4 TFLOP/s"}, {"32"});
  t.add_row({"plain", "5 TFLOP/s"}, {"", "31"});
  EXPECT_EQ(t.render(),
            "name                          peak\n"
            "───────────────────────────────────────\n"
            "\\u001b[31mRED\\u001b[0m\\u0007  1 TFLOP/s\n"
            "\\u001b[31mRED\\u001b[0m        2 TFLOP/s\n"
            "\\u001b[1mB                    3 TFLOP/s\n"
            "\033[32mok\033[0m                            4 TFLOP/s\n"
            "plain                         \033[31m5 TFLOP/s\033[0m\n");
  // Every line is as wide as it is printed: the columns line up once colour is taken away.
  Table named({"", "point", "I"});
  for (const char* name : {"k1", "\033[31mRED\033[0m", "\033[1mB", "kernel long name"})
    named.add_row({"A", name, "0.25"});
  std::string shown = named.render();
  size_t from = shown.find('\n', shown.find('\n') + 1) + 1;  // after the rule
  for (size_t at; (at = shown.find('\n', from)) != std::string::npos; from = at + 1)
    EXPECT_EQ(display_width(shown.substr(from, at - from)), 3u + 22u + 2u + 4u)
        << shown.substr(from, at - from);
}

// Numbers given as text are decimal: strtod and CLI11 read "0x10" as 16, "0x1p-1" as 0.5.
TEST(Strings, DecimalNumbersOnly) {
  EXPECT_EQ(decimal_number("8"), 8.0);
  EXPECT_EQ(decimal_number(" -1.5 "), -1.5);
  EXPECT_EQ(decimal_number("+2"), 2.0);
  EXPECT_EQ(decimal_number("4e3"), 4000.0);
  for (const char* bad : {"", " ", "+", "+-1", "0x10", "-0X1p-1", "0b101", "0o17", "1e400", "inf",
                          "nan", "8 GB", "8,", "1..2"})
    EXPECT_FALSE(decimal_number(bad).has_value()) << bad;
  EXPECT_TRUE(has_base_prefix("+0x1"));
  EXPECT_FALSE(has_base_prefix("0"));
  EXPECT_FALSE(has_base_prefix("0.5"));
  EXPECT_FALSE(has_base_prefix("10x"));
}

TEST(Strings, EditDistanceCountsASwapOfNeighboursAsOne) {
  EXPECT_EQ(edit_distance("precison", "precision"), 1u);  // a letter left out
  EXPECT_EQ(edit_distance("wieght", "weight"), 1u);       // two neighbours swapped
  EXPECT_EQ(edit_distance("noise", "note"), 2u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("h100", "h100"), 0u);
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);  // optimal string alignment: no edit of a swap
}

TEST(Strings, ParseDoubleCReadsAsStrtodInTheCLocale) {
  auto read = [](const char* text) {
    const char* end = nullptr;
    const double v = parse_double_c(text, &end);
    return std::make_pair(v, std::string(end));
  };
  EXPECT_EQ(read("  +1.5e3xyz"), std::make_pair(1500.0, std::string("xyz")));
  EXPECT_EQ(read("-2.25 TB/s"), std::make_pair(-2.25, std::string(" TB/s")));
  EXPECT_EQ(read(".5"), std::make_pair(0.5, std::string("")));
  // Nothing read: `end` is the text itself.
  EXPECT_EQ(read("+-1").second, "+-1");
  EXPECT_EQ(read("x1").second, "x1");
  EXPECT_EQ(read("").second, "");
  // Decimal only: "0x10" is the number 0 followed by "x10".
  EXPECT_EQ(read("0x10"), std::make_pair(0.0, std::string("x10")));
  // Beyond a double's range, as strtod: ±inf above, ±0 below.
  EXPECT_EQ(read("1e400").first, HUGE_VAL);
  EXPECT_EQ(read("-1e400").first, -HUGE_VAL);
  EXPECT_EQ(read("1e-400").first, 0.0);
  EXPECT_TRUE(std::signbit(read("-1e-400").first));
  EXPECT_EQ(read("1e-400").second, "");
  // Told apart by magnitude, not by the sign of the exponent alone.
  EXPECT_EQ(read(("1" + std::string(400, '0') + "e-5").c_str()).first, HUGE_VAL);
  EXPECT_EQ(read(("0." + std::string(400, '0') + "1").c_str()).first, 0.0);
  EXPECT_TRUE(std::isinf(read("inf").first));
  EXPECT_TRUE(std::isnan(read("nan").first));
}

TEST(Strings, PrintfGAndFAreThoseOfTheCLocale) {
  EXPECT_EQ(printf_g(1.5, 6), "1.5");
  EXPECT_EQ(printf_g(2.5e11, 6), "2.5e+11");
  EXPECT_EQ(printf_g(1.0 / 3, 17), "0.33333333333333331");
  EXPECT_EQ(printf_g(0.0001, 3), "0.0001");
  EXPECT_EQ(printf_f(118.15, 2), "118.15");
  EXPECT_EQ(printf_f(-0.004, 2), "-0.00");
  EXPECT_EQ(printf_f(960, 2), "960.00");
  EXPECT_EQ(printf_f(1e300, 2).size(), 304u);
}

// A program that set a decimal-comma locale (Python's locale.setlocale, a C program's
// setlocale(LC_ALL, "")): numbers are still read and written with a point. printf_g had written
// "960," into an SVG's width, and parse_quantity read "19.5 TFLOP/s" as 19 and ".5 TFLOP/s".
TEST(Strings, NumbersIgnoreADecimalCommaLocale) {
  const std::string dir = ::testing::TempDir() + "roofline-locale";
  std::filesystem::create_directories(dir);
  const std::string make = "localedef -i de_DE -f UTF-8 '" + dir + "/de_DE.UTF-8' > /dev/null 2>&1";
  if (std::system(make.c_str()) != 0)
    GTEST_SKIP() << "localedef cannot make de_DE.UTF-8 (Debian's locales package is missing)";
  ::setenv("LOCPATH", dir.c_str(), 1);
  const std::string before = std::setlocale(LC_NUMERIC, nullptr);
  ASSERT_NE(std::setlocale(LC_NUMERIC, "de_DE.UTF-8"), nullptr);
  char comma[16];
  std::snprintf(comma, sizeof comma, "%g", 1.5);
  const std::string via_printf = comma;
  const std::string g = printf_g(1.5, 6), f = printf_f(960, 2);
  const char* end = nullptr;
  const double read = parse_double_c("19.5 TFLOP/s", &end);
  std::setlocale(LC_NUMERIC, before.c_str());
  ::unsetenv("LOCPATH");
  ASSERT_EQ(via_printf, "1,5") << "the locale did not take effect";
  EXPECT_EQ(g, "1.5");
  EXPECT_EQ(f, "960.00");
  EXPECT_EQ(read, 19.5);
  EXPECT_STREQ(end, " TFLOP/s");
}

// One cut for every terminal line (the terminal chart's names and titles, measure's progress
// line): columns as display_width counts them, the ellipsis in the last one.
TEST(CutToColumns, CutsByColumnsNotBytesAndKeepsCharactersWhole) {
  EXPECT_EQ(cut_to_columns("abcdef", 6), "abcdef");
  EXPECT_EQ(cut_to_columns("abcdef", 4), "abc…");
  EXPECT_EQ(cut_to_columns("abcdef", 1), "…");
  EXPECT_EQ(cut_to_columns("abcdef", 0), "");
  // Wide characters take two columns: a third would not leave room for the ellipsis.
  EXPECT_EQ(cut_to_columns("漢字漢字", 6), "漢字…");
  EXPECT_EQ(cut_to_columns("漢字漢字", 4), "漢…");
  EXPECT_EQ(display_width(cut_to_columns("漢字漢字", 5)), 5u);
  // A combining accent takes no column and stays with its base.
  const std::string e = "e\u0301";
  EXPECT_EQ(cut_to_columns(e + e + e, 3), e + e + e);
  EXPECT_EQ(cut_to_columns(e + e + e, 2), e + "…");
}
