#pragma once
// Internal helpers of the CUDA backend that need no GPU (tested in tests/cuda/).
#include <cstdint>
#include <string>
#include <vector>

namespace roofline::cuda::detail {

/// Names of the bits of an NVML clock event ("throttle") reason mask, lowest bit first
/// (nvml.h nvmlClocksEventReason*: 0x1 GPU idle ... 0x100 display clock setting); unknown bits
/// as "0x...".
std::vector<std::string> clock_event_names(uint64_t mask);

/// The message for "no usable CUDA device" from the runtime's error name and text, with a hint
/// for the common causes (no driver, no device, device hidden by CUDA_VISIBLE_DEVICES).
std::string no_device_message(const std::string& error_name, const std::string& error_text);

/// The GEMM sizes (square m = n = k) swept for one precision, largest last, keeping the three
/// operands within `max_bytes` (a share of free device memory). `element_bytes` of A and B,
/// `output_bytes` of C/D.
std::vector<int> gemm_sizes(bool quick, double element_bytes, double output_bytes,
                            double max_bytes);

/// The working sets of the L2/HBM read sweep: powers of two from 1 MiB up to max(8 × L2, 1 GiB)
/// (quick: max(4 × L2, 256 MiB)), each ≤ `max_bytes`.
std::vector<double> sweep_sizes(bool quick, double l2_bytes, double max_bytes);

}  // namespace roofline::cuda::detail
