// Baseline x86-64 kernels (SSE2, legacy two-operand encoding): scalar and 128-bit add+mul.
#if defined(__x86_64__)
#include "measure/cpu/asm_macros.hpp"

RL_ADDMUL_KERNEL_SSE(roofline_cpu_addmul_sd, "addsd", "mulsd")
RL_ADDMUL_KERNEL_SSE(roofline_cpu_addmul_ss, "addss", "mulss")
RL_ADDMUL_KERNEL_SSE(roofline_cpu_addmul_pd128, "addpd", "mulpd")
RL_ADDMUL_KERNEL_SSE(roofline_cpu_addmul_ps128, "addps", "mulps")

// Clock: a dependent chain of 64 one-cycle register-register adds per iteration (an immediate
// add can be folded early by recent cores; a register source cannot).
#define RL_ADD8          \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t" \
  "add %%rdx, %%rax\n\t"
extern "C" void roofline_cpu_clock_chain(std::uint64_t n) {
  asm volatile(
      "mov $1, %%edx\n\t"
      "xor %%eax, %%eax\n\t"
      ".p2align 5\n"
      "1:\n\t" RL_ADD8 RL_ADD8 RL_ADD8 RL_ADD8 RL_ADD8 RL_ADD8 RL_ADD8 RL_ADD8
      "dec %[n]\n\t"
      "jnz 1b\n\t"
      : [n] "+r"(n)
      :
      : "rax", "rdx", "cc");
}
#endif
