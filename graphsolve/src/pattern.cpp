#include "graphsolve/pattern.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace graphsolve {

namespace {

int count_components(int num_nodes, const std::vector<std::pair<NodeId, NodeId>>& edges) {
  std::vector<int> root(num_nodes);
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](int x) {
    while (root[x] != x) x = root[x] = root[root[x]];
    return x;
  };
  int components = num_nodes;
  for (const auto& [a, b] : edges) {
    const int ra = find(a), rb = find(b);
    if (ra != rb) {
      root[ra] = rb;
      --components;
    }
  }
  return components;
}

}  // namespace

Pattern::Pattern(const Graph& graph)
    : num_nodes(graph.num_nodes()),
      num_edges(graph.num_edges()),
      size(graph.sizes()),
      kind(graph.kinds()),
      edges(graph.edges()) {
  offset.assign(num_nodes + 1, 0);
  long total = 0;
  for (int i = 0; i < num_nodes; ++i) {
    offset[i] = static_cast<int>(total);
    total += size[i];
    if (total > std::numeric_limits<int>::max())
      throw std::invalid_argument("graphsolve: the system has more than 2^31-1 rows");
  }
  dimension = static_cast<int>(total);
  offset[num_nodes] = dimension;

  adj_begin.assign(num_nodes + 1, 0);
  for (const auto& [a, b] : edges) {
    ++adj_begin[a + 1];
    ++adj_begin[b + 1];
  }
  std::partial_sum(adj_begin.begin(), adj_begin.end(), adj_begin.begin());
  adj.resize(2 * static_cast<size_t>(num_edges));
  adj_edge.resize(adj.size());
  std::vector<int> next(adj_begin.begin(), adj_begin.end() - 1);
  // Sorting edges by (a, b) first makes every adjacency list come out sorted.
  std::vector<int> by_pair(num_edges);
  std::iota(by_pair.begin(), by_pair.end(), 0);
  std::sort(by_pair.begin(), by_pair.end(), [&](int x, int y) { return edges[x] < edges[y]; });
  for (int pass = 0; pass < 2; ++pass) {
    for (int e : by_pair) {
      auto [a, b] = edges[e];
      if (pass == 0) {  // lists of larger endpoints receive their smaller neighbours first
        adj[next[b]] = a;
        adj_edge[next[b]++] = e;
      } else {
        adj[next[a]] = b;
        adj_edge[next[a]++] = e;
      }
    }
  }
  components = count_components(num_nodes, edges);
}

int Pattern::find_edge(NodeId a, NodeId b) const {
  auto first = adj.begin() + adj_begin[a];
  auto last = adj.begin() + adj_begin[a + 1];
  auto it = std::lower_bound(first, last, b);
  if (it == last || *it != b) return -1;
  return adj_edge[it - adj.begin()];
}

bool Pattern::same_as(const Pattern& other) const {
  return this == &other || (size == other.size && edges == other.edges);
}

}  // namespace graphsolve
