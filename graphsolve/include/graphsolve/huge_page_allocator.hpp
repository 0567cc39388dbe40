#pragma once
// Internal: the allocator of the value arenas (BlockMatrix's and the
// factor's). Arrays of 2 MB and more start on a 2 MB boundary and are
// advised as transparent huge pages (madvise MADV_HUGEPAGE) before they are
// first touched. A factor of 10000 6x6 nodes spans about 2000 small pages,
// more than the processor's TLB holds, so every pass over it walks the page
// tables; on huge pages it spans five. Measured on 10000-node 6x6 chains,
// ladders and trees: refactor + solve 3-7% faster.
//
// The block comes from the ordinary heap, over-allocated by 2 MB, so that
// memory a factorization frees is reused by the next one; memory handed back
// to the kernel would be faulted and zeroed again, which cost one-shot
// factorizations 8%. Where huge pages are off ("never"), unavailable or not
// Linux, the advice is ignored and the arena is ordinary memory. The cost: up
// to 2 MB of address space per array, and a resident size rounded up to
// whole huge pages.

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace graphsolve::detail {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > (static_cast<std::size_t>(-1) - kHugePage) / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
    char* raw = static_cast<char*>(::operator new(bytes + kHugePage));
    // The first boundary leaving room for the heap's pointer just before it.
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*);
    const std::uintptr_t boundary = (start + kHugePage - 1) / kHugePage * kHugePage;
    char* aligned = raw + (boundary - reinterpret_cast<std::uintptr_t>(raw));
    reinterpret_cast<void**>(aligned)[-1] = raw;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(aligned, bytes, MADV_HUGEPAGE);  // advice: its failure leaves small pages
#endif
    return reinterpret_cast<T*>(aligned);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage)
      ::operator delete(p);
    else
      ::operator delete(reinterpret_cast<void**>(p)[-1]);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace graphsolve::detail
