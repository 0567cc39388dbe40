// Pattern: the frozen form of a graph, made from a Graph or straight from an
// edge list, checked against the edges it was given (neighbours, edge
// indices, components) and against each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace gs = graphsolve;

using Edges = std::vector<std::pair<gs::NodeId, gs::NodeId>>;

namespace {

// Connected components by a flood fill over the given edges.
int reference_components(int n, const Edges& edges) {
  std::vector<std::vector<int>> neighbours(n);
  for (const auto& [a, b] : edges) {
    neighbours[a].push_back(b);
    neighbours[b].push_back(a);
  }
  std::vector<char> seen(n, 0);
  int components = 0;
  for (int seed = 0; seed < n; ++seed) {
    if (seen[seed]) continue;
    ++components;
    std::vector<int> stack{seed};
    seen[seed] = 1;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int u : neighbours[v])
        if (!seen[u]) seen[u] = 1, stack.push_back(u);
    }
  }
  return components;
}

// Everything a Pattern promises about the edges `given` (any direction, repeats allowed).
void expect_pattern_of(const gs::Pattern& p, const std::vector<int>& sizes, const Edges& given, const std::string& what) {
  // The first mention of each edge, as (smaller, larger), in the order given.
  Edges expected;
  std::set<std::pair<int, int>> mentioned;
  for (auto [a, b] : given)
    if (mentioned.insert({std::min(a, b), std::max(a, b)}).second) expected.emplace_back(std::min(a, b), std::max(a, b));
  ASSERT_EQ(p.edges, expected) << what;
  ASSERT_EQ(p.num_edges, static_cast<int>(expected.size())) << what;
  ASSERT_EQ(p.num_nodes, static_cast<int>(sizes.size())) << what;
  EXPECT_EQ(p.size, sizes) << what;
  EXPECT_EQ(p.dimension, std::accumulate(sizes.begin(), sizes.end(), 0)) << what;
  for (int v = 0; v < p.num_nodes; ++v) EXPECT_EQ(p.offset[v + 1] - p.offset[v], sizes[v]) << what;
  EXPECT_EQ(p.components, reference_components(p.num_nodes, expected)) << what;
  // Every node's neighbours, sorted, each with the index of its edge.
  for (int v = 0; v < p.num_nodes; ++v) {
    std::vector<int> neighbours;
    for (const auto& [a, b] : expected)
      if (a == v || b == v) neighbours.push_back(a == v ? b : a);
    std::sort(neighbours.begin(), neighbours.end());
    const std::vector<int> listed(p.adj.begin() + p.adj_begin[v], p.adj.begin() + p.adj_begin[v + 1]);
    ASSERT_EQ(listed, neighbours) << what << ", node " << v;
    for (int k = p.adj_begin[v]; k < p.adj_begin[v + 1]; ++k) {
      const auto& [a, b] = p.edges[p.adj_edge[k]];
      EXPECT_TRUE((a == v && b == p.adj[k]) || (b == v && a == p.adj[k])) << what << ", node " << v;
      EXPECT_EQ(p.find_edge(v, p.adj[k]), p.adj_edge[k]) << what;
    }
  }
}

}  // namespace

// Random edge lists with repeats, both directions and size-0 nodes: the
// pattern made from the list is the one a Graph fed the same edges makes,
// and both say what the list says.
TEST(Pattern, AnEdgeListGivesThePatternOfItsGraph) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 40);
    std::vector<int> sizes(n);
    for (int& s : sizes) s = static_cast<int>(rng() % 5);  // 0..4 rows
    std::vector<gs::NodeKind> kinds(n, gs::NodeKind::Regular);
    for (auto& k : kinds)
      if (rng() % 4 == 0) k = gs::NodeKind::ZeroDiagonal;
    Edges given;
    const int count = static_cast<int>(rng() % (3 * n + 1));
    for (int e = 0; e < count && n > 1; ++e) {
      const int a = static_cast<int>(rng() % n);
      int b = static_cast<int>(rng() % (n - 1));
      if (b >= a) ++b;
      given.emplace_back(a, b);
      if (rng() % 3 == 0) given.emplace_back(b, a);  // the same edge the other way
    }
    gs::Graph graph;
    for (int v = 0; v < n; ++v) graph.add_node(sizes[v], kinds[v]);
    for (const auto& [a, b] : given) graph.add_edge(a, b);
    const gs::Pattern from_list(sizes, kinds, given);
    const gs::Pattern from_graph(graph);
    const std::string what = "trial " + std::to_string(trial);
    expect_pattern_of(from_list, sizes, given, what + " (edge list)");
    expect_pattern_of(from_graph, sizes, given, what + " (graph)");
    EXPECT_EQ(from_list.kind, kinds) << what;
    EXPECT_EQ(from_graph.kind, kinds) << what;
    EXPECT_TRUE(from_list.same_as(from_graph)) << what;
  }
  // A long chain whose edges come last to first, and an empty pattern.
  Edges backwards;
  for (int v = 9999; v > 0; --v) backwards.emplace_back(v, v - 1);
  const std::vector<int> ones(10000, 1);
  expect_pattern_of(gs::Pattern(ones, std::vector<gs::NodeKind>(10000), backwards), ones, backwards, "backward chain");
  expect_pattern_of(gs::Pattern({}, {}, {}), {}, {}, "empty");
}

