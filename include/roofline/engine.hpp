#pragma once
// The measurement engine: one path from a device to its machine document.
//
//   options ──▶ Backend::measure ──▶ Measurements ──▶ assemble ──▶ MachineDocument
//
// A backend (the CPU, a CUDA device, …) runs its kernels and reports typed measurements: for each
// kernel its declaration (what one iteration does: FLOP or OP, bytes, precision, vector width,
// instruction class) and its timed samples (iterations and seconds). It never computes a roof:
// `assemble` is the one pure step that turns samples into rates through the declarations, applies
// the statistics policy (statistics.hpp), picks each memory level's best mix, sets theoretical
// roofs beside measured ones and writes the judgements (noise, confirmation, theory) into the
// document. The registry picks the backend from MeasureOptions::device; callers never name one.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/cpu_record.hpp"
#include "roofline/io.hpp"
#include "roofline/measure.hpp"
#include "roofline/roof.hpp"

namespace roofline::engine {

/// What one iteration of a kernel does, declared once next to the kernel.
struct Declaration {
  std::string kernel;     ///< the symbol or method that ran
  std::string precision;  ///< dtype of the arithmetic ("fp64", "int8"); "" for data movement
  int width_bits = 0;     ///< vector width (64/32 for scalar, 128, 256, 512); 0 if none
  std::string instruction_class;   ///< "fma", "add+mul", "vnni", …; for memory kernels the mix
  double work_per_iteration = 0;   ///< FLOP (or OP when `integer`)
  double bytes_per_iteration = 0;  ///< bytes the code names (loads + stores, STREAM's count)
  double moved_bytes_per_iteration = 0;  ///< bytes moved, write-allocate included (0: = named)
  bool integer = false;
  std::string counting;  ///< how work and bytes are counted, in words
};

/// One timed sample: `iterations` iterations of a kernel (summed over every thread of the team)
/// in `seconds` of wall time (from the common start to the last thread's finish).
struct Sample {
  double iterations = 0;
  double seconds = 0;
};

/// Work per second of a sample (FLOP/s or OP/s) by the declaration.
double work_rate(const Declaration& d, const Sample& s);
/// Bytes per second of a sample: named bytes, or moved bytes when `moved`.
double byte_rate(const Declaration& d, const Sample& s, bool moved = false);
/// The rate a kernel is judged by: work rate for kernels that declare work, else named bytes.
double rate(const Declaration& d, const Sample& s);
/// rate() of every sample.
std::vector<double> rates(const Declaration& d, const std::vector<Sample>& samples);

/// A theoretical peak: units × clock × work per cycle per unit (docs/model.md §9: "compute = cores
/// × clock × FLOP per core per cycle"), with where each factor comes from.
struct Theory {
  int units = 0;  ///< cores (CPU) or streaming multiprocessors (GPU)
  std::string unit_name = "core";
  double clock_hz = 0;
  /// The median of the clock samples clock_hz is the fastest of (0: one figure, no samples):
  /// far below it, the clock varied while the kernels ran.
  double clock_median_hz = 0;
  std::string clock_source = "measured";  ///< "measured", "device attribute", …
  double work_per_cycle_per_unit = 0;
  std::string table;   ///< the table row used, e.g. the microarchitecture "zen4"
  std::string source;  ///< reference of the table row
  /// Which limit keeps this class below its issue rate (dispatch, ports, dependencies) with its
  /// source; empty when the issue rate is expected to be reached. Printed when measured/theory
  /// falls below kBelowTheoryLimit.
  std::string limit;

