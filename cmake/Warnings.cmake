# Warnings every target of the project is built with.
add_library(gs_warnings INTERFACE)
target_compile_options(gs_warnings INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>)
option(GS_WERROR "Treat warnings as errors" OFF)
if(GS_WERROR)
  target_compile_options(gs_warnings INTERFACE -Werror)
endif()
