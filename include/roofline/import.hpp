#pragma once
// Points from other tools' output (docs/model.md §10): Nsight Compute CSV exports, likwid-perfctr
// output (text tables or -O CSV) and DCGM `dcgmi dmon` samples.
//
// Every importer works in two steps: a reader turns the file, as the tool wrote it, into one
// table of (kernel or region, metric, unit, value); one function per tool then makes points
// from that table. A new layout of a tool's output is a new reader, not a new importer. Files
// are read as streams, line by line, and only the metrics an importer can use are kept, so a
// large export costs little more memory than its kernels' points.
//
// Every refusal is an InputError naming the file, the line or the kernel, what is missing, and
// the tool option that would collect it. Names from the files (kernels, regions) are kept as
// data, byte for byte; whoever prints them makes them safe for the terminal.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
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

// ---- Input ----------------------------------------------------------------------------------

/// Longest line the importers accept: 64 MiB (a raw ncu header of thousands of metrics is
/// well below 1 MiB).
inline constexpr std::size_t kMaxImportLine = std::size_t{64} << 20;

/// Opens a file for an importer by the rules of every input (open_input_file(), io.hpp: a
/// regular file only — a FIFO, a device such as /dev/zero, a directory or a socket is refused
/// before it is opened — and recorded as an input of the command), at most `max_bytes` long
/// (kMaxImportBytes, io.hpp). InputError naming the path otherwise.
std::ifstream open_import_file(const std::filesystem::path& path,
                               std::uint64_t max_bytes = kMaxImportBytes);

/// The lines of a text stream, one at a time, without their line ends (LF or CR LF). A UTF-8
/// byte-order mark is skipped; UTF-16 or UTF-32 text (by its byte-order mark or by the NUL
/// bytes between its characters), a NUL byte anywhere, a line longer than kMaxImportLine and
/// more than `max_bytes` in all are refused with an InputError naming the origin (and the
/// encoding, with the command that converts it). Reads in blocks: memory stays at one line.
class TextLines {
 public:
  TextLines(std::istream& in, std::string origin, std::uint64_t max_bytes = kMaxImportBytes);
  /// The next line; false at the end of the stream.
  bool next(std::string& line);
  /// 1-based number of the line `next` returned last (0 before the first).
  int line_number() const { return line_; }
  /// False when the stream ended without a line end after the last line (a cut file).
  bool last_line_ended() const { return last_ended_; }
  const std::string& origin() const { return origin_; }

 private:
  bool refill();

  std::istream& in_;
  std::string origin_;
  std::uint64_t max_bytes_;
  std::uint64_t bytes_ = 0;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0;
  int line_ = 0;
  bool last_ended_ = true;
};

/// One CSV record (RFC 4180: quoted fields, doubled quotes) with the column of each field.
struct CsvRecord {
  std::vector<std::string> fields;
  std::vector<int> columns;  ///< 1-based column of each field on its line
  int line = 0;              ///< line the record starts on
  std::size_t size() const { return fields.size(); }
};
/// Splits `line` into `rec` (its buffers are reused). A quoted field may span lines: more are
/// taken from `lines`. Throws InputError "ORIGIN: line L, column C: ..." for an unterminated
/// quote (a cut file) or text after a closing quote.
void split_csv(const std::string& line, TextLines& lines, CsvRecord& rec);

/// A whole CSV text as records (for tests and small inputs).
std::vector<CsvRecord> parse_csv(const std::string& text, const std::string& origin);

/// A number as profilers print it: thousands separators ("4,194.30", "5,323,503,232.00"),
/// sign, exponent. A comma that does not separate groups of three digits ("65,77": a decimal
/// comma) or several dots ("27.595.520": dots as digit groups) is refused as a number written
/// in another locale. `what` names the field for the message "ORIGIN: line L, column C: WHAT:
/// not a number: 'x'".
double parse_profiler_number(std::string_view text, const std::string& origin, int line, int column,
                             std::string_view what);

/// An Nsight Compute unit: its scale to base units and its dimension, byte^bytes ×
/// second^seconds (inst, cycle, warp, ... are counts; hertz is 1/second), or a percentage.
struct NcuUnit {
  double scale = 1;
  int bytes = 0;
  int seconds = 0;
  bool percent = false;
  bool same_dimension(const NcuUnit& o) const {
    return bytes == o.bytes && seconds == o.seconds && percent == o.percent;
  }
  /// In words, for messages: "a time (second)", "an amount of data (byte)", ...
  std::string dimension() const;
};

