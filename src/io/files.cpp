#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

namespace roofline {

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(path.string() + ": no such file");
  if (std::filesystem::is_directory(status))
    throw InputError(path.string() + ": is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot be read (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path.string() + ": read error");
  return ss.str();
}

nlohmann::json parse_json(const std::string& text, const std::string& origin) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(origin + ": empty file, expected a JSON document");
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Translate the byte offset into line and column for the message.
    const size_t offset = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
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

void check_writable_path(const std::filesystem::path& path, const std::string& what) {
  namespace fs = std::filesystem;
  const std::string who = (what.empty() ? "" : what + " ") + path.string();
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(who + ": folder '" + dir.string() + "' does not exist");
  if (fs::is_directory(path, ec)) throw InputError(who + ": is a directory, expected a file path");
}

void write_file_atomic(const std::filesystem::path& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(path.string() + ": folder '" + dir.string() + "' does not exist");
  if (fs::is_directory(path, ec))
    throw InputError(path.string() + ": is a directory, expected a file path");
  std::random_device rd;
  const fs::path tmp = dir / ("." + path.filename().string() + ".tmp." +
                              std::to_string(::getpid()) + "." + std::to_string(rd()));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(path.string() + ": cannot write (" + std::strerror(errno) + ")");
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      fs::remove(tmp, ec);
      throw InputError(path.string() + ": write failed (" + std::strerror(err) + ")");
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    throw InputError(path.string() + ": write failed (" + std::strerror(err) + ")");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    throw InputError(path.string() + ": cannot replace (" + std::strerror(err) + ")");
  }
}

}  // namespace roofline
