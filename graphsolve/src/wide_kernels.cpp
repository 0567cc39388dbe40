// The AVX2 + FMA kernels of wide_kernels.hpp; kernel_choice.cpp decides
// whether they run.
#include "wide_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <utility>

#include "block_kernels.hpp"

namespace graphsolve::kernels::wide {

#ifdef GS_HAS_WIDE_KERNELS

namespace {

#define GS_WIDE __attribute__((target("avx2,fma")))
#define GS_WIDE_INLINE GS_WIDE inline __attribute__((always_inline))

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

// Every loop has compile-time bounds and unrolls, so that coefficient
// indices are constants and the columns stay in registers; an early exit
// would stop the unrolling, so failures are decided at the end.
template <int K>
GS_WIDE double gauss_jordan_sized(double* d, int ldd, double input_scale, double tolerance) {
  Column a[K];  // a[j]: column j
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) a[j] = load<K>(d + static_cast<long>(j) * ldd);
  int row_of[K];  // row j of the working copy is row row_of[j] of the input
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) row_of[i] = i;
  double smallest = 1e308, largest = input_scale;
  bool regular = true;
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    int p = j;
    double best = std::abs(at(a[j], j));
#pragma GCC unroll 8
    for (int i = 0; i < K; ++i) {
      const double v = std::abs(at(a[j], i));
      if (i > j && v > best) best = v, p = i;
    }
    if (p != j) {  // a run-time row: through memory, off the usual path
      double t[K][8];
#pragma GCC unroll 8
      for (int c = 0; c < K; ++c) {
        std::memcpy(t[c], &a[c].lo, sizeof(V4));
        std::memcpy(t[c] + 4, &a[c].hi, sizeof(V4));
      }
      for (int c = 0; c < K; ++c) std::swap(t[c][j], t[c][p]);
#pragma GCC unroll 8
      for (int c = 0; c < K; ++c) {
        std::memcpy(&a[c].lo, t[c], sizeof(V4));
        std::memcpy(&a[c].hi, t[c] + 4, sizeof(V4));
      }
      std::swap(row_of[j], row_of[p]);
    }
    const double pivot = at(a[j], j);
    regular = track_pivot(pivot, smallest, largest) && regular;
    const double inverse = 1.0 / pivot;
    Column multiplier = scaled(a[j], inverse);  // of row j, for every other row
    set(multiplier, j, 0.0);
#pragma GCC unroll 8
    for (int c = 0; c < K; ++c) {
      if (c == j) continue;
      const double r = at(a[c], j);
      subtract_scaled<K>(a[c], multiplier, r);
      set(a[c], j, r * inverse);
    }
    a[j] = scaled(multiplier, -1.0);
    set(a[j], j, inverse);
  }
  if (!regular) return 0.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  // a = (P A)^{-1} = A^{-1} P^T: its column j is column row_of[j] of A^{-1}.
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) store<K>(d + static_cast<long>(row_of[j]) * ldd, scaled(a[j], -1.0));
  return ratio;
}

// As block_kernels.cpp's cholesky_negated_inverse: D = L diag(p) L^T, then
// -C^{-1} = -diag(p)^(-1/2) L^{-1}, column by column.
template <int K>
GS_WIDE double cholesky_sized(double* d, int ldd, double input_scale, double tolerance) {
  Column a[K];  // a[j]: column j of D; only the part below the diagonal is read
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) a[j] = load<K>(d + static_cast<long>(j) * ldd);
  Column l[K];  // l[j]: column j of L below the diagonal, zeros above and on it
  double inverse_pivot[K];
  double smallest = 1e308, largest = input_scale;
  bool definite = true;
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    const double pivot = at(a[j], j);
    definite = definite && pivot > 0.0 && pivot < 1e308;
    smallest = std::min(smallest, pivot);
    largest = std::max(largest, pivot);
    inverse_pivot[j] = 1.0 / pivot;
    l[j] = scaled(a[j], inverse_pivot[j]);
#pragma GCC unroll 8
    for (int i = 0; i <= j; ++i) set(l[j], i, 0.0);
#pragma GCC unroll 8
    for (int c = j + 1; c < K; ++c) subtract_scaled<K>(a[c], l[j], at(a[j], c));
  }
  if (!definite) return -1.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  Column scale{};
