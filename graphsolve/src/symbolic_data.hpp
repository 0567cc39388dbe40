#pragma once
// Internal layout of a symbolic analysis, read by the numeric phase.
// Everything is indexed by elimination position k (order[k] is the node).

#include <limits>
#include <memory>
#include <vector>

#include "graphsolve/symbolic.hpp"

namespace graphsolve::detail {

struct SymbolicData {
  std::shared_ptr<const Pattern> pattern;
  AnalysisStats stats;
  std::vector<NodeId> order;     // position -> node
  std::vector<int> position;     // node -> position
  std::vector<int> parent;       // position -> position of the parent, -1 for roots
  std::vector<int> size;         // position -> block size
  // Later neighbours of pivot k in the filled graph: entries
  // struct_begin[k] .. struct_begin[k+1]-1, sorted by position.
  std::vector<int> struct_begin;
  std::vector<int> struct_pos;   // position of the neighbour
  std::vector<int> struct_col;   // first column of its block in pivot k's panel
  std::vector<int> width;        // position -> panel width (sum of neighbour sizes)
  std::vector<int> edge_entry;   // pattern edge -> struct entry of its earlier endpoint
  int max_size = 0;
  long max_panel = 0;            // max over k of size * width
};

// Result of playing the elimination game on a proposed order.
struct Elimination {
  std::vector<NodeId> order;  // final order (zero-diagonal nodes possibly deferred)
  int deferred = 0;
};

// Eliminates nodes in the proposed order, except that a zero-diagonal node
// whose pivot no earlier elimination has touched yet is postponed until one
// has; it then becomes the next pivot. Cost: O(edges).
Elimination play_elimination_game(const Pattern& pattern, const std::vector<NodeId>& proposed);

// The filled pattern of an order (filled_structure.cpp): the later positions
// of pivot k in the factor, entries[begin[k] .. begin[k + 1] - 1], sorted.
// Returns false (begin and entries then unspecified) as soon as the pattern
// is known to cost more than flop_budget LDU flops.
bool filled_structure(const Pattern& pattern, const std::vector<NodeId>& order, const std::vector<int>& position,
                      std::vector<int>& begin, std::vector<int>& entries,
                      double flop_budget = std::numeric_limits<double>::infinity());

// Relaxed supernodes (supernode_relaxation.cpp): widens S(k), the sorted
// later positions entries[begin[k] .. begin[k + 1] - 1] of each pivot, to
// {k+1} u S(k+1) where that adds few explicit zeros to a wide front.
// Returns the number of blocks added.
long relax_supernodes(std::vector<int>& begin, std::vector<int>& entries, const std::vector<int>& size);

// Builds the full layout (positions, tree, panels, statistics) for an order;
// null if its LDU flops exceed flop_budget (relaxed zeros only add to them).
std::shared_ptr<SymbolicData> build_symbolic(std::shared_ptr<const Pattern> pattern, const Elimination& elimination,
                                             Ordering ordering,
                                             double flop_budget = std::numeric_limits<double>::infinity());

double predicted_flops(const SymbolicData& data, Method method);

// LDU flops of one pivot of b rows whose panel is w columns wide: its inverse,
// its two panels and its update of the later nodes.
inline double ldu_pivot_flops(double b, double w) { return 2.0 / 3.0 * b * b * b + 2 * b * b * w + 2 * b * w * w; }

}  // namespace graphsolve::detail
