#pragma once
// What `roofline check` reads besides machine and points documents (docs/check.md): its config
// file (`roofline.check`, version 1) and the spread of each point that a points document carries
// (`roofline run` writes each point's repeated times under "run").
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/check.hpp"
#include "roofline/diff.hpp"
#include "roofline/io.hpp"

namespace roofline {

inline constexpr const char* kCheckSchema = "roofline.check";
inline constexpr int kCheckVersion = 1;

/// Parses a check config: {"schema": "roofline.check", "version": 1, "min_attainment": 0.7,
/// "noise": 0.05, "points": [{"name": "triad*", "min_attainment": 0.5}]}. Attainments and the noise
/// are numbers in (0, 1]; unknown fields are refused; errors name the file, field and value.
CheckConfig check_config_from_json(const nlohmann::json& j, const std::string& origin);
CheckConfig load_check_config(const std::filesystem::path& path);

/// The spread of each point of a points document (same order as "points"): from the point's
/// "run" section when it has one — its "times" (seconds per call, one per repetition), else its
/// "min", "median" and "max" — and empty otherwise. A "run" section that is present but
/// malformed is an InputError naming the file and field.
std::vector<std::optional<Spread>> point_spreads(const nlohmann::json& points_doc,
                                                 const std::string& origin);

/// A points document with the spread of each point (point_spreads), as the gate reads it.
struct CheckedPoints {
  PointsDocument doc;
  std::vector<std::optional<Spread>> spreads;  ///< one per point
  std::string path;                            ///< where it was read from ("" = given in memory)
};
/// Reads a points document and its spreads.
CheckedPoints load_checked_points(const std::string& path);

/// What the gate is asked (`roofline check`, docs/check.md).
struct CheckRequest {
  CheckedPoints points;
  std::optional<MachineDocument> machine;  ///< needed for an attainment threshold
  std::optional<CheckedPoints> baseline;   ///< points paired by name
  CheckConfig config;                      ///< thresholds and the assumed noise
  std::string precision;                   ///< compute roof for points that name none (--precision)
  std::string level;                       ///< memory level for traffic that names none (--level)
};

/// The gate's answer: one PointCheck per point (then the baseline's points missing from the
/// run, skipped), the counts, and the JSON `roofline check --json` prints (schema
/// roofline.check.result, version 1).
struct CheckReport {
  std::vector<PointCheck> checks;
  int passed = 0, failed = 0, skipped = 0;
  /// No point was judged (every one skipped): the gate checked nothing, and fails — a typo in
  /// a rule's pattern must not turn the gate off.
  bool nothing_judged = false;
  /// What the reader should know: a config rule whose pattern matches no point.
  std::vector<std::string> notes;
  nlohmann::json json;
  std::string summary;  ///< "N points: P passed, F failed, S skipped"
};

/// InputError when a gate with this config (and a baseline or not) would check nothing, or
/// holds points to an attainment without roofs: the checks run_check makes first, for a caller
/// to make before reading any document.
void check_gate_request(const CheckConfig& config, bool machine, bool baseline);

/// Holds each point to its minimum attainment of its roof (when the config has one) and, given
/// a baseline, to its earlier performance beyond the larger spread of the two runs. InputError
/// when there is nothing to check, a threshold without roofs, units that differ, or names that
/// repeat where a baseline pairs them.
CheckReport run_check(const CheckRequest& r);

/// `roofline diff A B --json` for two machines (schema roofline.diff, version 1, kind
/// "machines"): each roof's values, ratio B/A, spreads and whether the change exceeds them, the
/// roofs one side lacks, the ridge moving. The CLI and the Python bindings print this object.
nlohmann::json machines_diff_to_json(const RoofSetDiff& d, const MachineDocument& a,
                                     const MachineDocument& b);

/// `roofline diff A B --json` for two points documents (kind "points"): each pair's
/// performance, units, ratio B/A, intensity ratio at a level both have, spreads and whether the
/// change exceeds them, and the points one side lacks. `label_a` / `label_b`: the documents as
/// given.
nlohmann::json points_diff_to_json(const PointsDiff& d, const std::string& label_a,
                                   const std::string& label_b);

}  // namespace roofline
