// Numeric factorization: right-looking block elimination over the analysed
// order. For pivot k with later neighbours S(k), with P_k = -D_k^{-1} stored
// in place of D_k:
//   LDU : U_kj <- D_k^{-1} A_kj; keep A_jk; A_ij -= A_ik U_kj for i, j in S(k).
//   LDLT: L_jk <- A_jk D_k^{-1};            A_ij -= L_ik A_jk^T for i >= j.
//   LLT : D_k = C C^T; L_jk <- A_jk C^{-T};  A_ij -= L_ik L_jk^T for i >= j.
// S(k) is a subset of S(a) for every earlier-sorted a in S(k) (elimination
// tree property), so every target block is found by one forward scan.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "arena_layout.hpp"
#include "factor_storage.hpp"
#include "value_count_text.hpp"
#include "wide_kernels.hpp"

namespace graphsolve {

namespace kn = kernels;

namespace {
// checked_columns for a block of fixed sizes that is contiguous on both
// sides: one vector of R C values, where the column loop handles 3 rows at
// a time.
// Inlined: out of line, the 3x3 copies were a call each.
template <bool copy_too, class Rows, class Columns>
inline __attribute__((always_inline)) double checked_block(Rows m, Columns n, const double* a, int lda, double* c,
                                                           int ldc) {
  if constexpr (copy_too && kn::is_fixed_height<Rows> && kn::is_fixed_height<Columns>)
    if (m >= 5 && kn::wide::enabled()) return kn::wide::checked_copies[m - 1][n - 1](a, lda, c, ldc);
  if constexpr (kn::is_fixed_height<Rows> && kn::is_fixed_height<Columns>) {
    using Values = Eigen::Array<double, Rows::value * Columns::value, 1>;
    if (lda == m && (!copy_too || ldc == m)) {
      const Eigen::Map<const Values> source(a);
      if constexpr (copy_too) Eigen::Map<Values>{c} = source;
      return (source * 0.0).sum();
    }
  } else if (lda == m && (!copy_too || ldc == m)) {
    // Contiguous blocks of run-time size as one column: no loop per column.
    return kn::checked_contiguous<copy_too>(static_cast<long>(m) * n, a, c);
  }
  return kn::checked_columns<copy_too>(m, n, a, lda, c, ldc);
}

// Zeroes a fill or inactive coupling block; of fixed size when both sizes
// are, unrolled in place of a call that dispatches on its height.
template <class Rows, class Columns>
inline __attribute__((always_inline)) void zero_block(Rows m, Columns n, double* c, int ldc) {
  if constexpr (kn::is_fixed_height<Rows> && kn::is_fixed_height<Columns>) {
    kn::zero_columns(m, n, c, ldc);
  } else {
    kn::set_zero(m, n, c, ldc);
  }
}

// The pivot ratio lies in [0, 1], so a tolerance outside it (or NaN) is a
// mistake that would otherwise show up as every pivot being "singular".
bool valid(const FactorOptions& options) {
  return std::isfinite(options.shift) && std::isfinite(options.constraint_shift) &&
         options.pivot_tolerance >= 0.0 && options.pivot_tolerance <= 1.0;
}

// The factor's values, plus the dense workspace of blocks above kMaxFixed
// rows, which dominate where such blocks exist.
std::string out_of_memory_message(const detail::SymbolicData& d, Method method, long factor_values) {
  double needed = static_cast<double>(factor_values);
  for (int size : d.size)
    if (size > kn::kMaxFixed) needed += static_cast<double>(size) * size;
  return std::string("graphsolve::Factorization: out of memory for the ") + to_string(method) + " factor's " +
         detail::value_count_text(needed) + " on " + std::to_string(d.order.size()) + " nodes (" +
         to_string(d.stats.ordering) + " ordering, " + std::to_string(d.stats.fill_blocks) + " fill blocks)";
}
}  // namespace

Factorization::Impl::Impl(const Symbolic& s, Method m) : symbolic(s), d(&s.data()), method(m) {
  for (int b = 0; b <= kn::kMaxFixed; ++b) small_pivots[b] = kn::small_pivot_kernel(b, method == Method::LLT);
  const int n = static_cast<int>(d->order.size());
  diag_off.resize(n);
  upper_off.resize(n);
  lower_off.resize(n);
  long total = 0;
  for (int k = 0; k < n; ++k) {
    const long b = d->size[k], w = d->width[k];
    diag_off[k] = total;
    total += b * b;
    lower_off[k] = total;
    total += w * b;
    upper_off[k] = total;
    if (method == Method::LDU) total += b * w;
  }
  try {
    allocate_storage(total);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(out_of_memory_message(*d, method, total));
  }
}

// Everything sized by the analysis: the factor's values, the schedules, the
// magnitudes, the dense pivots of large blocks and the solve's workspace.
void Factorization::Impl::allocate_storage(long factor_values) {
  const int n = static_cast<int>(d->order.size());
  values.assign(factor_values, 0.0);
  prefetching = factor_values * static_cast<long>(sizeof(double)) > kPrefetchAboveBytes;
  build_entry_sources();
  build_load_schedule();
  plan_panels();
  find_pairs();
  find_fronts();
  active.assign(n, 1);
  find_load_kinds();
  row_magnitude.assign(d->pattern->dimension, 0.0);
  if (method == Method::LDU) column_magnitude.assign(d->pattern->dimension, 0.0);
  magnitude_off.assign(n, 0);
  for (int k = 1; k < n; ++k) magnitude_off[k] = magnitude_off[k - 1] + d->size[k - 1];
  row_off.resize(n);
  for (int k = 0; k < n; ++k) row_off[k] = d->pattern->offset[d->order[k]];
  const int largest = d->size.empty() ? 0 : *std::max_element(d->size.begin(), d->size.end());
  all_scalar = n > 0 && largest == 1 && *std::min_element(d->size.begin(), d->size.end()) == 1;
  if (largest > kn::kMaxFixed) {
    large_pivot_work.assign(static_cast<std::size_t>(kn::large_pivot_work_size(largest)), 0.0);
    large_pivot_rows.assign(largest, 0);
  }
  scratch.assign(std::max(1L, d->max_panel), 0.0);
  rhs_scratch.resize(std::max(1, d->max_size), kRhsChunk);
  residual.resize(d->pattern->dimension);
  correction.resize(d->pattern->dimension);
  kept_rhs.resize(d->pattern->dimension);
  plan_vector_solve();
}

void Factorization::Impl::build_entry_sources() {
  const Pattern& p = *d->pattern;
  const detail::ArenaLayout layout = detail::arena_layout(p);
  const int n = static_cast<int>(d->order.size());
  diag_source.resize(n);
  for (int k = 0; k < n; ++k) diag_source[k] = layout.diag[d->order[k]];
  entry_source.assign(d->struct_pos.size(), EntrySource{});
  for (std::size_t e = 0; e < entry_source.size(); ++e) entry_source[e].later_node = d->order[d->struct_pos[e]];
  for (int edge = 0; edge < p.num_edges; ++edge) {
    // The edge's entry is in the list of its end eliminated first, k; the
    // other end is the later neighbour, the edge's second if k has the smaller id.
    EntrySource& s = entry_source[d->edge_entry[edge]];
    s.k_smaller_id = p.edges[edge].second == s.later_node;
    s.later_k = s.k_smaller_id ? layout.lower[edge] : layout.upper[edge];
    s.k_later = s.k_smaller_id ? layout.upper[edge] : layout.lower[edge];
  }
}

// A node is loaded by the first pivot whose later neighbours include it, the
// smallest such k; a node no pivot touches loads itself.
void Factorization::Impl::build_load_schedule() {
  const int n = static_cast<int>(d->order.size());
  std::vector<int> toucher(n, -1);
  for (int k = 0; k < n; ++k)
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e)
      if (toucher[d->struct_pos[e]] < 0) toucher[d->struct_pos[e]] = k;
  loads_itself.assign(n, 0);
  first_touch_begin.assign(n + 1, 0);
  for (int a = 0; a < n; ++a) {
    if (toucher[a] < 0)
      loads_itself[a] = 1;
    else
      ++first_touch_begin[toucher[a] + 1];
  }
  for (int k = 0; k < n; ++k) first_touch_begin[k + 1] += first_touch_begin[k];
  first_touched.resize(first_touch_begin[n]);
  std::vector<int> next = first_touch_begin;
  for (int a = 0; a < n; ++a)
    if (toucher[a] >= 0) first_touched[next[toucher[a]]++] = a;
}

