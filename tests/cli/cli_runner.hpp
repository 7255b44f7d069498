#pragma once
// Runs the roofline CLI as a user would and captures exit code, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace roofline::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Shell text that sends signal `sig` (2 = SIGINT, 15 = SIGTERM) to the background process $pid
/// once it is the roofline program (/proc/$pid/comm: the background subshell has exec'd it) and
/// has installed its handler for the signal (the SigCgt mask in /proc/$pid/status), polled for up
/// to 30 s, so the test does not depend on how long the program takes to start: a loaded or
/// sanitized build can need more than a second, and a signal that arrives earlier finds the
/// default action (SIGTERM), the SIGINT a background job inherits ignored, or the subshell itself
/// (which may catch SIGINT) before it has opened the redirections — seen once in a full ASan run:
/// exit 130 after 5 ms and no stderr file.
inline std::string signal_when_handled(int sig) {
  const std::string bit = std::to_string(1ULL << (sig - 1));
  return "i=0; while [ $i -lt 600 ]; do n=$(cat /proc/$pid/comm 2>/dev/null); c=$(awk "
         "'/^SigCgt/ {print $2}' /proc/$pid/status 2>/dev/null); if [ \"$n\" = roofline ] && "
         "[ -n \"$c\" ] && [ $(( 0x$c & " +
         bit + " )) -ne 0 ]; then break; fi; sleep 0.05; i=$((i + 1)); done; kill -" +
         std::to_string(sig) + " $pid";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs `roofline ARGS...`; `env` is prefixed as-is (e.g. "NO_COLOR=1").
inline CliResult run_cli(const std::vector<std::string>& args, const std::string& env = "") {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path base = fs::temp_directory_path() / ("roofline-cli-" + std::to_string(::getpid()) +
                                                     "-" + std::to_string(counter++));
  std::string cmd = env + (env.empty() ? "" : " ") + shell_quote(ROOFLINE_CLI_PATH);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote(base.string() + ".out") + " 2>" + shell_quote(base.string() + ".err") +
         " </dev/null";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(base.string() + ".out");
  r.err = slurp(base.string() + ".err");
  fs::remove(base.string() + ".out");
  fs::remove(base.string() + ".err");
  return r;
}

/// A fresh temporary directory removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int n = 0;
    path = std::filesystem::temp_directory_path() /
           ("roofline-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace roofline::test
