#pragma once
// Device properties as cudaGetDeviceProperties / cudaDeviceGetAttribute report them, for the
// tests of the CUDA path that run without a GPU (theory, assembly, the backend contract).
#include "roofline/cuda.hpp"

namespace roofline::test {

inline cuda::DeviceProps a100_80gb() {
  cuda::DeviceProps p;
  p.name = "NVIDIA A100-SXM4-80GB";
  p.cc_major = 8;
  p.cc_minor = 0;
  p.sm_count = 108;
  p.sm_clock_hz = 1.41e9;
  p.mem_clock_hz = 1.593e9;
  p.bus_width_bits = 5120;
  p.l2_bytes = 40.0 * 1024 * 1024;
  p.memory_bytes = 80e9;
  return p;
}
inline cuda::DeviceProps h100_sxm(double sm_clock_hz = 1.98e9) {
  cuda::DeviceProps p;
  p.name = "NVIDIA H100 80GB HBM3";
  p.cc_major = 9;
  p.cc_minor = 0;
  p.sm_count = 132;
  p.sm_clock_hz = sm_clock_hz;
  p.mem_clock_hz = 2.619e9;
  p.bus_width_bits = 5120;
  p.l2_bytes = 50.0 * 1024 * 1024;
  return p;
}
inline cuda::DeviceProps h200() {
  cuda::DeviceProps p = h100_sxm();
  p.name = "NVIDIA H200";
  p.mem_clock_hz = 3.201e9;
  p.bus_width_bits = 6144;
  p.memory_bytes = 141e9;
  return p;
}

}  // namespace roofline::test
