// Undefined behaviour in our own code: a non-zero offset applied to a null
// pointer. Clang's UBSan in the sanitizer build must report it (test
// sanitize.ubsan_checks_our_code).
#include <cstdio>

int main(int argc, char**) {
  double value = 1.0;
  const double* none = argc > 5 ? &value : nullptr;  // null: the compiler cannot know
  const double* past = none + argc;
  std::printf("%p\n", static_cast<const void*>(past));
}
