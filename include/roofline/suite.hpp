#pragma once
// The built-in kernel suite (`roofline run`): real kernels executed on this machine at sizes that
// place their working set in L1, L2, L3 and DRAM. W and compulsory Q come from the kernel
// catalogue (kernels.hpp), T is measured (median of repetitions, with spread), and every run is
// checked against an analytic or reference result: a kernel that computes garbage fast fails.
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/error.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline::suite {

/// Thrown (or reported) when a kernel's result does not match its reference.
class CheckFailed : public Error {
 public:
  using Error::Error;
};

// ---------------------------------------------------------------------------------------------
// Caches and sizes

struct CacheLevel {
  std::string level;      ///< "L1", "L2", "L3"
  double size_bytes = 0;  ///< capacity of one instance
  int shared_by = 1;      ///< logical CPUs sharing one instance
};

struct CacheInfo {
  std::vector<CacheLevel> caches;  ///< data/unified caches, L1 first
  double mem_available_bytes = 0;  ///< MemAvailable
  int cpus = 1;                    ///< online logical CPUs
  std::string source;              ///< where the figures came from

  const CacheLevel* find(const std::string& level) const;
};

/// Reads cache sizes from `cpu_dir`/cpu0/cache/index*/{level,type,size,shared_cpu_list} and
/// MemAvailable from `meminfo`. Missing files leave the level out (it is then unavailable).
CacheInfo detect_caches(const std::filesystem::path& cpu_dir = "/sys/devices/system/cpu",
                        const std::filesystem::path& meminfo = "/proc/meminfo");

/// The levels a working set can be placed in, fastest first.
const std::vector<std::string>& all_levels();
/// Parses "L1,L2,DRAM" (case-insensitive; MEM/RAM = DRAM). Throws InputError naming the value.
std::vector<std::string> parse_levels(const std::string& csv);

/// Working-set bytes that place a run of `threads` threads in `level`: half of each thread's
/// private cache (L1, L2: the threads' shares add up), half of a shared cache, and for DRAM
/// max(4 × the last-level cache, 64 MiB), at most a quarter of MemAvailable.
/// Throws Unavailable when the machine lacks the level or the memory for it.
double working_set_for(const std::string& level, const CacheInfo& caches, int threads);

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

/// Context a workload is built in.
struct Context {
  CacheInfo caches;
  int threads = 1;
  std::string level;
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

/// Builds kernel `name` with a working set of about `working_set_bytes`. Throws InputError for
/// a size too small for the kernel, Unavailable when the kernel cannot run here (no BLAS).
std::unique_ptr<Workload> make_workload(const std::string& name, double working_set_bytes,
                                        const Context& ctx);

// ---------------------------------------------------------------------------------------------
// OpenBLAS

struct BlasInfo {
  bool available = false;
  std::string corename;   ///< openblas_get_corename()
  std::string config;     ///< openblas_get_config()
  std::string best_core;  ///< best OPENBLAS_CORETYPE for this CPU ("" when unknown)
  bool generic = false;   ///< corename uses a narrower instruction set than best_core
  std::map<std::string, std::string> environment;  ///< OPENBLAS_* variables that were set
};
BlasInfo blas_info();
/// Instruction-set class of an OpenBLAS core name: 0 unknown, 1 SSE, 2 AVX, 3 AVX2+FMA,
/// 4 AVX-512.
int blas_core_isa(const std::string& corename);
/// The best OPENBLAS_CORETYPE for a CPU of `vendor` ("AMD", "Intel") with these features.
std::string best_blas_core(const std::string& vendor, bool avx, bool avx2_fma, bool avx512);

// ---------------------------------------------------------------------------------------------
// Running

struct RunResult {
  std::string kernel;
  std::string level;  ///< where the working set sits
  std::string dtype;
  std::string variant;  ///< e.g. "OPENBLAS_CORETYPE=Prescott"; empty for the default run
  std::map<std::string, double> params;
  double working_set_bytes = 0;
  KernelCount count;
  std::vector<LevelTraffic> traffic;
  std::vector<double> times;  ///< seconds per call, one per repetition
  /// Seconds per call of the third-fastest repetition (the sustained rate, as roofs are
  /// measured: statistics.hpp); the point's T.
  double sustained = 0;
  double median = 0, min = 0, max = 0;
  int calls_per_repetition = 1;
  int threads = 1;
  std::string check = "passed";  ///< "passed" or what was wrong
  bool passed = true;
  std::string precision;
  std::string note;

  double spread() const { return median > 0 ? (max - min) / median : 0; }
  /// The point: W per call, Q per level, T = sustained seconds per call.
  Point to_point() const;
};

nlohmann::json result_to_json(const RunResult& r);
RunResult result_from_json(const nlohmann::json& j);

struct RunOptions {
  std::vector<std::string> kernels;  ///< suite names (resolve_kernels); empty = all
  std::vector<std::string> levels;   ///< empty = each kernel's default levels
  int threads = 0;                   ///< 0 = one per online CPU
  bool quick = false;                ///< fewer, shorter repetitions
  double working_set_override = 0;   ///< bytes; > 0 replaces the level sizes
  /// Progress: called before each run with a description.
  std::function<void(const std::string&)> progress;
  /// Raised (e.g. by a SIGINT handler) to stop between runs: run_suite throws Interrupted.
  const std::atomic<bool>* cancel = nullptr;
};

/// Median of a non-empty sample.
double median(std::vector<double> v);

/// Times one workload: warm-up, calibrates calls per repetition, repeats, checks the result.
RunResult time_workload(Workload& w, const std::string& kernel, const std::string& level,
                        int threads, bool quick);

/// Runs the suite. A failed check is recorded in the result (passed = false), not thrown.
/// Levels a machine lacks are skipped with a message through `progress`.
std::vector<RunResult> run_suite(const RunOptions& options, const CacheInfo& caches);

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

}  // namespace roofline::suite
