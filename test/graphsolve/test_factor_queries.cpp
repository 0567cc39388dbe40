// Determinant, inertia, condition estimate and transposed solves on the cases the random
// comparisons (test_dense_agreement.cpp) do not reach: determinants far
// outside the double range, badly conditioned indefinite pivots, pivots
// above the fixed-size kernels, and inactive nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

// Q diag(eigenvalues) Q^T: a symmetric block with the given spectrum.
Eigen::MatrixXd with_spectrum(const Eigen::VectorXd& eigenvalues, unsigned seed) {
  const Eigen::MatrixXd q = gs_test::random_orthogonal(static_cast<int>(eigenvalues.size()), seed);
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

// The same where the inactive node is the only later neighbour of the
// pivots eliminated before it (a chain eliminated from both ends towards it,
// and a tree's leaves), the case of the fixed-size loads and the fused edge
// kernels: its slot must stay the identity's (the loads leave its couplings
// zero, and the edges skip it).
TEST(FactorQueries, InactiveNeighbourOfForestPivotsCountsAsIdentity) {
  for (int b : {2, 3, 6}) {
    for (const bool tree : {false, true}) {
      const gs::Graph g = tree ? fam::random_tree(12, b, 4) : fam::chain(7, b);
      const gs::Symbolic sym = gs::analyze(g);
      const gs::Pattern& p = sym.pattern();
      gs::BlockMatrix a(sym);
      const std::vector<int> off = {3};
      std::vector<int> kept;
      for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
        SCOPED_TRACE(testing::Message() << "b " << b << (tree ? " tree " : " chain ") << gs::to_string(method));
        a.set_active(off[0], true);
        const bool ldu = method == gs::Method::LDU;
        fam::fill_values(a, ldu ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite, b);
        const Eigen::MatrixXd reduced = gs_test::remove_nodes(a.to_dense(), p, off, kept);
        a.set_active(off[0], false);
        gs::Factorization f(sym, method);
        ASSERT_EQ(f.factorize(a), gs::Status::Success);
        gs::Determinant det;
        ASSERT_EQ(f.determinant(det), gs::Status::Success);
        const gs::Determinant expected = gs_test::dense_determinant(reduced);
        EXPECT_EQ(det.sign, expected.sign);
        EXPECT_NEAR(det.log_abs, expected.log_abs, 1e-9);
        if (ldu) continue;
        gs::Inertia inertia;
        ASSERT_EQ(f.inertia(inertia), gs::Status::Success);
        EXPECT_EQ(inertia.positive, static_cast<long>(a.rows()));
        EXPECT_EQ(inertia.negative, 0);
      }
    }
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

// The estimate describes the matrix the factorization read: with its shifts,
// with an inactive node as identity, and for LDLT the lower triangle only
// (whatever the upper blocks hold). Each is compared with an LDU estimate of
// the same matrix written out in full, which takes the same path through the
// estimator: equal to rounding, where a norm that missed a shift, a mirrored
// block or an identity would differ.
TEST(FactorQueries, ConditionEstimateIsOfTheFactorizedMatrix) {
  const gs::Graph g = fam::mechanism(fam::ladder(4, 6), 3, true);
  const gs::Symbolic sym = gs::analyze(g);
  const gs::Pattern& p = sym.pattern();
  auto estimate_of = [&](const gs::BlockMatrix& a, gs::Method method, const gs::FactorOptions& options) {
    gs::Factorization f(sym, method);
    EXPECT_EQ(f.factorize(a, options), gs::Status::Success);
    double estimate = 0.0;
    EXPECT_EQ(f.condition_estimate(a, estimate), gs::Status::Success);
    return estimate;
  };
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Saddle, 5);
  gs::FactorOptions options;
  options.shift = 0.5;
  options.constraint_shift = -20.0;  // large: the constraint columns carry ||A||_1
  gs::BlockMatrix written_out = a;  // the shifts in the values
  for (int v = 0; v < p.num_nodes; ++v)
    written_out.diag(v).diagonal().array() += p.kind[v] == gs::NodeKind::ZeroDiagonal ? -19.5 : 0.5;
  const double reference = estimate_of(written_out, gs::Method::LDU, {});
  const double exact = gs_test::dense_condition_number(written_out.to_dense());
  EXPECT_LE(reference, exact * (1.0 + 1e-8));
  EXPECT_GE(reference, exact / 3.0);
  EXPECT_NEAR(estimate_of(a, gs::Method::LDU, options), reference, 1e-10 * reference);
  // Garbage above the diagonal, which LDLT never reads.
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [u, v] = p.edges[e];
    a.block(std::min(u, v), std::max(u, v)).setConstant(1e6);
  }
  for (int v = 0; v < p.num_nodes; ++v) a.diag(v).triangularView<Eigen::StrictlyUpper>().setConstant(-1e6);
  EXPECT_NEAR(estimate_of(a, gs::Method::LDLT, options), reference, 1e-10 * reference);

  // Inactive nodes against the same nodes written as identity blocks without
  // couplings; the active values scaled down so that the identity's columns
  // carry ||A||_1.
  fam::fill_values(a, fam::Values::SaddleUnsymmetric, 6);
  for (int v = 0; v < p.num_nodes; ++v) a.diag(v) *= 1e-3;
  for (int e = 0; e < p.num_edges; ++e) {
    a.block(p.edges[e].first, p.edges[e].second) *= 1e-3;
    a.block(p.edges[e].second, p.edges[e].first) *= 1e-3;
  }
  written_out = a;
  for (int v : {9, 13}) {
    a.set_active(v, false);
    written_out.diag(v).setIdentity();
    for (int e = 0; e < p.num_edges; ++e) {
      const auto [x, y] = p.edges[e];
      if (x != v && y != v) continue;
      written_out.block(x, y).setZero();
      written_out.block(y, x).setZero();
    }
  }
  const double identity_reference = estimate_of(written_out, gs::Method::LDU, {});
  EXPECT_NEAR(estimate_of(a, gs::Method::LDU, {}), identity_reference, 1e-10 * identity_reference);
}

