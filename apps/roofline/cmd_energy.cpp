// roofline energy: the energy roofline of a machine (docs/energy.md) — from given energy costs
// (ε_flop, ε_mem, π0) on the machine's roofs, or bounded by the catalogue's power figure — and
// what power interface this machine has.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include "commands.hpp"
#include "roofline/energy.hpp"
#include "roofline/energy_catalogue.hpp"
#include "roofline/energy_chart.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/powercap.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::cli {
namespace {

struct EnergyArgs {
  MachineOptions machine;
  std::optional<std::string> eps_flop, eps_mem;  ///< "1e-10", "100 pJ", "0.1 nJ/FLOP"
  std::optional<std::string> pi0;                ///< "30", "30 W"
  std::vector<double> intensities;
  std::string powercap;  ///< --powercap FOLDER; empty = /sys/class/powercap
  bool json = false;
  std::string output;
  std::string points;  ///< --points FILE: points with measured energy, placed on the energy roof
  std::string report;  ///< --report FILE: the energy roofline chart (.svg, .png)
};

/// A cost per FLOP on a roof of OP (or per OP on one of FLOP), or per FLOP or byte on a machine
/// of its own units, prices other work than the roof counts: refused, naming the option.
void check_cost_units(const EnergyArgs& a, const ComputeRoof& c, const UnitSystem& u) {
  const bool flop_or_op = u.work == "FLOP" || u.work == "OP";
  if (a.eps_flop) {
    const std::string l = lower(*a.eps_flop);
    const std::string per = l.find("/flop") != std::string::npos ? "FLOP"
                            : l.find("/op") != std::string::npos ? "OP"
                                                                 : "";
    // Per FLOP on a roof of OP (or per OP on one of FLOP) prices other work (docs/model.md
    // §11): "10 pJ/FLOP" on int8 was relabelled "0.01 nJ/OP".
    if (!per.empty() && per != u.work && flop_or_op)
      throw InputError("--eps-flop '" + terminal_safe(*a.eps_flop) + "' is per " + per +
                       ", but roof '" + c.name + "' counts " + u.work + ": give the energy per " +
                       u.work + " (pJ/" + u.work + ")");
    // On a machine of its own units (tuples) a bare energy is per the machine's unit.
    if (!per.empty() && !flop_or_op)
      throw InputError("--eps-flop '" + terminal_safe(*a.eps_flop) + "' is per " + per +
                       ", but the machine counts " + u.work + ": give the energy per " + u.work +
                       " as a bare energy (e.g. 10 nJ)");
  }
  // Per byte on a machine of disk reads: "100 uJ/B" was printed as 100 uJ per 4 KiB read.
  if (a.eps_mem && u.traffic != "byte" && lower(*a.eps_mem).find("/b") != std::string::npos)
    throw InputError("--eps-mem '" + terminal_safe(*a.eps_mem) +
                     "' is per byte or bit, but the machine counts " + u.traffic +
                     ": give the energy per " + u.traffic + " as a bare energy (e.g. 10 nJ)");
}

void run(const EnergyArgs& a) {
  // A folder the user names must be one: only the default may be missing (a VM, an old kernel).
  const std::string powercap = a.powercap.empty() ? "/sys/class/powercap" : a.powercap;
  if (!a.powercap.empty() && !std::filesystem::is_directory(a.powercap))
    throw InputError("--powercap " + terminal_safe(a.powercap) +
                     ": not a folder (give the powercap class folder, e.g. /sys/class/powercap)");
  if (!a.report.empty()) check_energy_chart_format(a.report);
  check_outputs({{"-o", a.output}, {"--report", a.report}}, {a.machine.machine, a.points});
  const MachineDocument m = load_machine(a.machine);
  EnergyQuery q;
  q.precision = a.machine.precision;
  q.level = a.machine.level;
  auto given = [](const std::optional<std::string>& text, Dimension dim, const char* option) {
    return text ? std::optional<double>(parse_quantity(*text, dim, option)) : std::nullopt;
  };
  if (const auto v = given(a.eps_flop, Dimension::energy_per_work, "--eps-flop"))
    q.eps_flop = JoulePerWork(*v);
  if (const auto v = given(a.eps_mem, Dimension::energy_per_byte, "--eps-mem"))
    q.eps_mem = JoulePerByte(*v);
  if (const auto v = given(a.pi0, Dimension::power, "--pi0")) q.pi0 = Watt(*v);
  q.intensities = a.intensities;
  EnergyAnalysis analysis = analyse_energy(m, q);
  const ComputeRoof& c = *m.roofs.find_compute(analysis.compute_roof);
  check_cost_units(a, c, m.roofs.units_of(c));  // OP, OP/J and nJ/OP on an integer roof
  PowerInterface pi = find_powercap_zones(powercap);
  // The points are placed on the energy roof, which needs the costs.
  std::optional<PointsDocument> points;
  if (analysis.costs && !a.points.empty()) points = load_points_file(a.points);
  const EnergyDocument d =
      energy_document(m, std::move(analysis), std::move(pi), points ? &*points : nullptr, a.points);
  if (d.analysis.costs && !a.report.empty())
    write_energy_chart(a.report, energy_chart_input(d, m.roofs));
  // --intensity evaluates the energy roof too: without costs it would be dropped unsaid.
  const EnergyAnalysis& an = d.analysis;
  if (!an.costs && (!a.report.empty() || !a.points.empty() || !a.intensities.empty()))
    throw InputError(std::string(!a.report.empty()   ? "--report"
                                 : !a.points.empty() ? "--points"
                                                     : "--intensity") +
                     ": the energy roofline needs energy costs: give --eps-flop and --eps-mem, "
                     "or a machine measured where RAPL could be read (" +
                     an.measured_why + ")");
  if (!an.costs && !an.bound)
    throw Unavailable(no_energy_figures(an) + "; this machine's power interface, now: " +
                      (d.power_interface.zones.empty() ? d.power_interface.why_none
                                                       : std::string("RAPL zones are present")));
  emit(a.json ? json_text(energy_document_to_json(d)) + "\n"
              : render_energy_document_text(d, m.roofs),
       a.output);
}

const Registrar register_energy(50, [](CLI::App& root) {
  auto args = std::make_shared<EnergyArgs>();
  CLI::App* c = root.add_subcommand(
      "energy",
      "The energy roofline (FLOP/J against I, balance point) from given energy costs, or "
      "bounded by the catalogue's power figure; and this machine's power interface");
  add_machine_options(*c, args->machine);
  c->add_option("--eps-flop", args->eps_flop,
                "Energy per unit of work ε_flop in J, e.g. 1e-10, '100 pJ', '0.1 nJ/FLOP'");
  c->add_option("--eps-mem", args->eps_mem,
                "Energy per byte ε_mem in J, e.g. 5e-10, '500 pJ/B' ('J/b' is per bit)");
  c->add_option("--pi0", args->pi0, "Constant power π0 in W, e.g. 30 or '30 W' (default 0)");
  c->add_option("--intensity", args->intensities,
                "Intensities to evaluate the roof at (repeatable)");
  c->add_option("--powercap", args->powercap, "The powercap folder (default /sys/class/powercap)");
  add_output_options(*c, args->json, args->output);
  c->add_option("--points", args->points,
                "A points document whose points carry `energy` (J): each placed at W/E against "
                "I, beside the energy roof");
  c->add_option("--report", args->report,
                "The energy roofline chart (work per joule against I): .svg or .png");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
