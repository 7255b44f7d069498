#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "roofline/error.hpp"

namespace roofline {
namespace {

struct Prefix {
  std::string_view symbol;
  double factor;
};
// Longest first so "Ki" wins over "K"/"k".
constexpr std::array<Prefix, 19> kPrefixes{{{"Ei", 1152921504606846976.0},
                                            {"Pi", 1125899906842624.0},
                                            {"Ti", 1099511627776.0},
                                            {"Gi", 1073741824.0},
                                            {"Mi", 1048576.0},
                                            {"Ki", 1024.0},
                                            {"E", 1e18},
                                            {"P", 1e15},
                                            {"T", 1e12},
                                            {"G", 1e9},
                                            {"M", 1e6},
                                            {"k", 1e3},
                                            {"K", 1e3},
                                            {"m", 1e-3},
                                            {"u", 1e-6},
                                            {"\u00b5", 1e-6},  // µ MICRO SIGN, as typed "µs"
                                            {"\u03bc", 1e-6},  // μ GREEK SMALL LETTER MU
                                            {"n", 1e-9},
                                            {"p", 1e-12}}};

// Unit names accepted per dimension (compared case-insensitively). "FLOPS" is accepted on input
// as a rate because datasheets write it; output always says "FLOP/s".
const std::vector<std::string>& units_of(Dimension d) {
  static const std::vector<std::string> count{""};
  static const std::vector<std::string> work{"flop", "flops_total", "op", "ops_total"};
  static const std::vector<std::string> bytes{"b", "byte", "bytes"};
  static const std::vector<std::string> seconds{"s", "sec", "second", "seconds"};
  static const std::vector<std::string> work_rate{"flop/s", "flops", "op/s", "ops", "flop/sec"};
  static const std::vector<std::string> byte_rate{"b/s", "byte/s", "bytes/s", "bps"};
  static const std::vector<std::string> intensity{"flop/b", "flop/byte", "op/b", "op/byte"};
  static const std::vector<std::string> energy_per_work{"j",      "joule", "joules",
                                                        "j/flop", "j/op",  "joule/flop"};
  static const std::vector<std::string> energy_per_byte{"j", "joule", "joules", "j/b", "j/byte"};
  static const std::vector<std::string> power{"w", "watt", "watts", "j/s"};
  static const std::vector<std::string> energy{"j", "joule", "joules"};
  switch (d) {
    case Dimension::count:
      return count;
    case Dimension::work:
      return work;
    case Dimension::bytes:
      return bytes;
    case Dimension::seconds:
      return seconds;
    case Dimension::work_rate:
      return work_rate;
    case Dimension::byte_rate:
      return byte_rate;
    case Dimension::intensity:
      return intensity;
    case Dimension::energy_per_work:
      return energy_per_work;
    case Dimension::energy_per_byte:
      return energy_per_byte;
    case Dimension::power:
      return power;
    case Dimension::energy:
      return energy;
  }
  return count;
}

/// The dimension a unit name belongs to; `wanted` first, since "J" is both an energy per unit of
/// work and per byte (a bare joule is read in the dimension asked for), and else an energy ("5 J"
/// for a power is an energy, not an energy per FLOP).
std::optional<Dimension> dimension_of_unit(const std::string& unit_lower, Dimension wanted) {
  for (Dimension d :
       {wanted, Dimension::work, Dimension::bytes, Dimension::seconds, Dimension::work_rate,
        Dimension::byte_rate, Dimension::intensity, Dimension::energy, Dimension::energy_per_work,
        Dimension::energy_per_byte, Dimension::power}) {
    const auto& names = units_of(d);
    if (std::find(names.begin(), names.end(), unit_lower) != names.end()) return d;
  }
  return std::nullopt;
}

/// A unit (without prefix), its dimension and the factor to the base unit (byte, byte/s,
/// FLOP/byte). Bits are bits (IEEE 1541, IEC 80000-13: "b" is the bit, "B" the byte): "Gb/s",
/// "Tbps", "b/s", "kbit" are eighths of their byte counterparts, "FLOP/bit" eight times
/// "FLOP/byte". Every other name compares case-insensitively.
struct UnitMatch {
  Dimension dim;
  double factor;
};
std::optional<UnitMatch> match_unit(const std::string& unit, Dimension wanted) {
  const std::string l = lower(unit);
  if (unit == "b" || l == "bit" || l == "bits") return UnitMatch{Dimension::bytes, 1.0 / 8};
  if (unit == "b/s" || unit == "bps" || l == "bit/s" || l == "bits/s" || l == "bit/sec")
    return UnitMatch{Dimension::byte_rate, 1.0 / 8};
  const auto slash = unit.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    const std::string per = unit.substr(slash + 1), per_l = lower(per);
    const std::string work = lower(unit.substr(0, slash));
    const bool work_unit = work == "flop" || work == "op";
    if (work_unit && (per == "b" || per_l == "bit")) return UnitMatch{Dimension::intensity, 8.0};
    // An energy per bit is eight times less than per byte: 1 pJ/b = 8 pJ/B.
    if ((work == "j" || work == "joule") && (per == "b" || per_l == "bit"))
      return UnitMatch{Dimension::energy_per_byte, 8.0};
  }
  // Minutes and hours, for the runs of a program or a training step: "2 min", "1.5 h".
  if (l == "min") return UnitMatch{Dimension::seconds, 60.0};
  if (l == "h") return UnitMatch{Dimension::seconds, 3600.0};
  if (auto d = dimension_of_unit(l, wanted)) return UnitMatch{*d, 1.0};
  return std::nullopt;
}

}  // namespace

