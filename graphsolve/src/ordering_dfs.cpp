// The papers' depth-first ordering: per connected component, a depth-first
// search from a root; nodes are listed in reverse discovery order, so every
// node comes before the node it was discovered from and the root comes last.
// On a tree this eliminates leaves first and creates no fill. A path is the
// exception: it is eliminated from both ends towards a middle node (see
// two_ended_path_order).
#include <cstddef>
#include <utility>
#include <vector>

#include "graphsolve/ordering.hpp"
#include "symbolic_data.hpp"

namespace graphsolve {

bool is_zero_diagonal_leaf(const Pattern& pattern, NodeId node) {
  return pattern.kind[node] == NodeKind::ZeroDiagonal && pattern.size[node] > 0 && pattern.degree(node) == 1;
}

namespace {

// A zero-diagonal leaf needs its neighbour eliminated first, which in a tree
// is only possible if it is the root; otherwise the smallest id is the root.
NodeId choose_root(const Pattern& pattern, const std::vector<NodeId>& component) {
  for (NodeId v : component)
    if (is_zero_diagonal_leaf(pattern, v)) return v;
  return component.front();
}

std::vector<NodeId> collect_component(const Pattern& pattern, NodeId seed, std::vector<char>& seen) {
  std::vector<NodeId> nodes{seed};
  seen[seed] = 1;
  for (size_t head = 0; head < nodes.size(); ++head) {
    const NodeId v = nodes[head];
    for (int k = pattern.adj_begin[v]; k < pattern.adj_begin[v + 1]; ++k)
      if (!seen[pattern.adj[k]]) {
        seen[pattern.adj[k]] = 1;
        nodes.push_back(pattern.adj[k]);
      }
  }
  return nodes;
}

// Eliminated from one end, a path's pivots form one chain in which each waits
// for the update of the one before: with small blocks the time per node is
// that wait (the 3x3 pivot's determinant and division), not arithmetic.
// Eliminated from both ends at once, alternating, it is two independent
// chains that the processor overlaps; the order is as fill-free, the middle
// node is the root. Refactor + solve of chains of 1000 and 10000 nodes, old
// and new order alternately: 4-6% faster with 1x1 blocks, 9-24% with 2x2 and
// 3x3, 1-13% with 4x4. Larger pivots keep the processor busy by themselves:
// 5x5 and 6x6 chains gained 1-8% at 1000 nodes but lost 1-7% at 10000
// (docs/benchmarks-notes.md), so paths of more than kMostRowsPerNode rows per
// node stay one-ended. Nor for a path that ends in a zero-diagonal leaf: that
// leaf must be the root (see choose_root), so the path is eliminated from its
// other end alone. Appends the order and returns true if `component` is a
// path of three nodes or more that qualifies.
constexpr long kMostRowsPerNode = 4;

bool two_ended_path_order(const Pattern& pattern, const std::vector<NodeId>& component, std::vector<NodeId>& order) {
  if (component.size() < 3) return false;
  NodeId ends[2] = {-1, -1};
  int found = 0;
  long rows = 0;
  for (NodeId v : component) {
    rows += pattern.size[v];
    const int degree = pattern.degree(v);
    if (degree > 2) return false;
    if (degree == 1) {
      if (found == 2 || is_zero_diagonal_leaf(pattern, v)) return false;
      ends[found++] = v;
    }
  }
  if (found != 2) return false;  // a cycle
  if (rows > kMostRowsPerNode * static_cast<long>(component.size())) return false;
  // The neighbour of v on the side away from `from` (-1: none).
  const auto onwards = [&](NodeId v, NodeId from) {
    for (int k = pattern.adj_begin[v]; k < pattern.adj_begin[v + 1]; ++k)
      if (pattern.adj[k] != from) return pattern.adj[k];
    return NodeId{-1};
  };
  NodeId at[2] = {ends[0], ends[1]}, from[2] = {-1, -1};
  double work[2] = {0.0, 0.0};
  std::size_t taken[2] = {0, 0};
  for (std::size_t left = component.size(); left > 1; --left) {
    // The lighter half goes on; on a tie (equal blocks, or pivots of no
    // work such as empty nodes) the shorter one, so that both ends start
    // and the root is an inner node.
    const int side = work[0] != work[1] ? (work[0] < work[1] ? 0 : 1) : (taken[0] <= taken[1] ? 0 : 1);
    const NodeId v = at[side], next = onwards(v, from[side]);
    work[side] += detail::ldu_pivot_flops(pattern.size[v], pattern.size[next]);  // next is its later neighbour
    ++taken[side];
    order.push_back(v);
    from[side] = v;
    at[side] = next;
  }
  order.push_back(at[0]);  // the two walks meet at the root
  return true;
}

}  // namespace

std::vector<NodeId> dfs_ordering(const Pattern& pattern) {
  const int n = pattern.num_nodes;
  std::vector<NodeId> order;
  order.reserve(n);
  std::vector<char> in_component(n, 0), discovered(n, 0);
  // Iterative DFS: a stack of (node, next adjacency index).
  std::vector<std::pair<NodeId, int>> stack;
  std::vector<NodeId> discovery;
  for (NodeId seed = 0; seed < n; ++seed) {
    if (in_component[seed]) continue;
    const std::vector<NodeId> component = collect_component(pattern, seed, in_component);
    if (two_ended_path_order(pattern, component, order)) continue;
    const NodeId root = choose_root(pattern, component);
    discovery.clear();
    discovered[root] = 1;
    discovery.push_back(root);
    stack.emplace_back(root, pattern.adj_begin[root]);
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == pattern.adj_begin[v + 1]) {
        stack.pop_back();
        continue;
      }
      const NodeId u = pattern.adj[next++];
      if (discovered[u]) continue;
      discovered[u] = 1;
      discovery.push_back(u);
      stack.emplace_back(u, pattern.adj_begin[u]);
    }
    order.insert(order.end(), discovery.rbegin(), discovery.rend());
  }
  return order;
}

}  // namespace graphsolve
