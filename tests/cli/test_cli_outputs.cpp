// The real executable against outputs and inputs that are not what they seem (run as root in
// containers and CI as well as by a user): each refusal exits 2 with a message naming the path,
// leaves the target as it was and creates nothing; write errors on stdout exit 4.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_hostile.hpp"
#include "cli/cli_runner.hpp"

#include <nlohmann/json.hpp>

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

namespace fs = std::filesystem;
const std::string kData = ROOFLINE_TEST_DATA;
const std::string kA100 = kData + "/core/machine-a100.json";
const std::string kPoints = kData + "/core/points.json";

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

/// A point with flags only, written to `out` as JSON.
std::vector<std::string> point_to(const std::string& out) {
  return {"point",  "-W", "1e9",         "-Q", "1e9",    "-T", "0.01",
          "--peak", "1T", "--bandwidth", "1T", "--json", "-o", out};
}

unsigned mode_of(const std::string& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

/// A character device (major, minor): /dev/null is (1, 3), /dev/zero (1, 5). As root, a
/// regression would replace the system's node, so root tests a private node of the same device
/// in the test's folder.
std::string char_device(const TempDir& d, const std::string& name, unsigned minor) {
  if (::geteuid() == 0 && ::mknod(d.file(name).c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0)
    return d.file(name);
  return "/dev/" + name;
}

TEST(CliOutputs, NeverReplacesADeviceAFifoOrALink) {
  TempDir d;
  // -o /dev/null discards the output (exit 0) and leaves the device as it was; any other
  // device is refused.
  std::set<std::string> private_nodes;
  for (const auto& [name, minor] : {std::pair<std::string, unsigned>{"null", 3}, {"zero", 5}}) {
    const std::string dev = char_device(d, name, minor);
    if (dev == d.file(name)) private_nodes.insert(name);
    struct stat before {};
    ASSERT_EQ(::stat(dev.c_str(), &before), 0);
    const auto r = run_cli(point_to(dev));
    if (name == "null") {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out + r.err, "");
    } else {
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_TRUE(has(r.err, "roofline: error: -o " + dev +
                                 ": is a character device, not a regular file; refusing to "
                                 "replace it"))
          << r.err;
    }
    struct stat after {};
    ASSERT_EQ(::stat(dev.c_str(), &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode)) << dev << " was replaced";
    EXPECT_EQ(after.st_rdev, before.st_rdev);
  }
  auto r = run_cli(point_to("/dev/null"));  // the system's, which is never replaced
  EXPECT_EQ(r.exit_code, 0) << r.err;

  ASSERT_EQ(::mkfifo(d.file("fifo").c_str(), 0600), 0);
  r = run_cli(point_to(d.file("fifo")), "timeout 30");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "fifo: is a FIFO (named pipe), not a regular file")) << r.err;
  EXPECT_TRUE(fs::is_fifo(d.file("fifo")));

  r = run_cli(point_to("/proc/self/fd/1"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "/proc/self/fd/1: is a symbolic link; refusing to replace it")) << r.err;
  EXPECT_EQ(r.out, "");

  write_text(d.file("target.json"), "target\n");
  fs::create_symlink(d.file("target.json"), d.file("link.json"));
  r = run_cli({"plot", kA100, "-o", d.file("link.json")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "link.json: is a symbolic link")) << r.err;
  EXPECT_TRUE(fs::is_symlink(d.file("link.json")));
  EXPECT_EQ(slurp(d.file("target.json")), "target\n");
  std::set<std::string> expected = {"fifo", "link.json", "target.json"};
  expected.insert(private_nodes.begin(), private_nodes.end());
  EXPECT_EQ(entries_of(d.path), expected);
}

