// `roofline profile --instrument`: the program runs natively for T (per-function samples,
// marker timers), once more counting its operations (W), and under callgrind (Q); the
// slowdowns of the last two never enter T.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/instrument.hpp"
#include "roofline/io.hpp"

namespace roofline::instrument {
namespace fs = std::filesystem;

namespace {

/// Sets (or removes, with value nullopt) environment variables for the programs this process
/// starts (run_counted passes its environment on), restoring them at scope exit.
class ScopedEnv {
 public:
  ScopedEnv(std::initializer_list<std::pair<const char*, std::optional<std::string>>> vars) {
    for (const auto& [name, value] : vars) {
      const char* old = std::getenv(name);
      saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
      if (value)
        ::setenv(name, value->c_str(), 1);
      else
        ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second)
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        ::unsetenv(it->first.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

/// The program's standard output and error go to `path` while this lives (the child inherits
/// the descriptors); ours come back at scope exit.
class ScopedRedirect {
 public:
  explicit ScopedRedirect(const fs::path& path) {
    std::fflush(stdout);
    std::fflush(stderr);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    out_ = ::dup(1);
    err_ = ::dup(2);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
  }
  ~ScopedRedirect() {
    if (out_ >= 0) ::dup2(out_, 1), ::close(out_);
    if (err_ >= 0) ::dup2(err_, 2), ::close(err_);
  }
  ScopedRedirect(const ScopedRedirect&) = delete;
  ScopedRedirect& operator=(const ScopedRedirect&) = delete;

 private:
  int out_ = -1, err_ = -1;
};

std::string geometry_arg(const CacheGeometry& g) {
  return std::to_string(g.size) + "," + std::to_string(g.ways) + "," + std::to_string(g.line);
}

/// The last lines of `path` that say why Valgrind stopped (an instruction it cannot decode).
std::string valgrind_problem(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().filename().string().rfind("valgrind.", 0) != 0) continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("unhandled instruction bytes") != std::string::npos ||
          line.find("Unrecognised instruction") != std::string::npos)
        return "Valgrind cannot decode an instruction of the program (Valgrind 3.19 knows no "
               "AVX-512): build it for the simulation without AVX-512 (e.g. -march=x86-64-v3)";
      if (line.find("failed to start tool") != std::string::npos ||
          line.find("cannot find") != std::string::npos)
        return "Valgrind could not start: " + line;
    }
  }
  return "";
}

/// 1. Native: T of the program, per-function samples, marker regions' timers; hardware counters
///    too where the machine has them (compared in the output, not used).
void run_native(const std::vector<std::string>& argv, const InstrumentOptions& opt,
                const fs::path& work, InstrumentedRun& r) {
  {
    ScopedEnv env{{"ROOFLINE_FLOPCOUNT", std::string("time")},
                  {"ROOFLINE_FLOPCOUNT_DIR", (work / "time").string()}};
    counters::RunOptions o;
    o.hardware = opt.hardware;
    o.marker_dir = work / "markers";
    o.sysfs_root = opt.sysfs_root;
    r.native = counters::run_counted(argv, o);
  }
  if (r.native.interrupted_by != 0) return;  // nothing to read: the command stops
  r.regions =
      counters::read_marker_results(work / "markers", &r.messages, Seconds(r.native.wall_seconds));
  r.samples = read_sample_results(work / "time");
}

/// The native run's samples attributed to the functions of the objects they fell in (their ELF
/// symbols), summed over processes, the most sampled first.
std::vector<FunctionTime> sampled_function_times(const std::vector<SampleResult>& samples) {
  std::map<std::string, std::vector<Symbol>> symbols;
  for (const auto& s : samples)
    for (const auto& o : s.objects) {
      if (symbols.count(o.path) || o.path.empty()) continue;
      try {
        symbols[o.path] = read_elf_functions(o.path);
      } catch (const InputError&) {
        symbols[o.path] = {};
      }
    }
  std::vector<FunctionTime> times;
  for (const auto& s : samples) {
    for (const auto& t : attribute_samples(s, symbols)) {
      auto it = std::find_if(times.begin(), times.end(),
                             [&](const FunctionTime& x) { return x.name == t.name; });
      if (it == times.end()) {
        times.push_back(t);
      } else {  // processes one after another: their times add
        it->samples += t.samples;
        it->cpu_seconds += t.cpu_seconds;
        it->seconds += t.seconds;
      }
    }
  }
  std::sort(times.begin(), times.end(),
            [](const FunctionTime& a, const FunctionTime& b) { return a.samples > b.samples; });
  return times;
}

/// 2. Counting: the counted clones run; the program's output is kept in a file.
void run_counting(const std::vector<std::string>& argv, const InstrumentOptions& opt,
                  const fs::path& work, InstrumentedRun& r) {
  {
    ScopedEnv env{{"ROOFLINE_FLOPCOUNT", std::string("count")},
                  {"ROOFLINE_FLOPCOUNT_DIR", (work / "count").string()}};
    ScopedRedirect out(work / "count" / "output.txt");
    counters::RunOptions o;
    o.hardware = false;
    o.sysfs_root = opt.sysfs_root;
    r.counting = counters::run_counted(argv, o);
  }
  r.counts = read_count_results(work / "count");
  if (r.counting.exit_status != 0)
    r.messages.push_back("the counting run exited with status " +
                         std::to_string(r.counting.exit_status) +
                         " (its output: " + (work / "count" / "output.txt").string() + ")");
}

/// Valgrind's command line: callgrind simulating `sim`'s caches, writing its profiles and logs
/// into `dir`, following child processes.
std::vector<std::string> callgrind_command(const std::vector<std::string>& argv,
                                           const std::string& valgrind, const SimulationRun& sim,
                                           const fs::path& dir) {
  std::vector<std::string> args = {valgrind,
                                   "--tool=callgrind",
                                   "--cache-sim=yes",
                                   "--simulate-wb=yes",
                                   "--I1=" + geometry_arg(sim.i1),
                                   "--D1=" + geometry_arg(sim.d1),
                                   "--LL=" + geometry_arg(sim.ll),
                                   "--demangle=no",
                                   "--compress-strings=no",
                                   "--compress-pos=no",
                                   "--dump-instr=no",
                                   "--trace-children=yes",
                                   "--callgrind-out-file=" + (dir / "callgrind.out.%p").string(),
                                   "--log-file=" + (dir / "valgrind.%p.log").string(),
                                   "--"};
  args.insert(args.end(), argv.begin(), argv.end());
  return args;
}

/// One simulation with outer level `li` as the simulated last level. False when the simulator
/// could not be started (the run's `problem` says so, and no further level is tried).
bool simulate_cache_level(const std::vector<std::string>& argv, const InstrumentOptions& opt,
                          const fs::path& work, size_t li, SimulationRun& sim, int& interrupted) {
  sim.i1 = valgrind_geometry(opt.caches.i1);
  sim.d1 = valgrind_geometry(opt.caches.d1);
  sim.ll = valgrind_geometry(opt.caches.outer[li]);
  sim.ll_level = opt.caches.outer[li].level;
  sim.fills_from = li + 1 < opt.caches.outer.size() ? opt.caches.outer[li + 1].level : "DRAM";
  const fs::path dir = work / "sim" / sim.ll_level;
  fs::create_directories(dir / "markers");
  const std::vector<std::string> args = callgrind_command(argv, opt.valgrind, sim, dir);
  try {
    // Markers on, and dumping the simulator's counts at every region boundary, so each
    // region gets the traffic of the time it was open (read_callgrind_dir).
    ScopedEnv env{{"ROOFLINE_FLOPCOUNT", std::nullopt},
                  {"ROOFLINE_FLOPCOUNT_DIR", std::nullopt},
                  {"ROOFLINE_MARKER_SIM", std::string("1")}};
    ScopedRedirect out(dir / "output.txt");
    counters::RunOptions o;
    o.hardware = false;
    o.sysfs_root = opt.sysfs_root;
    o.marker_dir = dir / "markers";
    const counters::RunResult run = counters::run_counted(args, o);
    sim.exit_status = run.exit_status;
    sim.wall_seconds = run.wall_seconds;
    interrupted = run.interrupted_by;
    if (interrupted != 0) return false;
  } catch (const counters::ExecError& e) {
    sim.problem = "the cache simulator could not be started (" + std::string(e.what()) +
                  "): install Debian's valgrind";
    return false;
  }
  try {
    sim.profile = read_callgrind_dir(dir, "callgrind.out.");
  } catch (const InputError& e) {
    sim.problem = e.what();
  }
  if (sim.profile.events.empty()) {
    const std::string why = valgrind_problem(dir);
    sim.problem = !why.empty() ? why
                  : sim.problem.empty()
                      ? "callgrind wrote no profile (exit status " +
                            std::to_string(sim.exit_status) + "; see " + dir.string() + ")"
                      : sim.problem;
  }
  return true;
}

}  // namespace

