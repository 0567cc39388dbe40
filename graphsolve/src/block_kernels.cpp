#include "block_kernels.hpp"
#include "block_view.hpp"
#include "wide_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

namespace graphsolve::kernels {

namespace {

using Stride = Eigen::OuterStride<>;
template <int R, int C>
using Map = Eigen::Map<Eigen::Matrix<double, R, C>, 0, Stride>;

enum class Op { AB, ABt, AtB };

// Fixed rows M and inner dimension K. For A B and A B^T each column of C is
// accumulated in registers as a sum of K scaled columns of A: unrolled
// vector code, where a strided Eigen matrix-vector product per column was
// 1.5x slower (6x6x6: 22 against 33 ns). A^T B keeps the dot-product form,
// one dot per column of A (Eigen's transposed product computes the same dots
// but took most of this file's compile time: 36 size pairs).
template <Op op, int M, int K>
void fixed(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  using Column = Eigen::Matrix<double, M, 1>;
  for (int j = 0; j < n; ++j) {
    Eigen::Map<Column> cj(c + static_cast<long>(j) * ldc);
    if constexpr (op == Op::AtB) {
      cj = minus_transposed_product<K, M>(a, lda, Eigen::Map<const Vector<K>>(b + static_cast<long>(j) * ldb), cj);
    } else {
      // Coefficient q of column j of B (A B), or of row j of B (A B^T).
      const double* bj = op == Op::AB ? b + static_cast<long>(j) * ldb : b + j;
      const long step = op == Op::AB ? 1 : ldb;
      Column sum = cj;
      for (int q = 0; q < K; ++q) sum -= Eigen::Map<const Column>(a + static_cast<long>(q) * lda) * bj[q * step];
      cj = sum;
    }
  }
}

template <int K>
void negate_in_place(int n, const double* a, double* c) {
  using Column = Eigen::Matrix<double, K, 1>;
  for (int j = 0; j < n; ++j) {
    Eigen::Map<Column> cj(c + static_cast<long>(j) * K);
    const Column x = cj;
    Column sum = Column::Zero();
    for (int q = 0; q < K; ++q) sum -= Eigen::Map<const Column>(a + static_cast<long>(q) * K) * x[q];
    cj = sum;
  }
}

// Rows [0, R) of C: the R x K strip is loaded once, then each new column is
// a sum of K scaled old columns, as in fixed<Op::ABt, R, K> from zero.
template <int R, int K, bool lower>
void negate_strip_transposed(const double* p, double* c, int ldc, double* keep, int ldkeep) {
  using Column = Eigen::Matrix<double, R, 1>;
  Eigen::Matrix<double, R, K> old;
  for (int q = 0; q < K; ++q) old.col(q) = Eigen::Map<const Column>(c + static_cast<long>(q) * ldc);
  if (keep)
    for (int q = 0; q < K; ++q) Eigen::Map<Column>(keep + static_cast<long>(q) * ldkeep) = old.col(q);
  for (int j = 0; j < K; ++j) {
    Column sum = Column::Zero();
    for (int q = 0; q < (lower ? j + 1 : K); ++q) sum -= old.col(q) * p[j + q * K];
    Eigen::Map<Column>(c + static_cast<long>(j) * ldc) = sum;
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

// Blocks past the fixed-size kernels' sizes: tiles of them, or past
// kMaxTiled Eigen's product (below).
template <Op op>
void large_product(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);

template <Op op, int M>
void on_k(int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  if constexpr (M >= 3 && op != Op::AtB)
    if (k >= 1 && k <= kMaxFixed && wide::enabled())
      return wide::minus_products[op == Op::ABt][M - 3][k - 1](n, a, lda, b, ldb, c, ldc);
  switch (k) {
    case 1: return fixed<op, M, 1>(n, a, lda, b, ldb, c, ldc);
    case 2: return fixed<op, M, 2>(n, a, lda, b, ldb, c, ldc);
    case 3: return fixed<op, M, 3>(n, a, lda, b, ldb, c, ldc);
    case 4: return fixed<op, M, 4>(n, a, lda, b, ldb, c, ldc);
    case 5: return fixed<op, M, 5>(n, a, lda, b, ldb, c, ldc);
    case 6: return fixed<op, M, 6>(n, a, lda, b, ldb, c, ldc);
    default: return large_product<op>(M, k, n, a, lda, b, ldb, c, ldc);
  }
}

// Out of line, as large_product(): the public wrappers below are then each a
// jump (with either inlined into them, they saved registers and set up a
// frame on every call, and 3x3 nets took 4-11% more instructions).
template <Op op>
__attribute__((noinline)) void product(int m, int k, int n, const double* a, int lda, const double* b, int ldb,
                                       double* c, int ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  if (k <= kMaxFixed && m > kMaxFixed && (m <= 8 * kMaxFixed || n <= kMaxFixed)) {
    // Tall panels: strips of fixed-size rows. Past 48 rows only when C is
    // narrow too (a panel's rows of R times one pivot block, hundreds of rows
    // by six): Eigen's general product packed both operands for it, 4.5% of a
    // 10^3 crystal's LLT factorization, where the strips stream A and C once.
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
    default: return large_product<op>(m, k, n, a, lda, b, ldb, c, ldc);
  }
}

// Splits `total` into the fewest pieces of at most kMaxFixed, as even as
// they go (7 -> 4 + 3, 13 -> 5 + 4 + 4): a strip of one or two rows would
// run on scalars, or miss the wide kernels, which start at three.
struct Tiles {
  int count, base, longer;  // `longer` pieces of base + 1, then base
  explicit Tiles(int total)
      : count((total + kMaxFixed - 1) / kMaxFixed), base(total / count), longer(total - base * count) {}
  int length(int piece) const { return base + (piece < longer ? 1 : 0); }
};

// Blocks past kMaxFixed in inner dimension, or in rows past the tall
// panels' strips, up to kMaxTiled: as tiles of the fixed-size kernels.
// Eigen's general product packs its operands and dispatches per call, which
// cost blocks of 7 to 24 rows up to 5 times the arithmetic's time (a chain
// of 7x7 blocks ran at a fifth of the speed of a 6x6 one). Measured on
// chains of blocks up to 128 rows, the tiles were faster than Eigen's
// product at every size with the wide kernels, and as fast from 48 rows up
// with the portable ones; past 96 rows Eigen's cache blocking is kept.
constexpr int kMaxTiled = 16 * kMaxFixed;

template <Op op>
__attribute__((noinline)) void large_product(int m, int k, int n, const double* a, int lda, const double* b, int ldb,
                                             double* c, int ldc) {
  if (m > kMaxTiled || k > kMaxTiled) return dynamic<op>(m, k, n, a, lda, b, ldb, c, ldc);
  const Tiles rows(m), inner(k);
  for (int ti = 0, i = 0; ti < rows.count; i += rows.length(ti++))
    for (int tq = 0, q = 0; tq < inner.count; q += inner.length(tq++)) {
      const double* aiq = op == Op::AtB ? a + q + static_cast<long>(i) * lda : a + i + static_cast<long>(q) * lda;
      const double* bq = op == Op::ABt ? b + static_cast<long>(q) * ldb : b + q;
      product<op>(rows.length(ti), inner.length(tq), n, aiq, lda, bq, ldb, c + i, ldc);
    }
}

// In-place inverse of a small block by Gauss-Jordan elimination with partial
// (row) pivoting. Two layouts of the working copy, chosen by measurement:
// row-major (row operations contiguous) is the faster at K = 3 (45 against
// 65 ns), column-major (each column update one vector operation) at every
// other size (2x at K = 6).
// Both return the pivot ratio, 0 if a pivot is exactly zero or not finite.

// Row-major; the column swaps at the end undo the row interchanges.
template <int K>
double gauss_jordan_rows(double* d, int ldd, double input_scale, double tolerance) {
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
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  for (int j = K - 1; j >= 0; --j)
    if (swap_with[j] != j)
      for (int i = 0; i < K; ++i) std::swap(a[i][j], a[i][swap_with[j]]);
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) d[i + j * ldd] = -a[i][j];
  return ratio;
}

// Column-major; the row interchanges are undone on the columns of the result
// when it is written back. Every loop has compile-time bounds and unrolls,
// so the columns are whole vectors (see cholesky_columns): 970
// instructions per 6x6 inverse against 1190 with run-time bounds. A 6x6
// block still needs more SSE2 registers than there are, so its columns
// spill; wide_kernels.cpp holds them in AVX registers.
template <int K>
double gauss_jordan_columns(double* d, int ldd, double input_scale, double tolerance) {
  using Column = Eigen::Matrix<double, K, 1>;
  Column a[K];  // a[j]: column j
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) a[j] = Eigen::Map<const Column>(d + static_cast<long>(j) * ldd);
  int row_of[K];  // row j of the working copy is row row_of[j] of the input
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) row_of[i] = i;
  double smallest = 1e308, largest = input_scale;
  bool regular = true;  // decided at the end: an early exit would stop the unrolling
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    int p = j;
    double best = std::abs(a[j][j]);
#pragma GCC unroll 8
    for (int i = 0; i < K; ++i) {
      const double v = std::abs(a[j][i]);
      if (i > j && v > best) best = v, p = i;
    }
    if (p != j) {
#pragma GCC unroll 8
      for (int c = 0; c < K; ++c) std::swap(a[c][j], a[c][p]);
      std::swap(row_of[j], row_of[p]);
    }
    const double pivot = a[j][j];
    regular = track_pivot(pivot, smallest, largest) && regular;
    const double inverse = 1.0 / pivot;
    Column multiplier = a[j] * inverse;  // of row j, for every other row
    multiplier[j] = 0.0;
#pragma GCC unroll 8
    for (int c = 0; c < K; ++c) {
      if (c == j) continue;
      const double r = a[c][j];
      a[c] -= multiplier * r;
      a[c][j] = r * inverse;
    }
    a[j] = -multiplier;
    a[j][j] = inverse;
  }
  if (!regular) return 0.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  // a = (P A)^{-1} = A^{-1} P^T: its column j is column row_of[j] of A^{-1}.
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) Eigen::Map<Column>(d + static_cast<long>(row_of[j]) * ldd) = -a[j];
  return ratio;
}

