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
#include "block_view.hpp"
#include "factor_storage.hpp"

namespace graphsolve {

namespace {

// Calls f with b as a compile-time constant; sizes 0 (nothing to do) and
// above kMaxFixed (never sent here) do nothing.
template <class F>
void with_block_size(int b, F&& f) {
  kernels::with_height(b, [&](auto size) {
    if constexpr (kernels::is_fixed_height<decltype(size)>) f(size);
  });
}

// with_block_size for a neighbour of a B x B pivot: most graphs have one
// block size, so that case skips the dispatch.
template <int B, class F>
void with_neighbour_size(int c, F&& f) {
  if (c == B)
    f(std::integral_constant<int, B>{});
  else
    with_block_size(c, f);
}

using kernels::minus_product;
using kernels::minus_transposed_product;
using kernels::Vector;

}  // namespace

bool Factorization::Impl::solves_vectors_fixed() const { return d->max_size <= kernels::kMaxFixed; }

// -P y (or -P^T y), every use's sign, into a new vector: assigned back to y,
// a lazy fixed-size product would read coefficients it has already
// overwritten. Eigen's own product: on the pivot's contiguous block it is as
// fast as the column form, and with one block size per instantiation it
// costs little to compile. Inlined: out of line, the vectors went through
// memory on every call.
template <int B>
inline __attribute__((always_inline)) Eigen::Matrix<double, B, 1> Factorization::Impl::negated_pivot(
    int k, const Eigen::Matrix<double, B, 1>& y, bool transposed) {
  const auto p = kernels::view<B, B>(diag(k), B);
  Vector<B> product;
  if (transposed)
    product.noalias() = -(p.transpose() * y);
  else
    product.noalias() = -(p * y);
  return product;
}

template <int B>
void Factorization::Impl::forward_node(int k, double* x) {
  Eigen::Map<Vector<B>> xk(x + row_off[k]);
  Vector<B> y = xk;
  if (method != Method::LDLT) {  // y <- -P y = D^{-1} y (or C^{-1} y)
    y = negated_pivot<B>(k, y);
    xk = y;
  }
  const int ld = lower_ld(k);
  for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
    const int c = d->struct_pos[e];
    if (!active[c]) continue;
    double* xc = x + row_off[c];
    with_neighbour_size<B>(size(c), [&](auto rows) {
      constexpr int C = decltype(rows)::value;
      Eigen::Map<Vector<C>> xc_map(xc);
      xc_map = minus_product<C, B>(lower(k, e), ld, y, xc_map);
    });
  }
}

template <int B>
void Factorization::Impl::backward_node(int k, double* x) {
  Eigen::Map<Vector<B>> xk(x + row_off[k]);
  Vector<B> y = xk;
  if (method == Method::LDLT) y = negated_pivot<B>(k, y);
  const int ld_lower = lower_ld(k), ld_upper = upper_ld(k);
  for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
    const int c = d->struct_pos[e];
    if (!active[c]) continue;
    const double* xc = x + row_off[c];
    with_neighbour_size<B>(size(c), [&](auto columns) {
      constexpr int C = decltype(columns)::value;
      const Eigen::Map<const Vector<C>> xcv(xc);
      if (method == Method::LDU)
        y = minus_product<B, C>(upper(k, e), ld_upper, xcv, y);
      else
        y = minus_transposed_product<C, B>(lower(k, e), ld_lower, xcv, y);
    });
  }
  if (method == Method::LLT) y = negated_pivot<B>(k, y, true);
  xk = y;
}

void Factorization::Impl::solve_vector(double* x) {
  const int n = static_cast<int>(d->order.size());
  for (int k = 0; k < n; ++k)
    if (active[k]) with_block_size(size(k), [&](auto b) { forward_node<decltype(b)::value>(k, x); });
  for (int k = n - 1; k >= 0; --k)
    if (active[k]) with_block_size(size(k), [&](auto b) { backward_node<decltype(b)::value>(k, x); });
}

}  // namespace graphsolve
