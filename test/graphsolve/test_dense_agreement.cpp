// Hundreds of random systems solved by graphsolve and by dense Eigen; both
// solutions must agree and have tiny residuals.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

struct Case {
  std::string name;
  gs::Graph graph;
  fam::Values values;
};

// Mixed sizes are 0..largest; the default passes the solver's fixed-size
// limit (6), so the general kernels run too.
gs::Graph random_cyclic(int n, int extra_edges, unsigned seed, bool mixed_sizes, int largest = 7) {
  std::uniform_int_distribution<int> size(0, largest);
  return gs_test::random_connected_graph(n, extra_edges, seed,
                                         [&](int, std::mt19937& rng) { return mixed_sizes ? size(rng) : 3; });
}

gs::Graph forest(int trees, int nodes_per_tree, unsigned seed) {
  return gs_test::random_forest(trees, nodes_per_tree, seed, [](int t, int i) { return 1 + (i + t) % 6; });
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (unsigned seed = 0; seed < 6; ++seed) {
    all.push_back({"tree" + std::to_string(seed), fam::random_tree(20 + 7 * seed, 6, seed), fam::Values::Unsymmetric});
    all.push_back({"forest" + std::to_string(seed), forest(3, 8 + seed, seed), fam::Values::Unsymmetric});
    all.push_back({"cyclic" + std::to_string(seed), random_cyclic(30, 25, seed, false), fam::Values::Unsymmetric});
    all.push_back({"mixed" + std::to_string(seed), random_cyclic(25, 15, 100 + seed, true), fam::Values::Unsymmetric});
    // Every block fixed-size: one right-hand side takes the vector solve,
    // with scalar and 2-row nodes holding several later neighbours.
    all.push_back({"mixed_small" + std::to_string(seed), random_cyclic(25, 15, 200 + seed, true, 6),
                   fam::Values::Unsymmetric});
    all.push_back({"saddle_tree" + std::to_string(seed),
                   fam::mechanism(fam::random_tree(8 + seed, 6, seed), seed % 2 ? 5 : 3, true), fam::Values::Saddle});
    all.push_back({"saddle_loop" + std::to_string(seed),
                   // 3-row joints keep the constraint rows below the body freedoms (full row rank)
                   fam::mechanism(random_cyclic(6 + seed, 3, seed, false), 3, seed % 2 == 0),
                   fam::Values::SaddleUnsymmetric});
  }
  all.push_back({"chain", fam::chain(40, 6), fam::Values::Unsymmetric});
  all.push_back({"ladder", fam::ladder(15, 6), fam::Values::Unsymmetric});
  all.push_back({"net", fam::net(6, 3), fam::Values::Unsymmetric});
  all.push_back({"crystal", fam::crystal(3, 6), fam::Values::Unsymmetric});
  all.push_back({"saddle_chain", fam::mechanism(fam::chain(12, 6), 5, true), fam::Values::SaddleUnsymmetric});
  all.push_back({"saddle_ladder", fam::mechanism(fam::ladder(5, 6), 3, false), fam::Values::Saddle});
  // Paths eliminated from both ends towards a middle root (ordering_dfs.cpp):
  // an odd and an even one, and a free saddle-point chain (bodies at both ends).
  all.push_back({"chain_b3", fam::chain(41, 3), fam::Values::Unsymmetric});
  all.push_back({"chain_b2", fam::chain(30, 2), fam::Values::Unsymmetric});
  all.push_back({"free_saddle_chain", gs_test::saddle_path(12), fam::Values::SaddleUnsymmetric});
  // Blocks past the fixed-size kernels: run-time sized pivots, products
  // tiled by the fixed-size kernels (13 rows: three tiles) and, past 96 rows,
  // Eigen's own product; next to scalar and empty nodes.
  all.push_back({"mixed_large", random_cyclic(20, 12, 300, true, 20), fam::Values::Unsymmetric});
  gs::Graph large;
  for (const int size : {7, 13, 97, 1, 49, 0, 8, 30}) large.add_node(size);
  for (int i = 0; i + 1 < large.num_nodes(); ++i) large.add_edge(i, i + 1);
  large.add_edge(0, 4);
  large.add_edge(2, 7);
  all.push_back({"large_blocks", large, fam::Values::Unsymmetric});
  all.push_back({"empty", gs::Graph(), fam::Values::Unsymmetric});
  return all;
}

}  // namespace

