// What a factorization says about its matrix besides solutions: the
// determinant and, for the symmetric methods, the inertia. Both are read off
// the pivot slots, which hold P_k = -D_k^{-1} (LDU, LDLT) or -C_k^{-1} (LLT,
// lower triangular), on request: factorize() pays nothing for them.
//
// Reading them off the inverses loses nothing that matters: the inverse of a
// pivot accepted by the pivot tolerance is accurate to about eps * cond(D_k)
// relative to each of its eigenvalues, so signs hold and log|det| is off by
// about b * eps * cond(D_k). Only a pivot within rounding of singular (which
// the default tolerance refuses) cannot be read; it is reported as such.
// Each slot is read with its rows and columns scaled to magnitude 1, as its
// pivot may have been inverted (pivot_inversion.cpp): a block whose rows
// differ in scale by many orders is not near singular.
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "factor_storage.hpp"

namespace graphsolve {

namespace {

// Below this, an eigenvalue of a b x b block is within the eigensolver's
// rounding of zero (relative to the block's largest), and so is a pivot of
// its LU: its sign cannot be told.
double unreadable_below(int b) { return 8.0 * b * std::numeric_limits<double>::epsilon(); }

// Row factors r, then column factors c of the row-scaled block (LAPACK's
// xGEEQU): every row and column of diag(r) M diag(c) has largest magnitude
// 1. False if a row or column is zero or not finite.
bool equilibrate(const Eigen::MatrixXd& m, Eigen::VectorXd& r, Eigen::VectorXd& c) {
  r = m.cwiseAbs().rowwise().maxCoeff();
  if (!(r.minCoeff() > 0.0 && r.maxCoeff() < std::numeric_limits<double>::infinity())) return false;
  r = r.cwiseInverse();
  c = (r.asDiagonal() * m).cwiseAbs().colwise().maxCoeff().transpose();
  if (!(c.minCoeff() > 0.0)) return false;
  c = c.cwiseInverse();
  return true;
}

}  // namespace

Status Factorization::determinant(Determinant& result) const {
  const Impl& m = impl();
  if (m.status != Status::Success) return Status::NotFactorized;
  int sign = 1;
  double log_abs = 0.0;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;  // of dynamic size: one instantiation for every block size
  Eigen::VectorXd r, c;
  const int n = static_cast<int>(m.d->order.size());
  for (int k = 0; k < n; ++k) {
    const int b = m.size(k);
    if (b == 0) continue;
    const Eigen::Map<const Eigen::MatrixXd> slot(m.values.data() + m.diag_off[k], b, b);
    if (m.method == Method::LLT) {
      // det(C_k)^2 with C_k^{-1} = -P_k triangular: its diagonal holds 1 / c_ii > 0.
      for (int i = 0; i < b; ++i) log_abs -= 2.0 * std::log(-slot(i, i));
      continue;
    }
    // det(-P_k) = det(R (-P_k) C) / (det R det C), with R, C positive diagonal.
    if (!equilibrate(slot, r, c)) return Status::SingularPivot;
    lu.compute(-(r.asDiagonal() * slot * c.asDiagonal()));
    const auto u = lu.matrixLU().diagonal();
    if (!(u.cwiseAbs().minCoeff() > unreadable_below(b) * u.cwiseAbs().maxCoeff())) return Status::SingularPivot;
    log_abs += r.array().log().sum() + c.array().log().sum();
    // det D_k = 1 / det(-P_k): the signs agree, the logarithms are opposite.
    sign *= static_cast<int>(lu.permutationP().determinant());
    for (int i = 0; i < b; ++i) {
      if (u[i] < 0.0) sign = -sign;
      log_abs -= std::log(std::abs(u[i]));
    }
  }
  result = {sign, log_abs};
  return Status::Success;
}

Status Factorization::inertia(Inertia& result) const {
  const Impl& m = impl();
  if (m.method == Method::LDU) return Status::UnsupportedMethod;
  if (m.status != Status::Success) return Status::NotFactorized;
  const long rows = m.d->pattern->dimension;
  if (m.method == Method::LLT) {  // a Cholesky factorization exists only for positive definite matrices
    result = {rows, 0};
    return Status::Success;
  }
  long negative = 0;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen;
  const int n = static_cast<int>(m.d->order.size());
  for (int k = 0; k < n; ++k) {
    const int b = m.size(k);
    if (b == 0) continue;
    const Eigen::Map<const Eigen::MatrixXd> slot(m.values.data() + m.diag_off[k], b, b);
    // D_k^{-1}, symmetrized against the inversion's rounding: its
    // eigenvalues are the reciprocals of D_k's, with the same signs. Scaled
    // as S D_k^{-1} S, with S positive diagonal, which keeps the signs
    // (Sylvester) and brings every row to magnitude about 1.
    const Eigen::MatrixXd inverse = -0.5 * (slot + slot.transpose());
    const Eigen::VectorXd row_max = inverse.cwiseAbs().rowwise().maxCoeff();
    if (!(row_max.minCoeff() > 0.0 && row_max.maxCoeff() < std::numeric_limits<double>::infinity()))
      return Status::SingularPivot;
    const Eigen::VectorXd s = row_max.cwiseSqrt().cwiseInverse();
    eigen.compute(s.asDiagonal() * inverse * s.asDiagonal(), Eigen::EigenvaluesOnly);
    const auto& values = eigen.eigenvalues();
    if (eigen.info() != Eigen::Success ||
        !(values.cwiseAbs().minCoeff() > unreadable_below(b) * values.cwiseAbs().maxCoeff()))
      return Status::SingularPivot;
    negative += (values.array() < 0.0).count();
  }
  result = {rows - negative, negative};
  return Status::Success;
}

}  // namespace graphsolve
