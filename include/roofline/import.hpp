#pragma once
// Points from other tools' output (DIGEST §10): Nsight Compute CSV exports, likwid-perfctr CSV,
// and DCGM `dcgmi dmon` samples. Every importer returns a points document (docs/schema.md) plus
// notes on what it counted and left out. Malformed or truncated files throw InputError naming
// the file, line and column.
#include <optional>
#include <string>
#include <vector>

#include "roofline/io.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline {

struct ImportResult {
  PointsDocument doc;
  std::vector<std::string> notes;  ///< what was counted, skipped, or assumed
  /// Roofs the file itself describes, when it does: an ncu `--set roofline` export carries the
  /// device's peak rates per cycle and its clocks (see import_ncu).
  std::optional<RoofSet> roofs;
};

/// A CSV table with the position of every field (1-based line and column) for messages.
struct CsvField {
  std::string text;
  int line = 0;
  int column = 0;
};
using CsvRow = std::vector<CsvField>;
/// RFC 4180 CSV (quoted fields, doubled quotes, CRLF). Throws InputError "FILE: line L, column
/// C: ..." for an unterminated quote or stray text after a closing quote.
std::vector<CsvRow> parse_csv(const std::string& text, const std::string& origin);

/// A number as profilers print it: thousands separators ("4,194.30"), optional sign and
/// exponent. Throws InputError "FILE: line L, column C: COLUMN: not a number: 'x'".
double parse_profiler_number(const CsvField& f, const std::string& origin,
                             const std::string& column);

/// Scale of an Nsight Compute unit to base units: "byte" 1, "Kbyte" 1e3, "Mbyte" 1e6, "Gbyte"
/// 1e9, "nsecond" 1e-9, "usecond" 1e-6, "msecond" 1e-3, "second" 1, "inst" 1, "Kinst" 1e3,
/// clocks "hz" 1, "Khz" 1e3, "Mhz" 1e6, "Ghz" 1e9 (any case), ratios "cycle/nsecond" 1e9,
/// "Tbyte/second" 1e12, ... Throws InputError for a unit it does not know.
double ncu_unit_scale(const std::string& unit, const std::string& where);

struct NcuOptions {
  /// Include L2 (lts__t_bytes) and L1 (l1tex__t_bytes) traffic for hierarchical points when the
  /// export has them.
  bool hierarchy = true;
};
/// `ncu --csv --page raw` (any metric set, including --set roofline): one point per kernel.
/// W = 2·FMA + ADD + MUL per precision ({sm,smsp}__sass_thread_inst_executed_op_{d,f,h}
/// {fma,add,mul}_pred_on) + tensor ops (the leaf metrics of one sm__ops_path_tensor_src_*
/// family); Q = dram__bytes_read + dram__bytes_write (or dram__bytes); T =
/// gpu__time_duration.sum (DIGEST §10). Counts come from `.sum` columns, or are rebuilt from the
/// rates `--set roofline` collects: `.sum.per_cycle_elapsed` × <unit>__cycles_elapsed.avg
/// .per_second × T, `.sum.per_second` × T. A point whose W is mostly tensor work gets the
/// precision "<type> tensor" from the metric's src_<type> (fp16, bf16, tf32, fp8, int8, fp64).
/// Malformed input throws InputError naming file and line (and column where there is one).
/// When the export has the peak metrics of `--set roofline`, `roofs` holds the device's roofs
/// as ncu's own roofline chart draws them: π = 2 · {d,f}fma .peak_sustained (inst/cycle) ·
/// sm__cycles_elapsed.avg.per_second, β = dram__bytes.sum.peak_sustained (byte/cycle) ·
/// dram__cycles_elapsed.avg.per_second.
ImportResult import_ncu(const std::string& text, const std::string& origin,
                        const NcuOptions& opt = {});

/// likwid-perfctr -O CSV (groups FLOPS_DP, FLOPS_SP, MEM, MEM_DP, MEM_SP; marker regions):
/// one point per region (or the whole run).
ImportResult import_likwid(const std::string& text, const std::string& origin);

/// Peaks the DCGM activity ratios are multiplied with, taken from a machine document.
struct DcgmPeaks {
  double tensor = 0, fp64 = 0, fp32 = 0, fp16 = 0;  ///< FLOP/s; 0 = not in the machine
  double bandwidth = 0;                             ///< DRAM/HBM byte/s
  std::string tensor_roof, fp64_roof, fp32_roof, fp16_roof, memory_level;
};
DcgmPeaks dcgm_peaks(const RoofSet& roofs);

struct DcgmOptions {
  double interval_seconds = 1.0;  ///< dcgmi dmon -d (ms) / 1000: the time one sample stands for
};
/// Averages of one GPU's samples.
struct DcgmSummary {
  std::string entity;  ///< "GPU 0"
  int samples = 0;
  double gpu_util = -1, sm_active = -1, sm_occupancy = -1;  ///< ratios 0..1; -1 = absent
  double tensor_active = -1, dram_active = -1, fp64_active = -1, fp32_active = -1, fp16_active = -1;
  double power_w = -1, power_limit_w = -1;
};
struct DcgmResult {
  ImportResult result;
  std::vector<DcgmSummary> gpus;
};
/// `dcgmi dmon -e ...` output: an application-level point per GPU from activity ratios × peaks
/// (W/s ≈ TENSO·π_tensor + FP64A·π_fp64 + FP32A·π_fp32 + FP16A·π_fp16, Q/s ≈ DRAMA·β).
DcgmResult import_dcgm(const std::string& text, const std::string& origin, const RoofSet& roofs,
                       const DcgmOptions& opt = {});

/// Keeps traffic levels the roofs can judge: a level the machine names stays; "DRAM"/"HBM" fall
/// back to the machine's default memory level; other levels are dropped with a note. Without a
/// machine (`roofs` null) everything stays.
std::vector<LevelTraffic> fit_levels(const std::vector<LevelTraffic>& traffic, const RoofSet* roofs,
                                     std::vector<std::string>& notes, const std::string& what);

/// Matches a point's precision to a compute roof of `roofs` so that it is judged against the
/// unit it ran on: "fp16 tensor" (importers' tensor work) becomes the roof named so, else the
/// highest dense roof of precision fp16 whose unit names "tensor". Returns false and adds a note
/// when the machine has no roof for it (the point is then listed but not judged: judged against
/// another unit's roof it would read as impossible or far below). An empty precision (the
/// machine's default roof) is kept.
bool fit_precision(Point& p, const RoofSet& roofs, std::vector<std::string>& notes);

/// "void gemm<float, 128>(int, float const*, ...)" → "gemm<float, 128>": the name without
/// return type and parameters ("(anonymous namespace)" and "operator()" stay in the name).
std::string short_kernel_name(const std::string& full);

/// A point without roofs: W, Q per level, T, I and P on one or two lines.
std::string render_point_brief(const Point& p);

}  // namespace roofline
