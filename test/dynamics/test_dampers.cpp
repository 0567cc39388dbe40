// Joint dampers act on the step's new velocities (backward Euler in the
// damping): exact on a linear slider, momentum-conserving between two free
// bodies, stable at any damping * dt, and without fill in the Newton system.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "dynamics/dynamics.hpp"
#include "random_joint.hpp"
#include "rotor.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::with_dt;

// Two free bodies in space joined by a damped joint through both centres.
Model damped_pair(JointType type, double damping) {
  Model model;
  model.gravity = Vector3::Zero();
  Body a, b;
  a.name = "a";
  a.mass = 2.0;
  a.inertia = Vector3(0.2, 0.3, 0.4).asDiagonal();
  b.name = "b";
  b.mass = 3.0;
  b.inertia = Vector3(0.5, 0.6, 0.7).asDiagonal();
  model.add_body(a);
  model.add_body(b);
  Joint j = Joint::make(type, "joint", 0, 1, type == JointType::Prismatic ? Vector3::UnitX() : Vector3::UnitZ());
  j.damping = damping;
  model.add_joint(j);
  return model;
}

// Without rotation the slider's equations are linear: each step divides the
// sliding rate by 1 + dt * damping / (reduced mass), here 5.17 (a step on
// the last velocities would multiply it by 1 - 4.17 and diverge).
TEST(Dampers, SliderBetweenTwoBodiesIsBackwardEulerExactly) {
  const double damping = 100.0, dt = 0.05, reduced_mass = 2.0 * 3.0 / 5.0;
  const Model model = damped_pair(JointType::Prismatic, damping);
  State s = make_state(model);
  s.velocity[0] = Vector3(1.0, 0.3, 0.0);
  s.velocity[1] = Vector3(-1.0, 0.3, 0.0);
  const Vector3 momentum = linear_momentum(model, s);
  Simulator sim(model, with_dt(dt, 1e-12));
  double expected = joint_velocities(model, s)(0);
  ASSERT_DOUBLE_EQ(expected, -2.0);
  for (int k = 1; k <= 10; ++k) {
    const StepResult r = sim.step(s);
    ASSERT_TRUE(r.ok()) << k;
    EXPECT_LE(r.iterations, 2) << k;  // the Newton matrix holds the damper exactly
    expected /= 1.0 + dt * damping / reduced_mass;
    EXPECT_NEAR(joint_velocities(model, s)(0), expected, 1e-12) << k;
    EXPECT_LT((linear_momentum(model, s) - momentum).norm(), 1e-12) << k;
  }
}

// Two bodies spinning against each other about a damped hinge along their
// principal z axes: the relative rate decays like exp(-damping (1/Ia + 1/Ib) t)
// and the angular momentum (0.4 * 3 - 0.7 * 1) stays.
TEST(Dampers, HingeBetweenTwoSpinningBodiesDecaysAndConservesAngularMomentum) {
  const double damping = 2.0, rate = 2.0 * (1.0 / 0.4 + 1.0 / 0.7);
  for (const double dt : {0.001, 0.01}) {
    const Model model = damped_pair(JointType::Revolute, damping);
    State s = make_state(model);
    s.angular_velocity[0] = Vector3(0.0, 0.0, 3.0);
    s.angular_velocity[1] = Vector3(0.0, 0.0, -1.0);
    const Vector3 momentum = angular_momentum(model, s, dt);
    // The momentum tolerance is the tolerance times the mass scale, sqrt(6)
    // kg: 1e-11 keeps the residual below the 1e-10 asserted.
    Simulator sim(model, with_dt(dt, 1e-11));
    const int steps = static_cast<int>(std::lround(1.0 / dt));
    double energy = kinetic_energy(model, s);
    for (int k = 1; k <= steps; ++k) {
      ASSERT_TRUE(sim.step(s).ok()) << k;
      EXPECT_LT((angular_momentum(model, s, dt) - momentum).norm(), 1e-10) << k;
      const double now = kinetic_energy(model, s);
      EXPECT_LT(now, energy) << k;
      energy = now;
    }
    // Each step divides the relative rate by 1 + dt * rate (backward Euler),
    // up to the discrete momentum's O((dt w)^2); the continuous decay is
    // exp(-rate t), a relative O(rate^2 dt t / 2) away.
    const double expected = -4.0 * std::pow(1.0 + dt * rate, -steps);
    EXPECT_NEAR(joint_velocities(model, s)(0), expected, 1e-3 * std::abs(expected)) << dt;
    EXPECT_NEAR(expected / (-4.0 * std::exp(-rate)), 1.0, 0.6 * rate * rate * dt) << dt;
  }
}

