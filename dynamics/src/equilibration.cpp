#include "equilibration.hpp"

#include <cmath>

#include "loop_joints.hpp"
#include "principal_moments.hpp"

namespace dynamics::detail {

Equilibration::Equilibration(const Model& model, const MechanismGraph& mg) : angular_(model.num_bodies(), 1.0) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Body& body = model.body(b);
    const double radius = std::sqrt(principal_moments(body.inertia).values(2) / body.mass);
    if (radius >= kSmallest && radius <= kLargest) continue;
    angular_[b] = 1.0 / radius;
    enabled_ = true;
  }
  if (!enabled_) return;
  floored_.assign(mg.graph.num_nodes(), 1);
  const std::vector<char> on_loop = joints_on_loops(model);
  for (int j = 0; j < model.num_joints(); ++j)
    if (mg.joint_node[j] >= 0 && !on_loop[j]) floored_[mg.joint_node[j]] = 0;
}

// Bodies: 1 on the linear rows, angular_ on the angular ones. Other nodes:
// one over the square root of each row's Schur diagonal through the bodies,
// sum of G_ic^2 / W_cc (the same with the bodies scaled or not); 1 where
// that is zero (rows that touch no body).
void Equilibration::row_factors(const graphsolve::BlockMatrix& matrix) {
  const graphsolve::Pattern& p = matrix.pattern();
  const int bodies = static_cast<int>(angular_.size());
  factor_.resize(p.dimension);
  for (int b = 0; b < bodies; ++b) {
    factor_.segment<3>(6 * b).setOnes();
    factor_.segment<3>(6 * b + 3).setConstant(angular_[b]);
  }
  for (int node = bodies; node < p.num_nodes; ++node) {
    auto rows = factor_.segment(p.offset[node], p.size[node]);
    rows.setZero();
    for (int e = p.adj_begin[node]; e < p.adj_begin[node + 1]; ++e) {
      const int b = p.adj[e];
      if (b >= bodies) continue;
      const auto coupling = matrix.block(node, b);
      const auto weight = matrix.diag(b);
      for (int c = 0; c < 6; ++c)
        if (weight(c, c) != 0.0) rows += coupling.col(c).cwiseAbs2() / std::abs(weight(c, c));
    }
    for (double& d : rows) d = d > 0.0 && std::isfinite(d) ? 1.0 / std::sqrt(d) : 1.0;
  }
}

void Equilibration::scale_blocks(graphsolve::BlockMatrix& a) const {
  const graphsolve::Pattern& p = a.pattern();
  const auto rows_of = [&](int node) { return factor_.segment(p.offset[node], p.size[node]).asDiagonal(); };
  for (int node = 0; node < p.num_nodes; ++node) {
    auto d = a.diag(node);
    d = rows_of(node) * d * rows_of(node);
  }
  for (const auto& [i, j] : p.edges) {
    auto upper = a.block(i, j), lower = a.block(j, i);
    upper = rows_of(i) * upper * rows_of(j);
    lower = rows_of(j) * lower * rows_of(i);
  }
}

const graphsolve::BlockMatrix& Equilibration::to_factor(const graphsolve::BlockMatrix& matrix,
                                                        graphsolve::FactorOptions& options,
                                                        double relative_regularization) {
  // The rows are scaled here by the physics (masses, lever arms). The
  // solver's own retry of a failing pivot with its rows scaled would pass a
  // degenerate body and fail at its joint instead, whose Schur complement
  // carries the body's huge inverse inertia: the body is the better culprit
  // to name, and the regularization grows on the plain test's failures.
  options.equilibrate_pivots = false;
  if (!enabled_) return matrix;
  row_factors(matrix);
  if (!unshifted_ || unshifted_->pattern_ptr() != matrix.pattern_ptr()) {
    unshifted_.emplace(matrix);
    shifted_.emplace(matrix);
  } else {
    *unshifted_ = matrix;  // same sizes: the storage is reused
  }
  scale_blocks(*unshifted_);
  *shifted_ = *unshifted_;
  const graphsolve::Pattern& p = matrix.pattern();
  for (int node = 0; node < p.num_nodes; ++node) {
    if (p.kind[node] != graphsolve::NodeKind::ZeroDiagonal) continue;
    auto d = shifted_->diag(node);
    const auto rows = factor_.segment(p.offset[node], p.size[node]);
    const double floor = floored_[node] ? -relative_regularization : 0.0;
    d.diagonal() += (options.constraint_shift * rows.cwiseAbs2()).cwiseMin(floor);
  }
  options.constraint_shift = 0.0;
  return *shifted_;
}

}  // namespace dynamics::detail
