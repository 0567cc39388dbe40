// Systems whose every node is a scalar take a factorization and a one-column
// solve of their own (scalar_elimination.cpp). They must give what dense LU
// and Cholesky give, report the pivot ratio the documentation defines, and
// fail exactly as block systems do.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

// A scalar saddle-point chain: bodies of one row, joints of one row with a
// zero diagonal between consecutive bodies, the first body grounded.
gs::Graph scalar_saddle_chain(int bodies) {
  gs::Graph g;
  for (int i = 0; i < bodies; ++i) g.add_node(1);
  for (int i = 0; i + 1 < bodies; ++i) {
    const gs::NodeId joint = g.add_node(1, gs::NodeKind::ZeroDiagonal);
    g.add_edge(i, joint);
    g.add_edge(joint, i + 1);
  }
  g.add_edge(0, g.add_node(1, gs::NodeKind::ZeroDiagonal));
  return g;
}

gs::Graph scalar_cyclic(int n, int extra_edges, unsigned seed) {
  return gs_test::random_connected_graph(n, extra_edges, seed, [](int, std::mt19937&) { return 1; });
}

gs::Graph scalar_forest(int trees, int nodes_per_tree, unsigned seed) {
  return gs_test::random_forest(trees, nodes_per_tree, seed, [](int, int) { return 1; });
}

struct ScalarCase {
  std::string name;
  gs::Graph graph;
  bool saddle = false;
};

std::vector<ScalarCase> scalar_cases() {
  return {{"chain", fam::chain(61, 1)},
          {"tree", fam::random_tree(80, 1, 3)},
          {"forest", scalar_forest(3, 15, 2)},
          {"ladder", fam::ladder(30, 1)},
          {"net", fam::net(7, 1)},
          {"wide net", fam::net(30, 1)},  // separators wide enough for supernodal panels
          {"crystal", fam::crystal(5, 1)},
          {"cyclic", scalar_cyclic(50, 40, 9)},
          {"saddle chain", scalar_saddle_chain(20), true}};
}

fam::Values values_for(const ScalarCase& c, gs::Method method) {
  if (c.saddle) return method == gs::Method::LDU ? fam::Values::SaddleUnsymmetric : fam::Values::Saddle;
  return method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite;
}

// The pivot ratio factorize() defines for scalar nodes, computed on its own:
// dense Gaussian elimination without interchanges in the analysed order, each
// pivot's magnitude against the largest its diagonal entry had (as loaded,
// with the shift, and after every update).
double dense_min_pivot_ratio(const Eigen::MatrixXd& dense, const gs::Symbolic& sym) {
  const int n = static_cast<int>(sym.order().size());
  Eigen::MatrixXd a(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a(i, j) = dense(sym.order()[i], sym.order()[j]);
  Eigen::VectorXd largest = a.diagonal().cwiseAbs();
  double ratio = 1.0;
  for (int k = 0; k < n; ++k) {
    ratio = std::min(ratio, std::abs(a(k, k)) / largest[k]);
    for (int i = k + 1; i < n; ++i) {
      if (a(i, k) == 0.0) continue;  // nothing to update (and the loop stays cheap on sparse rows)
      const double multiplier = a(i, k) / a(k, k);
      for (int j = k + 1; j < n; ++j) a(i, j) -= multiplier * a(k, j);
      largest[i] = std::max(largest[i], std::abs(a(i, i)));
    }
  }
  return ratio;
}

}  // namespace

