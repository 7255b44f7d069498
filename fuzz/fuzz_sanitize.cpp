// Fuzzes the sanitisers (roofline/sanitize.hpp) with arbitrary bytes and checks what they
// promise: terminal text holds no control, C1, bidirectional or noncharacter code point and is
// well-formed UTF-8, and sanitising twice changes nothing; a JSON text stays the same JSON; a
// CSV cell is one RFC 4180 field that a spreadsheet does not read as a formula; XML text holds
// only XML 1.0 characters and no markup.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "roofline/sanitize.hpp"

namespace {

/// Each code point of well-formed UTF-8 text; aborts on ill-formed text.
template <class F>
void for_each_code_point(const std::string& s, F&& f) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    char32_t cp = 0;
    size_t n = 1;
    if (b < 0x80) {
      cp = b;
    } else if ((b & 0xE0) == 0xC0) {
      cp = b & 0x1F, n = 2;
    } else if ((b & 0xF0) == 0xE0) {
      cp = b & 0x0F, n = 3;
    } else if ((b & 0xF8) == 0xF0) {
      cp = b & 0x07, n = 4;
    } else {
      std::abort();
    }
    if (i + n > s.size()) std::abort();
    for (size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) std::abort();
      cp = (cp << 6) | (c & 0x3F);
    }
    f(cp);
    i += n;
  }
}

void check_terminal(const std::string& out, bool lines) {
  for_each_code_point(out, [&](char32_t cp) {
    if (cp < 0x20 && !(lines && (cp == '\n' || cp == '\t'))) std::abort();
    if (cp >= 0x7F && cp <= 0x9F) std::abort();
    if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) std::abort();
    if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xD800 && cp <= 0xDFFF)) std::abort();
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s(reinterpret_cast<const char*>(data), size);

  const std::string one = roofline::terminal_safe(s);
  check_terminal(one, false);
  if (roofline::terminal_safe(one) != one) std::abort();
  const std::string lines = roofline::terminal_safe_lines(s);
  check_terminal(lines, true);
  if (!roofline::is_terminal_safe(lines)) std::abort();

  // JSON: a document holding the text (when it is UTF-8) reads back the same after escaping.
  try {
    const nlohmann::json doc = {{"name", s}, {"list", {s, 1}}};
    const std::string text = doc.dump(2);
    if (nlohmann::json::parse(roofline::terminal_safe_lines(text)) != doc) std::abort();
  } catch (const nlohmann::json::type_error&) {
    // not UTF-8: nlohmann refuses to dump it, and so do the writers
  }

  // CSV: one field, not a formula.
  const std::string cell = roofline::csv_cell(s);
  std::string value;
  if (!cell.empty() && cell.front() == '"') {
    if (cell.size() < 2 || cell.back() != '"') std::abort();
    for (size_t i = 1; i + 1 < cell.size(); ++i) {
      if (cell[i] == '"') {
        if (cell[i + 1] != '"') std::abort();  // a lone quote would end the field
        ++i;
      }
      value += cell[i];
    }
  } else {
    if (cell.find_first_of(",\"\r\n") != std::string::npos) std::abort();
    value = cell;
  }
  check_terminal(value, false);
  const size_t lead = value.find_first_not_of(' ');
  if (lead != std::string::npos) {
    const char c = value[lead];
    const bool number = value.find_first_not_of("+-.0123456789eE") == std::string::npos;
    if (c == '=' || c == '@' || ((c == '+' || c == '-') && !number)) std::abort();
  }

  // XML: characters of XML 1.0 only, and no markup of the input left.
  const std::string xml = roofline::xml_text(s);
  check_terminal(xml, true);
  if (xml.find_first_of("<>\"'") != std::string::npos) std::abort();
  for (size_t at = xml.find('&'); at != std::string::npos; at = xml.find('&', at + 1)) {
    const std::string rest = xml.substr(at, 6);
    if (rest.rfind("&amp;", 0) != 0 && rest.rfind("&lt;", 0) != 0 && rest.rfind("&gt;", 0) != 0 &&
        rest.rfind("&quot;", 0) != 0 && rest.rfind("&#39;", 0) != 0)
      std::abort();
  }
  return 0;
}
