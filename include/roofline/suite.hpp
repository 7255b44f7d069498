#pragma once
// The built-in kernel suite (`roofline run`): real kernels executed on this machine at sizes that
// place their working set in L1, L2, L3 and DRAM. W and compulsory Q come from the kernel
// catalogue (kernels.hpp), T is measured (median of repetitions, with spread), and every run is
// checked against an analytic or reference result: a kernel that computes garbage fast fails.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "roofline/cpu_topology.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/kernels.hpp"
#include "roofline/machine_facts.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline::engine {
class ThreadTeam;
}

namespace roofline::suite {

/// Thrown (or reported) when a kernel's result does not match its reference.
class CheckFailed : public Error {
 public:
  using Error::Error;
};

// ---------------------------------------------------------------------------------------------
// The machine and sizes

/// The machine as the suite sizes its working sets for it: the engine's topology (cores, the
/// data caches and how many cores share each, cpu_topology.hpp) and the memory available.
struct Machine {
  cpu::Topology topology;
  double mem_available_bytes = 0;
  /// Caches sized by a measured plateau (fit_caches_to_plateaus): their size before, by level,
  /// which the DRAM working set still clears.
  std::map<int, double> size_before_plateau;
  /// Cores the threads can be pinned to (at least 1).
  int cores() const { return std::max(1, topology.cores()); }
  /// The data cache of `level` ("L1" … "L4"); nullptr when the machine reports none.
  const cpu::CacheInfo* cache(const std::string& level) const;
};

/// This machine: detect_topology() and available_memory_bytes().
Machine detect_machine();
/// A machine from sysfs-like files (tests use fixtures): cpu_dir/online, cpu_dir/cpu*/cache and
/// MemAvailable in `meminfo` (lowered by a cgroup limit in meminfo's folder/cgroup).
Machine machine_from_sysfs(const std::filesystem::path& cpu_dir,
                           const std::filesystem::path& meminfo);

/// Sizes this machine's caches by a measurement of it (`roofline measure`'s document, as facts):
/// a cache whose measured plateau ended well short of its reported size (a VM that reports
/// the host's 480 MiB L3 where the sweep's plateau ends at 134 MB) takes the plateau's edge
/// per instance as its size, the reported one kept in `reported_bytes` and said in `note`, so
/// that working_set_for() places the level's runs inside the plateau, not in DRAM. Only a
/// document whose per-core capacity for the level is this machine's (measured here) is used.
/// Returns one line per cache resized.
std::vector<std::string> fit_caches_to_plateaus(Machine& machine, const MachineFacts& measured);

/// The levels a working set can be placed in, fastest first.
const std::vector<std::string>& all_levels();

/// Working-set bytes that place a run of `threads` threads (one per core) in `level`: half of
/// each thread's private cache (L1, L2: the threads' shares add up), half of each shared
/// instance used, and for DRAM max(4 × the machine's last-level cache, 64 MiB), at most a
/// quarter of the memory available. Throws Unavailable when the machine lacks the level or the
/// memory for it.
double working_set_for(const std::string& level, const Machine& machine, int threads);

/// The level a working set of `bytes` run by `threads` threads lives in: the first cache half of
/// whose capacity for them (each thread's private cache, or the shared instances they use)
/// holds it — the rule the level sizes follow — else DRAM. `run --size` judges a run there.
std::string level_holding(Bytes bytes, const Machine& machine, int threads);

// ---------------------------------------------------------------------------------------------
// Kernels

struct KernelInfo {
  std::string name;       ///< suite name, e.g. "axpy-fp16", "gemm-blas-fp64"
  std::string catalogue;  ///< catalogue kernel whose formulas give W and Q
  std::string dtype;
  std::string description;
  std::vector<std::string> default_levels;
  bool threaded = true;  ///< runs one thread per core (false: one thread)
  bool blas = false;     ///< calls OpenBLAS
};
const std::vector<KernelInfo>& suite_kernels();
/// Resolves names and groups ("stream", "axpy", "gemm", "blas"); empty = the whole suite.
/// Unknown names throw InputError listing the known ones.
std::vector<std::string> resolve_kernels(const std::vector<std::string>& names);

/// Context a workload is built in. With a team (of `threads` members) the workload's shares run
/// on it at once; without one, one after another (the results are the same).
struct Context {
  Machine machine;
  int threads = 1;
  std::string level;
  engine::ThreadTeam* team = nullptr;
};

/// One sized, initialised kernel instance. run() is the timed unit (one call); check() compares
/// the output with the analytic or reference result after any number of run() calls.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual void run() = 0;
  /// `calls` consecutive calls. Streaming kernels run them inside one parallel region, each
  /// thread repeating its own share, so thread start-up is paid once, not per call (it would
  /// dominate an L1-size call).
  virtual void run_many(int calls) {
    for (int c = 0; c < calls; ++c) run();
  }
  /// Empty when the result is right; otherwise what is wrong (element, value, expected).
  /// May call run() once more to reach a state with a known answer (axpy).
  virtual std::string check() = 0;
  /// Corrupts one output element (tests: a check must catch it).
  virtual void inject_fault() = 0;

  KernelCount count;                  ///< W and compulsory Q from the catalogue
  std::vector<LevelTraffic> traffic;  ///< Q per memory level where it can be computed
  std::map<std::string, double> params;
  double working_set_bytes = 0;
  std::string precision;  ///< compute roof selector for the point
  std::string note;
};

/// A working set at least every kernel can be built with (each kernel's smallest lies below):
/// `run` builds the planned sets up to this size before timing any, so a set too small is
/// refused at once.
inline constexpr Bytes kSmallWorkingSet{1 << 20};

