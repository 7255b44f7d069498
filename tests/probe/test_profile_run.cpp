// `roofline profile` around the program it runs: a signal to profile reaches the program and
// leaves nothing behind, JSON never shares standard output with the program's own output, and
// the points it places are numbers (P and I neither inf nor 0).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/counters.hpp"
#include "roofline/error.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// Whether process `pid` has a handler installed for `sig` (SigCgt in /proc/PID/status).
bool catches(pid_t pid, int sig) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("SigCgt:", 0) == 0)
      return (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1;
  return false;
}

/// The pid a file holds once it is complete ("123\n"), or 0.
pid_t pid_in(const fs::path& file) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.back() != '\n') return 0;
  return static_cast<pid_t>(std::stol(text));
}

/// Starts `roofline ARGS` with TMPDIR set to `tmp`, stdout and stderr into `out` and `err`.
pid_t start_roofline(const std::vector<std::string>& args, const fs::path& tmp, const fs::path& out,
                     const fs::path& err, bool own_session = false) {
  std::vector<std::string> argv = {ROOFLINE_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargs;
  for (auto& a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  const std::string tmpdir = tmp.string(), o = out.string(), e = err.string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (own_session) ::setsid();  // a signal to its group reaches neither the test nor its shell
    ::setenv("TMPDIR", tmpdir.c_str(), 1);
    const int fo = ::open(o.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fe = ::open(e.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fo < 0 || fe < 0) ::_exit(120);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    ::execv(cargs[0], cargs.data());
    ::_exit(121);
  }
  return pid;
}

/// Waits up to `limit` for `pid` to exit; its wait status, or -1 when it did not.
int wait_for(pid_t pid, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (std::chrono::steady_clock::now() < end) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(10ms);
  }
  return -1;
}

// SIGTERM (a supervisor, `timeout`) or SIGHUP (a closed session) to roofline profile left the
// program running and the marker folder (roofline-markers-XXXXXX) in TMPDIR: profile died by
// the default action. Now the signal goes on to the program, profile waits for it, removes the
// folder and exits with 128 + the signal number, writing nothing.
TEST(ProfileSignals, PassedOnToTheProgramAndNothingLeftBehind) {
  for (const int sig : {SIGTERM, SIGHUP}) {
    SCOPED_TRACE("signal " + std::to_string(sig));
    TempDir d;
    const fs::path tmp = d.path / "tmp";
    fs::create_directories(tmp);
    const std::string points = d.file("points.json"), pidfile = d.file("program.pid");
    write_text(points, "previous\n");
    const pid_t profile = start_roofline(
        {"profile", "--events", "none", "--work", "1e9", "--traffic", "1e9", "-o", points, "--",
         "/bin/sh", "-c", "echo $$ > " + shell_quote(pidfile) + "; exec sleep 7"},
        tmp, d.path / "out", d.path / "err");
    ASSERT_GT(profile, 0);
    // The program has started (its pid written) and profile waits for it with its handler.
    pid_t program = 0;
    for (int i = 0; i < 1000 && !(program && catches(profile, sig)); ++i) {
      program = pid_in(pidfile);
      std::this_thread::sleep_for(10ms);
    }
    ASSERT_GT(program, 0) << "the program did not start";
    const auto sent = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(profile, sig), 0);
    const int status = wait_for(profile, 5000ms);
    if (status == -1) {
      ::kill(profile, SIGKILL);
      ::waitpid(profile, nullptr, 0);
    }
    ::kill(program, SIGKILL);  // whatever the result, no sleep is left behind by the test
    ASSERT_NE(status, -1) << "profile did not exit";
    EXPECT_LT(std::chrono::steady_clock::now() - sent, 5s) << "profile waited for sleep 7";
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
    // The program is gone (reaped by profile, not reparented and still sleeping).
    errno = 0;
    EXPECT_EQ(::kill(program, 0), -1);
    EXPECT_EQ(errno, ESRCH);
    // No marker folder (nor anything else) left in TMPDIR, and -o as it was.
    EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();
    EXPECT_EQ(slurp(points), "previous\n");
    const std::string err = slurp(d.path / "err");
    EXPECT_NE(err.find(std::string("roofline: interrupted (") +
                       (sig == SIGTERM ? "SIGTERM" : "SIGHUP") + ") while the program ran"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find(points + " left as it was"), std::string::npos) << err;
  }
}

// A program that signals its own process group (`kill 0` in a script's exit trap, to end its
// background workers) reaches profile too: that is the program's doing, not an interruption.
// It was taken as one: exit 143 and nothing written.
TEST(ProfileSignals, ASignalFromTheProgramItselfIsNoInterruption) {
  TempDir d;
  const fs::path tmp = d.path / "tmp";
  fs::create_directories(tmp);
  const std::string points = d.file("points.json");
  const pid_t profile =
      start_roofline({"profile", "--events", "none", "--work", "1e9", "--traffic", "1e9", "-o",
                      points, "--", "/bin/sh", "-c", "trap '' TERM; kill -TERM 0; exit 0"},
                     tmp, d.path / "out", d.path / "err", true);
  ASSERT_GT(profile, 0);
  const int status = wait_for(profile, 20000ms);
  if (status == -1) {
    ::kill(profile, SIGKILL);
    ::waitpid(profile, nullptr, 0);
  }
  ASSERT_NE(status, -1) << "profile did not exit";
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(d.path / "err");
  EXPECT_EQ(nlohmann::json::parse(slurp(points)).at("points").size(), 1u);
}

// A program that cannot be started (exit 127) leaves no marker folder either (std::exit skipped
// its removal).
TEST(ProfileSignals, AProgramThatCannotStartLeavesNoMarkerFolder) {
  TempDir d;
  const fs::path tmp = d.path / "tmp";
  fs::create_directories(tmp);
  const pid_t profile = start_roofline({"profile", "--", d.file("no-such-program")}, tmp,
                                       d.path / "out", d.path / "err");
  const int status = wait_for(profile, 30000ms);
  ASSERT_NE(status, -1);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 127);
  EXPECT_TRUE(fs::is_empty(tmp));
}