/// An Nsight Compute unit as printed: SI prefixes are decimal ("Kbyte" 1e3, "Mbyte", "Gbyte",
/// "KB", "MB", "GB"; "nsecond"/"ns" 1e-9, "usecond"/"us", "msecond"/"ms", "second"/"s"),
/// binary ones binary ("KiB" 1024); clocks in any case ("hz", "Khz", "Mhz", "Ghz", "GHz": an
/// "m" there is mega); ratios of these ("cycle/nsecond" 1e9 per second, "Tbyte/second",
/// "byte/s", "inst/cycle" a count). Throws InputError "WHERE: unknown unit 'x'".
NcuUnit ncu_unit(const std::string& unit, const std::string& where);

// ---- The table every reader fills -----------------------------------------------------------

/// One value a tool printed. Its texts are views of strings the table keeps once each (a
/// large export repeats the same few metric names a million times).
struct ToolValue {
  std::string_view metric;    ///< as the tool names it: "gpu__time_duration.sum", "DP [MFLOP/s]"
  std::string_view unit;      ///< as printed: "nsecond", "Mbyte", "" (likwid: the counter, "PMC0")
  std::string_view instance;  ///< likwid: the thread column ("HWThread 0", "Core 3"); ncu: ""
  double value = 0;           ///< as printed (not scaled); meaningless when `missing`
  bool missing = false;       ///< "n/a", "N/A", "-", "nil"
  bool not_a_number = false;  ///< missing because printed "nan" (likwid: a rate of 0/0), not "-"
  int significant = 0;        ///< significant digits printed (likwid: which runtime is exact)
  int line = 0;
  int column = 0;
};

/// A kernel launch (ncu) or a likwid region measured with one group in one run.
struct ToolRecord {
  std::string id;    ///< ncu: the launch "ID"; likwid: ""
  std::string name;  ///< kernel name as printed, or likwid region ("" = the whole run)
  std::string device;
  std::string cc;          ///< ncu: the device's compute capability ("CC": "7.0"), "" if not given
  std::string group;       ///< likwid: group name ("FLOPS_DP")
  int group_index = 0;     ///< likwid: N of "Group N"
  int run = 0;             ///< likwid: which likwid-perfctr run (1-based) in the input
  std::string run_origin;  ///< likwid: the file the run came from
  int line = 0;            ///< where the record starts
  std::vector<ToolValue> values;
  /// The first value of `metric` for `instance` (any instance when empty), or null.
  const ToolValue* find(std::string_view metric, std::string_view instance = {}) const;
  /// Adds `v` unless the record has its metric for its instance already: the same figure
  /// again (two sections or tables print it) is kept once; another value is an InputError
  /// naming the file (`origin`), both lines and the record, since which one counts would be
  /// left to chance. With `by_unit`, values of one metric in different units are different
  /// values (likwid's events: one event read on several counters, a memory channel each).
  void add_once(const ToolValue& v, const std::string& origin, bool by_unit = false);
  /// The check add_once makes, where the caller knows which value `again` repeats: nothing when
  /// it is the same figure, else the InputError.
  void require_same(const ToolValue& first, const ToolValue& again,
                    const std::string& origin) const;
};

struct ToolTable {
  ToolTable() = default;
  ToolTable(const ToolTable&) = delete;  // the values' views point into `strings`
  ToolTable& operator=(const ToolTable&) = delete;
  ToolTable(ToolTable&&) = default;  // a moved set keeps its nodes, so the views stay valid
  ToolTable& operator=(ToolTable&&) = default;

  /// A view of `s` that lives as long as the table.
  std::string_view intern(std::string_view s);

  std::string origin;
  std::string layout;  ///< "ncu raw", "ncu details", "likwid text", "likwid csv", ...
  std::vector<ToolRecord> records;
  /// Every metric name the file has, also those not kept in the records (for refusals that
  /// name what is missing and not what is there).
  std::set<std::string, std::less<>> metric_names;
  std::vector<std::string> notes;
  /// likwid: the CPU the first run that names one ran on ("CPU name:" of its header), and
  /// where ("FILE: line L"); runs of another CPU are refused (read_likwid_table).
  std::string cpu, cpu_at;

 private:
  std::set<std::string, std::less<>> strings_;
};

// ---- Nsight Compute --------------------------------------------------------------------------

