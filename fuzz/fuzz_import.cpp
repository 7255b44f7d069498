// Fuzzes the profiler importers (Nsight Compute CSV, likwid-perfctr CSV, DCGM dmon logs): the
// first byte picks the format. Bad input must end in InputError; accepted points must be valid.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roofline/error.hpp"
#include "roofline/import.hpp"

namespace {
roofline::RoofSet fuzz_roofs() {
  roofline::RoofSet r;
  r.name = "fuzz-gpu";
  roofline::ComputeRoof c;
  c.name = "fp32";
  c.precision = "fp32";
  c.peak = roofline::WorkRate(67e12);
  r.compute.push_back(c);
  c.name = "bf16 tensor";
  c.precision = "bf16";
  c.peak = roofline::WorkRate(989e12);
  r.compute.push_back(c);
  roofline::MemoryRoof m;
  m.level = "HBM";
  m.bandwidth = roofline::ByteRate(3.35e12);
  r.memory.push_back(m);
  return r;
}

void check(const roofline::ImportResult& r) {
  for (const auto& p : r.doc.points) {
    try {
      p.validate();
    } catch (const roofline::InputError&) {
      std::abort();  // an importer must not hand out a point that fails validation
    }
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  static const roofline::RoofSet roofs = fuzz_roofs();
  try {
    switch (data[0] % 3) {
      case 0:
        check(roofline::import_ncu(text, "fuzz.csv"));
        break;
      case 1:
        check(roofline::import_likwid(text, "fuzz.csv"));
        break;
      default:
        check(roofline::import_dcgm(text, "fuzz.txt", roofs).result);
        break;
    }
  } catch (const roofline::InputError&) {
  }
  return 0;
}