// 3 x 3 from cofactors, -adj(A) / det(A): nine independent 2 x 2
// determinants and one division, where Gauss-Jordan waits on three pivot
// searches and divisions in a row (7-10% off whole chains and trees of 3 x 3
// blocks). The pivot ratio is still that of partial pivoting: the
// pivots come from a short side elimination that the inverse does not wait
// on. Entries far from 1 (whose products could leave the double range) and a
// zero or subnormal determinant go to Gauss-Jordan instead.
double cofactor_negated_inverse3(double* d, int ldd, double input_scale, double tolerance) {
  const auto a = [&](int i, int j) { return d[i + j * ldd]; };
  double largest_entry = 0.0;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) largest_entry = std::max(largest_entry, std::abs(a(i, j)));
  if (!(largest_entry > 1e-90 && largest_entry < 1e90)) return gauss_jordan_rows<3>(d, ldd, input_scale, tolerance);
  double c[3][3];  // c[i][j]: cofactor of a(i, j)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      c[i][j] = a(i1, j1) * a(i2, j2) - a(i1, j2) * a(i2, j1);
    }
  const double det = a(0, 0) * c[0][0] + a(0, 1) * c[0][1] + a(0, 2) * c[0][2];
  if (!(std::abs(det) >= std::numeric_limits<double>::min())) return gauss_jordan_rows<3>(d, ldd, input_scale, tolerance);
  // Partial pivoting's pivots u1, u2 and |u3| = |det| / (|u1| |u2|).
  int p = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(a(i, 0)) > std::abs(a(p, 0))) p = i;
  const int r = p == 0 ? 1 : 0, s = p == 2 ? 1 : 2;
  const double u1 = a(p, 0);
  const double br = a(r, 1) - a(r, 0) / u1 * a(p, 1), bs = a(s, 1) - a(s, 0) / u1 * a(p, 1);
  const double u2 = std::abs(bs) > std::abs(br) ? bs : br;
  double smallest = 1e308, largest = input_scale;
  if (!track_pivot(u1, smallest, largest) || !track_pivot(u2, smallest, largest) ||
      !track_pivot(det / (u1 * u2), smallest, largest))
    return 0.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  // Each column as a pair and a single, the pieces in which the wide
  // kernels read it back (a load across two stores waits for both).
  const double negated_inverse_det = -1.0 / det;
  for (int j = 0; j < 3; ++j) {
    Eigen::Map<Eigen::Vector2d>(d + j * ldd) = Eigen::Vector2d(c[j][0], c[j][1]) * negated_inverse_det;
    d[2 + j * ldd] = c[j][2] * negated_inverse_det;
  }
  return ratio;
}