// Loads interleave with the elimination, where the hardware prefetchers
// fall behind on large systems: fetch the values of a later position early.
// GCC counts prefetches as free of side effects: once it may see this body
// from the caller (-fno-semantic-interposition), it deletes the whole call,
// which cost the 10000-node 6x6 systems 10-25%. The empty volatile asm at
// the end is a side effect that keeps it.
void Factorization::Impl::prefetch(int k, const BlockMatrix& matrix) const {
  const double* a = matrix.values();
  auto lines = [](const double* p, long count) {  // every 64-byte line of count values
    for (long i = 0; i < count; i += 8) __builtin_prefetch(p + i);
    if (count > 0) __builtin_prefetch(p + count - 1);
  };
  const int b = d->size[k];
  lines(a + diag_source[k], static_cast<long>(b) * b);
  for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
    const EntrySource& s = entry_source[e];
    if (s.later_k < 0) continue;
    const long count = static_cast<long>(b) * d->size[d->struct_pos[e]];
    lines(a + s.later_k, count);
    lines(a + s.k_later, count);
  }
  asm volatile("");
}

double Factorization::Impl::load(int k, const BlockMatrix& matrix, const FactorOptions& options) {
  if (prefetching && k + kPrefetchAhead < static_cast<int>(d->order.size())) prefetch(k + kPrefetchAhead, matrix);
  if (double poison; load_kind[k] != kGeneralLoad && !tracking_columns && load_uniform(k, matrix, options, poison))
    return poison;
  return kn::with_height(size(k), [&](auto b) { return load_sized(b, k, matrix, options); });
}

