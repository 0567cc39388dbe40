#pragma once
// Numeric factorization on a symbolic analysis: LDU, LDLT or LLT of a
// BlockMatrix with the analysed pattern. All storage is allocated by the
// constructor; factorize() and the solves allocate nothing, so Newton loops can
// refactorize and solve as often as they like.
//
// LDLT and LLT read the lower triangle by node id (A_ij with i > j, and the
// lower triangle of each diagonal block), like Eigen's Lower and CHOLMOD's
// stype = -1; the upper blocks are ignored.

#include <memory>
#include <vector>

#include <Eigen/Core>

#include "graphsolve/block_matrix.hpp"
#include "graphsolve/method.hpp"
#include "graphsolve/status.hpp"
#include "graphsolve/symbolic.hpp"

namespace graphsolve {

struct FactorOptions {
  // Added to every diagonal block (times identity), like Eigen's setShift.
  double shift = 0.0;
  // Added in addition to the diagonal of ZeroDiagonal nodes; a small negative
  // value regularizes redundant constraints the way SPOOK's epsilon does.
  double constraint_shift = 0.0;
  // A pivot block whose reciprocal pivot ratio min|u_ii| / max|u_ii| (KLU's
  // cheap rcond) falls below this is reported as SingularPivot. The ratio
  // lies in [0, 1]: 0 rejects exactly singular pivots only; a value outside
  // [0, 1] (or NaN) is refused as InvalidOption, as are non-finite shifts.
  double pivot_tolerance = 1e-13;
};

class Factorization {
 public:
  explicit Factorization(const Symbolic& symbolic, Method method = Method::LDU);
  ~Factorization();
  Factorization(Factorization&&) noexcept;
  Factorization& operator=(Factorization&&) noexcept;

  // Factorizes A (copied; A itself is not modified). On failure, failed_node()
  // names the node whose pivot block broke down (-1 if none).
  Status factorize(const BlockMatrix& matrix, const FactorOptions& options = {});

  // Solves A X = B in place for one or several columns. NonFiniteSolution
  // when finite A and B give a solution that overflowed (then X is not one).
  Status solve_in_place(Eigen::Ref<Eigen::MatrixXd> rhs);
  Status solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x);
  // Solves and then improves x by at most `steps` rounds of iterative
  // refinement against A (the matrix that was factorized, without the
  // factorization's shifts). From the second round on it stops once a round no
  // longer halves the residual's 2-norm, undoing a round that did not lower it.
  Status solve_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                       Eigen::Ref<Eigen::MatrixXd> x, int steps);

  Method method() const;
  Status status() const;
  NodeId failed_node() const;
  // Smallest pivot ratio met in the last factorization (1 for no pivots).
  double min_pivot_ratio() const;
  const Symbolic& symbolic() const;
  // Bytes held for the factor values, pivot factorizations and scratch.
  long memory_bytes() const;
  // Runs of pivots with nested structure (supernodes, e.g. the dense
  // separators of grids) whose shared outer update is one BLAS product
  // instead of block products; fixed by the analysis.
  int supernodal_panels() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ||A x - b|| / ||b|| (Frobenius norms; 0 when b and A x are both 0).
double relative_residual(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                         const Eigen::Ref<const Eigen::MatrixXd>& rhs);

// Normwise backward error, the largest over the columns of
// ||A x - b|| / (||A|| ||x|| + ||b||) (2-norms of the columns, A's Frobenius
// norm; 0 when all three vanish). A backward-stable solve keeps it near
// machine epsilon however ill-conditioned A is; graphsolve pivots only within
// nodes, so pivots that grew in elimination show here first (iterative
// refinement, solve_refined, usually brings it back).
double backward_error(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                      const Eigen::Ref<const Eigen::MatrixXd>& rhs);

}  // namespace graphsolve
