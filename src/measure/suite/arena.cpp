// The suite's array memory (parallel.hpp): a region aligned to its own size, filled from its
// start while arrays in it live and reused from its start once none does.
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

#include "measure/engine/memory.hpp"
#include "measure/suite/parallel.hpp"

namespace roofline::suite {

namespace {
constexpr std::size_t kPage = 4096;
// 8 MiB holds the L1-size working sets of a many-core machine (64 cores × 2 arrays × 48 KiB)
// and the L2-size ones of a few cores; what does not fit comes from the heap on huge pages.
// Within one naturally aligned block the arrays' page numbers differ only in their low bits.
constexpr std::size_t kRegion = std::size_t{8} << 20;

struct Region {
  std::mutex mutex;
  unsigned char* base = nullptr;  // allocated on first use, kept for the process's life
  std::size_t used = 0;
  int live = 0;
  bool owns(const void* p) const {
    const auto* c = static_cast<const unsigned char*>(p);
    return base && c >= base && c < base + kRegion;
  }
};
Region& region() {
  static Region r;
  return r;
}
std::size_t round_up(std::size_t n) {
  return (n + kPage - 1) / kPage * kPage;
}
}  // namespace

void* allocate_array(std::size_t bytes) {
  const std::size_t size = round_up(bytes == 0 ? 1 : bytes);
  Region& r = region();
  {
    std::lock_guard lock(r.mutex);
    if (!r.base)
      r.base = static_cast<unsigned char*>(engine::allocate_huge_pages(kRegion, kRegion));
    if (r.base && size <= kRegion - r.used) {
      void* p = r.base + r.used;
      r.used += size;
      ++r.live;
      return p;
    }
  }
  // Past the region: arrays larger than the caches, on the memory roofs' pages.
  void* p = engine::allocate_huge_pages(size);
  if (!p) throw std::bad_alloc();
  return p;
}

void free_array(void* p) noexcept {
  if (!p) return;
  Region& r = region();
  {
    std::lock_guard lock(r.mutex);
    if (r.owns(p)) {
      if (--r.live == 0) r.used = 0;
      return;
    }
  }
  std::free(p);
}

}  // namespace roofline::suite
