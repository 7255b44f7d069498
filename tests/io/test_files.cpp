// The file layer (io.hpp, "Files in and out"): what is read, what is written, and what is
// refused — each refusal leaving the target as it was and no temporary file behind.
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {

struct Dir {
  fs::path path;
  Dir() {
    static int n = 0;
    path = fs::temp_directory_path() /
           ("roofline-files-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(path);
  }
  ~Dir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, ec);
    fs::remove_all(path, ec);
  }
  fs::path operator/(const std::string& name) const { return path / name; }
  size_t entries() const {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(path)) (void)e, ++n;
    return n;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Files, ReplacingAFileKeepsItsMode) {
  Dir d;
  const auto f = d / "secret.json";
  std::ofstream(f) << "old";
  ::chmod(f.c_str(), 0600);
  write_file_atomic(f, "new");
  EXPECT_EQ(slurp(f), "new");
  EXPECT_EQ(mode_of(f), 0600u);
  ::chmod(f.c_str(), 0640);
  write_file_atomic(f, "newer");
  EXPECT_EQ(mode_of(f), 0640u);
  EXPECT_EQ(d.entries(), 1u);
}

TEST(Files, AFileSizeLimitIsAWriteErrorNotADeathLeavingATemporary) {
  // ulimit -f: the kernel sends SIGXFSZ on a write past the limit, which killed the tool and
  // left its temporary file. In a child (the limit and the signal are per process): the write
  // fails as an error, the folder holds the old file only, and the child is not killed.
  const Dir d;
  std::ofstream(d / "out.svg") << "old";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const struct rlimit limit { 2048, 2048 };
    ::setrlimit(RLIMIT_FSIZE, &limit);
    int status = 1;
    try {
      write_file_atomic(d / "out.svg", std::string(1 << 20, 'x'));
    } catch (const OutputError& e) {
      status = std::string(e.what()).find("unchanged") != std::string::npos ? 0 : 2;
    } catch (...) {
      status = 3;
    }
    // The disposition is restored after the write (a program profile starts inherits it).
    struct sigaction now {};
    ::sigaction(SIGXFSZ, nullptr, &now);
    if (now.sa_handler != SIG_DFL) status = 4;
    ::_exit(status);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(slurp(d / "out.svg"), "old");
  EXPECT_EQ(d.entries(), 1u) << "a temporary file was left";
}

/// `tries` children each write 32 MiB with write_file_atomic (beside a second thread started
/// under EndingSignalsHeld when `with_thread`, as the engine's team and OpenBLAS's pool start)
/// and get a SIGHUP at a later moment each: the file must be old or whole, with no temporary.
void expect_sighup_mid_write_leaves_no_temporary(int tries, bool with_thread) {
  const Dir d;
  const std::string content(32 << 20, 'x');
  for (int i = 0; i < tries; ++i) {
    std::ofstream(d / "out.json") << "old";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      std::atomic<bool> stop{false};
      std::thread other;
      if (with_thread) {
        const EndingSignalsHeld held;
        other = std::thread([&stop] {
          while (!stop.load()) std::this_thread::sleep_for(std::chrono::microseconds(50));
        });
      }
      write_file_atomic(d / "out.json", content);
      stop = true;
      if (other.joinable()) other.join();
      ::_exit(0);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500 + 2000 * i));
    ::kill(child, SIGHUP);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) || (WIFSIGNALED(status) && WTERMSIG(status) == SIGHUP));
    const std::uintmax_t size = fs::file_size(d / "out.json");
    EXPECT_TRUE(size == 3 || size == content.size()) << size;
    EXPECT_EQ(d.entries(), 1u) << "a temporary file was left (try " << i << ")";
  }
}

TEST(Files, ASignalThatEndsTheCommandWhileAFileIsWrittenLeavesItWholeOrUntouched) {
  // SIGHUP (a closed terminal) between the temporary's creation and the rename killed the tool
  // and left the temporary. The signals that end a command are held while the file is written.
  expect_sighup_mid_write_leaves_no_temporary(8, false);
}

// The threads the library starts hold the same signals for their whole life: one sent to the
// process while a file is written waits for the rename even with other threads running (it
// went to a thread that did not hold it, and the process died with its temporary left).
TEST(Files, ThreadsStartedUnderTheHoldNeverTakeTheSignalsThatEndACommand) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer ends a child that starts threads after a multi-threaded fork";
#endif
  expect_sighup_mid_write_leaves_no_temporary(6, true);
}

