#pragma once
// Hardware counters (Linux perf_event) → a point's W and Q (docs/model.md §10: "W from instruction
// counters, Q from real DRAM traffic").
//
// Split in two, as nanobench does: the event tables and the counter arithmetic are pure
// functions (tested on recorded counter fixtures for Intel and AMD on any machine), and the
// perf_event_open plumbing stays at the edge (perf_event.cpp), exercised with software events
// that work in virtual machines.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline::counters {

/// What the CPU is: vendor string from /proc/cpuinfo ("GenuineIntel", "AuthenticAMD"), family
/// and model (decimal as cpuinfo prints them).
struct CpuIdentity {
  std::string vendor;
  int family = 0;
  int model = 0;
  std::string model_name;
  bool is_intel() const { return vendor == "GenuineIntel"; }
  bool is_amd() const { return vendor == "AuthenticAMD" || vendor == "HygonGenuine"; }
};
/// Parses the first processor block of /proc/cpuinfo text.
CpuIdentity parse_cpuinfo(const std::string& text);
/// This machine's CPU (reads /proc/cpuinfo; empty vendor when unreadable).
CpuIdentity this_cpu();

enum class Role {
  flops,    ///< floating-point work: count × weight = FLOP
  dram,     ///< memory-controller traffic: count × weight = bytes at DRAM
  level,    ///< per-level core traffic (L1 fills, L2 lines in): count × weight = bytes
  software  ///< kernel software event (task-clock: ns of CPU time)
};

/// One event to count and what a count of it is worth.
struct EventSpec {
  std::string name;  ///< documented event name, e.g. "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE"
  std::string pmu;   ///< sysfs PMU device ("cpu", "cpu_core", "uncore_imc_0", "amd_df", "software")
  std::uint32_t type =
      0;  ///< perf_event_attr.type; resolved from sysfs at open time unless software
  std::uint64_t config = 0;
  Role role = Role::flops;
  std::string precision;  ///< flops: "fp64", "fp32", "fp16", "bf16", or "fp" when not separated
  std::string level;      ///< dram/level: "DRAM", or the level serving the lines ("L2": L1 fills)
  double weight = 1;      ///< FLOP or bytes per count (vector lanes, 64-byte lines)
  int group = 0;          ///< events with the same group number share one counting interval
  bool system_wide = false;  ///< uncore: counted on one CPU per socket for every process
  int cpu = -1;              ///< for system-wide events: the CPU to open it on
};

// ---------------------------------------------------------------------------------------------
// The event tables, as data (counters_table.cpp). Every encoding names the public table it was
// read from; tests/probe/test_event_table.cpp compares the whole table with checked-in
// extracts of those files (tests/data/probe/events/), so a new CPU is a data change that can be
// reviewed against its source.

/// One public event table at one version.
struct EventSource {
  std::string id;          ///< key used by SourceRef::id, e.g. "linux:broadwell/cache.json"
  std::string repository;  ///< "torvalds/linux", "RRZE-HPC/likwid", "wcohen/libpfm4"
  std::string path;        ///< the file in that repository
  std::string version;     ///< the commit the facts were read at ("" when not recorded)
};

/// Where one encoding is stated: the source, the event's name there, and which umask bits the
/// source states (0xFF: all; Linux's amdzen5 list states only the data-type bits 7:4 of
/// PMCx003, so its rows are compared under 0xF0).
struct SourceRef {
  SourceRef(std::string source, std::string name_there, unsigned bits = 0xFF)
      : id(std::move(source)), name(std::move(name_there)), umask_bits(bits) {}
  std::string id;
  std::string name;  ///< several names joined by '|': the umask is the OR of theirs
  unsigned umask_bits = 0xFF;
};

/// One encoding and what a count of it is worth.
struct TableEvent {
  std::string table;   ///< the event list it belongs to ("intel-bdw", "amd-zen2", "amd-umc", ...)
  std::string name;    ///< name printed (Intel's event name, or Linux perf's name for AMD)
  unsigned event = 0;  ///< event select (Linux "EventCode")
  unsigned umask = 0;  ///< unit mask (Linux "UMask"; AMD UMC: "RdWrMask")
  Role role = Role::flops;
  std::string quantity;            ///< precision for flops, memory level for dram/level
  double weight = 1;               ///< FLOP or bytes per count
  int group = 0;                   ///< events with the same number share a counting interval
  bool avx512 = false;             ///< only on parts with AVX-512 (the 512-bit FP_ARITH widths)
  std::vector<SourceRef> sources;  ///< the first is where the encoding was taken from
};
const std::vector<EventSource>& event_sources();
const std::vector<TableEvent>& event_table();

