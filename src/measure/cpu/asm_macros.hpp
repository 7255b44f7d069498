#pragma once
// Inline-assembly templates for the CPU micro-kernels. The instruction stream is written out
// here, so the compiler cannot fuse, reorder, vectorise or delete it (the failure mode of
// compiler-generated micro-benchmarks: trials merged so two share one load and store, or work
// counted that never executes). Each kernel file instantiates these with its register prefix
// ("xmm", "ymm", "zmm") and is compiled with the flags of its instruction set (layer.cmake); the
// codegen test (tests/measure/test_codegen.cpp) disassembles the built functions and counts the
// instructions against the declarations in backends.cpp.
//
// Compute kernels: registers 0..11 are the 12 independent accumulator chains (≥ latency ×
// throughput on every core we know: 4-cycle FMA × 2 pipes = 8), 12..14 hold constants loaded from
// the constants block: +0 multiplier, +64 addend, +128 zero, +192 one. After the loop the
// accumulators are stored to out[0..] (64-byte slots) and checked by the caller.
//
// Add+mul kernels need more chains than FMA kernels: an add chain and a multiply chain each
// carry a 3-cycle dependency on AMD Zen (2 FADD + 2 FMUL pipes), so 6 + 6 chains are exactly
// latency × pipes, and any scheduling hiccup settles into a slower steady state (6 + 6 read 0.81
// of the issue rate with 512-bit vectors on Zen 4, 12 + 12 read 1.00; measured with these
// macros). With 16 registers they use 7 + 7 chains (registers 14, 15 hold the addend and the
// multiplier); with AVX-512's 32 registers 12 + 12 (registers 24, 25), at every width: where
// AVX-512 is present its 12 + 12 kernels replace the 7 + 7 ones of the same roof (7 + 7 read
// 0.96–0.98 of 4 per cycle at 256 bits on Zen 4 as the best of 400 runs, 12 + 12 1.00).
#include <cstddef>
#include <cstdint>

// The instruction lists below are laid out by hand, one group per line.
// clang-format off
#define RL_STR(x) #x
#define RL_R(p, n) "%%" p RL_STR(n)
#define RL_I3(op, p, a, b, d) op " " RL_R(p, a) ", " RL_R(p, b) ", " RL_R(p, d) "\n\t"
#define RL_I2(op, p, a, d) op " " RL_R(p, a) ", " RL_R(p, d) "\n\t"
#define RL_LD(mov, off, p, n) mov " " RL_STR(off) "(%[c]), " RL_R(p, n) "\n\t"
#define RL_ST(mov, p, n, off) mov " " RL_R(p, n) ", " RL_STR(off) "(%[o])\n\t"

#define RL_STORE12(mov, p)                                                                    \
  RL_ST(mov, p, 0, 0)                                                                         \
  RL_ST(mov, p, 1, 64) RL_ST(mov, p, 2, 128) RL_ST(mov, p, 3, 192) RL_ST(mov, p, 4, 256)      \
      RL_ST(mov, p, 5, 320) RL_ST(mov, p, 6, 384) RL_ST(mov, p, 7, 448) RL_ST(mov, p, 8, 512) \
          RL_ST(mov, p, 9, 576) RL_ST(mov, p, 10, 640) RL_ST(mov, p, 11, 704)

// All 12 accumulators from the same constant slot.
#define RL_INIT12(mov, p, off)                                                                \
  RL_LD(mov, off, p, 0)                                                                       \
  RL_LD(mov, off, p, 1) RL_LD(mov, off, p, 2) RL_LD(mov, off, p, 3) RL_LD(mov, off, p, 4)     \
      RL_LD(mov, off, p, 5) RL_LD(mov, off, p, 6) RL_LD(mov, off, p, 7) RL_LD(mov, off, p, 8) \
          RL_LD(mov, off, p, 9) RL_LD(mov, off, p, 10) RL_LD(mov, off, p, 11)
