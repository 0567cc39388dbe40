#include "block_kernels.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

namespace graphsolve::kernels {

namespace {

using Stride = Eigen::OuterStride<>;
template <int R, int C>
using Map = Eigen::Map<Eigen::Matrix<double, R, C>, 0, Stride>;

enum class Op { AB, ABt, AtB };

// Column-major views of fixed-size blocks and columns. Eigen stores 1 x K
// matrices row-major, so a block row is viewed through an inner stride.
template <int R, int C>
auto view(const double* p, int ld) {
  if constexpr (R == 1 && C != 1)
    return Eigen::Map<const Eigen::Matrix<double, 1, C>, 0, Eigen::InnerStride<>>(p, 1, C, Eigen::InnerStride<>(ld));
  else
    return Eigen::Map<const Eigen::Matrix<double, R, C>, 0, Stride>(p, R, C, Stride(ld));
}
template <int K>
auto strided_column(const double* p, int stride) {  // K entries `stride` apart
  if constexpr (K == 1)
    return Eigen::Map<const Eigen::Matrix<double, 1, 1>>(p);
  else
    return Eigen::Map<const Eigen::Matrix<double, K, 1>, 0, Eigen::InnerStride<>>(p, K, 1, Eigen::InnerStride<>(stride));
}

// Fixed rows M and inner dimension K; one matrix-vector product per column.
template <Op op, int M, int K>
void fixed(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  for (int j = 0; j < n; ++j) {
    Eigen::Map<Eigen::Matrix<double, M, 1>> cj(c + static_cast<long>(j) * ldc);
    if constexpr (op == Op::AB)
      cj.noalias() -= view<M, K>(a, lda) * Eigen::Map<const Eigen::Matrix<double, K, 1>>(b + static_cast<long>(j) * ldb);
    else if constexpr (op == Op::ABt)
      cj.noalias() -= view<M, K>(a, lda) * strided_column<K>(b + j, ldb);
    else
      cj.noalias() -= view<K, M>(a, lda).transpose() * Eigen::Map<const Eigen::Matrix<double, K, 1>>(b + static_cast<long>(j) * ldb);
  }
}

template <Op op>
void dynamic(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  constexpr int D = Eigen::Dynamic;
  using ConstMap = Eigen::Map<const Eigen::MatrixXd, 0, Stride>;
  Map<D, D> cm(c, m, n, Stride(ldc));
  if constexpr (op == Op::AB)
    cm.noalias() -= ConstMap(a, m, k, Stride(lda)) * ConstMap(b, k, n, Stride(ldb));
  else if constexpr (op == Op::ABt)
    cm.noalias() -= ConstMap(a, m, k, Stride(lda)) * ConstMap(b, n, k, Stride(ldb)).transpose();
  else
    cm.noalias() -= ConstMap(a, k, m, Stride(lda)).transpose() * ConstMap(b, k, n, Stride(ldb));
}

template <Op op, int M>
void on_k(int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  switch (k) {
    case 1: return fixed<op, M, 1>(n, a, lda, b, ldb, c, ldc);
    case 2: return fixed<op, M, 2>(n, a, lda, b, ldb, c, ldc);
    case 3: return fixed<op, M, 3>(n, a, lda, b, ldb, c, ldc);
    case 4: return fixed<op, M, 4>(n, a, lda, b, ldb, c, ldc);
    case 5: return fixed<op, M, 5>(n, a, lda, b, ldb, c, ldc);
    case 6: return fixed<op, M, 6>(n, a, lda, b, ldb, c, ldc);
    default: return dynamic<op>(M, k, n, a, lda, b, ldb, c, ldc);
  }
}

template <Op op>
void product(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  if (k <= kMaxFixed && m > kMaxFixed && m <= 8 * kMaxFixed) {
    // Tall panels: strips of fixed-size rows.
    for (int i = 0; i < m; i += kMaxFixed) {
      const double* ai = op == Op::AtB ? a + static_cast<long>(i) * lda : a + i;
      product<op>(std::min(kMaxFixed, m - i), k, n, ai, lda, b, ldb, c + i, ldc);
    }
    return;
  }
  switch (m) {
    case 1: return on_k<op, 1>(k, n, a, lda, b, ldb, c, ldc);
    case 2: return on_k<op, 2>(k, n, a, lda, b, ldb, c, ldc);
    case 3: return on_k<op, 3>(k, n, a, lda, b, ldb, c, ldc);
    case 4: return on_k<op, 4>(k, n, a, lda, b, ldb, c, ldc);
    case 5: return on_k<op, 5>(k, n, a, lda, b, ldb, c, ldc);
    case 6: return on_k<op, 6>(k, n, a, lda, b, ldb, c, ldc);
    default: return dynamic<op>(m, k, n, a, lda, b, ldb, c, ldc);
  }
}

// In-place inverse of a small block by Gauss-Jordan elimination with partial
// (row) pivoting. Two layouts of the working copy, chosen by measurement:
// row-major (row operations contiguous) is the faster at K = 3 (45 against
// 65 ns), column-major (each column update one vector operation) at every
// other size (2x at K = 6).
// Both return the pivot ratio, 0 if a pivot is exactly zero or not finite.

// False if the pivot is exactly zero or not finite; else widens the range of
// pivot magnitudes seen so far.
inline bool track_pivot(double pivot, double& smallest, double& largest) {
  const double magnitude = std::abs(pivot);
  if (!(magnitude > 0.0) || !(magnitude < 1e308)) return false;
  smallest = std::min(smallest, magnitude);
  largest = std::max(largest, magnitude);
  return true;
}

// Row-major; the column swaps at the end undo the row interchanges.
template <int K>
double gauss_jordan_rows(double* d, int ldd, double input_scale) {
  double a[K][K];  // a[row][col]
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) a[i][j] = d[i + j * ldd];
  int swap_with[K];
  double smallest = 1e308, largest = input_scale;
  for (int j = 0; j < K; ++j) {
    int p = j;
    for (int i = j + 1; i < K; ++i)
      if (std::abs(a[i][j]) > std::abs(a[p][j])) p = i;
    swap_with[j] = p;
    if (p != j)
      for (int c = 0; c < K; ++c) std::swap(a[j][c], a[p][c]);
    const double pivot = a[j][j];
    if (!track_pivot(pivot, smallest, largest)) return 0.0;
    const double inverse = 1.0 / pivot;
    a[j][j] = 1.0;
    for (int c = 0; c < K; ++c) a[j][c] *= inverse;
    for (int i = 0; i < K; ++i) {
      if (i == j) continue;
      const double factor = a[i][j];
      a[i][j] = 0.0;
      for (int c = 0; c < K; ++c) a[i][c] -= factor * a[j][c];
    }
  }
  for (int j = K - 1; j >= 0; --j)
    if (swap_with[j] != j)
      for (int i = 0; i < K; ++i) std::swap(a[i][j], a[i][swap_with[j]]);
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) d[i + j * ldd] = -a[i][j];
  return smallest / largest;
}

