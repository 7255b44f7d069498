#pragma once
// Kernel counts for tests, made by the kernel registry itself (what `roofline kernel` counts).
#include <map>
#include <string>

#include "roofline/kernels.hpp"

namespace roofline::test {

/// `roofline kernel gemm --dtype fp32 m=1024 n=1024 k=1024`: W = 2·m·n·k FLOP.
inline KernelCount gemm_1024_fp32() {
  const KernelRequest req = kernel_request(
      "gemm", "fp32",
      std::map<std::string, std::string>{{"m", "1024"}, {"n", "1024"}, {"k", "1024"}});
  return req.spec->count(req.params, req.dtype);
}

}  // namespace roofline::test
