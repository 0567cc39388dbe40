// The same undefined behaviour inside Eigen's code: a block of an empty map
// over null data starts a row in, so Eigen's Block offsets the null pointer.
// The sanitizer build's UBSan skips Eigen's headers unless GS_UBSAN_EIGEN
// (test sanitize.ubsan_in_eigen; cmake/Sanitizers.cmake says why).
#include <cstdio>

#include <Eigen/Core>

int main(int argc, char**) {
  double* none = argc > 5 ? new double[3] : nullptr;  // null: the compiler cannot know
  Eigen::Map<Eigen::MatrixXd> empty(none, 3, 0);
  std::printf("%g\n", empty.block(argc, 0, 2, 0).sum());
}
