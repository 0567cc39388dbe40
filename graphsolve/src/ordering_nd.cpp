// Nested dissection on the node graph through METIS_NodeND, weighted by block
// size so that separators prefer small blocks.
#include <numeric>
#include <stdexcept>
#include <string>

#include <metis.h>

#include "graphsolve/ordering.hpp"

namespace graphsolve {

std::vector<NodeId> nd_ordering(const Pattern& pattern, int seed) {
  const int n = pattern.num_nodes;
  std::vector<NodeId> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (n < 2 || pattern.num_edges == 0) return order;
  std::vector<idx_t> xadj(pattern.adj_begin.begin(), pattern.adj_begin.end());
  std::vector<idx_t> adjncy(pattern.adj.begin(), pattern.adj.end());
  std::vector<idx_t> weight(n);
  for (int v = 0; v < n; ++v) weight[v] = std::max(1, pattern.size[v]);
  std::vector<idx_t> perm(n), iperm(n);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  if (seed >= 0) options[METIS_OPTION_SEED] = seed;
  idx_t nv = n;
  const int result = METIS_NodeND(&nv, xadj.data(), adjncy.data(), weight.data(), options, perm.data(), iperm.data());
  if (result != METIS_OK)
    throw std::runtime_error("graphsolve: METIS_NodeND failed with code " + std::to_string(result));
  // METIS: row i of the permuted matrix is row perm[i] of the original.
  for (int i = 0; i < n; ++i) order[i] = static_cast<NodeId>(perm[i]);
  return order;
}

}  // namespace graphsolve
