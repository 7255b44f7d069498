// Theoretical GPU roofs (docs/cuda.md, "Theoretical roofs": compute = SMs × clock × work per
// SM per cycle; bandwidth = bus width × memory clock × 2). Pure arithmetic on DeviceProps; compiled
// on every build.
#include <cmath>
#include <map>
#include <string>

#include "roofline/cuda.hpp"
#include "roofline/quantity.hpp"

namespace roofline::cuda {

namespace {

// Sources of the per-SM rates below.
constexpr const char* kGuide =
    "CUDA C Programming Guide, Arithmetic Instructions: results per clock cycle per SM";
constexpr const char* kVolta = "NVIDIA Tesla V100 GPU Architecture whitepaper (2017)";
constexpr const char* kAmpere = "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)";
constexpr const char* kHopper = "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022)";
constexpr const char* kBlackwell = "NVIDIA Blackwell datasheet (B200: 148 SMs)";

// FLOP per cycle per SM = 2 × FMA results per cycle per SM (an FMA is two FLOP: one multiply, one
// add).
UnitRate fma(const char* precision, double fma_per_clock, const char* source) {
  return {precision, "cuda cores", 2 * fma_per_clock, false, source};
}
UnitRate tensor(const char* precision, double flop_per_clock, const char* source,
                bool integer = false) {
  return {precision, "tensor", flop_per_clock, integer, source};
}

}  // namespace

std::string roof_name(const std::string& precision, const std::string& unit) {
  return precision + " " + unit;
}

namespace {

/// How a theory's SM clock was read, as its formula says it.
std::string clock_text(const DeviceProps& p, const ClockUnderLoad* c) {
  if (!c) return "maximum, cudaDevAttrClockRate";
  return "SM clock under " + c->load + ": NVML, median of " + std::to_string(c->samples) +
         " samples; maximum " + format_si(p.sm_clock_hz, "Hz");
}

}  // namespace

engine::Theory unit_theory(const DeviceProps& p, const UnitRate& r, const ClockUnderLoad* clock) {
  engine::Theory t;
  t.units = p.sm_count;
  t.unit_name = "SM";
  t.clock_hz = clock ? clock->sm_clock_hz : p.sm_clock_hz;
  t.clock_source = clock_text(p, clock);
  t.work_per_cycle_per_unit = r.work_per_clock_per_sm;
  t.table = "sm_" + std::to_string(p.cc_major) + std::to_string(p.cc_minor);
  t.source = r.source;
  if (r.unit == "tensor")
    t.limit =
        "measured through library GEMMs (cuBLASLt), whose share of the dense tensor peak the "
        "per-SM table does not model";
  return t;
}

std::vector<UnitRate> unit_rates(int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  // CUDA cores (Programming Guide table): fp32 FMA 64/clk/SM on 7.x and 8.0, 128 from 8.6 on;
  // fp64 FMA 32 on 7.0 and 8.0, 64 on 9.0 and 10.0, 2 on consumer parts (7.5, 8.6, 8.9, 12.x);
  // fp16 as half2: 256 results/clk/SM on 7.0, 8.0, 9.0 (A100 78 TFLOP/s = 108 × 1.41 GHz × 512).
  switch (cc) {
    case 70:  // V100: 80 SMs × 1.53 GHz × 1024 = 125 TFLOP/s fp16 tensor
      return {fma("fp64", 32, kGuide), fma("fp32", 64, kGuide), fma("fp16", 256, kGuide),
              tensor("fp16", 1024, kVolta)};
    case 75:
      return {fma("fp64", 2, kGuide), fma("fp32", 64, kGuide)};
    case 80:
      // A100: 108 SMs × 1.41 GHz: tf32 156, fp16/bf16 312, int8 624 TOP/s, fp64 tensor 19.5.
      return {fma("fp64", 32, kGuide),       fma("fp32", 64, kGuide),
              fma("fp16", 256, kGuide),      tensor("fp64", 128, kAmpere),
              tensor("tf32", 1024, kAmpere), tensor("fp16", 2048, kAmpere),
              tensor("bf16", 2048, kAmpere), tensor("int8", 4096, kAmpere, true)};
    case 86:
    case 87:
    case 89:
    case 120:
    case 121:
      // Tensor rates of these parts differ between SKUs (e.g. fp32 accumulate halved on
      // GeForce), so only the CUDA-core rates are tabulated.
      return {fma("fp64", 2, kGuide), fma("fp32", 128, kGuide)};
    case 90:
      // H100 SXM: 132 SMs; per SM twice A100's dense tensor rate per clock and fp8 at twice
      // fp16: 989.4 TFLOP/s bf16 and 1978.9 fp8/int8 at 1.83 GHz; fp64 tensor 67 at 1.98 GHz.
      return {fma("fp64", 64, kGuide),
              fma("fp32", 128, kGuide),
              fma("fp16", 256, kGuide),
              tensor("fp64", 256, kHopper),
              tensor("tf32", 2048, kHopper),
              tensor("fp16", 4096, kHopper),
              tensor("bf16", 4096, kHopper),
              tensor("fp8-e4m3", 8192, kHopper),
              tensor("int8", 8192, kHopper, true)};
    case 100:
      // B200: twice Hopper's dense 16-bit and 8-bit tensor rate per SM; fp64 tensor equals the
      // fp64 vector rate.
      return {fma("fp64", 64, kGuide),
              fma("fp32", 128, kGuide),
              tensor("fp64", 128, kBlackwell),
              tensor("tf32", 4096, kBlackwell),
              tensor("fp16", 8192, kBlackwell),
              tensor("bf16", 8192, kBlackwell),
              tensor("fp8-e4m3", 16384, kBlackwell),
              tensor("int8", 16384, kBlackwell, true)};
    default:
      return {};
  }
}

ByteRate dram_bandwidth(int bus_width_bits, Hertz mem_clock) {
  // β = bus width × clock × 2 transfers per clock (double data rate). A100 80GB:
  // 5120 bit / 8 × 1.593 GHz × 2 = 2.039 TB/s, its datasheet figure.
  return ByteRate(static_cast<double>(bus_width_bits) / 8.0 * mem_clock.value * 2.0);
}

ByteRate shared_bandwidth(int sm_count, Hertz sm_clock) {
  return ByteRate(static_cast<double>(sm_count) * 128.0 * sm_clock.value);
}

std::string dram_level_name(int bus_width_bits) {
  return bus_width_bits >= 1024 ? "HBM" : "DRAM";
}

RoofSet theoretical_roofs(const DeviceProps& p) {
  return theoretical_roofs(p, {});
}

RoofSet theoretical_roofs(const DeviceProps& p,
                          const std::map<std::string, ClockUnderLoad>& clocks) {
  auto require_positive = [&](double v, const char* field) {
    if (!(v > 0) || !std::isfinite(v))
      throw InputError("device " + p.name + ": " + field + " must be > 0 (got " + format_number(v) +
                       ")");
  };
  require_positive(p.sm_count, "sm_count");
  require_positive(p.sm_clock_hz, "sm_clock_hz");
  require_positive(p.mem_clock_hz, "mem_clock_hz");
  require_positive(p.bus_width_bits, "bus_width_bits");
  for (const auto& [name, c] : clocks)
    if (!(c.sm_clock_hz > 0) || !std::isfinite(c.sm_clock_hz))
      throw InputError("device " + p.name + ": the SM clock under load of " + name +
                       " must be > 0 (got " + format_number(c.sm_clock_hz) + ")");

  // The SM clock a roof is computed at, and how the formula names it.
  const std::string max_clock = format_si(p.sm_clock_hz, "Hz");
  auto clock_of = [&](const std::string& roof) -> std::pair<double, std::string> {
    const auto it = clocks.find(roof);
    if (it == clocks.end()) return {p.sm_clock_hz, max_clock};
    return {it->second.sm_clock_hz,
            format_si(it->second.sm_clock_hz, "Hz") + " (" + clock_text(p, &it->second) + ")"};
  };

  RoofSet set;
  set.name = p.name;
  for (const UnitRate& r : unit_rates(p.cc_major, p.cc_minor)) {
    ComputeRoof roof;
    roof.name = roof_name(r.precision, r.unit);
    const auto it = clocks.find(roof.name);
    const engine::Theory t = unit_theory(p, r, it == clocks.end() ? nullptr : &it->second);
    roof.precision = r.precision;
    roof.unit = r.unit;
    roof.integer = r.integer;
    roof.peak = WorkRate(t.value());
    roof.theoretical = roof.peak;
    roof.provenance = Provenance::theoretical;
    roof.source = r.source;
    roof.formula = t.formula(r.integer ? "OP" : "FLOP");
    set.compute.push_back(std::move(roof));
  }

  MemoryRoof dram;
  dram.level = dram_level_name(p.bus_width_bits);
  dram.kind = "memory";
  dram.bandwidth = dram_bandwidth(p.bus_width_bits, Hertz(p.mem_clock_hz));
  dram.theoretical = dram.bandwidth;
  dram.provenance = Provenance::theoretical;
  dram.source = "cudaDevAttrGlobalMemoryBusWidth × cudaDevAttrMemoryClockRate × 2 (DDR)";
  dram.formula =
      std::to_string(p.bus_width_bits) + " bit / 8 × " + format_si(p.mem_clock_hz, "Hz") + " × 2";
  if (p.memory_bytes > 0) dram.size_bytes = p.memory_bytes;
  set.memory.push_back(dram);

  // L1 and shared memory are one SRAM per SM on Volta and later: the same per-cycle width.
  for (const char* level : {"L1", "shared"}) {
    const auto [hz, clock] = clock_of(level);
    MemoryRoof l1;
    l1.level = level;
    l1.kind = "cache";
    l1.bandwidth = shared_bandwidth(p.sm_count, Hertz(hz));
    l1.theoretical = l1.bandwidth;
    l1.provenance = Provenance::theoretical;
    l1.source = "CUDA C Programming Guide, Shared Memory: 32 banks × 4 bytes per cycle per SM";
    l1.formula = std::to_string(p.sm_count) + " SMs × 128 byte/cycle × " + clock;
    if (p.shared_per_sm_bytes > 0) l1.size_bytes = p.shared_per_sm_bytes * p.sm_count;
    set.memory.push_back(std::move(l1));
  }
  set.default_memory = dram.level;
  if (set.find_compute("fp32 cuda cores")) set.default_compute = "fp32 cuda cores";
  return set;
}

}  // namespace roofline::cuda
