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

#include "factor_storage.hpp"

namespace graphsolve {

namespace kn = kernels;

Factorization::Impl::Impl(const Symbolic& s, Method m) : symbolic(s), d(&s.data()), method(m) {
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
  values.assign(total, 0.0);
  is_fill.assign(d->struct_pos.size(), 1);
  for (int entry : d->edge_entry) is_fill[entry] = 0;
  active.assign(n, 1);
  scale.assign(n, 0.0);
  large_index.assign(n, -1);
  // Reserve exactly: Eigen's LLT(size) leaves its status uninitialized, so
  // these objects must be constructed in place, never copied on growth.
  const long large = std::count_if(d->size.begin(), d->size.end(), [](int b) { return b > kn::kMaxFixed; });
  if (method == Method::LLT)
    large_llt.reserve(large);
  else
    large_lu.reserve(large);
  for (int k = 0; k < n; ++k) {
    if (d->size[k] <= kn::kMaxFixed) continue;
    large_index[k] = static_cast<int>(std::max(large_lu.size(), large_llt.size()));
    if (method == Method::LLT)
      large_llt.emplace_back(d->size[k]);
    else
      large_lu.emplace_back(d->size[k]);
  }
  scratch.assign(std::max(1L, d->max_panel), 0.0);
  rhs_scratch.resize(std::max(1, d->max_size), kRhsChunk);
  residual.resize(d->pattern->dimension);
}

namespace {
// Largest magnitude in a contiguous square block.
double max_abs(int b, const double* block) {
  return b == 0 ? 0.0 : Eigen::Map<const Eigen::ArrayXd>(block, static_cast<long>(b) * b).abs().maxCoeff();
}
}  // namespace

// Copies A into the arena (inactive nodes: identity, no couplings), zeroes
// the fill blocks and adds the requested diagonal shifts.
void Factorization::Impl::load(const BlockMatrix& matrix, const FactorOptions& options) {
  const Pattern& p = *d->pattern;
  const double* a = matrix.values();
  const bool symmetric = method != Method::LDU;
  for (int k = 0; k < p.num_nodes; ++k) {
    const NodeId node = d->order[k];
    const int b = size(k);
    active[k] = matrix.activity()[node];
    double* dk = diag(k);
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e) {
      if (!is_fill[e] && active[k]) continue;  // overwritten below
      kn::set_zero(neighbour_size(e), b, lower(k, e), lower_ld(k));
      if (!symmetric) kn::set_zero(b, neighbour_size(e), upper(k, e), upper_ld(k));
    }
    if (!active[k]) {
      kn::set_zero(b, b, dk, b);
      for (int i = 0; i < b; ++i) dk[i + i * b] = 1.0;
      scale[k] = 1.0;
      continue;
    }
    const double* src = a + matrix.diag_offset(node);
    if (symmetric) {  // mirror the lower triangle
      for (int j = 0; j < b; ++j)
        for (int i = j; i < b; ++i) {
          dk[i + j * b] = dk[j + i * b] = src[i + j * b];
        }
    } else {
      kn::copy(b, b, src, b, dk, b);
    }
    double shift = options.shift;
    if (p.kind[node] == NodeKind::ZeroDiagonal) shift += options.constraint_shift;
    for (int i = 0; i < b; ++i) dk[i + i * b] += shift;
    scale[k] = max_abs(b, dk);
  }
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [na, nb] = p.edges[e];  // na < nb
    const int ka = d->position[na], kb = d->position[nb];
    const int entry = d->edge_entry[e];
    const int first = std::min(ka, kb), later = std::max(ka, kb);
    const int bf = size(first), bl = size(later);
    double* low = lower(first, entry);  // A_{later, first}
    if (!active[ka] || !active[kb]) {
      kn::set_zero(bl, bf, low, lower_ld(first));
      if (!symmetric) kn::set_zero(bf, bl, upper(first, entry), upper_ld(first));
      continue;
    }
    const double* ab = a + matrix.upper_offset(e);  // A_{na, nb}: size(na) x size(nb)
    const double* ba = a + matrix.lower_offset(e);  // A_{nb, na}
    const bool a_first = ka < kb;
    if (symmetric) {  // the lower triangle by id is A_{nb, na}
      if (a_first)
        kn::copy(bl, bf, ba, bl, low, lower_ld(first));
      else
        kn::copy_transposed(bl, bf, ba, bf, low, lower_ld(first));
      continue;
    }
    kn::copy(bl, bf, a_first ? ba : ab, bl, low, lower_ld(first));
    kn::copy(bf, bl, a_first ? ab : ba, bf, upper(first, entry), upper_ld(first));
  }
}

