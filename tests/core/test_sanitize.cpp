// The sanitisers of text bound for a terminal, a CSV cell and XML (roofline/sanitize.hpp).
// Expected escapes are the code points of the Unicode standard (U+202E RIGHT-TO-LEFT OVERRIDE
// is E2 80 AE in UTF-8; U+009B, the 8-bit CSI, is C2 9B) and the forms RFC 3629 rules out.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "roofline/sanitize.hpp"

using namespace roofline;

TEST(Sanitize, TerminalEscapesControlAndBidiCharacters) {
  // OSC retitle, BEL, CSI clear screen: every ESC and BEL shown, nothing raw.
  EXPECT_EQ(terminal_safe("\x1b]0;pwned\x07\x1b[2Jx"), "\\u001b]0;pwned\\u0007\\u001b[2Jx");
  EXPECT_EQ(terminal_safe("a\rb\x7f"), "a\\u000db\\u007f");
  EXPECT_EQ(terminal_safe("line\nnext\tcol"), "line\\u000anext\\u0009col");
  EXPECT_EQ(terminal_safe_lines("line\nnext\tcol\r"), "line\nnext\\u0009col\\u000d");
  // C1 controls (U+0085 NEL, U+009B CSI), bidirectional overrides and isolates, line separators.
  EXPECT_EQ(terminal_safe("\xc2\x85\xc2\x9b"), "\\u0085\\u009b");
  EXPECT_EQ(terminal_safe("\xe2\x80\xae"
                          "cba"),
            "\\u202ecba");
  for (const char* bidi : {"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad",
                           "\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9",
                           "\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c", "\xe2\x80\xa8"})
    EXPECT_EQ(terminal_safe(bidi).rfind("\\u", 0), 0u) << terminal_safe(bidi);
  // Noncharacters, which XML forbids.
  EXPECT_EQ(terminal_safe("\xef\xbf\xbe\xef\xbf\xbf"), "\\ufffe\\uffff");
  EXPECT_EQ(terminal_safe("\xf4\x8f\xbf\xbf"), "\\udbff\\udfff");  // U+10FFFF
  // Characters that draw nothing: "gem\u200bm" printed as "gemm" beside the real gemm.
  EXPECT_EQ(terminal_safe("gem\xe2\x80\x8bm"), "gem\\u200bm");
  for (const char* invisible : {"\xe2\x80\x8c", "\xe2\x80\x8d", "\xe2\x81\xa0", "\xe2\x81\xa4",
                                "\xef\xbb\xbf", "\xe1\xa0\x8e", "\xe3\x85\xa4", "\xf3\xa0\x80\x81",
                                "\xc2\xad", "\xcd\x8f", "\xef\xbf\xb9", "\xf0\x9d\x85\xb3"})
    EXPECT_EQ(terminal_safe(invisible).rfind("\\u", 0), 0u) << terminal_safe(invisible);
}