// Every family, method and ordering against dense LU: one right-hand side
// (the scalar solve), three (the general solve) and, for LDU, the transposed
// solve; plus the pivot ratio, the determinant and the inertia.
TEST(ScalarElimination, AgreesWithDenseSolvesOnEveryFamilyMethodAndOrdering) {
  int panels = 0;
  for (const ScalarCase& c : scalar_cases()) {
    for (gs::Ordering o : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND, gs::Ordering::Auto}) {
      const gs::Symbolic sym = gs::analyze(c.graph, {o, {}});
      for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
        if (c.saddle && method == gs::Method::LLT) continue;
        SCOPED_TRACE(c.name + " " + gs::to_string(o) + " " + gs::to_string(method));
        gs::BlockMatrix a(sym);
        fam::fill_values(a, values_for(c, method), 11);
        gs::Factorization f(sym, method);
        ASSERT_EQ(f.factorize(a), gs::Status::Success) << "node " << f.failed_node();
        panels += f.supernodal_panels();
        const Eigen::MatrixXd dense = a.to_dense();
        const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 3, 4);
        const Eigen::MatrixXd reference = dense.partialPivLu().solve(b);
        Eigen::MatrixXd several(a.rows(), 3);
        Eigen::VectorXd one(a.rows());
        ASSERT_EQ(f.solve(b, several), gs::Status::Success);
        ASSERT_EQ(f.solve(b.col(0), one), gs::Status::Success);
        EXPECT_LT(gs_test::dense_residual(dense, one, b.col(0)), 1e-12);
        EXPECT_LT(gs_test::dense_residual(dense, several, b), 1e-12);
        EXPECT_LT((several - reference).norm() / reference.norm(), 1e-9);
        EXPECT_LT((one - reference.col(0)).norm() / reference.col(0).norm(), 1e-9);
        if (method == gs::Method::LDU) {
          Eigen::VectorXd transposed(a.rows());
          ASSERT_EQ(f.solve_transposed(b.col(1), transposed), gs::Status::Success);
          EXPECT_LT(gs_test::dense_residual(dense.transpose(), transposed, b.col(1)), 1e-12);
        }
        EXPECT_NEAR(f.min_pivot_ratio(), dense_min_pivot_ratio(dense, sym), 1e-10 * f.min_pivot_ratio());
        // The queries read the pivot slots this pass wrote (-1/p, or -1/sqrt(p)).
        gs::Determinant det;
        ASSERT_EQ(f.determinant(det), gs::Status::Success);
        const gs::Determinant dense_det = gs_test::dense_determinant(dense);
        EXPECT_EQ(det.sign, dense_det.sign);
        EXPECT_NEAR(det.log_abs, dense_det.log_abs, 1e-9 * std::max(1.0, std::abs(dense_det.log_abs)));
        if (method != gs::Method::LDU && a.rows() <= 200) {
          gs::Inertia inertia;
          ASSERT_EQ(f.inertia(inertia), gs::Status::Success);
          const gs::Inertia dense_inertia = gs_test::dense_inertia(dense);
          EXPECT_EQ(inertia.positive, dense_inertia.positive);
          EXPECT_EQ(inertia.negative, dense_inertia.negative);
        }
      }
    }
  }
  EXPECT_GT(panels, 0) << "no case ran the supernodal panels with scalar pivots";
}

// Inactive nodes leave the reduced system, shifts the shifted one
// (constraint_shift on the zero-diagonal nodes only), on the scalar path as
// on the general one; a refactorization with everything active again gives
// the whole system back.
TEST(ScalarElimination, InactiveNodesAndShiftsGiveTheirSystems) {
  for (const ScalarCase& c : scalar_cases()) {
    const int n = c.graph.num_nodes();
    if (n < 3) continue;
    const gs::Symbolic sym = gs::analyze(c.graph);
    for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT}) {
      SCOPED_TRACE(c.name + " " + gs::to_string(method));
      gs::BlockMatrix a(sym);
      fam::fill_values(a, values_for(c, method), 3);
      const std::vector<int> off = {1, n / 2, n - 1};
      for (int v : off) a.set_active(v, false);
      gs::FactorOptions options;
      options.shift = 0.25;
      options.constraint_shift = -0.125;
      gs::Factorization f(sym, method);
      ASSERT_EQ(f.factorize(a, options), gs::Status::Success) << "node " << f.failed_node();
      const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, 6);
      Eigen::VectorXd x(a.rows());
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      for (int v : off) EXPECT_EQ(x[v], b[v]) << "inactive node " << v;
      for (int v : off) a.set_active(v, true);
      Eigen::MatrixXd shifted = a.to_dense();
      for (int v = 0; v < n; ++v)
        shifted(v, v) += options.shift + (c.graph.kind(v) == gs::NodeKind::ZeroDiagonal ? options.constraint_shift : 0.0);
      EXPECT_LT(gs_test::reduced_solution_error(shifted, sym.pattern(), off, b, x), 1e-9);

      ASSERT_EQ(f.factorize(a), gs::Status::Success);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-12);
    }
  }
}

