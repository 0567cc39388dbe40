#pragma once
#include <Eigen/Core>

namespace gs_test {

// Eigenvalues of a dense symmetric matrix (lower triangle read), ascending.
Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& a);

}  // namespace gs_test
