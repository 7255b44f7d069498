#pragma once
// The Roofline model itself (docs/model.md §2). Pure functions, no I/O.
//
//   attainable P(I) = min(π, β·I)                 (perfect overlap: T ≥ max(W/π, Q/β))
//   ridge point     I* = π / β                    (machine balance)
//   no-overlap      P(I) = 1 / (1/π + 1/(β·I))    (T = W/π + Q/β: a curve below the roof)
//   attainment      = P / attainable
// Williams, Waterman, Patterson, "Roofline", CACM 52(4), 2009; docs/model.md §2.
#include "roofline/roof.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// min(π, β·I). I must be ≥ 0.
WorkRate attainable(WorkRate peak, ByteRate bandwidth, Intensity i);
WorkRate attainable(const ComputeRoof& c, const MemoryRoof& m, Intensity i);
/// π/β.
Intensity ridge(WorkRate peak, ByteRate bandwidth);
Intensity ridge(const ComputeRoof& c, const MemoryRoof& m);
/// 1 / (1/π + 1/(β·I)): the attained rate when compute and data movement do not overlap.
WorkRate no_overlap(WorkRate peak, ByteRate bandwidth, Intensity i);
/// Lower bound on time: max(W/π, Q/β) (perfect overlap).
Seconds time_bound(Work w, Bytes q, WorkRate peak, ByteRate bandwidth);
/// Time when nothing overlaps: W/π + Q/β.
Seconds time_no_overlap(Work w, Bytes q, WorkRate peak, ByteRate bandwidth);

/// Vertical distance on a log chart from an attained rate up to a roof height.
struct Distance {
  double factor = 0;   ///< roof / P (> 1: headroom; < 1: the point is above the roof)
  double decades = 0;  ///< log10(factor)
};
Distance distance(WorkRate performance, WorkRate roof_height);

/// Which side of the ridge an intensity is on.
enum class Side { memory, compute };
Side side_of_ridge(Intensity i, WorkRate peak, ByteRate bandwidth);

}  // namespace roofline
