// Running a program under counters (`roofline profile`), reading its marker results back, and
// saving/replaying counter recordings.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "roofline/counters.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

extern char** environ;

namespace roofline::counters {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* role_name(Role r) {
  switch (r) {
    case Role::flops:
      return "flops";
    case Role::dram:
      return "dram";
    case Role::level:
      return "level";
    case Role::software:
      return "software";
  }
  return "flops";
}

Role parse_role(const std::string& s, const std::string& where) {
  if (s == "flops") return Role::flops;
  if (s == "dram") return Role::dram;
  if (s == "level") return Role::level;
  if (s == "software") return Role::software;
  throw InputError(where + ": role: expected flops, dram, level or software (got '" + s + "')");
}

// While the program runs, SIGINT, SIGTERM and SIGHUP sent to roofline profile go on to the
// program, and the first one is kept so that the command stops once the program is gone (the
// program would otherwise be left running, and the marker folder behind). The program is in
// roofline profile's process group, so a signal the kernel sent to the whole group (the
// terminal's ^C, a hangup: si_code SI_KERNEL) has reached it already and is not sent twice.
// One a process sent to the whole group (kill -TERM -PGID, timeout(1)) cannot be told from one
// sent to profile alone: the program then gets it twice. One the program itself sent is
// neither passed on nor taken as an interruption.
volatile sig_atomic_t g_child = 0;     // the program's pid while it runs, else 0
volatile sig_atomic_t g_received = 0;  // the first signal received, else 0

extern "C" void pass_signal_on(int sig, siginfo_t* info, void*) {
  const int saved = errno;
  // One the program sent (`kill 0` from a script's exit trap reaches its whole group): its own
  // doing, no interruption of the run, and nothing to pass back to it.
  const bool from_child =
      info != nullptr && info->si_code == SI_USER && g_child > 0 && info->si_pid == g_child;
  if (!from_child) {
    if (g_received == 0) g_received = sig;
    const bool whole_group = info != nullptr && info->si_code == SI_KERNEL;
    if (!whole_group && g_child > 0) ::kill(static_cast<pid_t>(g_child), sig);
  }
  errno = saved;
}

/// Passes SIGINT/SIGTERM/SIGHUP on to `child` while it lives (one already ignored, as under
/// nohup or in a background job, stays ignored); SIGQUIT is ignored (the terminal's ^\ goes to
/// the program; we wait for it to finish, as system() does) and so is SIGPIPE (the start byte
/// written to a child that a passed-on signal ended). The previous handlers come back when it
/// is destroyed.
class PassSignalsOn {
 public:
  explicit PassSignalsOn(pid_t child) {
    g_received = 0;
    g_child = static_cast<sig_atomic_t>(child);
    struct sigaction pass {};
    pass.sa_sigaction = pass_signal_on;
    pass.sa_flags = SA_SIGINFO;  // no SA_RESTART: the wait returns EINTR and goes on
    sigemptyset(&pass.sa_mask);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    for (std::size_t i = 0; i < kPassed.size(); ++i) {
      ::sigaction(kPassed[i], nullptr, &old_[i]);
      if (old_[i].sa_handler != SIG_IGN) ::sigaction(kPassed[i], &pass, nullptr);
    }
    ::sigaction(SIGQUIT, &ignore, &old_quit_);
    ::sigaction(SIGPIPE, &ignore, &old_pipe_);
  }
  ~PassSignalsOn() {
    for (std::size_t i = 0; i < kPassed.size(); ++i) ::sigaction(kPassed[i], &old_[i], nullptr);
    ::sigaction(SIGQUIT, &old_quit_, nullptr);
    ::sigaction(SIGPIPE, &old_pipe_, nullptr);
    g_child = 0;
  }
  PassSignalsOn(const PassSignalsOn&) = delete;
  PassSignalsOn& operator=(const PassSignalsOn&) = delete;
  /// The first signal received since construction, or 0.
  int received() const { return g_received; }
  /// The program was reaped: its pid may be another process's from now on, so no signal goes
  /// to it.
  void child_gone() { g_child = 0; }

 private:
  static constexpr std::array<int, 3> kPassed = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
  struct sigaction old_quit_ {
  }, old_pipe_{};
};

}  // namespace