/// Which tables a CPU model uses, by vendor, family and model range (Linux mapfile.csv).
struct CpuModel {
  std::string vendor;  ///< "GenuineIntel" or "AuthenticAMD"
  int family = 0;
  int model_lo = 0, model_hi = 0;  ///< inclusive
  std::string name;                ///< "Broadwell", "Zen 2", ...
  std::string list;                ///< the Linux event list mapfile.csv gives for the model
  std::string core_table;          ///< TableEvent::table for W and per-level Q ("" = none)
  std::string dram_table;          ///< TableEvent::table for DRAM ("" = the kernel's sysfs names)
  bool avx512 = false;
  bool fp16 = false;    ///< FP_ARITH_INST_RETIRED2 (half precision) is in core_table
  bool hybrid = false;  ///< P-cores (cpu_core PMU) next to E-cores
  bool atom = false;    ///< Atom cores only: FP_FLOPS_RETIRED (0xC8), not mapped
};
const std::vector<CpuModel>& cpu_models();
/// The entry for a CPU, or nullptr when the model is not listed.
const CpuModel* find_cpu_model(const CpuIdentity& cpu);

/// The events chosen for a CPU, what is known to be inexact, and what cannot be counted.
struct EventPlan {
  std::string cpu_description;
  std::vector<EventSpec> events;
  std::vector<std::string> limits;   ///< known limits of the chosen events, printed with results
  std::vector<std::string> missing;  ///< quantities this CPU/kernel cannot count, with why
};

/// The CPU in words, as a run records it: "AMD family 0x19 model 0x11 Zen 4 (AMD EPYC 9654)",
/// vendor, family and model with the known core's name and /proc/cpuinfo's model name; another
/// vendor's by its vendor string and model name; "unknown CPU" when nothing is known.
std::string cpu_description(const CpuIdentity& cpu);

/// Core events for W (and per-level traffic where the core exposes it), chosen by vendor,
/// family and model. `core_pmu` is the sysfs name of the core PMU ("cpu", or "cpu_core" on
/// hybrid Intel parts). Sources of every encoding are in the implementation.
EventPlan core_event_plan(const CpuIdentity& cpu, const std::string& core_pmu = "cpu");

/// Parses a sysfs PMU format description ("config:0-7,32-35") and an event string
/// ("event=0x04,umask=0x03") into a config value. `formats` maps field name → its format line.
/// Throws InputError on a field without a format or a value that does not fit.
std::uint64_t encode_config(const std::map<std::string, std::string>& formats,
                            const std::string& event_string);

/// Memory-controller events for Q found under a sysfs event_source tree (normally
/// /sys/bus/event_source/devices): Intel uncore_imc_* cas_count_read/cas_count_write (with the
/// kernel's scale; Granite Rapids and Sierra Forest: both schedulers of each channel, from the
/// table), Intel client uncore_imc_free_running_* data_read/data_write, AMD Zen 1-3 amd_df DRAM
/// channel beats, AMD Zen 4/5 amd_umc_* CAS commands. Appends to `plan` (events, or a `missing`
/// line saying what is absent).
void add_dram_events(EventPlan& plan, const CpuIdentity& cpu,
                     const std::filesystem::path& sysfs_root);

/// One counter as read back: raw value and the kernel's enabled/running times (ns).
struct Reading {
  std::string name;
  std::uint64_t value = 0;
  std::uint64_t time_enabled = 0;
  std::uint64_t time_running = 0;
};

/// value × enabled / running: the estimate for the whole enabled interval when the kernel
/// multiplexed the counter (perf_event_open(2), PERF_FORMAT_TOTAL_TIME_*). Empty when the
/// counter never ran (running = 0).
std::optional<double> scaled_value(const Reading& r);

/// W, Q per level and what the counters could not say.
struct CounterTotals {
  std::map<std::string, double> flops_by_precision;  ///< FLOP per precision
  double flops = 0;
  bool flops_counted = false;                    ///< at least one flops event ran
  std::map<std::string, double> bytes_by_level;  ///< DRAM, L2, L3 ...
  double cpu_seconds = 0;                        ///< task-clock, when counted
  double min_running_fraction = 1;       ///< lowest running/enabled over the counters that ran
  std::vector<std::string> not_counted;  ///< events that never ran (no counter was free)
};