// acc_k = r12 * acc_k + r13 (AT&T operand order of the 213 forms: src3, src2, dst).
#define RL_FMA12(op, p)                                                                           \
  RL_I3(op, p, 13, 12, 0)                                                                         \
  RL_I3(op, p, 13, 12, 1) RL_I3(op, p, 13, 12, 2) RL_I3(op, p, 13, 12, 3) RL_I3(op, p, 13, 12, 4) \
      RL_I3(op, p, 13, 12, 5) RL_I3(op, p, 13, 12, 6) RL_I3(op, p, 13, 12, 7)                     \
          RL_I3(op, p, 13, 12, 8) RL_I3(op, p, 13, 12, 9) RL_I3(op, p, 13, 12, 10)                \
              RL_I3(op, p, 13, 12, 11)
// Add+mul, 7 + 7 chains: chains 0..6 acc += r14, chains 7..13 acc *= r15, interleaved
// (VEX/EVEX three-operand form, and the legacy SSE two-operand form).
#define RL_AM(add, mul, p, a, m) RL_I3(add, p, 14, a, a) RL_I3(mul, p, 15, m, m)
#define RL_ADDMUL14(add, mul, p)                                                     \
  RL_AM(add, mul, p, 0, 7) RL_AM(add, mul, p, 1, 8) RL_AM(add, mul, p, 2, 9)         \
      RL_AM(add, mul, p, 3, 10) RL_AM(add, mul, p, 4, 11) RL_AM(add, mul, p, 5, 12)  \
          RL_AM(add, mul, p, 6, 13)
#define RL_AM_SSE(add, mul, a, m) RL_I2(add, "xmm", 14, a) RL_I2(mul, "xmm", 15, m)
#define RL_ADDMUL14_SSE(add, mul)                                                     \
  RL_AM_SSE(add, mul, 0, 7) RL_AM_SSE(add, mul, 1, 8) RL_AM_SSE(add, mul, 2, 9)        \
      RL_AM_SSE(add, mul, 3, 10) RL_AM_SSE(add, mul, 4, 11) RL_AM_SSE(add, mul, 5, 12) \
          RL_AM_SSE(add, mul, 6, 13)
// Add+mul, 12 + 12 chains (AVX-512's 32 registers, any width: scalar, xmm and ymm operands
// above 15 take the EVEX encoding): chains 0..11 acc += r24, chains 12..23 acc *= r25.
#define RL_AM24(add, mul, p, a, m) RL_I3(add, p, 24, a, a) RL_I3(mul, p, 25, m, m)
#define RL_ADDMUL24(add, mul, p)                                                                 \
  RL_AM24(add, mul, p, 0, 12) RL_AM24(add, mul, p, 1, 13) RL_AM24(add, mul, p, 2, 14)             \
      RL_AM24(add, mul, p, 3, 15) RL_AM24(add, mul, p, 4, 16) RL_AM24(add, mul, p, 5, 17)         \
          RL_AM24(add, mul, p, 6, 18) RL_AM24(add, mul, p, 7, 19) RL_AM24(add, mul, p, 8, 20)     \
              RL_AM24(add, mul, p, 9, 21) RL_AM24(add, mul, p, 10, 22) RL_AM24(add, mul, p, 11, 23)

// Loads and stores of chains beyond the first twelve.
#define RL_STORE14(mov, p) RL_STORE12(mov, p) RL_ST(mov, p, 12, 768) RL_ST(mov, p, 13, 832)
#define RL_STORE24(mov)                                                                         \
  RL_STORE12(mov, "zmm")                                                                       \
  RL_ST(mov, "zmm", 12, 768) RL_ST(mov, "zmm", 13, 832) RL_ST(mov, "zmm", 14, 896)             \
      RL_ST(mov, "zmm", 15, 960) RL_ST(mov, "zmm", 16, 1024) RL_ST(mov, "zmm", 17, 1088)       \
          RL_ST(mov, "zmm", 18, 1152) RL_ST(mov, "zmm", 19, 1216) RL_ST(mov, "zmm", 20, 1280)  \
              RL_ST(mov, "zmm", 21, 1344) RL_ST(mov, "zmm", 22, 1408) RL_ST(mov, "zmm", 23, 1472)
