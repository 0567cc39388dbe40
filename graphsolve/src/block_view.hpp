#pragma once
// Fixed-size Eigen access to blocks inside the factor arena.
#include <algorithm>
#include <cmath>

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

// rows[i] = max(rows[i], largest magnitude in row i of a contiguous C x C
// block): elementwise over the columns, as cheap as the whole block's
// maximum. In a local array, so that the maxima stay in registers (`rows`
// could alias the block as far as the compiler knows); Eigen's fixed-size
// arrays took twice the instructions at C = 3.
template <int C>
inline void widen_row_magnitudes(const double* block, double* rows) {
  using Column = Eigen::Array<double, C, 1>;
  Column r = Eigen::Map<const Column>(rows);
  for (int j = 0; j < C; ++j) r = r.max(Eigen::Map<const Column>(block + j * C).abs());
  Eigen::Map<Column> out(rows);
  out = r;
}

// The same for a block of run-time size b: rows in strips of four held in
// registers over the columns (a loop per column over b rows in memory took
// 6% of a 7x7 chain's factorization), the last b % 4 rows one at a time.
inline void widen_row_magnitudes(int b, const double* block, double* rows) {
  using Strip = Eigen::Array<double, 4, 1>;
  int i = 0;
  for (; i + 4 <= b; i += 4) {
    Strip r = Eigen::Map<const Strip>(rows + i);
    for (int j = 0; j < b; ++j) r = r.max(Eigen::Map<const Strip>(block + i + static_cast<long>(j) * b).abs());
    Eigen::Map<Strip>(rows + i) = r;
  }
  for (; i < b; ++i) {
    double r = rows[i];
    for (int j = 0; j < b; ++j) r = std::max(r, std::abs(block[i + static_cast<long>(j) * b]));
    rows[i] = r;
  }
}

}  // namespace graphsolve::kernels
