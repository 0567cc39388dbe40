// from_sparse / assign_from_sparse: a scalar sparse matrix becomes a block
// system whose dense form is the matrix itself, whose pattern is its stored
// block structure, and which solves like dense LU.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <Eigen/SparseCore>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

std::vector<int> sizes_of(const gs::Pattern& p) { return p.size; }

std::set<std::pair<int, int>> edge_set(const gs::Pattern& p) { return {p.edges.begin(), p.edges.end()}; }

// The edges whose blocks hold entries: an edge to a size-0 node holds none,
// so no scalar matrix can show it.
std::set<std::pair<int, int>> edges_with_entries(const gs::Pattern& p) {
  std::set<std::pair<int, int>> edges;
  for (const auto& [i, j] : p.edges)
    if (p.size[i] > 0 && p.size[j] > 0) edges.insert({i, j});
  return edges;
}

// A random scalar sparse matrix with a dominant diagonal, so every node's
// pivot block is nonsingular whatever the grouping; `density` of the
// off-diagonal entries are stored, not in any block structure.
gs::SparseColumns random_scalar_sparse(int n, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::bernoulli_distribution stored(density);
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r)
      if (r == c)
        entries.emplace_back(r, c, 4.0 + n * density + u(rng));
      else if (stored(rng))
        entries.emplace_back(r, c, u(rng));
  gs::SparseColumns a(n, n);
  a.setFromTriplets(entries.begin(), entries.end());
  return a;
}

// Sizes that sum to n, mixing 0-, 1- and larger blocks.
std::vector<int> mixed_sizes(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> size(0, 5);
  std::vector<int> sizes;
  int total = 0;
  while (total < n) {
    const int s = std::min(size(rng), n - total);
    sizes.push_back(s);
    total += s;
  }
  sizes.push_back(0);
  return sizes;
}

// The node pairs that A stores an entry between (the pattern from_sparse must make).
std::set<std::pair<int, int>> coupled_nodes(const gs::SparseColumns& a, const std::vector<int>& sizes) {
  std::vector<int> node_of_row;
  for (int v = 0; v < static_cast<int>(sizes.size()); ++v) node_of_row.insert(node_of_row.end(), sizes[v], v);
  std::set<std::pair<int, int>> pairs;
  for (int c = 0; c < a.outerSize(); ++c)
    for (gs::SparseColumns::InnerIterator it(a, c); it; ++it) {
      const int i = node_of_row[it.row()], j = node_of_row[c];
      if (i != j) pairs.insert({std::min(i, j), std::max(i, j)});
    }
  return pairs;
}

// Compressed-column arrays as another library might hand them over: each
// column's rows drawn from 0..n-1, and by `kind` (0-3) left sorted, given a
// duplicate, given rows a little outside 0..n-1, or shuffled. `faulty` says
// whether they break the rules (rows increase and lie in 0..n-1).
struct ForeignColumns {
  std::vector<int> starts{0}, rows;
  std::vector<double> values;
  bool faulty = false;

  Eigen::Map<const gs::SparseColumns> map(int n) const {
    return {n, n, static_cast<int>(rows.size()), starts.data(), rows.data(), values.data()};
  }
  Eigen::MatrixXd dense(int n) const {
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
    for (int c = 0; c < n; ++c)
      for (int q = starts[c]; q < starts[c + 1]; ++q) a(rows[q], c) = values[q];
    return a;
  }
};

ForeignColumns random_foreign_columns(int n, int kind, std::mt19937& rng) {
  ForeignColumns f;
  for (int c = 0; c < n; ++c) {
    std::vector<int> column;
    for (int r = 0; r < n; ++r)
      if (rng() % 3 == 0) column.push_back(r);
    if (kind == 1 && !column.empty()) column.push_back(column[rng() % column.size()]);  // a duplicate
    if (kind == 2 && rng() % 4 == 0) column.push_back(rng() % 2 ? -1 - static_cast<int>(rng() % 2) : n);
    if (kind == 3) std::shuffle(column.begin(), column.end(), rng);
    for (std::size_t t = 1; t < column.size(); ++t) f.faulty |= column[t - 1] >= column[t];
    for (int r : column) {
      f.faulty |= r < 0 || r >= n;
      f.rows.push_back(r);
      f.values.push_back(1.0 + static_cast<double>(rng() % 1000));
    }
    f.starts.push_back(static_cast<int>(f.rows.size()));
  }
  return f;
}