// Chains 0..6 from `off_a`, 7..13 from `off_b`.
#define RL_INIT7_7(mov, p, a, b)                                                              \
  RL_LD(mov, a, p, 0)                                                                         \
  RL_LD(mov, a, p, 1) RL_LD(mov, a, p, 2) RL_LD(mov, a, p, 3) RL_LD(mov, a, p, 4)             \
      RL_LD(mov, a, p, 5) RL_LD(mov, a, p, 6) RL_LD(mov, b, p, 7) RL_LD(mov, b, p, 8)         \
          RL_LD(mov, b, p, 9) RL_LD(mov, b, p, 10) RL_LD(mov, b, p, 11) RL_LD(mov, b, p, 12) \
              RL_LD(mov, b, p, 13)
// Chains 0..11 from `off_a`, 12..23 from `off_b`.
#define RL_INIT12_12(mov, a, b)                                                                  \
  RL_LD(mov, a, "zmm", 0)                                                                        \
  RL_LD(mov, a, "zmm", 1) RL_LD(mov, a, "zmm", 2) RL_LD(mov, a, "zmm", 3) RL_LD(mov, a, "zmm", 4) \
      RL_LD(mov, a, "zmm", 5) RL_LD(mov, a, "zmm", 6) RL_LD(mov, a, "zmm", 7)                    \
          RL_LD(mov, a, "zmm", 8) RL_LD(mov, a, "zmm", 9) RL_LD(mov, a, "zmm", 10)               \
              RL_LD(mov, a, "zmm", 11) RL_LD(mov, b, "zmm", 12) RL_LD(mov, b, "zmm", 13)         \
                  RL_LD(mov, b, "zmm", 14) RL_LD(mov, b, "zmm", 15) RL_LD(mov, b, "zmm", 16)     \
                      RL_LD(mov, b, "zmm", 17) RL_LD(mov, b, "zmm", 18) RL_LD(mov, b, "zmm", 19) \
                          RL_LD(mov, b, "zmm", 20) RL_LD(mov, b, "zmm", 21)                      \
                              RL_LD(mov, b, "zmm", 22) RL_LD(mov, b, "zmm", 23)

#define RL_VCLOBBER                                                                        \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
// Registers 16..31 (AVX-512 only).
#define RL_VCLOBBER_HI                                                                          \
  "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25",  \
      "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31"

// A whole compute kernel: NAME(n, constants, out). `init` loads the accumulators, `body` is one
// iteration, `tail` runs after the stores (vzeroupper for VEX/EVEX code).
#define RL_COMPUTE_KERNEL(NAME, mov, p, init, body, tail)                               \
  extern "C" void NAME(std::uint64_t n, const void* c, void* o) {                       \
    asm volatile(RL_LD(mov, 0, p, 12) RL_LD(mov, 64, p, 13) RL_LD(mov, 192, p, 14) init \
                 ".p2align 5\n"                                                         \
                 "1:\n\t" body                                                          \
                 "dec %[n]\n\t"                                                         \
                 "jnz 1b\n\t" RL_STORE12(mov, p) tail                                   \
                 : [n] "+r"(n)                                                          \
                 : [c] "r"(c), [o] "r"(o)                                               \
                 : "memory", "cc", RL_VCLOBBER);                                        \
  }

#define RL_FMA_KERNEL(NAME, op, p)                                                     \
  RL_COMPUTE_KERNEL(NAME, "vmovups", p, RL_INIT12("vmovups", p, 128), RL_FMA12(op, p), \
                    "vzeroupper\n\t")
// Add+mul kernels: their own constants (addend, multiplier) and chain counts (see above).
#define RL_ADDMUL_KERNEL_BODY(NAME, mov, p, constants, init, body, store, tail, ...)        \
  extern "C" void NAME(std::uint64_t n, const void* c, void* o) {                          \
    asm volatile(constants init                                                            \
                 ".p2align 5\n"                                                            \
                 "1:\n\t" body                                                             \
                 "dec %[n]\n\t"                                                             \
                 "jnz 1b\n\t" store tail                                                    \
                 : [n] "+r"(n)                                                             \
                 : [c] "r"(c), [o] "r"(o)                                                  \
                 : "memory", "cc", __VA_ARGS__);                                           \
  }
#define RL_ADDMUL_KERNEL(NAME, add, mul, p)                                                     \
  RL_ADDMUL_KERNEL_BODY(NAME, "vmovups", p, RL_LD("vmovups", 64, p, 14) RL_LD("vmovups", 192, p, 15), \
                        RL_INIT7_7("vmovups", p, 128, 192), RL_ADDMUL14(add, mul, p),           \
                        RL_STORE14("vmovups", p), "vzeroupper\n\t", RL_VCLOBBER)
