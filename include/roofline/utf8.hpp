#pragma once
// Well-formed UTF-8 (RFC 3629), header-only so that the marker runtime, which links nothing of
// the library, reads text by the same rule as the sanitizers (sanitize.hpp) and the JSON writer.
#include <cstddef>
#include <string>
#include <string_view>

namespace roofline {

/// Decodes one well-formed UTF-8 sequence at s[i] into `cp` (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF). Returns its length, 0 when the bytes there are not
/// well-formed.
inline std::size_t decode_utf8(std::string_view s, std::size_t i, char32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  std::size_t len = 0;
  char32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;  // a continuation byte or 0xF8..0xFF where a sequence should start
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

/// Removes the last character of `s`: its lead byte and the continuation bytes after it, so a
/// text cut to fit is never cut inside a UTF-8 sequence. Nothing when `s` is empty.
inline void drop_last_code_point(std::string& s) {
  if (s.empty()) return;
  std::size_t cut = s.size() - 1;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.erase(cut);
}

/// The longest start of `s` of at most `max_bytes` bytes that ends between two characters.
inline std::string cut_at_code_point(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut));
}

}  // namespace roofline
