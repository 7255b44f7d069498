// AVX-VNNI: the VEX-encoded vpdpbusd on 256-bit vectors (built with -mavxvnni; run only when
// CPUID reports AVX_VNNI). The {vex} prefix keeps the VEX encoding on CPUs that also have EVEX.
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_INT_KERNEL(roofline_cpu_avxvnni256, "ymm", RL_ONE12("%{vex%} vpdpbusd", "ymm"))
#endif
