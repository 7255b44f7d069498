// Sampling by duration in interleaved rounds (sampler.hpp).
#include "measure/engine/sampler.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>

namespace roofline::engine {

void Progress::check_cancel() const {
  if (o_.cancel && o_.cancel->load()) throw Interrupted("measurement interrupted");
}

void Progress::step(const std::string& what, double weight) {
  check_cancel();
  done_ += weight;
  if (o_.progress) o_.progress(total_ > 0 ? std::min(1.0, done_ / total_) : 0.0, what);
}

void Progress::finish() {
  if (o_.progress) o_.progress(1.0, "done");
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double clock_resolution_seconds() {
  timespec ts{};
  if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) return 1e-6;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double sample_seconds(bool quick) {
  // 2 ms: longer than a Linux time slice at its base (0.75 ms × (1 + log2 CPUs), EEVDF) on
  // machines up to 4 CPUs and than the 1 ms timer tick, so a tick or a slice given to another
  // task costs a sample part of its time; ≥ 10⁴ clock ticks (20 ns on current x86 machines).
  const double base = quick ? 0.001 : 0.002;
  return std::max(base, 1e4 * clock_resolution_seconds());
}

namespace {
// One visit of measurement i, bracketed by two readings of the energy counter when there is one.
void take_visit(const std::vector<Visit>& visits, size_t i, const Phase& phase, PhaseResult& r) {
  if (!phase.energy) {
    visits[i].take(phase.per_round, r.samples[i]);
    return;
  }
  const std::optional<double> e0 = phase.energy();
  const double t0 = now_seconds();
  visits[i].take(phase.per_round, r.samples[i]);
  const double t1 = now_seconds();
  const std::optional<double> e1 = phase.energy();
  if (e0 && e1 && *e1 >= *e0) {
    VisitEnergy& e = r.energy[i];
    e.joules += *e1 - *e0;
    e.seconds += t1 - t0;
    ++e.visits;
  }
}
}  // namespace

PhaseResult interleave(const std::vector<Visit>& visits, const Phase& phase, Progress& progress) {
  PhaseResult r;
  r.samples.resize(visits.size());
  if (phase.energy) r.energy.resize(visits.size());
  if (visits.empty()) return r;
  const double per_visit_weight =
      phase.weight / static_cast<double>(visits.size()) / std::max(1, phase.min_rounds);
  const double start = now_seconds();
  double reported = 0;
  while (r.rounds < phase.max_rounds &&
         (r.rounds < phase.min_rounds || now_seconds() - start < phase.seconds)) {
    for (size_t i = 0; i < visits.size(); ++i) {
      progress.check_cancel();
      take_visit(visits, i, phase, r);
      // The bar advances over the first min_rounds rounds; later rounds fill the phase's time.
      if (r.rounds < phase.min_rounds) {
        progress.step(phase.label, per_visit_weight);
        reported += per_visit_weight;
      }
    }
    ++r.rounds;
  }
  if (reported < phase.weight) progress.step(phase.label, phase.weight - reported);
  // The retry rule: measurements whose fastest samples disagree get more rounds, for up to
  // retry_share of the time the base rounds took.
  const double spent = now_seconds() - start;
  std::vector<size_t> retry;
  for (size_t i = 0; i < visits.size(); ++i)
    if (needs_retry(summarize_rates(rates(visits[i].declaration, r.samples[i]))))
      retry.push_back(i);
  r.retried = static_cast<int>(retry.size());
  const double retry_start = now_seconds();
  for (int round = 0;
       !retry.empty() && round < phase.max_rounds &&
       (round < phase.min_retry_rounds || now_seconds() - retry_start < phase.retry_share * spent);
       ++round) {
    for (size_t i = 0; i < visits.size(); ++i) {
      if (!visits[i].reference && std::find(retry.begin(), retry.end(), i) == retry.end()) continue;
      progress.check_cancel();
      take_visit(visits, i, phase, r);
    }
    std::erase_if(retry, [&](size_t i) {
      return !needs_retry(summarize_rates(rates(visits[i].declaration, r.samples[i])));
    });
  }
  return r;
}

}  // namespace roofline::engine
