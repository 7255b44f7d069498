// roofline — the command line. Subcommands register themselves (commands.hpp); this file builds
// the app, runs it, and is the one place that turns the library's errors into messages and exit
// codes (docs/architecture.md "Guarantees"; the codes are named in commands.hpp): 0 success,
// 1 internal error, 2 bad input (also a malformed command line), 3 a needed capability is
// missing or the memory ran out (std::bad_alloc), 4 an output could not be written (disk full,
// a file size limit, stdout closed or broken). A command that ends with a verdict exits itself
// (5 `check`'s gate failed, 6 a result check failed in `run` or `profile --self-test`), as do
// `profile` with its program's status and an interrupted command with 128 + the signal. Every
// message is "roofline: error: ..." (or "unavailable:", "out of memory:"), with the text from
// files and arguments in it shown escaped (roofline/sanitize.hpp).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace {

using roofline::cli::kExitBadInput;
using roofline::cli::kExitInternalError;
using roofline::cli::kExitOutputFailed;
using roofline::cli::kExitUnavailable;

/// A closed standard descriptor (`roofline ... >&-`) would be reused by the next open(), and
/// the output meant for stdout would land in that file. Each closed one gets /dev/null opened
/// in the direction it cannot be used (stdout and stderr read-only, stdin write-only), so a
/// write to a closed stdout fails with EBADF and is reported instead of succeeding elsewhere.
void occupy_closed_std_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int got = ::open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

/// Memory kept back for the way out of an allocation that failed (a `ulimit -v`, a container's
/// limit), in two blocks. The first failure frees the first block and throws std::bad_alloc, so
/// the unwinding and the message that ends the command find memory; a failure while unwinding
/// frees the second block and lets the allocation be tried again instead of throwing, since it
/// may come from a destructor, which must not throw (nlohmann::json's destroy allocates its work
/// stack: the `llm` sweep's document aborted in std::terminate, status 134, under 15 MB).
/// 1 MiB each: where the heap cannot grow, glibc's malloc maps at least 1 MiB anew
/// (MMAP_AS_MORECORE_SIZE), so a freed 512 KiB block still left the sweep aborting at 15.5 MB.
/// Atomic: the handler runs on the thread whose allocation failed, and `measure` runs a team,
/// so two failing at once must not free one block twice.
std::atomic<char*> g_reserve[2] = {nullptr, nullptr};
constexpr size_t kReserveBytes = size_t{1} << 20;

void release_reserve() {
  const bool unwinding = std::uncaught_exceptions() > 0;
  for (std::atomic<char*>& block : g_reserve) {
    char* mine = block.exchange(nullptr);
    if (mine == nullptr) continue;
    std::free(mine);
    if (unwinding) return;  // operator new tries again
    throw std::bad_alloc();
  }
  throw std::bad_alloc();
}

void keep_memory_reserve() {
  for (std::atomic<char*>& block : g_reserve) {
    char* mine = static_cast<char*>(std::malloc(kReserveBytes));
    // Touched, so that its pages are there when freed for use (an untouched page could be
    // refused then under an overcommit limit).
    if (mine != nullptr) std::memset(mine, 0, kReserveBytes);
    block.store(mine);
  }
  std::set_new_handler(release_reserve);
}

void report(const char* kind, const std::string& message) {
  const std::string text =
      std::string("roofline: ") + kind + ": " + roofline::terminal_safe_lines(message) + "\n";
  std::fwrite(text.data(), 1, text.size(), stderr);
}

/// CLI11's words for an option given more than once ("--machine: At Most 1 required but
/// received 2"), in the tool's: which option, how often, and that --hw is --machine.
std::string plain_parse_error(const std::string& message) {
  const std::string said = ": At Most 1 required but received ";
  const auto at = message.find(said);
  if (at == std::string::npos) return message;
  const std::string option = message.substr(0, at);
  return option + ": given " + message.substr(at + said.size()) + " times; give it once" +
         (option == "--machine" ? " (--hw and --machine are one option: one machine)" : "");
}

/// Everything left in stdout's buffers reaches the descriptor, or the failure is reported.
bool flush_stdout() {
  std::cout.flush();
  errno = 0;
  const bool ok = !std::cout.fail() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (!ok) {
    const int err = errno;
    report("error", std::string("standard output: write failed") +
                        (err != 0 ? std::string(" (") + std::strerror(err) + ")" : std::string()) +
                        "; the output is incomplete");
  }
  return ok;
}

