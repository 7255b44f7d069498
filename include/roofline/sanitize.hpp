#pragma once
// Text from files and arguments on its way out: to a terminal (stdout, stderr), into a CSV cell,
// into XML (SVG, HTML). One place decides what may pass raw, so no caller has to remember.
//
// Escaped, always (whatever NO_COLOR or isatty say), as JSON-style `\uXXXX` (so that escaping a
// JSON text keeps it valid JSON with the same data):
//   - C0 control characters U+0000–U+001F (ESC, BEL, CR, tab, ...), except newline where the
//     caller keeps lines (`keep_lines`), and DEL U+007F. The renderers write no tab: one in a
//     name would only shift the columns of a table, so it is shown too;
//   - C1 control characters U+0080–U+009F (8-bit CSI, OSC, ...);
//   - bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
//     U+2066–U+2069: the "Trojan Source" reordering) and U+2028/U+2029 (line separators);
//   - noncharacters (U+FDD0–U+FDEF and every U+xxFFFE/U+xxFFFF, e.g. U+FFFE, U+FFFF), which
//     XML does not allow either.
// Bytes that are not well-formed UTF-8 (stray continuation bytes, overlong forms, surrogates,
// values above U+10FFFF, truncated sequences) become `\xNN`, one per byte.
#include <string>
#include <string_view>

#include "roofline/utf8.hpp"

namespace roofline {

/// One line of text, safe for a terminal: newline is escaped too. With
/// `allow_color`, the renderers' colour sequences pass (as for terminal_safe_lines).
std::string terminal_safe(std::string_view text, bool allow_color = false);

/// Text of several lines (messages, tables, documents): newline passes, everything else (tab
/// included) as terminal_safe(). With `allow_color`, the SGR colour sequences the renderers write
/// (ESC [ codes m, codes from 0, 1, 31–37 joined by ';') pass too — nothing that moves the
/// cursor, clears the screen, retitles the window or hides text.
std::string terminal_safe_lines(std::string_view text, bool allow_color = false);

/// True when terminal_safe_lines(text) would return text unchanged.
bool is_terminal_safe(std::string_view text, bool allow_color = false);

/// A text cell of a CSV file (RFC 4180), safe to open in a spreadsheet: control and
/// bidirectional characters escaped (as terminal_safe), a leading '=', '+', '-', '@', tab or
/// CR (a formula to Excel, LibreOffice and Google Sheets) prefixed with a single quote (the
/// OWASP "CSV injection" advice), then quoted with doubled quotes when it holds ',', '"', a
/// quote-prefixed formula, or leading/trailing spaces. Numbers are not text cells: write them
/// with csv_number(). `always_quote` quotes every cell (for files whose readers expect it).
std::string csv_cell(std::string_view text, bool always_quote = false);

/// A number for a CSV cell: nine significant digits ("%.9g"); a value that is not finite is
/// an empty cell (callers check their numbers first; this keeps "inf" out of spreadsheets).
std::string csv_number(double value, int digits = 9);

/// Text for an XML text node or attribute value: terminal_safe_lines() (so no character XML
/// 1.0 forbids is left: C0 other than newline, U+FFFE/U+FFFF, ill-formed UTF-8), then
/// & < > " ' as entities.
std::string xml_text(std::string_view text);

}  // namespace roofline
