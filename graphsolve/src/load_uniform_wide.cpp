// The uniform load of load_uniform.cpp for nodes of 5 and 6 rows, in the
// wide kernels' vectors (AVX2 + FMA, run only where kernels::wide::enabled()):
// a column is two vectors of four, built, checked, measured and stored in
// registers. Through the general path's calls and dispatch a 6x6 chain's
// node took about 540 instructions to load; its portable twin written like
// the one for smaller blocks was slower still.
//
// The mixed load does the same for a node of 2 to 6 rows whose later
// neighbours have other sizes, as bodies and joints do in a saddle-point
// system: one switch per coupling on its size, then the same vector code.
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
// v[j - first] += add where lanes first..first+3 hold j; the others untouched.
GS_WIDE_INLINE WideVector add_to_lane(WideVector v, int j, long long first, double add) {
  const __m256i lanes = _mm256_setr_epi64x(first, first + 1, first + 2, first + 3);
  const __m256d mine = _mm256_castsi256_pd(_mm256_cmpeq_epi64(lanes, _mm256_set1_epi64x(j)));
  const __m256d x = reinterpret_cast<__m256d>(v);
  return reinterpret_cast<WideVector>(_mm256_blendv_pd(x, _mm256_add_pd(x, _mm256_set1_pd(add)), mine));
}
// c[j] += shift in registers, the other entries untouched: a lane written
// through memory (vectors::set) is read back as a whole vector before its
// store retires, which the processor cannot forward.
GS_WIDE_INLINE void add_to_entry(WideColumn& c, int j, double shift) {
  c.lo = add_to_lane(c.lo, j, 0, shift);
  c.hi = add_to_lane(c.hi, j, 4, shift);
}
// Row j of a contiguous B x R block (B rows) as a column of R rows.
template <int B, int R>
GS_WIDE_INLINE WideColumn wide_row(const double* block, int j) {
  WideColumn c{};
  for (int i = 0; i < R; ++i) kernels::wide::vectors::set(c, i, block[j + i * B]);
  return c;
}

// Node k's B x B diagonal block from `src` to `dk` (the lower triangle
// mirrored for the symmetric methods), checked into `checks`, shifted; its
// row magnitudes go to `rows_out`. The shift goes on each column's diagonal
// entry in registers: added to the stored block and read back for the
// magnitudes, each column waited on its own store (a wide read of a narrow
// store is not forwarded), 40% of a joint's load in the simulator, whose
// constraint nodes all carry one.
template <int B, bool kSymmetric, bool kShifted>
GS_WIDE_INLINE void wide_load_diagonal_as(const double* src, double* dk, double shift, double* rows_out,
                                          WideColumn& checks) {
  WideColumn rows{};
  for (int j = 0; j < B; ++j) {
    WideColumn c = wide_column_at<B>(src + j * B);
    add_poison(checks, c);
    if constexpr (kSymmetric)  // the lower triangle, mirrored
      for (int i = 0; i < j; ++i) kernels::wide::vectors::set(c, i, src[j + i * B]);
    if constexpr (kShifted) add_to_entry(c, j, shift);
    wide_put_column<B>(dk + j * B, c);
    widen_rows(rows, c);
  }
  wide_put_column<B>(rows_out, rows);
}
template <int B, bool kSymmetric>
GS_WIDE_INLINE void wide_load_diagonal(const double* src, double* dk, double shift, double* rows_out,
                                       WideColumn& checks) {
  // Without a shift the loop has no addition: x + 0 would turn a -0 into +0.
  if (shift != 0.0) wide_load_diagonal_as<B, kSymmetric, true>(src, dk, shift, rows_out, checks);
  else wide_load_diagonal_as<B, kSymmetric, false>(src, dk, shift, rows_out, checks);
}

// The coupling of node k (B rows) with a later neighbour of R rows: the R x B
// block below (leading dimension ldl) and, for LDU, the B x R block beside
// (leading dimension B); zeros for fill. Active values read are checked.
// (Source: Impl's private EntrySource.)
template <int B, int R, bool kSymmetric, class Source>
GS_WIDE_INLINE void wide_load_coupling(const double* a, const Source& s, double* low, int ldl, double* up,
                                       WideColumn& checks) {
  if (s.later_k < 0) {  // fill
    for (int j = 0; j < B; ++j) wide_put_column<R>(low + j * ldl, WideColumn{});
    if constexpr (!kSymmetric)
      for (int j = 0; j < R; ++j) wide_put_column<B>(up + j * B, WideColumn{});
    return;
  }
  const double* later_k = a + s.later_k;  // A_{later, k}: R x B, contiguous
  const double* k_later = a + s.k_later;  // A_{k, later}: B x R, contiguous
  // Both blocks in one loop where they are square (the uniform loads' code
  // from before mixed sizes); the two loops below compute the same.
  if constexpr (R == B) {
    for (int j = 0; j < B; ++j) {
      const WideColumn lk = wide_column_at<B>(later_k + j * B), kl = wide_column_at<B>(k_later + j * B);
      add_poison(checks, lk);
      add_poison(checks, kl);
      if constexpr (kSymmetric) {  // A_{later, k} is the lower block by id, or A_{k, later}'s transpose
        wide_put_column<B>(low + j * ldl, s.k_smaller_id ? lk : wide_row<B, B>(k_later, j));
      } else {
        wide_put_column<B>(low + j * ldl, lk);
        wide_put_column<B>(up + j * B, kl);
      }
    }
    return;
  }
  for (int j = 0; j < B; ++j) {
    const WideColumn lk = wide_column_at<R>(later_k + j * R);
    add_poison(checks, lk);
    if constexpr (kSymmetric)  // A_{later, k} is the lower block by id, or A_{k, later}'s transpose
      wide_put_column<R>(low + j * ldl, s.k_smaller_id ? lk : wide_row<B, R>(k_later, j));
    else
      wide_put_column<R>(low + j * ldl, lk);
  }
  for (int j = 0; j < R; ++j) {
    const WideColumn kl = wide_column_at<B>(k_later + j * B);
    add_poison(checks, kl);
    if constexpr (!kSymmetric) wide_put_column<B>(up + j * B, kl);
  }
}

