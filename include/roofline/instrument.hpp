#pragma once
// Points without hardware counters (`roofline profile --instrument`): W counted by compile-time
// instrumentation (the flopcount plugin, tools/flopcount), Q from a cache simulator (Valgrind's
// callgrind with this machine's cache geometry), T from a native run (per function by
// sampling, per region by the marker timers). The parsers and the arithmetic are pure and
// tested on the real tools' output; running the program is run_instrumented's.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "roofline/counters.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline::instrument {

// --- W: the flopcount runtime's results (flopcount-<pid>.json, mode "count") ---------------

struct OpCount {
  std::string kind;       ///< "flops", "int_ops", "math" (not in W), "uncounted"
  std::string precision;  ///< "fp64", "fp32", "fp16", "bf16", "int8", ...
  int width = 0;          ///< register width in bits; 0 = scalar
  bool masked = false;    ///< active lanes of masked operations, counted at run time
  double count = 0;       ///< operations (FLOP for kind "flops", FMA = 2)
};

/// Sums over ops of one kind ("flops" = W; "int_ops": integer dot products).
double total(const std::vector<OpCount>& ops, const std::string& kind = "flops");
/// W per precision (kind "flops" only).
std::map<std::string, double> by_precision(const std::vector<OpCount>& ops);
/// The precision that holds at least 90 % of W, or "".
std::string dominant_precision(const std::vector<OpCount>& ops);

struct FunctionCount {
  std::string name;  ///< symbol name as the compiler emitted it (mangled)
  std::string file;
  int line = 0;
  double calls = 0;
  std::vector<OpCount> ops;
  std::string skipped;  ///< "variadic", "unsupported": not counted (static_flops in its code)
  double static_flops = 0;
};

struct RegionCount {
  std::string name;
  double calls = 0;
  std::vector<OpCount> ops;
};

struct CountResult {
  std::vector<FunctionCount> functions;  ///< merged by name over processes and modules
  std::vector<RegionCount> regions;
  int processes = 0;  ///< result files read
  double dropped = 0;
};
/// One flopcount document (schema roofline.flopcount, mode "count"). InputError names `origin`.
CountResult parse_count_results(const std::string& text, const std::string& origin);
/// Every flopcount-*.json in `dir` with mode "count", merged.
CountResult read_count_results(const std::filesystem::path& dir);

// --- T: samples of the native run (mode "time") ----------------------------------------------

struct SampleObject {
  std::string path;
  std::uint64_t bias = 0;
};
struct Sample {
  int object = -1;           ///< index into objects, -1: outside any loaded object
  std::uint64_t offset = 0;  ///< pc − the object's load bias (an ELF virtual address)
  int thread = 0;
  std::uint64_t count = 0;
};
struct SampleResult {
  std::string sampler;  ///< "task-clock" (perf software event) or "itimer-prof" (SIGPROF)
  double interval_us = 0;
  double cpu_seconds = 0;  ///< process CPU time over the sampled interval
  std::uint64_t total = 0, dropped = 0;
  int threads = 0;
  std::string problem;  ///< why there are no samples, when there are none
  std::vector<SampleObject> objects;
  std::vector<Sample> samples;
  struct Function {
    std::string name;
    int object = -1;
    std::uint64_t offset = 0;
  };
  std::vector<Function> functions;  ///< instrumented functions (for binaries without symbols)
};
SampleResult parse_sample_results(const std::string& text, const std::string& origin);
/// Every flopcount-*.json in `dir` with mode "time" (the process with the most samples first).
std::vector<SampleResult> read_sample_results(const std::filesystem::path& dir);

/// A function symbol of an ELF file (symtab, else dynsym).
struct Symbol {
  std::string name;
  std::uint64_t value = 0, size = 0;
};
/// The STT_FUNC symbols with a size, sorted by address. Throws InputError naming the file when
/// it is not a 64-bit little-endian ELF file.
std::vector<Symbol> read_elf_functions(const std::filesystem::path& path);

