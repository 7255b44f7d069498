#pragma once
// Taking samples the way every backend does (docs/measure.md "Statistics and trust"): timed by
// duration, interleaved in rounds over a phase, repeated by time rather than by count, with the
// retry rule of the statistics policy. Progress and cancellation of a measurement live here too.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "measure/engine/sample_time.hpp"
#include "roofline/engine.hpp"
#include "roofline/statistics.hpp"

namespace roofline::engine {

/// Progress bar and cancellation of one measurement.
class Progress {
 public:
  explicit Progress(const MeasureOptions& o) : o_(o) {}
  /// Throws Interrupted when the measurement was cancelled.
  void check_cancel() const;
  /// The total weight of the measurement's steps (the bar's 100%).
  void set_total(double total) { total_ = total; }
  /// One step of `weight` done, now running `what`.
  void step(const std::string& what, double weight);
  void finish();

 private:
  const MeasureOptions& o_;
  double total_ = 0, done_ = 0;
};

/// A power interface's cumulative energy counter in joules (RAPL's package zones summed), or
/// nullopt when a reading fails. Only differences between two readings mean anything.
using EnergyReader = std::function<std::optional<double>()>;

/// A measurement's energy for its roof's detail: {"joules", "seconds", "power_w", "visits"}.
/// Inline: the GPU check's standalone program (bench/gpu_prepare.sh) takes it without the
/// sampler.
inline nlohmann::json energy_to_json(const VisitEnergy& e) {
  return {
      {"joules", e.joules}, {"seconds", e.seconds}, {"power_w", e.watts()}, {"visits", e.visits}};
}

/// How long one phase samples its measurements.
struct Phase {
  std::string label;     ///< progress text
  double weight = 1;     ///< share of the progress bar
  double seconds = 1;    ///< time the base rounds take together (then: retries)
  int min_rounds = 3;    ///< at least this many rounds, whatever the time
  int max_rounds = 400;  ///< at most this many base rounds
  int per_round = 1;     ///< samples each measurement takes per visit
  /// Retries run for up to this share of the base rounds' time (at least min_retry_rounds
  /// rounds): a quarter, so that a run on a busy machine takes at most 1.25 × its phases' time.
  double retry_share = 0.25;
  int min_retry_rounds = 1;  ///< retry rounds taken whatever the time
  /// The machine's energy counter; empty where it has none (then PhaseResult::energy is empty).
  EnergyReader energy;
};

/// One measurement taking part in a phase: `take(n, out)` appends n timed samples after whatever
/// warm-up it needs (bringing its working set back into its level). The declaration gives the
/// rate the retry rule judges.
struct Visit {
  Declaration declaration;
  std::function<void(int n, std::vector<Sample>& out)> take;
  /// A reference the other measurements are judged against (the clock every theoretical peak
  /// depends on): it is visited in every retry round too, so that it sees every window of the
  /// machine's speed that a retried measurement sees.
  bool reference = false;
};

struct PhaseResult {
  std::vector<std::vector<Sample>> samples;  ///< per visit
  int rounds = 0;                            ///< base rounds taken
  int retried = 0;                  ///< measurements that needed more samples (the retry rule)
  std::vector<VisitEnergy> energy;  ///< per visit, when the phase had an energy reader
};

/// Samples `visits` in rounds: each round visits every measurement for `per_round` samples, so
/// a measurement's samples spread over the whole phase rather than one burst (on a shared
/// machine full speed comes and goes within milliseconds to tenths of a second). Rounds go on
/// until the phase's time is spent (at least min_rounds, at most max_rounds). Then every
/// measurement the retry rule (needs_retry) names is visited again, for up to retry_share of
/// that time, and every reference visit with it.
PhaseResult interleave(const std::vector<Visit>& visits, const Phase& phase, Progress& progress);

/// Seconds since an arbitrary epoch (monotonic).
double now_seconds();

}  // namespace roofline::engine