TEST(CliOutputs, KeepsTheModeOfAFileAndRefusesAReadOnlyOne) {
  TempDir d;
  const std::string secret = d.file("secret.json");
  write_text(secret, "old\n");
  ::chmod(secret.c_str(), 0600);
  auto r = run_cli(point_to(secret));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(mode_of(secret), 0600u) << "a 0600 file came back world-readable";
  EXPECT_TRUE(has(slurp(secret), "\"attainable\"")) << slurp(secret);

  const std::string ro = d.file("ro.svg");
  write_text(ro, "keep\n");
  ::chmod(ro.c_str(), 0444);
  r = run_cli({"plot", kA100, kPoints, "-o", ro});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "ro.svg: is read-only (mode 0444); refusing to replace it")) << r.err;
  EXPECT_EQ(slurp(ro), "keep\n");
  EXPECT_EQ(mode_of(ro), 0444u);
  EXPECT_EQ(entries_of(d.path), (std::set<std::string>{"ro.svg", "secret.json"}));
}

TEST(CliOutputs, AFolderItMayNotWriteIsRefusedBeforeAnyMeasurement) {
  // measure -o ro/m.json --report ok.html: refused at once, nothing measured and nothing written
  // (it measured, wrote the report's sibling and only then failed). As root every folder is
  // writable, so root runs the program as nobody (setpriv, util-linux).
  // The program is run from a copy in the test's folder, which nobody may enter wherever the
  // build tree lies (a clone under /root is not).
  TempDir d;
  ::chmod(d.path.c_str(), 0755);
  const std::string program = d.file("roofline");
  fs::copy_file(ROOFLINE_CLI_PATH, program);
  ::chmod(program.c_str(), 0755);
  const std::string ro = d.file("ro");
  fs::create_directories(ro);
  ::chmod(ro.c_str(), 0555);
  const std::string as_nobody =
      ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  const std::string cmd =
      as_nobody + shell_quote(program) + " measure --quick --precisions fp64 --levels L1 -o " +
      shell_quote(ro + "/m.json") + " --report " + shell_quote(d.file("ok.html")) + " >" +
      shell_quote(d.file("out")) + " 2>" + shell_quote(d.file("err")) + " </dev/null";
  const int status = std::system(cmd.c_str());
  const std::string out = slurp(d.file("out")), err = slurp(d.file("err"));
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 2) << out << err;
  EXPECT_TRUE(has(err, "ro/m.json: cannot write in folder")) << err;
  EXPECT_FALSE(has(out + err, "measured in")) << out;
  EXPECT_EQ(entries_of(d.path), (std::set<std::string>{"err", "out", "ro", "roofline"}));
  EXPECT_TRUE(entries_of(ro).empty());
}

TEST(CliOutputs, NeverOntoAnInputNorTwoOutputsOntoOneFile) {
  TempDir d;
  const std::string m = d.file("m.json"), p = d.file("p.json");
  fs::copy_file(kA100, m);
  fs::copy_file(kPoints, p);
  const std::string machine_before = slurp(m);
  auto r = run_cli({"plot", m, p, "-o", m});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "m.json: is also an input of this command")) << r.err;
  EXPECT_EQ(slurp(m), machine_before);
  // The points file is an input too, under another spelling of its path.
  r = run_cli({"plot", m, p, "-o", d.path.string() + "/./p.json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "is also an input")) << r.err;
  // `run` refuses its machine as -o before the suite runs (it ran every kernel first).
  r = run_cli({"run", "axpy-fp64", "--quick", "--machine", m, "-o", m});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "m.json: is also an input of this command")) << r.err;
  EXPECT_FALSE(has(r.err, "axpy-fp64 at L1")) << r.err;
  EXPECT_EQ(slurp(m), machine_before);

  r = run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "0.01", "--peak", "1T", "--bandwidth", "1T",
               "--json", "-o", d.file("s.json"), "--report", d.file("s.json")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--report " + d.file("s.json") + ": names the same file as -o")) << r.err;
  r = run_cli({"hw", "show", "a100-80gb", "-o", d.file("x.json"), "--report",
               d.path.string() + "/./x.json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "names the same file")) << r.err;
  EXPECT_EQ(entries_of(d.path), (std::set<std::string>{"m.json", "p.json"}));
}

TEST(CliOutputs, TmpdirThatIsNotAFolderIsACleanError) {
  TempDir d;
  auto r = run_cli({"plot", kA100, "-o", d.file("chart.png")}, "TMPDIR=/nonexistent");
  if (r.exit_code == 3) GTEST_SKIP() << "no rsvg-convert: " << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "roofline: error: TMPDIR=/nonexistent: not an existing folder")) << r.err;
  EXPECT_FALSE(has(r.err, "internal error")) << r.err;
  EXPECT_TRUE(entries_of(d.path).empty());
}

