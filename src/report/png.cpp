// PNG export: the SVG rasterised by rsvg-convert (Debian librsvg2-bin), run directly with
// posix_spawnp — no shell, so no quoting of paths. Missing converter → Unavailable; a file
// that could not be written (the SVG in a full TMPDIR, the converter's PNG under a file size
// limit) → OutputError. The converter's stderr comes through a pipe: a file for it in the
// same temporary folder could not be written when that folder was full, and its reason read
// as empty.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/report.hpp"
#include "roofline/strings.hpp"
#include "roofline/utf8.hpp"

extern char** environ;

namespace roofline {
namespace {

/// A private temporary directory removed when it goes out of scope.
struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    const std::filesystem::path where = temp_directory();
    std::string tmpl = (where / "roofline-png-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
      const int err = errno;
      throw OutputError("cannot create a temporary folder in " + where.string() +
                        " for the PNG export: " + std::strerror(err));
    }
    path = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Writes the SVG the converter reads; a failure says why (ENOSPC, EFBIG under ulimit -f).
void write_scratch_svg(const std::filesystem::path& file, const std::string& svg) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  size_t done = 0;
  int err = fd < 0 ? errno : 0;
  while (fd >= 0 && done < svg.size()) {
    const ssize_t n = ::write(fd, svg.data() + done, svg.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (fd >= 0 && ::close(fd) != 0 && err == 0) err = errno;
  if (err != 0)
    throw OutputError("the chart's SVG could not be written in " + file.parent_path().string() +
                      " for the PNG export (" + std::strerror(err) +
                      "; TMPDIR names where temporary files go)");
}

/// What the converter said on stderr, kept to 64 KiB (the rest is read and dropped).
class StderrPipe {
 public:
  StderrPipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0)
      throw Unavailable("PNG export: no pipe for rsvg-convert's messages: " +
                        std::string(std::strerror(errno)));
  }
  ~StderrPipe() {
    for (int fd : fds_)
      if (fd >= 0) ::close(fd);
  }
  StderrPipe(const StderrPipe&) = delete;
  StderrPipe& operator=(const StderrPipe&) = delete;
  int write_end() const { return fds_[1]; }
  /// After the spawn: the parent's write end closed (so the read ends when the converter's
  /// does), the read end non-blocking.
  void parent_side() {
    ::close(fds_[1]);
    fds_[1] = -1;
    ::fcntl(fds_[0], F_SETFL, ::fcntl(fds_[0], F_GETFL) | O_NONBLOCK);
  }
  /// Reads what is there now, without waiting.
  void drain() {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(fds_[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      if (text_.size() < kKeep)
        text_.append(buf, std::min(static_cast<size_t>(n), kKeep - text_.size()));
    }
  }
  /// The message in one line, cut at a character to at most 300 bytes (it is shown escaped).
  std::string said() const {
    std::string one;
    for (char c : text_) one += (c == '\n' || c == '\r') ? ' ' : c;
    while (!one.empty() && one.back() == ' ') one.pop_back();
    constexpr size_t kShown = 300;
    return one.size() > kShown ? cut_at_code_point(one, kShown) + "…" : one;
  }

 private:
  static constexpr size_t kKeep = 64 * 1024;
  int fds_[2] = {-1, -1};
  std::string text_;
};

/// Starts the converter with stdin and stdout on /dev/null and stderr into `err`.
pid_t spawn_converter(std::vector<std::string> args, const StderrPipe& err) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err.write_end(), STDERR_FILENO);
  // The converter takes the signals at once (a terminal's Ctrl-C reaches it too).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, "rsvg-convert", &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  // Not found is told apart from found but not startable (glibc reports exec's error here).
  if (rc == ENOENT)
    throw Unavailable(
        "PNG export needs rsvg-convert (Debian package librsvg2-bin), which is not on the "
        "PATH; write .svg or .html instead");
  if (rc != 0)
    throw Unavailable("rsvg-convert could not be started (" + std::string(std::strerror(rc)) +
                      "); write .svg or .html instead");
  return pid;
}

