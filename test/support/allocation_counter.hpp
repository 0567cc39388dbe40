#pragma once
// Counts heap allocations made while a piece of work runs. Linking
// allocation_counter.cpp replaces malloc and friends with counting wrappers
// around glibc's allocator, so such test binaries are not built with the
// sanitizers (which bring their own allocator).

#include <functional>

long allocations_during(const std::function<void()>& work);

// What `work` left on the heap: its allocations, and the bytes it allocated
// and did not free (usable sizes, so each block counts its allocator's
// rounding too; a free of a block allocated before `work` counts against it).
struct HeapUse {
  long allocations = 0;
  long live_bytes = 0;
};
HeapUse heap_use_of(const std::function<void()>& work);

// Runs `work` with its allocation number `n` (1 for the first) failing as
// malloc fails when memory runs out: it returns a null pointer, which
// operator new turns into std::bad_alloc. Returns whether `work` got that far.
bool reached_failing_allocation(long n, const std::function<void()>& work);
