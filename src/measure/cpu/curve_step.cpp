// The empirical curve (steps.hpp): a read-only fp64 kernel at the DRAM working set, `rounds`
// FMAs on every loaded vector, from I = 1/16 to 256 FLOP/byte.
#include <algorithm>
#include <array>
#include <cmath>

#include "measure/cpu/steps.hpp"

namespace roofline::cpu {

CurveStep measure_curve(const Plan& plan, engine::ThreadTeam& team, Buffer& buf, size_t chunk,
                        engine::Progress& progress) {
  CurveStep step;
  const CurveKernel& ck = *plan.curve_backend->curve_kernel();
  const int threads = plan.threads;
  const size_t chunk_groups =
      static_cast<size_t>(plan.max_working_set / threads) / static_cast<size_t>(ck.bytes_per_group);
  std::vector<size_t> offset(static_cast<size_t>(threads), 0);
  std::vector<std::array<double, 32>> outs(static_cast<size_t>(threads));
  auto run_groups = [&](std::uint64_t rounds, bool light, size_t groups) {
    return team.run([&](int id) {
      const auto i = static_cast<size_t>(id);
      const auto* base = reinterpret_cast<const double*>(buf.data + i * chunk);
      size_t left = groups;
      while (left > 0) {
        const size_t n = std::min(left, chunk_groups - offset[i]);
        ck.run(base + offset[i] * static_cast<size_t>(ck.bytes_per_group) / sizeof(double), n,
               rounds, light ? 1 : 0, outs[i].data());
        offset[i] = (offset[i] + n) % chunk_groups;
        left -= n;
      }
    });
  };
  std::vector<std::pair<std::uint64_t, bool>> points = {{0, true}};
  for (auto r : plan.curve_rounds) points.push_back({r, false});
  // Each point calibrated once (groups per sample), then all points interleaved.
  std::vector<engine::Visit> visits;
  for (const auto& [rounds, light] : points) {
    const size_t probe = std::min<size_t>(chunk_groups, 2048);
    const double t = run_groups(rounds, light, probe);
    const size_t groups = std::max<size_t>(
        1, static_cast<size_t>(double(probe) * 2 * plan.sample_seconds / std::max(t, 1e-7)));
    engine::Declaration d;
    d.kernel = ck.symbol;
    d.precision = "fp64";
    d.width_bits = ck.width_bits;
    d.instruction_class = "curve";
    d.work_per_iteration = ck.work_per_group(rounds, light);
    d.bytes_per_iteration = ck.bytes_per_group;
    d.counting = "per group of 8 vectors: rounds × 8 FMAs (2 FLOP per lane) + adds (1 FLOP)";
    visits.push_back(
        {d, [&, rounds = rounds, light = light, groups](int n, std::vector<engine::Sample>& out) {
           for (int k = 0; k < n; ++k)
             out.push_back({double(groups) * threads, run_groups(rounds, light, groups)});
         }});
  }
  engine::Phase phase;
  phase.label = "empirical curve";
  phase.weight = double(points.size());
  phase.seconds = plan.times.curve;
  phase.min_rounds = 3;
  const engine::PhaseResult r = engine::interleave(visits, phase, progress);
  step.retries = r.retried;
  for (size_t p = 0; p < points.size(); ++p) {
    engine::CurveMeasurement c;
    c.declaration = visits[p].declaration;
    c.samples = r.samples[p];
    c.rounds = points[p].first;
    c.light = points[p].second;
    step.points.push_back(std::move(c));
  }
  for (const auto& o : outs)
    for (double v : o)
      if (!std::isfinite(v)) throw Error("curve kernel produced a non-finite result");
  step.setup = {ck.symbol, double(chunk_groups) * ck.bytes_per_group * threads, "fp64"};
  return step;
}

}  // namespace roofline::cpu
