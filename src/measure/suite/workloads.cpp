// The suite's workloads: sizing from a working-set target, initialisation with values that keep
// every result exact (small integers, powers of two), W and Q from the kernel catalogue, and a
// check of each result against an analytic or independently computed reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "loops.hpp"
#include "parallel.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"
#include "roofline/suite.hpp"
#include "suite_internal.hpp"

namespace roofline::suite {
namespace {

using std::size_t;
using i64 = std::int64_t;

// Levels whose traffic a streaming kernel (no reuse within a call) can state: every byte passes
// from the level holding the working set through each faster level once, so Q is the same at
// all of them (hierarchical roofline: traffic at a level = bytes between it and the next level
// closer to the core).
std::vector<LevelTraffic> streaming_traffic(const std::string& level, Bytes q) {
  std::vector<LevelTraffic> t;
  for (const auto& l : all_levels()) {
    t.push_back({l, q});
    if (l == level) break;
  }
  std::reverse(t.begin(), t.end());  // the working set's level first
  return t;
}

size_t elements_for(double working_set, double bytes_per_element, size_t minimum,
                    const std::string& kernel, size_t multiple = 64) {
  const double raw = std::floor(working_set / bytes_per_element);
  size_t n = raw > 0 ? static_cast<size_t>(raw) : 0;
  n = n / multiple * multiple;
  if (n < minimum)
    throw InputError(kernel + ": a working set of " + format_bytes(Bytes(working_set)) +
                     " is too small (needs at least " +
                     format_bytes(Bytes(static_cast<double>(minimum) * bytes_per_element)) + ")");
  return n;
}

std::string mismatch(const std::string& what, size_t index, double got, double expected) {
  std::ostringstream os;
  os << what << "[" << index << "] = " << format_number(got, 8) << ", expected "
     << format_number(expected, 8);
  return os.str();
}

// Small-integer patterns: every product and partial sum stays an exact integer in fp32/fp64.
inline double pat(size_t i, size_t mod, size_t add = 0) {
  return static_cast<double>((i + add) % mod);
}

class Base : public Workload {
 protected:
  Base(const Context& ctx, std::string kernel_name) : ctx_(ctx), name_(std::move(kernel_name)) {}
  int threads() const { return ctx_.threads; }
  Context ctx_;
  std::string name_;
};

// --- STREAM ---------------------------------------------------------------------------------

// b = c, b = s·c, c = a + b, a = b + s·c over three fp64 arrays (McCalpin's STREAM); the
// output starts at −1 so a kernel that writes nothing fails its check. s = 3 keeps it exact.
class Stream : public Base {
 public:
  enum Op { kCopy, kScale, kAdd, kTriad };
  Stream(const Context& ctx, Op op, double ws) : Base(ctx, op_name(op)), op_(op) {
    const int arrays = (op == kCopy || op == kScale) ? 2 : 3;
    n_ = elements_for(ws, arrays * 8.0, 256, name_);
    in1_ = Buffer<double>(n_);
    in2_ = Buffer<double>(n_);
    out_ = Buffer<double>(n_);
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i) {
        in1_[i] = pat(i, 13) + 1;
        in2_[i] = pat(i, 7, 3);
        out_[i] = -1;
      }
    });
    const DataType t = parse_dtype("fp64");
    const double n = static_cast<double>(n_);
    count = op == kCopy    ? copy(n, t)
            : op == kScale ? scale(n, t)
            : op == kAdd   ? add(n, t)
                           : triad(n, t);
    traffic = streaming_traffic(ctx.level, count.traffic);
    params = {{"n", n}};
    working_set_bytes = arrays * 8.0 * n;
    precision = "fp64";
    if (op == kTriad)
      note =
          "compulsory Q = 3·n·8 B (bytes named); with write-allocate the stored array is "
          "read first: 4·n·8 B";
  }
  static std::string op_name(Op op) {
    return op == kCopy ? "copy" : op == kScale ? "scale" : op == kAdd ? "add" : "triad";
  }
  double expected(size_t i) const {
    const double c = in1_[i], b = in2_[i];
    switch (op_) {
      case kCopy:
        return c;
      case kScale:
        return 3.0 * c;
      case kAdd:
        return c + b;
      case kTriad:
        return b + 3.0 * c;
    }
    return 0;
  }
  void run() override { run_many(1); }
  void run_many(int calls) override {
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      const size_t len = e - b;
      for (int c = 0; c < calls; ++c) switch (op_) {
          case kCopy:
            loops::copy(in1_.data() + b, out_.data() + b, len);
            break;
          case kScale:
            loops::scale(3.0, in1_.data() + b, out_.data() + b, len);
            break;
          case kAdd:
            loops::add(in1_.data() + b, in2_.data() + b, out_.data() + b, len);
            break;
          case kTriad:
            loops::triad(3.0, in2_.data() + b, in1_.data() + b, out_.data() + b, len);
            break;
        }
    });
  }
  std::string check() override {
    for (size_t i = 0; i < n_; ++i)
      if (out_[i] != expected(i)) return mismatch(name_ + ": out", i, out_[i], expected(i));
    return "";
  }
  void inject_fault() override { out_[n_ / 2] += 1; }

 private:
  Op op_;
  size_t n_ = 0;
  Buffer<double> in1_, in2_, out_;
};

