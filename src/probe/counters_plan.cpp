// Which events count W (and per-level traffic) on which CPU: the plan, built from the event
// tables of counters_table.cpp (every encoding there names its source), and the limits and
// gaps that go with each CPU family.
//
// AMD PMCx003 can count more than 15 per cycle and needs the MergeEvent (PMCx0FFF) in the paired
// counter ("Large Increment per Cycle Events", AMD PPR; Linux >= 5.6 pairs it by itself).
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

std::string hex2(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%02X", v);
  return buf;
}

/// The plan's events for one table: rows of `table`, the 512-bit widths only on AVX-512 parts.
void add_table_events(EventPlan& p, const std::string& table, const std::string& pmu, bool avx512,
                      bool amd) {
  for (const auto& r : event_table()) {
    if (r.table != table || (r.avx512 && !avx512)) continue;
    // AMD's names are Linux perf's, which for Zen 5 give a different umask: print the encoding.
    const std::string name = amd ? r.name + " (PMCx003 umask " + hex2(r.umask) + ")" : r.name;
    if (r.role == Role::flops)
      p.events.push_back(
          flops_event(name, pmu, raw(r.event, r.umask), r.quantity, r.weight, r.group));
    else
      p.events.push_back(level_event(name, pmu, raw(r.event, r.umask), r.quantity, r.group));
  }
}

void intel_plan(EventPlan& p, const CpuIdentity& cpu, const std::string& pmu) {
  const int m = cpu.model;
  const CpuModel* known = find_cpu_model(cpu);
  p.cpu_description = cpu_description(cpu);
  if (!known || known->core_table.empty()) {
    const bool atom = known && known->atom;
    p.missing.push_back(
        "W: no FLOP events known for this CPU model (Intel family " + std::to_string(cpu.family) +
        " model " + hex(m) + "): " +
        (atom ? std::string("an Atom-core part (or Xeon Phi) without FP_ARITH_INST_RETIRED; "
                            "Sierra Forest and Grand Ridge count FP_FLOPS_RETIRED (event 0xC8), "
                            "which is not mapped")
              : std::string("FP_ARITH_INST_RETIRED (Broadwell and later big cores) is used only "
                            "on the models it is listed for")) +
        "; give W with --work or marker regions");
    return;
  }
  add_table_events(p, known->core_table, pmu, known->avx512, false);
  if (known->hybrid)
    p.limits.push_back(
        "hybrid part: only the P-cores are counted (the cpu_core PMU); work a thread does while "
        "it runs on an E-core (cpu_atom, FP_FLOPS_RETIRED) is not in W or the L2/L3 traffic — "
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
  p.limits.push_back(
      "L2/L3 traffic counts lines filled (64 B each): L1D.REPLACEMENT = lines L2 serves to L1, "
      "L2_LINES_IN.ALL = lines L3 or memory serves to L2; write-backs are not counted");
  if (!known->fp16)
    p.missing.push_back(
        "fp16 FLOP: FP_ARITH_INST_RETIRED2 exists only on Sapphire Rapids and "
        "later");
}

void amd_plan(EventPlan& p, const CpuIdentity& cpu, const std::string& pmu) {
  const CpuModel* known = find_cpu_model(cpu);
  p.cpu_description = cpu_description(cpu);
  if (!known || known->core_table.empty()) {
    p.missing.push_back("W: no FLOP event known for AMD family " + hex(cpu.family));
    return;
  }
  add_table_events(p, known->core_table, pmu, known->avx512, true);
  const std::string& t = known->core_table;
  if (t == "amd-zen2" || t == "amd-zen3")
    p.limits.push_back("AMD " + known->name +
                       ": PMCx003 does not separate precisions; W is all FP precisions together");
  else if (t == "amd-zen4")
    p.limits.push_back(
        "AMD Zen 4: PMCx003 does not separate precisions; W is all FP "
        "precisions together (bfloat16 MACs included)");
  else if (t == "amd-zen5")
    p.limits.push_back(
        "AMD Zen 5: W per data type from PMCx003's data-type selects (fp64, fp32, bf16) with all "
        "four operation bits set, each count a FLOP as on earlier families; other types are not "
        "in W");
  p.limits.push_back(
      "PMCx003 can count more than 15 FLOPs per cycle and needs the MergeEvent "
      "pairing that Linux ≥ 5.6 sets up; older kernels under-count");
  p.limits.push_back("PMCx003 counts retired SSE/AVX FLOPs only: x87 is not counted");
  p.missing.push_back("per-level (L2/L3) traffic: not mapped for AMD cores");
}

}  // namespace

std::string cpu_description(const CpuIdentity& cpu) {
  std::string s;
  if (cpu.is_intel())
    s = "Intel family " + std::to_string(cpu.family) + " model " + hex(cpu.model);
  else if (cpu.is_amd())
    s = "AMD family " + hex(cpu.family) + " model " + hex(cpu.model);
  else
    return cpu.vendor.empty()
               ? (cpu.model_name.empty() ? "unknown CPU" : cpu.model_name)
               : cpu.vendor + (cpu.model_name.empty() ? "" : " (" + cpu.model_name + ")");
  if (const CpuModel* known = find_cpu_model(cpu)) s += " " + known->name;
  return s + (cpu.model_name.empty() ? "" : " (" + cpu.model_name + ")");
}

EventPlan core_event_plan(const CpuIdentity& cpu, const std::string& core_pmu) {
  EventPlan p;
  if (cpu.is_intel())
    intel_plan(p, cpu, core_pmu);
  else if (cpu.is_amd())
    amd_plan(p, cpu, core_pmu);
  else {
    p.cpu_description = cpu_description(cpu);
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
