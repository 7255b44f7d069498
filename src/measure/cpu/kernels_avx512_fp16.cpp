// AVX512-FP16: half-precision FMA on 512-bit vectors (built with -mavx512fp16; run only when
// CPUID reports AVX512_FP16).
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_FMA_KERNEL(roofline_cpu_fma_ph512, "vfmadd213ph", "zmm")
#endif