// -D^{-1} with the pivot ratio of LU with partial pivoting, by the fastest
// kernel for the size.
template <int K>
double lu_negated_inverse(double* d, int ldd, double input_scale, double tolerance) {
  if constexpr (K == 3)
    return cofactor_negated_inverse3(d, ldd, input_scale, tolerance);
  else
    return gauss_jordan_columns<K>(d, ldd, input_scale, tolerance);
}

// 1 below row j, 0 on and above it: multiplied in, it clears a column's
// upper part without a store per coefficient.
template <int K>
Eigen::Matrix<double, K, 1> below_diagonal(int j) {
  Eigen::Matrix<double, K, 1> mask;
  for (int i = 0; i < K; ++i) mask[i] = i > j ? 1.0 : 0.0;
  return mask;
}

// D = C C^T, then D <- -C^{-1} (lower triangular). Returns the squared pivot
// ratio, or -1 if D is not positive definite. Factorized as D = L diag(p) L^T
// first: then each elimination step waits on one division, not on a square
// root and a division, and the roots sqrt(p_j) (C = L diag(p)^(1/2)) are
// taken off that chain at the end (2x faster at K = 6: 73 against 144 ns).
// Every loop has compile-time bounds and unrolls, so the columns stay in
// registers as whole vectors: 535 instructions at K = 6, where a version
// with run-time bounds kept its columns on the stack and took 973. That
// count is what matters: a factorization of a 6x6 chain is bound by its
// instructions (about 3500 per node, run in 177 ns), not by this chain of
// divisions; 16% off LLT refactor + solve of 6x6 chains, trees and ladders.
template <int K>
double cholesky_columns(double* d, int ldd, double input_scale, double tolerance) {
  using Column = Eigen::Matrix<double, K, 1>;
  Column a[K];  // a[j]: column j of D; only the part below the diagonal is read
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) a[j] = Eigen::Map<const Column>(d + static_cast<long>(j) * ldd);
  Column l[K];  // l[j]: column j of L below the diagonal, zeros above and on it
  Column inverse_pivot;
  double smallest = 1e308, largest = input_scale;  // pivots p_j are the squared roots
  bool definite = true;  // decided at the end: an early exit would stop the unrolling
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    const double pivot = a[j][j];
    definite = track_positive_pivot(pivot, smallest, largest) && definite;
    inverse_pivot[j] = 1.0 / pivot;
    l[j] = (a[j] * inverse_pivot[j]).cwiseProduct(below_diagonal<K>(j));