std::string dimension_name(Dimension d) {
  switch (d) {
    case Dimension::count:
      return "a plain number";
    case Dimension::work:
      return "an amount of work (FLOP)";
    case Dimension::bytes:
      return "an amount of data (byte)";
    case Dimension::seconds:
      return "a time (s)";
    case Dimension::work_rate:
      return "a performance (FLOP/s)";
    case Dimension::byte_rate:
      return "a bandwidth (byte/s)";
    case Dimension::intensity:
      return "an intensity (FLOP/byte)";
    case Dimension::energy_per_work:
      return "an energy per unit of work (J/FLOP)";
    case Dimension::energy_per_byte:
      return "an energy per amount of data (J/B or J/b)";
    case Dimension::power:
      return "a power (W)";
    case Dimension::energy:
      return "an energy (J)";
  }
  return "a value";
}

namespace {

/// The number of `text` without its thousands separators, where every comma in its leading
/// number is one (1 to 3 digits, then groups of exactly three: "1,555", "12,000,000.5");
/// nothing where a comma is anything else ("1,5", a decimal comma).
std::optional<std::string> comma_fixed(const std::string& text) {
  size_t i = text.find_first_not_of("+- ");
  if (i == std::string::npos) return std::nullopt;
  const size_t start = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == start || i - start > 3) return std::nullopt;
  std::string fixed = text.substr(0, i);
  while (i < text.size() && text[i] == ',') {
    size_t j = i + 1;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j - i - 1 != 3) return std::nullopt;
    fixed += text.substr(i + 1, 3);
    i = j;
  }
  return fixed + text.substr(i);
}

