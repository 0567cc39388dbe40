#pragma once
// Helpers shared by the graphsolve tests: dense reference solutions and
// random right-hand sides.
#include <random>

#include <Eigen/Dense>

#include "graphsolve/graphsolve.hpp"

namespace gs_test {

inline Eigen::MatrixXd random_rhs(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd b(rows, cols);
  for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = u(rng);
  return b;
}

// ||A x - b|| / ||b|| computed densely, independent of the library's multiply.
inline double dense_residual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& x, const Eigen::MatrixXd& b) {
  return (a * x - b).norm() / b.norm();
}

}  // namespace gs_test