// Runs `import` (from_sparse or assign_from_sparse of f's arrays, giving the
// dense matrix it made) and returns whether it refused them. It must refuse,
// with a message of `function` naming a column, exactly when they are faulty,
// and otherwise give the dense matrix they describe.
template <class Import>
bool refuses(Import&& import, const ForeignColumns& f, int n, const std::string& function, int trial) {
  try {
    const Eigen::MatrixXd made = import();
    EXPECT_FALSE(f.faulty) << "trial " << trial << ": faulty arrays were taken by " << function;
    EXPECT_EQ(made, f.dense(n)) << "trial " << trial;
    return false;
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(f.faulty) << "trial " << trial << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find("graphsolve::" + function + ": column "), std::string::npos) << e.what();
    return true;
  }
}

// Node 0 (2 rows) joined to `leaves` nodes of 1 to 3 rows.
gs::Graph star_of_mixed_sizes(int leaves) {
  gs::Graph graph;
  graph.add_node(2);
  for (int v = 1; v <= leaves; ++v) graph.add_edge(0, graph.add_node(1 + v % 3));
  return graph;
}

// The message of the std::invalid_argument fn throws (the type both import functions promise).
template <class Fn>
std::string message_of(Fn&& fn) {
  return gs_test::message_of<std::invalid_argument>(std::forward<Fn>(fn));
}

}  // namespace

TEST(SparseImport, BlockMatricesComeBackFromTheirExport) {
  struct Case {
    std::string name;
    gs::Graph graph;
    fam::Values values;
  };
  std::vector<Case> cases;
  cases.push_back({"chain", fam::chain(12, 6), fam::Values::Unsymmetric});
  cases.push_back({"tree", fam::random_tree(15, 3, 7), fam::Values::Unsymmetric});
  cases.push_back({"ladder", fam::ladder(5, 2), fam::Values::SymmetricPositiveDefinite});
  cases.push_back({"net", fam::net(4, 3), fam::Values::Unsymmetric});
  cases.push_back({"crystal", fam::crystal(3, 1), fam::Values::Unsymmetric});
  cases.push_back({"mechanism", fam::mechanism(fam::ladder(3, 6), 5, true), fam::Values::Saddle});
  gs::Graph mixed = fam::chain(4, 2);
  mixed.add_node(0);
  mixed.add_edge(4, 1);
  mixed.add_node(7);
  mixed.add_edge(5, 0);
  cases.push_back({"mixed sizes with a size-0 node", mixed, fam::Values::Unsymmetric});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    gs::BlockMatrix original(std::make_shared<const gs::Pattern>(c.graph));
    fam::fill_values(original, c.values, 3);
    const gs::BlockMatrix imported = gs::from_sparse(gs::to_sparse(original), sizes_of(original.pattern()));
    EXPECT_EQ(imported.to_dense(), original.to_dense());
    EXPECT_EQ(sizes_of(imported.pattern()), sizes_of(original.pattern()));
    EXPECT_EQ(edge_set(imported.pattern()), edges_with_entries(original.pattern()));
    // The families give constraint nodes zero diagonal blocks and every other node a nonzero one.
    EXPECT_EQ(imported.pattern().kind, original.pattern().kind);
  }
}