#define RL_ADDMUL_KERNEL_SSE(NAME, add, mul)                                                       \
  RL_ADDMUL_KERNEL_BODY(NAME, "movups", "xmm", RL_LD("movups", 64, "xmm", 14) RL_LD("movups", 192, "xmm", 15), \
                        RL_INIT7_7("movups", "xmm", 128, 192), RL_ADDMUL14_SSE(add, mul),           \
                        RL_STORE14("movups", "xmm"), "", RL_VCLOBBER)
// 12 + 12 chains at width `p` ("zmm", "ymm", "xmm"; scalar instructions take "xmm"): the
// constants and accumulators are loaded and stored as whole zmm registers, of which the
// instructions use the low lanes (a VEX/EVEX write zeroes the lanes above its width).
#define RL_ADDMUL_KERNEL24(NAME, add, mul, p)                                                     \
  RL_ADDMUL_KERNEL_BODY(NAME, "vmovups", "zmm", RL_LD("vmovups", 64, "zmm", 24) RL_LD("vmovups", 192, "zmm", 25), \
                        RL_INIT12_12("vmovups", 128, 192), RL_ADDMUL24(add, mul, p),                \
                        RL_STORE24("vmovups"), "vzeroupper\n\t", RL_VCLOBBER, RL_VCLOBBER_HI)
#define RL_ADDMUL_KERNEL512(NAME, add, mul) RL_ADDMUL_KERNEL24(NAME, add, mul, "zmm")

// Memory kernels: four vectors per array per iteration, index register rax stepping through
// `bytes` bytes of each array. r15 holds the scalar (1.0) broadcast. `o0..o3` are the byte
// offsets of the four vectors, `step` their total.
#define RL_MEM_KERNEL(NAME, p, narr, step, body, tail)                                        \
  extern "C" void NAME(double* const* arrays, std::size_t bytes) {                            \
    static const double one = 1.0;                                                            \
    double* a0 = arrays[0];                                                                   \
    double* a1 = narr > 1 ? arrays[1] : arrays[0];                                            \
    double* a2 = narr > 2 ? arrays[2] : arrays[0];                                            \
    asm volatile("vbroadcastsd %[s], " RL_R(p, 15) "\n\t"                                   \
                 "xor %%eax, %%eax\n\t"                                                      \
                 ".p2align 5\n"                                                             \
                 "1:\n\t" body "add $" RL_STR(step) ", %%rax\n\t"                            \
                 "cmp %[n], %%rax\n\t"                                                       \
                 "jb 1b\n\t" tail "vzeroupper\n\t"                                           \
                 :                                                                           \
                 : [a] "r"(a0), [b] "r"(a1), [c] "r"(a2), [n] "r"(bytes), [s] "m"(one)       \
                 : "rax", "memory", "cc", RL_VCLOBBER); \
  }

#define RL_M(off, arr) RL_STR(off) "(%[" arr "],%%rax)"
#define RL_MLOAD(mov, p, off, arr, n) mov " " RL_M(off, arr) ", " RL_R(p, n) "\n\t"
#define RL_MSTORE(mov, p, n, off, arr) mov " " RL_R(p, n) ", " RL_M(off, arr) "\n\t"
// r_n = r15 * mem + ... (213: dst = src2 * dst + src3(mem))
#define RL_MFMA(op, p, off, arr, n) op " " RL_M(off, arr) ", " RL_R(p, 15) ", " RL_R(p, n) "\n\t"
#define RL_MMUL(op, p, off, arr, n) op " " RL_M(off, arr) ", " RL_R(p, 15) ", " RL_R(p, n) "\n\t"

