# The libraries parse Eigen and the standard headers their files all include
# once, not once per file: CPU time of compiling their 55 files, 306 -> 252 s
# in the plain build and 557 -> 487 s in the sanitizer build (CI builds both).
# The test suites and programs compile as a few unity files each
# (UnityBuild.cmake), where a precompiled header saved about its own compile.
# It can hide a missing #include: -DGS_PRECOMPILED_HEADERS=OFF compiles every
# file as written.
option(GS_PRECOMPILED_HEADERS "Precompile the headers every file of the libraries includes" ON)
function(gs_precompile_headers target)
  if(GS_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
