// AVX512-BF16: vdpbf16ps, bf16 pairs multiplied and accumulated into fp32 lanes
// (built with -mavx512f -mavx512bf16; run only when CPUID reports AVX512_BF16).
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_INT_KERNEL(roofline_cpu_bf16dot512, "zmm", RL_ONE12("vdpbf16ps", "zmm"))
#endif
