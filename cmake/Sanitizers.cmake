# -DGS_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer;
# -DGS_SANITIZE=thread with ThreadSanitizer instead (it cannot be combined with them).
option(GS_SANITIZE "Build with address and undefined-behaviour sanitizers (or =thread)" OFF)
if(GS_SANITIZE STREQUAL "thread")
  set(_gs_san -fsanitize=thread -fno-omit-frame-pointer)
elseif(GS_SANITIZE)
  set(_gs_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
endif()
# UBSan's checks in Eigen's inline code (on every coefficient's offset and
# reference) kept clang from inlining it: two of the suite's quadruped drops
# ran 68 s under ASan + UBSan against 12 s under ASan alone. Clang's UBSan
# therefore skips Eigen's headers (cmake/ubsan-ignore-eigen.txt): 16 s (35 s
# if the pointer-overflow check stays on there). Our own code keeps every
# check, and AddressSanitizer still checks every access Eigen makes.
# -DGS_UBSAN_EIGEN=ON checks Eigen's code as well; the fuzzers (GS_FUZZ)
# always do.
option(GS_UBSAN_EIGEN "With GS_SANITIZE=ON under clang, run UBSan's checks inside Eigen's headers too" OFF)
if(GS_SANITIZE)
  add_compile_options(${_gs_san})
  add_link_options(${_gs_san})
  if(NOT GS_SANITIZE STREQUAL "thread" AND NOT GS_UBSAN_EIGEN)
    add_compile_options(
      "$<$<COMPILE_LANG_AND_ID:CXX,Clang>:-fsanitize-ignorelist=${CMAKE_CURRENT_LIST_DIR}/ubsan-ignore-eigen.txt>")
  endif()
  # At -O0, Eigen's expression templates stay uninlined and the instrumented
  # suite ran about 400x slower than the plain one (over 30 min of CI). At -O1
  # (the least the AddressSanitizer documentation recommends) Eigen's small
  # fixed-size evaluators still stayed out of line; -O2 inlines them: with clang
  # on 2 cores the ASan + UBSan suite ran in 266 s instead of 335, and built no
  # slower (about 5.5 min, against 6 for its first targets at -O1). It comes
  # after the build type's flags, so it also applies to Debug; asserts stay as
  # the build type sets them.
  add_compile_options(-O2 -fno-optimize-sibling-calls)
endif()

# -DGS_FUZZ=ON (clang only) also builds the libFuzzer programs of fuzz/, with
# everything instrumented for coverage and checked by ASan + UBSan.
option(GS_FUZZ "Build the libFuzzer targets (clang; implies address + undefined sanitizers)" OFF)
if(GS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "-DGS_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(GS_SANITIZE)
    message(FATAL_ERROR "-DGS_FUZZ=ON brings its own sanitizers: leave GS_SANITIZE off")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
