#pragma once
// One memory kernel (access mix) at one working set on a team, as the memory step samples it
// (memory_step.cpp); in a header of its own so that tests can pin what a sample counts to the
// bytes the kernel was given.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "measure/cpu/steps.hpp"
#include "measure/engine/sampler.hpp"
#include "measure/engine/team.hpp"
#include "roofline/cpu_analysis.hpp"

namespace roofline::cpu {

using engine::Sample;

struct Arrays {
  std::vector<std::array<double*, 3>> per_thread;
  size_t bytes_per_array = 0;
};
// Per-thread arrays for working set `total` (all threads, all arrays): array k of thread i at
// the chunk start plus k × (array + 320 bytes) so that arrays do not alias at 4 KiB strides.
inline Arrays layout(const Buffer& buf, size_t chunk, int threads, int arrays, double total,
                     size_t step) {
  Arrays a;
  const double per_thread = total / threads;
  size_t per_array = static_cast<size_t>(per_thread / arrays);
  per_array = std::max(step, per_array / step * step);
  const size_t room = (chunk - 4096) / static_cast<size_t>(arrays);
  if (per_array + 320 > room) per_array = (room - 320) / step * step;
  a.bytes_per_array = per_array;
  for (int i = 0; i < threads; ++i) {
    unsigned char* base = buf.data + static_cast<size_t>(i) * chunk;
    std::array<double*, 3> p{};
    for (int k = 0; k < 3; ++k)
      p[static_cast<size_t>(k)] = reinterpret_cast<double*>(
          base + static_cast<size_t>(std::min(k, arrays - 1)) * (per_array + 320));
    a.per_thread.push_back(p);
  }
  return a;
}

/// A memory kernel (access mix) at one working set on a team: per-thread arrays in the shared
/// buffer, calibrated so that one sample lasts about `sample_s` (at least one pass).
///
/// A working set of at least 4 × the last-level cache (`llc`; DRAM and the sweep's largest
/// sizes) is not timed a whole pass per sample: a pass of a 400 MB working set lasts 10–30 ms,
/// so a phase would get few samples of it and the cache levels little of each round. Its arrays
/// are cut into `parts` consecutive slices, each lasting about `sample_s` and at least 2 × the
/// last-level cache over all threads, and the samples take the slices in turn. Each visit first
/// runs the slice before its first timed one, untimed: that evicts whatever the measurement
/// before it left in the cache (the tail of another mix's pass over the same buffer, which would
/// otherwise be hits inside a timed slice), and every timed slice
/// was last touched at least half the working set ago (≥ 2 × the last-level cache), so it
/// streams from memory as a whole pass does.
struct MixJob {
  engine::ThreadTeam& team;
  const MemoryKernel& kernel;
  Arrays arrays;
  bool warm;  // visits begin with one untimed pass (cache-sized working sets)
  int passes = 1;
  int parts = 1;          // slices per pass; > 1: a sample is one slice, in turn
  size_t part_bytes = 0;  // bytes of each array in one slice
  int next_part = 0;
  double working_set = 0;

  MixJob(engine::ThreadTeam& t, const Buffer& buf, size_t chunk, const MemoryKernel& k,
         double total, double sample_s, bool warm_up, double llc = 0)
      : team(t),
        kernel(k),
        arrays(layout(buf, chunk, t.size(), k.arrays, total,
                      static_cast<size_t>(k.bytes_per_array_per_iteration))),
        warm(warm_up) {
    working_set = double(arrays.bytes_per_array) * k.arrays * team.size();
    // A memory-sized working set (≥ 4 × the LLC) is timed by one pass: the buffer was paged in
    // by its first touch, no level is to be filled, and its pass time only sets how many
    // slices a pass is cut into (a preempted pass gives more slices, each still ≥ 2 × the
    // LLC). Each pass of a 2 GB set takes ~60 ms. A cache-sized one is brought into its level
    // first, and the faster of two passes taken (one preempted pass would shorten samples).
    const bool memory_sized = !warm && llc > 0 && working_set >= 4 * llc;
    if (!memory_sized) pass(1);
    const double t1 = memory_sized ? pass(1) : std::min(pass(1), pass(1));
    passes = std::clamp(static_cast<int>(std::lround(sample_s / std::max(t1, 1e-7))), 1, 1 << 20);
    part_bytes = arrays.bytes_per_array;
    const auto step = static_cast<size_t>(k.bytes_per_array_per_iteration);
    // Slices of at least 2 × the LLC over all threads, after each array's share is rounded
    // down to whole iterations (which loses less than one step per array and thread).
    const double rounding = double(step) * k.arrays * team.size();
    const int most_parts = llc > 0 ? static_cast<int>(working_set / (2 * llc + rounding)) : 1;
    if (memory_sized && most_parts >= 2 && t1 > 2 * sample_s) {
      parts = std::clamp(static_cast<int>(t1 / sample_s), 2, most_parts);
      part_bytes = arrays.bytes_per_array / static_cast<size_t>(parts) / step * step;
      passes = 1;
    }
  }
  double pass(int n) {
    return team.run([&](int id) {
      double* const* arrs = arrays.per_thread[static_cast<size_t>(id)].data();
      for (int p = 0; p < n; ++p) kernel.run(arrs, arrays.bytes_per_array);
    });
  }
  /// Slice k of every thread's arrays.
  double slice(int k) {
    const size_t offset = static_cast<size_t>(k) * part_bytes;
    return team.run([&](int id) {
      std::array<double*, 3> at = arrays.per_thread[static_cast<size_t>(id)];
      for (auto& a : at)
        a = reinterpret_cast<double*>(reinterpret_cast<unsigned char*>(a) + offset);
      kernel.run(at.data(), part_bytes);
    });
  }
  double iterations_per_sample() const {
    return double(part_bytes) / kernel.bytes_per_array_per_iteration * passes * team.size();
  }
  engine::Visit visit() {
    return {declaration_of(kernel), [this](int n, std::vector<Sample>& out) {
              if (warm) pass(1);  // another measurement ran in between: refill this level
              if (parts > 1) slice((next_part + parts - 1) % parts);  // evicts the one before
              for (int i = 0; i < n; ++i) {
                if (parts == 1) {
                  out.push_back({iterations_per_sample(), pass(passes)});
                  continue;
                }
                out.push_back({iterations_per_sample(), slice(next_part)});
                next_part = (next_part + 1) % parts;
              }
            }};
  }
};

}  // namespace roofline::cpu