// `profile --json` wrote the program's "hello" and then the document to standard output: not
// JSON. --json wants -o FILE; the program's output still goes to standard output.
TEST(ProfileOutput, JsonNeverSharesStandardOutputWithTheProgram) {
  auto r =
      run_cli({"profile", "--work", "1G", "--traffic", "1G", "--json", "--", "/bin/echo", "hello"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");  // refused before the program runs
  EXPECT_NE(r.err.find("--json: the program's own output goes to standard output too"),
            std::string::npos)
      << r.err;
  TempDir d;
  const std::string file = d.file("p.json");
  r = run_cli({"profile", "--work", "1G", "--traffic", "1G", "--json", "-o", file, "--",
               "/bin/echo", "hello"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello\n");
  const auto j = nlohmann::json::parse(slurp(file));
  EXPECT_EQ(j["points"][0]["name"], "echo");
  // Text beside the program's output is fine, and a replay runs no program.
  r = run_cli({"profile", "--work", "1G", "--traffic", "1G", "--", "/bin/echo", "hello"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("hello\n", 0), 0u) << r.out;
  r = run_cli({"profile", "--replay",
               std::string(ROOFLINE_TEST_DATA) + "/import/perf-amd-zen3-triad.json", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out).contains("points")) << r.out;
}

// A folder as the program: "is a directory" (execve's EACCES read "Permission denied"), exit 126.
TEST(ProfileOutput, AFolderAsTheProgramIsNamedSo) {
  TempDir d;
  const auto r = run_cli({"profile", "-W", "1", "-Q", "1", "--", d.path.string()});
  EXPECT_EQ(r.exit_code, 126) << r.err;
  EXPECT_NE(r.err.find("cannot run '" + d.path.string() + "': is a directory"), std::string::npos)
      << r.err;
}

// An output onto the program being profiled replaced the executable with text (exit 0); it is
// refused before the program runs, as an output onto any input is.
TEST(ProfileOutput, NeverOverwritesTheProgram) {
  TempDir d;
  const std::string copy = d.file("mytrue");
  std::filesystem::copy_file("/bin/true", copy);
  const std::string before = slurp(copy);
  for (const char* flag : {"-o", "--save-counters"}) {
    const auto r = run_cli({"profile", "-W", "1", "-Q", "1", flag, copy, "--", copy});
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(flag) + " " + copy + ": is the program being profiled"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(slurp(copy), before) << flag;
  }
  // Found on PATH as the run finds it.
  const auto path = run_cli({"profile", "-W", "1", "-Q", "1", "-o", copy, "--", "mytrue"},
                            "PATH=" + d.path.string() + ":/usr/bin:/bin");
  EXPECT_EQ(path.exit_code, 2) << path.err;
  EXPECT_EQ(slurp(copy), before);
}

// A recording without memory-controller events (a VM, a kernel without uncore PMUs) counted L2
// traffic but placed no point ("Q unknown"): the point is judged at the levels counted.
TEST(ProfileReplay, CacheLevelsWithoutDramStillPlaceThePoint) {
  auto doc = nlohmann::json::parse(
      slurp(std::string(ROOFLINE_TEST_DATA) + "/import/perf-intel-icx-dgemm.json"));
  nlohmann::json kept = nlohmann::json::array();
  for (const auto& e : doc["events"])
    if (e["role"] != "dram") kept.push_back(e);
  doc["events"] = kept;
  TempDir d;
  write_text(d.file("nodram.json"), doc.dump());
  const auto r = run_cli({"profile", "--replay", d.file("nodram.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u) << r.out;
  // Q(L3) = L2_LINES_IN.ALL 1e7 × 64 B and Q(L2) = L1D.REPLACEMENT 5e7 × 64 B, each scaled by
  // its multiplexing (enabled 1 s / running 0.5 s): 1.28 and 6.4 GB.
  ASSERT_EQ(j["points"][0]["traffic"].size(), 2u) << r.out;
  EXPECT_EQ(j["points"][0]["traffic"][0]["level"], "L3");
  EXPECT_DOUBLE_EQ(j["points"][0]["traffic"][0]["bytes"].get<double>(), 1e7 * 64 * 2);
  EXPECT_EQ(j["points"][0]["traffic"][1]["level"], "L2");
  EXPECT_DOUBLE_EQ(j["points"][0]["traffic"][1]["bytes"].get<double>(), 5e7 * 64 * 2);
  EXPECT_NE(j["points"][0]["note"].get<std::string>().find("no DRAM count"), std::string::npos)
      << r.out;
  // --level naming a level the machine lacks is refused before the program runs.
  const auto level = run_cli({"profile", "-W", "1e6", "-Q", "1e6", "--level", "L9", "--hw",
                              "h100-sxm", "--", "/bin/echo", "ran"});
  EXPECT_EQ(level.exit_code, 2) << level.err;
  EXPECT_EQ(level.out, "") << "the program ran";
  EXPECT_NE(level.err.find("has no memory roof for level 'L9'"), std::string::npos) << level.err;
}

// --precision naming no compute roof of the machine is refused before the program runs, as
// `point` refuses it (the program ran, exit 0, and `check` then refused the document written),
// with counters and with --instrument.
TEST(ProfileInputs, APrecisionTheMachineLacksIsRefusedBeforeTheProgramRuns) {
  TempDir d;
  const std::string flag = d.file("ran.flag"), out = d.file("pp.json");
  for (const bool instrument : {false, true}) {
    std::vector<std::string> args = {"profile", "--hw", "h100-sxm", "--precision",
                                     "fp99",    "-o",   out};
    if (instrument)
      args.insert(args.end(), {"--instrument", "--simulate", "none"});
    else
      args.insert(args.end(), {"-W", "1e9", "-Q", "1e8"});
    args.insert(args.end(), {"--", "/bin/touch", flag});
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << instrument << ": " << r.err;
    EXPECT_NE(r.err.find("machine 'h100-sxm' has no compute roof for 'fp99'"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(flag)) << "the program ran (--instrument " << instrument << ")";
    EXPECT_FALSE(fs::exists(out));
  }
  // A precision the machine has runs the program as before.
  const auto ok = run_cli({"profile", "--hw", "h100-sxm", "--precision", "fp64", "-W", "1e9", "-Q",
                           "1e8", "-o", out, "--", "/bin/touch", flag});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(flag));
  EXPECT_EQ(nlohmann::json::parse(slurp(out))["points"][0]["precision"], "fp64");
}

// The run section names the CPU the program ran on, from the identification a recording of the
// counters holds, also where no core PMU counts (it was "" beside the recording's model name).
TEST(ProfileOutput, TheRunSectionNamesTheCpuWithoutACorePmu) {
  TempDir d;
  const std::string out = d.file("prof.json"), cnt = d.file("cnt.json");
  fs::create_directories(d.file("sysfs"));  // no PMU described: no core counters
  for (const char* events : {"auto", "none"}) {
    const auto r = run_cli({"profile", "--sysfs", d.file("sysfs"), "--events", events, "-W", "1e9",
                            "-Q", "1e8", "-o", out, "--save-counters", cnt, "--", "/bin/true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto prof = nlohmann::json::parse(slurp(out));
    const auto rec = nlohmann::json::parse(slurp(cnt));
    const counters::CpuIdentity cpu{rec["cpu"]["vendor"], rec["cpu"]["family"], rec["cpu"]["model"],
                                    rec["cpu"]["model_name"]};
    EXPECT_EQ(prof["run"]["cpu"], counters::cpu_description(cpu)) << events;
    EXPECT_NE(prof["run"]["cpu"], "") << events;
    const std::string model_name = rec["cpu"]["model_name"];
    if (!model_name.empty()) {
      EXPECT_NE(prof["run"]["cpu"].get<std::string>().find(model_name), std::string::npos)
          << prof["run"]["cpu"];
    }
  }
}

// The CPU in words: vendor, family and model (hex for AMD, as its manuals give them), the known
// core's name, and cpuinfo's model name; another vendor by its own string.
TEST(ProfileOutput, CpuDescriptionNamesVendorModelAndModelName) {
  EXPECT_EQ(counters::cpu_description({"AuthenticAMD", 25, 17, "AMD EPYC 9654"})
                .rfind("AMD family 0x19 model 0x11", 0),
            0u);
  EXPECT_NE(
      counters::cpu_description({"AuthenticAMD", 25, 17, "AMD EPYC 9654"}).find(" (AMD EPYC 9654)"),
      std::string::npos);
  EXPECT_EQ(counters::cpu_description({"VendorX", 1, 2, "X 1000"}), "VendorX (X 1000)");
  EXPECT_EQ(counters::cpu_description({"VendorX", 1, 2, ""}), "VendorX");
  EXPECT_EQ(counters::cpu_description({"", 0, 0, "Some core"}), "Some core");
  EXPECT_EQ(counters::cpu_description({}), "unknown CPU");
}

// P = W/T and I = W/Q are checked as `point` and `check` read them back: inf or an underflowed
// 0 was printed and written (and `check` then refused the file).
TEST(ProfilePoints, RatiosThatAreNoNumbersAreRefusedOrLeftOut) {
  counters::RunResult r;
  r.wall_seconds = 1e-3;
  counters::PointInputs in;
  in.name = "app";
  in.work = Work(1e308);
  in.traffic = Bytes(1e300);
  try {
    (void)counters::counted_points(r, {}, in, nullptr);
    ADD_FAILURE() << "P = 1e308 / 1e-3 s (inf) was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--work 1e+308, --traffic 1e+300: point 'app': P = W/T"), std::string::npos)
        << what;
    EXPECT_NE(what.find("too large for a double (overflow)"), std::string::npos) << what;
  }
  // A region the program declared with ratios out of range: a note, the run's point stays.
  in.work = Work(1e9);
  in.traffic = Bytes(1e9);
  counters::RegionResult reg;
  reg.name = "huge";
  reg.calls = 1;
  reg.threads = 1;
  reg.time = 1e-6;
  reg.flops = 1e308;
  reg.bytes = 1e9;
  const auto o = counters::counted_points(r, {reg}, in, nullptr);
  ASSERT_EQ(o.points.size(), 1u);
  EXPECT_EQ(o.points[0].name, "app");
  ASSERT_FALSE(o.notes.empty());
  EXPECT_NE(o.notes.back().find("no point for a region: point 'huge': P = W/T"), std::string::npos)
      << o.notes.back();
  // W and Q declared but no time: the note says T is what is missing (it asked to declare W and
  // Q); W declared alone: it names Q.
  reg.name = "untimed";
  reg.flops = 1e9;
  reg.time = 0;
  const auto untimed = counters::counted_points(r, {reg}, in, nullptr);
  ASSERT_FALSE(untimed.notes.empty());
  EXPECT_EQ(untimed.notes.back(),
            "region 'untimed': 1 call, T = 0 s; no point (T = 0 is no time: its clock measured "
            "none)");
  reg.name = "no bytes";
  reg.bytes = 0;
  reg.time = 1e-3;
  const auto no_bytes = counters::counted_points(r, {reg}, in, nullptr);
  ASSERT_FALSE(no_bytes.notes.empty());
  EXPECT_EQ(no_bytes.notes.back(),
            "region 'no bytes': 1 call, T = 1 ms; no point (Q not declared: add_flops/add_bytes)");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
