#pragma once
// CPU measurement backends (docs/architecture.md). Each instruction-set
// variant (SSE2, AVX2+FMA, AVX-512, AVX512-FP16, AVX512-BF16, VNNI) is one backend: it says
// whether the CPU it runs on supports it (CPUID + XGETBV, checked at run time) and declares its
// micro-kernels in one table each. A kernel's declaration states the instructions of one loop
// iteration and the work (FLOP or OP) or bytes they stand for; rates are computed from the
// declaration in one place (cpu_analysis.hpp). The code that runs measurements reaches kernels
// only through this interface and never names an ISA.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace roofline::cpu {

/// What the CPU (and the operating system, for the wider register state) supports.
struct CpuFeatures {
  std::string vendor;  ///< CPUID vendor string, e.g. "GenuineIntel", "AuthenticAMD"
  std::string brand;   ///< CPUID brand string, e.g. "AMD EPYC 7763 64-Core Processor"
  unsigned family = 0, model = 0, stepping = 0;  ///< display family/model (extended fields added)
  bool sse2 = false, avx = false, fma = false, avx2 = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
  bool avx512_vnni = false, avx512_bf16 = false, avx512_fp16 = false, avx_vnni = false;
  /// AMX tiles (CPUID leaf 7 EDX bit 24): only Intel's server cores from Sapphire Rapids on have
  /// them, so the feature names the core where a virtual machine hides the CPUID model.
  bool amx_tile = false;
  /// AMX-BF16 and AMX-INT8 usable: the CPU has them, XCR0 enables the tile state and Linux
  /// granted this process the tile data (arch_prctl ARCH_REQ_XCOMP_PERM).
  bool amx_bf16 = false, amx_int8 = false;
  /// Why tiles the CPU has cannot be used ("" when usable or absent).
  std::string amx_refused;
  /// Names of the features present, for the machine document ("avx2", "fma", ...).
  std::vector<std::string> names() const;
};

/// Reads CPUID and XGETBV of the CPU this runs on (all false on non-x86 builds). Where the CPU
/// has AMX tiles it also asks Linux for the tile state (idempotent; the process's signal frames
/// grow by the tiles' 8 KiB), so that amx_bf16 / amx_int8 mean "usable by this process".
CpuFeatures detect_features();

/// What a compute kernel's main instructions do; selects the column of the microarchitecture
/// table used for its theoretical peak.
enum class KernelClass {
  fp_fma,      ///< fused multiply-add, 2 FLOP per lane
  fp_add_mul,  ///< half adds, half multiplies (no FMA), 1 FLOP per lane
  int16_madd,  ///< vpmaddwd (+ vpaddd): 16-bit products summed in pairs into 32-bit lanes
  int8_madd,   ///< vpmaddubsw + vpmaddwd + vpaddd: the int8 dot product without VNNI
  int8_vnni,   ///< vpdpbusd: int8 dot product accumulated in one instruction
  bf16_dot,    ///< vdpbf16ps: bf16 pairs multiplied and accumulated into fp32
  fp16_fma,    ///< vfmadd...ph: half-precision FMA
  amx_bf16,    ///< tdpbf16ps: a 16 × 16 fp32 tile += 16 × 32 bf16 tile · 32 × 16 bf16 tile
  amx_int8,    ///< tdpbssd: a 16 × 16 int32 tile += 16 × 64 int8 tile · 64 × 16 int8 tile
};
/// Whether kernels of class `c` run on AMX tiles (tile registers, not vectors).
inline bool is_amx(KernelClass c) {
  return c == KernelClass::amx_bf16 || c == KernelClass::amx_int8;
}
std::string to_string(KernelClass c);

/// One instruction of a kernel's loop body and how often it occurs per iteration.
struct InstructionCount {
  const char* mnemonic;  ///< as objdump prints it (AT&T), e.g. "vfmadd213pd"
  int count;             ///< occurrences in one loop iteration
};

/// Most accumulator chains a compute kernel stores (its output block: kMaxChains × 64 bytes).
inline constexpr int kMaxChains = 32;