#pragma GCC unroll 8
    for (int c = j + 1; c < K; ++c) a[c] -= l[j] * a[j][c];
  }
  if (!definite) return -1.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  // Column j of L^{-1} (unit lower) by forward substitution on e_j, then
  // -C^{-1} = -diag(p)^(-1/2) L^{-1}: each column scaled by the same vector.
  const Column scale = -inverse_pivot.cwiseSqrt();
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    Column x = Column::Unit(j);
#pragma GCC unroll 8
    for (int q = j; q + 1 < K; ++q) x -= l[q] * x[q];
    Eigen::Map<Column>(d + static_cast<long>(j) * ldd) = x.cwiseProduct(scale);
  }
  return ratio;
}

// 3 x 3 by the same D = L diag(p) L^T, its divisions regrouped: the loop
// above divides by p1 = d11, then by p2, then by p3, each waiting on the
// last. Here p2 = det2 / d11, with det2 = d11 d22 - d21^2 the leading 2 x 2
// minor (p1 p2), so 1/d11 and 1/det2 are taken side by side, and 1/sqrt(p3)
// is sqrt(p3) / p3, the root beside the division instead of after it.
// Every product a rounding of the loop's own (det2 / d11 for d22 - l21 d21,
// whose error is as small: d21^2 <= d11 d22); the other entries as there.
double cholesky_negated_inverse3(double* d, int ldd, double input_scale, double tolerance) {
  const auto a = [&](int i, int j) { return d[i + j * ldd]; };  // the lower triangle only
  const double d11 = a(0, 0), d21 = a(1, 0), d31 = a(2, 0), d22 = a(1, 1), d32 = a(2, 1), d33 = a(2, 2);
  const double det2 = d11 * d22 - d21 * d21;
  // A minor beyond the comfortable range of double (entries past about
  // 1e145 or below 1e-145; or not positive): the loop decides.
  if (!(det2 > 1e-290 && det2 < 1e290)) return cholesky_columns<3>(d, ldd, input_scale, tolerance);
  const double inverse_p1 = 1.0 / d11, inverse_det2 = 1.0 / det2;
  const double l21 = d21 * inverse_p1, l31 = d31 * inverse_p1;
  const double m32 = d32 - l31 * d21;  // row 2 of column 1 after the first step
  const double p2 = det2 * inverse_p1, inverse_p2 = d11 * inverse_det2;
  const double l32 = m32 * inverse_p2;
  const double p3 = (d33 - l31 * d31) - l32 * m32;
  double smallest = 1e308, largest = input_scale;
  bool definite = true;
  for (const double pivot : {d11, p2, p3}) definite = track_positive_pivot(pivot, smallest, largest) && definite;
  if (!definite) return -1.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  // -C^{-1} = diag(s) L^{-1}, s_i = -1/sqrt(p_i), with L^{-1} = [1 0 0; -l21 1
  // 0; l21 l32 - l31, -l32, 1]. Each column as a pair and a single, the
  // pieces in which the edge kernels read it back.
  const double s1 = -std::sqrt(inverse_p1), s2 = -std::sqrt(inverse_p2), s3 = -std::sqrt(p3) * (1.0 / p3);
  Eigen::Map<Eigen::Vector2d>{d} = Eigen::Vector2d(s1, -l21 * s2);
  d[2] = (l21 * l32 - l31) * s3;
  Eigen::Map<Eigen::Vector2d>(d + ldd) = Eigen::Vector2d(0.0, s2);
  d[2 + ldd] = -l32 * s3;
  Eigen::Map<Eigen::Vector2d>(d + 2 * ldd) = Eigen::Vector2d(0.0, 0.0);
  d[2 + 2 * ldd] = s3;
  return ratio;
}