/// Builds kernel `name` with a working set of about `working_set`. Throws InputError for
/// a size too small for the kernel, Unavailable when the kernel cannot run here (no BLAS).
std::unique_ptr<Workload> make_workload(const std::string& name, Bytes working_set,
                                        const Context& ctx);

// ---------------------------------------------------------------------------------------------
// OpenBLAS

/// OpenBLAS as a process finds it (roofline/documents.hpp).
using BlasInfo = roofline::BlasInfo;
/// OpenBLAS as this process finds it: opened (dlopen) by the first call, as the BLAS kernels open
/// it; nothing else in roofline loads it.
BlasInfo blas_info();
/// Instruction-set class of an OpenBLAS core name: 0 unknown, 1 SSE, 2 AVX, 3 AVX2+FMA,
/// 4 AVX-512.
int blas_core_isa(const std::string& corename);
/// The best OPENBLAS_CORETYPE for a CPU of `vendor` ("AMD", "Intel") with these features.
std::string best_blas_core(const std::string& vendor, bool avx, bool avx2_fma, bool avx512);
/// Threads the BLAS gemm asks OpenBLAS for: `wanted`, lowered to OPENBLAS_NUM_THREADS when that
/// holds a whole number >= 1 (the user's limit; openblas_set_num_threads would override it), and
/// 1 in a ThreadSanitizer build (OpenBLAS's threads synchronise in uninstrumented code, so TSan
/// would report its work hand-off as a race).
int blas_thread_count(int wanted, const char* openblas_num_threads, bool tsan_build);

// ---------------------------------------------------------------------------------------------
// Running

/// One timed run (roofline/documents.hpp).
using RunResult = RunRecord;

struct RunOptions {
  std::vector<std::string> kernels;  ///< suite names (resolve_kernels); empty = all
  std::vector<std::string> levels;   ///< empty = each kernel's default levels
  int threads = 0;                   ///< 0 = one per core (the engine's team)
  bool quick = false;                ///< fewer, shorter repetitions
  double working_set_override = 0;   ///< bytes; > 0 replaces the level sizes
  /// Progress: called before each run with a description.
  std::function<void(const std::string&)> progress;
  /// Raised (e.g. by a SIGINT handler) to stop between runs: run_suite throws Interrupted.
  const std::atomic<bool>* cancel = nullptr;
};

/// Times one workload as roofs are timed (sampler.hpp, statistics.hpp): warm-up, calls per
/// repetition calibrated so a repetition lasts at least engine::sample_seconds, repetitions
/// until a time budget is spent (at least 9; 5 when quick), T = the sustained (third-fastest)
/// repetition; then checks the result.
RunResult time_workload(Workload& w, const std::string& kernel, const std::string& level,
                        int threads, bool quick);

/// The CPUs a suite of `threads` threads is pinned to: one per core first, then further logical
/// CPUs (the measurement's rule), repeating when there are more threads than CPUs.
std::vector<int> team_cpus(const cpu::Topology& topology, int threads);

/// Runs the suite on the engine's pinned team. A failed check is recorded in the result
/// (passed = false), not thrown. Levels a machine lacks are skipped with a message through
/// `progress`.
std::vector<RunResult> run_suite(const RunOptions& options, const Machine& machine);

/// Levels whose runs used a working set beyond the measured plateau of the level (a machine
/// measured after the suite ran): "L3: the runs' working set 251.7 MB lies beyond …", one line
/// per level.
std::vector<std::string> runs_beyond_plateaus(const std::vector<RunResult>& results,
                                              const MachineFacts& measured);

/// Runs `exe` with `args` and the environment changed by `env` (no shell), returning its exit
/// status and standard output. Throws Unavailable when it cannot be started.
struct ChildOutput {
  int exit_code = -1;
  std::string out;
};
ChildOutput run_child(const std::string& exe, const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& env);

/// Picks the compute roof a BLAS point run under `corename` is judged against: the highest roof
/// of `precision` whose name or unit names that core's instruction set, else `precision`.
std::string roof_for_blas_core(const RoofSet& roofs, const std::string& precision,
                               const std::string& corename);

// ---------------------------------------------------------------------------------------------
// Placing runs on roofs (`roofline run`)

/// The suite kernels among `names` that call OpenBLAS.
std::vector<std::string> blas_kernels(const std::vector<std::string>& names);

/// One run placed on a machine's roofs, and all of them (roofline/documents.hpp: plain data,
/// which report's render_run_text draws as `roofline run`'s table).
using PlacedRun = roofline::PlacedRun;
using Placement = roofline::Placement;

/// Places every run with W > 0 as a point on `roofs` and diagnoses it (docs/model.md §3): a BLAS
/// run is judged against the roof of its OpenBLAS core's instruction set (roof_for_blas_core);
/// triad gets a second point whose Q includes the write-allocate read of the stored array; a
/// point above its roof gets the causes the document and the run show (never none).
Placement place_runs(const std::vector<RunResult>& results, const RoofSet& roofs,
                     const Machine& machine, const BlasInfo& blas, double touching);

/// The run's document (docs/schema.md; its JSON: io's run_document_to_json): the placed points,
/// each with its run and its diagnosis (or why none), and how the runs were made — threads,
/// BLAS, caches, the bandwidth-only runs.
RunDocument run_document(const Placement& p, const std::string& machine_name,
                         const Machine& machine, const BlasInfo& blas, int threads, bool quick);

}  // namespace roofline::suite
