# Configures and generates test/subproject (WORK_DIR scratch): configuring is
# enough, since a missing target name or an unwanted target stops it.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/subproject -B ${WORK_DIR}
                        -DGRAPHSOLVE_SOURCE=${SOURCE_DIR}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the parent project did not configure (${code}):\n${out}\n${err}")
endif()