TEST(Pattern, BadEdgeListsAreNamed) {
  const std::vector<gs::NodeKind> two(2, gs::NodeKind::Regular);
  EXPECT_NE(gs_test::message_of([&] { gs::Pattern({1, 2, 3}, two, {}); }).find("3 node sizes but 2 node kinds"),
            std::string::npos);
  EXPECT_NE(gs_test::message_of([&] { gs::Pattern({1, -2}, two, {}); }).find("node 1 has size -2, expected >= 0"),
            std::string::npos);
  const std::string missing = gs_test::message_of([&] { gs::Pattern({1, 2}, two, {{0, 1}, {1, 2}}); });
  EXPECT_NE(missing.find("edge #1 (1, 2) names node 2, which does not exist (the pattern has 2 nodes)"),
            std::string::npos)
      << missing;
  EXPECT_NE(gs_test::message_of([&] { gs::Pattern({1, 2}, two, {{-1, 0}}); }).find("names node -1"), std::string::npos);
  const std::string loop = gs_test::message_of([&] { gs::Pattern({1, 2}, two, {{0, 1}, {1, 0}, {1, 1}}); });
  EXPECT_NE(loop.find("edge #2 (1, 1) joins a node to itself"), std::string::npos) << loop;
}

// The graph's set of edges against std::set: duplicates in either orientation
// are dropped, the first of each kept in insertion order, and has_edge answers
// for present and absent pairs, through several growths of its table, after a
// reserve and in a copy.
TEST(Graph, EdgesMatchASetThroughGrowthReserveAndCopies) {
  std::mt19937 rng(7);
  for (const int n : {2, 3, 40, 3000}) {
    for (const bool reserved : {false, true}) {
      SCOPED_TRACE(std::to_string(n) + " nodes" + (reserved ? ", reserved" : ""));
      gs::Graph g;
      const int additions = std::min(4 * n, n * (n - 1));
      if (reserved) g.reserve(n, additions);
      for (int i = 0; i < n; ++i) g.add_node(1 + i % 3);
      std::set<std::pair<int, int>> reference;
      Edges first_seen;
      std::uniform_int_distribution<int> node(0, n - 1);
      for (int t = 0; t < additions; ++t) {
        if (reserved && t == additions / 2) g.reserve(n, 2 * additions);  // more room half-way: nothing lost
        int a = node(rng), b = node(rng);
        if (a == b) continue;
        if (t % 5 == 0 && !first_seen.empty())  // an edge again, reversed
          std::tie(b, a) = first_seen[rng() % first_seen.size()];
        g.add_edge(a, b);
        const std::pair<int, int> edge(std::min(a, b), std::max(a, b));
        if (reference.insert(edge).second) first_seen.push_back(edge);
      }
      ASSERT_EQ(g.num_edges(), static_cast<int>(reference.size()));
      EXPECT_EQ(g.edges(), first_seen);
      const gs::Graph copy = g;
      for (int t = 0; t < 2000; ++t) {
        const int a = node(rng), b = node(rng);
        const bool present = reference.count({std::min(a, b), std::max(a, b)}) != 0;
        ASSERT_EQ(g.has_edge(a, b), present) << a << " " << b;
        ASSERT_EQ(copy.has_edge(b, a), present) << a << " " << b;
      }
      for (const auto& [a, b] : first_seen) ASSERT_TRUE(copy.has_edge(a, b));
    }
  }
  gs::Graph empty;
  empty.add_node(1);
  empty.add_node(1);
  EXPECT_FALSE(empty.has_edge(0, 1));
  empty.reserve(0, 0);
  empty.add_edge(1, 0);
  EXPECT_TRUE(empty.has_edge(0, 1));
}
