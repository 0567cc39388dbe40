#pragma once
// Graph: the block sparsity pattern of a square system, built node by node.
// A node is a square diagonal block of `size` rows (size 0 allowed); an edge
// {a, b} says the two off-diagonal blocks A_ab and A_ba may be nonzero.
// Errors in the description throw std::invalid_argument naming the culprit.

#include <cstdint>
#include <unordered_set>
#include <utility>
#include <vector>

namespace graphsolve {

using NodeId = int;

enum class NodeKind {
  Regular,       // diagonal block expected to be nonzero
  ZeroDiagonal,  // structurally zero diagonal (constraint node of a saddle-point system)
};

class Graph {
 public:
  // Adds a node with a diagonal block of size x size; returns its id (0, 1, ...).
  NodeId add_node(int size, NodeKind kind = NodeKind::Regular);
  // Adds the undirected edge {a, b}; adding an existing edge again is a no-op.
  void add_edge(NodeId a, NodeId b);
  void set_kind(NodeId node, NodeKind kind);
  // Makes room for this many nodes and edges in all, so that building a
  // graph of known size does not reallocate on the way. Optional.
  void reserve(int nodes, int edges);

  int num_nodes() const { return static_cast<int>(sizes_.size()); }
  int num_edges() const { return static_cast<int>(edges_.size()); }
  int node_size(NodeId node) const;
  NodeKind kind(NodeId node) const;
  bool has_edge(NodeId a, NodeId b) const;
  // Edges in insertion order, each stored as (smaller id, larger id).
  const std::vector<std::pair<NodeId, NodeId>>& edges() const { return edges_; }
  const std::vector<int>& sizes() const { return sizes_; }
  const std::vector<NodeKind>& kinds() const { return kinds_; }

 private:
  void check_node(NodeId node, const char* where) const;
  static std::uint64_t key(NodeId a, NodeId b);

  std::vector<int> sizes_;
  std::vector<NodeKind> kinds_;
  std::vector<std::pair<NodeId, NodeId>> edges_;
  std::unordered_set<std::uint64_t> edge_keys_;
};

}  // namespace graphsolve
