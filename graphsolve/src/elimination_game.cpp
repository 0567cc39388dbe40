// The elimination game decides the final order: nodes go in the proposed
// order, except zero-diagonal nodes (constraints), which wait for a pivot.
// Which fill an order makes is worked out afterwards (filled_structure.cpp):
// nothing here depends on it.
//
// A constraint gets a pivot only from earlier regular pivots, so each
// constraint's rows are matched to rows of eliminated regular neighbours of
// its own (a b-matching, structurally what keeps every leading block
// nonsingular). Rows are taken from untouched neighbours first: two
// constraints sharing one body are a trap (two spherical joints on a body
// have a rank-5 6x6 Jacobian), so a constraint may lean on rows left over by
// another only once all its regular neighbours are eliminated and
// contribute. In a tree eliminated leaves first, every joint simply owns its
// child body. Constraints that never find rows go last, where their pivot is
// the Schur complement of all the rest, nonsingular whenever A is.

#include <algorithm>
#include <deque>

#include "symbolic_data.hpp"

namespace graphsolve::detail {

namespace {

class Game {
 public:
  explicit Game(const Pattern& pattern)
      : p_(pattern),
        eliminated_(pattern.num_nodes, 0),
        deferred_(pattern.num_nodes, 0),
        queued_(pattern.num_nodes, 0),
        used_rows_(pattern.num_nodes, 0) {
    result_.order.reserve(pattern.num_nodes);
  }

  void offer(NodeId v) {
    if (eliminated_[v]) return;
    if (is_constraint(v) && !ready(v)) {
      if (!deferred_[v]) ++result_.deferred;
      deferred_[v] = 1;
      return;
    }
    eliminate(v);
    while (!queue_.empty()) {
      const NodeId u = queue_.front();
      queue_.pop_front();
      queued_[u] = 0;
      // A constraint queued before it may have taken the rows it counted on.
      if (!eliminated_[u] && ready(u)) eliminate(u);
    }
  }

  void flush(const std::vector<NodeId>& proposed) {
    for (NodeId v : proposed)
      if (!eliminated_[v]) eliminate(v);
  }

  Elimination take() { return std::move(result_); }

 private:
  bool is_constraint(NodeId v) const { return p_.kind[v] == NodeKind::ZeroDiagonal && p_.size[v] > 0; }
  bool is_pivot_row_source(NodeId u) const { return eliminated_[u] && !is_constraint(u) && p_.size[u] > 0; }
  long free_rows(NodeId u) const { return p_.size[u] - used_rows_[u]; }

  // Rows v could take: from untouched neighbours, and once v is surrounded by
  // eliminated regular neighbours, also what touched ones have left.
  bool ready(NodeId v) const {
    long fresh = 0, leftover = 0;
    bool surrounded = true;
    for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1]; ++a) {
      const NodeId u = p_.adj[a];
      if (is_pivot_row_source(u)) {
        (used_rows_[u] == 0 ? fresh : leftover) += free_rows(u);
      } else if (!is_constraint(u) && p_.size[u] > 0) {
        surrounded = false;
      }
    }
    return fresh >= p_.size[v] || (surrounded && fresh + leftover >= p_.size[v]);
  }

  void take_rows_for(NodeId v) {
    long need = p_.size[v];
    for (int pass = 0; pass < 2 && need > 0; ++pass)
      for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1] && need > 0; ++a) {
        const NodeId u = p_.adj[a];
        if (!is_pivot_row_source(u) || (pass == 0) != (used_rows_[u] == 0)) continue;
        const long take = std::min(need, free_rows(u));
        used_rows_[u] += static_cast<int>(take);
        need -= take;
      }
  }

  void eliminate(NodeId v) {
    if (is_constraint(v)) take_rows_for(v);
    result_.order.push_back(v);
    eliminated_[v] = 1;
    if (!is_constraint(v))
      for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1]; ++a) {
        const NodeId u = p_.adj[a];
        if (deferred_[u] && !eliminated_[u] && !queued_[u] && ready(u)) {
          queued_[u] = 1;
          queue_.push_back(u);
        }
      }
  }

  const Pattern& p_;
  std::vector<char> eliminated_, deferred_, queued_;
  std::vector<int> used_rows_;             // rows of a regular pivot matched to constraints
  std::deque<NodeId> queue_;               // deferred constraints that became ready
  Elimination result_;
};

}  // namespace

Elimination play_elimination_game(const Pattern& pattern, const std::vector<NodeId>& proposed) {
  Game game(pattern);
  for (NodeId v : proposed) game.offer(v);
  game.flush(proposed);
  return game.take();
}

}  // namespace graphsolve::detail
