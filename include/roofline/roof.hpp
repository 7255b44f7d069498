#pragma once
// Roofs and roof sets (docs/model.md §2, §7, §9). A roof set holds any number of compute roofs
// (flat lines: one per precision and unit, e.g. "fp32 avx2 fma", "fp16 tensor") and memory roofs
// (slanted lines: one per memory level, L1 ... DRAM/HBM, or a network). Every roof carries its
// provenance: measured (with statistics), theoretical (with the formula's inputs) or datasheet
// (with the source).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/units.hpp"

namespace roofline {

/// Where a roof's value comes from: measured on the machine, computed from a stated formula,
/// printed in the vendor's own document (datasheet, whitepaper, product page), reported: a
/// vendor figure seen only in a third party's publication (a review's or a cloud provider's
/// table), whose source the roof names, or given: a number the user gave (the CLI's --peak and
/// --bandwidth, Python's Machine.from_roofs), vouched for by nobody else.
enum class Provenance { measured, theoretical, datasheet, reported, given };
std::string to_string(Provenance p);
Provenance parse_provenance(std::string_view s);  ///< throws InputError

/// Agreement the fastest samples need for a roof to count as confirmed (Statistics::confirmed).
inline constexpr double kAgreement = 0.02;

/// Repeated-measurement statistics of one roof, in the roof's own unit (statistics.hpp holds the
/// policy that fills them: what the roof value is, what counts as noisy and as confirmed).
struct Statistics {
  int repetitions = 0;
  double median = 0;
  double best = 0;
  double min = 0;
  double max = 0;
  double cv = 0;  ///< coefficient of variation (stddev / mean)
  /// Robust spread above the policy's limit, the fastest samples disagree, or the roof stands
  /// far above the upper quartile (statistics.hpp)
  bool noisy = false;
  /// The roof value: the third-fastest sample (the slowest when there are fewer than three), the
  /// best rate reached at least three times (statistics.hpp). 0 when unknown (documents written
  /// before it was recorded).
  double sustained = 0;
  /// The second-fastest sample; 0 when unknown (older documents).
  double second = 0;
  /// Lower and upper quartiles of the samples; 0 when unknown (older documents).
  double q1 = 0, q3 = 0;
  /// Relative spread (max - min) / median: every sample, a single preempted one included.
  double spread() const { return median > 0 ? (max - min) / median : 0; }
  /// Robust relative spread: the interquartile range over the median (one preempted sample, or a
  /// few, do not move it). 0 when the quartiles are unknown.
  double iqr() const { return median > 0 && q3 > 0 ? (q3 - q1) / median : 0; }
  /// The spread every output shows beside a roof (the measure summary, the charts, the terminal
  /// plot): robust_spread() (statistics.hpp), the one the noise policy judges; the coefficient
  /// of variation for documents written without quartiles.
  double shown_spread() const;
  /// The fastest samples agree: the second-fastest is within 2% of the sustained rate, so the
  /// roof was reached repeatedly. The fastest is left out: a lone sample can be mistimed, and it
  /// neither sets the roof nor vetoes it. Documents without `second` compare the best instead.
  bool confirmed() const {
    const double top = second > 0 ? second : best;
    return sustained > 0 && top <= sustained * (1 + kAgreement);
  }
};

/// A flat roof π: peak throughput of one precision on one unit.
struct ComputeRoof {
  std::string name;       ///< unique in its set, e.g. "fp64 avx2 fma"
  std::string precision;  ///< dtype name, e.g. "fp64", "bf16", "int8"
  std::string unit;       ///< execution unit / instruction class, e.g. "avx2 fma", "tensor"
  WorkRate peak{0};
  Provenance provenance = Provenance::datasheet;
  std::string source;                   ///< URL, document or how it was measured
  std::optional<WorkRate> theoretical;  ///< cores × clock × work/cycle, shown next to measured
  std::string formula;                  ///< the theoretical roof's inputs, in words
  std::optional<Statistics> stats;
  bool integer = false;  ///< counted in OP
  bool sparse = false;   ///< structured-sparsity figure: never mixed with dense roofs
};

/// Whether a roof is a matrix engine's (NVIDIA's tensor cores, AMD's matrix cores, Intel's AMX,
/// Google's MXU, Gaudi's MME, Arm's SME, Trainium's NeuronCore figures, which are mostly its
/// Tensor Engines'): its unit or name says so. CUDA-core or SIMD instructions never run on such a
/// unit.
bool is_matrix_unit(const ComputeRoof& c);

/// Whether a roof's products accumulate in a type narrower than fp32: its unit or name says
/// "fp16-accumulate" (or bf16-, fp8-). GeForce tensor cores run that mode at twice the rate of
/// fp32 accumulation (NVIDIA Ada GPU Architecture whitepaper, RTX 4090: 330.3 against 165.2
/// TFLOP/s dense FP16), and frameworks accumulate fp16/bf16 matrix products in fp32.
bool accumulates_narrow(const ComputeRoof& c);

/// Whether `c` stands for its precision before `best` (nullptr: before nothing): a roof that
/// accumulates in full precision before one that accumulates narrower, then the higher peak.
/// The one rule by which "the highest dense roof of a precision" is picked.
bool outranks(const ComputeRoof& c, const ComputeRoof* best);

/// A slanted roof β·I: sustained bandwidth of one level of the memory hierarchy (or a network).
struct MemoryRoof {
  std::string level;  ///< unique in its set, e.g. "L1", "L2", "L3", "DRAM", "HBM", "NVLink"
  std::string kind =
      "memory";  ///< "cache", "memory", "interconnect", "network", "storage", "custom"
  ByteRate bandwidth{0};
  Provenance provenance = Provenance::datasheet;
  std::string source;
  std::optional<ByteRate> theoretical;
  std::string formula;
  std::optional<Statistics> stats;
  std::optional<double> size_bytes;  ///< capacity of the level, when known
  /// Bytes convention of `bandwidth`: "named" (bytes the code names, STREAM's) or "moved"
  /// (bytes really moved, including write-allocate). Empty when unknown (datasheets).
  std::string convention;
  std::map<std::string, double> mixes;  ///< per access mix (load, copy, triad, update...) byte/s
};

/// An overlay measured with the machine: attained P against I for a swept kernel family.
struct CurveSample {
  Intensity intensity{0};
  WorkRate performance{0};
};

/// All the roofs of one machine, with the names of its units.
struct RoofSet {
  std::string name;
  UnitSystem units;
  std::vector<ComputeRoof> compute;
  std::vector<MemoryRoof> memory;
  std::string default_compute;  ///< roof name used when a point names no precision; may be empty
  std::string default_memory;   ///< level used when a point gives one traffic figure; may be empty
  std::vector<CurveSample> empirical_curve;

