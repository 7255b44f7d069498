#include "measure/engine/memory.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace roofline::engine {

void* allocate_huge_pages(std::size_t bytes, std::size_t alignment) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t align = alignment < kHuge ? kHuge : alignment;
  const std::size_t rounded = ((bytes == 0 ? 1 : bytes) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
#if defined(MADV_HUGEPAGE)
  if (p) madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

}  // namespace roofline::engine
