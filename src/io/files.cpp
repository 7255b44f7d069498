// The one way files come in and go out (include/roofline/io.hpp, docs/architecture.md
// "Guarantees"): regular files only, bounded in size and depth on the way in; atomic, onto a
// regular file or a new path, with its mode kept, never onto a read-only file, an input of the
// command or another of its outputs on the way out; standard output checked for errors.
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {
namespace fs = std::filesystem;

namespace {

/// A path as it appears in a message: one line, no control or bidirectional characters.
std::string shown(const fs::path& p) {
  return terminal_safe(p.string());
}

std::string label(const fs::path& path, const std::string& what) {
  return (what.empty() ? "" : what + " ") + shown(path);
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::string mode_text(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// ---- The ledger of one command's files ----------------------------------------------------

struct FileKey {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const FileKey&) const = default;
};

struct LedgerEntry {
  FileKey key;
  std::string name;
};

struct Ledger {
  std::mutex mutex;
  bool active = false;
  std::vector<LedgerEntry> inputs;
  std::vector<LedgerEntry> written;
};

Ledger& ledger() {
  static Ledger l;
  return l;
}

void note_input(const struct stat& st, const fs::path& path) {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  if (!l.active) return;
  const FileKey key{st.st_dev, st.st_ino};
  for (const auto& e : l.inputs)
    if (e.key == key) return;
  l.inputs.push_back({key, path.string()});
}

/// Refuses an existing target that the command read or already wrote.
void check_ledger(const struct stat& st, const std::string& who) {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  if (!l.active) return;
  const FileKey key{st.st_dev, st.st_ino};
  for (const auto& e : l.inputs)
    if (e.key == key)
      throw InputError(who + ": is also an input of this command (read as " + shown(e.name) +
                       "); refusing to replace it: write the output elsewhere");
  for (const auto& e : l.written)
    if (e.key == key)
      throw InputError(who + ": this command already wrote that file (as " + shown(e.name) +
                       "); two outputs cannot share a file: give each its own path");
}

void note_written(const fs::path& path) {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  if (!l.active) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) l.written.push_back({{st.st_dev, st.st_ino}, path.string()});
}

// ---- Inputs -------------------------------------------------------------------------------

/// Opens `path` for reading after checking, without opening it, that it is a regular file (a
/// device is not even opened: opening some has effects), then checks the descriptor again.
int open_regular(const fs::path& path, struct stat& st) {
  const std::string who = shown(path);
  refuse_nul(path, who);
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) throw InputError(who + ": no such file");
    throw InputError(who + ": cannot be read (" + std::strerror(err) + ")");
  }
  if (S_ISDIR(st.st_mode)) throw InputError(who + ": is a directory, expected a file");
  if (!S_ISREG(st.st_mode))
    throw InputError(who + ": is " + kind_of(st.st_mode) + ", expected a regular file");
  // O_NONBLOCK: should the path have become a FIFO since, opening it does not wait.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError(who + ": cannot be read (" + std::strerror(errno) + ")");
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(who + ": changed while it was opened; expected a regular file");
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

void line_and_column(const std::string& text, size_t offset, size_t& line, size_t& column) {
  line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

/// Refuses JSON nested deeper than kMaxJsonDepth before any parser or later recursion sees it.
void check_json_depth(const std::string& text, const std::string& origin) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        size_t line = 0, column = 0;
        line_and_column(text, i, line, column);
        throw InputError(origin + ": line " + std::to_string(line) + ", column " +
                         std::to_string(column) + ": nested deeper than " +
                         std::to_string(kMaxJsonDepth) +
                         " levels of arrays and objects; refused (documents nest a few levels)");
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// ---- Outputs ------------------------------------------------------------------------------

bool may_write(const fs::path& path, const struct stat& st) {
  // As root every permission check passes, so the mode itself decides: a file nobody may
  // write (0444) is not ours to replace. Otherwise the effective ids decide, as for open().
  if (::geteuid() == 0) return (st.st_mode & 0222) != 0;
  return ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0;
}

/// Why the file at `path` (an existing regular file in folder `dir`) cannot be renamed over
/// although its mode lets it be written, or "": in a sticky folder (/tmp) only the file's
/// owner, the folder's owner or root may replace it, and an immutable or append-only file
/// (chattr +i, +a) nobody may. Found after the measuring, such a refusal cost the whole run.
std::string why_not_replaceable(const fs::path& path, const struct stat& st,
                                const struct stat& dir_st) {
  const uid_t me = ::geteuid();
  if ((dir_st.st_mode & S_ISVTX) != 0 && me != 0 && st.st_uid != me && dir_st.st_uid != me)
    return "belongs to another user in a sticky folder, where only its owner may replace it";
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
  if (fd < 0) return "";  // unreadable: the rename will say
  int flags = 0;
  const bool known = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  ::close(fd);
  if (known && (flags & FS_IMMUTABLE_FL) != 0) return "is immutable (chattr +i)";
  if (known && (flags & FS_APPEND_FL) != 0) return "is append-only (chattr +a)";
  return "";
}

}  // namespace

std::string exact_binary_size_text(std::size_t bytes) {
  if (bytes % (std::size_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

void refuse_nul(const fs::path& path, const std::string& who) {
  if (path.native().find('\0') != std::string::npos)
    throw InputError(who + ": a file name with a NUL byte (\\0) names no file");
}

namespace {

/// Whether `path` is the null device itself (a character device 1:3, not a link to it): the
/// one device an output may name — `-o /dev/null` discards the output, as users expect of it.
/// Any other device is refused (as root, renaming over /dev/null replaced the device).
bool is_null_device(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3);
}

/// The rules for a target path. Returns whether it exists (and its lstat in `st`).
bool check_target(const fs::path& path, const std::string& who, struct stat& st,
                  const std::string& what) {
  if (path.empty()) throw InputError((who.empty() ? "output" : who) + ": an empty file name");
  refuse_nul(path, who);
  if (is_null_device(path)) return true;  // discarded: nothing is replaced
  const fs::path dir = folder_of(path);
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0)
    throw InputError(who + ": folder '" + shown(dir) + "' does not exist");
  if (!S_ISDIR(dst.st_mode))
    throw InputError(who + ": '" + shown(dir) + "' is a file, not a folder");
  // The file is written as a temporary in its folder and renamed: a folder this process may not
  // write (its mode, or a read-only file system, which stops root too) is refused here, before
  // a command spends its time measuring.
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
    const int err = errno;
    throw InputError(who + ": cannot write in folder '" + shown(dir) + "' (" + std::strerror(err) +
                     ")");
  }
  if (path.filename().empty() || path.filename() == "." || path.filename() == "..")
    throw InputError(who + ": is a directory, expected a file path");
  if (::lstat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) return false;
    throw InputError(who + ": cannot be written (" + std::strerror(err) + ")");
  }
  if (S_ISDIR(st.st_mode)) throw InputError(who + ": is a directory, expected a file path");
  if (S_ISLNK(st.st_mode))
    throw InputError(who +
                     ": is a symbolic link; refusing to replace it (write to the file it "
                     "points to, or to a new path)");
  if (!S_ISREG(st.st_mode))
    throw NotARegularFileError(who + ": is " + kind_of(st.st_mode) +
                                   ", not a regular file; refusing to replace it (outputs go to "
                                   "regular files or new paths)",
                               what);
  if (!may_write(path, st))
    throw InputError(who + ": is read-only (mode " + mode_text(st.st_mode) +
                     "); refusing to replace it (make it writable first, or write elsewhere)");
  if (const std::string why = why_not_replaceable(path, st, dst); !why.empty())
    throw InputError(who + ": " + why + "; refusing to replace it (write elsewhere)");
  check_ledger(st, who);
  return true;
}

[[noreturn]] void fail_write(const std::string& who, const char* step, int err) {
  // Out of room or a device error: the output could not be written (OutputError); anything
  // else names a path that cannot take the output (InputError).
  const std::string msg = who + ": " + step + " (" + std::strerror(err) + ")";
  if (err == ENOSPC || err == EDQUOT || err == EIO || err == EFBIG || err == EPIPE)
    throw OutputError(msg + "; the previous file, if any, is unchanged");
  throw InputError(msg);
}

}  // namespace

