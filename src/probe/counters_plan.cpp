// Which events count W (and per-level traffic) on which CPU: the event tables.
//
// Sources of the encodings (perf_event raw config = event | umask << 8 on x86 core PMUs):
// - Intel: Intel 64 and IA-32 Architectures Software Developer's Manual vol. 3B ch. 20
//   (performance-monitoring events) and Intel's perfmon event lists (github.com/intel/perfmon,
//   also tools/perf/pmu-events/arch/x86/<cpu>/floating-point.json and cache.json in Linux;
//   which model is which list: tools/perf/pmu-events/arch/x86/mapfile.csv):
//     FP_ARITH_INST_RETIRED.*  event 0xC7, umasks 0x01 SCALAR_DOUBLE, 0x02 SCALAR_SINGLE,
//       0x04 128B_PACKED_DOUBLE, 0x08 128B_PACKED_SINGLE, 0x10 256B_PACKED_DOUBLE,
//       0x20 256B_PACKED_SINGLE, 0x40 512B_PACKED_DOUBLE, 0x80 512B_PACKED_SINGLE. "Each count
//       represents N computation operations, one for each element ... FM(N)ADD/SUB
//       instructions count twice as they perform 2 calculations per element" — so count ×
//       lanes is FLOP with FMA = 2. Only the big cores have it (broadwell, broadwellde,
//       broadwellx, skylake, skylakex, cascadelakex, icelake, icelakex, tigerlake, rocketlake,
//       alderlake (incl. Raptor Lake), meteorlake, sapphirerapids, emeraldrapids,
//       graniterapids lists; on the hybrid parts with Unit cpu_core). The Atom cores count
//       FP_FLOPS_RETIRED (event 0xC8: sierraforest, grandridge, and the cpu_atom half of
//       alderlake/meteorlake), which is not mapped here.
//     FP_ARITH_INST_RETIRED2.* event 0xCF (Sapphire Rapids, Emerald Rapids, Granite Rapids):
//       umasks 0x01 SCALAR_HALF, 0x02 COMPLEX_SCALAR_HALF, 0x04 128B_PACKED_HALF,
//       0x08 256B_PACKED_HALF, 0x10 512B_PACKED_HALF; weights 1, 2, 8, 16, 32 as in Intel's
//       tma_info_core_flopc metric for those parts.
//     L1D.REPLACEMENT event 0x51 umask 0x01 (lines brought into L1D, × 64 B);
//     L2_LINES_IN.ALL event 0xF1 umask 0x1F up to Ice Lake / Tiger Lake / Rocket Lake; event
//       0x25 umask 0x1F from Golden Cove on: sapphirerapids, emeraldrapids, graniterapids, and
//       the cpu_core PMU of alderlake (Alder/Raptor Lake) and meteorlake (cache.json).
// - AMD: Processor Programming Reference (PPR) for family 17h, 19h and 1Ah, PMCx003 "Retired
//   SSE/AVX FLOPs" (Linux: tools/perf/pmu-events/arch/x86/amdzen{1,2,3,4,5}/floating-point.json,
//   fp_ret_sse_avx_ops.*; family/model → list in mapfile.csv: family 25 models 00h-0Fh and
//   20h-5Fh are amdzen3, the other family 25 models amdzen4, family 26 amdzen5):
//     family 17h (Zen 1/2): umask bits 0-3 single precision (add/sub, mult, div, mult-add),
//       bits 4-7 double precision; "Multiply-add counts as 2 FLOPS".
//     Zen 3: umask 0x01 add/sub, 0x02 mult, 0x04 div, 0x08 MAC (counted as 2); "all" = 0xFF;
//       precisions are not separated.
//     Zen 4: as Zen 3 plus 0x10 bfloat MAC (counted as 2); "all" = 0x1F; precisions are not
//       separated.
//     Zen 5: bits 3:0 the operation (0x01 add/sub, 0x02 mult, 0x04 div, 0x08 MAC counted as 2),
//       "all" = 0x0F; bits 7:4 select the data type: 0x20 bfloat16, 0x40 scalar single,
//       0x60 packed single, 0x80 scalar double, 0xA0 packed double (fp_ret_sse_avx_ops
//       .bfloat16_flops, .scalar_single_flops, .packed_single_flops, .scalar_double_flops,
//       .packed_double_flops).
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

