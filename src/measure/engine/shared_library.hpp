// Opening a shared library at run time (dlopen), for the backends whose libraries are optional
// at run time: the CUDA backend's toolkit and driver libraries, and OpenBLAS for `roofline run`
// (loaded by the run that needs it, so that no other command starts its thread pool).
#pragma once

#include <string>
#include <vector>

namespace roofline {

/// A library opened with dlopen: the handle (null when none loaded), the path that loaded, and
/// for each path tried in vain the loader's message.
struct OpenedLibrary {
  void* handle = nullptr;
  std::string path;
  std::vector<std::string> failures;
  /// "libX.so.N not found (tried: a: msg; b: msg ...)" when nothing loaded.
  std::string why_not(const std::string& soname) const;
};

/// dlopen (RTLD_NOW | RTLD_LOCAL) of each candidate in turn until one loads; a candidate with a
/// slash that does not exist is noted without asking the loader.
OpenedLibrary open_library(const std::vector<std::string>& candidates);

}  // namespace roofline
