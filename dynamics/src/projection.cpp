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
#include "joint_kinematics.hpp"
#include "mass_range.hpp"
#include "constraint_system.hpp"
#include "mechanism_graph.hpp"
#include "position_roundoff.hpp"

namespace dynamics {
namespace {

using detail::ConstraintSystem;

constexpr int kRefinementRounds = 3;

void displace(State& s, const Eigen::VectorXd& delta, double alpha, int bodies) {
  for (int b = 0; b < bodies; ++b) {
    s.position[b] += alpha * delta.segment<3>(6 * b);
    s.orientation[b] = (s.orientation[b] * rotation_from_vector(alpha * delta.segment<3>(6 * b + 3))).normalized();
  }
}

}  // namespace

ProjectionResult project_positions(const Model& model, State& state, const ProjectionOptions& options) {
  check_state(model, state);
  detail::check_mass_range(model, "dynamics::project_positions");
  if (!(options.regularization >= 0.0) || !std::isfinite(options.max_regularization) ||
      !(options.max_regularization >= options.regularization))
    throw std::invalid_argument("dynamics::project_positions: regularization must be >= 0 and max_regularization "
                                "finite and >= regularization, got " + detail::format_number(options.regularization) +
                                " and " + detail::format_number(options.max_regularization));
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
    if (system.factorize_regularized(options.regularization, options.max_regularization) < 0.0 ||
        !system.solve_factored(rhs))
      break;
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
    detail::track_joint_angles(model, state);
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
  detail::check_mass_range(model, "dynamics::project_velocities");
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
  const ProjectionOptions defaults;
  const double used = system.factorize_regularized(defaults.regularization, defaults.max_regularization);
  // A grown regularization lets the joints move by about it times the
  // impulses: refinement against the exact system takes that out.
  const bool solved = used == defaults.regularization ? system.solve_factored(rhs)
                                                      : used >= 0.0 && system.solve_refined(rhs, kRefinementRounds);
  if (!solved)
    throw std::invalid_argument("dynamics::project_velocities: the constraint system cannot be solved (" +
                                system.failure() + ", at regularizations up to " +
                                detail::format_number(defaults.max_regularization) +
                                "): joints that lock each other beyond what the regularization absorbs, or a body "
                                "whose smallest principal moment is below about 1e-13 times its largest (a needle "
                                "of no thickness), or whose moments are below about 1e-13 times its mass times "
                                "the squared distance to its joint (a point mass on an arm), or a body lighter "
                                "than about 1e-12 times a body jointed to it (a placeholder link: give it more "
                                "mass and inertia), which the pivot test cannot tell from a singular block");
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