struct NcuOptions {
  /// Include L2 (lts__t_bytes) and L1 (l1tex__t_bytes) traffic for hierarchical points when the
  /// export has them.
  bool hierarchy = true;
  /// No machine is given, so the export's own peaks (--set roofline) will judge its kernels:
  /// only then do the notes speak of those roofs (kernels of several devices, peaks that differ).
  bool own_roofs = true;
  /// The machine's roofs (--hw/--machine), or null: a kernel whose W no precision dominates is
  /// judged against the highest vector roof of its precisions, with a note (docs/import.md).
  const RoofSet* roofs = nullptr;
  /// That machine's name and compute capability ("9.0": a catalogue entry's or a measured GPU's
  /// info.compute_capability), if known: kernels that ran on another CC are noted (their times
  /// are another GPU's, judged against this one's roofs).
  std::string machine_name;
  std::string machine_cc;
};

/// The metrics the ncu importer reads, as one --metrics list: T, Q (DRAM, L2, L1) and the FP64,
/// FP32 and FP16 add/mul/fma thread instructions. docs/import.md gives the full command.
extern const char* const kNcuRooflineMetrics;

/// Reads an Nsight Compute CSV export in either layout ncu writes:
///  - raw (`--page raw`): a header of metric names, a units row, one row per kernel launch;
///  - details (the default page, also `ncu --import x.ncu-rep --csv`): one row per metric with
///    "ID", "Kernel Name", "Section Name", "Metric Name", "Metric Unit", "Metric Value";
/// with `--print-units base` or `--print-fp` values alike. "==PROF==", "==WARNING==" and
/// "==ERROR==" lines and the application's own output may come before, between and after the
/// rows; a UTF-8 byte-order mark and CR LF line ends are accepted. Only metrics the importer
/// uses are kept in the records. An export without a table (ncu could not profile, e.g.
/// ERR_NVGPUCTRPERM) is refused quoting ncu's error.
/// With a `sink`, each kernel's record is handed to it instead of kept in the table (a raw row
/// as soon as it is read, details records at the end of their table): a large export is then
/// turned into points without holding its table.
using NcuRecordSink = std::function<void(const ToolTable& table, ToolRecord&& record)>;
ToolTable read_ncu_table(TextLines& lines, const NcuRecordSink& sink = {});

/// Points from an ncu table, one per kernel launch (docs/model.md §10):
///   W = Σ_precision (2·FMA + ADD + MUL) thread instructions
///       ({sm,smsp}__sass_thread_inst_executed_op_{d,f,h}{fma,add,mul}_pred_on) + tensor ops
///       (the leaf metrics of one sm__ops_path_tensor_src_* family);
///   Q = dram__bytes_read + dram__bytes_write (or dram__bytes_op_read + _op_write, or
///       dram__bytes); L2 lts__t_bytes, L1 l1tex__t_bytes for hierarchical points;
///   T = gpu__time_duration.sum (details: the "Duration" of GPU Speed Of Light Throughput), or
///       {sm,smsp}__cycles_elapsed.avg / {sm,smsp}__cycles_elapsed.avg.per_second.
/// Counts come from `.sum` metrics, or from the rates `--set roofline` collects:
/// `.sum.per_cycle_elapsed` × <unit>__cycles_elapsed.avg.per_second × T, `.sum.per_second` × T.
/// A file without T, W or Q for any kernel is refused naming the first kernel, what is missing
/// and the --metrics that collect it; a kernel without them in a file where others have them is
/// left out with a note. A value that overflows (1e300 Gbyte) is refused at its line and column.
/// When the export has the peak metrics of `--set roofline`, `roofs` holds the device's roofs
/// as ncu's own roofline chart draws them (π = 2 · {d,f,h}fma .peak_sustained ·
/// sm__cycles_elapsed.avg.per_second, β = dram__bytes.sum.peak_sustained ·
/// dram__cycles_elapsed.avg.per_second), the first kernel's; empty when the kernels ran on more
/// than one device. A point's precision is "<type> tensor" for tensor work and "<type> vector"
/// for the CUDA cores' instructions.
ImportResult ncu_points(const ToolTable& table, const NcuOptions& opt = {});

/// read_ncu_table + ncu_points.
ImportResult import_ncu(std::istream& in, const std::string& origin, const NcuOptions& opt = {});
ImportResult import_ncu(const std::string& text, const std::string& origin,
                        const NcuOptions& opt = {});

/// The machine an export's kernels are judged against where no machine is given: the roofs the
/// export itself describes (ImportResult::roofs, `--set roofline`), with a note saying so added
/// to res.notes: "roofs from the report's peak metrics (ncu --set roofline): 3 compute roofs (no
/// tensor roof: give --hw for one), DRAM 1.555 TB/s". nullopt, and no note, when it describes
/// none.
std::optional<MachineDocument> machine_from_export_roofs(ImportResult& res);

