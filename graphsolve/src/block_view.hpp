#pragma once
// Read-only Eigen view of a fixed-size column-major block inside the factor
// arena (leading dimension ld). Eigen stores 1 x C matrices row-major, so a
// block row is viewed through an inner stride: an outer stride would read
// C consecutive values instead.
#include <Eigen/Core>

namespace graphsolve::kernels {

template <int R, int C>
auto view(const double* p, int ld) {
  if constexpr (R == 1 && C != 1)
    return Eigen::Map<const Eigen::Matrix<double, 1, C>, 0, Eigen::InnerStride<>>(p, 1, C, Eigen::InnerStride<>(ld));
  else
    return Eigen::Map<const Eigen::Matrix<double, R, C>, 0, Eigen::OuterStride<>>(p, R, C, Eigen::OuterStride<>(ld));
}

}  // namespace graphsolve::kernels