#define RL_MEMORY_KERNELS(PFX, p, o0, o1, o2, o3, step)                                            \
  /* load: read a */                                                                               \
  RL_MEM_KERNEL(PFX##_load, p, 1, step,                                                            \
                RL_MLOAD("vmovapd", p, o0, "a", 0) RL_MLOAD("vmovapd", p, o1, "a", 1)              \
                    RL_MLOAD("vmovapd", p, o2, "a", 2) RL_MLOAD("vmovapd", p, o3, "a", 3),         \
                "")                                                                                \
  /* update: a = a * s (read-modify-write) */                                                      \
  RL_MEM_KERNEL(PFX##_update, p, 1, step,                                                          \
                RL_MMUL("vmulpd", p, o0, "a", 0) RL_MMUL("vmulpd", p, o1, "a", 1)                  \
                    RL_MMUL("vmulpd", p, o2, "a", 2) RL_MMUL("vmulpd", p, o3, "a", 3) RL_MSTORE(   \
                        "vmovapd", p, 0, o0, "a") RL_MSTORE("vmovapd", p, 1, o1, "a")              \
                        RL_MSTORE("vmovapd", p, 2, o2, "a") RL_MSTORE("vmovapd", p, 3, o3, "a"),   \
                "")                                                                                \
  /* copy: a = b */                                                                                \
  RL_MEM_KERNEL(PFX##_copy, p, 2, step,                                                            \
                RL_MLOAD("vmovapd", p, o0, "b", 0) RL_MLOAD("vmovapd", p, o1, "b", 1) RL_MLOAD(    \
                    "vmovapd", p, o2, "b", 2) RL_MLOAD("vmovapd", p, o3, "b", 3)                   \
                    RL_MSTORE("vmovapd", p, 0, o0, "a") RL_MSTORE("vmovapd", p, 1, o1, "a")        \
                        RL_MSTORE("vmovapd", p, 2, o2, "a") RL_MSTORE("vmovapd", p, 3, o3, "a"),   \
                "")                                                                                \
  RL_MEM_KERNEL(PFX##_copy_nt, p, 2, step,                                                         \
                RL_MLOAD("vmovapd", p, o0, "b", 0) RL_MLOAD("vmovapd", p, o1, "b", 1) RL_MLOAD(    \
                    "vmovapd", p, o2, "b", 2) RL_MLOAD("vmovapd", p, o3, "b", 3)                   \
                    RL_MSTORE("vmovntpd", p, 0, o0, "a") RL_MSTORE("vmovntpd", p, 1, o1, "a")      \
                        RL_MSTORE("vmovntpd", p, 2, o2, "a") RL_MSTORE("vmovntpd", p, 3, o3, "a"), \
                "sfence\n\t")                                                                      \
  /* triad: a = b + s * c */                                                                       \
  RL_MEM_KERNEL(                                                                                   \
      PFX##_triad, p, 3, step,                                                                     \
      RL_MLOAD("vmovapd", p, o0, "c", 0) RL_MLOAD("vmovapd", p, o1, "c", 1)                        \
          RL_MLOAD("vmovapd", p, o2, "c", 2) RL_MLOAD("vmovapd", p, o3, "c", 3)                    \
              RL_MFMA("vfmadd213pd", p, o0, "b", 0) RL_MFMA("vfmadd213pd", p, o1, "b", 1)          \
                  RL_MFMA("vfmadd213pd", p, o2, "b", 2) RL_MFMA("vfmadd213pd", p, o3, "b", 3)      \
                      RL_MSTORE("vmovapd", p, 0, o0, "a") RL_MSTORE("vmovapd", p, 1, o1, "a")      \
                          RL_MSTORE("vmovapd", p, 2, o2, "a") RL_MSTORE("vmovapd", p, 3, o3, "a"), \
      "")                                                                                          \
  RL_MEM_KERNEL(                                                                                   \
      PFX##_triad_nt, p, 3, step,                                                                  \
      RL_MLOAD("vmovapd", p, o0, "c", 0) RL_MLOAD("vmovapd", p, o1, "c", 1)                        \
          RL_MLOAD("vmovapd", p, o2, "c", 2) RL_MLOAD("vmovapd", p, o3, "c", 3)                    \
              RL_MFMA("vfmadd213pd", p, o0, "b", 0) RL_MFMA("vfmadd213pd", p, o1, "b", 1) RL_MFMA( \
                  "vfmadd213pd", p, o2, "b", 2) RL_MFMA("vfmadd213pd", p, o3, "b", 3)              \
                  RL_MSTORE("vmovntpd", p, 0, o0, "a") RL_MSTORE("vmovntpd", p, 1, o1, "a")        \
                      RL_MSTORE("vmovntpd", p, 2, o2, "a") RL_MSTORE("vmovntpd", p, 3, o3, "a"),   \
      "sfence\n\t")                                                                                \
  /* daxpy: a = a + s * b */                                                                       \
  RL_MEM_KERNEL(                                                                                   \
      PFX##_daxpy, p, 2, step,                                                                     \
      RL_MLOAD("vmovapd", p, o0, "b", 0) RL_MLOAD("vmovapd", p, o1, "b", 1)                        \
          RL_MLOAD("vmovapd", p, o2, "b", 2) RL_MLOAD("vmovapd", p, o3, "b", 3)                    \
              RL_MFMA("vfmadd213pd", p, o0, "a", 0) RL_MFMA("vfmadd213pd", p, o1, "a", 1)          \
                  RL_MFMA("vfmadd213pd", p, o2, "a", 2) RL_MFMA("vfmadd213pd", p, o3, "a", 3)      \
                      RL_MSTORE("vmovapd", p, 0, o0, "a") RL_MSTORE("vmovapd", p, 1, o1, "a")      \
                          RL_MSTORE("vmovapd", p, 2, o2, "a") RL_MSTORE("vmovapd", p, 3, o3, "a"), \
      "")                                                                                          \
  /* write: a = s */                                                                               \
  RL_MEM_KERNEL(PFX##_write, p, 1, step,                                                           \
                RL_MSTORE("vmovapd", p, 15, o0, "a") RL_MSTORE("vmovapd", p, 15, o1, "a")          \
                    RL_MSTORE("vmovapd", p, 15, o2, "a") RL_MSTORE("vmovapd", p, 15, o3, "a"),     \
                "")

