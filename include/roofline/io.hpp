#pragma once
// Documents on disk (docs/schema.md): machine documents (a roof set, from `roofline measure`
// or the hardware catalogue — interchangeable) and points documents. Versioned JSON; readers
// reject unknown versions and bad fields with messages naming file, field and value.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline {

inline constexpr const char* kMachineSchema = "roofline.machine";
inline constexpr int kMachineVersion = 1;
inline constexpr const char* kPointsSchema = "roofline.points";
inline constexpr int kPointsVersion = 1;

/// A machine document: the roofs plus what describes the machine and how it was measured.
struct MachineDocument {
  RoofSet roofs;
  nlohmann::json info = nlohmann::json::object();  ///< CPU, clock, cores, caches, vendor...
  /// Other top-level sections (measurement details, device, cluster) kept as they are.
  nlohmann::json sections = nlohmann::json::object();
  std::string origin;  ///< file it was read from, or catalogue name
};

struct PointsDocument {
  std::vector<Point> points;
  std::string machine;  ///< optional: name of the machine the points were taken on
  UnitSystem units;
  std::string origin;
};

/// Reads a whole text file. Throws InputError for a missing file, a directory, or an unreadable
/// path, naming it.
std::string read_text_file(const std::filesystem::path& path);
/// Parses JSON text, throwing InputError "FILE: line L, column C: ..." on malformed input.
nlohmann::json parse_json(const std::string& text, const std::string& origin);
/// Writes `content` to `path` atomically: a temporary file in the same folder, flushed, then
/// renamed over the target. On failure the old file (if any) is untouched.
void write_file_atomic(const std::filesystem::path& path, const std::string& content);
/// Checks, before any work, that `path` could be written: its folder exists and it is not a
/// folder itself. InputError "WHAT PATH: ..." otherwise (`what` names the flag, e.g. "--report").
void check_writable_path(const std::filesystem::path& path, const std::string& what = "");

/// A roof's statistics as the documents store them (docs/schema.md, "stats").
nlohmann::json statistics_to_json(const Statistics& s);
MachineDocument machine_from_json(const nlohmann::json& j, const std::string& origin);
nlohmann::json machine_to_json(const MachineDocument& m);
MachineDocument load_machine_file(const std::filesystem::path& path);

PointsDocument points_from_json(const nlohmann::json& j, const std::string& origin);
nlohmann::json points_to_json(const PointsDocument& p);
nlohmann::json point_to_json(const Point& p);
PointsDocument load_points_file(const std::filesystem::path& path);

/// Hardware catalogue (data/hardware): directories searched in order — `extra_dir` when given,
/// each entry of $ROOFLINE_HW_PATH (colon-separated), the source tree's data/hardware, the
/// installed share/roofline/hardware.
std::vector<std::filesystem::path> catalogue_dirs(const std::string& extra_dir = "");

struct CatalogueEntry {
  std::string name;  ///< canonical, lower-case, hyphenated (file stem)
  std::vector<std::string> aliases;
  std::filesystem::path path;
};
/// All catalogue entries (first directory wins on duplicate names).
std::vector<CatalogueEntry> list_catalogue(const std::string& extra_dir = "");

/// A machine by catalogue name or alias (case-insensitive) or by path to a machine document.
/// Unknown names throw InputError with the closest names as suggestions.
MachineDocument resolve_machine(const std::string& name_or_path, const std::string& extra_dir = "");

}  // namespace roofline