// An ill-conditioned system is estimated as such, and one whose inverse
// overflows reads +inf; the states and patterns are checked.
TEST(FactorQueries, ConditionEstimateOfIllConditionedAndOverflowingSystems) {
  const gs::Symbolic sym = gs::analyze(fam::chain(8, 3));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 2);
  // Rows of node i scaled by 10^(-9 i / 7): graded over nine orders of magnitude.
  const gs::Pattern& p = sym.pattern();
  auto row_scale = [](int node) { return std::pow(10.0, -9.0 * node / 7.0); };
  for (int v = 0; v < p.num_nodes; ++v) a.diag(v) *= row_scale(v);
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [u, v] = p.edges[e];
    a.block(u, v) *= row_scale(u);
    a.block(v, u) *= row_scale(v);
  }
  const double exact = gs_test::dense_condition_number(a.to_dense());
  ASSERT_GT(exact, 1e8);
  gs::Factorization ldu(sym);
  double estimate = 0.0;
  EXPECT_EQ(ldu.condition_estimate(a, estimate), gs::Status::NotFactorized);
  ASSERT_EQ(ldu.factorize(a), gs::Status::Success);
  ASSERT_EQ(ldu.condition_estimate(a, estimate), gs::Status::Success);
  EXPECT_LE(estimate, exact * (1.0 + 1e-6));
  EXPECT_GE(estimate, exact / 3.0);
  const gs::Symbolic other = gs::analyze(fam::chain(9, 3));
  EXPECT_EQ(ldu.condition_estimate(gs::BlockMatrix(other), estimate), gs::Status::DimensionMismatch);

  const gs::Symbolic single = gs::analyze(fam::chain(2, 1));
  gs::BlockMatrix tiny(single);
  tiny.diag(0)(0, 0) = 1e-310;  // subnormal: its inverse overflows
  tiny.diag(1)(0, 0) = 1.0;
  tiny.block(0, 1)(0, 0) = tiny.block(1, 0)(0, 0) = 0.0;
  gs::Factorization f(single);
  ASSERT_EQ(f.factorize(tiny), gs::Status::Success);
  ASSERT_EQ(f.condition_estimate(tiny, estimate), gs::Status::Success);
  EXPECT_EQ(estimate, std::numeric_limits<double>::infinity());
}

// memory_bytes() counts the factor's values (its stats' factor_nonzeros for
// LDU), LDU's upper panels that the symmetric methods do not keep, and the
// dense factorization a pivot above the fixed-size kernels keeps besides its
// block; the rest is scratch of a few vectors of the dimension.
TEST(FactorQueries, MemoryBytesCountsTheFactorAndWhatItKeepsBesides) {
  const gs::Symbolic chain = gs::analyze(fam::chain(100, 6));
  const long nonzeros = chain.stats().factor_nonzeros, rows = chain.pattern().dimension;
  const gs::Factorization ldu(chain, gs::Method::LDU), ldlt(chain, gs::Method::LDLT);
  EXPECT_GE(ldu.memory_bytes(), 8 * nonzeros);
  EXPECT_LE(ldu.memory_bytes(), 8 * (nonzeros + 8 * rows + 1000));
  EXPECT_GE(ldu.memory_bytes() - ldlt.memory_bytes(), 8 * 99 * 36);  // the 99 upper 6x6 blocks

  gs::Graph one;
  one.add_node(40);
  const gs::Symbolic large = gs::analyze(one);
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    const gs::Factorization f(large, method);
    EXPECT_GE(f.memory_bytes(), 8 * 2 * 40 * 40) << gs::to_string(method);  // the block and its dense factorization
  }
}

// The per-position schedules count too: a chain of scalars keeps three
// offsets (8 bytes each) and one entry source (16 bytes) per position, more
// than its three factor values, besides the refinement's three vectors of
// the dimension.
TEST(FactorQueries, MemoryBytesCountsTheSchedules) {
  constexpr long n = 1000;
  const gs::Symbolic chain = gs::analyze(fam::chain(n, 1));
  const long nonzeros = chain.stats().factor_nonzeros;
  const gs::Factorization ldu(chain, gs::Method::LDU);
  EXPECT_GE(ldu.memory_bytes(), 8 * nonzeros + 3 * 8 * n + 16 * (n - 1) + 3 * 8 * n);
  EXPECT_LE(ldu.memory_bytes(), 8 * nonzeros + 200 * n);
}
