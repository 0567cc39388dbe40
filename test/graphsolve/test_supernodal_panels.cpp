// Supernodal panels: runs of pivots with nested structure whose shared
// outer update is one BLAS product. Every test first checks that the system
// really has panels, so that it cannot pass by taking the block path only.
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

// The crystal's topology with random block sizes 0..8: empty nodes, every
// fixed-size kernel and dynamic blocks beyond them, side by side in a panel.
gs::Graph mixed_crystal(int side, unsigned seed) {
  const gs::Graph shape = fam::crystal(side, 1);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> size(0, 8);
  gs::Graph g;
  for (int v = 0; v < shape.num_nodes(); ++v) g.add_node(size(rng));
  for (auto [a, b] : shape.edges()) g.add_edge(a, b);
  return g;
}

// The dense reference of one system: its matrix, right-hand side and LU
// solution (computed once and shared by every ordering of the same values).
struct DenseReference {
  Eigen::MatrixXd dense, b, x;
};

DenseReference dense_reference(const gs::BlockMatrix& a, unsigned seed) {
  DenseReference r;
  r.dense = a.to_dense();
  r.b = gs_test::random_rhs(a.rows(), 2, seed);
  r.x = r.dense.partialPivLu().solve(r.b);
  return r;
}

void expect_matches(const gs::BlockMatrix& a, gs::Factorization& ldu, const DenseReference& ref) {
  ASSERT_EQ(a.to_dense(), ref.dense);  // the same values whatever the ordering
  Eigen::MatrixXd x(a.rows(), 2);
  ASSERT_EQ(ldu.solve(ref.b, x), gs::Status::Success);
  EXPECT_LT(gs_test::dense_residual(ref.dense, x, ref.b), 1e-10);
  EXPECT_LT((x - ref.x).norm() / ref.x.norm(), 1e-8);
}

}  // namespace

TEST(SupernodalPanels, CrystalsMatchDenseLuWithEveryOrdering) {
  for (int block : {6, 3}) {
    // Dense LU of the two value sets once (the values follow the nodes, not
    // the ordering): it is most of this test's time under the sanitizers.
    std::vector<DenseReference> refs;
    for (gs::Ordering o : {gs::Ordering::Auto, gs::Ordering::AMD, gs::Ordering::ND}) {
      SCOPED_TRACE("block " + std::to_string(block) + ", " + gs::to_string(o));
      const gs::Symbolic sym = gs::analyze(fam::crystal(6, block), {o, {}});
      gs::BlockMatrix a(sym);
      gs::Factorization ldu(sym, gs::Method::LDU);
      EXPECT_GT(ldu.supernodal_panels(), 0);
      for (unsigned values : {0u, 1u}) {
        // Refactorization with other values reuses the panel buffers.
        fam::fill_values(a, fam::Values::Unsymmetric, 21 + values);
        if (refs.size() == values) refs.push_back(dense_reference(a, 5 + values));
        ASSERT_EQ(ldu.factorize(a), gs::Status::Success) << "failed node " << ldu.failed_node();
        expect_matches(a, ldu, refs[values]);
      }
    }
  }
}

TEST(SupernodalPanels, MixedBlockSizesIncludingEmptyAndDynamicNodes) {
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const gs::Symbolic sym = gs::analyze(mixed_crystal(6, seed));
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::Unsymmetric, seed);
    gs::Factorization ldu(sym, gs::Method::LDU);
    EXPECT_GT(ldu.supernodal_panels(), 0);
    EXPECT_GT(sym.stats().relaxed_blocks, 0);  // explicit zeros between sizes that differ
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success) << "failed node " << ldu.failed_node();
    expect_matches(a, ldu, dense_reference(a, seed));
  }
}

