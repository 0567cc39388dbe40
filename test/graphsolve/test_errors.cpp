// Every bad input of the library gets a clear error or status naming it.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

using gs_test::message_of;

TEST(Errors, GraphRejectsBadNodesAndEdges) {
  gs::Graph g;
  g.add_node(2);
  g.add_node(3);
  EXPECT_NE(message_of([&] { g.add_node(-1); }).find("block size -1 is negative"), std::string::npos);
  EXPECT_NE(message_of([&] { g.add_edge(0, 7); }).find("node 7 does not exist"), std::string::npos);
  EXPECT_NE(message_of([&] { g.add_edge(-1, 0); }).find("node -1 does not exist"), std::string::npos);
  EXPECT_NE(message_of([&] { g.add_edge(1, 1); }).find("to itself"), std::string::npos);
  g.add_edge(0, 1);
  g.add_edge(1, 0);  // the same edge again is accepted once
  EXPECT_EQ(g.num_edges(), 1);
  EXPECT_NE(message_of([&] { g.reserve(-1, 4); }).find("-1 nodes and 4 edges: counts must not be negative"),
            std::string::npos);
  EXPECT_NE(message_of([&] { g.reserve(4, -2); }).find("counts must not be negative"), std::string::npos);
  EXPECT_EQ(g.num_edges(), 1);
}

// The families refuse negative sizes, and counts past an int, by name and
// before allocating (a net of side -3 had been 9 unconnected nodes).
TEST(Errors, FamiliesRejectNegativeAndOversizedCounts) {
  EXPECT_NE(message_of([] { fam::chain(-2, 6); }).find("negative node count -2"), std::string::npos);
  EXPECT_NE(message_of([] { fam::ladder(-1, 6); }).find("negative rung count -1"), std::string::npos);
  EXPECT_NE(message_of([] { fam::net(-3, 6); }).find("negative side -3"), std::string::npos);
  EXPECT_NE(message_of([] { fam::crystal(-3, 6); }).find("negative side -3"), std::string::npos);
  EXPECT_NE(message_of([] { fam::crystal(1000, 6); }).find("1000000000 nodes and 2997000000 edges, more than a Graph"),
            std::string::npos);
  EXPECT_NE(message_of([] { fam::net(50000, 6); }).find("2500000000 nodes"), std::string::npos);
  EXPECT_NE(message_of([] { fam::ladder(1 << 30, 6); }).find("2147483648 nodes"), std::string::npos);
  EXPECT_NE(message_of([] { fam::random_graph(-1, 0, 6, 1); }).find("negative node count -1"), std::string::npos);
  EXPECT_NE(message_of([] { fam::random_graph(4, 4, 6, 1); }).find("4 extra edges, but 4 nodes have room for 3"),
            std::string::npos);
  EXPECT_NE(message_of([] { fam::random_graph(4, -1, 6, 1); }).find("-1 extra edges"), std::string::npos);
  EXPECT_EQ(fam::random_graph(4, 3, 6, 1).num_edges(), 6);  // complete
  EXPECT_EQ(fam::random_graph(0, 0, 6, 1).num_nodes(), 0);
  EXPECT_EQ(fam::net(0, 6).num_nodes(), 0);
  EXPECT_EQ(fam::crystal(1, 6).num_edges(), 0);
  EXPECT_EQ(fam::crystal(3, 6).num_edges(), 54);
  EXPECT_EQ(fam::net(4, 6).num_edges(), 24);
  EXPECT_EQ(fam::ladder(5, 6).num_edges(), 13);
}

TEST(Errors, BlockMatrixRejectsMissingBlocksAndWrongSizes) {
  const gs::Symbolic sym = gs::analyze(fam::chain(3, 2));
  gs::BlockMatrix a(sym);
  EXPECT_NE(message_of([&] { a.block(0, 2); }).find("no edge between nodes 0 and 2"), std::string::npos);
  EXPECT_NE(message_of([&] { a.diag(3); }).find("node 3 does not exist"), std::string::npos);
  Eigen::VectorXd x(5), y(6);
  EXPECT_NE(message_of([&] { a.multiply(x, y); }).find("expected 6 rows"), std::string::npos);
}

