#pragma once
// Numeric factorization on a symbolic analysis: LDU, LDLT or LLT of a
// BlockMatrix with the analysed pattern. All storage is allocated by the
// constructor; factorize() and the solves allocate nothing, so Newton loops can
// refactorize and solve as often as they like.
//
// LDLT and LLT read the lower triangle by node id (A_ij with i > j, and the
// lower triangle of each diagonal block), like Eigen's Lower and CHOLMOD's
// stype = -1; the upper blocks are ignored, except that a NaN or Inf stored
// there still fails factorize() with NonFiniteValue (a sign of a bug upstream).

#include <memory>
#include <vector>

#include <Eigen/Core>

#include "graphsolve/eigen_abi.hpp"
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
  // The pivots are measured against the largest magnitude the block had (as
  // loaded and after each update), so cancellation counts as singularity.
  double pivot_tolerance = 1e-13;
  // Before reporting SingularPivot, retry the block with each row scaled by
  // the largest magnitude that row had (D_ij / sqrt(R_i R_j) for LDLT and
  // LLT): a block whose rows differ in scale by many orders (a heavy body
  // with a tiny rotational inertia, mixed units) is then inverted, while a
  // row that is singular or cancelled stays below the tolerance against its
  // own magnitude. For LDU, a block that still fails and whose columns are
  // far apart in scale (variables in other units than their equations) is
  // retried once more with its columns scaled as well, against the largest
  // magnitude each column had; keeping those costs a second factorization
  // pass, run only when such a block fails (after a factorization that
  // needed it, the next one keeps them from the start instead).
  // min_pivot_ratio() then reports the scaled block's ratio. false: the
  // plain test only.
  bool equilibrate_pivots = true;
};

// det A = sign * exp(log_abs); sign is 1 or -1 after a successful factorization.
struct Determinant {
  int sign = 0;
  double log_abs = 0.0;
};

// Eigenvalue signs of a symmetric matrix: positive + negative = its rows.
struct Inertia {
  long positive = 0;
  long negative = 0;
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
  // X may be B itself, for every solve below (refinement then keeps a copy of
  // each column's right-hand side); X and B that overlap otherwise throw
  // std::invalid_argument.
  Status solve_in_place(Eigen::Ref<Eigen::MatrixXd> rhs);
  Status solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x);
  // Solves and then improves x by at most `steps` rounds of iterative
  // refinement against A (the matrix that was factorized, without the
  // factorization's shifts; for LDLT and LLT the symmetric matrix its lower
  // triangle defines, whatever the upper blocks hold). From the second round
  // on it stops once a round no longer halves the residual's 2-norm, undoing
  // a round that did not lower it.
  Status solve_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                       Eigen::Ref<Eigen::MatrixXd> x, int steps);
  // Solves A^T X = B with the same factorization (adjoint and sensitivity
  // systems; like UMFPACK's UMFPACK_At and KLU's klu_tsolve). LDLT and LLT
  // factor symmetric matrices, so for them this is solve().
  Status solve_transposed_in_place(Eigen::Ref<Eigen::MatrixXd> rhs);
  Status solve_transposed(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x);
  // solve_transposed, then refinement against A^T as solve_refined does against A.
  Status solve_transposed_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                                  Eigen::Ref<Eigen::MatrixXd> x, int steps);

  // Determinant of the factorized matrix (with the options' shifts; an
  // inactive node counts as its identity block), from the pivot blocks:
  // det A = prod det D_k (LDU, LDLT) or prod det(C_k)^2 (LLT). Kept as sign
  // and log|det|, which neither overflows nor underflows on large systems.
  // NotFactorized unless the last factorize() succeeded; SingularPivot if a
  // pivot block is within rounding of singular (only a pivot_tolerance below
  // about 1e-14 lets one through), whose determinant has no correct digits.
  Status determinant(Determinant& result) const;
  // Inertia of the factorized symmetric matrix (shifts and inactive nodes as
  // for determinant()): by Sylvester's law it is that of D, counted on each
  // pivot block's eigenvalues. A successful factorization has no zero
  // eigenvalues (a singular pivot fails it). The check interior-point and
  // saddle-point solvers make: a KKT matrix with n primal and m dual rows must
  // have inertia (n, m). LDLT and LLT only: UnsupportedMethod for LDU, whose
  // matrix need not be symmetric. NotFactorized and SingularPivot as for
  // determinant().
  Status inertia(Inertia& result) const;
  // Estimate of the 1-norm condition number ||A||_1 ||A^{-1}||_1 of the
  // factorized matrix (shifts included; for LDLT and LLT the symmetric matrix
  // its lower triangle defines), by Hager's method with Higham's refinements
  // as in LAPACK's xGECON and KLU's klu_condest: a few solves with A and A^T.
  // A lower bound, rarely off by more than a factor of 3; +inf when a solve
  // overflows. `matrix` must be the one factorized (DimensionMismatch if its
  // pattern differs); NotFactorized unless the last factorize() succeeded.
  Status condition_estimate(const BlockMatrix& matrix, double& estimate);

  Method method() const;
  Status status() const;
  NodeId failed_node() const;
  // Smallest pivot ratio met in the last factorization (1 for no pivots).
  double min_pivot_ratio() const;
  const Symbolic& symbolic() const;
  // Bytes held for the factor values, pivot factorizations, scratch and the
  // schedules computed from the analysis (not the Symbolic it shares). An
  // array of 2 MB or more is placed on a huge-page boundary and takes up to
  // 2 MB of address space more than this counts.
  long memory_bytes() const;
  // Runs of pivots with nested structure (supernodes, e.g. the dense
  // separators of grids) whose shared outer update is one BLAS product
  // instead of block products; fixed by the analysis.
  int supernodal_panels() const;

 private:
  struct Impl;
  // The state; throws std::logic_error on a moved-from Factorization, which
  // has none (assign it a new one to use it again).
  Impl& impl() const;
  std::unique_ptr<Impl> impl_;
};

// The two checks below measure against the matrix as `method` reads it: for
// LDU every stored block (BlockMatrix::multiply); for LDLT and LLT the
// symmetric matrix of the lower triangle (multiply_symmetric_lower), so a
// matrix stored as its lower triangle only is checked as the one factorized.

// ||A x - b|| / ||b|| (Frobenius norms; 0 when b and A x are both 0).
double relative_residual(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                         const Eigen::Ref<const Eigen::MatrixXd>& rhs, Method method = Method::LDU);

// Normwise backward error, the largest over the columns of
// ||A x - b|| / (||A|| ||x|| + ||b||) (2-norms of the columns, A's Frobenius
// norm; 0 when all three vanish). A backward-stable solve keeps it near
// machine epsilon however ill-conditioned A is; graphsolve pivots only within
// nodes, so pivots that grew in elimination show here first (iterative
// refinement, solve_refined, usually brings it back).
double backward_error(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& x,
                      const Eigen::Ref<const Eigen::MatrixXd>& rhs, Method method = Method::LDU);

}  // namespace graphsolve
