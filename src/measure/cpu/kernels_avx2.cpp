// AVX2 + FMA kernels (built with -mavx2 -mfma; run only when CPUID reports both): FMA on scalar,
// 128- and 256-bit vectors, 256-bit add+mul, 256-bit integer dot products, the memory mixes with
// 256-bit loads and stores, and the empirical-curve family.
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_FMA_KERNEL(roofline_cpu_fma_sd, "vfmadd213sd", "xmm")
RL_FMA_KERNEL(roofline_cpu_fma_ss, "vfmadd213ss", "xmm")
RL_FMA_KERNEL(roofline_cpu_fma_pd128, "vfmadd213pd", "xmm")
RL_FMA_KERNEL(roofline_cpu_fma_ps128, "vfmadd213ps", "xmm")
RL_FMA_KERNEL(roofline_cpu_fma_pd256, "vfmadd213pd", "ymm")
RL_FMA_KERNEL(roofline_cpu_fma_ps256, "vfmadd213ps", "ymm")
RL_ADDMUL_KERNEL(roofline_cpu_addmul_pd256, "vaddpd", "vmulpd", "ymm")
RL_ADDMUL_KERNEL(roofline_cpu_addmul_ps256, "vaddps", "vmulps", "ymm")
RL_INT_KERNEL(roofline_cpu_int16_256, "ymm", RL_INT16_BODY("ymm"))
RL_INT_KERNEL(roofline_cpu_int8_256, "ymm", RL_INT8_BODY("ymm"))

RL_MEMORY_KERNELS(roofline_cpu_mem256, "ymm", 0, 32, 64, 96, 128)
RL_CURVE_KERNEL(roofline_cpu_curve256, "ymm", 32)
#endif
