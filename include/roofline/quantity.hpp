#pragma once
// Human-readable quantities: "19.5T", "2 TB/s", "4.8e12", "350 GFLOP/s", "32 KiB", "10 ms".
// Parsing checks the dimension: a bandwidth flag given "19.5 TFLOP/s" is an error that says so.
// Printing uses SI prefixes and the unit system's names, so "FLOPS/byte" cannot be printed.
#include <string>
#include <string_view>

#include "roofline/units.hpp"

namespace roofline {

enum class Dimension {
  count,
  work,
  bytes,
  seconds,
  work_rate,
  byte_rate,
  intensity,
  energy_per_work,  ///< J per unit of work (the energy roofline's ε_flop); "J", "pJ/FLOP"
  energy_per_byte,  ///< J per byte (ε_mem); "J", "nJ/B"; "J/b" is per bit
  power,            ///< W (π0); "W", "J/s"
  energy,           ///< J (the energy a workload used: a points document's `energy`); "J", "kJ"
};

/// The name of a dimension in messages ("a bandwidth (byte/s)").
std::string dimension_name(Dimension d);

/// Parses a number with an optional SI prefix (k M G T P E, m u n; p for times, energies and
/// powers; binary Ki Mi Gi Ti for bytes)
/// and an optional unit that must belong to `dim`. A bare number is taken in base units.
/// Throws InputError naming `what` (e.g. "--bandwidth") on a malformed value, a unit of another
/// dimension, or a value that is not finite.
double parse_quantity(std::string_view text, Dimension dim, std::string_view what = "value");
/// parse_quantity for a machine that counts in `units`: the units the text may name (FLOP, B,
/// FLOP/s...) are those of FLOP and bytes, so on a machine in other units (tuples, disk reads:
/// docs/custom-rooflines.md) a work or traffic value that names one is refused; a bare number,
/// SI prefix or not, is in the machine's units. Times keep their units.
double parse_quantity_in(std::string_view text, Dimension dim, const UnitSystem& units,
                         std::string_view what = "value");

/// The work unit a quantity's text names, for a machine in FLOP and bytes: "FLOP" ("2 TFLOP",
/// "1 PFLOP/s", "FLOP/byte"), "OP" ("2 TOP", "OP/s": integer work), "" for a bare number (in
/// the unit of the roof it is judged on) or a unit of no work. Throws as parse_quantity does.
std::string work_unit_named(std::string_view text, Dimension dim, std::string_view what = "value");

/// The dimension each quantity type is parsed in (no entry: parse<Q> does not compile).
template <class Q>
struct QuantityDimension;
template <>
struct QuantityDimension<Work> {
  static constexpr Dimension value = Dimension::work;
};
template <>
struct QuantityDimension<Bytes> {
  static constexpr Dimension value = Dimension::bytes;
};
template <>
struct QuantityDimension<Seconds> {
  static constexpr Dimension value = Dimension::seconds;
};
template <>
struct QuantityDimension<WorkRate> {
  static constexpr Dimension value = Dimension::work_rate;
};
template <>
struct QuantityDimension<ByteRate> {
  static constexpr Dimension value = Dimension::byte_rate;
};
template <>
struct QuantityDimension<Intensity> {
  static constexpr Dimension value = Dimension::intensity;
};

/// parse_quantity into the quantity's own type: parse<ByteRate>("2 TB/s", "--bandwidth").
template <class Q>
Q parse(std::string_view text, std::string_view what = "value") {
  return Q(parse_quantity(text, QuantityDimension<Q>::value, what));
}

/// parse_quantity_in into the quantity's own type.
template <class Q>
Q parse_in(std::string_view text, const UnitSystem& units, std::string_view what = "value") {
  return Q(parse_quantity_in(text, QuantityDimension<Q>::value, units, what));
}

/// "19.5 T" style: value scaled to an SI prefix with `digits` significant digits, then unit.
std::string format_si(double value, std::string_view unit, int digits = 4);
std::string format_work(Work w, const UnitSystem& u = {});
std::string format_bytes(Bytes q, const UnitSystem& u = {});
std::string format_seconds(Seconds t);
std::string format_work_rate(WorkRate p, const UnitSystem& u = {});
std::string format_byte_rate(ByteRate b, const UnitSystem& u = {});
std::string format_intensity(Intensity i, const UnitSystem& u = {});
/// Plain number with `digits` significant digits and no exponent where sensible ("0.1667").
std::string format_number(double v, int digits = 4);
/// How far past a threshold a figure must lie to be judged past it, relative: a few units in the
/// last place of a double. A figure that equals its threshold in exact arithmetic can come out
/// a rounding below it (W = 3, T = 0.33 against T = 0.3 is 1/1.1 exactly, and 0.9090909090909089
/// in doubles; 6.3/0.07 of a roof of 100 is 0.8999999999999999): the gate (check.hpp's
/// below_threshold) judges it at the threshold, as the same ratio written W = 1, T = 1.1.
inline constexpr double kThresholdTolerance = 1e-12;
/// `v` with at least `digits` significant digits, and more (up to 17) until it reads apart from
/// `threshold` when the two differ by more than kThresholdTolerance: "0.6999999" beside a
/// minimum of 0.7, never "0.7 < 0.7"; 0.8999999999999999 beside 0.9 reads "0.9".
std::string format_number_apart(double v, double threshold, int digits = 3);

}  // namespace roofline