FileLedger::FileLedger() {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  l.active = true;
  l.inputs.clear();
  l.written.clear();
}

FileLedger::~FileLedger() {
  Ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  l.active = false;
  l.inputs.clear();
  l.written.clear();
}

void declare_input(const fs::path& path) {
  struct stat st {};
  if (path.empty() || path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  note_input(st, path);
}

int open_input_file(const fs::path& path) {
  struct stat st {};
  const int fd = open_regular(path, st);
  note_input(st, path);
  return fd;
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ea, eb, ee;
  const fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
  if (!ea && !eb && ca == cb) return true;
  // A hard link is another path to the same inode.
  return fs::equivalent(a, b, ee) && !ee;
}

std::string read_text_file(const fs::path& path, std::size_t max_bytes) {
  struct stat st {};
  const int fd = open_regular(path, st);
  note_input(st, path);
  // A file whose size is known to be past the limit is refused unread (a 1 GiB file in the
  // catalogue's folder had been read up to the limit at every name lookup); one that grows while
  // read is caught below.
  if (st.st_size > 0 && static_cast<std::size_t>(st.st_size) > max_bytes) {
    ::close(fd);
    throw InputError(shown(path) + ": larger than " + exact_binary_size_text(max_bytes) +
                     ", the limit for this input; refused");
  }
  std::string text;
  if (st.st_size > 0) text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw InputError(shown(path) + ": read error (" + std::strerror(err) + ")");
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      throw InputError(shown(path) + ": larger than " + exact_binary_size_text(max_bytes) +
                       ", the limit for this input; refused");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

namespace {

/// The DOM that nlohmann::json::parse builds, with each object's keys checked as they come: a
/// key given twice in one object ("time": 1, ..., "time": 2) would silently keep the last, and
/// which was meant is the writer's to say; where `order` asks, the keys of the objects it names
/// are recorded in the text's order. A SAX handler rather than parse's callback: the callback's
/// parser scans the whole enclosing array at the end of every object (for a value the callback
/// discarded), quadratic in a points document's points (100k points took 12 s).
class KeyCheckingSax {
 public:
  using json = nlohmann::json;
  KeyCheckingSax(json& result, const std::string& origin, JsonKeyOrder* order)
      : dom_(result, true), origin_(origin), order_(order) {}

  bool null() { return value_begins(), dom_.null(); }
  bool boolean(bool v) { return value_begins(), dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value_begins(), dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) {
    return value_begins(), dom_.number_unsigned(v);
  }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return value_begins(), dom_.number_float(v, s);
  }
  bool string(json::string_t& v) { return value_begins(), dom_.string(v); }
  bool binary(json::binary_t& v) { return value_begins(), dom_.binary(v); }
  bool start_object(std::size_t n) {
    value_begins();
    keys_.emplace_back();
    // Recorded when the object is the `under` object of an element of the top-level `array`:
    // two keys open above it, the array's ("points") and the element's ("traffic").
    recording_.push_back(order_ && depth_ == 3 && last_key_.size() == 2 &&
                         last_key_[0] == order_->array && last_key_[1] == order_->under);
    if (recording_.back()) order_->keys.back().clear();
    last_key_.emplace_back();
    ++depth_;
    return dom_.start_object(n);
  }
  bool key(json::string_t& k) {
    if (!keys_.back().insert(k).second) {
      const std::string& parent = last_key_.size() >= 2 ? last_key_[last_key_.size() - 2] : "";
      throw InputError(origin_ + ": the key '" + k + "' is given twice in one object" +
                       (parent.empty() ? std::string() : " (under '" + parent + "')") +
                       ": which value is meant?");
    }
    last_key_.back() = k;
    if (recording_.back()) order_->keys.back().push_back(k);
    return dom_.key(k);
  }
  bool end_object() {
    keys_.pop_back();
    recording_.pop_back();
    last_key_.pop_back();
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    value_begins();
    ++depth_;
    return dom_.start_array(n);
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return dom_.parse_error(position, token, e);  // throws it, as parse does
  }

 private:
  /// A value of any kind begins: an element of the top-level `array` (inside the document's
  /// object and that array, nothing else open) takes the next place in `keys`.
  void value_begins() {
    if (order_ && depth_ == 2 && last_key_.size() == 1 && last_key_[0] == order_->array)
      order_->keys.emplace_back();
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const std::string& origin_;
  JsonKeyOrder* order_;
  int depth_ = 0;                            // the containers open
  std::vector<std::set<std::string>> keys_;  // each open object's keys so far
  std::vector<bool> recording_;              // whether each open object's keys are recorded
  // The last key of each open object: an object's own key is its parent's last one (an array
  // between them keeps the key of the array).
  std::vector<std::string> last_key_;
};

}  // namespace

void refuse_unreadable_encoding(std::string_view head, const std::string& origin,
                                const std::string& reader, const std::string& converted) {
  auto refuse = [&](const std::string& encoding, const std::string& how) {
    throw InputError(origin + ": the file is " + encoding + " text (" + how + "); " + reader +
                     " UTF-8 (or ASCII): convert it first, e.g. iconv -f " + encoding +
                     " -t UTF-8 '" + origin + "' > " + converted);
  };
  auto starts = [&](std::string_view bytes) { return head.substr(0, bytes.size()) == bytes; };
  // The UTF-32 LE mark begins with the UTF-16 LE one, so it is tested first.
  using namespace std::string_view_literals;
  if (starts("\xFF\xFE\x00\x00"sv)) refuse("UTF-32LE", "byte-order mark FF FE 00 00");
  if (starts("\x00\x00\xFE\xFF"sv)) refuse("UTF-32BE", "byte-order mark 00 00 FE FF");
  if (starts("\xFF\xFE"sv)) refuse("UTF-16LE", "byte-order mark FF FE");
  if (starts("\xFE\xFF"sv)) refuse("UTF-16BE", "byte-order mark FE FF");
  // Without a mark: ASCII characters alternate with NUL bytes from the first one on.
  const std::size_t nul = head.find('\0');
  if (head.size() >= 4 && nul <= 1 && (head[nul + 2] == '\0' || (nul == 1 && head[3] == '\0')))
    refuse(nul == 0 ? "UTF-16BE" : "UTF-16LE",
           "NUL bytes between the characters, no byte-order mark");
}

nlohmann::json parse_json(const std::string& text, const std::string& origin, JsonKeyOrder* order) {
  refuse_unreadable_encoding(text, origin, "JSON documents are read as", "converted.json");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(origin + ": empty file, expected a JSON document");
  // The parser ends its input at a NUL byte: what follows one would be ignored unread.
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw InputError(origin + ": a NUL byte at byte " + std::to_string(nul) +
                     ": not a JSON document (JSON text holds none)");
  check_json_depth(text, origin);
  nlohmann::json result;
  KeyCheckingSax sax(result, origin, order);
  try {
    nlohmann::json::sax_parse(text, &sax);
    return result;
  } catch (const nlohmann::json::parse_error& e) {
    // Translate the byte offset into line and column for the message.
    const size_t offset = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    size_t line = 1, column = 1;
    line_and_column(text, offset, line, column);
    std::string what = e.what();
    const auto pos = what.find("syntax error");
    if (pos != std::string::npos) what = what.substr(pos);
    throw InputError(origin + ": line " + std::to_string(line) + ", column " +
                     std::to_string(column) + ": malformed JSON (" + what + ")");
  } catch (const nlohmann::json::exception& e) {
    // Not a syntax error but a value the parser cannot hold, e.g. a number beyond double's
    // range ("4e800": out_of_range.406).
    std::string what = e.what();
    const auto pos = what.find(']');
    if (pos != std::string::npos) what = what.substr(pos + 2 <= what.size() ? pos + 2 : pos);
    throw InputError(origin + ": malformed JSON (" + what + ")");
  }
}

void check_writable_path(const fs::path& path, const std::string& what) {
  struct stat st {};
  check_target(path, label(path, what), st, what);
}

namespace {
// The disposition is the process's: scopes on several threads share one ignore (each restoring
// its own would leave SIG_IGN behind when two overlap).
std::mutex& file_size_signal_guard() {
  static std::mutex m;
  return m;
}
int file_size_signal_scopes = 0;
struct sigaction file_size_signal_before {};
}  // namespace

FileSizeSignalIgnored::FileSizeSignalIgnored() {
  const std::lock_guard<std::mutex> lock(file_size_signal_guard());
  if (file_size_signal_scopes++ > 0) return;
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGXFSZ, &ignore, &file_size_signal_before);
}

FileSizeSignalIgnored::~FileSizeSignalIgnored() {
  const std::lock_guard<std::mutex> lock(file_size_signal_guard());
  if (--file_size_signal_scopes == 0) ::sigaction(SIGXFSZ, &file_size_signal_before, nullptr);
}

EndingSignalsHeld::EndingSignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&held, sig);
  ::pthread_sigmask(SIG_BLOCK, &held, &old_);
}