#pragma GCC unroll 8
  for (int i = 0; i < K; ++i) set(scale, i, -std::sqrt(inverse_pivot[i]));
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    Column x{};
    set(x, j, 1.0);
#pragma GCC unroll 8
    for (int q = j; q + 1 < K; ++q) subtract_scaled<K>(x, l[q], at(x, q));
    store<K>(d + static_cast<long>(j) * ldd, {x.lo * scale.lo, x.hi * scale.hi});
  }
  return ratio;
}

// C -= A B (or A B^T): A's K columns stay in registers for every column of C.
template <int M, int K, bool b_transposed>
GS_WIDE void minus_product_sized(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  Column columns[K];
#pragma GCC unroll 8
  for (int q = 0; q < K; ++q) columns[q] = load<M>(a + static_cast<long>(q) * lda);
  // Coefficient q of column j of B (A B), or of row j of B (A B^T).
  const long step = b_transposed ? ldb : 1, next = b_transposed ? 1 : ldb;
  for (int j = 0; j < n; ++j) {
    double* cj = c + static_cast<long>(j) * ldc;
    const double* bj = b + j * next;
    Column sum = load<M>(cj);
#pragma GCC unroll 8
    for (int q = 0; q < K; ++q) subtract_scaled<M>(sum, columns[q], bj[q * step]);
    store<M>(cj, sum);
  }
}

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

