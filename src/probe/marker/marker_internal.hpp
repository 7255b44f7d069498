#pragma once
// Hooks of the marker runtime for tests and for `roofline profile`'s reader (not installed).
#include <string>

namespace roofline::marker_detail {

/// Forces markers on or off for this process and sets the output directory (tests only).
void configure_for_testing(bool enabled, const std::string& dir);
/// Clears every recorded region of every thread (tests only; other threads must be idle).
void reset_for_testing();
/// The next `n` region names seen for the first time fail as out of memory (tests only).
void fail_allocations_for_testing(int n);
/// The results document (schema roofline.markers, version 1) as it would be written at exit.
std::string results_json();

}  // namespace roofline::marker_detail
