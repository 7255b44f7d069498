#pragma once
// The arithmetic of CPU measurement, kept pure so it is tested without hardware: rates from a
// kernel's declaration, statistics of repeated samples, plateau detection on a working-set sweep,
// naming plateaus after the detected caches (and checking the sizes), and the theoretical peak
// from the microarchitecture table.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roofline/cpu_backend.hpp"
#include "roofline/roof.hpp"
#include "roofline/statistics.hpp"

namespace roofline::cpu {

// ---- rates: the one place work and bytes become rates ----
/// FLOP/s (or OP/s) of `threads` threads each running `iterations` iterations in `seconds`.
double compute_rate(const ComputeKernel& k, double iterations, int threads, double seconds);
/// byte/s of a memory kernel: `passes` passes over arrays of `bytes_per_array` per thread.
/// `moved` selects the convention (false: named bytes, STREAM's; true: bytes moved including
/// write-allocate).
double memory_rate(const MemoryKernel& k, double bytes_per_array, double passes, int threads,
                   double seconds, bool moved);

// ---- working-set sweep ----
struct SweepPoint {
  double bytes = 0;  ///< total working set over all threads
  double rate = 0;   ///< byte/s
};
struct Plateau {
  size_t first = 0, last = 0;  ///< indices into the sweep, inclusive
  double rate = 0;             ///< median rate of its points
  double min_bytes = 0, max_bytes = 0;
};
/// Splits a sweep (ascending sizes) into plateaus: runs of ≥ 2 consecutive points within
/// `tolerance` (relative) of the run's median. Points between runs (transitions) belong to none.
std::vector<Plateau> find_plateaus(const std::vector<SweepPoint>& sweep, double tolerance = 0.15);

/// A memory level found in the sweep.
struct LevelAssignment {
  std::string level;                ///< "L1", "L2", "L3", "DRAM"
  std::optional<size_t> plateau;    ///< index into the plateaus; empty: none matched
  double representative_bytes = 0;  ///< working set at which the level's mixes are measured
  double reported_bytes = 0;        ///< capacity reported by the system (aggregate), 0 for DRAM
  double measured_edge_bytes = 0;   ///< largest working set still on the plateau
  bool size_agrees = true;          ///< reported size consistent with the plateau's edge
  std::string note;
};
/// Names the plateaus after the detected caches (aggregate capacities, ascending; one per cache
/// level) plus DRAM, and checks each reported size against where its plateau ends. Without
/// cache sizes, plateaus are named in order and the last is DRAM.
std::vector<LevelAssignment> name_levels(const std::vector<SweepPoint>& sweep,
                                         const std::vector<Plateau>& plateaus,
                                         const std::vector<double>& cache_capacities);

// ---- theoretical peak ----
/// Instructions per cycle per core of each kernel class, by vector width (≤ 256 bits / 512).
/// 0 = not known for this microarchitecture (no theoretical roof is given then).
struct Microarchitecture {
  std::string name;  ///< e.g. "zen3", "sapphirerapids"; "unknown"
  double fma_256 = 0, fma_512 = 0;
  double add_mul_256 = 0, add_mul_512 = 0;  ///< adds and multiplies together, in a 50/50 mix
  double int16_madd_256 = 0, int16_madd_512 = 0;
  double int8_madd_256 = 0, int8_madd_512 = 0;  ///< vpmaddubsw per cycle
  double vnni_256 = 0, vnni_512 = 0;
  double bf16_dot_512 = 0, fp16_fma_512 = 0;
  std::string source;
};
/// The microarchitecture of a CPU from its vendor, family, model and brand string.
Microarchitecture identify_microarchitecture(const CpuFeatures& f);
/// Work (FLOP or OP) per cycle per core of kernel `k` on `u`; nullopt when the table has no entry.
std::optional<double> work_per_cycle(const Microarchitecture& u, const ComputeKernel& k);
/// Theoretical peak = cores × clock × work per cycle per core (DIGEST §9: "compute = cores ×
/// clock × FLOP per core per cycle").
double theoretical_peak(int cores, double clock_hz, double work_per_cycle_per_core);
/// Ratio measured/theoretical above which a roof is flagged as a measurement problem.
inline constexpr double kAboveTheoryLimit = 1.05;

/// Memory levels whose roof is above the roof of the level nearer the core, in the order given
/// (nearest first): "L2 above L1" for roofs [L1, L2, ...] where L2's bandwidth exceeds L1's by
/// more than `tolerance` (relative). Each level of a hierarchy serves the one above it, so a
/// farther level cannot sustain more: an inversion means one of the two roofs was measured while
/// disturbed (or the working sets missed their levels). Pairs are (farther, nearer).
std::vector<std::pair<std::string, std::string>> inverted_levels(
    const std::vector<MemoryRoof>& nearest_first, double tolerance = 0.02);

}  // namespace roofline::cpu