TEST(SupernodalPanels, InactiveNodesInsideAndOutsidePanels) {
  const gs::Symbolic sym = gs::analyze(fam::crystal(6, 6));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 8);
  gs::Factorization ldu(sym, gs::Method::LDU);
  ASSERT_GT(ldu.supernodal_panels(), 0);
  // The last positions are the top separator (the largest panel); the first
  // are leaves of the dissection.
  const auto& order = sym.order();
  const int n = static_cast<int>(order.size());
  const std::vector<int> off = {order[n - 1], order[n - 5], order[n - 20], order[n - 40], order[0], order[n / 2]};
  for (int v : off) a.set_active(v, false);
  ASSERT_EQ(ldu.factorize(a), gs::Status::Success) << "failed node " << ldu.failed_node();
  const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 4);
  Eigen::VectorXd x(a.rows());
  ASSERT_EQ(ldu.solve(b, x), gs::Status::Success);
  for (int v : off) a.set_active(v, true);
  EXPECT_LT(gs_test::reduced_solution_error(a.to_dense(), sym.pattern(), off, b, x), 1e-9);
  for (int v : off)  // an inactive node is an identity block
    EXPECT_EQ(x.segment(sym.pattern().offset[v], 6), b.segment(sym.pattern().offset[v], 6));
}

// The outer products accumulate into a buffer that the scatter leaves all
// zeros (LDLT and LLT: above the diagonal too, where nothing is taken). An
// entry left behind would be added to the next product: here, within one
// factorization (many strips, inactive nodes in and around the panels) and
// in the next factorizations of the same object, after one that overflowed.
TEST(SupernodalPanels, RefactorizationsMatchWhateverTheLastOneLeft) {
  const gs::Symbolic sym = gs::analyze(fam::crystal(7, 6));
  const auto& order = sym.order();
  const int n = static_cast<int>(order.size());
  const std::vector<int> off = {order[n - 1], order[n - 3], order[n - 30], order[n - 60], order[n / 2], order[5]};
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    const fam::Values values =
        method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite;
    gs::Factorization f(sym, method);
    ASSERT_GT(f.supernodal_panels(), 0);
    for (int round = 0; round < 4; ++round) {
      SCOPED_TRACE(round);
      gs::BlockMatrix a(sym);
      fam::fill_values(a, values, 20 + round);
      const std::vector<int> inactive = round % 2 == 0 ? off : std::vector<int>{};
      for (int v : inactive) a.set_active(v, false);
      if (round == 2) {  // first, finite values whose elimination overflows, up to the top separator
        gs::BlockMatrix overflowing = a;
        const int leaf = order[0], neighbour = sym.pattern().adj[sym.pattern().adj_begin[leaf]];
        overflowing.block(leaf, neighbour) *= 1e300;
        overflowing.block(neighbour, leaf) *= 1e300;
        EXPECT_NE(f.factorize(overflowing), gs::Status::Success);
      }
      ASSERT_EQ(f.factorize(a), gs::Status::Success) << "failed node " << f.failed_node();
      const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, round);
      Eigen::MatrixXd x(a.rows(), 2);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      // Against the matrix as factorized (inactive nodes as identity blocks);
      // a stable solve leaves about 1e-16, a leftover entry far more.
      EXPECT_LT(gs::backward_error(a, x, b, method), 1e-14);
    }
  }
}

// Failures inside a panel's outer rows name the node, as on the block path.
TEST(SupernodalPanels, FailuresInOuterRowsNameTheNode) {
  const gs::Symbolic sym = gs::analyze(fam::crystal(6, 6));
  const auto& order = sym.order();
  const int top = order[order.size() - 1];  // reached only through outer updates
  {
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::Unsymmetric, 3);
    a.diag(top)(2, 4) = std::numeric_limits<double>::quiet_NaN();
    gs::Factorization ldu(sym, gs::Method::LDU);
    ASSERT_GT(ldu.supernodal_panels(), 0);
    EXPECT_EQ(ldu.factorize(a), gs::Status::NonFiniteValue);
    EXPECT_EQ(ldu.failed_node(), top);
  }
  {
    // A node with a zero diagonal block and no couplings stays zero through
    // every update: its pivot is exactly singular.
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::Unsymmetric, 3);
    a.diag(top).setZero();
    for (auto [i, j] : sym.pattern().edges)
      if (i == top || j == top) {
        a.block(i, j).setZero();
        a.block(j, i).setZero();
      }
    gs::Factorization ldu(sym, gs::Method::LDU);
    EXPECT_EQ(ldu.factorize(a), gs::Status::SingularPivot);
    EXPECT_EQ(ldu.failed_node(), top);
  }
}

