// Compiled without the Eigen definitions the CMake targets carry (test
// abi.consumer_without_eigen_defines): graphsolve/eigen_abi.hpp must stop the
// build with a message saying what to define.
#include <graphsolve/graphsolve.hpp>

int main() { return 0; }
