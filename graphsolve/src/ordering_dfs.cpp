// The papers' depth-first ordering: per connected component, a depth-first
// search from a root; nodes are listed in reverse discovery order, so every
// node comes before the node it was discovered from and the root comes last.
// On a tree this eliminates leaves first and creates no fill.
#include <utility>

#include "graphsolve/ordering.hpp"

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
