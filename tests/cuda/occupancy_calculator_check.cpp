// Checks detail::occupancy_blocks_per_sm against NVIDIA's own occupancy calculator
// (cuda_occupancy.h, header-only host code shipped with the CUDA toolkit) over block sizes,
// register counts and shared-memory sizes, for sm_80 and sm_90 SMs. Built and run by
// tests/ci.d/cuda_compile.sh where the toolkit is installed (no GPU needed); prints each
// disagreement and exits 1 if there is one.
#include <cuda_occupancy.h>

#include <cstdio>

#include "measure/cuda/internal.hpp"

int main() {
  struct Sm {
    const char* name;
    int major, minor;
    size_t shared_per_sm;
  };
  // A100 and H100/H200: 2048 threads, 65536 registers, 1 KiB reserved per block; 164 KiB and
  // 228 KiB of shared memory per SM.
  const Sm sms[] = {{"sm_80", 8, 0, 167936}, {"sm_90", 9, 0, 233472}};
  int checked = 0, wrong = 0;
  for (const Sm& sm : sms) {
    cudaOccDeviceProp prop;
    prop.computeMajor = sm.major;
    prop.computeMinor = sm.minor;
    prop.maxThreadsPerBlock = 1024;
    prop.maxThreadsPerMultiprocessor = 2048;
    prop.regsPerBlock = 65536;
    prop.regsPerMultiprocessor = 65536;
    prop.warpSize = 32;
    prop.sharedMemPerBlock = 49152;
    prop.sharedMemPerMultiprocessor = sm.shared_per_sm;
    prop.numSms = 132;
    prop.sharedMemPerBlockOptin = sm.shared_per_sm - 1024;
    prop.reservedSharedMemPerBlock = 1024;
    for (int block : {32, 64, 96, 128, 256, 384, 512, 1024})
      for (int regs = 8; regs <= 255; regs += 1)
        for (size_t shared : {size_t{0}, size_t{4096}, size_t{16384}, size_t{49152}}) {
          cudaOccFuncAttributes attr;
          attr.maxThreadsPerBlock = 1024;
          attr.numRegs = regs;
          attr.sharedSizeBytes = shared;
          attr.partitionedGCConfig = PARTITIONED_GC_OFF;
          attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
          attr.maxDynamicSharedSizeBytes = 0;
          cudaOccDeviceState state;  // the default carveout
          cudaOccResult result;
          if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, block, 0) !=
              CUDA_OCC_SUCCESS) {
            std::printf("occupancy: the calculator refused %s block %d regs %d smem %zu\n", sm.name,
                        block, regs, shared);
            ++wrong;
            continue;
          }
          roofline::cuda::detail::OccupancyInput in;
          in.max_threads_per_sm = 2048;
          in.max_blocks_per_sm = 32;
          in.registers_per_sm = 65536;
          in.shared_per_sm_bytes = static_cast<double>(sm.shared_per_sm);
          in.reserved_shared_per_block_bytes = 1024;
          in.block_threads = block;
          in.registers_per_thread = regs;
          in.shared_per_block_bytes = static_cast<double>(shared);
          const int ours = roofline::cuda::detail::occupancy_blocks_per_sm(in);
          ++checked;
          if (ours != result.activeBlocksPerMultiprocessor) {
            if (++wrong <= 20)
              std::printf("occupancy: %s block %d regs %d smem %zu: ours %d, calculator %d\n",
                          sm.name, block, regs, shared, ours, result.activeBlocksPerMultiprocessor);
          }
        }
  }
  std::printf("occupancy: %d cases checked against cuda_occupancy.h, %d differ\n", checked, wrong);
  return wrong ? 1 : 0;
}
