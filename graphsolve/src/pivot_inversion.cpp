// Inverting a pivot block, and the retry of a badly scaled one.
//
// The pivot ratio min|u_ii| / max(max|u_ii|, largest magnitude) flags a block
// that is singular, or that lost its digits to cancellation, against the
// largest magnitude the block had as loaded and after each update. A
// nonsingular block whose rows differ in scale by many orders (a heavy body
// with a tiny rotational inertia, mixed units) has as small a ratio. So
// before a pivot is called singular it is scaled by the magnitudes its own
// rows had (KLU scales the rows of the whole matrix the same way) and
// inverted again: row i of D over R_i for LDU, D_ij / sqrt(R_i R_j) for the
// symmetric methods. A row that cancelled stays tiny against its own
// magnitude, so singular and cancelled pivots are still refused; a row that
// is merely small is not. Only pivots that fail the plain test pay for this.
//
// For LDU, whose columns scale independently of its rows (variables in
// other units than their equations), a block that still fails may have
// columns far apart in scale. Scaling them needs their own magnitudes on the
// way, which factorize() then keeps in a second pass (factorize.cpp); the
// last retry scales rows and columns as LAPACK's xGEEQU does.
#include <algorithm>
#include <cmath>
#include <limits>

#include "factor_storage.hpp"