class DenseAgreement : public ::testing::TestWithParam<gs::Ordering> {};

namespace {

// Factorizes every case's values with LDU and checks solve (or
// solve_transposed) against dense LU of A (or A^T) on 1, 3 and 20 columns
// (20 > the solver's internal column chunk); returns how many it compared.
int check_ldu_solves(gs::Ordering ordering, unsigned rhs_seed, bool transposed) {
  int solved = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const gs::Symbolic sym = gs::analyze(c.graph, {ordering, {}});
    gs::BlockMatrix a(sym);
    fam::fill_values(a, c.values, 7);
    gs::Factorization ldu(sym, gs::Method::LDU);
    EXPECT_EQ(ldu.factorize(a), gs::Status::Success) << "failed node " << ldu.failed_node();
    const Eigen::MatrixXd dense = transposed ? Eigen::MatrixXd(a.to_dense().transpose()) : a.to_dense();
    for (int columns : {1, 3, 20}) {
      const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), columns, rhs_seed);
      Eigen::MatrixXd x(a.rows(), columns);
      EXPECT_EQ(transposed ? ldu.solve_transposed(b, x) : ldu.solve(b, x), gs::Status::Success);
      if (a.rows() == 0) continue;
      const Eigen::MatrixXd reference = dense.partialPivLu().solve(b);
      EXPECT_LT(gs_test::dense_residual(dense, x, b), 1e-10);
      EXPECT_LT((x - reference).norm() / reference.norm(), 1e-8);
      ++solved;
    }
  }
  return solved;
}

}  // namespace

TEST_P(DenseAgreement, LduMatchesPartialPivLu) { EXPECT_GT(check_ldu_solves(GetParam(), 11, false), 100); }

TEST_P(DenseAgreement, SymmetricMethodsMatchDenseLdlt) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const gs::Symbolic sym = gs::analyze(c.graph, {GetParam(), {}});
    gs::BlockMatrix a(sym);
    const bool saddle = c.values == fam::Values::Saddle || c.values == fam::Values::SaddleUnsymmetric;
    fam::fill_values(a, saddle ? fam::Values::Saddle : fam::Values::SymmetricPositiveDefinite, 3);
    const Eigen::MatrixXd dense = a.to_dense();
    ASSERT_TRUE(dense.isApprox(dense.transpose()));
    std::vector<gs::Method> methods{gs::Method::LDLT};
    if (!saddle) methods.push_back(gs::Method::LLT);
    for (gs::Method method : methods) {
      SCOPED_TRACE(gs::to_string(method));
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a), gs::Status::Success) << "failed node " << f.failed_node();
      for (int columns : {1, 2}) {  // one column takes the vector solve
        const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), columns, 5);
        Eigen::MatrixXd x(a.rows(), columns);
        ASSERT_EQ(f.solve(b, x), gs::Status::Success);
        if (a.rows() == 0) continue;
        const Eigen::MatrixXd reference = saddle ? Eigen::MatrixXd(dense.partialPivLu().solve(b))
                                                 : Eigen::MatrixXd(dense.llt().solve(b));
        EXPECT_LT(gs_test::dense_residual(dense, x, b), 1e-10);
        EXPECT_LT((x - reference).norm() / reference.norm(), 1e-8);
      }
    }
  }
}

TEST_P(DenseAgreement, TransposedSolveMatchesTheDenseTranspose) {
  EXPECT_GT(check_ldu_solves(GetParam(), 23, true), 100);
}

