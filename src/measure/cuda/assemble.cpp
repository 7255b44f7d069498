// Turning GPU measurements into a machine document (docs/schema.md): measured roofs with their
// statistics, the theoretical roof of the same name beside each, and the device description.
// Host-only and pure, so it is tested on machines without a GPU.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "roofline/cuda.hpp"
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

MachineDocument assemble_document(const DeviceProps& props, const RoofSet& theory,
                                  const Measurements& measured, const nlohmann::json& device,
                                  const nlohmann::json& measurement) {
  MachineDocument doc;
  RoofSet& roofs = doc.roofs;
  roofs.name = props.name.empty() ? "cuda device" : props.name;
  nlohmann::json sweeps = nlohmann::json::object();

  for (const ComputeResult& c : measured.compute) {
    ComputeRoof r;
    r.precision = c.precision;
    r.unit = c.unit;
    r.name = roof_name(c.precision, c.unit);
    r.integer = c.integer;
    r.provenance = Provenance::measured;
    r.source = c.method;
    r.stats = rate_statistics(c.best_rates);
    r.peak = WorkRate(roof_rate(*r.stats));
    if (const ComputeRoof* t = theory.find_compute(r.name)) {
      r.theoretical = t->theoretical ? *t->theoretical : t->peak;
      r.formula = t->formula;
    }
    if (!c.sweep.empty()) {
      nlohmann::json s = nlohmann::json::array();
      for (const auto& [size, rate] : c.sweep) s.push_back({{"size", size}, {"rate", rate}});
      sweeps[r.name] = std::move(s);
    }
    roofs.compute.push_back(std::move(r));
  }
  for (const ComputeRoof& t : theory.compute)
    if (!roofs.find_compute(t.name)) roofs.compute.push_back(t);

  for (const MemoryResult& m : measured.memory) {
    MemoryRoof r;
    r.level = m.level;
    r.kind = m.kind;
    r.provenance = Provenance::measured;
    r.source = m.method;
    r.size_bytes = m.size_bytes;
    r.convention = "named";  // bytes the kernels name: loads + stores, as STREAM counts them
    const std::vector<double>* roof_rates = nullptr;
    for (const auto& [mix, rates] : m.mixes) {
      r.mixes[mix] = roof_rate(rate_statistics(rates));
      if (mix == m.roof_mix) roof_rates = &rates;
    }
    if (!roof_rates) {
      if (m.mixes.empty()) throw InputError("memory level " + m.level + ": no rates measured");
      roof_rates = &m.mixes.front().second;
    }
    r.stats = rate_statistics(*roof_rates);
    r.bandwidth = ByteRate(roof_rate(*r.stats));
    if (const MemoryRoof* t = theory.find_memory(r.level)) {
      r.theoretical = t->theoretical ? *t->theoretical : t->bandwidth;
      r.formula = t->formula;
      if (!r.size_bytes) r.size_bytes = t->size_bytes;
    }
    roofs.memory.push_back(std::move(r));
  }
  for (const MemoryRoof& t : theory.memory)
    if (!roofs.find_memory(t.level)) roofs.memory.push_back(t);

  roofs.default_memory = theory.default_memory;
  if (!roofs.find_memory(roofs.default_memory)) roofs.default_memory.clear();
  roofs.default_compute = theory.default_compute;
  if (!roofs.find_compute(roofs.default_compute)) roofs.default_compute.clear();
  roofs.validate();

  doc.info = {{"vendor", "NVIDIA"},
              {"kind", "gpu"},
              {"model", props.name},
              {"compute_capability",
               std::to_string(props.cc_major) + "." + std::to_string(props.cc_minor)}};
  doc.sections["device"] = device;
  nlohmann::json m = measurement;
  if (!measured.working_set_sweep.empty()) {
    nlohmann::json ws = nlohmann::json::array();
    for (const SweepSample& s : measured.working_set_sweep)
      ws.push_back({{"working_set", s.working_set_bytes}, {"bandwidth", s.bytes_per_s}});
    m["working_set_sweep"] = std::move(ws);
  }
  if (!sweeps.empty()) m["compute_sweeps"] = std::move(sweeps);
  if (!measured.unavailable.empty()) m["unavailable"] = measured.unavailable;
  doc.sections["measurement"] = std::move(m);
  doc.origin = "roofline measure --device cuda";
  return doc;
}

}  // namespace roofline::cuda
