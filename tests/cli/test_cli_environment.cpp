// The real executable in a hostile environment: a memory limit, a file size limit, a
// converter that cannot start, a narrow terminal, a catalogue path with a typo, a TMPDIR where
// nothing can be made. Every limit is set in the shell that runs the command (run_cli's env
// text runs in `sh -c` before it), never in this process.
#include <unistd.h>

#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_hostile.hpp"
#include "cli/cli_runner.hpp"
#include "roofline/table.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

namespace fs = std::filesystem;
const std::string kData = ROOFLINE_TEST_DATA;
const std::string kA100 = kData + "/core/machine-a100.json";
const std::string kPoints = kData + "/core/points.json";

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

bool no_converter(const CliResult& r) {
  return r.exit_code == 3 && has(r.err, "not on the PATH");
}

/// Whether a run under a memory limit ended as the environment allows: done (0), or out of
/// memory said plainly (3), or the program could not even be loaded (127, the loader's
/// message). Never an abort (134) nor an internal error (1).
void expect_out_of_memory_said(const CliResult& r, const std::string& old_file, int limit_kib) {
  SCOPED_TRACE("ulimit -v " + std::to_string(limit_kib));
  if (r.exit_code == 0) return;
  if (r.exit_code == 127) {
    EXPECT_TRUE(has(r.err, "error while loading shared libraries")) << r.err;
  } else {
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(has(r.err, "roofline: out of memory: std::bad_alloc")) << r.err;
    EXPECT_TRUE(has(r.err, "the previous file, if any, is unchanged")) << r.err;
  }
  EXPECT_FALSE(has(r.err, "terminate called")) << r.err;
  EXPECT_FALSE(has(r.err, "internal error")) << r.err;
  EXPECT_EQ(slurp(old_file), "old");
}

// A memory limit is the environment, not a bug: an ncu export of 30 000 kernels under a limit
// said "internal error: std::bad_alloc", exit 1 (its import takes about 220 MB, its JSON
// document 61 MB).
TEST(CliEnvironment, AnImportThatRunsOutOfMemoryIsNoInternalError) {
#if defined(ROOFLINE_SANITIZED)
  GTEST_SKIP() << "ASan and TSan reserve terabytes of address space: ulimit -v stops them";
#endif
  TempDir d;
  const std::string real = slurp(kData + "/import/ncu-raw-saxpy.csv");
  const size_t row = real.find("\n\"0\",");
  ASSERT_NE(row, std::string::npos);
  const std::string head = real.substr(0, row + 1);
  std::string data = real.substr(row + 1);
  data = data.substr(0, data.find('\n') + 1).substr(3);  // the row after its ID, "0"
  std::string big = head;
  for (int k = 0; k < 30000; ++k) big += "\"" + std::to_string(k) + "\"" + data;  // IDs apart
  write_text(d.file("big.csv"), big);
  write_text(d.file("mo.json"), "old");
  int said = 0;
  for (int kib = 30000; kib <= 120000; kib += 10000) {
    const auto r =
        run_cli({"import", "ncu", d.file("big.csv"), "--hw", "h100-sxm", "-o", d.file("mo.json")},
                "ulimit -v " + std::to_string(kib) + ";");
    expect_out_of_memory_said(r, d.file("mo.json"), kib);
    said += r.exit_code == 3;
    if (r.exit_code == 0) break;
  }
  EXPECT_GT(said, 0) << "no limit tried ran out of memory";
}

// An llm sweep of 961 rows (--batch 1..1e9 --context 1..1e9) under ulimit -v 13000 to 21000
// KiB: done, or out of memory said (exit 3). It aborted in std::terminate (134) at 14250 when
// the sweep's JSON was one tree: an allocation failing first in nlohmann's destructor, which
// allocates, cannot throw. The rows are written one by one into one reused object. (A limit
// under which the program cannot start at all, `--version` included, is left out: the loader
// fails, or start-up ends by SIGSEGV around 13450 KiB. The machine is a file: under some limits
// the catalogue's lookup says it found no catalogue, exit 3, where memory ran out.)
TEST(CliEnvironment, AnLlmSweepThatRunsOutOfMemoryIsNoAbort) {
#if defined(ROOFLINE_SANITIZED)
  GTEST_SKIP() << "ASan and TSan reserve terabytes of address space: ulimit -v stops them";
#endif
  TempDir d;
  write_text(d.file("sweep.json"), "old");
  const std::vector<std::string> args = {"llm",    "--model", "llama-2-7b", "--hw",
                                         kA100,    "--batch", "1..1e9",     "--context",
                                         "1..1e9", "--json",  "-o",         d.file("sweep.json")};
  int said = 0, tried = 0;
  for (int kib = 13000; kib <= 21000; kib += 250) {
    const std::string limit = "ulimit -v " + std::to_string(kib) + ";";
    if (run_cli({"--version"}, limit).exit_code != 0) continue;
    ++tried;
    const auto r = run_cli(args, limit);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3)
        << "ulimit -v " << kib << ": exit " << r.exit_code << ": " << r.err;
    if (r.exit_code == 0) {
      write_text(d.file("sweep.json"), "old");
      continue;
    }
    expect_out_of_memory_said(r, d.file("sweep.json"), kib);
    said += r.exit_code == 3;
  }
  EXPECT_GT(tried, 20);
  EXPECT_GT(said, 0) << "no limit tried ran out of memory";
  // Without a limit it is written, whole.
  const auto r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(d.file("sweep.json")))["rows"].size(), 31u * 31u);
}