// A signal during the PNG export removes its temporary folder before it ends the command: the
// folder and an SVG of the chart's size had been left in TMPDIR at each Ctrl-C.
TEST(CliOutputs, AnInterruptedPngExportLeavesNoTemporaryFolder) {
  TempDir dir;
  const std::string bin = dir.file("bin"), tmp = dir.file("tmp");
  std::filesystem::create_directories(bin);
  std::filesystem::create_directories(tmp);
  // A converter that takes its time: the signal comes while it runs.
  write_text(bin + "/rsvg-convert", "#!/bin/sh\nsleep 30\n");
  std::filesystem::permissions(bin + "/rsvg-convert", std::filesystem::perms::owner_all);
  write_text(dir.file("old.png"), "old");
  for (const char* sig : {"INT", "TERM"}) {
    SCOPED_TRACE(sig);
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_cli(
        {"plot", kA100, "-o", dir.file("old.png")},
        "PATH=" + bin + ":$PATH TMPDIR=" + tmp + " timeout --preserve-status -s " + sig + " 1");
    EXPECT_EQ(r.exit_code, 128 + (std::string(sig) == "INT" ? SIGINT : SIGTERM)) << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_TRUE(entries_of(tmp).empty());
    EXPECT_EQ(slurp(dir.file("old.png")), "old");
  }
}

// A TMPDIR where no file can be made is said before the work (exit 2), not as an internal error
// after it.
TEST(CliOutputs, AnUnwritableTmpdirIsSaidBeforeTheWork) {
  if (::geteuid() != 0) GTEST_SKIP() << "a read-only mount needs root";
  TempDir d;
  const std::string ro = d.file("ro");
  std::filesystem::create_directories(ro);
  const std::string mount = "mount --bind '" + ro + "' '" + ro + "' && mount -o remount,ro,bind '" +
                            ro + "' '" + ro + "' 2>/dev/null";
  if (std::system(mount.c_str()) != 0) GTEST_SKIP() << "cannot mount here";
  const auto r = run_cli({"plot", kA100, "-o", d.file("chart.png")}, "TMPDIR=" + ro);
  const int unmounted = std::system(("umount '" + ro + "'").c_str());
  EXPECT_EQ(unmounted, 0);
  if (r.exit_code == 3) GTEST_SKIP() << "no rsvg-convert: " << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "TMPDIR=" + ro + ": no temporary file can be made there")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d.file("chart.png")));
}

TEST(CliOutputs, WriteErrorsOnStdoutAreReported) {
  auto r = run_cli_redirected({"hw", "list"}, ">/dev/full");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(has(r.err,
                  "roofline: error: standard output: write failed (No space left on "
                  "device); the output is incomplete"))
      << r.err;
  r = run_cli_redirected({"hw", "list", "--json"}, ">&-");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(has(r.err, "standard output: write failed (Bad file descriptor)")) << r.err;
  r = run_cli_redirected({"--help"}, ">/dev/full");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  // A closed stdout is not silently reused for a file the command opens.
  TempDir d;
  r = run_cli_redirected(point_to(d.file("out.json")), ">&-");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(slurp(d.file("out.json")), "\"attainable\""));
}