// Empirical-curve kernel: groups of 8 vectors (o = vector size); each loaded vector gets
// `rounds` FMAs (v = 0.5 v + 0.5, which stays finite), then is added into 4 accumulators
// (r8..r11) so the result depends on every load. `light` variant: only 4 of the 8 vectors are
// added and no FMA runs.
#define RL_CV_LD(p, k, off) "vmovapd " RL_STR(off) "(%[ptr]), " RL_R(p, k) "\n\t"
#define RL_CURVE_KERNEL(NAME, p, vb)                                                            \
  extern "C" void NAME(const double* ptr, std::size_t groups, std::uint64_t rounds, int light,  \
                       double* out) {                                                           \
    static const double half = 0.5;                                                             \
    asm volatile(                                                                             \
        "vbroadcastsd %[h], " RL_R(p, 12) "\n\t"                                             \
        "vbroadcastsd %[h], " RL_R(p, 13) "\n\t"                                             \
        "vxorpd %%xmm8, %%xmm8, %%xmm8\n\t"                                                   \
        "vxorpd %%xmm9, %%xmm9, %%xmm9\n\t"                                                   \
        "vxorpd %%xmm10, %%xmm10, %%xmm10\n\t"                                                \
        "vxorpd %%xmm11, %%xmm11, %%xmm11\n\t"                                                \
        ".p2align 5\n"                                                                       \
        "1:\n\t" RL_CV_LD(p, 0, 0) RL_CV_LD(p, 1, vb) RL_CV_LD(p, 2, 2 * vb)                  \
            RL_CV_LD(p, 3, 3 * vb) RL_CV_LD(p, 4, 4 * vb) RL_CV_LD(p, 5, 5 * vb)              \
                RL_CV_LD(p, 6, 6 * vb) RL_CV_LD(p, 7, 7 * vb)                                 \
        "test %[light], %[light]\n\t"                                                        \
        "jnz 4f\n\t"                                                                         \
        "mov %[r], %%rcx\n\t"                                                                 \
        "test %%rcx, %%rcx\n\t"                                                               \
        "jz 3f\n\t"                                                                          \
        ".p2align 4\n"                                                                       \
        "2:\n\t" RL_I3("vfmadd213pd", p, 13, 12, 0) RL_I3("vfmadd213pd", p, 13, 12, 1)       \
            RL_I3("vfmadd213pd", p, 13, 12, 2) RL_I3("vfmadd213pd", p, 13, 12, 3)             \
                RL_I3("vfmadd213pd", p, 13, 12, 4) RL_I3("vfmadd213pd", p, 13, 12, 5)         \
                    RL_I3("vfmadd213pd", p, 13, 12, 6) RL_I3("vfmadd213pd", p, 13, 12, 7)     \
        "dec %%rcx\n\t"                                                                      \
        "jnz 2b\n"                                                                           \
        "3:\n\t" RL_I3("vaddpd", p, 4, 8, 8) RL_I3("vaddpd", p, 5, 9, 9)                      \
            RL_I3("vaddpd", p, 6, 10, 10) RL_I3("vaddpd", p, 7, 11, 11)                       \
        "4:\n\t" RL_I3("vaddpd", p, 0, 8, 8) RL_I3("vaddpd", p, 1, 9, 9)                      \
            RL_I3("vaddpd", p, 2, 10, 10) RL_I3("vaddpd", p, 3, 11, 11)                       \
        "add $" RL_STR(8 * vb) ", %[ptr]\n\t"                                                  \
        "dec %[g]\n\t"                                                                       \
        "jnz 1b\n\t"                                                                         \
        "vmovupd " RL_R(p, 8) ", 0(%[o])\n\t"                                                \
        "vmovupd " RL_R(p, 9) ", 64(%[o])\n\t"                                               \
        "vmovupd " RL_R(p, 10) ", 128(%[o])\n\t"                                             \
        "vmovupd " RL_R(p, 11) ", 192(%[o])\n\t"                                             \
        "vzeroupper\n\t"                                                                     \
        : [ptr] "+r"(ptr), [g] "+r"(groups)                                                     \
        : [r] "r"(rounds), [light] "r"(light), [o] "r"(out), [h] "m"(half)                    \
        : "rcx", "memory", "cc", RL_VCLOBBER); \
  }

