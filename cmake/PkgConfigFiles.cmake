# pkg-config files for builds that do not use CMake. They are relocatable:
# `prefix` is found from the file's own place (${pcfiledir}), so that
# `cmake --install --prefix DIR` may choose DIR after configuration.
# gs_install_pkgconfig(NAME) configures NAME.pc.in from the calling directory
# and installs NAME.pc into <libdir>/pkgconfig.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(GS_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _gs_pc_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _gs_pc_up "${_gs_pc_up}")
  set(GS_PC_PREFIX "\${pcfiledir}/${_gs_pc_up}")
  set(GS_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(GS_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(GS_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

function(gs_install_pkgconfig name)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${name}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
