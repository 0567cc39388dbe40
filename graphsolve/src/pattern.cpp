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

// Edge indices in the order of their (smaller, larger) ends: a stable
// counting sort by the larger end, then one by the smaller. O(nodes + edges),
// where a comparison sort took most of the pattern's time on long chains.
std::vector<int> edges_by_pair(int num_nodes, const std::vector<std::pair<NodeId, NodeId>>& edges) {
  std::vector<int> order(edges.size()), sorted(edges.size()), start(num_nodes + 1);
  std::iota(order.begin(), order.end(), 0);
  for (const bool by_smaller : {false, true}) {
    std::fill(start.begin(), start.end(), 0);
    const auto end_of = [&](int e) { return by_smaller ? edges[e].first : edges[e].second; };
    for (int e : order) ++start[end_of(e) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (int e : order) sorted[start[end_of(e)]++] = e;
    order.swap(sorted);
  }
  return order;
}

[[noreturn]] void refuse_edge(std::size_t e, const std::pair<NodeId, NodeId>& edge, const std::string& why) {
  throw std::invalid_argument("graphsolve::Pattern: edge #" + std::to_string(e) + " (" + std::to_string(edge.first) +
                              ", " + std::to_string(edge.second) + ") " + why);
}

}  // namespace

Pattern::Pattern(const Graph& graph) : Pattern(graph.sizes(), graph.kinds(), graph.edges()) {}

Pattern::Pattern(std::vector<int> sizes, std::vector<NodeKind> kinds, std::vector<std::pair<NodeId, NodeId>> edge_list)
    : num_nodes(static_cast<int>(sizes.size())), size(std::move(sizes)), kind(std::move(kinds)), edges(std::move(edge_list)) {
  if (kind.size() != size.size())
    throw std::invalid_argument("graphsolve::Pattern: " + std::to_string(size.size()) + " node sizes but " +
                                std::to_string(kind.size()) + " node kinds");
  offset.assign(num_nodes + 1, 0);
  long total = 0;
  for (int i = 0; i < num_nodes; ++i) {
    if (size[i] < 0)
      throw std::invalid_argument("graphsolve::Pattern: node " + std::to_string(i) + " has size " +
                                  std::to_string(size[i]) + ", expected >= 0");
    offset[i] = static_cast<int>(total);
    total += size[i];
    if (total > std::numeric_limits<int>::max())
      throw std::invalid_argument("graphsolve: the system has more than 2^31-1 rows");
  }
  dimension = static_cast<int>(total);
  offset[num_nodes] = dimension;

  for (std::size_t e = 0; e < edges.size(); ++e) {
    auto& [a, b] = edges[e];
    for (NodeId end : {a, b})
      if (end < 0 || end >= num_nodes)
        refuse_edge(e, edges[e], "names node " + std::to_string(end) + ", which does not exist (the pattern has " +
                                     std::to_string(num_nodes) + " nodes)");
    if (a == b) refuse_edge(e, edges[e], "joins a node to itself; the diagonal block is always present");
    if (a > b) std::swap(a, b);
  }
  // Sorting edges by (a, b) makes repeats neighbours, the first mention first
  // (the sorts are stable), and every adjacency list below come out sorted.
  std::vector<int> by_pair = edges_by_pair(num_nodes, edges);
  std::vector<char> first_mention(edges.size(), 0);
  for (std::size_t k = 0; k < by_pair.size(); ++k)
    first_mention[by_pair[k]] = k == 0 || edges[by_pair[k]] != edges[by_pair[k - 1]];
  std::vector<int> kept_as(edges.size(), -1);  // an edge's index once repeats are dropped
  int kept = 0;
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (first_mention[e]) {
      kept_as[e] = kept;
      edges[kept++] = edges[e];
    }
  if (kept < static_cast<int>(edges.size())) {
    edges.resize(kept);
    by_pair.erase(std::remove_if(by_pair.begin(), by_pair.end(), [&](int e) { return kept_as[e] < 0; }), by_pair.end());
    for (int& e : by_pair) e = kept_as[e];
  }
  num_edges = kept;

  adj_begin.assign(num_nodes + 1, 0);
  for (const auto& [a, b] : edges) {
    ++adj_begin[a + 1];
    ++adj_begin[b + 1];
  }
  std::partial_sum(adj_begin.begin(), adj_begin.end(), adj_begin.begin());
  adj.resize(2 * static_cast<size_t>(num_edges));
  adj_edge.resize(adj.size());
  std::vector<int> next(adj_begin.begin(), adj_begin.end() - 1);
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