// Row and value offsets are ints: a system of more rows, or a matrix of more
// stored values, than an int counts is refused by name, before anything of its
// size is allocated (under AddressSanitizer, an allocation that large would
// abort the test).
TEST(Errors, SystemsPastIntOffsetsAreRefusedBeforeAllocating) {
  gs::Graph rows;
  rows.add_node(1 << 30);
  rows.add_node(1 << 30);
  rows.add_edge(0, 1);
  EXPECT_NE(message_of([&] { gs::analyze(rows); }).find("more than 2^31-1 rows"), std::string::npos);
  EXPECT_NE(message_of([&] { gs::Pattern pattern(rows); }).find("more than 2^31-1 rows"), std::string::npos);

  gs::Graph values;  // 80000 rows, but 6.4e9 values in its three blocks
  values.add_node(40000);
  values.add_node(40000);
  values.add_edge(0, 1);
  const auto pattern = std::make_shared<const gs::Pattern>(values);
  EXPECT_NE(message_of([&] { gs::BlockMatrix matrix(pattern); }).find("more than 2^31-1 stored values"),
            std::string::npos);
}

// With NDEBUG an Eigen map assigned another size copies part of the matrix
// or reads past its end; the block views check instead.
TEST(Errors, BlockWritesOfAnotherSizeNameTheBlockAndChangeNothing) {
  gs::Graph g;
  g.add_node(2);
  g.add_node(3);
  g.add_edge(0, 1);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  a.diag(0).setConstant(7.0);
  a.block(0, 1).setConstant(5.0);
  using Invalid = std::invalid_argument;
  EXPECT_EQ(message_of<Invalid>([&] { a.diag(0) = Eigen::Matrix3d::Identity(); }),
            "graphsolve::BlockMatrix: diagonal block of node 0 is 2x2, given a 3x3 matrix (=)");
  EXPECT_EQ(message_of<Invalid>([&] { a.block(0, 1) = Eigen::MatrixXd::Ones(3, 2); }),
            "graphsolve::BlockMatrix: block (0, 1) is 2x3, given a 3x2 matrix (=)");
  EXPECT_EQ(message_of<Invalid>([&] { a.block(0, 1) += Eigen::MatrixXd::Ones(1, 1); }),
            "graphsolve::BlockMatrix: block (0, 1) is 2x3, given a 1x1 matrix (+=)");
  EXPECT_EQ(message_of<Invalid>([&] { a.diag(1) -= Eigen::Vector3d::Ones(); }),
            "graphsolve::BlockMatrix: diagonal block of node 1 is 3x3, given a 3x1 matrix (-=)");
  EXPECT_EQ(message_of<Invalid>([&] { a.block(1, 0) = a.block(0, 1); }),  // view to view: A_10 is 3x2
            "graphsolve::BlockMatrix: block (1, 0) is 3x2, given a 2x3 matrix (=)");
  EXPECT_EQ(message_of<Invalid>([&] { a.diag(1) = Eigen::Vector2d(1, 2).asDiagonal(); }),
            "graphsolve::BlockMatrix: diagonal block of node 1 is 3x3, given a 2x2 matrix (=)");
  EXPECT_TRUE((a.diag(0).array() == 7.0).all());
  EXPECT_TRUE((a.block(0, 1).array() == 5.0).all());
  EXPECT_TRUE(a.diag(1).isZero(0.0));
  EXPECT_TRUE(a.block(1, 0).isZero(0.0));

  // Writes of the right size, of every kind of expression, land.
  a.block(1, 0) = a.block(0, 1).transpose();
  EXPECT_TRUE((a.block(1, 0).array() == 5.0).all());
  a.diag(1) = Eigen::Vector3d(1, 2, 3).asDiagonal();
  a.diag(1) += Eigen::Matrix3d::Ones();
  a.diag(1) -= 2.0 * Eigen::Matrix3d::Identity();
  EXPECT_EQ(a.diag(1)(2, 2), 2.0);
  EXPECT_EQ(a.diag(1)(0, 1), 1.0);
  gs::BlockMatrix b(sym);
  b.diag(1) = a.diag(1);  // a view assigned a view copies its values
  EXPECT_EQ(b.diag(1), a.diag(1));
  EXPECT_NE(b.diag(1).data(), a.diag(1).data());
}

