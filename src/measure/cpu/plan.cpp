// Resolving a CPU measurement's plan from the options and the machine (steps.hpp).
#include <algorithm>
#include <cmath>
#include <set>

#include "measure/cpu/steps.hpp"
#include "roofline/dtype.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline::cpu {
namespace {

const std::set<std::string>& kernel_precisions() {
  static const std::set<std::string> p{"fp64", "fp32", "fp16", "bf16", "int16", "int8"};
  return p;
}

/// The precisions asked for, by their canonical names (empty: every precision).
std::set<std::string> plan_precisions(const MeasureOptions& o) {
  std::set<std::string> precisions;
  std::vector<std::string> names;  // each item may be a comma-separated list
  for (const auto& item : o.precisions)
    for (auto& part : split(item)) names.push_back(std::move(part));
  for (const auto& untrimmed : names) {
    const std::string name = trim(untrimmed);  // "fp64, fp32" as --levels takes "L1, DRAM"
    if (name.empty())
      throw InputError("--precisions: an empty name in the list '" + join(o.precisions, ",") + "'");
    std::string canonical;
    try {
      canonical = parse_dtype(name).name;
    } catch (const InputError& e) {
      throw InputError(std::string("--precisions: ") + e.what());
    }
    if (!kernel_precisions().count(canonical))
      throw InputError("--precisions: no CPU kernel for '" + name +
                       "' (CPU kernels: fp64, fp32, fp16, bf16, int16, int8)");
    precisions.insert(canonical);
  }
  return precisions;
}

/// The CPUs to run on: one per core first, then further logical CPUs.
void plan_cpus(const MeasureOptions& o, const Topology& topo, Plan& p) {
  const int allowed = static_cast<int>(topo.allowed_cpus.size());
  if (o.threads < 0 || o.threads > std::max(1, allowed))
    throw InputError("--threads: must be between 1 and " + std::to_string(allowed) +
                     " (the CPUs this process may use), got " + std::to_string(o.threads));
  p.cpus = topo.core_cpus.empty() ? topo.allowed_cpus : topo.core_cpus;
  if (p.cpus.empty()) p.cpus = {0};
  if (o.first_core > 0) {
    // Start at core `first_core` (wrapping): ranks sharing a host take disjoint cores.
    const size_t shift = static_cast<size_t>(o.first_core) % p.cpus.size();
    std::rotate(p.cpus.begin(), p.cpus.begin() + static_cast<std::ptrdiff_t>(shift), p.cpus.end());
  }
  if (o.threads > 0) {
    if (o.threads <= static_cast<int>(p.cpus.size())) {
      p.cpus.resize(static_cast<size_t>(o.threads));
    } else {
      for (int c : topo.allowed_cpus)
        if (static_cast<int>(p.cpus.size()) < o.threads &&
            std::find(p.cpus.begin(), p.cpus.end(), c) == p.cpus.end())
          p.cpus.push_back(c);
    }
  }
  p.threads = static_cast<int>(p.cpus.size());
  p.single_core = o.single_core && !o.probe && p.threads > 1;
}

/// The compute kernels of the precisions asked for, and the backends of the memory and curve
/// phases (the widest that has them).
void plan_kernels(const MeasureOptions& o, const CpuFeatures& f,
                  const std::set<std::string>& precisions, Plan& p) {
  const auto backends = supported_backends(f);
  if (backends.empty())
    throw Unavailable("no CPU measurement backend for this processor (x86-64 SSE2 or later)");
  // Backends come narrowest first; a wider one's kernel for a roof that a narrower one also
  // has (the avx512 backend's 12 + 12-chain add+mul at 256 bits and below) replaces it.
  for (const CpuBackend* b : backends)
    for (auto& k : b->compute_kernels()) {
      if (!precisions.empty() && !precisions.count(k.precision)) continue;
      const std::string roof = k.roof_name();
      p.kernels.erase(std::remove_if(p.kernels.begin(), p.kernels.end(),
                                     [&](const ComputeKernel& x) { return x.roof_name() == roof; }),
                      p.kernels.end());
      p.kernels.push_back(k);
    }
  const bool amx_asked = precisions.empty() || precisions.count("bf16") || precisions.count("int8");
  if (!f.amx_refused.empty() && amx_asked && !o.probe)
    p.warnings.push_back("this CPU has AMX tiles, but " + f.amx_refused + ": no AMX roofs");
  // A precision asked for that this CPU has no kernel of (fp16 without AVX-512 FP16): said,
  // and the others measured; none at all would leave a document without a compute roof.
  std::vector<std::string> missing;
  for (const auto& want : precisions)
    if (std::none_of(p.kernels.begin(), p.kernels.end(),
                     [&](const ComputeKernel& k) { return want == k.precision; }))
      missing.push_back(want);
  if (!missing.empty()) {
    std::set<std::string> here;
    for (const CpuBackend* b : backends)
      for (const auto& k : b->compute_kernels()) here.insert(k.precision);
    const std::string why = "this CPU has no kernel of " + join(missing) + " (it has " +
                            join(std::vector<std::string>(here.begin(), here.end())) + ")";
    if (p.kernels.empty()) throw Unavailable("--precisions: " + why);
    p.warnings.push_back("--precisions: " + why + ": not measured");
  }
  if (o.probe) {
    // The widest fp64 FMA kernel (else the widest fp64 kernel).
    const ComputeKernel* best = nullptr;
    auto rank = [](const ComputeKernel& k) {
      return (k.kind == KernelClass::fp_fma ? 1000 : 0) + k.width_bits;
    };
    for (const auto& k : p.kernels)
      if (std::string(k.precision) == "fp64" && (!best || rank(k) > rank(*best))) best = &k;
    if (!best) throw InputError("--precisions: the node probe measures fp64");
    p.kernels = {*best};
  }
  for (const CpuBackend* b : backends) {
    if (!b->memory_kernels().empty() &&
        (!p.memory_backend || b->vector_bits() > p.memory_backend->vector_bits()))
      p.memory_backend = b;
    if (b->curve_kernel() &&
        (!p.curve_backend || b->vector_bits() > p.curve_backend->vector_bits()))
      p.curve_backend = b;
  }
  p.curve = o.curve && !o.probe && p.curve_backend != nullptr && p.memory_backend != nullptr;
}

/// The caches' capacities over the threads, the DRAM working set and the sweep's sizes.
void plan_sizes(const MeasureOptions& o, const Topology& topo, double available, Plan& p) {
  for (const auto& c : topo.caches) {
    p.capacities.push_back(aggregate_capacity(c, p.threads));
    if (!c.note.empty()) p.warnings.push_back("L" + std::to_string(c.level) + ": " + c.note);
  }
  p.last_level_bytes = p.capacities.empty() ? 32.0 * (1 << 20) : p.capacities.back();
  // DRAM: STREAM's rule, every array at least 4 × the last-level cache — 12 × over all arrays
  // (triad has three), so that no mix streams partly from a cache (on the development VM, Zen 4,
  // the load rate still fell 19% from 4 × to 8 × the L3); at most 1 GiB beyond 4 × (time and
  // memory), 4 × for --quick and the probe.
  const double llc = p.last_level_bytes, mib = 1024.0 * 1024.0;
  const double stream_rule = o.quick || o.probe ? 4 * llc : std::min(12 * llc, 1024 * mib);
  p.max_working_set =
      o.dram_working_set > 0 ? o.dram_working_set : std::max({4 * llc, stream_rule, 64 * mib});
  if (available > 0 && p.max_working_set > 0.5 * available) {
    p.max_working_set = 0.5 * available;
    p.warnings.push_back("working set limited to " + format_bytes(Bytes(p.max_working_set)) +
                         " by the memory available (" + format_bytes(Bytes(available)) + ")");
  }
  if (p.memory_backend && p.max_working_set < 2 * p.last_level_bytes)
    p.warnings.push_back(
        "too little memory for a DRAM working set of twice the last-level cache (" +
        format_bytes(Bytes(2 * p.last_level_bytes)) + "): the DRAM roof may include cache hits");
  if (!o.probe) {
    const double factor = o.quick ? 2.0 : std::sqrt(2.0);
    for (double ws = 4096.0 * p.threads * 2; ws <= p.max_working_set * 1.0001; ws *= factor)
      p.sweep_sizes.push_back(ws);
    if (!p.sweep_sizes.empty() && p.sweep_sizes.back() < p.max_working_set * 0.95)
      p.sweep_sizes.push_back(p.max_working_set);
  }
}

}  // namespace