// --- axpy ------------------------------------------------------------------------------------

// y = a·x + y with a = +0.5 and −0.5 on alternate calls: after an even number of calls y is
// back to y₀ exactly, after an odd number it is y₀ + 0.5·x (exact in fp16, fp32 and fp64 for
// these small integers). check() makes the count odd first, so a kernel that does nothing fails.
template <class T>
class Axpy : public Base {
 public:
  Axpy(const Context& ctx, const std::string& dtype, double ws) : Base(ctx, "axpy-" + dtype) {
    n_ = elements_for(ws, 2.0 * sizeof(T), 256, name_);
    x_ = Buffer<T>(n_);
    y_ = Buffer<T>(n_);
    parallel_share(ctx_, n_, 32, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i) {
        x_[i] = static_cast<T>(pat(i, 8) + 1);
        y_[i] = static_cast<T>(pat(i, 16));
      }
    });
    const DataType t = parse_dtype(dtype);
    count = axpy(static_cast<double>(n_), t);
    traffic = streaming_traffic(ctx.level, count.traffic);
    params = {{"n", static_cast<double>(n_)}};
    working_set_bytes = 2.0 * sizeof(T) * static_cast<double>(n_);
    precision = dtype == "fp16" ? "fp32" : dtype;
    if (dtype == "fp16")
      note =
          "fp16 storage (2 B per element) with the arithmetic on the fp32 unit: each element "
          "is widened to fp32 (F16C where the CPU has it), a·x + y is formed there (2 FLOP, "
          "counted as W) and rounded back; judged against the fp32 roof";
  }
  void run() override { run_many(1); }
  void run_many(int calls) override {
    const long long first = calls_;
    calls_ += calls;
    parallel_share(ctx_, n_, 32, [&](size_t b, size_t e, int) {
      for (long long c = first; c < first + calls; ++c)
        loops::axpy(static_cast<T>(c % 2 == 0 ? 0.5 : -0.5), x_.data() + b, y_.data() + b, e - b);
    });
  }
  std::string check() override {
    if (calls_ % 2 == 0) run();
    for (size_t i = 0; i < n_; ++i) {
      const double want = pat(i, 16) + 0.5 * (pat(i, 8) + 1);
      const auto got = static_cast<double>(y_[i]);
      if (got != want) return mismatch(name_ + ": y", i, got, want);
    }
    return "";
  }
  void inject_fault() override { y_[n_ / 3] = static_cast<T>(static_cast<double>(y_[n_ / 3]) + 1); }

 private:
  size_t n_ = 0;
  long long calls_ = 0;
  Buffer<T> x_, y_;
};

// --- dot, multiply ----------------------------------------------------------------------------

