#!/usr/bin/env bash
# Builds with warnings and runs the whole test suite; with --sanitize, also
# builds and runs it under AddressSanitizer + UndefinedBehaviorSanitizer, and
# the tests that use threads under ThreadSanitizer.
# The plain build uses the default compiler (GCC on Debian), the sanitizer
# build clang: each compiler's warnings then run on every file, and clang's
# UBSan checks pointer arithmetic that GCC's lets pass: an offset applied to
# a null pointer, found twice (by the fuzzers, then by this suite) where the
# GCC sanitizer build was clean. Its UBSan skips Eigen's own headers
# (cmake/Sanitizers.cmake says why); ASan checks them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
./scripts/install-deps.sh
# New build trees use Ninja: with make -j2 a target's objects wait until the
# libraries it links are built, ninja compiles them at once and waits only to
# link. The plain build took 6.6 min with make and 5.7 with ninja right after
# it, on 2 cores. A tree configured earlier keeps its generator (cmake refuses
# to switch it), and a generator named in CMAKE_GENERATOR wins.
configure() {
  local dir=$1; shift
  local generator=()
  if [ ! -f "$dir/CMakeCache.txt" ] && [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  cmake -S . -B "$dir" "${generator[@]}" "$@"
}
# The sanitizer builds also compile the libraries as unity builds
# (cmake/UnityBuild.cmake); the plain one keeps them file by file, as users
# build them.
# Line tables only (-g1): enough for file:line in gdb backtraces and sanitizer
# reports, and a third less compile time than full debug information.
configure build/test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
cmake --build build/test -j"$jobs"
ctest --test-dir build/test --output-on-failure -j"$jobs"
if [ "${1:-}" = "--sanitize" ]; then
  configure build/sanitize-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DGS_SANITIZE=ON -DGS_BUILD_BENCH=OFF \
    -DGS_UNITY_LIBRARIES=ON
  cmake --build build/sanitize-clang -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build/sanitize-clang --output-on-failure -j"$jobs" -E install
  # ThreadSanitizer on the tests that share one analysis or one model between
  # threads (their own program: about 90 s of building). OpenBLAS's own worker
  # threads synchronize where the sanitizer cannot see it, hence one BLAS thread.
  configure build/tsan-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DGS_SANITIZE=thread -DGS_BUILD_BENCH=OFF \
    -DGS_UNITY_LIBRARIES=ON
  cmake --build build/tsan-clang -j"$jobs" --target threads_tests
  OPENBLAS_NUM_THREADS=1 TSAN_OPTIONS=halt_on_error=1 build/tsan-clang/bin/threads_tests
fi
