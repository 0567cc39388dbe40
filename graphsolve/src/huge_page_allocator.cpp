// The value arenas on transparent huge pages. A factor of 10000 6x6 nodes
// spans about 2000 small pages, more than the processor's TLB holds, so
// every pass over it walks the page tables; on 2 MB pages it spans five.
// Measured on 10000-node 6x6 chains, ladders and trees: refactor + solve
// 3-7% faster.
//
// The block comes from the ordinary heap, over-allocated by one huge page,
// rather than from aligned_alloc: glibc handed aligned blocks of this size
// back to the kernel when freed, so every new factorization faulted and
// zeroed its pages again (8% of a one-shot factor + solve of that chain).
// Where huge pages are off ("never"), unavailable or not Linux, the advice is
// ignored and the arena is ordinary memory. The cost: one huge page of
// address space per array, and a resident size rounded up to whole huge
// pages.
#include <cstdint>

#include "graphsolve/huge_page_allocator.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace graphsolve::detail {

void* allocate_arena(std::size_t bytes) {
  if (bytes < kHugePageBytes) return ::operator new(bytes);
  if (bytes > static_cast<std::size_t>(-1) - kHugePageBytes) throw std::bad_alloc();
  char* raw = static_cast<char*>(::operator new(bytes + kHugePageBytes));
  // The first boundary that leaves room for the heap's pointer just before it.
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*);
  const std::uintptr_t boundary = (start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  char* aligned = raw + (boundary - reinterpret_cast<std::uintptr_t>(raw));
  reinterpret_cast<void**>(aligned)[-1] = raw;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(aligned, bytes, MADV_HUGEPAGE);  // advice: its failure leaves small pages
#endif
  return aligned;
}

void free_arena(void* p, std::size_t bytes) noexcept {
  if (bytes < kHugePageBytes)
    ::operator delete(p);
  else
    ::operator delete(static_cast<void**>(p)[-1]);
}

}  // namespace graphsolve::detail
