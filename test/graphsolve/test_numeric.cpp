// Numeric behaviour beyond plain solves: refactorization, activation, shifts
// and iterative refinement.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

TEST(Numeric, RefactorizationMatchesAFreshFactorization) {
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    const gs::Symbolic sym = gs::analyze(fam::ladder(20, 6));
    const auto values = method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite;
    gs::BlockMatrix a(sym);
    gs::Factorization reused(sym, method);
    const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 3);
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      fam::fill_values(a, values, seed);
      ASSERT_EQ(reused.factorize(a), gs::Status::Success);
      gs::Factorization fresh(sym, method);
      ASSERT_EQ(fresh.factorize(a), gs::Status::Success);
      Eigen::VectorXd x1(a.rows()), x2(a.rows());
      ASSERT_EQ(reused.solve(b, x1), gs::Status::Success);
      ASSERT_EQ(fresh.solve(b, x2), gs::Status::Success);
      EXPECT_EQ(x1, x2);  // same operations in the same order: bitwise equal
      EXPECT_LT(gs_test::dense_residual(a.to_dense(), x1, b), 1e-12);
    }
  }
}

TEST(Numeric, InactiveNodesGiveTheReducedSystem) {
  // Bodies with contact-like leaves and a loop; switch off leaves and an inner node.
  gs::Graph g = fam::mechanism(fam::ladder(4, 6), 3, true);
  std::vector<gs::NodeId> leaves;
  for (int body = 0; body < 8; ++body) leaves.push_back(g.add_node(1 + body % 3));
  for (int body = 0; body < 8; ++body) g.add_edge(body, leaves[body]);
  for (gs::Ordering o : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND}) {
    const gs::Symbolic sym = gs::analyze(g, {o, {}});
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SaddleUnsymmetric, 9);
    const std::vector<int> off = {leaves[1], leaves[4], leaves[7], 11};  // 11 is a joint inside a loop
    for (int v : off) a.set_active(v, false);
    gs::Factorization ldu(sym);
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success) << gs::to_string(o) << " node " << ldu.failed_node();
    const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 4);
    Eigen::VectorXd x(a.rows());
    ASSERT_EQ(ldu.solve(b, x), gs::Status::Success);

    a.set_active(leaves[1], true);  // the stored values are still there
    for (int v : off) a.set_active(v, true);
    EXPECT_LT(gs_test::reduced_solution_error(a.to_dense(), sym.pattern(), off, b, x), 1e-9);
    for (int v : off)  // an inactive node is an identity block: x_v = b_v
      EXPECT_EQ(x.segment(sym.pattern().offset[v], sym.pattern().size[v]),
                b.segment(sym.pattern().offset[v], sym.pattern().size[v]));

    // On again without a new analysis: the full system.
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success);
    ASSERT_EQ(ldu.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-10);
  }
}

