#pragma once
// Pattern: an immutable, compressed copy of a Graph (CSR adjacency with sorted
// neighbours, scalar row offsets). Shared by the symbolic analysis and every
// BlockMatrix built on it.

#include <utility>
#include <vector>

#include "graphsolve/graph.hpp"

namespace graphsolve {

struct Pattern {
  explicit Pattern(const Graph& graph);
  // The pattern of the graph with these nodes (node i: sizes[i] rows, kinds[i])
  // and edges, without building the Graph: for callers who hold an edge list.
  // As with Graph::add_edge, an edge may come as (a, b) or (b, a), and more
  // than once: its first mention counts, and `edges` keeps the order of first
  // mentions. Throws std::invalid_argument naming the culprit: sizes and
  // kinds of different lengths, a negative size, an edge to a node that does
  // not exist or from a node to itself. O(nodes + edges).
  Pattern(std::vector<int> sizes, std::vector<NodeKind> kinds, std::vector<std::pair<NodeId, NodeId>> edges);

  int num_nodes = 0;
  int num_edges = 0;
  int dimension = 0;              // sum of the node sizes
  std::vector<int> size;          // per node
  std::vector<int> offset;        // first scalar row of each node; offset[num_nodes] == dimension
  std::vector<NodeKind> kind;     // per node
  std::vector<int> adj_begin;     // CSR row pointers, num_nodes + 1
  std::vector<NodeId> adj;        // neighbours, sorted per node
  std::vector<int> adj_edge;      // edge index of each adjacency entry
  std::vector<std::pair<NodeId, NodeId>> edges;  // (smaller, larger)
  int components = 0;             // connected components, isolated nodes included

  int degree(NodeId node) const { return adj_begin[static_cast<std::size_t>(node) + 1] - adj_begin[static_cast<std::size_t>(node)]; }
  // Index of edge {a, b} or -1 (binary search in the adjacency of a).
  int find_edge(NodeId a, NodeId b) const;
  bool same_as(const Pattern& other) const;
};

}  // namespace graphsolve