class Dot : public Base {
 public:
  Dot(const Context& ctx, double ws) : Base(ctx, "dot") {
    n_ = elements_for(ws, 16.0, 256, name_);
    x_ = Buffer<double>(n_);
    y_ = Buffer<double>(n_);
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i) {
        x_[i] = pat(i, 8) + 1;
        y_[i] = pat(i * 3, 5) + 1;
      }
    });
    partial_.assign(static_cast<size_t>(std::max(1, threads())), 0.0);
    count = dot(static_cast<double>(n_), parse_dtype("fp64"));
    traffic = streaming_traffic(ctx.level, count.traffic);
    params = {{"n", static_cast<double>(n_)}};
    working_set_bytes = 16.0 * static_cast<double>(n_);
    precision = "fp64";
  }
  void run() override { run_many(1); }
  void run_many(int calls) override {
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int t) {
      double last = 0;
      for (int c = 0; c < calls; ++c) {
        last = loops::dot(x_.data() + b, y_.data() + b, e - b);
        sink_ += last;  // every call's result is used
      }
      partial_[static_cast<size_t>(t)] = last;
    });
    double s = 0;
    for (double p : partial_) s += p;
    result_ = s;
  }
  std::string check() override {
    i64 want = 0;  // Σ (i mod 8 + 1)·(3i mod 5 + 1), computed in integers
    for (size_t i = 0; i < n_; ++i)
      want += static_cast<i64>((i % 8) + 1) * static_cast<i64>(((i * 3) % 5) + 1);
    if (result_ != static_cast<double>(want))
      return "dot: Σ x·y = " + format_number(result_, 15) + ", expected " + std::to_string(want);
    return "";
  }
  void inject_fault() override { result_ += 1; }

 private:
  size_t n_ = 0;
  double result_ = 0;
  std::vector<double> partial_;
  static inline thread_local double sink_ = 0;
  Buffer<double> x_, y_;
};

class Multiply : public Base {
 public:
  Multiply(const Context& ctx, double ws) : Base(ctx, "multiply") {
    n_ = elements_for(ws, 12.0, 256, name_);
    x_ = Buffer<float>(n_);
    y_ = Buffer<float>(n_);
    z_ = Buffer<float>(n_);
    parallel_share(ctx_, n_, 16, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i) {
        x_[i] = static_cast<float>(pat(i, 11) + 1);
        y_[i] = static_cast<float>(pat(i, 6) + 2);
        z_[i] = -1;
      }
    });
    count = elementwise_multiply(static_cast<double>(n_), parse_dtype("fp32"));
    traffic = streaming_traffic(ctx.level, count.traffic);
    params = {{"n", static_cast<double>(n_)}};
    working_set_bytes = 12.0 * static_cast<double>(n_);
    precision = "fp32";
  }
  void run() override { run_many(1); }
  void run_many(int calls) override {
    parallel_share(ctx_, n_, 16, [&](size_t b, size_t e, int) {
      for (int c = 0; c < calls; ++c)
        loops::multiply(x_.data() + b, y_.data() + b, z_.data() + b, e - b);
    });
  }
  std::string check() override {
    for (size_t i = 0; i < n_; ++i) {
      const double want = (pat(i, 11) + 1) * (pat(i, 6) + 2);
      if (static_cast<double>(z_[i]) != want) return mismatch("multiply: z", i, z_[i], want);
    }
    return "";
  }
  void inject_fault() override { z_[n_ - 1] = 0; }

 private:
  size_t n_ = 0;
  Buffer<float> x_, y_, z_;
};

// --- gemv ------------------------------------------------------------------------------------

class Gemv : public Base {
 public:
  Gemv(const Context& ctx, double ws) : Base(ctx, "gemv") {
    // Square A dominates the working set: n² + 2n elements of 8 B.
    n_ = static_cast<size_t>(std::floor(std::sqrt(std::max(0.0, ws / 8.0)))) / 8 * 8;
    if (n_ < 16) elements_for(0, 8, 256, name_);  // throws with the size message
    A_ = Buffer<double>(n_ * n_);
    x_ = Buffer<double>(n_);
    y_ = Buffer<double>(n_);
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i) {
        for (size_t j = 0; j < n_; ++j) A_[i * n_ + j] = pat(i + 2 * j, 7) + 1;
        y_[i] = -1;
      }
    });
    for (size_t j = 0; j < n_; ++j) x_[j] = pat(j, 5) + 1;
    const double n = static_cast<double>(n_);
    count = gemv(n, n, parse_dtype("fp64"));
    traffic = {{ctx.level, count.traffic}};
    params = {{"m", n}, {"n", n}};
    working_set_bytes = 8.0 * (n * n + 2 * n);
    precision = "fp64";
  }
  void run() override {
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      loops::gemv_rows(A_.data(), x_.data(), y_.data(), b, e, n_);
    });
  }
  std::string check() override {
    for (size_t i = 0; i < n_; ++i) {
      i64 want = 0;
      for (size_t j = 0; j < n_; ++j)
        want += static_cast<i64>(((i + 2 * j) % 7) + 1) * static_cast<i64>((j % 5) + 1);
      if (y_[i] != static_cast<double>(want))
        return mismatch("gemv: y", i, y_[i], static_cast<double>(want));
    }
    return "";
  }
  void inject_fault() override { y_[0] += 2; }

 private:
  size_t n_ = 0;
  Buffer<double> A_, x_, y_;
};

