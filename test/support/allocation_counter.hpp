#pragma once
// Counts heap allocations made while a piece of work runs. Linking
// allocation_counter.cpp replaces malloc and friends with counting wrappers
// around glibc's allocator, so such test binaries are not built with the
// sanitizers (which bring their own allocator).

#include <functional>

long allocations_during(const std::function<void()>& work);
