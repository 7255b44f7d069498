#pragma once
// Tensor-core roofs from cuBLASLt GEMM sweeps (libcublasLt opened at run time), each checked
// against cuBLAS's own GEMM (cublasGemmEx) at the same size in the same run.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "measure/cuda/device/nvml.hpp"
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
  /// Samples the SM clock during the timed GEMMs (may be null).
  nvml::ClockSampler* sampler = nullptr;
};

/// cuBLAS's rate on the same GEMM as a roof's best size: the peer the roof is judged against.
struct Peer {
  std::string method;  ///< "cuBLAS cublasGemmEx, 8192³, ..."
  std::vector<double> rates;
};

/// What the sweep reports as it goes.
struct Callbacks {
  std::function<void(const std::string&)> progress;  ///< before each precision
  /// After each precision measured: its result (with the clock under its best size's load).
  std::function<void(const ComputeResult&, const std::optional<Peer>&, const std::string&)> done;
  /// Asked before each precision; true skips the rest (the run's deadline passed).
  std::function<bool()> stop;
};

/// Sweeps square GEMMs for every tensor precision the architecture has (fp64 where it has fp64
/// tensor cores, tf32, fp16, bf16, fp8 e4m3 from sm_89, int8). Results go to `out.compute`,
/// precisions that cannot run (no cuBLASLt, no algorithm, out of memory) to `out.unavailable`.
void sweep(const Config& config, rt::Timer& timer, Measurements& out, const Callbacks& cb);

/// The precisions sweep() would try on compute capability major.minor.
std::vector<std::string> tensor_precisions(int cc_major, int cc_minor);

}  // namespace roofline::cuda::gemm
