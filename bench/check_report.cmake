# Runs a tiny benchmark to JSON and checks that report.py turns it into a
# Markdown report with tables and a targets section, that phases_report.py
# adds the one-shot section, and that report.py keeps it when it rewrites.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${BENCH} --smoke --benchmark_filter=^chain/ --benchmark_min_time=0.001
                        --benchmark_format=json --benchmark_out=${WORK_DIR}/smoke.json
                RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "benchmark failed: ${code}")
endif()

# Runs bench/<script> on the smoke JSON into report.md (extra arguments follow).
function(run_report script)
  execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/bench/${script} ${WORK_DIR}/smoke.json --out ${WORK_DIR}/report.md
                          --command "test" ${ARGN}
                  RESULT_VARIABLE code ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${script} failed: ${err}")
  endif()
endfunction()

# Fails unless report.md contains every given text.
function(expect_in_report when)
  file(READ ${WORK_DIR}/report.md report)
  foreach(expected ${ARGN})
    string(FIND "${report}" "${expected}" where)
    if(where EQUAL -1)
      message(FATAL_ERROR "report.md lacks '${expected}' ${when}")
    endif()
  endforeach()
endfunction()

# The run records its allocator setting; the report's machine line repeats it.
file(READ ${WORK_DIR}/smoke.json smoke)
string(JSON allocator ERROR_VARIABLE no_allocator GET "${smoke}" context malloc)
if(no_allocator)
  message(FATAL_ERROR "the benchmark's JSON context has no malloc setting: ${no_allocator}")
endif()

run_report(report.py --plots ${WORK_DIR}/plots)
expect_in_report("after report.py" "## Targets" "### chain: unsymmetric values" "| graphsolve-ldu-auto |" "umfpack" "klu"
                 "graphsolve-llt" "![chain](plots/chain.png)" "## Fill, flops and memory" "| chain, n = "
                 "allocator: ${allocator}")
if(NOT EXISTS ${WORK_DIR}/plots/chain.png)
  message(FATAL_ERROR "report.py made no plot")
endif()
# The smoke run times every phase, so the one-shot section has its columns.
run_report(phases_report.py)
run_report(report.py)
expect_in_report("after phases_report.py and report.py" "## One-shot solves"
                 "| n | graphsolve-ldu-auto analyze | umfpack analyze | klu analyze |" "graphsolve-llt full" "## Targets")

# The command that made the results is part of every report written to a document.
expect_in_report("as its command" "Command:\n\n```sh\ntest\n```")
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/bench/report.py ${WORK_DIR}/smoke.json --out ${WORK_DIR}/report.md
                RESULT_VARIABLE code ERROR_VARIABLE err)
string(FIND "${err}" "needs --command" named)
if(code EQUAL 0 OR named EQUAL -1)
  message(FATAL_ERROR "report.py wrote a report without --command (exit ${code}: ${err})")
endif()
