// The load of a node of 2 to 4 rows whose later neighbours all have its
// size B, in the usual case: the node and those neighbours active, column
// magnitudes not tracked. It does what load_sized does there (the same
// values, bit for bit), with every block size a compile-time constant, each
// column built in registers, and none of the general path's dispatch and
// branches per block. Nodes of mixed sizes (bodies and joints) load in the
// wide kernels' vectors only (load_uniform_wide.cpp).
#include <type_traits>

#include "factor_storage.hpp"

namespace graphsolve {

namespace {
// Blocks of 5 and 6 rows load in the wide kernels' vectors
// (load_uniform_wide.cpp), or take the general path: in SSE2 this one made
// 6x6 chains 5-20% slower than that path's wide copies.
constexpr int kMaxUniformLoad = 6;

template <int B>
using FixedColumn = Eigen::Array<double, B, 1>;
template <int B>
using FixedSquare = Eigen::Array<double, B * B, 1>;

// Sum of 0 * value over a contiguous B x B block: NaN if any value is not finite.
template <int B>
inline FixedSquare<B> fixed_poison(const double* block) {
  return Eigen::Map<const FixedSquare<B>>(block) * 0.0;
}
}  // namespace

void Factorization::Impl::find_load_kinds() {
  const int n = static_cast<int>(d->order.size());
  load_kind.assign(n, kGeneralLoad);
  for (int k = 0; k < n; ++k) {
    bool uniform = size(k) >= 2 && size(k) <= kMaxUniformLoad, mixed = size(k) >= 2 && size(k) <= kMaxMixedLoad;
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
      const int later = size(d->struct_pos[e]);
      uniform = uniform && later == size(k);
      mixed = mixed && later >= 1 && later <= kMaxMixedLoad;
    }
    load_kind[k] = uniform ? kUniformLoad : mixed ? kMixedLoad : kGeneralLoad;
  }
}

template <int B, bool kSymmetric>
bool Factorization::Impl::load_uniform_sized(int k, const BlockMatrix& matrix, const FactorOptions& options,
                                             double& poison) {
  const double* a = matrix.values();
  if (!active_with_later_neighbours(k, matrix.activity().data())) return false;
  const NodeId node = d->order[k];
  const int begin = d->struct_begin[k], end = d->struct_begin[k + 1];
  active[k] = 1;
  const double* src = a + diag_source[k];
  double* dk = diag(k);
  FixedSquare<B> checks = fixed_poison<B>(src);
  // Each column built in registers, shifted there and stored; the row
  // magnitudes are taken from the registers rather than read back from the
  // stores (a shift added to the stored block and read back waited on them).
  const double shift = diagonal_shift(options, d->pattern->kind[node]);
  const auto load_columns = [&](auto shifted) {
    FixedColumn<B> rows = FixedColumn<B>::Zero();
    for (int j = 0; j < B; ++j) {
      FixedColumn<B> c;
      if constexpr (kSymmetric) {  // the lower triangle, mirrored
        for (int i = 0; i < B; ++i) c[i] = src[i >= j ? i + j * B : j + i * B];
      } else {
        c = Eigen::Map<const FixedColumn<B>>(src + j * B);
      }
      if constexpr (decltype(shifted)::value) c[j] += shift;
      Eigen::Map<FixedColumn<B>>{dk + j * B} = c;
      rows = rows.max(c.abs());
    }
    return rows;
  };
  // Without a shift no addition: x + 0 would turn a -0 into +0.
  const FixedColumn<B> rows = shift != 0.0 ? load_columns(std::true_type{}) : load_columns(std::false_type{});
  Eigen::Map<FixedColumn<B>>{magnitudes(k)} = rows;
  const int ldl = lower_ld(k);
  for (int e = begin; e < end; ++e) {
    const EntrySource& s = entry_source[e];
    double* low = lower(k, e);
    if (s.later_k < 0) {  // fill
      for (int j = 0; j < B; ++j) Eigen::Map<FixedColumn<B>>{low + j * ldl} = FixedColumn<B>::Zero();
      if constexpr (!kSymmetric) Eigen::Map<FixedSquare<B>>{upper(k, e)} = FixedSquare<B>::Zero();
      continue;
    }
    const double* later_k = a + s.later_k;  // A_{later, k}, contiguous
    const double* k_later = a + s.k_later;  // A_{k, later}, contiguous
    checks += fixed_poison<B>(later_k) + fixed_poison<B>(k_later);
    if (kSymmetric && !s.k_smaller_id) {  // A_{later, k} is stored as A_{k, later}'s transpose
      for (int j = 0; j < B; ++j) {
        FixedColumn<B> c;
        for (int i = 0; i < B; ++i) c[i] = k_later[j + i * B];
        Eigen::Map<FixedColumn<B>>{low + j * ldl} = c;
      }
    } else {
      for (int j = 0; j < B; ++j) Eigen::Map<FixedColumn<B>>{low + j * ldl} = Eigen::Map<const FixedColumn<B>>(later_k + j * B);
    }
    if constexpr (!kSymmetric) Eigen::Map<FixedSquare<B>>{upper(k, e)} = Eigen::Map<const FixedSquare<B>>(k_later);
  }
  poison = checks.sum();
  return true;
}

bool Factorization::Impl::load_uniform(int k, const BlockMatrix& matrix, const FactorOptions& options,
                                       double& poison) {
#ifdef GS_HAS_WIDE_KERNELS
  const bool wide = kernels::wide::enabled();
  if (load_kind[k] == kMixedLoad) return wide && load_mixed(k, matrix, options, poison);
#else
  const bool wide = false;
  if (load_kind[k] == kMixedLoad) return false;
#endif
  if (method == Method::LDU) {
    switch (size(k)) {
      case 2: return load_uniform_sized<2, false>(k, matrix, options, poison);
      case 3: return load_uniform_sized<3, false>(k, matrix, options, poison);
      case 4: return load_uniform_sized<4, false>(k, matrix, options, poison);
#ifdef GS_HAS_WIDE_KERNELS
      case 5: return wide && load_wide<5, false, false>(k, matrix, options, poison);
      case 6: return wide && load_wide<6, false, false>(k, matrix, options, poison);
#endif
      default: return false;
    }
  }
  switch (size(k)) {
    case 2: return load_uniform_sized<2, true>(k, matrix, options, poison);
    case 3: return load_uniform_sized<3, true>(k, matrix, options, poison);
    case 4: return load_uniform_sized<4, true>(k, matrix, options, poison);
#ifdef GS_HAS_WIDE_KERNELS
    case 5: return wide && load_wide<5, true, false>(k, matrix, options, poison);
    case 6: return wide && load_wide<6, true, false>(k, matrix, options, poison);
#endif
    default: return false;
  }
}

}  // namespace graphsolve
