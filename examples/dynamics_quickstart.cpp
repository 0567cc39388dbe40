// A double pendulum built with the C++ API, simulated for 5 s.
#include <cmath>
#include <cstdio>

#include <dynamics/dynamics.hpp>

int main() {
  using namespace dynamics;
  Model model;  // gravity (0, 0, -9.81) by default
  // Two 1 m, 1 kg rods; each hangs from its top end (body frame at the centre).
  const int upper = model.add_body(make_link("upper", 1.0, 1.0));
  const int lower = model.add_body(make_link("lower", 1.0, 1.0));

  Joint shoulder = Joint::make(JointType::Revolute, "shoulder", kWorld, upper, Vector3::UnitY());
  shoulder.child_frame.position = Vector3(0, 0, 0.5);  // the joint is at the rod's top
  shoulder.initial_position = {1.0};                   // radians
  Joint elbow = Joint::make(JointType::Revolute, "elbow", upper, lower, Vector3::UnitY());
  elbow.parent_frame.position = Vector3(0, 0, -0.5);   // bottom of the upper rod
  elbow.child_frame.position = Vector3(0, 0, 0.5);
  elbow.damping = 0.01;                                // N m s / rad
  model.add_joint(shoulder);
  model.add_joint(elbow);

  State state = make_state(model);  // bodies placed from the joint coordinates
  StepOptions options;
  options.dt = 0.01;
  Simulator sim(model, options);  // analyses the Newton system's graph once
  const double e0 = total_energy(model, state);
  for (int k = 0; k < 500; ++k) {
    state.joint_input(1) = 0.0;  // elbow torque, set by a controller each step
    const StepResult r = sim.step(state);
    if (!r.ok()) {
      std::printf("step %d failed: %s\n", k, to_string(r.status));
      return 1;
    }
  }
  const Eigen::VectorXd angles = joint_positions(model, state);
  std::printf("t = %.2f s: shoulder %.3f rad, elbow %.3f rad\n", state.time, angles(0), angles(1));
  std::printf("energy lost to the damper: %.4f J, constraint violation %.1e m\n",
              e0 - total_energy(model, state), constraint_violation(model, state));
  return constraint_violation(model, state) < 1e-9 ? 0 : 1;
}
