// The backends and their declaration tables: every kernel's instructions per iteration and the
// work or bytes they stand for are written once, here. Built with the baseline flags; a kernel of
// a wider instruction set is only called after its backend's supported() check.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "roofline/cpu_backend.hpp"
#include "roofline/error.hpp"

#if defined(__x86_64__)
extern "C" {
#define RL_DECL_COMPUTE(name) void name(std::uint64_t, const void*, void*);
#define RL_DECL_MEMORY(pfx)                         \
  void pfx##_load(double* const*, std::size_t);     \
  void pfx##_update(double* const*, std::size_t);   \
  void pfx##_copy(double* const*, std::size_t);     \
  void pfx##_copy_nt(double* const*, std::size_t);  \
  void pfx##_triad(double* const*, std::size_t);    \
  void pfx##_triad_nt(double* const*, std::size_t); \
  void pfx##_daxpy(double* const*, std::size_t);    \
  void pfx##_write(double* const*, std::size_t);
RL_DECL_COMPUTE(roofline_cpu_addmul_sd)
RL_DECL_COMPUTE(roofline_cpu_addmul_ss)
RL_DECL_COMPUTE(roofline_cpu_addmul_pd128)
RL_DECL_COMPUTE(roofline_cpu_addmul_ps128)
RL_DECL_COMPUTE(roofline_cpu_fma_sd)
RL_DECL_COMPUTE(roofline_cpu_fma_ss)
RL_DECL_COMPUTE(roofline_cpu_fma_pd128)
RL_DECL_COMPUTE(roofline_cpu_fma_ps128)
RL_DECL_COMPUTE(roofline_cpu_fma_pd256)
RL_DECL_COMPUTE(roofline_cpu_fma_ps256)
RL_DECL_COMPUTE(roofline_cpu_addmul_pd256)
RL_DECL_COMPUTE(roofline_cpu_addmul_ps256)
RL_DECL_COMPUTE(roofline_cpu_int16_256)
RL_DECL_COMPUTE(roofline_cpu_int8_256)
RL_DECL_COMPUTE(roofline_cpu_fma_pd512)
RL_DECL_COMPUTE(roofline_cpu_fma_ps512)
RL_DECL_COMPUTE(roofline_cpu_addmul_pd512)
RL_DECL_COMPUTE(roofline_cpu_addmul24_pd256)
RL_DECL_COMPUTE(roofline_cpu_addmul24_ps256)
RL_DECL_COMPUTE(roofline_cpu_addmul24_pd128)
RL_DECL_COMPUTE(roofline_cpu_addmul24_ps128)
RL_DECL_COMPUTE(roofline_cpu_addmul24_sd)
RL_DECL_COMPUTE(roofline_cpu_addmul24_ss)
RL_DECL_COMPUTE(roofline_cpu_addmul_ps512)
RL_DECL_COMPUTE(roofline_cpu_int16_512)
RL_DECL_COMPUTE(roofline_cpu_int8_512)
RL_DECL_COMPUTE(roofline_cpu_vnni512)
RL_DECL_COMPUTE(roofline_cpu_avxvnni256)
RL_DECL_COMPUTE(roofline_cpu_bf16dot512)
RL_DECL_COMPUTE(roofline_cpu_fma_ph512)
RL_DECL_COMPUTE(roofline_cpu_amx_bf16)
RL_DECL_COMPUTE(roofline_cpu_amx_int8)
RL_DECL_MEMORY(roofline_cpu_mem256)
RL_DECL_MEMORY(roofline_cpu_mem512)
void roofline_cpu_curve256(const double*, std::size_t, std::uint64_t, int, double*);
void roofline_cpu_curve512(const double*, std::size_t, std::uint64_t, int, double*);
void roofline_cpu_clock_chain(std::uint64_t);
}
#endif

