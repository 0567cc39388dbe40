// Elimination and substitution for systems whose every node is a scalar
// (block size 1). The elimination is eliminate_all's right-looking pass
// (factorize.cpp) over the same arena, load schedule and supernodal panels,
// with each node's load, pivot and updates written for single values: on
// scalars the block machinery (a dispatch on the sizes, a kernel call and a
// loop per block) had cost several times the arithmetic. Refactorization of a
// 1000-node scalar chain took 29 us instead of 14, of a 32 x 32 scalar net
// 1.6 ms instead of 0.15, where KLU, CHOLMOD and Eigen's simplicial
// factorizations were up to 5 times faster than the block path.
//
// Only a successful elimination finishes here. At a refused pivot (below the
// tolerance, or not positive for LLT) or after reading a value that is not
// finite it returns false, and factorize() runs the general pass instead,
// which reports the failure (after its retry with equilibrated pivots)
// exactly as for blocks.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "factor_storage.hpp"

namespace graphsolve {

namespace {
// The general path's 1x1 pivot kernels, value for value: the pivot ratio of
// |p| against the largest magnitude its row had (which includes |p|), and
// -1/p (LDU, LDLT) or -1/sqrt(p) (LLT) in its place; `inverse` gets 1/p. A
// negative ratio or one below the tolerance refuses the pivot.
inline double invert_scalar_pivot(double& p, double row_magnitude, double tolerance, bool cholesky, double& inverse) {
  const double pivot = p;
  if (cholesky) {
    if (!(pivot > 0.0 && pivot < 1e308)) return -1.0;
    const double ratio = pivot / std::max(row_magnitude, pivot);
    inverse = 1.0 / pivot;
    if (ratio >= tolerance) p = -std::sqrt(inverse);
    return ratio;
  }
  const double magnitude = std::abs(pivot);
  if (!(magnitude > 0.0 && magnitude < 1e308)) return 0.0;
  const double ratio = magnitude / std::max(row_magnitude, magnitude);
  inverse = 1.0 / pivot;
  if (ratio >= tolerance) p = -inverse;
  return ratio;
}
}  // namespace

bool Factorization::Impl::eliminate_scalars(const BlockMatrix& matrix, const FactorOptions& options) {
  switch (method) {
    case Method::LDU: return eliminate_scalars_as<Method::LDU>(matrix, options);
    case Method::LDLT: return eliminate_scalars_as<Method::LDLT>(matrix, options);
    case Method::LLT: return eliminate_scalars_as<Method::LLT>(matrix, options);
  }
  return false;
}

template <Method kMethod>
bool Factorization::Impl::eliminate_scalars_as(const BlockMatrix& matrix, const FactorOptions& options) {
  constexpr bool kSymmetric = kMethod != Method::LDU;
  const int n = static_cast<int>(d->order.size());
  const double* a = matrix.values();
  const char* activity = matrix.activity().data();
  const NodeKind* kind = d->pattern->kind.data();
  const int* begin = d->struct_begin.data();
  const int* pos = d->struct_pos.data();
  double* v = values.data();
  double* rows = row_magnitude.data();  // one per position: magnitude_off[k] == k
  double poison = 0.0;
  double smallest_ratio = 1.0;

  // load_sized for a scalar node: its value (shifted) and its couplings.
  auto load = [&](int k) {
    const NodeId node = d->order[k];
    const bool on = activity[node];
    active[k] = on;
    if (on) {
      const double value = a[diag_source[k]];
      poison += value * 0.0;
      const double shift = diagonal_shift(options, kind[node]);
      v[diag_off[k]] = shift != 0.0 ? value + shift : value;
      rows[k] = std::abs(v[diag_off[k]]);
    } else {
      v[diag_off[k]] = 1.0;  // an inactive node is the identity
      rows[k] = 1.0;
    }
    double* low = v + lower_off[k] - begin[k];
    double* up = v + upper_off[k] - begin[k];
    for (int e = begin[k]; e < begin[k + 1]; ++e) {
      const EntrySource& s = entry_source[e];
      if (s.later_k < 0 || !on || !activity[s.later_node]) {  // fill, or a coupling of an inactive node
        low[e] = 0.0;
        if constexpr (!kSymmetric) up[e] = 0.0;
        continue;
      }
      const double later_k = a[s.later_k], k_later = a[s.k_later];
      poison += later_k * 0.0 + k_later * 0.0;  // both checked, as for blocks
      if constexpr (kSymmetric) {
        low[e] = s.k_smaller_id ? later_k : k_later;  // the lower triangle by id
      } else {
        low[e] = later_k;
        up[e] = k_later;
      }
    }
  };

  // Pivot k's updates of its later neighbours before `stop` (entries_now),
  // A_ca -= L_ck R_ka (and A_ac -= L_ak U_kc for LDU), given its pivot's
  // 1/d. With every node active (the usual case) the inner loop skips the
  // activity test: it was a tenth of a scalar net's factorization.
  auto eliminate = [&](int k, int stop, double inverse, auto every_active) {
    const double p = v[diag_off[k]];  // -1/d, or -1/sqrt(d) for LLT
    double* low = v + lower_off[k] - begin[k];
    double* up = v + upper_off[k] - begin[k];
    // The updates' factors for entry e: L_ek is left[e - left_base], R_ek
    // is right[e - right_base] * scale. LDU: the A_jk as loaded and the
    // scaled U_k. LDLT: the scaled L_k and the A_jk as loaded (kept in
    // scratch). LLT: the A_jk as loaded on both sides and 1/d as the scale,
    // so that the updates wait on the division only, not also on the square
    // root that L_k = A_k / sqrt(d) takes (scalar trees and nets 6-7% faster).
    const double* left = low;
    const double* right = low;
    int left_base = 0, right_base = 0;
    double scale = 1.0;
    if constexpr (kMethod == Method::LDU) {
      for (int e = begin[k]; e < stop; ++e) up[e] = -(p * up[e]);
      right = up;
    } else {
      for (int e = begin[k]; e < stop; ++e) {
        scratch[e - begin[k]] = low[e];
        low[e] = -(low[e] * p);
      }
      right = scratch.data();
      right_base = begin[k];
      if constexpr (kMethod == Method::LLT) {
        left = scratch.data();
        left_base = begin[k];
        scale = inverse;
      }
    }
    for (int e1 = begin[k]; e1 < stop; ++e1) {
      const int target = pos[e1];
      if (!every_active && !active[target]) continue;
      const double l_ak = left[e1 - left_base], r_ka = right[e1 - right_base] * scale;
      double& diagonal = v[diag_off[target]];
      diagonal -= l_ak * r_ka;
      rows[target] = std::max(rows[target], std::abs(diagonal));
      double* target_low = v + lower_off[target] - begin[target];
      double* target_up = v + upper_off[target] - begin[target];
      if (every_active && stop == begin[k + 1] && tail_is_structure_of(target, e1, stop)) {
        // The entries after e1 are S(target), in the same order: no search.
        const int shift = begin[target] - (e1 + 1);
        for (int e2 = e1 + 1; e2 < stop; ++e2) {
          target_low[e2 + shift] -= left[e2 - left_base] * r_ka;
          if constexpr (!kSymmetric) target_up[e2 + shift] -= l_ak * up[e2];
        }
        continue;
      }
      for (int e2 = e1 + 1, r = begin[target]; e2 < stop; ++e2) {
        const int c = pos[e2];
        while (pos[r] != c) ++r;  // S(k) after e1 is a subset of S(target): find_entry
        if (!every_active && !active[c]) continue;
        target_low[r] -= left[e2 - left_base] * r_ka;
        if constexpr (!kSymmetric) target_up[r] -= l_ak * up[e2];
      }
    }
  };
  const bool every_active = std::find(activity, activity + n, 0) == activity + n;

  for (int k = 0; k < n; ++k) {
    if (loads_itself[k]) load(k);
    bool refused = false;
    double inverse = 0.0;
    if (!active[k]) {
      v[diag_off[k]] = -1.0;  // -I^{-1}
    } else {
      const double ratio =
          invert_scalar_pivot(v[diag_off[k]], rows[k], options.pivot_tolerance, kMethod == Method::LLT, inverse);
      refused = !(ratio >= options.pivot_tolerance && ratio > 0.0);
      smallest_ratio = std::min(smallest_ratio, ratio);
    }
    for (int i = first_touch_begin[k]; i < first_touch_begin[k + 1]; ++i) load(first_touched[i]);
    if (refused) return false;
    if (active[k] && begin[k + 1] > begin[k]) {
      if (every_active)
        eliminate(k, entries_now(k), inverse, std::true_type{});
      else
        eliminate(k, entries_now(k), inverse, std::false_type{});
    }
    if (panel_end[k] == k + 1) finish_panel(panel_begin[k], k + 1);
  }
  if (poison != 0.0) return false;
  min_ratio = smallest_ratio;
  return true;
}

// solve_vector written for scalars: the same operations in the same order.
void Factorization::Impl::solve_scalars(double* x) const {
  const int n = static_cast<int>(d->order.size());
  const int* begin = d->struct_begin.data();
  const int* pos = d->struct_pos.data();
  const double* v = values.data();
  const int* row = row_off.data();
  const char* on = active.data();
  for (int k = 0; k < n; ++k) {  // forward
    if (!on[k]) continue;
    double y = x[row[k]];
    if (method != Method::LDLT) x[row[k]] = y = -(v[diag_off[k]] * y);
    const double* low = v + lower_off[k] - begin[k];
    for (int e = begin[k]; e < begin[k + 1]; ++e)
      if (on[pos[e]]) x[row[pos[e]]] -= low[e] * y;
  }
  for (int k = n - 1; k >= 0; --k) {  // backward
    if (!on[k]) continue;
    double y = x[row[k]];
    if (method == Method::LDLT) y = -(v[diag_off[k]] * y);
    const double* coupling = v + (method == Method::LDU ? upper_off[k] : lower_off[k]) - begin[k];
    for (int e = begin[k]; e < begin[k + 1]; ++e)
      if (on[pos[e]]) y -= coupling[e] * x[row[pos[e]]];
    if (method == Method::LLT) y = -(v[diag_off[k]] * y);
    x[row[k]] = y;
  }
}

}  // namespace graphsolve
