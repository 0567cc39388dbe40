# The README's C++ example must be examples/quickstart.cpp, verbatim, so the
# example users copy is the one the test suite compiles and runs.
file(READ ${SOURCE_DIR}/README.md readme)
file(READ ${SOURCE_DIR}/examples/quickstart.cpp example)
string(FIND "${readme}" "${example}" where)
if(where EQUAL -1)
  message(FATAL_ERROR "README.md does not contain examples/quickstart.cpp verbatim")
endif()
