# Runs PROGRAM if this CPU has every instruction-set flag in FLAGS (a
# space-separated list of /proc/cpuinfo flags, e.g. "avx2 fma"); otherwise
# prints a line the test's SKIP_REGULAR_EXPRESSION matches. The program is
# compiled for those instructions and would stop on an illegal instruction.
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
if(EXISTS /proc/cpuinfo)
  file(READ /proc/cpuinfo cpuinfo)
endif()
foreach(flag IN LISTS flags)
  if(NOT cpuinfo MATCHES "[ \t]${flag}[ \t\n]")
    message(STATUS "skipped: this CPU lacks ${flag}")
    return()
  endif()
endforeach()
execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${code})")
endif()
