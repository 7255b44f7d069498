// Fuzzes the points-document reader and the diagnosis of whatever it accepts.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  roofline::PointsDocument doc;
  try {
    doc = roofline::points_from_json(roofline::parse_json(text, "fuzz"), "fuzz");
  } catch (const roofline::InputError&) {
    return 0;
  }
  roofline::RoofSet roofs;
  roofs.name = "fuzz";
  roofline::ComputeRoof c;
  c.name = "fp32";
  c.precision = "fp32";
  c.peak = roofline::WorkRate(19.5e12);
  roofline::MemoryRoof m;
  m.level = "DRAM";
  m.bandwidth = roofline::ByteRate(2e12);
  roofs.compute.push_back(c);
  roofs.memory.push_back(m);
  for (auto p : doc.points) {
    p.precision.clear();
    for (auto& t : p.traffic) t.level.clear();
    try {
      const auto d = roofline::diagnose(p, roofs);
      if (!(d.attainable.value <= c.peak.value)) std::abort();  // never above a roof
      if (std::isnan(d.attainment)) std::abort();
    } catch (const roofline::InputError&) {
    }
  }
  return 0;
}
