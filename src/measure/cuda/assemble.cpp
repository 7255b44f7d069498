// Turning GPU measurements into a machine document (docs/schema.md) through the engine's one
// assemble step (engine.hpp): the GPU path's timed rates become the engine's samples, each roof's
// theory the engine's Theory (SMs × clock × work per cycle per SM), so GPU roofs get the same
// statistics, theory judgements and warnings as every other backend. Host-only and pure, so it
// is tested on machines without a GPU.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "roofline/cuda.hpp"
#include "roofline/engine.hpp"
#include "roofline/statistics.hpp"

namespace roofline::cuda {

// The statistics policy is the engine's (statistics.hpp), the same for every backend.
Statistics rate_statistics(const std::vector<double>& rates) {
  if (rates.empty()) throw InputError("rate_statistics: no repetitions");
  for (double r : rates)
    if (!(r > 0) || !std::isfinite(r))
      throw InputError("rate_statistics: a rate must be finite and > 0");
  return summarize_rates(rates);
}

double roof_rate(const Statistics& stats) {
  // The roof is the sustained rate of the repetitions at the best point of the sweep (the
  // engine's policy, statistics.hpp), while the sweep itself finds the shape that reaches it.
  return stats.sustained;
}

namespace {

/// The GPU path times each repetition itself and reports its rate; as the engine's samples,
/// a rate r is r units of work (or bytes) in one second, so rate() gives r back unchanged.
std::vector<engine::Sample> as_samples(const std::vector<double>& rates, const std::string& what) {
  if (rates.empty()) throw InputError(what + ": no repetitions");
  std::vector<engine::Sample> out;
  for (double r : rates) out.push_back({r, 1.0});
  return out;
}

/// A roof's energy in the form every backend gives it: one visit of the measured time.
engine::VisitEnergy visit_energy(const EnergyUnderLoad& e) {
  engine::VisitEnergy v;
  v.joules = e.joules;
  v.seconds = e.seconds;
  v.visits = 1;
  return v;
}

const char* kCounting =
    "the GPU path's own timing: each repetition's work (or bytes) over its CUDA-event time, "
    "as a rate";

}  // namespace

engine::Measurements engine_measurements(const DeviceProps& props, const RoofSet& theory,
                                         const Measurements& measured, const nlohmann::json& device,
                                         const nlohmann::json& measurement) {
  engine::Measurements em;
  em.name = props.name.empty() ? "cuda device" : props.name;
  em.origin = "roofline measure --device cuda";
  const std::vector<UnitRate> table = unit_rates(props.cc_major, props.cc_minor);
  nlohmann::json sweeps = nlohmann::json::object();

  for (const ComputeResult& c : measured.compute) {
    engine::ComputeMeasurement cm;
    cm.name = roof_name(c.precision, c.unit);
    cm.unit = c.unit;
    cm.method = c.method;
    cm.declaration.kernel = c.method;
    cm.declaration.precision = c.precision;
    cm.declaration.instruction_class = c.unit;
    cm.declaration.work_per_iteration = 1;
    cm.declaration.integer = c.integer;
    cm.declaration.counting = kCounting;
    cm.samples = as_samples(c.best_rates, cm.name);
    const auto rate = std::find_if(table.begin(), table.end(), [&](const UnitRate& r) {
      return r.precision == c.precision && r.unit == c.unit;
    });
    if (rate != table.end())
      cm.theory = unit_theory(props, *rate, c.clock ? &*c.clock : nullptr);
    else
      cm.no_theory = "no per-SM rate of " + cm.name + " for sm_" + std::to_string(props.cc_major) +
                     std::to_string(props.cc_minor) + " in the table (docs/cuda.md)";
    if (!c.sweep.empty()) {
      nlohmann::json s = nlohmann::json::array();
      for (const auto& [size, r] : c.sweep) s.push_back({{"size", size}, {"rate", r}});
      sweeps[cm.name] = std::move(s);
    }
    if (c.energy) cm.energy = visit_energy(*c.energy);
    em.compute.push_back(std::move(cm));
  }

  for (const MemoryResult& m : measured.memory) {
    engine::MemoryMeasurement mm;
    mm.level = m.level;
    mm.kind = m.kind;
    mm.method = m.method;
    mm.size_bytes = m.size_bytes;
    const MemoryRoof* t = theory.find_memory(m.level);
    if (!mm.size_bytes && t) mm.size_bytes = t->size_bytes;
    if (mm.size_bytes) mm.working_set_bytes = *mm.size_bytes;
    for (const auto& [mix, rates] : m.mixes) {
      engine::MixMeasurement x;
      x.declaration.kernel = m.method;
      x.declaration.instruction_class = mix;
      x.declaration.bytes_per_iteration = 1;
      x.declaration.counting = kCounting;
      x.samples = as_samples(rates, m.level + " " + mix);
      mm.mixes.push_back(std::move(x));
    }
    if (mm.mixes.empty()) throw InputError("memory level " + m.level + ": no rates measured");
    mm.planned_mix = m.roof_mix;
    if (m.energy) mm.energy = visit_energy(*m.energy);
    if (t) {
      mm.theoretical_bandwidth = t->theoretical ? *t->theoretical : t->bandwidth;
      mm.theory_formula = t->formula;
    }
    em.memory.push_back(std::move(mm));
  }

  // Roofs of the table that were not measured stay, marked theoretical.
  em.unmeasured_compute = theory.compute;
  em.unmeasured_memory = theory.memory;
  em.default_compute = theory.default_compute;
  em.default_memory = theory.default_memory;
  em.info = {{"vendor", "NVIDIA"},
             {"kind", "gpu"},
             {"model", props.name},
             {"compute_capability",
              std::to_string(props.cc_major) + "." + std::to_string(props.cc_minor)}};
  em.sections["device"] = device;
  nlohmann::json m = measurement.is_object() ? measurement : nlohmann::json::object();
  if (!measured.working_set_sweep.empty()) {
    nlohmann::json ws = nlohmann::json::array();
    for (const SweepSample& s : measured.working_set_sweep)
      ws.push_back({{"working_set", s.working_set_bytes}, {"bandwidth", s.bytes_per_s}});
    m["working_set_sweep"] = std::move(ws);
  }
  if (!sweeps.empty()) m["compute_sweeps"] = std::move(sweeps);
  if (!measured.unavailable.empty()) m["unavailable"] = measured.unavailable;
  if (m.contains("seconds") && m["seconds"].is_number()) em.seconds = m["seconds"].get<double>();
  em.measurement = std::move(m);
  return em;
}

MachineDocument assemble_document(const DeviceProps& props, const RoofSet& theory,
                                  const Measurements& measured, const nlohmann::json& device,
                                  const nlohmann::json& measurement) {
  return engine::assemble(engine_measurements(props, theory, measured, device, measurement));
}

}  // namespace roofline::cuda
