#pragma once
// Small text helpers every layer uses, in one place. ASCII only: other bytes (UTF-8 included)
// pass unchanged, so names from files keep their characters.
#include <concepts>
#include <functional>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

/// `s` with the ASCII letters A–Z in lower case.
std::string lower(std::string_view s);
/// `s` with the ASCII letters a–z in upper case.
std::string upper(std::string_view s);

/// Whether `a` and `b` are the same text but for the case of ASCII letters ("HBM", "hbm").
bool iequals(std::string_view a, std::string_view b);

/// Whether `s` ends with `suffix`, ASCII letters in either case (".JSON", ".json").
bool iends_with(std::string_view s, std::string_view suffix);

/// `s` without leading and trailing ASCII white space (space, \t, \n, \v, \f, \r).
std::string trim(std::string_view s);
/// `s` without leading and trailing blanks (space and \t) only: a line break stays. A view of `s`.
std::string_view trim_blanks(std::string_view s);

/// The parts of `s` between `separator`s, empty ones kept: "a,,b" → {"a", "", "b"}, "a," →
/// {"a", ""}, "" → {""} — so that a list with an empty name can be refused, not shortened.
std::vector<std::string> split(std::string_view s, char separator = ',');

/// The whole of `s` (white space around it aside) read as a finite decimal number ("8", "-1.5",
/// "4e3", "+2"); nullopt for anything else — an empty text, trailing characters, inf, nan, and
/// the hexadecimal, binary and octal forms ("0x10", "0b1", "0o7") that strtod or CLI11 would
/// read as numbers, which on a command line are more often typos than wishes.
std::optional<double> decimal_number(std::string_view s);
/// Whether `s` starts (after a sign) with a base prefix: 0x, 0b or 0o, either case.
bool has_base_prefix(std::string_view s);

/// strtod as in the "C" locale, whatever locale the process set (a Python program that called
/// locale.setlocale for a decimal comma reads "19.5" as 19 with strtod): skips leading ASCII
/// blanks, reads an optional sign and a decimal number, "inf" or "nan" (no hexadecimal), and
/// gives in `end` where it stopped (`text` when it read nothing). A value beyond a double's range
/// reads as ±inf, one below it as ±0, as strtod's.
double parse_double_c(const char* text, const char** end);

/// printf's "%.*g" and "%.*f" as in the "C" locale, whatever locale the process set (a decimal
/// comma had written "960," into an SVG's width): std::to_chars.
std::string printf_g(double v, int digits);
std::string printf_f(double v, int decimals);

/// The parts with `separator` between each two ("a, b, c"); empty for no parts.
std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");
/// The texts `text(part)` of the parts (the parts themselves by default: a std::set of names) with
/// `separator` between each two ("a, b, c"). Every text is written, an empty one too: "a, , b".
template <std::ranges::input_range Range, class Text = std::identity>
requires std::invocable<Text&, std::ranges::range_reference_t<const Range&>> std::string join(
    const Range& parts, Text text = {}, std::string_view separator = ", ") {
  std::string out;
  bool first = true;
  for (auto&& part : parts) {
    if (!first) out += separator;
    out += text(part);
    first = false;
  }
  return out;
}

/// Throws InputError when `name` spans more than one line (a line feed, carriage return, or the
/// Unicode separators U+2028, U+2029): a name is printed inside sentences, so one with
/// a line break could forge a line of output ("roofline check: passed"). `what` says what the
/// name is ("point name", "machine 'm': compute roof"); the message shows the name escaped.
void require_one_line(std::string_view name, const std::string& what);

/// Edit distance (insertions, deletions, substitutions of bytes and swaps of two neighbours:
/// optimal string alignment): how far a typed name is from a known one ("did you mean").
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace roofline