// Eigen's comma initializer, given too many values, writes on into the next
// block of the arena (with NDEBUG); the block views' own one counts.
TEST(Errors, BlockCommaInitializersThatDoNotFillTheirBlockNameIt) {
  gs::Graph g;
  g.add_node(2);
  g.add_node(3);
  g.add_node(0);
  g.add_edge(0, 1);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  using Invalid = std::invalid_argument;
  EXPECT_EQ(message_of<Invalid>([&] { a.diag(0) << 1, 2, 3, 4, 5; }),
            "graphsolve::BlockMatrix: diagonal block of node 0 is 2x2, given more coefficients than it holds (<<)");
  EXPECT_TRUE(a.diag(1).isZero(0.0));  // the next block in the arena
  EXPECT_EQ(message_of<Invalid>([&] { a.diag(1) << 1, 2, 3, 4; }),
            "graphsolve::BlockMatrix: diagonal block of node 1 is 3x3, given fewer coefficients than it holds (<<)");
  EXPECT_EQ(message_of<Invalid>([&] { a.block(0, 1) << Eigen::Vector2d(1, 2), Eigen::RowVector2d(3, 4); }),
            "graphsolve::BlockMatrix: block (0, 1) is 2x3, given pieces of different heights in one row (<<)");
  EXPECT_EQ(message_of<Invalid>([&] { a.block(1, 0) << Eigen::Matrix2d::Identity(), Eigen::Matrix2d::Identity(); }),
            "graphsolve::BlockMatrix: block (1, 0) is 3x2, given more coefficients than it holds (<<)");
  EXPECT_EQ(message_of<Invalid>([&] { a.diag(2) << 1.0; }),
            "graphsolve::BlockMatrix: diagonal block of node 2 is 0x0, given more coefficients than it holds (<<)");
  EXPECT_EQ(message_of<Invalid>([&] { (a.diag(0) << 1, 2).finished(); }),  // one error, not a second one
            "graphsolve::BlockMatrix: diagonal block of node 0 is 2x2, given fewer coefficients than it holds (<<)");

  // Fills of the right size land row by row, as Eigen's do.
  a.diag(1) << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  EXPECT_EQ(a.diag(1)(0, 1), 2.0);
  EXPECT_EQ(a.diag(1)(1, 0), 4.0);
  EXPECT_EQ(a.diag(1)(2, 2), 9.0);
  a.block(0, 1) << Eigen::Vector2d(1, 2), Eigen::Matrix2d::Identity();
  Eigen::MatrixXd expected(2, 3);
  expected << 1, 1, 0, 2, 0, 1;
  EXPECT_EQ(a.block(0, 1), expected);
  a.block(1, 0) << Eigen::RowVector2d(5, 6), Eigen::Matrix2d::Constant(7);
  EXPECT_EQ(a.block(1, 0)(0, 1), 6.0);
  EXPECT_EQ(a.block(1, 0)(2, 0), 7.0);
  EXPECT_EQ((a.diag(0) << 1, 2, 3, 4).finished()(1, 1), 4.0);
}

