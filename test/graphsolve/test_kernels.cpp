// The two builds of the small dense kernels (graphsolve/kernels.hpp): the
// choice between them, and that the wide ones (AVX2 and FMA) solve what the
// portable ones solve. The whole suite also runs with the portable kernels
// (CTest's portable.* tests), so on a CPU with AVX2 both are tested.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "graphsolve/families.hpp"
#include "graphsolve/graphsolve.hpp"
#include "test_support.hpp"

namespace {

namespace gs = graphsolve;
namespace fam = graphsolve::families;

// Puts back the kernels that were in use when the test began.
class Kernels : public ::testing::Test {
 protected:
  ~Kernels() override { gs::use_kernels(before_); }
  void require_wide() {
    if (!gs::wide_kernels_available()) GTEST_SKIP() << "this CPU has no AVX2 and FMA: only the portable kernels run";
  }

 private:
  gs::Kernels before_ = gs::active_kernels();
};

struct Solution {
  gs::Status status;
  Eigen::MatrixXd x;
  double min_pivot_ratio;
};

Solution solve_with(gs::Kernels kernels, const gs::Symbolic& symbolic, const gs::BlockMatrix& a, gs::Method method,
                    const Eigen::MatrixXd& b) {
  EXPECT_TRUE(gs::use_kernels(kernels));
  gs::Factorization f(symbolic, method);
  Solution s{f.factorize(a), b, 0.0};
  if (s.status == gs::Status::Success) {
    EXPECT_EQ(f.solve_in_place(s.x), gs::Status::Success);
  }
  s.min_pivot_ratio = f.min_pivot_ratio();
  return s;
}

// The matrix a method factorizes: the symmetric ones read the lower triangle.
Eigen::MatrixXd dense_as_read(const gs::BlockMatrix& a, gs::Method method) {
  const Eigen::MatrixXd dense = a.to_dense();
  if (method == gs::Method::LDU) return dense;
  return dense.triangularView<Eigen::Lower>().toDenseMatrix().selfadjointView<Eigen::Lower>();
}

// Both kernels on one system: the same status, solutions that each solve
// the dense system and agree, and the same smallest pivot ratio (their
// pivots differ in rounding only).
void expect_same_solutions(const gs::Symbolic& symbolic, const gs::BlockMatrix& a, gs::Method method,
                           const std::string& what) {
  SCOPED_TRACE(what + " with " + gs::to_string(method));
  const Eigen::MatrixXd b = gs_test::random_rhs(static_cast<int>(a.rows()), 2, 7);
  const Solution portable = solve_with(gs::Kernels::Portable, symbolic, a, method, b);
  const Solution wide = solve_with(gs::Kernels::Wide, symbolic, a, method, b);
  ASSERT_EQ(portable.status, gs::Status::Success);
  ASSERT_EQ(wide.status, gs::Status::Success);
  const Eigen::MatrixXd dense = dense_as_read(a, method);
  EXPECT_LT(gs_test::dense_backward_error(dense, portable.x, b), 1e-14);
  EXPECT_LT(gs_test::dense_backward_error(dense, wide.x, b), 1e-14);
  EXPECT_LT((wide.x - portable.x).norm(), 1e-10 * portable.x.norm());
  EXPECT_NEAR(wide.min_pivot_ratio, portable.min_pivot_ratio, 1e-10 * portable.min_pivot_ratio);
}

struct Family {
  std::string name;
  gs::Graph graph;
};

// A path of n nodes whose block sizes repeat `sizes`.
gs::Graph chain_of_sizes(int n, const std::vector<int>& sizes) {
  gs::Graph graph;
  for (int i = 0; i < n; ++i) graph.add_node(sizes[i % sizes.size()]);
  for (int i = 0; i + 1 < n; ++i) graph.add_edge(i, i + 1);
  return graph;
}

// LDU on `unsymmetric` values, then LDLT on `symmetric` ones, and LLT too
// when those are positive definite.
void expect_same_solutions(const Family& family, fam::Values unsymmetric, fam::Values symmetric,
                           const gs::AnalyzeOptions& options = {}) {
  const gs::Symbolic symbolic = gs::analyze(family.graph, options);
  gs::BlockMatrix a(symbolic);
  fam::fill_values(a, unsymmetric, 11);
  expect_same_solutions(symbolic, a, gs::Method::LDU, family.name);
  fam::fill_values(a, symmetric, 11);
  expect_same_solutions(symbolic, a, gs::Method::LDLT, family.name);
  if (symmetric == fam::Values::SymmetricPositiveDefinite)
    expect_same_solutions(symbolic, a, gs::Method::LLT, family.name);
}

// The kernels a process starts with (kernel_choice.cpp) follow its
// environment; CTest runs this test in processes whose environment it sets
// (test/CMakeLists.txt, the kernel_choice.* tests) and names the kernels
// expected in GS_EXPECTED_START_KERNELS: "wide" where the CPU has them.
TEST(KernelChoice, StartsWithTheKernelsTheEnvironmentAsks) {
  const char* expected = std::getenv("GS_EXPECTED_START_KERNELS");
  if (!expected) GTEST_SKIP() << "run by the kernel_choice.* tests, which set GS_EXPECTED_START_KERNELS";
  const std::string wanted = expected;
  ASSERT_TRUE(wanted == "wide" || wanted == "portable") << wanted;
  const gs::Kernels start = wanted == "wide" && gs::wide_kernels_available() ? gs::Kernels::Wide : gs::Kernels::Portable;
  EXPECT_EQ(gs::active_kernels(), start);
}

TEST_F(Kernels, UseKernelsPicksWhatRuns) {
  ASSERT_TRUE(gs::use_kernels(gs::Kernels::Portable));
  EXPECT_EQ(gs::active_kernels(), gs::Kernels::Portable);
  EXPECT_EQ(gs::use_kernels(gs::Kernels::Wide), gs::wide_kernels_available());
  EXPECT_EQ(gs::active_kernels(), gs::wide_kernels_available() ? gs::Kernels::Wide : gs::Kernels::Portable);
  EXPECT_STREQ(gs::to_string(gs::Kernels::Portable), "portable");
  EXPECT_STREQ(gs::to_string(gs::Kernels::Wide), "wide");
}

// The families and values of the benchmark, with blocks of 5 and 6 (the
// sizes the wide kernels take) and of 3 (which they leave to the portable
// ones), so that their panels, strips and products of mixed sizes all run.
TEST_F(Kernels, BothSolveTheFamiliesAlike) {
  require_wide();
  std::vector<Family> families;
  for (int b : {3, 5, 6}) {
    const std::string size = " of " + std::to_string(b) + "x" + std::to_string(b);
    families.push_back({"chain" + size, fam::chain(40, b)});
    families.push_back({"tree" + size, fam::random_tree(40, b, 3)});
    families.push_back({"ladder" + size, fam::ladder(15, b)});
    families.push_back({"net" + size, fam::net(5, b)});
    families.push_back({"crystal" + size, fam::crystal(3, b)});
  }
  // Forest edges between blocks of different sizes: every ordered pair of
  // sizes from 1 to 6 is an edge of the second chain (a de Bruijn sequence).
  families.push_back({"chain of 5x5 and 6x6 in turn", chain_of_sizes(31, {5, 6})});
  families.push_back({"chain of sizes 1 to 6", chain_of_sizes(37, {1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6, 2, 2, 3, 2, 4, 2, 5, 2,
                                                                   6, 3, 3, 4, 3, 5, 3, 6, 4, 4, 5, 4, 6, 5, 5, 6, 6, 1})});
  // Past 6 rows the products run as tiles of the kernels above.
  families.push_back({"chain of sizes 7 to 14 and 25", chain_of_sizes(20, {7, 8, 9, 10, 11, 12, 13, 14, 25})});
  families.push_back({"crystal of 12x12", fam::crystal(3, 12)});
  for (const Family& family : families)
    expect_same_solutions(family, fam::Values::Unsymmetric, fam::Values::SymmetricPositiveDefinite);
  // 6x6 bodies and joints with zero diagonals, whose pivots must pivot: 5
  // rows on a tree, 3 on a ladder (5 would overconstrain its loops), as in
  // the benchmark.
  expect_same_solutions({"saddle tree", fam::mechanism(fam::random_tree(20, 6, 4), 5, true)},
                        fam::Values::SaddleUnsymmetric, fam::Values::Saddle);
  expect_same_solutions({"saddle ladder", fam::mechanism(fam::ladder(10, 6), 3, true)},
                        fam::Values::SaddleUnsymmetric, fam::Values::Saddle);
}

// A ring of n nodes: eliminated in order, every pivot but the last two has
// two later neighbours, its successor and the filled block to the end.
gs::Graph ring(int n, int b) {
  gs::Graph graph = fam::chain(n, b);
  graph.add_edge(0, n - 1);
  return graph;
}

// Pivots whose only later neighbours are two blocks of their size (the
// ladder's, a ring's) take one fused kernel with the wide kernels on: every
// block size from 1 to 6, each method, the row magnitudes it widens checked
// through the smallest pivot ratio.
TEST_F(Kernels, BothEliminatePairsAlike) {
  require_wide();
  for (int b = 1; b <= 6; ++b) {
    const std::string size = " of " + std::to_string(b) + "x" + std::to_string(b);
    expect_same_solutions({"ladder" + size, fam::ladder(12, b)}, fam::Values::Unsymmetric,
                          fam::Values::SymmetricPositiveDefinite);
    expect_same_solutions({"ring" + size, ring(17, b)}, fam::Values::Unsymmetric,
                          fam::Values::SymmetricPositiveDefinite);
  }
}

// A pivot whose two later neighbours differ in size from it and from each
// other (a saddle-point ladder's bodies and joints): every triple of sizes
// from 1 to 6, with the neighbours coupled and with their block filled in.
// Node ids put the pivot between its neighbours, so that each of its blocks
// is read from the lower triangle on one side and the upper on the other.
TEST_F(Kernels, BothEliminatePairsOfMixedSizesAlike) {
  require_wide();
  for (int b = 1; b <= 6; ++b)
    for (int a_rows = 1; a_rows <= 6; ++a_rows)
      for (int c_rows = 1; c_rows <= 6; ++c_rows)
        for (const bool coupled : {true, false}) {
          gs::Graph graph;
          const gs::NodeId a = graph.add_node(a_rows), k = graph.add_node(b), c = graph.add_node(c_rows);
          graph.add_edge(k, a);
          graph.add_edge(k, c);
          if (coupled) graph.add_edge(a, c);
          gs::AnalyzeOptions options;
          options.ordering = gs::Ordering::Given;
          options.order = {k, a, c};
          const std::string what = "pivot of " + std::to_string(b) + " rows, neighbours of " +
                                   std::to_string(a_rows) + " and " + std::to_string(c_rows) +
                                   (coupled ? ", coupled" : ", filled");
          expect_same_solutions({what, graph}, fam::Values::Unsymmetric, fam::Values::SymmetricPositiveDefinite,
                                options);
        }
}

// A pivot with three later neighbours takes the general path, whose block
// products the wide kernels take for every height and inner size from 1 to
// 6: here every triple of the pivot's size and its first two neighbours'
// (the third's varies with them), so that each product of a neighbour's
// rows by the pivot's occurs, and the strips of two neighbours' rows
// (taller than 6 rows: one of 6 and the rest) too.
TEST_F(Kernels, BothTakeGeneralPivotsOfMixedSizesAlike) {
  require_wide();
  for (int b = 1; b <= 6; ++b)
    for (int a_rows = 1; a_rows <= 6; ++a_rows)
      for (int c_rows = 1; c_rows <= 6; ++c_rows) {
        const int e_rows = (a_rows + c_rows) % 6 + 1;
        gs::Graph graph;
        const gs::NodeId k = graph.add_node(b), a = graph.add_node(a_rows), c = graph.add_node(c_rows),
                         e = graph.add_node(e_rows);
        for (gs::NodeId v : {a, c, e}) graph.add_edge(k, v);
        graph.add_edge(a, c);
        gs::AnalyzeOptions options;
        options.ordering = gs::Ordering::Given;
        options.order = std::vector<gs::NodeId>{k, a, c, e};  // not = {...}: GCC 12 warns falsely (-Wnonnull)
        const std::string what = "pivot of " + std::to_string(b) + " rows, neighbours of " + std::to_string(a_rows) +
                                 ", " + std::to_string(c_rows) + " and " + std::to_string(e_rows);
        expect_same_solutions({what, graph}, fam::Values::Unsymmetric, fam::Values::SymmetricPositiveDefinite,
                              options);
      }
}

// A pivot k whose later neighbours all have its size (3 to 6 rows, a net's
// or crystal's pivot) updates each neighbour's row and column through one
// wide call per row. Here k has five: a, then c1..c4, where a also couples
// to x, eliminated last, so that a's list is not the tail of k's (no strip
// product) and the updates of a's row land between its entries. Then c2,
// one of those targets, is switched off: the reduced system is solved and
// c2 stays an identity block.
TEST_F(Kernels, BothUpdateUniformFrontsAlike) {
  require_wide();
  for (int b = 3; b <= 6; ++b) {
    gs::Graph graph;
    const gs::NodeId k = graph.add_node(b), a = graph.add_node(b);
    std::vector<gs::NodeId> c;
    for (int i = 0; i < 4; ++i) c.push_back(graph.add_node(b));
    const gs::NodeId x = graph.add_node(b);
    graph.add_edge(k, a);
    for (gs::NodeId v : c) graph.add_edge(k, v);
    graph.add_edge(a, x);
    graph.add_edge(x, c[3]);
    gs::AnalyzeOptions options;
    options.ordering = gs::Ordering::Given;
    options.order = std::vector<gs::NodeId>{k, a, c[0], c[1], c[2], c[3], x};
    const std::string what = "front of " + std::to_string(b) + "x" + std::to_string(b) + " blocks";
    expect_same_solutions({what, graph}, fam::Values::Unsymmetric, fam::Values::SymmetricPositiveDefinite, options);

    const gs::Symbolic symbolic = gs::analyze(graph, options);
    gs::BlockMatrix m(symbolic);
    const std::vector<int> off = {c[1]};
    for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
      fam::fill_values(m, method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite,
                       9);
      const Eigen::MatrixXd dense = dense_as_read(m, method);
      m.set_active(c[1], false);
      const Eigen::MatrixXd rhs = gs_test::random_rhs(static_cast<int>(m.rows()), 2, 4);
      SCOPED_TRACE(what + ", " + gs::to_string(method) + ", c2 off");
      const Solution s = solve_with(gs::Kernels::Wide, symbolic, m, method, rhs);
      ASSERT_EQ(s.status, gs::Status::Success);
      EXPECT_LT(gs_test::reduced_solution_error(dense, symbolic.pattern(), off, rhs, s.x), 1e-12);
      const int row = symbolic.pattern().offset[c[1]];
      EXPECT_EQ(s.x.middleRows(row, b), rhs.middleRows(row, b));
      m.set_active(c[1], true);
    }
  }
}

