#pragma once
// Runs an operation once per allocation it makes, that allocation failing
// (allocation_counter.hpp), to test what the operation leaves behind when
// memory runs out at any point of it.

#include <new>

#include <gtest/gtest.h>

#include "allocation_counter.hpp"

// Applies `operation` to a fresh copy of `base` with allocation 1, 2, ...
// failing, until a run makes no such allocation. Each failure must throw
// std::bad_alloc; `check(copy, n)` then looks at what the failed run left.
// Returns how many runs failed (0 if the operation allocated nothing).
template <class T, class Operation, class Check>
long expect_every_failing_allocation_throws(const T& base, Operation operation, Check check) {
  for (long n = 1;; ++n) {
    T copy = base;
    bool threw = false;
    const bool reached = reached_failing_allocation(n, [&] {
      try {
        operation(copy);
      } catch (const std::bad_alloc&) {
        threw = true;
      }
    });
    if (!reached) {
      EXPECT_FALSE(threw) << "bad_alloc with no allocation failing";
      return n - 1;
    }
    EXPECT_TRUE(threw) << "allocation " << n << " failed, but nothing was thrown";
    if (!threw) return n;
    check(copy, n);
  }
}
