// Fuzzes the hardware-catalogue checker (`roofline hw check`, the test that every file in
// data/hardware passes): any bytes as a catalogue file must come back as a list of problems —
// never a crash and never an exception — and a file with no problems must load and summarise.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The checker reads a file (its name is part of the rules): one per fuzzing process.
  static const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                            ("roofline-fuzz-" + std::to_string(::getpid())) /
                                            "fuzz-gpu.json";
  static const bool made = std::filesystem::create_directories(file.parent_path()) || true;
  (void)made;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::vector<std::string> problems;
  try {
    problems = roofline::catalogue_entry_problems(file);
  } catch (...) {
    std::abort();  // the checker reports; it does not throw
  }
  if (problems.empty()) {
    try {
      const auto m = roofline::load_machine_file(file);
      (void)roofline::summarize(m, "fuzz-gpu", file);
      (void)roofline::ridges_per_roof(m.roofs);
    } catch (const roofline::InputError&) {
      std::abort();  // a file the checker accepts must load
    }
  }
  return 0;
}
