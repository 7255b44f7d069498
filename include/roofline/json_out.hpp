#pragma once
// Machine-readable forms of results (--json on every command).
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roofline/compare.hpp"
#include "roofline/cpu_record.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/hardware.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline {

/// `j` as JSON text (indent as nlohmann's dump: -1 compact). Bytes that are not UTF-8 — a file
/// name from the command line, a path in a title — become U+FFFD: JSON text must be UTF-8, and
/// the strict form threw, so every --json output refused such a name ("bad document").
std::string json_text(const nlohmann::json& j, int indent = 2);

/// Writes one array element: false when there is none at this index (the array ends). The
/// element is the same object at every call, holding the previous one: a writer that sets the
/// same keys each time changes only their values.
using JsonElement = std::function<bool(std::size_t index, nlohmann::json& element)>;
/// Empties `j` from its leaves up, so that destroying it allocates nothing: nlohmann's destroy
/// of a non-empty array or object allocates its work stack, and an allocation that fails in a
/// destructor cannot throw (std::terminate, where an out-of-memory error was meant); an empty
/// one is destroyed without allocating. For a value kept to the end of a long write.
void release_json(nlohmann::json& j) noexcept;

/// Where json_text_with_arrays puts the arrays: after head's keys, or each among them where its
/// key sorts, as json_text writes a whole tree that holds them (nlohmann::json keeps its keys
/// sorted), so the text is the same byte for byte.
enum class ArrayPlace { after_head, in_key_order };
/// The object `head` as json_text() writes it (indent 2), with each array of `arrays` added as
/// a key (after head's, or in key order), written element by element: an export of half a
/// million kernels (`roofline import --json`) or a sweep of 1e5 rows (`roofline llm --json`) is
/// never one JSON tree in memory. The text ends with a newline. The arrays' keys are written as
/// given: names from the code, not text from files; in key order they are given sorted, and
/// none is one of head's.
std::string json_text_with_arrays(const nlohmann::json& head,
                                  const std::vector<std::pair<std::string, JsonElement>>& arrays,
                                  ArrayPlace place = ArrayPlace::after_head);

/// A number in a document that is not finite (inf or nan), and where: a JSON pointer (RFC 6901,
/// "" for the document itself), so a command can refuse to write it and name the place.
struct NonFiniteNumber {
  std::string pointer;
  double value = 0;
};
/// The first such number in document order, if any.
std::optional<NonFiniteNumber> first_non_finite(const nlohmann::json& document);
/// Throws InputError when a result document holds a number that is not finite (nlohmann keeps
/// inf and nan, and writes them as null): the roofs or options were beyond what the model can
/// compute, so nothing is printed (or handed to Python) instead of "inf s" or "nan%". `what`
/// names the command and the options that could cause it; the message gives the number's
/// place in the document.
/// `at`: the place of `document` in a larger one that is written in parts (json_text_with_arrays),
/// a JSON pointer that the message puts before the number's place in `document`.
void refuse_non_finite(const nlohmann::json& document, const std::string& what,
                       const std::string& at = "");

nlohmann::json diagnosis_to_json(const Diagnosis& d);
/// The units a result is read in: {"work", "traffic", "performance", "intensity"} ("OP",
/// "OP/s", "OP/byte" on an integer roof: RoofSet::units_of).
nlohmann::json result_units_to_json(const UnitSystem& u);
/// The point, its intensity per level, performance and diagnosis.
nlohmann::json analysis_to_json(const Point& p, const Diagnosis& d, const RoofSet& roofs);
/// A point left out of a judgement or a chart: {"name", "reason", "detail"} as a chart's JSON
/// lists it under "not_drawn"; with `flagged`, also "not_drawn": true (`point --points --json`
/// lists it among the analyses, where the flag tells it from them). A bandwidth run (W = 0:
/// PointsDocument::not_points) adds "bandwidth_only": true, its "traffic" [{level, bytes}] and
/// "time" (seconds per call, null when its document gives none): the one entry every command
/// lists such a run with (plot, point, check, diff).
nlohmann::json left_out_to_json(const PointLeftOut& p, bool flagged = false);
/// Every point's analysis against `roofs` (diagnosed with the default options), in order: the
/// "analysis" array of a report that measured points and was given a machine.
nlohmann::json analyses_to_json(const std::vector<Point>& points, const RoofSet& roofs);
nlohmann::json kernel_count_to_json(const KernelCount& k);
/// `roofline kernel list --json`: each catalogue kernel's name, aliases, size parameters, default
/// dtype and description.
nlohmann::json kernel_catalogue_to_json(const std::vector<KernelSpec>& kernels);
/// `roofline kernel --json`'s "machine": the kernel on `machine`'s roofs.
nlohmann::json kernel_on_roofs_to_json(const KernelOnRoofs& k, const std::string& machine);
/// `roofline kernel --json`: the count (kernel_count_to_json) with its "dtype" and "params"
/// (every parameter, given or defaulted) and, placed on roofs, "machine": the kernel on them
/// (kernel_on_roofs_to_json) with the roof's "note" where there is one.
nlohmann::json kernel_result_to_json(const KernelCount& k, const std::string& dtype,
                                     const std::map<std::string, double>& params,
                                     const std::optional<KernelOnMachine>& placed = std::nullopt);
/// `roofline hw compare --json`'s comparison; with a `point` (compared at a point's intensity)
/// its name as "point".
nlohmann::json comparison_to_json(const Comparison& c, const std::string& point = "");

/// `roofline hw list --json`: one row per device (name, vendor, kind, year, memory, power,
/// default roofs).
nlohmann::json hardware_list_to_json(const std::vector<HardwareSummary>& shown);
nlohmann::json ridge_to_json(const RidgePoint& p);
/// `roofline hw show --json`: the machine document and the ridge of every dense roof.
nlohmann::json hardware_show_to_json(const HardwareSummary& s,
                                     const std::vector<RidgePoint>& ridges);
/// `roofline hw ridges --json`: per device, its ridge per group (null where it has none).
nlohmann::json ridge_rows_to_json(const std::vector<RidgeRow>& rows,
                                  const std::vector<PrecisionGroup>& groups);

/// A CPU measurement's `info` (docs/schema.md "info of a measured CPU").
nlohmann::json cpu_description_to_json(const CpuDescription& d);
/// The CPU's part of a measured document's `measurement` section (options, clock, sweep, power
/// at rest, phase times); the engine adds the roofs' part (docs/schema.md).
nlohmann::json cpu_run_to_json(const CpuRunRecord& r);

}  // namespace roofline