RunResult run_counted(const std::vector<std::string>& argv, const RunOptions& opt) {
  if (argv.empty())
    throw InputError("no program given: roofline profile [options] -- PROGRAM ARGS...");
  RunResult r;
  r.pmu = probe_pmu(opt.sysfs_root);
  r.plan.events = software_events();
  const CpuIdentity cpu = this_cpu();
  // The CPU is recorded whatever can be counted on it (no core PMU, --events none), from the
  // identification a recording of the counters holds (recording_to_json).
  r.plan.cpu_description = cpu_description(cpu);
  if (opt.hardware) {
    if (!r.pmu.core_pmu.empty()) {
      EventPlan core = core_event_plan(cpu, r.pmu.core_pmu);
      r.plan.cpu_description = core.cpu_description;
      if (r.pmu.core_pmu_usable) {
        r.plan.events.insert(r.plan.events.end(), core.events.begin(), core.events.end());
        r.plan.limits = core.limits;
      }
      r.plan.missing = core.missing;
    }
    add_dram_events(r.plan, cpu, opt.sysfs_root);
  }

  // Everything the child needs is built before fork: after it only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, "ROOFLINE_MARKER_DIR=", 20) != 0) env_strings.emplace_back(*e);
  if (!opt.marker_dir.empty())
    env_strings.push_back("ROOFLINE_MARKER_DIR=" + opt.marker_dir.string());
  std::vector<char*> envp, args;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  int go[2], err[2];
  if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
    throw Error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(go[1]);
    ::close(err[0]);
    char c = 0;
    if (::read(go[0], &c, 1) != 1) ::_exit(127);  // parent gave up before starting us
    ::execvpe(args[0], args.data(), envp.data());
    const int e = errno;
    ssize_t w = ::write(err[1], &e, sizeof e);
    (void)w;
    ::_exit(e == ENOENT ? 127 : 126);
  }
  ::close(go[0]);
  ::close(err[1]);
  PassSignalsOn signals(pid);
  CounterSet set;
  set.open(r.plan.events, pid, /*on_exec=*/true, opt.sysfs_root);
  r.open_failures = set.failures();
  set.enable_system_wide();
  const auto t0 = std::chrono::steady_clock::now();
  const char go_byte = 'g';
  if (signals.received() == 0) {  // else the child gets end-of-file and exits 127 unstarted
    ssize_t w = ::write(go[1], &go_byte, 1);
    (void)w;
  }
  ::close(go[1]);
  int exec_errno = 0;
  ssize_t n;
  do n = ::read(err[0], &exec_errno, sizeof exec_errno);
  while (n < 0 && errno == EINTR);
  ::close(err[0]);
  int status = 0;
  pid_t waited;
  do waited = ::waitpid(pid, &status, 0);
  while (waited < 0 && errno == EINTR);
  signals.child_gone();
  const auto t1 = std::chrono::steady_clock::now();
  set.disable_system_wide();
  if (n == static_cast<ssize_t>(sizeof exec_errno)) {
    // execve says EACCES for a folder; a shell says what it is.
    std::error_code ec;
    const std::string why = exec_errno == EACCES && fs::is_directory(find_program(argv[0]), ec)
                                ? "is a directory"
                                : std::strerror(exec_errno);
    throw ExecError("cannot run '" + terminal_safe(argv[0]) + "': " + why,
                    exec_errno == ENOENT ? 127 : 126);
  }
  r.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.interrupted_by = signals.received();
  if (WIFEXITED(status)) {
    r.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.term_signal = WTERMSIG(status);
    r.exit_status = 128 + r.term_signal;
  }
  r.readings = set.read();
  r.totals = combine(r.plan.events, r.readings);
  return r;
}

