#pragma once
// The one place where a roof's repeated-measurement statistics (roofline/roof.hpp Statistics)
// become text. Every table that shows how a roof's samples spread (the HTML roofs table, the
// terminal roofs table) calls describe_spread, so a change of the statistics policy changes
// this function only.
#include <string>

#include "roofline/roof.hpp"

namespace roofline::report {

struct SpreadText {
  /// "median 24.61 GFLOP/s · spread 1.2% of 9": the typical sample first, then the spread the
  /// statistics define, never the slowest sample alone.
  std::string detail;
  std::string brief;    ///< "1.2%", "89% noisy": for narrow tables
  double sort_key = 0;  ///< the relative spread, for sorting
};

/// `rate_unit` is the roof's rate unit ("FLOP/s", "OP/s", "byte/s").
SpreadText describe_spread(const Statistics& s, const std::string& rate_unit);

}  // namespace roofline::report