// The sizes of the blocks are compile-time constants up to kMaxFixed (B and
// the neighbour's, through with_height), so a node of small blocks loads
// without a call or a run-time loop per block: on scalar and 3x3 chains the
// loads were a third of a refactorization.
template <class Size>
double Factorization::Impl::load_sized(Size b, int k, const BlockMatrix& matrix, const FactorOptions& options) {
  const Pattern& p = *d->pattern;
  const double* a = matrix.values();
  const bool symmetric = method != Method::LDU;
  const NodeId node = d->order[k];
  const char* activity = matrix.activity().data();
  active[k] = activity[node];
  double* dk = diag(k);
  double poison = 0.0;
  if (active[k]) {
    const double* src = a + diag_source[k];
    if (symmetric) {  // mirror the lower triangle; the upper one is checked all the same
      poison = checked_block<false>(b, b, src, b, nullptr, 0);
      constexpr int kFixed = [] {
        if constexpr (kn::is_fixed_height<Size>) return Size::value;
        return 0;
      }();
      if constexpr (kFixed >= 1 && kFixed <= 4) {
        // Whole columns, built in registers: the row magnitudes below read
        // them back as such, where the scalar stores of a mirroring loop
        // could not be forwarded to those reads (3x3 ladders 3-5% faster;
        // 6x6 blocks the same or up to 1.5% slower, so they keep the loop).
        using Column = Eigen::Matrix<double, kFixed, 1>;
        for (int j = 0; j < b; ++j) {
          Column c;
          for (int i = 0; i < b; ++i) c[i] = src[i >= j ? i + j * b : j + i * b];
          Eigen::Map<Column>(dk + j * b) = c;
        }
      } else {
        for (int j = 0; j < b; ++j)
          for (int i = j; i < b; ++i) dk[i + j * b] = dk[j + i * b] = src[i + j * b];
      }
    } else {
      poison = checked_block<true>(b, b, src, b, dk, b);
    }
    const double shift = diagonal_shift(options, p.kind[node]);
    if (shift != 0.0)
      for (int i = 0; i < b; ++i) dk[i + i * b] += shift;
    double* rows = magnitudes(k);
    std::fill(rows, rows + b, 0.0);
    // An unshifted LDU block is its source, bit for bit: read from there, the
    // row magnitudes do not wait on the copy's stores (a read of the copy
    // that spans two of them cannot be forwarded from either: 2-4% of a 3x3
    // chain's refactorization). The symmetric methods read their mirrored copy.
    widen_row_magnitudes(b, shift == 0.0 && !symmetric ? src : dk, rows);
    if (tracking_columns) std::fill(column_magnitudes(k), column_magnitudes(k) + b, 0.0);
    widen_columns(k);
  } else {
    for (int i = 0; i < b * b; ++i) dk[i] = 0.0;
    for (int i = 0; i < b; ++i) dk[i + i * b] = 1.0;
    std::fill(magnitudes(k), magnitudes(k) + b, 1.0);
    if (tracking_columns) std::fill(column_magnitudes(k), column_magnitudes(k) + b, 1.0);
  }
  // The panels: A_jk below and (LDU) A_kj beside, for every later neighbour j.
  const int ldl = lower_ld(k), ldu = upper_ld(k);
  for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
    const int later = d->struct_pos[e];
    double* low = lower(k, e);
    double* up = symmetric ? nullptr : upper(k, e);
    const EntrySource& s = entry_source[e];
    const bool zero = s.later_k < 0 || !active[k] || !activity[s.later_node];
    const double* later_k = zero ? nullptr : a + s.later_k;  // A_{later, k}: bl x b, contiguous
    const double* k_later = zero ? nullptr : a + s.k_later;  // A_{k, later}: b x bl
    poison += kn::with_height(size(later), [&](auto bl) {
      if (zero) {
        zero_block(bl, b, low, ldl);
        if (up) zero_block(b, bl, up, ldu);
        return 0.0;
      }
      if (symmetric) {  // reads the lower triangle by id; checks both blocks
        if (s.k_smaller_id) return checked_block<false>(b, bl, k_later, b, nullptr, 0) +
                                   checked_block<true>(bl, b, later_k, bl, low, ldl);
        for (int j = 0; j < b; ++j)
          for (int i = 0; i < bl; ++i) low[i + j * ldl] = k_later[j + i * b];
        return checked_block<false>(bl, b, later_k, bl, nullptr, 0) +
               checked_block<false>(b, bl, k_later, b, nullptr, 0);
      }
      return checked_block<true>(bl, b, later_k, bl, low, ldl) + checked_block<true>(b, bl, k_later, b, up, ldu);
    });
  }
  return poison;
}

