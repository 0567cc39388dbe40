#pragma once
// Symbolic analysis: components, elimination ordering, elimination tree and
// the filled block pattern of L and U. Immutable once built and cheap to copy
// (a shared handle), so several numeric factorizations, also on several
// threads, can share it.

#include <memory>
#include <vector>

#include "graphsolve/graph.hpp"
#include "graphsolve/method.hpp"
#include "graphsolve/ordering.hpp"
#include "graphsolve/out_of_memory.hpp"
#include "graphsolve/pattern.hpp"

namespace graphsolve {

struct AnalyzeOptions {
  Ordering ordering = Ordering::Auto;
  std::vector<NodeId> order;  // only for Ordering::Given: order[position] = node (non-empty
                              // with another ordering: analyze throws rather than ignore it)
};

struct AnalysisStats {
  int nodes = 0;
  int edges = 0;
  int components = 0;
  int cycle_rank = 0;         // edges - nodes + components: independent cycles
  int dimension = 0;          // scalar rows
  Ordering ordering = Ordering::DFS;  // the ordering actually used
  long fill_blocks = 0;       // block pairs {i, j} of the factor that are not edges
  long relaxed_blocks = 0;    // explicit zero block pairs stored to form supernodal panels
  long factor_blocks = 0;     // off-diagonal block pairs of the factor (edges + fill + relaxed)
  long factor_nonzeros = 0;   // scalar entries of L, D and U (LDU storage, relaxed zeros included)
  double flops = 0;           // predicted LDU factorization flops
  double solve_flops = 0;     // predicted flops of one solve with one right-hand side
  int max_front = 0;          // largest number of later neighbours of an eliminated node
  int tree_height = 0;        // height of the elimination forest
  int deferred_nodes = 0;     // zero-diagonal nodes moved later than the ordering proposed
};

namespace detail {
struct SymbolicData;
}

class Symbolic {
 public:
  // Copies share the one analysis. Moves copy too (declaring these leaves
  // no implicit move), so that a moved-from Symbolic still holds it.
  Symbolic(const Symbolic&) = default;
  Symbolic& operator=(const Symbolic&) = default;

  const AnalysisStats& stats() const;
  const Pattern& pattern() const;
  const std::shared_ptr<const Pattern>& pattern_ptr() const;
  // order()[position] = node, and position(node) its inverse.
  const std::vector<NodeId>& order() const;
  int position(NodeId node) const;
  // Parent of a node in the elimination forest, -1 for a root.
  NodeId parent(NodeId node) const;
  // Nodes that the elimination of `node` couples (its later neighbours in the
  // filled graph, plus any relaxed blocks stored as zeros), in elimination order.
  std::vector<NodeId> later_neighbours(NodeId node) const;
  double flops(Method method) const;

  const detail::SymbolicData& data() const { return *data_; }

 private:
  friend Symbolic analyze_with_pattern(std::shared_ptr<const Pattern>, const AnalyzeOptions&);
  Symbolic() = default;  // only analyze() makes one
  std::shared_ptr<const detail::SymbolicData> data_;
};

// Analyses the pattern of `graph`. Throws std::invalid_argument for a bad
// Given order (wrong length, repeated or unknown node).
Symbolic analyze(const Graph& graph, const AnalyzeOptions& options = {});
// Same on an existing pattern, so that matrices built on it can be reused.
Symbolic analyze_with_pattern(std::shared_ptr<const Pattern> pattern, const AnalyzeOptions& options = {});

}  // namespace graphsolve