struct FunctionTime {
  std::string name;
  std::string object;         ///< file name of the object the code is in
  std::uint64_t samples = 0;  ///< over all threads
  double cpu_seconds = 0;     ///< samples × (CPU time / all samples)
  double seconds = 0;         ///< the longest thread's share: the function's wall-time estimate
};
/// Per-function time from samples: each sample's offset is looked up in its object's ELF
/// function symbols (`symbols` by object path; objects whose symbols cannot be read use the
/// instrumented functions' addresses, the nearest one below). Seconds per sample =
/// cpu_seconds / total, so the kernel's tick (SIGPROF is delivered on timer ticks) does not
/// matter. Sorted by samples, most first; samples in no known function are "(unknown)".
std::vector<FunctionTime> attribute_samples(
    const SampleResult& r, const std::map<std::string, std::vector<Symbol>>& symbols);

// --- Q: cache simulation (callgrind) ---------------------------------------------------------

struct CacheGeometry {
  std::string level;  ///< "I1", "L1", "L2", "L3"
  std::uint64_t size = 0, ways = 0, line = 64;
  std::string note;  ///< how it was adjusted for the simulator, when it was
};
struct SimulatorCaches {
  CacheGeometry i1, d1;
  std::vector<CacheGeometry> outer;  ///< L2, L3 ... (unified), nearest first
  std::string source;
};
/// From cpu0's sysfs cache entries (index*/level, type, size, ways_of_associativity,
/// coherency_line_size) under `cpu_dir` — the files the topology detection reads. Throws
/// Unavailable when there is no L1 data cache to simulate.
SimulatorCaches detect_simulator_caches(
    const std::filesystem::path& cpu_dir = "/sys/devices/system/cpu");
/// "L1=32K/8,L2=1M/8/64,L3=32M/16": SIZE/WAYS[/LINE] per level (I1 = L1 unless given). Throws
/// InputError naming the part that does not parse.
SimulatorCaches parse_cache_spec(const std::string& spec);
/// The geometry Valgrind can simulate: line and set count powers of two. A set count that is
/// not is fixed by changing the ways (size kept) where possible, else by rounding the size
/// down; `note` says what changed.
CacheGeometry valgrind_geometry(CacheGeometry g);

/// A marker region's simulated costs: the sum of the profile parts during which it was open
/// (on any thread of the process), and how many of its passes ended inside the dumps.
struct RegionCosts {
  std::vector<double> costs;
  std::uint64_t passes = 0;
  bool complete = true;  ///< false: open when the dumps stopped or the process ended
};

/// callgrind's cost table: self (exclusive) costs per function, events as named in the file.
struct CallgrindProfile {
  std::vector<std::string> events;
  std::map<std::string, std::vector<double>> functions;  ///< name (recursion suffix removed)
  std::vector<double> totals;                            ///< sum over functions
  std::string command;
  std::vector<std::string> caches;             ///< the "desc: ... cache:" lines
  long pid = 0;                                ///< "pid:" (0 when absent)
  long part = 0;                               ///< "part:" of a dump (0 when absent)
  std::string trigger;                         ///< what made callgrind dump ("desc: Trigger: ...")
  std::map<std::string, RegionCosts> regions;  ///< by marker region (read_callgrind_dir)
  double event(const std::vector<double>& costs, const std::string& name) const;
};
/// One callgrind.out file (format version 1, compressed or not). InputError names `origin`.
CallgrindProfile parse_callgrind(const std::string& text, const std::string& origin);
/// Every callgrind output file in `dir` whose name starts with `prefix`, merged (one per
/// process of the program, one per dump of a process). Parts dumped at marker regions'
/// boundaries (kRegionDumpBegin/End) give each region's costs.
CallgrindProfile read_callgrind_dir(const std::filesystem::path& dir, const std::string& prefix);