template <int K>
GS_WIDE void negate_strip_transposed_sized(const double* p, double* c, int ldc, double* keep, int ldkeep,
                                           bool lower_triangular) {
  Column old[K];
#pragma GCC unroll 8
  for (int q = 0; q < K; ++q) old[q] = load<6>(c + static_cast<long>(q) * ldc);
  if (keep)
#pragma GCC unroll 8
    for (int q = 0; q < K; ++q) store<6>(keep + static_cast<long>(q) * ldkeep, old[q]);
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) {
    Column sum{};
#pragma GCC unroll 8
    for (int q = 0; q < K; ++q)
      if (!lower_triangular || q <= j) subtract_scaled<6>(sum, old[q], p[j + q * K]);
    store<6>(c + static_cast<long>(j) * ldc, sum);
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

// block_kernels.cpp's edge_ldu: u (B x C) <- -p u, then d (C x C) -= l u,
// its row magnitudes widened on the way out.
template <int B, int C>
GS_WIDE void edge_ldu_sized(const double* p, double* u, const double* l, double* d, double* rows) {
  negate_product_in_place_sized<B>(C, p, u);
  Column left[B];
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) left[q] = load<C>(l + q * C);
  subtract_product<B, C, C, true>(left, u, 1, B, d, C, rows);
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

// block_kernels.cpp's edge_symmetric: l (C x B) <- -l p^T, then d -= l_new
// l_old^T (LDLT) or l_new l_new^T (LLT, whose p is lower triangular).
template <int B, int C, bool cholesky>
GS_WIDE void edge_symmetric_sized(const double* p, double* l, double* d, double* rows) {
  double original[C * B];
  negate_times_transposed<C, B, cholesky>(p, l, C, cholesky ? nullptr : original);
  Column now[B];
#pragma GCC unroll 8
  for (int q = 0; q < B; ++q) now[q] = load<C>(l + q * C);
  subtract_product<B, C, C, true>(now, cholesky ? l : original, C, 1, d, C, rows);
}

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

// c <- a column by column (m rows), in the pieces load<M> reads back; the
// sum of every value times zero, NaN if any is not finite.
template <int M, int N>
GS_WIDE double checked_copy_sized(const double* a, int lda, double* c, int ldc) {
  Column poison{};
#pragma GCC unroll 8
  for (int j = 0; j < N; ++j) {
    const Column v = load<M>(a + static_cast<long>(j) * lda);
    store<M>(c + static_cast<long>(j) * ldc, v);
    subtract_scaled<M>(poison, v, 0.0);
  }
  double total = 0.0;
  for (int i = 0; i < 4; ++i) total += poison.lo[i] + (M > 4 ? poison.hi[i] : 0.0);
  return total;
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

}  // namespace

double gauss_jordan(int k, double* d, int ldd, double input_scale, double tolerance) {
  return k == 5 ? gauss_jordan_sized<5>(d, ldd, input_scale, tolerance)
                : gauss_jordan_sized<6>(d, ldd, input_scale, tolerance);
}

double cholesky(int k, double* d, int ldd, double input_scale, double tolerance) {
  return k == 5 ? cholesky_sized<5>(d, ldd, input_scale, tolerance) : cholesky_sized<6>(d, ldd, input_scale, tolerance);
}

namespace {
template <int M, bool b_transposed>
constexpr ProductsOfHeight products_of_height() {
  return {&minus_product_sized<M, 1, b_transposed>, &minus_product_sized<M, 2, b_transposed>,
          &minus_product_sized<M, 3, b_transposed>, &minus_product_sized<M, 4, b_transposed>,
          &minus_product_sized<M, 5, b_transposed>, &minus_product_sized<M, 6, b_transposed>};
}
}  // namespace

const ProductTable minus_products = {{{{products_of_height<5, false>(), products_of_height<6, false>()}},
                                      {{products_of_height<5, true>(), products_of_height<6, true>()}}}};

void negate_product_in_place(int k, int n, const double* a, double* c) {
  if (k == 5)
    negate_product_in_place_sized<5>(n, a, c);
  else
    negate_product_in_place_sized<6>(n, a, c);
}

void negate_strip_transposed(int k, const double* p, double* c, int ldc, double* keep, int ldkeep,
                             bool lower_triangular) {
  with_height(k, [&](auto size) {  // callers keep k within 1..6
    if constexpr (is_fixed_height<decltype(size)>)
      negate_strip_transposed_sized<size()>(p, c, ldc, keep, ldkeep, lower_triangular);
  });
}

namespace {
template <int M>
constexpr CopiesOfHeight copies_of_height() {
  return {&checked_copy_sized<M, 1>, &checked_copy_sized<M, 2>, &checked_copy_sized<M, 3>,
          &checked_copy_sized<M, 4>, &checked_copy_sized<M, 5>, &checked_copy_sized<M, 6>};
}
}  // namespace

const CopyTable checked_copies = {{copies_of_height<1>(), copies_of_height<2>(), copies_of_height<3>(),
                                   copies_of_height<4>(), copies_of_height<5>(), copies_of_height<6>()}};

void edge_ldu(int b, int c, const double* p, double* u, const double* l, double* d, double* rows) {
  with_edge_sizes(b, c, [&](auto bs, auto cs) { edge_ldu_sized<bs(), cs()>(p, u, l, d, rows); });
}

void edge_symmetric(int b, int c, const double* p, double* l, double* d, bool cholesky, double* rows) {
  with_edge_sizes(b, c, [&](auto bs, auto cs) {
    if (cholesky)
      edge_symmetric_sized<bs(), cs(), true>(p, l, d, rows);
    else
      edge_symmetric_sized<bs(), cs(), false>(p, l, d, rows);
  });
}

PairKernel pair_kernel(int b, int a, int c, PairMethod method) {
  PairKernel kernel = nullptr;
  const auto fits = [](int rows) { return rows >= 1 && rows <= 6; };
  if (!fits(b) || !fits(a) || !fits(c)) return kernel;
  with_edge_sizes(b, a, [&](auto bs, auto as) {
    with_height(c, [&](auto cs) {
      if constexpr (is_fixed_height<decltype(cs)>) {
        switch (method) {
          case PairMethod::Ldu: kernel = &pair_ldu_sized<bs(), as(), cs()>; break;
          case PairMethod::Ldlt: kernel = &pair_symmetric_sized<bs(), as(), cs(), false>; break;
          case PairMethod::Llt: kernel = &pair_symmetric_sized<bs(), as(), cs(), true>; break;
        }
      }
    });
  });
  return kernel;
}

#else  // no wide kernels in this build: enabled() is false, so none is called

double gauss_jordan(int, double*, int, double, double) { std::abort(); }
double cholesky(int, double*, int, double, double) { std::abort(); }
const ProductTable minus_products{};  // null: never read while enabled() is false
void negate_product_in_place(int, int, const double*, double*) { std::abort(); }
void negate_strip_transposed(int, const double*, double*, int, double*, int, bool) { std::abort(); }
void edge_ldu(int, int, const double*, double*, const double*, double*, double*) { std::abort(); }
const CopyTable checked_copies{};  // null: never read while enabled() is false
void edge_symmetric(int, int, const double*, double*, double*, bool, double*) { std::abort(); }
PairKernel pair_kernel(int, int, int, PairMethod) { return nullptr; }

#endif

}  // namespace graphsolve::kernels::wide
