// The microarchitecture table behind theoretical peaks: instructions per cycle per core of each
// kernel class, for the instruction mix of this project's kernels (asm_macros.hpp). Sources:
//  [AMD-17-0] AMD Software Optimization Guide for Family 17h Processors (pub. 55723, Zen 1 and
//      Zen+, models 00h–2Fh): the same four FP pipes, 128 bits wide — two FMUL/FMA (FP0, FP1),
//      two FADD (FP2, FP3); a 256-bit AVX instruction is split into two 128-bit macro-ops, so
//      it issues at half the rate of a 128-bit one (2 × 128-bit FMA per cycle: 8 fp64 FLOP).
//  [AMD-17] AMD Software Optimization Guide for Family 17h Models 30h+ (pub. 56305) and
//      [AMD-19] for Family 19h (pub. 56665): Zen 2 and Zen 3 have four 256-bit FP pipes, two
//      FMUL/FMA (FP0, FP1) and two FADD (FP2, FP3); vector integer multiplies (vpmaddwd,
//      vpmaddubsw) run on the two multiply pipes, vector integer adds on all four.
//  [AMD-19-4] Family 19h Models 10h+ (pub. 57647, Zen 4): the same four pipes; a 512-bit
//      operation occupies a 256-bit pipe for two cycles ("double-pumped"), so 512-bit FMA, FADD,
//      FMUL, integer multiply, VNNI and BF16 dot products issue at half the 256-bit rate.
//      A. Yee, "Zen4's AVX512 Teardown" (numberworld.org, 2022) measures the same.
//  [AMD-1A] Family 1Ah (pub. 58455, Zen 5) and A. Yee, "Zen5's AVX512 Teardown" (numberworld.org,
//      2024): server and desktop Zen 5 cores widen the four pipes to 512 bits (two FMA, two
//      FADD: 4 × 512-bit per cycle); mobile Zen 5 (Strix, Krackan) keeps 256-bit datapaths.
//  [INTEL] Intel 64 and IA-32 Architectures Optimization Reference Manual, and uops.info port
//      tables: Skylake-SP onwards execute FP FMA, add and multiply on ports 0 and 1 (256-bit)
//      or 0 and 5 (512-bit, when the core has the second 512-bit FMA unit: Intel ARK "# of
//      AVX-512 FMA Units" — Gold 5xxx, Silver and Bronze of Skylake-SP/Cascade Lake have one);
//      vector integer multiplies on ports 0 and 1 (256-bit) or 0 (512-bit), vector integer adds
//      on 0, 1, 5 (256-bit) or 0, 5 (512-bit); AVX512-FP16 FMAs on the FMA ports; vdpbf16ps one
//      per cycle (Cooper Lake, Sapphire Rapids onwards).
//  [INTEL-GLC] Intel Optimization Reference Manual, Golden Cove: FP adders on ports 1 and 5
//      beside the FMA units on ports 0 and 1 (and 5 for 512 bits); the 512-bit entries of
//      sapphire() below were confirmed on a Sapphire Rapids-class VM (2026-12-05) with
//      roofline's kernels and with 12- and 24-chain variants: vdpbf16ps zmm 0.46 per cycle
//      either way (a port bound of one every other cycle, not latency), vpdpbusd zmm 1.84,
//      vfmadd ps zmm 1.83-1.88 — every 512-bit class at 0.92 of its bound (the clock licence).
//  [INTEL-AMX] Intel Optimization Reference Manual, ch. "Intel AMX", and Intel Architecture Day
//      2021: the TMUL unit of a Sapphire Rapids core (and its successors) performs 1024 bf16 or
//      2048 int8 multiply-adds' worth of OP per cycle — a 16 × 16 × 32 tdpbf16ps (16384 FLOP)
//      or 16 × 16 × 64 tdpbssd (32768 OP) issues every 16 cycles.
// Entries not listed are 0: no theoretical roof is claimed then. Each entry is the port bound of
// the kernel's instruction mix; where a measured kernel is known to stay below it, `limits`
// says why (printed next to the roof).
#include <cctype>
#include <cstdio>

#include "roofline/cpu_analysis.hpp"

