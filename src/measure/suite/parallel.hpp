#pragma once
// Buffers and the static split of work over threads used by the suite's workloads. The threads
// are the engine's pinned team (measure/engine/team.hpp), the one `roofline measure` times its
// roofs on: one thread per core, each pinned, so a thread's share stays in its own core's caches
// (and its own NUMA node) from one repetition to the next, and a point and the roof it is judged
// against ran on the same threads. The same split first-touches the data and runs the kernel.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

#include "measure/engine/team.hpp"
#include "roofline/suite.hpp"

namespace roofline::suite {

/// Rows [begin, end) of `n` for thread `t` of `nt`, boundaries on multiples of `align`.
inline std::pair<std::size_t, std::size_t> share(std::size_t n, int t, int nt,
                                                 std::size_t align = 8) {
  const std::size_t units = (n + align - 1) / align;
  const auto ut = static_cast<std::size_t>(t), unt = static_cast<std::size_t>(nt);
  const std::size_t b = std::min(n, units * ut / unt * align);
  const std::size_t e = std::min(n, units * (ut + 1) / unt * align);
  return {b, e};
}

/// Calls f(begin, end, t) for each of the context's `threads` shares of [0, n): on the
/// context's team at once when it has one of that size, else one share after another (the
/// results are the same; tests build workloads without a team).
template <class F>
void parallel_share(const Context& ctx, std::size_t n, std::size_t align, F&& f) {
  const int threads = std::max(1, ctx.threads);
  if (threads == 1) {
    f(std::size_t{0}, n, 0);
    return;
  }
  if (ctx.team && ctx.team->size() == threads) {
    ctx.team->run([&](int t) {
      const auto [b, e] = share(n, t, threads, align);
      f(b, e, t);
    });
    return;
  }
  for (int t = 0; t < threads; ++t) {
    const auto [b, e] = share(n, t, threads, align);
    f(b, e, t);
  }
}

/// A 64-byte aligned array, left uninitialised (workloads first-touch it in parallel).
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n)
      : n_(n), p_(static_cast<T*>(::operator new[](n * sizeof(T), std::align_val_t{64}))) {}
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(n_, o.n_);
    std::swap(p_, o.p_);
    return *this;
  }
  ~Buffer() {
    if (p_) ::operator delete[](p_, std::align_val_t{64});
  }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }
  std::size_t size() const { return n_; }

 private:
  std::size_t n_ = 0;
  T* p_ = nullptr;
};

}  // namespace roofline::suite
