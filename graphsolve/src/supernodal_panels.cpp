// Supernodal panels. Where consecutive pivots have nested structures,
// S(k) = {k+1} u S(k+1) (the dense separators of nets and crystals), a run
// of them forms a panel G whose pivots all share the outer neighbours
// R = S(last of G). Inside the panel elimination proceeds pivot by pivot on
// the blocks of G only; everything touching R is left to the panel's end,
// where it is three dense BLAS calls instead of many block products:
//   LDU   L_RG <- A_RG U_GG^{-1}          (kept unscaled, as A_jk is)
//         U_GR <- D_G^{-1} L_GG^{-1} A_GR
//         A_RR -= L_RG U_GR
//   LDLT  W_RG <- A_RG L_GG^{-T};  L_RG <- W_RG D_G^{-1};  lower(A_RR) -= L_RG W_RG^T
//   LLT   the same with L_Rk <- W_Rk C_k^{-T};           lower(A_RR) -= L_RG L_RG^T
// where L_GG and U_GG are the unit block triangles of the panel's own
// factorization (block triangles with identity diagonal blocks are unit
// triangles entry by entry, so BLAS's dtrsm applies). The outer product is
// then scattered into the blocks of R. Block products of 6x6 run at about a
// third of what the BLAS reaches on such wide updates, 3x3 ones far less.
#include <algorithm>
#include <cassert>

#include "blas_product.hpp"
#include "factor_storage.hpp"