namespace roofline::cpu {
namespace {
bool in(unsigned v, unsigned lo, unsigned hi) {
  return v >= lo && v <= hi;
}
bool contains(const std::string& s, const char* sub) {
  return s.find(sub) != std::string::npos;
}

// AMD Zen 2 … Zen 5. `wide512`: 512-bit datapaths (Zen 5 server/desktop); `avx512`: the core
// executes AVX-512 (Zen 4 double-pumped, Zen 5).
Microarchitecture amd(const char* name, bool avx512, bool wide512, const char* src) {
  Microarchitecture u;
  u.name = name;
  u.fma_256 = 2;      // FP0, FP1
  u.add_mul_256 = 4;  // 2 multiplies on FP0/FP1 + 2 adds on FP2/FP3
  // vpmaddwd on the two multiply pipes; its vpaddd on any of the four.
  u.int16_madd_256 = 2;
  // vpmaddubsw and the widening vpmaddwd both on the two multiply pipes: one pair per cycle.
  u.int8_madd_256 = 1;
  if (avx512) {
    const double half = wide512 ? 1.0 : 0.5;  // 512-bit issue rate relative to 256-bit
    u.fma_512 = 2 * half;
    u.add_mul_512 = 4 * half;
    u.int16_madd_512 = 2 * half;
    u.int8_madd_512 = 1 * half;
    u.vnni_512 = 2 * half;  // vpdpbusd on the multiply pipes
    u.vnni_256 = 2;
    u.bf16_dot_512 = 2 * half;  // vdpbf16ps on the FMA pipes
  }
  u.source = src;
  const std::string pair =
      " issues two per cycle on the multiply pipes, but a vpaddd that consumes each result "
      "holds the pair to three quarters of that on Zen 4 (roofline's kernels measured with "
      "dependent and with independent vpaddd: 1.5 and 2.0 vpmaddwd per cycle at 256 bits)";
  if (avx512 && !wide512) {
    u.limits.push_back({"int16_madd_256", "vpmaddwd" + pair});
    u.limits.push_back({"int16_madd_512", "vpmaddwd (512-bit, double-pumped)" + pair});
  }
  return u;
}

// Zen 1 and Zen+ [AMD-17-0]: the Zen 2 pipes at 128 bits. Entries count 128-bit instructions
// (halves_256 halves them at 256 bits). The vector integer multiply pipes are not listed:
// no theoretical integer roof is claimed.
Microarchitecture zen1() {
  Microarchitecture u;
  u.name = "zen1";
  u.halves_256 = true;
  u.fma_256 = 2;      // FP0, FP1, 128-bit
  u.add_mul_256 = 4;  // 2 multiplies on FP0/FP1 + 2 adds on FP2/FP3, 128-bit
  u.source = "AMD SOG pub. 55723";
  return u;
}

Microarchitecture intel_server(const char* name, double fma512_units, bool fp16, bool bf16) {
  Microarchitecture u;
  u.name = name;
  u.fma_256 = 2;      // ports 0, 1
  u.add_mul_256 = 2;  // adds and multiplies share the two FMA ports
  u.fma_512 = fma512_units;
  u.add_mul_512 = fma512_units;
  // vpmaddwd on ports 0 and 1, the vpaddd that accumulates on 0, 1 or 5: three ports for the
  // pair, so 1.5 pairs per cycle (256-bit); 512-bit: vpmaddwd on port 0, vpaddd on 0 or 5.
  u.int16_madd_256 = 1.5;
  u.int16_madd_512 = 1;
  // vpmaddubsw and vpmaddwd both on the multiply ports: one pair per cycle (256-bit), half a
  // pair at 512 bits (port 0 only).
  u.int8_madd_256 = 1;
  u.int8_madd_512 = 0.5;
  u.vnni_512 = 1;  // vpdpbusd zmm on port 0
  u.vnni_256 = 2;  // ymm on ports 0 and 1
  if (fp16) u.fp16_fma_512 = fma512_units;
  if (bf16) u.bf16_dot_512 = 1;
  u.source = "Intel Optimization Reference Manual; Intel ARK (AVX-512 FMA units); uops.info";
  return u;
}
// Sapphire, Emerald and Granite Rapids (Golden Cove and Redwood Cove cores) [INTEL-GLC]: the
// Skylake-SP ports plus two FP adders on ports 1 and 5, so adds and multiplies up to 256 bits
// issue on three ports; at 512 bits ports 0 and 5 take the integer multiplies and VNNI as well;
// vdpbf16ps zmm issues every other cycle; AMX [INTEL-AMX].
Microarchitecture sapphire(std::string name, bool fp16, bool bf16) {
  auto u = intel_server("", 2, fp16, bf16);
  u.name = std::move(name);
  u.add_mul_256 = 3;
  u.int8_madd_512 = 2.0 / 3;  // vpmaddubsw, vpmaddwd, vpaddd: three uops on ports 0 and 5
  u.vnni_512 = 2;
  if (bf16) u.bf16_dot_512 = 0.5;
  u.amx_dot = 1.0 / 16;
  // Seen on the development VM (2026-12-05): every 512-bit roof at 0.92 of the theory and the
  // 256-bit FMA roofs at 0.999 in the same run, AMX 0.85-0.90; a dependent-add chain timed right
  // after an AMX burst ran at 3.63-3.75 GHz against 4.02-4.05 before (docs/measure.md).
  const char* licence =
      "the core lowers its clock under sustained 512-bit and AMX work (Intel's power licence "
      "levels), and the theory's clock is that of integer adds";
  for (const char* column : {"fma_512", "add_mul_512", "int16_madd_512", "int8_madd_512",
                             "vnni_512", "bf16_dot_512", "fp16_fma_512", "amx_dot"})
    u.limits.push_back({column, licence});
  u.limits.push_back(
      {"int8_madd_256",
       "vpmaddubsw and vpmaddwd fill ports 0 and 1 and the vpaddd port 5, but a vpaddd that "
       "consumes each result holds the triple to about 0.9 per cycle (roofline's kernel on a "
       "Sapphire Rapids-class VM, 2026-12-05: 0.89-0.91 triples per cycle with dependent vpaddd, "
       "0.98-1.00 with independent ones)"});
  u.source = "Intel Optimization Reference Manual (Golden Cove, Intel AMX); uops.info; measured";
  return u;
}
}  // namespace

Microarchitecture identify_microarchitecture(const CpuFeatures& f) {
  const unsigned fam = f.family, mod = f.model;
  if (f.vendor == "AuthenticAMD" || f.vendor == "HygonGenuine") {
    if (fam == 0x17 && mod >= 0x30) return amd("zen2", false, false, "AMD SOG pub. 56305");
    if (fam == 0x17) return zen1();
    if (fam == 0x19) {
      const bool zen4 = in(mod, 0x10, 0x1f) || in(mod, 0x60, 0x7f) || in(mod, 0xa0, 0xaf);
      if (zen4) return amd("zen4", true, false, "AMD SOG pub. 57647; A. Yee, Zen4 AVX512 teardown");
      return amd("zen3", false, false, "AMD SOG pub. 56665");
    }
    if (fam == 0x1a) {
      // Mobile Zen 5 (Strix Point, Krackan Point) keeps 256-bit datapaths.
      const bool mobile = in(mod, 0x20, 0x2f) || in(mod, 0x60, 0x7f);
      return amd(mobile ? "zen5 (256-bit datapath)" : "zen5", true, !mobile,
                 "AMD SOG pub. 58455; A. Yee, Zen5 AVX512 teardown");
    }
  }
  if (f.vendor == "GenuineIntel" && fam == 6) {
    if (mod == 0x55) {
      // Skylake-SP / Cascade Lake / Cooper Lake: one 512-bit FMA unit on Bronze, Silver and Gold
      // 5xxx.
      const std::string& b = f.brand;
      const bool one_unit = contains(b, "Bronze") || contains(b, "Silver") || contains(b, "Gold 5");
      return intel_server(one_unit ? "skylake-sp (1 FMA unit)" : "skylake-sp", one_unit ? 1 : 2,
                          false, f.avx512_bf16);
    }
    if (mod == 0x6a || mod == 0x6c) return intel_server("icelake-sp", 2, false, false);
    if (mod == 0x8f) return sapphire("sapphirerapids", true, true);
    if (mod == 0xcf) return sapphire("emeraldrapids", true, true);
    if (mod == 0xad || mod == 0xae) return sapphire("graniterapids", true, true);
    if (f.amx_tile) {
      // A model the table does not list (or a virtual machine's made-up one) on a core with AMX
      // tiles: among family-6 models only Sapphire, Emerald and Granite Rapids have AMX (Intel's
      // product specifications, ark.intel.com), and their cores share the port layout above.
      char model[16];
      std::snprintf(model, sizeof model, "%#x", mod);
      return sapphire(
          std::string("sapphirerapids-class (AMX; CPUID model ") + model + " not listed)",
          f.avx512_fp16, f.avx512_bf16);
    }
    if (mod == 0x4e || mod == 0x5e || mod == 0x8e || mod == 0x9e || mod == 0xa5 || mod == 0xa6) {
      Microarchitecture u;
      u.name = "skylake";
      u.fma_256 = 2;
      u.add_mul_256 = 2;
      u.int16_madd_256 = 1.5;
      u.int8_madd_256 = 1;
      u.source = "Intel Optimization Reference Manual (Skylake client)";
      return u;
    }
  }
  Microarchitecture u;
  u.name = "unknown";
  return u;
}

}  // namespace roofline::cpu