// --- gemm ------------------------------------------------------------------------------------

}  // namespace

// Freivalds' check of C = A·B with A[i][k] = (5i + 3k) mod 4, B[k][j] = (3k + 2j) mod 5 and
// r[j] = j mod 3 + 1: C·r must equal A·(B·r), all in exact integers (O(n²), and any wrong
// element changes C·r because every r[j] ≥ 1).
template <class T>
void init_gemm_inputs(T* A, T* B, size_t n, const Context& ctx) {
  parallel_share(ctx, n, 1, [&](size_t b, size_t e, int) {
    for (size_t i = b; i < e; ++i)
      for (size_t k = 0; k < n; ++k) {
        A[i * n + k] = static_cast<T>((5 * i + 3 * k) % 4);
        B[i * n + k] = static_cast<T>((3 * i + 2 * k) % 5);
      }
  });
}

template <class T>
std::string check_gemm(const std::string& name, const T* C, size_t n) {
  std::vector<i64> r(n), br(n, 0);
  for (size_t j = 0; j < n; ++j) r[j] = static_cast<i64>(j % 3 + 1);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j) br[k] += static_cast<i64>((3 * k + 2 * j) % 5) * r[j];
  for (size_t i = 0; i < n; ++i) {
    i64 abr = 0;
    for (size_t k = 0; k < n; ++k) abr += static_cast<i64>((5 * i + 3 * k) % 4) * br[k];
    i64 cr = 0;
    for (size_t j = 0; j < n; ++j) {
      const double c = static_cast<double>(C[i * n + j]);
      if (c != std::floor(c) || !std::isfinite(c))
        return mismatch(name + ": C", i * n + j, c, std::floor(c));
      cr += static_cast<i64>(c) * r[j];
    }
    if (cr != abr)
      return name + ": row " + std::to_string(i) + " of C is wrong (C·r = " + std::to_string(cr) +
             ", A·(B·r) = " + std::to_string(abr) + ")";
  }
  return "";
}
template std::string check_gemm<double>(const std::string&, const double*, size_t);
template std::string check_gemm<float>(const std::string&, const float*, size_t);
template void init_gemm_inputs<double>(double*, double*, size_t, const Context&);
template void init_gemm_inputs<float>(float*, float*, size_t, const Context&);

size_t gemm_order_for(double ws, double element_bytes, const std::string& name) {
  const size_t n =
      static_cast<size_t>(std::floor(std::sqrt(std::max(0.0, ws / (3 * element_bytes))))) / 8 * 8;
  if (n < 16)
    throw InputError(name + ": a working set of " + format_bytes(Bytes(ws)) +
                     " is too small (needs at least " +
                     format_bytes(Bytes(3 * 256 * element_bytes)) + ")");
  return n;
}

// Tile edge of the tiled gemm: three b×b fp64 tiles in half of L2 (the rest holds streaming
// lines), a multiple of 8 — the same rule as gemm_cache_bounded's b = ⌊√(M/(3s))⌋ with M the
// cache share given to tiles, so the catalogue's traffic formula describes this code.
size_t gemm_tile_for(const Machine& c) {
  const cpu::CacheInfo* l2 = c.cache("L2");
  const double m = (l2 ? l2->size_bytes : 512.0 * 1024) / 2;
  const auto b = static_cast<size_t>(std::floor(std::sqrt(m / (3 * 8.0)))) / 8 * 8;
  return std::max<size_t>(b, 8);
}

