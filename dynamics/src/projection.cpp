// Projection of a state onto the joint constraints. Both projections solve the
// saddle-point system [W G^T; G 0] of the mechanism graph, W the body mass
// matrices over the mechanism's mass scale (so that the regularization means
// the same for milligrams and tonnes) and G the constraint Jacobian at the
// current configuration.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/coordinates.hpp"
#include "format_number.hpp"
#include "mechanism_graph.hpp"
#include "position_roundoff.hpp"

namespace dynamics {
namespace {

using detail::JointEvaluation;

class ConstraintSystem {
 public:
  explicit ConstraintSystem(const Model& model)
      : model_(model),
        mg_(detail::build_mechanism_graph(model)),
        symbolic_(graphsolve::analyze(mg_.graph)),
        matrix_(symbolic_),
        factor_(symbolic_),
        poses_(model.num_bodies()),
        mass_scale_(detail::mass_scale(model)) {}

  // Body b's block of W: its mass matrix over the mass scale.
  Eigen::Matrix<double, 6, 6> weight(int b) const { return detail::mass_matrix(model_.body(b)) / mass_scale_; }

  // Fill the matrix at the state's configuration; returns max |g| and stores g
  // (and, if asked, which joints are violated beyond `tolerance`).
  double assemble(const State& state, Eigen::VectorXd& g_rows, ProjectionResult* report = nullptr,
                  double tolerance = 0.0) {
    g_rows.setZero(matrix_.rows());
    double violation = 0.0;
    for (int b = 0; b < model_.num_bodies(); ++b) matrix_.diag(b) = weight(b);
    JointEvaluation e;
    for (int j = 0; j < model_.num_joints(); ++j) {
      const int node = mg_.joint_node[j];
      if (node < 0) continue;
      const Joint& joint = model_.joint(j);
      const int m = joint.num_constraints();
      detail::evaluate_joint(model_, mg_, state, j, true, e);
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
    if (model_.num_couplings() == 0) return violation;
    for (int b = 0; b < model_.num_bodies(); ++b) poses_[b] = detail::body_pose(state, b);
    detail::CouplingEvaluation f;
    for (int c = 0; c < model_.num_couplings(); ++c) {
      const int node = mg_.coupling_node[c];
      const detail::CouplingBodies& bodies = mg_.coupling_bodies[c];
      detail::evaluate_coupling(model_, mg_.axes, model_.coupling(c), bodies, poses_, f);
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

  bool solve(Eigen::VectorXd& rhs, double regularization) {
    graphsolve::FactorOptions options;
    options.constraint_shift = -regularization;
    if (factor_.factorize(matrix_, options) != graphsolve::Status::Success) return false;
    return factor_.solve_in_place(rhs) == graphsolve::Status::Success && rhs.allFinite();
  }

  // Why the last solve failed: graphsolve's status and the body or joint of the failed pivot.
  std::string failure() const {
    if (factor_.status() == graphsolve::Status::Success) return "the solution is not finite";
    std::string text = graphsolve::to_string(factor_.status());
    const int node = factor_.failed_node();
    if (node >= 0 && node < model_.num_bodies()) return text + " at body '" + model_.body(node).name + "'";
    const int joint = detail::joint_of_node(mg_, node);
    if (joint >= 0) return text + " at joint '" + model_.joint(joint).name + "'";
    const int coupling = detail::coupling_of_node(mg_, node);
    return coupling >= 0 ? text + " at coupling '" + model_.coupling(coupling).name + "'" : text;
  }

  const graphsolve::BlockMatrix& matrix() const { return matrix_; }
  int rows() const { return matrix_.rows(); }

 private:
  const Model& model_;
  detail::MechanismGraph mg_;
  graphsolve::Symbolic symbolic_;
  graphsolve::BlockMatrix matrix_;
  graphsolve::Factorization factor_;
  std::vector<detail::Pose> poses_;  // the state's, for the couplings
  double mass_scale_;
};

void displace(State& s, const Eigen::VectorXd& delta, double alpha, int bodies) {
  for (int b = 0; b < bodies; ++b) {
    s.position[b] += alpha * delta.segment<3>(6 * b);
    s.orientation[b] = (s.orientation[b] * rotation_from_vector(alpha * delta.segment<3>(6 * b + 3))).normalized();
  }
}

}  // namespace

ProjectionResult project_positions(const Model& model, State& state, const ProjectionOptions& options) {
  check_state(model, state);
  ProjectionResult result;
  if (model.num_bodies() == 0) {
    result.converged = true;
    return result;
  }
  ConstraintSystem system(model);
  const State start = state;
  const double tolerance = std::max(options.tolerance, detail::position_roundoff(state));
  Eigen::VectorXd g, rhs;
  double violation = system.assemble(state, g);
  while (violation > tolerance && result.iterations < options.max_iterations) {
    ++result.iterations;
    rhs = -g;  // body rows are zero: the step is the least mass-weighted change
    if (!system.solve(rhs, options.regularization)) break;
    double alpha = 1.0;
    State trial = state;
    double trial_violation = violation;
    for (int halving = 0; halving < 30; ++halving, alpha *= 0.5) {
      trial = state;
      displace(trial, rhs, alpha, model.num_bodies());
      trial_violation = system.assemble(trial, g);
      if (trial_violation < violation) break;
    }
    if (!(trial_violation < violation)) break;  // no progress: leave the last accepted state
    state = trial;
    violation = trial_violation;
  }
  violation = system.assemble(state, g, &result, tolerance);
  result.violation = violation;
  result.converged = violation <= tolerance;
  for (int b = 0; b < model.num_bodies(); ++b) {
    result.translation = std::max(result.translation, (state.position[b] - start.position[b]).norm());
    result.rotation = std::max(result.rotation, state.orientation[b].angularDistance(start.orientation[b]));
  }
  return result;
}

std::string describe_violation(const Model& model, const ProjectionResult& result) {
  const std::vector<int>& joints = result.violated_joints;
  const std::vector<int>& couplings = result.violated_couplings;
  if (joints.empty() && couplings.empty()) return "no joint is violated";
  // "joint 'a'", "joints 'a', 'b'", "coupling 'c'", ... joined by "and".
  const auto list = [](const char* kind, const std::vector<int>& items, auto name_of) {
    std::string text = std::string(kind) + (items.size() == 1 ? " " : "s ");
    for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ", '" : "'") + name_of(items[i]) + "'";
    return text;
  };
  std::string text;
  if (!joints.empty()) text = list("joint", joints, [&](int j) { return model.joint(j).name; });
  if (!couplings.empty())
    text += (text.empty() ? "" : " and ") + list("coupling", couplings, [&](int c) { return model.coupling(c).name; });
  text += joints.size() + couplings.size() == 1 ? " is" : " are";
  const std::string worst = result.worst_coupling >= 0 ? model.coupling(result.worst_coupling).name
                            : result.worst_joint >= 0  ? model.joint(result.worst_joint).name
                                                       : std::string("?");
  text += " still violated (largest: '" + worst + "', " + detail::format_number(result.violation) + ") after " +
          std::to_string(result.iterations) + " projection iterations";
  return text;
}

double project_velocities(const Model& model, State& state) {
  check_state(model, state);
  if (model.num_bodies() == 0 || model.num_joints() == 0) return 0.0;  // couplings need joints
  ConstraintSystem system(model);
  Eigen::VectorXd g;
  system.assemble(state, g);
  // [W G^T; G 0] [v; mu] = [W v0; 0]: v is the W-closest velocity with G v = 0.
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(system.rows());
  for (int b = 0; b < model.num_bodies(); ++b) {
    Eigen::Matrix<double, 6, 1> v;
    v << state.velocity[b], state.angular_velocity[b];
    rhs.segment<6>(6 * b) = system.weight(b) * v;
  }
  if (!system.solve(rhs, 1e-10))
    throw std::invalid_argument("dynamics::project_velocities: the constraint system cannot be solved (" +
                                system.failure() +
                                "): joints that lock each other beyond what the regularization absorbs, or a body "
                                "whose inertia (kg m^2) is below about 1e-13 times its mass (kg), which the pivot "
                                "test cannot tell from a singular block");
  double change = 0.0;
  for (int b = 0; b < model.num_bodies(); ++b) {
    change = std::max(change, (rhs.segment<3>(6 * b) - state.velocity[b]).lpNorm<Eigen::Infinity>());
    change = std::max(change, (rhs.segment<3>(6 * b + 3) - state.angular_velocity[b]).lpNorm<Eigen::Infinity>());
    state.velocity[b] = rhs.segment<3>(6 * b);
    state.angular_velocity[b] = rhs.segment<3>(6 * b + 3);
  }
  return change;
}

}  // namespace dynamics
