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

template <int R>
using Vector = Eigen::Matrix<double, R, 1>;

// y - A x for a column-major R x C block A (leading dimension ld), as a sum of
// scaled columns. Vectors by value: the sums stay in registers, where
// references let every column's result be stored and x be reloaded in case
// they alias A. Compiles at a fraction of Eigen's fixed-size product.
// `inline` matters: without it GCC calls the 6x6 product out of line in the
// solve (20% more instructions per solve).
template <int R, int C>
inline Vector<R> minus_product(const double* a, int ld, const Vector<C> x, Vector<R> y) {
  for (int q = 0; q < C; ++q) y -= Eigen::Map<const Vector<R>>(a + static_cast<long>(q) * ld) * x[q];
  return y;
}

// y - A^T x for a column-major R x C block A (leading dimension ld): one dot
// product per column.
template <int R, int C>
inline Vector<C> minus_transposed_product(const double* a, int ld, const Vector<R> x, Vector<C> y) {
  for (int q = 0; q < C; ++q) y[q] -= Eigen::Map<const Vector<R>>(a + static_cast<long>(q) * ld).dot(x);
  return y;
}

// Largest magnitude in a contiguous C x C block.
template <int C>
double max_abs(const double* block) {
  return Eigen::Map<const Eigen::Array<double, C * C, 1>>(block).abs().maxCoeff();
}

}  // namespace graphsolve::kernels
