#pragma once
// What `roofline hw` prints (docs/hardware.md): the catalogue list, one device's roofs, sources
// and ridges, a comparison at one intensity (docs/model.md §7), the ridge table by release year
// as text and CSV, and the trajectory chart's input (docs/model.md §8). Names and text from
// catalogue files pass through terminal_safe / csv_cell (sanitize.hpp). The JSON forms are in
// json_out.hpp.
#include <string>
#include <vector>

#include "roofline/compare.hpp"
#include "roofline/hardware.hpp"
#include "roofline/trajectory.hpp"

namespace roofline {

/// The list: one row per device shown, then "N of TOTAL devices".
std::string render_hardware_list(const std::vector<HardwareSummary>& shown, size_t total);
/// One device: facts, compute and memory roofs with provenance and source, the ridges, caches,
/// the source of every other value, unverified values and notes.
std::string render_hardware_show(const HardwareSummary& s, const std::vector<RidgePoint>& ridges);
/// A comparison at one intensity: the table and, per machine after the first, the best-case
/// speedup and why (which ratio applies). `sets` are the machines' roofs, in the comparison's
/// order; `label` names the query (a point, a precision) or is empty.
std::string render_comparison(const Comparison& c, const std::vector<const RoofSet*>& sets,
                              const std::string& label);
/// What one comparison of `hw compare` is at, as render_comparison's `label` takes it: the
/// point's name, its level after " at " (with a point only: a point's intensity is its level's),
/// then "precision P", each left out when empty ("gemm at DRAM, precision bf16"; "" for --at
/// without --precision).
std::string comparison_label(const std::string& point, const std::string& level,
                             const std::string& precision);
/// The ridge table: a row per device, a column per group (empty: no roof of it), under a heading
/// that names the roof each column took (the highest dense roof of its precisions, or the roof
/// a --precision value names, a sparse one too) and the memory roof: `level` (--level), else
/// main memory.
std::string render_ridge_rows(const std::vector<RidgeRow>& rows,
                              const std::vector<PrecisionGroup>& groups,
                              const std::string& level = "");
/// The names of the devices of `entries` that no row of `rows` shows for want of a dense roof
/// of the groups shown, in the order of `entries`; a device without the memory roof `level`
/// (--level; "" for none asked) is not among them (render_ridges_not_at_level names it).
std::vector<std::string> ridge_rows_left_out(const std::vector<HardwareSummary>& entries,
                                             const std::vector<RidgeRow>& rows,
                                             const std::string& level = "");
/// The line naming the devices of `entries` without the memory roof `level` (--level), left out
/// of the ridge table: "not listed (no memory roof 'NVLink'): mi250x, l4" and a line end, the
/// names made safe for the terminal; "" when none is or no level is asked.
std::string render_ridges_not_at_level(const std::vector<HardwareSummary>& entries,
                                       const std::string& level);
/// The line naming the devices left out of the ridge table: "not listed (no dense roof of fp64,
/// fp32): A, B" ("no roof named fp16 tensor sparse" for a --precision value naming a roof) and a
/// line end, the names made safe for the terminal; "" when none is.
std::string render_ridges_left_out(const std::vector<std::string>& left_out,
                                   const std::vector<PrecisionGroup>& groups);
/// Why a machine `hw ridges --add` asked for (add_machines) is not in the ridge table, for the
/// first such of `added`: "--add SPEC: no memory roof 'LEVEL', the level the table shows" when it
/// lacks the memory roof `level` (--level), else "--add SPEC: no dense roof of fp64, fp32, the
/// roofs the table shows (give --precision for another)" (the reason as render_ridges_left_out
/// gives it), the spec and level made safe for the terminal; "" when each is in `rows` or not among
/// `entries` (left out by --kind).
std::string ridge_added_not_shown(const std::vector<AddedMachine>& added,
                                  const std::vector<HardwareSummary>& entries,
                                  const std::vector<RidgeRow>& rows,
                                  const std::vector<PrecisionGroup>& groups,
                                  const std::string& level);
/// The ridge table as CSV: one line per device and group that has a ridge.
std::string ridge_rows_to_csv(const std::vector<RidgeRow>& rows,
                              const std::vector<PrecisionGroup>& groups);
/// The trajectory chart of the ridge rows: one series per group, dated devices only (the
/// others listed as undated). `level` and `kind` are the table's filters, for the subtitle.
TrajectoryInput ridge_trajectory(const std::vector<RidgeRow>& rows,
                                 const std::vector<PrecisionGroup>& groups,
                                 const std::string& level, const std::string& kind);

}  // namespace roofline
