// The microarchitecture table behind theoretical peaks: instructions per cycle per core of each
// kernel class. Sources:
//  - AMD Software Optimization Guide, Family 17h Models 30h+ (pub. 56305) and Family 19h
//    (pub. 56665): four FP pipes, two FMUL/FMA and two FADD, 256 bits wide (Zen 2, Zen 3).
//  - AMD Software Optimization Guide, Family 19h Models 10h+ (pub. 57647): Zen 4 executes 512-bit
//    operations as two 256-bit halves (one 512-bit FMA per cycle).
//  - AMD Family 1Ah (pub. 58455): Zen 5 server/desktop cores have full 512-bit FMA pipes (two).
//  - Intel 64 and IA-32 Architectures Optimization Reference Manual (Skylake-SP onwards): two FMA
//    ports (0 and 1/5) that also execute FP add and multiply; Xeon Platinum 8xxx and Gold 6xxx
//    have two 512-bit FMA units, Gold 5xxx, Silver and Bronze of Skylake-SP/Cascade Lake one
//    (Intel ARK "# of AVX-512 FMA Units"). AVX512-FP16 runs on the FMA units (Sapphire Rapids).
//  - Integer dot products on Intel server cores: vpmaddwd, vpmaddubsw and vpdpbusd on 512-bit
//    vectors issue on port 0 only, on 256-bit vectors on ports 0 and 1 (uops.info tables).
// Entries not listed are 0: no theoretical roof is claimed then.
#include <cctype>

#include "roofline/cpu_analysis.hpp"

namespace roofline::cpu {
namespace {
bool in(unsigned v, unsigned lo, unsigned hi) {
  return v >= lo && v <= hi;
}
bool contains(const std::string& s, const char* sub) {
  return s.find(sub) != std::string::npos;
}

Microarchitecture amd_fp(const char* name, double fma512, double addmul512, const char* src) {
  Microarchitecture u;
  u.name = name;
  u.fma_256 = 2;
  u.add_mul_256 = 4;  // 2 multiplies on the FMA pipes + 2 adds on the FADD pipes
  u.fma_512 = fma512;
  u.add_mul_512 = addmul512;
  u.source = src;
  return u;
}

Microarchitecture intel_server(const char* name, double fma512_units, bool fp16) {
  Microarchitecture u;
  u.name = name;
  u.fma_256 = 2;
  u.add_mul_256 = 2;  // adds and multiplies share the two FMA ports
  u.fma_512 = fma512_units;
  u.add_mul_512 = fma512_units;
  u.int16_madd_256 = 2;
  u.int8_madd_256 = 1;  // vpmaddubsw + vpmaddwd both on ports 0/1
  u.int16_madd_512 = 1;
  u.int8_madd_512 = 0.5;
  u.vnni_512 = 1;
  u.vnni_256 = 2;
  if (fp16) u.fp16_fma_512 = fma512_units;
  u.source = "Intel Optimization Reference Manual; Intel ARK (AVX-512 FMA units); uops.info";
  return u;
}
}  // namespace

Microarchitecture identify_microarchitecture(const CpuFeatures& f) {
  const unsigned fam = f.family, mod = f.model;
  if (f.vendor == "AuthenticAMD" || f.vendor == "HygonGenuine") {
    if (fam == 0x17 && mod >= 0x30) return amd_fp("zen2", 0, 0, "AMD SOG pub. 56305");
    if (fam == 0x19) {
      const bool zen4 = in(mod, 0x10, 0x1f) || in(mod, 0x60, 0x7f) || in(mod, 0xa0, 0xaf);
      if (zen4) return amd_fp("zen4", 1, 2, "AMD SOG pub. 57647");
      return amd_fp("zen3", 0, 0, "AMD SOG pub. 56665");
    }
    if (fam == 0x1a) return amd_fp("zen5", 2, 4, "AMD SOG pub. 58455");
  }
  if (f.vendor == "GenuineIntel" && fam == 6) {
    if (mod == 0x55) {
      // Skylake-SP / Cascade Lake: one 512-bit FMA unit on Bronze, Silver and Gold 5xxx.
      const std::string& b = f.brand;
      const bool one_unit =
          contains(b, "Bronze") || contains(b, "Silver") ||
          (contains(b, "Gold") && (contains(b, "Gold 5") || contains(b, "Gold 52")));
      return intel_server(one_unit ? "skylake-sp (1 FMA unit)" : "skylake-sp", one_unit ? 1 : 2,
                          false);
    }
    if (mod == 0x6a || mod == 0x6c) return intel_server("icelake-sp", 2, false);
    if (mod == 0x8f) return intel_server("sapphirerapids", 2, true);
    if (mod == 0xcf) return intel_server("emeraldrapids", 2, true);
    if (mod == 0xad || mod == 0xae) return intel_server("graniterapids", 2, true);
    if (mod == 0x4e || mod == 0x5e || mod == 0x8e || mod == 0x9e || mod == 0xa5 || mod == 0xa6) {
      Microarchitecture u;
      u.name = "skylake";
      u.fma_256 = 2;
      u.add_mul_256 = 2;
      u.source = "Intel Optimization Reference Manual (Skylake client)";
      return u;
    }
  }
  Microarchitecture u;
  u.name = "unknown";
  return u;
}

}  // namespace roofline::cpu
