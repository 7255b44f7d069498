// The CUDA backend's entry points in a build without the CUDA toolkit: every call reports that
// CUDA is not compiled in. layer.cmake removes this file when the toolkit is found, and the
// real entry points in device/backend.cpp are built instead.
#include "roofline/cuda.hpp"

namespace roofline::cuda {

namespace {
constexpr const char* kNotCompiled =
    "CUDA not compiled in (this build has no CUDA backend: configure it with the CUDA toolkit's "
    "nvcc on the PATH and -DROOFLINE_CUDA=ON)";
}

bool compiled() {
  return false;
}

std::string status(int /*device*/) {
  return kNotCompiled;
}

MachineDocument measure(const Options& /*options*/) {
  throw Unavailable(kNotCompiled);
}

}  // namespace roofline::cuda
