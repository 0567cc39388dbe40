# The test suites and the command-line programs compile as unity builds, eight
# source files to a translation unit: each file spent most of its compile on
# the same GoogleTest, Eigen, CLI11 and JSON code, and CI builds everything
# twice (plain and sanitized). The libraries compile file by file, as users
# build them. A target's files then share their anonymous namespaces, so a
# helper's name must be unique in its target.
# -DGS_UNITY_BUILD=OFF compiles file by file (faster after a one-file edit).
option(GS_UNITY_BUILD "Compile the test suites and programs as unity builds" ON)
# gs_unity_build(target [SWITCH]): a unity build of `target` if the option
# SWITCH (default GS_UNITY_BUILD) is on.
function(gs_unity_build target)
  set(switch GS_UNITY_BUILD)
  if(ARGC GREATER 1)
    set(switch ${ARGV1})
  endif()
  if(${switch})
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()

# -DGS_UNITY_LIBRARIES=ON compiles the libraries as unity builds too. Only
# the sanitizer builds of scripts/test.sh use it: there it took 50 s off the
# ASan + UBSan build and 12 s off the ThreadSanitizer one on 2 cores, and the
# sanitized suite ran as fast. The plain test build keeps the libraries file
# by file, as users build them, so that CI still compiles each library file
# on its own. Files with their own compile options (the sanitized wide
# kernels) stay out of the unity files, as CMake does for any such file.
option(GS_UNITY_LIBRARIES "Compile the graphsolve and dynamics libraries as unity builds" OFF)