/// Bytes one simulated run says moved, from its misses × line size. `ll_level` is the level the
/// simulator's last-level cache stood for ("L2" or "L3"); write-backs are LL misses that
/// evicted a dirty line (--simulate-wb).
struct SimulatedTraffic {
  double l1_fills = 0;       ///< D1 read and write misses × line: Q(L2), lines into L1
  double ll_fills = 0;       ///< LL misses (instructions and data) × line: lines from beyond
  double ll_writebacks = 0;  ///< dirty LL evictions × line
};
SimulatedTraffic simulated_traffic(const CallgrindProfile& p, const std::vector<double>& costs,
                                   double l1_line, double ll_line);

/// What a cache simulator does not see, printed with every simulated Q.
std::vector<std::string> simulator_limits();

// --- the three runs together -------------------------------------------------------------------

struct InstrumentOptions {
  std::string valgrind = "valgrind";  ///< the valgrind executable ("" = no simulation)
  SimulatorCaches caches;             ///< geometry to simulate
  bool simulate_all_levels = true;    ///< also a run with LL = L2 for Q(L3)
  std::filesystem::path work_dir;     ///< where results are written (a temporary directory)
  bool hardware = true;               ///< hardware counters in the native run, where present
  std::filesystem::path sysfs_root = "/sys/bus/event_source/devices";
};

struct SimulationRun {
  std::string ll_level;    ///< the level the simulated last level stood for: "L3", "L2"
  std::string fills_from;  ///< where its misses are served from: the next level, or "DRAM"
  CacheGeometry i1, d1, ll;
  int exit_status = 0;
  double wall_seconds = 0;
  CallgrindProfile profile;
  std::string problem;  ///< why it gave no profile (Valgrind missing, unknown instruction)
};

struct InstrumentedRun {
  counters::RunResult native;  ///< the timing run (T), with counters where the PMU allows
  counters::RunResult counting;
  std::vector<counters::RegionResult> regions;  ///< marker regions of the native run
  CountResult counts;
  std::vector<SampleResult> samples;
  std::vector<FunctionTime> times;
  std::vector<SimulationRun> simulations;
  std::vector<std::string> messages;
  /// SIGINT, SIGTERM or SIGHUP received during a run (passed on to the program; no later run
  /// was started), or 0 (counters::RunResult::interrupted_by).
  int interrupted_by = 0;
};

/// Runs `argv` three times (native with sampling, counting, under callgrind; with
/// simulate_all_levels a fourth time with LL = L2) and collects the results. The program's
/// output of the second and later runs goes to files in work_dir. Throws ExecError when the
/// program cannot be started.
InstrumentedRun run_instrumented(const std::vector<std::string>& argv,
                                 const InstrumentOptions& opt);

/// The points: the whole program, each function with counted W, each marker region with counted
/// or declared W. Notes say what kept a function or region from being a point.
/// Where each of a point's W, Q and T came from.
struct PointOrigin {
  std::string work;     ///< "instrumented" (counted) or "declared" (by the program's markers)
  std::string traffic;  ///< "simulated" or "declared"
  std::string time;     ///< "measured" (wall clock), "sampled" or "marker" (the region's timer)
};
struct InstrumentedPoints {
  /// Every level simulated (or declared) by its name, so the document can be judged later on a
  /// machine that has them.
  std::vector<Point> points;
  std::vector<PointOrigin> origins;  ///< one per point
  std::vector<std::string> notes;
  /// The points a machine's roofs can judge, fitted to them (instrument_report.hpp
  /// fitted_points): what is judged and drawn; the points themselves without a machine.
  std::vector<Point> judged;
  /// The points `judged` leaves out (none of their levels or no roof of their precision on the
  /// machine), with why: `profile --report` says them (ReportInput::not_drawn).
  std::vector<PointLeftOut> left_out;
};
InstrumentedPoints instrumented_points(const InstrumentedRun& r, const std::string& program_name);

}  // namespace roofline::instrument
