// The compute step (steps.hpp): every compute kernel and the clock, interleaved in rounds, on all
// pinned threads and then on one core.
#include <algorithm>
#include <array>
#include <memory>

#include "measure/cpu/steps.hpp"
#include "measure/engine/other_work.hpp"

namespace roofline::cpu {
namespace {

using engine::Sample;

/// Accumulator blocks of every kernel: kMaxChains slots of 64 bytes.
using OutBlock = std::array<unsigned char, kMaxChains * 64>;

/// The clock as one more measurement of the compute phase: a dependent chain of 1-cycle adds on
/// every thread of the team. cycles = chain length × iterations; a sample's rate is the slowest
/// thread's (the all-core clock). Sampled in the same rounds as the compute kernels, so that the
/// clock behind the theoretical peaks is the clock those kernels ran at: on a shared host the
/// all-core boost moves by a few percent over seconds. A preempted sample can only read low (a
/// dependent chain cannot run faster than one add per cycle), so the sustained sample is the
/// clock.
struct ClockJob {
  engine::ThreadTeam& team;
  std::vector<std::int64_t> elapsed;
  std::uint64_t iterations = 64;

  ClockJob(engine::ThreadTeam& t, double sample_s)
      : team(t), elapsed(static_cast<size_t>(t.size()), 0) {
    double seconds = 0;
    while ((seconds = run(iterations)) < sample_s / 8 && iterations < (1ull << 40)) iterations *= 2;
    iterations = std::max<std::uint64_t>(
        64, static_cast<std::uint64_t>(double(iterations) * sample_s / seconds));
  }
  double run(std::uint64_t iters) {
    team.run([&](int id) {
      const std::int64_t t0 = engine::now_ns();
      clock_chain(iters);
      elapsed[static_cast<size_t>(id)] = engine::now_ns() - t0;
    });
    return double(*std::max_element(elapsed.begin(), elapsed.end())) * 1e-9;
  }
  static engine::Declaration declaration() {
    engine::Declaration d;
    d.kernel = "roofline_cpu_clock_chain";
    d.instruction_class = "clock";
    d.work_per_iteration = kClockChainLength;  // cycles: one dependent add each
    d.counting = "one cycle per dependent register-register add; the slowest thread's time";
    return d;
  }
  engine::Visit visit() {
    return {declaration(),
            [this](int n, std::vector<Sample>& out) {
              // One thread's iterations over the slowest thread's time: cycles per second. Two
              // samples per visit: the clock is cheap and every theoretical peak depends on it.
              for (int i = 0; i < 2 * n; ++i) out.push_back({double(iterations), run(iterations)});
            },
            /*reference=*/true};
  }
};

/// A compute kernel on a team, calibrated so that one sample lasts about `sample_s`.
struct ComputeJob {
  engine::ThreadTeam& team;
  const ComputeKernel& kernel;
  std::vector<OutBlock> outs;
  alignas(64) unsigned char constants[256];
  std::uint64_t iterations = 256;