GS_WIDE_INLINE double poison_of(const WideColumn& checks) {
  WideVector total = checks.lo + checks.hi;
  return total[0] + total[1] + total[2] + total[3];
}
}  // namespace

// Node k's load: its later neighbours all of its B rows (5 or 6), or, when
// kMixed, of 1 to 6 rows in any mix (bodies and joints), with one switch per
// coupling on the neighbour's size.
template <int B, bool kSymmetric, bool kMixed>
GS_WIDE bool Factorization::Impl::load_wide(int k, const BlockMatrix& matrix, const FactorOptions& options,
                                            double& poison) {
  static_assert(kMixed ? B >= 2 && B <= kMaxMixedLoad : B == 5 || B == 6, "columns of at most two vectors");
  const double* a = matrix.values();
  if (!active_with_later_neighbours(k, matrix.activity().data())) return false;
  WideColumn checks{};
  wide_load_diagonal<B, kSymmetric>(a + diag_source[k], diag(k), diagonal_shift(options, d->pattern->kind[d->order[k]]),
                                    magnitudes(k), checks);
  const int ldl = lower_ld(k);
  for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
    const EntrySource& s = entry_source[e];
    double* low = lower(k, e);
    double* up = kSymmetric ? nullptr : upper(k, e);
    if constexpr (!kMixed) {
      wide_load_coupling<B, B, kSymmetric>(a, s, low, ldl, up, checks);
    } else {
      switch (size(d->struct_pos[e])) {
        case 1: wide_load_coupling<B, 1, kSymmetric>(a, s, low, ldl, up, checks); break;
        case 2: wide_load_coupling<B, 2, kSymmetric>(a, s, low, ldl, up, checks); break;
        case 3: wide_load_coupling<B, 3, kSymmetric>(a, s, low, ldl, up, checks); break;
        case 4: wide_load_coupling<B, 4, kSymmetric>(a, s, low, ldl, up, checks); break;
        case 5: wide_load_coupling<B, 5, kSymmetric>(a, s, low, ldl, up, checks); break;
        default: wide_load_coupling<B, 6, kSymmetric>(a, s, low, ldl, up, checks); break;  // find_load_kinds: <= 6
      }
    }
  }
  active[k] = 1;
  poison = poison_of(checks);
  return true;
}

bool Factorization::Impl::load_mixed(int k, const BlockMatrix& matrix, const FactorOptions& options, double& poison) {
  const bool symmetric = method != Method::LDU;
  switch (size(k)) {
    case 2: return symmetric ? load_wide<2, true, true>(k, matrix, options, poison)
                             : load_wide<2, false, true>(k, matrix, options, poison);
    case 3: return symmetric ? load_wide<3, true, true>(k, matrix, options, poison)
                             : load_wide<3, false, true>(k, matrix, options, poison);
    case 4: return symmetric ? load_wide<4, true, true>(k, matrix, options, poison)
                             : load_wide<4, false, true>(k, matrix, options, poison);
    case 5: return symmetric ? load_wide<5, true, true>(k, matrix, options, poison)
                             : load_wide<5, false, true>(k, matrix, options, poison);
    case 6: return symmetric ? load_wide<6, true, true>(k, matrix, options, poison)
                             : load_wide<6, false, true>(k, matrix, options, poison);
    default: return false;
  }
}

template bool Factorization::Impl::load_wide<5, false, false>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<5, true, false>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<6, false, false>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<6, true, false>(int, const BlockMatrix&, const FactorOptions&, double&);

template bool Factorization::Impl::load_wide<2, false, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<2, true, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<3, false, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<3, true, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<4, false, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<4, true, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<5, false, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<5, true, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<6, false, true>(int, const BlockMatrix&, const FactorOptions&, double&);
template bool Factorization::Impl::load_wide<6, true, true>(int, const BlockMatrix&, const FactorOptions&, double&);

}  // namespace graphsolve

#endif
