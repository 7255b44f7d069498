#pragma once
// The report of an instrumented run (`roofline profile --instrument`, docs/instrument.md): what
// the runs said, the points fitted to a machine, the JSON document and the text.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/instrument.hpp"
#include "roofline/io.hpp"

namespace roofline::instrument {

/// What the runs said, and what is missing from them (no counts, dropped blocks, no samples,
/// a simulation's problem), appended to `messages` for the user.
void run_messages(const InstrumentedRun& r, std::vector<std::string>& messages);

/// The run's points named after `name`, each given `precision` when not empty and, when `roofs`
/// are given, judged on them where they can be (`judged`; its traffic fitted to their levels),
/// else in `left_out` with why (counters::judged_point: no level or no roof of its precision on
/// the machine; the point stays in the document); the notes of both in `notes`.
InstrumentedPoints fitted_points(const InstrumentedRun& r, const std::string& name,
                                 const std::string& precision, const RoofSet* roofs,
                                 std::vector<std::string>& notes);

/// The native run's time (for the slowdowns) and its samples over all its processes.
struct SampleTotals {
  double native = 1e-9;  ///< wall seconds of the native run (> 0)
  std::uint64_t samples = 0;
  double cpu_sampled = 0;
  std::string sampler;  ///< the processes' samplers, e.g. "task-clock"
};
SampleTotals sample_totals(const InstrumentedRun& r);

/// `profile --instrument --json`: the points with their provenance, the runs (`command`, the
/// counting run, the simulations, every counted function, the samples, the marker regions),
/// and the analysis on the machine where one is given.
nlohmann::json run_to_json(const std::vector<std::string>& command, const InstrumentedRun& r,
                           const InstrumentedPoints& ip, const std::optional<MachineDocument>& m,
                           const std::vector<std::string>& messages,
                           const std::vector<std::string>& notes);

/// The text report before the points: the runs, the counted W, what the simulator does not
/// see, the messages, the functions with W by time, the notes.
std::string render_run(const std::vector<std::string>& command, const InstrumentedRun& r,
                       const InstrumentedPoints& ip, const std::vector<std::string>& messages,
                       const std::vector<std::string>& notes);

}  // namespace roofline::instrument