TEST(Sanitize, TerminalKeepsOrdinaryTextAndReplacesIllFormedUtf8) {
  const std::string ok = "H100 SXM · 989 TFLOP/s ≈ π, Ωμ, 日本語, 😀, ÿ";
  EXPECT_EQ(terminal_safe(ok), ok);
  EXPECT_TRUE(is_terminal_safe(ok));
  // A raw 0x9B byte is CSI on an 8-bit terminal; overlong '/', a surrogate, a truncated
  // sequence, bytes above U+10FFFF: one \xNN per byte.
  EXPECT_EQ(terminal_safe("\x9b"
                          "2J"),
            "\\x9b2J");
  EXPECT_EQ(terminal_safe("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(terminal_safe("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(terminal_safe("ab\xe2\x80"), "ab\\xe2\\x80");
  EXPECT_EQ(terminal_safe("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
  EXPECT_FALSE(is_terminal_safe("\x1b[2J"));
}

TEST(Sanitize, ColourPassesOnlyAsTheRenderersWriteIt) {
  const std::string bold = "\x1b[1mname\x1b[0m", red = "\x1b[31;1mx\x1b[0m";
  EXPECT_EQ(terminal_safe_lines(bold, true), bold);
  EXPECT_EQ(terminal_safe_lines(red, true), red);
  EXPECT_EQ(terminal_safe_lines(bold, false), "\\u001b[1mname\\u001b[0m");
  // Not colour: cursor movement, clear screen, conceal, a title, 256-colour, a lone ESC.
  for (const char* not_colour :
       {"\x1b[2J", "\x1b[H", "\x1b[8m", "\x1b]0;t\x07", "\x1b[38;5;1m", "\x1b", "\x1b[31"})
    EXPECT_EQ(terminal_safe_lines(not_colour, true).find('\x1b'), std::string::npos)
        << terminal_safe_lines(not_colour, true);
}

TEST(Sanitize, EscapedJsonIsTheSameJson) {
  // Every escape is a JSON escape, so a dumped document read back holds the same strings.
  const std::string name =
      "a\x7f\xc2\x9b\xe2\x80\xae\xef\xbf\xbe\xf4\x8f\xbf\xbf\\u202e\"\x1b"
      "end";
  const nlohmann::json doc = {{"name", name}, {"list", {name, 1.5}}};
  const std::string text = doc.dump(2);
  const std::string safe = terminal_safe_lines(text);
  EXPECT_TRUE(is_terminal_safe(safe));
  EXPECT_EQ(safe.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(safe), doc);
}

TEST(Sanitize, CsvCellsQuoteAndDisarmFormulas) {
  EXPECT_EQ(csv_cell("plain"), "plain");
  EXPECT_EQ(csv_cell("a,b\"c"), "\"a,b\"\"c\"");  // RFC 4180: quoted, quote doubled
  EXPECT_EQ(csv_cell(" padded "), "\" padded \"");
  EXPECT_EQ(csv_cell("x", true), "\"x\"");
  // OWASP CSV injection: a leading = + - @ tab or CR makes a formula; a quote disarms it.
  EXPECT_EQ(csv_cell("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(csv_cell("+1+2"), "\"'+1+2\"");
  EXPECT_EQ(csv_cell("-2+3"), "\"'-2+3\"");
  EXPECT_EQ(csv_cell("@SUM(A1)"), "\"'@SUM(A1)\"");
  EXPECT_EQ(csv_cell("\t=1"), "\"'\\u0009=1\"");
  EXPECT_EQ(csv_cell("\r=1"), "\"'\\u000d=1\"");
  EXPECT_EQ(csv_cell("  =1"), "\"'  =1\"");
  // A text cell that reads as a number (a point named "-2e5") is text: quoted as any other;
  // numbers are csv_number's cells, which keep their sign bare.
  EXPECT_EQ(csv_cell("-1.5e+09"), "\"'-1.5e+09\"");
  EXPECT_EQ(csv_cell("+3"), "\"'+3\"");
  EXPECT_EQ(csv_number(-1.5e9), "-1.5e+09");
  // Newlines and control characters do not break rows.
  EXPECT_EQ(csv_cell("two\nlines"), "two\\u000alines");
  EXPECT_EQ(csv_number(1.95e13), "1.95e+13");
  EXPECT_EQ(csv_number(0.25), "0.25");
  EXPECT_EQ(csv_number(1.0 / 0.0), "");
}

TEST(Sanitize, XmlTextHasOnlyXmlCharacters) {
  EXPECT_EQ(xml_text("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  // XML 1.0 §2.2 Char: no C0 other than tab, LF, CR; no U+FFFE/U+FFFF; no ill-formed bytes.
  const std::string x = xml_text("n\x01\x1b\xef\xbf\xbe\xef\xbf\xbf\xc0\xaf\tok\n");
  // A tab is shown as its escape too (as on the terminal), a newline is kept.
  EXPECT_EQ(x, "n\\u0001\\u001b\\ufffe\\uffff\\xc0\\xaf\\u0009ok\n");
  for (char ch : x) {
    const auto c = static_cast<unsigned char>(ch);
    EXPECT_TRUE(c >= 0x20 || c == 0x0a) << int(c);
  }
}

// Text cut to fit is cut between characters: "é" is two bytes, and a cut after its first byte
// left "\xc3" (a Python message echoed a value so).
TEST(Sanitize, TextIsCutBetweenCharacters) {
  EXPECT_EQ(cut_at_code_point("abé", 3), "ab");
  EXPECT_EQ(cut_at_code_point("abé", 4), "abé");
  EXPECT_EQ(cut_at_code_point("ab€d", 4), "ab");  // € is three bytes
  EXPECT_EQ(cut_at_code_point("ab€d", 5), "ab€");
  EXPECT_EQ(cut_at_code_point("é", 0), "");
  std::string s = "a€";
  drop_last_code_point(s);
  EXPECT_EQ(s, "a");
  drop_last_code_point(s);
  EXPECT_EQ(s, "");
  drop_last_code_point(s);
  EXPECT_EQ(s, "");
}
