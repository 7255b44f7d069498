#pragma once
// Roof sets for tests, with the datasheet figures the seed uses (docs/model.md §8).
#include "roofline/roof.hpp"

namespace roofline::test {

inline ComputeRoof compute(std::string name, std::string precision, double peak) {
  ComputeRoof c;
  c.name = std::move(name);
  c.precision = std::move(precision);
  c.peak = WorkRate(peak);
  return c;
}
inline MemoryRoof memory(std::string level, std::string kind, double bw) {
  MemoryRoof m;
  m.level = std::move(level);
  m.kind = std::move(kind);
  m.bandwidth = ByteRate(bw);
  return m;
}

/// A100 80GB SXM: fp32 19.5 TFLOP/s, fp16 tensor 312, HBM 2.039 TB/s; an L2 of ~5 TB/s.
inline RoofSet a100() {
  RoofSet s;
  s.name = "a100";
  s.compute = {compute("fp64", "fp64", 9.7e12), compute("fp32", "fp32", 19.5e12),
               compute("fp16 tensor", "fp16", 312e12)};
  s.memory = {memory("L2", "cache", 5.0e12), memory("HBM", "memory", 2.039e12)};
  return s;
}

/// The seed's simplified A100: 19.5 TFLOP/s fp32, 2.0 TB/s.
inline RoofSet seed_a100() {
  RoofSet s;
  s.name = "seed-a100";
  s.compute = {compute("fp32", "fp32", 19.5e12), compute("fp16 tensor", "fp16", 312e12)};
  s.memory = {memory("HBM", "memory", 2.0e12)};
  return s;
}

inline RoofSet h100() {
  RoofSet s;
  s.name = "h100";
  s.compute = {compute("fp32", "fp32", 67e12), compute("fp16 tensor", "fp16", 989.4e12)};
  s.memory = {memory("HBM", "memory", 3.35e12)};
  return s;
}

}  // namespace roofline::test
