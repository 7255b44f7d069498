// The memory step (steps.hpp): the working-set sweep, plateaus named after the caches, every
// access mix at each level's working set, each level's best mix on one core.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <set>

#include "measure/cpu/mix_job.hpp"
#include "measure/cpu/steps.hpp"
#include "measure/engine/memory.hpp"
#include "roofline/quantity.hpp"

namespace roofline::cpu {

Buffer::Buffer(size_t n)
    : data(static_cast<unsigned char*>(engine::allocate_huge_pages(n))), bytes(n) {
  if (!data)
    throw Unavailable("cannot allocate " + format_bytes(Bytes(double(n))) +
                      " for the memory sweep");
}

Buffer::~Buffer() {
  std::free(data);
}

namespace {

engine::PhaseResult run_jobs(const std::vector<std::unique_ptr<MixJob>>& jobs,
                             const std::string& label, double weight, double seconds, int per_round,
                             engine::Progress& progress, const engine::EnergyReader& energy = {}) {
  std::vector<engine::Visit> visits;
  for (const auto& j : jobs) visits.push_back(j->visit());
  engine::Phase phase;
  phase.energy = energy;
  phase.label = label;
  phase.weight = weight;
  phase.seconds = seconds;
  phase.min_rounds = 3;
  phase.per_round = per_round;
  return engine::interleave(visits, phase, progress);
}

std::string kib(double bytes) {
  return format_bytes(Bytes(bytes));
}

/// The level's capacity in words a user can check: per core and for the team.
std::string size_words(const CacheInfo& c, int threads, double for_threads) {
  const double per_core = c.size_bytes / std::max(1, c.cores_sharing);
  std::string s =
      kib(c.size_bytes) + (c.cores_sharing > 1 ? " shared by " + std::to_string(c.cores_sharing) +
                                                     " cores (" + kib(per_core) + " per core)"
                                               : " per core");
  if (threads > 1) s += ", " + kib(for_threads) + " for " + std::to_string(threads) + " threads";
  return s;
}

/// The levels to measure: from the sweep of the load mix over working-set sizes, its plateaus
/// named after the caches (step.sweep records both), limited to the plan's levels; DRAM alone
/// for the probe plan. `load` (the load mix, needed by the sweep only) may be null for the probe.
std::vector<LevelAssignment> find_memory_levels(const Plan& plan, engine::ThreadTeam& team,
                                                Buffer& buf, size_t chunk, const MemoryKernel* load,
                                                engine::Progress& progress, MemoryStep& step) {
  std::vector<LevelAssignment> chosen;
  if (plan.probe) {
    LevelAssignment d;
    d.level = "DRAM";
    d.representative_bytes = plan.max_working_set;
    chosen.push_back(d);
    return chosen;
  }
  std::vector<std::unique_ptr<MixJob>> sweep_jobs;
  for (double ws : plan.sweep_sizes)
    sweep_jobs.push_back(
        std::make_unique<MixJob>(team, buf, chunk, *load, ws, plan.sample_seconds / 2,
                                 ws <= plan.last_level_bytes, plan.last_level_bytes));
  const engine::PhaseResult sr =
      run_jobs(sweep_jobs, "working-set sweep", double(plan.sweep_sizes.size()), plan.times.sweep,
               2, progress);
  step.retries += sr.retried;
  std::vector<SweepPoint> sweep;
  const engine::Declaration load_decl = declaration_of(*load);
  for (size_t i = 0; i < sweep_jobs.size(); ++i)
    sweep.push_back({sweep_jobs[i]->working_set,
                     summarize_rates(engine::rates(load_decl, sr.samples[i])).sustained});
  sweep_jobs.clear();
  const auto plateaus = find_plateaus(sweep);
  const auto assigned = name_levels(sweep, plateaus, plan.capacities);
  WorkingSetSweepRecord record;
  record.kernel = load->symbol;
  record.convention = "named";
  for (const auto& p : sweep) record.points.push_back({p.bytes, p.rate});
  for (const auto& p : plateaus) record.plateaus.push_back({p.min_bytes, p.max_bytes, p.rate});
  step.sweep = std::move(record);
  std::set<std::string> seen;
  for (const auto& a : assigned) {
    if (!plan.levels.empty() &&
        std::find(plan.levels.begin(), plan.levels.end(), a.level) == plan.levels.end())
      continue;
    if (!seen.insert(a.level).second) continue;
    chosen.push_back(a);
  }
  for (const auto& l : plan.levels)
    if (!seen.count(l))
      step.warnings.push_back("level " + l + " requested but not found on this machine");
  return chosen;
}

/// measurement.memory.LEVEL's sizes of a cache level: the reported capacity, where the sweep's
/// plateau ends and whether they agree, the cache as the topology gives it; its note (both sides
/// of the check) is also a warning of the step.
engine::LevelSizes cache_level_sizes(const LevelAssignment& a, const Topology& topo, int threads,
                                     std::vector<std::string>& warnings) {
  const size_t ci = static_cast<size_t>(std::stoi(a.level.substr(1))) - 1;
  engine::LevelSizes sizes;
  sizes.reported_size = a.reported_bytes;
  sizes.plateau_edge = a.measured_edge_bytes;
  sizes.plateau_edge_per_thread = a.measured_edge_bytes / threads;
  sizes.size_agrees = a.size_agrees;
  if (ci < topo.caches.size()) {
    const CacheInfo& c = topo.caches[ci];
    sizes.cache = engine::CacheShare{c.size_bytes, c.cores_sharing,
                                     c.size_bytes / std::max(1, c.cores_sharing),
                                     size_words(c, threads, a.reported_bytes)};
  }
  if (!a.note.empty()) {
    // Both sides of the check over all threads, and per thread against the per-core size.
    std::string note = a.note;
    if (a.plateau && !a.size_agrees && a.reported_bytes > 0)
      note = "the plateau ends at " + kib(a.measured_edge_bytes) +
             (threads > 1 ? " (" + kib(a.measured_edge_bytes / threads) + " per thread)"
                          : std::string()) +
             ", " + format_number(100 * a.measured_edge_bytes / a.reported_bytes, 2) +
             "% of the capacity the threads reach — expected 40% to 200%";
    if (ci < topo.caches.size())
      note = size_words(topo.caches[ci], threads, a.reported_bytes) + "; " + note;
    sizes.note = note;
    warnings.push_back(a.level + ": " + note);
  }
  return sizes;
}

/// One level's measurement from the mixes' samples (`first` = its first job's index): every mix,
/// the level's sizes, and the power while each mix ran, the roof's own (best) mix first
/// (docs/energy.md "Measured power"). `best_kernel` is set to the level's best mix.
engine::MemoryMeasurement level_measurement(const LevelAssignment& a,
                                            const std::vector<MemoryKernel>& mkernels,
                                            const engine::PhaseResult& mr, size_t first,
                                            const std::string& method, const Topology& topo,
                                            int threads, const MemoryKernel*& best_kernel,
                                            std::vector<std::string>& warnings) {
  engine::MemoryMeasurement l;
  l.level = a.level;
  l.kind = a.level == "DRAM" ? "memory" : "cache";
  l.working_set_bytes = a.representative_bytes;
  if (a.reported_bytes > 0) l.size_bytes = a.reported_bytes;
  l.method = method;
  double best = 0;
  best_kernel = nullptr;
  for (size_t mi = 0; mi < mkernels.size(); ++mi) {
    engine::MixMeasurement mix{declaration_of(mkernels[mi]), mr.samples[first + mi]};
    const double sustained = summarize_rates(engine::rates(mix.declaration, mix.samples)).sustained;
    if (sustained > best) best = sustained, best_kernel = &mkernels[mi];
    l.mixes.push_back(std::move(mix));
  }
  for (size_t mi = 0; mi < mkernels.size(); ++mi) {
    const size_t index = first + mi;
    if (index >= mr.energy.size() || mr.energy[index].visits == 0) continue;
    l.mix_energy[mkernels[mi].mix] = mr.energy[index];
    if (&mkernels[mi] == best_kernel) l.energy = mr.energy[index];
  }
  if (a.level != "DRAM") {
    l.sizes = cache_level_sizes(a, topo, threads, warnings);
  } else {
    l.sizes = engine::LevelSizes{};  // reported_size 0, size_agrees: DRAM has no size to check
    l.sizes->plateau_edge = a.measured_edge_bytes;
    if (!a.note.empty()) {
      l.sizes->note = a.note;
      warnings.push_back("DRAM: " + a.note);
    }
  }
  return l;
}

/// One core: each level's best mix again; one thread may use the whole buffer (the DRAM working
/// set stays the same; a cache level's is one thread's share).
void measure_one_core_mixes(const Plan& plan, engine::ThreadTeam& solo, Buffer& buf, size_t chunk,
                            const std::vector<LevelAssignment>& chosen,
                            const std::vector<const MemoryKernel*>& best_kernels,
                            engine::Progress& progress, MemoryStep& step) {
  const int threads = plan.threads;
  std::vector<std::unique_ptr<MixJob>> solo_jobs;
  std::vector<size_t> solo_levels;
  for (size_t li = 0; li < chosen.size(); ++li) {
    if (!best_kernels[li]) continue;
    const bool dram = chosen[li].level == "DRAM";
    const double ws1 =
        dram ? chosen[li].representative_bytes : chosen[li].representative_bytes / threads;
    solo_jobs.push_back(std::make_unique<MixJob>(solo, buf, chunk * static_cast<size_t>(threads),
                                                 *best_kernels[li], ws1, plan.sample_seconds, !dram,
                                                 plan.last_level_bytes));
    solo_levels.push_back(li);
  }
  const engine::PhaseResult r1 =
      run_jobs(solo_jobs, "access mixes (one core)", double(solo_jobs.size()),
               plan.times.mixes_one_core, 2, progress);
  step.retries += r1.retried;
  for (size_t i = 0; i < solo_jobs.size(); ++i) {
    engine::MemoryMeasurement& l = step.levels[solo_levels[i]];
    l.one_core =
        engine::MixMeasurement{declaration_of(*best_kernels[solo_levels[i]]), r1.samples[i]};
    l.one_core_working_set_bytes = solo_jobs[i]->working_set;
  }
}

}  // namespace

MemoryStep measure_memory(const Plan& plan, engine::ThreadTeam& team, engine::ThreadTeam* solo,
                          Buffer& buf, size_t chunk, const Topology& topo,
                          engine::Progress& progress) {
  MemoryStep step;
  double part_start = engine::now_seconds();
  auto part_done = [&](const char* name) {
    const double now = engine::now_seconds();
    step.part_seconds.emplace_back(name, now - part_start);
    part_start = now;
  };
  const auto mkernels = plan.memory_backend->memory_kernels();
  const MemoryKernel* load = nullptr;
  for (const auto& k : mkernels)
    if (std::string(k.mix) == "load") load = &k;
  const int threads = plan.threads;

  const std::vector<LevelAssignment> chosen =
      find_memory_levels(plan, team, buf, chunk, load, progress, step);
  if (!plan.probe) part_done("sweep");

  // Every mix at every level, interleaved.
  std::vector<std::unique_ptr<MixJob>> jobs;
  for (const auto& a : chosen)
    for (const auto& k : mkernels)
      jobs.push_back(std::make_unique<MixJob>(team, buf, chunk, k, a.representative_bytes,
                                              plan.sample_seconds, a.level != "DRAM",
                                              plan.last_level_bytes));
  const engine::PhaseResult mr = run_jobs(jobs, "access mixes", 4.0 * double(chosen.size()),
                                          plan.times.mixes, 2, progress, plan.energy);
  step.retries += mr.retried;
  part_done("mixes");

  const std::string method = std::string(plan.memory_backend->name()) + " kernels, " +
                             std::to_string(threads) + " pinned thread" + (threads == 1 ? "" : "s");
  std::vector<const MemoryKernel*> best_kernels(chosen.size(), nullptr);
  for (size_t li = 0; li < chosen.size(); ++li)
    step.levels.push_back(level_measurement(chosen[li], mkernels, mr, li * mkernels.size(), method,
                                            topo, threads, best_kernels[li], step.warnings));
  jobs.clear();

  if (solo) {
    measure_one_core_mixes(plan, *solo, buf, chunk, chosen, best_kernels, progress, step);
    part_done("one_core");
  }
  return step;
}

}  // namespace roofline::cpu
