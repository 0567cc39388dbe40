// Forward and backward substitution over the factor, in place on the
// caller's right-hand sides (node rows at their original offsets, so no
// permutation copy). The diagonal slots hold P_k = -D_k^{-1} (or -C_k^{-1}),
// so applying a pivot is "y <- 0 - P_k * copy(y)". Columns are processed in
// chunks that fit the preallocated scratch, so solves never allocate.
//
// LDU stores A = (D + L) (I + U): L holds the eliminated couplings A_ck and U
// the scaled ones D_k^{-1} A_kc. The transposed system A^T = (I + U)^T (D + L)^T
// runs the same sweeps with U^T forward and L^T, then D^{-T}, backward: the
// pattern of an LLT solve. LDLT and LLT factor symmetric matrices, whose
// transposed solve is the solve itself.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "factor_storage.hpp"
#include "memory_overlap.hpp"

namespace graphsolve {

namespace kn = kernels;

namespace {
// x * 0 is NaN exactly for NaN and Inf; Eigen vectorizes the sum, not allFinite().
bool all_finite(const Eigen::Ref<const Eigen::MatrixXd>& m) { return (m.array() * 0.0).sum() == 0.0; }
}  // namespace

void Factorization::Impl::solve_columns(Eigen::Ref<Eigen::MatrixXd> x, bool transposed) {
  const int n = static_cast<int>(d->order.size());
  const int m = static_cast<int>(x.cols());
  transposed = transposed && method == Method::LDU;
  // The vector path serves the plain solve, the Newton loops' hot path; a
  // transposed solve of one column takes the general path below (doubling
  // the vector path's fixed-size instantiations doubled its compile time).
  if (m == 1 && !transposed && all_scalar) return solve_scalars(x.data());
  if (m == 1 && !transposed && solves_vectors_fixed()) return solve_vector(x.data());
  const int ldx = static_cast<int>(x.outerStride());
  double* tmp = rhs_scratch.data();
  auto rows = [&](int k) { return x.data() + row_off[k]; };
  // y_k <- 0 - P * y_k, or with P^T.
  auto apply_pivot = [&](int k, bool pivot_transposed) {
    const int b = size(k);
    kn::copy(b, m, rows(k), ldx, tmp, b);
    kn::set_zero(b, m, rows(k), ldx);
    if (pivot_transposed)
      kn::sub_atb(b, b, m, diag(k), b, tmp, b, rows(k), ldx);
    else
      kn::sub_ab(b, b, m, diag(k), b, tmp, b, rows(k), ldx);
  };
  auto skip = [&](int k) { return !active[k] || size(k) == 0; };

  const bool pivot_first = method == Method::LLT || (method == Method::LDU && !transposed);
  const bool pivot_last = method == Method::LLT || transposed;
  // Forward: y_c -= L_k(c) y_k (or U_k(c)^T y_k), after applying the pivot first for LDU/LLT.
  for (int k = 0; k < n; ++k) {
    if (skip(k)) continue;
    const int b = size(k);
    if (pivot_first) apply_pivot(k, false);
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
      const int c = d->struct_pos[e];
      if (!active[c]) continue;
      if (transposed)
        kn::sub_atb(size(c), b, m, upper(k, e), upper_ld(k), rows(k), ldx, rows(c), ldx);
      else
        kn::sub_ab(size(c), b, m, lower(k, e), lower_ld(k), rows(k), ldx, rows(c), ldx);
    }
  }
  // Backward: y_k -= U_k(c) x_c (LDU), or D^{-1} then L^T (LDLT), or L^T then
  // C^{-T} (LLT) or D^{-T} (transposed LDU).
  for (int k = n - 1; k >= 0; --k) {
    if (skip(k)) continue;
    const int b = size(k);
    if (method == Method::LDLT) apply_pivot(k, false);
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
      const int c = d->struct_pos[e];
      if (!active[c]) continue;
      if (method == Method::LDU && !transposed)
        kn::sub_ab(b, size(c), m, upper(k, e), upper_ld(k), rows(c), ldx, rows(k), ldx);
      else
        kn::sub_atb(b, size(c), m, lower(k, e), lower_ld(k), rows(c), ldx, rows(k), ldx);
    }
    if (pivot_last) apply_pivot(k, true);
  }
}

Status Factorization::Impl::solve_checked(Eigen::Ref<Eigen::MatrixXd> rhs, bool transposed) {
  if (status != Status::Success) return Status::NotFactorized;
  if (rhs.rows() != d->pattern->dimension) return Status::DimensionMismatch;
  if (!all_finite(rhs)) return Status::NonFiniteValue;
  for (Eigen::Index c = 0; c < rhs.cols(); c += kRhsChunk)
    solve_columns(rhs.middleCols(c, std::min<Eigen::Index>(kRhsChunk, rhs.cols() - c)), transposed);
  // Finite A and b can still overflow (b near DBL_MAX, a pivot that passed
  // the rcond test but is tiny): say so rather than hand back Inf as success.
  return all_finite(rhs) ? Status::Success : Status::NonFiniteSolution;
}

Status Factorization::Impl::solve_into(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x,
                                       bool transposed) {
  if (x.rows() != rhs.rows() || x.cols() != rhs.cols()) return Status::DimensionMismatch;
  if (!detail::same_view(rhs, x)) {  // the same view solves in place
    if (detail::views_overlap(rhs, x))
      throw std::invalid_argument(
          "graphsolve::Factorization: x and the right-hand side overlap in memory without being the same matrix: "
          "pass separate ones, or the same one to solve in place");
    x = rhs;
  }
  return solve_checked(x, transposed);
}

