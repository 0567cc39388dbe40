#pragma once
// The vector helpers of the wide kernels (wide_kernels.hpp), shared by the
// files that build them: wide_kernels.cpp and the pair kernels of
// wide_pairs_*.cpp. The kernels are split so that a parallel build compiles
// the 648 pair kernels on several cores: in one file they took 4.5 min of
// clang's sanitized build.
// Include only where GS_HAS_WIDE_KERNELS is defined.
#include <cstring>
#include <immintrin.h>

#include "block_kernels.hpp"
#include "wide_kernels.hpp"

#define GS_WIDE __attribute__((target("avx2,fma")))
#define GS_WIDE_INLINE GS_WIDE inline __attribute__((always_inline))

namespace graphsolve::kernels::wide {
// Hidden: none of these is part of the library's interface, and each
// kernel file instantiates its own.
namespace [[gnu::visibility("hidden")]] vectors {

typedef double V4 __attribute__((vector_size(32)));

// Rows 0-3 and 4-7 of a column of at most 8 rows; rows past the block are
// zero, and stay zero through every update below.
struct Column {
  V4 lo, hi;
};

// M rows from p (1 <= M <= 8) and back; nothing past row M is read or written.
template <int M>
GS_WIDE_INLINE Column load(const double* p) {
  static_assert(M >= 1 && M <= 8, "at most two vectors of four");
  Column c{};
  if constexpr (M > 4) {
    std::memcpy(&c.lo, p, sizeof(V4));
    c.hi = V4{p[4], M > 5 ? p[5] : 0.0, M > 6 ? p[6] : 0.0, M > 7 ? p[7] : 0.0};
  } else if constexpr (M == 4) {
    // As two halves: the portable kernels write 4-row columns in 16-byte
    // halves, and a load across two stores waits for both to retire.
    c.lo = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p)), _mm_loadu_pd(p + 2), 1);
  } else {
    c.lo = V4{p[0], M > 1 ? p[1] : 0.0, M > 2 ? p[2] : 0.0, 0.0};
  }
  return c;
}
template <int M>
GS_WIDE_INLINE void store(double* p, const Column& c) {
  if constexpr (M >= 4) {
    std::memcpy(p, &c.lo, sizeof(V4));
    for (int i = 4; i < M; ++i) p[i] = c.hi[i - 4];
  } else {
    for (int i = 0; i < M; ++i) p[i] = c.lo[i];
  }
}

// Coefficient i of a column; i is a constant wherever the loops unroll.
GS_WIDE_INLINE double at(const Column& c, int i) { return i < 4 ? c.lo[i] : c.hi[i - 4]; }
GS_WIDE_INLINE void set(Column& c, int i, double v) {
  if (i < 4)
    c.lo[i] = v;
  else
    c.hi[i - 4] = v;
}
// c -= x s for columns of M rows: one vector when M <= 4.
template <int M>
GS_WIDE_INLINE void subtract_scaled(Column& c, const Column& x, double s) {
  c.lo -= x.lo * s;
  if constexpr (M > 4) c.hi -= x.hi * s;
}
GS_WIDE_INLINE Column scaled(const Column& x, double s) { return {x.lo * s, x.hi * s}; }

template <int K>
GS_WIDE void negate_product_in_place_sized(int n, const double* a, double* c) {
  Column columns[K];
#pragma GCC unroll 8
  for (int q = 0; q < K; ++q) columns[q] = load<K>(a + q * K);
  for (int j = 0; j < n; ++j) {
    // Coefficient by coefficient: C was written in pieces of other sizes
    // (a load across two stores waits for both), and each is read before
    // the column is stored.
    double* cj = c + static_cast<long>(j) * K;
    Column sum{};
#pragma GCC unroll 8
    for (int q = 0; q < K; ++q) subtract_scaled<K>(sum, columns[q], cj[q]);
    store<K>(cj, sum);
  }
}

// rows[i] <- max(rows[i], |c_i|) over the C rows of c.
template <int C>
GS_WIDE_INLINE void widen(Column& rows, const Column& c) {
  const V4 lo = c.lo < 0.0 ? -c.lo : c.lo;
  rows.lo = lo > rows.lo ? lo : rows.lo;
  if constexpr (C > 4) {
    const V4 hi = c.hi < 0.0 ? -c.hi : c.hi;
    rows.hi = hi > rows.hi ? hi : rows.hi;
  }
}

// d (C x N, leading dimension ldd) -= X Y: X's B columns (C rows) in
// registers, Y's coefficient (q, j) at y[q * q_step + j * j_step]. With
// widen_rows, rows (C values) widened by the updated d: a fused edge's or
// pair's diagonal block.
template <int B, int C, int N, bool widen_rows>
GS_WIDE_INLINE void subtract_product(const Column* x, const double* y, int q_step, int j_step, double* d, int ldd,
                                     double* rows) {
  Column widest{};
  if constexpr (widen_rows) widest = load<C>(rows);
#pragma GCC unroll 8
  for (int j = 0; j < N; ++j) {
    Column sum = load<C>(d + j * ldd);
#pragma GCC unroll 8
    for (int q = 0; q < B; ++q) subtract_scaled<C>(sum, x[q], y[q * q_step + j * j_step]);
    store<C>(d + j * ldd, sum);
    if constexpr (widen_rows) widen<C>(widest, sum);
  }
  if constexpr (widen_rows) store<C>(rows, widest);
}

// The C x B block at l (leading dimension ld) becomes -l p^T for a B x B p
// (lower triangular when cholesky: its upper zeros are skipped); the old
// block goes to keep (leading dimension C) unless it is null. Column by
// column, so that every later load reads what one store wrote (a load
// across two stores cannot be forwarded and waits for both).
template <int C, int B, bool cholesky>
GS_WIDE_INLINE void negate_times_transposed(const double* p, double* l, int ld, double* keep) {
  Column old[B];
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) {
    old[q] = load<C>(l + q * ld);
    if (keep) store<C>(keep + q * C, old[q]);
  }
#pragma GCC unroll 8
  for (int j = 0; j < B; ++j) {
    Column sum{};
#pragma GCC unroll 8
    for (int q = 0; q < B; ++q)
      if (!cholesky || q <= j) subtract_scaled<C>(sum, old[q], p[j + q * B]);
    store<C>(l + j * ld, sum);
  }
}

// Calls f with b and c as compile-time constants (callers keep both within 1..6).
template <class F>
void with_edge_sizes(int b, int c, F&& f) {
  with_height(b, [&](auto bs) {
    if constexpr (is_fixed_height<decltype(bs)>)
      with_height(c, [&](auto cs) {
        if constexpr (is_fixed_height<decltype(cs)>) f(bs, cs);
      });
  });
}

}  // namespace vectors
}  // namespace graphsolve::kernels::wide
