// Turns the result of the elimination game into the layout the numeric phase
// uses: positions, elimination tree, sorted panels and statistics.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "symbolic_data.hpp"

namespace graphsolve::detail {

namespace {

int forest_height(const std::vector<int>& parent) {
  // Parents come after children, so one backward sweep gives every depth.
  std::vector<int> depth(parent.size(), 1);
  int height = 0;
  for (int k = static_cast<int>(parent.size()) - 1; k >= 0; --k) {
    if (parent[k] >= 0) depth[k] = depth[parent[k]] + 1;
    height = std::max(height, depth[k]);
  }
  return height;
}

}  // namespace

std::shared_ptr<SymbolicData> build_symbolic(std::shared_ptr<const Pattern> pattern, const Elimination& elimination,
                                             Ordering ordering, double flop_budget) {
  auto data = std::make_shared<SymbolicData>();
  SymbolicData& d = *data;
  const Pattern& p = *pattern;
  const int n = p.num_nodes;
  d.pattern = std::move(pattern);
  d.order = elimination.order;
  d.position.assign(n, -1);
  for (int k = 0; k < n; ++k) d.position[d.order[k]] = k;
  d.size.resize(n);
  d.parent.assign(n, -1);
  d.width.assign(n, 0);
  for (int k = 0; k < n; ++k) d.size[k] = p.size[d.order[k]];
  if (!filled_structure(p, d.order, d.position, d.struct_begin, d.struct_pos, flop_budget)) return nullptr;
  const int cycle_rank = p.num_edges - n + p.components;
  // Forests keep their zero fill-in: no explicit zeros there.
  const long relaxed = cycle_rank == 0 ? 0 : relax_supernodes(d.struct_begin, d.struct_pos, d.size);
  d.struct_col.resize(d.struct_begin[n]);
  long nonzeros = 0;
  for (int k = 0; k < n; ++k) {
    const int b = d.size[k];
    int column = 0;
    for (int e = d.struct_begin[k]; e < d.struct_begin[k + 1]; ++e) {
      d.struct_col[e] = column;
      column += d.size[d.struct_pos[e]];
    }
    d.width[k] = column;
    if (d.struct_begin[k + 1] > d.struct_begin[k]) d.parent[k] = d.struct_pos[d.struct_begin[k]];
    d.max_size = std::max(d.max_size, b);
    d.max_panel = std::max(d.max_panel, static_cast<long>(b) * column);
    nonzeros += static_cast<long>(b) * b + 2L * b * column;
  }
  d.edge_entry.resize(p.num_edges);
  for (int e = 0; e < p.num_edges; ++e) {
    int ka = d.position[p.edges[e].first], kb = d.position[p.edges[e].second];
    if (ka > kb) std::swap(ka, kb);
    const int* first = d.struct_pos.data() + d.struct_begin[ka];
    const int* last = d.struct_pos.data() + d.struct_begin[ka + 1];
    const int* it = std::lower_bound(first, last, kb);
    if (it == last || *it != kb) throw std::logic_error("graphsolve: an edge is missing from the filled pattern");
    d.edge_entry[e] = static_cast<int>(it - d.struct_pos.data());
  }

  AnalysisStats& s = d.stats;
  s.nodes = n;
  s.edges = p.num_edges;
  s.components = p.components;
  s.cycle_rank = cycle_rank;
  s.dimension = p.dimension;
  s.ordering = ordering;
  s.factor_blocks = d.struct_begin[n];
  s.relaxed_blocks = relaxed;
  s.fill_blocks = s.factor_blocks - p.num_edges - relaxed;
  s.factor_nonzeros = nonzeros;
  s.flops = predicted_flops(d, Method::LDU);
  for (int k = 0; k < n; ++k) {
    s.solve_flops += 2.0 * d.size[k] * d.size[k] + 4.0 * d.size[k] * d.width[k];
    s.max_front = std::max(s.max_front, d.struct_begin[k + 1] - d.struct_begin[k]);
  }
  s.tree_height = forest_height(d.parent);
  s.deferred_nodes = elimination.deferred;
  return data;
}

double predicted_flops(const SymbolicData& d, Method method) {
  double flops = 0;
  for (size_t k = 0; k < d.size.size(); ++k) {
    const double b = d.size[k], w = d.width[k];
    double sum_squares = 0;  // sum of squared neighbour sizes (diagonal blocks of the update)
    if (method != Method::LDU)
      for (int e = d.struct_begin[k]; e < d.struct_begin[k + 1]; ++e) {
        const double wi = d.size[d.struct_pos[e]];
        sum_squares += wi * wi;
      }
    switch (method) {
      case Method::LDU: flops += ldu_pivot_flops(b, w); break;
      case Method::LDLT: flops += 2.0 / 3.0 * b * b * b + 2 * b * b * w + b * (w * w + sum_squares); break;
      case Method::LLT: flops += 1.0 / 3.0 * b * b * b + b * b * w + b * (w * w + sum_squares); break;
    }
  }
  return std::round(flops);
}

}  // namespace graphsolve::detail
