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
// On fronts of thousands of rows (random graphs, large crystals) the outer
// update dominates, and it runs at more of the BLAS's speed the more columns
// each call takes: up to 144 columns took a random graph of 10000 6x6 nodes
// (fronts of up to 7140 rows) from 5.7 to 4.4 s (LLT), while 144 everywhere
// cost the 10^3 crystal (fronts under 800 rows) a third. So a panel may take
// a column per 16 rows of its front, within these bounds.
constexpr int kFrontRowsPerPanelColumn = 16;
constexpr int kMaxWidePanelColumns = 144;
// Deferring pays only when the outer update is large enough to amortize them.
constexpr int kMinOuterRows = 24;
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
    const int most = std::clamp(width(first) / kFrontRowsPerPanelColumn, kMaxPanelColumns, kMaxWidePanelColumns);
    while (nests_into_next(end - 1) && columns + size(end) <= most) columns += size(end++);
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
      for (int e = d->struct_begin[end - 1], stop = d->struct_begin[end]; e < stop;) {  // strips of update_outer
        const int next = outer_strip_end(e, stop, outer);
        const int strip = outer_strip_columns(e, next, stop, outer);
        const long below = outer - d->struct_col[e];  // the strip's columns from its diagonal down
        const long beside = method == Method::LDU ? below - strip : 0;  // and (LDU) its rows right of it
        product = std::max(product, (below + beside) * strip);
        e = next;
      }
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

// The entries of R = S(last) from `e` that one strip of the outer product
// covers: whole blocks, each starting less than a strip's width after e's.
int Factorization::Impl::outer_strip_end(int e, int stop, int rows) const {
  // LDU computes a strip's columns and rows: as many as keep both about
  // kStripEntries (on the fronts of nets and crystals, the whole product in
  // one call, as fast as any); LDLT and LLT only the columns from the diagonal
  // down, in narrow strips that waste little above it.
  const int most = method == Method::LDU ? std::max(kStripColumns, kStripEntries / std::max(rows, 1)) : kStripColumns;
  const int j = d->struct_col[e];
  while (e < stop && d->struct_col[e] - j < most) ++e;
  return e;
}

// The deferred updates of a panel ending at `last`, R = S(last):
//   LDU  A_RR -= L_RG U_GR;   LDLT/LLT  lower(A_RR) -= L_RG B_RG^T
// with B = W (LDLT, unscaled) or L (LLT). Computed a strip of R's blocks at a
// time and scattered into them while the strip is in cache: the columns from
// the strip's diagonal down and (LDU) its rows right of the strip. (The whole
// product at once, rows x rows, ran from memory on fronts of thousands of
// rows: clearing and scattering it took longer than computing it.)
//
// The product buffer is all zeros between strips: each product accumulates
// into it, and the scatter clears every entry it takes (LDLT and LLT clear
// those above the diagonal, which they do not take), so no pass clears it
// beforehand (OpenBLAS's dgemm_beta: 7% of a 10^3 crystal's LDU factorization).
void Factorization::Impl::update_outer(int last, int rows, int columns) {
  const bool symmetric = method != Method::LDU;
  const int begin = d->struct_begin[last], stop = d->struct_begin[last + 1];
  const double* left = outer_left.data();  // L_RG: rows x columns
  // B_RG (rows x columns), whose transpose multiplies, or U_GR (columns x rows).
  const double* right = method == Method::LLT ? outer_left.data() : outer_right.data();
  for (int first = begin; first < stop;) {
    const int end = outer_strip_end(first, stop, rows);
    const int j = d->struct_col[first], strip = outer_strip_columns(first, end, stop, rows);
    const int below = rows - j, beside = rows - j - strip;
    double* column_strip = outer_product.data();                          // C(j:, j:j+strip), below x strip
    double* row_strip = column_strip + static_cast<long>(below) * strip;  // C(j:j+strip, j+strip:), strip x beside
    if (symmetric) {
      kn::blas_add_product_bt(below, columns, strip, left + j, rows, right + j, rows, column_strip, below);
    } else {
      kn::blas_add_product(below, columns, strip, left + j, rows, right + static_cast<long>(j) * columns, columns,
                           column_strip, below);
      kn::blas_add_product(strip, columns, beside, left + j, rows, right + static_cast<long>(j + strip) * columns,
                           columns, row_strip, strip);
    }
    // C(r, c), for a block in the strip's columns or (LDU) right of them.
    auto at = [&](int r, int c) {
      return c < j + strip ? column_strip + (r - j) + static_cast<long>(c - j) * below
                           : row_strip + (r - j) + static_cast<long>(c - j - strip) * strip;
    };
    auto ld = [&](int c) { return c < j + strip ? below : strip; };
    // Inactive nodes are scattered too: their rows of L_RG and columns of
    // U_GR (B_RG) are zeros, so are their products, and their blocks (zero
    // couplings, an identity pivot) keep their values.
    for (int e1 = first; e1 < end; ++e1) {
      const int a = d->struct_pos[e1], wa = size(a), oa = d->struct_col[e1];
      if (symmetric) kn::set_zero(oa - j, wa, at(j, oa), below);  // above its diagonal block: not a target
      kn::subtract_and_clear(wa, wa, at(oa, oa), ld(oa), diag(a), wa);
      if (active[a]) {
        widen_row_magnitudes(wa, diag(a), magnitudes(a));
        widen_columns(a);
      }
      if (tail_is_structure_of(a, e1, stop)) {  // S(a) is the rest of R: one strip each
        const int wr = width(a), ra = d->struct_begin[a], on = d->struct_col[e1 + 1];
        kn::subtract_and_clear(wr, wa, at(on, oa), ld(oa), lower(a, ra), lower_ld(a));
        if (symmetric) continue;
        // Its row: within the strip's columns, then right of them.
        const int inside = std::max(0, j + strip - on);
        kn::subtract_and_clear(wa, inside, at(oa, on), below, upper(a, ra), upper_ld(a));
        double* rest = upper(a, ra) + static_cast<long>(inside) * upper_ld(a);
        if (wr > inside) kn::subtract_and_clear(wa, wr - inside, at(oa, on + inside), strip, rest, upper_ld(a));
        continue;
      }
      int r = d->struct_begin[a];
      for (int e2 = e1 + 1; e2 < stop; ++e2) {
        const int t = d->struct_pos[e2], wt = size(t), ot = d->struct_col[e2];
        r = find_entry(t, r);
        if (!symmetric) kn::subtract_and_clear(wa, wt, at(oa, ot), ld(ot), upper(a, r), upper_ld(a));
        kn::subtract_and_clear(wt, wa, at(ot, oa), ld(oa), lower(a, r), lower_ld(a));
      }
    }
    first = end;
  }
}

}  // namespace graphsolve