// One right-hand side with blocks of at most 6 rows takes a solve of its own
// (fixed-size vector kernels); several take the general one. Both must give
// the same solution on every method, ordering and block size, with inactive
// nodes and with scalar rows that have several later neighbours (a block row
// of the lower factor is then strided).
TEST(Numeric, OneRightHandSideMatchesItsColumnAmongSeveral) {
  std::vector<std::pair<std::string, gs::Graph>> graphs = {
      {"scalar net", fam::net(5, 1)}, {"2x2 crystal", fam::crystal(3, 2)}, {"3x3 tree", fam::random_tree(30, 3, 4)},
      {"saddle ladder", fam::mechanism(fam::ladder(4, 6), 3, true)}};
  gs::Graph mixed;
  std::mt19937 rng(17);
  for (int i = 0; i < 30; ++i) mixed.add_node(1 + i % 6);
  for (int i = 1; i < 30; ++i) mixed.add_edge(i, std::uniform_int_distribution<int>(0, i - 1)(rng));
  for (int k = 0; k < 12; ++k) mixed.add_edge(k, 29 - k);
  graphs.push_back({"mixed 1..6", mixed});
  for (const auto& [name, graph] : graphs) {
    const bool saddle = name.rfind("saddle", 0) == 0;
    for (gs::Ordering o : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND}) {
      const gs::Symbolic sym = gs::analyze(graph, {o, {}});
      for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
        if (saddle && method == gs::Method::LLT) continue;
        SCOPED_TRACE(name + " " + gs::to_string(o) + " " + gs::to_string(method));
        gs::BlockMatrix a(sym);
        fam::fill_values(a, saddle ? fam::Values::Saddle
                                   : method == gs::Method::LDU ? fam::Values::Unsymmetric
                                                               : fam::Values::SymmetricPositiveDefinite,
                         5);
        a.set_active(graph.num_nodes() / 2, false);
        gs::Factorization f(sym, method);
        ASSERT_EQ(f.factorize(a), gs::Status::Success) << "node " << f.failed_node();
        const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 3, 8);
        Eigen::MatrixXd several(a.rows(), 3);
        Eigen::VectorXd one(a.rows());
        ASSERT_EQ(f.solve(b, several), gs::Status::Success);
        ASSERT_EQ(f.solve(b.col(1), one), gs::Status::Success);
        EXPECT_LT((one - several.col(1)).norm(), 1e-12 * several.col(1).norm());
        a.set_active(graph.num_nodes() / 2, true);
        EXPECT_LT(gs_test::reduced_solution_error(a.to_dense(), sym.pattern(), {graph.num_nodes() / 2}, b.col(1), one),
                  1e-9);
      }
    }
  }
}

TEST(Numeric, ShiftsSolveTheShiftedSystem) {
  const gs::Graph g = fam::mechanism(fam::net(3, 6), 3, false);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Saddle, 2);
  gs::FactorOptions options;
  options.shift = 0.25;
  options.constraint_shift = -0.5;
  Eigen::MatrixXd shifted = a.to_dense();
  const gs::Pattern& p = sym.pattern();
  for (int v = 0; v < p.num_nodes; ++v)
    for (int r = 0; r < p.size[v]; ++r)
      shifted(p.offset[v] + r, p.offset[v] + r) += p.kind[v] == gs::NodeKind::ZeroDiagonal ? -0.25 : 0.25;
  const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 8);
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT}) {
    gs::Factorization f(sym, method);
    ASSERT_EQ(f.factorize(a, options), gs::Status::Success);
    Eigen::VectorXd x(a.rows());
    ASSERT_EQ(f.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(shifted, x, b), 1e-12);
  }
}

TEST(Numeric, RedundantConstraintsNeedARegularization) {
  // Two identical joints between the same bodies: rank-deficient constraints.
  gs::Graph g;
  const auto b0 = g.add_node(6), b1 = g.add_node(6);
  const auto j0 = g.add_node(3, gs::NodeKind::ZeroDiagonal), j1 = g.add_node(3, gs::NodeKind::ZeroDiagonal);
  for (auto j : {j0, j1}) {
    g.add_edge(b0, j);
    g.add_edge(j, b1);
  }
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Saddle, 1);
  for (auto body : {b0, b1}) {
    a.block(j1, body) = a.block(j0, body);
    a.block(body, j1) = a.block(body, j0);
  }
  gs::Factorization f(sym, gs::Method::LDLT);
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  EXPECT_TRUE(f.failed_node() == j0 || f.failed_node() == j1);
  Eigen::VectorXd x(a.rows());
  EXPECT_EQ(f.solve(Eigen::VectorXd::Ones(a.rows()), x), gs::Status::NotFactorized);

  // SPOOK-style regularization: solve (A - eps I_constraints) x = b.
  gs::FactorOptions options;
  options.constraint_shift = -1e-8;
  ASSERT_EQ(f.factorize(a, options), gs::Status::Success);
  const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 2);
  ASSERT_EQ(f.solve(b, x), gs::Status::Success);
  Eigen::MatrixXd regularized = a.to_dense();
  regularized.bottomRightCorner(6, 6).diagonal().array() -= 1e-8;
  EXPECT_LT(gs_test::dense_residual(regularized, x, b), 1e-8);
}

