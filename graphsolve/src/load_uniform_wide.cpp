// The uniform load of load_uniform.cpp for nodes of 5 and 6 rows, in the
// wide kernels' vectors (AVX2 + FMA, run only where kernels::wide::enabled()):
// a column is two vectors of four, built, checked, measured and stored in
// registers. Through the general path's calls and dispatch a 6x6 chain's
// node took about 540 instructions to load; its portable twin written like
// the one for smaller blocks was slower still.
#include "factor_storage.hpp"

#ifdef GS_HAS_WIDE_KERNELS
#include "wide_vectors.hpp"

namespace graphsolve {

namespace {
using WideColumn = kernels::wide::vectors::Column;
using WideVector = kernels::wide::vectors::V4;

// The vectors' load and store, under names Impl's members do not hide.
template <int B>
GS_WIDE_INLINE WideColumn wide_column_at(const double* p) {
  return kernels::wide::vectors::load<B>(p);
}
template <int B>
GS_WIDE_INLINE void wide_put_column(double* p, const WideColumn& c) {
  kernels::wide::vectors::store<B>(p, c);
}

GS_WIDE_INLINE WideVector wide_magnitude(WideVector v) {
  return reinterpret_cast<WideVector>(_mm256_andnot_pd(_mm256_set1_pd(-0.0), v));
}
GS_WIDE_INLINE WideVector wide_larger(WideVector a, WideVector b) {
  return reinterpret_cast<WideVector>(_mm256_max_pd(a, b));
}

// rows = max(rows, |c|), as kernels::widen_row_magnitudes does per column.
GS_WIDE_INLINE void widen_rows(WideColumn& rows, const WideColumn& c) {
  rows.lo = wide_larger(rows.lo, wide_magnitude(c.lo));
  rows.hi = wide_larger(rows.hi, wide_magnitude(c.hi));
}
// checks += 0 * c: NaN once any value is not finite.
GS_WIDE_INLINE void add_poison(WideColumn& checks, const WideColumn& c) {
  checks.lo += c.lo * 0.0;
  checks.hi += c.hi * 0.0;
}
// Row j of a contiguous B x B block as a column.
template <int B>
GS_WIDE_INLINE WideColumn wide_row(const double* block, int j) {
  WideColumn c{};
  c.lo = WideVector{block[j], block[j + B], block[j + 2 * B], block[j + 3 * B]};
  c.hi = WideVector{block[j + 4 * B], B > 5 ? block[j + 5 * B] : 0.0, 0.0, 0.0};
  return c;
}
}  // namespace

template <int B, bool kSymmetric>
GS_WIDE bool Factorization::Impl::load_uniform_wide(int k, const BlockMatrix& matrix, const FactorOptions& options,
                                                    double& poison) {
  static_assert(B == 5 || B == 6, "two vectors per column, the second partly used");
  const double* a = matrix.values();
  if (!active_with_later_neighbours(k, matrix.activity().data())) return false;
  const NodeId node = d->order[k];
  const int begin = d->struct_begin[k], end = d->struct_begin[k + 1];
  const double* src = a + diag_source[k];
  double* dk = diag(k);
  WideColumn checks{}, rows{};
  for (int j = 0; j < B; ++j) {
    WideColumn c = wide_column_at<B>(src + j * B);
    add_poison(checks, c);
    if constexpr (kSymmetric)  // the lower triangle, mirrored
      for (int i = 0; i < j; ++i) kernels::wide::vectors::set(c, i, src[j + i * B]);
    wide_put_column<B>(dk + j * B, c);
    widen_rows(rows, c);
  }
  if (const double shift = diagonal_shift(options, d->pattern->kind[node]); shift != 0.0) {
    rows = WideColumn{};
    for (int j = 0; j < B; ++j) {
      dk[j + j * B] += shift;
      widen_rows(rows, wide_column_at<B>(dk + j * B));
    }
  }
  wide_put_column<B>(magnitudes(k), rows);
  const int ldl = lower_ld(k);
  for (int e = begin; e < end; ++e) {
    const EntrySource& s = entry_source[e];
    double* low = lower(k, e);
    double* up = kSymmetric ? nullptr : upper(k, e);
    if (s.later_k < 0) {  // fill
      for (int j = 0; j < B; ++j) {
        wide_put_column<B>(low + j * ldl, WideColumn{});
        if constexpr (!kSymmetric) wide_put_column<B>(up + j * B, WideColumn{});
      }
      continue;
    }
    const double* later_k = a + s.later_k;  // A_{later, k}, contiguous
    const double* k_later = a + s.k_later;  // A_{k, later}, contiguous
    for (int j = 0; j < B; ++j) {
      const WideColumn lk = wide_column_at<B>(later_k + j * B), kl = wide_column_at<B>(k_later + j * B);
      add_poison(checks, lk);
      add_poison(checks, kl);
      if constexpr (kSymmetric) {  // A_{later, k} is the lower block by id, or A_{k, later}'s transpose
        wide_put_column<B>(low + j * ldl, s.k_smaller_id ? lk : wide_row<B>(k_later, j));
      } else {
        wide_put_column<B>(low + j * ldl, lk);
        wide_put_column<B>(up + j * B, kl);
      }
    }
  }
  active[k] = 1;
  WideVector total = checks.lo + checks.hi;
  poison = total[0] + total[1] + total[2] + total[3];
  return true;
}

template bool Factorization::Impl::load_uniform_wide<5, false>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_uniform_wide<5, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_uniform_wide<6, false>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_uniform_wide<6, true>(int, const BlockMatrix&, const FactorOptions&, double&);

}  // namespace graphsolve

#endif