namespace roofline::cpu {

std::string to_string(KernelClass c) {
  switch (c) {
    case KernelClass::fp_fma:
      return "fma";
    case KernelClass::fp_add_mul:
      return "add+mul";
    case KernelClass::int16_madd:
      return "vpmaddwd";
    case KernelClass::int8_madd:
      return "vpmaddubsw";
    case KernelClass::int8_vnni:
      return "vnni";
    case KernelClass::bf16_dot:
      return "dot";
    case KernelClass::fp16_fma:
      return "fma";
    case KernelClass::amx_bf16:
    case KernelClass::amx_int8:
      return "AMX tile dot";
  }
  return "?";
}

namespace {
int element_bits(const std::string& precision) {
  if (precision == "fp64") return 64;
  if (precision == "fp32") return 32;
  if (precision == "int8") return 8;
  return 16;  // fp16, bf16, int16
}
}  // namespace

int ComputeKernel::lanes() const {
  // A tile dot product: 16 × 16 results, each summing one 64-byte row of A with one column of
  // B (K = 32 bf16 or 64 int8 elements).
  if (is_amx(kind)) return 16 * 16 * (512 / element_bits(precision));
  return std::max(1, width_bits / element_bits(precision));
}

std::string ComputeKernel::unit() const {
  if (is_amx(kind)) return to_string(kind);
  const bool scalar = width_bits == element_bits(precision);
  return (scalar ? std::string("scalar") : std::to_string(width_bits) + "-bit") + " " +
         to_string(kind);
}

#if defined(__x86_64__)
namespace {

// ---- constants blocks (4 × 64 bytes: multiplier, addend, zero, one) ----
template <class T>
void fill4(void* block, T mult, T add, T one) {
  auto* b = static_cast<unsigned char*>(block);
  std::memset(b, 0, 256);
  for (size_t i = 0; i < 64 / sizeof(T); ++i) {
    std::memcpy(b + i * sizeof(T), &mult, sizeof(T));
    std::memcpy(b + 64 + i * sizeof(T), &add, sizeof(T));
    std::memcpy(b + 192 + i * sizeof(T), &one, sizeof(T));
  }
}
void fill_fp64(void* b) {
  fill4<double>(b, 0.5, 1.0, 1.0);
}
void fill_fp32(void* b) {
  fill4<float>(b, 0.5f, 1.0f, 1.0f);
}
// IEEE half: 0.5 = 0x3800, 1.0 = 0x3c00.
void fill_fp16(void* b) {
  fill4<std::uint16_t>(b, 0x3800, 0x3c00, 0x3c00);
}
// bfloat16 1.0 = 0x3f80 (the upper half of fp32 1.0).
void fill_bf16(void* b) {
  fill4<std::uint16_t>(b, 0x3f80, 0x3f80, 0x3f80);
}
void fill_int16(void* b) {
  fill4<std::int16_t>(b, 1, 1, 1);
}
// int8: bytes of 1 in the multiplier and addend slots, 16-bit ones in the "one" slot (the
// vpmaddwd that widens vpmaddubsw's pairs).
void fill_int8(void* b) {
  fill4<std::int16_t>(b, 0x0101, 0x0101, 1);
}

// ---- analytic accumulator values after n iterations ----
double wrap32(std::uint64_t v) {
  return static_cast<double>(
      static_cast<std::int32_t>(static_cast<std::uint32_t>(v & 0xffffffffu)));
}
// acc = 0.5 acc + 1 from 0 converges to exactly 2 after ≤ 54 iterations in fp64 (fewer in
// narrower types); the caller runs at least 64.
double exp_fma(std::uint64_t, int) {
  return 2.0;
}
// Add+mul kernels: the first `Adds` chains count iterations (acc += 1), the others stay 1
// (acc *= 1). fp32 adds of 1.0 stop growing at 2^24 (2^24 + 1 rounds to even).
template <int Adds>
double exp_addmul64(std::uint64_t n, int chain) {
  return chain < Adds ? static_cast<double>(n) : 1.0;
}
template <int Adds>
double exp_addmul32(std::uint64_t n, int chain) {
  return chain < Adds ? static_cast<double>(std::min<std::uint64_t>(n, 1u << 24)) : 1.0;
}
double exp_int16(std::uint64_t n, int chain) {
  return chain < 6 ? wrap32(2 * n) : 2.0;
}
double exp_int8(std::uint64_t n, int chain) {
  if (chain < 4) return wrap32(4 * n);
  return chain < 8 ? 0.0 : 4.0;
}
double exp_vnni(std::uint64_t n, int) {
  return wrap32(4 * n);
}
// Tile dot products of ones: every element of every accumulator gains K (32 bf16 or 64 int8
// products) per iteration. fp32 holds 32 n exactly while 32 n ≤ 2^24.
double exp_amx_bf16(std::uint64_t n, int) {
  return n <= (1u << 19) ? 32.0 * static_cast<double>(n) : std::numeric_limits<double>::quiet_NaN();
}
double exp_amx_int8(std::uint64_t n, int) {
  return wrap32(64 * n);
}
double exp_finite(std::uint64_t, int) {
  return std::numeric_limits<double>::quiet_NaN();
}

ComputeKernel make(const char* symbol, const char* precision, const char* isa, int width,
                   KernelClass kind, std::vector<InstructionCount> body, int work_instructions,
                   double (*expected)(std::uint64_t, int),
                   void (*run)(std::uint64_t, const void*, void*), void (*fill)(void*),
                   int chains = 12) {
  ComputeKernel k{};
  k.chains = chains;
  k.symbol = symbol;
  k.precision = precision;
  k.isa = isa;
  k.width_bits = width;
  k.kind = kind;
  k.integer = kind == KernelClass::int16_madd || kind == KernelClass::int8_madd ||
              kind == KernelClass::int8_vnni || kind == KernelClass::amx_int8;
  k.body = std::move(body);
  k.work_instructions = work_instructions;
  // Work per instruction: an FMA or a multiply-accumulate counts 2 (multiply and add) per
  // product; a plain add or multiply counts 1 per lane.
  const double per_lane = kind == KernelClass::fp_add_mul ? 1.0 : 2.0;
  k.work_per_iteration = work_instructions * k.lanes() * per_lane;
  switch (kind) {
    case KernelClass::fp_fma:
    case KernelClass::fp16_fma:
      k.counting = "FMA = 2 FLOP per lane";
      break;
    case KernelClass::fp_add_mul:
      k.counting = "add or multiply = 1 FLOP per lane";
      break;
    case KernelClass::int16_madd:
      k.counting = "2 OP (multiply + add) per int16 product; vpaddd accumulation not counted again";
      break;
    case KernelClass::int8_madd:
      k.counting =
          "2 OP per int8 product of vpmaddubsw; the widening vpmaddwd and vpaddd not counted";
      break;
    case KernelClass::int8_vnni:
      k.counting = "2 OP per int8 product (vpdpbusd: 4 per lane)";
      break;
    case KernelClass::bf16_dot:
      k.counting = "2 FLOP per bf16 product (vdpbf16ps: 2 per fp32 lane)";
      break;
    case KernelClass::amx_bf16:
      k.counting = "2 FLOP per bf16 product (tdpbf16ps: 16 × 16 × 32 products)";
      break;
    case KernelClass::amx_int8:
      k.counting = "2 OP per int8 product (tdpbssd: 16 × 16 × 64 products)";
      break;
  }
  k.expected_lane = expected;
  k.run = run;
  k.fill_constants = fill;
  return k;
}

std::vector<InstructionCount> one(const char* m) {
  return {{m, 12}};
}
// 7 + 7 chains with 16 vector registers, 12 + 12 with AVX-512's 32 (asm_macros.hpp).
std::vector<InstructionCount> addmul(const char* a, const char* m) {
  return {{a, 7}, {m, 7}};
}
std::vector<InstructionCount> addmul24(const char* a, const char* m) {
  return {{a, 12}, {m, 12}};
}
/// An AVX-512 add+mul kernel: 12 + 12 chains at any width (asm_macros.hpp).
ComputeKernel am24(const char* symbol, const char* precision, int width, const char* add,
                   const char* mul, void (*run)(std::uint64_t, const void*, void*)) {
  const bool fp64 = std::string_view(precision) == "fp64";
  return make(symbol, precision, "avx512", width, KernelClass::fp_add_mul, addmul24(add, mul), 24,
              fp64 ? exp_addmul64<12> : exp_addmul32<12>, run, fp64 ? fill_fp64 : fill_fp32, 24);
}

std::vector<MemoryKernel> memory_table(
    const char* isa, int width, void (*load)(double* const*, std::size_t),
    void (*update)(double* const*, std::size_t), void (*copy)(double* const*, std::size_t),
    void (*copy_nt)(double* const*, std::size_t), void (*triad)(double* const*, std::size_t),
    void (*triad_nt)(double* const*, std::size_t), void (*daxpy)(double* const*, std::size_t),
    void (*write)(double* const*, std::size_t), const char* const symbols[8]) {
  const int vb = width / 8;  // bytes per vector; 4 vectors per array per iteration
  // named = (loads + stores) × vb: the bytes the code names (STREAM's convention).
  // moved adds the write-allocate read of every line written with ordinary stores that the
  // kernel did not read first (copy, triad, write); non-temporal stores skip it.
  return {
      {symbols[0], "load", isa, width, 1, 4, 0, false, 4 * vb, 4 * vb, 4 * vb, load},
      {symbols[1], "update", isa, width, 1, 4, 4, false, 8 * vb, 8 * vb, 4 * vb, update},
      {symbols[2], "copy", isa, width, 2, 4, 4, false, 8 * vb, 12 * vb, 4 * vb, copy},
      {symbols[3], "copy_nt", isa, width, 2, 4, 4, true, 8 * vb, 8 * vb, 4 * vb, copy_nt},
      {symbols[4], "triad", isa, width, 3, 8, 4, false, 12 * vb, 16 * vb, 4 * vb, triad},
      {symbols[5], "triad_nt", isa, width, 3, 8, 4, true, 12 * vb, 12 * vb, 4 * vb, triad_nt},
      {symbols[6], "daxpy", isa, width, 2, 8, 4, false, 12 * vb, 12 * vb, 4 * vb, daxpy},
      {symbols[7], "write", isa, width, 1, 0, 4, false, 4 * vb, 8 * vb, 4 * vb, write},
  };
}

// Curve family, fp64: a group is 8 vectors; each gets `rounds` FMAs (2 FLOP per lane) and one
// add into the accumulators (1 FLOP per lane); the light variant adds only 4 of them.
double curve_work256(std::uint64_t rounds, bool light) {
  return light ? 4.0 * 4 : 8.0 * 4 * (2.0 * static_cast<double>(rounds) + 1);
}
double curve_work512(std::uint64_t rounds, bool light) {
  return light ? 4.0 * 8 : 8.0 * 8 * (2.0 * static_cast<double>(rounds) + 1);
}

class Sse2Backend final : public CpuBackend {
 public:
  std::string name() const override { return "sse2"; }
  bool supported(const CpuFeatures& f) const override { return f.sse2; }
  int vector_bits() const override { return 128; }
  std::vector<ComputeKernel> compute_kernels() const override {
    using K = KernelClass;
    return {
        make("roofline_cpu_addmul_sd", "fp64", "sse2", 64, K::fp_add_mul, addmul("addsd", "mulsd"),
             14, exp_addmul64<7>, roofline_cpu_addmul_sd, fill_fp64, 14),
        make("roofline_cpu_addmul_ss", "fp32", "sse2", 32, K::fp_add_mul, addmul("addss", "mulss"),
             14, exp_addmul32<7>, roofline_cpu_addmul_ss, fill_fp32, 14),
        make("roofline_cpu_addmul_pd128", "fp64", "sse2", 128, K::fp_add_mul,
             addmul("addpd", "mulpd"), 14, exp_addmul64<7>, roofline_cpu_addmul_pd128, fill_fp64,
             14),
        make("roofline_cpu_addmul_ps128", "fp32", "sse2", 128, K::fp_add_mul,
             addmul("addps", "mulps"), 14, exp_addmul32<7>, roofline_cpu_addmul_ps128, fill_fp32,
             14),
    };
  }
};

class Avx2Backend final : public CpuBackend {
 public:
  std::string name() const override { return "avx2"; }
  bool supported(const CpuFeatures& f) const override { return f.avx2 && f.fma; }
  int vector_bits() const override { return 256; }
  std::vector<ComputeKernel> compute_kernels() const override {
    using K = KernelClass;
    return {
        make("roofline_cpu_fma_sd", "fp64", "fma", 64, K::fp_fma, one("vfmadd213sd"), 12, exp_fma,
             roofline_cpu_fma_sd, fill_fp64),
        make("roofline_cpu_fma_ss", "fp32", "fma", 32, K::fp_fma, one("vfmadd213ss"), 12, exp_fma,
             roofline_cpu_fma_ss, fill_fp32),
        make("roofline_cpu_fma_pd128", "fp64", "fma", 128, K::fp_fma, one("vfmadd213pd"), 12,
             exp_fma, roofline_cpu_fma_pd128, fill_fp64),
        make("roofline_cpu_fma_ps128", "fp32", "fma", 128, K::fp_fma, one("vfmadd213ps"), 12,
             exp_fma, roofline_cpu_fma_ps128, fill_fp32),
        make("roofline_cpu_fma_pd256", "fp64", "avx2", 256, K::fp_fma, one("vfmadd213pd"), 12,
             exp_fma, roofline_cpu_fma_pd256, fill_fp64),
        make("roofline_cpu_fma_ps256", "fp32", "avx2", 256, K::fp_fma, one("vfmadd213ps"), 12,
             exp_fma, roofline_cpu_fma_ps256, fill_fp32),
        make("roofline_cpu_addmul_pd256", "fp64", "avx2", 256, K::fp_add_mul,
             addmul("vaddpd", "vmulpd"), 14, exp_addmul64<7>, roofline_cpu_addmul_pd256, fill_fp64,
             14),
        make("roofline_cpu_addmul_ps256", "fp32", "avx2", 256, K::fp_add_mul,
             addmul("vaddps", "vmulps"), 14, exp_addmul32<7>, roofline_cpu_addmul_ps256, fill_fp32,
             14),
        make("roofline_cpu_int16_256", "int16", "avx2", 256, K::int16_madd,
             {{"vpmaddwd", 6}, {"vpaddd", 6}}, 6, exp_int16, roofline_cpu_int16_256, fill_int16),
        make("roofline_cpu_int8_256", "int8", "avx2", 256, K::int8_madd,
             {{"vpmaddubsw", 4}, {"vpmaddwd", 4}, {"vpaddd", 4}}, 4, exp_int8,
             roofline_cpu_int8_256, fill_int8),
    };
  }
  std::vector<MemoryKernel> memory_kernels() const override {
    static const char* const s[8] = {"roofline_cpu_mem256_load",  "roofline_cpu_mem256_update",
                                     "roofline_cpu_mem256_copy",  "roofline_cpu_mem256_copy_nt",
                                     "roofline_cpu_mem256_triad", "roofline_cpu_mem256_triad_nt",
                                     "roofline_cpu_mem256_daxpy", "roofline_cpu_mem256_write"};
    return memory_table("avx2", 256, roofline_cpu_mem256_load, roofline_cpu_mem256_update,
                        roofline_cpu_mem256_copy, roofline_cpu_mem256_copy_nt,
                        roofline_cpu_mem256_triad, roofline_cpu_mem256_triad_nt,
                        roofline_cpu_mem256_daxpy, roofline_cpu_mem256_write, s);
  }
  const CurveKernel* curve_kernel() const override {
    static const CurveKernel k{"roofline_cpu_curve256", "avx2", 256, 256, curve_work256,
                               roofline_cpu_curve256};
    return &k;
  }
};

class Avx512Backend final : public CpuBackend {
 public:
  std::string name() const override { return "avx512"; }
  bool supported(const CpuFeatures& f) const override {
    return f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq && f.avx2 && f.fma;
  }
  int vector_bits() const override { return 512; }
  std::vector<ComputeKernel> compute_kernels() const override {
    using K = KernelClass;
    return {
        make("roofline_cpu_fma_pd512", "fp64", "avx512", 512, K::fp_fma, one("vfmadd213pd"), 12,
             exp_fma, roofline_cpu_fma_pd512, fill_fp64),
        make("roofline_cpu_fma_ps512", "fp32", "avx512", 512, K::fp_fma, one("vfmadd213ps"), 12,
             exp_fma, roofline_cpu_fma_ps512, fill_fp32),
        am24("roofline_cpu_addmul_pd512", "fp64", 512, "vaddpd", "vmulpd",
             roofline_cpu_addmul_pd512),
        am24("roofline_cpu_addmul_ps512", "fp32", 512, "vaddps", "vmulps",
             roofline_cpu_addmul_ps512),
        // The narrower add+mul roofs with 12 + 12 chains: they replace the 7 + 7 kernels of
        // the sse2 and avx2 backends (resolve_plan keeps the last kernel of a roof).
        am24("roofline_cpu_addmul24_pd256", "fp64", 256, "vaddpd", "vmulpd",
             roofline_cpu_addmul24_pd256),
        am24("roofline_cpu_addmul24_ps256", "fp32", 256, "vaddps", "vmulps",
             roofline_cpu_addmul24_ps256),
        am24("roofline_cpu_addmul24_pd128", "fp64", 128, "vaddpd", "vmulpd",
             roofline_cpu_addmul24_pd128),
        am24("roofline_cpu_addmul24_ps128", "fp32", 128, "vaddps", "vmulps",
             roofline_cpu_addmul24_ps128),
        am24("roofline_cpu_addmul24_sd", "fp64", 64, "vaddsd", "vmulsd", roofline_cpu_addmul24_sd),
        am24("roofline_cpu_addmul24_ss", "fp32", 32, "vaddss", "vmulss", roofline_cpu_addmul24_ss),
        make("roofline_cpu_int16_512", "int16", "avx512", 512, K::int16_madd,
             {{"vpmaddwd", 6}, {"vpaddd", 6}}, 6, exp_int16, roofline_cpu_int16_512, fill_int16),
        make("roofline_cpu_int8_512", "int8", "avx512", 512, K::int8_madd,
             {{"vpmaddubsw", 4}, {"vpmaddwd", 4}, {"vpaddd", 4}}, 4, exp_int8,
             roofline_cpu_int8_512, fill_int8),
    };
  }
  std::vector<MemoryKernel> memory_kernels() const override {
    static const char* const s[8] = {"roofline_cpu_mem512_load",  "roofline_cpu_mem512_update",
                                     "roofline_cpu_mem512_copy",  "roofline_cpu_mem512_copy_nt",
                                     "roofline_cpu_mem512_triad", "roofline_cpu_mem512_triad_nt",
                                     "roofline_cpu_mem512_daxpy", "roofline_cpu_mem512_write"};
    return memory_table("avx512", 512, roofline_cpu_mem512_load, roofline_cpu_mem512_update,
                        roofline_cpu_mem512_copy, roofline_cpu_mem512_copy_nt,
                        roofline_cpu_mem512_triad, roofline_cpu_mem512_triad_nt,
                        roofline_cpu_mem512_daxpy, roofline_cpu_mem512_write, s);
  }
  const CurveKernel* curve_kernel() const override {
    static const CurveKernel k{"roofline_cpu_curve512", "avx512", 512, 512, curve_work512,
                               roofline_cpu_curve512};
    return &k;
  }
};

class SingleKernelBackend final : public CpuBackend {
 public:
  SingleKernelBackend(const char* name, int bits, bool (*ok)(const CpuFeatures&), ComputeKernel k)
      : name_(name), bits_(bits), ok_(ok), kernel_(std::move(k)) {}
  std::string name() const override { return name_; }
  bool supported(const CpuFeatures& f) const override { return ok_(f); }
  int vector_bits() const override { return bits_; }
  std::vector<ComputeKernel> compute_kernels() const override { return {kernel_}; }

