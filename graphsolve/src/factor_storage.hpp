#pragma once
// Internal state of a Factorization: one contiguous arena holding, for every
// pivot position k, its diagonal block (b x b), its upper panel U_k
// (b x W, the blocks A_kj of its later neighbours side by side) and its lower
// panel L_k (W x b, the blocks A_jk stacked). Symmetric methods use only L_k.

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

#include "graphsolve/factorization.hpp"
#include "symbolic_data.hpp"

namespace graphsolve {

using StridedMap = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

struct Factorization::Impl {
  Impl(const Symbolic& s, Method m);

  StridedMap diag(int k) { return StridedMap(values.data() + diag_off[k], d->size[k], d->size[k], Eigen::OuterStride<>(std::max(1, d->size[k]))); }
  // Block of neighbour entry e in the upper panel of k: A_kj, b_k x b_j.
  StridedMap upper(int k, int e) {
    const int b = d->size[k];
    return StridedMap(values.data() + upper_off[k] + static_cast<long>(b) * d->struct_col[e], b,
                      d->size[d->struct_pos[e]], Eigen::OuterStride<>(std::max(1, b)));
  }
  // Block of neighbour entry e in the lower panel of k: A_jk, b_j x b_k.
  StridedMap lower(int k, int e) {
    return StridedMap(values.data() + lower_off[k] + d->struct_col[e], d->size[d->struct_pos[e]], d->size[k],
                      Eigen::OuterStride<>(std::max(1, d->width[k])));
  }
  StridedMap upper_panel(int k) { return StridedMap(values.data() + upper_off[k], d->size[k], d->width[k], Eigen::OuterStride<>(std::max(1, d->size[k]))); }
  StridedMap lower_panel(int k) { return StridedMap(values.data() + lower_off[k], d->width[k], d->size[k], Eigen::OuterStride<>(std::max(1, d->width[k]))); }

  // Entry (of some pivot's list) holding neighbour position c, scanning forward from r.
  int find_entry(int c, int r) const {
    while (d->struct_pos[r] != c) ++r;
    return r;
  }

  void load(const BlockMatrix& matrix, const FactorOptions& options);
  Status factor_pivot(int k, double tolerance);
  void eliminate_unsymmetric(int k);
  void eliminate_symmetric(int k);
  void solve_columns(Eigen::Ref<Eigen::MatrixXd> rhs);

  Symbolic symbolic;
  const detail::SymbolicData* d;
  Method method;
  std::vector<double> values;
  std::vector<long> diag_off, upper_off, lower_off;
  std::vector<char> active;  // per position, captured at factorize
  // Per position: the largest magnitude that went into the pivot block (its
  // loaded entries and the norms of the updates it received). A pivot that is
  // tiny against it has lost its digits to cancellation.
  std::vector<double> scale;
  std::vector<Eigen::PartialPivLU<Eigen::MatrixXd>> lu;  // LDU, LDLT pivots
  std::vector<Eigen::LLT<Eigen::MatrixXd>> llt;          // LLT pivots
  std::vector<double> scratch_a, scratch_b;              // max_panel each
  Eigen::MatrixXd rhs_scratch;                           // max_size x kRhsChunk
  Eigen::VectorXd residual;                              // dimension, for refinement
  Status status = Status::NotFactorized;
  NodeId failed = -1;
  double min_ratio = 1.0;

  static constexpr int kRhsChunk = 16;
};

}  // namespace graphsolve
