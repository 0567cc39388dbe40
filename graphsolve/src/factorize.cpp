// Numeric factorization: right-looking block elimination over the analysed
// order. For pivot k with later neighbours S(k):
//   LDU : factor D_k (partial-pivoting LU); U_kj <- D_k^{-1} A_kj; keep A_jk;
//         A_ij -= A_ik U_kj for all i, j in S(k).
//   LDLT: factor D_k (LU: safe for indefinite blocks); L_jk <- A_jk D_k^{-1};
//         A_ij -= L_ik A_kj for i >= j in S(k).
//   LLT : D_k = C C^T (Cholesky); L_jk <- A_jk C^{-T}; A_ij -= L_ik L_jk^T.
// S(k) is a subset of S(a) for every earlier-sorted a in S(k) (elimination
// tree property), so every target block is found by one forward scan.
#include <algorithm>
#include <cmath>

#include "factor_storage.hpp"

namespace graphsolve {

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
  active.assign(n, 1);
  scale.assign(n, 0.0);
  if (method == Method::LLT) {
    llt.reserve(n);
    for (int k = 0; k < n; ++k) llt.emplace_back(d->size[k]);
  } else {
    lu.reserve(n);
    for (int k = 0; k < n; ++k) lu.emplace_back(d->size[k]);
  }
  scratch_a.assign(std::max(1L, d->max_panel), 0.0);
  scratch_b.assign(std::max(1L, d->max_panel), 0.0);
  rhs_scratch.resize(std::max(1, d->max_size), kRhsChunk);
  residual.resize(d->pattern->dimension);
}

// Copies A into the arena (inactive nodes: identity, no couplings) and adds
// the requested diagonal shifts.
void Factorization::Impl::load(const BlockMatrix& matrix, const FactorOptions& options) {
  const Pattern& p = *d->pattern;
  std::fill(values.begin(), values.end(), 0.0);
  const bool symmetric = method != Method::LDU;
  for (int k = 0; k < p.num_nodes; ++k) {
    const NodeId node = d->order[k];
    active[k] = matrix.activity()[node];
    auto dk = diag(k);
    if (!active[k]) {
      dk.setIdentity();
      continue;
    }
    if (symmetric)
      dk = matrix.diag(node).selfadjointView<Eigen::Lower>();
    else
      dk = matrix.diag(node);
    double shift = options.shift;
    if (p.kind[node] == NodeKind::ZeroDiagonal) shift += options.constraint_shift;
    if (shift != 0.0) dk.diagonal().array() += shift;
    scale[k] = d->size[k] ? dk.cwiseAbs().maxCoeff() : 0.0;
  }
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [a, b] = p.edges[e];  // a < b
    const int ka = d->position[a], kb = d->position[b];
    if (!active[ka] || !active[kb]) continue;
    const int entry = d->edge_entry[e];
    const int first = std::min(ka, kb);
    const auto lower_by_id = matrix.block(b, a);
    if (symmetric) {
      // L panel of the earlier pivot holds A_{later, earlier}.
      if (ka < kb)
        lower(first, entry) = lower_by_id;
      else
        lower(first, entry) = lower_by_id.transpose();
    } else if (ka < kb) {
      upper(first, entry) = matrix.block(a, b);
      lower(first, entry) = lower_by_id;
    } else {
      upper(first, entry) = lower_by_id;
      lower(first, entry) = matrix.block(a, b);
    }
  }
}

namespace {
// KLU's cheap reciprocal condition estimate min |u_ii| / max |u_ii|, with the
// pivot's input scale as a floor for the denominator so that a block
// cancelled to rounding noise does not look well conditioned.
template <class Diagonal>  // a matrix diagonal: strided, so no Ref (which would copy it)
double pivot_ratio(const Diagonal& pivots, double input_scale) {
  if (pivots.size() == 0) return 1.0;
  const double largest = std::max(pivots.cwiseAbs().maxCoeff(), input_scale);
  if (!(largest > 0.0) || !std::isfinite(largest)) return 0.0;
  return pivots.cwiseAbs().minCoeff() / largest;
}
}  // namespace

