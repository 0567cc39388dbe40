# Finds the SuiteSparse components graphsolve and its benchmarks use (Debian's
# libsuitesparse-dev ships no CMake package) and defines one imported target per
# library: SuiteSparse::amd, ::camd, ::umfpack, ::klu, ::cholmod, ::config.
find_path(SuiteSparse_INCLUDE_DIR NAMES camd.h PATH_SUFFIXES suitesparse)
set(_gs_ss_components config amd camd colamd ccolamd btf klu cholmod umfpack)
set(SuiteSparse_LIBRARIES)
foreach(_c IN LISTS _gs_ss_components)
  if(_c STREQUAL "config")
    set(_name suitesparseconfig)
  else()
    set(_name ${_c})
  endif()
  find_library(SuiteSparse_${_c}_LIBRARY NAMES ${_name})
  list(APPEND _gs_ss_required SuiteSparse_${_c}_LIBRARY)
endforeach()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SuiteSparse
  REQUIRED_VARS SuiteSparse_INCLUDE_DIR ${_gs_ss_required})

if(SuiteSparse_FOUND)
  foreach(_c IN LISTS _gs_ss_components)
    if(NOT TARGET SuiteSparse::${_c})
      add_library(SuiteSparse::${_c} UNKNOWN IMPORTED)
      set_target_properties(SuiteSparse::${_c} PROPERTIES
        IMPORTED_LOCATION "${SuiteSparse_${_c}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}")
    endif()
  endforeach()
endif()
mark_as_advanced(SuiteSparse_INCLUDE_DIR)
