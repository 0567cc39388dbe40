// The elimination game on the quotient graph: each eliminated node becomes an
// "element" holding its later neighbours; eliminating a node absorbs the
// elements adjacent to it, so its later neighbours are its uneliminated
// neighbours plus those of the absorbed elements. Every element is absorbed
// once, which makes the cost proportional to the size of the filled pattern.
//
// Zero-diagonal nodes (constraints) get a pivot only from earlier regular
// pivots, and several constraints leaning on the same regular node can make
// the leading block singular (two spherical joints on one body leave a
// rank-5 6x6 Jacobian). So each constraint is matched to eliminated regular
// neighbours of its own, as in a tree where every joint owns its child body;
// it waits until such neighbours with enough rows are free. A constraint
// that cannot be matched (a ladder has more joints than bodies) may still go
// once all its regular neighbours are eliminated, if the eliminated part it
// touches has rows to spare: every element counts its regular rows minus its
// constraint rows. Constraints that never qualify go last, where their pivot
// is the Schur complement of all the rest, nonsingular whenever A is.
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
        owned_(pattern.num_nodes, 0),
        mark_(pattern.num_nodes, -1),
        elements_of_(pattern.num_nodes) {}

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
  bool is_free_pivot(NodeId u) const { return eliminated_[u] && !owned_[u] && !is_constraint(u) && p_.size[u] > 0; }

  bool ready(NodeId v) const {
    long rows = 0;
    bool surrounded = true;  // every regular neighbour already eliminated
    for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1]; ++a) {
      const NodeId u = p_.adj[a];
      if (is_free_pivot(u)) rows += p_.size[u];
      if (!eliminated_[u] && !is_constraint(u) && p_.size[u] > 0) surrounded = false;
    }
    if (rows >= p_.size[v]) return true;
    if (!surrounded) return false;
    long spare = 0;
    for (int element : elements_of_[v])
      if (!absorbed_[element]) spare += capacity_[element];
    return spare >= p_.size[v];
  }

  void take_rows_for(NodeId v) {
    long rows = 0;
    for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1] && rows < p_.size[v]; ++a) {
      const NodeId u = p_.adj[a];
      if (!is_free_pivot(u)) continue;
      owned_[u] = 1;
      rows += p_.size[u];
    }
  }

  void eliminate(NodeId v) {
    const int k = static_cast<int>(result_.order.size());
    if (is_constraint(v)) take_rows_for(v);
    result_.order.push_back(v);
    eliminated_[v] = 1;
    std::vector<NodeId> later;
    mark_[v] = k;
    long capacity = is_constraint(v) ? -p_.size[v] : p_.size[v];
    for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1]; ++a) add(p_.adj[a], k, later);
    for (int element : elements_of_[v]) {
      if (absorbed_[element]) continue;
      absorbed_[element] = 1;
      capacity += capacity_[element];
      for (NodeId u : result_.later[element]) add(u, k, later);
    }
    absorbed_.push_back(0);
    capacity_.push_back(capacity);
    for (NodeId u : later) elements_of_[u].push_back(k);
    if (!is_constraint(v))
      for (int a = p_.adj_begin[v]; a < p_.adj_begin[v + 1]; ++a) {
        const NodeId u = p_.adj[a];
        if (deferred_[u] && !eliminated_[u] && !queued_[u] && ready(u)) {
          queued_[u] = 1;
          queue_.push_back(u);
        }
      }
    result_.later.push_back(std::move(later));
  }

  void add(NodeId u, int k, std::vector<NodeId>& later) {
    if (eliminated_[u] || mark_[u] == k) return;
    mark_[u] = k;
    later.push_back(u);
  }

  const Pattern& p_;
  std::vector<char> eliminated_, deferred_, queued_;
  std::vector<char> owned_;                // regular pivot already matched to a constraint
  std::vector<int> mark_;
  std::vector<std::vector<int>> elements_of_;
  std::vector<char> absorbed_;             // per element
  std::vector<long> capacity_;             // per element: regular rows minus constraint rows
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
