// PNG export: the SVG rasterised by rsvg-convert (Debian librsvg2-bin), run directly with
// posix_spawnp — no shell, so no quoting of paths. Missing converter → Unavailable.
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

extern char** environ;

namespace roofline {
namespace {

/// A private temporary directory removed when it goes out of scope.
struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string tmpl = (temp_directory() / "roofline-png-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
      throw OutputError("cannot create a temporary folder in " + temp_directory().string() +
                        " for the PNG export: " + std::strerror(errno));
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

}  // namespace

std::string svg_to_png(const std::string& svg, double zoom, std::chrono::milliseconds timeout) {
  // The ending signals are held while the scratch folder exists: one that comes stops the
  // converter, the folder is removed, and the signal is then delivered (it ends the command as
  // any; a command that handles it gets Interrupted). Delivered at once, it had left the folder
  // and an SVG of the chart's size behind.
  const EndingSignalsHeld held;
  ScratchDir dir;
  const auto in = dir.path / "chart.svg";
  const auto out = dir.path / "chart.png";
  const auto err = dir.path / "stderr.txt";
  {
    std::ofstream f(in, std::ios::binary);
    f << svg;
    if (!f)
      throw OutputError("cannot write a temporary SVG in " + dir.path.string() +
                        " for the PNG export (is the disk full?)");
  }
  const std::string zoom_text = printf_g(zoom, 6);
  std::vector<std::string> args = {"rsvg-convert", "--format", "png",        "--zoom",
                                   zoom_text,      "--output", out.string(), in.string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
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
  if (rc != 0)
    throw Unavailable(
        "PNG export needs rsvg-convert (Debian package librsvg2-bin), which could "
        "not be run: " +
        std::string(std::strerror(rc)) + "; write .svg or .html instead");
  // A converter that hangs (a stuck font lookup, a wedged filesystem) must not hang the
  // command: it gets `timeout`, then is killed and said.
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (EndingSignalsHeld::pending()) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      throw Interrupted("PNG export interrupted");
    }
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      throw Error("waiting for rsvg-convert failed: " + std::string(std::strerror(errno)));
    if (std::chrono::steady_clock::now() - start > timeout) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      const std::string limit = printf_g(std::chrono::duration<double>(timeout).count(), 6);
      throw Unavailable(std::string("rsvg-convert did not finish within ") + limit +
                        " s and was stopped; write .svg or .html instead");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw Unavailable(
        "PNG export needs rsvg-convert (Debian package librsvg2-bin); "
        "write .svg or .html instead");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Unavailable("rsvg-convert failed (" + slurp(err) + "); write .svg or .html instead");
  // A converter that says it succeeded and wrote nothing is the converter's fault, not ours.
  std::string png = slurp(out);
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
    throw Unavailable("rsvg-convert produced no PNG image (" + slurp(err) +
                      "); write .svg or .html instead");
  return png;
}

}  // namespace roofline