PhaseTimes phase_times(bool quick) {
  // Seconds of base rounds per phase. The compute phase has the most measurements (up to 25
  // kernels and the clock); each gets about 1/26 of it, i.e. ~35 samples of 2 ms.
  if (quick) return {0.45, 0.25, 0.15, 0.35, 0.1, 0.2};
  return {1.9, 0.9, 0.6, 1.4, 0.4, 0.5};
}

Plan resolve_plan(const MeasureOptions& o, const Topology& topo, const CpuFeatures& f,
                  double available) {
  Plan p;
  p.probe = o.probe;
  p.times = phase_times(o.quick || o.probe);
  p.sample_seconds = engine::sample_seconds(o.quick || o.probe);
  const std::set<std::string> precisions = plan_precisions(o);
  if (!o.levels.empty()) p.levels = parse_memory_levels(o.levels, "--levels");
  // A level the machine lacks is refused before any measuring, as a precision it lacks is (a
  // run for L4 alone wrote a document without a memory roof, exit 0).
  std::vector<std::string> present;
  for (const auto& c : topo.caches) present.push_back("L" + std::to_string(c.level));
  present.push_back("DRAM");
  for (const auto& l : p.levels)
    if (std::find(present.begin(), present.end(), l) == present.end())
      throw Unavailable("--levels " + l + ": this machine reports no such memory level (it has " +
                        join(present, ", ") + ")");
  plan_cpus(o, topo, p);
  plan_kernels(o, f, precisions, p);
  plan_sizes(o, topo, available, p);
  // Curve intensities: light (1/16), then (2r+1)/8 for r = 0, 1, 2, 4, ..., 1024 (fp64).
  p.curve_rounds = o.quick
                       ? std::vector<std::uint64_t>{0, 2, 8, 32, 128, 512}
                       : std::vector<std::uint64_t>{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  return p;
}

}  // namespace roofline::cpu
