#include "allocation_counter.hpp"

#include <cstddef>

#include <malloc.h>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);

static long g_allocations = 0;
static long g_live_bytes = 0;  // usable bytes allocated minus freed while counting
static bool g_counting = false;

static long g_failing = 0;  // the allocation to fail while counting (1-based), 0 for none
static bool g_failed = false;

// Whether the allocation about to be made is the one to fail; counts it if so.
static bool fails_now() {
  if (!g_counting || g_failing == 0 || g_allocations + 1 != g_failing) return false;
  ++g_allocations;
  g_failed = true;
  return true;
}

static void* counted(void* p) {
  if (g_counting) {
    ++g_allocations;
    if (p) g_live_bytes += static_cast<long>(malloc_usable_size(p));
  }
  return p;
}

void* malloc(size_t n) { return fails_now() ? nullptr : counted(__libc_malloc(n)); }
void* calloc(size_t n, size_t size) { return fails_now() ? nullptr : counted(__libc_calloc(n, size)); }
void* realloc(void* p, size_t n) {
  if (fails_now()) return nullptr;  // p stays allocated, as realloc leaves it
  if (g_counting && p) g_live_bytes -= static_cast<long>(malloc_usable_size(p));
  return counted(__libc_realloc(p, n));
}
void* memalign(size_t alignment, size_t n) {
  return fails_now() ? nullptr : counted(__libc_memalign(alignment, n));
}
void* aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }
int posix_memalign(void** out, size_t alignment, size_t n) {
  *out = memalign(alignment, n);
  return *out ? 0 : 12;
}
void free(void* p) {
  if (g_counting && p) g_live_bytes -= static_cast<long>(malloc_usable_size(p));
  __libc_free(p);
}
}


long allocations_during(const std::function<void()>& work) { return heap_use_of(work).allocations; }

HeapUse heap_use_of(const std::function<void()>& work) {
  g_allocations = 0;
  g_live_bytes = 0;
  g_counting = true;
  work();
  g_counting = false;
  return {g_allocations, g_live_bytes};
}

bool reached_failing_allocation(long n, const std::function<void()>& work) {
  g_failing = n;
  g_failed = false;
  heap_use_of(work);
  g_failing = 0;
  return g_failed;
}