/// parse_quantity; `unit` gets the unit the text names ("" for a bare number or a prefix only).
double parse_quantity_unit(std::string_view text_in, Dimension dim, std::string_view what,
                           std::string& named) {
  const std::string text = trim(text_in);
  auto fail = [&](const std::string& why) -> double {
    throw InputError(std::string(what) + ": " + why + " (got '" + std::string(text_in) +
                     "'; expected " + dimension_name(dim) + ")");
  };
  if (text.empty()) return fail("empty value");
  // strtod also reads hexadecimal ("0x10" = 16, "0x1p40"): a typo more often than a wish.
  if (const auto digits = text.find_first_not_of("+-");
      digits != std::string::npos && lower(std::string_view(text).substr(digits, 2)) == "0x")
    return fail("a hexadecimal number");
  // strtod handles "4.8e12", "inf", "nan"; we reject the last two below.
  const char* begin = text.c_str();
  const char* end = nullptr;
  const double number = parse_double_c(begin, &end);
  if (end == begin) return fail("not a number");
  if (!std::isfinite(number)) return fail("not a finite number");
  std::string rest = trim(std::string_view(end));
  // "1,555 GB/s", as NVIDIA prints figures, or "1,5 TB/s" with a decimal comma: strtod stops at
  // the comma, whose rest is no unit. Groups of three digits after each comma are a thousands
  // separator; anything else is read as a decimal comma, whose fix is a point (dropping the
  // comma of "1,5" had suggested 15, ten times the value meant).
  if (rest.size() > 1 && rest[0] == ',' && std::isdigit(static_cast<unsigned char>(rest[1]))) {
    if (const std::optional<std::string> fixed = comma_fixed(text))
      return fail("a thousands separator (',') is not accepted: write '" + *fixed +
                  "', with '.' for a decimal point");
    if (std::count(text.begin(), text.end(), ',') != 1)
      return fail("',' is not accepted in a number");
    std::string pointed = text;
    std::replace(pointed.begin(), pointed.end(), ',', '.');
    return fail("a decimal comma is not accepted: write '" + pointed +
                "' ('.' for a decimal point)");
  }
  double factor = 1.0;
  if (!rest.empty()) {
    // The whole rest may be a unit ("s", "B/s", "FLOP/s", "b/s"); otherwise strip a prefix.
    std::optional<UnitMatch> unit = match_unit(rest, dim);
    if (!unit) {
      bool prefixed = false;
      // Pico only where it is met (energies of pJ, times of ps): elsewhere "1 pflop/s" is a
      // peta typed in lower case, and 1e-12 of it would be read silently.
      const bool pico = dim == Dimension::seconds || dim == Dimension::energy_per_work ||
                        dim == Dimension::energy_per_byte || dim == Dimension::power ||
                        dim == Dimension::energy;
      // Nor milli for data or a count: "1 mB/s" is a mega typed in lower case, never 1e-3 B/s.
      // For work only as the tool prints it ("166.7 mFLOP/s"): "1 mflop" is a mega typed in
      // lower case, not a thousandth of an operation.
      const bool work = dim == Dimension::work || dim == Dimension::work_rate;
      const bool data = dim == Dimension::bytes || dim == Dimension::byte_rate ||
                        dim == Dimension::count ||
                        (work && rest.rfind("mFLOP", 0) != 0 && rest.rfind("mOP", 0) != 0);
      for (const auto& p : kPrefixes) {
        if (p.symbol == "p" && !pico) continue;
        if (p.symbol == "m" && data) continue;
        if (rest.size() >= p.symbol.size() && rest.compare(0, p.symbol.size(), p.symbol) == 0) {
          const std::string after = trim(std::string_view(rest).substr(p.symbol.size()));
          // "1m" for a time reads as a minute as often as a millisecond: the unit decides.
          if (after.empty() && p.symbol == "m" && dim == Dimension::seconds)
            return fail("'m' alone is milli (1 ms), or was a minute meant (1 min)? Give the unit");
          // "1M" for a time is a million seconds, which no run lasts: a minute or month meant.
          if (after.empty() && p.factor > 1 && dim == Dimension::seconds)
            return fail("'" + std::string(p.symbol) + "' alone would be " +
                        format_number(p.factor) + " s: give the unit (s, min, h)");
          // Minutes and hours take no prefix ("1 mh" is no time anyone writes).
          const std::string after_l = lower(after);
          if (after_l == "min" || after_l == "h") continue;
          if (after.empty() || match_unit(after, dim)) {
            factor = p.factor;
            rest = after;
            unit = after.empty() ? std::nullopt : match_unit(after, dim);
            prefixed = true;
            break;
          }
        }
      }
      if (!prefixed)
        return fail("unknown unit or prefix '" + rest + "'" +
                    (!pico && rest[0] == 'p'  ? " (peta is P)"
                     : data && rest[0] == 'm' ? " (mega is M)"
                                              : ""));
    }
    // "ms", "us", "ns" arrive here as prefix + "s".
    if (unit) {
      if (unit->dim != dim) return fail("unit '" + rest + "' is " + dimension_name(unit->dim));
      factor *= unit->factor;
      named = rest;
    }
  }
  const double value = number * factor;
  if (!std::isfinite(value)) return fail("value overflows");
  return value;
}

}  // namespace

double parse_quantity(std::string_view text, Dimension dim, std::string_view what) {
  std::string named;
  return parse_quantity_unit(text, dim, what, named);
}

std::string work_unit_named(std::string_view text, Dimension dim, std::string_view what) {
  std::string named;
  parse_quantity_unit(text, dim, what, named);
  const std::string l = lower(named);
  if (l.rfind("flop", 0) == 0) return "FLOP";
  if (l.rfind("op", 0) == 0) return "OP";
  return "";
}

double parse_quantity_in(std::string_view text, Dimension dim, const UnitSystem& units,
                         std::string_view what) {
  std::string named;
  const double value = parse_quantity_unit(text, dim, what, named);
  const bool flop_byte = units.traffic == "byte" && (units.work == "FLOP" || units.work == "OP");
  if (!named.empty() && !flop_byte && dim != Dimension::seconds)
    throw InputError(std::string(what) + ": '" + trim(text) + "' names the unit '" + named +
                     "', but the machine counts in " + units.work + " and " + units.traffic +
                     ": give a bare number (an SI prefix is fine: 2G)");
  return value;
}

