// A scenario on a machine: the parallel layout, dtypes, links and calibration that `roofline
// llm` and roofline.llm share, checked once (docs/llm.md).
#include <cmath>
#include <string>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {

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
  if (o.domain_size && !(std::isfinite(*o.domain_size) && *o.domain_size >= 1 &&
                         *o.domain_size == std::floor(*o.domain_size)))
    throw InputError("--domain-size: must be a whole number of devices ≥ 1 (got " +
                     format_number(*o.domain_size) + ")");
  if (o.attainment && o.calibrate) throw InputError("give --attainment or --calibrate, not both");

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
  st.roofs = select_roofs(roofs, s.dtypes.compute, o.interconnect);
  apply_link_facts(st.roofs, link_facts(facts, st.roofs.interconnect_name), o.link_latency,
                   o.domain_size);
  if (o.attainment) apply_calibration(st.roofs, *o.attainment);
  if (o.calibrate)
    apply_calibration(
        st.roofs, calibration_from(*o.calibrate, o.calibrate_origin, st.roofs, s.dtypes.compute));
  return st;
}

}  // namespace roofline::llm
