// Pivot blocks whose rows differ in scale by many orders: the plain pivot
// ratio calls them singular, the retry with scaled rows does not, and
// blocks that are singular, or cancelled to rounding, are still refused.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

struct ScaledCase {
  std::string name;
  gs::Graph graph;
};

// Chains and trees of 6x6 and 3x3 blocks (the fused edge kernels), a ladder
// and a net (cycles, supernodal panels), and blocks of 7 and 9 rows (the
// dynamic pivot factorizations).
std::vector<ScaledCase> scaled_cases() {
  std::vector<ScaledCase> out = {{"chain6", fam::chain(12, 6)},    {"chain3", fam::chain(12, 3)},
                           {"tree4", fam::random_tree(15, 4, 5)}, {"ladder6", fam::ladder(5, 6)},
                           {"net3", fam::net(4, 3)}};
  gs::Graph mixed;
  for (int size : {7, 2, 9, 6, 1}) mixed.add_node(size);
  for (int i = 0; i + 1 < 5; ++i) mixed.add_edge(i, i + 1);
  mixed.add_edge(0, 4);
  out.push_back({"mixed", mixed});
  return out;
}

// Row scales of about 1 for the first row of every node and about 1e-8 for
// the others (a random factor in [0.5, 2] on each): the entries of a block of
// S B S span about 16 orders of magnitude, and all but one of its pivots are
// about 1e-16 of the largest.
Eigen::VectorXd row_scales(const gs::Pattern& p, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  Eigen::VectorXd s(p.dimension);
  for (int v = 0; v < p.num_nodes; ++v)
    for (int r = 0; r < p.size[v]; ++r) s[p.offset[v] + r] = u(rng) * (r == 0 ? 1.0 : 1e-8);
  return s;
}

}  // namespace

// S B S x = b is B y = S^{-1} b with y = S x: the scaled system's solution
// is checked against the well-scaled one's, and its determinant and inertia
// against B's (det A = det(S)^2 det B; S congruence keeps the inertia).
TEST(PivotScaling, BadlyScaledBlocksFactorizeAndSolveAccurately) {
  const struct {
    gs::Method method;
    fam::Values values;
  } kinds[] = {{gs::Method::LDU, fam::Values::Unsymmetric},
               {gs::Method::LDLT, fam::Values::SymmetricPositiveDefinite},
               {gs::Method::LLT, fam::Values::SymmetricPositiveDefinite}};
  for (const ScaledCase& c : scaled_cases()) {
    for (const auto& kind : kinds) {
      for (const gs::Ordering ordering : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::Auto}) {
        SCOPED_TRACE(c.name + " " + gs::to_string(kind.method) + " " + gs::to_string(ordering));
        const gs::Symbolic sym = gs::analyze(c.graph, {ordering, {}});
        gs::BlockMatrix a(sym);
        fam::fill_values(a, kind.values, 17);
        const Eigen::MatrixXd well_scaled = a.to_dense();
        const Eigen::VectorXd s = row_scales(sym.pattern(), 3);
        gs_test::scale_symmetrically(a, s);

        gs::FactorOptions plain;
        plain.equilibrate_pivots = false;
        gs::Factorization f(sym, kind.method);
        EXPECT_NE(f.factorize(a, plain), gs::Status::Success);  // what the retry is for

        ASSERT_EQ(f.factorize(a), gs::Status::Success);
        EXPECT_GE(f.min_pivot_ratio(), gs::FactorOptions{}.pivot_tolerance);
        const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 9);
        Eigen::MatrixXd x(a.rows(), 2);
        ASSERT_EQ(f.solve(b, x), gs::Status::Success);
        const Eigen::MatrixXd y = well_scaled.partialPivLu().solve(s.cwiseInverse().asDiagonal() * b);
        EXPECT_LT((s.asDiagonal() * x - y).norm(), 1e-9 * y.norm());

        gs::Determinant det;
        ASSERT_EQ(f.determinant(det), gs::Status::Success);
        const gs::Determinant expected = gs_test::dense_determinant(well_scaled);
        EXPECT_EQ(det.sign, expected.sign);
        const double log_det = expected.log_abs + 2.0 * s.array().log().sum();
        EXPECT_NEAR(det.log_abs, log_det, 1e-9 * std::abs(log_det));
        if (kind.method != gs::Method::LDU) {
          gs::Inertia inertia;
          ASSERT_EQ(f.inertia(inertia), gs::Status::Success);
          EXPECT_EQ(inertia.positive, a.rows());
          EXPECT_EQ(inertia.negative, 0);
        }
      }
    }
  }
}

