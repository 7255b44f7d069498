#pragma once
// Checks shared by the model presets (config.cpp) and the Hugging Face config reader
// (hf_config.cpp).
#include <cmath>
#include <string>

#include "roofline/error.hpp"

namespace roofline::llm {

/// A finite whole number.
inline bool whole(double v) {
  return std::isfinite(v) && v == std::floor(v);
}

/// The largest size or count a model may name. Real models stay below 1e7; up to 1e9, products
/// of five such sizes still fit a double, so no count, time or share comes out inf or nan, and
/// every count converts to a 64-bit integer exactly.
inline constexpr double kLargestModelCount = 1e9;

/// Throws InputError "ORIGIN: FIELD: WHY (got GOT)".
[[noreturn]] inline void bad(const std::string& origin, const std::string& field,
                             const std::string& why, const std::string& got) {
  throw InputError(origin + ": " + field + ": " + why + (got.empty() ? "" : " (got " + got + ")"));
}

}  // namespace roofline::llm
