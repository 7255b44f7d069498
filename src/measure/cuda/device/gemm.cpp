// cuBLASLt GEMM sweeps, and cuBLAS's GEMM at each roof's best size as its peer. Both libraries
// are opened with dlopen (cuBLASLt is 540 MB; linking it would slow the start of every roofline
// program by about half a second; libraries.hpp says where they are looked for) and their types
// come from cublasLt.h and cublas_api.h. Every GEMM is "TN" (A transposed, column-major), the
// layout fp8 and int8 tensor-core GEMMs require, with β = 0; work per call 2·m·n·k
// (docs/model.md: a general GEMM does 2mnk FLOP).
#include "measure/cuda/device/gemm.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <memory>

#include <cublasLt.h>
#include <cublas_api.h>

#include "measure/cuda/device/kernels.cuh"
#include "measure/cuda/device/libraries.hpp"
#include "measure/cuda/internal.hpp"

namespace roofline::cuda::gemm {

namespace {

class Lt {
 public:
  Lt() {
    const libs::Library& lib = libs::cublaslt();
    if (!lib.handle) throw Unavailable("cuBLASLt not loadable: " + lib.reason);
    handle_ = lib.handle;
    bind(create, "cublasLtCreate");
    bind(destroy, "cublasLtDestroy");
    bind(desc_create, "cublasLtMatmulDescCreate");
    bind(desc_destroy, "cublasLtMatmulDescDestroy");
    bind(desc_set, "cublasLtMatmulDescSetAttribute");
    bind(layout_create, "cublasLtMatrixLayoutCreate");
    bind(layout_destroy, "cublasLtMatrixLayoutDestroy");
    bind(pref_create, "cublasLtMatmulPreferenceCreate");
    bind(pref_destroy, "cublasLtMatmulPreferenceDestroy");
    bind(pref_set, "cublasLtMatmulPreferenceSetAttribute");
    bind(heuristic, "cublasLtMatmulAlgoGetHeuristic");
    bind(matmul, "cublasLtMatmul");
    bind(version, "cublasLtGetVersion");
    // The types and enums come from this build's cublasLt.h: another major version may differ.
    const size_t v = version();
    if (static_cast<int>(v / 10000) != CUBLAS_VER_MAJOR)
      throw Unavailable("cuBLASLt at " + lib.path + " is version " + std::to_string(v) +
                        ", not the major version " + std::to_string(CUBLAS_VER_MAJOR) +
                        " this program was built with");
    path = lib.path;
    if (create(&handle) != CUBLAS_STATUS_SUCCESS) throw Unavailable("cublasLtCreate failed");
  }
  ~Lt() {
    if (handle) destroy(handle);
  }
  Lt(const Lt&) = delete;
  Lt& operator=(const Lt&) = delete;

  decltype(&::cublasLtCreate) create = nullptr;
  decltype(&::cublasLtDestroy) destroy = nullptr;
  decltype(&::cublasLtMatmulDescCreate) desc_create = nullptr;
  decltype(&::cublasLtMatmulDescDestroy) desc_destroy = nullptr;
  decltype(&::cublasLtMatmulDescSetAttribute) desc_set = nullptr;
  decltype(&::cublasLtMatrixLayoutCreate) layout_create = nullptr;
  decltype(&::cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
  decltype(&::cublasLtMatmulPreferenceCreate) pref_create = nullptr;
  decltype(&::cublasLtMatmulPreferenceDestroy) pref_destroy = nullptr;
  decltype(&::cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
  decltype(&::cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&::cublasLtMatmul) matmul = nullptr;
  decltype(&::cublasLtGetVersion) version = nullptr;
  cublasLtHandle_t handle = nullptr;
  std::string path;

 private:
  template <class F>
  void bind(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(handle_, name));
    if (!f) throw Unavailable(std::string("cuBLASLt lacks ") + name);
  }
  void* handle_ = nullptr;
};

/// cuBLAS (libcublas), for the peer GEMM.
class Blas {
 public:
  Blas() {
    const libs::Library& lib = libs::cublas();
    if (!lib.handle) throw Unavailable("cuBLAS not loadable: " + lib.reason);
    bind(lib.handle, create, "cublasCreate_v2");
    bind(lib.handle, destroy, "cublasDestroy_v2");
    bind(lib.handle, set_stream, "cublasSetStream_v2");
    bind(lib.handle, set_workspace, "cublasSetWorkspace_v2");
    bind(lib.handle, gemm_ex, "cublasGemmEx");
    if (create(&handle) != CUBLAS_STATUS_SUCCESS) throw Unavailable("cublasCreate failed");
  }
  ~Blas() {
    if (handle) destroy(handle);
  }
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;

