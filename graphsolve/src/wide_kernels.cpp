// The AVX2 + FMA kernels of wide_kernels.hpp but the pair kernels (in
// wide_pairs_*.cpp); kernel_choice.cpp decides whether they run.
#include "wide_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>

#ifdef GS_HAS_WIDE_KERNELS
#include "wide_pairs.hpp"
#endif

namespace graphsolve::kernels::wide {

#ifdef GS_HAS_WIDE_KERNELS

using namespace vectors;

namespace {

// Lane I of a column in all four lanes of a vector.
template <int I>
GS_WIDE_INLINE V4 broadcast_lane(const Column& c) {
  return reinterpret_cast<V4>(_mm256_permute4x64_pd(reinterpret_cast<__m256d>(I < 4 ? c.lo : c.hi), (I % 4) * 0x55));
}

// c with lane I set to v: a blend, where set() goes through the column's
// 128-bit halves and back.
template <int I>
GS_WIDE_INLINE Column with_lane(Column c, double v) {
  V4& half = I < 4 ? c.lo : c.hi;
  half = reinterpret_cast<V4>(
      _mm256_blend_pd(reinterpret_cast<__m256d>(half), _mm256_set1_pd(v), 1 << (I % 4)));
  return c;
}

// Rows I and P (constants, I < P) exchanged in each of the K columns, in
// the registers: through memory, each column's reload waited on the two
// single stores of the exchange.
template <int K, int I, int P>
GS_WIDE_INLINE void exchange_rows(Column* a) {
#pragma GCC unroll 8
  for (int c = 0; c < K; ++c) {
    if constexpr (P < 4 || I >= 4) {
      constexpr int i = I % 4, q = P % 4;
      constexpr int order = [] {
        int m = 0;
        for (int lane = 0; lane < 4; ++lane) m |= (lane == i ? q : lane == q ? i : lane) << (2 * lane);
        return m;
      }();
      V4& half = P < 4 ? a[c].lo : a[c].hi;
      half = reinterpret_cast<V4>(_mm256_permute4x64_pd(reinterpret_cast<__m256d>(half), order));
    } else {
      const V4 low = broadcast_lane<I>(a[c]), high = broadcast_lane<P>(a[c]);
      a[c].lo = reinterpret_cast<V4>(
          _mm256_blend_pd(reinterpret_cast<__m256d>(a[c].lo), reinterpret_cast<__m256d>(high), 1 << I));
      a[c].hi = reinterpret_cast<V4>(
          _mm256_blend_pd(reinterpret_cast<__m256d>(a[c].hi), reinterpret_cast<__m256d>(low), 1 << (P - 4)));
    }
  }
}

// exchange_rows for row J and the run-time row p, one of J + 1 + Q.
template <int K, int J, int... Q>
GS_WIDE_INLINE void exchange_row([[maybe_unused]] Column* a, [[maybe_unused]] int p, std::integer_sequence<int, Q...>) {
  const bool found = ((p == J + 1 + Q ? (exchange_rows<K, J, J + 1 + Q>(a), true) : false) || ...);
  (void)found;
}

// Step J of gauss_jordan_sized: every coefficient index is a constant, so
// the columns stay in registers; a failure is decided by the caller at the end.
template <int K, int J>
GS_WIDE_INLINE void gauss_jordan_step(Column* a, int* row_of, double& smallest, double& largest, bool& regular) {
  int p = J;
  double best = std::abs(at(a[J], J));
#pragma GCC unroll 8
  for (int i = J + 1; i < K; ++i) {
    const double v = std::abs(at(a[J], i));
    if (v > best) best = v, p = i;
  }
  if (p != J) {  // a run-time row: one branch per candidate, then constant lanes
    exchange_row<K, J>(a, p, std::make_integer_sequence<int, K - J - 1>{});
    std::swap(row_of[J], row_of[p]);
  }
  // The pivot divides in every lane at once (no broadcast of the quotient
  // waits between the division and the products), and the multipliers take
  // -1 / pivot in row J from a -1 set there before the division: row J of
  // every other column then becomes r / pivot and the other rows lose their
  // multiple of it in one multiply-add on the column with row J cleared
  // (which waits on nothing). The same values as clearing and scaling row J
  // apart, with two operations fewer between one pivot's division and the
  // next's.
  const V4 pivot = broadcast_lane<J>(a[J]);
  regular = track_pivot(pivot[0], smallest, largest) && regular;
  const V4 inverse = V4{1.0, 1.0, 1.0, 1.0} / pivot;
  const Column row_j = with_lane<J>(a[J], -1.0);
  const Column multiplier{row_j.lo * inverse, row_j.hi * inverse};
#pragma GCC unroll 8
  for (int c = 0; c < K; ++c) {
    if (c == J) continue;
    const V4 r = broadcast_lane<J>(a[c]);
    const Column cleared = with_lane<J>(a[c], 0.0);
    a[c].lo = cleared.lo - multiplier.lo * r;
    if constexpr (K > 4) a[c].hi = cleared.hi - multiplier.hi * r;
  }
  a[J] = scaled(multiplier, -1.0);  // row J: 1 / pivot
}

template <int K, int... J>
GS_WIDE_INLINE void gauss_jordan_steps(Column* a, int* row_of, double& smallest, double& largest, bool& regular,
                                       std::integer_sequence<int, J...>) {
  (gauss_jordan_step<K, J>(a, row_of, smallest, largest, regular), ...);
}

// -D^{-1} in place by Gauss-Jordan elimination with partial pivoting; the
// ratio of the smallest pivot to the largest (or to input_scale), 0 for a
// zero or non-finite pivot. D is written only when the ratio passes.
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
  gauss_jordan_steps<K>(a, row_of, smallest, largest, regular, std::make_integer_sequence<int, K>{});
  if (!regular) return 0.0;
  const double ratio = smallest / largest;
  if (!(ratio >= tolerance)) return ratio;  // D stays for the caller's retry
  // a = (P A)^{-1} = A^{-1} P^T: its column j is column row_of[j] of A^{-1}.
#pragma GCC unroll 8
  for (int j = 0; j < K; ++j) store<K>(d + static_cast<long>(row_of[j]) * ldd, scaled(a[j], -1.0));
  return ratio;
}

// As block_kernels.cpp's cholesky_columns: D = L diag(p) L^T, then
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

// front_kernels(S). fixed_left keeps the fixed block's columns in registers
// over every item; the others load each item's columns and take the fixed
// block's coefficients from the cache, as the per-block products do.
// c (S x S) -= X Y for X's columns x, Y's coefficient (q, j) from y(q, j).
template <int S, class Coefficient>
GS_WIDE_INLINE void subtract_front_item(const Column* x, Coefficient y, double* c, int ld_c) {
#pragma GCC unroll 8
  for (int j = 0; j < S; ++j) {
    double* cj = c + static_cast<long>(j) * ld_c;
    Column sum = load<S>(cj);
#pragma GCC unroll 8
    for (int q = 0; q < S; ++q) subtract_scaled<S>(sum, x[q], y(q, j));
    store<S>(cj, sum);
  }
}

template <int S>
GS_WIDE void front_fixed_left(int count, const double* fixed, int ld_fixed, const double* const* factors,
                              int ld_factors, double* const* targets, int ld_targets) {
  Column columns[S];
#pragma GCC unroll 8
  for (int q = 0; q < S; ++q) columns[q] = load<S>(fixed + static_cast<long>(q) * ld_fixed);
  for (int i = 0; i < count; ++i) {
    const double* b = factors[i];
    subtract_front_item<S>(columns, [&](int q, int j) { return b[q + static_cast<long>(j) * ld_factors]; },
                           targets[i], ld_targets);
  }
}

template <int S, bool transposed>
GS_WIDE void front_fixed_right(int count, const double* fixed, int ld_fixed, const double* const* factors,
                               int ld_factors, double* const* targets, int ld_targets) {
  // Coefficient (q, j) of the fixed operand (or of its transpose).
  const auto coefficient = [&](int q, int j) {
    return transposed ? fixed[j + static_cast<long>(q) * ld_fixed] : fixed[q + static_cast<long>(j) * ld_fixed];
  };
  for (int i = 0; i < count; ++i) {
    Column columns[S];
#pragma GCC unroll 8
    for (int q = 0; q < S; ++q) columns[q] = load<S>(factors[i] + static_cast<long>(q) * ld_factors);
    subtract_front_item<S>(columns, coefficient, targets[i], ld_targets);
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

}  // namespace

double gauss_jordan(int k, double* d, int ldd, double input_scale, double tolerance) {
  return k == 5 ? gauss_jordan_sized<5>(d, ldd, input_scale, tolerance)
                : gauss_jordan_sized<6>(d, ldd, input_scale, tolerance);
}

double cholesky(int k, double* d, int ldd, double input_scale, double tolerance) {
  return k == 5 ? cholesky_sized<5>(d, ldd, input_scale, tolerance) : cholesky_sized<6>(d, ldd, input_scale, tolerance);
}

GS_WIDE void update_columns(int first, int rows, const double* x, const double* coefficients, long stride,
                            double scale, double* y, long ld, int count) {
  for (int c = 0; c < count; ++c) {
    const __m256d s = _mm256_set1_pd(coefficients[c * stride] * scale);
    double* column = y + c * ld;
    for (int i = first; i < rows; i += 4)
      _mm256_storeu_pd(column + i, _mm256_fnmadd_pd(_mm256_loadu_pd(x + i), s, _mm256_loadu_pd(column + i)));
  }
}

namespace {
template <int M, bool b_transposed>
constexpr ProductsOfHeight products_of_height() {
  return {&minus_product_sized<M, 1, b_transposed>, &minus_product_sized<M, 2, b_transposed>,
          &minus_product_sized<M, 3, b_transposed>, &minus_product_sized<M, 4, b_transposed>,
          &minus_product_sized<M, 5, b_transposed>, &minus_product_sized<M, 6, b_transposed>};
}
template <bool b_transposed>
constexpr std::array<ProductsOfHeight, 4> products() {
  return {products_of_height<3, b_transposed>(), products_of_height<4, b_transposed>(),
          products_of_height<5, b_transposed>(), products_of_height<6, b_transposed>()};
}
}  // namespace

const ProductTable minus_products = {products<false>(), products<true>()};

void negate_product_in_place(int k, int n, const double* a, double* c) {
  switch (k) {
    case 3: return negate_product_in_place_sized<3>(n, a, c);
    case 4: return negate_product_in_place_sized<4>(n, a, c);
    case 5: return negate_product_in_place_sized<5>(n, a, c);
    default: return negate_product_in_place_sized<6>(n, a, c);
  }
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

namespace {
// edge_ldu_sized and edge_symmetric_sized behind the one signature of EdgeKernel.
template <int B, int C>
GS_WIDE void ldu_edge_entry(const double* p, double* u, double* l, double* d, double* rows) {
  edge_ldu_sized<B, C>(p, u, l, d, rows);
}
template <int B, int C, bool cholesky>
GS_WIDE void symmetric_edge_entry(const double* p, double*, double* l, double* d, double* rows) {
  edge_symmetric_sized<B, C, cholesky>(p, l, d, rows);
}
}  // namespace

namespace {
template <int S>
constexpr FrontKernels front_kernels_of() {
  return {&front_fixed_left<S>, &front_fixed_right<S, false>, &front_fixed_right<S, true>};
}
constexpr std::array<FrontKernels, 4> kFrontKernels = {front_kernels_of<3>(), front_kernels_of<4>(),
                                                       front_kernels_of<5>(), front_kernels_of<6>()};
constexpr FrontKernels kNoFrontKernels{};
}  // namespace

const FrontKernels& front_kernels(int s) { return s >= 3 && s <= 6 ? kFrontKernels[s - 3] : kNoFrontKernels; }

EdgeKernel edge_kernel(int b, int c, PairMethod method) {
  const auto fits = [](int rows) { return rows >= 1 && rows <= 6; };
  if (!fits(b) || !fits(c)) return nullptr;
  EdgeKernel kernel = nullptr;
  with_edge_sizes(b, c, [&](auto bs, auto cs) {
    switch (method) {
      case PairMethod::Ldu: kernel = &ldu_edge_entry<bs(), cs()>; break;
      case PairMethod::Ldlt: kernel = &symmetric_edge_entry<bs(), cs(), false>; break;
      case PairMethod::Llt: kernel = &symmetric_edge_entry<bs(), cs(), true>; break;
    }
  });
  return kernel;
}

PairKernel pair_kernel(int b, int a_rows, int c_rows, PairMethod method) {
  const auto fits = [](int rows) { return rows >= 1 && rows <= 6; };
  if (!fits(b) || !fits(a_rows) || !fits(c_rows)) return nullptr;
  switch (method) {
    case PairMethod::Ldu: return ldu_pair_kernel(b, a_rows, c_rows);
    case PairMethod::Ldlt: return ldlt_pair_kernel(b, a_rows, c_rows);
    case PairMethod::Llt: return llt_pair_kernel(b, a_rows, c_rows);
  }
  return nullptr;
}

#else  // no wide kernels in this build: enabled() is false, so none is called

double gauss_jordan(int, double*, int, double, double) { std::abort(); }
double cholesky(int, double*, int, double, double) { std::abort(); }
void update_columns(int, int, const double*, const double*, long, double, double*, long, int) { std::abort(); }
const ProductTable minus_products{};  // null: never read while enabled() is false
void negate_product_in_place(int, int, const double*, double*) { std::abort(); }
void negate_strip_transposed(int, const double*, double*, int, double*, int, bool) { std::abort(); }
void edge_ldu(int, int, const double*, double*, const double*, double*, double*) { std::abort(); }
const CopyTable checked_copies{};  // null: never read while enabled() is false
void edge_symmetric(int, int, const double*, double*, double*, bool, double*) { std::abort(); }
PairKernel pair_kernel(int, int, int, PairMethod) { return nullptr; }
EdgeKernel edge_kernel(int, int, PairMethod) { return nullptr; }
const FrontKernels& front_kernels(int) {
  static constexpr FrontKernels none{};
  return none;
}

#endif

}  // namespace graphsolve::kernels::wide
