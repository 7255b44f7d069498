#pragma once
// What `roofline check` reads besides machine and points documents (docs/check.md): its config
// file (`roofline.check`, version 1) and the spread of each point that a points document carries
// (`roofline run` writes each point's repeated times under "run").
#include <filesystem>
#include <optional>
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

/// `roofline diff A B --json` for two machines (schema roofline.diff, version 1, kind
/// "machines"): each roof's values, ratio B/A, spreads and whether the change exceeds them, the
/// roofs one side lacks, the ridge moving. The CLI and the Python bindings print this object.
nlohmann::json machines_diff_to_json(const RoofSetDiff& d, const MachineDocument& a,
                                     const MachineDocument& b);

}  // namespace roofline
