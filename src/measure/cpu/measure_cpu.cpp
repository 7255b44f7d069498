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
  int compute_reps, memory_reps, sweep_reps;
  double compute_sample_s, memory_sample_s, sweep_sample_s, curve_sample_s;
  double sweep_factor;  // ratio between consecutive sweep sizes
  double dram_factor;   // largest working set = dram_factor × last-level cache
};
// Many short samples (0.5 ms: inside a scheduler time slice) rather than a few long ones: on a
// shared machine most of them run undisturbed, and the best is the machine's rate.
Settings settings_for(bool quick) {
  if (quick) return {10, 6, 3, 0.0005, 0.0005, 0.0005, 0.002, 2.0, 3.0};
  return {20, 10, 5, 0.0005, 0.0008, 0.0005, 0.004, std::sqrt(2.0), 4.0};
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

  /// Samples a rate `reps` times; re-measures once with twice the repetitions when noisy and
  /// keeps the quieter set.
  Statistics sample(int reps, const std::function<double()>& one) {
    auto take = [&](int n) {
      std::vector<double> v;
      for (int i = 0; i < n; ++i) {
        check_cancel();
        v.push_back(one());
      }
      return summarize(v);
    };
    Statistics st = take(reps);
    if (st.noisy) {
      ++retries_;
      const Statistics again = take(2 * reps);
      if (again.spread() < st.spread()) st = again;
    }
    return st;
  }
  int retries() const { return retries_; }

 private:
  const MeasureOptions& opt_;
  Settings s_;
  double total_ = 0, done_ = 0;
  int retries_ = 0;
};

// ---------- clock ----------
double measure_clock(ThreadTeam& team, Runner& r, Statistics* stats) {
  // Many short samples (~0.25 ms, well inside a scheduler time slice), each thread timing its
  // own chain: on a shared machine most samples still run undisturbed, and a preempted one can
  // only read low (a dependent chain cannot run faster than one add per cycle), so the best
  // sample is the clock. cycles = chain length × iterations.
  std::vector<std::int64_t> elapsed(static_cast<size_t>(team.size()), 0);
  std::uint64_t n = 64;
  auto run = [&](std::uint64_t iters) {
    team.run([&](int id) {
      const std::int64_t t0 = now_ns();
      clock_chain(iters);
      elapsed[static_cast<size_t>(id)] = now_ns() - t0;
    });
    // The all-core clock is the slowest member's.
    return double(*std::max_element(elapsed.begin(), elapsed.end())) * 1e-9;
  };
  double t = 0;
  while ((t = run(n)) < 0.0001 && n < (1ull << 40)) n *= 2;
  n = std::max<std::uint64_t>(64, static_cast<std::uint64_t>(double(n) * 0.00025 / t));
  *stats =
      r.sample(r.options().quick ? 20 : 40, [&] { return kClockChainLength * double(n) / run(n); });
  return stats->best;
}

