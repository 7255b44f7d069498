// CPUID and XGETBV: what the CPU and the operating system support (Intel SDM vol. 2A, CPUID
// leaf 1 ECX, leaf 7 EBX/ECX/EDX, leaf 7 subleaf 1 EAX; XCR0 bits 1-2 SSE/AVX state, 5-7
// AVX-512 opmask/ZMM state, 17-18 AMX tile configuration and data).
#include <cstring>

#include "roofline/cpu_backend.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace roofline::cpu {

std::vector<std::string> CpuFeatures::names() const {
  std::vector<std::string> n;
  const std::pair<bool, const char*> all[] = {{sse2, "sse2"},
                                              {avx, "avx"},
                                              {fma, "fma"},
                                              {avx2, "avx2"},
                                              {avx512f, "avx512f"},
                                              {avx512bw, "avx512bw"},
                                              {avx512vl, "avx512vl"},
                                              {avx512dq, "avx512dq"},
                                              {avx512_vnni, "avx512_vnni"},
                                              {avx512_bf16, "avx512_bf16"},
                                              {avx512_fp16, "avx512_fp16"},
                                              {avx_vnni, "avx_vnni"},
                                              {amx_tile, "amx_tile"},
                                              {amx_bf16, "amx_bf16"},
                                              {amx_int8, "amx_int8"}};
  for (const auto& [on, name] : all)
    if (on) n.emplace_back(name);
  return n;
}

#if defined(__x86_64__)
namespace {
struct Regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};
Regs cpuid(unsigned leaf, unsigned sub = 0) {
  Regs r;
  __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
  return r;
}
bool bit(unsigned v, int n) {
  return ((v >> n) & 1u) != 0;
}
// Linux hands out the 8 KiB AMX tile state on request only (Documentation/arch/x86/xstate.rst):
// a process that executes a tile instruction without it gets SIGILL. Granted once, for every
// thread of the process.
std::string request_amx() {
#if defined(__linux__)
  constexpr int kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  if (syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) != 0)
    return std::string("Linux refused the tile state (arch_prctl ARCH_REQ_XCOMP_PERM: ") +
           std::strerror(errno) + ")";
  return "";
#else
  return "the tile state is requested from Linux only";
#endif
}
unsigned long long xgetbv0() {
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}
}  // namespace

CpuFeatures detect_features() {
  CpuFeatures f;
  const Regs r0 = cpuid(0);
  char vendor[13] = {};
  std::memcpy(vendor, &r0.b, 4);
  std::memcpy(vendor + 4, &r0.d, 4);
  std::memcpy(vendor + 8, &r0.c, 4);
  f.vendor = vendor;
  const unsigned max_leaf = r0.a;
  const Regs r1 = cpuid(1);
  const unsigned base_family = (r1.a >> 8) & 0xf, base_model = (r1.a >> 4) & 0xf;
  const unsigned ext_family = (r1.a >> 20) & 0xff, ext_model = (r1.a >> 16) & 0xf;
  f.family = base_family == 0xf ? base_family + ext_family : base_family;
  f.model = (base_family == 0x6 || base_family == 0xf) ? (ext_model << 4) + base_model : base_model;
  f.stepping = r1.a & 0xf;
  f.sse2 = bit(r1.d, 26);
  const bool osxsave = bit(r1.c, 27);
  const unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
  const bool os_avx = (xcr0 & 0x6) == 0x6;
  const bool os_avx512 = (xcr0 & 0xe6) == 0xe6;
  f.avx = bit(r1.c, 28) && os_avx;
  f.fma = bit(r1.c, 12) && os_avx;
  if (max_leaf >= 7) {
    const Regs r7 = cpuid(7, 0);
    f.avx2 = bit(r7.b, 5) && os_avx;
    f.avx512f = bit(r7.b, 16) && os_avx512;
    f.avx512dq = bit(r7.b, 17) && f.avx512f;
    f.avx512bw = bit(r7.b, 30) && f.avx512f;
    f.avx512vl = bit(r7.b, 31) && f.avx512f;
    f.avx512_vnni = bit(r7.c, 11) && f.avx512f;
    f.avx512_fp16 = bit(r7.d, 23) && f.avx512f;
    f.amx_tile = bit(r7.d, 24);
    if (f.amx_tile) {
      // XCR0 bits 17 (XTILECFG) and 18 (XTILEDATA): the OS saves and restores tile state.
      const bool os_amx = (xcr0 & 0x60000) == 0x60000;
      f.amx_refused = os_amx ? request_amx() : "XCR0 does not enable the tile state";
      const bool usable = f.amx_refused.empty();
      f.amx_bf16 = bit(r7.d, 22) && usable;
      f.amx_int8 = bit(r7.d, 25) && usable;
    }
    if (r7.a >= 1) {
      const Regs r71 = cpuid(7, 1);
      f.avx_vnni = bit(r71.a, 4) && os_avx;
      f.avx512_bf16 = bit(r71.a, 5) && f.avx512f;
    }
  }
  const Regs e0 = cpuid(0x80000000u);
  if (e0.a >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      const Regs r = cpuid(0x80000002u + i);
      std::memcpy(brand + 16 * i, &r.a, 4);
      std::memcpy(brand + 16 * i + 4, &r.b, 4);
      std::memcpy(brand + 16 * i + 8, &r.c, 4);
      std::memcpy(brand + 16 * i + 12, &r.d, 4);
    }
    std::string b = brand;
    const auto first = b.find_first_not_of(' ');
    const auto last = b.find_last_not_of(' ');
    f.brand = first == std::string::npos ? "" : b.substr(first, last - first + 1);
  }
  return f;
}
#else
CpuFeatures detect_features() {
  return {};
}
#endif

}  // namespace roofline::cpu