namespace {

/// One region of a markers document, or why it is left out ("" when read).
std::string marker_region(const json& rj, RegionResult& r) {
  if (!rj.is_object() || !rj.contains("name") || !rj["name"].is_string())
    return "a region without a name";
  r.name = rj["name"].get<std::string>();
  const auto number = [&](const char* key, double& out) -> std::string {
    const auto it = rj.find(key);
    if (it == rj.end()) return std::string(key) + ": missing";
    if (it->is_null())  // the runtime writes a non-finite figure as null
      return std::string(key) + ": not a finite number (NaN or inf given, or a sum past 1e308)";
    if (!it->is_number() || !(it->get<double>() >= 0))
      return std::string(key) + ": " + it->dump() + " is not a count >= 0";
    out = it->get<double>();
    return "";
  };
  double calls = 0, threads = 0;
  for (const auto& [key, out] : {std::pair<const char*, double*>{"calls", &calls},
                                 {"threads", &threads},
                                 {"time", &r.time},
                                 {"thread_time", &r.thread_time},
                                 {"flops", &r.flops},
                                 {"bytes", &r.bytes}})
    if (std::string why = number(key, *out); !why.empty()) return why;
  if (calls > 1e18 || threads > 1e6) return "calls or threads out of range";
  // A region that ran was called at least once on at least one thread.
  if (calls < 1 || threads < 1)
    return "calls " + format_number(calls) + ", threads " + format_number(threads) +
           ": a region that ran was called on at least one thread";
  // thread_time sums each thread's time in the region, none longer than its wall time (the
  // longest thread's): at most threads × time (1% and 1 ms of slack for the clocks' reads).
  if (r.thread_time > threads * r.time * 1.01 + 1e-3)
    return "thread_time " + format_seconds(Seconds(r.thread_time)) + " is more than its " +
           format_number(threads) + " thread(s) × its time " + format_seconds(Seconds(r.time));
  r.calls = static_cast<std::uint64_t>(calls);
  r.threads = static_cast<int>(threads);
  return "";
}

/// The runtime's own count of misuse, said as a note (it was read and dropped).
void misuse_notes(const json& j, const std::string& origin, std::vector<std::string>* notes) {
  if (!notes) return;
  const auto count = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  if (const double n = count("unmatched_ends"); n > 0)
    notes->push_back(origin + ": " + format_number(n) +
                     " region end(s) without a begin of the same name: their time is not counted");
  if (const double n = count("open_at_exit"); n > 0)
    notes->push_back(origin + ": " + format_number(n) +
                     " region(s) still open at exit: their last pass is not counted");
  if (const double n = count("dropped"); n > 0)
    notes->push_back(origin + ": " + format_number(n) +
                     " region begin(s) past the runtime's table (too many names or nesting): "
                     "not counted");
}

}  // namespace

std::vector<RegionResult> read_marker_results(const fs::path& dir, std::vector<std::string>* notes,
                                              Seconds wall_time) {
  std::map<std::string, RegionResult> merged;
  std::set<std::string> bad;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("markers-", 0) == 0 && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string origin = f.filename().string();  // the folder is gone when it is read
    const json j = parse_json(read_text_file(f), origin);
    if (!j.is_object() || j.value("schema", "") != "roofline.markers" || j.value("version", 0) != 1)
      throw InputError(origin + ": not a roofline.markers version 1 document");
    if (!j.contains("regions") || !j["regions"].is_array())
      throw InputError(origin + ": regions: expected an array");
    misuse_notes(j, origin, notes);
    for (const auto& rj : j["regions"]) {
      RegionResult one;
      if (const std::string why = marker_region(rj, one); !why.empty()) {
        if (notes)
          notes->push_back("marker region '" + terminal_safe(one.name) + "': " + why +
                           ": left out");
        if (!one.name.empty()) bad.insert(one.name);
        continue;
      }
      RegionResult& r = merged[one.name];
      r.name = one.name;
      r.calls += one.calls;
      // Processes of one run (ranks, workers) overlap like threads: the longest is the wall.
      r.time = std::max(r.time, one.time);
      r.thread_time += one.thread_time;
      r.threads += one.threads;
      r.flops += one.flops;
      r.bytes += one.bytes;
    }
  }
  std::vector<RegionResult> out;
  for (auto& [n, r] : merged) {
    if (bad.count(n)) continue;  // a region bad in one process is bad as a whole
    // A region runs within the program: its wall time (the longest thread's) cannot pass the
    // program's, which the parent clocks from before exec to after exit (1% and 1 ms of slack
    // for the two clocks' reads).
    if (wall_time.value > 0 && r.time > wall_time.value * 1.01 + 1e-3) {
      if (notes)
        notes->push_back("marker region '" + terminal_safe(n) + "': time " +
                         format_seconds(Seconds(r.time)) + " is longer than the whole program's " +
                         format_seconds(wall_time) +
                         " (a clock gone wrong, or a markers file of another run): left out");
      continue;
    }
    out.push_back(r);
  }
  return out;
}

