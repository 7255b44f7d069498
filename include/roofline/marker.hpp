#pragma once
// Roofline marker API (C++): an RAII region over the C API in marker.h.
//
//   {
//     roofline::Region r("solver");
//     r.add_flops(2.0 * n);   // W, FLOP
//     r.add_bytes(12.0 * n);  // Q, bytes
//     ...                     // T is the region's wall time
//   }
//
// Regions record only under `roofline profile` or with ROOFLINE_MARKERS=1; otherwise each call is
// one branch. Thread-safe; results are written at program exit (see marker.h).
#include "roofline/marker.h"

namespace roofline {

class Region {
 public:
  explicit Region(const char* name) noexcept : name_(name), handle_(roofline_region_begin(name)) {}
  ~Region() { roofline_region_end(name_); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  /// Declared work of this region in FLOP (FMA = 2).
  void add_flops(double flops) noexcept { roofline_region_add_flops_to(handle_, flops); }
  /// Declared traffic of this region in bytes (reads and writes separately, docs/model.md §3).
  void add_bytes(double bytes) noexcept { roofline_region_add_bytes_to(handle_, bytes); }

  static bool enabled() noexcept { return roofline_markers_enabled() != 0; }

 private:
  const char* name_;
  int handle_;
};

}  // namespace roofline