TEST(Errors, BlockQueriesAndPositionsNameUnknownNodes) {
  const gs::Symbolic sym = gs::analyze(fam::chain(3, 2));
  gs::BlockMatrix a(sym);
  EXPECT_TRUE(a.has_block(1, 1));
  EXPECT_TRUE(a.has_block(0, 1));
  EXPECT_TRUE(a.has_block(1, 0));
  EXPECT_FALSE(a.has_block(0, 2));
  EXPECT_NE(message_of([&] { a.has_block(0, 3); }).find("node 3 does not exist"), std::string::npos);
  EXPECT_NE(message_of([&] { a.has_block(-1, 0); }).find("node -1 does not exist"), std::string::npos);
  EXPECT_NE(message_of([&] { (void)sym.position(3); }).find("node 3 does not exist"), std::string::npos);
}

TEST(Errors, AnalyzeRejectsABadGivenOrder) {
  const gs::Graph g = fam::chain(3, 1);
  EXPECT_NE(message_of([&] { gs::analyze(g, {gs::Ordering::Given, {0, 1}}); }).find("has 2 entries but the graph has 3"),
            std::string::npos);
  EXPECT_NE(message_of([&] { gs::analyze(g, {gs::Ordering::Given, {0, 1, 1}}); }).find("lists node 1 twice"),
            std::string::npos);
  EXPECT_NE(message_of([&] { gs::analyze(g, {gs::Ordering::Given, {0, 1, 5}}); }).find("names node 5"),
            std::string::npos);
  // An order beside another ordering would be ignored: refused, for every one.
  for (const gs::Ordering ordering : {gs::Ordering::Auto, gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND}) {
    const std::string message = message_of([&] { gs::analyze(g, {ordering, {2, 1, 0}}); });
    EXPECT_NE(message.find(std::string("order has 3 entries but the ordering is ") + gs::to_string(ordering)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("Ordering::Given"), std::string::npos) << message;
  }
}

TEST(Errors, SingularPivotNamesTheNode) {
  const gs::Symbolic sym = gs::analyze(fam::chain(5, 3), {gs::Ordering::DFS, {}});
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  // Node 2 has an empty row block: singular whatever is eliminated before it.
  a.diag(2).setZero();
  a.block(2, 1).setZero();
  a.block(2, 3).setZero();
  gs::Factorization f(sym);
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  EXPECT_EQ(f.failed_node(), 2);
  EXPECT_EQ(f.status(), gs::Status::SingularPivot);
  EXPECT_STREQ(gs::to_string(f.status()), "singular pivot block");
}

TEST(Errors, NearlySingularPivotIsReportedNotUsed) {
  gs::Graph g;
  g.add_node(2);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  a.diag(0) << 1.0, 1.0, 1.0, 1.0 + 1e-15;
  gs::Factorization f(sym);
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  EXPECT_LT(f.min_pivot_ratio(), 1e-13);
  gs::FactorOptions loose;
  loose.pivot_tolerance = 0.0;
  EXPECT_EQ(f.factorize(a, loose), gs::Status::Success);
}

TEST(Errors, IsolatedConstraintNodeIsSingular) {
  gs::Graph g = fam::chain(2, 6);
  const auto lonely = g.add_node(3, gs::NodeKind::ZeroDiagonal);
  const gs::Symbolic sym = gs::analyze(g);
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Saddle, 1);
  gs::Factorization f(sym);
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  EXPECT_EQ(f.failed_node(), lonely);
}

TEST(Errors, LltRejectsIndefiniteMatrices) {
  const gs::Symbolic sym = gs::analyze(fam::chain(4, 3));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 1);
  a.diag(3) *= -1.0;
  gs::Factorization f(sym, gs::Method::LLT);
  EXPECT_EQ(f.factorize(a), gs::Status::NotPositiveDefinite);
  EXPECT_EQ(f.failed_node(), 3);
  gs::Factorization ldlt(sym, gs::Method::LDLT);  // indefinite is fine for LDLT
  EXPECT_EQ(ldlt.factorize(a), gs::Status::Success);
}