// A file size limit fails the write (EFBIG) instead of killing the command by SIGXFSZ (153,
// silent, the PNG export's temporary folder left in TMPDIR).
TEST(CliEnvironment, AFileSizeLimitIsAFailedWriteAndLeavesNoTemporaryFolder) {
  TempDir d;
  const std::string tmp = d.file("tmp");
  fs::create_directories(tmp);
  write_text(d.file("x.png"), "old");
  const std::vector<std::vector<std::string>> commands = {
      {"plot", kA100, kPoints, "-o", d.file("x.png")},
      {"point", "-W", "1e9", "-Q", "1e9", "-T", "0.01", "--machine", kA100, "--report",
       d.file("x.png")},
      {"plot", kA100, kPoints, "-o", d.file("x.svg")}};
  for (const auto& args : commands) {
    SCOPED_TRACE(args.back());
    const auto r = run_cli(args, "TMPDIR=" + tmp + " sh -c 'ulimit -f 2; exec \"$0\" \"$@\"'");
    if (no_converter(r)) GTEST_SKIP() << r.err;
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_TRUE(has(r.err, "File too large")) << r.err;
    EXPECT_TRUE(has(r.err, args.back() + ": ")) << r.err;
    EXPECT_TRUE(has(r.err, "the previous file, if any, is unchanged")) << r.err;
    EXPECT_TRUE(entries_of(tmp).empty());
  }
  EXPECT_EQ(slurp(d.file("x.png")), "old");
  EXPECT_FALSE(fs::exists(d.file("x.svg")));
}

// A PNG bigger than the limit: the converter's own failure to write it is an output that could
// not be written (exit 4, its reason shown), not "rsvg-convert failed ()" (exit 3) as when its
// stderr went to a file in the same limited place.
TEST(CliEnvironment, AConverterThatCannotWriteThePngIsAFailedWrite) {
  TempDir d;
  const std::string tmp = d.file("tmp");
  fs::create_directories(tmp);
  const auto r = run_cli({"plot", kA100, kPoints, "-o", d.file("t3.png")},
                         "TMPDIR=" + tmp + " sh -c 'ulimit -f 100; exec \"$0\" \"$@\"'");
  if (no_converter(r)) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(has(r.err, d.file("t3.png") + ": ")) << r.err;
  EXPECT_TRUE(has(r.err, "File too large")) << r.err;
  EXPECT_FALSE(has(r.err, "()")) << r.err;
  EXPECT_TRUE(entries_of(tmp).empty());
  EXPECT_FALSE(fs::exists(d.file("t3.png")));
}

// A converter that is installed but cannot start (its loader fails under a memory limit) is
// told apart from one that is not installed: its message is shown.
TEST(CliEnvironment, AConverterThatCannotStartIsNotCalledMissing) {
  TempDir d;
  const std::string bin = d.file("bin");
  fs::create_directories(bin);
  write_text(bin + "/rsvg-convert",
             "#!/bin/sh\necho 'rsvg-convert: error while loading shared libraries: "
             "libharfbuzz.so.0: failed to map segment from shared object' >&2\nexit 127\n");
  fs::permissions(bin + "/rsvg-convert", fs::perms::owner_all);
  const auto r = run_cli({"plot", kA100, kPoints, "-o", d.file("c.png")}, "PATH=" + bin + ":$PATH");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(has(r.err, "rsvg-convert is installed but could not start")) << r.err;
  EXPECT_TRUE(has(r.err, "libharfbuzz.so.0: failed to map segment")) << r.err;
  EXPECT_FALSE(has(r.err, "Debian package")) << r.err;
  EXPECT_FALSE(fs::exists(d.file("c.png")));
}

/// The lines of the plot and its legend: everything before the roofs table.
std::vector<std::string> plot_lines(const std::string& out) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < out.size()) {
    const size_t end = out.find('\n', at);
    const std::string line = out.substr(at, end == std::string::npos ? end : end - at);
    if (line.rfind("Roofs of ", 0) == 0) break;
    lines.push_back(line);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return lines;
}