TEST(Numeric, RefinementRepairsPivotGrowth) {
  // A tiny but valid first pivot: static block pivoting then loses about ten
  // digits, which refinement against the original matrix wins back.
  gs::Graph g;
  for (int i = 0; i < 2; ++i) g.add_node(1);
  g.add_edge(0, 1);
  const gs::Symbolic sym = gs::analyze(g, {gs::Ordering::Given, {0, 1}});
  gs::BlockMatrix a(sym);
  a.diag(0)(0, 0) = 1e-10;
  a.diag(1)(0, 0) = 1.0;
  a.block(0, 1)(0, 0) = 1.0;
  a.block(1, 0)(0, 0) = 1.0 + 1e-9;
  const Eigen::Vector2d b(1.0, std::sqrt(2.0));
  gs::Factorization f(sym);
  ASSERT_EQ(f.factorize(a), gs::Status::Success);
  Eigen::VectorXd plain(2), refined(2);
  ASSERT_EQ(f.solve(b, plain), gs::Status::Success);
  ASSERT_EQ(f.solve_refined(a, b, refined, 3), gs::Status::Success);
  const double r_plain = gs::relative_residual(a, plain, b), r_refined = gs::relative_residual(a, refined, b);
  EXPECT_GT(r_plain, 1e-12);
  EXPECT_LT(r_refined, 1e-15);
  EXPECT_NEAR(r_refined, gs_test::dense_residual(a.to_dense(), refined, b), 1e-15);
  EXPECT_GT(gs::backward_error(a, plain, b), 1e-12);
  EXPECT_LT(gs::backward_error(a, refined, b), 1e-16);

  // The transposed system has the same tiny first pivot, and refinement
  // against A^T wins the same digits back.
  const Eigen::MatrixXd transposed = a.to_dense().transpose();
  ASSERT_EQ(f.solve_transposed(b, plain), gs::Status::Success);
  ASSERT_EQ(f.solve_transposed_refined(a, b, refined, 3), gs::Status::Success);
  EXPECT_GT(gs_test::dense_residual(transposed, plain, b), 1e-12);
  EXPECT_LT(gs_test::dense_residual(transposed, refined, b), 1e-15);
}

// LDLT and LLT read only the lower triangle, and so does their refinement:
// with the upper blocks left zero (or anything), refining against them would
// converge to the solution of another matrix.
TEST(Numeric, SymmetricRefinementReadsTheLowerTriangle) {
  const gs::Symbolic sym = gs::analyze(fam::ladder(5, 3));
  const gs::Pattern& p = sym.pattern();
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 3);
  const Eigen::MatrixXd symmetric = a.to_dense();
  for (int e = 0; e < p.num_edges; ++e) a.block(p.edges[e].first, p.edges[e].second).setZero();
  for (int v = 0; v < p.num_nodes; ++v) a.diag(v).triangularView<Eigen::StrictlyUpper>().setConstant(5.0);
  const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 4);
  for (const gs::Method method : {gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::Factorization f(sym, method);
    ASSERT_EQ(f.factorize(a), gs::Status::Success);
    Eigen::MatrixXd x(a.rows(), 2);
    for (int steps : {1, 3}) {
      ASSERT_EQ(f.solve_refined(a, b, x, steps), gs::Status::Success);
      EXPECT_LT(gs_test::dense_residual(symmetric, x, b), 1e-14);
      ASSERT_EQ(f.solve_transposed_refined(a, b, x, steps), gs::Status::Success);
      EXPECT_LT(gs_test::dense_residual(symmetric, x, b), 1e-14);
    }
  }
}

