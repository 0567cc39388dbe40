# Runs a tiny benchmark to JSON and checks that report.py turns it into a
# Markdown report with tables and a targets section.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${BENCH} --smoke --benchmark_filter=^chain/ --benchmark_min_time=0.001
                        --benchmark_format=json --benchmark_out=${WORK_DIR}/smoke.json
                RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "benchmark failed: ${code}")
endif()
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/bench/report.py ${WORK_DIR}/smoke.json --out ${WORK_DIR}/report.md
                        --plots ${WORK_DIR}/plots --command "test"
                RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "report.py failed: ${err}")
endif()
file(READ ${WORK_DIR}/report.md report)
foreach(expected "## Targets" "### chain: unsymmetric values" "| graphsolve-ldu-auto |" "umfpack" "klu" "graphsolve-llt" "![chain](plots/chain.png)")
  string(FIND "${report}" "${expected}" where)
  if(where EQUAL -1)
    message(FATAL_ERROR "report.md lacks '${expected}'")
  endif()
endforeach()
if(NOT EXISTS ${WORK_DIR}/plots/chain.png)
  message(FATAL_ERROR "report.py made no plot")
endif()
# The one-shot section, from the same JSON (the smoke run times every phase),
# goes into the report and survives report.py rewriting it.
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/bench/phases_report.py ${WORK_DIR}/smoke.json --out ${WORK_DIR}/report.md
                        --command "test"
                RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "phases_report.py failed: ${err}")
endif()
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/bench/report.py ${WORK_DIR}/smoke.json --out ${WORK_DIR}/report.md
                        --command "test"
                RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "report.py failed on its second run: ${err}")
endif()
file(READ ${WORK_DIR}/report.md report)
foreach(expected "## One-shot solves" "| n | graphsolve-ldu-auto analyze | umfpack analyze | klu analyze |"
                 "graphsolve-llt full" "## Targets")
  string(FIND "${report}" "${expected}" where)
  if(where EQUAL -1)
    message(FATAL_ERROR "report.md lacks '${expected}' after phases_report.py and report.py")
  endif()
endforeach()
