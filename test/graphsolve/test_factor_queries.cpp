// Determinant, inertia and transposed solves on the cases the random
// comparisons (test_dense_agreement.cpp) do not reach: determinants far
// outside the double range, badly conditioned indefinite pivots, pivots
// above the fixed-size kernels, and inactive nodes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

// An orthogonal b x b matrix, fixed by the seed.
Eigen::MatrixXd orthogonal(int b, unsigned seed) {
  return Eigen::MatrixXd(gs_test::random_rhs(b, b, seed).householderQr().householderQ());
}

// Q diag(eigenvalues) Q^T: a symmetric block with the given spectrum.
Eigen::MatrixXd with_spectrum(const Eigen::VectorXd& eigenvalues, unsigned seed) {
  const Eigen::MatrixXd q = orthogonal(static_cast<int>(eigenvalues.size()), seed);
  return q * eigenvalues.asDiagonal() * q.transpose();
}

}  // namespace

// A chain whose couplings above the diagonal are zero is block lower
// triangular: det A is the product of its diagonal blocks' determinants,
// here about 10^(+-12000), far beyond the double range.
TEST(FactorQueries, DeterminantOutsideTheDoubleRange) {
  constexpr int kNodes = 2000, kSize = 6;
  const gs::Symbolic sym = gs::analyze(fam::chain(kNodes, kSize));
  gs::BlockMatrix a(sym);
  for (double scale : {10.0, 0.1}) {
    SCOPED_TRACE(scale);
    fam::fill_values(a, fam::Values::Unsymmetric, 3);
    double expected_log = 0.0;
    int expected_sign = 1;
    for (int i = 0; i < kNodes; ++i) {
      a.diag(i) *= scale;
      if (i % 7 == 0) a.diag(i).row(0) *= -1.0;  // some negative determinants
      const gs::Determinant block = gs_test::dense_determinant(a.diag(i));
      expected_log += block.log_abs;
      expected_sign *= block.sign;
      if (i + 1 < kNodes) a.block(i, i + 1).setZero();
    }
    ASSERT_GT(std::abs(expected_log), 1000.0);  // det itself would overflow or underflow
    gs::Factorization ldu(sym);
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success);
    gs::Determinant det;
    ASSERT_EQ(ldu.determinant(det), gs::Status::Success);
    EXPECT_EQ(det.sign, expected_sign);
    EXPECT_NEAR(det.log_abs, expected_log, 1e-9 * std::abs(expected_log));
  }
}

// Symmetric indefinite pivot blocks with condition numbers up to 1e10, of
// the fixed-size kernels' sizes and above them (7, 9: dynamic Eigen), on a
// loop of four nodes. The couplings are weak: static pivoting on blocks this
// ill-conditioned is accurate only when their inverses do not amplify the
// updates (stronger couplings make the solve itself inaccurate, which
// solve_refined and backward_error are for).
TEST(FactorQueries, IllConditionedIndefinitePivots) {
  for (int b : {2, 3, 6, 7, 9}) {
    SCOPED_TRACE(b);
    gs::Graph g;
    for (int i = 0; i < 4; ++i) g.add_node(b);
    for (int i = 0; i < 4; ++i) g.add_edge(i, (i + 1) % 4);
    const gs::Symbolic sym = gs::analyze(g);
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 8);
    for (int i = 0; i < 4; ++i) {
      Eigen::VectorXd spectrum = Eigen::VectorXd::LinSpaced(b, 1.0, 10.0);
      spectrum[0] = 1e-9;         // condition number 1e10
      spectrum[b - 1] *= -1.0;    // indefinite
      if (i % 2) spectrum[1] = -spectrum[1];
      a.diag(i) = 10.0 * with_spectrum(spectrum, 40 + i);
      a.block(i, (i + 1) % 4) *= 1e-5;
      a.block((i + 1) % 4, i) *= 1e-5;
    }
    const Eigen::MatrixXd dense = a.to_dense();
    for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT}) {
      SCOPED_TRACE(gs::to_string(method));
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      const Eigen::VectorXd rhs = gs_test::random_rhs(a.rows(), 1, 2);
      Eigen::VectorXd x(a.rows());
      ASSERT_EQ(f.solve(rhs, x), gs::Status::Success);
      EXPECT_LT(gs::backward_error(a, x, rhs), 1e-13);  // the factorization is stable here
      gs::Determinant det;
      ASSERT_EQ(f.determinant(det), gs::Status::Success);
      const gs::Determinant reference = gs_test::dense_determinant(dense);
      EXPECT_EQ(det.sign, reference.sign);
      EXPECT_NEAR(det.log_abs, reference.log_abs, 1e-6);
      if (method == gs::Method::LDU) continue;
      gs::Inertia inertia;
      ASSERT_EQ(f.inertia(inertia), gs::Status::Success);
      const gs::Inertia expected = gs_test::dense_inertia(dense);
      EXPECT_EQ(inertia.positive, expected.positive);
      EXPECT_EQ(inertia.negative, expected.negative);
    }
  }
}