// Ladders with nodes switched off, among them neighbours of pairs: each
// inactive node stays an identity block (x_v = b_v) and the rest solves the
// reduced system, for every method and both kernels.
TEST_F(Kernels, PairsWithAnInactiveNeighbourSolveTheReducedSystem) {
  require_wide();
  for (int b : {3, 6}) {
    const gs::Symbolic symbolic = gs::analyze(fam::ladder(10, b));
    gs::BlockMatrix a(symbolic);
    const std::vector<int> off = {3, 8, 15};  // rail nodes in the middle and a rung end
    for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
      fam::fill_values(a, method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite,
                       5);
      const Eigen::MatrixXd dense = dense_as_read(a, method);
      for (int v : off) a.set_active(v, false);
      const Eigen::MatrixXd rhs = gs_test::random_rhs(static_cast<int>(a.rows()), 2, 3);
      for (gs::Kernels kernels : {gs::Kernels::Portable, gs::Kernels::Wide}) {
        SCOPED_TRACE(std::string(gs::to_string(kernels)) + " kernels, " + gs::to_string(method) + ", blocks of " +
                     std::to_string(b));
        const Solution s = solve_with(kernels, symbolic, a, method, rhs);
        ASSERT_EQ(s.status, gs::Status::Success);
        EXPECT_LT(gs_test::reduced_solution_error(dense, symbolic.pattern(), off, rhs, s.x), 1e-10);
        for (int v : off) {
          const int row = symbolic.pattern().offset[v];
          EXPECT_EQ(s.x.middleRows(row, b), rhs.middleRows(row, b)) << "inactive node " << v;
        }
      }
      for (int v : off) a.set_active(v, true);
    }
  }
}