TEST(SparseImport, ScalarMatricesSolveLikeDenseLuUnderAnyGrouping) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const int n = 10 + 7 * static_cast<int>(seed);
    const gs::SparseColumns a = random_scalar_sparse(n, 3.0 / n, seed);
    const Eigen::MatrixXd dense(a);
    const Eigen::MatrixXd b = gs_test::random_rhs(n, 2, seed);
    const Eigen::MatrixXd reference = dense.partialPivLu().solve(b);
    const std::vector<std::vector<int>> groupings = {std::vector<int>(n, 1), mixed_sizes(n, seed),
                                                     {n}};
    for (const std::vector<int>& sizes : groupings) {
      const gs::BlockMatrix m = gs::from_sparse(a, sizes);
      ASSERT_EQ(m.to_dense(), dense) << "seed " << seed;
      EXPECT_EQ(edge_set(m.pattern()), coupled_nodes(a, sizes)) << "seed " << seed;
      for (gs::Ordering ordering : {gs::Ordering::DFS, gs::Ordering::AMD, gs::Ordering::ND, gs::Ordering::Auto}) {
        const gs::Symbolic symbolic = gs::analyze_with_pattern(m.pattern_ptr(), {ordering, {}});
        gs::Factorization f(symbolic, gs::Method::LDU);
        ASSERT_EQ(f.factorize(m), gs::Status::Success) << "seed " << seed << " nodes " << sizes.size();
        Eigen::MatrixXd x(n, 2);
        ASSERT_EQ(f.solve(b, x), gs::Status::Success);
        EXPECT_LT((x - reference).norm() / reference.norm(), 1e-12) << "seed " << seed;
      }
    }
  }
}

TEST(SparseImport, ExplicitZerosAreStructureAndZeroDiagonalsMarkConstraints) {
  // Rows 0-1 a body with a nonzero diagonal; rows 2-3 a constraint whose
  // diagonal block stores explicit zeros; rows 4-5 a node whose only
  // coupling to the body is an explicit zero.
  std::vector<Eigen::Triplet<double, int>> entries = {
      {0, 0, 2.0}, {1, 1, 2.0}, {2, 0, 1.0}, {0, 2, 1.0}, {3, 1, 1.0}, {1, 3, 1.0},
      {2, 2, 0.0}, {3, 3, 0.0}, {4, 4, 5.0}, {5, 5, 5.0}, {4, 1, 0.0}};
  gs::SparseColumns a(6, 6);
  a.setFromTriplets(entries.begin(), entries.end());
  const gs::BlockMatrix m = gs::from_sparse(a, {2, 2, 2});
  EXPECT_EQ(edge_set(m.pattern()), (std::set<std::pair<int, int>>{{0, 1}, {0, 2}}));
  EXPECT_EQ(m.pattern().kind[0], gs::NodeKind::Regular);
  EXPECT_EQ(m.pattern().kind[1], gs::NodeKind::ZeroDiagonal);
  EXPECT_EQ(m.pattern().kind[2], gs::NodeKind::Regular);
  EXPECT_EQ(m.to_dense(), Eigen::MatrixXd(a));
  // The saddle system factorizes because the constraint follows the body.
  const gs::Symbolic symbolic = gs::analyze_with_pattern(m.pattern_ptr());
  gs::Factorization f(symbolic, gs::Method::LDU);
  EXPECT_EQ(f.factorize(m), gs::Status::Success);
}

TEST(SparseImport, OneTriangleOfASymmetricMatrixIsMirrored) {
  gs::BlockMatrix spd(std::make_shared<const gs::Pattern>(fam::ladder(6, 3)));
  fam::fill_values(spd, fam::Values::SymmetricPositiveDefinite, 11);
  const gs::SparseColumns full = gs::to_sparse(spd);
  const Eigen::MatrixXd dense(full);
  ASSERT_LT((dense - dense.transpose()).norm(), 1e-15 * dense.norm());
  const Eigen::MatrixXd b = gs_test::random_rhs(dense.rows(), 1, 5);
  const Eigen::MatrixXd reference = dense.llt().solve(b);
  const std::vector<int> sizes = sizes_of(spd.pattern());
  const gs::SparseColumns lower = full.triangularView<Eigen::Lower>();
  const gs::SparseColumns upper = full.triangularView<Eigen::Upper>();
  for (const auto& [triangle, storage] : {std::pair{lower, gs::SparseStorage::SymmetricLower},
                                          std::pair{upper, gs::SparseStorage::SymmetricUpper}}) {
    const gs::BlockMatrix m = gs::from_sparse(triangle, sizes, storage);
    EXPECT_EQ(m.to_dense(), dense);
    EXPECT_EQ(edge_set(m.pattern()), edge_set(spd.pattern()));
    for (gs::Method method : {gs::Method::LLT, gs::Method::LDLT, gs::Method::LDU}) {
      gs::Factorization f(gs::analyze_with_pattern(m.pattern_ptr()), method);
      ASSERT_EQ(f.factorize(m), gs::Status::Success) << gs::to_string(method);
      Eigen::MatrixXd x(b.rows(), 1);
      ASSERT_EQ(f.solve(b, x), gs::Status::Success);
      EXPECT_LT((x - reference).norm() / reference.norm(), 1e-12) << gs::to_string(method);
    }
  }
  // The other triangle is refused, naming the entry, whichever was promised.
  const std::string below = message_of([&] { gs::from_sparse(lower, sizes, gs::SparseStorage::SymmetricUpper); });
  EXPECT_NE(below.find("below the diagonal"), std::string::npos) << below;
  EXPECT_NE(below.find("upper triangle only"), std::string::npos) << below;
  const std::string above = message_of([&] { gs::from_sparse(full, sizes, gs::SparseStorage::SymmetricLower); });
  EXPECT_NE(above.find("above the diagonal"), std::string::npos) << above;
  EXPECT_NE(above.find("lower triangle only"), std::string::npos) << above;
}