namespace {

class GemmOwn : public Base {
 public:
  GemmOwn(const Context& ctx, bool tiled, double ws)
      : Base(ctx, tiled ? "gemm-tiled" : "gemm-naive"), tiled_(tiled) {
    n_ = gemm_order_for(ws, 8, name_);
    A_ = Buffer<double>(n_ * n_);
    B_ = Buffer<double>(n_ * n_);
    C_ = Buffer<double>(n_ * n_);
    init_gemm_inputs(A_.data(), B_.data(), n_, ctx);
    const double n = static_cast<double>(n_);
    const DataType t = parse_dtype("fp64");
    count = gemm(n, n, n, t);
    params = {{"m", n}, {"n", n}, {"k", n}};
    working_set_bytes = 24.0 * n * n;
    precision = "fp64";
    if (tiled) {
      b_ = std::min(gemm_tile_for(ctx.machine), n_);
      params["tile"] = static_cast<double>(b_);
      const double tile_cache = 3 * 8.0 * static_cast<double>(b_ * b_);
      // Traffic out of the level beyond L2: what b×b tiles imply (Hong–Kung, catalogue).
      const KernelCount tiles = gemm_cache_bounded(n, n, n, t, tile_cache);
      if (ctx.level == "DRAM") {
        const cpu::CacheInfo* l3 = ctx.machine.cache("L3");
        const KernelCount dram = l3 ? gemm_cache_bounded(n, n, n, t, l3->size_bytes) : tiles;
        traffic = {{"DRAM", dram.traffic}, {"L3", tiles.traffic}};
      } else if (ctx.level == "L3") {
        traffic = {{"L3", tiles.traffic}};
      } else {
        traffic = {{ctx.level, count.traffic}};
      }
      note = "b×b tiles with b = " + std::to_string(b_) +
             " (three fit in L2); L3 traffic = 2·n³·s/b + n²·s, DRAM traffic = the L3-size bound "
             "(catalogue gemm_cache_bounded)";
    } else {
      // Between the core and L1 the loop's traffic is exact: two loads per multiply-add and one
      // store per element of C — the catalogue's blocked formula with 1×1 tiles (b = 1).
      const KernelCount loads = gemm_cache_bounded(n, n, n, t, 3 * 8.0);
      if (ctx.level == "L1") {
        traffic = {{"L1", loads.traffic}};
      } else {
        traffic = {{ctx.level, count.traffic}, {"L1", loads.traffic}};
      }
      note =
          "textbook i-j-k loop, B walked down a column: L1 traffic = 2·n³·s + n²·s (two loads "
          "per multiply-add, b = 1); Q at " +
          ctx.level + " is the compulsory lower bound";
    }
  }
  void run() override {
    parallel_share(ctx_, n_, tiled_ ? b_ : 1, [&](size_t b, size_t e, int) {
      if (tiled_) {
        for (size_t i = b; i < e; ++i) std::fill(C_.data() + i * n_, C_.data() + (i + 1) * n_, 0.0);
        for (size_t r = b; r < e; r += b_)
          loops::gemm_tiled_rows(A_.data(), B_.data(), C_.data(), r, std::min(e, r + b_), n_, b_);
      } else {
        loops::gemm_naive_rows(A_.data(), B_.data(), C_.data(), b, e, n_);
      }
    });
  }
  std::string check() override { return check_gemm(name_, C_.data(), n_); }
  void inject_fault() override { C_[n_ * n_ / 2 + 1] += 1; }

 private:
  bool tiled_;
  size_t n_ = 0, b_ = 0;
  Buffer<double> A_, B_, C_;
};

// --- stencils --------------------------------------------------------------------------------

constexpr double kW2[5] = {4, 1, 2, 3, 1};
constexpr double kW3[7] = {6, 1, 2, 1, 3, 2, 1};

class Stencil2d : public Base {
 public:
  Stencil2d(const Context& ctx, double ws) : Base(ctx, "stencil2d") {
    n_ = static_cast<size_t>(std::floor(std::sqrt(std::max(0.0, ws / 16.0)))) / 8 * 8;
    if (n_ < 16) elements_for(0, 16, 256, name_);
    in_ = Buffer<double>(n_ * n_);
    out_ = Buffer<double>(n_ * n_);
    parallel_share(ctx_, n_, 1, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i)
        for (size_t j = 0; j < n_; ++j) {
          in_[i * n_ + j] = value(i, j);
          out_[i * n_ + j] = -1;
        }
    });
    const double n = static_cast<double>(n_);
    count = stencil2d(n, n, parse_dtype("fp64"));
    traffic = {{ctx.level, count.traffic}};
    params = {{"nx", n}, {"ny", n}};
    working_set_bytes = 16.0 * n * n;
    precision = "fp64";
  }
  static double value(size_t i, size_t j) { return static_cast<double>((7 * i + 3 * j) % 11); }
  void run() override {
    parallel_share(ctx_, n_ - 2, 1, [&](size_t b, size_t e, int) {
      loops::stencil2d_rows(in_.data(), out_.data(), b + 1, e + 1, n_, kW2);
    });
  }
  std::string check() override {
    for (size_t i = 1; i + 1 < n_; ++i)
      for (size_t j = 1; j + 1 < n_; ++j) {
        const double want = kW2[0] * value(i, j) + kW2[1] * value(i - 1, j) +
                            kW2[2] * value(i + 1, j) + kW2[3] * value(i, j - 1) +
                            kW2[4] * value(i, j + 1);
        if (out_[i * n_ + j] != want)
          return mismatch("stencil2d: out", i * n_ + j, out_[i * n_ + j], want);
      }
    return "";
  }
  void inject_fault() override { out_[n_ + 1] = 0.5; }

 private:
  size_t n_ = 0;
  Buffer<double> in_, out_;
};