// Diagonal blocks with no dominant diagonal, so that partial pivoting
// interchanges rows in most pivots (the wide Gauss-Jordan's exchanges, one
// branch per pair of rows), on a chain of alternating 5x5 and 6x6 nodes.
TEST_F(Kernels, BothPivotAlike) {
  require_wide();
  const gs::Symbolic symbolic = gs::analyze(chain_of_sizes(12, {6, 5}));
  gs::BlockMatrix a(symbolic);
  std::mt19937 rng(42);
  std::normal_distribution<double> normal;
  const auto fill = [&](auto block) {
    for (Eigen::Index j = 0; j < block.cols(); ++j)
      for (Eigen::Index i = 0; i < block.rows(); ++i) block(i, j) = normal(rng);
  };
  for (int i = 0; i < 12; ++i) {
    fill(a.diag(i));
    a.diag(i) *= 4.0;  // random, so rarely in pivoting order; larger than the couplings
  }
  for (int i = 0; i + 1 < 12; ++i) {
    fill(a.block(i, i + 1));
    fill(a.block(i + 1, i));
  }
  expect_same_solutions(symbolic, a, gs::Method::LDU, "random chain");
}

// Every row exchange the wide Gauss-Jordan can make (rows J < P of a 5x5 or
// 6x6 pivot; each pair is its own branch there, its lanes constants): node
// k's diagonal block is the identity with rows J and P swapped, plus small
// noise, so that partial pivoting keeps the order but at step J, where row
// P holds the largest entry. A wrong lane in any exchange leaves the
// solution wrong or unlike the portable kernels'.
TEST_F(Kernels, BothExchangeEveryPairOfRowsAlike) {
  require_wide();
  std::vector<int> sizes;
  std::vector<std::pair<int, int>> exchanged;
  for (int b : {5, 6})
    for (int j = 0; j < b; ++j)
      for (int p = j + 1; p < b; ++p) {
        sizes.push_back(b);
        exchanged.emplace_back(j, p);
      }
  const int n = static_cast<int>(sizes.size());
  const gs::Symbolic symbolic = gs::analyze(chain_of_sizes(n, sizes));
  gs::BlockMatrix a(symbolic);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> noise(-0.01, 0.01);
  const auto fill = [&](auto block) {
    for (Eigen::Index j = 0; j < block.cols(); ++j)
      for (Eigen::Index i = 0; i < block.rows(); ++i) block(i, j) = noise(rng);
  };
  for (int k = 0; k < n; ++k) {
    auto d = a.diag(k);
    fill(d);
    Eigen::VectorXi row_of = Eigen::VectorXi::LinSpaced(sizes[k], 0, sizes[k] - 1);
    std::swap(row_of[exchanged[k].first], row_of[exchanged[k].second]);
    for (int c = 0; c < sizes[k]; ++c) d(row_of[c], c) += 1.0;
  }
  for (int k = 0; k + 1 < n; ++k) {
    fill(a.block(k, k + 1));
    fill(a.block(k + 1, k));
  }
  expect_same_solutions(symbolic, a, gs::Method::LDU, "a chain of exchanged rows");
}

