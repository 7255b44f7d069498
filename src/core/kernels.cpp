#include "roofline/kernels.hpp"
#include "roofline/strings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "roofline/error.hpp"
#include "roofline/flop_counting.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"

namespace roofline {
namespace {

/// Sizes and counts are whole numbers ≥ `least` (n = 1.5 elements or 1e-5 rows counts nothing).
void require_positive(const char* kernel, const char* param, double v, double least = 1) {
  if (!std::isfinite(v) || v < least || v != std::floor(v))
    throw InputError(std::string(kernel) + ": " + param + " must be a whole number ≥ " +
                     format_number(least) + " (got " + format_number(v) + ")");
}

/// A stencil's grid needs an interior point (each side ≥ 3), or its work is 0.
void require_stencil_side(const char* kernel, const char* param, double v) {
  require_positive(kernel, param, v, 3);
}

/// The counts of finite sizes can still overflow a double (gemm with m = 1e200: W = 2·m·n·k);
/// then W, Q or I = W/Q would be inf or nan, so the sizes are refused instead.
const KernelCount& checked(const KernelCount& k) {
  auto bad = [&](const std::string& what, double v, const std::string& formula) {
    throw InputError(k.kernel + ": " + what + " = " + formula + " is " +
                     (std::isnan(v) ? "not a number" : "too large for a double") +
                     " for these sizes; give smaller sizes");
  };
  if (!std::isfinite(k.work.value)) bad("W", k.work.value, k.work_formula);
  if (!std::isfinite(k.traffic.value)) bad("Q", k.traffic.value, k.traffic_formula);
  if (!std::isfinite(k.traffic_write_allocate.value))
    bad("Q with write-allocate", k.traffic_write_allocate.value, k.traffic_formula);
  if (k.traffic.value > 0 && !std::isfinite(k.intensity().value))
    bad("I", k.intensity().value, "W/Q");
  return k;
}

KernelCount make(std::string name, double work, double traffic, double traffic_wa, int blas,
                 std::string wf, std::string qf, const DataType& t, std::string note = "") {
  KernelCount k;
  k.kernel = std::move(name);
  k.work = Work(work);
  k.traffic = Bytes(traffic);
  k.traffic_write_allocate = Bytes(traffic_wa);
  k.blas_level = blas;
  k.work_formula = std::move(wf);
  k.traffic_formula = std::move(qf) + " (s = " + format_number(t.bytes) + " B, " + t.name + ")";
  k.note = std::move(note);
  k.integer = t.integer;
  return checked(k);
}

}  // namespace

// docs/model.md §3: SAXPY y = a·x + y: W = 2n, Q = 12n (fp32) — read x, read y, write y; the scalar
// a lives in a register. y is updated in place, so write-allocate adds nothing.
KernelCount axpy(double n, const DataType& t) {
  require_positive("axpy", "n", n);
  const double s = t.bytes;
  return make("axpy", 2 * n, 3 * n * s, 3 * n * s, 1, "2·n", "3·n·s (read x, read y, write y)", t);
}
// STREAM scale b = a·c: one multiply, read c, write b (+ read-for-ownership of b).
KernelCount scale(double n, const DataType& t) {
  require_positive("scale", "n", n);
  const double s = t.bytes;
  return make("scale", n, 2 * n * s, 3 * n * s, 1, "n", "2·n·s (read c, write b)", t);
}
KernelCount copy(double n, const DataType& t) {
  require_positive("copy", "n", n);
  const double s = t.bytes;
  return make("copy", 0, 2 * n * s, 3 * n * s, 1, "0", "2·n·s (read c, write b)", t,
              "no arithmetic: I = 0, a pure bandwidth kernel");
}
KernelCount add(double n, const DataType& t) {
  require_positive("add", "n", n);
  const double s = t.bytes;
  return make("add", n, 3 * n * s, 4 * n * s, 1, "n", "3·n·s (read a, read b, write c)", t);
}
// STREAM triad a = b + s·c: 2 FLOP, read b and c, write a; with write-allocate a is read too.
KernelCount triad(double n, const DataType& t) {
  require_positive("triad", "n", n);
  const double s = t.bytes;
  return make("triad", 2 * n, 3 * n * s, 4 * n * s, 1, "2·n", "3·n·s (read b, read c, write a)", t,
              "with write-allocate the stored array is also read: 4·n·s");
}
KernelCount dot(double n, const DataType& t) {
  require_positive("dot", "n", n);
  const double s = t.bytes;
  return make("dot", 2 * n, 2 * n * s, 2 * n * s, 1, "2·n", "2·n·s (read x, read y)", t);
}
// docs/model.md §3: multiply-only z[i] = x[i]·y[i]: W = n, Q = 12n (fp32), I = 1/12.
KernelCount elementwise_multiply(double n, const DataType& t) {
  require_positive("multiply", "n", n);
  const double s = t.bytes;
  return make("multiply", n, 3 * n * s, 4 * n * s, 0, "n", "3·n·s (read x, read y, write z)", t);
}
// docs/model.md §3: s += x[i] + y[j] over all i, j: 2n² operations on 2n distinct elements, I = n/4
// (fp32). Reuse count = operations ÷ distinct elements.
KernelCount add_double_loop(double n, const DataType& t) {
  require_positive("add-double-loop", "n", n);
  const double s = t.bytes;
  return make("add-double-loop", 2 * n * n, 2 * n * s, 2 * n * s, 0, "2·n²",
              "2·n·s (x and y once each)", t, "each element is reused n times");
}
// y = A·x, A is m×n: 2mn FLOP; A, x read once, y written once. BLAS level 2, I = O(1).
KernelCount gemv(double m, double n, const DataType& t) {
  require_positive("gemv", "m", m);
  require_positive("gemv", "n", n);
  const double s = t.bytes;
  return make("gemv", 2 * m * n, (m * n + n + m) * s, (m * n + n + 2 * m) * s, 2, "2·m·n",
              "(m·n + n + m)·s (read A and x, write y)", t);
}
// docs/model.md §3: C = A·B with (m,k)·(k,n): W = 2mkn; compulsory Q = (mk + kn + mn)·s
// (N×N fp32: 12N², I = N/6; N = 1024 ⇒ 170.67). BLAS level 3, I = O(N).
KernelCount gemm(double m, double n, double k, const DataType& t) {
  require_positive("gemm", "m", m);
  require_positive("gemm", "n", n);
  require_positive("gemm", "k", k);
  const double s = t.bytes;
  KernelCount c =
      make("gemm", 2 * m * n * k, (m * k + k * n + m * n) * s, (m * k + k * n + 2 * m * n) * s, 3,
           "2·m·n·k", "(m·k + k·n + m·n)·s (A, B read once, C written once)", t);
  c.matrix_product = true;
  return c;
}
// docs/model.md §4 (Hong & Kung 1981): once the working set exceeds the cache, traffic is
// Θ(mnk/√M). We use the blocked algorithm with square b×b tiles, three resident (3·b²·s ≤ M): each
// of the (m/b)(n/b) C tiles streams k/b tiles of A and of B (2·b²·s each), so Q = 2·m·n·k·s/b +
// m·n·s; with b = √(M/(3s)) that is 2√3·mnk·s^{3/2}/√M + mn·s.
KernelCount gemm_cache_bounded(double m, double n, double k, const DataType& t,
                               double cache_bytes) {
  KernelCount base = gemm(m, n, k, t);
  require_positive("gemm", "cache", cache_bytes);
  const double s = t.bytes;
  const double b = std::floor(std::sqrt(cache_bytes / (3 * s)));
  if (b < 1)
    throw InputError("gemm: cache of " + format_number(cache_bytes) +
                     " B cannot hold three 1×1 tiles");
  const double tiled = 2 * m * n * k * s / b + m * n * s;
  if (tiled > base.traffic.value) {
    base.traffic = Bytes(tiled);
    base.traffic_write_allocate = Bytes(tiled + m * n * s);
    base.traffic_formula = "2·m·n·k·s/b + m·n·s with tile b = ⌊√(M/(3s))⌋ = " + format_number(b) +
                           " (M = " + format_number(cache_bytes) + " B; Hong–Kung Θ(mnk/√M))";
    base.note = "working set exceeds the cache: traffic set by the tile size, not compulsory";
  } else if (const double working_set = (m * k + k * n + m * n) * s; working_set <= cache_bytes) {
    base.note = "working set (" + format_number(working_set) + " B) fits the cache (" +
                format_number(cache_bytes) + " B): compulsory traffic applies";
  } else {
    // A long k with small m, n: the tile b is wider than the matrices, so C and a panel of A
    // and B stay in the cache while A and B stream through it once.
    base.note = "working set (" + format_number(working_set) + " B) exceeds the cache (" +
                format_number(cache_bytes) + " B), but the tile b = " + format_number(b) +
                " is as wide as the matrices allow: each is read once, so compulsory traffic "
                "applies";
  }
  return checked(base);
}
// 5-point weighted stencil out = Σ c_p·in_p over interior points: 5 mul + 4 add = 9 FLOP per
// point; neighbours reused from cache, so compulsory traffic is one read and one write per point.
KernelCount stencil2d(double nx, double ny, const DataType& t) {
  require_stencil_side("stencil2d", "nx", nx);
  require_stencil_side("stencil2d", "ny", ny);
  const double s = t.bytes;
  const double pts = std::max(0.0, nx - 2) * std::max(0.0, ny - 2);
  return make("stencil2d", 9 * pts, 2 * nx * ny * s, 3 * nx * ny * s, 0, "9·(nx−2)(ny−2)",
              "2·nx·ny·s (read in, write out)", t, "5-point weighted: 5 mul + 4 add per point");
}
KernelCount stencil3d(double nx, double ny, double nz, const DataType& t) {
  require_stencil_side("stencil3d", "nx", nx);
  require_stencil_side("stencil3d", "ny", ny);
  require_stencil_side("stencil3d", "nz", nz);
  const double s = t.bytes;
  const double pts = std::max(0.0, nx - 2) * std::max(0.0, ny - 2) * std::max(0.0, nz - 2);
  const double cells = nx * ny * nz;
  return make("stencil3d", 13 * pts, 2 * cells * s, 3 * cells * s, 0, "13·(nx−2)(ny−2)(nz−2)",
              "2·nx·ny·nz·s (read in, write out)", t, "7-point weighted: 7 mul + 6 add per point");
}
// CSR y = A·x: one multiply-add per non-zero. Traffic: values and column indices (nnz each),
// row pointers (rows + 1), x once (cols, compulsory), y written once (rows).
KernelCount spmv_csr(double rows, double cols, double nnz, const DataType& t, double index_bytes) {
  require_positive("spmv", "rows", rows);
  require_positive("spmv", "cols", cols);
  require_positive("spmv", "nnz", nnz);
  require_positive("spmv", "index", index_bytes);
  if (nnz > rows * cols)
    throw InputError("spmv: nnz " + format_number(nnz) + " exceeds rows × cols = " +
                     format_number(rows * cols) + ", the most non-zeros a matrix can hold");
  const double s = t.bytes;
  const double q = nnz * (s + index_bytes) + (rows + 1) * index_bytes + cols * s + rows * s;
  return make("spmv", 2 * nnz, q, q + rows * s, 2, "2·nnz",
              "nnz·(s + idx) + (rows+1)·idx + cols·s + rows·s", t,
              "x read once is the compulsory best case; scattered columns re-read it");
}
// Row-wise softmax: flop_counting's 5 operations per element (exp counted as one); read once,
// write once.
KernelCount softmax(double rows, double cols, const DataType& t) {
  require_positive("softmax", "rows", rows);
  require_positive("softmax", "cols", cols);
  const double s = t.bytes;
  const double e = rows * cols;
  return make("softmax", flop_counting::kSoftmaxPerElement * e, 2 * e * s, 3 * e * s, 0,
              "5·rows·cols", "2·rows·cols·s (read, write)", t, "exp counted as one operation");
}
// Layer norm: flop_counting's 8 per element; read x, write y, read γ and β once.
KernelCount layernorm(double rows, double cols, const DataType& t) {
  require_positive("layernorm", "rows", rows);
  require_positive("layernorm", "cols", cols);
  const double s = t.bytes;
  const double e = rows * cols;
  return make("layernorm", flop_counting::kLayerNormPerElement * e, (2 * e + 2 * cols) * s,
              (3 * e + 2 * cols) * s, 0, "8·rows·cols", "(2·rows·cols + 2·cols)·s (x, y, γ, β)", t);
}
// docs/model.md §5: 7B fp16 decode, batch 1: Q = 7e9 × 2 = 14 GB, W = 1.4e10 ⇒ I ≈ 1; batch B
// reuses each weight B times: W × B, Q unchanged ⇒ I ≈ B. Weight traffic only (KV cache refines
// it).
KernelCount llm_decode_weights(double params, double batch, const DataType& t) {
  require_positive("llm-decode", "params", params);
  require_positive("llm-decode", "batch", batch);
  const double s = t.bytes;
  KernelCount c = make("llm-decode", 2 * params * batch, params * s, params * s, 2,
                       "2·params·batch", "params·s (every weight read once per step)", t,
                       "weights only; KV-cache traffic refines it (see `roofline llm`)");
  c.matrix_product = true;  // as `roofline llm` judges a step's weight products
  return c;
}

const std::vector<KernelSpec>& kernel_catalogue() {
  using P = std::map<std::string, double>;
  static const std::vector<KernelSpec> specs{
      {"axpy",
       {"saxpy", "daxpy", "haxpy"},
       {"n"},
       {},
       "fp32",
       "y = a·x + y (BLAS 1)",
       [](const P& p, const DataType& t) { return axpy(p.at("n"), t); }},
      {"scale",
       {},
       {"n"},
       {},
       "fp64",
       "b = a·c (STREAM scale)",
       [](const P& p, const DataType& t) { return scale(p.at("n"), t); }},
      {"copy",
       {},
       {"n"},
       {},
       "fp64",
       "b = c (STREAM copy)",
       [](const P& p, const DataType& t) { return copy(p.at("n"), t); }},
      {"add",
       {},
       {"n"},
       {},
       "fp64",
       "c = a + b (STREAM add)",
       [](const P& p, const DataType& t) { return add(p.at("n"), t); }},
      {"triad",
       {},
       {"n"},
       {},
       "fp64",
       "a = b + s·c (STREAM triad)",
       [](const P& p, const DataType& t) { return triad(p.at("n"), t); }},
      {"dot",
       {"sdot", "ddot"},
       {"n"},
       {},
       "fp32",
       "s = Σ x·y (BLAS 1)",
       [](const P& p, const DataType& t) { return dot(p.at("n"), t); }},
      {"multiply",
       {"mul", "elementwise-multiply"},
       {"n"},
       {},
       "fp32",
       "z = x·y elementwise",
       [](const P& p, const DataType& t) { return elementwise_multiply(p.at("n"), t); }},
      {"add-double-loop",
       {"add-only"},
       {"n"},
       {},
       "fp32",
       "s += x[i] + y[j] over all i, j (a reuse example, docs/model.md §3)",
       [](const P& p, const DataType& t) { return add_double_loop(p.at("n"), t); }},
      {"gemv",
       {"sgemv", "dgemv"},
       {"m", "n"},
       {},
       "fp32",
       "y = A·x, A m×n (BLAS 2)",
       [](const P& p, const DataType& t) { return gemv(p.at("m"), p.at("n"), t); }},
      {"gemm",
       {"sgemm", "dgemm", "matmul"},
       {"m", "n", "k"},
       {{"cache", kNoDefault}},
       "fp32",
       "C = A·B, (m,k)·(k,n) (BLAS 3); --cache M gives a three-tile blocking's traffic, "
       "Θ(mnk/√M) (Hong–Kung)",
       [](const P& p, const DataType& t) {
         // A cache given (0 included, which is refused) bounds the traffic; none, compulsory.
         return p.count("cache")
                    ? gemm_cache_bounded(p.at("m"), p.at("n"), p.at("k"), t, p.at("cache"))
                    : gemm(p.at("m"), p.at("n"), p.at("k"), t);
       }},
      {"stencil2d",
       {"stencil-2d"},
       {"nx", "ny"},
       {},
       "fp64",
       "5-point 2D stencil",
       [](const P& p, const DataType& t) { return stencil2d(p.at("nx"), p.at("ny"), t); }},
      {"stencil3d",
       {"stencil-3d"},
       {"nx", "ny", "nz"},
       {},
       "fp64",
       "7-point 3D stencil",
       [](const P& p, const DataType& t) {
         return stencil3d(p.at("nx"), p.at("ny"), p.at("nz"), t);
       }},
      {"spmv",
       {"spmv-csr", "csr"},
       {"rows", "nnz"},
       {{"cols", kNoDefault}, {"index", 4}},
       "fp64",
       "CSR sparse matrix × vector (cols defaults to rows, index width in bytes)",
       [](const P& p, const DataType& t) {
         const double cols = p.count("cols") ? p.at("cols") : p.at("rows");
         return spmv_csr(p.at("rows"), cols, p.at("nnz"), t, p.count("index") ? p.at("index") : 4);
       }},
      {"softmax",
       {},
       {"rows", "cols"},
       {},
       "fp32",
       "row-wise softmax",
       [](const P& p, const DataType& t) { return softmax(p.at("rows"), p.at("cols"), t); }},
      {"layernorm",
       {"layer-norm"},
       {"rows", "cols"},
       {},
       "fp32",
       "layer normalisation",
       [](const P& p, const DataType& t) { return layernorm(p.at("rows"), p.at("cols"), t); }},
      {"llm-decode",
       {"decode"},
       {"params"},
       {{"batch", 1}},
       "fp16",
       "LLM decode step, weights only (I ≈ batch)",
       [](const P& p, const DataType& t) {
         return llm_decode_weights(p.at("params"), p.count("batch") ? p.at("batch") : 1, t);
       }},
  };
  return specs;
}

const KernelSpec& find_kernel(const std::string& name) {
  const std::string key = lower(name);
  for (const auto& s : kernel_catalogue()) {
    if (s.name == key) return s;
    for (const auto& a : s.aliases)
      if (a == key) return s;
  }
  const std::string names = join(kernel_catalogue(), [](const KernelSpec& s) { return s.name; });
  throw InputError("unknown kernel '" + name + "' (known: " + names + ")");
}

KernelRequest kernel_request(const std::string& name, const std::string& dtype,
                             const std::map<std::string, double>& sizes,
                             const std::string& prefix) {
  KernelRequest r;
  r.spec = &find_kernel(name);
  const KernelSpec& spec = *r.spec;
  std::string dtype_name = dtype;
  if (dtype_name.empty()) {
    // The alias can carry the dtype (saxpy = fp32, daxpy = fp64, haxpy = fp16).
    const char first = name.empty() ? ' ' : static_cast<char>(std::tolower(name[0]));
    const bool alias = name != spec.name;
    dtype_name = alias && first == 'd'   ? "fp64"
                 : alias && first == 's' ? "fp32"
                 : alias && first == 'h' ? "fp16"
                                         : spec.default_dtype;
  }
  r.dtype = parse_dtype(dtype_name);
  // Every missing size named at once (gemm --n 1024 lacks --m and --k, not --m alone).
  std::vector<std::string> missing;
  for (const auto& p : spec.params) {
    const auto it = sizes.find(p);
    if (it == sizes.end())
      missing.push_back(prefix + p);
    else
      r.params[p] = it->second;
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t i = 0; i < missing.size(); ++i)
      names += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + missing[i];
    throw InputError("kernel " + spec.name + ": " + names +
                     (missing.size() == 1 ? " is required" : " are required"));
  }
  for (const auto& [p, def] : spec.defaults) {
    const auto it = sizes.find(p);
    if (it != sizes.end())
      r.params[p] = it->second;
    else if (!std::isnan(def))
      r.params[p] = def;
  }
  for (const auto& [p, v] : sizes)
    if (!r.params.count(p) && !spec.defaults.count(p))
      throw InputError("kernel " + spec.name + " takes no " + prefix + p);
  return r;
}