  const ComputeRoof* find_compute(std::string_view name) const;
  /// The highest dense roof of `precision` on `unit` (a profiler's "fp16 tensor", "fp64
  /// vector"): one whose unit or name mentions the unit; failing that, for "tensor" or "matrix"
  /// one on a matrix engine, for "vector" one on no matrix engine (is_matrix_unit). Null if none.
  const ComputeRoof* find_compute_on(std::string_view precision, std::string_view unit) const;
  const MemoryRoof* find_memory(std::string_view level) const;  ///< case-insensitive
  /// The units a compute roof's rate is printed in: an integer roof of a FLOP/byte set does OP
  /// ("GOP/s", never "GFLOP/s" for int8 work); otherwise the set's own units.
  UnitSystem units_of(const ComputeRoof& c) const;
  /// Whether the roof counts work in `work_unit` ("FLOP", "OP"; "" = unstated, read in the
  /// roof's own unit, which every roof counts): units_of(c).work, so an integer roof of a
  /// FLOP/byte set counts OP and its other roofs FLOP; a set in other units counts its own.
  bool counts(const ComputeRoof& c, std::string_view work_unit) const;
  /// Why roof `c` cannot judge work in `work_unit`, "" when it can (counts): a FLOP count over
  /// an OP/s peak (or OP over FLOP/s) is no bound, the two count different operations.
  std::string work_mismatch(const ComputeRoof& c, std::string_view work_unit) const;

