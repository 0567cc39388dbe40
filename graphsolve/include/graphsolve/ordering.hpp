#pragma once
// Elimination orderings of the nodes of a pattern. An ordering is a
// permutation order[position] = node; the fill it causes is whatever the
// elimination game yields for it (see symbolic.hpp).

#include <optional>
#include <string>
#include <vector>

#include "graphsolve/pattern.hpp"

namespace graphsolve {

enum class Ordering {
  Auto,   // the candidate (dfs, amd, nd; nd with other seeds where it leads) with the fewest predicted flops
          // (docs/design.md: when one is skipped, when seeds are tried)
  DFS,    // depth-first, leaves to root (the papers' ordering)
  AMD,    // approximate minimum degree (SuiteSparse CAMD on the node graph)
  ND,     // nested dissection (METIS on the node graph, its default seed)
  Given,  // the caller's own permutation (AnalyzeOptions::order)
};

const char* to_string(Ordering ordering);
std::optional<Ordering> parse_ordering(const std::string& name);

// Proposed orderings before the zero-diagonal fix-up of the symbolic phase.
std::vector<NodeId> dfs_ordering(const Pattern& pattern);
std::vector<NodeId> amd_ordering(const Pattern& pattern);
// METIS's random seed: negative takes its default; other seeds give other
// separators, of flops that can differ by 1.5x on one mesh.
std::vector<NodeId> nd_ordering(const Pattern& pattern, int seed = -1);

// Zero-diagonal nodes with exactly one neighbour: they must be eliminated
// after that neighbour, so an ordering should put them late.
bool is_zero_diagonal_leaf(const Pattern& pattern, NodeId node);

}  // namespace graphsolve
