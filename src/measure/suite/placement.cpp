// Placing the suite's runs on a machine's roofs (suite.hpp): points, diagnoses, the
// write-allocate triad point, the causes of a point above its roof, and the run's document.
#include <algorithm>

#include "roofline/quantity.hpp"
#include "roofline/suite.hpp"

namespace roofline::suite {
namespace {

Point keep_levels_with_roofs(Point p, const RoofSet& roofs) {
  std::vector<LevelTraffic> kept;
  for (const auto& t : p.traffic)
    if (roofs.find_memory(t.level)) kept.push_back(t);
  p.traffic = kept;
  return p;
}

void diagnose_placed(PlacedRun& pl, const RoofSet& roofs, double touching) {
  const Point judged = keep_levels_with_roofs(pl.point, roofs);
  if (judged.traffic.empty()) {
    pl.why_not = "the machine has no roof for " + pl.result.level;
    return;
  }
  try {
    DiagnosisOptions dopt;
    dopt.touching = touching;
    pl.diagnosis = diagnose(judged, roofs, dopt);
  } catch (const InputError& e) {
    pl.why_not = e.what();
  }
}

/// Why a point sits above the roof it is judged on (attainment > 1): each cause that the
/// document and the run show, most specific first. Never empty.
std::string above_roof_cause(const PlacedRun& p, const RoofSet& roofs, const Machine& machine) {
  std::vector<std::string> causes;
  const Diagnosis& d = *p.diagnosis;
  const MemoryRoof* level = roofs.find_memory(d.binding_level);
  if (d.binding_level == "DRAM" && p.result.level == "DRAM") {
    double llc = 0;
    for (const auto& c : machine.topology.caches) llc = std::max(llc, c.size_bytes);
    if (llc > 0 && p.result.working_set_bytes < 8 * llc)
      causes.push_back("part of the " + format_bytes(Bytes(p.result.working_set_bytes)) +
                       " working set stays in the " + format_bytes(Bytes(llc)) +
                       " last-level cache between calls");
  }
  if (level && level->stats && (level->stats->noisy || !level->stats->confirmed()))
    causes.push_back("the " + level->level + " roof was measured noisy (its samples spread " +
                     format_number(100 * level->stats->shown_spread(), 2) + "%): it is likely low");
  if (p.result.noisy)
    causes.push_back("the point's own repetitions are noisy (" +
                     format_number(100 * p.result.spread(), 2) + "%)");
  if (causes.empty())
    causes.push_back(
        "the point and the roof were measured minutes apart on a shared machine; "
        "a difference of this size is within their run-to-run spread");
  std::string s;
  for (const auto& c : causes) s += (s.empty() ? "" : "; ") + c;
  return s;
}

}  // namespace

std::vector<std::string> blas_kernels(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names)
    for (const auto& k : suite_kernels())
      if (k.name == n && k.blas) out.push_back(n);
  return out;
}

Placement place_runs(const std::vector<RunResult>& results, const RoofSet& roofs,
                     const Machine& machine, const BlasInfo& blas, double touching) {
  Placement out;
  for (const auto& r : results) {
    if (!(r.count.work.value > 0)) {
      out.bandwidth_only.push_back(r);
      continue;
    }
    PlacedRun p{r, r.to_point(), std::nullopt, "", "", "", r.label()};
    if (!blas_kernels({r.kernel}).empty()) {
      p.corename = r.variant.empty() ? blas.corename : r.variant.substr(r.variant.find('=') + 1);
      p.point.precision = roof_for_blas_core(roofs, r.dtype, p.corename);
    }
    diagnose_placed(p, roofs, touching);
    out.placed.push_back(p);
    // Triad: the stored array is read before it is written on a write-allocate cache, so the
    // bytes moved are 4·n·s, not the 3·n·s named (catalogue traffic_write_allocate).
    if (r.kernel == "triad" && r.count.traffic_write_allocate.value > r.count.traffic.value) {
      PlacedRun wa = p;
      const double f = r.count.traffic_write_allocate.value / r.count.traffic.value;
      wa.kernel = "triad +write-allocate";
      wa.point.name = wa.kernel + " @" + r.level;
      for (auto& t : wa.point.traffic) t.bytes = Bytes(t.bytes.value * f);
      wa.point.note = "Q includes the read-for-ownership of the stored array: 4·n·s";
      wa.diagnosis.reset();
      diagnose_placed(wa, roofs, touching);
      out.placed.push_back(wa);
    }
  }
  // No point above its roof without a stated cause.
  for (auto& p : out.placed)
    if (p.diagnosis && p.diagnosis->attainment > 1.0)
      p.above_cause = above_roof_cause(p, roofs, machine);
  return out;
}

RunDocument run_document(const Placement& p, const std::string& machine_name,
                         const Machine& machine, const BlasInfo& blas, int threads, bool quick) {
  RunDocument d;
  d.machine = machine_name;
  for (const auto& pl : p.placed)
    d.points.push_back({pl.point, pl.result, pl.diagnosis, pl.why_not, pl.above_cause});
  d.threads = threads;
  d.quick = quick;
  d.blas = {blas.corename, blas.config, blas.best_core, blas.generic, blas.environment};
  for (const auto& c : machine.topology.caches)
    d.caches.push_back(
        {c.level, c.size_bytes, c.cores_sharing, c.per_core_bytes(), c.reported_bytes, c.note});
  d.bandwidth_only = p.bandwidth_only;
  d.mem_available_bytes = machine.mem_available_bytes;
  return d;
}

}  // namespace roofline::suite