int run(int argc, char** argv) {
  CLI::App app{
      "roofline — measure the roofs of a machine, place workloads on them as points "
      "(I = W/Q, P = W/T), and say what binds them."};
  app.set_version_flag("--version", std::string("roofline ") + ROOFLINE_CLI_VERSION);
  app.require_subcommand(1);
  auto& reg = roofline::cli::registry();
  std::stable_sort(reg.begin(), reg.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : reg) setup(app);
  // Once per command, as a shell warns of a bad entry in its configuration: a folder that is
  // not there would otherwise only show as "unknown machine". After the command line is read
  // and before the command runs (CLI11 calls this before the subcommands' callbacks), so that
  // --help, --version and a malformed command line say only what they say.
  app.parse_complete_callback([] {
    for (const auto& p : roofline::hw_path_problems()) report("warning", p);
  });
  roofline::cli::refuse_empty_values(app);
  // One command's files: its outputs are checked against its inputs and each other.
  const roofline::FileLedger ledger;
  // `roofline nosuch`: CLI11 would only say that a command is required — and with --help after
  // it (`roofline nosuch --help`) print the general help and exit 0, as if the command existed.
  const auto unknown_command = [&]() {
    const std::string names = roofline::join(app.get_subcommands({}),
                                             [](const CLI::App* sub) { return sub->get_name(); });
    report("error", "unknown command '" + roofline::terminal_safe(argv[1]) +
                        "' (commands: " + names + ")\nRun with --help for the options.");
    return kExitBadInput;
  };
  if (argc > 1 && argv[1][0] != '-') {
    const auto subs = app.get_subcommands({});
    const auto it = std::find_if(subs.begin(), subs.end(),
                                 [&](const CLI::App* sub) { return sub->check_name(argv[1]); });
    if (it == subs.end()) return unknown_command();
    // The same one level down (`roofline import xyz f`, `roofline hw lsit`): CLI11 would say
    // only that a subcommand is required.
    const CLI::App* cmd = *it;
    const auto inner = cmd->get_subcommands({});
    if (cmd->get_require_subcommand_min() > 0 && argc > 2 && argv[2][0] != '-' &&
        std::none_of(inner.begin(), inner.end(),
                     [&](const CLI::App* sub) { return sub->check_name(argv[2]); })) {
      const std::string names =
          roofline::join(inner, [](const CLI::App* sub) { return sub->get_name(); });
      report("error", "unknown " + cmd->get_name() + " command '" +
                          roofline::terminal_safe(argv[2]) + "' (" + cmd->get_name() +
                          " commands: " + names + ")\nRun with --help for the options.");
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0: CLI11 prints them.
    if (e.get_exit_code() == 0) return app.exit(e);
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') return unknown_command();
    report("error", plain_parse_error(e.what()) + "\nRun with --help for the options.");
    return kExitBadInput;
  } catch (const roofline::NotARegularFileError& e) {
    // Every output flag of the command line but --report (a chart's format is its file's
    // extension, and a chart's path is checked under no flag's name) takes `-` for standard
    // output (check_outputs).
    const bool takes_stdout = !e.flag().empty() && e.flag() != "--report";
    report("error", std::string(e.what()) + (takes_stdout ? "; for standard output give -" : ""));
    return kExitBadInput;
  } catch (const roofline::InputError& e) {
    report("error", e.what());
    return kExitBadInput;
  } catch (const roofline::Unavailable& e) {
    report("unavailable", e.what());
    return kExitUnavailable;
  } catch (const roofline::OutputError& e) {
    report("error", e.what());
    return kExitOutputFailed;
  } catch (const nlohmann::json::exception& e) {
    report("error", std::string("bad document: ") + e.what());
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    throw;  // main() says it: the command line's set-up before this try can run out too
  } catch (const std::exception& e) {
    report("internal error", e.what());
    return kExitInternalError;
  }
  return flush_stdout() ? 0 : kExitOutputFailed;
}

/// The environment's limit, not a bug (docs/architecture.md, "Exit codes"). Every output is
/// written atomically after the work, so none was replaced.
int out_of_memory(const std::bad_alloc& e) {
  report("out of memory", std::string(e.what()) +
                              " (the memory this process may use is exhausted: a ulimit -v or a "
                              "container's limit?); the previous file, if any, is unchanged");
  return kExitUnavailable;
}

}  // namespace

int main(int argc, char** argv) {
  occupy_closed_std_descriptors();
  keep_memory_reserve();
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const std::bad_alloc& e) {
    return out_of_memory(e);
  }
  // Output written by CLI11 (--help) or left in a buffer: a failure to write it still counts.
  if (code == 0 && !flush_stdout()) return kExitOutputFailed;
  return code;
}
