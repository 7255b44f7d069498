#pragma once
// Typed errors of the library. The CLI turns them into one clear message and a non-zero exit.
#include <stdexcept>
#include <string>

namespace roofline {

/// Base of every error the library throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input from a user: a value, flag, field or file that is wrong. Message names what, where
/// and why (e.g. "points.json: points[2].time: must be > 0 (got -1)").
class InputError : public Error {
 public:
  using Error::Error;
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