class Stencil3d : public Base {
 public:
  Stencil3d(const Context& ctx, double ws) : Base(ctx, "stencil3d") {
    n_ = static_cast<size_t>(std::floor(std::cbrt(std::max(0.0, ws / 16.0))));
    if (n_ < 8) elements_for(0, 16, 512, name_);
    const size_t cells = n_ * n_ * n_;
    in_ = Buffer<double>(cells);
    out_ = Buffer<double>(cells);
    parallel_share(ctx_, n_, 1, [&](size_t b, size_t e, int) {
      for (size_t z = b; z < e; ++z)
        for (size_t y = 0; y < n_; ++y)
          for (size_t x = 0; x < n_; ++x) {
            in_[idx(x, y, z)] = value(x, y, z);
            out_[idx(x, y, z)] = -1;
          }
    });
    const double n = static_cast<double>(n_);
    count = stencil3d(n, n, n, parse_dtype("fp64"));
    traffic = {{ctx.level, count.traffic}};
    params = {{"nx", n}, {"ny", n}, {"nz", n}};
    working_set_bytes = 16.0 * n * n * n;
    precision = "fp64";
  }
  size_t idx(size_t x, size_t y, size_t z) const { return (z * n_ + y) * n_ + x; }
  static double value(size_t x, size_t y, size_t z) {
    return static_cast<double>((5 * x + 3 * y + 7 * z) % 13);
  }
  void run() override {
    parallel_share(ctx_, n_ - 2, 1, [&](size_t b, size_t e, int) {
      loops::stencil3d_planes(in_.data(), out_.data(), b + 1, e + 1, n_, n_, kW3);
    });
  }
  std::string check() override {
    for (size_t z = 1; z + 1 < n_; ++z)
      for (size_t y = 1; y + 1 < n_; ++y)
        for (size_t x = 1; x + 1 < n_; ++x) {
          const double want = kW3[0] * value(x, y, z) + kW3[1] * value(x - 1, y, z) +
                              kW3[2] * value(x + 1, y, z) + kW3[3] * value(x, y - 1, z) +
                              kW3[4] * value(x, y + 1, z) + kW3[5] * value(x, y, z - 1) +
                              kW3[6] * value(x, y, z + 1);
          if (out_[idx(x, y, z)] != want)
            return mismatch("stencil3d: out", idx(x, y, z), out_[idx(x, y, z)], want);
        }
    return "";
  }
  void inject_fault() override { out_[idx(1, 1, n_ / 2)] += 3; }

 private:
  size_t n_ = 0;
  Buffer<double> in_, out_;
};

// --- CSR SpMV --------------------------------------------------------------------------------

// A generated square matrix with 7 non-zeros per row: the diagonal and six columns spread over
// the row (one per seventh of the matrix) with a hashed offset, so x is gathered irregularly.
constexpr size_t kNnzPerRow = 7;