// The backward error and the norm behind it, against the dense matrix that
// multiply() applies (an inactive node as identity), column by column.
TEST(Numeric, BackwardErrorAndNormMatchTheDenseMatrix) {
  const gs::Symbolic sym = gs::analyze(fam::ladder(4, 3));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 5);
  a.set_active(2, false);
  const Eigen::MatrixXd dense = a.to_dense();
  EXPECT_NEAR(a.frobenius_norm(), dense.norm(), 1e-13 * dense.norm());
  const Eigen::MatrixXd x = gs_test::random_rhs(a.rows(), 3, 1), b = gs_test::random_rhs(a.rows(), 3, 2);
  const double expected = gs_test::dense_backward_error(dense, x, b);
  EXPECT_NEAR(gs::backward_error(a, x, b), expected, 1e-14 * expected);
  EXPECT_EQ(gs::backward_error(a, Eigen::MatrixXd::Zero(a.rows(), 1), Eigen::MatrixXd::Zero(a.rows(), 1)), 0.0);
  EXPECT_THROW(gs::backward_error(a, x, b.leftCols(2)), std::invalid_argument);
  EXPECT_THROW(gs::relative_residual(a, x, b.topRows(3)), std::invalid_argument);
  // Values near DBL_MAX: the squares would overflow, the norms do not.
  a.set_active(2, true);
  const double norm = a.frobenius_norm();
  for (gs::NodeId i = 0; i < a.num_nodes(); ++i) a.diag(i) *= 1e300;
  for (const auto& [i, j] : sym.pattern().edges) a.block(i, j) *= 1e300, a.block(j, i) *= 1e300;
  EXPECT_NEAR(a.frobenius_norm() / 1e300, norm, 1e-13 * norm);
  const Eigen::MatrixXd huge_b = 1e300 * b;
  EXPECT_NEAR(gs::relative_residual(a, Eigen::MatrixXd::Zero(a.rows(), 3), huge_b), 1.0, 1e-14);
}

// For LDLT and LLT the checks measure against the symmetric matrix of the
// lower triangle, the one factorized: garbage in the upper blocks and in the
// diagonal blocks' upper triangles changes nothing, and an inactive node is
// identity as before.
TEST(Numeric, SymmetricChecksReadTheLowerTriangle) {
  // Ladders of 2 and 3 rows load through the fixed-size path, of 6 through
  // the wide one, and a random graph of mixed sizes (with cycles, so fill
  // too) through the mixed one (load_uniform*.cpp).
  const int mixed_sizes[] = {6, 5, 3, 6, 2, 4, 1, 6};
  const std::vector<gs::Graph> graphs = {
      fam::ladder(4, 2), fam::ladder(4, 3), fam::ladder(4, 6),
      gs_test::random_connected_graph(8, 3, 8, [&](int i, auto&) { return mixed_sizes[i]; })};
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    SCOPED_TRACE(g);
    const gs::Graph& graph = graphs[g];
    const gs::Symbolic sym = gs::analyze(graph);
    const gs::Pattern& p = sym.pattern();
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 6);
    a.set_active(3, false);
    const Eigen::MatrixXd symmetric = a.to_dense();
    for (int e = 0; e < p.num_edges; ++e) a.block(p.edges[e].first, p.edges[e].second).setConstant(-3.0);
    for (int v = 0; v < p.num_nodes; ++v) a.diag(v).triangularView<Eigen::StrictlyUpper>().setConstant(5.0);
    ASSERT_GT((a.to_dense() - symmetric).norm(), 1.0);  // the garbage is there
    EXPECT_NEAR(a.frobenius_norm_symmetric_lower(), symmetric.norm(), 1e-13 * symmetric.norm());

    const Eigen::MatrixXd x = gs_test::random_rhs(a.rows(), 3, 1), b = gs_test::random_rhs(a.rows(), 3, 2);
    const double backward = gs_test::dense_backward_error(symmetric, x, b);
    const double residual = (symmetric * x - b).norm() / b.norm();
    for (const gs::Method method : {gs::Method::LDLT, gs::Method::LLT}) {
      SCOPED_TRACE(gs::to_string(method));
      EXPECT_NEAR(gs::backward_error(a, x, b, method), backward, 1e-14 * backward);
      EXPECT_NEAR(gs::relative_residual(a, x, b, method), residual, 1e-14 * residual);
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      Eigen::MatrixXd solution(a.rows(), 3);
      ASSERT_EQ(f.solve(b, solution), gs::Status::Success);
      EXPECT_LT(gs::relative_residual(a, solution, b, method), 1e-14);
      EXPECT_LT(gs::backward_error(a, solution, b, method), 1e-15);
      EXPECT_GT(gs::relative_residual(a, solution, b), 0.1);  // read as LDU: the garbage counts
    }
  }
}