TEST(SparseImport, AssignReplacesEveryValueOnTheSamePattern) {
  gs::BlockMatrix first(std::make_shared<const gs::Pattern>(fam::net(4, 3)));
  fam::fill_values(first, fam::Values::Unsymmetric, 1);
  gs::BlockMatrix m = gs::from_sparse(gs::to_sparse(first), sizes_of(first.pattern()));
  const gs::Symbolic symbolic = gs::analyze_with_pattern(m.pattern_ptr());
  gs::Factorization f(symbolic, gs::Method::LDU);
  for (std::uint64_t seed = 2; seed < 5; ++seed) {  // the Newton loop: new values, the same analysis
    gs::BlockMatrix next(first.pattern_ptr());
    fam::fill_values(next, fam::Values::Unsymmetric, seed);
    gs::assign_from_sparse(m, gs::to_sparse(next));
    ASSERT_EQ(m.to_dense(), next.to_dense()) << "seed " << seed;
    ASSERT_EQ(f.factorize(m), gs::Status::Success);
    const Eigen::MatrixXd b = gs_test::random_rhs(m.rows(), 1, static_cast<unsigned>(seed));
    Eigen::MatrixXd x(m.rows(), 1);
    ASSERT_EQ(f.solve(b, x), gs::Status::Success);
    EXPECT_LT(gs_test::dense_residual(next.to_dense(), x, b), 1e-12);
  }
  // An A that stores fewer blocks zeroes the rest (nothing of the old values stays).
  const gs::SparseColumns diagonal_only = gs::SparseColumns(Eigen::MatrixXd::Identity(m.rows(), m.rows()).sparseView());
  gs::assign_from_sparse(m, diagonal_only);
  EXPECT_EQ(m.to_dense(), Eigen::MatrixXd::Identity(m.rows(), m.rows()));
}

TEST(SparseImport, AssignIntoAGraphOfYourOwnKeepsItsKinds) {
  // A user who marks the constraint nodes (and adds an edge A does not
  // store) builds the graph, and only takes the values from A.
  gs::Graph graph;
  graph.add_node(2);
  graph.add_node(1, gs::NodeKind::ZeroDiagonal);
  graph.add_node(1);
  graph.add_edge(0, 1);
  graph.add_edge(1, 2);
  gs::BlockMatrix m(std::make_shared<const gs::Pattern>(graph));
  Eigen::MatrixXd dense(4, 4);
  dense << 3, 0, 1, 0,  //
      0, 3, 1, 0,       //
      1, 1, 1e-3, 0,    // a regularized constraint: its diagonal is not zero
      0, 0, 0, 2;
  gs::assign_from_sparse(m, dense.sparseView());
  EXPECT_EQ(m.to_dense(), dense);
  EXPECT_EQ(m.pattern().kind[1], gs::NodeKind::ZeroDiagonal);
  EXPECT_EQ(m.block(1, 2).norm(), 0.0);
}

