#pragma once
// Tensor-core roofs from cuBLASLt GEMM sweeps (libcublasLt opened at run time).
#include <string>
#include <vector>

#include "measure/cuda/device/runtime.hpp"
#include "roofline/cuda.hpp"

namespace roofline::cuda::gemm {

struct Config {
  int cc_major = 0;
  int cc_minor = 0;
  bool quick = false;
  double max_bytes = 0;  ///< memory the operands of one GEMM may take
  double target_s = 0.05;
  int repetitions = 5;
};

/// Sweeps square GEMMs for every tensor precision the architecture has (fp64 where it has fp64
/// tensor cores, tf32, fp16, bf16, fp8 e4m3 from sm_89, int8). Results go to `out.compute`,
/// precisions that cannot run (no cuBLASLt, no algorithm, out of memory) to `out.unavailable`.
/// `progress(name)` is called before each precision.
void sweep(const Config& config, rt::Timer& timer, Measurements& out,
           const std::function<void(const std::string&)>& progress);

/// The precisions sweep() would try on compute capability major.minor.
std::vector<std::string> tensor_precisions(int cc_major, int cc_minor);

}  // namespace roofline::cuda::gemm