std::string recording_to_json(const RunResult& r, const CpuIdentity& cpu) {
  json j;
  j["schema"] = "roofline.counters";
  j["version"] = 1;
  j["cpu"] = {{"vendor", cpu.vendor},
              {"family", cpu.family},
              {"model", cpu.model},
              {"model_name", cpu.model_name}};
  j["wall_seconds"] = r.wall_seconds;
  j["exit_status"] = r.exit_status;
  json evs = json::array();
  for (std::size_t i = 0; i < r.plan.events.size(); ++i) {
    const EventSpec& e = r.plan.events[i];
    const Reading& rd = r.readings.at(i);
    json ej = {{"name", e.name},
               {"pmu", e.pmu},
               {"config", e.config},
               {"role", role_name(e.role)},
               {"weight", e.weight},
               {"value", rd.value},
               {"time_enabled", rd.time_enabled},
               {"time_running", rd.time_running}};
    if (!e.precision.empty()) ej["precision"] = e.precision;
    if (!e.level.empty()) ej["level"] = e.level;
    evs.push_back(ej);
  }
  j["events"] = evs;
  j["limits"] = r.plan.limits;
  j["missing"] = r.plan.missing;
  return json_text(j) + "\n";
}

namespace {

/// A whole number of a recording that must fit `T`: absent gives `fallback`; a float, a string,
/// a negative count or one out of range is an InputError naming the field (never a cast of an
/// out-of-range double).
template <typename T>
T recorded_whole(const json& j, const char* key, const std::string& where,
                 std::optional<T> fallback = std::nullopt) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (fallback) return *fallback;
    throw InputError(where + ": " + key + ": missing");
  }
  // A whole number written as a float (1000000000.0, as Python writes a float count) is taken
  // when it is exact: below 2^53 and without a fraction.
  if (it->is_number_float()) {
    const double d = it->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0 &&
        d >= double(std::numeric_limits<T>::min()) && d <= double(std::numeric_limits<T>::max()))
      return T(d);
  }
  const bool fits =
      it->is_number_unsigned()
          ? it->get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max())
      : it->is_number_integer()
          ? it->get<std::int64_t>() >= std::int64_t(std::numeric_limits<T>::min()) &&
                (it->get<std::int64_t>() < 0 || std::uint64_t(it->get<std::int64_t>()) <=
                                                    std::uint64_t(std::numeric_limits<T>::max()))
          : false;
  if (!fits)
    throw InputError(where + ": " + key + ": expected a whole number" +
                     (std::is_unsigned_v<T> ? " >= 0" : "") + " (got " + it->dump().substr(0, 40) +
                     ")");
  return it->is_number_unsigned() ? T(it->get<std::uint64_t>()) : T(it->get<std::int64_t>());
}

/// A recorded text: one printable line (a recording this tool wrote holds nothing else; a
/// line break would forge a line of the report). `where` names the field.
std::string one_line(const json& v, const std::string& where) {
  if (!v.is_string()) throw InputError(where + ": expected a string");
  std::string s = v.get<std::string>();
  if (terminal_safe(s) != s)
    throw InputError(where + ": a control character or line break in \"" +
                     terminal_safe(s.substr(0, 60)) + "\"");
  return s;
}

/// A text field of a recording: absent gives "", anything but a one-line string is an
/// InputError.
std::string recorded_text(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) return "";
  return one_line(*it, where + ": " + key);
}

/// A list of texts (limits, missing): absent gives none.
std::vector<std::string> recorded_lines(const json& j, const char* key, const std::string& where) {
  std::vector<std::string> out;
  const auto it = j.find(key);
  if (it == j.end()) return out;
  if (!it->is_array()) throw InputError(where + ": " + key + ": expected an array of strings");
  for (std::size_t i = 0; i < it->size(); ++i)
    out.push_back(one_line((*it)[i], where + ": " + key + "[" + std::to_string(i) + "]"));
  return out;
}

/// A real number of a recording that must be finite and > 0 (absent: `fallback`, if any).
double recorded_positive(const json& j, const char* key, const std::string& where,
                         std::optional<double> fallback = std::nullopt) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (fallback) return *fallback;
    throw InputError(where + ": " + key + ": missing");
  }
  if (!it->is_number() || !std::isfinite(it->get<double>()) || !(it->get<double>() > 0))
    throw InputError(where + ": " + key + ": expected a finite number > 0 (got " +
                     terminal_safe(it->dump().substr(0, 40)) + ")");
  return it->get<double>();
}

}  // namespace