namespace graphsolve {

namespace kn = kernels;

namespace {
// Panels narrower than this gain nothing over the block products (the BLAS
// call and the gather and scatter cost as much as they save); wider ones
// leave more of the work to the block products inside the panel.
// Measured on 3^3..10^3 crystals with 6x6 and 3x3 blocks: 32-64 columns are
// within the noise of each other; 96 and more lose.
constexpr int kMinPanelColumns = 12;
constexpr int kMaxPanelColumns = 48;
// Deferring pays only when the outer update is large enough to amortize them.
constexpr int kMinOuterRows = 24;
// Symmetric outer updates: columns per BLAS call when only the lower triangle
// is computed (narrow strips waste less above the diagonal, wide ones run faster).
constexpr int kLowerStripColumns = 48;
}  // namespace

bool Factorization::Impl::nests_into_next(int k) const {
  const int n = static_cast<int>(d->order.size());
  if (k + 1 >= n) return false;
  const int count = d->struct_begin[k + 1] - d->struct_begin[k];
  const int next_count = d->struct_begin[k + 2] - d->struct_begin[k + 1];
  // S(k) \ {k+1} is a subset of S(k+1) (elimination tree), so equal counts mean equal sets.
  return count > 0 && d->struct_pos[d->struct_begin[k]] == k + 1 && count == next_count + 1;
}

void Factorization::Impl::plan_panels() {
  const int n = static_cast<int>(d->order.size());
  panel_begin.assign(n, -1);
  panel_end.assign(n, -1);
  panel_column.assign(n, 0);
  panels = 0;
  long left = 0, right = 0, product = 0;
  int widest = 0;
  for (int first = 0; first < n;) {
    int end = first + 1, columns = size(first);
    while (nests_into_next(end - 1) && columns + size(end) <= kMaxPanelColumns) columns += size(end++);
    const int outer = width(end - 1);
    if (end - first >= 2 && columns >= kMinPanelColumns && outer >= kMinOuterRows) {
      ++panels;
      for (int k = first, column = 0; k < end; column += size(k++)) {
        panel_begin[k] = first;
        panel_end[k] = end;
        panel_column[k] = column;
      }
      left = std::max(left, static_cast<long>(outer) * columns);
      right = std::max(right, static_cast<long>(columns) * outer);  // U_GR (LDU), A_RG (LDLT)
      product = std::max(product, static_cast<long>(outer) * outer);
      widest = std::max(widest, columns);
    }
    first = end;
  }
  outer_left.assign(left, 0.0);
  outer_right.assign(right, 0.0);
  outer_product.assign(product, 0.0);
  const long triangle = static_cast<long>(widest) * widest;
  panel_lower.assign(triangle, 0.0);
  panel_upper.assign(method == Method::LDU ? triangle : 0, 0.0);
}

// Offset of R's first block in the panels of member k of a panel ending at `last`.
int Factorization::Impl::outer_entry(int k, int last) const {
  const int e = d->struct_begin[k] + (last - k);
  assert(d->struct_pos[e] == d->struct_pos[d->struct_begin[last]]);
  return e;
}

int Factorization::Impl::entries_now(int k) const {
  return panel_end[k] < 0 ? d->struct_begin[k + 1] : outer_entry(k, panel_end[k] - 1);
}

int Factorization::Impl::columns_before(int k, int entry) const {
  return entry < d->struct_begin[k + 1] ? d->struct_col[entry] : width(k);
}

// Panel G = [first, end), R = S(end - 1): the blocks of R in the members'
// panels (still as loaded and updated before the panel), then the outer update.
void Factorization::Impl::finish_panel(int first, int end) {
  const int last = end - 1;
  const int rows = width(last);
  const int columns = panel_column[last] + size(last);
  const bool symmetric = method != Method::LDU;
  // The unit triangles: (L_GG)_kj = A_kj D_j^{-1} (LDLT: stored as is; LDU and
  // LLT: the stored block times -P_j) and (U_GG)_jk = U_jk as stored (LDU).
  kn::set_zero(columns, columns, panel_lower.data(), columns);
  if (!symmetric) kn::set_zero(columns, columns, panel_upper.data(), columns);
  for (int j = first; j < end; ++j) {
    const int b = size(j), below = columns - panel_column[j] - b;
    const long at = panel_column[j] + b + static_cast<long>(panel_column[j]) * columns;
    const double* l_j = lower(j, d->struct_begin[j]);
    if (method == Method::LDLT)
      kn::copy(below, b, l_j, lower_ld(j), panel_lower.data() + at, columns);
    else
      kn::sub_ab(below, b, b, l_j, lower_ld(j), diag(j), b, panel_lower.data() + at, columns);
    const long up = panel_column[j] + static_cast<long>(panel_column[j] + b) * columns;
    if (!symmetric) kn::copy(b, below, upper(j, d->struct_begin[j]), b, panel_upper.data() + up, columns);
  }
  // The members' blocks of R, A_RG: rows x columns.
  double* a_rg = symmetric ? outer_right.data() : outer_left.data();
  for (int k = first; k < end; ++k)
    kn::copy(rows, size(k), lower(k, outer_entry(k, last)), lower_ld(k), a_rg + static_cast<long>(panel_column[k]) * rows,
             rows);
  if (symmetric) {
    kn::blas_solve_right_unit_lower_transposed(rows, columns, panel_lower.data(), columns, a_rg, rows);
    for (int k = first; k < end; ++k) {  // L_Rk <- W_Rk * -P_k^T, kept and gathered
      const int b = size(k), ldl = lower_ld(k);
      double* l_rk = lower(k, outer_entry(k, last));
      const long at = static_cast<long>(panel_column[k]) * rows;
      kn::set_zero(rows, b, l_rk, ldl);
      kn::sub_abt(rows, b, b, a_rg + at, rows, diag(k), b, l_rk, ldl);
      kn::copy(rows, b, l_rk, ldl, outer_left.data() + at, rows);
    }
  } else {
    kn::blas_solve_right_unit_upper(rows, columns, panel_upper.data(), columns, a_rg, rows);
    double* u_gr = outer_right.data();  // columns x rows
    for (int k = first; k < end; ++k) {
      const int b = size(k), e = outer_entry(k, last);
      kn::copy(rows, b, a_rg + static_cast<long>(panel_column[k]) * rows, rows, lower(k, e), lower_ld(k));
      kn::copy(b, rows, upper(k, e), upper_ld(k), u_gr + panel_column[k], columns);
    }
    kn::blas_solve_left_unit_lower(columns, rows, panel_lower.data(), columns, u_gr, columns);
    for (int k = first; k < end; ++k) {  // U_kR <- -P_k * V_kR, kept and gathered
      const int b = size(k);
      double* u_kr = upper(k, outer_entry(k, last));
      kn::set_zero(b, rows, u_kr, upper_ld(k));
      kn::sub_ab(b, b, rows, diag(k), b, u_gr + panel_column[k], columns, u_kr, upper_ld(k));
      kn::copy(b, rows, u_kr, upper_ld(k), u_gr + panel_column[k], columns);
    }
  }
  update_outer(last, rows, columns);
}

// The deferred updates of a panel ending at `last`, R = S(last):
//   LDU  A_RR -= L_RG U_GR;   LDLT/LLT  lower(A_RR) -= L_RG B_RG^T
// with B = W (LDLT, unscaled) or L (LLT); then scattered into R's blocks.
void Factorization::Impl::update_outer(int last, int rows, int columns) {
  const bool symmetric = method != Method::LDU;
  const int begin = d->struct_begin[last], stop = d->struct_begin[last + 1];
  if (symmetric) {
    // Only the lower triangle is needed: strips of whole blocks' columns,
    // each from its diagonal down.
    const double* right = method == Method::LLT ? outer_left.data() : outer_right.data();
    for (int e = begin; e < stop;) {
      const int j = d->struct_col[e];
      while (e < stop && d->struct_col[e] - j < kLowerStripColumns) ++e;
      const int strip = (e < stop ? d->struct_col[e] : rows) - j;
      kn::blas_product_bt(rows - j, columns, strip, outer_left.data() + j, rows, right + j, rows,
                          outer_product.data() + j + static_cast<long>(j) * rows, rows);
    }
  } else {
    kn::blas_product(rows, columns, rows, outer_left.data(), rows, outer_right.data(), columns, outer_product.data(),
                     rows);
  }
  // Scatter into the diagonal blocks of R and the panels between them.
  const double* c = outer_product.data();
  for (int e1 = begin; e1 < stop; ++e1) {
    const int a = d->struct_pos[e1], wa = size(a), oa = d->struct_col[e1];
    if (!active[a]) continue;
    kn::subtract(wa, wa, c + oa + static_cast<long>(oa) * rows, rows, diag(a), wa);
    widen_row_magnitudes(wa, diag(a), magnitudes(a));
    widen_columns(a);
    if (tail_is_structure_of(a, e1, stop)) {  // S(a) is the rest of R: one strip each
      const int wr = width(a), ra = d->struct_begin[a], on = d->struct_col[e1 + 1];
      if (!symmetric) kn::subtract(wa, wr, c + oa + static_cast<long>(on) * rows, rows, upper(a, ra), upper_ld(a));
      kn::subtract(wr, wa, c + on + static_cast<long>(oa) * rows, rows, lower(a, ra), lower_ld(a));
      continue;
    }
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < stop; ++e2) {
      const int t = d->struct_pos[e2], wt = size(t), ot = d->struct_col[e2];
      r = find_entry(t, r);
      if (!active[t]) continue;
      if (!symmetric) kn::subtract(wa, wt, c + oa + static_cast<long>(ot) * rows, rows, upper(a, r), upper_ld(a));
      kn::subtract(wt, wa, c + ot + static_cast<long>(oa) * rows, rows, lower(a, r), lower_ld(a));
    }
  }
}

}  // namespace graphsolve