// A singular pivot and an indefinite one are refused alike, at the same node.
TEST_F(Kernels, BothRefuseAlike) {
  require_wide();
  for (int b : {5, 6}) {
    const gs::Symbolic symbolic = gs::analyze(fam::chain(6, b));
    gs::BlockMatrix a(symbolic);
    fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 2);
    gs::BlockMatrix singular = a, indefinite = a;
    singular.diag(3).row(b - 1).setZero();  // and the column: the lower triangle is read
    singular.diag(3).col(b - 1).setZero();
    singular.block(3, 2).row(b - 1).setZero();
    singular.block(3, 4).row(b - 1).setZero();
    singular.block(2, 3).col(b - 1).setZero();
    singular.block(4, 3).col(b - 1).setZero();
    indefinite.diag(2)(b - 1, b - 1) = -indefinite.diag(2)(b - 1, b - 1);
    for (gs::Kernels kernels : {gs::Kernels::Portable, gs::Kernels::Wide}) {
      SCOPED_TRACE(std::string(gs::to_string(kernels)) + " kernels, blocks of " + std::to_string(b));
      ASSERT_TRUE(gs::use_kernels(kernels));
      gs::Factorization ldu(symbolic, gs::Method::LDU), llt(symbolic, gs::Method::LLT);
      EXPECT_EQ(ldu.factorize(singular), gs::Status::SingularPivot);
      EXPECT_EQ(ldu.failed_node(), 3);
      EXPECT_EQ(llt.factorize(indefinite), gs::Status::NotPositiveDefinite);
      EXPECT_EQ(llt.failed_node(), 2);
    }
  }
}

}  // namespace