EndingSignalsHeld::~EndingSignalsHeld() {
  ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

bool EndingSignalsHeld::pending() {
  sigset_t waiting;
  sigemptyset(&waiting);
  if (::sigpending(&waiting) != 0) return false;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    if (sigismember(&waiting, sig) == 1) return true;
  return false;
}

void write_file_atomic(const fs::path& path, const std::string& content, const std::string& what) {
  const std::string who = label(path, what);
  struct stat st {};
  const bool exists = check_target(path, who, st, what);
  if (is_null_device(path)) return;  // -o /dev/null: the output is discarded
  const fs::path dir = folder_of(path);
  // The temporary name stays within NAME_MAX whatever the target's name.
  std::string leaf = path.filename().string();
  if (leaf.size() > 100) leaf.resize(100);
  std::random_device rd;
  const fs::path tmp =
      dir / ("." + leaf + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd()));
  const mode_t create_mode = exists ? (st.st_mode & 0777) : 0666;  // new files: 0666 & ~umask
  const EndingSignalsHeld held;
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, create_mode);
  if (fd < 0) {
    const int err = errno;
    throw InputError(who + ": cannot write in folder '" + shown(dir) + "' (" + std::strerror(err) +
                     ")");
  }
  std::error_code ec;
  auto abandon = [&](const char* step, int err) {
    ::close(fd);
    fs::remove(tmp, ec);
    fail_write(who, step, err);
  };
  if (exists) {
    // The replacement keeps the file's mode exactly (umask does not apply to it) and, when
    // root replaces another user's file, its owner.
    if (::geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0) &&
        ::fchown(fd, st.st_uid, st.st_gid) != 0)
      abandon("cannot keep the file's owner", errno);
    if (::fchmod(fd, st.st_mode & 07777 & ~static_cast<mode_t>(S_ISUID | S_ISGID)) != 0)
      abandon("cannot keep the file's mode", errno);
  }
  const FileSizeSignalIgnored no_size_signal;
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon("write failed", errno);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) abandon("write failed", errno);
  if (::close(fd) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    fail_write(who, "write failed", err);
  }
  // The target may have changed while we wrote: check it again just before replacing it.
  try {
    struct stat again {};
    check_target(path, who, again, what);
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    fail_write(who, "cannot replace", err);
  }
  note_written(path);
}

