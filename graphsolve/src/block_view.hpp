#pragma once
// Fixed-size Eigen access to blocks inside the factor arena.
#include <Eigen/Core>

namespace graphsolve::kernels {

// Read-only view of a column-major R x C block (leading dimension ld).
// Eigen stores 1 x C matrices row-major, so a block row is viewed through an
// inner stride: an outer stride would read C consecutive values instead.
template <int R, int C>
auto view(const double* p, int ld) {
  if constexpr (R == 1 && C != 1)
    return Eigen::Map<const Eigen::Matrix<double, 1, C>, 0, Eigen::InnerStride<>>(p, 1, C, Eigen::InnerStride<>(ld));
  else
    return Eigen::Map<const Eigen::Matrix<double, R, C>, 0, Eigen::OuterStride<>>(p, R, C, Eigen::OuterStride<>(ld));
}

// Largest magnitude in a contiguous C x C block.
template <int C>
double max_abs(const double* block) {
  return Eigen::Map<const Eigen::Array<double, C * C, 1>>(block).abs().maxCoeff();
}

}  // namespace graphsolve::kernels