std::string format_number_apart(double v, double threshold, int digits) {
  std::string s = format_number(v, digits);
  const bool apart = std::fabs(v - threshold) > kThresholdTolerance * std::fabs(threshold);
  for (int d = digits + 1; apart && d <= 17 && s == format_number(threshold, d - 1); ++d)
    s = format_number(v, d);
  return s;
}

std::string format_number(double v, int digits) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e-3 && a < 1e7) {
    // Fixed notation with `digits` significant digits, trailing zeros removed.
    const int magnitude = static_cast<int>(std::floor(std::log10(a)));
    const int decimals = std::max(0, digits - 1 - magnitude);
    std::string s = printf_f(v, decimals);
    if (s.find('.') != std::string::npos) {
      while (!s.empty() && s.back() == '0') s.pop_back();
      if (!s.empty() && s.back() == '.') s.pop_back();
    }
    return s;
  }
  return printf_g(v, digits);
}

std::string format_si(double value, std::string_view unit, int digits) {
  static constexpr std::array<std::pair<double, const char*>, 10> scale{{{1e18, "E"},
                                                                         {1e15, "P"},
                                                                         {1e12, "T"},
                                                                         {1e9, "G"},
                                                                         {1e6, "M"},
                                                                         {1e3, "k"},
                                                                         {1, ""},
                                                                         {1e-3, "m"},
                                                                         {1e-6, "u"},
                                                                         {1e-9, "n"}}};
  // Beyond E, prefixes stop helping: counts like 3e23 FLOP (GPT-3 training) print in exponent form.
  // Number and prefixed unit with a space between, none after a number that has neither.
  const auto joined = [](const std::string& number, const std::string& suffix) {
    return suffix.empty() ? number : number + " " + suffix;
  };
  if (!std::isfinite(value) || value == 0 || std::fabs(value) >= 1e21)
    return joined(format_number(value, digits), std::string(unit));
  for (const auto& [f, p] : scale) {
    // Round first so 999.96 G prints as 1 T rather than 1000 G.
    const double scaled = value / f;
    if (scaled == 0) continue;  // a subnormal value divided by a large prefix underflows to 0
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(scaled))));
    const double rounding = std::pow(10.0, magnitude - digits + 1);
    const double rounded = std::round(scaled / rounding) * rounding;
    if (std::fabs(rounded) >= 1.0 || f == 1e-9) {
      if (std::fabs(rounded) >= 1000.0 && f < 1e18) continue;
      // Below 0.001 n the prefix stops helping too: 1e-30 FLOP/s, not "1e-21 nFLOP/s".
      if (std::fabs(rounded) < 1e-3) break;
      return joined(format_number(rounded, digits), p + std::string(unit));
    }
  }
  return joined(format_number(value, digits), std::string(unit));
}

std::string format_work(Work w, const UnitSystem& u) {
  return format_si(w.value, u.work);
}
namespace {
/// format_si for an amount or rate of data, without the milli prefix that parse_quantity
/// refuses for data ("1 mB/s" is read as a mega typed wrong): 0.5 B/s, not 500 mB/s.
std::string format_data(double value, const std::string& unit) {
  const std::string s = format_si(value, unit);
  return s.size() > unit.size() + 1 && s.compare(s.size() - unit.size() - 1, 1, "m") == 0
             ? format_number(value, 4) + " " + unit
             : s;
}
}  // namespace

std::string format_bytes(Bytes q, const UnitSystem& u) {
  return format_data(q.value, u.traffic_symbol());
}
std::string format_seconds(Seconds t) {
  // Below 1000 s the SI prefixes read well (ms, us, ns); above, "8.488 Ms" was read as
  // milliseconds: seconds without a prefix, and the hours, days or years they make.
  const double a = std::fabs(t.value);
  if (!std::isfinite(t.value) || a < 999.95) return format_si(t.value, "s");  // not "1 ks"
  std::string out = format_number(t.value, 4) + " s";
  constexpr double kHour = 3600, kDay = 24 * kHour, kYear = 365.25 * kDay;
  if (a >= kYear)
    out += " (" + format_number(t.value / kYear, 4) + " years)";
  else if (a >= kDay)
    out += " (" + format_number(t.value / kDay, 4) + " days)";
  else if (a >= kHour)
    out += " (" + format_number(t.value / kHour, 4) + " h)";
  return out;
}
std::string format_work_rate(WorkRate p, const UnitSystem& u) {
  return format_si(p.value, u.work_rate());
}
std::string format_byte_rate(ByteRate b, const UnitSystem& u) {
  return format_data(b.value, u.traffic_symbol() + "/s");
}
std::string format_intensity(Intensity i, const UnitSystem& u) {
  return format_number(i.value, 4) + " " + u.intensity();
}

}  // namespace roofline