/// Waits for the converter, reading its messages; kills it past `timeout` or on an ending
/// signal. Returns its wait status.
int wait_converter(pid_t pid, StderrPipe& err, std::chrono::milliseconds timeout) {
  const auto stop = [&] {
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  };
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    err.drain();
    if (EndingSignalsHeld::pending()) {
      stop();
      throw Interrupted("PNG export interrupted");
    }
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      throw Error("waiting for rsvg-convert failed: " + std::string(std::strerror(errno)));
    // A converter that hangs (a stuck font lookup, a wedged filesystem) must not hang the
    // command: it gets `timeout`, then is killed and said.
    if (std::chrono::steady_clock::now() - start > timeout) {
      stop();
      const std::string limit = printf_g(std::chrono::duration<double>(timeout).count(), 6);
      throw Unavailable(std::string("rsvg-convert did not finish within ") + limit +
                        " s and was stopped; write .svg or .html instead");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  err.drain();
  return status;
}

/// Whether the converter's message is a write that failed for want of room (its PNG in a full
/// TMPDIR, or over a file size limit): the output could not be written, not a converter missing.
bool says_write_failed(const std::string& said) {
  for (const int e : {ENOSPC, EFBIG, EDQUOT})
    if (said.find(std::strerror(e)) != std::string::npos) return true;
  return false;
}

/// Turns the converter's status into the error it means; nothing when it succeeded.
void judge_converter(int status, const StderrPipe& err, const std::filesystem::path& dir) {
  const std::string said = err.said();
  const std::string because = said.empty() ? std::string("it said nothing") : "it said: " + said;
  if (WIFSIGNALED(status))
    throw Unavailable("rsvg-convert was ended by signal " + std::to_string(WTERMSIG(status)) +
                      " (" + strsignal(WTERMSIG(status)) + "; " + because +
                      "); write .svg or .html instead");
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 0) return;
  // 127: the program was found and exec'd but could not start (the loader failed: a library
  // missing, or not mapped under a memory limit); its message says which.
  if (code == 127)
    throw Unavailable("rsvg-convert is installed but could not start (status 127; " + because +
                      "); write .svg or .html instead");
  if (says_write_failed(said))
    throw OutputError("rsvg-convert could not write the PNG in " + dir.string() + " (" + said +
                      "; TMPDIR names where temporary files go)");
  throw Unavailable("rsvg-convert failed (status " + std::to_string(code) + "; " + because +
                    "); write .svg or .html instead");
}

}  // namespace

std::string svg_to_png(const std::string& svg, double zoom, std::chrono::milliseconds timeout) {
  // The ending signals are held while the scratch folder exists: one that comes stops the
  // converter, the folder is removed, and the signal is then delivered (it ends the command as
  // any; a command that handles it gets Interrupted). Delivered at once, it had left the folder
  // and an SVG of the chart's size behind.
  const EndingSignalsHeld held;
  // A file size limit fails the scratch SVG's write and the converter's (which inherits the
  // ignore) with EFBIG, said as a write that failed (exit 4); SIGXFSZ had killed the command
  // silently (status 153) and left the folder.
  const FileSizeSignalIgnored no_size_signal;
  ScratchDir dir;
  const auto in = dir.path / "chart.svg";
  const auto out = dir.path / "chart.png";
  write_scratch_svg(in, svg);
  StderrPipe err;
  const pid_t pid = spawn_converter({"rsvg-convert", "--format", "png", "--zoom", printf_g(zoom, 6),
                                     "--output", out.string(), in.string()},
                                    err);
  err.parent_side();
  judge_converter(wait_converter(pid, err, timeout), err, dir.path);
  // A converter that says it succeeded and wrote nothing is the converter's fault, not ours.
  std::string png = slurp(out);
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
    throw Unavailable("rsvg-convert produced no PNG image (" + err.said() +
                      "); write .svg or .html instead");
  return png;
}

std::string png_for_file(const std::filesystem::path& target, const std::string& svg) {
  try {
    return svg_to_png(svg);
  } catch (const OutputError& e) {
    throw OutputError(target.string() + ": " + e.what() +
                      "; the previous file, if any, is unchanged");
  }
}

}  // namespace roofline
