// StepOptions::contact_regularization: a resting body sinks by exactly the
// documented amount, rigid contacts (0) do not sink at all, and a contact
// whose friction coefficient is 0 behaves exactly like a frictionless one.
#include <gtest/gtest.h>

#include <cmath>

#include "dynamics/dynamics.hpp"
#include "gravity.hpp"

namespace dynamics {
namespace {

using test::kG;

// A sphere resting on the ground on its one contact, stepped to steady state;
// returns its height above the touching height r.
double resting_sphere_height(double mass, double dt, double regularization) {
  Model model;
  const double r = 0.2;
  const int ball = model.add_body(Body::solid("ball", mass, Shape::sphere(r)));
  model.add_shape_contacts(ball, ContactOptions{});
  State state = make_state(model);
  state.position[0] = Vector3(0.0, 0.0, r);
  StepOptions options;
  options.dt = dt;
  options.contact_regularization = regularization;
  Simulator sim(model, options);
  for (int k = 0; k < 50; ++k) {
    const StepResult result = sim.step(state);
    EXPECT_TRUE(result.ok()) << k;
    if (!result.ok()) break;
  }
  EXPECT_LT(state.velocity[0].norm(), 1e-9);
  return state.position[0].z() - r;
}

TEST(ContactRegularization, RestingBodySinksByRegularizationTimesGravityTimesDtSquared) {
  // phi/dt + (c / m) gamma = 0 with gamma = m g dt per step: phi = -c g dt^2,
  // whatever the mass.
  for (double mass : {0.1, 1.0, 20.0})
    for (double dt : {0.01, 0.003})
      for (double c : {1e-6, 1e-3}) {
        const double sink = c * kG * dt * dt;
        EXPECT_NEAR(resting_sphere_height(mass, dt, c), -sink, 0.01 * sink) << mass << " " << dt << " " << c;
      }
}

TEST(ContactRegularization, RigidContactsDoNotSink) {
  EXPECT_NEAR(resting_sphere_height(1.0, 0.01, 0.0), 0.0, 1e-11);
}

// A box sliding to rest on the ground, with the given friction; returns the
// trajectory of its x position and the iterations of every step.
std::pair<std::vector<double>, std::vector<int>> slide(FrictionModel friction, double mu) {
  Model model;
  const int box = model.add_body(Body::solid("box", 1.0, Shape::box(Vector3(0.4, 0.3, 0.2))));
  ContactOptions options;
  options.friction = friction;
  options.friction_coefficient = mu;
  model.add_shape_contacts(box, options);
  State state = make_state(model);
  state.position[0] = Vector3(0.0, 0.0, 0.12);
  state.velocity[0] = Vector3(1.0, 0.5, 0.0);
  state.angular_velocity[0] = Vector3(0.0, 0.0, 2.0);
  Simulator sim(model);
  std::vector<double> x;
  std::vector<int> iterations;
  for (int k = 0; k < 100; ++k) {
    const StepResult result = sim.step(state);
    EXPECT_TRUE(result.ok()) << k;
    x.push_back(state.position[0].x());
    iterations.push_back(result.iterations);
  }
  return {x, iterations};
}

TEST(ContactRegularization, ZeroFrictionCoefficientIsExactlyFrictionless) {
  // mu = 0 leaves a friction cone with no interior; such contacts get no
  // friction rows, so they solve the very same equations as FrictionModel::None.
  const auto frictionless = slide(FrictionModel::None, 0.0);
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    const auto zero = slide(friction, 0.0);
    EXPECT_EQ(zero.second, frictionless.second) << to_string(friction);
    for (size_t k = 0; k < zero.first.size(); ++k) ASSERT_EQ(zero.first[k], frictionless.first[k]) << k;
  }
  // Still sliding: frictionless contacts do not slow it down.
  EXPECT_NEAR(frictionless.first.back() - frictionless.first.front(), 0.99, 1e-9);
}

}  // namespace
}  // namespace dynamics
