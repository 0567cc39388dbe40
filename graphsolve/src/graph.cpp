#include "graphsolve/graph.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

#include "graphsolve/out_of_memory.hpp"
#include "make_room.hpp"

namespace graphsolve {

NodeId Graph::add_node(int size, NodeKind kind) {
  if (size < 0)
    throw std::invalid_argument("graphsolve::Graph::add_node: block size " + std::to_string(size) +
                                " is negative");
  if (num_nodes() == std::numeric_limits<NodeId>::max())
    throw std::length_error("graphsolve::Graph::add_node: the graph already has " + std::to_string(num_nodes()) +
                            " nodes, the most a NodeId numbers");
  // Both arrays get their room before either grows, so that a node whose
  // kind found no room is not counted by num_nodes() without one.
  try {
    detail::make_room(sizes_);
    detail::make_room(kinds_);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("graphsolve::Graph::add_node: out of memory for node " + std::to_string(num_nodes()) +
                      " (the graph is as it was)");
  }
  sizes_.push_back(size);
  kinds_.push_back(kind);
  return num_nodes() - 1;
}

void Graph::check_node(NodeId node, const char* where) const {
  if (node < 0 || node >= num_nodes())
    throw std::invalid_argument(std::string("graphsolve::Graph::") + where + ": node " +
                                std::to_string(node) + " does not exist (the graph has " +
                                std::to_string(num_nodes()) + " nodes)");
}

std::uint64_t Graph::key(NodeId a, NodeId b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

void Graph::reserve(int nodes, int edges) {
  if (nodes < 0 || edges < 0)
    throw std::invalid_argument("graphsolve::Graph::reserve: " + std::to_string(nodes) + " nodes and " +
                                std::to_string(edges) + " edges: counts must not be negative");
  try {
    sizes_.reserve(nodes);
    kinds_.reserve(nodes);
    edges_.reserve(edges);
    edge_keys_.reserve(edges);
  } catch (const std::bad_alloc&) {  // the graph is as it was
    throw OutOfMemory("graphsolve::Graph::reserve: out of memory for " + std::to_string(nodes) + " nodes and " +
                      std::to_string(edges) + " edges");
  }
}

void Graph::add_edge(NodeId a, NodeId b) {
  check_node(a, "add_edge");
  check_node(b, "add_edge");
  if (a == b)
    throw std::invalid_argument("graphsolve::Graph::add_edge: edge from node " + std::to_string(a) +
                                " to itself; the diagonal block is always present");
  const auto out_of_memory = [&] {
    return OutOfMemory("graphsolve::Graph::add_edge: out of memory for edge {" + std::to_string(a) + ", " +
                       std::to_string(b) + "} after " + std::to_string(num_edges()) + " edges (the graph is as it was)");
  };
  if (num_edges() == std::numeric_limits<int>::max() && !edge_keys_.count(key(a, b)))
    throw std::length_error("graphsolve::Graph::add_edge: the graph already has " + std::to_string(num_edges()) +
                            " edges, the most num_edges() counts");
  std::unordered_set<std::uint64_t>::iterator inserted;
  try {
    const auto result = edge_keys_.insert(key(a, b));  // unchanged if this throws
    if (!result.second) return;
    inserted = result.first;
  } catch (const std::bad_alloc&) {
    throw out_of_memory();
  }
  // The key and the edge go in together: a key without its edge would make
  // has_edge() true and a second add_edge() a no-op for an edge the
  // analysis never sees.
  try {
    edges_.emplace_back(std::min(a, b), std::max(a, b));
  } catch (const std::bad_alloc&) {
    edge_keys_.erase(inserted);
    throw out_of_memory();
  }
}

void Graph::set_kind(NodeId node, NodeKind kind) {
  check_node(node, "set_kind");
  kinds_[node] = kind;
}

int Graph::node_size(NodeId node) const {
  check_node(node, "node_size");
  return sizes_[node];
}

NodeKind Graph::kind(NodeId node) const {
  check_node(node, "kind");
  return kinds_[node];
}

bool Graph::has_edge(NodeId a, NodeId b) const {
  check_node(a, "has_edge");
  check_node(b, "has_edge");
  return edge_keys_.count(key(a, b)) != 0;
}

}  // namespace graphsolve
