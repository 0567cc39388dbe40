#pragma once
// Eigen's memory layout as the libraries were built with it (graphsolve and
// dynamics pass Eigen objects across their interfaces). Eigen sizes and
// aligns fixed-size types, and allocates dynamic ones, according to the
// instruction set a file is compiled for: a program built with -mavx2 or
// -march=native would otherwise lay out a Quaternion, or free a VectorXd the
// library allocated, differently from the portable library, and crash or
// read garbage. The CMake targets (graphsolve::graphsolve, graphsolve::dynamics)
// define both macros for every program linked to them; anything else must
// define them itself, before its first Eigen include.
#include <Eigen/Core>

static_assert(EIGEN_MAX_ALIGN_BYTES == 16 && EIGEN_MALLOC_ALREADY_ALIGNED == 0,
              "graphsolve: compile with -DEIGEN_MAX_ALIGN_BYTES=16 -DEIGEN_MALLOC_ALREADY_ALIGNED=0, as the "
              "library was built (or link the CMake target graphsolve::graphsolve, which defines both)");