TEST_P(DenseAgreement, SymmetricTransposedSolveIsTheSolve) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const gs::Symbolic sym = gs::analyze(c.graph, {GetParam(), {}});
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 4);
    for (gs::Method method : {gs::Method::LDLT, gs::Method::LLT}) {
      SCOPED_TRACE(gs::to_string(method));
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      for (int columns : {1, 2}) {
        const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), columns, 6);
        Eigen::MatrixXd x(a.rows(), columns), y(a.rows(), columns);
        ASSERT_EQ(f.solve(b, x), gs::Status::Success);
        ASSERT_EQ(f.solve_transposed(b, y), gs::Status::Success);
        EXPECT_EQ(x, y);
      }
    }
  }
}

// log|det| agrees to this absolute error (about 1e-13 per row is expected).
constexpr double kLogDetTolerance = 1e-9;

TEST_P(DenseAgreement, DeterminantMatchesDenseLu) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const gs::Symbolic sym = gs::analyze(c.graph, {GetParam(), {}});
    gs::BlockMatrix a(sym);
    fam::fill_values(a, c.values, 29);
    gs::Factorization ldu(sym, gs::Method::LDU);
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success);
    gs::Determinant det;
    ASSERT_EQ(ldu.determinant(det), gs::Status::Success);
    const gs::Determinant reference = gs_test::dense_determinant(a.to_dense());
    EXPECT_EQ(det.sign, reference.sign);
    EXPECT_NEAR(det.log_abs, reference.log_abs, kLogDetTolerance);

    const bool saddle = c.values == fam::Values::Saddle || c.values == fam::Values::SaddleUnsymmetric;
    fam::fill_values(a, saddle ? fam::Values::Saddle : fam::Values::SymmetricPositiveDefinite, 31);
    const gs::Determinant symmetric_reference = gs_test::dense_determinant(a.to_dense());
    std::vector<gs::Method> methods{gs::Method::LDLT};
    if (!saddle) methods.push_back(gs::Method::LLT);
    for (gs::Method method : methods) {
      SCOPED_TRACE(gs::to_string(method));
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      ASSERT_EQ(f.determinant(det), gs::Status::Success);
      EXPECT_EQ(det.sign, symmetric_reference.sign);
      EXPECT_NEAR(det.log_abs, symmetric_reference.log_abs, kLogDetTolerance);
    }
  }
}

TEST_P(DenseAgreement, InertiaMatchesDenseEigenvalues) {
  int saddles = 0, indefinite = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const gs::Symbolic sym = gs::analyze(c.graph, {GetParam(), {}});
    const gs::Pattern& p = sym.pattern();
    gs::BlockMatrix a(sym);
    const bool saddle = c.values == fam::Values::Saddle || c.values == fam::Values::SaddleUnsymmetric;
    fam::fill_values(a, saddle ? fam::Values::Saddle : fam::Values::SymmetricPositiveDefinite, 37);
    // A saddle-point matrix with SPD body blocks and full-rank constraints has
    // one positive eigenvalue per body row and one negative per joint row.
    long joint_rows = 0;
    for (int v = 0; v < p.num_nodes; ++v)
      if (p.kind[v] == gs::NodeKind::ZeroDiagonal) joint_rows += p.size[v];
    const gs::Inertia reference = gs_test::dense_inertia(a.to_dense());
    EXPECT_EQ(reference.negative, joint_rows);
    gs::Factorization ldlt(sym, gs::Method::LDLT);
    ASSERT_EQ(ldlt.factorize(a), gs::Status::Success);
    gs::Inertia inertia;
    ASSERT_EQ(ldlt.inertia(inertia), gs::Status::Success);
    EXPECT_EQ(inertia.positive, reference.positive);
    EXPECT_EQ(inertia.negative, reference.negative);
    saddles += joint_rows > 0;
    if (saddle || a.rows() < 2) continue;
    // Shifted to between its two middle eigenvalues, an SPD matrix becomes
    // indefinite (and stays nonsingular).
    const Eigen::VectorXd eigenvalues = gs_test::symmetric_eigenvalues(a.to_dense());
    const Eigen::Index middle = eigenvalues.size() / 2;
    const double between = 0.5 * (eigenvalues[middle - 1] + eigenvalues[middle]);
    gs::FactorOptions options;
    options.shift = -between;
    if (ldlt.factorize(a, options) != gs::Status::Success) continue;  // a pivot block may be singular
    ASSERT_EQ(ldlt.inertia(inertia), gs::Status::Success);
    const Eigen::MatrixXd shifted = a.to_dense() - between * Eigen::MatrixXd::Identity(a.rows(), a.rows());
    const gs::Inertia shifted_reference = gs_test::dense_inertia(shifted);
    EXPECT_EQ(shifted_reference.negative, middle);
    EXPECT_EQ(inertia.positive, shifted_reference.positive);
    EXPECT_EQ(inertia.negative, shifted_reference.negative);
    ++indefinite;
  }
  EXPECT_GT(saddles, 10);
  EXPECT_GT(indefinite, 10);
}