// A file named .json gets the JSON form: without --json it used to hold the text summary.
TEST(CliOutputs, ANameEndingJsonGetsTheJsonForm) {
  TempDir d;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"point", "-W", "1e9", "-Q", "1e9", "-T", "0.01", "--peak", "1T",
                                 "--bandwidth", "1T", "-o", d.file("p.JSON")},
        std::vector<std::string>{"kernel", "triad", "--n", "1M", "-o", d.file("k.json")},
        std::vector<std::string>{"hw", "show", "h100-sxm", "-o", d.file("h.json")},
        std::vector<std::string>{"llm", "--model=llama-2-7b", "--hw=a100-80gb", "-o",
                                 d.file("l.json")}}) {
    auto r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = slurp(args.back());
    EXPECT_TRUE(nlohmann::json::accept(text)) << args[0] << ": " << text.substr(0, 200);
  }
  // The text form stays the default for other names.
  auto r = run_cli({"kernel", "triad", "--n", "1M", "-o", d.file("k.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::accept(slurp(d.file("k.txt"))));
  EXPECT_TRUE(has(slurp(d.file("k.txt")), "I = W/Q"));
  // llm's --csv with a .json name is two forms at once: refused, saying why.
  r = run_cli({"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--csv", "-o", d.file("c.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "an -o name ending .json asks for JSON")) << r.err;
}

TEST(CliInputs, RefusesSpecialFilesWithoutReadingOrWaiting) {
  TempDir d;
  auto r = run_cli({"plot", kA100, "/dev/zero", "-o", d.file("x.svg")}, "timeout 30");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err,
                  "roofline: error: /dev/zero: is a character device, expected a regular "
                  "file"))
      << r.err;
  r = run_cli({"import", "ncu", "/dev/zero"}, "timeout 30");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "/dev/zero: is a character device")) << r.err;
  ASSERT_EQ(::mkfifo(d.file("points.json").c_str(), 0600), 0);
  r = run_cli({"plot", kA100, d.file("points.json"), "-o", d.file("x.svg")}, "timeout 30");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "points.json: is a FIFO (named pipe), expected a regular file")) << r.err;
  EXPECT_EQ(entries_of(d.path), (std::set<std::string>{"points.json"}));
}

TEST(CliInputs, AFifoInTheCatalogueFolderDoesNotHangTheListing) {
  TempDir d;
  ASSERT_EQ(::mkfifo(d.file("pipe.json").c_str(), 0600), 0);
  const auto r = run_cli({"hw", "list", "--hw-dir", d.path.string()}, "timeout 30");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "roofline: warning: skipped " + d.file("pipe.json") +
                             ": is a FIFO (named pipe), expected a regular file"))
      << r.err;
  EXPECT_TRUE(has(r.out, "a100-80gb")) << r.out;
}