  /// The compute roof a point is judged against: the named roof if `name_or_precision` is a
  /// roof name; else the highest dense roof of that precision (under any spelling of its type,
  /// and either FP8 format on an "fp8" roof: runs_precision); else, for "PRECISION UNIT", the
  /// roof find_compute_on gives; else a roof that names no
  /// precision (roofs given as two numbers: it stands for every precision); else (empty) the
  /// default roof if it counts `work_unit` (counts), else (OP work) the int8 roof, else the
  /// highest dense roof that does —
  /// for unstated work a floating-point one first, an integer one only on a machine of integer
  /// roofs alone (an NPU's), so FLOP work never falls back to an int8 roof. Throws InputError
  /// when nothing matches, listing the roofs. A roof named or found by precision is returned
  /// whatever it counts: the caller judges the match (work_mismatch, diagnose).
  const ComputeRoof& select_compute(std::string_view name_or_precision,
                                    std::string_view work_unit = "") const;
  /// The memory roof for a level ("" = default_memory_roof()). Throws InputError when nothing
  /// matches, and for "" when the set has no default memory roof (its levels are links only):
  /// a point's plain traffic is never judged against an interconnect or a network.
  const MemoryRoof& select_memory(std::string_view level) const;
  /// The default memory roof: the named default, else the first of kind "memory", else the
  /// slowest level that is not a link (kind "interconnect" or "network"). Null when there is
  /// none (no memory roof, or links only).
  const MemoryRoof* default_memory_roof() const;
  /// The slanted roof a chart heads with (its subtitle, primary ridge, axes): the default
  /// memory roof, else (a machine of links only, a cluster's network) the fastest link — drawn,
  /// never a default for plain traffic. Throws InputError when the set has no memory roof.
  const MemoryRoof& headline_memory() const;

  /// Checks names are unique, values positive and finite. Throws InputError naming the roof.
  void validate() const;
};

/// InputError unless the two sets are in the same units: a FLOP/s roof over a tuple/s roof is
/// no speedup, and one chart cannot hold both (diff, hw compare, plot --compare).
void require_same_units(const RoofSet& a, const RoofSet& b);

/// The roof work of `precision` that no matrix engine runs (a kernel that is no matrix product:
/// an axpy, a stencil) is judged on, given `highest`, the roof select_compute(precision) picks:
/// `highest` where it is on no matrix engine (is_matrix_unit), else the highest roof of the
/// precision on no matrix engine (find_compute_on(precision, "vector")). Where the machine has
/// none (fp8 on a GPU: tensor cores only), `highest`, and `note` says that `what` is no matrix
/// product and the bound is optimistic ("" otherwise). The one rule of `roofline kernel`
/// (kernel_compute_roof) and of diagnose() for a point that says so (Point::vector_only).
const ComputeRoof& vector_roof_for(const RoofSet& roofs, const ComputeRoof& highest,
                                   std::string_view precision, const std::string& what,
                                   std::string& note);

/// Roofs given as two numbers (the CLI's --peak and --bandwidth, Python's Machine.from_roofs).
struct GivenRoofs {
  std::string name;
  WorkRate peak{0};
  ByteRate bandwidth{0};
  std::string precision;  ///< empty: the roof stands for every precision
  std::string level;      ///< of the bandwidth; empty = DRAM
  std::string peak_source = "given", bandwidth_source = "given";
};
/// One flat roof, named by its precision else "peak", and one slanted roof at the level;
/// validated (InputError when a number is not > 0 and finite).
RoofSet given_roofs(const GivenRoofs& g);

}  // namespace roofline