// Integer and low-precision kernels. All accumulators start from the zero slot (+128).
// int16: chains 0..5 accumulate vpmaddwd(r12, r13) products held in temporaries 6..11.
#define RL_MADDWD(p, t, a) RL_I3("vpmaddwd", p, 13, 12, t) RL_I3("vpaddd", p, t, a, a)
#define RL_INT16_BODY(p) \
  RL_MADDWD(p, 6, 0)     \
  RL_MADDWD(p, 7, 1) RL_MADDWD(p, 8, 2) RL_MADDWD(p, 9, 3) RL_MADDWD(p, 10, 4) RL_MADDWD(p, 11, 5)
// int8 without VNNI: u8 × s8 pairs → s16 (vpmaddubsw), pairs of s16 × 1 → s32 (vpmaddwd with
// r14 = 1), accumulate (vpaddd): chains 0..3, temporaries 8..11.
#define RL_MADDUBS(p, t, a) \
  RL_I3("vpmaddubsw", p, 13, 12, t) RL_I3("vpmaddwd", p, 14, t, t) RL_I3("vpaddd", p, t, a, a)
#define RL_INT8_BODY(p) \
  RL_MADDUBS(p, 8, 0) RL_MADDUBS(p, 9, 1) RL_MADDUBS(p, 10, 2) RL_MADDUBS(p, 11, 3)
// One instruction per chain, 12 chains (VNNI vpdpbusd, BF16 vdpbf16ps, FP16 FMA).
#define RL_ONE12(op, p)                                                                           \
  RL_I3(op, p, 13, 12, 0)                                                                         \
  RL_I3(op, p, 13, 12, 1) RL_I3(op, p, 13, 12, 2) RL_I3(op, p, 13, 12, 3) RL_I3(op, p, 13, 12, 4) \
      RL_I3(op, p, 13, 12, 5) RL_I3(op, p, 13, 12, 6) RL_I3(op, p, 13, 12, 7)                     \
          RL_I3(op, p, 13, 12, 8) RL_I3(op, p, 13, 12, 9) RL_I3(op, p, 13, 12, 10)                \
              RL_I3(op, p, 13, 12, 11)
#define RL_INT_KERNEL(NAME, p, body) \
  RL_COMPUTE_KERNEL(NAME, "vmovups", p, RL_INIT12("vmovups", p, 128), body, "vzeroupper\n\t")
// clang-format on
