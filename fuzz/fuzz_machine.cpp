// Fuzzes the machine-document reader (measured machines and hardware catalogue entries share
// it): malformed input must end in InputError, and anything accepted must survive a round trip.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  roofline::MachineDocument m;
  try {
    m = roofline::machine_from_json(roofline::parse_json(text, "fuzz"), "fuzz");
  } catch (const roofline::InputError&) {
    return 0;
  }
  try {
    const auto again = roofline::machine_from_json(roofline::machine_to_json(m), "again");
    if (again.roofs.compute.size() != m.roofs.compute.size()) std::abort();
    if (!m.roofs.compute.empty()) (void)m.roofs.select_compute("");
    if (!m.roofs.memory.empty()) (void)m.roofs.select_memory("");
  } catch (const roofline::InputError&) {
    std::abort();  // a document we accepted and wrote must read back
  }
  return 0;
}