/// A compute micro-kernel: independent accumulator chains, no memory in the loop.
/// `run(n, constants, out)` executes n iterations (n ≥ 1) starting from the accumulators given in
/// `constants` and stores its `chains` accumulators to `out` (64-byte slots; callers pass
/// kMaxChains slots).
struct ComputeKernel {
  const char* symbol;     ///< the function's symbol (the codegen test disassembles it)
  const char* precision;  ///< dtype name: fp64, fp32, fp16, bf16, int16, int8
  const char* isa;        ///< instruction set, e.g. "avx2", "sse2", "avx512"
  int width_bits;         ///< vector width: 64/32 for scalar, 128, 256, 512; 8192 for an AMX tile
  KernelClass kind;
  bool integer;  ///< work in OP rather than FLOP
  /// The instructions of one loop iteration (what the codegen test counts).
  std::vector<InstructionCount> body;
  int work_instructions;      ///< instructions per iteration that the theoretical peak counts
  int chains = 12;            ///< independent accumulator chains (stored and checked)
  double work_per_iteration;  ///< FLOP or OP per iteration — the kernel's declared work
  const char* counting;       ///< how work is counted, in words
  /// Analytic value of every accumulator lane after n iterations (NaN: only "finite" is checked).
  double (*expected_lane)(std::uint64_t n, int chain);
  void (*run)(std::uint64_t n, const void* constants, void* out);
  /// Constants block (4 × 64 bytes) the kernel starts from, filled for its precision.
  void (*fill_constants)(void* block256);

  /// Unit of the roof, e.g. "avx2-256 fma".
  std::string unit() const;
  /// Roof name, e.g. "fp64 avx2-256 fma".
  std::string roof_name() const { return std::string(precision) + " " + unit(); }
  /// Elements per vector register; for an AMX tile instruction, its products (16 × 16 × K).
  int lanes() const;
};

/// Memory access mixes (the roof of a level is the highest of them).
/// Bytes per iteration are declared in both conventions: "named" (the bytes the code names, as
/// STREAM counts them) and "moved" (including the write-allocate read of lines that are stored
/// with ordinary stores but not read first).
struct MemoryKernel {
  const char* symbol;
  const char* mix;  ///< load, update, copy, copy_nt, triad, triad_nt, daxpy, write
  const char* isa;
  int width_bits;
  int arrays;         ///< arrays the kernel touches (working set = arrays × bytes_per_array)
  int loads, stores;  ///< vector loads and stores per iteration (codegen test)
  bool nontemporal;   ///< stores bypass the caches
  int named_bytes_per_iteration;
  int moved_bytes_per_iteration;
  int bytes_per_array_per_iteration;  ///< step of each array per iteration
  /// One pass over the arrays: `arrays[i]` aligned to 64 bytes, `bytes_per_array` a positive
  /// multiple of bytes_per_array_per_iteration.
  void (*run)(double* const* arrays, std::size_t bytes_per_array);
};

/// The empirical-curve family: read-only over a buffer, `rounds` FMAs on every loaded vector.
/// Groups of 8 vectors; W and Q per group are declared by `work_per_group` and bytes_per_group.
struct CurveKernel {
  const char* symbol;
  const char* isa;
  int width_bits;
  int bytes_per_group;
  /// FLOP per group for `rounds` FMA rounds; `light` adds only half the loaded vectors (rounds 0).
  double (*work_per_group)(std::uint64_t rounds, bool light);
  /// Processes `groups` groups from `p`; writes 4 accumulator vectors (4 × 64 bytes) to `out`.
  void (*run)(const double* p, std::size_t groups, std::uint64_t rounds, int light, double* out);
};

/// A backend: one instruction-set variant.
class CpuBackend {
 public:
  virtual ~CpuBackend() = default;
  virtual std::string name() const = 0;
  virtual bool supported(const CpuFeatures& f) const = 0;
  virtual std::vector<ComputeKernel> compute_kernels() const = 0;
  /// Memory kernels; the backend with the widest vectors that the CPU supports provides them.
  virtual std::vector<MemoryKernel> memory_kernels() const { return {}; }
  virtual const CurveKernel* curve_kernel() const { return nullptr; }
  virtual int vector_bits() const = 0;
};

/// Every backend compiled into this build (whether or not this CPU supports it).
const std::vector<const CpuBackend*>& all_backends();
/// The backends this CPU supports, in registration order.
std::vector<const CpuBackend*> supported_backends(const CpuFeatures& f);

/// Runs a compute kernel once (n iterations) and checks its accumulators against the declared
/// analytic values; throws roofline::Error naming the kernel when they differ.
void run_checked(const ComputeKernel& k, std::uint64_t n);

/// Dependent chain of 1-cycle register-register adds: exactly `kClockChainLength` adds per
/// iteration, each depending on the previous one.
inline constexpr int kClockChainLength = 64;
void clock_chain(std::uint64_t iterations);

}  // namespace roofline::cpu
