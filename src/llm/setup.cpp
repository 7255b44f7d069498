// A scenario on a machine: the parallel layout, dtypes, links and calibration that `roofline
// llm` and roofline.llm share, checked once (docs/llm.md).
#include <cmath>
#include <string>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/llm.hpp"
#include "roofline/machine_facts.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {
namespace {

/// A name and the other names a document gives itself (display name, aliases).
std::vector<std::string> names_of(const std::string& name, const std::string& display,
                                  const std::vector<std::string>& others) {
  std::vector<std::string> out{name};
  if (!display.empty()) out.push_back(display);
  out.insert(out.end(), others.begin(), others.end());
  return out;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

/// The names a device's driver gives, as catalogue names: "NVIDIA H200 (cuda:0)" (what
/// `measure --device cuda` names its document) also as "NVIDIA H200" and "H200", so a measured
/// document names its catalogue entry without an edit.
std::vector<std::string> driver_name_forms(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names) {
    out.push_back(name);
    std::string n = name;
    if (const auto open = n.rfind(" (cuda:"); open != std::string::npos && n.back() == ')')
      out.push_back(n = n.substr(0, open));
    for (const char* vendor : {"NVIDIA ", "Tesla ", "AMD "})
      if (n.rfind(vendor, 0) == 0) out.push_back(n.substr(std::string(vendor).size()));
  }
  return out;
}

/// --calibrate's document must be a measurement of the machine the scenario runs on: one of its
/// names the same as one of the machine's, compared as catalogue names are (hardware_key: case,
/// '-', '_' and spaces ignored; a driver's name also without its device index and vendor). The
/// same test both ways, so an A100's document refuses an H100 as an H100's refuses an A100
/// (the factor bound alone let a slower machine's roofs through), and two measured documents of
/// one GPU model (cuda:0, cuda:1) name one machine.
void check_same_machine(const RoofSet& roofs, const MachineFacts& facts, const SetupOptions& o) {
  const auto machine = names_of(roofs.name, facts.display_name, facts.aliases);
  std::vector<std::string> document{o.calibrate->name};
  document.insert(document.end(), o.calibrate_names.begin(), o.calibrate_names.end());
  for (const auto& a : driver_name_forms(machine))
    for (const auto& b : driver_name_forms(document))
      if (!a.empty() && hardware_key(a) == hardware_key(b)) return;
  // Roofs given as two numbers name no device (`--peak`/`--bandwidth`, from_roofs).
  if (roofs.name == "given roofs" && facts.display_name.empty())
    throw InputError("--calibrate " + o.calibrate_origin +
                     ": roofs given as numbers (--peak, --bandwidth) name no device to calibrate; "
                     "give the measured document itself as the machine (--hw FILE), or scale "
                     "the given roofs with --attainment");
  throw InputError("--calibrate " + o.calibrate_origin + ": the document is of " +
                   listed(document) + ", not of the machine given to --hw (" + listed(machine) +
                   "): a calibration is a measurement of the same device; if it is one, add the "
                   "machine's name to the document's info.aliases");
}

}  // namespace

void calibrate_with(SetupOptions& o, const RoofSet& measured, const MachineFacts& facts,
                    const std::string& origin) {
  o.calibrate = measured;
  o.calibrate_origin = origin;
  o.calibrate_names.clear();
  if (!facts.display_name.empty()) o.calibrate_names.push_back(facts.display_name);
  o.calibrate_names.insert(o.calibrate_names.end(), facts.aliases.begin(), facts.aliases.end());
}

Setup setup(const RoofSet& roofs, const MachineFacts& facts, const SetupOptions& o) {
  if (o.tp < 1) throw InputError("--tp: must be ≥ 1 (got " + std::to_string(o.tp) + ")");
  if (o.cp < 1) throw InputError("--cp: must be ≥ 1 (got " + std::to_string(o.cp) + ")");
  if (o.pp < 1) throw InputError("--pp: must be ≥ 1 (got " + std::to_string(o.pp) + ")");
  if (!std::isfinite(o.micro_batches) || o.micro_batches < 0 ||
      o.micro_batches != std::floor(o.micro_batches))
    throw InputError("--micro-batches: must be a whole number ≥ 0 (got " +
                     format_number(o.micro_batches) + ")");
  if (o.interconnect && !(std::isfinite(o.interconnect->value) && o.interconnect->value > 0))
    throw InputError("--interconnect-bandwidth: must be a finite number > 0 (got " +
                     format_number(o.interconnect->value) + " B/s)");
  if (o.link_latency && !(std::isfinite(o.link_latency->value) && o.link_latency->value >= 0))
    throw InputError("--link-latency: must be a finite number ≥ 0 (got " +
                     format_number(o.link_latency->value) + " s)");
  if (o.link_latency && o.link_latency->value > kMostLinkLatencyS)
    throw InputError(link_latency_beyond("--link-latency", o.link_latency->value));
  if (o.domain_size && !(std::isfinite(*o.domain_size) && *o.domain_size >= 1 &&
                         *o.domain_size == std::floor(*o.domain_size)))
    throw InputError("--domain-size: must be a whole number of devices ≥ 1 (got " +
                     format_number(*o.domain_size) + ")");
  if (o.attainment && o.calibrate) throw InputError("give --attainment or --calibrate, not both");
  // Options that mean nothing without another would be ignored unsaid: refused, naming both.
  if (o.micro_batches > 0 && o.pp <= 1)
    throw InputError(
        "--micro-batches splits the batch over pipeline stages: it needs --pp "
        "greater than 1");
  // The interconnect carries tensor-parallel all-reduces (and expert all-to-alls), the context-
  // parallel ring, pipeline boundaries and training's gradient all-reduce over --dp; an
  // inference --dp only multiplies the throughput.
  if (o.interconnect && o.tp <= 1 && o.cp <= 1 && o.pp <= 1 && !o.dp_uses_interconnect)
    throw InputError(
        "--interconnect-bandwidth is used by --tp, --cp or --pp greater than 1 (and "
        "--dp with --train): none is given");

  Setup st;
  Scenario& s = st.scenario;
  s.tp = o.tp;
  s.ep = o.ep;
  s.cp = o.cp;
  s.pp = o.pp;
  s.micro_batches = o.micro_batches;
  s.flash = o.flash;
  s.mla_form = parse_mla_form(o.mla);
  s.dtypes = make_dtypes(o.weights, o.activations, o.kv_cache, o.compute, native_16bit(roofs));
  st.roofs = select_roofs(roofs, s.dtypes.compute, o.interconnect, s.dtypes.activations);
  apply_link_facts(st.roofs, link_facts(facts, st.roofs.interconnect_name), o.link_latency,
                   o.domain_size);
  if (o.attainment) apply_calibration(st.roofs, *o.attainment);
  if (o.calibrate) check_same_machine(roofs, facts, o);
  if (o.calibrate)
    apply_calibration(
        st.roofs, calibration_from(*o.calibrate, o.calibrate_origin, st.roofs, s.dtypes.compute));
  return st;
}

}  // namespace roofline::llm
