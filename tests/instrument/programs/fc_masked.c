/* Masked and dot-product instructions, built twice by the tests: with AVX-512 (-march=x86-64-v4
 * plus VNNI and BF16), where a masked operation executes only its active lanes, and with AVX2
 * (-march=x86-64-v3), where the same selection is an operation on every lane and a blend.
 *   fc_masked add N SEED     c = mask ? a + b : c, masks from SEED: W = Σ popcount(mask)
 *                            (AVX-512) or 8 per group of 8 (AVX2)
 *   fc_masked fma N SEED     c = mask ? a·b + c : 0: W = 2·Σ popcount(mask) (AVX-512)
 *   fc_masked const N        c = 0x0F ? a + b : c (four of eight lanes): W = 4 per group (AVX-512)
 *   fc_masked vnni N         N vpdpbusd on 512 bits: 16 lanes × 4 byte products, each a
 *                            multiply and an add: 128·N integer operations
 *   fc_masked bf16 N         N vdpbf16ps on 512 bits: 16 lanes × 2 products and adds: 64·N FLOP
 *   fc_masked masks N SEED   prints Σ popcount(mask) (the hand count, computed without FP)
 * Exit status 77: the CPU lacks what the kernel needs. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static uint8_t mask_of(size_t group, unsigned seed) {
  uint32_t v = (uint32_t)group * 2654435761u + seed; /* Knuth's multiplicative hash */
  return (uint8_t)(v >> 24);
}

#if defined(__AVX512F__)
NOINLINE void masked_add(const double* a, const double* b, double* c, size_t groups,
                         unsigned seed) {
  for (size_t g = 0; g < groups; ++g) {
    const __m512d r = _mm512_mask_add_pd(_mm512_loadu_pd(c + 8 * g), mask_of(g, seed),
                                         _mm512_loadu_pd(a + 8 * g), _mm512_loadu_pd(b + 8 * g));
    _mm512_storeu_pd(c + 8 * g, r);
  }
}
NOINLINE void masked_fma(const double* a, const double* b, double* c, size_t groups,
                         unsigned seed) {
  for (size_t g = 0; g < groups; ++g) {
    const __m512d r = _mm512_maskz_fmadd_pd(mask_of(g, seed), _mm512_loadu_pd(a + 8 * g),
                                            _mm512_loadu_pd(b + 8 * g), _mm512_loadu_pd(c + 8 * g));
    _mm512_storeu_pd(c + 8 * g, r);
  }
}
NOINLINE void const_add(const double* a, const double* b, double* c, size_t groups) {
  for (size_t g = 0; g < groups; ++g) {
    const __m512d r = _mm512_mask_add_pd(_mm512_loadu_pd(c + 8 * g), 0x0F,
                                         _mm512_loadu_pd(a + 8 * g), _mm512_loadu_pd(b + 8 * g));
    _mm512_storeu_pd(c + 8 * g, r);
  }
}
#if defined(__AVX512VNNI__)
NOINLINE int32_t vnni(const uint8_t* a, const int8_t* b, size_t n) {
  __m512i acc = _mm512_setzero_si512();
  const __m512i va = _mm512_loadu_si512(a), vb = _mm512_loadu_si512(b);
  for (size_t i = 0; i < n; ++i) {
    acc = _mm512_dpbusd_epi32(acc, va, vb);
    __asm__ volatile("" : "+v"(acc)); /* keeps every instruction */
  }
  return _mm512_reduce_add_epi32(acc);
}
#endif
#if defined(__AVX512BF16__)
NOINLINE float bf16(const float* a, size_t n) {
  __m512 acc = _mm512_setzero_ps();
  const __m512bh va = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(a), _mm512_loadu_ps(a + 16));
  for (size_t i = 0; i < n; ++i) {
    acc = _mm512_dpbf16_ps(acc, va, va);
    __asm__ volatile("" : "+v"(acc));
  }
  float out[16];
  _mm512_storeu_ps(out, acc);
  return out[0];
}
#endif
#else
/* AVX2: the selection is a blend after an add over all four lanes, twice per group of 8. */
NOINLINE void masked_add(const double* a, const double* b, double* c, size_t groups,
                         unsigned seed) {
  for (size_t g = 0; g < groups; ++g) {
    const uint8_t m = mask_of(g, seed);
    for (int h = 0; h < 2; ++h) {
      const __m256i bits =
          _mm256_set_epi64x((m >> (4 * h + 3)) & 1 ? -1 : 0, (m >> (4 * h + 2)) & 1 ? -1 : 0,
                            (m >> (4 * h + 1)) & 1 ? -1 : 0, (m >> (4 * h)) & 1 ? -1 : 0);
      const size_t o = 8 * g + 4 * (size_t)h;
      const __m256d sum = _mm256_add_pd(_mm256_loadu_pd(a + o), _mm256_loadu_pd(b + o));
      _mm256_storeu_pd(c + o,
                       _mm256_blendv_pd(_mm256_loadu_pd(c + o), sum, _mm256_castsi256_pd(bits)));
    }
  }
}
#endif

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* k = argv[1];
  const size_t n = (size_t)strtoull(argv[2], NULL, 10);
  const unsigned seed = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 1;
  if (strcmp(k, "masks") == 0) {
    unsigned long long s = 0;
    for (size_t g = 0; g < n; ++g) s += (unsigned long long)__builtin_popcount(mask_of(g, seed));
    printf("%llu\n", s);
    return 0;
  }
  double* a = malloc(8 * n * sizeof *a);
  double* b = malloc(8 * n * sizeof *b);
  double* c = malloc(8 * n * sizeof *c);
  if (!a || !b || !c) return 3;
  for (size_t i = 0; i < 8 * n; ++i) a[i] = 1, b[i] = 2, c[i] = 5;