TEST(Errors, NonFiniteValuesAreReported) {
  const gs::Symbolic sym = gs::analyze(fam::chain(4, 2));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  gs::Factorization f(sym);
  a.diag(1)(0, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(f.factorize(a), gs::Status::NonFiniteValue);
  EXPECT_EQ(f.failed_node(), 1);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  a.block(3, 2)(1, 0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(f.factorize(a), gs::Status::NonFiniteValue);
  EXPECT_EQ(f.failed_node(), 2);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  ASSERT_EQ(f.factorize(a), gs::Status::Success);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(8);
  b(3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(f.solve_in_place(b), gs::Status::NonFiniteValue);
}

// Options that cannot mean anything are refused before any work, and the
// factorization is left unusable rather than stale.
TEST(Errors, InvalidFactorOptionsAreRefused) {
  const gs::Symbolic sym = gs::analyze(fam::chain(4, 2));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  gs::Factorization f(sym);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<gs::FactorOptions> bad(7);
  bad[0].shift = nan;
  bad[1].shift = -inf;
  bad[2].constraint_shift = nan;
  bad[3].pivot_tolerance = nan;
  bad[4].pivot_tolerance = -1e-13;
  bad[5].pivot_tolerance = 1.5;
  bad[6].pivot_tolerance = inf;
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(8);
  Eigen::VectorXd x(8);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    ASSERT_EQ(f.factorize(a), gs::Status::Success);
    EXPECT_EQ(f.factorize(a, bad[i]), gs::Status::InvalidOption) << "option set " << i;
    EXPECT_EQ(f.failed_node(), -1);
    EXPECT_EQ(f.solve(b, x), gs::Status::NotFactorized) << "option set " << i;
  }
  // The ends of the range are meaningful: 0 accepts any nonsingular pivot,
  // 1 only pivots whose diagonal entries all have the same magnitude.
  gs::FactorOptions edge;
  edge.pivot_tolerance = 0.0;
  EXPECT_EQ(f.factorize(a, edge), gs::Status::Success);
  edge.pivot_tolerance = 1.0;
  EXPECT_EQ(f.factorize(a, edge), gs::Status::SingularPivot);
  EXPECT_STREQ(gs::to_string(gs::Status::InvalidOption), "invalid factorization option (NaN, Inf or out of range)");
}

// Finite A and b whose solution overflows: a right-hand side near DBL_MAX
// over a pivot below one, and a tiny but well-conditioned 1x1 pivot.
TEST(Errors, SolutionThatOverflowsIsReportedForEverySolve) {
  const gs::Symbolic sym = gs::analyze(fam::chain(3, 2));
  gs::BlockMatrix a(sym);
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    a.set_zero();
    for (int i = 0; i < 3; ++i) a.diag(i).setIdentity();
    a.diag(1) *= 0.5;
    gs::Factorization f(sym, method);
    ASSERT_EQ(f.factorize(a), gs::Status::Success);
    Eigen::VectorXd b = Eigen::VectorXd::Ones(6);
    b(2) = 1e308;  // x(2) = 2e308
    Eigen::VectorXd x(6);
    EXPECT_EQ(f.solve(b, x), gs::Status::NonFiniteSolution);
    EXPECT_EQ(f.solve_refined(a, b, x, 2), gs::Status::NonFiniteSolution);
    EXPECT_EQ(f.solve_transposed(b, x), gs::Status::NonFiniteSolution);
    b(2) = 1e307;  // x(2) = 2e307 is finite
    EXPECT_EQ(f.solve(b, x), gs::Status::Success);
    EXPECT_DOUBLE_EQ(x(2), 2e307);
  }
  const gs::Symbolic single = gs::analyze(fam::chain(1, 1));
  gs::BlockMatrix tiny(single);
  tiny.diag(0)(0, 0) = 1e-300;
  gs::Factorization f(single);
  ASSERT_EQ(f.factorize(tiny), gs::Status::Success);  // one pivot: its ratio is 1
  Eigen::VectorXd b = Eigen::VectorXd::Constant(1, 1e10);
  EXPECT_EQ(f.solve_in_place(b), gs::Status::NonFiniteSolution);
  EXPECT_STREQ(gs::to_string(gs::Status::NonFiniteSolution), "the solution overflowed (NaN or Inf)");
}

// The loads check the values they copy; every block is covered, for every
// method and in both orientations of an edge (natural and reversed order).
TEST(Errors, NonFiniteValueInAnyBlockIsReportedForEveryMethod) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  // Blocks of 2 and 3 rows load through the fixed-size path, of 6 through
  // the wide one where the wide kernels run, and a graph of mixed sizes
  // (with cycles, so fill too) through the mixed one (load_uniform*.cpp).
  const int mixed_sizes[] = {6, 5, 3, 6, 2, 4, 1, 6, 5, 3};
  const std::vector<gs::Graph> graphs = {
      fam::ladder(3, 2), fam::ladder(3, 3), fam::ladder(3, 6),
      gs_test::random_connected_graph(10, 4, 8, [&](int i, auto&) { return mixed_sizes[i]; })};
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const gs::Graph& graph = graphs[g];
    for (const bool reversed : {false, true}) {
      gs::AnalyzeOptions options;
      options.ordering = gs::Ordering::Given;
      for (int i = 0; i < graph.num_nodes(); ++i) options.order.push_back(reversed ? graph.num_nodes() - 1 - i : i);
      const gs::Symbolic sym = gs::analyze(graph, options);
      for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
        SCOPED_TRACE(testing::Message() << "graph " << g << ", reversed " << reversed << ", method "
                                        << static_cast<int>(method));
        const auto values =
            method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite;
        gs::BlockMatrix a(sym);
        gs::Factorization f(sym, method);
        auto expect_reported = [&](gs::NodeId node) {
          EXPECT_EQ(f.factorize(a), gs::Status::NonFiniteValue);
          EXPECT_EQ(f.failed_node(), node);
          fam::fill_values(a, values, 3);
          EXPECT_EQ(f.factorize(a), gs::Status::Success);
        };
        fam::fill_values(a, values, 3);
        for (int i = 0; i < graph.num_nodes(); ++i) {
          const int last = graph.node_size(i) - 1, second = std::min(1, last);
          a.diag(i)(second, 0) = nan;
          expect_reported(i);
          a.diag(i)(0, second) = inf;  // the upper triangle, unused by LDLT and LLT, is checked too
          expect_reported(i);
          a.diag(i)(last, std::max(0, last - 1)) = nan;  // the last row: a wide column's second vector
          expect_reported(i);
        }
        for (const auto& [u, v] : graph.edges()) {
          const int u_last = graph.node_size(u) - 1, v_last = graph.node_size(v) - 1;
          a.block(u, v)(0, std::min(1, v_last)) = nan;
          expect_reported(std::min(u, v));
          a.block(v, u)(std::min(1, v_last), 0) = -inf;
          expect_reported(std::min(u, v));
          a.block(u, v)(u_last, 0) = nan;
          expect_reported(std::min(u, v));
          a.block(v, u)(v_last, u_last) = inf;
          expect_reported(std::min(u, v));
        }
      }
    }
  }
}

