#include "graphsolve/families.hpp"

#include <algorithm>
#include <limits>
#include <random>

#include <Eigen/QR>
#include <stdexcept>
#include <string>

namespace graphsolve::families {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("graphsolve::families: " + what);
}
// n nodes, with room for `edges` edges; counts past an int are refused by
// name (a net or crystal of a large side overflowed them before).
Graph nodes(long n, int block_size, long edges) {
  require(n >= 0, "negative node count " + std::to_string(n));
  constexpr long kMax = std::numeric_limits<int>::max();
  require(n <= kMax && edges <= kMax, std::to_string(n) + " nodes and " + std::to_string(edges) +
                                          " edges, more than a Graph counts (2^31-1)");
  Graph g;
  g.reserve(static_cast<int>(n), static_cast<int>(edges));
  for (long i = 0; i < n; ++i) g.add_node(block_size);
  return g;
}

// Each node after the first hangs from a random earlier one.
void add_random_tree(Graph& g, std::mt19937_64& rng) {
  for (int i = 1; i < g.num_nodes(); ++i) g.add_edge(i, std::uniform_int_distribution<int>(0, i - 1)(rng));
}
}  // namespace

Graph chain(int n, int block_size) {
  Graph g = nodes(n, block_size, std::max(n - 1, 0));
  for (int i = 0; i + 1 < n; ++i) g.add_edge(i, i + 1);
  return g;
}

Graph random_tree(int n, int block_size, std::uint64_t seed) {
  Graph g = nodes(n, block_size, std::max(n - 1, 0));
  std::mt19937_64 rng(seed);
  add_random_tree(g, rng);
  return g;
}

Graph random_graph(int n, long extra_edges, int block_size, std::uint64_t seed) {
  require(n >= 0, "negative node count " + std::to_string(n));
  const long room = static_cast<long>(n) * (n - 1) / 2 - std::max(n - 1, 0);
  require(extra_edges >= 0 && extra_edges <= room, std::to_string(extra_edges) + " extra edges, but " +
                                                       std::to_string(n) + " nodes have room for " +
                                                       std::to_string(room) + " beside a tree's");
  Graph g = nodes(n, block_size, std::max(n - 1, 0) + extra_edges);
  std::mt19937_64 rng(seed);
  add_random_tree(g, rng);  // the same tree as random_tree's
  std::uniform_int_distribution<int> pick(0, std::max(n - 1, 0));
  for (long added = 0; added < extra_edges;) {
    const int a = pick(rng), b = pick(rng);
    if (a == b || g.has_edge(a, b)) continue;
    g.add_edge(a, b);
    ++added;
  }
  return g;
}

Graph ladder(int rungs, int block_size) {
  require(rungs >= 0, "negative rung count " + std::to_string(rungs));
  Graph g = nodes(2L * rungs, block_size, std::max(3L * rungs - 2, 0L));
  for (int i = 0; i < rungs; ++i) {
    g.add_edge(2 * i, 2 * i + 1);
    if (i + 1 < rungs) {
      g.add_edge(2 * i, 2 * i + 2);
      g.add_edge(2 * i + 1, 2 * i + 3);
    }
  }
  return g;
}

Graph net(int side, int block_size) {
  require(side >= 0, "negative side " + std::to_string(side));
  Graph g = nodes(static_cast<long>(side) * side, block_size, side > 0 ? 2L * side * (side - 1) : 0);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const int v = y * side + x;
      if (x + 1 < side) g.add_edge(v, v + 1);
      if (y + 1 < side) g.add_edge(v, v + side);
    }
  return g;
}

Graph crystal(int side, int block_size) {
  require(side >= 0, "negative side " + std::to_string(side));
  const long n = static_cast<long>(side) * side * side;
  Graph g = nodes(n, block_size, side > 0 ? 3L * side * side * (side - 1) : 0);
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        const int v = (z * side + y) * side + x;
        if (x + 1 < side) g.add_edge(v, v + 1);
        if (y + 1 < side) g.add_edge(v, v + side);
        if (z + 1 < side) g.add_edge(v, v + side * side);
      }
  return g;
}

Graph mechanism(const Graph& bodies, int joint_size, bool grounded) {
  Graph g;
  for (int i = 0; i < bodies.num_nodes(); ++i) g.add_node(6);
  auto joint_between = [&](NodeId a, NodeId b) {
    const NodeId j = g.add_node(joint_size, NodeKind::ZeroDiagonal);
    g.add_edge(a, j);
    if (b >= 0) g.add_edge(j, b);
  };
  for (const auto& [a, b] : bodies.edges()) joint_between(a, b);
  if (grounded && bodies.num_nodes() > 0) joint_between(0, -1);
  return g;
}

void fill_values(BlockMatrix& matrix, Values kind, std::uint64_t seed) {
  const Pattern& p = matrix.pattern();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  auto random = [&](int rows, int cols) {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = uniform(rng);
    return m;
  };
  const bool saddle = kind == Values::Saddle || kind == Values::SaddleUnsymmetric;
  const bool unsymmetric = kind == Values::Unsymmetric || kind == Values::SaddleUnsymmetric;
  auto zero_diag = [&](NodeId i) { return saddle && p.kind[i] == NodeKind::ZeroDiagonal; };
  // Joint Jacobians have orthonormal rows (like [R, -R p^]) so that saddle
  // systems are as well conditioned as real mechanisms; the unsymmetric variant
  // perturbs the transposed coupling the way G_vw differs from G_xq.
  auto orthonormal_rows = [&](int rows, int cols) {
    const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(random(cols, cols)).householderQ();
    return Eigen::MatrixXd(q.topRows(rows));
  };
  for (int e = 0; e < p.num_edges; ++e) {
    auto [a, b] = p.edges[e];
    if (zero_diag(b) && !zero_diag(a)) std::swap(a, b);  // a: the constraint, b: the body
    const bool constraint_coupling = saddle && zero_diag(a) && !zero_diag(b) && p.size[a] <= p.size[b];
    const Eigen::MatrixXd ab = constraint_coupling ? orthonormal_rows(p.size[a], p.size[b]) : random(p.size[a], p.size[b]);
    matrix.block(a, b) = ab;
    Eigen::MatrixXd ba = ab.transpose();
    if (unsymmetric) ba = constraint_coupling ? Eigen::MatrixXd(ba + 0.1 * random(p.size[b], p.size[a])) : random(p.size[b], p.size[a]);
    matrix.block(b, a) = ba;
  }
  // Diagonal blocks dominate the sum of the absolute off-diagonal row entries,
  // which keeps every pivot well conditioned whatever the ordering.
  for (int i = 0; i < p.num_nodes; ++i) {
    const int s = p.size[i];
    if (zero_diag(i)) {
      matrix.diag(i).setZero();
      continue;
    }
    Eigen::VectorXd row_sums = Eigen::VectorXd::Zero(s);
    for (int k = p.adj_begin[i]; k < p.adj_begin[i + 1]; ++k) row_sums += matrix.block(i, p.adj[k]).cwiseAbs().rowwise().sum();
    Eigen::MatrixXd d = random(s, s);
    if (!unsymmetric) d = 0.5 * (d + d.transpose()).eval();
    const double dominance = saddle ? 1.0 : row_sums.size() ? row_sums.maxCoeff() : 0.0;
    d += (dominance + s + 1.0) * Eigen::MatrixXd::Identity(s, s);
    matrix.diag(i) = d;
  }
}

}  // namespace graphsolve::families
