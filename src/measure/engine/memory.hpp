#pragma once
// Memory for working sets larger than the caches, shared by the memory roofs (measure/cpu) and
// the kernel suite's points (measure/suite), so a DRAM-size point and the DRAM roof it is judged
// against run on the same kind of pages.
#include <cstddef>

namespace roofline::engine {

/// `bytes` rounded up to a multiple of `alignment` (at least 2 MiB, a power of two), aligned to
/// it and advised to use transparent huge pages
/// (MADV_HUGEPAGE; the advice matters where THP is in "madvise" mode, as on Debian). Null when the
/// allocation fails; free with std::free. Under a hypervisor every TLB miss walks two page tables,
/// and with 4 KiB pages a DRAM-size axpy on the Zen 4 VM ran at 0.43–0.60 of the DRAM roof,
/// with huge pages 0.83–0.91 (docs/tour.md).
void* allocate_huge_pages(std::size_t bytes, std::size_t alignment = std::size_t{2} << 20);

}  // namespace roofline::engine