TEST(Errors, NonFiniteValueOutranksAnEarlierSingularPivot) {
  const gs::Symbolic sym = gs::analyze(fam::chain(6, 2), {gs::Ordering::DFS, {}});
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  const gs::NodeId first = sym.order().front(), last = sym.order().back();
  a.diag(first).setZero();  // fails at the first pivot, before the last node is loaded
  a.diag(last)(1, 1) = std::numeric_limits<double>::quiet_NaN();
  gs::Factorization f(sym);
  EXPECT_EQ(f.factorize(a), gs::Status::NonFiniteValue);
  EXPECT_EQ(f.failed_node(), last);
  a.diag(last)(1, 1) = 1.0;
  EXPECT_EQ(f.factorize(a), gs::Status::SingularPivot);
  EXPECT_EQ(f.failed_node(), first);
}

TEST(Errors, InactiveNodesMayHoldAnything) {
  const gs::Symbolic sym = gs::analyze(fam::chain(4, 2));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  a.diag(2)(0, 0) = std::numeric_limits<double>::quiet_NaN();
  a.block(2, 3)(1, 1) = std::numeric_limits<double>::infinity();
  a.set_active(2, false);
  gs::Factorization f(sym);
  EXPECT_EQ(f.factorize(a), gs::Status::Success);
  a.set_active(2, true);
  EXPECT_EQ(f.factorize(a), gs::Status::NonFiniteValue);
  EXPECT_EQ(f.failed_node(), 2);
}