TEST(SparseImport, EveryWayToHoldColumnsGivesTheSameMatrix) {
  const gs::SparseColumns a = random_scalar_sparse(30, 0.1, 9);
  const std::vector<int> sizes = mixed_sizes(30, 9);
  const Eigen::MatrixXd dense(a);

  // Uncompressed (after insert()), with room left in every column.
  gs::SparseColumns uncompressed(30, 30);
  uncompressed.reserve(Eigen::VectorXi::Constant(30, 8));
  for (int c = 0; c < 30; ++c)
    for (gs::SparseColumns::InnerIterator it(a, c); it; ++it) uncompressed.insert(it.row(), c) = it.value();
  ASSERT_FALSE(uncompressed.isCompressed());
  EXPECT_EQ(gs::from_sparse(uncompressed, sizes).to_dense(), dense);

  // Another library's CSC arrays, mapped without a copy.
  const Eigen::Map<const gs::SparseColumns> mapped(30, 30, static_cast<int>(a.nonZeros()), a.outerIndexPtr(),
                                                   a.innerIndexPtr(), a.valuePtr());
  EXPECT_EQ(gs::from_sparse(mapped, sizes).to_dense(), dense);

  // Another storage order converts on the call; another index type by an
  // explicit copy (Eigen's Ref cannot make that one).
  const Eigen::SparseMatrix<double, Eigen::RowMajor, int> by_rows = a;
  EXPECT_EQ(gs::from_sparse(by_rows, sizes).to_dense(), dense);
  const Eigen::SparseMatrix<double, Eigen::ColMajor, long> long_indices = a;
  EXPECT_EQ(gs::from_sparse(gs::SparseColumns(long_indices), sizes).to_dense(), dense);

  // A diagonal matrix: nodes with no edge at all (the pattern's adjacency is empty).
  const gs::SparseColumns diagonal = gs::SparseColumns(Eigen::MatrixXd(Eigen::Vector3d(1, 2, 3).asDiagonal()).sparseView());
  const gs::BlockMatrix unconnected = gs::from_sparse(diagonal, {1, 1, 1});
  EXPECT_EQ(unconnected.pattern().num_edges, 0);
  EXPECT_EQ(unconnected.to_dense(), Eigen::MatrixXd(diagonal));

  // The empty matrix.
  EXPECT_EQ(gs::from_sparse(gs::SparseColumns(0, 0), {}).num_nodes(), 0);
}