/// Combines readings with the plan's weights. `readings[i]` belongs to `events[i]`.
/// W = Σ weight · scaled count over flops events (weights carry vector lanes; Intel's
/// FP_ARITH counts an FMA twice and AMD's PMCx003 counts MAC FLOPs as 2, so FMA = 2 FLOP).
/// Q(level) = Σ weight · scaled count (64 B per CAS, per line, per DF beat).
CounterTotals combine(const std::vector<EventSpec>& events, const std::vector<Reading>& readings);

// ---------------------------------------------------------------------------------------------
// Self-test (`roofline profile --self-test`): built-in kernels whose W and Q are known by hand,
// run under the counters; counted / expected per quantity. The arithmetic is here (pure, tested
// on recorded readings); running the kernels is the command's.

/// What one kernel run should count, worked out by hand.
struct SelfTestCase {
  std::string kernel;     ///< e.g. "axpy-fp64"
  std::string level;      ///< where its working set sits ("L1", "DRAM")
  double calls = 1;       ///< calls counted
  double flops = 0;       ///< W over all calls
  std::string precision;  ///< precision of that W ("fp64", "fp32")
  enum class Kind {
    equal,     ///< Q should equal `bytes`
    at_least,  ///< `bytes` is a lower bound (compulsory traffic)
    near_zero  ///< nothing should come from this level: counted must stay below `bytes`
  };
  struct Traffic {
    std::string level;  ///< a counter level: "L2", "L3", "DRAM"
    double bytes = 0;
    Kind kind = Kind::equal;
    std::string
        why;  ///< the formula, e.g. "2·n·8 B (x and y filled; y's write-back is not a fill)"
  };
  std::vector<Traffic> traffic;
};

/// One compared quantity.
struct SelfTestRow {
  std::string quantity;             ///< "W fp64", "W fp32", "W", "Q(L2)", "Q(DRAM)"
  std::vector<std::string> events;  ///< the counters that add up to it
  double counted = 0;
  double expected = 0;
  std::optional<double> ratio;  ///< counted / expected (when expected > 0)
  bool compared = false;  ///< a count was there to compare (false: no counter, or it never ran)
  bool pass = false;      ///< within tolerance; true for rows not compared (nothing was wrong)
  std::string verdict;    ///< "ok", "off (outside ±5 %)", "no counter for this on this CPU", ...
  std::string why;        ///< how `expected` was worked out
};

/// Tolerances: W within ±5 % (the loops' FLOPs are exact; masked lanes and the MergeEvent are
/// the known ways to miss), equal Q within 0.8 to 1.25 (hardware prefetchers fetch ahead and
/// system-wide DRAM counters see other processes), at_least Q from 0.9 × the bound, near_zero Q
/// below `bytes`. A precision that should be empty must stay below 1 % of W.
std::vector<SelfTestRow> self_test_rows(const SelfTestCase& c, const std::vector<EventSpec>& events,
                                        const std::vector<Reading>& readings);

/// What a level that should serve a self-test case nothing may count: 5 % of the traffic the
/// case moves.
inline constexpr double kSelfTestNearZero = 0.05;

/// The W and Q one self-test case should count, worked out by hand from the kernel catalogue's
/// counts (kernels.hpp: axpy Q = 3·n·s, gemm's compulsory Q = 3·n²·s, s the bytes of
/// `precision`) and where the lines are filled from: `kernel` an axpy ("axpy-fp64") or a gemm
/// ("gemm-tiled") of size `n` in `precision`, its working set in `level` ("L1" or "DRAM"),
/// `work_per_call` its W per call, run `calls` times.
SelfTestCase self_test_case(const std::string& kernel, const std::string& level, double n,
                            const std::string& precision, double work_per_call, double calls);

/// One self-test case as it ran: the kernel, its level and threads, the calls counted, its
/// result check, the events and readings and the compared rows; or why it could not run.
struct SelfTestRun {
  std::string kernel, level;
  int threads = 1;
  double calls = 0;
  std::string check;  ///< "passed", or what the kernel's result check found
  std::vector<EventSpec> events;
  std::vector<Reading> readings;  ///< readings[i] of events[i]
  std::vector<SelfTestRow> rows;
  std::vector<std::string> failures;  ///< counters that could not be opened
  int counted_threads = 0;            ///< threads of this process counted
  std::string skipped;                ///< why the case could not run ("" when it ran)
};