// ---- likwid-perfctr --------------------------------------------------------------------------

/// Reads likwid-perfctr output into `table` (appending): the text tables it prints to the
/// terminal ("Region NAME, Group N: GROUP" or "Group N: GROUP" blocks with their Region Info,
/// Event and Metric tables, one column per hardware thread; the STAT tables are left out, they
/// are recomputed from the threads) and the CSV of `-O` (TABLE lines), also mixed in one file
/// and several runs concatenated. Each likwid-perfctr run is numbered in `table`; reading
/// another file starts another run. Declared row counts, rows shorter than their table's header
/// and a last line cut without its line end are refused as a truncated file.
void read_likwid_table(TextLines& lines, ToolTable& table);

/// Points from a likwid table: one per marker region (or the whole run).
///   W = Σ_threads FP_ARITH_INST_RETIRED_* × vector lanes (Intel; AMD: RETIRED_SSE_AVX_FLOPS_ALL)
///       when the events are there, else Σ_threads "DP [MFLOP/s]" (or SP) × 1e6 × runtime;
///   Q = Σ_threads "Memory bandwidth [MBytes/s]" × 1e6 × runtime (else "Memory data volume
///       [GBytes]" × 1e9, else CAS_COUNT_RD/WR × 64 B); L3 and L2 from the L3 and L2 groups;
///   T = the longest thread's runtime, the more precise of "RDTSC Runtime [s]" (Region Info)
///       and "Runtime (RDTSC) [s]" (Metric table).
/// Groups measured in turn in one run (-g A -g B) each cover part of the run: their rates are
/// combined over the sum of their runtimes. Separate runs (each its own "Group 1") are
/// combined only when no run alone has W and Q: then W and Q come from the runs that measured
/// them and T is the mean of those runs' runtimes (noted). A region without W or without Q is
/// refused naming the file, its line, what is missing and the group that measures it; a file
/// where no region gives a point is an InputError.
ImportResult likwid_points(const ToolTable& table);

ImportResult import_likwid(std::istream& in, const std::string& origin);
ImportResult import_likwid(const std::string& text, const std::string& origin);

// ---- DCGM ------------------------------------------------------------------------------------

/// Peaks the DCGM activity ratios are multiplied with, taken from a machine document.
struct DcgmPeaks {
  WorkRate tensor, fp64, fp32, fp16;  ///< 0 = not in the machine
  WorkRate tensor_fp64;               ///< the fp64 tensor roof (DFMA pipe)
  ByteRate bandwidth;                 ///< DRAM/HBM
  std::string tensor_roof, fp64_roof, fp32_roof, fp16_roof, tensor_fp64_roof, memory_level;
};
DcgmPeaks dcgm_peaks(const RoofSet& roofs);

struct DcgmOptions {
  double interval_seconds = 1.0;  ///< dcgmi dmon -d (ms) / 1000: the time one sample stands for
};
/// Averages of one GPU's samples.
struct DcgmSummary {
  std::string entity;  ///< "GPU 0", "GPU-I 1"
  int samples = 0;     ///< rows with at least one value (all-N/A rows are not samples)
  /// Ratios 0..1, and power; each empty when the log never gave the field a value.
  std::optional<double> gpu_util, sm_active, sm_occupancy;
  std::optional<double> tensor_active, dram_active, fp64_active, fp32_active, fp16_active;
  /// The tensor pipe by instruction (DCGM fields 1014, 1015, 1013: THMMA, TDFMA, TIMMA).
  std::optional<double> hmma_active, dfma_active, imma_active;
  std::optional<Watt> power_w, power_limit_w;
  /// Activity fields (of W or Q) that some samples give and others leave N/A: "TENSO 1 of 4".
  /// Their means are over the samples that give them, and stand for the whole run.
  std::vector<std::string> partial;
};
struct DcgmResult {
  ImportResult result;
  std::vector<DcgmSummary> gpus;
};
/// `dcgmi dmon -e ...` output: an application-level point per GPU from activity ratios × peaks
/// (W/s ≈ TENSO·π_tensor + FP64A·π_fp64 + FP32A·π_fp32 + FP16A·π_fp16, Q/s ≈ DRAMA·β).
/// N/A (no value yet) and N/W (not watched, older dcgmi) are missing values; a row of only
/// missing values is not a sample. A log without any pipe activity field is refused naming the
/// -e field ids that collect them.
DcgmResult import_dcgm(std::istream& in, const std::string& origin, const RoofSet& roofs,
                       const DcgmOptions& opt = {});