template <int K>
double cholesky_negated_inverse(double* d, int ldd, double input_scale, double tolerance) {
  if constexpr (K == 3)
    return cholesky_negated_inverse3(d, ldd, input_scale, tolerance);
  else
    return cholesky_columns<K>(d, ldd, input_scale, tolerance);
}

template <int K>
double invert(double* d, int ldd, const double* row_magnitudes, double tolerance, bool cholesky) {
  const double input_scale = Eigen::Map<const Eigen::Array<double, K, 1>>(row_magnitudes).maxCoeff();
  if constexpr (K >= 5)
    if (wide::enabled())
      return cholesky ? wide::cholesky(K, d, ldd, input_scale, tolerance)
                      : wide::gauss_jordan(K, d, ldd, input_scale, tolerance);
  return cholesky ? cholesky_negated_inverse<K>(d, ldd, input_scale, tolerance)
                  : lu_negated_inverse<K>(d, ldd, input_scale, tolerance);
}

// Calls f with m as a compile-time constant, 1 <= m <= kMaxFusedEdge.
template <class F>
auto with_edge_size(int m, F&& f) {
  static_assert(kMaxFusedEdge == 4, "one case per size");
  switch (m) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    default: std::abort();  // callers check the size
  }
}

template <int B, int C>
void edge_ldu(const double* p, double* u, const double* l, double* d, double* rows) {
  double scaled[B * C] = {};
  fixed<Op::AB, B, B>(C, p, B, u, B, scaled, B);  // -P U
  std::copy(scaled, scaled + B * C, u);
  fixed<Op::AB, C, B>(C, l, C, scaled, B, d, C);
  widen_row_magnitudes<C>(d, rows);
}