KernelRequest kernel_request(const std::string& name, const std::string& dtype,
                             const std::map<std::string, std::string>& sizes) {
  // Each size as written: a count, `cache` an amount of bytes; an empty one is not given.
  std::map<std::string, double> parsed;
  for (const auto& [p, text] : sizes)
    if (!text.empty())
      parsed[p] =
          parse_quantity(text, p == "cache" ? Dimension::bytes : Dimension::count, "--" + p);
  return kernel_request(name, dtype, parsed, "--");
}

KernelOnRoofs kernel_on_roofs(const KernelCount& k, const ComputeRoof& c, const MemoryRoof& m) {
  KernelOnRoofs r;
  r.compute_roof = c.name;
  r.memory_level = m.level;
  r.peak = c.peak;
  r.bandwidth = m.bandwidth;
  const Intensity i = k.intensity();
  r.ridge = ridge(c.peak, m.bandwidth);
  r.memory_bound = i < r.ridge;
  r.at_ridge = std::fabs(i / r.ridge - 1) <= 1e-9;
  r.attainable = attainable(c.peak, m.bandwidth, i);
  r.time_bound = time_bound(k.work, k.traffic, c.peak, m.bandwidth);
  r.time_no_overlap = time_no_overlap(k.work, k.traffic, c.peak, m.bandwidth);
  return r;
}