// Column-major; the row interchanges are undone on the columns of the result
// when it is written back.
template <int K>
double gauss_jordan_columns(double* d, int ldd, double input_scale) {
  double a[K][K];  // a[col][row]
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) a[j][i] = d[i + j * ldd];
  int row_of[K];  // row j of the working copy is row row_of[j] of the input
  for (int i = 0; i < K; ++i) row_of[i] = i;
  double smallest = 1e308, largest = input_scale;
  for (int j = 0; j < K; ++j) {
    int p = j;
    double best = std::abs(a[j][j]);
    for (int i = j + 1; i < K; ++i) {
      const double v = std::abs(a[j][i]);
      if (v > best) best = v, p = i;
    }
    if (p != j) {
      for (int c = 0; c < K; ++c) std::swap(a[c][j], a[c][p]);
      std::swap(row_of[j], row_of[p]);
    }
    const double pivot = a[j][j];
    if (!track_pivot(pivot, smallest, largest)) return 0.0;
    const double inverse = 1.0 / pivot;
    double multiplier[K];  // of row j, for every other row
    for (int i = 0; i < K; ++i) multiplier[i] = a[j][i] * inverse;
    multiplier[j] = 0.0;
    for (int c = 0; c < K; ++c) {
      if (c == j) continue;
      const double r = a[c][j];
      for (int i = 0; i < K; ++i) a[c][i] -= multiplier[i] * r;
      a[c][j] = r * inverse;
    }
    for (int i = 0; i < K; ++i) a[j][i] = -multiplier[i];
    a[j][j] = inverse;
  }
  // a = (P A)^{-1} = A^{-1} P^T: its column j is column row_of[j] of A^{-1}.
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) d[i + row_of[j] * ldd] = -a[j][i];
  return smallest / largest;
}

template <int K>
double gauss_jordan_negated_inverse(double* d, int ldd, double input_scale) {
  if constexpr (K == 3)
    return gauss_jordan_rows<K>(d, ldd, input_scale);
  else
    return gauss_jordan_columns<K>(d, ldd, input_scale);
}

