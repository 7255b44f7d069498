// AVX512-VNNI: int8 dot products accumulated by vpdpbusd on 512-bit vectors
// (built with -mavx512f -mavx512vnni; run only when CPUID reports AVX512_VNNI).
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_INT_KERNEL(roofline_cpu_vnni512, "zmm", RL_ONE12("vpdpbusd", "zmm"))
#endif
