#pragma once
// Typed errors of the library. The CLI turns them into one clear message and a non-zero exit.
#include <stdexcept>
#include <string>
#include <utility>

namespace roofline {

/// Base of every error the library throws on purpose.
class Error : public std::runtime_error {
 public:
  /// what() is a C string, which would end at a NUL byte of the message (text from Python can
  /// hold one: "unknown machine 'a" for 'a\0b'): a NUL is kept as `\u0000`, the escape
  /// sanitize.hpp writes for it, and the rest of the message with it.
  explicit Error(const std::string& message) : std::runtime_error(nul_escaped(message)) {}
  explicit Error(const char* message) : std::runtime_error(message) {}

 private:
  static std::string nul_escaped(const std::string& text) {
    if (text.find('\0') == std::string::npos) return text;
    std::string out;
    for (const char c : text) {
      if (c == '\0')
        out += "\\u0000";
      else
        out += c;
    }
    return out;
  }
};

/// Bad input from a user: a value, flag, field or file that is wrong. Message names what, where
/// and why (e.g. "points.json: points[2].time: must be > 0 (got -1)").
class InputError : public Error {
 public:
  using Error::Error;
};

/// An output path that names a device, pipe or socket (other than /dev/null): refused, as any
/// InputError. Its message names no way around it that only one caller has: the command line,
/// where `-` writes to standard output, adds that; Python's save() takes no `-`.
class NotARegularFileError : public InputError {
 public:
  NotARegularFileError(const std::string& message, std::string flag)
      : InputError(message), flag_(std::move(flag)) {}
  /// The output's flag ("-o", "--report"; "" when the caller named none).
  const std::string& flag() const { return flag_; }

 private:
  std::string flag_;
};

/// A capability the machine lacks (no PMU, no GPU, no MPI). Callers report it and go on.
class Unavailable : public Error {
 public:
  using Error::Error;
};

/// An output could not be written although it was allowed: a full disk, an I/O error, a
/// closed or broken standard output. Nothing half-written is left in a file's place.
class OutputError : public Error {
 public:
  using Error::Error;
};

/// A long operation stopped because its cancel flag was raised (MeasureOptions::cancel,
/// suite::RunOptions::cancel), at a safe point: nothing half-done is kept.
class Interrupted : public Error {
 public:
  using Error::Error;
};

}  // namespace roofline
