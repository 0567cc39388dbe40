// StepOptions::friction_regularization: a sticking contact creeps at exactly
// the regularization over its mass times its friction impulse, and the
// regularization is what carries quadruped drops whose plain steps stalled
// with friction held exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <string>

#include "dynamics/dynamics.hpp"
#include "gravity.hpp"
#include "quadruped.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::kG;

// A cube (0.5 m) of `mass` at rest on a plane inclined by 0.3 rad, mu 0.5 >
// tan 0.3, so it sticks on its 4 lower corners, after `steps` steps: its
// velocity. The tolerances are tighter than the default 1e-8 and the creeps
// measured faster than 1e-4 m/s: a sticking contact's slack, the creep's
// error, is only held to the complementarity tolerance over its impulse
// (3e-7 m/s here at 1e-9).
Vector3 creep(double mass, FrictionModel friction, double regularization, double dt, int steps) {
  const double angle = 0.3;
  const HalfSpace ground = HalfSpace::incline(angle);
  Model model;
  const int box = model.add_body(Body::solid("box", mass, Shape::box(Vector3::Constant(0.5))));
  Joint free = Joint::make(JointType::Floating, "box", kWorld, box);
  const Vector3 centre = 0.25 * ground.normal;
  free.initial_position = {centre.x(), centre.y(), centre.z(), 0.0, angle, 0.0};
  model.add_joint(free);
  ContactOptions contacts;
  contacts.ground = ground;
  contacts.friction = friction;
  contacts.friction_coefficient = 0.5;
  model.add_shape_contacts(box, contacts);
  StepOptions options = test::plain_steps();
  options.dt = dt;
  options.interior_tolerance = options.complementarity_tolerance = 1e-9;
  options.friction_regularization = regularization;
  Simulator sim(model, options);
  State state = make_state(model);
  for (int k = 0; k < steps; ++k) {
    const StepResult r = sim.step(state);
    EXPECT_TRUE(r.ok()) << k << ": " << to_string(r.status);
    if (!r.ok()) break;
  }
  return state.velocity[0];
}

TEST(FrictionRegularization, StickingBoxCreepsByRegularizationTimesFrictionImpulse) {
  // Each touching corner carries a friction impulse beta with B v + k beta = 0
  // (k = r / m): the corners move alike, so they share m g sin(theta) dt
  // equally, and the box creeps down the slope at k |beta| = r g sin(theta) dt / 4,
  // whatever its mass.
  const double angle = 0.3;
  const Vector3 down_slope(std::cos(angle), 0.0, -std::sin(angle));  // HalfSpace::incline descends towards +x
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone})
    for (double mass : {0.2, 5.0})
      for (double dt : {0.01, 0.004})
        for (double r : {0.1, 1.0}) {
          SCOPED_TRACE(std::string(to_string(friction)) + " mass " + std::to_string(mass) + " dt " +
                       std::to_string(dt) + " r " + std::to_string(r));
          const Vector3 v = creep(mass, friction, r, dt, 30);
          const double expected = r * kG * std::sin(angle) * dt / 4.0;
          EXPECT_NEAR(v.dot(down_slope), expected, 0.005 * expected);
          EXPECT_LT((v - v.dot(down_slope) * down_slope).norm(), 0.005 * expected);
        }
  // Friction held exactly (0), and at the default, whose creep of 7e-12 m/s
  // is about the linearized cone's round-off (1e-11 m/s without it).
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    EXPECT_LT(creep(1.0, friction, 0.0, 0.01, 30).norm(), 1e-10) << to_string(friction);
    EXPECT_LT(creep(1.0, friction, StepOptions{}.friction_regularization, 0.01, 30).norm(), 1e-10)
        << to_string(friction);
  }
}

// Drops of the quadruped whose plain steps stalled with friction held exactly
// (at 0.16, 0.31 and 0.42 s), just above the tolerances: the direction moved
// the friction impulses of feet sticking on the ground, which the rigid
// equations leave undetermined, by up to 1 N s to correct momenta of 1e-8 N s,
// and the round-off of that kept the bodies' rows above the tolerance. With
// the default regularization every plain step converges.
TEST(FrictionRegularization, QuadrupedDropsThatStalledConvergeWithPlainSteps) {
  const Model model = parse_urdf(test::quadruped_urdf());
  const test::Drop drops[] = {
      {{0, 0, 0.527, 0.110, 0.713, -1.146}, {0.49, 0.62, -1.81, -1.60, 1.08, -0.11},
       {0.613, -1.279, -1.782, 0.555, 0.814, -1.689, 0.383, -0.659, -2.171, -0.279, -0.247, -1.405},
       {-1.16, 2.44, 1.62, 4.73, 0.12, -1.61, -0.60, 3.68}},
      {{0, 0, 0.839, -0.888, 0.142, 2.150}, {-0.69, 0.62, -0.35, -2.16, -0.70, -2.87},
       {-0.681, 0.140, -1.750, 0.603, 0.244, -0.715, -0.098, 0.498, -1.571, -0.575, -0.952, -2.104},
       {0.27, 0.65, -2.10, -3.01, -4.99, 1.38, 0.26, -0.30}},
      {{0, 0, 0.877, 0.367, 0.072, 2.640}, {0.16, -0.41, -0.38, 3.08, 2.14, -0.62},
       {0.273, 0.608, -1.434, -0.340, 0.274, -1.280, 0.118, 0.714, -0.714, 0.609, 1.031, -1.911},
       {-2.89, -1.01, 3.18, -1.31, -0.18, 3.94, 0.94, -4.31}},
  };
  StepOptions rigid = test::plain_steps();
  rigid.friction_regularization = 0.0;
  Simulator regularized(model, test::plain_steps()), exact(model, rigid);
  int exact_failures = 0;
  for (size_t d = 0; d < std::size(drops); ++d) {
    State start = make_state(model);
    test::place(model, start, drops[d]);
    State b = start;
    exact_failures += test::fails_within(exact, start, 50);
    for (int k = 0; k < 50; ++k) {
      const StepResult r = regularized.step(b);
      ASSERT_TRUE(r.ok()) << "drop " << d << ", step " << k << ": " << to_string(r.status);
      EXPECT_GE(r.min_signed_distance, -1e-4) << "drop " << d << ", step " << k;
    }
    EXPECT_LT(constraint_violation(model, b), 1e-7) << "drop " << d;
  }
  // Each failed in the sweep; allow round-off to spare one.
  EXPECT_GE(exact_failures, 2) << "exact friction no longer stalls here: pick harder drops";
}

}  // namespace
}  // namespace dynamics