/// Whether the self-test passed: every row within its tolerance, and at least one compared.
struct SelfTestVerdict {
  bool all_pass = true;
  bool any_compared = false;
  bool passed() const { return all_pass && any_compared; }
};
SelfTestVerdict self_test_verdict(const std::vector<SelfTestRun>& runs);

/// `profile --self-test`'s text: "profile --self-test on CPU", per case each quantity counted
/// against its expected value (or why it was not compared) with how it was worked out and its
/// events, the plan's limits and what it cannot count, and the verdict line.
std::string render_self_test_text(const std::vector<SelfTestRun>& runs, const EventPlan& plan);
/// `profile --self-test --json` (schema roofline.selftest, with a line end): the CPU, the plan's
/// limits and what it cannot count, "pass", and each case's events, readings and compared rows.
std::string self_test_json_text(const std::vector<SelfTestRun>& runs, const EventPlan& plan);
/// The self-test on a machine without a PMU (`why`: explain_missing's text), as text and as
/// the roofline.selftest document with "pmu": false (each with a line end).
std::string render_self_test_no_pmu_text(const std::string& why);
std::string self_test_no_pmu_json_text(const std::string& why);

/// What perf_event offers on this machine, and what to do about what it does not.
struct PmuStatus {
  bool software_events = false;  ///< task-clock could be opened
  std::string software_error;
  std::string core_pmu;  ///< "cpu", "cpu_core", or empty when there is no core PMU
  bool core_pmu_usable = false;
  std::string core_error;
  int paranoid = 2;          ///< /proc/sys/kernel/perf_event_paranoid (2 when unreadable)
  bool cap_perfmon = false;  ///< effective CAP_PERFMON or CAP_SYS_ADMIN
  bool hypervisor = false;   ///< cpuinfo lists the "hypervisor" flag
  std::vector<std::string> uncore_pmus;  ///< uncore_imc_* (free-running too), amd_df, amd_umc_*
  std::string sysfs_root = "/sys/bus/event_source/devices";  ///< where the PMUs were looked for
};
/// Probes perf_event under `sysfs_root` (sysfs event_source devices).
PmuStatus probe_pmu(const std::filesystem::path& sysfs_root = "/sys/bus/event_source/devices");

/// The message printed when hardware counters are missing or refused: exactly what is absent
/// and how to enable it (bare metal / a VM with a virtual PMU, perf_event_paranoid,
/// CAP_PERFMON). Empty when the core PMU is usable. `given`: W and Q came from --work and
/// --traffic, so the message does not ask for them. Pure: tested on constructed statuses.
std::string explain_missing(const PmuStatus& s, bool given = false);
/// Why Q (DRAM traffic) cannot be counted: no memory-controller PMU, or not enough privilege for
/// system-wide counters (perf_event_paranoid ≤ 0 or CAP_PERFMON). Empty when it can.
std::string explain_uncore_missing(const PmuStatus& s);

/// An open set of perf_event counters (file descriptors), closed on destruction.
class CounterSet {
 public:
  CounterSet() = default;
  CounterSet(const CounterSet&) = delete;
  CounterSet& operator=(const CounterSet&) = delete;
  ~CounterSet();

  /// Opens every event for process `pid` (0 = this process). With `on_exec`, per-process
  /// counters start when `pid` next calls exec (a child stopped before exec); otherwise they
  /// start now. System-wide events are opened disabled; enable_system_wide() starts them.
  /// Events are grouped by EventSpec::group (one leader per group and PMU) so that the kernel
  /// schedules each group as a whole. An event that cannot be opened is recorded in
  /// failures() with the kernel's reason, and the others are kept. A PMU's type number is
  /// read from `sysfs_root`/<pmu>/type (the same tree probe_pmu and add_dram_events read).
  void open(const std::vector<EventSpec>& events, pid_t pid, bool on_exec,
            const std::filesystem::path& sysfs_root = "/sys/bus/event_source/devices");
  void enable_system_wide();
  void disable_system_wide();
  /// Stops per-process counters started without on_exec (for self-measurement).
  void disable_all();
  /// One reading per event given to open(), in order; an event that failed reads as 0/0/0.
  std::vector<Reading> read() const;
  const std::vector<std::string>& failures() const { return failures_; }
  std::size_t opened() const;