// A singular A factorized with a shift: b has a part outside A's range that
// no x removes, and each unchecked round would add another (b's part) / shift
// along A's null space. Refinement stops instead of running all its rounds.
TEST(Numeric, RefinementStopsWhenItNoLongerHelps) {
  gs::Graph g;
  g.add_node(2);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  a.diag(0) << 1.0, 1.0, 1.0, 1.0;
  gs::FactorOptions shifted;
  shifted.shift = 1e-3;
  gs::Factorization f(sym);
  ASSERT_EQ(f.factorize(a, shifted), gs::Status::Success);
  const Eigen::Vector2d b(1.0, 0.0);
  Eigen::VectorXd plain(2), refined(2);
  ASSERT_EQ(f.solve(b, plain), gs::Status::Success);
  ASSERT_EQ(f.solve_refined(a, b, refined, 1000000000), gs::Status::Success);  // would run for minutes
  EXPECT_LE(refined.norm(), 2.0 * plain.norm());
  // The residual that can be removed is: A x = (0.5, 0.5) up to the null-space part.
  EXPECT_LT(gs::relative_residual(a, refined, b), gs::relative_residual(a, plain, b) + 1e-12);
  EXPECT_NEAR((a.to_dense() * refined)(0), 0.5, 1e-6);
}

TEST(Numeric, SizeZeroNodesAndEmptySystems) {
  gs::Graph g;
  const auto a0 = g.add_node(0), a1 = g.add_node(3), a2 = g.add_node(0, gs::NodeKind::ZeroDiagonal), a3 = g.add_node(2);
  g.add_edge(a0, a1);
  g.add_edge(a1, a2);
  g.add_edge(a2, a3);
  g.add_edge(a0, a3);
  for (gs::Ordering o : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND}) {
    const gs::Symbolic sym = gs::analyze(g, {o, {}});
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::Unsymmetric, 3);
    gs::Factorization f(sym);
    ASSERT_EQ(f.factorize(a), gs::Status::Success);
    const Eigen::MatrixXd b = gs_test::random_rhs(5, 2, 1);
    Eigen::MatrixXd x(5, 2);
    ASSERT_EQ(f.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-14);
  }
  const gs::Symbolic empty = gs::analyze(gs::Graph());
  gs::BlockMatrix a(empty);
  gs::Factorization f(empty);
  EXPECT_EQ(f.factorize(a), gs::Status::Success);
  Eigen::MatrixXd x(0, 1);
  EXPECT_EQ(f.solve_in_place(x), gs::Status::Success);
}

TEST(Numeric, SparseExportEqualsDenseExport) {
  gs::Graph g = fam::mechanism(fam::ladder(3, 6), 3, true);
  g.add_node(0);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::SaddleUnsymmetric, 3);
  a.set_active(7, false);
  const Eigen::SparseMatrix<double, Eigen::ColMajor, int> sparse = gs::to_sparse(a);
  EXPECT_EQ(Eigen::MatrixXd(sparse), a.to_dense());
  // Block pattern: every entry of every block is stored, zeros included.
  long stored = 0;
  for (int v = 0; v < a.num_nodes(); ++v) stored += long(sym.pattern().size[v]) * sym.pattern().size[v];
  for (auto [i, j] : sym.pattern().edges)
    if (a.active(i) && a.active(j)) stored += 2L * sym.pattern().size[i] * sym.pattern().size[j];
  EXPECT_EQ(sparse.nonZeros(), stored);
}