Status Factorization::Impl::factor_pivot(int k, double tolerance) {
  const int b = size(k);
  const bool cholesky = method == Method::LLT;
  double ratio;
  if (b <= kn::kMaxFixed) {
    ratio = kn::invert_small_pivot(b, diag(k), b, scale[k], cholesky);
  } else {
    Eigen::Map<Eigen::MatrixXd> dk(diag(k), b, b);
    const int i = large_index[k];
    if (cholesky) {
      auto& llt = large_llt[i];
      llt.compute(dk);
      if (llt.info() != Eigen::Success) return Status::NotPositiveDefinite;
      ratio = kn::pivot_ratio(llt.matrixLLT().diagonal(), std::sqrt(scale[k]));
      ratio *= ratio;
      dk.setIdentity();
      llt.matrixL().solveInPlace(dk);
    } else {
      auto& lu = large_lu[i];
      lu.compute(dk);
      ratio = kn::pivot_ratio(lu.matrixLU().diagonal(), scale[k]);
      if (ratio > 0.0) {  // D^{-1} = U^{-1} L^{-1} P, by triangular solves in place (no temporaries)
        dk = lu.permutationP();
        lu.matrixLU().triangularView<Eigen::UnitLower>().solveInPlace(dk);
        lu.matrixLU().triangularView<Eigen::Upper>().solveInPlace(dk);
      }
    }
    dk *= -1.0;
  }
  if (ratio < 0.0) return Status::NotPositiveDefinite;
  min_ratio = std::min(min_ratio, ratio);
  if (!(ratio >= tolerance) || ratio == 0.0) return Status::SingularPivot;
  return Status::Success;
}


void Factorization::Impl::eliminate_unsymmetric(int k) {
  const int b = size(k), w = width(k), ldl = lower_ld(k);
  double* panel = upper(k, d->struct_begin[k]);
  // U_k <- D_k^{-1} U_k  ==  0 - P_k * copy
  kn::copy(b, w, panel, b, scratch.data(), b);
  kn::set_zero(b, w, panel, b);
  kn::sub_ab(b, b, w, diag(k), b, scratch.data(), b, panel, b);
  const int end = d->struct_begin[k + 1];
  for (int e1 = d->struct_begin[k]; e1 < end; ++e1) {
    const int a = d->struct_pos[e1], wa = size(a);
    if (!active[a]) continue;
    const double* l_ak = lower(k, e1);
    const double* u_ka = upper(k, e1);
    kn::sub_ab(wa, b, wa, l_ak, ldl, u_ka, b, diag(a), wa);
    scale[a] = std::max(scale[a], max_abs(wa, diag(a)));
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < end; ++e2) {
      const int c = d->struct_pos[e2], wc = size(c);
      r = find_entry(c, r);
      if (!active[c]) continue;
      kn::sub_ab(wa, b, wc, l_ak, ldl, upper(k, e2), b, upper(a, r), upper_ld(a));
      kn::sub_ab(wc, b, wa, lower(k, e2), ldl, u_ka, b, lower(a, r), lower_ld(a));
    }
  }
}

