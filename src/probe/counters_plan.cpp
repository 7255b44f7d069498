// Which events count W (and per-level traffic) on which CPU: the event tables.
//
// Sources of the encodings (perf_event raw config = event | umask << 8 on x86 core PMUs):
// - Intel: Intel 64 and IA-32 Architectures Software Developer's Manual vol. 3B ch. 20
//   (performance-monitoring events) and Intel's perfmon event lists (github.com/intel/perfmon,
//   also tools/perf/pmu-events/arch/x86/<cpu>/floating-point.json in Linux):
//     FP_ARITH_INST_RETIRED.*  event 0xC7, umasks 0x01 SCALAR_DOUBLE, 0x02 SCALAR_SINGLE,
//       0x04 128B_PACKED_DOUBLE, 0x08 128B_PACKED_SINGLE, 0x10 256B_PACKED_DOUBLE,
//       0x20 256B_PACKED_SINGLE, 0x40 512B_PACKED_DOUBLE, 0x80 512B_PACKED_SINGLE
//       (Broadwell and later). "Each count represents N computation operations, one for each
//       element ... FM(N)ADD/SUB instructions count twice as they perform 2 calculations per
//       element" — so count × lanes is FLOP with FMA = 2.
//     FP_ARITH_INST_RETIRED2.* event 0xCF (Sapphire Rapids, Emerald Rapids, Granite Rapids):
//       umasks 0x01 SCALAR_HALF, 0x02 COMPLEX_SCALAR_HALF, 0x04 128B_PACKED_HALF,
//       0x08 256B_PACKED_HALF, 0x10 512B_PACKED_HALF; weights 1, 2, 8, 16, 32 as in Intel's
//       tma_info_core_flopc metric for those parts.
//     L1D.REPLACEMENT event 0x51 umask 0x01 (lines brought into L1D, × 64 B);
//     L2_LINES_IN.ALL event 0xF1 umask 0x1F (0x25/0x1F on Sapphire Rapids and later).
// - AMD: Processor Programming Reference (PPR) for family 17h and 19h, PMCx003 "Retired SSE/AVX
//   FLOPs" (Linux: tools/perf/pmu-events/arch/x86/amdzen{1,2,3,4}/floating-point.json):
//     family 17h (Zen 1/2): umask bits 0-3 single precision (add/sub, mult, div, mult-add),
//       bits 4-7 double precision; "Multiply-add counts as 2 FLOPS".
//     family 19h (Zen 3/4) and 1Ah: umask 0x01 add/sub, 0x02 mult, 0x04 div, 0x08 MAC (counted
//       as 2), 0x10 bfloat MAC (Zen 4); precisions are not separated. 0xFF = all.
//   PMCx003 can count more than 15 per cycle and needs the MergeEvent (PMCx0FFF) in the paired
//   counter ("Large Increment per Cycle Events"); Linux ≥ 5.6 pairs it by itself.
#include <cstdio>
#include <string>

#include "roofline/counters.hpp"

