#pragma once
// Hooks of the marker runtime for tests and for `roofline profile`'s reader (not installed).
#include <string>

namespace roofline::marker_detail {

/// The client-request labels the marker runtime dumps callgrind's counts with when it runs
/// under the cache simulator with ROOFLINE_MARKER_SIM set (`roofline profile --instrument`): at
/// every region's begin and end, so each part of the profile lies wholly inside or outside each
/// region; kRegionDumpStop when it stops dumping after kMaxRegionDumps boundaries (each dump
/// writes a file).
inline constexpr const char* kRegionDumpBegin = "roofline-region-begin ";
inline constexpr const char* kRegionDumpEnd = "roofline-region-end ";
inline constexpr const char* kRegionDumpStop = "roofline-region-stop";
inline constexpr int kMaxRegionDumps = 4000;

/// Forces markers on or off for this process and sets the output directory (tests only).
void configure_for_testing(bool enabled, const std::string& dir);
/// Clears every recorded region of every thread (tests only; other threads must be idle).
void reset_for_testing();
/// The next `n` region names seen for the first time fail as out of memory (tests only).
void fail_allocations_for_testing(int n);
/// The results document (schema roofline.markers, version 1) as it would be written at exit.
std::string results_json();

}  // namespace roofline::marker_detail