  ComputeJob(engine::ThreadTeam& t, const ComputeKernel& k, double sample_s)
      : team(t), kernel(k), outs(static_cast<size_t>(t.size())) {
    k.fill_constants(constants);
    // Grow the iteration count until a run takes an eighth of a sample, then scale to it.
    double seconds = 0;
    while ((seconds = run(iterations)) < sample_s / 8 && iterations < (1ull << 40)) iterations *= 4;
    iterations = std::max<std::uint64_t>(
        64, static_cast<std::uint64_t>(double(iterations) * sample_s / seconds));
  }
  double run(std::uint64_t iters) {
    return team.run(
        [&](int id) { kernel.run(iters, constants, outs[static_cast<size_t>(id)].data()); });
  }
  engine::Visit visit() {
    return {declaration_of(kernel), [this](int n, std::vector<Sample>& out) {
              for (int i = 0; i < n; ++i)
                out.push_back({double(iterations) * team.size(), run(iterations)});
            }};
  }
};

struct TeamResult {
  std::vector<std::vector<Sample>> samples;  // per kernel
  std::vector<Sample> clock;
  int rounds = 0, retries = 0;
  std::vector<engine::VisitEnergy> energy;  // per kernel, where the machine has a counter
};

TeamResult sample_team(engine::ThreadTeam& team, const Plan& plan, double seconds,
                       const std::string& label, engine::Progress& progress) {
  std::vector<std::unique_ptr<ComputeJob>> jobs;
  std::vector<engine::Visit> visits;
  for (const ComputeKernel& k : plan.kernels) {
    jobs.push_back(std::make_unique<ComputeJob>(team, k, plan.sample_seconds));
    visits.push_back(jobs.back()->visit());
  }
  ClockJob clock(team, plan.sample_seconds);
  visits.push_back(clock.visit());
  engine::Phase phase;
  phase.energy = plan.energy;
  phase.label = label;
  phase.weight = double(visits.size());
  phase.seconds = seconds;
  phase.min_rounds = 5;
  engine::PhaseResult r = engine::interleave(visits, phase, progress);
  TeamResult out;
  out.clock = std::move(r.samples.back());
  r.samples.pop_back();
  if (!r.energy.empty()) r.energy.pop_back();  // the clock's
  out.energy = std::move(r.energy);
  out.samples = std::move(r.samples);
  out.rounds = r.rounds;
  out.retries = r.retried;
  return out;
}

engine::Theory theory_for(const Microarchitecture& u, const ComputeKernel& k, int cores,
                          double clock_hz, double work_per_cycle) {
  engine::Theory t;
  t.units = cores;
  t.unit_name = "core";
  t.clock_hz = clock_hz;
  t.clock_source = "measured";
  t.work_per_cycle_per_unit = work_per_cycle;
  t.table = u.name;
  t.source = u.source;
  t.limit = limit_for(u, k);
  return t;
}

}  // namespace

ComputeStep measure_compute(const Plan& plan, engine::ThreadTeam& team, engine::ThreadTeam* solo,
                            const Microarchitecture& uarch, engine::Progress& progress) {
  for (const ComputeKernel& k : plan.kernels)
    run_checked(k, 256);  // results checked against the declaration before timing
  ComputeStep step;
  const engine::OtherWork other(team.cpus());
  const TeamResult all =
      sample_team(team, plan, plan.times.compute, "compute roofs and clock", progress);
  const std::optional<double> other_share = other.share();
  TeamResult one;
  if (solo)
    one = sample_team(*solo, plan, plan.times.compute_one_core,
                      "compute roofs and clock (one core)", progress);
  step.retries = all.retries + one.retries;
  const engine::Declaration clock_decl = ClockJob::declaration();
  step.clock.all_cores = summarize_rates(engine::rates(clock_decl, all.clock));
  step.clock.all_cores_hz = step.clock.all_cores.best;
  step.clock.one_core =
      solo ? summarize_rates(engine::rates(clock_decl, one.clock)) : step.clock.all_cores;
  step.clock.one_core_hz = step.clock.one_core.best;

  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    const ComputeKernel& k = plan.kernels[i];
    engine::ComputeMeasurement c;
    c.name = k.roof_name();
    c.unit = k.unit();
    c.declaration = declaration_of(k);
    c.method = std::string(k.isa) + " kernel " + k.symbol + ", " + std::to_string(plan.threads) +
               " pinned thread" + (plan.threads == 1 ? "" : "s");
    c.samples = all.samples[i];
    c.rounds = all.rounds;
    c.isa = k.isa;
    c.chains = k.chains;
    if (const auto wpc = work_per_cycle(uarch, k)) {
      c.theory = theory_for(uarch, k, plan.threads, step.clock.all_cores_hz, *wpc);
      c.theory->clock_median_hz = step.clock.all_cores.median;
      if (solo) {
        c.one_core_theory = theory_for(uarch, k, 1, step.clock.one_core_hz, *wpc);
        c.one_core_theory->clock_median_hz = step.clock.one_core.median;
      }
    } else {
      c.no_theory = "no theoretical entry for " + to_string(k.kind) +
                    (is_amx(k.kind) ? "" : " at " + std::to_string(k.width_bits) + " bits") +
                    " on microarchitecture " + uarch.name;
    }
    if (solo) c.one_core = one.samples[i];
    c.other_work = other_share;
    // Power while this kernel ran on every core (docs/energy.md "Measured power").
    if (i < all.energy.size() && all.energy[i].visits > 0) c.energy = all.energy[i];
    step.roofs.push_back(std::move(c));
  }
  return step;
}

}  // namespace roofline::cpu
