#pragma once
// Running the CLI the ways a hostile or unlucky user does: with a shell redirection of our
// choosing (a full disk, a closed stdout), on a pseudo-terminal (colour on), or with stdout a
// pipe nobody reads (a live process to look at and to crash). Plus checks every test of the
// hardened CLI shares: no raw escape reaches the output, a folder holds only what it held.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_runner.hpp"

namespace roofline::test {

/// `roofline ARGS... REDIRECT` through the shell, e.g. REDIRECT = ">/dev/full" or ">&-";
/// stderr is captured unless the redirection takes it. `env` is prefixed as-is.
inline CliResult run_cli_redirected(const std::vector<std::string>& args,
                                    const std::string& redirect, const std::string& env = "") {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path base =
      fs::temp_directory_path() /
      ("roofline-cli-r-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::string cmd = env + (env.empty() ? "" : " ") + shell_quote(ROOFLINE_CLI_PATH);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " 2>" + shell_quote(base.string() + ".err") + " </dev/null " + redirect;
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = slurp(base.string() + ".err");
  fs::remove(base.string() + ".err");
  return r;
}

/// Runs the CLI with stdout and stderr on a pseudo-terminal (isatty true, so colour is on
/// unless NO_COLOR says otherwise) and returns what the terminal received.
inline std::string run_cli_on_pty(const std::vector<std::string>& args,
                                  const std::vector<std::string>& env = {}) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return "(no pty)";
  const std::string slave_name = ::ptsname(master);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    const int slave = ::open(slave_name.c_str(), O_RDWR);
    ::dup2(slave, 1);
    ::dup2(slave, 2);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    for (const auto& e : env) ::putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> argv{const_cast<char*>(ROOFLINE_CLI_PATH)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(ROOFLINE_CLI_PATH, argv.data());
    ::_exit(127);
  }
  std::string out;
  char buf[4096];
  while (true) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 30000) <= 0) break;
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO once the child has closed the terminal
    out.append(buf, static_cast<size_t>(n));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  return out;
}

/// A running roofline whose stdout is a pipe nobody reads (shrunk to one page, so the process
/// blocks writing): its pid, the pipe's read end and the file its stderr goes to.
struct BlockedCli {
  pid_t pid = -1;
  int pipe_read = -1;
  std::string err_path;
  explicit BlockedCli(const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    ::fcntl(fds[1], F_SETPIPE_SZ, 4096);
    err_path = (std::filesystem::temp_directory_path() /
                ("roofline-blocked-" + std::to_string(::getpid()) + ".err"))
                   .string();
    pid = ::fork();
    if (pid == 0) {
      ::dup2(fds[1], 1);
      const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(err, 2);
      ::close(fds[0]);
      std::vector<char*> argv{const_cast<char*>(ROOFLINE_CLI_PATH)};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(ROOFLINE_CLI_PATH, argv.data());
      ::_exit(127);
    }
    ::close(fds[1]);
    pipe_read = fds[0];
  }
  /// Waits up to `seconds` for the process to end; its wait status, or -1 if it did not.
  int wait_for(double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  ~BlockedCli() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    if (pipe_read >= 0) ::close(pipe_read);
    if (!err_path.empty()) std::filesystem::remove(err_path);
  }
};

/// True when `s` holds a terminal control byte, a C1 control, a bidirectional override or a
/// noncharacter, raw. `on_pty`: what a terminal received, where "\r\n" ends lines and the
/// renderers' colours ("ESC [ digits;... m") are allowed.
inline bool has_raw_controls(const std::string& s, bool on_pty = false) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0x1b && on_pty) {
      // Only "ESC [ digits;... m" may appear (the renderers' colours).
      size_t k = i + 1;
      if (k >= s.size() || s[k] != '[') return true;
      ++k;
      while (k < s.size() && ((s[k] >= '0' && s[k] <= '9') || s[k] == ';')) ++k;
      if (k >= s.size() || s[k] != 'm') return true;
      i = k;
      continue;
    }
    // No renderer writes a tab: one comes from a name.
    if ((c < 0x20 && c != '\n' && !(on_pty && c == '\r')) || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      return true;  // C1 control
    if (s.compare(i, 3, "\xe2\x80\xae") == 0 || s.compare(i, 3, "\xe2\x81\xa6") == 0)
      return true;  // RLO, LRI
    if (s.compare(i, 3, "\xef\xbf\xbe") == 0 || s.compare(i, 3, "\xef\xbf\xbf") == 0)
      return true;  // U+FFFE, U+FFFF
  }
  return false;
}

/// Names of the entries of a folder.
inline std::set<std::string> entries_of(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

}  // namespace roofline::test