class Spmv : public Base {
 public:
  Spmv(const Context& ctx, double ws) : Base(ctx, "spmv") {
    // Per row: 7 × (8 B value + 4 B index) + 8 B row pointer + x and y (8 B each).
    const double per_row = kNnzPerRow * 12.0 + 8 + 16;
    n_ = elements_for(ws, per_row, 512, name_);
    const size_t nnz = n_ * kNnzPerRow;
    row_ptr_ = Buffer<i64>(n_ + 1);
    col_ = Buffer<std::int32_t>(nnz);
    val_ = Buffer<double>(nnz);
    x_ = Buffer<double>(n_);
    y_ = Buffer<double>(n_);
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      for (size_t i = b; i < e; ++i) {
        row_ptr_[i] = static_cast<i64>(i * kNnzPerRow);
        for (size_t k = 0; k < kNnzPerRow; ++k) {
          col_[i * kNnzPerRow + k] = static_cast<std::int32_t>(column(i, k));
          val_[i * kNnzPerRow + k] = value(i, k);
        }
        x_[i] = pat(i, 9) + 1;
        y_[i] = -1;
      }
    });
    row_ptr_[n_] = static_cast<i64>(nnz);
    const double n = static_cast<double>(n_);
    count = spmv_csr(n, n, static_cast<double>(nnz), parse_dtype("fp64"), 4);
    traffic = {{ctx.level, count.traffic}};
    params = {{"rows", n}, {"cols", n}, {"nnz", static_cast<double>(nnz)}, {"index", 4}};
    working_set_bytes = per_row * n;
    precision = "fp64";
    note =
        "generated matrix, 7 non-zeros per row, scattered columns; Q counts x once "
        "(compulsory), the gathers re-read it";
  }
  size_t column(size_t i, size_t k) const {
    if (k == 0) return i;
    const size_t hash = (i * 2654435761u) >> 7;
    return (i + k * (n_ / kNnzPerRow) + hash % 61) % n_;
  }
  static double value(size_t i, size_t k) { return static_cast<double>((i + 3 * k) % 5 + 1); }
  void run() override {
    parallel_share(ctx_, n_, 8, [&](size_t b, size_t e, int) {
      loops::spmv_rows(row_ptr_.data(), col_.data(), val_.data(), x_.data(), y_.data(), b, e);
    });
  }
  std::string check() override {
    for (size_t i = 0; i < n_; ++i) {
      double want = 0;
      for (size_t k = 0; k < kNnzPerRow; ++k) want += value(i, k) * (pat(column(i, k), 9) + 1);
      if (y_[i] != want) return mismatch("spmv: y", i, y_[i], want);
    }
    return "";
  }
  void inject_fault() override { y_[n_ / 2] = -y_[n_ / 2]; }

 private:
  size_t n_ = 0;
  Buffer<i64> row_ptr_;
  Buffer<std::int32_t> col_;
  Buffer<double> val_, x_, y_;
};

}  // namespace

const std::vector<KernelInfo>& suite_kernels() {
  const std::vector<std::string> all{"L1", "L2", "L3", "DRAM"};
  const std::vector<std::string> big{"L2", "L3", "DRAM"};
  static const std::vector<KernelInfo> k{
      {"copy", "copy", "fp64", "STREAM copy b = c", all, true, false},
      {"scale", "scale", "fp64", "STREAM scale b = s·c", all, true, false},
      {"add", "add", "fp64", "STREAM add c = a + b", all, true, false},
      {"triad", "triad", "fp64",
       "STREAM triad a = b + s·c (placed with and without write-allocate)", all, true, false},
      {"axpy-fp64", "axpy", "fp64", "y = a·x + y, fp64", all, true, false},
      {"axpy-fp32", "axpy", "fp32", "y = a·x + y, fp32", all, true, false},
      {"axpy-fp16", "axpy", "fp16", "y = a·x + y, fp16 storage, fp32 arithmetic", all, true, false},
      {"dot", "dot", "fp64", "s = Σ x·y, fp64", all, true, false},
      {"multiply", "multiply", "fp32", "z = x·y elementwise, fp32", all, true, false},
      {"gemv", "gemv", "fp64", "y = A·x, square A, fp64", big, true, false},
      {"gemm-naive",
       "gemm",
       "fp64",
       "C = A·B, textbook triple loop, fp64",
       {"L2", "L3"},
       true,
       false},
      {"gemm-tiled",
       "gemm",
       "fp64",
       "C = A·B in cache tiles sized from L2, fp64",
       {"L3", "DRAM"},
       true,
       false},
      {"gemm-blas-fp64", "gemm", "fp64", "OpenBLAS cblas_dgemm", {"L3", "DRAM"}, true, true},
      {"gemm-blas-fp32", "gemm", "fp32", "OpenBLAS cblas_sgemm", {"L3", "DRAM"}, true, true},
      {"stencil2d", "stencil2d", "fp64", "5-point weighted 2D stencil, fp64", big, true, false},
      {"stencil3d", "stencil3d", "fp64", "7-point weighted 3D stencil, fp64", big, true, false},
      {"spmv", "spmv", "fp64", "CSR y = A·x, generated matrix (7 per row), fp64", big, true, false},
  };
  return k;
}

