#pragma once
// The pair kernels of wide_kernels.hpp, one file per method
// (wide_pairs_ldu.cpp, wide_pairs_ldlt.cpp, wide_pairs_llt.cpp): each
// instantiates 216, for every pivot size and both neighbours' sizes.
// Include only where GS_HAS_WIDE_KERNELS is defined.
#include "wide_vectors.hpp"

namespace graphsolve::kernels::wide {

// pair_kernel() for one method; the sizes are within 1..6.
PairKernel ldu_pair_kernel(int b, int a_rows, int c_rows);
PairKernel ldlt_pair_kernel(int b, int a_rows, int c_rows);
PairKernel llt_pair_kernel(int b, int a_rows, int c_rows);

namespace [[gnu::visibility("hidden")]] vectors {

// The LDU pair kernel (wide_kernels.hpp) for a B x B pivot and neighbours of
// A and C rows: u = [U_ka U_kc] <- -p u, then the four updates from L_ak and
// L_ck, each held in registers for two of them.
template <int B, int A, int C>
GS_WIDE void pair_ldu_sized(const double* p, double* u, double* l, const PairTargets& t) {
  constexpr int ld = A + C;  // of l
  negate_product_in_place_sized<B>(A + C, p, u);
  const double* u_ka = u;
  const double* u_kc = u + B * A;
  Column left[B];
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) left[q] = load<A>(l + q * ld);  // L_ak
  subtract_product<B, A, A, true>(left, u_ka, 1, B, t.d_a, A, t.rows_a);
  subtract_product<B, A, C, false>(left, u_kc, 1, B, t.ac, t.ld_ac, nullptr);
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) left[q] = load<C>(l + A + q * ld);  // L_ck
  subtract_product<B, C, A, false>(left, u_ka, 1, B, t.ca, t.ld_ca, nullptr);
  subtract_product<B, C, C, true>(left, u_kc, 1, B, t.d_c, C, t.rows_c);
}

// The LDLT and LLT pair kernels (wide_kernels.hpp): the A- and C-row strips
// of l each become -l p^T (the old ones kept for LDLT), then the three updates.
template <int B, int A, int C, bool cholesky>
GS_WIDE void pair_symmetric_sized(const double* p, double*, double* l, const PairTargets& t) {
  constexpr int ld = A + C;  // of l
  double original[(A + C) * B];  // the old strips: A x B then C x B, each with its rows as leading dimension
  negate_times_transposed<A, B, cholesky>(p, l, ld, cholesky ? nullptr : original);
  negate_times_transposed<C, B, cholesky>(p, l + A, ld, cholesky ? nullptr : original + A * B);
  // R_ak and R_ck: coefficient (q, j) of R^T at r[q * r_ld + j].
  const double* r_a = cholesky ? l : original;
  const double* r_c = cholesky ? l + A : original + A * B;
  constexpr int r_ld_a = cholesky ? ld : A, r_ld_c = cholesky ? ld : C;
  Column now[B];
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) now[q] = load<A>(l + q * ld);  // L_ak
  subtract_product<B, A, A, true>(now, r_a, r_ld_a, 1, t.d_a, A, t.rows_a);
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) now[q] = load<C>(l + A + q * ld);  // L_ck
  subtract_product<B, C, A, false>(now, r_a, r_ld_a, 1, t.ca, t.ld_ca, nullptr);
  subtract_product<B, C, C, true>(now, r_c, r_ld_c, 1, t.d_c, C, t.rows_c);
}

// The kernel of one method for the three sizes (each within 1..6).
template <PairMethod method>
PairKernel sized_pair_kernel(int b, int a_rows, int c_rows) {
  PairKernel kernel = nullptr;
  with_edge_sizes(b, a_rows, [&](auto bs, auto as) {
    with_height(c_rows, [&](auto cs) {
      if constexpr (!is_fixed_height<decltype(cs)>)
        return;
      else if constexpr (method == PairMethod::Ldu)
        kernel = &pair_ldu_sized<bs(), as(), cs()>;
      else
        kernel = &pair_symmetric_sized<bs(), as(), cs(), method == PairMethod::Llt>;
    });
  });
  return kernel;
}

}  // namespace vectors
}  // namespace graphsolve::kernels::wide
