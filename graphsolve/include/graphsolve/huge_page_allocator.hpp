#pragma once
// Internal: the allocator of the value arenas (BlockMatrix's and the
// factor's). Arrays of 2 MB and more start on a 2 MB boundary and are
// advised as transparent huge pages before they are first touched
// (huge_page_allocator.cpp says why and what it costs).

#include <cstddef>
#include <new>

namespace graphsolve::detail {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// `bytes` of memory, on a huge page boundary and advised from kHugePageBytes
// up; throws std::bad_alloc. Free it with free_arena and the same size.
void* allocate_arena(std::size_t bytes);
void free_arena(void* p, std::size_t bytes) noexcept;

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(allocate_arena(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { free_arena(p, n * sizeof(T)); }

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
