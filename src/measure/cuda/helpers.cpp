// Host-side helpers of the CUDA backend (internal.hpp); compiled on every build.
#include <algorithm>
#include <cstdio>

#include "measure/cuda/internal.hpp"

namespace roofline::cuda::detail {

std::vector<std::string> clock_event_names(uint64_t mask) {
  // nvml.h: nvmlClocksEventReasonGpuIdle 0x1, ApplicationsClocksSetting 0x2, SwPowerCap 0x4,
  // HwSlowdown 0x8, SyncBoost 0x10, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40,
  // HwPowerBrakeSlowdown 0x80, DisplayClockSetting 0x100.
  static const char* names[] = {"gpu idle",
                                "applications clocks setting",
                                "software power cap",
                                "hardware slowdown",
                                "sync boost",
                                "software thermal slowdown",
                                "hardware thermal slowdown",
                                "hardware power brake",
                                "display clock setting"};
  std::vector<std::string> out;
  for (unsigned bit = 0; bit < 64; ++bit) {
    const uint64_t b = uint64_t{1} << bit;
    if (!(mask & b)) continue;
    if (bit < std::size(names)) {
      out.emplace_back(names[bit]);
    } else {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(b));
      out.emplace_back(hex);
    }
  }
  return out;
}

std::string no_device_message(const std::string& error_name, const std::string& error_text) {
  std::string hint;
  if (error_name == "cudaErrorInsufficientDriver")
    hint = "; no NVIDIA driver is loaded (libcuda.so.1 missing) or it is older than the runtime";
  else if (error_name == "cudaErrorNoDevice")
    hint = "; the driver sees no GPU (check nvidia-smi and CUDA_VISIBLE_DEVICES)";
  return "no CUDA device: " + error_text + " (" + error_name + ")" + hint;
}

std::vector<int> gemm_sizes(bool quick, double element_bytes, double output_bytes,
                            double max_bytes) {
  // Square GEMMs reach the tensor roof from a few thousand up; 16384 gives each call enough
  // work (8.8 TFLOP) to hide launch and tail effects at fp8 rates.
  const std::vector<int> all =
      quick ? std::vector<int>{4096, 8192} : std::vector<int>{4096, 8192, 16384};
  std::vector<int> out;
  for (int n : all) {
    const double nn = static_cast<double>(n) * n;
    if (nn * (2 * element_bytes + output_bytes) <= max_bytes) out.push_back(n);
  }
  return out;
}

std::vector<double> sweep_sizes(bool quick, double l2_bytes, double max_bytes) {
  const double mib = 1024.0 * 1024.0;
  const double top = quick ? std::max(4 * l2_bytes, 256 * mib) : std::max(8 * l2_bytes, 1024 * mib);
  std::vector<double> out;
  for (double s = mib; s <= top && s <= max_bytes; s *= 2) out.push_back(s);
  return out;
}

}  // namespace roofline::cuda::detail