std::string hex(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", static_cast<unsigned>(v));
  return buf;
}

// Family 6 models with FP_ARITH_INST_RETIRED, by the perfmon list they use (mapfile.csv).
struct IntelModel {
  int model;
  const char* name;
  bool avx512;     // 512B_PACKED_* events
  bool fp16;       // FP_ARITH_INST_RETIRED2 (half precision)
  bool golden_l2;  // L2_LINES_IN.ALL is event 0x25 (Golden Cove and later)
  bool hybrid;     // P-cores (cpu_core) next to E-cores (cpu_atom)
};
constexpr IntelModel kIntelModels[] = {
    {0x3D, "Broadwell", false, false, false, false},
    {0x47, "Broadwell", false, false, false, false},
    {0x56, "Broadwell-DE", false, false, false, false},
    {0x4F, "Broadwell-X", false, false, false, false},
    {0x4E, "Skylake", false, false, false, false},
    {0x5E, "Skylake", false, false, false, false},
    {0x8E, "Kaby/Coffee/Whiskey/Amber Lake", false, false, false, false},
    {0x9E, "Kaby/Coffee Lake", false, false, false, false},
    {0xA5, "Comet Lake", false, false, false, false},
    {0xA6, "Comet Lake", false, false, false, false},
    {0x55, "Skylake-X/Cascade Lake/Cooper Lake", true, false, false, false},
    {0x7D, "Ice Lake", true, false, false, false},
    {0x7E, "Ice Lake", true, false, false, false},
    {0x6A, "Ice Lake-SP", true, false, false, false},
    {0x6C, "Ice Lake-D", true, false, false, false},
    {0x8C, "Tiger Lake", true, false, false, false},
    {0x8D, "Tiger Lake", true, false, false, false},
    {0xA7, "Rocket Lake", true, false, false, false},
    {0x97, "Alder Lake", false, false, true, true},
    {0x9A, "Alder Lake", false, false, true, true},
    {0xB7, "Raptor Lake", false, false, true, true},
    {0xBA, "Raptor Lake", false, false, true, true},
    {0xBF, "Raptor Lake", false, false, true, true},
    {0xAA, "Meteor Lake", false, false, true, true},
    {0xAC, "Meteor Lake", false, false, true, true},
    {0x8F, "Sapphire Rapids", true, true, true, false},
    {0xCF, "Emerald Rapids", true, true, true, false},
    {0xAD, "Granite Rapids", true, true, true, false},
    {0xAE, "Granite Rapids", true, true, true, false},
};
// Models known to have only Atom cores (FP_FLOPS_RETIRED, event 0xC8, or no FLOP event).
constexpr int kIntelAtomOnly[] = {0xAF /* Sierra Forest */,
                                  0xB6 /* Grand Ridge */,
                                  0xBE /* Alder Lake-N */,
                                  0x86 /* Snow Ridge */,
                                  0x96 /* Elkhart Lake */,
                                  0x9C /* Jasper Lake */,
                                  0x5C /* Goldmont */,
                                  0x5F /* Goldmont */,
                                  0x7A /* Goldmont Plus */,
                                  0x57 /* Knights Landing */,
                                  0x85 /* Knights Mill */};

