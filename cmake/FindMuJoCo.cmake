# MuJoCo from Debian's libmujoco-dev, as the imported target MuJoCo::MuJoCo:
# the simulator's peer in the benchmark and its oracle in a test. Debian 12's
# own mujoco CMake package names /usr/include/libqhull_r, which no package
# needed here installs, so the header and library are found directly.
find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
find_library(MUJOCO_LIBRARY mujoco)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MuJoCo REQUIRED_VARS MUJOCO_LIBRARY MUJOCO_INCLUDE_DIR)
if(MuJoCo_FOUND AND NOT TARGET MuJoCo::MuJoCo)
  add_library(MuJoCo::MuJoCo UNKNOWN IMPORTED)
  set_target_properties(MuJoCo::MuJoCo PROPERTIES IMPORTED_LOCATION "${MUJOCO_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${MUJOCO_INCLUDE_DIR}")
endif()
mark_as_advanced(MUJOCO_INCLUDE_DIR MUJOCO_LIBRARY)