TEST(Numeric, MultiplyMatchesTheDenseMatrix) {
  // Node sizes 0 to 7 (every fixed-size kernel and the general one), a cycle,
  // inactive nodes, and x, y viewed inside taller matrices (column stride != rows).
  gs::Graph g;
  for (int size : {6, 3, 0, 1, 7, 5, 2, 6, 4}) g.add_node(size);
  for (auto [a, b] : {std::pair{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 0}, {1, 5}, {8, 0}, {8, 4}})
    g.add_edge(a, b);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 5);
  const int n = a.rows();
  const Eigen::MatrixXd x_big = gs_test::random_rhs(n + 4, 3, 8);
  for (bool with_inactive : {false, true}) {
    if (with_inactive) {
      a.set_active(4, false);
      a.set_active(6, false);
    }
    const Eigen::MatrixXd dense = a.to_dense();
    const Eigen::MatrixXd lower = dense.triangularView<Eigen::Lower>();
    const Eigen::MatrixXd symmetric = lower + lower.transpose() - Eigen::MatrixXd(dense.diagonal().asDiagonal());
    ASSERT_FALSE(symmetric.isApprox(dense));  // the upper triangle differs: the product must ignore it
    using ConstRef = const Eigen::Ref<const Eigen::MatrixXd>&;
    using Product = void (*)(const gs::BlockMatrix&, ConstRef, Eigen::Ref<Eigen::MatrixXd>);
    const std::vector<std::tuple<const char*, Product, Eigen::MatrixXd>> products = {
        {"multiply", [](const gs::BlockMatrix& m, ConstRef x, Eigen::Ref<Eigen::MatrixXd> y) { m.multiply(x, y); },
         dense},
        {"multiply_transposed",
         [](const gs::BlockMatrix& m, ConstRef x, Eigen::Ref<Eigen::MatrixXd> y) { m.multiply_transposed(x, y); },
         dense.transpose()},
        {"multiply_symmetric_lower",
         [](const gs::BlockMatrix& m, ConstRef x, Eigen::Ref<Eigen::MatrixXd> y) { m.multiply_symmetric_lower(x, y); },
         symmetric},
    };
    for (const auto& [name, product, matrix] : products) {
      SCOPED_TRACE(name);
      Eigen::MatrixXd y_big = Eigen::MatrixXd::Constant(n + 2, 3, 7.0);
      product(a, x_big.topRows(n), y_big.topRows(n));
      const Eigen::MatrixXd expected = matrix * x_big.topRows(n);
      EXPECT_LT((y_big.topRows(n) - expected).norm(), 1e-12 * expected.norm());
      EXPECT_TRUE((y_big.bottomRows(2).array() == 7.0).all());  // rows past the view untouched
    }
  }
}

TEST(Numeric, PivotsThatNeedRowInterchangesAreInverted) {
  // A chain of three nodes whose diagonal blocks are a well-conditioned block
  // with its rows reversed: the large entries sit on the antidiagonal, so
  // partial pivoting must interchange rows (all but the middle one). Sizes
  // past 6 take the run-time sized kernels.
  for (const int size : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 24}) {
    gs::Graph g;
    for (int i = 0; i < 3; ++i) g.add_node(size);
    g.add_edge(0, 1);
    g.add_edge(1, 2);
    const gs::Symbolic sym = gs::analyze(g);
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::Unsymmetric, 11);
    for (int i = 0; i < 3; ++i) {
      Eigen::MatrixXd d = Eigen::MatrixXd::Identity(size, size) * 4.0 + 0.1 * Eigen::MatrixXd::Random(size, size);
      d = d.colwise().reverse().eval();  // the large entries on the antidiagonal
      a.diag(i) = d;
    }
    gs::Factorization ldu(sym);
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success) << "size " << size;
    const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, size);
    Eigen::VectorXd x(a.rows());
    ASSERT_EQ(ldu.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-12) << "size " << size;
  }
}