TEST(SparseImport, BadInputIsNamed) {
  const gs::SparseColumns a = random_scalar_sparse(6, 0.3, 4);
  EXPECT_NE(message_of([&] { gs::from_sparse(gs::SparseColumns(4, 5), {4}); }).find("A is 4x5, not square"),
            std::string::npos);
  EXPECT_NE(message_of([&] { gs::from_sparse(a, {3, -1, 4}); }).find("block size #1 is -1"), std::string::npos);
  EXPECT_NE(message_of([&] { gs::from_sparse(a, {3, 2}); }).find("the 2 block sizes sum to 5 but A has dimension 6"),
            std::string::npos);
  EXPECT_NE(message_of([&] { gs::from_sparse(a, {3, 2, 2}); }).find("sum to more than 6"), std::string::npos);
  EXPECT_NE(message_of([&] { gs::from_sparse(a, {2147483647, 2147483647, 6}); }).find("sum to more than 6"),
            std::string::npos);

  gs::BlockMatrix chain(std::make_shared<const gs::Pattern>(fam::chain(3, 2)));
  EXPECT_NE(message_of([&] { gs::assign_from_sparse(chain, gs::SparseColumns(5, 5)); })
                .find("A has dimension 5 but the block matrix 6"),
            std::string::npos);
  EXPECT_NE(message_of([&] { gs::assign_from_sparse(chain, gs::SparseColumns(6, 7)); }).find("not square"),
            std::string::npos);

  // An entry in a block the chain lacks (nodes 0 and 2) leaves the values as they were.
  fam::fill_values(chain, fam::Values::Unsymmetric, 2);
  const Eigen::MatrixXd before = chain.to_dense();
  Eigen::MatrixXd coupled = before;
  coupled(5, 1) = 1.0;
  const std::string outside = message_of([&] { gs::assign_from_sparse(chain, coupled.sparseView()); });
  EXPECT_NE(outside.find("row 5, column 1 falls in block (2, 0), but the pattern has no edge between nodes 2 and 0"),
            std::string::npos)
      << outside;
  EXPECT_EQ(chain.to_dense(), before);
  // Columns whose row indices do not increase (unsorted, or a duplicate), or
  // leave the matrix, as another library's arrays may have them.
  const gs::SparseColumns chain_entries = gs::to_sparse(chain);
  for (const auto& [row_of_fourth_entry, expected] :
       {std::pair{0, "column 0 of A lists row 0 after row 2"}, std::pair{2, "column 0 of A lists row 2 after row 2"},
        std::pair{6, "column 0 of A has an entry in row 6, outside 0..5"},
        std::pair{-1, "column 0 of A lists row -1 after row 2"}}) {
    std::vector<int> rows(chain_entries.innerIndexPtr(), chain_entries.innerIndexPtr() + chain_entries.nonZeros());
    ASSERT_EQ(rows[3], 3);  // column 0 holds rows 0-3: blocks (0, 0) and (1, 0)
    rows[3] = row_of_fourth_entry;
    const Eigen::Map<const gs::SparseColumns> bad(6, 6, static_cast<int>(rows.size()), chain_entries.outerIndexPtr(),
                                                  rows.data(), chain_entries.valuePtr());
    const std::string assigned = message_of([&] { gs::assign_from_sparse(chain, bad); });
    EXPECT_NE(assigned.find(std::string("graphsolve::assign_from_sparse: ") + expected), std::string::npos) << assigned;
    EXPECT_EQ(chain.to_dense(), before);
    const std::string imported = message_of([&] { gs::from_sparse(bad, {2, 2, 2}); });
    EXPECT_NE(imported.find(std::string("graphsolve::from_sparse: ") + expected), std::string::npos) << imported;
  }
  std::vector<int> last_rows(chain_entries.innerIndexPtr(), chain_entries.innerIndexPtr() + chain_entries.nonZeros());
  last_rows.front() = -1;  // out of range at a column's start, where the order cannot show it
  const Eigen::Map<const gs::SparseColumns> negative(6, 6, static_cast<int>(last_rows.size()),
                                                     chain_entries.outerIndexPtr(), last_rows.data(),
                                                     chain_entries.valuePtr());
  const std::string below_zero = message_of([&] { gs::assign_from_sparse(chain, negative); });
  EXPECT_NE(below_zero.find("column 0 of A has an entry in row -1, outside 0..5"), std::string::npos) << below_zero;

  // The same when the entry before it, in the previous column, was in a block of the same row.
  gs::Graph star;
  for (int v = 0; v < 3; ++v) star.add_node(1);
  star.add_edge(0, 2);
  gs::BlockMatrix sparse_star(std::make_shared<const gs::Pattern>(star));
  gs::SparseColumns corner(3, 3);
  corner.insert(2, 0) = 1.0;  // block (2, 0): an edge
  corner.insert(2, 1) = 1.0;  // block (2, 1): none
  const std::string next_column = message_of([&] { gs::assign_from_sparse(sparse_star, corner); });
  EXPECT_NE(next_column.find("row 2, column 1 falls in block (2, 1)"), std::string::npos) << next_column;
  // And between two blocks the column has (nodes 0 and 2 of column 0).
  gs::SparseColumns between(3, 3);
  between.insert(0, 0) = 1.0;
  between.insert(1, 0) = 1.0;
  between.insert(2, 0) = 1.0;
  const std::string gap = message_of([&] { gs::assign_from_sparse(sparse_star, between); });
  EXPECT_NE(gap.find("row 1, column 0 falls in block (1, 0)"), std::string::npos) << gap;
  between.coeffRef(0, 0) = 0.0;  // the gap is found by the search, not by the next block
  between.prune(0.0);
  const std::string searched = message_of([&] { gs::assign_from_sparse(sparse_star, between); });
  EXPECT_NE(searched.find("row 1, column 0 falls in block (1, 0)"), std::string::npos) << searched;
  // In a block column wider than a walk keeps at hand (a hub of 40 leaves),
  // looked up block by block: an entry of a node the hub is not joined to.
  gs::Graph hub = star_of_mixed_sizes(40);
  const gs::NodeId stranger = hub.add_node(2);
  hub.add_edge(stranger, 1);
  gs::BlockMatrix wide(std::make_shared<const gs::Pattern>(hub));
  fam::fill_values(wide, fam::Values::Unsymmetric, 3);
  const Eigen::MatrixXd wide_before = wide.to_dense();
  Eigen::MatrixXd strange = wide_before;
  const int stranger_row = static_cast<int>(strange.rows()) - 1;
  strange(stranger_row, 1) = 1.0;  // block (stranger, hub)
  const std::string unjoined = message_of([&] { gs::assign_from_sparse(wide, strange.sparseView()); });
  EXPECT_NE(unjoined.find("row " + std::to_string(stranger_row) + ", column 1 falls in block (" +
                          std::to_string(stranger) + ", 0)"),
            std::string::npos)
      << unjoined;
  EXPECT_EQ(wide.to_dense(), wide_before);
  const std::string triangle = message_of(
      [&] { gs::assign_from_sparse(chain, before.sparseView(), gs::SparseStorage::SymmetricLower); });
  EXPECT_NE(triangle.find("above the diagonal"), std::string::npos) << triangle;
  EXPECT_EQ(chain.to_dense(), before);
}

