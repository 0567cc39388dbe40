// Pivot blocks whose rows (or, for LDU, columns) differ in scale by many
// orders: the plain pivot ratio calls them singular, the retries with scaled
// rows and then columns do not, and blocks that are singular, or cancelled
// to rounding, are still refused.
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
// and a net (cycles, supernodal panels), and blocks of 7, 9 and 13 rows
// (the run-time sized pivot kernels and tiled products).
std::vector<ScaledCase> scaled_cases() {
  std::vector<ScaledCase> out = {{"chain6", fam::chain(12, 6)},    {"chain3", fam::chain(12, 3)},
                           {"tree4", fam::random_tree(15, 4, 5)}, {"ladder6", fam::ladder(5, 6)},
                           {"net3", fam::net(4, 3)}};
  gs::Graph mixed;
  for (int size : {7, 2, 9, 6, 1, 13}) mixed.add_node(size);
  for (int i = 0; i + 1 < 6; ++i) mixed.add_edge(i, i + 1);
  mixed.add_edge(0, 4);
  out.push_back({"mixed", mixed});
  return out;
}

// Scales of about 1 for the first row (or column) of every node and about
// `small` for the others, each times a random factor in [0.5, 2]. As row
// scales S with small = 1e-8, the entries of a block of S B S span about 16
// orders of magnitude, and all but one of its pivots are about 1e-16 of the
// largest. As column scales with small = 1e-15, beyond what the pivot
// tolerance (1e-13) lets a block's rows-only scaling absorb.
Eigen::VectorXd node_scales(const gs::Pattern& p, double small, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  Eigen::VectorXd s(p.dimension);
  for (int v = 0; v < p.num_nodes; ++v)
    for (int r = 0; r < p.size[v]; ++r) s[p.offset[v] + r] = u(rng) * (r == 0 ? 1.0 : small);
  return s;
}

