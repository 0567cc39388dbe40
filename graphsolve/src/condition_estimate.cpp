// Factorization::condition_estimate: ||A||_1 exactly, ||A^{-1}||_1 by Hager's
// estimator with Higham's refinements (LAPACK's xLACN2, which xGECON and
// KLU's klu_condest also use). The estimator looks for the column of A^{-1}
// with the largest 1-norm by a few solves with A and A^T, so it costs a few
// solves instead of the n an exact norm of the inverse would need.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "factor_storage.hpp"

namespace graphsolve {

namespace {

// Column sums of |A| for the matrix the factorization read: every stored
// block for LDU, the lower triangle mirrored for LDLT and LLT, the shifts on
// the diagonal, an inactive node as its identity block.
Eigen::VectorXd absolute_column_sums(const BlockMatrix& a, Method method, const FactorOptions& options) {
  const Pattern& p = a.pattern();
  const bool symmetric = method != Method::LDU;
  Eigen::VectorXd sums = Eigen::VectorXd::Zero(p.dimension);
  for (int i = 0; i < p.num_nodes; ++i) {
    auto column_sums = sums.segment(p.offset[i], p.size[i]);
    if (!a.active(i)) {
      column_sums.array() += 1.0;
      continue;
    }
    Eigen::MatrixXd block = symmetric ? Eigen::MatrixXd(a.diag(i).selfadjointView<Eigen::Lower>())
                                      : Eigen::MatrixXd(a.diag(i));
    block.diagonal().array() += diagonal_shift(options, p.kind[i]);
    column_sums += block.cwiseAbs().colwise().sum().transpose();
  }
  for (int e = 0; e < p.num_edges; ++e) {
    auto [u, v] = p.edges[e];
    // A node of size 0 adds nothing; skipped, as Eigen's row sums of an
    // empty MatrixXd offset its null data pointer (undefined behaviour).
    if (!a.active(u) || !a.active(v) || p.size[u] == 0 || p.size[v] == 0) continue;
    if (symmetric) {
      if (u < v) std::swap(u, v);  // block(u, v) lies below the diagonal; its mirror is its transpose
      const Eigen::MatrixXd lower = a.block(u, v).cwiseAbs();
      sums.segment(p.offset[v], p.size[v]) += lower.colwise().sum().transpose();
      sums.segment(p.offset[u], p.size[u]) += lower.rowwise().sum();
    } else {
      sums.segment(p.offset[v], p.size[v]) += a.block(u, v).cwiseAbs().colwise().sum().transpose();
      sums.segment(p.offset[u], p.size[u]) += a.block(v, u).cwiseAbs().colwise().sum().transpose();
    }
  }
  return sums;
}

Eigen::VectorXd signs(const Eigen::VectorXd& x) {
  return x.unaryExpr([](double value) { return value >= 0.0 ? 1.0 : -1.0; });
}

constexpr int kMaxIterations = 5;  // as LAPACK's xLACN2

}  // namespace

double Factorization::Impl::inverse_one_norm_estimate() {
  const Eigen::Index n = d->pattern->dimension;
  constexpr double kOverflow = std::numeric_limits<double>::infinity();
  // A^{-1} v (or A^{-T} v) in place; false if it overflowed.
  auto apply_inverse = [&](Eigen::VectorXd& v, bool transposed) {
    solve_columns(v, transposed);
    return v.allFinite();
  };
  // ||A^{-1} x||_1 with ||x||_1 = 1 is a lower bound; start from the uniform x.
  Eigen::VectorXd x = Eigen::VectorXd::Constant(n, 1.0 / static_cast<double>(n));
  if (!apply_inverse(x, false)) return kOverflow;
  double estimate = x.lpNorm<1>();
  if (n == 1) return estimate;  // exact
  Eigen::VectorXd sign = signs(x);
  Eigen::VectorXd z = sign;
  if (!apply_inverse(z, true)) return kOverflow;
  Eigen::Index j = 0;
  z.cwiseAbs().maxCoeff(&j);
  // Each round tries the unit vector the gradient z points to.
  for (int iteration = 2; iteration <= kMaxIterations; ++iteration) {
    x.setZero();
    x[j] = 1.0;
    if (!apply_inverse(x, false)) return kOverflow;
    const double previous = estimate;
    estimate = std::max(previous, x.lpNorm<1>());
    const Eigen::VectorXd next_sign = signs(x);
    if (next_sign == sign || !(x.lpNorm<1>() > previous)) break;  // converged or no longer rising
    sign = next_sign;
    z = sign;
    if (!apply_inverse(z, true)) return kOverflow;
    const Eigen::Index last = j;
    const double largest = z.cwiseAbs().maxCoeff(&j);
    if (std::abs(z[last]) == largest) break;  // the same column again
  }
  // Higham's alternating vector, 1 + i/(n-1) with alternating signs, catches
  // matrices for which the iteration stalls; ||x||_1 = 3n/2.
  for (Eigen::Index i = 0; i < n; ++i)
    x[i] = (i % 2 == 0 ? 1.0 : -1.0) * (1.0 + static_cast<double>(i) / static_cast<double>(n - 1));
  if (!apply_inverse(x, false)) return kOverflow;
  return std::max(estimate, 2.0 * x.lpNorm<1>() / (3.0 * static_cast<double>(n)));
}

Status Factorization::condition_estimate(const BlockMatrix& matrix, double& estimate) {
  Impl& m = impl();
  if (m.status != Status::Success) return Status::NotFactorized;
  if (!matrix.pattern().same_as(*m.d->pattern)) return Status::DimensionMismatch;
  if (m.d->pattern->dimension == 0) {
    estimate = 1.0;  // LAPACK's convention for an empty matrix
    return Status::Success;
  }
  const double inverse_norm = m.inverse_one_norm_estimate();
  estimate = std::isinf(inverse_norm) ? inverse_norm
                                      : absolute_column_sums(matrix, m.method, m.factorized_with).maxCoeff() * inverse_norm;
  return Status::Success;
}

}  // namespace graphsolve
