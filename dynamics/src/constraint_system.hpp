#pragma once
// The saddle-point system [W G^T; G 0] of a mechanism's joints and couplings
// (internal): W the body mass matrices over the mechanism's mass scale (so
// that a regularization means the same for milligrams and tonnes), G the
// constraint Jacobian at a configuration. Position and velocity projection
// and the loaded-frequency estimate solve with it; the estimate adds the
// rows of held contacts and limits (HeldRow), one constraint node each.

#include <string>

#include <Eigen/Core>
#include <graphsolve/graphsolve.hpp>

#include "dynamics/coordinates.hpp"
#include "dynamics/model.hpp"
#include "dynamics/state.hpp"
#include "equilibration.hpp"
#include "held_row.hpp"
#include "mechanism_graph.hpp"

namespace dynamics::detail {

class ConstraintSystem {
 public:
  // With `damper_edges`, the graph also couples the two bodies of every
  // damped joint, whose blocks body_block() then reaches. `held`: rows kept
  // closed beside the joints, a one-row node each on its bodies; their
  // values can change (set_held), their bodies cannot.
  explicit ConstraintSystem(const Model& model, bool damper_edges = false, const std::vector<HeldRow>& held = {});

  // Whether `held` has the bodies of this system's held rows, row by row.
  bool fits(const std::vector<HeldRow>& held) const;
  // New values of the held rows (which fits()), written by the next assemble().
  void set_held(const std::vector<HeldRow>& held) { held_ = held; }

  // Body b's block of W: its mass matrix over the mass scale.
  Eigen::Matrix<double, 6, 6> weight(int b) const { return mass_matrix(model_.body(b)) / mass_scale_; }
  double mass_scale() const { return mass_scale_; }

  // Fill the matrix at the state's configuration; returns max |g| and stores g
  // (and, if asked, which joints are violated beyond `tolerance`).
  double assemble(const State& state, Eigen::VectorXd& g_rows, ProjectionResult* report = nullptr,
                  double tolerance = 0.0);

  // Factorize with the constraint rows shifted by -regularization, then solve
  // in place; false on a failed pivot or a solution that is not finite.
  bool factorize(double regularization);
  // The same with `regularization` or more: while a pivot fails, 100 times
  // more (up to `largest`), and later calls start where the pivots held (a
  // small loop's redundant rows sit at the regularization beside rows of 1/J,
  // a scale the bodies set). Returns the regularization used, -1 if even
  // `largest` failed (0 never grows).
  double factorize_regularized(double regularization, double largest);
  bool solve_factored(Eigen::VectorXd& rhs);
  // The same, refined by up to `rounds` rounds against the unshifted matrix:
  // where no constraint is redundant, the solution of the exact system
  // (the shift alone lets joints open by about its size times the impulses).
  bool solve_refined(Eigen::VectorXd& rhs, int rounds);
  bool solve(Eigen::VectorXd& rhs, double regularization) { return factorize(regularization) && solve_factored(rhs); }

  // Why the last solve failed: graphsolve's status and the body or joint of the failed pivot.
  std::string failure() const;

  int rows() const { return matrix_.rows(); }

  // Block (a, b) of the body rows: a == b for body a's diagonal block, which
  // assemble() sets to W; otherwise the two bodies of a damped joint (with
  // `damper_edges`), zero until written.
  graphsolve::BlockMatrix::BlockMap body_block(int a, int b) { return a == b ? matrix_.diag(a) : matrix_.block(a, b); }

 private:
  const Model& model_;
  std::vector<HeldRow> held_;
  int first_held_node_;
  MechanismGraph mg_;
  graphsolve::Symbolic symbolic_;
  graphsolve::BlockMatrix matrix_;
  graphsolve::Factorization factor_;
  Equilibration equilibration_;  // for bodies far from metre size
  double held_regularization_ = 0.0;  // see factorize_regularized
  std::vector<Pose> poses_;  // the state's, for the couplings
  Eigen::VectorXd solution_;  // scratch for solve_refined
  double mass_scale_;
};

}  // namespace dynamics::detail