TEST(Files, WritesOnSeveralThreadsLeaveTheFileSizeSignalAsItWas) {
  // The ignore is the process's: overlapping writes share it and the last one restores it.
  const Dir d;
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&d, t] {
      for (int i = 0; i < 25; ++i)
        write_file_atomic(d / ("f" + std::to_string(t) + "-" + std::to_string(i)), "x");
    });
  for (auto& w : writers) w.join();
  EXPECT_EQ(d.entries(), 100u);
  struct sigaction now {};
  ::sigaction(SIGXFSZ, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

TEST(Files, ANewFileTakesTheUmask) {
  Dir d;
  const mode_t old = ::umask(027);
  write_file_atomic(d / "new.json", "x");
  ::umask(old);
  EXPECT_EQ(mode_of(d / "new.json"), 0640u);
}

TEST(Files, ReadOnlyFilesAreRefusedAlsoForRoot) {
  Dir d;
  const auto f = d / "ro.json";
  std::ofstream(f) << "keep";
  ::chmod(f.c_str(), 0444);
  const std::string m = message_of([&] { write_file_atomic(f, "x", "-o"); });
  EXPECT_NE(m.find("-o " + f.string() + ": is read-only (mode 0444)"), std::string::npos) << m;
  EXPECT_THROW(check_writable_path(f), InputError);
  EXPECT_EQ(slurp(f), "keep");
  EXPECT_EQ(d.entries(), 1u);
}

// Files whose mode lets them be written but that cannot be renamed over: refused by the check a
// command makes before its work (a measurement lost 14 s, then its output, to the rename).
TEST(Files, FilesThatCannotBeRenamedOverAreRefusedBeforeTheWork) {
  Dir d;
  const auto f = d / "locked.json";
  std::ofstream(f) << "keep";
  // Immutable (chattr +i): root and file system permitting.
  const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  int flags = 0;
  bool immutable = false;
  if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
    int set = flags | FS_IMMUTABLE_FL;
    immutable = ::ioctl(fd, FS_IOC_SETFLAGS, &set) == 0;
  }
  if (immutable) {
    const std::string m = message_of([&] { check_writable_path(f, "-o"); });
    EXPECT_NE(m.find("is immutable (chattr +i); refusing to replace it"), std::string::npos) << m;
    EXPECT_THROW(write_file_atomic(f, "x"), InputError);
    ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
    int append = flags | FS_APPEND_FL;  // append-only (chattr +a): not renamed over either
    if (::ioctl(fd, FS_IOC_SETFLAGS, &append) == 0) {
      const std::string a = message_of([&] { check_writable_path(f, "-o"); });
      EXPECT_NE(a.find("is append-only (chattr +a); refusing to replace it"), std::string::npos)
          << a;
      ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
    }
  }
  ::close(fd);
  EXPECT_EQ(slurp(f), "keep");
  // Another user's file in a sticky folder, written as that other user: a child gives up root.
  // The folder is made in /tmp itself, which every user can reach (a $TMPDIR under /root is not).
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  if (!immutable) std::cerr << "(immutable files untested: no FS_IOC_SETFLAGS here)\n";
  struct Sticky {
    fs::path path = fs::path("/tmp") / ("roofline-sticky-" + std::to_string(::getpid()));
    ~Sticky() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } sticky;
  fs::create_directories(sticky.path);
  ASSERT_EQ(::chmod(sticky.path.c_str(), 01777), 0);
  const auto theirs = sticky.path / "theirs.json";
  std::ofstream(theirs) << "keep";
  ASSERT_EQ(::chmod(theirs.c_str(), 0666), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0) _exit(3);
    try {
      check_writable_path(theirs, "-o");
    } catch (const InputError& e) {
      _exit(std::string(e.what()).find("belongs to another user in a sticky folder") !=
                    std::string::npos
                ? 0
                : 2);
    }
    _exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: accepted, 2: another message, 3: could not drop root";
  EXPECT_EQ(slurp(theirs), "keep");
}