// Arbitrary compressed-column arrays, as another library might hand over:
// each column's rows drawn from a little beyond 0..n-1, sorted or not, with
// duplicates or not. Either the import names a fault, exactly when there is
// one, or it gives the dense matrix the arrays describe (the sanitizer build
// also sees that nothing is written out of place).
TEST(SparseImport, ForeignArraysAreRefusedOrImportedExactly) {
  std::mt19937 rng(17);
  int refused = 0, imported = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12);
    const std::vector<int> sizes = mixed_sizes(n, static_cast<unsigned>(trial));
    const ForeignColumns f = random_foreign_columns(n, trial % 4, rng);
    const auto import = [&] { return gs::from_sparse(f.map(n), sizes).to_dense(); };
    ++(refuses(import, f, n, "from_sparse", trial) ? refused : imported);
  }
  EXPECT_GT(refused, 100);  // both outcomes were exercised
  EXPECT_GT(imported, 100);
}

namespace {

// Every node joined to every other: a pattern any matrix of these sizes fits.
gs::BlockMatrix complete_pattern_matrix(const std::vector<int>& sizes) {
  gs::Graph graph;
  for (int size : sizes) graph.add_node(size);
  for (int a = 0; a < graph.num_nodes(); ++a)
    for (int b = a + 1; b < graph.num_nodes(); ++b) graph.add_edge(a, b);
  return gs::BlockMatrix(std::make_shared<const gs::Pattern>(graph));
}

// Every stored value of m set to `value`.
void fill_arena(gs::BlockMatrix& m, double value) {
  const gs::Pattern& p = m.pattern();
  for (int v = 0; v < p.num_nodes; ++v) m.diag(v).setConstant(value);
  for (const auto& [a, b] : p.edges) {
    m.block(a, b).setConstant(value);
    m.block(b, a).setConstant(value);
  }
}

}  // namespace

// The same arrays assigned into a matrix whose pattern has every block (so
// only the arrays can be at fault), with scalar nodes (their own walk) and
// with mixed sizes: refused exactly when faulty, leaving the values as they
// were, and otherwise the dense matrix they describe, with nothing left of
// the values before.
TEST(SparseImport, ForeignArraysAreAssignedOrRefusedExactly) {
  std::mt19937 rng(29);
  int refused = 0, assigned = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12);
    const std::vector<int> sizes = trial % 2 ? std::vector<int>(n, 1) : mixed_sizes(n, static_cast<unsigned>(trial));
    gs::BlockMatrix m = complete_pattern_matrix(sizes);
    fill_arena(m, -7.0);
    const Eigen::MatrixXd before = m.to_dense();
    const ForeignColumns f = random_foreign_columns(n, (trial / 2) % 4, rng);
    const auto assign = [&] {
      gs::assign_from_sparse(m, f.map(n));
      return m.to_dense();
    };
    if (refuses(assign, f, n, "assign_from_sparse", trial)) {
      EXPECT_EQ(m.to_dense(), before) << "trial " << trial;
      ++refused;
    } else {
      ++assigned;
    }
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(assigned, 100);
}