void intel_plan(EventPlan& p, const CpuIdentity& cpu, const std::string& pmu) {
  const int m = cpu.model;
  const IntelModel* known = nullptr;
  if (cpu.family == 6)
    for (const auto& k : kIntelModels)
      if (k.model == m) known = &k;
  p.cpu_description = "Intel family " + std::to_string(cpu.family) + " model " + hex(m) +
                      (known ? std::string(" ") + known->name : std::string()) +
                      (cpu.model_name.empty() ? "" : " (" + cpu.model_name + ")");
  if (!known) {
    bool atom = false;
    for (int a : kIntelAtomOnly) atom = atom || (cpu.family == 6 && a == m);
    p.missing.push_back(
        "W: no FLOP events known for this CPU model (Intel family " + std::to_string(cpu.family) +
        " model " + hex(m) + "): " +
        (atom ? std::string("an Atom-core part, whose FP_FLOPS_RETIRED (event 0xC8) is not "
                            "mapped")
              : std::string("FP_ARITH_INST_RETIRED (Broadwell and later big cores) is used only "
                            "on the models it is listed for")) +
        "; give W with --work or marker regions");
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
  const int widths = known->avx512 ? 4 : 3;
  // At most 4 events per group: 4 general-purpose counters per thread with SMT on.
  for (int i = 0; i < widths; ++i)
    p.events.push_back(flops_event(std::string("FP_ARITH_INST_RETIRED.") + names_d[i], pmu,
                                   raw(0xC7, umask_d[i]), "fp64", lanes_d[i], g));
  ++g;
  for (int i = 0; i < widths; ++i)
    p.events.push_back(flops_event(std::string("FP_ARITH_INST_RETIRED.") + names_s[i], pmu,
                                   raw(0xC7, umask_s[i]), "fp32", lanes_s[i], g));
  ++g;
  if (known->fp16) {
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
  p.events.push_back(level_event("L2_LINES_IN.ALL", pmu,
                                 known->golden_l2 ? raw(0x25, 0x1F) : raw(0xF1, 0x1F), "L2", g));
  if (known->hybrid)
    p.limits.push_back(
        "hybrid part: only the P-cores are counted (the cpu_core PMU); work a thread does while "
        "it runs on an E-core (cpu_atom, FP_FLOPS_RETIRED) is not in W or the L1/L2 traffic — "
        "pin the program to P-cores (taskset) for a complete count");
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
  if (!known->fp16)
    p.missing.push_back(
        "fp16 FLOP: FP_ARITH_INST_RETIRED2 exists only on Sapphire Rapids and "
        "later");
}

void amd_plan(EventPlan& p, const CpuIdentity& cpu, const std::string& pmu) {
  p.cpu_description = "AMD family " + hex(cpu.family) + " model " + hex(cpu.model) +
                      (cpu.model_name.empty() ? "" : " (" + cpu.model_name + ")");
  // Zen 3 or Zen 4 within family 19h, as Linux's mapfile.csv tells them apart.
  const bool zen3 =
      cpu.family == 0x19 && (cpu.model < 0x10 || (cpu.model >= 0x20 && cpu.model < 0x60));
  if (cpu.family == 0x17) {  // Zen, Zen+, Zen 2
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.dp (PMCx003 umask 0xF0)", pmu,
                                   raw(0x03, 0xF0), "fp64", 1, 1));
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.sp (PMCx003 umask 0x0F)", pmu,
                                   raw(0x03, 0x0F), "fp32", 1, 2));
  } else if (zen3) {
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.all (PMCx003 umask 0xFF)", pmu,
                                   raw(0x03, 0xFF), "fp", 1, 1));
    p.limits.push_back(
        "AMD Zen 3: PMCx003 does not separate precisions; W is all FP "
        "precisions together");
  } else if (cpu.family == 0x19) {  // Zen 4
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.all (PMCx003 umask 0x1F)", pmu,
                                   raw(0x03, 0x1F), "fp", 1, 1));
    p.limits.push_back(
        "AMD Zen 4: PMCx003 does not separate precisions; W is all FP "
        "precisions together (bfloat16 MACs included)");
  } else if (cpu.family == 0x1A) {  // Zen 5: per data type; two PMCx003 (4 counters) a group
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.scalar_double_flops (PMCx003 umask 0x80)",
                                   pmu, raw(0x03, 0x80), "fp64", 1, 1));
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.packed_double_flops (PMCx003 umask 0xA0)",
                                   pmu, raw(0x03, 0xA0), "fp64", 1, 1));
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.scalar_single_flops (PMCx003 umask 0x40)",
                                   pmu, raw(0x03, 0x40), "fp32", 1, 2));
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.packed_single_flops (PMCx003 umask 0x60)",
                                   pmu, raw(0x03, 0x60), "fp32", 1, 2));
    p.events.push_back(flops_event("fp_ret_sse_avx_ops.bfloat16_flops (PMCx003 umask 0x20)", pmu,
                                   raw(0x03, 0x20), "bf16", 1, 3));
    p.limits.push_back(
        "AMD Zen 5: W per data type from PMCx003's data-type selects (fp64, fp32, bf16), each "
        "count a FLOP as on earlier families; other types are not in W");
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
