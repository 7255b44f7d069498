// Pure arithmetic of CPU measurement (cpu_analysis.hpp).
#include "roofline/cpu_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace roofline::cpu {

engine::Declaration declaration_of(const ComputeKernel& k) {
  engine::Declaration d;
  d.kernel = k.symbol;
  d.precision = k.precision;
  d.width_bits = k.width_bits;
  d.instruction_class = to_string(k.kind);
  d.work_per_iteration = k.work_per_iteration;
  d.integer = k.integer;
  d.counting = k.counting;
  return d;
}

engine::Declaration declaration_of(const MemoryKernel& k) {
  engine::Declaration d;
  d.kernel = k.symbol;
  d.width_bits = k.width_bits;
  d.instruction_class = k.mix;
  d.bytes_per_iteration = k.named_bytes_per_iteration;
  d.moved_bytes_per_iteration = k.moved_bytes_per_iteration;
  d.counting =
      "named bytes: loads + stores the code names (STREAM's count); moved bytes add the "
      "write-allocate read of lines stored with ordinary stores";
  return d;
}

std::vector<Plateau> find_plateaus(const std::vector<SweepPoint>& sweep, double tolerance) {
  std::vector<Plateau> out;
  auto median_of = [&](size_t a, size_t b) {
    std::vector<double> r;
    for (size_t i = a; i <= b; ++i) r.push_back(sweep[i].rate);
    std::sort(r.begin(), r.end());
    const size_t n = r.size();
    return n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]);
  };
  auto close = [&](double a, double b) {
    return std::fabs(std::log(a / b)) <= std::log1p(tolerance);
  };
  size_t i = 0;
  while (i < sweep.size()) {
    size_t j = i;
    while (j + 1 < sweep.size() && sweep[j + 1].rate > 0 &&
           close(sweep[j + 1].rate, median_of(i, j)))
      ++j;
    if (j > i) {
      Plateau p{i, j, median_of(i, j), sweep[i].bytes, sweep[j].bytes};
      // A run right after a plateau with the same rate (split by one stray point) joins it.
      if (!out.empty() && out.back().last + 2 >= i && close(out.back().rate, p.rate)) {
        out.back().last = j;
        out.back().max_bytes = sweep[j].bytes;
        out.back().rate = median_of(out.back().first, j);
      } else {
        out.push_back(p);
      }
      i = j + 1;
    } else {
      ++i;
    }
  }
  return out;
}

namespace {
double log_overlap(double a0, double a1, double b0, double b1) {
  const double lo = std::max(a0, b0), hi = std::min(a1, b1);
  return hi > lo ? std::log(hi / lo) : (hi == lo && a0 <= hi && b0 <= hi ? 1e-9 : 0.0);
}
}  // namespace

std::vector<LevelAssignment> name_levels(const std::vector<SweepPoint>& sweep,
                                         const std::vector<Plateau>& plateaus,
                                         const std::vector<double>& caps) {
  std::vector<LevelAssignment> out;
  if (sweep.empty()) return out;
  const double largest = sweep.back().bytes;
  auto representative = [&](const Plateau& p) {
    // The sweep point nearest the plateau's geometric middle.
    const double mid = std::sqrt(p.min_bytes * p.max_bytes);
    size_t best = p.first;
    for (size_t i = p.first; i <= p.last; ++i)
      if (std::fabs(std::log(sweep[i].bytes / mid)) < std::fabs(std::log(sweep[best].bytes / mid)))
        best = i;
    return sweep[best].bytes;
  };

  if (caps.empty()) {
    for (size_t i = 0; i < plateaus.size(); ++i) {
      LevelAssignment a;
      const bool last = i + 1 == plateaus.size();
      a.level = last && plateaus.size() > 1 ? "DRAM" : "L" + std::to_string(i + 1);
      a.plateau = i;
      a.representative_bytes = last ? plateaus[i].max_bytes : representative(plateaus[i]);
      a.measured_edge_bytes = plateaus[i].max_bytes;
      a.note = "no cache sizes reported: levels named in order of the plateaus";
      out.push_back(a);
    }
    return out;
  }

  size_t next = 0;  // plateaus are used in order, each at most once
  // The last plateau holds the largest working set, where DRAM is measured: caches never take it
  // (a VM's over-reported last-level cache would otherwise swallow the DRAM plateau).
  const size_t cache_plateaus = plateaus.size() > 1 ? plateaus.size() - 1 : plateaus.size();
  double lower = 0;
  for (size_t c = 0; c < caps.size(); ++c) {
    LevelAssignment a;
    a.level = "L" + std::to_string(c + 1);
    a.reported_bytes = caps[c];
    // The plateau overlapping (previous capacity, this capacity] most, in log size.
    double best_overlap = 0;
    for (size_t p = next; p < cache_plateaus; ++p) {
      const double ov = log_overlap(plateaus[p].min_bytes, plateaus[p].max_bytes,
                                    std::max(lower, sweep.front().bytes), caps[c]);
      if (ov > best_overlap) {
        best_overlap = ov;
        a.plateau = p;
      }
    }
    if (a.plateau) {
      const Plateau& p = plateaus[*a.plateau];
      next = *a.plateau + 1;
      a.representative_bytes = representative(p);
      a.measured_edge_bytes = p.max_bytes;
      // The plateau should hold up to about the reported size: a sweep at half-octave steps ends
      // a plateau between 40% of the capacity (other data, associativity) and a little
      // beyond it (the next level's victim or inclusive copies).
      a.size_agrees = p.max_bytes >= caps[c] / 2.5 && p.max_bytes <= caps[c] * 2;
      if (!a.size_agrees)
        a.note = "reported " + std::to_string(static_cast<long long>(caps[c] / 1024)) +
                 " KiB, but the plateau ends at " +
                 std::to_string(static_cast<long long>(p.max_bytes / 1024)) + " KiB";
    } else {
      a.representative_bytes = std::sqrt(std::max(lower, sweep.front().bytes) * caps[c]);
      a.size_agrees = false;
      a.note = "no plateau found for this level; measured at the reported size";
    }
    lower = caps[c];
    out.push_back(a);
  }
  // DRAM: the last plateau beyond the caches' plateaus, measured at the largest working set.
  LevelAssignment d;
  d.level = "DRAM";
  d.representative_bytes = largest;
  if (!plateaus.empty() && next < plateaus.size()) {
    d.plateau = plateaus.size() - 1;
    d.measured_edge_bytes = plateaus.back().max_bytes;
  } else {
    d.note = "no plateau beyond the caches in the sweep";
  }
  if (largest < 2 * caps.back())
    d.note += std::string(d.note.empty() ? "" : "; ") +
              "largest working set is below twice the last-level cache";
  out.push_back(d);
  return out;
}