// An A that stores every value of the pattern overwrites the matrix without
// zeroing it first; one that stores a single value fewer must still leave a
// zero there, whichever storage, for scalar and block nodes. The cases are
// the ones a miscount of stored values would confuse with a full A: one
// diagonal entry missing, one entry off the diagonal missing, and a
// triangle of a two-node system that stores only the diagonal (two values
// of four set, which counting mirrors for diagonal entries would make four).
TEST(SparseImport, AssignLeavesNothingOfTheOldValues) {
  struct Case {
    const char* name;
    gs::Graph graph;
  };
  const std::vector<Case> cases = {
      {"2 scalar nodes", fam::chain(2, 1)},
      {"scalar net", fam::net(4, 1)},
      {"scalar random graph", gs_test::random_connected_graph(12, 8, 3, [](int, std::mt19937&) { return 1; })},
      {"3x3 ladder", fam::ladder(3, 3)},
      {"mixed sizes", gs_test::random_connected_graph(9, 5, 4, [](int, std::mt19937& rng) { return 1 + static_cast<int>(rng() % 4); })},
      {"a hub of 40 neighbours", star_of_mixed_sizes(40)},  // more blocks than a walk keeps at hand
  };
  for (const Case& c : cases) {
    gs::BlockMatrix values(std::make_shared<const gs::Pattern>(c.graph));
    fam::fill_values(values, fam::Values::SymmetricPositiveDefinite, 5);
    const gs::SparseColumns full = gs::to_sparse(values);
    const Eigen::MatrixXd dense(full);
    const int n = static_cast<int>(dense.rows());
    for (gs::SparseStorage storage :
         {gs::SparseStorage::General, gs::SparseStorage::SymmetricLower, gs::SparseStorage::SymmetricUpper}) {
      const gs::SparseColumns stored = storage == gs::SparseStorage::General ? full
                                       : storage == gs::SparseStorage::SymmetricLower
                                           ? gs::SparseColumns(full.triangularView<Eigen::Lower>())
                                           : gs::SparseColumns(full.triangularView<Eigen::Upper>());
      // What the matrix holds once A is assigned: A, mirrored for a triangle.
      const auto expected_of = [&](const gs::SparseColumns& a) {
        Eigen::MatrixXd e(a);
        if (storage == gs::SparseStorage::SymmetricLower) e = e.selfadjointView<Eigen::Lower>();
        if (storage == gs::SparseStorage::SymmetricUpper) e = e.selfadjointView<Eigen::Upper>();
        return e;
      };
      const auto without = [&](int row, int col) {
        gs::SparseColumns a = stored;
        a.prune([&](int r, int cc, double) { return r != row || cc != col; });
        return a;
      };
      int off_row = -1, off_col = -1;  // the last coupling A stores
      for (int col = 0; col < n; ++col)
        for (gs::SparseColumns::InnerIterator it(stored, col); it; ++it)
          if (it.row() != col) std::tie(off_row, off_col) = std::pair{static_cast<int>(it.row()), col};
      ASSERT_GE(off_row, 0) << c.name;
      gs::SparseColumns diagonal_only = stored, scattered = stored;
      diagonal_only.prune([](int r, int cc, double) { return r == cc; });
      scattered.prune([](int r, int cc, double) { return (r + 2 * cc) % 3 != 1; });  // parts of blocks, and skipped ones
      const std::vector<std::pair<const char*, gs::SparseColumns>> inputs = {
          {"every value", stored},
          {"one diagonal entry fewer", without(n / 2, n / 2)},
          {"one coupling fewer", without(off_row, off_col)},
          {"the diagonal only", diagonal_only},
          {"a third of the entries fewer", scattered}};
      for (const auto& [what, a] : inputs) {
        gs::BlockMatrix m(values.pattern_ptr());
        fill_arena(m, 3.0);
        gs::assign_from_sparse(m, a, storage);
        EXPECT_EQ(m.to_dense(), expected_of(a)) << c.name << ", storage " << static_cast<int>(storage) << ", " << what;
      }
      EXPECT_EQ(expected_of(stored), dense) << c.name;
    }
  }
}