Status Factorization::solve_in_place(Eigen::Ref<Eigen::MatrixXd> rhs) { return impl().solve_checked(rhs, false); }

Status Factorization::solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x) {
  return impl().solve_into(rhs, x, false);
}

Status Factorization::solve_transposed_in_place(Eigen::Ref<Eigen::MatrixXd> rhs) {
  return impl().solve_checked(rhs, true);
}

Status Factorization::solve_transposed(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x) {
  return impl().solve_into(rhs, x, true);
}

Status Factorization::solve_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                                    Eigen::Ref<Eigen::MatrixXd> x, int steps) {
  return impl().solve_refined(matrix, rhs, x, steps, false);
}

Status Factorization::solve_transposed_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                                               Eigen::Ref<Eigen::MatrixXd> x, int steps) {
  return impl().solve_refined(matrix, rhs, x, steps, true);
}

Status Factorization::Impl::solve_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                                          Eigen::Ref<Eigen::MatrixXd> x, int steps, bool transposed) {
  if (!matrix.pattern().same_as(*d->pattern)) return Status::DimensionMismatch;
  if (steps > 0 && detail::same_view(rhs, x)) {
    // In place: solving a column overwrites its right-hand side, which its
    // refinement reads, so each column keeps a copy while it is solved.
    if (x.rows() != d->pattern->dimension) return Status::DimensionMismatch;
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      kept_rhs = x.col(c);
      if (const Status s = solve_checked(x.col(c), transposed); s != Status::Success) return s;
      refine_column(matrix, kept_rhs, x.col(c), steps, transposed);
    }
  } else {
    if (const Status s = solve_into(rhs, x, transposed); s != Status::Success) return s;
    for (Eigen::Index c = 0; c < x.cols(); ++c) refine_column(matrix, rhs.col(c), x.col(c), steps, transposed);
  }
  return all_finite(x) ? Status::Success : Status::NonFiniteSolution;
}

// As LAPACK's refinement does: stop once a round no longer halves the
// residual, and undo a round that did not lower it at all (a factorization
// of a shifted singular matrix can push x along A's null space forever).
// A single round, the Newton solvers' case, is taken unchecked.
void Factorization::Impl::refine_column(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::VectorXd>& b,
                                        Eigen::Ref<Eigen::VectorXd> x, int steps, bool transposed) {
  double last = 0.0;
  for (int step = 0; step < steps; ++step) {
    // Against the matrix that was factorized: LDLT and LLT read only the lower triangle.
    if (method != Method::LDU)
      matrix.multiply_symmetric_lower(x, residual);
    else if (transposed)
      matrix.multiply_transposed(x, residual);
    else
      matrix.multiply(x, residual);
    residual = b - residual;
    const double norm = steps > 1 ? residual.norm() : 1.0;
    if (step > 0 && !(norm < last)) {
      x -= correction;
      break;
    }
    if (norm == 0.0 || (step > 0 && norm > 0.5 * last)) break;
    last = norm;
    solve_columns(residual, transposed);
    x += residual;
    if (steps > 1) correction = residual;
  }
}

namespace {
void check_same_shape(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                      const char* where) {
  if (x.rows() != rhs.rows() || x.cols() != rhs.cols())
    throw std::invalid_argument(std::string("graphsolve::") + where + ": x is " + std::to_string(x.rows()) + "x" +
                                std::to_string(x.cols()) + " but b is " + std::to_string(rhs.rows()) + "x" +
                                std::to_string(rhs.cols()));
}

// A x for the matrix as `method` reads it (see the header).
Eigen::MatrixXd product_as_read(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x, Method method) {
  Eigen::MatrixXd ax(x.rows(), x.cols());
  if (method == Method::LDU)
    matrix.multiply(x, ax);
  else
    matrix.multiply_symmetric_lower(x, ax);
  return ax;
}
}  // namespace

double relative_residual(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                         const Eigen::Ref<const Eigen::MatrixXd>& rhs, Method method) {
  check_same_shape(x, rhs, "relative_residual");
  const Eigen::MatrixXd ax = product_as_read(matrix, x, method);
  // blueNorm: no overflow for entries near DBL_MAX, where the squares would.
  const double norm_b = rhs.blueNorm();
  const double norm_r = (ax - rhs).blueNorm();
  if (norm_b == 0.0) return norm_r == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return norm_r / norm_b;
}

double backward_error(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                      const Eigen::Ref<const Eigen::MatrixXd>& rhs, Method method) {
  check_same_shape(x, rhs, "backward_error");
  const double norm_a = method == Method::LDU ? matrix.frobenius_norm() : matrix.frobenius_norm_symmetric_lower();
  const Eigen::MatrixXd ax = product_as_read(matrix, x, method);
  double worst = 0.0;
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    const double norm_r = (ax.col(c) - rhs.col(c)).blueNorm();
    const double scale = norm_a * x.col(c).blueNorm() + rhs.col(c).blueNorm();
    const double error = scale > 0.0 ? norm_r / scale : 0.0;  // scale 0: b = 0 and A x = 0
    if (std::isnan(error)) return error;
    worst = std::max(worst, error);
  }
  return worst;
}

}  // namespace graphsolve