// D = C C^T by Cholesky, then D <- -C^{-1} (lower triangular). Returns the
// squared pivot ratio, or -1 if D is not positive definite.
template <int K>
double cholesky_negated_inverse(double* d, int ldd, double input_scale) {
  double c[K][K] = {};  // c[col][row], lower triangle
  double smallest = 1e308, largest = std::sqrt(input_scale);
  for (int j = 0; j < K; ++j) {
    double pivot = d[j + j * ldd];
    for (int q = 0; q < j; ++q) pivot -= c[q][j] * c[q][j];
    if (!(pivot > 0.0) || !(pivot < 1e308)) return -1.0;
    const double root = std::sqrt(pivot);
    smallest = std::min(smallest, root);
    largest = std::max(largest, root);
    c[j][j] = root;
    const double inverse = 1.0 / root;
    for (int i = j + 1; i < K; ++i) {
      double v = d[i + j * ldd];
      for (int q = 0; q < j; ++q) v -= c[q][i] * c[q][j];
      c[j][i] = v * inverse;
    }
  }
  // Inverse of the lower triangular C, column by column (forward substitution on e_j).
  double inv[K][K] = {};
  for (int j = 0; j < K; ++j) {
    inv[j][j] = 1.0 / c[j][j];
    for (int i = j + 1; i < K; ++i) {
      double v = 0.0;
      for (int q = j; q < i; ++q) v -= c[q][i] * inv[j][q];
      inv[j][i] = v / c[i][i];
    }
  }
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) d[i + j * ldd] = -inv[j][i];
  const double r = smallest / largest;
  return r * r;
}

template <int K>
double invert(double* d, int ldd, double input_scale, bool cholesky) {
  return cholesky ? cholesky_negated_inverse<K>(d, ldd, input_scale)
                  : gauss_jordan_negated_inverse<K>(d, ldd, input_scale);
}

}  // namespace

void sub_ab(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  product<Op::AB>(m, k, n, a, lda, b, ldb, c, ldc);
}
void sub_abt(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  product<Op::ABt>(m, k, n, a, lda, b, ldb, c, ldc);
}
void sub_atb(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  product<Op::AtB>(m, k, n, a, lda, b, ldb, c, ldc);
}

namespace {
// Columns of a compile-time height: inlined moves, where std::copy and
// std::fill on a few doubles per column would call memmove / memset.
template <int M>
void copy_columns(int n, const double* a, int lda, double* c, int ldc) {
  for (int j = 0; j < n; ++j, a += lda, c += ldc)
    for (int i = 0; i < M; ++i) c[i] = a[i];
}
template <int M>
void zero_columns(int n, double* c, int ldc) {
  for (int j = 0; j < n; ++j, c += ldc)
    for (int i = 0; i < M; ++i) c[i] = 0.0;
}
}  // namespace

void set_zero(int m, int n, double* c, int ldc) {
  switch (m) {
    case 0: return;
    case 1: return zero_columns<1>(n, c, ldc);
    case 2: return zero_columns<2>(n, c, ldc);
    case 3: return zero_columns<3>(n, c, ldc);
    case 4: return zero_columns<4>(n, c, ldc);
    case 5: return zero_columns<5>(n, c, ldc);
    case 6: return zero_columns<6>(n, c, ldc);
    default:
      for (int j = 0; j < n; ++j) std::fill(c + static_cast<long>(j) * ldc, c + static_cast<long>(j) * ldc + m, 0.0);
  }
}


void copy(int m, int n, const double* a, int lda, double* c, int ldc) {
  switch (m) {
    case 0: return;
    case 1: return copy_columns<1>(n, a, lda, c, ldc);
    case 2: return copy_columns<2>(n, a, lda, c, ldc);
    case 3: return copy_columns<3>(n, a, lda, c, ldc);
    case 4: return copy_columns<4>(n, a, lda, c, ldc);
    case 5: return copy_columns<5>(n, a, lda, c, ldc);
    case 6: return copy_columns<6>(n, a, lda, c, ldc);
    default:
      for (int j = 0; j < n; ++j)
        std::copy(a + static_cast<long>(j) * lda, a + static_cast<long>(j) * lda + m, c + static_cast<long>(j) * ldc);
  }
}

void copy_transposed(int m, int n, const double* a, int lda, double* c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) c[i + static_cast<long>(j) * ldc] = a[j + static_cast<long>(i) * lda];
}

double invert_small_pivot(int k, double* d, int ldd, double input_scale, bool cholesky) {
  switch (k) {
    case 0: return 1.0;
    case 1: return invert<1>(d, ldd, input_scale, cholesky);
    case 2: return invert<2>(d, ldd, input_scale, cholesky);
    case 3: return invert<3>(d, ldd, input_scale, cholesky);
    case 4: return invert<4>(d, ldd, input_scale, cholesky);
    case 5: return invert<5>(d, ldd, input_scale, cholesky);
    case 6: return invert<6>(d, ldd, input_scale, cholesky);
    default: return 0.0;  // larger pivots go through the caller's preallocated factorizations
  }
}

}  // namespace graphsolve::kernels