double Factorization::Impl::load_first_touched_by(int k, const BlockMatrix& matrix, const FactorOptions& options) {
  double poison = 0.0;
  for (int i = first_touch_begin[k]; i < first_touch_begin[k + 1]; ++i) poison += load(first_touched[i], matrix, options);
  return poison;
}

// Pivot k's only later neighbour when that is a small forest edge outside any
// panel, else -1: such a pivot takes one fixed-size kernel (which widens only
// the row magnitudes).
int Factorization::Impl::single_small_neighbour(int k) const {
  const int e = d->struct_begin[k];
  if (d->struct_begin[k + 1] != e + 1 || panel_end[k] >= 0 || tracking_columns) return -1;
  const int a = d->struct_pos[e];
  return active[a] && kn::fuses_edge(size(k), size(a)) ? a : -1;
}

void Factorization::Impl::find_pairs() {
  const int n = static_cast<int>(d->order.size());
  using kn::wide::PairMethod;
  const PairMethod pair_method =
      method == Method::LDU ? PairMethod::Ldu : method == Method::LDLT ? PairMethod::Ldlt : PairMethod::Llt;
  pairs.clear();
  edges.clear();
  pair_of.assign(n, -1);
  edge_of.assign(n, -1);
  for (int k = 0; k < n; ++k) {
    const int e = d->struct_begin[k];
    const auto offset = [&](const double* block) { return block - values.data(); };
    if (d->struct_begin[k + 1] == e + 1 && panel_end[k] < 0) {
      const int a = d->struct_pos[e];
      if (const kn::wide::EdgeKernel kernel = kn::wide::edge_kernel(size(k), size(a), pair_method)) {
        edge_of[k] = static_cast<int>(edges.size());
        edges.push_back({kernel, a, diag_off[k], offset(upper(k, e)), offset(lower(k, e)), diag_off[a]});
      }
    }
    if (d->struct_begin[k + 1] != e + 2 || panel_end[k] >= 0) continue;
    const int a = d->struct_pos[e], c = d->struct_pos[e + 1];
    if (const kn::wide::PairKernel kernel = kn::wide::pair_kernel(size(k), size(a), size(c), pair_method)) {
      const int r = find_entry(c, d->struct_begin[a]);
      pair_of[k] = static_cast<int>(pairs.size());
      pairs.push_back({kernel, a, c, diag_off[k], offset(upper(k, e)), offset(lower(k, e)), diag_off[a], diag_off[c],
                       offset(lower(a, r)), offset(upper(a, r)), lower_ld(a), upper_ld(a)});
    }
  }
  edges.shrink_to_fit();  // memory_bytes() counts their size
  pairs.shrink_to_fit();
}