std::vector<std::string> resolve_kernels(const std::vector<std::string>& names) {
  const auto& ks = suite_kernels();
  std::vector<std::string> out;
  auto push = [&](const std::string& n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  if (names.empty()) {
    for (const auto& k : ks) push(k.name);
    return out;
  }
  const std::map<std::string, std::vector<std::string>> groups{
      {"stream", {"copy", "scale", "add", "triad"}},
      {"axpy", {"axpy-fp64", "axpy-fp32", "axpy-fp16"}},
      {"daxpy", {"axpy-fp64"}},
      {"saxpy", {"axpy-fp32"}},
      {"haxpy", {"axpy-fp16"}},
      {"gemm", {"gemm-naive", "gemm-tiled", "gemm-blas-fp64", "gemm-blas-fp32"}},
      {"gemm-blas", {"gemm-blas-fp64", "gemm-blas-fp32"}},
      {"blas", {"gemm-blas-fp64", "gemm-blas-fp32"}},
      {"dgemm", {"gemm-blas-fp64"}},
      {"sgemm", {"gemm-blas-fp32"}},
      {"stencil", {"stencil2d", "stencil3d"}},
      {"all", {}},
  };
  for (const auto& raw : names) {
    const std::string n = lower(raw);
    if (n == "all") {
      for (const auto& k : ks) push(k.name);
      continue;
    }
    if (auto g = groups.find(n); g != groups.end()) {
      for (const auto& m : g->second) push(m);
      continue;
    }
    const auto it =
        std::find_if(ks.begin(), ks.end(), [&](const KernelInfo& k) { return k.name == n; });
    if (it == ks.end()) {
      const std::string known = join(ks, [](const KernelInfo& k) { return k.name; });
      throw InputError("unknown kernel '" + raw + "' (known: " + known +
                       "; groups: stream, axpy, gemm, blas, stencil, all)");
    }
    push(it->name);
  }
  return out;
}

std::unique_ptr<Workload> make_workload(const std::string& name, Bytes working_set,
                                        const Context& ctx) {
  const double ws = working_set.value;
  if (!(ws > 0) || !std::isfinite(ws))
    throw InputError(name + ": working set must be a positive size (got " + format_number(ws) +
                     ")");
  if (name == "copy") return std::make_unique<Stream>(ctx, Stream::kCopy, ws);
  if (name == "scale") return std::make_unique<Stream>(ctx, Stream::kScale, ws);
  if (name == "add") return std::make_unique<Stream>(ctx, Stream::kAdd, ws);
  if (name == "triad") return std::make_unique<Stream>(ctx, Stream::kTriad, ws);
  if (name == "axpy-fp64") return std::make_unique<Axpy<double>>(ctx, "fp64", ws);
  if (name == "axpy-fp32") return std::make_unique<Axpy<float>>(ctx, "fp32", ws);
  if (name == "axpy-fp16") return std::make_unique<Axpy<loops::Half>>(ctx, "fp16", ws);
  if (name == "dot") return std::make_unique<Dot>(ctx, ws);
  if (name == "multiply") return std::make_unique<Multiply>(ctx, ws);
  if (name == "gemv") return std::make_unique<Gemv>(ctx, ws);
  if (name == "gemm-naive") return std::make_unique<GemmOwn>(ctx, false, ws);
  if (name == "gemm-tiled") return std::make_unique<GemmOwn>(ctx, true, ws);
  if (name == "gemm-blas-fp64") return make_blas_workload(ctx, false, ws);
  if (name == "gemm-blas-fp32") return make_blas_workload(ctx, true, ws);
  if (name == "stencil2d") return std::make_unique<Stencil2d>(ctx, ws);
  if (name == "stencil3d") return std::make_unique<Stencil3d>(ctx, ws);
  if (name == "spmv") return std::make_unique<Spmv>(ctx, ws);
  resolve_kernels({name});  // throws the unknown-kernel message
  throw InputError("unknown kernel '" + name + "'");
}

}  // namespace roofline::suite