template <int B, int C>
void edge_symmetric(const double* p, double* l, double* d, bool cholesky, double* rows) {
  double original[C * B], scaled[C * B] = {};
  std::copy(l, l + C * B, original);
  fixed<Op::ABt, C, B>(B, original, C, p, B, scaled, C);  // -L P^T
  std::copy(scaled, scaled + C * B, l);
  fixed<Op::ABt, C, B>(C, scaled, C, cholesky ? scaled : original, C, d, C);
  widen_row_magnitudes<C>(d, rows);
}

}  // namespace

bool fuses_edge(int b, int c) {
  const int most = wide::enabled() ? kMaxFixed : kMaxFusedEdge;
  return b >= 1 && b <= most && c >= 1 && c <= most;
}

namespace {
// A size above kMaxFusedEdge got here through fuses_edge() with the wide
// kernels on: they stay the ones to call even if another thread has just
// switched to the portable ones (use_kernels), which cannot take it.
bool takes_wide_edge(int b, int c) { return b > kMaxFusedEdge || c > kMaxFusedEdge || wide::enabled(); }
}  // namespace

void eliminate_edge_ldu(int b, int c, const double* p, double* u, const double* l, double* d, double* rows) {
  if (takes_wide_edge(b, c)) return wide::edge_ldu(b, c, p, u, l, d, rows);
  with_edge_size(b, [&](auto bs) {
    with_edge_size(c, [&](auto cs) { edge_ldu<bs(), cs()>(p, u, l, d, rows); });
  });
}

void eliminate_edge_symmetric(int b, int c, const double* p, double* l, double* d, bool cholesky, double* rows) {
  if (takes_wide_edge(b, c)) return wide::edge_symmetric(b, c, p, l, d, cholesky, rows);
  with_edge_size(b, [&](auto bs) {
    with_edge_size(c, [&](auto cs) { edge_symmetric<bs(), cs()>(p, l, d, cholesky, rows); });
  });
}

void sub_ab(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  product<Op::AB>(m, k, n, a, lda, b, ldb, c, ldc);
}
void sub_abt(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  product<Op::ABt>(m, k, n, a, lda, b, ldb, c, ldc);
}
void sub_atb(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  product<Op::AtB>(m, k, n, a, lda, b, ldb, c, ldc);
}


bool negate_product_in_place(int k, int n, const double* a, double* c) {
  if (k < 1 || k > kMaxFixed) return false;
  if (k >= 3 && wide::enabled()) {
    wide::negate_product_in_place(k, n, a, c);
    return true;
  }
  with_height(k, [&](auto size) {
    if constexpr (is_fixed_height<decltype(size)>) negate_in_place<decltype(size)::value>(n, a, c);
  });
  return true;
}

