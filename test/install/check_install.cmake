# Installs the build into a scratch prefix, builds a consumer project against
# it with find_package(graphsolve) (graphsolve::graphsolve and graphsolve::dynamics),
# and runs its programs and the installed CLI.
# Arguments: BUILD_DIR, SOURCE_DIR, WORK_DIR.
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
message(STATUS "installed package, consumer and CLI work")
