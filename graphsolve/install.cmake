# Installs headers, the library, the CLI and a CMake package so that
# find_package(graphsolve) + target_link_libraries(app graphsolve::graphsolve) works.
include(CMakePackageConfigHelpers)
install(TARGETS graphsolve EXPORT graphsolveTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/graphsolve DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(_gs_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/graphsolve)
install(EXPORT graphsolveTargets NAMESPACE graphsolve:: DESTINATION ${_gs_cmake_dir})
# graphsolveConfig.cmake.in: a static build's package also finds the private dependencies.
if(BUILD_SHARED_LIBS)
  set(GS_STATIC_PACKAGE FALSE)
else()
  set(GS_STATIC_PACKAGE TRUE)
endif()
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/graphsolveConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/graphsolveConfig.cmake INSTALL_DESTINATION ${_gs_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/graphsolveConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/graphsolveConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/graphsolveConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindSuiteSparse.cmake ${PROJECT_SOURCE_DIR}/cmake/FindMETIS.cmake
  DESTINATION ${_gs_cmake_dir})
# graphsolve.pc: a static library's private dependencies go to Libs.private
# (pkg-config --static); the BLAS found here is named by its path.
if(BUILD_SHARED_LIBS)
  set(GS_PC_GRAPHSOLVE_PRIVATE "")
else()
  list(JOIN BLAS_LIBRARIES " " _gs_pc_blas)
  set(GS_PC_GRAPHSOLVE_PRIVATE "Libs.private: -lcamd -lsuitesparseconfig -lmetis ${_gs_pc_blas}")
endif()
gs_install_pkgconfig(graphsolve)
