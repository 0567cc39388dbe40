# A document must show an example file verbatim, so the example users copy is
# the one the test suite compiles and runs.
file(READ ${DOC} doc)
file(READ ${EXAMPLE} example)
string(FIND "${doc}" "${example}" where)
if(where EQUAL -1)
  message(FATAL_ERROR "${DOC} does not contain ${EXAMPLE} verbatim")
endif()