TEST(CliInputs, HugeAndDeepDocumentsAreRefusedBeforeParsing) {
  TempDir d;
  // 100 000 levels: parsed, it would overflow the stack in the first recursion over it.
  write_text(d.file("deep.json"), std::string(100000, '[') + std::string(100000, ']'));
  auto r =
      run_cli({"point", "-W", "1e9", "-Q", "1e9", "-T", "1", "--machine", d.file("deep.json")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "deep.json: line 1, column 101: nested deeper than 100 levels")) << r.err;
  std::string nested = R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12}], "memory": [{"level": "DRAM", "bandwidth": 1e11}],
    "extra": )";
  std::string deep_object;
  for (int i = 0; i < 50000; ++i) deep_object += "{\"a\":";
  deep_object += "1";
  for (int i = 0; i < 50000; ++i) deep_object += "}";
  write_text(d.file("deep-section.json"), nested + deep_object + "}");
  r = run_cli({"plot", d.file("deep-section.json"), "-o", d.file("x.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "nested deeper than 100 levels")) << r.err;

  // 65 MiB of zeros (a sparse file): over the 64 MiB limit, refused after reading the limit.
  {
    std::ofstream big(d.file("big.json"));
    big.seekp((65 << 20) - 1);
    big.put(' ');
  }
  r = run_cli({"plot", d.file("big.json"), "-o", d.file("x.svg")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "big.json: larger than 64 MiB, the limit for this input; refused"))
      << r.err;
  // A machine document padded to 65 MiB (valid JSON: blanks after it) is refused by diff as
  // by every other reader of machines; diff read it up to the points' 1 GiB.
  {
    std::ofstream big(d.file("big-machine.json"));
    big << slurp(kA100);
    const std::string blanks(1 << 20, ' ');
    for (int i = 0; i < 65; ++i) big << blanks;
  }
  r = run_cli({"diff", d.file("big-machine.json"), "h100-sxm"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "big-machine.json: larger than 64 MiB, the limit for this input; refused"))
      << r.err;
  std::filesystem::remove(d.file("big-machine.json"));
  EXPECT_EQ(entries_of(d.path),
            (std::set<std::string>{"big.json", "deep-section.json", "deep.json"}));
}

// A points document may be as large as `import -o` writes (1 GiB, kMaxPointsBytes): an export
// of 300k kernels made 103 MB of points, which point, plot and check then refused at 64 MiB.
TEST(CliOutputs, PointsDocumentsBeyond64MiBAreRead) {
  TempDir d;
  {
    std::ofstream big(d.file("points.json"));
    big << R"({"schema": "roofline.points", "version": 1, "points": [)"
        << R"({"name": "k", "work": 1e9, "traffic": 1e8, "time": 0.01}])";
    big << std::string((65 << 20), ' ') << "}";
  }
  auto r = run_cli({"point", "--points", d.file("points.json"), "--hw", "h100-sxm"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "k")) << r.out;
  r = run_cli({"check", d.file("points.json"), "--hw", "h100-sxm", "--min-attainment", "0.001"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"plot", "h100-sxm", d.file("points.json"), "-o", d.file("c.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"diff", d.file("points.json"), d.file("points.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "k")) << r.out;
}

// A report that cannot be written after run's documents were says what was written and how to
// draw it, and keeps its kind: a PNG converter that writes nothing is unavailable (exit 3); it
// read as a bad option before, as if nothing had run.
TEST(CliOutputs, AReportThatFailsAfterTheDocumentsNamesThem) {
  TempDir dir;
  const std::string bin = dir.file("bin");
  std::filesystem::create_directories(bin);
  write_text(bin + "/rsvg-convert", "#!/bin/sh\necho 'no fonts' >&2\nexit 0\n");
  std::filesystem::permissions(bin + "/rsvg-convert", std::filesystem::perms::owner_all);
  const auto r = run_cli({"run", "axpy", "--quick", "--levels", "L1", "--machine", kA100, "-o",
                          dir.file("run.json"), "--report", dir.file("run.png")},
                         "PATH=" + bin + ":$PATH");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("produced no PNG image (no fonts"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("; written: " + dir.file("run.json") +
                       " (draw the report with `roofline "
                       "plot " +
                       kA100 + " " + dir.file("run.json") + " -o " + dir.file("run.png") + "`)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("run.json")));
}
// An output onto a FIFO is refused; the command line suggests `-` for standard output only
// where the flag takes it: -o does, --report does not (a chart's format is its extension).
TEST(CliOutputs, StandardOutputIsSuggestedOnlyForAFlagThatTakesIt) {
  TempDir dir;
  const std::string fifo = dir.file("f.svg");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::string> point = {"point", "--work", "1G", "--traffic",   "1G",  "--time",
                                          "1",     "--peak", "1T", "--bandwidth", "100G"};
  auto args = point;
  args.insert(args.end(), {"--report", fifo});
  auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("is a FIFO"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("give -"), std::string::npos) << r.err;
  // -o takes text (a chart's name is refused before the file is looked at: check_text_output).
  const std::string text_fifo = dir.file("f.txt");
  ASSERT_EQ(::mkfifo(text_fifo.c_str(), 0600), 0);
  args = point;
  args.insert(args.end(), {"-o", text_fifo});
  r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("; for standard output give -"), std::string::npos) << r.err;
}
}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