// --width is the terminal's width: no line of the plot passes it (at 40 they took 50, 52 for
// h100-sxm), counted in the columns a terminal gives wide and combining characters.
TEST(CliEnvironment, TheTerminalPlotFitsItsWidth) {
  TempDir d;
  write_text(
      d.file("wide.json"),
      R"({"schema": "roofline.points", "version": 1, "points": [)"
      R"({"name": "東京の行列積カーネル東京の行列積カーネル", "work": 1e12, "traffic": 1e9,)"
      R"( "time": 0.01},)"
      R"({"name": "e\u0301e\u0301e\u0301 combining accents in a long point name", "work": 1e9,)"
      R"( "traffic": 1e9, "time": 0.01}]})");
  const std::vector<std::string> machines = {"h100-sxm", "a100-80gb", kA100, "mi300x",
                                             "xeon-platinum-8480plus"};
  for (const auto& m : machines)
    for (const std::string& points : {kPoints, d.file("wide.json")})
      for (const int width : {40, 41, 50, 60, 80}) {
        SCOPED_TRACE(m + " " + points + " --width " + std::to_string(width));
        const auto r = run_cli({"plot", m, points, "--terminal", "--width", std::to_string(width),
                                "--title", "a title longer than the narrowest terminal plot is"},
                               "NO_COLOR=1 ROOFLINE_HW_PATH=");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto lines = plot_lines(r.out);
        ASSERT_GT(lines.size(), 10u) << r.out;
        for (const auto& line : lines)
          EXPECT_LE(display_width(line), static_cast<size_t>(width)) << line << "\n" << r.out;
      }
}

// A ROOFLINE_HW_PATH entry that is no folder is warned of once, as --hw-dir's is refused.
TEST(CliEnvironment, AHwPathEntryThatIsNoFolderIsWarnedOfOnce) {
  const auto r =
      run_cli({"hw", "show", "my-gpu"}, "ROOFLINE_HW_PATH=/nonexistent/typo:/nonexistent/typo");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string warning =
      "roofline: warning: ROOFLINE_HW_PATH: '/nonexistent/typo': no such folder (skipped)";
  ASSERT_TRUE(has(r.err, warning)) << r.err;
  EXPECT_EQ(r.err.find(warning), r.err.rfind(warning)) << r.err;
  EXPECT_TRUE(has(r.err, "unknown machine 'my-gpu'")) << r.err;
  // A folder is no warning.
  const auto ok = run_cli({"hw", "list"}, "ROOFLINE_HW_PATH=" + kData);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_FALSE(has(ok.err, "warning")) << ok.err;
  // --version and --help say only what they say (the warnings came before "roofline 0.1.0").
  for (const char* flag : {"--version", "--help"}) {
    const auto v = run_cli({flag}, "ROOFLINE_HW_PATH=/nonexistent/typo");
    EXPECT_EQ(v.exit_code, 0) << v.err;
    EXPECT_FALSE(has(v.err, "warning")) << flag << ": " << v.err;
  }
}

// A TMPDIR whose modes allow writing (root) but where no folder can be made (sysfs) is said
// before the work, exit 2: "cannot create a temporary folder in /sys" came after it, exit 4.
TEST(CliEnvironment, ATmpdirWhereNothingCanBeMadeIsSaidBeforeTheWork) {
  if (!fs::is_directory("/sys/kernel")) GTEST_SKIP() << "no sysfs";
  if (::access("/sys", W_OK) != 0) GTEST_SKIP() << "/sys is refused by its modes here already";
  TempDir d;
  const auto r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "0.01", "--machine", kA100,
                          "--report", d.file("x.png")},
                         "TMPDIR=/sys");
  if (no_converter(r)) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "TMPDIR=/sys: no temporary file can be made there")) << r.err;
  EXPECT_FALSE(fs::exists(d.file("x.png")));
}

// Whether SIGXFSZ is ignored in the process whose /proc status `status` is (its SigIgn mask).
bool file_size_signal_ignored(const std::string& status) {
  const auto at = status.find("SigIgn:");
  if (at == std::string::npos) return false;
  const unsigned long long mask = std::stoull(status.substr(at + 7), nullptr, 16);
  return (mask >> (SIGXFSZ - 1)) & 1u;
}

// The program `profile` runs keeps the SIGXFSZ disposition the command was given: ignoring it
// for the whole command (to turn a file size limit into a failed write) had made the profiled
// program inherit SIG_IGN (SigIgn 0x1000000), so a limit it met gave it EFBIG instead of the
// signal it would have had.
TEST(CliEnvironment, TheProfiledProgramKeepsTheFileSizeSignalItWasGiven) {
  TempDir d;
  const std::string seen = d.file("status");
  const auto r = run_cli(
      {"profile", "-W", "1e9", "-Q", "1e9", "--", "sh", "-c", "cat /proc/self/status > " + seen});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string child = slurp(seen);
  ASSERT_NE(child.find("SigIgn:"), std::string::npos) << child;
  EXPECT_EQ(file_size_signal_ignored(child), file_size_signal_ignored(slurp("/proc/self/status")))
      << child;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