void Factorization::Impl::find_fronts() {
  const int n = static_cast<int>(d->order.size());
  uniform_front.assign(n, 0);
  int longest = 0;
  for (int k = 0; k < n; ++k) {
    const int b = size(k), begin = d->struct_begin[k], end = d->struct_begin[k + 1];
    if (!kn::wide::front_kernels(b).fixed_left || end - begin < 3) continue;  // fewer: no row has two blocks
    bool uniform = true;
    for (int e = begin; e < end && uniform; ++e) uniform = size(d->struct_pos[e]) == b;
    uniform_front[k] = uniform;
    if (uniform) longest = std::max(longest, end - begin);
  }
  front_half = longest;
  front_factors.assign(2 * static_cast<std::size_t>(longest), nullptr);
  front_targets.assign(2 * static_cast<std::size_t>(longest), nullptr);
}

// Gathers the blocks pivot k updates in neighbour a = struct_pos[e1]'s row
// and column, for the active neighbours c of entries e1 + 1 .. stop (at
// least one entry): L_ck and A_ca (and U_kc and A_ac if upper_too) into
// the first front_half entries of front_factors and front_targets (and the
// second). k's blocks follow one another b columns apart (its neighbours
// all have b rows); a's lie where its own list says. Returns their count.
template <bool upper_too>
int Factorization::Impl::gather_front_row(int k, int e1, int stop) {
  const int a = d->struct_pos[e1], b = size(k), wa = size(a);
  const double** l_factors = front_factors.data();
  const double** u_factors = l_factors + front_half;
  double** l_targets = front_targets.data();
  double** u_targets = l_targets + front_half;
  const double* l_ck = lower(k, e1 + 1);
  const double* u_kc = upper_too ? upper(k, e1 + 1) : nullptr;
  double* const l_a = values.data() + lower_off[a];
  double* const u_a = values.data() + upper_off[a];
  const int* const pos = d->struct_pos.data();
  const int* const col = d->struct_col.data();
  int count = 0;
  for (int e2 = e1 + 1, r = d->struct_begin[a]; e2 < stop; ++e2, l_ck += b) {
    const int c = pos[e2];
    r = find_entry(c, r);
    if (active[c]) {
      l_factors[count] = l_ck;
      l_targets[count] = l_a + col[r];
      if constexpr (upper_too) {
        u_factors[count] = u_kc;
        u_targets[count] = u_a + static_cast<long>(wa) * col[r];
      }
      ++count;
    }
    if constexpr (upper_too) u_kc += b * b;
  }
  return count;
}

