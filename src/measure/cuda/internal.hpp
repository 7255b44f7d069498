#pragma once
// Internal helpers of the CUDA backend that need no GPU (tested in tests/cuda/).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "measure/engine/shared_library.hpp"
#include "roofline/cuda.hpp"

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

// ---- finding the toolkit's and the driver's libraries at run time ----

/// Where to look for a shared library, gathered at run time (environment and directories that
/// exist); library_candidates() turns it into the ordered list of paths to dlopen.
struct LibrarySearch {
  std::string cuda_home;          ///< $CUDA_HOME
  std::string cuda_path;          ///< $CUDA_PATH
  std::string build_library_dir;  ///< the toolkit's library directory at build time
  /// Toolkit roots that exist, e.g. /usr/local/cuda, /usr/local/cuda-13.0 (newest first).
  std::vector<std::string> toolkit_roots;
  /// Further directories (the driver's: /usr/lib/x86_64-linux-gnu, /usr/local/nvidia/lib64).
  std::vector<std::string> extra_dirs;
};

/// The paths to try for `soname`, in order: the bare soname (the loader's cache and
/// LD_LIBRARY_PATH), then `<dir>/soname` for $CUDA_HOME and $CUDA_PATH (lib64, lib,
/// targets/x86_64-linux/lib), the build's toolkit directory, each toolkit root (same
/// subdirectories) and the extra directories. No duplicates.
std::vector<std::string> library_candidates(const std::string& soname, const LibrarySearch& s);

/// The search of this process: $CUDA_HOME, $CUDA_PATH, `build_library_dir`, /usr/local/cuda
/// and /usr/local/cuda-* that exist (newest version first), the driver's usual directories, and
/// the library directories of NVIDIA's Python wheels (wheel_library_dirs of $VIRTUAL_ENV,
/// /opt/*/.venv, /usr/local/lib/python3*/dist-packages, /usr/lib/python3/dist-packages).
LibrarySearch library_search_here(const std::string& build_library_dir);

/// The directories where NVIDIA's Python wheels keep their shared libraries — <site>/nvidia/cu13
/// /lib (CUDA 13 wheels) and <site>/nvidia/cublas/lib (CUDA 12) — for each site-packages
/// directory matching one of the glob(3) `patterns`; only directories that exist.
std::vector<std::string> wheel_library_dirs(const std::vector<std::string>& patterns);

// Opening them: roofline::open_library (measure/engine/shared_library.hpp).
using roofline::open_library;
using roofline::OpenedLibrary;

// ---- grids sized from occupancy ----

/// What limits how many blocks of a kernel fit on one SM (cudaDeviceProp / cudaFuncAttributes).
struct OccupancyInput {
  int max_threads_per_sm = 0;      ///< maxThreadsPerMultiProcessor (2048 on sm_80/sm_90)
  int max_blocks_per_sm = 0;       ///< maxBlocksPerMultiProcessor (32 on sm_80/sm_90)
  int registers_per_sm = 0;        ///< regsPerMultiprocessor (65536)
  double shared_per_sm_bytes = 0;  ///< sharedMemPerMultiprocessor
  double reserved_shared_per_block_bytes = 0;  ///< reservedSharedMemPerBlock (1 KiB from sm_80)
  int block_threads = 0;
  int registers_per_thread = 0;       ///< cudaFuncAttributes::numRegs
  double shared_per_block_bytes = 0;  ///< static + dynamic shared memory of one block
};

/// Resident blocks per SM as the CUDA occupancy calculator (cuda_occupancy.h) counts them: the
/// least of the thread limit, the block limit, the register limit (registers allocated per warp
/// in units of 256, per SM sub-partition of the 4) and the shared-memory limit. 0 when the
/// block cannot run at all. Throws InputError for non-positive limits or block size.
int occupancy_blocks_per_sm(const OccupancyInput& in);

/// A persistent grid: SMs × resident blocks per SM (the occupancy API's figure), so every block
/// runs at once. Throws Error when the kernel fits no block on an SM.
int persistent_grid(int sm_count, int blocks_per_sm, const std::string& kernel);

// ---- the SM clock under load ----

/// The SM clock a unit ran at, from NVML samples (MHz) taken while its timed runs ran: the
/// median, with how it was read. Empty when fewer than `min_samples` samples were taken.
std::optional<ClockUnderLoad> clock_under_load(const std::vector<double>& samples_mhz,
                                               const std::string& load, int min_samples = 3);

}  // namespace roofline::cuda::detail
