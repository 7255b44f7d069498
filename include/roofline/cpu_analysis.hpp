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
#include "roofline/engine.hpp"
#include "roofline/roof.hpp"
#include "roofline/statistics.hpp"

namespace roofline::cpu {

// ---- declarations: a kernel's work and bytes for the engine (engine.hpp computes the rates) ----
/// A compute kernel's declaration: work per iteration, precision, width, class, counting.
engine::Declaration declaration_of(const ComputeKernel& k);
/// A memory kernel's declaration: named and moved bytes per iteration (one iteration covers
/// `bytes_per_array_per_iteration` of every array), the mix as its class.
engine::Declaration declaration_of(const MemoryKernel& k);

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
/// Instructions per cycle per core of each kernel class, by vector width (≤ 256 bits / 512), for
/// the instruction mix of this project's kernel of that class: the port bound (instructions the
/// execution units can issue per cycle), from the vendors' optimization guides and instruction
/// tables (uarch.cpp lists them). 0 = not known (no theoretical roof is claimed then).
struct Microarchitecture {
  std::string name;  ///< e.g. "zen3", "sapphirerapids"; "unknown"
  double fma_256 = 0, fma_512 = 0;
  double add_mul_256 = 0, add_mul_512 = 0;        ///< adds and multiplies together, in a 50/50 mix
  double int16_madd_256 = 0, int16_madd_512 = 0;  ///< vpmaddwd per cycle (with its vpaddd)
  double int8_madd_256 = 0, int8_madd_512 = 0;    ///< vpmaddubsw per cycle (+ vpmaddwd, vpaddd)
  double vnni_256 = 0, vnni_512 = 0;              ///< vpdpbusd per cycle
  double bf16_dot_512 = 0, fp16_fma_512 = 0;      ///< vdpbf16ps, vfmadd…ph per cycle
  double amx_dot = 0;  ///< AMX tile dot products (tdpbf16ps, tdpb*d) per cycle
  /// 128-bit datapaths (Zen 1): a 256-bit instruction runs as two 128-bit halves, so it issues
  /// at half the rate of the *_256 entries, which then count 128-bit (and scalar) instructions.
  bool halves_256 = false;
  std::string source;
  /// Known limits below the port bound, by column ("int16_madd_256" → why, with its source).
  std::vector<std::pair<std::string, std::string>> limits;
};
/// The microarchitecture of a CPU from its vendor, family, model, brand string and features.
Microarchitecture identify_microarchitecture(const CpuFeatures& f);
/// Work (FLOP or OP) per cycle per core of kernel `k` on `u`; nullopt when the table has no entry.
std::optional<double> work_per_cycle(const Microarchitecture& u, const ComputeKernel& k);
/// The limit known to keep kernel `k` below its port bound on `u` ("" when none is known).
std::string limit_for(const Microarchitecture& u, const ComputeKernel& k);
/// The table column of kernel `k` ("fma_512", "int16_madd_256", …).
std::string table_column(const ComputeKernel& k);
/// The default compute roof of a measurement: the widest fp64 FMA roof (deterministic, not the
/// noisiest winner); else the widest FMA, else the widest vector roof — a matrix unit (AMX)
/// only when nothing else was measured; integer roofs never.
std::string default_compute_roof(const std::vector<ComputeKernel>& kernels);
/// Theoretical peak = cores × clock × work per cycle per core (docs/model.md §9: "compute = cores ×
/// clock × FLOP per core per cycle").
WorkRate theoretical_peak(int cores, Hertz clock, double work_per_cycle_per_core);

}  // namespace roofline::cpu