TEST(SupernodalPanels, SymmetricMethodsMatchDenseSolves) {
  for (int block : {6, 3}) {
    SCOPED_TRACE("block " + std::to_string(block));
    const gs::Symbolic sym = gs::analyze(fam::crystal(6, block));
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 4);
    const auto& order = sym.order();
    const int n = static_cast<int>(order.size());
    const std::vector<int> off = {order[n - 2], order[n - 30], order[3]};
    const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 9);
    const Eigen::MatrixXd dense = a.to_dense();
    const Eigen::MatrixXd reference = dense.llt().solve(b);
    for (gs::Method method : {gs::Method::LDLT, gs::Method::LLT}) {
      SCOPED_TRACE(gs::to_string(method));
      gs::Factorization f(sym, method);
      EXPECT_GT(f.supernodal_panels(), 0);
      ASSERT_EQ(f.factorize(a), gs::Status::Success) << "failed node " << f.failed_node();
      Eigen::MatrixXd x(a.rows(), 2);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      EXPECT_LT(gs_test::dense_residual(dense, x, b), 1e-10);
      EXPECT_LT((x - reference).norm() / x.norm(), 1e-8);
      // Inactive nodes, then all active again without a new analysis.
      for (int v : off) a.set_active(v, false);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      for (int v : off) a.set_active(v, true);
      EXPECT_LT(gs_test::reduced_solution_error(a.to_dense(), sym.pattern(), off, b, x), 1e-8);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      EXPECT_LT(gs_test::dense_residual(dense, x, b), 1e-10);
    }
  }
}

TEST(SupernodalPanels, SymmetricMixedSizesWithRelaxedZeros) {
  // Blocks of 0..8 rows, so that panels hold explicit zeros (relaxed supernodes):
  // LDLT on symmetric indefinite values, LLT on positive definite ones.
  const gs::Symbolic sym = gs::analyze(mixed_crystal(6, 4));
  EXPECT_GT(sym.stats().relaxed_blocks, 0);
  for (gs::Method method : {gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 4);
    if (method == gs::Method::LDLT)
      for (int v = 0; v < a.num_nodes(); v += 3) a.diag(v) *= -1.0;  // indefinite, still symmetric
    gs::Factorization f(sym, method);
    EXPECT_GT(f.supernodal_panels(), 0);
    ASSERT_EQ(f.factorize(a), gs::Status::Success) << "failed node " << f.failed_node();
    const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 1, 2);
    Eigen::MatrixXd x(a.rows(), 1);
    ASSERT_EQ(f.solve(b, x), gs::Status::Success);
    const Eigen::MatrixXd dense = a.to_dense();
    EXPECT_LT(gs_test::dense_residual(dense, x, b), 1e-9);
    EXPECT_LT((x - dense.partialPivLu().solve(b)).norm() / x.norm(), 1e-7);
  }
}

// A random graph's fronts run to 850 and more rows: past what one outer
// product covers (LDU computes it in strips of columns and rows, LDLT and LLT
// in strips of columns) and wide enough for panels of more than 48 columns.
TEST(SupernodalPanels, WideFrontsOfRandomGraphsInStrips) {
  const gs::Symbolic sym = gs::analyze(fam::random_graph(300, 1200, 6, 1));
  const Eigen::MatrixXd b = gs_test::random_rhs(sym.pattern().dimension, 2, 3);
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::BlockMatrix a(sym);
    const bool ldu = method == gs::Method::LDU;
    fam::fill_values(a, ldu ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite, 5);
    gs::Factorization f(sym, method);
    EXPECT_GT(f.supernodal_panels(), 0);
    ASSERT_EQ(f.factorize(a), gs::Status::Success) << "failed node " << f.failed_node();
    Eigen::MatrixXd x(a.rows(), 2);
    ASSERT_EQ(f.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs::relative_residual(a, x, b, method), 1e-10);
  }
}

TEST(SupernodalPanels, OnlyWhereStructuresNest) {
  // Chains and trees have no nested runs of pivots.
  EXPECT_EQ(gs::Factorization(gs::analyze(fam::chain(1000, 6))).supernodal_panels(), 0);
  EXPECT_EQ(gs::Factorization(gs::analyze(fam::random_tree(1000, 6, 1))).supernodal_panels(), 0);
  const gs::Symbolic crystal = gs::analyze(fam::crystal(6, 6));
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT})
    EXPECT_GT(gs::Factorization(crystal, method).supernodal_panels(), 0);
}
