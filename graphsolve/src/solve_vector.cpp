// Forward and backward substitution for one right-hand side when every block
// is at most kernels::kMaxFixed: the Newton case. Each node's pivot and each
// coupling is one fixed-size matrix-vector product on values held in
// registers, where the general path (solve.cpp) copies the node's rows to
// scratch, zeroes them and dispatches a product on three run-time sizes.
// The same products node by node in the same order (the last bits of
// rounding may differ).
//
// The couplings' products are column operations on fixed-size vectors
// (kernels::minus_product, block_view.hpp), as block_kernels.cpp writes its
// own: unrolled vector code with the sums in registers (6x6 chains: 10% fewer
// instructions per solve than Eigen's strided fixed-size products), at a
// fifth of their compile time (every pair of block sizes is instantiated: 36
// per product).
//
// The sweeps read a plan (plan_vector_solve) instead of the layout's tables:
// a pivot's rows, size and block, and each coupling's, side by side. Read
// from the tables, a node of a 3x3 chain took 334 instructions per LLT
// solve (300 LDU), most of them lookups (its size, its neighbour's
// position, rows, size and activity, the panel's offset and width); from
// the plan 191 (155), and at 6x6 391 instead of 553 (290 instead of 457).
// Systems of one block size dispatch once per solve, and those with every
// node active skip the activity tests. The results are the same bits.
#include "block_view.hpp"
#include "factor_storage.hpp"

namespace graphsolve {

namespace {

using kernels::minus_product;
using kernels::minus_transposed_product;
using kernels::Vector;
using Node = detail::VectorSolveNode;
using Entry = detail::VectorSolveEntry;

// Calls f with b as a compile-time constant; sizes 0 (nothing to do) and
// above kMaxFixed (never sent here) do nothing.
template <class F>
void with_block_size(int b, F&& f) {
  kernels::with_height(b, [&](auto size) {
    if constexpr (kernels::is_fixed_height<decltype(size)>) f(size);
  });
}

// Calls f with the block size: Uniform itself where every node has that
// size (0: sizes vary, dispatched on `size`).
template <int Uniform, class F>
void with_size(int size, F&& f) {
  if constexpr (Uniform > 0)
    f(std::integral_constant<int, Uniform>{});
  else
    with_block_size(size, f);
}

// -P y (or -P^T y) for the B x B pivot at p, into a new vector: assigned
// back to y, a lazy fixed-size product would read coefficients it has
// already overwritten. Even sizes take the couplings' column form: the same
// products added in the same order as Eigen's (down the columns, in packets
// of two rows), so the same bits, and the 6x6 chains' solves a quarter
// faster than with Eigen's product. At odd sizes Eigen sums each row pairwise; the column
// form would change the last bits of every solve, and the simulator's
// hardest contact tests notice (a quadruped drop that stalls), so those keep
// Eigen's. 0 - a is -a exactly: starting from the negated first column is
// starting from zero.
template <int B>
inline __attribute__((always_inline)) Vector<B> negated_pivot(const double* p, const Vector<B>& y,
                                                             bool transposed) {
  Vector<B> product;
  if constexpr (B % 2 == 0) {
    if (transposed) {
      for (int q = 0; q < B; ++q) product[q] = -Eigen::Map<const Vector<B>>(p + q * B).dot(y);
    } else {
      product = Eigen::Map<const Vector<B>>(p) * -y[0];
      for (int q = 1; q < B; ++q) product -= Eigen::Map<const Vector<B>>(p + q * B) * y[q];
    }
  } else {
    const auto pivot = kernels::view<B, B>(p, B);
    if (transposed)
      product.noalias() = -(pivot.transpose() * y);
    else
      product.noalias() = -(pivot * y);
  }
  return product;
}

// with_size for a neighbour of a B x B pivot: most graphs have one block
// size, so that case skips the dispatch.
template <int B, int Uniform, class F>
void with_neighbour_size(int c, F&& f) {
  if (Uniform > 0 || c == B)
    f(std::integral_constant<int, B>{});
  else
    with_block_size(c, f);
}

// One node of each sweep, for method M and a B x B pivot. CheckActive: some
// position is inactive (its rows and couplings are skipped). Uniform: every
// node's size (or 0). Flattened: left to GCC, the node functions that take
// neighbours of every size kept Eigen's products and copies out of line, a
// call per block (saddle-point ladders 35% slower than with them inlined).
template <Method M, int B, bool CheckActive, int Uniform>
__attribute__((flatten)) void forward_node(const Node& node, const Entry* entries, const char* active,
                                           const double* v, double* x) {
  Eigen::Map<Vector<B>> xk(x + node.rows);
  Vector<B> y = xk;
  if constexpr (M != Method::LDLT) {  // y <- -P y = D^{-1} y (or C^{-1} y)
    y = negated_pivot<B>(v + node.pivot, y, false);
    xk = y;
  }
  for (int e = node.begin; e < node.end; ++e) {
    const Entry& c = entries[e];
    if (CheckActive && !active[c.position]) continue;
    with_neighbour_size<B, Uniform>(c.size, [&](auto rows) {
      constexpr int C = decltype(rows)::value;
      Eigen::Map<Vector<C>> xc(x + c.rows);
      xc = minus_product<C, B>(v + c.lower, node.ld_lower, y, xc);
    });
  }
}

template <Method M, int B, bool CheckActive, int Uniform>
__attribute__((flatten)) void backward_node(const Node& node, const Entry* entries, const char* active,
                                            const double* v, double* x) {
  Eigen::Map<Vector<B>> xk(x + node.rows);
  Vector<B> y = xk;
  if constexpr (M == Method::LDLT) y = negated_pivot<B>(v + node.pivot, y, false);
  for (int e = node.begin; e < node.end; ++e) {
    const Entry& c = entries[e];
    if (CheckActive && !active[c.position]) continue;
    with_neighbour_size<B, Uniform>(c.size, [&](auto columns) {
      constexpr int C = decltype(columns)::value;
      const Eigen::Map<const Vector<C>> xc(x + c.rows);
      if constexpr (M == Method::LDU)
        y = minus_product<B, C>(v + c.upper, B, xc, y);
      else
        y = minus_transposed_product<C, B>(v + c.lower, node.ld_lower, xc, y);
    });
  }
  if constexpr (M == Method::LLT) y = negated_pivot<B>(v + node.pivot, y, true);
  xk = y;
}

// Forward: y_c -= L_ck y_k, after y_k <- D^{-1} y_k (LDU, LLT); backward:
// y_k -= U_kc x_c (LDU), or D^{-1} then L^T (LDLT), or L^T then C^{-T} (LLT).
template <Method M, int Uniform, bool CheckActive>
void substitute(const std::vector<Node>& nodes, const Entry* entries, const char* active, const double* v,
                double* x) {
  for (const Node& node : nodes) {
    if (CheckActive && !active[node.position]) continue;
    with_size<Uniform>(node.size, [&](auto b) {
      forward_node<M, decltype(b)::value, CheckActive, Uniform>(node, entries, active, v, x);
    });
  }
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    if (CheckActive && !active[it->position]) continue;
    with_size<Uniform>(it->size, [&](auto b) {
      backward_node<M, decltype(b)::value, CheckActive, Uniform>(*it, entries, active, v, x);
    });
  }
}

template <Method M>
void substitute_as(int uniform, bool check_active, const std::vector<Node>& nodes, const Entry* entries,
                   const char* active, const double* v, double* x) {
  const auto run = [&](auto uniform_size) {
    constexpr int U = decltype(uniform_size)::value;
    if (check_active)
      substitute<M, U, true>(nodes, entries, active, v, x);
    else
      substitute<M, U, false>(nodes, entries, active, v, x);
  };
  switch (uniform) {  // the common sizes dispatch once per solve
    case 3: return run(std::integral_constant<int, 3>{});
    case 6: return run(std::integral_constant<int, 6>{});
    default: return run(std::integral_constant<int, 0>{});
  }
}

}  // namespace