#if defined(__AVX512F__)
  if (!__builtin_cpu_supports("avx512f")) return 77;
#endif
  if (strcmp(k, "add") == 0) {
    masked_add(a, b, c, n, seed);
    for (size_t g = 0; g < n; ++g)
      for (int l = 0; l < 8; ++l)
        if (c[8 * g + (size_t)l] != (((mask_of(g, seed) >> l) & 1) ? 3.0 : 5.0)) return 1;
    return 0;
  }
#if defined(__AVX512F__)
  if (strcmp(k, "fma") == 0) {
    masked_fma(a, b, c, n, seed);
    for (size_t g = 0; g < n; ++g)
      for (int l = 0; l < 8; ++l)
        if (c[8 * g + (size_t)l] != (((mask_of(g, seed) >> l) & 1) ? 7.0 : 0.0)) return 1;
    return 0;
  }
  if (strcmp(k, "const") == 0) {
    const_add(a, b, c, n);
    return c[0] == 3.0 && c[7] == 5.0 ? 0 : 1;
  }
  if (strcmp(k, "vnni") == 0) {
#if defined(__AVX512VNNI__)
    if (!__builtin_cpu_supports("avx512vnni")) return 77;
    uint8_t ua[64];
    int8_t sb[64];
    for (int i = 0; i < 64; ++i) ua[i] = 1, sb[i] = 2;
    /* each of 16 lanes adds 4·1·2 per instruction */
    return vnni(ua, sb, n) == (int32_t)(16 * 8 * n) ? 0 : 1;
#else
    return 77;
#endif
  }
  if (strcmp(k, "bf16") == 0) {
#if defined(__AVX512BF16__)
    if (!__builtin_cpu_supports("avx512bf16")) return 77;
    float fa[32];
    for (int i = 0; i < 32; ++i) fa[i] = 1.0f;
    return bf16(fa, n) == (float)(2 * n) ? 0 : 1; /* lane 0: two products of 1·1 per step */
#else
    return 77;
#endif
  }
#endif
  return 2;
}
