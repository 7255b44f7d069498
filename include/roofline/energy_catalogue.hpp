#pragma once
// The energy figures a machine document can give when no power is measured (docs/energy.md): its
// catalogue power (`info.power_w`, the vendor's TDP/TBP, with `info.power_source`). At most TDP
// watts are drawn, so running at the roof π a unit of work costs at most TDP/π joules, all
// constant power included — an upper bound on ε̂_flop of the energy roofline, and π/TDP a lower
// bound on its peak work per joule; likewise TDP/β per byte at the bandwidth roof β.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/energy.hpp"
#include "roofline/io.hpp"
#include "roofline/power_interface.hpp"

namespace roofline {

struct TdpEnergyBound {
  double power_w = 0;              ///< the catalogue's TDP/TBP
  std::string power_source;        ///< where it comes from (info.power_source)
  std::string compute_roof;        ///< the roof π taken (the one asked for, else the default)
  std::string memory_level;        ///< the roof β taken (the one asked for, else the default)
  double max_joules_per_work = 0;  ///< TDP/π: bound on ε̂_flop
  double max_joules_per_byte = 0;  ///< TDP/β: bound on the energy of a byte at the roof
  double min_work_per_joule = 0;   ///< π/TDP
};

/// The bound from `m`'s info.power_w at the compute roof of `precision` and the memory roof of
/// `level` ("" = the defaults, as RoofSet::select_compute/select_memory take them); empty with
/// `why` set when the document carries no power figure (a measured machine, or a catalogue
/// entry whose vendor publishes none: power_w null).
std::optional<TdpEnergyBound> tdp_energy_bound(const MachineDocument& m, std::string* why = nullptr,
                                               const std::string& precision = "",
                                               const std::string& level = "");

/// Energy costs measured by `roofline measure` where the machine has RAPL (measurement.energy):
/// π0 = the power at rest, ε_flop = (P − π0)/π with P the power while the default compute roof's
/// kernel ran on every core (it moves no memory), ε_mem = (P − π0)/β with P the power while the
/// default memory level's best mix ran (its few FLOP are neglected: it over-states ε_mem by at
/// most ε_flop × its FLOP per byte). Choi, Bedard, Fowler & Vuduc (IPDPS 2013) fit the same
/// three constants from microbenchmarks.
struct MeasuredEnergy {
  EnergyCosts costs;
  std::string compute_roof, memory_level;
  double idle_power_w = 0, compute_power_w = 0, memory_power_w = 0;
  std::string source;  ///< "RAPL: package-0 (intel-rapl:0)"
};
/// Empty with `why` set when the document has no measured energy (a catalogue entry, a machine
/// without a power interface: the reason it recorded) or a power not above the power at rest.
std::optional<MeasuredEnergy> measured_energy(const MachineDocument& m, std::string* why = nullptr);

/// What `roofline energy` is asked of a machine: the roofs (a precision or roof name, a memory
/// level; "" = the defaults), energy costs when given (both or neither), the intensities to
/// evaluate the energy roof at.
struct EnergyQuery {
  std::string precision, level;
  std::optional<JoulePerWork> eps_flop;  ///< J per unit of work
  std::optional<JoulePerByte> eps_mem;   ///< J per byte
  std::optional<Watt> pi0;               ///< with the costs only (0 when not given)
  std::vector<double> intensities;
};

/// The energy roof at one intensity: the work per joule and the average power there.
struct EnergyAt {
  double intensity = 0;
  double work_per_joule = 0;
  double power_w = 0;
};

/// The energy roofline of a machine (docs/energy.md): the costs (given, else measured by
/// `roofline measure` where RAPL could be read, else none), the model they give (balances,
/// peak work per joule, balance point, the roof at each intensity) and the catalogue's power
/// bound. Its JSON (energy_analysis_to_json) is the object `roofline energy --json` prints, less
/// what only the CLI knows (this machine's power interface, a points file).
struct EnergyAnalysis {
  std::string machine;
  std::string compute_roof, memory_level;
  std::optional<EnergyCosts> costs;
  std::string costs_origin;  ///< "given", "measured" or "" (no costs)
  std::optional<MeasuredEnergy> measured;
  std::string measured_why;  ///< why no measured costs
  std::optional<TdpEnergyBound> bound;
  std::string bound_why;  ///< why no catalogue bound
  /// The roof at each intensity asked for (with the costs only), in their order.
  std::vector<EnergyAt> at;
  /// What the figures say against each other: costs that draw more than the catalogue's power.
  std::vector<std::string> warnings;
};
/// InputError naming the option on costs given by half, invalid, or a non-positive intensity,
/// or an intensity where the roof is no finite positive number.
EnergyAnalysis analyse_energy(const MachineDocument& m, const EnergyQuery& q);
/// The analysis as `roofline energy --json` and Python's energy() give it: schema, machine, the
/// roofs, the costs' origin, `measured` (or `measured_why_not`), `model` (null without costs),
/// `tdp_bound` (null, with `tdp_bound_why_not`, without one) and `warnings`.
nlohmann::json energy_analysis_to_json(const EnergyAnalysis& an);
/// Why an analysis has neither costs nor a power bound — nothing to show: what would give
/// each (the Unavailable message of `roofline energy` and `roofline.energy()`).
std::string no_energy_figures(const EnergyAnalysis& an);

/// The points of `doc` that carry an energy, placed at `level` (a point without it at its
/// first level): I = W/Q and W/E; the others named in `skipped`. InputError naming `origin`
/// when the document's units are not the machine's.
struct EnergyPoints {
  std::vector<EnergyPoint> placed;
  std::vector<std::string> skipped;    ///< no energy given
  std::vector<std::string> off_level;  ///< no traffic at the model's memory level
  /// A point whose energy over its time is more than twice the device's power figure (a unit
  /// error, mJ given for J, or another run's energy), one line each.
  std::vector<std::string> warnings;
  /// The document's bandwidth-only runs (PointsDocument::not_points: W = 0, such as copy), with
  /// why none is placed.
  std::vector<PointLeftOut> not_points;
};
/// The points with energy placed at W/E against I = W/Q at `level` (the model's memory level of
/// `roofs`): Q at a level the machine reads as that roof (RoofSet::select_memory: case aside,
/// DRAM/HBM/memory as main memory, unnamed as the default level).
/// `power_w`: the device's power figure (the catalogue's info.power_w), against which each
/// point's average power E/T is checked.
EnergyPoints energy_points(const PointsDocument& doc, const std::string& origin,
                           const std::string& level, const RoofSet& roofs,
                           std::optional<double> power_w = std::nullopt);
/// `roofline energy --json`'s "points": each placed point with the roof's work per joule at its
/// intensity and its share of it.
nlohmann::json energy_points_to_json(const std::vector<EnergyPoint>& points, const EnergyCosts& k);

/// What `roofline energy` says of a machine: the analysis, this machine's power interface and,
/// with costs and a points document, its points placed on the energy roof.
struct EnergyDocument {
  EnergyAnalysis analysis;  ///< its warnings: the analysis's, then the points'
  PowerInterface power_interface;
  std::string points_file;             ///< the points document as given ("" for none)
  std::optional<EnergyPoints> points;  ///< with costs and a points document only
};
/// The document of `an` on `m` with `pi`; `points` (read from `points_file`), when given and
/// the analysis has costs, placed at its memory level (energy_points, against the catalogue's
/// power figure when there is one), their warnings added to the analysis's.
EnergyDocument energy_document(const MachineDocument& m, EnergyAnalysis an, PowerInterface pi,
                               const PointsDocument* points = nullptr,
                               const std::string& points_file = "");
/// `roofline energy --json`: energy_analysis_to_json, `power_interface` and, with points,
/// `points` (energy_points_to_json), `points_without_energy`,
/// `points_without_traffic_at_level` (names) and, where the document holds bandwidth-only runs,
/// `points_not_placed` (each run's name, reason, detail).
nlohmann::json energy_document_to_json(const EnergyDocument& d);
/// `roofline energy --json`'s "power_interface": the folder searched ("root"), each RAPL zone
/// (id, name, readable, why_unreadable, max_energy_range_uj) and why there are none ("why_none",
/// "" when there are).
nlohmann::json power_interface_to_json(const PowerInterface& pi);

}  // namespace roofline