// eliminate_unsymmetric's updates of a's row and column, A_ac -= L_ak U_kc
// and A_ca -= L_ck U_ka, in two calls.
void Factorization::Impl::update_front_row_ldu(int k, int e1, int stop, const double* l_ak, const double* u_ka) {
  if (e1 + 1 >= stop) return;
  const int a = d->struct_pos[e1], b = size(k);
  const int count = gather_front_row<true>(k, e1, stop);
  const kn::wide::FrontKernels& kernels = kn::wide::front_kernels(b);
  kernels.fixed_left(count, l_ak, lower_ld(k), front_factors.data() + front_half, b,
                     front_targets.data() + front_half, upper_ld(a));
  kernels.fixed_right(count, u_ka, b, front_factors.data(), lower_ld(k), front_targets.data(), lower_ld(a));
}

// eliminate_symmetric's (LDLT, LLT): A_ca -= L_ck R_ak^T, in one call.
void Factorization::Impl::update_front_row_symmetric(int k, int e1, int stop, const double* r_a) {
  if (e1 + 1 >= stop) return;
  const int a = d->struct_pos[e1];
  const int count = gather_front_row<false>(k, e1, stop);
  kn::wide::front_kernels(size(k)).fixed_right_transposed(count, r_a, lower_ld(k), front_factors.data(), lower_ld(k),
                                                          front_targets.data(), lower_ld(a));
}

void Factorization::Impl::eliminate_unsymmetric(int k) {
  const int b = size(k), ldl = lower_ld(k);
  if (const int a = single_small_neighbour(k); a >= 0) {
    const int e = d->struct_begin[k];
    kn::eliminate_edge_ldu(b, size(a), diag(k), upper(k, e), lower(k, e), diag(a), magnitudes(a));
    return;
  }
  const int end = d->struct_begin[k + 1], stop = entries_now(k);
  const int columns = columns_before(k, stop);
  double* panel = upper(k, d->struct_begin[k]);
  const bool fronts = uniform_front[k] && kn::wide::enabled();
  // U_k <- D_k^{-1} U_k  ==  0 - P_k * copy
  if (!kn::negate_product_in_place(b, columns, diag(k), panel)) {
    kn::copy(b, columns, panel, b, scratch.data(), b);
    kn::set_zero(b, columns, panel, b);
    kn::sub_ab(b, b, columns, diag(k), b, scratch.data(), b, panel, b);
  }
  for (int e1 = d->struct_begin[k]; e1 < stop; ++e1) {
    const int a = d->struct_pos[e1], wa = size(a);
    if (!active[a]) continue;
    const double* l_ak = lower(k, e1);
    const double* u_ka = upper(k, e1);
    kn::sub_ab(wa, b, wa, l_ak, ldl, u_ka, b, diag(a), wa);
    widen_row_magnitudes(wa, diag(a), magnitudes(a));
    widen_columns(a);
    if (tail_is_structure_of(a, e1, end)) {  // one product per strip
      const int ra = d->struct_begin[a], strip = columns - d->struct_col[e1 + 1];
      kn::sub_ab(wa, b, strip, l_ak, ldl, upper(k, e1 + 1), b, upper(a, ra), upper_ld(a));
      kn::sub_ab(strip, b, wa, lower(k, e1 + 1), ldl, u_ka, b, lower(a, ra), lower_ld(a));
      continue;
    }
    if (fronts) {
      update_front_row_ldu(k, e1, stop, l_ak, u_ka);
      continue;
    }
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < stop; ++e2) {
      const int c = d->struct_pos[e2], wc = size(c);
      r = find_entry(c, r);
      if (!active[c]) continue;
      kn::sub_ab(wa, b, wc, l_ak, ldl, upper(k, e2), b, upper(a, r), upper_ld(a));
      kn::sub_ab(wc, b, wa, lower(k, e2), ldl, u_ka, b, lower(a, r), lower_ld(a));
    }
  }
}

