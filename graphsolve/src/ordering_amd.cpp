// Approximate minimum degree on the node graph, through SuiteSparse CAMD (AMD
// with constraint sets). Zero-diagonal leaves go into the last constraint set:
// they can only be pivots after their single neighbour, and ordering them last
// keeps trees free of fill.
#include <stdexcept>
#include <string>

#include <camd.h>

#include "graphsolve/ordering.hpp"

namespace graphsolve {

std::vector<NodeId> amd_ordering(const Pattern& pattern) {
  const int n = pattern.num_nodes;
  std::vector<NodeId> order(n);
  if (n == 0) return order;
  std::vector<int> constraint(n, 0);
  bool constrained = false;
  for (NodeId v = 0; v < n; ++v)
    if (is_zero_diagonal_leaf(pattern, v)) {
      constraint[v] = 1;
      constrained = true;
    }
  double control[CAMD_CONTROL];
  camd_defaults(control);
  // Dense-row removal would order hubs last and can create fill on trees.
  control[CAMD_DENSE] = -1;
  double info[CAMD_INFO];
  const int* ai = pattern.adj.empty() ? constraint.data() : pattern.adj.data();  // never read when empty
  const int result = camd_order(n, pattern.adj_begin.data(), ai, order.data(), control, info,
                                constrained ? constraint.data() : nullptr);
  if (result != CAMD_OK && result != CAMD_OK_BUT_JUMBLED)
    throw std::runtime_error("graphsolve: CAMD ordering failed with code " + std::to_string(result));
  return order;
}

}  // namespace graphsolve