// A block whose column cancelled must be refused at `node`; the same system
// with the digits kept must factorize and solve like dense LU (partial
// pivoting does not see the columns' scales; full pivoting's rank threshold
// would call a small column zero).
void expect_refused_or_solved(const gs::Symbolic& sym, const gs::BlockMatrix& a, bool cancelled, gs::NodeId node,
                              unsigned seed) {
  gs::Factorization f(sym, gs::Method::LDU);
  if (cancelled) {
    EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
    EXPECT_EQ(f.failed_node(), node);
    return;
  }
  ASSERT_EQ(f.factorize(a), gs::Status::Success);
  const Eigen::VectorXd b = gs_test::random_rhs(a.rows(), 1, seed);
  Eigen::VectorXd x(a.rows());
  ASSERT_EQ(f.solve(b, x), gs::Status::Success);
  const Eigen::VectorXd expected = a.to_dense().partialPivLu().solve(b);
  EXPECT_LT((x - expected).norm(), 1e-9 * expected.norm());
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
        const Eigen::VectorXd s = node_scales(sym.pattern(), 1e-8, 3);
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
// of about 1e-8 in a row whose other entries are 0. Scaled by that row's own
// magnitude in D alone it would pass; scaled by the 1e8 the row had when
// loaded it is rounding, and stays refused. With twice the load the same
// row keeps its digits and passes. Every block size from 2 to 6, so that
// each size's own pivot kernel is held to it.
TEST(PivotScaling, RowsThatCancelledAreStillRefused) {
  for (int size = 2; size <= 6; ++size) {
    SCOPED_TRACE("blocks of " + std::to_string(size));
    gs::Graph g;
    g.add_node(size);
    g.add_node(size);
    g.add_edge(0, 1);
    const gs::Symbolic sym = gs::analyze(g, {gs::Ordering::Given, {0, 1}});
    for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
      SCOPED_TRACE(gs::to_string(method));
      gs::BlockMatrix a(sym);
      a.diag(0).setIdentity();
      Eigen::VectorXd coupling_diagonal = Eigen::VectorXd::Ones(size);
      coupling_diagonal[0] = 1e4;
      const Eigen::MatrixXd coupling = coupling_diagonal.asDiagonal();
      a.block(1, 0) = coupling;
      a.block(0, 1) = coupling.transpose();
      for (const double load : {1e8 * (1.0 + 4.0 * std::numeric_limits<double>::epsilon()), 2e8}) {
        Eigen::VectorXd loaded = Eigen::VectorXd::Constant(size, 3.0);
        loaded[0] = load;
        a.diag(1) = loaded.asDiagonal();
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
      const Eigen::VectorXd s = node_scales(sym.pattern(), 1e-8, 5);
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

// Unsymmetric systems whose variables (columns) differ in scale by 1e15
// inside every node, alone and with rows 1e-8 apart as well: A = R B C, on
// the graphs above, mechanisms and a crystal (pivots updated by panels).
// Scaling rows cannot pass their pivots, scaling columns too does. A x = b
// is B y = R^{-1} b with y = C x, in both directions (the transposed solve
// reads the same inverses), and log|det A| = log|det B| + log det R + log det C.
TEST(PivotScaling, LduBlocksWithColumnsApartInScaleFactorize) {
  std::vector<ScaledCase> cases = scaled_cases();
  cases.push_back({"mechanism_chain", fam::mechanism(fam::chain(8, 6), 5, true)});
  cases.push_back({"mechanism_ladder", fam::mechanism(fam::ladder(4, 6), 3, true)});
  cases.push_back({"crystal6", fam::crystal(3, 6)});  // supernodal panels with every ordering
  for (const ScaledCase& c : cases) {
    for (const bool rows_too : {false, true}) {
      for (const gs::Ordering ordering : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::Auto}) {
        SCOPED_TRACE(c.name + (rows_too ? " rows and columns " : " columns ") + gs::to_string(ordering));
        const gs::Symbolic sym = gs::analyze(c.graph, {ordering, {}});
        const gs::Pattern& p = sym.pattern();
        gs::BlockMatrix a(sym);
        const bool saddle = c.name.rfind("mechanism", 0) == 0;
        fam::fill_values(a, saddle ? fam::Values::SaddleUnsymmetric : fam::Values::Unsymmetric, 29);
        const Eigen::MatrixXd well_scaled = a.to_dense();
        const Eigen::VectorXd r = rows_too ? node_scales(p, 1e-8, 7) : Eigen::VectorXd::Ones(p.dimension);
        const Eigen::VectorXd col = node_scales(p, 1e-15, 11);
        gs_test::scale_rows_and_columns(a, r, col);

        gs::Factorization f(sym, gs::Method::LDU);
        if (c.name == "crystal6") {
          EXPECT_GT(f.supernodal_panels(), 0);
        }
        gs::FactorOptions plain;
        plain.equilibrate_pivots = false;
        EXPECT_EQ(f.factorize(a, plain), gs::Status::SingularPivot);
        ASSERT_EQ(f.factorize(a), gs::Status::Success);
        EXPECT_GE(f.min_pivot_ratio(), gs::FactorOptions{}.pivot_tolerance);

        const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 13);
        Eigen::MatrixXd x(a.rows(), 2);
        ASSERT_EQ(f.solve(b, x), gs::Status::Success);
        const Eigen::MatrixXd y = well_scaled.partialPivLu().solve(r.cwiseInverse().asDiagonal() * b);
        EXPECT_LT((col.asDiagonal() * x - y).norm(), 1e-9 * y.norm());
        // A^T x = b is B^T (R x) = C^{-1} b.
        ASSERT_EQ(f.solve_transposed(b, x), gs::Status::Success);
        const Eigen::MatrixXd yt = well_scaled.transpose().partialPivLu().solve(col.cwiseInverse().asDiagonal() * b);
        EXPECT_LT((r.asDiagonal() * x - yt).norm(), 1e-9 * yt.norm());

        gs::Determinant det;
        ASSERT_EQ(f.determinant(det), gs::Status::Success);
        const gs::Determinant expected = gs_test::dense_determinant(well_scaled);
        EXPECT_EQ(det.sign, expected.sign);
        const double log_det = expected.log_abs + r.array().log().sum() + col.array().log().sum();
        EXPECT_NEAR(det.log_abs, log_det, 1e-9 * std::abs(log_det));
      }
    }
  }
}

// A factorization whose matrix needed its columns scaled keeps the columns'
// magnitudes from the start of the next one (the next Newton iterate's),
// and drops them again after one that did not need them. What it carries
// over changes only how much work a factorization does: every result is a
// fresh factorization's, bit for bit where both ran the same kernels.
TEST(PivotScaling, RefactorizationsAfterAColumnScaledSystemMatchFreshOnes) {
  const gs::Symbolic sym = gs::analyze(fam::chain(12, 3));  // 3x3: the fused edge kernel when not keeping them
  gs::BlockMatrix scaled(sym), plain(sym);
  fam::fill_values(scaled, fam::Values::Unsymmetric, 31);
  fam::fill_values(plain, fam::Values::Unsymmetric, 37);
  gs_test::scale_rows_and_columns(scaled, Eigen::VectorXd::Ones(scaled.rows()), node_scales(sym.pattern(), 1e-15, 13));
  const Eigen::MatrixXd b = gs_test::random_rhs(scaled.rows(), 1, 17);
  auto solve_fresh = [&](const gs::BlockMatrix& a) {
    gs::Factorization fresh(sym, gs::Method::LDU);
    EXPECT_EQ(fresh.factorize(a), gs::Status::Success);
    Eigen::MatrixXd x(b.rows(), 1);
    EXPECT_EQ(fresh.solve(b, x), gs::Status::Success);
    return x;
  };
  const Eigen::MatrixXd scaled_x = solve_fresh(scaled), plain_x = solve_fresh(plain);
  gs::Factorization f(sym, gs::Method::LDU);
  Eigen::MatrixXd x(b.rows(), 1);
  auto solve_again = [&](const gs::BlockMatrix& a) {
    EXPECT_EQ(f.factorize(a), gs::Status::Success);
    EXPECT_EQ(f.solve(b, x), gs::Status::Success);
  };
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    solve_again(scaled);  // first: a failed pass and a second; after the first, one pass
    EXPECT_EQ(x, scaled_x);
    solve_again(scaled);
    EXPECT_EQ(x, scaled_x);
    solve_again(plain);  // keeps the magnitudes, so the general kernel: the same to rounding
    EXPECT_LT((x - plain_x).norm(), 1e-12 * plain_x.norm());
    solve_again(plain);  // and without them again: the fresh factorization's kernels
    EXPECT_EQ(x, plain_x);
  }
}

// The column counterpart of RowsThatCancelledAreStillRefused. Entry (0, 1)
// of the last pivot, 1e8 on the way, cancels to a few units in its last
// place; its row keeps 1e2 and the other row is (1, 1e-20), so no row is
// rounding against its own magnitude and the block's columns are 1e15 apart.
// Scaled by its magnitude now, column 1 would pass (as 8.9e-16 against 1e-20
// it is by far the larger of its two entries); against the 1e8 it had it is
// rounding, and stays refused. Built twice: the 1e8 as loaded with one
// update cancelling it, and zero as loaded with two updates making it -1e8
// and cancelling that. The second is told only by the magnitudes kept
// after each update, in the fused kernel of a small edge and in the general
// one. With half the cancelling update, every variant keeps its digits,
// passes and solves.
TEST(PivotScaling, ColumnsThatCancelledAreStillRefused) {
  const double tiny = 4.0 * std::numeric_limits<double>::epsilon();
  for (const int size : {2, 5}) {  // 5: beyond the fused edge kernel
    for (const bool in_updates : {false, true}) {
      SCOPED_TRACE(std::to_string(size) + (in_updates ? " in the updates" : " as loaded"));
      gs::Graph g;
      for (int i = 0; i < (in_updates ? 3 : 2); ++i) g.add_node(size);
      const int last = in_updates ? 2 : 1;
      for (int i = 0; i < last; ++i) g.add_edge(i, last);
      const gs::Symbolic sym = gs::analyze(g, {gs::Ordering::Given, in_updates ? std::vector<gs::NodeId>{0, 1, 2}
                                                                            : std::vector<gs::NodeId>{0, 1}});
      gs::BlockMatrix a(sym);
      Eigen::MatrixXd pivot = Eigen::MatrixXd::Identity(size, size);
      pivot.topLeftCorner(2, 2) << 1e2, 0.0, 1.0, 1e-20;
      for (int i = 0; i < last; ++i) a.diag(i).setIdentity();
      // Update i adds -A_{last,i} A_{i,last} = -(first) (second) at (0, 1).
      auto couple = [&](int i, double first, double second) {
        a.block(last, i).setZero();
        a.block(last, i)(0, 0) = first;
        a.block(i, last).setZero();
        a.block(i, last)(0, 1) = second;
      };
      for (const double kept : {tiny, 0.5}) {
        SCOPED_TRACE(kept);
        if (in_updates) {
          couple(0, 1e4, 1e4);
          couple(1, -1e4, 1e4 * (1.0 - kept));
        } else {
          pivot(0, 1) = 1e8 * (1.0 + kept);
          couple(0, 1e4, 1e4);
        }
        a.diag(last) = pivot;
        expect_refused_or_solved(sym, a, kept == tiny, last, 3);
      }
    }
  }
}

// The same through supernodal panels, whose updates of their outer nodes
// are one product per panel: two cliques of eight 6x6 nodes, each a panel
// of 48 columns (the most a panel takes, so the two stay apart), both
// coupled to a hub of 24 rows through its row 0 and its column 1 only. The
// first panel's update makes the hub's entry (0, 1) about -1e8, the
// second's cancels it (or half of it); rows and columns as in
// ColumnsThatCancelledAreStillRefused.
TEST(PivotScaling, ColumnsThatCancelledInPanelUpdatesAreStillRefused) {
  constexpr int kClique = 8, kBlock = 6, kHub = 24;
  gs::Graph g;
  for (int i = 0; i < 2 * kClique; ++i) g.add_node(kBlock);
  const gs::NodeId hub = g.add_node(kHub);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < kClique; ++i) {
      for (int j = i + 1; j < kClique; ++j) g.add_edge(c * kClique + i, c * kClique + j);
      g.add_edge(c * kClique + i, hub);
    }
  std::vector<gs::NodeId> order(2 * kClique + 1);
  for (int i = 0; i <= 2 * kClique; ++i) order[i] = i;
  const gs::Symbolic sym = gs::analyze(g, {gs::Ordering::Given, order});
  const double tiny = 4.0 * std::numeric_limits<double>::epsilon();
  for (const double kept : {tiny, 0.5}) {
    SCOPED_TRACE(kept);
    gs::BlockMatrix a(sym);
    Eigen::MatrixXd pivot = Eigen::MatrixXd::Identity(kHub, kHub);
    pivot.topLeftCorner(2, 2) << 1e2, 0.0, 1.0, 1e-20;
    a.diag(hub) = pivot;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < kClique; ++i) {
        const gs::NodeId k = c * kClique + i;
        a.diag(k) = 100.0 * Eigen::MatrixXd::Identity(kBlock, kBlock);
        for (int j = i + 1; j < kClique; ++j) {
          a.block(k, c * kClique + j).setConstant(1.0 + 0.1 * j);
          a.block(c * kClique + j, k).setConstant(-0.5);
        }
        a.block(hub, k).setZero();
        a.block(hub, k)(0, 0) = c == 0 ? 1e4 : -1e4 * (1.0 - kept);
        a.block(k, hub).setZero();
        a.block(k, hub)(0, 1) = 1e4;
      }
    ASSERT_EQ(gs::Factorization(sym, gs::Method::LDU).supernodal_panels(), 2);
    expect_refused_or_solved(sym, a, kept == tiny, hub, 5);
  }
}

// Singular blocks whose columns are far apart in scale stay singular, and
// so does a block with a zero column.
TEST(PivotScaling, SingularBlocksStaySingularWhateverTheirColumns) {
  gs::Graph g;
  g.add_node(3);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  // Column 2 is 1e-20 times column 0, plus a rounding-level difference.
  a.diag(0) << 1.0, 2.0, 3.0, 0.5, 1.0, 4.0, 1e-20, 2e-20 * (1.0 + 1e-16), 3e-20;
  gs::Factorization f(sym, gs::Method::LDU);
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  // Columns 1e-15 apart, column 2 a combination of the other two.
  a.diag(0).col(0) << 1.0, 2.0, 3.0;
  a.diag(0).col(1) << 1e-15, -1e-15, 2e-15;
  a.diag(0).col(2) = 0.5e-15 * a.diag(0).col(0) + 0.25 * a.diag(0).col(1);
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  a.diag(0).col(1).setZero();
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
}