namespace graphsolve {

namespace kn = kernels;

Status Factorization::Impl::retry_or_refuse_pivot(int k, double ratio, double tolerance, bool equilibrate) {
  auto refused = [&] { return ratio >= 0.0 && !(ratio >= tolerance && ratio > 0.0); };
  if (equilibrate && refused()) {
    ratio = invert_equilibrated_pivot(k, tolerance);
    if (method == Method::LDU && refused()) {
      if (tracking_columns) {
        ratio = invert_two_sided_pivot(k, tolerance);
        columns_scaled = columns_scaled || !refused();
      } else
        column_retry_wanted = columns_apart(k, ratio, tolerance);
    }
  }
  if (ratio < 0.0) return Status::NotPositiveDefinite;
  min_ratio = std::min(min_ratio, ratio);
  if (!(ratio >= tolerance) || ratio == 0.0) return Status::SingularPivot;
  return Status::Success;
}

// By the fixed-size kernels up to kMaxFixed, else by the run-time sized ones
// in the preallocated work space, against the largest of the b row
// magnitudes. Below the tolerance (or singular) the block is left as it was.
double Factorization::Impl::invert_pivot(int k, const double* row_magnitudes, double tolerance) {
  const int b = size(k);
  const bool cholesky = method == Method::LLT;
  if (b <= kn::kMaxFixed) return small_pivots[b](diag(k), row_magnitudes, tolerance);
  const double input_scale = *std::max_element(row_magnitudes, row_magnitudes + b);
  return kn::invert_large_pivot(b, diag(k), b, input_scale, tolerance, cholesky, large_pivot_work.data(),
                                large_pivot_rows.data());
}

double Factorization::Impl::invert_equilibrated_pivot(int k, double tolerance) {
  const int b = size(k);
  double* dk = diag(k);
  const double* rows = magnitudes(k);
  // The factors and the scaled block's magnitudes (all 1), in the scratch
  // the solves use (no allocation).
  double* factor = rhs_scratch.col(0).data();
  double* ones = rhs_scratch.col(1).data();
  std::fill(ones, ones + b, 1.0);
  const bool symmetric = method != Method::LDU;
  for (int i = 0; i < b; ++i) {
    if (!(rows[i] > 0.0 && rows[i] < 1e308)) return 0.0;  // a row that was always zero: singular
    factor[i] = symmetric ? 1.0 / std::sqrt(rows[i]) : 1.0 / rows[i];
  }
  // Every scaled magnitude is now at most 1 (for the symmetric methods
  // |D_ij| <= min(R_i, R_j) <= sqrt(R_i R_j)), and the pivots are measured
  // against 1.
  for (int j = 0; j < b; ++j)
    for (int i = 0; i < b; ++i) dk[i + j * b] *= symmetric ? factor[i] * factor[j] : factor[i];
  const double ratio = invert_pivot(k, ones, tolerance);
  if (!(ratio >= tolerance) || ratio <= 0.0) return ratio;
  // LDU: D_s = F D, so -D^{-1} = (-D_s^{-1}) F. LDLT: D_s = F D F, so
  // -D^{-1} = F (-D_s^{-1}) F. LLT: D_s = C_s C_s^T gives C = F^{-1} C_s, so
  // -C^{-1} = (-C_s^{-1}) F.
  for (int j = 0; j < b; ++j)
    for (int i = 0; i < b; ++i) dk[i + j * b] *= method == Method::LDLT ? factor[i] * factor[j] : factor[j];
  return ratio;
}

// Partial pivoting picks the same rows in D F_c as in D (F_c positive
// diagonal), so scaling the columns multiplies U's diagonal by F_c: it can
// raise the pivot ratio by about the columns' spread, times the growth of
// U's diagonal (at most about b for these blocks). A block whose shortfall
// is larger, or with a zero column, is singular whatever its columns.
bool Factorization::Impl::columns_apart(int k, double ratio, double tolerance) const {
  const int b = size(k);
  const double* dk = diag(k);
  double smallest = std::numeric_limits<double>::infinity(), largest = 0.0;
  for (int j = 0; j < b; ++j) {
    const double column = largest_in_column(b, dk, j);
    smallest = std::min(smallest, column);
    largest = std::max(largest, column);
  }
  return smallest > 0.0 && ratio > 0.0 && ratio * b * b * (largest / smallest) >= tolerance;
}

// On the block invert_equilibrated_pivot left, D_r = F_r D with F_r =
// diag(1 / R_i): D_s = D_r F_c with F_c = diag(1 / c_j), c_j the largest
// magnitude in column j of D_r, so that every column of D_s peaks at 1. The
// floor the pivots are measured against is what the magnitudes on the way
// become in D_s: entry (i, j) was never above min(R_i, C_j) (C_j: column j's
// largest on the way), which scales to min(1, C_j / R_i) / c_j. A column that
// cancelled, tiny now against its C_j, so raises the floor as far as its
// scaling would have raised its rounding, and stays refused.
double Factorization::Impl::invert_two_sided_pivot(int k, double tolerance) {
  const int b = size(k);
  double* dk = diag(k);
  const double* rows = magnitudes(k);
  const double* columns = column_magnitudes(k);
  double* column_factor = rhs_scratch.col(0).data();
  double* floor = rhs_scratch.col(1).data();
  double smallest_row = std::numeric_limits<double>::infinity();
  for (int i = 0; i < b; ++i) {
    if (!(rows[i] > 0.0 && rows[i] < 1e308)) return 0.0;  // invert_equilibrated_pivot left it unscaled
    smallest_row = std::min(smallest_row, rows[i]);
  }
  double scale = 1.0;
  for (int j = 0; j < b; ++j) {
    const double column = largest_in_column(b, dk, j);
    column_factor[j] = 1.0 / column;
    if (!(column > 0.0 && std::isfinite(column_factor[j]))) return 0.0;
    scale = std::max(scale, std::min(1.0, columns[j] / smallest_row) * column_factor[j]);
  }
  for (int j = 0; j < b; ++j)
    for (int i = 0; i < b; ++i) dk[i + j * b] *= column_factor[j];
  std::fill(floor, floor + b, scale);
  const double ratio = invert_pivot(k, floor, tolerance);
  if (!(ratio >= tolerance) || ratio <= 0.0) return ratio;
  // D_s = F_r D F_c, so -D^{-1} = F_c (-D_s^{-1}) F_r. An inverse beyond the
  // range of double cannot be used: singular as far as the solves go.
  for (int j = 0; j < b; ++j)
    for (int i = 0; i < b; ++i) {
      double& entry = dk[i + j * b];
      entry = entry * column_factor[i] / rows[j];
      if (!std::isfinite(entry)) return 0.0;
    }
  return ratio;
}

}  // namespace graphsolve
