#include "allocation_counter.hpp"

#include <cstddef>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);

static long g_allocations = 0;
static bool g_counting = false;

void* malloc(size_t n) {
  if (g_counting) ++g_allocations;
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_calloc(n, size);
}
void* realloc(void* p, size_t n) {
  if (g_counting) ++g_allocations;
  return __libc_realloc(p, n);
}
void* memalign(size_t alignment, size_t n) {
  if (g_counting) ++g_allocations;
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }
int posix_memalign(void** out, size_t alignment, size_t n) {
  *out = memalign(alignment, n);
  return *out ? 0 : 12;
}
void free(void* p) { __libc_free(p); }
}


long allocations_during(const std::function<void()>& work) {
  g_allocations = 0;
  g_counting = true;
  work();
  g_counting = false;
  return g_allocations;
}
