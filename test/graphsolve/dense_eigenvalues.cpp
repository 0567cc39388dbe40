// The one place the graphsolve tests instantiate Eigen's symmetric
// eigensolver: compiled on its own (outside the unity build), it keeps the
// largest template of the dense references out of the test files' units.
#include "dense_eigenvalues.hpp"

#include <Eigen/Eigenvalues>

namespace gs_test {

Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& a) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a, Eigen::EigenvaluesOnly).eigenvalues();
}

}  // namespace gs_test
