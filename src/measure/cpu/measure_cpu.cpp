// measure_machine: the CPU roofline of the machine this runs on. Plan: clock, compute roofs
// (every supported kernel, all cores then one core), working-set sweep, plateaus named after the
// caches, every access mix at each level, the empirical curve. Each step is a set of timed
// samples; rates come from the kernels' declarations (cpu_analysis.hpp).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "measure/cpu/team.hpp"
#include "roofline/cpu_analysis.hpp"
#include "roofline/cpu_backend.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/dtype.hpp"
#include "roofline/io.hpp"
#include "roofline/measure.hpp"
#include "roofline/quantity.hpp"

#ifndef ROOFLINE_VERSION
#define ROOFLINE_VERSION "unknown"
#endif

namespace roofline {
namespace {
using namespace cpu;
using nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string fmt_num(double v, int digits = 4) {
  return format_number(v, digits);
}

/// Aligned, huge-page-advised buffer.
struct Buffer {
  unsigned char* data = nullptr;
  size_t bytes = 0;
  explicit Buffer(size_t n) : bytes(n) {
    constexpr size_t kAlign = 2u << 20;
    const size_t rounded = (n + kAlign - 1) / kAlign * kAlign;
    data = static_cast<unsigned char*>(std::aligned_alloc(kAlign, rounded));
    if (!data)
      throw Unavailable("cannot allocate " + format_bytes(Bytes(double(n))) +
                        " for the memory sweep");
#if defined(MADV_HUGEPAGE)
    madvise(data, rounded, MADV_HUGEPAGE);
#endif
  }
  ~Buffer() {
    std::free(data);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

struct Settings {
  // Samples are taken in rounds (Runner::interleave): each round visits every measurement of a
  // phase for `*_per_round` samples, so a measurement's samples spread over the whole phase.
  int compute_rounds, compute_per_round;
  int memory_rounds, memory_per_round;
  int sweep_rounds, sweep_per_round;
  int curve_rounds;
  double compute_sample_s, memory_sample_s, sweep_sample_s, curve_sample_s;
  double sweep_factor;  // ratio between consecutive sweep sizes
  double dram_factor;   // largest working set = dram_factor × last-level cache
};
// Many short samples (0.5 ms: inside a scheduler time slice) rather than a few long ones, spread
// over the phase in rounds: on a shared machine most of them run undisturbed, and the sustained
// (third-fastest) one is the machine's rate.
Settings settings_for(bool quick) {
  if (quick) return {6, 6, 4, 3, 3, 2, 2, 0.0005, 0.0005, 0.0005, 0.002, 2.0, 3.0};
  return {32, 6, 12, 3, 4, 2, 3, 0.0005, 0.0008, 0.0005, 0.004, std::sqrt(2.0), 4.0};
}

class Runner {
 public:
  Runner(const MeasureOptions& o) : opt_(o), s_(settings_for(o.quick)) {}

  void check_cancel() const {
    if (opt_.cancel && opt_.cancel->load()) throw Interrupted("measurement interrupted");
  }
  void step(const std::string& what, double weight = 1) {
    check_cancel();
    done_ += weight;
    if (opt_.progress) opt_.progress(total_ > 0 ? std::min(1.0, done_ / total_) : 0.0, what);
  }
  void set_total(double t) { total_ = t; }
  void finish() {
    if (opt_.progress) opt_.progress(1.0, "done");
  }
  const Settings& settings() const { return s_; }
  const MeasureOptions& options() const { return opt_; }

  /// One measurement of a phase: a visit appends `n` samples (rates) to `out`, after whatever
  /// warm-up it needs (bringing its working set back into its cache level, say).
  using Visit = std::function<void(int n, std::vector<double>& out)>;

  /// Samples the measurements of one phase in `rounds` rounds; each round visits every one of
  /// them for `per_round` samples. A measurement's samples are thus spread over the whole phase
  /// instead of taken in one burst: on a shared machine (a virtual machine whose CPUs the host
  /// also gives to others) full speed comes and goes within milliseconds to tenths of a second,
  /// and one burst can fall entirely into a slow stretch. A measurement whose best is not
  /// confirmed (Statistics::confirmed) afterwards is visited for up to `rounds` more rounds —
  /// the retry for noise, counted in retries(). `label` and `weight` drive the progress bar.
  std::vector<Statistics> interleave(const std::vector<Visit>& visits, int rounds, int per_round,
                                     const std::string& label, double weight) {
    std::vector<std::vector<double>> samples(visits.size());
    const double per_visit = weight / double(std::max<size_t>(1, visits.size())) / rounds;
    for (int round = 0; round < rounds; ++round)
      for (size_t i = 0; i < visits.size(); ++i) {
        check_cancel();
        visits[i](per_round, samples[i]);
        step(label, per_visit);
      }
    std::vector<Statistics> out;
    for (const auto& v : samples) out.push_back(summarize_rates(v));
    std::vector<size_t> unconfirmed;
    for (size_t i = 0; i < out.size(); ++i)
      if (!out[i].confirmed()) unconfirmed.push_back(i);
    retries_ += static_cast<int>(unconfirmed.size());
    for (int round = 0; round < rounds && !unconfirmed.empty(); ++round) {
      for (size_t i : unconfirmed) {
        check_cancel();
        visits[i](per_round, samples[i]);
        out[i] = summarize_rates(samples[i]);
      }
      std::erase_if(unconfirmed, [&](size_t i) { return out[i].confirmed(); });
    }
    return out;
  }
  int retries() const { return retries_; }

 private:
  const MeasureOptions& opt_;
  Settings s_;
  double total_ = 0, done_ = 0;
  int retries_ = 0;
};

// ---------- clock ----------
/// The clock as one more measurement of the compute phase: a dependent chain of 1-cycle adds on
/// every thread of the team, each sample ~0.25 ms (well inside a scheduler time slice).
/// cycles = chain length × iterations; a sample's rate is the slowest thread's (the all-core
/// clock). Sampled in the same rounds as the compute kernels, so that the clock behind the
/// theoretical peaks is the clock those kernels ran at: on a shared host the all-core boost
/// moves by a few percent over seconds, and a clock taken once before the kernels can be off by
/// that much. A preempted sample can only read low (a dependent chain cannot run faster than one
/// add per cycle), so the sustained (third-fastest) sample is the clock.
struct ClockJob {
  ThreadTeam& team;
  std::vector<std::int64_t> elapsed;
  std::uint64_t iterations = 64;

  explicit ClockJob(ThreadTeam& t) : team(t), elapsed(static_cast<size_t>(t.size()), 0) {
    double seconds = 0;
    while ((seconds = run(iterations)) < 0.0001 && iterations < (1ull << 40)) iterations *= 2;
    iterations = std::max<std::uint64_t>(
        64, static_cast<std::uint64_t>(double(iterations) * 0.00025 / seconds));
  }
  double run(std::uint64_t iters) {
    team.run([&](int id) {
      const std::int64_t t0 = now_ns();
      clock_chain(iters);
      elapsed[static_cast<size_t>(id)] = now_ns() - t0;
    });
    return double(*std::max_element(elapsed.begin(), elapsed.end())) * 1e-9;
  }
  Runner::Visit visit() {
    return [this](int n, std::vector<double>& out) {
      for (int i = 0; i < n; ++i)
        out.push_back(kClockChainLength * double(iterations) / run(iterations));
    };
  }
};

// ---------- compute ----------
/// A compute kernel on a team, calibrated so that one sample lasts about `sample_s`.
struct ComputeJob {
  ThreadTeam& team;
  const ComputeKernel& kernel;
  std::vector<std::array<unsigned char, 12 * 64>> outs;
  alignas(64) unsigned char constants[256];
  std::uint64_t iterations = 256;

  ComputeJob(ThreadTeam& t, const ComputeKernel& k, double sample_s)
      : team(t), kernel(k), outs(static_cast<size_t>(t.size())) {
    k.fill_constants(constants);
    // Grow the iteration count until a run takes ≥ 0.5 ms, then scale to the sample time.
    double seconds = 0;
    while ((seconds = run(iterations)) < 0.0005 && iterations < (1ull << 40)) iterations *= 4;
    iterations = std::max<std::uint64_t>(
        64, static_cast<std::uint64_t>(double(iterations) * sample_s / seconds));
  }
  double run(std::uint64_t iters) {
    return team.run(
        [&](int id) { kernel.run(iters, constants, outs[static_cast<size_t>(id)].data()); });
  }
  Runner::Visit visit() {
    return [this](int n, std::vector<double>& out) {
      for (int i = 0; i < n; ++i)
        out.push_back(compute_rate(kernel, double(iterations), team.size(), run(iterations)));
    };
  }
};

/// The compute roofs of `kernels` on `team` and the team's clock (ClockJob), interleaved
/// (Runner::interleave).
std::vector<Statistics> measure_compute(ThreadTeam& team, Runner& r,
                                        const std::vector<ComputeKernel>& kernels,
                                        const std::string& label, Statistics* clock) {
  std::vector<std::unique_ptr<ComputeJob>> jobs;
  std::vector<Runner::Visit> visits;
  for (const ComputeKernel& k : kernels) {
    jobs.push_back(std::make_unique<ComputeJob>(team, k, r.settings().compute_sample_s));
    visits.push_back(jobs.back()->visit());
  }
  ClockJob clock_job(team);
  visits.push_back(clock_job.visit());
  std::vector<Statistics> out =
      r.interleave(visits, r.settings().compute_rounds, r.settings().compute_per_round, label,
                   double(kernels.size()) + 1);
  *clock = out.back();
  out.pop_back();
  return out;
}

// ---------- memory ----------
struct Arrays {
  std::vector<std::array<double*, 3>> per_thread;
  size_t bytes_per_array = 0;
};
// Per-thread arrays for working set `total` (all threads, all arrays): array k of thread i at
// the chunk start plus k × (array + 320 bytes) so that arrays do not alias at 4 KiB strides.
Arrays layout(const Buffer& buf, size_t chunk, int threads, int arrays, double total, size_t step) {
  Arrays a;
  const double per_thread = total / threads;
  size_t per_array = static_cast<size_t>(per_thread / arrays);
  per_array = std::max(step, per_array / step * step);
  const size_t room = (chunk - 4096) / static_cast<size_t>(arrays);
  if (per_array + 320 > room) per_array = (room - 320) / step * step;
  a.bytes_per_array = per_array;
  for (int i = 0; i < threads; ++i) {
    unsigned char* base = buf.data + static_cast<size_t>(i) * chunk;
    std::array<double*, 3> p{};
    for (int k = 0; k < 3; ++k)
      p[static_cast<size_t>(k)] = reinterpret_cast<double*>(
          base + static_cast<size_t>(std::min(k, arrays - 1)) * (per_array + 320));
    a.per_thread.push_back(p);
  }
  return a;
}

/// A memory kernel (access mix) at one working set on a team: per-thread arrays in the shared
/// buffer, calibrated so that one sample lasts about `sample_s` (at least one pass).
struct MixJob {
  ThreadTeam& team;
  const MemoryKernel& kernel;
  Arrays arrays;
  bool warm;  // visits begin with one untimed pass (cache-sized working sets)
  int passes = 1;
  double working_set = 0;
  std::vector<double> moved;  // byte/s of each sample, bytes moved including write-allocate

  MixJob(ThreadTeam& t, const Buffer& buf, size_t chunk, const MemoryKernel& k, double total,
         double sample_s, bool warm_up)
      : team(t),
        kernel(k),
        arrays(layout(buf, chunk, t.size(), k.arrays, total,
                      static_cast<size_t>(k.bytes_per_array_per_iteration))),
        warm(warm_up) {
    const double t1 = pass(1);  // also brings the working set into its level
    passes = std::clamp(static_cast<int>(std::lround(sample_s / std::max(t1, 1e-7))), 1, 1 << 20);
    working_set = double(arrays.bytes_per_array) * k.arrays * team.size();
  }
  double pass(int n) {
    return team.run([&](int id) {
      double* const* arrs = arrays.per_thread[static_cast<size_t>(id)].data();
      for (int p = 0; p < n; ++p) kernel.run(arrs, arrays.bytes_per_array);
    });
  }
  Runner::Visit visit() {
    return [this](int n, std::vector<double>& out) {
      if (warm) pass(1);  // another measurement ran in between: refill this level
      for (int i = 0; i < n; ++i) {
        const double t = pass(passes);
        const double per_array = double(arrays.bytes_per_array);
        out.push_back(memory_rate(kernel, per_array, passes, team.size(), t, false));
        moved.push_back(memory_rate(kernel, per_array, passes, team.size(), t, true));
      }
    };
  }
};

/// Interleaves `jobs` (Runner::interleave) and returns their named-byte statistics.
std::vector<Statistics> measure_mixes(Runner& r, const std::vector<std::unique_ptr<MixJob>>& jobs,
                                      int rounds, int per_round, const std::string& label,
                                      double weight) {
  std::vector<Runner::Visit> visits;
  for (const auto& j : jobs) visits.push_back(j->visit());
  return r.interleave(visits, rounds, per_round, label, weight);
}

std::string kernel_version() {
  std::ifstream in("/proc/sys/kernel/osrelease");
  std::string s;
  std::getline(in, s);
  return s;
}

std::string hostname() {
  char h[256] = {};
  if (gethostname(h, sizeof(h) - 1) != 0) return "this machine";
  return h;
}

const std::set<std::string>& kernel_precisions() {
  static const std::set<std::string> p{"fp64", "fp32", "fp16", "bf16", "int16", "int8"};
  return p;
}

}  // namespace

MachineDocument measure_machine(const MeasureOptions& options) {
  using namespace cpu;
  Runner r(options);
  const Settings& s = r.settings();

  // ---- options ----
  std::set<std::string> precisions;
  for (const auto& p : options.precisions) {
    std::string name;
    try {
      name = parse_dtype(p).name;
    } catch (const InputError& e) {
      throw InputError(std::string("--precisions: ") + e.what());
    }
    if (!kernel_precisions().count(name))
      throw InputError("--precisions: no CPU kernel for '" + p +
                       "' (CPU kernels: fp64, fp32, fp16, bf16, int16, int8)");
    precisions.insert(name);
  }
  std::set<std::string> levels;
  for (const auto& l : options.levels) {
    std::string u = lower(l);
    if (u == "dram" || u == "memory" || u == "mem")
      u = "DRAM";
    else if (u.size() == 2 && u[0] == 'l' && u[1] >= '1' && u[1] <= '4')
      u = "L" + u.substr(1);
    else
      throw InputError("--levels: unknown level '" + l + "' (expected L1, L2, L3, L4 or DRAM)");
    levels.insert(u);
  }
  const Topology topo = detect_topology();
  const int allowed = static_cast<int>(topo.allowed_cpus.size());
  if (options.threads < 0 || options.threads > allowed)
    throw InputError("--threads: must be between 1 and " + std::to_string(allowed) +
                     " (the CPUs this process may use), got " + std::to_string(options.threads));
  std::vector<int> cpus = topo.core_cpus;
  if (options.threads > 0) {
    if (options.threads <= static_cast<int>(cpus.size())) {
      cpus.resize(static_cast<size_t>(options.threads));
    } else {  // more threads than cores: add the remaining logical CPUs
      for (int c : topo.allowed_cpus)
        if (static_cast<int>(cpus.size()) < options.threads &&
            std::find(cpus.begin(), cpus.end(), c) == cpus.end())
          cpus.push_back(c);
    }
  }
  const int threads = static_cast<int>(cpus.size());
  const bool single_too = options.single_core && threads > 1;

  const CpuFeatures feat = detect_features();
  const Microarchitecture uarch = identify_microarchitecture(feat);
  const auto backends = supported_backends(feat);
  if (backends.empty())
    throw Unavailable("no CPU measurement backend for this processor (x86-64 SSE2 or later)");

  std::vector<ComputeKernel> kernels;
  for (const CpuBackend* b : backends)
    for (auto& k : b->compute_kernels())
      if (precisions.empty() || precisions.count(k.precision)) kernels.push_back(k);
  const CpuBackend* mem_backend = nullptr;
  const CpuBackend* curve_backend = nullptr;
  for (const CpuBackend* b : backends) {
    if (!b->memory_kernels().empty() &&
        (!mem_backend || b->vector_bits() > mem_backend->vector_bits()))
      mem_backend = b;
    if (b->curve_kernel() && (!curve_backend || b->vector_bits() > curve_backend->vector_bits()))
      curve_backend = b;
  }
  const bool want_memory = mem_backend != nullptr;

  // ---- sizes ----
  std::vector<double> caps;
  for (const auto& c : topo.caches) caps.push_back(aggregate_capacity(c, threads));
  const double llc = caps.empty() ? 32.0 * (1 << 20) : caps.back();
  const double avail = available_memory_bytes();
  double max_ws = std::max(s.dram_factor * llc, 64.0 * (1 << 20));
  std::vector<std::string> warnings;
  if (avail > 0 && max_ws > 0.5 * avail) {
    max_ws = 0.5 * avail;
    warnings.push_back("working set limited to " + format_bytes(Bytes(max_ws)) +
                       " by the memory available (" + format_bytes(Bytes(avail)) + ")");
  }
  if (want_memory && max_ws < 2 * llc)
    warnings.push_back("too little memory for a DRAM working set of twice the last-level cache (" +
                       format_bytes(Bytes(2 * llc)) + "): the DRAM roof may include cache hits");
  std::vector<double> sweep_sizes;
  for (double ws = 4096.0 * threads * 2; ws <= max_ws * 1.0001; ws *= s.sweep_factor)
    sweep_sizes.push_back(ws);
  if (!sweep_sizes.empty() && sweep_sizes.back() < max_ws * 0.95) sweep_sizes.push_back(max_ws);

  // Curve intensities: light (1/16), then (2r+1)/8 for r = 0, 1, 2, 4, ..., 1024 (fp64).
  std::vector<std::uint64_t> rounds = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  if (options.quick) rounds = {0, 2, 8, 32, 128, 512};

  // ---- progress plan ----
  const double n_levels = levels.empty() ? double(caps.size() + 1) : double(levels.size());
  r.set_total(double(kernels.size() + 1) * (single_too ? 2 : 1) +
              (want_memory ? double(sweep_sizes.size()) + (single_too ? 5 : 4) * n_levels : 0) +
              (options.curve && curve_backend ? double(rounds.size() + 1) : 0));

  MachineDocument doc;
  doc.roofs.name = hostname();
  doc.origin = "roofline measure";
  json measurement = {{"tool", "roofline"},     {"tool_version", ROOFLINE_VERSION},
                      {"quick", options.quick}, {"threads", threads},
                      {"cpus", cpus},           {"topology_source", topo.source}};
  const std::int64_t t_start = now_ns();

  ThreadTeam team(cpus);
  std::unique_ptr<ThreadTeam> solo;
  // The single-core team lives on the first core; the main team's workers sleep meanwhile.
  if (single_too) solo = std::make_unique<ThreadTeam>(std::vector<int>{cpus[0]});
  measurement["pinned"] = team.pinned();

  // ---- compute ----
  json compute_detail = json::array();
  json single = json::object();
  // Default compute roof: the widest fp64 FMA roof (deterministic, not the noisiest winner);
  // else the first roof measured.
  std::string best_fp64;
  double best_fp64_rank = -1;
  for (const ComputeKernel& k : kernels)
    run_checked(k, 256);  // results checked against the declaration before timing
  // ---- compute and clock ----
  Statistics clock_stats, clock1_stats;
  const std::vector<Statistics> all_core =
      measure_compute(team, r, kernels, "compute roofs and clock", &clock_stats);
  const double clock = clock_stats.sustained;
  std::vector<Statistics> one_core;
  double clock1 = clock;
  if (single_too) {
    one_core =
        measure_compute(*solo, r, kernels, "compute roofs and clock (one core)", &clock1_stats);
    clock1 = clock1_stats.sustained;
  }
  measurement["clock"] = {{"all_cores_hz", clock},
                          {"one_core_hz", clock1},
                          {"method",
                           "dependent chain of 64 register-register adds per iteration "
                           "(1 cycle each), timed with the monotonic clock, sampled in the "
                           "rounds of the compute kernels"},
                          {"stats", statistics_to_json(clock_stats)}};
  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    const ComputeKernel& k = kernels[ki];
    const Statistics& stats = all_core[ki];
    ComputeRoof roof;
    roof.name = k.roof_name();
    roof.precision = k.precision;
    roof.unit = k.unit();
    roof.integer = k.integer;
    roof.peak = WorkRate(stats.sustained);
    roof.provenance = Provenance::measured;
    roof.source = std::string("roofline measure: ") + k.isa + " kernel " + k.symbol + ", " +
                  std::to_string(threads) + " pinned threads, sustained best of " +
                  std::to_string(stats.repetitions) + " samples in " +
                  std::to_string(s.compute_rounds) + " rounds";
    roof.stats = stats;
    const std::string wunit = k.integer ? "OP" : "FLOP";
    json detail = {{"roof", roof.name},      {"kernel", k.symbol},
                   {"isa", k.isa},           {"work_per_iteration", k.work_per_iteration},
                   {"counting", k.counting}, {"work_unit", wunit}};
    if (const auto wpc = work_per_cycle(uarch, k)) {
      const double theory = theoretical_peak(threads, clock, *wpc);
      roof.theoretical = WorkRate(theory);
      roof.formula = std::to_string(threads) + " cores × " + fmt_num(clock / 1e9) +
                     " GHz (measured) × " + fmt_num(*wpc) + " " + wunit + "/cycle/core (" +
                     uarch.name + ")";
      const double ratio = stats.sustained / theory;
      detail["ratio"] = ratio;
      if (ratio > kAboveTheoryLimit)
        warnings.push_back(roof.name + ": measured " + fmt_num(ratio, 3) +
                           "× the theoretical peak — a measurement problem (clock or table)");
    } else {
      roof.formula = "no theoretical entry for " + to_string(k.kind) + " at " +
                     std::to_string(k.width_bits) + " bits on microarchitecture " + uarch.name;
    }
    if (single_too) {
      const Statistics& one = one_core[ki];
      json o = {{"peak", one.sustained}, {"stats", statistics_to_json(one)}};
      if (const auto wpc = work_per_cycle(uarch, k))
        o["theoretical"] = theoretical_peak(1, clock1, *wpc);
      single[roof.name] = o;
    }
    const double rank = (roof.precision == "fp64" ? 10000 : 0) +
                        (k.kind == KernelClass::fp_fma ? 1000 : 0) + k.width_bits;
    if (!k.integer && rank > best_fp64_rank) {
      best_fp64_rank = rank;
      best_fp64 = roof.name;
    }
    compute_detail.push_back(detail);
    doc.roofs.compute.push_back(roof);
  }
  doc.roofs.default_compute = best_fp64;
  measurement["compute"] = compute_detail;