TEST(Errors, SolveChecksStateAndDimensions) {
  const gs::Symbolic sym = gs::analyze(fam::chain(4, 2));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  gs::Factorization f(sym);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(8), x(8);
  EXPECT_EQ(f.solve(b, x), gs::Status::NotFactorized);
  ASSERT_EQ(f.factorize(a), gs::Status::Success);
  Eigen::VectorXd short_b = Eigen::VectorXd::Ones(7);
  EXPECT_EQ(f.solve_in_place(short_b), gs::Status::DimensionMismatch);
  Eigen::MatrixXd wide_x(8, 2);
  EXPECT_EQ(f.solve(b, wide_x), gs::Status::DimensionMismatch);
  // A matrix on another pattern is refused.
  const gs::Symbolic other = gs::analyze(fam::ladder(2, 2));
  gs::BlockMatrix b_other(other);
  EXPECT_EQ(f.factorize(b_other), gs::Status::DimensionMismatch);
  EXPECT_EQ(f.solve_refined(b_other, b, x, 1), gs::Status::DimensionMismatch);
  // The same pattern built again (another analysis) is accepted.
  const gs::Symbolic again = gs::analyze(fam::chain(4, 2), {gs::Ordering::AMD, {}});
  gs::BlockMatrix a_again(again);
  fam::fill_values(a_again, fam::Values::Unsymmetric, 1);
  EXPECT_EQ(f.factorize(a_again), gs::Status::Success);
}

// A moved-from Factorization has no state: every call says so instead of
// dereferencing it, and assigning it a new one makes it usable again. A
// moved-from Symbolic keeps its analysis (a move copies the shared handle).
TEST(Errors, MovedFromObjectsFailClearlyOrStayValid) {
  gs::Symbolic sym = gs::analyze(fam::chain(4, 2));
  const gs::Symbolic taken = std::move(sym);
  EXPECT_EQ(sym.order(), taken.order());  // NOLINT(bugprone-use-after-move): the point of the test
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  gs::Factorization f(sym);
  gs::Factorization g = std::move(f);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(8), x(8);
  const std::string moved = "graphsolve::Factorization: used after it was moved from";
  EXPECT_NE(message_of([&] { f.factorize(a); }).find(moved), std::string::npos);  // NOLINT(bugprone-use-after-move)
  EXPECT_NE(message_of([&] { f.solve_in_place(b); }).find(moved), std::string::npos);
  EXPECT_NE(message_of([&] { f.solve_transposed(b, x); }).find(moved), std::string::npos);
  EXPECT_NE(message_of([&] { f.status(); }).find(moved), std::string::npos);
  EXPECT_NE(message_of([&] { f.memory_bytes(); }).find(moved), std::string::npos);
  gs::Determinant det;
  EXPECT_NE(message_of([&] { f.determinant(det); }).find(moved), std::string::npos);
  double estimate = 0.0;
  EXPECT_NE(message_of([&] { f.condition_estimate(a, estimate); }).find(moved), std::string::npos);
  ASSERT_EQ(g.factorize(a), gs::Status::Success);
  f = gs::Factorization(sym);
  ASSERT_EQ(f.factorize(a), gs::Status::Success);
  ASSERT_EQ(f.solve(b, x), gs::Status::Success);
  EXPECT_LT((a.to_dense() * x - b).norm(), 1e-12);
}

