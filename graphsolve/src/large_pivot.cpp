// Pivot blocks above kMaxFixed rows: the fixed-size kernels' algorithms
// (block_kernels.cpp) with run-time bounds, on a copy in caller-provided
// work space. Eigen's dynamic LU and LLT, with the triangular solves that
// formed the inverse, packed their operands for blocked products that
// blocks this small never amortize: they took three quarters of a 7x7
// chain's factorization.
//
// The copy's columns are padded with zero rows to a multiple of four, and
// every column operation runs on whole chunks of four rows: a vector loop
// without a scalar remainder or an alignment prologue, which is most of
// the cost of a column of 7 to 20 rows. The zero rows stay zero (their
// multipliers are zero) and are never chosen as pivots.
#include <algorithm>
#include <cmath>
#include <utility>

#include <Eigen/Core>

#include "block_kernels.hpp"
#include "wide_kernels.hpp"

namespace graphsolve::kernels {

namespace {

using Chunk = Eigen::Matrix<double, kLargePivotChunk, 1>;

// The k x k block d as the leading part of a column-major work array of
// `rows` = padded_rows(k) rows, zero below row k. In chunks and single
// values: a loop of run-time length would become a call to memmove.
void load_padded(int k, const double* d, int ldd, int rows, double* work) {
  const int whole = k / kLargePivotChunk * kLargePivotChunk;
  for (int j = 0; j < k; ++j) {
    const double* from = d + static_cast<long>(j) * ldd;
    double* to = work + static_cast<long>(j) * rows;
    for (int i = 0; i < whole; i += kLargePivotChunk) Eigen::Map<Chunk>(to + i) = Eigen::Map<const Chunk>(from + i);
    if (whole == rows) continue;
    Eigen::Map<Chunk>(to + whole).setZero();
    for (int i = whole; i < k; ++i) to[i] = from[i];
  }
}

// y_c -= x * (coefficients[c * stride] * scale) for `count` columns y_c = y
// + c * ld, on rows [first, rows) (multiples of the chunk): the whole
// arithmetic of both pivot kernels, one call per elimination step, by the
// wide kernels (one fused multiply-add per chunk) where they run.
void update_columns(int first, int rows, const double* x, const double* coefficients, long stride, double scale,
                    double* y, long ld, int count) {
  if (wide::enabled()) return wide::update_columns(first, rows, x, coefficients, stride, scale, y, ld, count);
  for (int c = 0; c < count; ++c) {
    const double s = coefficients[c * stride] * scale;
    double* column = y + c * ld;
    for (int i = first; i < rows; i += kLargePivotChunk)
      Eigen::Map<Chunk>(column + i) -= Eigen::Map<const Chunk>(x + i) * s;
  }
}

// The first row of the chunk that holds row i.
inline int chunk_start(int i) { return i / kLargePivotChunk * kLargePivotChunk; }

// -D^{-1} by Gauss-Jordan with partial pivoting, column-major as
// gauss_jordan_columns: the working copy's rows are exchanged as the pivots
// are chosen, and the exchanges undone on the result's columns.
double gauss_jordan(int k, double* d, int ldd, double input_scale, double tolerance, double* work, int* row_of) {
  const int rows = padded_rows(k);
  double* multiplier = work + static_cast<long>(rows) * k;
  const auto column = [&](int j) { return work + static_cast<long>(j) * rows; };
  load_padded(k, d, ldd, rows, work);
  for (int j = 0; j < k; ++j) row_of[j] = j;
  double smallest = 1e308, largest = input_scale;
  for (int j = 0; j < k; ++j) {
    double* pivot_column = column(j);
    int p = j;
    double best = std::abs(pivot_column[j]);
    for (int i = j + 1; i < k; ++i)
      if (const double v = std::abs(pivot_column[i]); v > best) best = v, p = i;
    if (p != j) {
      for (int c = 0; c < k; ++c) std::swap(column(c)[j], column(c)[p]);
      std::swap(row_of[j], row_of[p]);
    }
    const double pivot = pivot_column[j];
    if (!track_pivot(pivot, smallest, largest)) return 0.0;  // d is untouched
    const double inverse = 1.0 / pivot;
    for (int i = 0; i < rows; ++i) multiplier[i] = pivot_column[i] * inverse;  // of row j, for every other row
    multiplier[j] = 0.0;
    // Every other column c takes multiplier * w_jc (which leaves w_jc as it
    // was), then w_jc becomes w_jc / pivot.
    update_columns(0, rows, multiplier, column(0) + j, rows, 1.0, column(0), rows, j);
    update_columns(0, rows, multiplier, column(j + 1) + j, rows, 1.0, column(j + 1), rows, k - j - 1);
    for (int c = 0; c < k; ++c)
      if (c != j) column(c)[j] *= inverse;
    for (int i = 0; i < rows; ++i) pivot_column[i] = -multiplier[i];
    pivot_column[j] = inverse;
  }
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // d stays for the caller's retry
  // work = (P D)^{-1} = D^{-1} P^T: its column j is column row_of[j] of D^{-1}.
  for (int j = 0; j < k; ++j) {
    const double* from = column(j);
    double* to = d + static_cast<long>(row_of[j]) * ldd;
    for (int i = 0; i < k; ++i) to[i] = -from[i];
  }
  return ratio;
}

// D = C C^T, D <- -C^{-1}, as cholesky_columns: D = L diag(p) L^T
// from the lower triangle, then -C^{-1} = -diag(p)^(-1/2) L^{-1}. Column j
// of L is kept below the diagonal with zeros on and above it from the chunk
// that holds the diagonal on, and every update starts at that chunk: the
// few rows above the diagonal it covers take updates no one reads. Returns
// the squared pivot ratio, or -1 if D is not positive definite.
double cholesky(int k, double* d, int ldd, double input_scale, double tolerance, double* work) {
  const int rows = padded_rows(k);
  double* inverse_pivot = work + static_cast<long>(rows) * k;
  const auto column = [&](int j) { return work + static_cast<long>(j) * rows; };
  load_padded(k, d, ldd, rows, work);
  double smallest = 1e308, largest = input_scale;
  for (int j = 0; j < k; ++j) {
    double* l = column(j);
    const double pivot = l[j];
    if (!(pivot > 0.0 && pivot < 1e308)) return -1.0;  // d is untouched
    smallest = std::min(smallest, pivot);
    largest = std::max(largest, pivot);
    inverse_pivot[j] = 1.0 / pivot;
    const int first = chunk_start(j);
    for (int i = first; i < first + kLargePivotChunk; ++i)
      if (i <= j) l[i] = 0.0;
    for (int i = j + 1; i < rows; ++i) l[i] *= inverse_pivot[j];
    // D_ic -= l_i p l_c for the columns c after j: the scaled l times D_cj.
    update_columns(first, rows, l, l + j + 1, 1, pivot, column(j + 1), rows, k - j - 1);
  }
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // d stays for the caller's retry
  // X = L^{-1} (unit lower) by forward substitution on the identity, a row
  // of X at a time: once rows up to q are final, every column takes the
  // update of row q independently (one column at a time, each update would
  // wait on the value the one before it stored). Then -C^{-1} is X scaled
  // row by row by -p^(-1/2); zero above the diagonal.
  double* x = inverse_pivot + rows;
  const auto x_column = [&](int j) { return x + static_cast<long>(j) * rows; };
  for (int i = 0; i < k; ++i) inverse_pivot[i] = -std::sqrt(inverse_pivot[i]);
  for (int j = 0; j < k; ++j) {
    for (int i = chunk_start(j); i < rows; i += kLargePivotChunk) Eigen::Map<Chunk>(x_column(j) + i).setZero();
    x_column(j)[j] = 1.0;
  }
  for (int q = 0; q + 1 < k; ++q) update_columns(chunk_start(q), rows, column(q), x + q, rows, 1.0, x, rows, q + 1);
  for (int j = 0; j < k; ++j) {
    double* to = d + static_cast<long>(j) * ldd;
    for (int i = 0; i < k; ++i) to[i] = i < j ? 0.0 : x_column(j)[i] * inverse_pivot[i];
  }
  return ratio;
}

}  // namespace

double invert_large_pivot(int k, double* d, int ldd, double input_scale, double tolerance, bool cholesky_pivot,
                          double* work, int* rows) {
  return cholesky_pivot ? cholesky(k, d, ldd, input_scale, tolerance, work)
                        : gauss_jordan(k, d, ldd, input_scale, tolerance, work, rows);
}

}  // namespace graphsolve::kernels