RunResult recording_from_json(const std::string& text, const std::string& origin) {
  const json j = parse_json(text, origin);
  if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string() ||
      j["schema"].get<std::string>() != "roofline.counters")
    throw InputError(origin + ": schema: expected \"roofline.counters\"");
  if (!j.contains("version") || !j["version"].is_number_integer() ||
      j["version"].get<std::int64_t>() != 1)
    throw InputError(origin + ": version: expected 1");
  RunResult r;
  try {
    if (!j.contains("cpu")) throw InputError(origin + ": cpu: missing");
    const json& cj = j["cpu"];
    if (!cj.is_object()) throw InputError(origin + ": cpu: expected an object");
    const std::string cw = origin + ": cpu";
    const CpuIdentity cpu{recorded_text(cj, "vendor", cw), recorded_whole<int>(cj, "family", cw, 0),
                          recorded_whole<int>(cj, "model", cw, 0),
                          recorded_text(cj, "model_name", cw)};
    r.plan.cpu_description = cpu.vendor + " family " + std::to_string(cpu.family) + " model " +
                             std::to_string(cpu.model);
    r.wall_seconds = recorded_positive(j, "wall_seconds", origin);
    r.exit_status = recorded_whole<int>(j, "exit_status", origin, 0);
    // An exit status is 0..255 (128 + N for signal N): another was never a program's.
    if (r.exit_status > 255)
      throw InputError(origin + ": exit_status: " + std::to_string(r.exit_status) +
                       " is no exit status (0 to 255)");
    if (!j.contains("events")) throw InputError(origin + ": events: missing");
    const json& evs = j["events"];
    std::vector<std::string> relabelled;
    if (!evs.is_array()) throw InputError(origin + ": events: expected an array");
    for (std::size_t i = 0; i < evs.size(); ++i) {
      const json& ej = evs[i];
      const std::string where = origin + ": events[" + std::to_string(i) + "]";
      if (!ej.is_object()) throw InputError(where + ": expected an object");
      EventSpec e;
      if (!ej.contains("name")) throw InputError(where + ": name: missing");
      e.name = one_line(ej["name"], where + ": name");
      e.pmu = recorded_text(ej, "pmu", where);
      e.config = recorded_whole<std::uint64_t>(ej, "config", where, 0);
      if (!ej.contains("role")) throw InputError(where + ": role: missing");
      e.role = parse_role(one_line(ej["role"], where + ": role"), where);
      e.precision = recorded_text(ej, "precision", where);
      e.level = recorded_text(ej, "level", where);
      // A FLOP event's precision is a data type ("fp": either, as AMD's counters count); a
      // traffic event names its level.
      if (!e.precision.empty() && e.precision != "fp") {
        try {
          parse_dtype(e.precision);
        } catch (const InputError&) {
          throw InputError(where + ": precision: '" + terminal_safe(e.precision) +
                           "' is no data type (fp64, fp32, fp16, bf16, ...)");
        }
      }
      if ((e.role == Role::dram || e.role == Role::level) && e.level.empty())
        throw InputError(where + ": level: missing (a traffic event names the level it counts)");
      // Recordings made before the line-fill events were given the level that serves the lines
      // carry L1D.REPLACEMENT as "L1" and L2_LINES_IN.ALL as "L2": read them as the table says.
      if (e.role == Role::level)
        for (const auto& t : event_table())
          if (t.role == Role::level && t.name == e.name && t.quantity != e.level) {
            relabelled.push_back(e.name + " (" + e.level + " → " + t.quantity + ")");
            e.level = t.quantity;
            break;
          }
      e.weight = recorded_positive(ej, "weight", where, 1.0);
      Reading rd;
      rd.name = e.name;
      rd.value = recorded_whole<std::uint64_t>(ej, "value", where);
      rd.time_enabled = recorded_whole<std::uint64_t>(ej, "time_enabled", where);
      rd.time_running = recorded_whole<std::uint64_t>(ej, "time_running", where);
      if (rd.time_running > rd.time_enabled)
        throw InputError(where + ": time_running exceeds time_enabled");
      r.plan.events.push_back(e);
      r.readings.push_back(rd);
    }
    r.plan.limits = recorded_lines(j, "limits", origin);
    r.plan.missing = recorded_lines(j, "missing", origin);
    for (const auto& n : relabelled)
      r.plan.limits.push_back("recorded level read as the level that serves the lines: " + n);
  } catch (const json::exception& e) {
    throw InputError(origin + ": " + e.what());
  }
  r.totals = combine(r.plan.events, r.readings);
  return r;
}

}  // namespace roofline::counters
