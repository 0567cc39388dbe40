// Joint Coulomb friction (Joint::friction): a constant torque against the
// motion while the joint moves faster than StepOptions::joint_friction_velocity,
// so spin-down is linear, a pendulum's swing shrinks by the friction's work,
// internal friction keeps the total angular momentum, and a joint loaded
// below its friction creeps at the rate the regularization predicts.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "rotor.hpp"

namespace dynamics {
namespace {

// A box spinning about z on a revolute joint to the world, in zero gravity.
Model rotor(double friction) {
  Joint j = Joint::make(JointType::Revolute, "axle", kWorld, 0, Vector3::UnitZ());
  j.friction = friction;
  return test::zero_gravity_rotor(j);
}

double rate(const Model& model, const State& s, int joint = 0) {
  return joint_velocities(model, s)(model.coordinate_offset(joint));
}

// A body's discrete angular momentum about its z axis when it spins about
// that principal axis: dt/2 s(w) J w with s(w) = sqrt(4/dt^2 - w^2), what the
// step balances against impulses (diagnostics.hpp).
double spin_momentum(const Model& model, const State& s, int body, double dt) {
  const double w = s.angular_velocity[body].z();
  return model.body(body).inertia(2, 2) * w * std::sqrt(1.0 - 0.25 * w * w * dt * dt);
}

TEST(JointFriction, SpinDownIsLinearAndStops) {
  const double friction = 0.01, omega0 = 2.0, dt = 0.01;
  const Model model = rotor(friction);
  const double inertia = model.body(0).inertia(2, 2);  // 1.5 (0.4^2 + 0.2^2) / 12
  const double deceleration = friction / inertia;      // 0.4 rad/s^2: stops after 5 s
  State s = make_state(model);
  set_joint_velocities(model, s, Eigen::VectorXd::Constant(1, omega0));
  StepOptions options;
  options.dt = dt;
  Simulator sim(model, options);
  const double start = spin_momentum(model, s, 0, dt);
  // While the rate is far above the friction velocity, tanh is 1 to the last
  // bit and every step takes the impulse dt * friction off the momentum (to
  // within the Newton tolerance on the momentum residual, tolerance * mass).
  const double per_step = options.tolerance * model.body(0).mass;
  for (int k = 1; k <= 450; ++k) {
    ASSERT_EQ(sim.step(s).status, StepStatus::Success) << "step " << k;
    ASSERT_NEAR(spin_momentum(model, s, 0, dt), start - k * dt * friction, k * per_step) << "step " << k;
    ASSERT_NEAR(rate(model, s), omega0 - k * dt * deceleration, 1e-4) << "step " << k;
  }
  for (int k = 451; k <= 700; ++k) ASSERT_EQ(sim.step(s).status, StepStatus::Success) << "step " << k;
  // Stopped: no Coulomb friction reverses a motion, and nothing drives it.
  EXPECT_LT(std::abs(rate(model, s)), 1e-9);
  // The angle is that of uniform deceleration, omega0^2 / (2 a) = 5 rad, to
  // within a step's travel (the joint reads it within one turn).
  const double travelled = omega0 * omega0 / (2.0 * deceleration);
  EXPECT_NEAR(std::remainder(joint_positions(model, s)(0) - travelled, 2.0 * M_PI), 0.0, omega0 * dt);
}

TEST(JointFriction, SliderStopsLinearlyToo) {
  // A prismatic joint's friction is a force (N): a 2 kg slider launched at
  // 1.5 m/s along x loses dt * friction of momentum a step, exactly, and stops.
  Model model;
  model.gravity = Vector3::Zero();
  const int b = model.add_body(Body::solid("slider", 2.0, Shape::box(Vector3(0.2, 0.1, 0.1))));
  Joint j = Joint::make(JointType::Prismatic, "rail", kWorld, b, Vector3::UnitX());
  j.friction = 0.6;  // 0.3 m/s^2: stops after 5 s, 3.75 m on
  model.add_joint(j);
  State s = make_state(model);
  set_joint_velocities(model, s, Eigen::VectorXd::Constant(1, 1.5));
  StepOptions options;
  options.dt = 0.01;
  Simulator sim(model, options);
  for (int k = 1; k <= 450; ++k) {
    ASSERT_EQ(sim.step(s).status, StepStatus::Success) << "step " << k;
    ASSERT_NEAR(2.0 * s.velocity[b].x(), 2.0 * 1.5 - k * options.dt * j.friction, k * options.tolerance * 2.0)
        << "step " << k;
  }
  for (int k = 451; k <= 700; ++k) ASSERT_EQ(sim.step(s).status, StepStatus::Success) << "step " << k;
  EXPECT_LT(std::abs(rate(model, s)), 1e-9);
  // Symplectic Euler moves by the new velocity: sum over k of dt (v0 - k a dt), to the stop.
  EXPECT_NEAR(joint_positions(model, s)(0), 1.5 * 1.5 / (2.0 * 0.3), 1.5 * options.dt);
}

// A flywheel on a shaft, in zero gravity: the shaft (body 0) turns freely on
// the world, the wheel (body 1) on the shaft with 0.002 N m of friction.
Model flywheel() {
  Model model;
  model.gravity = Vector3::Zero();
  const int shaft = model.add_body(Body::solid("shaft", 2.0, Shape::cylinder(0.05, 0.6)));
  const int wheel = model.add_body(Body::solid("wheel", 1.0, Shape::cylinder(0.3, 0.05)));
  model.add_joint(Joint::make(JointType::Revolute, "bearing", kWorld, shaft, Vector3::UnitZ()));
  Joint clutch = Joint::make(JointType::Revolute, "clutch", shaft, wheel, Vector3::UnitZ());
  clutch.friction = 0.002;
  model.add_joint(clutch);
  return model;
}

TEST(JointFrictionBetweenBodies, KeepsTheTotalAngularMomentumAndSlowsTheSlip) {
  // Friction is internal: it moves spin from wheel to shaft, the wheel
  // losing dt * friction of momentum a step. The slip stops after 3.5 s.
  const Model model = flywheel();
  const int shaft = 0, wheel = 1;
  const Joint& clutch = model.joint(1);
  State s = make_state(model);
  set_joint_velocities(model, s, Eigen::Vector2d(0.0, 3.0));  // the wheel slips at 3 rad/s
  StepOptions options;
  options.dt = 0.01;
  Simulator sim(model, options);
  const double wheel_start = spin_momentum(model, s, wheel, options.dt);
  const Vector3 total = angular_momentum(model, s, options.dt);
  const double i_shaft = model.body(shaft).inertia(2, 2), i_wheel = model.body(wheel).inertia(2, 2);
  const double slowing = clutch.friction * (1.0 / i_shaft + 1.0 / i_wheel);
  const double per_step = options.tolerance * 2.0;  // the Newton tolerance on momenta: tolerance * mass scale
  int iterations = 0;
  for (int k = 1; k <= 100; ++k) {
    const StepResult r = sim.step(s);
    ASSERT_EQ(r.status, StepStatus::Success) << "step " << k;
    iterations += r.iterations;
    ASSERT_NEAR(spin_momentum(model, s, wheel, options.dt), wheel_start - k * options.dt * clutch.friction,
                k * per_step)
        << "step " << k;
    ASSERT_LT((angular_momentum(model, s, options.dt) - total).norm(), k * per_step) << "step " << k;
    ASSERT_NEAR(rate(model, s, 1), 3.0 - k * options.dt * slowing, 1e-3) << "step " << k;
  }
  // After 3.5 s the slip has stopped and the clutch holds: wheel and shaft
  // turn together at the speed that shares the momentum. There friction acts
  // as a stiff damper between the two bodies, and Newton converges in a few
  // iterations only with its share of the body-body blocks right.
  int held_iterations = 0;
  for (int k = 101; k <= 600; ++k) {
    const StepResult r = sim.step(s);
    ASSERT_EQ(r.status, StepStatus::Success) << "step " << k;
    if (k > 400) held_iterations += r.iterations;
  }
  EXPECT_LT(std::abs(rate(model, s, 1)), 1e-9);
  const double shared = total.z() / (i_shaft + i_wheel);
  EXPECT_NEAR(s.angular_velocity[shaft].z(), shared, 1e-3 * shared);
  EXPECT_NEAR(s.angular_velocity[wheel].z(), shared, 1e-3 * shared);
  EXPECT_LE(iterations, 300);
  EXPECT_LE(held_iterations, 2 * 200);
}

TEST(JointFrictionBetweenBodies, AHeldClutchSolvesLikeTheLinearSystemItIs) {
  // The same flywheel at rest, the shaft driven by a torque the clutch can
  // pass on: both turn up together, the slip a small fraction of the
  // friction velocity, where friction is a damper of friction / velocity
  // between the bodies, stiff next to the shaft's inertia. Such a step is
  // (nearly) linear: Newton needs one or two iterations with the right
  // matrix, body-body blocks included.
  const Model model = flywheel();
  const int shaft = 0, wheel = 1;
  const Joint& clutch = model.joint(1);
  const double i_shaft = model.body(shaft).inertia(2, 2), i_wheel = model.body(wheel).inertia(2, 2);
  const double torque = 0.5 * clutch.friction * (i_shaft + i_wheel) / i_wheel;  // the wheel's share: F / 2
  StepOptions options;
  options.dt = 0.01;
  Simulator sim(model, options);
  State s = make_state(model);
  int iterations = 0;
  for (int k = 1; k <= 20; ++k) {
    s.external_torque[shaft] = Vector3(0.0, 0.0, torque);
    const StepResult r = sim.step(s);
    ASSERT_EQ(r.status, StepStatus::Success) << "step " << k;
    iterations += r.iterations;
  }
  // The torque's impulse is all the momentum; the wheel follows the shaft
  // within the small slip that passes its share on.
  EXPECT_NEAR(angular_momentum(model, s, options.dt).z(), torque * 20 * options.dt, 1e-12);
  const double slip = std::abs(rate(model, s, 1));
  EXPECT_LT(slip, options.joint_friction_velocity);
  EXPECT_NEAR(s.angular_velocity[wheel].z(), s.angular_velocity[shaft].z(), slip + 1e-12);
  EXPECT_LE(iterations, 2 * 20);
}

// A 1 m, 1 kg rod hinged at its end: gravity's torque m g L/2 sin(angle).
Model rubbing_pendulum(double friction, double angle) { return pendulum(1.0, 1.0, angle, 0.0, friction); }

TEST(JointFriction, PendulumSwingsLoseTheFrictionsWork) {
  // Between turning points A1 and A2 (on either side) friction does the work
  // F (|A1| + |A2|): m g L/2 (cos|A2| - cos|A1|) = F (|A1| + |A2|). Over a full
  // period (turning points on one side) the symplectic integrator's energy
  // error repeats, so the balance is checked there.
  const double friction = 0.02, torque_scale = 9.81 * 0.5;  // m g L / 2
  const Model model = rubbing_pendulum(friction, 0.2);
  State s = make_state(model);
  StepOptions options;
  options.dt = 0.001;
  Simulator sim(model, options);
  std::vector<double> turning;  // |angle| at each turning point
  double previous_rate = 0.0, previous_angle = 0.2;
  for (int k = 0; k < 8000 && turning.size() < 7; ++k) {
    ASSERT_EQ(sim.step(s).status, StepStatus::Success);
    const double now = rate(model, s);
    if (k > 0 && (now > 0.0) != (previous_rate > 0.0)) turning.push_back(std::abs(previous_angle));
    previous_rate = now;
    previous_angle = joint_positions(model, s)(0);
  }
  ASSERT_GE(turning.size(), 5u);
  const auto potential = [&](double a) { return torque_scale * (1.0 - std::cos(a)); };
  for (std::size_t n = 0; n + 2 < turning.size(); ++n) {
    const double lost = potential(turning[n]) - potential(turning[n + 2]);
    const double work = friction * (turning[n] + 2.0 * turning[n + 1] + turning[n + 2]);
    EXPECT_NEAR(lost / work, 1.0, 0.02) << "turning point " << n;
  }
  // The amplitude falls linearly, by about 4 F / (m g L / 2) a period (not geometrically, as with a damper).
  const double per_period = 4.0 * friction / torque_scale;
  EXPECT_NEAR((turning[0] - turning[2]) / per_period, 1.0, 0.03);
  EXPECT_NEAR((turning[2] - turning[4]) / per_period, 1.0, 0.03);
}

TEST(JointFriction, LoadBelowTheFrictionCreepsAtThePredictedRate) {
  // Held at 0.3 rad by friction twice gravity's torque there, the joint
  // creeps where friction * tanh(rate / v_f) balances the load: at v_f
  // atanh(1/2), in proportion to the friction velocity.
  const double angle = 0.3, load = 9.81 * 0.5 * std::sin(angle), seconds = 5.0;
  std::vector<double> creep;
  for (double velocity : {1e-3, 1e-5}) {
    const Model model = rubbing_pendulum(2.0 * load, angle);
    State s = make_state(model);
    StepOptions options;
    options.joint_friction_velocity = velocity;
    Simulator sim(model, options);
    for (int k = 0; k < static_cast<int>(seconds / options.dt); ++k) ASSERT_EQ(sim.step(s).status, StepStatus::Success);
    const double moved = angle - joint_positions(model, s)(0);  // towards the bottom
    EXPECT_NEAR(moved / (velocity * std::atanh(0.5) * seconds), 1.0, 0.05) << "friction velocity " << velocity;
    creep.push_back(moved);
  }
  EXPECT_NEAR(creep[1] / creep[0], 1e-2, 1e-3);
}

}  // namespace
}  // namespace dynamics