  double value() const { return units * clock_hz * work_per_cycle_per_unit; }
  /// "2 cores × 3.67 GHz (measured) × 32 FLOP/cycle/core (zen4)"
  std::string formula(const std::string& work_unit) const;
};

/// Ratios measured/theory outside [kBelowTheoryLimit, kAboveTheoryLimit] are judged: above, the
/// clock or the table is wrong (a warning); below, the kernel or the table is (a warning unless
/// the theory names the limit that applies).
inline constexpr double kBelowTheoryLimit = 0.92;
inline constexpr double kAboveTheoryLimit = 1.05;
/// Other work's share of the measured CPUs' time (ComputeMeasurement::other_work) above which it
/// is said, and a roof below its theory put down to it. On the 2-vCPU development VM, runs with
/// no other process read 0–11% (the two /proc readings are not taken at one instant, and a
/// host's steal comes and goes); one busy process pinned to one of the two CPUs, 33–42%.
inline constexpr double kOtherWorkLimit = 0.15;

/// Energy drawn while one measurement ran: summed over its visits, each bracketed by two
/// readings of the machine's energy counter (the visit's warm-up included, as its time is).
/// Written as {"joules", "seconds", "power_w", "visits"} in the roof's detail.
struct VisitEnergy {
  double joules = 0;
  double seconds = 0;  ///< wall time of the visits that were read on both sides
  int visits = 0;
  /// Average power over those visits (W); 0 when nothing was read.
  double watts() const { return seconds > 0 ? joules / seconds : 0; }
};

struct ComputeMeasurement {
  std::string name;  ///< roof name, e.g. "fp64 512-bit fma"
  std::string unit;  ///< e.g. "512-bit fma"
  Declaration declaration;
  std::string method;  ///< how it ran, in words ("avx512 kernel …, 2 pinned threads")
  std::vector<Sample> samples;
  int rounds = 0;  ///< rounds the samples were spread over
  std::optional<Theory> theory;
  std::string no_theory;         ///< why there is no theoretical roof (when theory is empty)
  std::vector<Sample> one_core;  ///< the same kernel on one core (empty: not measured)
  std::optional<Theory> one_core_theory;
  std::string isa;  ///< the kernel's instruction set, e.g. "avx2" ("": the backend names none)
  int chains = 0;   ///< the kernel's independent accumulator chains (0: not said)
  std::optional<VisitEnergy> energy;  ///< power while it ran (empty: no energy counter)
  /// The share of the measured CPUs' time that other work (other processes, other guests)
  /// took while its phase ran (engine/other_work.hpp); empty where it could not be read.
  std::optional<double> other_work;
};

struct MixMeasurement {
  Declaration declaration;  ///< instruction_class = the mix ("load", "copy_nt", …)
  std::vector<Sample> samples;
};

/// A cache as the topology gives it, against the threads that measured it.
struct CacheShare {
  double size_per_instance = 0;  ///< bytes of one instance
  int cores_sharing = 1;         ///< cores sharing one instance
  double size_per_core = 0;      ///< size_per_instance / cores_sharing
  std::string size_words;  ///< the sizes in words ("32.77 kB per core, 65.54 kB for 2 threads")
};

/// What the sweep found of a memory level's size (measurement.memory.LEVEL; docs/measure.md
/// "Memory roofs"): where its plateau ends against the size the system reports.
struct LevelSizes {
  double reported_size = 0;  ///< bytes the system reports for the threads (0: DRAM)
  double plateau_edge = 0;   ///< the largest working set still on the level's plateau
  std::optional<double> plateau_edge_per_thread;  ///< caches: the edge over the threads
  bool size_agrees = true;          ///< the reported size is consistent with the plateau's edge
  std::optional<CacheShare> cache;  ///< the cache the topology names (empty: none, or DRAM)
  std::string note;                 ///< why the size and the plateau disagree ("": they agree)
};

struct MemoryMeasurement {
  std::string level;           ///< "L1", "L2", "L3", "DRAM", "HBM"
  std::string kind = "cache";  ///< "cache" or "memory"
  double working_set_bytes = 0;
  std::optional<double> size_bytes;  ///< capacity the roof stands for (the document's `size`)
  std::string method;                ///< "avx512 kernels, 2 pinned threads"
  std::vector<MixMeasurement> mixes;
  std::optional<LevelSizes> sizes;    ///< what the sweep found of the level's size (CPU)
  std::string planned_mix;            ///< the mix the backend planned as the roof's ("": none)
  std::optional<VisitEnergy> energy;  ///< power while the roof's (best) mix ran
  std::map<std::string, VisitEnergy> mix_energy;  ///< power while each mix ran, by mix
  std::optional<MixMeasurement> one_core;         ///< the best mix again on one core
  double one_core_working_set_bytes = 0;
  /// A theoretical bandwidth beside the measured one (e.g. bus width × memory clock × 2 for
  /// HBM), its formula and source; 0 when there is none.
  ByteRate theoretical_bandwidth;
  std::string theory_formula;
};

/// A point of the empirical curve: a kernel of declared work and bytes per iteration.
struct CurveMeasurement {
  Declaration declaration;
  std::vector<Sample> samples;
  std::uint64_t rounds = 0;  ///< the kernel's FMA rounds per element
  bool light = false;        ///< the light variant (fewer operations than one FMA round)
};

/// How the curve's kernels ran (measurement.curve besides its points).
struct CurveSetup {
  std::string kernel;            ///< the kernel's symbol
  double working_set_bytes = 0;  ///< over all threads
  std::string precision;         ///< e.g. "fp64"
};

/// Everything a backend measured, before any roof is computed.
struct Measurements {
  std::string name;    ///< the machine's name in the document
  std::string origin;  ///< e.g. "roofline measure"
  std::vector<ComputeMeasurement> compute;
  std::vector<MemoryMeasurement> memory;  ///< nearest level first
  std::vector<CurveMeasurement> curve;
  std::optional<CurveSetup> curve_setup;  ///< measurement.curve without points (empty: none)
  std::string default_compute;            ///< roof judged when a point names none ("" = none)
  std::string default_memory;
  /// The CPU backend's description (the document's info) and run record (the start of its
  /// measurement section: clock, sweep, power at rest, phase times), typed; io writes them.
  std::optional<CpuDescription> cpu;
  std::optional<CpuRunRecord> cpu_run;
  /// Another backend's info and measurement detail (the GPU path's, as its device code records
  /// them: docs/cuda.md), used where `cpu` / `cpu_run` are empty.
  nlohmann::json info = nlohmann::json::object();
  nlohmann::json measurement = nlohmann::json::object();
  /// Other top-level sections of the document (e.g. "device"), kept as they are.
  nlohmann::json sections = nlohmann::json::object();
  /// Roofs the backend knows but did not measure (theoretical or datasheet), appended as they
  /// are after the measured ones (a measured roof of the same name wins).
  std::vector<ComputeRoof> unmeasured_compute;
  std::vector<MemoryRoof> unmeasured_memory;
  std::vector<std::string> warnings;
  int retries_for_noise = 0;
  double seconds = 0;
};

/// The machine document of `m`: pure (no clock, no hardware), so it is tested on any machine.
/// Roofs: compute = the sustained rate of its samples, memory = the best mix's; every roof with
/// its statistics; theoretical roofs and their ratio judged (kBelowTheoryLimit,
/// kAboveTheoryLimit); noise, confirmation and level inversions summed up as warnings and in
/// measurement.noisy_roofs / unconfirmed_roofs / inverted_levels. Throws InputError when a
/// measurement has no samples or a non-positive rate.
MachineDocument assemble(const Measurements& m);

/// Memory levels whose roof is above the roof of the level nearer the core by more than
/// `tolerance` (relative), in the order given (nearest first); pairs are (farther, nearer). Each
/// level of a hierarchy serves the one above it, so a farther level cannot sustain more: an
/// inversion means one of the two roofs was measured while disturbed (or the working sets missed
/// their levels).
std::vector<std::pair<std::string, std::string>> inverted_levels(
    const std::vector<MemoryRoof>& nearest_first, double tolerance = 0.02);

/// A device the engine can measure.
class Backend {
 public:
  virtual ~Backend() = default;
  /// The name MeasureOptions::device selects, e.g. "cpu", "cuda".
  virtual std::string name() const = 0;
  /// One line: the device this backend would measure, or why it cannot.
  virtual std::string status(const MeasureOptions& o) const = 0;
  /// Runs the measurement. Throws Unavailable when the device is missing, InputError for options
  /// that do not apply, Interrupted when options.cancel is raised.
  virtual Measurements measure(const MeasureOptions& o) const = 0;
  /// Throws what measure(o) would throw for the device or the options (Unavailable,
  /// InputError) before it measures anything, without measuring: a command that measures
  /// later refuses at once. The default checks nothing.
  virtual void check(const MeasureOptions&) const {}
  /// The document of a measurement: assemble(measure(o)). The CUDA backend overrides it: its
  /// measure keeps the device open until its Measurements are assembled (cuda::measure).
  virtual MachineDocument document(const MeasureOptions& o) const { return assemble(measure(o)); }
};

/// Every registered backend, in registration order ("cpu" first).
const std::vector<const Backend*>& backends();
/// The backend named `device`; throws InputError listing the known names.
const Backend& find_backend(const std::string& device);

/// Measures the device MeasureOptions::device names ("cpu" when empty) and assembles its
/// document.
MachineDocument measure(const MeasureOptions& o);

}  // namespace roofline::engine