  // ---- memory ----
  json memory_detail = json::object();
  json single_memory = json::object();
  if (want_memory) {
    const auto mkernels = mem_backend->memory_kernels();
    const MemoryKernel* load = nullptr;
    for (const auto& k : mkernels)
      if (std::string(k.mix) == "load") load = &k;
    const size_t chunk =
        (static_cast<size_t>(max_ws / threads) + (4u << 20)) / (2u << 20) * (2u << 20);
    Buffer buf(chunk * static_cast<size_t>(threads));
    team.run([&](int id) {
      // First touch by the thread that uses the chunk (NUMA placement), with distinct finite
      // values so that no page is all-equal (zero-page or same-page merging would turn the
      // first stores into copy-on-write faults).
      auto* d = reinterpret_cast<double*>(buf.data + static_cast<size_t>(id) * chunk);
      const size_t n = chunk / sizeof(double);
      for (size_t i = 0; i < n; ++i) d[i] = 1.0 + static_cast<double>(i % 4093) * 1e-3;
    });
    // Sweep with the load kernel, every size visited in each round.
    std::vector<std::unique_ptr<MixJob>> sweep_jobs;
    for (double ws : sweep_sizes)
      sweep_jobs.push_back(
          std::make_unique<MixJob>(team, buf, chunk, *load, ws, s.sweep_sample_s, ws <= llc));
    const std::vector<Statistics> sweep_stats =
        measure_mixes(r, sweep_jobs, s.sweep_rounds, s.sweep_per_round, "working-set sweep",
                      double(sweep_sizes.size()));
    std::vector<SweepPoint> sweep;
    for (size_t i = 0; i < sweep_jobs.size(); ++i)
      sweep.push_back({sweep_jobs[i]->working_set, sweep_stats[i].sustained});
    sweep_jobs.clear();
    const auto plateaus = find_plateaus(sweep);
    const auto assigned = name_levels(sweep, plateaus, caps);
    json sweep_json = json::array();
    for (const auto& p : sweep) sweep_json.push_back({{"bytes", p.bytes}, {"rate", p.rate}});
    json plateau_json = json::array();
    for (const auto& p : plateaus)
      plateau_json.push_back(
          {{"min_bytes", p.min_bytes}, {"max_bytes", p.max_bytes}, {"rate", p.rate}});
    measurement["sweep"] = {{"kernel", load->symbol},
                            {"convention", "named"},
                            {"points", sweep_json},
                            {"plateaus", plateau_json}};

    // The levels to measure, then every mix at every level, interleaved.
    std::vector<LevelAssignment> chosen;
    std::set<std::string> seen_levels;
    for (const auto& a : assigned) {
      if (!levels.empty() && !levels.count(a.level)) continue;
      if (!seen_levels.insert(a.level).second) continue;
      chosen.push_back(a);
    }
    std::vector<std::unique_ptr<MixJob>> mix_jobs;
    for (const auto& a : chosen)
      for (const auto& k : mkernels)
        mix_jobs.push_back(std::make_unique<MixJob>(team, buf, chunk, k, a.representative_bytes,
                                                    s.memory_sample_s, a.level != "DRAM"));
    const std::vector<Statistics> mix_stats_all =
        measure_mixes(r, mix_jobs, s.memory_rounds, s.memory_per_round, "access mixes",
                      4.0 * double(chosen.size()));

    std::vector<const MemoryKernel*> best_kernels;
    for (size_t li = 0; li < chosen.size(); ++li) {
      const LevelAssignment& a = chosen[li];
      MemoryRoof roof;
      roof.level = a.level;
      roof.kind = a.level == "DRAM" ? "memory" : "cache";
      roof.provenance = Provenance::measured;
      roof.convention = "named";
      if (a.reported_bytes > 0) roof.size_bytes = a.reported_bytes;
      json mixes_moved = json::object();
      json mix_stats = json::object();
      double best = 0;
      Statistics best_stats;
      std::string best_mix;
      const MemoryKernel* best_kernel = nullptr;
      for (size_t mi = 0; mi < mkernels.size(); ++mi) {
        const MemoryKernel& k = mkernels[mi];
        const size_t index = li * mkernels.size() + mi;
        const Statistics& st = mix_stats_all[index];
        roof.mixes[k.mix] = st.sustained;
        mixes_moved[k.mix] = summarize_rates(mix_jobs[index]->moved).sustained;
        mix_stats[k.mix] = statistics_to_json(st);
        if (st.sustained > best) {
          best = st.sustained;
          best_stats = st;
          best_mix = k.mix;
          best_kernel = &k;
        }
      }
      best_kernels.push_back(best_kernel);
      roof.bandwidth = ByteRate(best);
      roof.stats = best_stats;
      roof.source = std::string("roofline measure: highest of ") + std::to_string(mkernels.size()) +
                    " access mixes (" + best_mix + "), " + mem_backend->name() + " kernels, " +
                    std::to_string(threads) + " pinned threads, working set " +
                    format_bytes(Bytes(a.representative_bytes)) + ", named bytes";
      json lj = {{"working_set", a.representative_bytes},
                 {"best_mix", best_mix},
                 {"mixes_named", roof.mixes},
                 {"mixes_moved", mixes_moved},
                 {"mix_stats", mix_stats},
                 {"reported_size", a.reported_bytes},
                 {"plateau_edge", a.measured_edge_bytes},
                 {"size_agrees", a.size_agrees}};
      if (!a.note.empty()) {
        lj["note"] = a.note;
        warnings.push_back(a.level + ": " + a.note);
      }
      memory_detail[a.level] = lj;
      doc.roofs.memory.push_back(roof);
    }
    mix_jobs.clear();
    if (single_too) {
      // One core, each level's best mix. One thread may use the whole buffer (the DRAM working
      // set stays the same; a cache level's is one thread's share).
      std::vector<std::unique_ptr<MixJob>> solo_jobs;
      std::vector<size_t> solo_levels;
      for (size_t li = 0; li < chosen.size(); ++li) {
        if (!best_kernels[li]) continue;
        const LevelAssignment& a = chosen[li];
        const bool dram = a.level == "DRAM";
        const double ws1 = dram ? a.representative_bytes : a.representative_bytes / threads;
        solo_jobs.push_back(
            std::make_unique<MixJob>(*solo, buf, chunk * static_cast<size_t>(threads),
                                     *best_kernels[li], ws1, s.memory_sample_s, !dram));
        solo_levels.push_back(li);
      }
      const std::vector<Statistics> solo_stats =
          measure_mixes(r, solo_jobs, s.memory_rounds, s.memory_per_round,
                        "access mixes (one core)", double(solo_jobs.size()));
      for (size_t i = 0; i < solo_jobs.size(); ++i) {
        const size_t li = solo_levels[i];
        single_memory[chosen[li].level] = {{"mix", best_kernels[li]->mix},
                                           {"bandwidth", solo_stats[i].sustained},
                                           {"working_set", solo_jobs[i]->working_set},
                                           {"stats", statistics_to_json(solo_stats[i])}};
      }
    }
    doc.roofs.default_memory = doc.roofs.find_memory("DRAM") ? "DRAM" : "";
    for (const auto& l : levels)
      if (!seen_levels.count(l))
        warnings.push_back("level " + l + " requested but not found on this machine");

    // ---- empirical curve ----
    if (options.curve && curve_backend) {
      const CurveKernel& ck = *curve_backend->curve_kernel();
      const size_t chunk_groups =
          static_cast<size_t>(max_ws / threads) / static_cast<size_t>(ck.bytes_per_group);
      std::vector<size_t> offset(static_cast<size_t>(threads), 0);
      std::vector<std::array<double, 32>> outs(static_cast<size_t>(threads));
      json curve_json = json::array();
      auto run_groups = [&](std::uint64_t rr, bool light, size_t groups) {
        return team.run([&](int id) {
          const auto i = static_cast<size_t>(id);
          const auto* base = reinterpret_cast<const double*>(buf.data + i * chunk);
          size_t left = groups;
          while (left > 0) {
            const size_t n = std::min(left, chunk_groups - offset[i]);
            ck.run(base + offset[i] * static_cast<size_t>(ck.bytes_per_group) / sizeof(double), n,
                   rr, light ? 1 : 0, outs[i].data());
            offset[i] = (offset[i] + n) % chunk_groups;
            left -= n;
          }
        });
      };
      std::vector<std::pair<std::uint64_t, bool>> plan = {{0, true}};
      for (auto rr : rounds) plan.push_back({rr, false});
      // Each point calibrated once (groups per sample), then all points interleaved.
      std::vector<size_t> groups_of;
      std::vector<Runner::Visit> visits;
      for (const auto& step : plan) {
        const size_t probe = std::min<size_t>(chunk_groups, 2048);
        const double t = run_groups(step.first, step.second, probe);
        groups_of.push_back(std::max<size_t>(
            1, static_cast<size_t>(double(probe) * s.curve_sample_s / std::max(t, 1e-7))));
        visits.push_back([&, step, groups = groups_of.back()](int n, std::vector<double>& out) {
          for (int k = 0; k < n; ++k) {
            const double tt = run_groups(step.first, step.second, groups);
            out.push_back(ck.work_per_group(step.first, step.second) * double(groups) * threads /
                          tt);
          }
        });
      }
      const std::vector<Statistics> curve_stats =
          r.interleave(visits, s.curve_rounds, 1, "empirical curve", double(plan.size()));
      for (size_t p = 0; p < plan.size(); ++p) {
        const auto [rr, light] = plan[p];
        const Statistics& st = curve_stats[p];
        CurveSample cs;
        cs.intensity = Intensity(ck.work_per_group(rr, light) / ck.bytes_per_group);
        cs.performance = WorkRate(st.sustained);
        doc.roofs.empirical_curve.push_back(cs);
        curve_json.push_back({{"intensity", cs.intensity.value},
                              {"rounds", rr},
                              {"light", light},
                              {"stats", statistics_to_json(st)}});
      }
      for (const auto& o : outs)
        for (double v : o)
          if (!std::isfinite(v)) throw Error("curve kernel produced a non-finite result");
      measurement["curve"] = {{"kernel", ck.symbol},
                              {"working_set", double(chunk_groups) * ck.bytes_per_group * threads},
                              {"precision", "fp64"},
                              {"points", curve_json}};
    }
  } else {
    warnings.push_back("no memory kernels for this CPU (AVX2 or AVX-512 needed): no memory roofs");
  }
  measurement["memory"] = memory_detail;
  if (single_too) measurement["one_core"] = {{"compute", single}, {"memory", single_memory}};
  // Noise, said plainly: how many roofs had a wide spread, and which have no agreeing top.
  {
    int noisy = 0, total = 0;
    std::vector<std::string> unconfirmed;
    auto judge = [&](const std::string& name, const std::optional<Statistics>& st) {
      if (!st) return;
      ++total;
      if (st->noisy) ++noisy;
      if (!st->confirmed()) unconfirmed.push_back(name);
    };
    for (const auto& c : doc.roofs.compute) judge(c.name, c.stats);
    for (const auto& l : doc.roofs.memory) judge(l.level, l.stats);
    if (total > 0 && 2 * noisy > total)
      warnings.push_back(
          std::to_string(noisy) + " of " + std::to_string(total) +
          " roofs are noisy (samples spread over 10%): the machine is shared or busy. Roofs are "
          "the sustained best of samples spread over the run; medians (cv) show the "
          "interference");
    if (!unconfirmed.empty()) {
      std::string names;
      for (const auto& n : unconfirmed) names += (names.empty() ? "" : ", ") + n;
      warnings.push_back(
          "not confirmed (the three fastest samples differ by more than 2%, "
          "even after retries): " +
          names + " — treat these roofs as uncertain");
    }
    // A farther level above a nearer one: one of the two was disturbed.
    json inverted = json::array();
    for (const auto& [far, near] : inverted_levels(doc.roofs.memory)) {
      const auto bw = [&](const std::string& level) {
        return format_byte_rate(doc.roofs.find_memory(level)->bandwidth);
      };
      warnings.push_back(far + " roof (" + bw(far) + ") above " + near + " roof (" + bw(near) +
                         "): a farther level cannot sustain more than a nearer one, so one of "
                         "them was measured while disturbed — repeat the measurement");
      inverted.push_back({{"farther", far}, {"nearer", near}});
    }
    measurement["noisy_roofs"] = noisy;
    measurement["unconfirmed_roofs"] = unconfirmed;
    measurement["inverted_levels"] = inverted;
  }
  measurement["retries_for_noise"] = r.retries();
  measurement["seconds"] = double(now_ns() - t_start) * 1e-9;
  measurement["warnings"] = warnings;
  measurement["statistic"] =
      "roof = sustained rate, the third-fastest sample (interference only slows a kernel down; "
      "three samples keep a lone lucky one from setting the roof), samples spread over the "
      "phase in rounds; best (fastest), median, min, max, cv beside it";

  // ---- info ----
  json caches = json::array();
  for (const auto& c : topo.caches)
    caches.push_back({{"level", c.level},
                      {"size", c.size_bytes},
                      {"cores_sharing", c.cores_sharing},
                      {"line", c.line_bytes}});
  std::vector<std::string> backend_names;
  for (const auto* b : backends) backend_names.push_back(b->name());
  doc.info = {{"kind", "cpu"},
              {"vendor", feat.vendor},
              {"cpu", feat.brand},
              {"family", feat.family},
              {"model", feat.model},
              {"microarchitecture", uarch.name},
              {"microarchitecture_source", uarch.source},
              {"cores", topo.cores()},
              {"logical_cpus", static_cast<int>(topo.allowed_cpus.size())},
              {"threads", threads},
              {"pinned", team.pinned()},
              {"clock_hz", clock},
              {"clock_one_core_hz", clock1},
              {"caches", caches},
              {"features", feat.names()},
              {"backends", backend_names},
              {"os_kernel", kernel_version()},
              {"tool_version", ROOFLINE_VERSION},
              {"memory_available", avail}};
  doc.sections["measurement"] = measurement;
  r.finish();
  return doc;
}

}  // namespace roofline