fs::path find_program(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(end > start ? dirs.substr(start, end - start) : ".") / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

bool same_output(const fs::path& a, const fs::path& b) {
  if (is_null_device(a) && is_null_device(b)) return false;  // both discarded: nothing shared
  struct stat sa {
  }, sb{};
  const bool ea = ::stat(a.c_str(), &sa) == 0, eb = ::stat(b.c_str(), &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return false;
  if (a.filename() != b.filename()) return false;
  struct stat da {
  }, db{};
  if (::stat(folder_of(a).c_str(), &da) != 0 || ::stat(folder_of(b).c_str(), &db) != 0)
    return false;
  return da.st_dev == db.st_dev && da.st_ino == db.st_ino;
}

void write_stdout(const std::string& text) {
  errno = 0;
  const size_t n = std::fwrite(text.data(), 1, text.size(), stdout);
  const bool flushed = std::fflush(stdout) == 0;
  if (n != text.size() || !flushed || std::ferror(stdout)) {
    const int err = errno;
    std::clearerr(stdout);
    throw OutputError(std::string("standard output: write failed") +
                      (err != 0 ? std::string(" (") + std::strerror(err) + ")" : std::string()) +
                      "; the output is incomplete");
  }
}

fs::path temp_directory() {
  const char* env = std::getenv("TMPDIR");
  const bool given = env && *env;
  const std::string dir = given ? env : "/tmp";
  const std::string who = given ? "TMPDIR=" + terminal_safe(dir) : std::string("/tmp");
  const std::string fix = given ? "set TMPDIR to a writable folder, or unset it for /tmp"
                                : "set TMPDIR to a writable folder";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(who + ": not an existing folder, so no temporary file can be made there (" +
                     fix + ")");
  // A read-only mount or a folder of another user's: found before the work, not after it.
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(who + ": no temporary file can be made there (" + std::strerror(errno) + "; " +
                     fix + ")");
  // access() grants root everything, and a mount may refuse what its modes allow (sysfs, proc):
  // a folder is made and removed to be sure. One that is full is left to the write that fills
  // it (an output that could not be written, exit 4), not called bad input.
  std::string probe = (fs::path(dir) / ".roofline-probe-XXXXXX").string();
  if (::mkdtemp(probe.data()) == nullptr) {
    const int err = errno;
    if (err != ENOSPC && err != EDQUOT)
      throw InputError(who + ": no temporary file can be made there (" + std::strerror(err) + "; " +
                       fix + ")");
  } else {
    ::rmdir(probe.c_str());
  }
  return dir;
}

}  // namespace roofline
