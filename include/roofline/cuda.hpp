#pragma once
// The CUDA backend of `roofline measure --device cuda` (docs/cuda.md). Measured GPU roofs (HBM,
// L2, L1 and shared-memory bandwidth; fp64/fp32/fp16 FMA on the CUDA cores; tensor-core GEMM
// roofs per precision) next to theoretical ones derived from the device (docs/cuda.md, "Theoretical
// roofs": SM count × clock × work per SM per cycle, bus width × memory clock × 2).
//
// Everything here links and runs on every build: without CUDA compiled in, or without a device,
// status() says why and measure() throws roofline::Unavailable. The host-side arithmetic
// (theoretical roofs, statistics, document assembly) is pure and tested everywhere.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/engine.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/roof.hpp"

namespace roofline::cuda {

/// True when the library was built with the CUDA backend (CMake found the toolkit).
bool compiled();

/// One line: the device that measure() would use ("NVIDIA H200 (cuda:0, sm_90, 132 SMs)"), or
/// why there is none ("CUDA not compiled in", "no CUDA device: <driver's reason>").
std::string status(int device = 0);

struct Options {
  int device = 0;      ///< CUDA device ordinal
  bool quick = false;  ///< fewer sizes and repetitions (a few seconds instead of ≤ 60 s)
  /// Progress callback (fraction done in [0, 1], what runs now); may be empty.
  std::function<void(double, const std::string&)> progress;
  /// Called with each result as soon as it is measured: one JSON object per roof, peer, part
  /// and unavailable roof (docs/cuda.md, "Partial results"), so that a run stopped early still
  /// leaves what it measured. May be empty.
  std::function<void(const nlohmann::json&)> record;
  /// Seconds after which no new part is started (0: no limit); parts not run are listed in
  /// measurement.unavailable and the document is still returned.
  double deadline_s = 0;
};

/// Measures the GPU's roofs. Throws roofline::Unavailable naming the reason when CUDA is not
/// compiled in, no driver or device is present, or `device` is out of range.
MachineDocument measure(const Options& options);

/// What the theoretical roofs are derived from (cudaDeviceProp / cudaDeviceGetAttribute).
struct DeviceProps {
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  double sm_clock_hz = 0;   ///< peak SM clock (cudaDevAttrClockRate)
  double mem_clock_hz = 0;  ///< peak memory clock (cudaDevAttrMemoryClockRate)
  int bus_width_bits = 0;   ///< global memory bus width
  double l2_bytes = 0;      ///< L2 cache size
  double memory_bytes = 0;  ///< global memory size
  double shared_per_sm_bytes = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;                   ///< cudaDevAttrMaxBlocksPerMultiprocessor
  int registers_per_sm = 0;                    ///< cudaDevAttrMaxRegistersPerMultiprocessor
  double reserved_shared_per_block_bytes = 0;  ///< cudaDevAttrReservedSharedMemoryPerBlock
  std::string pci_bus_id;                      ///< "0000:3B:00.0", matches NVML
};

/// The SM clock one unit sustained while its roof was measured: NVML samples taken during the
/// timed runs (nvmlDeviceGetClockInfo, NVML_CLOCK_SM), their median.
struct ClockUnderLoad {
  double sm_clock_hz = 0;
  int samples = 0;
  std::string load;  ///< what ran while the clock was sampled, e.g. "bf16 GEMM 8192³"
};

/// Per-SM, per-clock throughput of one unit and precision for one architecture: FLOP (or OP) per
/// cycle per SM, counting an FMA as 2. `source` names the table or whitepaper it comes from.
struct UnitRate {
  std::string precision;  ///< dtype name: fp64, fp32, fp16, tf32, bf16, fp8-e4m3, int8
  std::string unit;       ///< "cuda cores" or "tensor"
  double work_per_clock_per_sm = 0;
  bool integer = false;
  std::string source;
};

/// The per-SM rates known for compute capability major.minor (dense, no sparsity). Empty for an
/// architecture not in the table; tensor rates only where they are the same for every SKU.
std::vector<UnitRate> unit_rates(int cc_major, int cc_minor);

/// Roof name for a unit rate: "<precision> <unit>", e.g. "bf16 tensor", "fp32 cuda cores".
std::string roof_name(const std::string& precision, const std::string& unit);

/// The theoretical peak of one unit rate on a device as the engine states every theory (SMs ×
/// clock × work per cycle per SM, engine::Theory): at the SM clock sustained while the roof was
/// measured when `clock` is given, else at the maximum (cudaDevAttrClockRate).
engine::Theory unit_theory(const DeviceProps& props, const UnitRate& rate,
                           const ClockUnderLoad* clock = nullptr);

/// Peak DRAM/HBM bandwidth in byte/s: bus width (bits) / 8 × memory clock × 2 (double data
/// rate; the clock CUDA reports gives each memory type's datasheet figure this way).
ByteRate dram_bandwidth(int bus_width_bits, Hertz mem_clock);

/// Peak L1/shared-memory bandwidth in byte/s: SMs × 128 byte/cycle (32 banks × 4 bytes, CUDA C
/// Programming Guide, "Shared Memory") × SM clock.
ByteRate shared_bandwidth(int sm_count, Hertz sm_clock);

/// The memory level name of the device's DRAM: "HBM" for buses of 1024 bits or more (one HBM
/// stack is 1024 bits wide; GDDR buses are at most 512), else "DRAM".
std::string dram_level_name(int bus_width_bits);

/// Theoretical roofs: one compute roof per known unit rate (SMs × clock × rate), the DRAM/HBM
/// roof, and L1/shared roofs; every roof with provenance theoretical, its formula and source.
/// Throws InputError when a property needed is not positive.
RoofSet theoretical_roofs(const DeviceProps& props);

/// The same roofs, with each compute roof and the L1/shared roofs named in `clocks` at the SM
/// clock sustained while it was measured instead of the maximum (cudaDevAttrClockRate). NVIDIA
/// quotes Hopper's tensor peaks at 1.83 GHz, below the 1.98 GHz maximum, because the chip does
/// not hold its maximum clock under tensor-core load; the theory a measured roof is judged
/// against is the one at the clock it actually ran. The formula names the clock and how it was
/// read. Throws InputError for a clock that is not positive.
RoofSet theoretical_roofs(const DeviceProps& props,
                          const std::map<std::string, ClockUnderLoad>& clocks);

// ---- measurement results and document assembly (host side, used by measure(), tested) ----

/// The statistics of repeated rates by the engine's one policy (summarize_rates(),
/// statistics.hpp), after checking that each rate is finite and > 0. Throws InputError when
/// empty or when a rate is not.
Statistics rate_statistics(const std::vector<double>& rates);

/// The rate a measured GPU roof takes from the statistics of its repetitions (the sustained
/// rate, the engine's policy in statistics.hpp): the one place assemble_document() and the
/// partial results (Options::record) take it from.
double roof_rate(const Statistics& stats);

/// Energy the device drew while a measurement's repetitions ran (NVML's total-energy counter
/// read before and after them): joules over the wall time of the repetitions.
struct EnergyUnderLoad {
  double joules = 0;
  double seconds = 0;
};

/// One measured compute roof: the rates (FLOP/s or OP/s) of the best size in the sweep, plus
/// the whole sweep for the document.

struct ComputeResult {
  std::string precision;
  std::string unit;
  bool integer = false;
  std::string method;              ///< e.g. "cuBLASLt matmul, bf16 in/out, fp32 accumulate"
  std::vector<double> best_rates;  ///< repetitions at the best point of the sweep
  /// The sweep: (problem size as text, median rate).
  std::vector<std::pair<std::string, double>> sweep;
  /// The SM clock while the best point's repetitions ran (NVML), when it could be read.
  std::optional<ClockUnderLoad> clock;
  /// The energy drawn meanwhile (NVML), when it could be read.
  std::optional<EnergyUnderLoad> energy{};
};

/// One measured memory level: rates per access mix at the level's working set.
struct MemoryResult {
  std::string level;  ///< "L1", "shared", "L2", "HBM"/"DRAM"
  std::string kind;   ///< "cache" or "memory"
  std::string method;
  std::optional<double> size_bytes;
  std::string roof_mix;  ///< the mix whose rate is the roof (e.g. "load")
  std::vector<std::pair<std::string, std::vector<double>>> mixes;  ///< mix → repeated rates
  /// The SM clock while the roof mix's repetitions ran (NVML), when it could be read.
  std::optional<ClockUnderLoad> clock;
  /// The energy drawn meanwhile (NVML), when it could be read.
  std::optional<EnergyUnderLoad> energy{};
};

/// A working-set sample: bytes in the working set and the median read rate (byte/s).
struct SweepSample {
  double working_set_bytes = 0;
  double bytes_per_s = 0;
};

struct Measurements {
  std::vector<ComputeResult> compute;
  std::vector<MemoryResult> memory;
  std::vector<SweepSample> working_set_sweep;
  std::vector<std::string> unavailable;  ///< roofs that could not be measured, with the reason
};

/// The engine's measurements of a GPU run (engine.hpp): each rate as a sample of one second,
/// each measured compute roof with its unit_theory() (at the clock it ran), each memory level
/// with the theory's bandwidth and formula; theoretical roofs not measured kept as they are.
/// `device` becomes the "device" section, `measurement` the start of "measurement".
engine::Measurements engine_measurements(const DeviceProps& props, const RoofSet& theory,
                                         const Measurements& measured, const nlohmann::json& device,
                                         const nlohmann::json& measurement);

/// Builds the machine document through the engine's one assemble step:
/// engine::assemble(engine_measurements(...)). Measured roofs with statistics and, where the
/// table has a rate, their theoretical value and formula beside them, judged like every
/// backend's; theoretical roofs that were not measured are kept with provenance theoretical.
MachineDocument assemble_document(const DeviceProps& props, const RoofSet& theory,
                                  const Measurements& measured, const nlohmann::json& device,
                                  const nlohmann::json& measurement);

}  // namespace roofline::cuda