// A pivot that cancels, a value that is not finite and an indefinite LLT
// pivot are reported with the node that holds them; the next factorization
// with good values succeeds.
TEST(ScalarElimination, FailuresNameTheirNodeAndTheNextFactorizationRecovers) {
  const int n = 12, bad = 7;
  gs::AnalyzeOptions given;
  given.ordering = gs::Ordering::Given;
  for (int i = 0; i < n; ++i) given.order.push_back(i);
  const gs::Symbolic sym = gs::analyze(fam::chain(n, 1), given);
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::BlockMatrix a(sym);
    for (int i = 0; i < n; ++i) a.diag(i)(0, 0) = 4.0;
    for (int i = 0; i + 1 < n; ++i) a.block(i + 1, i)(0, 0) = a.block(i, i + 1)(0, 0) = 1.0;
    // Eliminated in id order with no coupling to bad - 2, the pivot of
    // bad - 1 is its own value 2 and that of bad is A_bb - 1 / 2: exactly 0.
    a.block(bad - 1, bad - 2)(0, 0) = a.block(bad - 2, bad - 1)(0, 0) = 0.0;
    a.diag(bad - 1)(0, 0) = 2.0;
    a.diag(bad)(0, 0) = 0.5;
    gs::Factorization f(sym, method);
    EXPECT_EQ(f.factorize(a), method == gs::Method::LLT ? gs::Status::NotPositiveDefinite : gs::Status::SingularPivot);
    EXPECT_EQ(f.failed_node(), bad);
    Eigen::VectorXd x(n);
    EXPECT_EQ(f.solve(Eigen::VectorXd::Ones(n), x), gs::Status::NotFactorized);

    a.diag(bad)(0, 0) = 4.0;
    a.block(bad, bad - 1)(0, 0) = std::numeric_limits<double>::quiet_NaN();
    if (method != gs::Method::LDU) {  // the symmetric methods read the lower triangle, and check the upper too
      a.block(bad, bad - 1)(0, 0) = 1.0;
      a.block(bad - 1, bad)(0, 0) = std::numeric_limits<double>::infinity();
    }
    EXPECT_EQ(f.factorize(a), gs::Status::NonFiniteValue);
    EXPECT_TRUE(f.failed_node() == bad - 1 || f.failed_node() == bad) << f.failed_node();

    a.set_active(bad, false);
    a.set_active(bad - 1, false);  // an inactive node may hold anything
    EXPECT_EQ(f.factorize(a), gs::Status::Success);
    a.set_active(bad, true);
    a.set_active(bad - 1, true);

    a.block(bad, bad - 1)(0, 0) = a.block(bad - 1, bad)(0, 0) = 1.0;
    a.diag(bad)(0, 0) = -3.0;  // LDU and LDLT take an indefinite matrix, LLT refuses it
    const gs::Status indefinite = f.factorize(a);
    if (method == gs::Method::LLT) {
      EXPECT_EQ(indefinite, gs::Status::NotPositiveDefinite);
      EXPECT_EQ(f.failed_node(), bad);
      a.diag(bad)(0, 0) = 4.0;
      ASSERT_EQ(f.factorize(a), gs::Status::Success);
    } else {
      ASSERT_EQ(indefinite, gs::Status::Success);
    }
    EXPECT_EQ(f.failed_node(), -1);
    const Eigen::VectorXd b = gs_test::random_rhs(n, 1, 2);
    ASSERT_EQ(f.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-13);
  }
}
