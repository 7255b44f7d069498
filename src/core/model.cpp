#include "roofline/model.hpp"

#include <algorithm>
#include <cmath>

namespace roofline {

// docs/model.md §2: P ≤ min(π, β·I).
WorkRate attainable(WorkRate peak, ByteRate bandwidth, Intensity i) {
  return std::min(peak, bandwidth * i);
}
WorkRate attainable(const ComputeRoof& c, const MemoryRoof& m, Intensity i) {
  return attainable(c.peak, m.bandwidth, i);
}
// docs/model.md §2: ridge point (machine balance) I* = π/β.
Intensity ridge(WorkRate peak, ByteRate bandwidth) {
  return peak / bandwidth;
}
Intensity ridge(const ComputeRoof& c, const MemoryRoof& m) {
  return ridge(c.peak, m.bandwidth);
}

// docs/model.md §2: T = W/π + Q/β ⇒ P = 1/(1/π + 1/(β·I)).
WorkRate no_overlap(WorkRate peak, ByteRate bandwidth, Intensity i) {
  if (i.value <= 0) return WorkRate(0);
  return WorkRate(1.0 / (1.0 / peak.value + 1.0 / (bandwidth.value * i.value)));
}

Seconds time_bound(Work w, Bytes q, WorkRate peak, ByteRate bandwidth) {
  return std::max(w / peak, q / bandwidth);
}
Seconds time_no_overlap(Work w, Bytes q, WorkRate peak, ByteRate bandwidth) {
  return w / peak + q / bandwidth;
}

Distance distance(WorkRate performance, WorkRate roof_height) {
  Distance d;
  d.factor = roof_height / performance;
  d.decades = std::log10(d.factor);
  return d;
}

Side side_of_ridge(Intensity i, WorkRate peak, ByteRate bandwidth) {
  return i < ridge(peak, bandwidth) ? Side::memory : Side::compute;
}

}  // namespace roofline
