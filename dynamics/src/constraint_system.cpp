#include "constraint_system.hpp"

#include <algorithm>
#include <cmath>

namespace dynamics::detail {

namespace {
MechanismGraph projection_graph(const Model& model, bool damper_edges, const std::vector<HeldRow>& held) {
  MechanismGraph mg = build_mechanism_graph(model);
  if (damper_edges) add_damper_edges(model, mg);
  for (const HeldRow& row : held) {
    const int node = mg.graph.add_node(1, graphsolve::NodeKind::ZeroDiagonal);
    for (int side = 0; side < 2; ++side)
      if (row.body[side] != kWorld) mg.graph.add_edge(node, row.body[side]);
  }
  return mg;
}
}  // namespace

ConstraintSystem::ConstraintSystem(const Model& model, bool damper_edges, const std::vector<HeldRow>& held)
    : model_(model),
      held_(held),
      first_held_node_(0),
      mg_(projection_graph(model, damper_edges, held)),
      symbolic_(graphsolve::analyze(mg_.graph)),
      matrix_(symbolic_),
      factor_(symbolic_),
      equilibration_(model, mg_),
      poses_(model.num_bodies()),
      mass_scale_(detail::mass_scale(model)) {
  first_held_node_ = mg_.graph.num_nodes() - static_cast<int>(held_.size());
}

bool ConstraintSystem::fits(const std::vector<HeldRow>& held) const {
  if (held.size() != held_.size()) return false;
  for (std::size_t i = 0; i < held.size(); ++i)
    if (held[i].body[0] != held_[i].body[0] || held[i].body[1] != held_[i].body[1]) return false;
  return true;
}

double ConstraintSystem::assemble(const State& state, Eigen::VectorXd& g_rows, ProjectionResult* report,
                                  double tolerance) {
  g_rows.setZero(matrix_.rows());
  double violation = 0.0;
  for (int b = 0; b < model_.num_bodies(); ++b) matrix_.diag(b) = weight(b);
  JointEvaluation e;
  for (int j = 0; j < model_.num_joints(); ++j) {
    const int node = mg_.joint_node[j];
    if (node < 0) continue;
    const Joint& joint = model_.joint(j);
    const int m = joint.num_constraints();
    evaluate_joint(model_, mg_, state, j, true, e);
    matrix_.diag(node).setZero();
    matrix_.block(node, joint.child) = e.child.topRows(m);
    matrix_.block(joint.child, node) = e.child.topRows(m).transpose();
    if (joint.parent != kWorld) {
      matrix_.block(node, joint.parent) = e.parent.topRows(m);
      matrix_.block(joint.parent, node) = e.parent.topRows(m).transpose();
    }
    g_rows.segment(symbolic_.pattern().offset[node], m) = e.value.head(m);
    const double v = e.value.head(m).lpNorm<Eigen::Infinity>();
    if (report && v > violation) report->worst_joint = j;
    if (report && v > tolerance) report->violated_joints.push_back(j);
    violation = std::max(violation, v);
  }
  for (std::size_t i = 0; i < held_.size(); ++i) {  // closed already: no value to report
    const int node = first_held_node_ + static_cast<int>(i);
    matrix_.diag(node).setZero();
    for (int side = 0; side < 2; ++side) {
      const int body = held_[i].body[side];
      if (body == kWorld) continue;
      matrix_.block(node, body) = held_[i].row[side];
      matrix_.block(body, node) = held_[i].row[side].transpose();
    }
  }
  if (model_.num_couplings() == 0) return violation;
  for (int b = 0; b < model_.num_bodies(); ++b) poses_[b] = body_pose(state, b);
  CouplingEvaluation f;
  for (int c = 0; c < model_.num_couplings(); ++c) {
    const int node = mg_.coupling_node[c];
    const CouplingBodies& bodies = mg_.coupling_bodies[c];
    evaluate_coupling(model_, mg_.axes, model_.coupling(c), bodies, poses_, state.joint_angles, f);
    matrix_.diag(node).setZero();
    for (int i = 0; i < bodies.count; ++i) {
      matrix_.block(node, bodies.body[i]) = f.row[i];
      matrix_.block(bodies.body[i], node) = f.row[i].transpose();
    }
    g_rows(symbolic_.pattern().offset[node]) = f.value;
    const double v = std::abs(f.value);
    if (report && v > violation) {
      report->worst_joint = -1;
      report->worst_coupling = c;
    }
    if (report && v > tolerance) report->violated_couplings.push_back(c);
    violation = std::max(violation, v);
  }
  return violation;
}

bool ConstraintSystem::factorize(double regularization) {
  graphsolve::FactorOptions options;
  options.constraint_shift = -regularization;
  // Equilibrated here rather than in assemble(): the load estimate rewrites
  // the body blocks between factorizations. They are mass matrices over the
  // mass scale, so the regularization is already in the scaled rows' units.
  const graphsolve::BlockMatrix& a = equilibration_.to_factor(matrix_, options, regularization);
  return factor_.factorize(a, options) == graphsolve::Status::Success;
}

double ConstraintSystem::factorize_regularized(double regularization, double largest) {
  for (double r = std::max(regularization, held_regularization_);; r = std::min(100.0 * r, largest)) {
    if (factorize(r)) {
      if (r > regularization) held_regularization_ = r;
      return r;
    }
    if (!(r > 0.0) || r >= largest) return -1.0;
  }
}

bool ConstraintSystem::solve_factored(Eigen::VectorXd& rhs) {
  equilibration_.scale(rhs);  // S b
  const bool solved = factor_.solve_in_place(rhs) == graphsolve::Status::Success;
  equilibration_.scale(rhs);  // x = S y
  return solved && rhs.allFinite();
}

bool ConstraintSystem::solve_refined(Eigen::VectorXd& rhs, int rounds) {
  solution_.resize(rhs.size());
  equilibration_.scale(rhs);  // consumed: S b
  if (factor_.solve_refined(equilibration_.to_refine(matrix_), rhs, solution_, rounds) != graphsolve::Status::Success ||
      !solution_.allFinite())
    return false;
  equilibration_.scale(solution_);  // x = S y
  rhs.swap(solution_);
  return true;
}

std::string ConstraintSystem::failure() const {
  if (factor_.status() == graphsolve::Status::Success) return "the solution is not finite";
  std::string text = graphsolve::to_string(factor_.status());
  const int node = factor_.failed_node();
  if (node >= 0 && node < model_.num_bodies()) return text + " at body '" + model_.body(node).name + "'";
  const int joint = joint_of_node(mg_, node);
  if (joint >= 0) return text + " at joint '" + model_.joint(joint).name + "'";
  const int coupling = coupling_of_node(mg_, node);
  if (coupling >= 0) return text + " at coupling '" + model_.coupling(coupling).name + "'";
  return node >= first_held_node_ ? text + " at a held contact or limit row" : text;
}

}  // namespace dynamics::detail