TEST(Errors, TransposedSolveAndQueriesCheckStateAndDimensions) {
  const gs::Symbolic sym = gs::analyze(fam::chain(4, 2));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 1);
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::Factorization f(sym, method);
    Eigen::VectorXd b = Eigen::VectorXd::Ones(8), x(8);
    gs::Determinant det;
    gs::Inertia inertia;
    const gs::Status inertia_unsupported =
        method == gs::Method::LDU ? gs::Status::UnsupportedMethod : gs::Status::NotFactorized;
    EXPECT_EQ(f.solve_transposed(b, x), gs::Status::NotFactorized);
    EXPECT_EQ(f.solve_transposed_refined(a, b, x, 2), gs::Status::NotFactorized);
    EXPECT_EQ(f.determinant(det), gs::Status::NotFactorized);
    EXPECT_EQ(f.inertia(inertia), inertia_unsupported);
    ASSERT_EQ(f.factorize(a), gs::Status::Success);
    EXPECT_EQ(f.solve_transposed_refined(gs::BlockMatrix(gs::analyze(fam::ladder(2, 2))), b, x, 1),
              gs::Status::DimensionMismatch);
    Eigen::VectorXd short_b = Eigen::VectorXd::Ones(7);
    EXPECT_EQ(f.solve_transposed_in_place(short_b), gs::Status::DimensionMismatch);
    Eigen::MatrixXd wide_x(8, 2);
    EXPECT_EQ(f.solve_transposed(b, wide_x), gs::Status::DimensionMismatch);
    b(3) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(f.solve_transposed(b, x), gs::Status::NonFiniteValue);
    EXPECT_EQ(f.determinant(det), gs::Status::Success);
    EXPECT_EQ(f.inertia(inertia), method == gs::Method::LDU ? gs::Status::UnsupportedMethod : gs::Status::Success);
    // A failed factorization leaves nothing to query.
    gs::BlockMatrix broken = a;
    broken.diag(2).setZero();
    broken.block(2, 1).setZero();
    broken.block(1, 2).setZero();
    broken.block(2, 3).setZero();
    broken.block(3, 2).setZero();
    ASSERT_NE(f.factorize(broken), gs::Status::Success);
    EXPECT_EQ(f.solve_transposed(b, x), gs::Status::NotFactorized);
    EXPECT_EQ(f.determinant(det), gs::Status::NotFactorized);
    EXPECT_EQ(f.inertia(inertia), inertia_unsupported);
  }
  EXPECT_STREQ(gs::to_string(gs::Status::UnsupportedMethod), "not available for this factorization method");
}

// A pivot within rounding of singular gets through only a zero pivot
// tolerance; its determinant and eigenvalue signs are then noise, and the
// queries say so instead of guessing.
TEST(Errors, QueriesRefuseAPivotWithinRoundingOfSingular) {
  const gs::Symbolic sym = gs::analyze(fam::chain(1, 4));
  gs::BlockMatrix a(sym);
  const Eigen::Matrix4d q = gs_test::random_orthogonal(4, 12);
  a.diag(0) = q * Eigen::Vector4d(1.0, -2.0, 3.0, 1e-17).asDiagonal() * q.transpose();
  gs::FactorOptions options;
  options.pivot_tolerance = 0.0;
  int factorized = 0;
  for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT}) {
    SCOPED_TRACE(gs::to_string(method));
    gs::Factorization f(sym, method);
    if (f.factorize(a, options) != gs::Status::Success) continue;  // rounding made the pivot exactly singular
    ++factorized;
    gs::Determinant det;
    EXPECT_EQ(f.determinant(det), gs::Status::SingularPivot);
    gs::Inertia inertia;
    if (method == gs::Method::LDLT) {
      EXPECT_EQ(f.inertia(inertia), gs::Status::SingularPivot);
    }
  }
  EXPECT_GT(factorized, 0);
}