void Factorization::Impl::eliminate_symmetric(int k) {
  const int b = size(k), ldl = lower_ld(k);
  if (const int a = single_small_neighbour(k); a >= 0) {
    const int e = d->struct_begin[k];
    kn::eliminate_edge_symmetric(b, size(a), diag(k), lower(k, e), diag(a), method == Method::LLT, magnitudes(a));
    return;
  }
  const int end = d->struct_begin[k + 1], stop = entries_now(k);
  const int rows = columns_before(k, stop);
  double* panel = lower(k, d->struct_begin[k]);
  // L_k <- L_k D_k^{-1} (LDLT) or L_k C^{-T} (LLT)  ==  0 - copy * P_k^T.
  // The right factor of the updates: A_jk (LDLT, kept in scratch) or L_jk (LLT).
  const bool cholesky = method == Method::LLT;
  double* keep = cholesky ? nullptr : scratch.data();
  if (!kn::negate_product_transposed_in_place(rows, b, diag(k), panel, ldl, keep, ldl, cholesky)) {
    kn::copy(rows, b, panel, ldl, scratch.data(), ldl);
    kn::set_zero(rows, b, panel, ldl);
    kn::sub_abt(rows, b, b, scratch.data(), ldl, diag(k), b, panel, ldl);
  }
  const double* right = cholesky ? panel : scratch.data();
  const bool fronts = uniform_front[k] && kn::wide::enabled();
  for (int e1 = d->struct_begin[k]; e1 < stop; ++e1) {
    const int a = d->struct_pos[e1], wa = size(a);
    if (!active[a]) continue;
    const double* r_a = right + d->struct_col[e1];
    const double* l_ak = lower(k, e1);
    kn::sub_abt(wa, b, wa, l_ak, ldl, r_a, ldl, diag(a), wa);
    widen_row_magnitudes(wa, diag(a), magnitudes(a));
    if (tail_is_structure_of(a, e1, end)) {  // one product for the strip
      const int strip = rows - d->struct_col[e1 + 1];
      kn::sub_abt(strip, b, wa, lower(k, e1 + 1), ldl, r_a, ldl, lower(a, d->struct_begin[a]), lower_ld(a));
      continue;
    }
    if (fronts) {
      update_front_row_symmetric(k, e1, stop, r_a);
      continue;
    }
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < stop; ++e2) {
      const int c = d->struct_pos[e2];
      r = find_entry(c, r);
      if (!active[c]) continue;
      kn::sub_abt(size(c), b, wa, lower(k, e2), ldl, r_a, ldl, lower(a, r), lower_ld(a));
    }
  }
}

Status Factorization::factorize(const BlockMatrix& matrix, const FactorOptions& options) {
  Impl& m = impl();
  m.status = Status::NotFactorized;
  m.failed = -1;
  m.min_ratio = 1.0;
  if (!matrix.pattern().same_as(*m.d->pattern)) return m.status = Status::DimensionMismatch;
  if (!valid(options)) return m.status = Status::InvalidOption;
  m.factorized_with = options;
  m.column_retry_wanted = false;
  m.columns_scaled = false;
  m.tracking_columns = m.track_columns_next && options.equilibrate_pivots;
  // Scalar nodes take their own pass; the general one decides every failure.
  Status s = m.all_scalar && !m.tracking_columns && m.eliminate_scalars(matrix, options)
                 ? Status::Success
                 : m.eliminate_all(matrix, options);
  // An LDU pivot that failed with its rows scaled, whose columns are far
  // apart in scale too: its columns' magnitudes on the way were not kept,
  // and without them a column that cancelled would look merely small. So
  // the whole factorization runs again keeping them (pivot_inversion.cpp);
  // only such failures pay for it.
  if (s == Status::SingularPivot && m.column_retry_wanted) {
    m.tracking_columns = true;
    s = m.eliminate_all(matrix, options);
  }
  m.track_columns_next = s == Status::Success && m.columns_scaled;
  m.tracking_columns = false;
  m.some_inactive = std::find(m.active.begin(), m.active.end(), 0) != m.active.end();
  return m.status = s;
}

