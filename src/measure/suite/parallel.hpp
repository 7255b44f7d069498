#pragma once
// Buffers and the static split of work over threads used by the suite's workloads. The threads
// are the engine's pinned team (measure/engine/team.hpp), the one `roofline measure` times its
// roofs on: one thread per core, each pinned, so a thread's share stays in its own core's caches
// (and its own NUMA node) from one repetition to the next, and a point and the roof it is judged
// against ran on the same threads. The same split first-touches the data and runs the kernel.
#include <algorithm>
#include <cstddef>
#include <memory>
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

/// Memory for the suite's arrays. Arrays of a few MiB come from one region aligned to its own
/// size and reused from its start once every array in it is freed, each array on a page boundary
/// after the previous one, so a workload's arrays lie at the same addresses relative to each
/// other, and to the page and cache-set structure, in every run. Separate heap allocations do
/// not: their placement moves with address-space randomisation, and on AMD Zen cores two arrays
/// whose cache lines share a set and a linear-address hash tag (the L1D way predictor's μtag)
/// evict each other, so an L1-size axpy ran at 1/4 of its usual rate for the whole life of some
/// processes (docs/tour.md). Larger arrays (and arrays past the region) are heap allocations on
/// 2 MiB boundaries; they do not stay in L1. All of it is advised to use transparent huge pages,
/// like the memory roofs' buffers (engine/memory.hpp).
void* allocate_array(std::size_t bytes);
void free_array(void* p) noexcept;

/// A page-aligned array from allocate_array, left uninitialised (workloads first-touch it in
/// parallel).
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n) : n_(n), p_(static_cast<T*>(allocate_array(n * sizeof(T)))) {}
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(n_, o.n_);
    std::swap(p_, o.p_);
    return *this;
  }
  ~Buffer() { free_array(p_); }
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