// An inactive node is an identity block without couplings: it adds its rows
// to the positive count and nothing to log|det|, and the transposed solve
// leaves its rows as they were, as the reduced system demands.
TEST(FactorQueries, InactiveNodesCountAsIdentity) {
  gs::Graph g = fam::mechanism(fam::ladder(4, 6), 3, true);
  const gs::Symbolic sym = gs::analyze(g);
  const gs::Pattern& p = sym.pattern();
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Saddle, 12);
  const std::vector<int> off = {9, 13};  // joints: one in a loop, one on a rail
  for (int v : off) ASSERT_EQ(p.kind[v], gs::NodeKind::ZeroDiagonal);
  std::vector<int> kept;
  const Eigen::MatrixXd reduced = gs_test::remove_nodes(a.to_dense(), p, off, kept);
  long off_rows = 0;
  for (int v : off) off_rows += p.size[v];
  for (int v : off) a.set_active(v, false);

  gs::Factorization ldlt(sym, gs::Method::LDLT);
  ASSERT_EQ(ldlt.factorize(a), gs::Status::Success);
  gs::Inertia inertia;
  ASSERT_EQ(ldlt.inertia(inertia), gs::Status::Success);
  const gs::Inertia expected = gs_test::dense_inertia(reduced);
  EXPECT_EQ(inertia.positive, expected.positive + off_rows);
  EXPECT_EQ(inertia.negative, expected.negative);
  gs::Determinant det;
  ASSERT_EQ(ldlt.determinant(det), gs::Status::Success);
  const gs::Determinant expected_det = gs_test::dense_determinant(reduced);
  EXPECT_EQ(det.sign, expected_det.sign);
  EXPECT_NEAR(det.log_abs, expected_det.log_abs, 1e-9);

  fam::fill_values(a, fam::Values::SaddleUnsymmetric, 12);
  for (int v : off) a.set_active(v, true);
  const Eigen::MatrixXd reduced_unsymmetric = gs_test::remove_nodes(a.to_dense(), p, off, kept);
  for (int v : off) a.set_active(v, false);
  gs::Factorization ldu(sym, gs::Method::LDU);
  ASSERT_EQ(ldu.factorize(a), gs::Status::Success);
  const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 5);
  Eigen::MatrixXd x(a.rows(), 2);
  for (int columns : {1, 2}) {
    ASSERT_EQ(ldu.solve_transposed(b.leftCols(columns), x.leftCols(columns)), gs::Status::Success);
    Eigen::MatrixXd b_kept(kept.size(), columns), x_kept(kept.size(), columns);
    for (size_t i = 0; i < kept.size(); ++i) {
      b_kept.row(i) = b.row(kept[i]).head(columns);
      x_kept.row(i) = x.row(kept[i]).head(columns);
    }
    EXPECT_LT(gs_test::dense_residual(reduced_unsymmetric.transpose(), x_kept, b_kept), 1e-10);
    for (int v : off)
      for (int r = 0; r < p.size[v]; ++r)
        EXPECT_EQ(x.row(p.offset[v] + r).head(columns), b.row(p.offset[v] + r).head(columns));
  }
}

// The adjoint identity that sensitivity analysis relies on:
// for x = A^{-1} b and y = A^{-T} c, c^T x = y^T b.
TEST(FactorQueries, TransposedSolveIsTheAdjoint) {
  const gs::Symbolic sym = gs::analyze(fam::crystal(4, 6));  // supernodal panels
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 21);
  gs::Factorization ldu(sym);
  ASSERT_EQ(ldu.factorize(a), gs::Status::Success);
  ASSERT_GT(ldu.supernodal_panels(), 0);
  const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 1), c = gs_test::random_rhs(a.rows(), 1, 2);
  Eigen::VectorXd x(a.rows()), y(a.rows());
  ASSERT_EQ(ldu.solve(b, x), gs::Status::Success);
  ASSERT_EQ(ldu.solve_transposed(c, y), gs::Status::Success);
  EXPECT_NEAR(c.dot(x), y.dot(b), 1e-12 * c.norm() * x.norm());
}