// Hager's estimate is a lower bound on ||A||_1 ||A^{-1}||_1, rarely below a
// third of it.
TEST_P(DenseAgreement, ConditionEstimateBoundsTheDenseConditionNumber) {
  double worst = 1.0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const gs::Symbolic sym = gs::analyze(c.graph, {GetParam(), {}});
    gs::BlockMatrix a(sym);
    const bool saddle = c.values == fam::Values::Saddle || c.values == fam::Values::SaddleUnsymmetric;
    for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
      if (method == gs::Method::LLT && saddle) continue;
      SCOPED_TRACE(gs::to_string(method));
      fam::fill_values(a, method == gs::Method::LDU ? c.values
                          : saddle                  ? fam::Values::Saddle
                                                    : fam::Values::SymmetricPositiveDefinite,
                       7);
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      double estimate = 0.0;
      ASSERT_EQ(f.condition_estimate(a, estimate), gs::Status::Success);
      if (a.rows() == 0) {
        EXPECT_EQ(estimate, 1.0);
        continue;
      }
      const Eigen::MatrixXd dense = a.to_dense();
      const double exact = gs_test::dense_condition_number(dense);
      EXPECT_LE(estimate, exact * (1.0 + 1e-8));
      EXPECT_GE(estimate, exact / 3.0);
      worst = std::max(worst, exact / estimate);
    }
  }
  RecordProperty("worst_underestimate", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(Orderings, DenseAgreement,
                         ::testing::Values(gs::Ordering::Auto, gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND),
                         [](const auto& param_info) { return std::string(gs::to_string(param_info.param)); });

// Larger mechanisms, where constraints compete for the rows of shared bodies
// (a body with several joints plus a joint to the world; ladders with more
// joints than bodies): every ordering must factorize them accurately.
TEST_P(DenseAgreement, LargerMechanismsFactorizeWithEveryOrdering) {
  const std::vector<std::pair<std::string, gs::Graph>> mechanisms = {
      {"tree100", fam::mechanism(fam::random_tree(100, 6, 2024), 5, true)},
      {"tree60", fam::mechanism(fam::random_tree(60, 6, 7), 5, true)},
      {"ladder", fam::mechanism(fam::ladder(40, 6), 3, true)},
      {"net", fam::mechanism(fam::net(6, 6), 3, false)},
  };
  for (const auto& [name, graph] : mechanisms) {
    SCOPED_TRACE(name);
    const gs::Symbolic sym = gs::analyze(graph, {GetParam(), {}});
    gs::BlockMatrix a(sym);
    fam::fill_values(a, fam::Values::SaddleUnsymmetric, 42);
    gs::Factorization ldu(sym);
    ASSERT_EQ(ldu.factorize(a), gs::Status::Success) << "failed node " << ldu.failed_node();
    const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 3);
    Eigen::VectorXd x(a.rows());
    ASSERT_EQ(ldu.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-10);
  }
}