// The pivot ratio of a lone pivot block is KLU's rcond of its LU with
// partial pivoting, min|u_ii| / max(max|u_ii|, max|a_ij|), whichever kernel
// inverts it (Gauss-Jordan, or cofactors for 3 x 3 blocks; fixed-size up to
// 6 rows, with run-time bounds past that).
TEST(Numeric, PivotRatioIsThatOfPartialPivoting) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const int size : {1, 2, 3, 4, 5, 6, 7, 8, 11, 16}) {
    gs::Graph g;
    g.add_node(size);
    const gs::Symbolic sym = gs::analyze(g);
    gs::BlockMatrix a(sym);
    gs::Factorization f(sym);
    for (int trial = 0; trial < 20; ++trial) {
      Eigen::MatrixXd d(size, size);
      for (Eigen::Index i = 0; i < d.size(); ++i) d.data()[i] = u(rng);
      if (trial % 2 == 1) {  // ill-conditioned: the last column nearly a combination of the others
        d.col(size - 1) = d.leftCols(size - 1).rowwise().sum() * (size > 1 ? 1.0 : 0.0);
        d(trial % size, size - 1) += 1e-7;
      }
      a.diag(0) = d;
      const Eigen::VectorXd pivots = d.partialPivLu().matrixLU().diagonal().cwiseAbs();
      const double expected = pivots.minCoeff() / std::max(pivots.maxCoeff(), d.cwiseAbs().maxCoeff());
      ASSERT_EQ(f.factorize(a), gs::Status::Success) << "size " << size << " trial " << trial;
      // A pivot left by cancellation carries a rounding error of about size
      // units in the last place of the block's largest entry (fused
      // multiply-adds or not), which is the ratio's absolute error.
      const double roundoff = 4.0 * size * std::numeric_limits<double>::epsilon();
      EXPECT_NEAR(f.min_pivot_ratio(), expected, 1e-6 * expected + roundoff) << "size " << size << " trial " << trial;
      const Eigen::VectorXd b = gs_test::random_rhs(size, 1, trial);
      Eigen::VectorXd x(size);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      EXPECT_LT((x - d.partialPivLu().solve(b)).norm(), 1e-12 * x.norm() / expected);
    }
  }
}

// LLT's pivot ratio is partial pivoting's for the Cholesky factor C, squared:
// min c_jj^2 / max(max c_jj^2, max|a_ij|); a block that is not positive
// definite is refused as such, whatever its size, and left as it was.
TEST(Numeric, CholeskyPivotRatioAndIndefiniteBlocks) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const int size : {1, 2, 3, 4, 5, 6, 7, 9, 16}) {
    gs::Graph g;
    g.add_node(size);
    const gs::Symbolic sym = gs::analyze(g);
    gs::BlockMatrix a(sym);
    gs::Factorization f(sym, gs::Method::LLT);
    for (int trial = 0; trial < 6; ++trial) {
      Eigen::MatrixXd r(size, size);
      for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = u(rng);
      const double lift = trial % 2 == 0 ? 0.5 : 1e-6;  // the odd trials nearly singular
      const Eigen::MatrixXd d = r * r.transpose() + lift * Eigen::MatrixXd::Identity(size, size);
      a.diag(0) = d;
      const Eigen::VectorXd squares = d.llt().matrixLLT().diagonal().array().square();
      const double expected = squares.minCoeff() / std::max(squares.maxCoeff(), d.cwiseAbs().maxCoeff());
      ASSERT_EQ(f.factorize(a), gs::Status::Success) << "size " << size << " trial " << trial;
      const double roundoff = 4.0 * size * std::numeric_limits<double>::epsilon();  // as for LU, above
      EXPECT_NEAR(f.min_pivot_ratio(), expected, 1e-6 * expected + roundoff) << "size " << size << " trial " << trial;
      const Eigen::VectorXd b = gs_test::random_rhs(size, 1, trial);
      Eigen::VectorXd x(size);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      EXPECT_LT((x - d.llt().solve(b)).norm(), 1e-12 * x.norm() / expected) << "size " << size;

      // One negative eigenvalue: no longer positive definite.
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(d);
      Eigen::VectorXd values = eig.eigenvalues();
      values[trial % size] = -1.0;
      a.diag(0) = eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
      EXPECT_EQ(f.factorize(a), gs::Status::NotPositiveDefinite) << "size " << size << " trial " << trial;
      EXPECT_EQ(f.failed_node(), 0);
      gs::Factorization ldlt(sym, gs::Method::LDLT);  // which takes it
      EXPECT_EQ(ldlt.factorize(a), gs::Status::Success) << "size " << size << " trial " << trial;
    }
  }
}