Status Factorization::Impl::eliminate_all(const BlockMatrix& matrix, const FactorOptions& options) {
  failed = -1;
  min_ratio = 1.0;
  // A non-finite value outranks any other failure: confirmed node by node
  // (inactive nodes may hold anything) once the loads have seen one, or
  // before a pivot failure is reported.
  auto non_finite = [&] {
    if (matrix.all_finite()) return false;
    failed = matrix.first_non_finite_node();
    return failed >= 0;
  };
  const int n = static_cast<int>(d->order.size());
  // Read once: another thread may switch the kernels, and this pass's edges
  // may still run the wide ones on this CPU.
  const bool wide_edges = !tracking_columns && kn::wide::enabled();
  double poison = 0.0;
  for (int k = 0; k < n; ++k) {
    if (loads_itself[k]) poison += load(k, matrix, options);
    Status s = Status::Success;
    if (!active[k]) {  // identity pivot with no couplings: -I^{-1} = -I
      for (int i = 0; i < size(k); ++i) diag(k)[i + i * size(k)] = -1.0;
    } else if (size(k) > 0) {
      s = factor_pivot(k, options.pivot_tolerance, options.equilibrate_pivots);
    }
    // Independent of the inversion above, so the two overlap.
    poison += load_first_touched_by(k, matrix, options);
    if (s != Status::Success) {
      if (non_finite()) return Status::NonFiniteValue;
      failed = d->order[k];
      return s;
    }
    if (active[k] && size(k) > 0 && width(k) > 0 && !eliminate_edge(k, wide_edges) &&
        !eliminate_pair(k, wide_edges)) {
      if (method == Method::LDU)
        eliminate_unsymmetric(k);
      else
        eliminate_symmetric(k);
    }
    if (panel_end[k] == k + 1) finish_panel(panel_begin[k], k + 1);
  }
  if (poison != 0.0 && non_finite()) return Status::NonFiniteValue;
  failed = -1;
  return Status::Success;
}

Factorization::Factorization(const Symbolic& symbolic, Method method)
    : impl_(std::make_unique<Impl>(symbolic, method)) {}
Factorization::~Factorization() = default;
Factorization::Factorization(Factorization&&) noexcept = default;
Factorization& Factorization::operator=(Factorization&&) noexcept = default;

Factorization::Impl& Factorization::impl() const {
  if (!impl_)
    throw std::logic_error("graphsolve::Factorization: used after it was moved from (assign it a new one first)");
  return *impl_;
}

Method Factorization::method() const { return impl().method; }
Status Factorization::status() const { return impl().status; }
NodeId Factorization::failed_node() const { return impl().failed; }
double Factorization::min_pivot_ratio() const { return impl().min_ratio; }
int Factorization::supernodal_panels() const { return impl().panels; }
const Symbolic& Factorization::symbolic() const { return impl().symbolic; }

namespace {
template <class Container>
long bytes_of(const Container& c) {
  return static_cast<long>(c.size() * sizeof(*c.data()));
}
}  // namespace

long Factorization::memory_bytes() const {
  const Impl& m = impl();
  long bytes = bytes_of(m.values) + bytes_of(m.scratch) + bytes_of(m.rhs_scratch) + bytes_of(m.residual) +
               bytes_of(m.correction) + bytes_of(m.kept_rhs) + bytes_of(m.row_magnitude) +
               bytes_of(m.column_magnitude) + bytes_of(m.outer_left) + bytes_of(m.outer_right) +
               bytes_of(m.outer_product) + bytes_of(m.panel_lower) + bytes_of(m.panel_upper);
  // The schedules: where each block lies and what each pivot loads and updates.
  bytes += bytes_of(m.diag_off) + bytes_of(m.upper_off) + bytes_of(m.lower_off) + bytes_of(m.entry_source) +
           bytes_of(m.diag_source) + bytes_of(m.loads_itself) + bytes_of(m.first_touch_begin) +
           bytes_of(m.first_touched) + bytes_of(m.active) + bytes_of(m.magnitude_off) + bytes_of(m.row_off) +
           bytes_of(m.pairs) + bytes_of(m.edges) + bytes_of(m.pair_of) + bytes_of(m.edge_of) +
           bytes_of(m.large_pivot_work) + bytes_of(m.large_pivot_rows) + bytes_of(m.panel_begin) +
           bytes_of(m.panel_end) + bytes_of(m.panel_column) + bytes_of(m.uniform_front) + bytes_of(m.load_kind) +
           bytes_of(m.front_factors) + bytes_of(m.front_targets) + bytes_of(m.vector_solve_nodes) +
           bytes_of(m.vector_solve_entries);
  return bytes;
}

}  // namespace graphsolve