  decltype(&::cublasCreate_v2) create = nullptr;
  decltype(&::cublasDestroy_v2) destroy = nullptr;
  decltype(&::cublasSetStream_v2) set_stream = nullptr;
  decltype(&::cublasSetWorkspace_v2) set_workspace = nullptr;
  // cublas_api.h overloads cublasGemmEx in C++: the C entry point's type, spelt out.
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                    int, const void*, const void*, cudaDataType, int, const void*,
                                    cudaDataType, int, const void*, void*, cudaDataType, int,
                                    cublasComputeType_t, cublasGemmAlgo_t);
  GemmEx gemm_ex = nullptr;
  cublasHandle_t handle = nullptr;

 private:
  template <class F>
  static void bind(void* lib, F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) throw Unavailable(std::string("cuBLAS lacks ") + name);
  }
};

void lt_check(cublasStatus_t s, const std::string& what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Error(what + ": cuBLASLt status " + std::to_string(static_cast<int>(s)));
}

/// One tensor precision: operand types, compute type and how it is named in the document.
struct Precision {
  std::string name;  ///< dtype name of the roof
  cudaDataType_t ab;
  cudaDataType_t cd;
  cublasComputeType_t compute;
  cudaDataType_t scale;
  double ab_bytes;
  double cd_bytes;
  bool integer;
  std::string method;
};

std::vector<Precision> precisions_for(int major, int minor) {
  const int cc = major * 10 + minor;
  std::vector<Precision> out;
  // fp64 tensor cores: A100 (8.0), H100/H200 (9.0), B200 (10.0).
  if (cc == 80 || cc == 90 || cc == 100)
    out.push_back({"fp64", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, 8, 8, false,
                   "cuBLASLt matmul (DGEMM, fp64 tensor cores)"});
  if (cc >= 80) {
    out.push_back({"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, 4, 4,
                   false, "cuBLASLt matmul, fp32 in/out, tf32 compute"});
    out.push_back({"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, false,
                   "cuBLASLt matmul, bf16 in/out, fp32 accumulate"});
  }
  if (cc >= 70)
    out.push_back({"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, false,
                   "cuBLASLt matmul, fp16 in/out, fp32 accumulate"});
  if (cc >= 89)
    out.push_back({"fp8-e4m3", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 1, 2,
                   false, "cuBLASLt matmul, fp8 e4m3 in, bf16 out, fp32 fast accumulate"});
  if (cc >= 75)
    out.push_back({"int8", CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, CUDA_R_32I, 1, 4, true,
                   "cuBLASLt matmul, int8 in, int32 out and accumulate"});
  return out;
}

void fill(const Precision& p, void* data, size_t n, uint32_t seed, cudaStream_t s) {
  const kern::Launch l{1024, 256, s};
  switch (p.ab) {
    case CUDA_R_64F:
      kern::fill_f64(static_cast<double*>(data), n, seed, -1, 1, l);
      break;
    case CUDA_R_32F:
      kern::fill_f32(static_cast<float*>(data), n, seed, -1, 1, l);
      break;
    case CUDA_R_16F:
      kern::fill_f16(data, n, seed, -1, 1, l);
      break;
    case CUDA_R_16BF:
      kern::fill_bf16(data, n, seed, -1, 1, l);
      break;
    case CUDA_R_8F_E4M3:
      kern::fill_fp8_e4m3(data, n, seed, -1, 1, l);
      break;
    case CUDA_R_8I:
      kern::fill_i8(static_cast<int8_t*>(data), n, seed, -8, 8, l);
      break;
    default:
      throw Error("gemm: no fill for this type");
  }
  rt::check(cudaGetLastError(), "gemm: filling operands");
}

template <class T, auto Destroy>
struct Handle {
  T h = nullptr;
  Lt* lt = nullptr;
  ~Handle() {
    if (h) (lt->*Destroy)(h);
  }
};

/// One precision's sweep: the roof (with the clock under its best size's load) and, where
/// cuBLAS is at hand, cuBLAS's rate on the best size.
struct Swept {
  ComputeResult result;
  std::optional<Peer> peer;
  std::string peer_missing;  ///< why there is no peer
};

/// Runs one precision's sweep; returns its result or throws Unavailable/Error with the reason.
Swept sweep_one(Lt& lt, Blas* blas, const std::string& blas_missing, const Precision& p,
                const Config& config, rt::Timer& timer) {
  const std::vector<int> sizes =
      detail::gemm_sizes(config.quick, p.ab_bytes, p.cd_bytes, config.max_bytes);
  if (sizes.empty()) throw Unavailable(p.name + " tensor: not enough free device memory");
  const int top = sizes.back();
  const size_t nn = static_cast<size_t>(top) * static_cast<size_t>(top);
  rt::Buffer a(static_cast<size_t>(static_cast<double>(nn) * p.ab_bytes), p.name + " A");
  rt::Buffer b(static_cast<size_t>(static_cast<double>(nn) * p.ab_bytes), p.name + " B");
  rt::Buffer d(static_cast<size_t>(static_cast<double>(nn) * p.cd_bytes), p.name + " D");
  const size_t workspace_bytes = size_t{32} << 20;  // cuBLAS's recommendation for Hopper
  rt::Buffer workspace(workspace_bytes, "cuBLASLt workspace");
  fill(p, a.get(), nn, 1, timer.stream());
  fill(p, b.get(), nn, 2, timer.stream());
  rt::check(cudaMemsetAsync(d.get(), 0, d.bytes(), timer.stream()), "gemm: clearing D");

  // α = 1, β = 0 in the scale type.
  const double one_d = 1, zero_d = 0;
  const float one_f = 1, zero_f = 0;
  const int32_t one_i = 1, zero_i = 0;
  const void* alpha = p.scale == CUDA_R_64F   ? static_cast<const void*>(&one_d)
                      : p.scale == CUDA_R_32I ? static_cast<const void*>(&one_i)
                                              : static_cast<const void*>(&one_f);
  const void* beta = p.scale == CUDA_R_64F   ? static_cast<const void*>(&zero_d)
                     : p.scale == CUDA_R_32I ? static_cast<const void*>(&zero_i)
                                             : static_cast<const void*>(&zero_f);

  Swept out;
  ComputeResult& result = out.result;
  result.precision = p.name;
  result.unit = "tensor";
  result.integer = p.integer;
  result.method = p.method + " (" + lt.path + ")";
  double best_median = 0;
  int best_n = 0;
  std::vector<double> best_clock;
  for (int n : sizes) {
    Handle<cublasLtMatmulDesc_t, &Lt::desc_destroy> desc{nullptr, &lt};
    lt_check(lt.desc_create(&desc.h, p.compute, p.scale), "matmul descriptor");
    const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
    lt_check(lt.desc_set(desc.h, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa), "transa");
    lt_check(lt.desc_set(desc.h, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb), "transb");
    if (p.ab == CUDA_R_8F_E4M3) {
      const int8_t fast = 1;
      lt_check(lt.desc_set(desc.h, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast),
               "fast accumulate");
    }
    const auto un = static_cast<uint64_t>(n);
    const auto ld = static_cast<int64_t>(n);
    Handle<cublasLtMatrixLayout_t, &Lt::layout_destroy> la{nullptr, &lt}, lb{nullptr, &lt},
        lc{nullptr, &lt};
    lt_check(lt.layout_create(&la.h, p.ab, un, un, ld), "layout A");    // k × m, transposed
    lt_check(lt.layout_create(&lb.h, p.ab, un, un, ld), "layout B");    // k × n
    lt_check(lt.layout_create(&lc.h, p.cd, un, un, ld), "layout C/D");  // m × n
    Handle<cublasLtMatmulPreference_t, &Lt::pref_destroy> pref{nullptr, &lt};
    lt_check(lt.pref_create(&pref.h), "preference");
    const uint64_t ws = workspace_bytes;
    lt_check(lt.pref_set(pref.h, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws),
             "workspace preference");
    cublasLtMatmulHeuristicResult_t heuristic{};
    int found = 0;
    const cublasStatus_t hs =
        lt.heuristic(lt.handle, desc.h, la.h, lb.h, lc.h, lc.h, pref.h, 1, &heuristic, &found);
    const std::string what = p.name + " GEMM " + std::to_string(n) + "³";
    if (hs != CUBLAS_STATUS_SUCCESS || found == 0) {
      result.sweep.emplace_back(std::to_string(n) + "³: no cuBLASLt algorithm", 0.0);
      continue;
    }
    const double flop_per_call = 2.0 * static_cast<double>(n) * n * n;
    auto enqueue = [&](long calls) {
      for (long c = 0; c < calls; ++c)
        lt_check(lt.matmul(lt.handle, desc.h, alpha, a.get(), la.h, b.get(), lb.h, beta, d.get(),
                           lc.h, d.get(), lc.h, &heuristic.algo, workspace.get(), workspace_bytes,
                           timer.stream()),
                 what);
    };
    const rt::Rates r = rt::timed_rates(
        timer, 1, 10000, config.target_s, config.repetitions,
        [&](long calls) { return flop_per_call * static_cast<double>(calls); }, enqueue, what,
        config.sampler);
    const double median = roof_rate(rate_statistics(r.rates));
    result.sweep.emplace_back(std::to_string(n) + "³", median);
    if (median > best_median) {
      best_median = median;
      best_n = n;
      result.best_rates = r.rates;
      best_clock = config.sampler ? config.sampler->samples() : std::vector<double>{};
      result.energy = config.sampler ? config.sampler->energy() : std::nullopt;
    }
  }
  if (result.best_rates.empty())
    throw Unavailable(p.name + " tensor: cuBLASLt offers no algorithm for these GEMMs");
  result.clock =
      detail::clock_under_load(best_clock, p.name + " GEMM " + std::to_string(best_n) + "³");

  // The peer: cuBLAS's GEMM (its own choice of kernel) on the best size, in the same run.
  if (!blas) {
    out.peer_missing = blas_missing;
  } else if (p.ab == CUDA_R_8F_E4M3) {
    out.peer_missing = "cublasGemmEx has no fp8 GEMM";
  } else {
    const int n = best_n;
    const std::string what = p.name + " cublasGemmEx " + std::to_string(n) + "³";
    const cublasStatus_t s1 = blas->set_stream(blas->handle, timer.stream());
    const cublasStatus_t s2 = blas->set_workspace(blas->handle, workspace.get(), workspace_bytes);
    if (s1 != CUBLAS_STATUS_SUCCESS || s2 != CUBLAS_STATUS_SUCCESS) {
      out.peer_missing = "cuBLAS refused the stream or the workspace";
    } else {
      const double flop_per_call = 2.0 * static_cast<double>(n) * n * n;
      auto enqueue = [&](long calls) {
        for (long c = 0; c < calls; ++c)
          lt_check(blas->gemm_ex(blas->handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, alpha, a.get(),
                                 p.ab, n, b.get(), p.ab, n, beta, d.get(), p.cd, n, p.compute,
                                 CUBLAS_GEMM_DEFAULT),
                   what);
      };
      try {
        const rt::Rates r = rt::timed_rates(
            timer, 1, 10000, config.target_s, config.repetitions,
            [&](long calls) { return flop_per_call * static_cast<double>(calls); }, enqueue, what);
        out.peer = Peer{"cuBLAS cublasGemmEx, " + std::to_string(n) + "³, the same types (" +
                            libs::cublas().path + ")",
                        r.rates};
      } catch (const Error& e) {
        out.peer_missing = e.what();
        cudaGetLastError();
      }
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> tensor_precisions(int cc_major, int cc_minor) {
  std::vector<std::string> out;
  for (const Precision& p : precisions_for(cc_major, cc_minor)) out.push_back(p.name);
  return out;
}

void sweep(const Config& config, rt::Timer& timer, Measurements& out, const Callbacks& cb) {
  const std::vector<Precision> precisions = precisions_for(config.cc_major, config.cc_minor);
  if (precisions.empty()) return;
  std::unique_ptr<Lt> lt;
  try {
    lt = std::make_unique<Lt>();
  } catch (const Unavailable& e) {
    for (const Precision& p : precisions)
      out.unavailable.push_back(p.name + " tensor: " + e.what());
    return;
  }
  std::unique_ptr<Blas> blas;
  std::string blas_missing;
  try {
    blas = std::make_unique<Blas>();
  } catch (const Unavailable& e) {
    blas_missing = e.what();
  }
  bool stopped = false;
  for (const Precision& p : precisions) {
    if (!stopped && cb.stop && cb.stop()) stopped = true;
    if (stopped) {
      out.unavailable.push_back(p.name + " tensor: not run, the run's deadline had passed");
      continue;
    }
    if (cb.progress) cb.progress(p.name + " tensor GEMM sweep");
    try {
      Swept s = sweep_one(*lt, blas.get(), blas_missing, p, config, timer);
      out.compute.push_back(s.result);
      if (cb.done) cb.done(s.result, s.peer, s.peer_missing);
    } catch (const Unavailable& e) {
      out.unavailable.push_back(e.what());
    } catch (const Error& e) {
      // A failed GEMM (e.g. out of memory) loses one roof, not the measurement; a sticky device
      // error would show again at the next check and end it there.
      out.unavailable.push_back(p.name + " tensor: " + e.what());
      cudaGetLastError();
    }
  }
}

}  // namespace roofline::cuda::gemm
