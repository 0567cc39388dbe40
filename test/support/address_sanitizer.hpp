#pragma once
// GS_TEST_ASAN is defined when this build runs under AddressSanitizer (GCC
// defines __SANITIZE_ADDRESS__, clang answers __has_feature). Tests of
// allocations that fail skip there: the sanitizer ends the process on a
// failed operator new instead of throwing std::bad_alloc.
#if defined(__SANITIZE_ADDRESS__)
#define GS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GS_TEST_ASAN 1
#endif
#endif