void Factorization::Impl::eliminate_symmetric(int k) {
  const int b = size(k), w = width(k), ldl = lower_ld(k);
  double* panel = lower(k, d->struct_begin[k]);
  // L_k <- L_k D_k^{-1} (LDLT) or L_k C^{-T} (LLT)  ==  0 - copy * P_k^T
  kn::copy(w, b, panel, ldl, scratch.data(), ldl);
  kn::set_zero(w, b, panel, ldl);
  kn::sub_abt(w, b, b, scratch.data(), ldl, diag(k), b, panel, ldl);
  // The right factor of the updates: A_jk (LDLT, the copy) or L_jk (LLT).
  const double* right = method == Method::LLT ? panel : scratch.data();
  const int end = d->struct_begin[k + 1];
  for (int e1 = d->struct_begin[k]; e1 < end; ++e1) {
    const int a = d->struct_pos[e1], wa = size(a);
    if (!active[a]) continue;
    const double* r_a = right + d->struct_col[e1];
    const double* l_ak = lower(k, e1);
    kn::sub_abt(wa, b, wa, l_ak, ldl, r_a, ldl, diag(a), wa);
    scale[a] = std::max(scale[a], max_abs(wa, diag(a)));
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < end; ++e2) {
      const int c = d->struct_pos[e2];
      r = find_entry(c, r);
      if (!active[c]) continue;
      kn::sub_abt(size(c), b, wa, lower(k, e2), ldl, r_a, ldl, lower(a, r), lower_ld(a));
    }
  }
}

Status Factorization::factorize(const BlockMatrix& matrix, const FactorOptions& options) {
  Impl& m = *impl_;
  m.status = Status::NotFactorized;
  m.failed = -1;
  m.min_ratio = 1.0;
  if (!matrix.pattern().same_as(*m.d->pattern)) return m.status = Status::DimensionMismatch;
  if (!std::isfinite(options.shift) || !std::isfinite(options.constraint_shift)) return m.status = Status::NonFiniteValue;
  // One vectorized pass over the values; inactive nodes may hold anything,
  // so only a hit is confirmed node by node.
  if (!matrix.all_finite())
    if (const NodeId bad = matrix.first_non_finite_node(); bad >= 0) {
      m.failed = bad;
      return m.status = Status::NonFiniteValue;
    }
  m.load(matrix, options);
  const int n = static_cast<int>(m.d->order.size());
  for (int k = 0; k < n; ++k) {
    if (!m.active[k]) {  // identity pivot with no couplings: -I^{-1} = -I
      for (int i = 0; i < m.size(k); ++i) m.diag(k)[i + i * m.size(k)] = -1.0;
      continue;
    }
    if (m.size(k) == 0) continue;
    if (const Status s = m.factor_pivot(k, options.pivot_tolerance); s != Status::Success) {
      m.failed = m.d->order[k];
      return m.status = s;
    }
    if (m.width(k) == 0) continue;
    if (m.method == Method::LDU)
      m.eliminate_unsymmetric(k);
    else
      m.eliminate_symmetric(k);
  }
  return m.status = Status::Success;
}

Factorization::Factorization(const Symbolic& symbolic, Method method)
    : impl_(std::make_unique<Impl>(symbolic, method)) {}
Factorization::~Factorization() = default;
Factorization::Factorization(Factorization&&) noexcept = default;
Factorization& Factorization::operator=(Factorization&&) noexcept = default;

Method Factorization::method() const { return impl_->method; }
Status Factorization::status() const { return impl_->status; }
NodeId Factorization::failed_node() const { return impl_->failed; }
double Factorization::min_pivot_ratio() const { return impl_->min_ratio; }
const Symbolic& Factorization::symbolic() const { return impl_->symbolic; }

long Factorization::memory_bytes() const {
  const Impl& m = *impl_;
  long doubles = static_cast<long>(m.values.size() + m.scratch.size() + m.rhs_scratch.size() + m.residual.size());
  for (int b : m.d->size)
    if (b > kernels::kMaxFixed) doubles += static_cast<long>(b) * b;  // dynamic pivot factorizations
  return 8 * doubles;
}

}  // namespace graphsolve
