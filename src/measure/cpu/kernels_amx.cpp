// AMX: tile dot products on the TMUL unit (Intel SDM vol. 1 ch. 18 "Intel AMX"; vol. 2
// TDPBF16PS, TDPBSSD). Run only when CPUID reports AMX-BF16 / AMX-INT8 and Linux granted the
// tile state (features.cpp).
//
// Eight 1 KiB tile registers, configured 16 rows × 64 bytes. Tiles 4, 5 hold A (the same
// 64-byte row of the constants block in all 16 rows: a zero stride), 6, 7 hold B; tiles 0..3
// are four independent accumulators (C00 = A4·B6, C01 = A4·B7, C10 = A5·B6, C11 = A5·B7, the 2 × 2
// blocking of a tiled GEMM), enough to cover the tile instruction's latency with its issue
// interval. After the loop each accumulator is stored with a zero stride, so its 64-byte slot of
// `out` holds one row (all rows are equal). The loop body is the four tile instructions, the
// counter and the branch (the codegen test counts them).
#if defined(__x86_64__)
#include <cstdint>

namespace {
// The tile configuration (palette 1): bytes per row of tiles 0..15 at offset 16 (16-bit each),
// rows at offset 48; tiles 0..7 used, 16 rows × 64 bytes each. Constant data, so the kernel
// holds no loop but its own (the codegen test finds the last backward branch).
alignas(64) const unsigned char kTileConfig[64] = {
    1,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0,  0, 0,  0, 0,  0,   // palette, start row, reserved
    64, 0,  64, 0,  64, 0,  64, 0,  64, 0, 64, 0, 64, 0, 64, 0,   // bytes per row, tiles 0..7
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0,  0, 0,  0, 0,  0,   // tiles 8..15
    16, 16, 16, 16, 16, 16, 16, 16, 0,  0, 0,  0, 0,  0, 0,  0};  // rows
}  // namespace

// AT&T operand order of the tile dot products: B, A, C (Intel: C, A, B).
#define RL_AMX_KERNEL(NAME, OP)                                                       \
  extern "C" void NAME(std::uint64_t n, const void* c, void* out) {                   \
    const std::uint64_t zero = 0;                                                     \
    __asm__ volatile(                                                                 \
        "ldtilecfg %[cfg]\n\t"                                                        \
        "tilezero %%tmm0\n\t"                                                         \
        "tilezero %%tmm1\n\t"                                                         \
        "tilezero %%tmm2\n\t"                                                         \
        "tilezero %%tmm3\n\t"                                                         \
        "tileloadd (%[c],%[z],1), %%tmm4\n\t"                                         \
        "tileloadd (%[c],%[z],1), %%tmm5\n\t"                                         \
        "tileloadd 64(%[c],%[z],1), %%tmm6\n\t"                                       \
        "tileloadd 64(%[c],%[z],1), %%tmm7\n\t"                                       \
        "mov %[n], %%rcx\n"                                                           \
        "1:\n\t" OP " %%tmm6, %%tmm4, %%tmm0\n\t" OP " %%tmm7, %%tmm4, %%tmm1\n\t" OP \
        " %%tmm6, %%tmm5, %%tmm2\n\t" OP                                              \
        " %%tmm7, %%tmm5, %%tmm3\n\t"                                                 \
        "dec %%rcx\n\t"                                                               \
        "jnz 1b\n\t"                                                                  \
        "tilestored %%tmm0, (%[o],%[z],1)\n\t"                                        \
        "tilestored %%tmm1, 64(%[o],%[z],1)\n\t"                                      \
        "tilestored %%tmm2, 128(%[o],%[z],1)\n\t"                                     \
        "tilestored %%tmm3, 192(%[o],%[z],1)\n\t"                                     \
        "tilerelease\n\t"                                                             \
        :                                                                             \
        : [cfg] "m"(kTileConfig), [c] "r"(c), [o] "r"(out), [z] "r"(zero), [n] "r"(n) \
        : "rcx", "memory", "cc");                                                     \
  }

RL_AMX_KERNEL(roofline_cpu_amx_bf16, "tdpbf16ps")
RL_AMX_KERNEL(roofline_cpu_amx_int8, "tdpbssd")
#endif
