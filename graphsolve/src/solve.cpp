// Forward and backward substitution over the factor, in place on the
// caller's right-hand sides (node rows at their original offsets, so no
// permutation copy). Columns are processed in chunks that fit the
// preallocated scratch, so solves never allocate.
#include <cmath>

#include "factor_storage.hpp"

namespace graphsolve {

void Factorization::Impl::solve_columns(Eigen::Ref<Eigen::MatrixXd> x) {
  const Pattern& p = *d->pattern;
  const int n = static_cast<int>(d->order.size());
  const int m = static_cast<int>(x.cols());
  auto rows = [&](int k) { return x.middleRows(p.offset[d->order[k]], d->size[k]); };
  auto pivot_solve = [&](int k) {  // rows(k) <- D_k^{-1} rows(k)
    auto z = rhs_scratch.topLeftCorner(d->size[k], m);
    z.noalias() = lu[k].solve(rows(k));
    rows(k) = z;
  };
  auto skip = [&](int k) { return !active[k] || d->size[k] == 0; };

  // Forward: L (unit block lower, or Cholesky factor for LLT).
  for (int k = 0; k < n; ++k) {
    if (skip(k)) continue;
    if (method == Method::LDU) pivot_solve(k);
    if (method == Method::LLT) llt[k].matrixL().solveInPlace(rows(k));
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e)
      if (active[d->struct_pos[e]]) rows(d->struct_pos[e]).noalias() -= lower(k, e) * rows(k);
  }
  // Backward: U (LDU), or D^{-1} then L^T (LDLT), or L^T (LLT).
  for (int k = n - 1; k >= 0; --k) {
    if (skip(k)) continue;
    if (method == Method::LDLT) pivot_solve(k);
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
      const int c = d->struct_pos[e];
      if (!active[c]) continue;
      if (method == Method::LDU)
        rows(k).noalias() -= upper(k, e) * rows(c);
      else
        rows(k).noalias() -= lower(k, e).transpose() * rows(c);
    }
    if (method == Method::LLT) llt[k].matrixU().solveInPlace(rows(k));
  }
}

Status Factorization::solve_in_place(Eigen::Ref<Eigen::MatrixXd> rhs) {
  Impl& m = *impl_;
  if (m.status != Status::Success) return Status::NotFactorized;
  if (rhs.rows() != m.d->pattern->dimension) return Status::DimensionMismatch;
  if (!rhs.allFinite()) return Status::NonFiniteValue;
  for (Eigen::Index c = 0; c < rhs.cols(); c += Impl::kRhsChunk)
    m.solve_columns(rhs.middleCols(c, std::min<Eigen::Index>(Impl::kRhsChunk, rhs.cols() - c)));
  return Status::Success;
}

Status Factorization::solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x) {
  if (x.rows() != rhs.rows() || x.cols() != rhs.cols()) return Status::DimensionMismatch;
  x = rhs;
  return solve_in_place(x);
}

Status Factorization::solve_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                                    Eigen::Ref<Eigen::MatrixXd> x, int steps) {
  Impl& m = *impl_;
  if (!matrix.pattern().same_as(*m.d->pattern)) return Status::DimensionMismatch;
  if (const Status s = solve(rhs, x); s != Status::Success) return s;
  for (int step = 0; step < steps; ++step)
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      matrix.multiply(x.col(c), m.residual);
      m.residual = rhs.col(c) - m.residual;
      m.solve_columns(m.residual);
      x.col(c) += m.residual;
    }
  return Status::Success;
}

double relative_residual(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                         const Eigen::Ref<const Eigen::MatrixXd>& rhs) {
  Eigen::MatrixXd ax(x.rows(), x.cols());
  matrix.multiply(x, ax);
  const double norm_b = rhs.norm();
  const double norm_r = (ax - rhs).norm();
  if (norm_b == 0.0) return norm_r == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return norm_r / norm_b;
}

}  // namespace graphsolve
