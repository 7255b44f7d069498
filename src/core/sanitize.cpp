#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace roofline {

namespace {

bool is_bidi_or_separator(char32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

/// Characters that draw nothing: a name holding one prints as another name ("gem\u200bm" as
/// "gemm"). Zero-width space, non-joiner and joiner, word joiner and the invisible operators,
/// the zero-width no-break space (a BOM), the soft hyphen, the combining grapheme joiner, the
/// Mongolian vowel separator, the Khmer inherent vowels, the Hangul fillers, the interlinear
/// annotation marks, the musical formatting controls and the tag characters.
bool is_invisible(char32_t cp) {
  return (cp >= 0x200B && cp <= 0x200D) || (cp >= 0x2060 && cp <= 0x2064) || cp == 0xFEFF ||
         cp == 0x00AD || cp == 0x034F || cp == 0x180E || cp == 0x17B4 || cp == 0x17B5 ||
         cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 ||
         (cp >= 0xFFF9 && cp <= 0xFFFB) || (cp >= 0x1D173 && cp <= 0x1D17A) ||
         (cp >= 0xE0000 && cp <= 0xE007F);
}

bool is_noncharacter(char32_t cp) {
  return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

/// Whether a code point is shown escaped.
bool must_escape(char32_t cp, bool keep_lines) {
  if (cp < 0x20) return !(keep_lines && cp == '\n');
  if (cp >= 0x7F && cp <= 0x9F) return true;
  return is_bidi_or_separator(cp) || is_invisible(cp) || is_noncharacter(cp);
}

void append_u(std::string& out, char32_t cp) {
  char buf[16];
  if (cp <= 0xFFFF) {
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  } else {
    // A JSON-style surrogate pair, so escaped JSON stays JSON (RFC 8259 §7).
    const char32_t v = cp - 0x10000;
    std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", static_cast<unsigned>(0xD800 + (v >> 10)),
                  static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
  }
  out += buf;
}

void append_x(std::string& out, unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(b));
  out += buf;
}

/// Length of a colour SGR sequence the renderers write at s[i] (ESC '[' codes 'm', codes from
/// 0, 1, 30–37, joined by ';'), 0 when there is none.
size_t color_sequence(std::string_view s, size_t i) {
  if (i + 2 >= s.size() || s[i] != '\033' || s[i + 1] != '[') return 0;
  size_t k = i + 2;
  while (k < s.size() && k - i < 24) {
    size_t start = k;
    while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
    const std::string_view code = s.substr(start, k - start);
    const bool known = code == "0" || code == "1" ||
                       (code.size() == 2 && code[0] == '3' && code[1] >= '0' && code[1] <= '7');
    if (!known) return 0;
    if (k < s.size() && s[k] == 'm') return k + 1 - i;
    if (k < s.size() && s[k] == ';') {
      ++k;
      continue;
    }
    return 0;
  }
  return 0;
}

std::string sanitize(std::string_view s, bool keep_lines, bool allow_color) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    if (allow_color) {
      if (const size_t n = color_sequence(s, i)) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    }
    char32_t cp = 0;
    const size_t n = decode_utf8(s, i, cp);
    if (n == 0) {
      append_x(out, static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (must_escape(cp, keep_lines))
      append_u(out, cp);
    else
      out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace

std::string terminal_safe(std::string_view text, bool allow_color) {
  return sanitize(text, false, allow_color);
}

std::string terminal_safe_lines(std::string_view text, bool allow_color) {
  return sanitize(text, true, allow_color);
}

bool is_terminal_safe(std::string_view text, bool allow_color) {
  return sanitize(text, true, allow_color) == text;
}

std::string csv_cell(std::string_view text, bool always_quote) {
  std::string cell = terminal_safe(text);
  bool quote = always_quote;
  // A leading formula character, also after spaces (after terminal_safe, tab and CR are
  // already "\u0009", "\u000d"; the raw text decides, so a cell that began with either is
  // still neutralised).
  const size_t lead = text.find_first_not_of(' ');
  const char first = lead == std::string_view::npos ? '\0' : text[lead];
  // A text that reads as a number ("-2e5", a point's name) is text all the same: numbers are
  // csv_number's cells, never this function's.
  if (first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' ||
      first == '\r') {
    cell.insert(cell.begin(), '\'');
    quote = true;
  }
  if (cell.find_first_of(",\"") != std::string::npos) quote = true;
  if (!cell.empty() && (cell.front() == ' ' || cell.back() == ' ')) quote = true;
  if (!quote) return cell;
  std::string q = "\"";
  for (char c : cell) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_number(double value, int digits) {
  if (!std::isfinite(value)) return "";
  return printf_g(value, digits);
}

std::string xml_text(std::string_view text) {
  const std::string safe = terminal_safe_lines(text);
  std::string out;
  out.reserve(safe.size());
  for (char c : safe) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace roofline