bool negate_product_transposed_in_place(int m, int k, const double* p, double* c, int ldc, double* keep, int ldkeep,
                                        bool lower_triangular) {
  if (k < 1 || k > kMaxFixed) return false;
  // Six rows per strip: each coefficient of P is broadcast once per six rows.
  // Two-row strips, which fit in SSE2 registers without spilling, measured
  // 8% more instructions on 6x6 chains.
  constexpr int kStrip = 6;
  with_height(k, [&](auto size) {
    if constexpr (is_fixed_height<decltype(size)>) {
      constexpr int K = decltype(size)::value;
      const auto strips = [&](auto lower) {
        int i = 0;
        if (wide::enabled())
          for (; i + kStrip <= m; i += kStrip)
            wide::negate_strip_transposed(K, p, c + i, ldc, keep ? keep + i : nullptr, ldkeep, lower());
        for (; i + kStrip <= m; i += kStrip)
          negate_strip_transposed<kStrip, K, lower()>(p, c + i, ldc, keep ? keep + i : nullptr, ldkeep);
        for (; i < m; ++i) negate_strip_transposed<1, K, lower()>(p, c + i, ldc, keep ? keep + i : nullptr, ldkeep);
      };
      if (lower_triangular)
        strips(std::true_type{});
      else
        strips(std::false_type{});
    }
  });
  return true;
}

void set_zero(int m, int n, double* c, int ldc) {
  with_height(m, [&](auto height) { zero_columns(height, n, c, ldc); });
}

namespace {
// f(a_j, c_j) for each of the n columns of two m-row blocks, as Eigen
// vectors: of fixed size where with_height fixes m, so that they go in pairs
// of rows (GCC left plain loops over such columns scalar, and the LDU
// refactor + solve of nets and crystals ran 2-8% slower).
template <class Height>
constexpr int compile_time_rows() {
  if constexpr (is_fixed_height<Height>)
    return Height::value;
  else
    return Eigen::Dynamic;
}

template <class Source, class F>
void column_pairs(int m, int n, Source* a, int lda, double* c, int ldc, F&& f) {
  with_height(m, [&](auto height) {
    constexpr int kRows = compile_time_rows<decltype(height)>();
    using Column = std::conditional_t<std::is_const_v<Source>, const Eigen::Matrix<double, kRows, 1>,
                                      Eigen::Matrix<double, kRows, 1>>;
    for (int j = 0; j < n; ++j)
      f(Eigen::Map<Column>(a + static_cast<long>(j) * lda, height),
        Eigen::Map<Eigen::Matrix<double, kRows, 1>>(c + static_cast<long>(j) * ldc, height));
  });
}
}  // namespace

void copy(int m, int n, const double* a, int lda, double* c, int ldc) {
  column_pairs(m, n, a, lda, c, ldc, [](const auto& column_a, auto column_c) { column_c = column_a; });
}

void subtract_and_clear(int m, int n, double* a, int lda, double* c, int ldc) {
  column_pairs(m, n, a, lda, c, ldc, [](auto column_a, auto column_c) {
    column_c -= column_a;
    column_a.setZero();
  });
}

namespace {
template <int K, bool kCholesky>
double invert_contiguous(double* d, const double* row_magnitudes, double tolerance) {
  return invert<K>(d, K, row_magnitudes, tolerance, kCholesky);
}
double invert_empty(double*, const double*, double) { return 1.0; }
}  // namespace

SmallPivotKernel small_pivot_kernel(int k, bool cholesky) {
  static_assert(kMaxFixed == 6, "one kernel per size");
  static constexpr SmallPivotKernel lu[] = {&invert_empty,
                                            &invert_contiguous<1, false>,
                                            &invert_contiguous<2, false>,
                                            &invert_contiguous<3, false>,
                                            &invert_contiguous<4, false>,
                                            &invert_contiguous<5, false>,
                                            &invert_contiguous<6, false>};
  static constexpr SmallPivotKernel llt[] = {&invert_empty,
                                             &invert_contiguous<1, true>,
                                             &invert_contiguous<2, true>,
                                             &invert_contiguous<3, true>,
                                             &invert_contiguous<4, true>,
                                             &invert_contiguous<5, true>,
                                             &invert_contiguous<6, true>};
  if (k < 0 || k > kMaxFixed) return nullptr;
  return cholesky ? llt[k] : lu[k];
}

}  // namespace graphsolve::kernels