// 3 x 3 pivots singular in exact arithmetic, and ones so large or small that
// their cofactors would leave the double range (Gauss-Jordan takes those).
TEST(Numeric, ThreeByThreePivotsAtTheEdgesOfTheDoubleRange) {
  gs::Graph one;
  one.add_node(3);
  const gs::Symbolic single = gs::analyze(one);
  gs::BlockMatrix s(single);
  s.diag(0) << 1, 2, 3, 4, 5, 6, 7, 8, 9;  // rank 2
  gs::Factorization f(single);
  EXPECT_EQ(f.factorize(s), gs::Status::SingularPivot);
  s.diag(0).setZero();
  EXPECT_EQ(f.factorize(s), gs::Status::SingularPivot);
  // Regular, with a finite determinant (1e300) but a cofactor of 1e400:
  // accepted once the pivot test is off, and inverted exactly.
  s.diag(0) = Eigen::Vector3d(1e200, 1e200, 1e-100).asDiagonal();
  gs::FactorOptions exact_only;
  exact_only.pivot_tolerance = 0.0;
  ASSERT_EQ(f.factorize(s, exact_only), gs::Status::Success);
  Eigen::VectorXd y = Eigen::Vector3d(1e200, -2e200, 3e-100);
  ASSERT_EQ(f.solve_in_place(y), gs::Status::Success);
  EXPECT_TRUE(y.isApprox(Eigen::Vector3d(1.0, -2.0, 3.0), 1e-14)) << y.transpose();

  // The whole chain scaled: LDU, and LLT, whose 3 x 3 kernel forms the
  // leading 2 x 2 minor (products of two entries): at these magnitudes the
  // minor leaves the double range, and the block must still factorize as at
  // magnitude 1.
  const gs::Symbolic sym = gs::analyze(fam::chain(6, 3));
  gs::BlockMatrix a(sym);
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LLT})
    for (double magnitude : {1e-200, 1e-100, 1e100, 1e200}) {
      const bool spd = method == gs::Method::LLT;
      fam::fill_values(a, spd ? fam::Values::SymmetricPositiveDefinite : fam::Values::Unsymmetric, 3);
      for (int v = 0; v < 6; ++v) a.diag(v) *= magnitude;
      for (int v = 0; v + 1 < 6; ++v) {
        a.block(v, v + 1) *= magnitude;
        a.block(v + 1, v) *= magnitude;
      }
      gs::Factorization factorization(sym, method);
      ASSERT_EQ(factorization.factorize(a), gs::Status::Success) << magnitude;
      const Eigen::VectorXd b = magnitude * gs_test::random_rhs(a.rows(), 1, 2);  // x of order 1
      Eigen::VectorXd x(a.rows());
      ASSERT_EQ(factorization.solve(b, x), gs::Status::Success);
      const Eigen::MatrixXd dense = a.to_dense();
      const Eigen::VectorXd reference = spd ? Eigen::VectorXd(dense.llt().solve(b))
                                               : Eigen::VectorXd(dense.partialPivLu().solve(b));
      ASSERT_TRUE(reference.allFinite());
      EXPECT_LT((x - reference).lpNorm<Eigen::Infinity>(), 1e-10 * reference.lpNorm<Eigen::Infinity>()) << magnitude;
    }
}