DcgmResult import_dcgm(const std::string& text, const std::string& origin, const RoofSet& roofs,
                       const DcgmOptions& opt = {});

// ---- Shared by the importers ----------------------------------------------------------------

/// Every point as `point` and `plot` will read it back (Point::validate: a name on one line, W,
/// Q, T and their ratios finite numbers); throws InputError prefixed with `origin` otherwise. An
/// importer hands out no point that fails it.
void require_valid_points(const PointsDocument& doc, const std::string& origin);

/// A point's P = W/T or I = W/Q that is no normal double (overflowed, or underflowed to 0), as
/// Point::validate would refuse it: `why` says which and with what numbers ("P = W/T = 2e+09 /
/// 1e-306 s is too large for a double (overflow)"), `level` is the traffic level of an I ("" for
/// P). The importers refuse such a point at the cell that gave it, naming the value.
struct RatioProblem {
  std::string why;  ///< "" when every ratio is a number
  bool is_p = false;
  std::string level;
  explicit operator bool() const { return !why.empty(); }
};
RatioProblem ratio_problem(const Point& p);

/// Keeps traffic levels the roofs can judge: a level the machine names stays; "DRAM"/"HBM" fall
/// back to the machine's default memory level; other levels are dropped with a note. Without a
/// machine (`roofs` null) everything stays.
std::vector<LevelTraffic> fit_levels(const std::vector<LevelTraffic>& traffic, const RoofSet* roofs,
                                     std::vector<std::string>& notes, const std::string& what);

/// Matches a point's precision to a compute roof of `roofs` so that it is judged against the
/// unit it ran on: "fp16 tensor" (importers' tensor work) or "fp64 vector" (a GPU's CUDA-core
/// instructions) becomes the roof RoofSet::find_compute_on gives — one named so, else the
/// highest dense roof of that precision whose unit or name mentions the unit, else one on a
/// matrix engine (tensor) or on none (vector). Returns false and adds a note
/// when the machine has no roof for it (the point is then listed but not judged: judged against
/// another unit's roof it would read as impossible or far below). An empty precision (the
/// machine's default roof) is kept.
bool fit_precision(Point& p, const RoofSet& roofs, std::vector<std::string>& notes);

/// "void gemm<float, 128>(int, float const*, ...)" → "gemm<float, 128>": the name without
/// return type and parameters ("(anonymous namespace)" and "operator()" stay in the name).
std::string short_kernel_name(const std::string& full);

/// A point without roofs: W, Q per level, T, I and P on one or two lines.
std::string render_point_brief(const Point& p);

// ---- What `roofline import` makes of the points (import_judge.cpp) --------------------------

/// An import is asked for points: one that gave none is an InputError, "ORIGIN: no point could
/// be made from it" with the first five of the reasons the reader gave (its notes) for what it
/// left out, one per line, and how many more.
void require_import_points(const ImportResult& res, const std::string& origin);

/// Fits each point of `res` to `roofs` (its levels; its precision, or `precision` — the
/// command's --precision — in place of every point's). The document keeps every level the
/// counters measured (an L2 or L1 the machine has no roof for, DRAM by its name), so it can be
/// judged later against a machine that has them; the precision chosen is written on its points
/// (with the counters' work unit), and the machine's name on the document, so every later reader
/// judges them the same. The notes of fitting are added to `res.notes`, one line for the points
/// that share a note ("3 points (a, b, c): ..."). A `precision` the roofs lack, or one whose
/// roof counts other work than a point's counters (FLOP against OP/s), is an InputError naming
/// the points, before anything is written. Without roofs (nullptr) every point is as it is and
/// none judged.
JudgedPoints judge_import(ImportResult& res, const RoofSet* roofs, const std::string& precision);

/// `roofline import --json`: the points document of `res` (its head, "source" the tool, "file"
/// the first of `files` and "files" all of them when there are several, "notes"), its points and,
/// with `roofs`, each point's analysis (null "diagnosis" for a point not judged), written array
/// element by array element (json_text_with_arrays). A document above kMaxPointsBytes, which no
/// reader would take back, is an InputError naming the files.
std::string import_json_text(const ImportResult& res, const std::string& tool,
                             const std::vector<std::string>& files, const RoofSet* roofs,
                             const JudgedPoints& fit);

}  // namespace roofline
