#include "equality_system.hpp"

namespace dynamics::detail {

BlockTables resolve_blocks(const Model& model, const MechanismGraph& mg, graphsolve::BlockMatrix& matrix) {
  BlockTables t;
  const int nb = model.num_bodies(), nj = model.num_joints();
  t.body_diagonal.resize(nb);
  for (int b = 0; b < nb; ++b) t.body_diagonal[b] = matrix.diag(b).data();
  t.joints.assign(nj, BlockTables::Joint{});
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    BlockTables::Joint& c = t.joints[j];
    if (has_damper(joint) && joint.parent != kWorld) {
      c.child_parent = matrix.block(joint.child, joint.parent).data();
      c.parent_child = matrix.block(joint.parent, joint.child).data();
    }
    const int node = mg.joint_node[j];
    if (node < 0) continue;
    c.joint_diagonal = matrix.diag(node).data();
    c.child_joint = matrix.block(joint.child, node).data();
    c.joint_child = matrix.block(node, joint.child).data();
    if (joint.parent != kWorld) {
      c.parent_joint = matrix.block(joint.parent, node).data();
      c.joint_parent = matrix.block(node, joint.parent).data();
    }
  }
  const int nc = static_cast<int>(mg.coupling_node.size());
  t.couplings.assign(nc, BlockTables::Coupling{});
  for (int c = 0; c < nc; ++c) {
    const int node = mg.coupling_node[c];
    t.couplings[c].diagonal = matrix.diag(node).data();
    const CouplingBodies& bodies = mg.coupling_bodies[c];
    for (int i = 0; i < bodies.count; ++i) {
      t.couplings[c].body_coupling[i] = matrix.block(bodies.body[i], node).data();
      t.couplings[c].coupling_body[i] = matrix.block(node, bodies.body[i]).data();
    }
  }
  return t;
}

EqualitySystem::EqualitySystem(const Model& model, const MechanismGraph& full_graph, const graphsolve::Pattern& full)
    : graph(build_mechanism_graph(model, true, {}, false)),
      symbolic(graphsolve::analyze(graph.graph)),
      matrix(symbolic),
      lu(symbolic) {
  blocks = resolve_blocks(model, graph, matrix);
  map_rows(model, full_graph, full);
  rhs_.setZero(symbolic.pattern().dimension);
  x_.setZero(symbolic.pattern().dimension);
}

void EqualitySystem::map_rows(const Model& model, const MechanismGraph& full_graph, const graphsolve::Pattern& full) {
  // Bodies are the first nodes of both graphs; joints and couplings follow
  // in the same order in both, with the limit nodes between them there.
  full_node_.assign(graph.graph.num_nodes(), -1);
  for (int b = 0; b < model.num_bodies(); ++b) full_node_[b] = b;
  for (int j = 0; j < model.num_joints(); ++j)
    if (graph.joint_node[j] >= 0) full_node_[graph.joint_node[j]] = full_graph.joint_node[j];
  for (size_t c = 0; c < graph.coupling_node.size(); ++c) full_node_[graph.coupling_node[c]] = full_graph.coupling_node[c];
  const graphsolve::Pattern& own = symbolic.pattern();
  runs_.clear();
  for (int node = 0; node < static_cast<int>(full_node_.size()); ++node) {
    const Run run{full.offset[full_node_[node]], own.offset[node], own.size[node]};
    if (!runs_.empty() && runs_.back().full + runs_.back().length == run.full &&
        runs_.back().own + runs_.back().length == run.own)
      runs_.back().length += run.length;  // consecutive in both: one copy
    else
      runs_.push_back(run);
  }
}

void EqualitySystem::gather(const Eigen::VectorXd& full, Eigen::VectorXd& own) const {
  for (const Run& r : runs_) own.segment(r.own, r.length) = full.segment(r.full, r.length);
}

void EqualitySystem::scatter(const Eigen::VectorXd& own, Eigen::VectorXd& full) const {
  for (const Run& r : runs_) full.segment(r.full, r.length) = own.segment(r.own, r.length);
}

void EqualitySystem::solve_in_place(graphsolve::Factorization& factors, Eigen::VectorXd& x) {
  gather(x, x_);
  factors.solve_in_place(x_);
  scatter(x_, x);
}

void EqualitySystem::solve_refined(graphsolve::Factorization& factors, const graphsolve::BlockMatrix& a,
                                   const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  gather(rhs, rhs_);
  factors.solve_refined(a, rhs_, x_, 1);
  x = rhs;
  scatter(x_, x);
}

}  // namespace dynamics::detail