 private:
  std::vector<EventSpec> events_;
  std::vector<int> fds_;
  std::vector<std::string> failures_;
};

/// Counters over a stretch of this process's own work (the self-test's kernels), every thread
/// counted: `readings` one per event given, in order — a per-thread event summed over the
/// threads (each thread's scaled_value: each multiplexes on its own; time_running set to
/// time_enabled, the sum being scaled already), a system-wide event as read once.
struct ProcessCount {
  std::vector<Reading> readings;
  std::vector<std::string> failures;  ///< events that could not be opened (each once)
  int counted_threads = 0;            ///< threads of this process counted
};
/// Opens `events` on every thread of this process as it is now (/proc/self/task: per-thread
/// counters count one thread and the threads it starts later, so threads already running get
/// their own set) and the system-wide ones once, runs `body`, and reads them back.
ProcessCount count_this_process(
    const std::vector<EventSpec>& events, const std::function<void()>& body,
    const std::filesystem::path& sysfs_root = "/sys/bus/event_source/devices");

/// The software events every run gets (they work in VMs): task-clock.
std::vector<EventSpec> software_events();

/// One marked region as `roofline profile` reads it back (marker.h), merged over threads and
/// processes. `time` is the wall time: per thread the region's calls are summed, then the
/// largest thread total is taken (threads running the region together overlap).
struct RegionResult {
  std::string name;
  std::uint64_t calls = 0;
  double time = 0;         ///< s
  double thread_time = 0;  ///< s, summed over threads
  int threads = 0;
  double flops = 0;  ///< declared W (roofline_region_add_flops)
  double bytes = 0;  ///< declared Q (roofline_region_add_bytes)
};
/// Reads every markers-*.json in `dir` (one per process that used markers), merging regions of
/// the same name. A region whose figures are no numbers (add_flops(NAN), a sum past 1e308,
/// written as null) or negative is left out, named in `notes` with the reason; so is the
/// markers' misuse the runtime counted (an end without its begin, regions open at exit, begins
/// past its table), and a region whose wall time is longer than the whole program's
/// (`wall_time`, when > 0: a clock gone wrong, or a markers file of another run). Throws
/// InputError naming the file on a document that is not the runtime's.
std::vector<RegionResult> read_marker_results(const std::filesystem::path& dir,
                                              std::vector<std::string>* notes = nullptr,
                                              Seconds wall_time = Seconds(0));

/// How a program is run and counted.
struct RunOptions {
  bool hardware = true;  ///< count hardware events (--events auto); false: software events only
  std::filesystem::path sysfs_root = "/sys/bus/event_source/devices";
  std::filesystem::path marker_dir;  ///< set as ROOFLINE_MARKER_DIR for the program when not empty
};

struct RunResult {
  int exit_status = 0;  ///< exit code, or 128 + signal number when killed by a signal
  int term_signal = 0;  ///< the signal, or 0
  /// SIGINT, SIGTERM or SIGHUP that roofline profile received while the program ran (passed on
  /// to the program, which was then waited for), or 0: the run was cancelled.
  int interrupted_by = 0;
  double wall_seconds = 0;
  PmuStatus pmu;
  EventPlan plan;  ///< every event asked for (software first)
  std::vector<Reading> readings;
  CounterTotals totals;
  std::vector<std::string> open_failures;
};

/// What the report of a counted run says about its counters, in order: for a live run with
/// hardware counters asked for (`hardware` and not `replayed`), why the core PMU is missing, or
/// that no FLOP counter ran, and why memory-controller counters are missing; for a replay or a
/// usable core PMU, the events the plan could not count; counters that could not be opened;
/// how many never ran (more events than counters). `given`: as for explain_missing. Pure:
/// tested on constructed runs.
std::vector<std::string> run_messages(const RunResult& r, bool hardware, bool replayed,
                                      bool given = false);

