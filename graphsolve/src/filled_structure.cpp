// The filled pattern of an elimination order, the symbolic Cholesky way
// (Liu; Davis, "Direct Methods for Sparse Linear Systems", ch. 4): first the
// elimination tree, then the pattern of every row of the factor as the
// subtree the row's earlier neighbours reach in that tree. Rows come out in
// order, so scattering them into the columns leaves every column sorted.
// Cost: O(size of the filled pattern), in flat arrays that each pass reads
// mostly in order.
//
// Rows also add up the LDU flops of the pattern found so far, a lower bound
// on the final count that only grows, so an order that already costs more
// than a budget (the best candidate so far) is dropped halfway.
#include "symbolic_data.hpp"

namespace graphsolve::detail {

namespace {

// parent[k]: the first later position that pivot k's elimination touches.
// Liu's algorithm: with path compression on the ancestors found so far.
std::vector<int> elimination_tree(const Pattern& p, const std::vector<NodeId>& order,
                                  const std::vector<int>& position) {
  const int n = p.num_nodes;
  std::vector<int> parent(n, -1), ancestor(n, -1);
  for (int i = 0; i < n; ++i) {
    const NodeId v = order[i];
    for (int a = p.adj_begin[v]; a < p.adj_begin[v + 1]; ++a) {
      int r = position[p.adj[a]];
      if (r >= i) continue;
      while (ancestor[r] != -1 && ancestor[r] != i) {
        const int next = ancestor[r];
        ancestor[r] = i;
        r = next;
      }
      if (ancestor[r] == -1) {
        ancestor[r] = i;
        parent[r] = i;
      }
    }
  }
  return parent;
}

}  // namespace

bool filled_structure(const Pattern& p, const std::vector<NodeId>& order, const std::vector<int>& position,
                      std::vector<int>& begin, std::vector<int>& entries, double flop_budget) {
  const int n = p.num_nodes;
  const std::vector<int> parent = elimination_tree(p, order, position);
  // The pivots' LDU flops with the panel widths found so far.
  double flops = 0;
  std::vector<double> width(n, 0.0);
  for (int k = 0; k < n; ++k) flops += ldu_pivot_flops(p.size[order[k]], 0.0);
  // Row i of the factor: the pivots k < i whose later neighbours include i,
  // found by climbing from each earlier neighbour of i up to i.
  std::vector<int> row_begin(n + 1, 0), row_pivots, mark(n, -1);
  row_pivots.reserve(p.adj.size());
  std::vector<int> count(n, 0);
  for (int i = 0; i < n; ++i) {
    mark[i] = i;
    const NodeId v = order[i];
    const double rows = p.size[v];
    for (int a = p.adj_begin[v]; a < p.adj_begin[v + 1]; ++a) {
      if (position[p.adj[a]] > i) continue;
      for (int k = position[p.adj[a]]; mark[k] != i; k = parent[k]) {
        mark[k] = i;
        row_pivots.push_back(k);
        ++count[k];
        const double b = p.size[order[k]];
        flops += ldu_pivot_flops(b, width[k] + rows) - ldu_pivot_flops(b, width[k]);
        width[k] += rows;
      }
    }
    if (flops > flop_budget) return false;
    row_begin[i + 1] = static_cast<int>(row_pivots.size());
  }
  begin.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) begin[k + 1] = begin[k] + count[k];
  entries.resize(row_pivots.size());
  std::vector<int>& next = count;
  next.assign(begin.begin(), begin.end() - 1);
  for (int i = 0; i < n; ++i)
    for (int e = row_begin[i]; e < row_begin[i + 1]; ++e) entries[next[row_pivots[e]]++] = i;
  return true;
}

}  // namespace graphsolve::detail
