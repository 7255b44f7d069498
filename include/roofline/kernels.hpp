#pragma once
// Hand-counted work and compulsory traffic of common kernels (docs/model.md §3, §5).
// Two counting rules (docs/model.md §3): a read and a write of the same element are separate
// traffic; a scalar kept in a register is not counted. Compulsory traffic assumes every distinct
// element moves once between the chip and DRAM (docs/model.md §4), so it is a lower bound on real
// traffic.
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/dtype.hpp"
#include "roofline/roof.hpp"
#include "roofline/units.hpp"

namespace roofline {

struct KernelCount {
  std::string kernel;
  Work work{0};
  Bytes traffic{0};  ///< compulsory traffic in the bytes the code names
  /// Traffic including the read-for-ownership of stored arrays on write-allocate caches;
  /// equals `traffic` for kernels that only update in place.
  Bytes traffic_write_allocate{0};
  int blas_level = 0;           ///< 1, 2, 3 for BLAS-like kernels; 0 when not a BLAS kernel
  std::string work_formula;     ///< e.g. "2·n"
  std::string traffic_formula;  ///< e.g. "3·n·4 B"
  std::string note;
  bool integer = false;  ///< work counted in OP
  /// A product of two matrices (gemm, a decode step's weight products), which a matrix engine
  /// (tensor cores, AMX, an MXU) runs; every other kernel runs on the vector or scalar units.
  bool matrix_product = false;

