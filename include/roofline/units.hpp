#pragma once
// Units are types (docs/architecture.md). Work W (FLOP or OP), traffic Q (byte),
// time T (s), and the rates and intensity built from them are distinct types, so mixing them
// up does not compile: W/T is a WorkRate, W/Q an Intensity, Q/T a ByteRate, and
// WorkRate / ByteRate is an Intensity (docs/model.md §2 "Units": FLOP/s ÷ byte/s = FLOP/byte).
// Energy has its own: W·T is a Joule, E/T a Watt, E/W a JoulePerWork and E/Q a JoulePerByte.
//
// Values are stored in SI base units (FLOP, byte, second, joule). Printing goes through UnitSystem
// so that an intensity is always written "FLOP/byte" and a rate "FLOP/s", never "FLOPS/byte".
#include <cmath>
#include <string>
#include <type_traits>

namespace roofline {

template <class Tag>
struct Quantity {
  double value = 0.0;
  constexpr Quantity() = default;
  constexpr explicit Quantity(double v) : value(v) {}
  constexpr Quantity operator+(Quantity o) const { return Quantity(value + o.value); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(value - o.value); }
  constexpr Quantity operator*(double s) const { return Quantity(value * s); }
  constexpr Quantity operator/(double s) const { return Quantity(value / s); }
  /// Ratio of two like quantities is a plain number.
  constexpr double operator/(Quantity o) const { return value / o.value; }
  constexpr Quantity& operator+=(Quantity o) {
    value += o.value;
    return *this;
  }
  constexpr auto operator<=>(const Quantity&) const = default;
};
template <class Tag>
constexpr Quantity<Tag> operator*(double s, Quantity<Tag> q) {
  return Quantity<Tag>(s * q.value);
}

struct WorkTag {};
struct BytesTag {};
struct SecondsTag {};
struct WorkRateTag {};
struct ByteRateTag {};
struct IntensityTag {};
struct HertzTag {};
struct JouleTag {};
struct WattTag {};
struct JoulePerWorkTag {};
struct JoulePerByteTag {};

using Work = Quantity<WorkTag>;            ///< FLOP (or OP for integer work, or a custom unit)
using Bytes = Quantity<BytesTag>;          ///< byte (or a custom traffic unit)
using Seconds = Quantity<SecondsTag>;      ///< s
using WorkRate = Quantity<WorkRateTag>;    ///< FLOP/s
using ByteRate = Quantity<ByteRateTag>;    ///< byte/s
using Intensity = Quantity<IntensityTag>;  ///< FLOP/byte
using Hertz = Quantity<HertzTag>;          ///< cycles per second: a clock
// The energy roofline (energy.hpp, docs/energy.md): energy E, power, and the energy costs ε.
using Joule = Quantity<JouleTag>;                ///< J: energy
using Watt = Quantity<WattTag>;                  ///< W = J/s: power
using JoulePerWork = Quantity<JoulePerWorkTag>;  ///< J/FLOP: ε_flop, the energy of one unit of work
using JoulePerByte =
    Quantity<JoulePerByteTag>;  ///< J/byte: ε_mem, the energy of one unit of traffic

// The only cross-unit operations (docs/model.md §1, §2): I = W/Q, P = W/T, bandwidth = Q/T,
// the slanted roof β·I, the ridge π/β, and times W/π, Q/β; and for energy those below.
constexpr Intensity operator/(Work w, Bytes q) {
  return Intensity(w.value / q.value);
}
constexpr WorkRate operator/(Work w, Seconds t) {
  return WorkRate(w.value / t.value);
}
constexpr ByteRate operator/(Bytes q, Seconds t) {
  return ByteRate(q.value / t.value);
}
constexpr WorkRate operator*(ByteRate b, Intensity i) {
  return WorkRate(b.value * i.value);
}
constexpr WorkRate operator*(Intensity i, ByteRate b) {
  return WorkRate(b.value * i.value);
}
constexpr Intensity operator/(WorkRate p, ByteRate b) {
  return Intensity(p.value / b.value);
}
constexpr Seconds operator/(Work w, WorkRate p) {
  return Seconds(w.value / p.value);
}
constexpr Seconds operator/(Bytes q, ByteRate b) {
  return Seconds(q.value / b.value);
}
constexpr Work operator*(WorkRate p, Seconds t) {
  return Work(p.value * t.value);
}
constexpr Bytes operator*(ByteRate b, Seconds t) {
  return Bytes(b.value * t.value);
}
constexpr Work operator*(Intensity i, Bytes q) {
  return Work(i.value * q.value);
}

// Energy (docs/energy.md): E = W·ε_flop + Q·ε_mem + π0·T, and power E/T. The factors of an
// energy come in pairs (power and time, work and J/FLOP, traffic and J/byte): a pair's product,
// either way round, is a Joule, and a Joule over one factor is the other.
template <class Tag>
constexpr auto energy_cofactor() {
  using std::is_same_v;
  if constexpr (is_same_v<Tag, WattTag>)
    return SecondsTag{};
  else if constexpr (is_same_v<Tag, SecondsTag>)
    return WattTag{};
  else if constexpr (is_same_v<Tag, WorkTag>)
    return JoulePerWorkTag{};
  else if constexpr (is_same_v<Tag, JoulePerWorkTag>)
    return WorkTag{};
  else if constexpr (is_same_v<Tag, BytesTag>)
    return JoulePerByteTag{};
  else if constexpr (is_same_v<Tag, JoulePerByteTag>)
    return BytesTag{};
}
/// The tag whose product with Tag is an energy; void for none.
template <class Tag>
using EnergyCofactor = decltype(energy_cofactor<Tag>());
template <class Tag>
concept EnergyFactor = !std::is_void_v<EnergyCofactor<Tag>>;

template <EnergyFactor A>
constexpr Joule operator*(Quantity<A> a, Quantity<EnergyCofactor<A>> b) {
  return Joule(a.value * b.value);
}
template <EnergyFactor B>
constexpr Quantity<EnergyCofactor<B>> operator/(Joule e, Quantity<B> b) {
  return Quantity<EnergyCofactor<B>>(e.value / b.value);
}

/// The names of the work and traffic units of a roofline. The default is FLOP and
/// byte; integer roofs use OP; other resource pairs (docs/model.md §12) name their own ("tuple",
/// "I/O operation", "request", "network byte").
struct UnitSystem {
  std::string work = "FLOP";
  std::string traffic = "byte";

  std::string work_rate() const { return work + "/s"; }           ///< "FLOP/s", never "FLOPS"
  std::string traffic_rate() const { return traffic + "/s"; }     ///< "byte/s"
  std::string intensity() const { return work + "/" + traffic; }  ///< "FLOP/byte"
  /// Short symbol of the traffic unit for rates with prefixes ("GB/s" rather than "Gbyte/s").
  std::string traffic_symbol() const { return traffic == "byte" ? "B" : traffic; }
  bool operator==(const UnitSystem&) const = default;

  static UnitSystem flop() { return {}; }
  static UnitSystem op() { return {"OP", "byte"}; }
};

}  // namespace roofline
