#pragma once
// The backends compiled into this build (registry.cpp lists them).
#include "roofline/engine.hpp"

namespace roofline::engine {

/// This machine's CPU (src/measure/cpu/backend.cpp).
const Backend& cpu_backend();
/// A CUDA device (cuda_adapter.cpp): reports "not compiled in" or "no device" plainly.
const Backend& cuda_backend();

}  // namespace roofline::engine