bool Factorization::Impl::solves_vectors_fixed() const { return d->max_size <= kernels::kMaxFixed; }

void Factorization::Impl::plan_vector_solve() {
  vector_solve_nodes.clear();
  vector_solve_entries.clear();
  if (!solves_vectors_fixed() || all_scalar) return;  // all-scalar systems take solve_scalars
  const int n = static_cast<int>(d->order.size());
  // Sized exactly (memory_bytes() counts them): nodes and couplings with rows.
  int nodes = 0, entries = 0;
  for (int k = 0; k < n; ++k) {
    if (size(k) == 0) continue;
    ++nodes;
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) entries += size(d->struct_pos[e]) > 0;
  }
  vector_solve_nodes.resize(nodes);
  vector_solve_entries.resize(entries);
  uniform_vector_size = n > 0 ? size(0) : 0;
  int node_count = 0, entry_count = 0;
  for (int k = 0; k < n; ++k) {
    if (size(k) != uniform_vector_size) uniform_vector_size = 0;
    if (size(k) == 0) continue;
    Node& node = vector_solve_nodes[node_count++];
    node.pivot = diag_off[k];
    node.rows = row_off[k];
    node.size = size(k);
    node.position = k;
    node.begin = entry_count;
    node.ld_lower = lower_ld(k);
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
      const int c = d->struct_pos[e];
      if (size(c) == 0) continue;
      Entry& entry = vector_solve_entries[entry_count++];
      entry.lower = lower_off[k] + d->struct_col[e];
      entry.upper = upper_off[k] + static_cast<long>(size(k)) * d->struct_col[e];
      entry.rows = row_off[c];
      entry.size = size(c);
      entry.position = c;
    }
    node.end = entry_count;
  }
}

void Factorization::Impl::solve_vector(double* x) {
  const bool check_active = some_inactive;  // rare: the tests are skipped without them
  const Entry* entries = vector_solve_entries.data();
  const double* v = values.data();
  switch (method) {
    case Method::LDU:
      return substitute_as<Method::LDU>(uniform_vector_size, check_active, vector_solve_nodes, entries,
                                        active.data(), v, x);
    case Method::LDLT:
      return substitute_as<Method::LDLT>(uniform_vector_size, check_active, vector_solve_nodes, entries,
                                         active.data(), v, x);
    case Method::LLT:
      return substitute_as<Method::LLT>(uniform_vector_size, check_active, vector_solve_nodes, entries,
                                        active.data(), v, x);
  }
}

}  // namespace graphsolve