std::string default_compute_roof(const std::vector<ComputeKernel>& kernels) {
  std::string best;
  double best_rank = -1;
  for (const ComputeKernel& k : kernels) {
    // A vector unit before a matrix unit (an AMX tile's 8192 bits would outrank any FMA).
    const double rank = (std::string(k.precision) == "fp64" ? 10000 : 0) +
                        (k.kind == KernelClass::fp_fma ? 1000 : 0) +
                        (is_amx(k.kind) ? 0 : k.width_bits);
    if (!k.integer && rank > best_rank) best_rank = rank, best = k.roof_name();
  }
  return best;
}

WorkRate theoretical_peak(int cores, Hertz clock, double work_per_cycle_per_core) {
  return WorkRate(cores * clock.value * work_per_cycle_per_core);
}

std::string table_column(const ComputeKernel& k) {
  const std::string w = k.width_bits > 256 ? "_512" : "_256";
  switch (k.kind) {
    case KernelClass::fp_fma:
      return "fma" + w;
    case KernelClass::fp_add_mul:
      return "add_mul" + w;
    case KernelClass::int16_madd:
      return "int16_madd" + w;
    case KernelClass::int8_madd:
      return "int8_madd" + w;
    case KernelClass::int8_vnni:
      return "vnni" + w;
    case KernelClass::bf16_dot:
      return "bf16_dot" + w;
    case KernelClass::fp16_fma:
      return "fp16_fma" + w;
    case KernelClass::amx_bf16:
    case KernelClass::amx_int8:
      return "amx_dot";
  }
  return "?";
}

std::optional<double> work_per_cycle(const Microarchitecture& u, const ComputeKernel& k) {
  const bool wide = k.width_bits > 256;
  double ipc = 0;
  switch (k.kind) {
    case KernelClass::fp_fma:
      ipc = wide ? u.fma_512 : u.fma_256;
      break;
    case KernelClass::fp_add_mul:
      ipc = wide ? u.add_mul_512 : u.add_mul_256;
      break;
    case KernelClass::int16_madd:
      ipc = wide ? u.int16_madd_512 : u.int16_madd_256;
      break;
    case KernelClass::int8_madd:
      ipc = wide ? u.int8_madd_512 : u.int8_madd_256;
      break;
    case KernelClass::int8_vnni:
      ipc = wide ? u.vnni_512 : u.vnni_256;
      break;
    case KernelClass::bf16_dot:
      ipc = wide ? u.bf16_dot_512 : 0;
      break;
    case KernelClass::fp16_fma:
      ipc = wide ? u.fp16_fma_512 : 0;
      break;
    case KernelClass::amx_bf16:
    case KernelClass::amx_int8:
      ipc = u.amx_dot;
      break;
  }
  if (ipc <= 0) return std::nullopt;
  if (u.halves_256 && k.width_bits == 256) ipc /= 2;
  // Work per instruction of the kind the table counts.
  return ipc * k.work_per_iteration / k.work_instructions;
}

std::string limit_for(const Microarchitecture& u, const ComputeKernel& k) {
  const std::string column = table_column(k);
  for (const auto& [c, why] : u.limits)
    if (c == column) return why;
  return "";
}

}  // namespace roofline::cpu