TEST(Files, SpecialFilesAndLinksAreNeverReplaced) {
  Dir d;
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  std::ofstream(d / "target.json") << "target";
  fs::create_symlink(d / "target.json", d / "link.json");
  // As root a regression would replace the system's /dev/null: root tests a private node of
  // the same device (1, 3).
  std::string null = "/dev/null";
  if (::geteuid() == 0 && ::mknod((d / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0)
    null = (d / "null").string();
  struct stat null_before {};
  ::stat(null.c_str(), &null_before);

  // The null device discards what is written to it (-o /dev/null); it is never replaced.
  EXPECT_NO_THROW(write_file_atomic(null, "x"));
  EXPECT_NO_THROW(check_writable_path(null));
  EXPECT_FALSE(same_output(null, null));
  std::string zero = "/dev/zero";  // any other device is refused (a private node for root)
  if (::geteuid() == 0 && ::mknod((d / "zero").c_str(), S_IFCHR | 0666, makedev(1, 5)) == 0)
    zero = (d / "zero").string();
  EXPECT_NE(message_of([&] { write_file_atomic(zero, "x"); }).find("a character device"),
            std::string::npos);
  EXPECT_NE(message_of([&] { write_file_atomic(d / "fifo", "x"); }).find("a FIFO"),
            std::string::npos);
  EXPECT_NE(message_of([&] { write_file_atomic(d / "link.json", "x"); }).find("symbolic link"),
            std::string::npos);
  EXPECT_NE(message_of([&] { write_file_atomic("/proc/self/fd/1", "x"); }).find("symbolic link"),
            std::string::npos);
  EXPECT_THROW(check_writable_path(d / "fifo"), InputError);

  struct stat null_after {};
  ::stat(null.c_str(), &null_after);
  EXPECT_TRUE(S_ISCHR(null_after.st_mode));
  EXPECT_EQ(null_after.st_rdev, null_before.st_rdev);
  EXPECT_TRUE(fs::is_fifo(d / "fifo"));
  EXPECT_TRUE(fs::is_symlink(d / "link.json"));
  EXPECT_EQ(slurp(d / "target.json"), "target");
  EXPECT_EQ(d.entries(), 3u + (null == "/dev/null" ? 0u : 1u) + (zero == "/dev/zero" ? 0u : 1u));
}

TEST(Files, LimitsNamedExactly) {
  EXPECT_EQ(exact_binary_size_text(kMaxImportBytes), "1 GiB");
  EXPECT_EQ(exact_binary_size_text(kMaxInputBytes), "64 MiB");
  EXPECT_EQ(exact_binary_size_text(std::size_t{3} << 30), "3 GiB");
  EXPECT_EQ(exact_binary_size_text((std::size_t{1} << 30) + (std::size_t{1} << 20)), "1025 MiB");
  EXPECT_EQ(exact_binary_size_text((std::size_t{1} << 20) + 1), "1048577 bytes");
  EXPECT_EQ(exact_binary_size_text(9), "9 bytes");
}

TEST(Files, InputsMustBeRegularAndBounded) {
  Dir d;
  ASSERT_EQ(::mkfifo((d / "fifo.json").c_str(), 0600), 0);
  // A FIFO nobody writes would block an open(): refused before it is opened.
  EXPECT_NE(message_of([&] { read_text_file(d / "fifo.json"); }).find("is a FIFO"),
            std::string::npos);
  EXPECT_NE(message_of([&] { read_text_file("/dev/zero"); }).find("is a character device"),
            std::string::npos);
  EXPECT_NE(message_of([&] { read_text_file(d.path); }).find("is a directory"), std::string::npos);
  EXPECT_NE(message_of([&] { read_text_file(d / "none.json"); }).find("no such file"),
            std::string::npos);
  std::ofstream(d / "ten.txt") << "0123456789";
  EXPECT_EQ(read_text_file(d / "ten.txt", 10), "0123456789");
  EXPECT_NE(message_of([&] { read_text_file(d / "ten.txt", 9); }).find("larger than 9 bytes"),
            std::string::npos);
  // A limit of whole MiB or GiB is named so, exactly (a sparse file: its size, not its blocks,
  // is judged before a byte is read).
  ASSERT_EQ(::truncate((d / "ten.txt").c_str(), (off_t{2} << 20) + 1), 0);
  EXPECT_NE(message_of([&] {
              read_text_file(d / "ten.txt", std::size_t{2} << 20);
            }).find("ten.txt: larger than 2 MiB, the limit for this input"),
            std::string::npos);
  ASSERT_EQ(::truncate((d / "ten.txt").c_str(), (off_t{1} << 30) + 1), 0);
  EXPECT_NE(message_of([&] {
              read_text_file(d / "ten.txt", kMaxImportBytes);
            }).find("ten.txt: larger than 1 GiB, the limit for this input"),
            std::string::npos);
  ASSERT_EQ(::truncate((d / "ten.txt").c_str(), 10), 0);
  // /proc files report size 0 and are read to their end.
  EXPECT_NE(read_text_file("/proc/self/status").find("Pid:"), std::string::npos);
  const int fd = open_input_file(d / "ten.txt");
  ASSERT_GE(fd, 0);
  ::close(fd);
  EXPECT_THROW(open_input_file("/dev/zero"), InputError);
  // A NUL in a name (from Python) would cut it short: ten.txt would be read, out written.
  const std::string cut = (d / "ten.txt").string() + std::string(1, '\0') + "x";
  EXPECT_NE(message_of([&] { read_text_file(cut); }).find("a file name with a NUL byte"),
            std::string::npos);
  const std::string out = (d / "out").string() + std::string(1, '\0') + ".json";
  EXPECT_NE(message_of([&] { write_file_atomic(out, "{}"); }).find("a file name with a NUL byte"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(d / "out"));
}

// A JSON document saved as UTF-16 (PowerShell's `>`) or UTF-32 is named by its encoding with the
// command that converts it, as the importers name it, not "a NUL byte at byte 3".
TEST(Files, JsonInUtf16IsNamedWithTheCommandThatConvertsIt) {
  const std::string doc = R"({"schema": "roofline.points"})";
  auto utf16le = [](const std::string& s) {
    std::string t;
    for (char c : s) t += std::string(1, c) + std::string(1, '\0');
    return t;
  };
  EXPECT_EQ(message_of([&] { parse_json("\xFF\xFE" + utf16le(doc), "u.json"); }),
            "u.json: the file is UTF-16LE text (byte-order mark FF FE); JSON documents are read "
            "as UTF-8 (or ASCII): convert it first, e.g. iconv -f UTF-16LE -t UTF-8 'u.json' > "
            "converted.json");
  EXPECT_NE(message_of([&] { parse_json(utf16le(doc), "n.json"); })
                .find("n.json: the file is UTF-16LE text (NUL bytes between the characters, no "
                      "byte-order mark)"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              parse_json(std::string("\0", 1) + utf16le(doc), "b.json");
            }).find("b.json: the file is UTF-16BE text"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              parse_json(std::string("\xFF\xFE\0\0", 4) + "{", "w.json");
            }).find("w.json: the file is UTF-32LE text (byte-order mark FF FE 00 00)"),
            std::string::npos);
  // A UTF-8 byte-order mark is read through, and a NUL further on is still a NUL.
  EXPECT_NO_THROW(parse_json("\xEF\xBB\xBF" + doc, "bom.json"));
  EXPECT_NE(message_of([&] {
              parse_json(doc + std::string(1, '\0'), "z.json");
            }).find("z.json: a NUL byte at byte 29"),
            std::string::npos);
}

TEST(Files, DeepJsonIsRefusedBeforeParsing) {
  const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(parse_json(ok, "ok.json"));
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string m = message_of([&] { parse_json(deep, "deep.json"); });
  EXPECT_NE(m.find("deep.json: line 1, column 101: nested deeper than 100 levels"),
            std::string::npos)
      << m;
  // Brackets inside strings do not count.
  EXPECT_NO_THROW(parse_json("{\"a\": \"" + std::string(500, '[') + "\\\"\"}", "s.json"));
}

TEST(Files, TheLedgerKeepsOutputsOffInputsAndEachOther) {
  Dir d;
  std::ofstream(d / "in.json") << "input";
  {
    const FileLedger ledger;
    (void)read_text_file(d / "in.json");
    EXPECT_NE(message_of([&] {
                write_file_atomic(d / "in.json", "x", "-o");
              }).find("is also an input of this command"),
              std::string::npos);
    EXPECT_THROW(check_writable_path(d / "in.json"), InputError);
    // Another name for the same file is the same file.
    fs::create_hard_link(d / "in.json", d / "alias.json");
    EXPECT_THROW(write_file_atomic(d / "alias.json", "x"), InputError);
    write_file_atomic(d / "out.json", "one");
    EXPECT_NE(message_of([&] {
                write_file_atomic(d.path / "." / "out.json", "two");
              }).find("already wrote that file"),
              std::string::npos);
    EXPECT_EQ(slurp(d / "out.json"), "one");
  }
  EXPECT_EQ(slurp(d / "in.json"), "input");
  // Without a ledger (library use) a program may rewrite what it read.
  (void)read_text_file(d / "in.json");
  write_file_atomic(d / "in.json", "rewritten");
  EXPECT_EQ(slurp(d / "in.json"), "rewritten");
}

TEST(Files, SameOutputComparesFilesNotSpellings) {
  Dir d;
  EXPECT_TRUE(same_output(d / "a.svg", d.path / "." / "a.svg"));
  EXPECT_FALSE(same_output(d / "a.svg", d / "b.svg"));
  std::ofstream(d / "a.svg") << "x";
  fs::create_hard_link(d / "a.svg", d / "hard.svg");
  EXPECT_TRUE(same_output(d / "a.svg", d / "hard.svg"));
}

TEST(Files, TmpdirThatIsNotAFolderIsNamed) {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", "/nonexistent-roofline", 1);
  const std::string m = message_of([] { temp_directory(); });
  ::unsetenv("TMPDIR");
  EXPECT_EQ(temp_directory(), fs::path("/tmp"));
  if (old) ::setenv("TMPDIR", saved.c_str(), 1);
  EXPECT_NE(m.find("TMPDIR=/nonexistent-roofline: not an existing folder"), std::string::npos) << m;
}
}  // namespace ROOFLINE_UNITY_ID