InstrumentedRun run_instrumented(const std::vector<std::string>& argv,
                                 const InstrumentOptions& opt) {
  InstrumentedRun r;
  const fs::path work = opt.work_dir;
  for (const char* d : {"time", "count", "markers", "sim"}) fs::create_directories(work / d);

  run_native(argv, opt, work, r);
  r.interrupted_by = r.native.interrupted_by;
  if (r.interrupted_by != 0) return r;
  if (r.native.exit_status != 0) {
    r.messages.push_back("the program exited with status " + std::to_string(r.native.exit_status) +
                         ": it was not run again to count and simulate");
    return r;
  }
  r.times = sampled_function_times(r.samples);
  run_counting(argv, opt, work, r);
  r.interrupted_by = r.counting.interrupted_by;
  if (r.interrupted_by != 0) return r;

  // 3. Simulation: callgrind with this machine's L1 and last level (Q(L2), Q(DRAM)); with more
  //    levels, once more with each middle level as the simulated last level (Q(L3) ...).
  if (opt.valgrind.empty() || opt.caches.outer.empty()) return r;
  std::vector<size_t> last_levels = {opt.caches.outer.size() - 1};
  if (opt.simulate_all_levels)
    for (size_t i = 0; i + 1 < opt.caches.outer.size(); ++i) last_levels.push_back(i);
  for (size_t li : last_levels) {
    SimulationRun sim;
    const bool started = simulate_cache_level(argv, opt, work, li, sim, r.interrupted_by);
    if (r.interrupted_by != 0) return r;
    r.simulations.push_back(sim);
    if (!started) break;
  }
  return r;
}

}  // namespace roofline::instrument