const ComputeRoof& kernel_compute_roof(const RoofSet& roofs, const KernelCount& k,
                                       const DataType& t, std::string& note) {
  note.clear();
  const ComputeRoof& highest = roofs.select_compute(t.name);
  if (k.matrix_product || !is_matrix_unit(highest)) {
    if (accumulates_narrow(highest))
      note = "judged on '" + highest.name + "', the only " + highest.precision +
             " matrix roof, which accumulates narrower than fp32: accumulating in fp32, as "
             "frameworks do, GeForce tensor cores run at half that rate, so the bound is about "
             "2x optimistic";
    return highest;
  }
  const ComputeRoof& vector = vector_roof_for(roofs, highest, t.name, k.kernel, note);
  if (!note.empty()) note += " (name a roof with --precision)";
  return vector;
}

KernelOnMachine place_kernel(const RoofSet& roofs, const KernelCount& k, const DataType& t,
                             const std::string& precision, const std::string& level) {
  std::string note;
  const ComputeRoof& compute =
      precision.empty() ? kernel_compute_roof(roofs, k, t, note) : roofs.select_compute(precision);
  // `axpy --precision int8` printed the fp32 kernel on "int8 tensor 624 TFLOP/s".
  const std::string work = k.integer ? "OP" : "FLOP";
  if (!roofs.counts(compute, work) && !compute.precision.empty())  // --peak: any work
    throw InputError("kernel " + k.kernel + " (" + t.name + ") counts " + work + ", and roof '" +
                     compute.name + "' of machine '" + roofs.name + "' is in " +
                     (compute.integer ? "OP" : "FLOP") +
                     "/s: give --dtype and --precision of one kind (--dtype int8 for an "
                     "integer roof)");
  return {roofs.name, kernel_on_roofs(k, compute, roofs.select_memory(level)), note};
}

}  // namespace roofline