// ---------- compute ----------
struct ComputeResult {
  Statistics stats;
  double peak = 0;
};
ComputeResult measure_compute(ThreadTeam& team, Runner& r, const ComputeKernel& k) {
  // Calibrate on the team: grow n until a run takes ≥ 0.5 ms, then scale to the sample time.
  std::vector<std::array<unsigned char, 12 * 64>> outs(static_cast<size_t>(team.size()));
  alignas(64) unsigned char constants[256];
  k.fill_constants(constants);
  std::uint64_t n = 256;
  auto job = [&](std::uint64_t iters) {
    return team.run([&](int id) { k.run(iters, constants, outs[static_cast<size_t>(id)].data()); });
  };
  double t = 0;
  while ((t = job(n)) < 0.0005 && n < (1ull << 40)) n *= 4;
  n = std::max<std::uint64_t>(
      64, static_cast<std::uint64_t>(double(n) * r.settings().compute_sample_s / t));
  ComputeResult res;
  res.stats = r.sample(r.settings().compute_reps,
                       [&] { return compute_rate(k, double(n), team.size(), job(n)); });
  res.peak = res.stats.best;
  return res;
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

struct MixResult {
  Statistics named;  // byte/s, named convention
  double moved_best = 0;
  double working_set = 0;
};
MixResult measure_mix(ThreadTeam& team, Runner& r, const Buffer& buf, size_t chunk,
                      const MemoryKernel& k, double total, int reps, double sample_s) {
  const Arrays a = layout(buf, chunk, team.size(), k.arrays, total,
                          static_cast<size_t>(k.bytes_per_array_per_iteration));
  auto pass = [&](int passes) {
    return team.run([&](int id) {
      double* const* arrs = a.per_thread[static_cast<size_t>(id)].data();
      for (int p = 0; p < passes; ++p) k.run(arrs, a.bytes_per_array);
    });
  };
  const double t1 = pass(1);  // warm-up: brings the working set into its level
  int passes = std::max(1, static_cast<int>(std::lround(sample_s / std::max(t1, 1e-7))));
  passes = std::min(passes, 1 << 20);
  MixResult m;
  m.working_set = double(a.bytes_per_array) * k.arrays * team.size();
  m.named = r.sample(reps, [&] {
    const double t = pass(passes);
    const double named = memory_rate(k, double(a.bytes_per_array), passes, team.size(), t, false);
    m.moved_best = std::max(
        m.moved_best, memory_rate(k, double(a.bytes_per_array), passes, team.size(), t, true));
    return named;
  });
  return m;
}

json stats_json(const Statistics& s) {
  return {{"repetitions", s.repetitions},
          {"median", s.median},
          {"best", s.best},
          {"min", s.min},
          {"max", s.max},
          {"cv", s.cv},
          {"noisy", s.noisy}};
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
    const std::string name = parse_dtype(p).name;
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
  r.set_total(2.0 + double(kernels.size()) * (single_too ? 2 : 1) +
              (want_memory ? double(sweep_sizes.size()) + 4 * n_levels : 0) +
              (options.curve && curve_backend ? double(rounds.size() + 1) : 0));

  MachineDocument doc;
  doc.roofs.name = hostname();
  doc.origin = "roofline measure";
  json measurement = {{"tool", "roofline"},     {"tool_version", ROOFLINE_VERSION},
                      {"quick", options.quick}, {"threads", threads},
                      {"cpus", cpus},           {"topology_source", topo.source}};
  const std::int64_t t_start = now_ns();

  // ---- clock ----
  ThreadTeam team(cpus);
  Statistics clock_stats;
  const double clock = measure_clock(team, r, &clock_stats);
  r.step("clock");
  Statistics clock1_stats;
  double clock1 = clock;
  std::unique_ptr<ThreadTeam> solo;
  if (single_too) {
    // The single-core team lives on the first core; the main team's workers sleep meanwhile.
    solo = std::make_unique<ThreadTeam>(std::vector<int>{cpus[0]});
    clock1 = measure_clock(*solo, r, &clock1_stats);
  }
  r.step("clock (one core)");
  measurement["pinned"] = team.pinned();
  measurement["clock"] = {{"all_cores_hz", clock},
                          {"one_core_hz", clock1},
                          {"method",
                           "dependent chain of 64 register-register adds per iteration "
                           "(1 cycle each), timed with the monotonic clock"},
                          {"stats", stats_json(clock_stats)}};

  // ---- compute ----
  json compute_detail = json::array();
  json single = json::object();
  // Default compute roof: the widest fp64 FMA roof (deterministic, not the noisiest winner);
  // else the first roof measured.
  std::string best_fp64;
  double best_fp64_rank = -1;
  for (const ComputeKernel& k : kernels) {
    run_checked(k, 256);  // results checked against the declaration before timing
    const ComputeResult res = measure_compute(team, r, k);
    r.step(k.roof_name());
    ComputeRoof roof;
    roof.name = k.roof_name();
    roof.precision = k.precision;
    roof.unit = k.unit();
    roof.integer = k.integer;
    roof.peak = WorkRate(res.peak);
    roof.provenance = Provenance::measured;
    roof.source = std::string("roofline measure: ") + k.isa + " kernel " + k.symbol + ", " +
                  std::to_string(threads) + " pinned threads, best of " +
                  std::to_string(res.stats.repetitions);
    roof.stats = res.stats;
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
      const double ratio = res.peak / theory;
      detail["ratio"] = ratio;
      if (ratio > kAboveTheoryLimit)
        warnings.push_back(roof.name + ": measured " + fmt_num(ratio, 3) +
                           "× the theoretical peak — a measurement problem (clock or table)");
    } else {
      roof.formula = "no theoretical entry for " + to_string(k.kind) + " at " +
                     std::to_string(k.width_bits) + " bits on microarchitecture " + uarch.name;
    }
    if (single_too) {
      const ComputeResult one = measure_compute(*solo, r, k);
      r.step(k.roof_name() + " (one core)");
      json o = {{"peak", one.peak}, {"stats", stats_json(one.stats)}};
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
    // Sweep with the load kernel.
    std::vector<SweepPoint> sweep;
    for (double ws : sweep_sizes) {
      const MixResult m =
          measure_mix(team, r, buf, chunk, *load, ws, s.sweep_reps, s.sweep_sample_s);
      sweep.push_back({m.working_set, m.named.best});
      r.step("sweep " + format_bytes(Bytes(m.working_set)));
    }
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

    std::set<std::string> seen_levels;
    for (const auto& a : assigned) {
      if (!levels.empty() && !levels.count(a.level)) continue;
      if (!seen_levels.insert(a.level).second) continue;
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
      for (const auto& k : mkernels) {
        const MixResult m = measure_mix(team, r, buf, chunk, k, a.representative_bytes,
                                        s.memory_reps, s.memory_sample_s);
        roof.mixes[k.mix] = m.named.best;
        mixes_moved[k.mix] = m.moved_best;
        mix_stats[k.mix] = stats_json(m.named);
        if (m.named.best > best) {
          best = m.named.best;
          best_stats = m.named;
          best_mix = k.mix;
          best_kernel = &k;
        }
        r.step(a.level + " " + k.mix, 4.0 / double(mkernels.size()));
      }
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
      if (single_too && best_kernel) {
        const double ws1 =
            a.level == "DRAM" ? a.representative_bytes : a.representative_bytes / threads;
        // One thread may use the whole buffer (the DRAM working set stays the same).
        const MixResult m1 = measure_mix(*solo, r, buf, chunk * static_cast<size_t>(threads),
                                         *best_kernel, ws1, s.memory_reps, s.memory_sample_s);
        single_memory[a.level] = {{"mix", best_mix},
                                  {"bandwidth", m1.named.best},
                                  {"working_set", m1.working_set},
                                  {"stats", stats_json(m1.named)}};
      }
      doc.roofs.memory.push_back(roof);
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
      for (const auto& step : plan) {
        // Named copies, not structured bindings: lambdas below capture them (C++20 allows
        // capturing bindings, clang 14 does not).
        const std::uint64_t rr = step.first;
        const bool light = step.second;
        const size_t probe = std::min<size_t>(chunk_groups, 2048);
        const double t = run_groups(rr, light, probe);
        const size_t groups = std::max<size_t>(
            1, static_cast<size_t>(double(probe) * s.curve_sample_s / std::max(t, 1e-7)));
        const Statistics st = r.sample(3, [&] {
          const double tt = run_groups(rr, light, groups);
          return ck.work_per_group(rr, light) * double(groups) * threads / tt;
        });
        CurveSample cs;
        cs.intensity = Intensity(ck.work_per_group(rr, light) / ck.bytes_per_group);
        cs.performance = WorkRate(st.best);
        doc.roofs.empirical_curve.push_back(cs);
        curve_json.push_back({{"intensity", cs.intensity.value},
                              {"rounds", rr},
                              {"light", light},
                              {"stats", stats_json(st)}});
        r.step("curve I=" + fmt_num(cs.intensity.value, 3));
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
  measurement["retries_for_noise"] = r.retries();
  measurement["seconds"] = double(now_ns() - t_start) * 1e-9;
  measurement["warnings"] = warnings;
  measurement["statistic"] =
      "roof = best sample (interference only slows a kernel down); median, min, max, cv beside it";

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
