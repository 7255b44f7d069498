#pragma once
// The memory-wall trajectory chart (docs/model.md §8): ridge points I* = π/β of many devices
// against their release year, log y, one series per precision group, every device labelled. Drawn
// for `roofline hw ridges --report FILE`; the numbers come from ridge_for (hardware.hpp), the chart
// only places them.
#include <filesystem>
#include <string>
#include <vector>

namespace roofline {

/// One device's ridge point in one series.
struct TrajectoryPoint {
  std::string device;        ///< the label under the chart (catalogue name)
  int year = 0;              ///< release year
  double ridge = 0;          ///< I* = π/β, > 0
  std::string unit;          ///< "FLOP/byte", or "OP/byte" for an integer roof
  std::string compute_roof;  ///< the roof behind it, e.g. "bf16 tensor"
  std::string memory_level;  ///< the memory roof it is taken against, e.g. "HBM3"
};

/// A precision group ("bf16/fp16") and its devices.
struct TrajectorySeries {
  std::string label;
  std::vector<TrajectoryPoint> points;
};

struct TrajectoryInput {
  std::string title;
  std::string subtitle;
  std::vector<TrajectorySeries> series;
  /// Devices left out because they have no release year (named under the chart).
  std::vector<std::string> undated;
};

/// SVG: x = release year (linear, devices of one year side by side), y = I* (log10), a marker
/// per device and series (colour and shape per series, Okabe–Ito), device names under their
/// column. `dark_mode` adds the prefers-color-scheme rules (off for PNG). InputError when there
/// is no point, or a point has no year or a ridge that is not > 0.
std::string render_trajectory_svg(const TrajectoryInput& in, bool dark_mode = true);
/// One self-contained HTML page (no network): the SVG and a table of the values.
std::string render_trajectory_html(const TrajectoryInput& in);

/// Throws InputError unless the extension is .svg, .html, .htm or .png (any case): the check
/// write_trajectory makes, for refusing a path before any work.
void check_trajectory_format(const std::filesystem::path& path);
/// Writes the chart in the format named by the extension (check_trajectory_format), atomically.
/// PNG goes through svg_to_png (rsvg-convert); when that is missing → Unavailable, nothing
/// written.
void write_trajectory(const std::filesystem::path& path, const TrajectoryInput& in);

}  // namespace roofline
