// Timing a workload (warm-up, calibration, repetitions, median and spread, result check), running
// the suite over kernels × levels, and running ourselves as a child process with
// a changed environment (OPENBLAS_CORETYPE must be set before the library initialises).
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "measure/engine/sample_time.hpp"
#include "measure/engine/team.hpp"
#include "roofline/quantity.hpp"
#include "roofline/statistics.hpp"
#include "roofline/suite.hpp"

extern char** environ;

namespace roofline::suite {

RunResult time_workload(Workload& w, const std::string& kernel, const std::string& level,
                        int threads, bool quick) {
  using clock = std::chrono::steady_clock;
  auto seconds_since = [](clock::time_point t0) {
    return std::chrono::duration<double>(clock::now() - t0).count();
  };
  // Repetitions timed as roofs are (sample_time.hpp, statistics.hpp): each long against the clock's
  // resolution and a scheduler time slice (engine::sample_seconds), as many as a time budget
  // allows, T = the sustained (third-fastest) repetition — so roof and point stand on the same
  // basis (docs/model.md §9). A repetition of a few microseconds (one L1-size call) cannot be timed
  // on a shared machine: it is one preemption away from a thousandfold spread.
  const double min_rep = engine::sample_seconds(quick);
  const double budget = quick ? 0.08 : 0.3;  // repetitions until this much time is spent
  const int min_reps = quick ? 5 : 9;        // and at least this many
  const int max_reps = 2000;
  const double long_call = quick ? 0.1 : 0.25;  // a call this long is repeated 3 times

  auto t0 = clock::now();
  w.run();  // warm-up: faults pages in, fills caches, starts threads
  const bool long_kernel = seconds_since(t0) > long_call;
  // Calibration: grow the calls per repetition until one repetition lasts min_rep. Each step
  // takes the fastest of three tries, so that one preempted try (or a slow first call) cannot
  // stop the growth early and leave repetitions of a few microseconds.
  // A long call (a DRAM-size GEMM of minutes on a busy host) is a repetition as it stands: its
  // three calibration tries would be three more calls of it, the run 7 calls instead of 4.
  int calls = 1;
  for (; !long_kernel;) {
    double took = 1e300;
    for (int k = 0; k < 3; ++k) {
      t0 = clock::now();
      w.run_many(calls);
      took = std::min(took, seconds_since(t0));
    }
    if (took >= min_rep || calls >= (1 << 24)) break;
    const double grow = took > 0 ? 1.2 * min_rep / took : 100.0;
    calls = static_cast<int>(
        std::min<double>(1 << 24, std::ceil(calls * std::clamp(grow, 2.0, 100.0))));
  }

  RunResult r;
  r.kernel = kernel;
  r.level = level;
  r.threads = threads;
  r.calls_per_repetition = calls;
  const auto start = clock::now();
  double rep_seconds = 0;
  for (int rep = 0; rep < max_reps; ++rep) {
    t0 = clock::now();
    w.run_many(calls);
    const double took = seconds_since(t0);
    rep_seconds += took;
    r.times.push_back(took / calls);
    const int done = rep + 1;
    if (long_kernel ? done >= 3 : done >= min_reps && seconds_since(start) >= budget) break;
  }
  r.seconds_per_repetition = rep_seconds / static_cast<double>(r.times.size());
  // The policy on rates (1 / time): the sustained rate is the third-shortest time.
  std::vector<double> rates;
  for (double t : r.times) rates.push_back(1.0 / t);
  const Statistics st = summarize_rates(rates);
  std::vector<double> sorted = r.times;
  std::sort(sorted.begin(), sorted.end());
  r.sustained =
      sorted[std::min<size_t>(sorted.size(), kSustainingSamples) - 1];  // = 1/st.sustained
  r.median = median(r.times);
  r.min = sorted.front();
  r.max = sorted.back();
  r.q1 = quantile_sorted(sorted, 0.25);
  r.q3 = quantile_sorted(sorted, 0.75);
  r.noisy = st.noisy;
  r.count = w.count;
  r.traffic = w.traffic;
  r.params = w.params;
  r.working_set_bytes = w.working_set_bytes;
  r.precision = w.precision;
  r.note = w.note;
  const std::string problem = w.check();
  r.passed = problem.empty();
  r.check = r.passed ? "passed" : problem;
  return r;
}

std::vector<int> team_cpus(const cpu::Topology& topology, int threads) {
  std::vector<int> cpus = topology.core_cpus.empty() ? topology.allowed_cpus : topology.core_cpus;
  if (cpus.empty()) cpus = {0};
  for (int c : topology.allowed_cpus)
    if (static_cast<int>(cpus.size()) < threads &&
        std::find(cpus.begin(), cpus.end(), c) == cpus.end())
      cpus.push_back(c);
  const size_t distinct = cpus.size();
  while (static_cast<int>(cpus.size()) < threads) cpus.push_back(cpus[cpus.size() % distinct]);
  cpus.resize(static_cast<size_t>(std::max(1, threads)));
  return cpus;
}

namespace {
/// One run of the suite, planned before any is timed.
struct PlannedRun {
  const KernelInfo* info = nullptr;
  std::string level;
  int threads = 1;
  double bytes = 0;     ///< 0: skipped (`skipped` says why)
  std::string skipped;  ///< the level the machine lacks, or the memory for it
};

/// The runs of `o`, every level's working set sized. A `--size` of the user's is judged at the
/// level that holds it (level_holding): alone, the kernel runs once there; a level asked for
/// that does not hold it is refused before anything runs, since the run would be judged
/// against another level's roof than the one it streams from.
std::vector<PlannedRun> plan_runs(const RunOptions& o, const Machine& machine, int threads) {
  std::vector<PlannedRun> plan;
  for (const auto& name : resolve_kernels(o.kernels)) {
    const auto& ks = suite_kernels();
    const auto info =
        std::find_if(ks.begin(), ks.end(), [&](const KernelInfo& k) { return k.name == name; });
    const int run_threads = info->threaded ? threads : 1;
    const double size = o.working_set_override;
    std::vector<std::string> levels = o.levels.empty() ? info->default_levels : o.levels;
    if (size > 0 && o.levels.empty()) levels = {level_holding(Bytes(size), machine, run_threads)};
    for (const auto& level : levels) {
      PlannedRun r{&*info, level, run_threads, size, ""};
      if (size > 0) {
        const std::string home = level_holding(Bytes(size), machine, run_threads);
        if (home != level)
          throw InputError("--size " + format_bytes(Bytes(size)) + " with --levels " + level +
                           ": " + name + " on " + std::to_string(run_threads) + " thread" +
                           (run_threads > 1 ? "s" : "") + " holds it in " + home + ", not " +
                           level + " (leave --levels out to judge it at " + home + ")");
      } else {
        try {
          r.bytes = working_set_for(level, machine, run_threads);
        } catch (const Unavailable& e) {
          r.skipped = e.what();
        }
      }
      plan.push_back(std::move(r));
    }
  }
  return plan;
}

Context context_for(const PlannedRun& run, const Machine& machine, engine::ThreadTeam& team) {
  Context ctx;
  ctx.machine = machine;
  ctx.threads = run.threads;
  ctx.team = run.info->threaded ? &team : nullptr;
  ctx.level = run.level;
  return ctx;
}

/// Builds, and drops at once, every planned run whose working set is at most
/// kSmallWorkingSet, so a level too small for a kernel (spmv's rows at an L1 of 32 kB) is
/// refused before any kernel is timed rather than after the runs before it. Every kernel's
/// smallest working set lies below that size (tests/measure: SuiteTest), and a larger set,
/// which cannot be too small, is not allocated twice.
void refuse_small_sets_first(const std::vector<PlannedRun>& plan, const Machine& machine,
                             engine::ThreadTeam& team) {
  for (const auto& run : plan)
    if (run.skipped.empty() && run.bytes <= kSmallWorkingSet.value)
      make_workload(run.info->name, Bytes(run.bytes), context_for(run, machine, team));
}
}  // namespace

std::vector<RunResult> run_suite(const RunOptions& o, const Machine& machine) {
  const int threads = o.threads > 0 ? o.threads : machine.cores();
  const std::vector<PlannedRun> plan = plan_runs(o, machine, threads);
  // The engine's pinned team (one per core first), and a one-member team for the kernels that
  // run on one thread; each lives for the whole suite, so data a workload first-touched stays
  // with the thread that uses it.
  engine::ThreadTeam team(team_cpus(machine.topology, threads));
  refuse_small_sets_first(plan, machine, team);
  std::vector<RunResult> out;
  for (const auto& run : plan) {
    const std::string& name = run.info->name;
    if (!run.skipped.empty()) {
      if (o.progress) o.progress("skipped " + name + " at " + run.level + ": " + run.skipped);
      continue;
    }
    const Context ctx = context_for(run, machine, team);
    if (o.cancel && o.cancel->load()) throw Interrupted("kernel suite interrupted");
    if (o.progress)
      o.progress(name + " at " + run.level + " (" + format_bytes(Bytes(run.bytes)) + ", " +
                 std::to_string(ctx.threads) + " thread" + (ctx.threads > 1 ? "s" : "") + ")");
    auto w = make_workload(name, Bytes(run.bytes), ctx);
    RunResult r = time_workload(*w, name, run.level, ctx.threads, o.quick);
    if (o.cancel && o.cancel->load()) throw Interrupted("kernel suite interrupted");
    r.dtype = run.info->dtype;
    out.push_back(std::move(r));
  }
  return out;
}

ChildOutput run_child(const std::string& exe, const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& env) {
  // Environment: ours, with `env` replacing or adding variables.
  std::vector<std::string> env_strings;
  for (char** e = environ; e && *e; ++e) {
    const std::string s(*e);
    const auto eq = s.find('=');
    if (eq != std::string::npos && env.count(s.substr(0, eq))) continue;
    env_strings.push_back(s);
  }
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings{exe};
  arg_strings.insert(arg_strings.end(), args.begin(), args.end());
  for (auto& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw Unavailable(std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw Unavailable(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::execve(exe.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  ChildOutput out;
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got > 0)
      out.out.append(buf, static_cast<size_t>(got));
    else if (got == 0)
      break;
    else if (errno != EINTR)
      break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (out.exit_code == 127) throw Unavailable("cannot run " + exe + " as a child process");
  return out;
}

}  // namespace roofline::suite