  Intensity intensity() const { return work / traffic; }
};

// Level 1 / streaming kernels over n elements of `t`.
KernelCount axpy(double n, const DataType& t);                  ///< y = a·x + y: W=2n, Q=3n·s
KernelCount scale(double n, const DataType& t);                 ///< b = a·c: W=n, Q=2n·s
KernelCount copy(double n, const DataType& t);                  ///< b = c: W=0, Q=2n·s
KernelCount add(double n, const DataType& t);                   ///< c = a + b: W=n, Q=3n·s
KernelCount triad(double n, const DataType& t);                 ///< a = b + s·c: W=2n, Q=3n·s
KernelCount dot(double n, const DataType& t);                   ///< s = Σ x·y: W=2n, Q=2n·s
KernelCount elementwise_multiply(double n, const DataType& t);  ///< z = x·y: W=n, Q=3n·s
/// The add-only double loop s += x[i] + y[j] over i, j < n: W=2n², Q=2n·s (I = n/4 fp32).
KernelCount add_double_loop(double n, const DataType& t);
// Level 2 and 3.
KernelCount gemv(double m, double n, const DataType& t);            ///< y = A·x, A m×n: W=2mn
KernelCount gemm(double m, double n, double k, const DataType& t);  ///< C = A·B: W=2mnk
/// gemm when the working set exceeds a cache of `cache_bytes` (Hong & Kung 1981): traffic of a
/// blocked algorithm with square tiles b = ⌊√(M/(3s))⌋ (three tiles resident):
/// Q = 2·m·n·k·s / b + m·n·s, at least the compulsory traffic. Θ(mnk/√M), constant 2·√3.
KernelCount gemm_cache_bounded(double m, double n, double k, const DataType& t, double cache_bytes);
// Stencils, sparse, ML operators.
KernelCount stencil2d(double nx, double ny, const DataType& t);             ///< 5-point, weighted
KernelCount stencil3d(double nx, double ny, double nz, const DataType& t);  ///< 7-point
KernelCount spmv_csr(double rows, double cols, double nnz, const DataType& t, double index_bytes);
KernelCount softmax(double rows, double cols, const DataType& t);
KernelCount layernorm(double rows, double cols, const DataType& t);
/// LLM decode, weights only (docs/model.md §5): every weight read once per step, used once per
/// request: W = 2·params·batch, Q = params·s ⇒ I ≈ batch (fp16: I = batch).
KernelCount llm_decode_weights(double params, double batch, const DataType& t);

/// The default of an optional kernel parameter that has none (KernelSpec::defaults).
inline constexpr double kNoDefault = std::numeric_limits<double>::quiet_NaN();

/// One entry of the kernel catalogue, for command lines and reports.
struct KernelSpec {
  std::string name;
  std::vector<std::string> aliases;
  std::vector<std::string> params;  ///< required size parameters, e.g. {"m","n","k"}
  /// Optional parameters and their defaults; kNoDefault marks one that is absent unless given
  /// (gemm's --cache, spmv's --cols), so that a given 0 is checked, not read as "not given".
  std::map<std::string, double> defaults;
  std::string default_dtype;  ///< "" = fp32; alias daxpy → fp64
  std::string description;
  std::function<KernelCount(const std::map<std::string, double>&, const DataType&)> count;
};

const std::vector<KernelSpec>& kernel_catalogue();
/// Finds a kernel by name or alias (case-insensitive). Throws InputError listing the names.
const KernelSpec& find_kernel(const std::string& name);

/// A kernel asked for by name, with its sizes as written (`roofline kernel NAME --n 1e6`).
struct KernelRequest {
  const KernelSpec* spec = nullptr;
  DataType dtype;
  std::map<std::string, double> params;  ///< every parameter given or defaulted
};
/// The spec of `name`; its data type: `dtype` when given, else the one an alias carries (saxpy
/// fp32, daxpy fp64, haxpy fp16), else the kernel's default; its parameters parsed (a size is a
/// count, `cache` an amount of bytes), required ones present, defaults filled, unknown ones
/// refused (InputError naming the flag `--NAME`).
KernelRequest kernel_request(const std::string& name, const std::string& dtype,
                             const std::map<std::string, std::string>& sizes);
/// The same with the sizes as numbers (Python's kernel(name, m=...)); messages name a size
/// `prefix` + NAME ("--m" on the command line, "m" in Python).
KernelRequest kernel_request(const std::string& name, const std::string& dtype,
                             const std::map<std::string, double>& sizes, const std::string& prefix);

/// A kernel's counts held against one compute and one memory roof (docs/model.md §2):
/// the ridge, which side it falls on, the attainable rate min(π, β·I) and the time bounds
/// max(W/π, Q/β) (overlap) and W/π + Q/β (none).
struct KernelOnRoofs {
  std::string compute_roof, memory_level;
  WorkRate peak{0};
  ByteRate bandwidth{0};
  Intensity ridge{0};
  bool memory_bound = false;  ///< I < I*
  bool at_ridge = false;      ///< I = I* to 1e-9: W/π = Q/β, both roofs bind
  WorkRate attainable{0};
  Seconds time_bound{0}, time_no_overlap{0};
};
KernelOnRoofs kernel_on_roofs(const KernelCount& k, const ComputeRoof& c, const MemoryRoof& m);

/// A kernel placed on a machine's roofs, as `roofline kernel` reports it: the machine's name,
/// the kernel on the roofs it was judged against, and what kernel_compute_roof noted of the
/// compute roof ("" when nothing).
struct KernelOnMachine {
  std::string machine;
  KernelOnRoofs on;
  std::string note;
};

/// The compute roof a kernel of type `t` is judged on when no roof is named: a matrix product
/// on the highest dense roof of t (RoofSet::select_compute); any other kernel on the highest of
/// t on no matrix engine (RoofSet::find_compute_on(t, "vector")) — an axpy never runs on tensor
/// cores, and held against them its bound read 4x short (fp16 on A100: 312 against 78 TFLOP/s).
/// Where t has no such roof (fp8 on a GPU), t's highest roof, and `note` says the kernel cannot
/// use it; `note` also says when the roof accumulates narrower than fp32 (accumulates_narrow).
const ComputeRoof& kernel_compute_roof(const RoofSet& roofs, const KernelCount& k,
                                       const DataType& t, std::string& note);

/// `k`, counted in type `t`, placed on `roofs` as `roofline kernel` places it: on the compute roof
/// `precision` names (RoofSet::select_compute) when given, else on kernel_compute_roof's (its
/// note kept), and on the memory roof of `level` ("" = the default). A count of FLOP against a
/// roof of integer OP (or the reverse) compares two different works: InputError "kernel K (T)
/// counts FLOP, and roof 'R' of machine 'M' is in OP/s: give --dtype and --precision of one
/// kind ...". A roof of no precision (--peak) takes any work.
KernelOnMachine place_kernel(const RoofSet& roofs, const KernelCount& k, const DataType& t,
                             const std::string& precision, const std::string& level);

}  // namespace roofline