 private:
  const char* name_;
  int bits_;
  bool (*ok_)(const CpuFeatures&);
  ComputeKernel kernel_;
};

}  // namespace

const std::vector<const CpuBackend*>& all_backends() {
  using K = KernelClass;
  static const Sse2Backend sse2;
  static const Avx2Backend avx2;
  static const Avx512Backend avx512;
  static const SingleKernelBackend avx_vnni(
      "avx_vnni", 256, [](const CpuFeatures& f) { return f.avx_vnni && f.avx2; },
      make("roofline_cpu_avxvnni256", "int8", "avx_vnni", 256, K::int8_vnni, one("vpdpbusd"), 12,
           exp_vnni, roofline_cpu_avxvnni256, fill_int8));
  static const SingleKernelBackend avx512_vnni(
      "avx512_vnni", 512, [](const CpuFeatures& f) { return f.avx512_vnni; },
      make("roofline_cpu_vnni512", "int8", "avx512_vnni", 512, K::int8_vnni, one("vpdpbusd"), 12,
           exp_vnni, roofline_cpu_vnni512, fill_int8));
  static const SingleKernelBackend avx512_bf16(
      "avx512_bf16", 512, [](const CpuFeatures& f) { return f.avx512_bf16; },
      make("roofline_cpu_bf16dot512", "bf16", "avx512_bf16", 512, K::bf16_dot, one("vdpbf16ps"), 12,
           exp_finite, roofline_cpu_bf16dot512, fill_bf16));
  static const SingleKernelBackend avx512_fp16(
      "avx512_fp16", 512, [](const CpuFeatures& f) { return f.avx512_fp16; },
      make("roofline_cpu_fma_ph512", "fp16", "avx512_fp16", 512, K::fp16_fma, one("vfmadd213ph"),
           12, exp_fma, roofline_cpu_fma_ph512, fill_fp16));
  // AMX: four tile dot products per iteration, one into each of four accumulator tiles
  // (kernels_amx.cpp); a tile register is 1 KiB (8192 bits).
  static const SingleKernelBackend amx_bf16(
      "amx_bf16", 8192, [](const CpuFeatures& f) { return f.amx_bf16; },
      make("roofline_cpu_amx_bf16", "bf16", "amx_bf16", 8192, K::amx_bf16, {{"tdpbf16ps", 4}}, 4,
           exp_amx_bf16, roofline_cpu_amx_bf16, fill_bf16, 4));
  static const SingleKernelBackend amx_int8(
      "amx_int8", 8192, [](const CpuFeatures& f) { return f.amx_int8; },
      make("roofline_cpu_amx_int8", "int8", "amx_int8", 8192, K::amx_int8, {{"tdpbssd", 4}}, 4,
           exp_amx_int8, roofline_cpu_amx_int8, fill_int8, 4));
  static const std::vector<const CpuBackend*> all = {&sse2,        &avx2,        &avx512,
                                                     &avx_vnni,    &avx512_vnni, &avx512_bf16,
                                                     &avx512_fp16, &amx_bf16,    &amx_int8};
  return all;
}

void clock_chain(std::uint64_t iterations) {
  roofline_cpu_clock_chain(iterations);
}

#else  // not x86-64: no backend yet (ARM NEON/SVE would register here)

const std::vector<const CpuBackend*>& all_backends() {
  static const std::vector<const CpuBackend*> none;
  return none;
}
void clock_chain(std::uint64_t) {
  throw Unavailable("no clock kernel for this architecture");
}

#endif

std::vector<const CpuBackend*> supported_backends(const CpuFeatures& f) {
  std::vector<const CpuBackend*> out;
  for (const CpuBackend* b : all_backends())
    if (b->supported(f)) out.push_back(b);
  return out;
}

namespace {
// Value of accumulator lane `lane` of chain `chain` in the output block (64-byte slots).
double lane_value(const ComputeKernel& k, const unsigned char* out, int chain, int lane) {
  const unsigned char* slot = out + 64 * chain;
  const std::string p = k.precision;
  if (k.integer) {
    std::int32_t v;
    std::memcpy(&v, slot + 4 * lane, 4);
    return v;
  }
  if (p == "fp64") {
    double v;
    std::memcpy(&v, slot + 8 * lane, 8);
    return v;
  }
  if (p == "fp16") {
    std::uint16_t h;
    std::memcpy(&h, slot + 2 * lane, 2);
    const int exp = (h >> 10) & 0x1f;
    const double mant = h & 0x3ff;
    const double mag = exp == 0    ? std::ldexp(mant, -24)
                       : exp == 31 ? std::numeric_limits<double>::infinity()
                                   : std::ldexp(1024 + mant, exp - 25);
    return (h & 0x8000) ? -mag : mag;
  }
  float v;  // fp32, and bf16 dot products accumulate in fp32
  std::memcpy(&v, slot + 4 * lane, 4);
  return v;
}
int accumulator_lanes(const ComputeKernel& k) {
  // 32-bit accumulators, 16 to a 64-byte slot (an AMX kernel stores one row of each tile).
  if (k.integer || std::string(k.precision) == "bf16") return std::clamp(k.width_bits / 32, 1, 16);
  return k.lanes();
}
}  // namespace

void run_checked(const ComputeKernel& k, std::uint64_t n) {
  if (n < 64) n = 64;
  alignas(64) unsigned char constants[256];
  alignas(64) unsigned char out[kMaxChains * 64] = {};
  k.fill_constants(constants);
  k.run(n, constants, out);
  for (int chain = 0; chain < k.chains; ++chain)
    for (int lane = 0; lane < accumulator_lanes(k); ++lane) {
      const double got = lane_value(k, out, chain, lane);
      const double want = k.expected_lane(n, chain);
      const bool ok = std::isnan(want) ? std::isfinite(got) : got == want;
      if (!ok)
        throw Error(std::string("kernel ") + k.symbol + ": accumulator " + std::to_string(chain) +
                    " lane " + std::to_string(lane) + " is " + std::to_string(got) + ", expected " +
                    std::to_string(want) + " — the kernel did not execute as declared");
    }
}

}  // namespace roofline::cpu