Status Factorization::Impl::factor_pivot(int k, double tolerance) {
  const auto dk = diag(k);
  double ratio;
  if (method == Method::LLT) {
    llt[k].compute(dk);
    if (llt[k].info() != Eigen::Success) return Status::NotPositiveDefinite;
    ratio = pivot_ratio(llt[k].matrixLLT().diagonal(), std::sqrt(scale[k]));
    ratio *= ratio;
  } else {
    lu[k].compute(dk);
    ratio = pivot_ratio(lu[k].matrixLU().diagonal(), scale[k]);
  }
  min_ratio = std::min(min_ratio, ratio);
  if (!(ratio >= tolerance) || ratio == 0.0) return Status::SingularPivot;
  return Status::Success;
}

void Factorization::Impl::eliminate_unsymmetric(int k) {
  const int b = d->size[k], w = d->width[k];
  auto panel = upper_panel(k);
  Eigen::Map<Eigen::MatrixXd> copy(scratch_a.data(), b, w);
  copy = panel;
  panel.noalias() = lu[k].solve(copy);
  const int end = d->struct_begin[k + 1];
  for (int e1 = d->struct_begin[k]; e1 < end; ++e1) {
    const int a = d->struct_pos[e1];
    if (!active[a]) continue;
    const auto l_ak = lower(k, e1);
    const auto u_ka = upper(k, e1);
    diag(a).noalias() -= l_ak * u_ka;
    scale[a] = std::max(scale[a], l_ak.norm() * u_ka.norm());
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < end; ++e2) {
      const int c = d->struct_pos[e2];
      r = find_entry(c, r);
      if (!active[c]) continue;
      upper(a, r).noalias() -= l_ak * upper(k, e2);
      lower(a, r).noalias() -= lower(k, e2) * u_ka;
    }
  }
}

void Factorization::Impl::eliminate_symmetric(int k) {
  const int b = d->size[k], w = d->width[k];
  auto panel = lower_panel(k);
  // `right` holds the factor the updates multiply by: A_jk (LDLT), L_jk (LLT).
  Eigen::Map<Eigen::MatrixXd> unscaled(scratch_a.data(), w, b);
  const double* right = panel.data();
  long right_stride = w;
  if (method == Method::LLT) {
    llt[k].matrixU().solveInPlace<Eigen::OnTheRight>(panel);
  } else {
    unscaled = panel;
    Eigen::Map<Eigen::MatrixXd> scaled_t(scratch_b.data(), b, w);
    scaled_t.noalias() = lu[k].solve(unscaled.transpose());
    panel = scaled_t.transpose();
    right = unscaled.data();
  }
  const int end = d->struct_begin[k + 1];
  for (int e1 = d->struct_begin[k]; e1 < end; ++e1) {
    const int a = d->struct_pos[e1];
    if (!active[a]) continue;
    const int col = d->struct_col[e1];
    const Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>> r_a(right + col, d->size[a], b,
                                                                          Eigen::OuterStride<>(std::max(1L, right_stride)));
    diag(a).noalias() -= lower(k, e1) * r_a.transpose();
    scale[a] = std::max(scale[a], lower(k, e1).norm() * r_a.norm());
    int r = d->struct_begin[a];
    for (int e2 = e1 + 1; e2 < end; ++e2) {
      const int c = d->struct_pos[e2];
      r = find_entry(c, r);
      if (!active[c]) continue;
      lower(a, r).noalias() -= lower(k, e2) * r_a.transpose();
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
  if (const NodeId bad = matrix.first_non_finite_node(); bad >= 0) {
    m.failed = bad;
    return m.status = Status::NonFiniteValue;
  }
  m.load(matrix, options);
  const int n = static_cast<int>(m.d->order.size());
  for (int k = 0; k < n; ++k) {
    if (!m.active[k] || m.d->size[k] == 0) continue;
    if (const Status s = m.factor_pivot(k, options.pivot_tolerance); s != Status::Success) {
      m.failed = m.d->order[k];
      return m.status = s;
    }
    if (m.d->width[k] == 0) continue;
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
  long doubles = static_cast<long>(m.values.size() + m.scratch_a.size() + m.scratch_b.size() + m.rhs_scratch.size() +
                                   m.residual.size());
  for (int b : m.d->size) doubles += static_cast<long>(b) * b;  // one pivot factorization per node
  return 8 * doubles;
}

}  // namespace graphsolve