namespace roofline::counters {
namespace {

constexpr std::uint64_t raw(unsigned event, unsigned umask) {
  return static_cast<std::uint64_t>(event) | (static_cast<std::uint64_t>(umask) << 8);
}

EventSpec flops_event(std::string name, const std::string& pmu, std::uint64_t config,
                      std::string precision, double lanes, int group) {
  EventSpec e;
  e.name = std::move(name);
  e.pmu = pmu;
  e.config = config;
  e.role = Role::flops;
  e.precision = std::move(precision);
  e.weight = lanes;
  e.group = group;
  return e;
}

EventSpec level_event(std::string name, const std::string& pmu, std::uint64_t config,
                      std::string level, int group) {
  EventSpec e;
  e.name = std::move(name);
  e.pmu = pmu;
  e.config = config;
  e.role = Role::level;
  e.level = std::move(level);
  e.weight = 64;  // one cache line per count
  e.group = group;
  return e;
}

bool in(int model, std::initializer_list<int> models) {
  for (int m : models)
    if (m == model) return true;
  return false;
}

std::string hex(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", static_cast<unsigned>(v));
  return buf;
}

void intel_plan(EventPlan& p, const CpuIdentity& cpu, const std::string& pmu) {
  const int m = cpu.model;
  // Family 6 models (Intel SDM vol. 4 table 2-1 and the perfmon mapfile).
  const bool haswell_or_older = m < 0x3D || in(m, {0x3F, 0x45, 0x46});
  const bool avx512 =
      in(m, {0x55, 0x6A, 0x6C, 0x7D, 0x7E, 0x8C, 0x8D, 0xA7, 0x8F, 0xCF, 0xAD, 0xAE});
  const bool fp16 = in(m, {0x8F, 0xCF, 0xAD, 0xAE});  // SPR, EMR, GNR: FP_ARITH_INST_RETIRED2
  const bool spr_l2 = in(m, {0x8F, 0xCF, 0xAD, 0xAE});
  p.cpu_description = "Intel family " + std::to_string(cpu.family) + " model " + hex(m) +
                      (cpu.model_name.empty() ? "" : " (" + cpu.model_name + ")");
  if (cpu.family != 6 || haswell_or_older) {
    p.missing.push_back(
        "W: this Intel CPU has no FP_ARITH_INST_RETIRED events (they exist from "
        "Broadwell on); give W with --work or marker regions");
    return;
  }
  int g = 1;
  const char* names_d[] = {"SCALAR_DOUBLE", "128B_PACKED_DOUBLE", "256B_PACKED_DOUBLE",
                           "512B_PACKED_DOUBLE"};
  const char* names_s[] = {"SCALAR_SINGLE", "128B_PACKED_SINGLE", "256B_PACKED_SINGLE",
                           "512B_PACKED_SINGLE"};
  const unsigned umask_d[] = {0x01, 0x04, 0x10, 0x40};
  const unsigned umask_s[] = {0x02, 0x08, 0x20, 0x80};
  const double lanes_d[] = {1, 2, 4, 8};
  const double lanes_s[] = {1, 4, 8, 16};
  const int widths = avx512 ? 4 : 3;
  // At most 4 events per group: 4 general-purpose counters per thread with SMT on.
  for (int i = 0; i < widths; ++i)
    p.events.push_back(flops_event(std::string("FP_ARITH_INST_RETIRED.") + names_d[i], pmu,
                                   raw(0xC7, umask_d[i]), "fp64", lanes_d[i], g));
  ++g;
  for (int i = 0; i < widths; ++i)
    p.events.push_back(flops_event(std::string("FP_ARITH_INST_RETIRED.") + names_s[i], pmu,
                                   raw(0xC7, umask_s[i]), "fp32", lanes_s[i], g));
  ++g;
  if (fp16) {
    p.events.push_back(
        flops_event("FP_ARITH_INST_RETIRED2.SCALAR_HALF", pmu, raw(0xCF, 0x01), "fp16", 1, g));
    p.events.push_back(flops_event("FP_ARITH_INST_RETIRED2.COMPLEX_SCALAR_HALF", pmu,
                                   raw(0xCF, 0x02), "fp16", 2, g));
    p.events.push_back(
        flops_event("FP_ARITH_INST_RETIRED2.128B_PACKED_HALF", pmu, raw(0xCF, 0x04), "fp16", 8, g));
    ++g;
    p.events.push_back(flops_event("FP_ARITH_INST_RETIRED2.256B_PACKED_HALF", pmu, raw(0xCF, 0x08),
                                   "fp16", 16, g));
    p.events.push_back(flops_event("FP_ARITH_INST_RETIRED2.512B_PACKED_HALF", pmu, raw(0xCF, 0x10),
                                   "fp16", 32, g));
    ++g;
  }
  p.events.push_back(level_event("L1D.REPLACEMENT", pmu, raw(0x51, 0x01), "L1", g));
  p.events.push_back(
      level_event("L2_LINES_IN.ALL", pmu, spr_l2 ? raw(0x25, 0x1F) : raw(0xF1, 0x1F), "L2", g));
  p.limits.push_back(
      "FP_ARITH_INST_RETIRED counts each vector instruction at full width: "
      "lanes masked off by AVX-512 masks are counted too (over-count)");
  p.limits.push_back(
      "VNNI and AMX instructions are not in FP_ARITH_INST_RETIRED: int8/bf16 "
      "matrix work is not in W");
  p.limits.push_back(
      "FP_ARITH_INST_RETIRED counts only with the DAZ/FTZ flags set when the "
      "inputs contain denormals (assists are not counted)");
  p.limits.push_back("L1/L2 traffic counts lines filled (64 B each), not bytes the code names");
  if (!fp16)
    p.missing.push_back(
        "fp16 FLOP: FP_ARITH_INST_RETIRED2 exists only on Sapphire Rapids and "
        "later");
}

void amd_plan(EventPlan& p, const CpuIdentity& cpu, const std::string& pmu) {
  p.cpu_description = "AMD family " + hex(cpu.family) + " model " + hex(cpu.model) +
                      (cpu.model_name.empty() ? "" : " (" + cpu.model_name + ")");
  if (cpu.family == 0x17) {  // Zen, Zen+, Zen 2
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.dp (PMCx003 umask 0xF0)", pmu,
                                   raw(0x03, 0xF0), "fp64", 1, 1));
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.sp (PMCx003 umask 0x0F)", pmu,
                                   raw(0x03, 0x0F), "fp32", 1, 2));
  } else if (cpu.family == 0x19 || cpu.family == 0x1A) {  // Zen 3, Zen 4, (Zen 5)
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.all (PMCx003 umask 0xFF)", pmu,
                                   raw(0x03, 0xFF), "fp", 1, 1));
    p.limits.push_back("AMD family " + hex(cpu.family) +
                       ": PMCx003 does not separate precisions; W is all FP precisions together");
    if (cpu.family == 0x1A)
      p.limits.push_back("family 1Ah: PMCx003 encoding taken as on family 19h");
  } else {
    p.missing.push_back("W: no FLOP event known for AMD family " + hex(cpu.family));
    return;
  }
  p.limits.push_back(
      "PMCx003 can count more than 15 FLOPs per cycle and needs the MergeEvent "
      "pairing that Linux ≥ 5.6 sets up; older kernels under-count");
  p.limits.push_back("PMCx003 counts retired SSE/AVX FLOPs only: x87 is not counted");
  p.missing.push_back("per-level (L1/L2) traffic: not mapped for AMD cores");
}

}  // namespace

EventPlan core_event_plan(const CpuIdentity& cpu, const std::string& core_pmu) {
  EventPlan p;
  if (cpu.is_intel())
    intel_plan(p, cpu, core_pmu);
  else if (cpu.is_amd())
    amd_plan(p, cpu, core_pmu);
  else {
    p.cpu_description = cpu.vendor.empty() ? "unknown CPU" : cpu.vendor;
    p.missing.push_back("W: no FLOP events known for CPU vendor '" + cpu.vendor + "'");
  }
  return p;
}

std::vector<EventSpec> software_events() {
  EventSpec e;
  e.name = "task-clock";
  e.pmu = "software";
  e.type = 1;    // PERF_TYPE_SOFTWARE
  e.config = 1;  // PERF_COUNT_SW_TASK_CLOCK: ns of CPU time of the task (and its children)
  e.role = Role::software;
  e.group = 0;
  return {e};
}

}  // namespace roofline::counters
