// AVX-512 kernels (built with -mavx512f -mavx512bw; run only when CPUID and XGETBV report
// AVX-512 state): 512-bit FMA, add+mul at every width with 12 + 12 chains, 512-bit integer dot
// products, memory mixes with 512-bit loads and stores, and the empirical-curve family.
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_FMA_KERNEL(roofline_cpu_fma_pd512, "vfmadd213pd", "zmm")
RL_FMA_KERNEL(roofline_cpu_fma_ps512, "vfmadd213ps", "zmm")
RL_ADDMUL_KERNEL512(roofline_cpu_addmul_pd512, "vaddpd", "vmulpd")
RL_ADDMUL_KERNEL512(roofline_cpu_addmul_ps512, "vaddps", "vmulps")
// 12 + 12 chains at the narrower widths, in registers 0..25 (EVEX above 15).
RL_ADDMUL_KERNEL24(roofline_cpu_addmul24_pd256, "vaddpd", "vmulpd", "ymm")
RL_ADDMUL_KERNEL24(roofline_cpu_addmul24_ps256, "vaddps", "vmulps", "ymm")
RL_ADDMUL_KERNEL24(roofline_cpu_addmul24_pd128, "vaddpd", "vmulpd", "xmm")
RL_ADDMUL_KERNEL24(roofline_cpu_addmul24_ps128, "vaddps", "vmulps", "xmm")
RL_ADDMUL_KERNEL24(roofline_cpu_addmul24_sd, "vaddsd", "vmulsd", "xmm")
RL_ADDMUL_KERNEL24(roofline_cpu_addmul24_ss, "vaddss", "vmulss", "xmm")
RL_INT_KERNEL(roofline_cpu_int16_512, "zmm", RL_INT16_BODY("zmm"))
RL_INT_KERNEL(roofline_cpu_int8_512, "zmm", RL_INT8_BODY("zmm"))

RL_MEMORY_KERNELS(roofline_cpu_mem512, "zmm", 0, 64, 128, 192, 256)
RL_CURVE_KERNEL(roofline_cpu_curve512, "zmm", 64)
#endif