// The second node's first row cancels to a few units in the last place of
// the 1e8 it was loaded with: D_1 = A_11 - A_10 A_00^{-1} A_01 holds a pivot
// of about 1e-8 in a row whose other entry is 0. Scaled by that row's own
// magnitude in D alone it would pass; scaled by the 1e8 the row had when
// loaded it is rounding, and stays refused. With twice the load the same
// row keeps its digits and passes.
TEST(PivotScaling, RowsThatCancelledAreStillRefused) {
  gs::Graph g;
  g.add_node(2);
  g.add_node(2);
  g.add_edge(0, 1);
  const gs::Symbolic sym = gs::analyze(g, {gs::Ordering::Given, {0, 1}});
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::BlockMatrix a(sym);
    a.diag(0).setIdentity();
    const Eigen::Matrix2d coupling = Eigen::Vector2d(1e4, 1.0).asDiagonal();
    a.block(1, 0) = coupling;
    a.block(0, 1) = coupling.transpose();
    for (const double load : {1e8 * (1.0 + 4.0 * std::numeric_limits<double>::epsilon()), 2e8}) {
      a.diag(1) << load, 0.0, 0.0, 3.0;
      gs::Factorization f(sym, method);
      if (load < 1.5e8) {
        EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
        EXPECT_EQ(f.failed_node(), 1);
      } else {
        EXPECT_EQ(f.factorize(a), gs::Status::Success);
      }
    }
  }
}

// Singular blocks whose rows are far apart in scale: scaling does not make
// them invertible.
TEST(PivotScaling, SingularBlocksStaySingularWhateverTheirScale) {
  gs::Graph g;
  g.add_node(3);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  // Row 2 is 1e-20 times row 0, plus a rounding-level difference.
  a.diag(0) << 1.0, 0.5, 1e-20, 2.0, 1.0, 2e-20 * (1.0 + 1e-16), 3.0, 4.0, 3e-20;
  gs::Factorization ldu(sym);
  EXPECT_EQ(ldu.factorize(a), gs::Status::SingularPivot);
  // Symmetric and semidefinite: v v^T + w w^T with v, w of very different scales (rank 2 of 3).
  const Eigen::Vector3d v(1.0, 1e-9, 1e-12), w(0.0, 1e-9, -1e-12);
  a.diag(0) = v * v.transpose() + w * w.transpose();
  for (const gs::Method method : {gs::Method::LDLT, gs::Method::LLT}) {
    gs::Factorization f(sym, method);
    EXPECT_NE(f.factorize(a), gs::Status::Success) << gs::to_string(method);
  }
}

// Mechanism-shaped saddle-point systems (zero-diagonal joint nodes) scaled
// the same way: the joints' pivots are Schur complements G M^{-1} G^T of
// badly scaled bodies, and the inertia must still be (bodies' rows, joints'
// rows), that of the well-scaled system.
TEST(PivotScaling, BadlyScaledSaddlePointSystems) {
  const std::pair<std::string, gs::Graph> mechanisms[] = {
      {"chain", fam::mechanism(fam::chain(8, 6), 5, true)},
      {"tree", fam::mechanism(fam::random_tree(10, 6, 3), 5, true)},
      {"ladder", fam::mechanism(fam::ladder(4, 6), 3, true)}};
  for (const auto& [name, graph] : mechanisms) {
    for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT}) {
      SCOPED_TRACE(name + " " + gs::to_string(method));
      const gs::Symbolic sym = gs::analyze(graph);
      gs::BlockMatrix a(sym);
      fam::fill_values(a, method == gs::Method::LDU ? fam::Values::SaddleUnsymmetric : fam::Values::Saddle, 23);
      const Eigen::MatrixXd well_scaled = a.to_dense();
      const Eigen::VectorXd s = row_scales(sym.pattern(), 5);
      gs_test::scale_symmetrically(a, s);
      gs::Factorization f(sym, method);
      gs::FactorOptions plain;
      plain.equilibrate_pivots = false;
      EXPECT_NE(f.factorize(a, plain), gs::Status::Success);  // what the retry is for
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 1, 4);
      Eigen::MatrixXd x(a.rows(), 1);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      const Eigen::MatrixXd y = well_scaled.partialPivLu().solve(s.cwiseInverse().asDiagonal() * b);
      EXPECT_LT((s.asDiagonal() * x - y).norm(), 1e-8 * y.norm());
      if (method == gs::Method::LDLT) {
        gs::Inertia inertia;
        ASSERT_EQ(f.inertia(inertia), gs::Status::Success);
        const gs::Inertia expected = gs_test::dense_inertia(well_scaled);
        EXPECT_EQ(inertia.positive, expected.positive);
        EXPECT_EQ(inertia.negative, expected.negative);
      }
    }
  }
}
