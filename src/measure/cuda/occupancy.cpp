// Grids from occupancy and the SM clock under load (internal.hpp): host arithmetic, no CUDA.
#include <algorithm>
#include <cmath>

#include "measure/cuda/internal.hpp"
#include "roofline/error.hpp"
#include "roofline/statistics.hpp"

namespace roofline::cuda::detail {

int occupancy_blocks_per_sm(const OccupancyInput& in) {
  auto positive = [](double v, const char* what) {
    if (!(v > 0)) throw InputError(std::string("occupancy: ") + what + " must be > 0");
  };
  positive(in.max_threads_per_sm, "max_threads_per_sm");
  positive(in.max_blocks_per_sm, "max_blocks_per_sm");
  positive(in.registers_per_sm, "registers_per_sm");
  positive(in.block_threads, "block_threads");
  // CUDA occupancy calculator (cuda_occupancy.h, sm_70 and later): warps of 32 threads; each
  // warp is allocated registers in units of 256 (8 per thread); the register file is split
  // evenly between the SM's 4 sub-partitions and a warp's registers live in one of them.
  constexpr int kWarp = 32, kRegisterUnit = 256, kSubPartitions = 4;
  const int warps_per_block = (in.block_threads + kWarp - 1) / kWarp;
  int blocks = std::min(in.max_blocks_per_sm, (in.max_threads_per_sm / kWarp) / warps_per_block);
  if (in.registers_per_thread > 255) return 0;  // the per-thread limit from sm_35 on
  if (in.registers_per_thread > 0) {
    const int per_warp =
        (in.registers_per_thread * kWarp + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
    const int warps = (in.registers_per_sm / kSubPartitions / per_warp) * kSubPartitions;
    blocks = std::min(blocks, warps / warps_per_block);
  }
  const double shared = in.shared_per_block_bytes + in.reserved_shared_per_block_bytes;
  if (shared > 0 && in.shared_per_sm_bytes > 0)
    blocks = std::min(blocks, static_cast<int>(in.shared_per_sm_bytes / shared));
  return std::max(0, blocks);
}

int persistent_grid(int sm_count, int blocks_per_sm, const std::string& kernel) {
  if (sm_count <= 0) throw Error("grid for " + kernel + ": the device reports no SMs");
  if (blocks_per_sm <= 0)
    throw Error("grid for " + kernel +
                ": the occupancy API fits no block of it on an SM (too many registers or too "
                "much shared memory per block)");
  return sm_count * blocks_per_sm;
}

std::optional<ClockUnderLoad> clock_under_load(const std::vector<double>& samples_mhz,
                                               const std::string& load, int min_samples) {
  std::vector<double> v;
  for (double x : samples_mhz)
    if (x > 0 && std::isfinite(x)) v.push_back(x);
  if (v.empty() || static_cast<int>(v.size()) < min_samples) return std::nullopt;
  ClockUnderLoad c;
  c.sm_clock_hz = 1e6 * summarize_rates(v).median;
  c.samples = static_cast<int>(v.size());
  c.load = load;
  return c;
}

}  // namespace roofline::cuda::detail