// At dt * damping * (1/Ia + 1/Ib) = 16 the relative spin dies in a few steps
// without reversing, and the bodies tumble on together as one.
TEST(Dampers, StiffHingeDamperBetweenTumblingBodiesStaysStable) {
  const double dt = 0.05;
  const Model model = damped_pair(JointType::Revolute, 80.0);
  State s = make_state(model);
  s.angular_velocity[0] = Vector3(0.5, -0.2, 3.0);
  s.angular_velocity[1] = Vector3(0.5, -0.2, -1.0);
  const Vector3 momentum = angular_momentum(model, s, dt);
  Simulator sim(model, with_dt(dt));
  double relative = joint_velocities(model, s)(0);
  for (int k = 1; k <= 40; ++k) {
    ASSERT_TRUE(sim.step(s).ok()) << k;
    const double now = joint_velocities(model, s)(0);
    EXPECT_LE(std::abs(now), std::abs(relative) + 1e-12) << k;
    EXPECT_LE(now, 1e-6) << k;  // from -4 towards 0, not past it (the tumbling adds a trace)
    relative = now;
    EXPECT_LT((angular_momentum(model, s, dt) - momentum).norm(), 1e-9) << k;
  }
  EXPECT_LT(std::abs(relative), 1e-6);
}

// A damped chain's Newton graph gains an edge between the bodies of each
// damped joint, beside the joint node: a triangle, eliminated without fill.
TEST(Dampers, DampedChainHasNoFill) {
  std::string xml = "<robot name='chain'><link name='world'/>";
  std::string parent = "world";
  for (int i = 0; i < 6; ++i) {
    const std::string link = "l" + std::to_string(i);
    xml += "<link name='" + link + "'><inertial><origin xyz='0 0 -0.5'/><mass value='1'/><inertia ixx='0.08' "
           "iyy='0.08' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial></link><joint name='j" + std::to_string(i) +
           "' type='" + (i % 2 ? "continuous" : "prismatic") + "'><parent link='" + parent + "'/><child link='" +
           link + "'/><origin xyz='0 0 " + (i ? "-1" : "0") + "'/><axis xyz='" + (i % 2 ? "0 1 0" : "1 0 0") +
           "'/><limit lower='-1' upper='1' effort='1' velocity='1'/><dynamics damping='3'/></joint>";
    parent = link;
  }
  UrdfOptions no_limits;  // limits are nodes of their own, with fill of their own
  no_limits.joint_limits = false;
  const Model model = parse_urdf(xml + "</robot>", "chain", no_limits);
  State s = make_state(model);
  set_joint_velocities(model, s, Eigen::VectorXd::LinSpaced(6, 1.0, -1.0));
  Simulator sim(model, with_dt(0.01));
  double energy = total_energy(model, s, 0.01);
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(sim.step(s).ok()) << k;
  EXPECT_EQ(sim.fill_blocks(), 0);
  EXPECT_LT(total_energy(model, s, 0.01), energy);
  EXPECT_LE(constraint_violation(model, s), 1e-10);
}

// A damper, or Coulomb friction, beside a spring with a rest on every
// combination of free translations and rotations, the joint frames off the
// body's centre and turned, the body started at random rates in zero
// gravity: from step to step the energy of the step's midpoint only falls
// (but for round-off near rest), as the dampers and friction act on the
// step's new velocities.
TEST(Dampers, AndFrictionOnEveryJointCombinationOnlyTakeEnergy) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  for (const bool friction : {false, true})
    for (const JointFreedom& freedom : test::moving_freedoms()) {
      SCOPED_TRACE(std::string(friction ? "friction " : "damper ") + test::freedom_name(freedom));
      Joint joint = test::random_joint(rng, freedom, kWorld, 0);
      const int n = joint.num_coordinates();
      joint.stiffness = 0.5;
      if (friction)
        joint.friction = 0.02;
      else
        joint.damping = 0.05;
      for (int i = 0; i < n; ++i) joint.rest.push_back(0.6 * draw(rng));
      const Model model = test::zero_gravity_rotor(joint);
      State s = make_state(model);
      Eigen::VectorXd rates(n);
      for (int i = 0; i < n; ++i) rates(i) = 2.0 * draw(rng);
      set_joint_velocities(model, s, rates);
      const double dt = 0.005;
      Simulator sim(model, with_dt(dt));
      const double start = total_energy(model, s);
      ASSERT_TRUE(sim.step(s).ok());
      double previous = total_energy(model, s, dt), worst_rise = 0.0;
      for (int k = 0; k < 2000; ++k) {
        ASSERT_TRUE(sim.step(s).ok()) << k;
        const double e = total_energy(model, s, dt);
        worst_rise = std::max(worst_rise, e - previous);
        previous = e;
      }
      EXPECT_LT(worst_rise, 1e-4 * start);
      EXPECT_LT(previous, 0.95 * start);
    }
}

}  // namespace
}  // namespace dynamics
