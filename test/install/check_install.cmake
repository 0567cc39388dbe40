# Installs the build into a scratch prefix, builds a consumer project against
# it with find_package(graphsolve) (graphsolve::graphsolve and graphsolve::dynamics),
# runs its programs and the installed CLI, then builds the same examples with
# the flags of the installed pkg-config files (no CMake).
# Arguments: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX (compiler), LIBDIR (relative),
# VERSION (the project's, which pkg-config must report), SHARED (the build's
# BUILD_SHARED_LIBS: static libraries link with `pkg-config --static`, which
# adds their private dependencies, as the README says).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run_step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "step failed (${code}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()
run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/install/consumer -B ${WORK_DIR}/consumer
         -DCMAKE_PREFIX_PATH=${prefix} -DQUICKSTART_SOURCE=${SOURCE_DIR}/examples/quickstart.cpp
         -DDYNAMICS_QUICKSTART_SOURCE=${SOURCE_DIR}/examples/dynamics_quickstart.cpp)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run_step(${WORK_DIR}/consumer/consumer)
run_step(${WORK_DIR}/consumer/dynamics_consumer)
run_step(${prefix}/bin/graphsolve demo)

find_program(PKG_CONFIG pkg-config REQUIRED)
# Installed here, the .pc files must also work where the prefix was moved to.
file(RENAME ${prefix} ${WORK_DIR}/moved)
set(prefix ${WORK_DIR}/moved)
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
set(ENV{LD_LIBRARY_PATH} ${prefix}/${LIBDIR})
# Sets `out` to what pkg-config prints for the arguments; fails if it fails.
function(pkg_config out)
  execute_process(COMMAND ${PKG_CONFIG} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE text ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} failed (${code}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
foreach(pair "graphsolve;quickstart" "dynamics;dynamics_quickstart")
  list(GET pair 0 package)
  list(GET pair 1 example)
  pkg_config(version --modversion ${package})
  if(NOT version STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config --modversion ${package}: '${version}' (want ${VERSION})")
  endif()
  if(SHARED)
    pkg_config(flags --cflags --libs ${package})
  else()
    pkg_config(flags --static --cflags --libs ${package})
  endif()
  # pkg-config escapes blanks in the paths it prints ("my\ dir"), as a shell reads them.
  string(REPLACE " " "\\ " printed_prefix "${prefix}")
  string(FIND "${flags}" "-I${printed_prefix}/" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "pkg-config ${package} does not point at the moved prefix: ${flags}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run_step(${CXX} -std=c++17 ${SOURCE_DIR}/examples/${example}.cpp ${flags} -o ${WORK_DIR}/pc_${example})
  run_step(${WORK_DIR}/pc_${example})
endforeach()
message(STATUS "installed package, consumer, CLI and pkg-config files work")
