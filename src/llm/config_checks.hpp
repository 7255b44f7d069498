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

/// Throws InputError "ORIGIN: FIELD: WHY (got GOT)".
[[noreturn]] inline void bad(const std::string& origin, const std::string& field,
                             const std::string& why, const std::string& got) {
  throw InputError(origin + ": " + field + ": " + why + (got.empty() ? "" : " (got " + got + ")"));
}

}  // namespace roofline::llm