/// The program could not be started (exec failed): `code()` is 127 when not found, 126 otherwise.
class ExecError : public std::runtime_error {
 public:
  ExecError(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// Runs `argv` (argv[0] looked up in PATH, no shell, arguments verbatim) with counters attached
/// from its exec to its exit, and returns its status, wall time and the counts. SIGINT, SIGTERM
/// and SIGHUP received meanwhile are passed on to the program (not when the kernel sent them to
/// the whole process group, as the terminal's ^C, which the program got too), the program is
/// waited for, and the first is returned in `interrupted_by`; SIGQUIT is ignored meanwhile.
RunResult run_counted(const std::vector<std::string>& argv, const RunOptions& opt);

/// Saved counter readings (`roofline profile --save-counters`), replayed by tests and by
/// `roofline profile --replay`: {"schema": "roofline.counters", "version": 1, "cpu": {vendor,
/// family, model}, "wall_seconds", "events": [{name, role, precision|level, weight, value,
/// time_enabled, time_running}]}.
std::string recording_to_json(const RunResult& r, const CpuIdentity& cpu);
RunResult recording_from_json(const std::string& text, const std::string& origin);

/// What the user gave for the whole-program point (`roofline profile --name --work --traffic
/// --level --precision`); a given W or Q replaces the counted one.
struct PointInputs {
  std::string name;
  std::optional<Work> work;
  std::string work_unit;         ///< what --work names: "FLOP", "OP" or "" (Point::work_unit)
  std::optional<Bytes> traffic;  ///< at `level` (DRAM when empty)
  std::string level;
  std::string precision;  ///< the compute roof to judge against; empty = the counted precision
};

struct CountedPoints {
  /// The whole program first (when W and Q are known), then regions: every level the counters
  /// measured, by its name (DRAM, L3, L2), so the document can be judged later on a machine
  /// that has them (one the roofs given cannot judge too).
  std::vector<Point> points;
  /// Those the roofs given can judge, fitted to them (fit_levels: the levels they lack left
  /// out, DRAM at the machine's main memory; judged_point): what is judged and drawn here.
  std::vector<Point> judged;
  /// The points the run gave that `judged` leaves out, in their order, with why: the whole
  /// program or a region without W, Q or a time, with P or I no number, with none of its levels
  /// or no roof for its precision on the machine. Each one's note in `notes` is its `detail`;
  /// `profile --report` draws the others and says these (ReportInput::not_drawn, and a warning).
  std::vector<PointLeftOut> left_out;
  std::vector<std::string> notes;  ///< why a point is missing or a level was dropped
};

/// A point of a profile, its traffic already fitted to `roofs`' levels (`fitted`, by
/// fit_levels), made ready to judge by the rule `point` and `plot` judge by (fit_to_roofs: a
/// roof for its precision and each level). Returns the point to judge and draw, or nullopt with
/// the point added to `left_out` (the short reason a chart gives, and the whole message, which
/// names the point) and that message to `notes`: a point with no level left, or none of its
/// precision. The point keeps its measured levels (`p.traffic`) in the document either way.
std::optional<Point> judged_point(const Point& p, std::vector<LevelTraffic> fitted,
                                  const RoofSet& roofs, std::vector<std::string>& notes,
                                  std::vector<PointLeftOut>& left_out);

/// The points of a counted run: the whole program (W from the FLOP counters or `work`, Q per
/// level from the memory-controller and cache-fill counters or `traffic`, T the wall time) and
/// one per marked region that declared W and Q. Levels the roofs lack are left out of `judged`
/// with a note (fit_levels); a point without W, Q or T, with none of the roofs' levels or no roof
/// for its precision (judged_point) is in `left_out`, its note saying what to give. Every point is
/// checked as `point` and `check` read it back (Point::validate: P = W/T and I = W/Q numbers,
/// neither inf nor underflowed to 0): a region that fails is left out so; the whole program's
/// point throws InputError, naming `work`/`traffic` when they were given.
CountedPoints counted_points(const RunResult& r, const std::vector<RegionResult>& regions,
                             const PointInputs& in, const RoofSet* roofs);

/// `roofline profile`'s text before its points: "profile of WHAT" (the program or the replayed
/// file), its exit status (and signal) and wall time, CPU time and the cores busy, the CPU, the
/// counted W (per precision) and Q per level, multiplexing, the plan's limits, `messages`
/// (run_messages) and the points' notes.
std::string render_profile_head(const std::string& what, const RunResult& r, const CountedPoints& o,
                                const std::vector<std::string>& messages);
/// `roofline profile --json` (with a line end): the points document of `o.points` (its machine
/// `roofs`' name) with the run — `command`, status, times, counts, the CPU, limits, `messages`
/// and the notes — and, with `roofs`, the analysis of each judged point against them.
std::string profile_json_text(const std::vector<std::string>& command, const RunResult& r,
                              const CountedPoints& o, const std::vector<std::string>& messages,
                              const RoofSet* roofs);

}  // namespace roofline::counters
