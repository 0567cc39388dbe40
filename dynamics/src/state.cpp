#include "dynamics/state.hpp"

#include <stdexcept>
#include <string>

#include "dynamics/coordinates.hpp"
#include "joint_constraint.hpp"
#include "mass_range.hpp"

namespace dynamics {

void check_state(const Model& model, const State& s) {
  const std::size_t nb = static_cast<std::size_t>(model.num_bodies());
  const auto check = [&](std::size_t size, std::size_t expected, const char* what) {
    if (size != expected)
      throw std::invalid_argument(std::string("dynamics::State: ") + what + " has " + std::to_string(size) +
                                  " entries, the model needs " + std::to_string(expected));
  };
  check(s.position.size(), nb, "position");
  check(s.orientation.size(), nb, "orientation");
  check(s.velocity.size(), nb, "velocity");
  check(s.angular_velocity.size(), nb, "angular_velocity");
  check(s.external_force.size(), nb, "external_force");
  check(s.external_torque.size(), nb, "external_torque");
  check(s.joint_angles.size(), static_cast<std::size_t>(model.num_joints()), "joint_angles");
  check(static_cast<std::size_t>(s.joint_input.size()), static_cast<std::size_t>(model.num_coordinates()),
        "joint_input");
}

State make_state(const Model& model) {
  detail::check_mass_range(model, "dynamics::make_state");
  const int nb = model.num_bodies();
  State s;
  s.position.resize(nb);
  s.orientation.resize(nb);
  s.velocity.assign(nb, Vector3::Zero());
  s.angular_velocity.assign(nb, Vector3::Zero());
  s.external_force.assign(nb, Vector3::Zero());
  s.external_torque.assign(nb, Vector3::Zero());
  s.joint_input = Eigen::VectorXd::Zero(model.num_coordinates());
  s.joint_angles.assign(model.num_joints(), 0.0);
  for (int j = 0; j < model.num_joints(); ++j) s.joint_angles[j] = detail::joint_axes(model.joint(j)).angle_centre;
  for (int b = 0; b < nb; ++b) {
    s.position[b] = model.body(b).position;
    s.orientation[b] = model.body(b).orientation;
  }
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.num_coordinates());
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.num_coordinates());
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    for (std::size_t i = 0; i < joint.initial_position.size(); ++i)
      q(model.coordinate_offset(j) + static_cast<int>(i)) = joint.initial_position[i];
    for (std::size_t i = 0; i < joint.initial_velocity.size(); ++i)
      v(model.coordinate_offset(j) + static_cast<int>(i)) = joint.initial_velocity[i];
  }
  set_joint_positions(model, s, q);
  const ProjectionResult p = project_positions(model, s);
  if (!p.converged)
    throw std::invalid_argument("dynamics::make_state: the joint constraints cannot be satisfied: " +
                                describe_violation(model, p) + " (do the joint frames on the two links meet?)");
  set_joint_velocities(model, s, v);
  project_velocities(model, s);
  return s;
}

}  // namespace dynamics
