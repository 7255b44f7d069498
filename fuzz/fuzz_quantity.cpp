// Fuzzes the quantity parser ("19.5T", "2 TB/s") and checks that what it prints parses back.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roofline/error.hpp"
#include "roofline/quantity.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const auto dim = static_cast<roofline::Dimension>(data[0] % 10);
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  double v = 0;
  try {
    v = roofline::parse_quantity(text, dim, "fuzz");
  } catch (const roofline::InputError&) {
    return 0;
  }
  if (!std::isfinite(v)) std::abort();  // the parser promises finite values
  // Round trip: a printed byte rate parses back to within the 4 printed digits.
  if (v > 0 && v < 1e20) {
    const std::string printed = roofline::format_byte_rate(roofline::ByteRate(v));
    const double back = roofline::parse_quantity(printed, roofline::Dimension::byte_rate, "back");
    if (std::fabs(back - v) > 1e-3 * v) std::abort();
  }
  return 0;
}
