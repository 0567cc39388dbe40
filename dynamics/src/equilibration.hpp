#pragma once
// Diagonal equilibration of the linear solves (internal), for models with
// bodies far from metre size. A body's linear rows scale with its mass (kg),
// its angular rows with its inertia (kg m^2): their pivots differ by its
// squared radius of gyration r^2 = J_max / m. A joint's translational rows see
// 1/m + lever^2/J, its rotational rows 1/J. graphsolve's pivot test reads a
// block whose pivots lie more than 1e13 apart as singular, so left as they
// are, a micrometre pendulum or a giant of a million kilometres would fail it
// although their systems are as good as any.
//
// When some body's radius of gyration lies outside [kSmallest, kLargest], the
// solves use S A S with S diagonal and positive: a body's angular rows are
// measured in units of its r (when that is outside the range), and every other
// node's rows are scaled so that the diagonal of their Schur complement
// through the bodies, sum over the bodies of G_ic^2 / W_cc, is 1 (Jacobi).
// (S A S) y = S b and x = S y solve A x = b in exact arithmetic. The
// constraint regularization is added before scaling, so it keeps its units,
// but on no row does it fall below its value relative to that row's Schur
// diagonal: a redundant rotational row of a 0.1 mm loop (Schur diagonal 1/J,
// 3 / L^2 = 3e8 times a translational row's) would otherwise see a
// regularization under the pivot test at any value the steps allow. That
// floor is kept to the rows that can be redundant: every node but the joints
// on no loop (loop_joints.hpp). On those it would only slow Newton down: a
// 1 kg bob on a 0.5 m arm with moments of 1e-12 kg m^2 has a hinge row of
// Schur diagonal l^2 / J = 2.5e11 whose radial combination is 1/m = 1, and a
// floor of 1e-10 times the diagonal, 25 times that, left each iteration
// removing under a twentieth of the constraint error: the first step failed.
// (The interior-point method's shift for degenerate pivots acts on S A S.)
// For any other model nothing is scaled or copied.

#include <optional>
#include <vector>

#include <Eigen/Core>
#include <graphsolve/graphsolve.hpp>

#include "dynamics/model.hpp"
#include "mechanism_graph.hpp"

namespace dynamics::detail {

class Equilibration {
 public:
  static constexpr double kSmallest = 1e-3, kLargest = 1e3;  // radius of gyration, m

  // Body b is graph node b, of 6 rows, as in every mechanism graph.
  Equilibration(const Model& model, const MechanismGraph& mg);

  bool enabled() const { return enabled_; }

  // The matrix to factorize and the options to factorize it with: `matrix`
  // and `options` themselves when nothing is scaled; otherwise S (A + shift) S
  // in storage of this object, and options without that shift. The shift is
  // options.constraint_shift on the rows of the zero-diagonal nodes, made
  // larger in magnitude where needed so that the scaled rows (Schur diagonal
  // 1) carry at least `relative_regularization` (the caller's regularization
  // in those units: constraint_shift times the scale of the body blocks), on
  // every node but those of joints on no loop. The
  // first call (and a new pattern) sizes the storage; later calls reuse it.
  const graphsolve::BlockMatrix& to_factor(const graphsolve::BlockMatrix& matrix, graphsolve::FactorOptions& options,
                                           double relative_regularization);
  // The matrix of the last to_factor() without the shift: what refinement
  // measures the residual against.
  const graphsolve::BlockMatrix& to_refine(const graphsolve::BlockMatrix& matrix) const {
    return enabled_ ? *unshifted_ : matrix;
  }

  // v <- S v (S of the last to_factor()): a right-hand side before the solve,
  // the solution after it.
  void scale(Eigen::VectorXd& v) const {
    if (enabled_) v.array() *= factor_.array();
  }

 private:
  void row_factors(const graphsolve::BlockMatrix& matrix);
  void scale_blocks(graphsolve::BlockMatrix& a) const;

  bool enabled_ = false;
  std::vector<double> angular_;  // per body: 1 / r, or 1 for bodies in the range
  std::vector<char> floored_;    // per graph node: its shift has the relative floor
  Eigen::VectorXd factor_;       // the diagonal of S
  std::optional<graphsolve::BlockMatrix> unshifted_, shifted_;
};

}  // namespace dynamics::detail
