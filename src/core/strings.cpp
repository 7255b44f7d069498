#include "roofline/strings.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {

namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
}  // namespace

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && lower(a) == lower(b);
}

bool iends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

std::string_view trim_blanks(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool has_base_prefix(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_space(s[i])) ++i;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i + 1 >= s.size() || s[i] != '0') return false;
  const char b = static_cast<char>(s[i + 1] | 0x20);  // ASCII lower case
  return b == 'x' || b == 'b' || b == 'o';
}

std::optional<double> decimal_number(std::string_view s) {
  const std::string t = trim(s);
  if (t.empty() || has_base_prefix(t)) return std::nullopt;
  // from_chars reads decimal only (no hexadecimal, no locale) and takes no '+'.
  const std::size_t start = t[0] == '+' ? 1 : 0;
  if (start == 1 && (t.size() == 1 || t[1] == '-' || t[1] == '+')) return std::nullopt;
  double v = 0;
  const char* first = t.data() + start;
  const char* last = t.data() + t.size();
  const auto r = std::from_chars(first, last, v);
  if (r.ec != std::errc() || r.ptr != last || !std::isfinite(v)) return std::nullopt;
  return v;
}

namespace {
// Whether a decimal number's text, out of a double's range, is too small rather than too large:
// its exponent is negative, or it has none and no non-zero digit before the point.
bool underflows(std::string_view number) {
  const auto e = number.find_first_of("eE");
  if (e != std::string_view::npos) return e + 1 < number.size() && number[e + 1] == '-';
  for (char c : number) {
    if (c == '.') return true;
    if (c >= '1' && c <= '9') return false;
  }
  return true;
}
}  // namespace

double parse_double_c(const char* text, const char** end) {
  const char* p = text;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
  const bool plus = *p == '+';
  if (plus) ++p;
  *end = text;
  if (plus && *p == '-') return 0;  // "+-1": strtod reads nothing
  const char* last = p;
  while (*last != '\0') ++last;
  double v = 0;
  const auto r = std::from_chars(p, last, v);
  if (r.ptr == p) return 0;
  *end = r.ptr;
  if (r.ec == std::errc::result_out_of_range) {
    const bool negative = *p == '-';
    // A long double (exponents to ±4932 on x86) tells too large from too small; beyond it, the
    // text's own form does.
    long double wide = 0;
    const auto w = std::from_chars(p, last, wide);
    const bool small = w.ec == std::errc() && w.ptr == r.ptr
                           ? std::fabs(wide) < 1.0L
                           : underflows(std::string_view(p, static_cast<std::size_t>(r.ptr - p)));
    v = small ? 0.0 : HUGE_VAL;
    return negative ? -v : v;
  }
  return v;
}

std::string printf_g(double v, int digits) {
  // %.*g writes at most the digits asked for, a sign, a point and a 5-character exponent; past
  // 17 the digits are zeros a double does not hold.
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general,
                               std::clamp(digits, 0, 40));
  if (r.ec != std::errc()) return "nan";  // unreachable: the buffer holds any of them
  return std::string(buf, r.ptr);
}

std::string printf_f(double v, int decimals) {
  // Fixed notation of a double needs up to 309 digits before the point.
  char buf[400];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  if (r.ec != std::errc()) return printf_g(v, 17);
  return std::string(buf, r.ptr);
}

std::vector<std::string> split(std::string_view s, char separator) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == separator)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

void require_one_line(std::string_view name, const std::string& what) {
  static const std::string_view breaks[] = {"\n", "\r", "\xe2\x80\xa8", "\xe2\x80\xa9"};
  for (std::string_view b : breaks)
    if (name.find(b) != std::string_view::npos)
      throw InputError(what + " '" + terminal_safe(name) +
                       "' must be one line (it contains a line break)");
}

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein with a swap of two neighbours as one edit ("wieght").
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace roofline
