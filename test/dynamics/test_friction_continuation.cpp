// StepOptions::friction_continuation: a step with friction whose
// interior-point iteration stalls is solved again from the velocities of a
// low-friction solution. On the quadruped's hard landings it turns failures
// into steps that meet every tolerance of the full-friction equations, and
// the answer is not the low-friction one.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "quadruped.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

// Drops of random sweeps (400 drops each of three seeds) whose steps failed
// at the default options in the first 40 steps, without the continuation:
// a sliding foot or thigh lands while friction tips its leg into the ground.
const test::Drop kHardLandings[] = {
    {{0, 0, 0.456, 0.972, 0.573, 0.667}, {-2.56, -2.11, 1.47, 2.49, -2.32, -2.46},
     {-0.536, 1.337, -1.832, -0.447, -1.148, -0.889, -0.65, -0.21, -1.043, -0.132, 0.58, -1.13},
     {-2.14, -4.24, 3.04, 4.33, -3.96, -4.31, 4.62, 3.11}},
    {{0, 0, 0.878, 0.272, -0.306, 0.896}, {-0.9, -0.74, 1.1, -0.26, -2.71, -2.64},
     {0.568, -0.451, -1.654, 0.693, -1.353, -0.766, -0.518, 1.367, -1.295, -0.08, 1.163, -0.903},
     {4.34, -3.58, -0.74, 4.55, 0.91, 4.75, 1.78, -1.62}},
    {{0, 0, 0.571, 0.309, -0.212, -2.359}, {-2.94, -2.12, -0.07, 1.22, 2.71, -2.85},
     {-0.478, -0.996, -1.323, -0.215, -0.928, -2.487, -0.56, -0.682, -2.416, 0.383, -0.685, -1.511},
     {0.5, 4.87, -0.01, -3.96, -3.14, 3.64, 0.51, -1.65}},
    {{0, 0, 0.458, 0.298, 0.725, -2.438}, {1.25, -1.68, -1.09, 2.04, -2.75, 1.78},
     {0.452, -0.416, -1.318, 0.011, -0.678, -1.012, -0.675, 0.106, -0.674, 0.131, -0.504, -2.116},
     {4.65, 0.72, -4.91, -3.24, -1.21, -0.5, -1.4, 4.22}},
    {{0, 0, 0.591, 0.979, -0.762, -2.928}, {-2.75, 0.95, -2.8, -1.9, -1.18, -2.52},
     {0.053, -0.766, -1.509, 0.21, -0.071, -2.487, -0.278, -0.204, -1.539, 0.445, 0.35, -2.477},
     {1.36, -0.25, -4.02, 4.48, 4.3, 3.92, 1.02, -3.88}},
    {{0, 0, 0.52, -0.065, 0.585, 2.22}, {1.72, -2.93, -1.01, 1.87, 1.36, 1.25},
     {0.056, 0.201, -0.963, -0.365, 0.339, -0.934, 0.369, 0.321, -1.913, 0.576, 0.033, -0.613},
     {3.25, -4.51, 0.22, 3.09, 3.12, -2.07, 2.62, 1.08}},
};
constexpr int kSteps = 45;

// The largest difference between two states' body velocities (linear and angular).
double velocity_difference(const State& a, const State& b) {
  double largest = 0.0;
  for (size_t i = 0; i < a.velocity.size(); ++i)
    largest = std::max({largest, (a.velocity[i] - b.velocity[i]).lpNorm<Eigen::Infinity>(),
                        (a.angular_velocity[i] - b.angular_velocity[i]).lpNorm<Eigen::Infinity>()});
  return largest;
}

TEST(FrictionContinuation, CarriesHardLandingsOfTheQuadruped) {
  const Model model = parse_urdf(test::quadruped_urdf());
  Model frictionless = model;
  frictionless.set_friction_coefficient(0.0);
  StepOptions without;
  without.friction_continuation = false;
  const StepOptions with;
  ASSERT_TRUE(with.friction_continuation) << "on by default";
  int failed_without = 0, continued = 0;
  for (size_t d = 0; d < std::size(kHardLandings); ++d) {
    State start = make_state(model);
    test::place(model, start, kHardLandings[d]);
    Simulator off(model, without);
    failed_without += test::fails_within(off, start, kSteps);
    Simulator on(model, with), low(frictionless, with);
    State s = start;
    for (int k = 0; k < kSteps; ++k) {
      const State before = s;
      const StepResult r = on.step(s);
      ASSERT_TRUE(r.ok()) << "drop " << d << ", step " << k << ": " << to_string(r.status);
      if (!r.friction_continuation) continue;
      ++continued;
      // Converged on the model's friction: every tolerance holds (they are
      // measured on the full equations), and no contact sinks further than
      // its regularization and a turning rim allow.
      const StepOptions defaults;
      EXPECT_LE(r.complementarity, defaults.complementarity_tolerance * 2.0) << "drop " << d << ", step " << k;
      EXPECT_LE(r.inequality_residual, defaults.interior_tolerance) << "drop " << d << ", step " << k;
      EXPECT_GE(r.min_signed_distance, -2.5e-4) << "drop " << d << ", step " << k;
      // ... and it is not the low-friction answer it started from: the same
      // step without friction ends elsewhere.
      State slippery = before;
      ASSERT_TRUE(low.step(slippery).ok()) << "drop " << d << ", step " << k;
      EXPECT_GT(velocity_difference(s, slippery), 1e-3) << "drop " << d << ", step " << k;
    }
    EXPECT_LT(constraint_violation(model, s), 1e-7) << "drop " << d;
  }
  // Round-off decides which of these steps stall; each stalled in the sweep.
  EXPECT_GE(failed_without, 3) << "these drops no longer fail without the continuation: pick harder ones";
  EXPECT_GE(continued, 3) << "the continuation carried too few steps to test";
}

// Boxes (0.5 x 0.3 x 0.2 m, 1 kg) tossed spinning onto the ground with the
// exact cone, plain steps: the continuation scales the cones' coefficient
// too. Tosses of a random sweep whose plain steps stalled without it.
TEST(FrictionContinuation, CarriesTossedBoxesOnTheCone) {
  struct Toss {
    double mu;
    std::vector<double> position, velocity;
  };
  const Toss tosses[] = {
      {0.312, {0, 0, 0.817, -2.8212, 2.2988, 0.2447}, {-0.3121, 2.3528, -1.8672, 1.1527, 4.569, -4.1622}},
      {0.95, {0, 0, 0.8666, 1.6918, 0.698, -2.784}, {0.9259, -2.2214, -2.1169, -4.1756, -6.7606, -12.7809}},
      {0.717, {0, 0, 0.8685, -1.7972, 2.2791, -0.2052}, {1.3499, -1.1828, -1.533, -8.8898, -12.3415, -10.0293}},
      {0.345, {0, 0, 0.7803, 1.6994, -0.3586, 1.9539}, {-0.6527, 2.5711, -2.8473, -0.2913, 11.1952, 10.6138}},
      {0.276, {0, 0, 0.6541, -1.3703, -1.5592, 2.8197}, {-0.4564, -1.1256, -1.9086, 3.8905, 1.7442, -9.8334}},
      {0.432, {0, 0, 0.7457, 0.1466, -2.561, 2.3198}, {2.1639, 1.9515, -2.5298, 14.5251, 5.8891, 1.8194}},
  };
  StepOptions on = test::plain_steps(), off = on;
  off.friction_continuation = false;
  int failed_without = 0, continued = 0;
  for (size_t t = 0; t < std::size(tosses); ++t) {
    Model model;
    const int box = model.add_body(Body::solid("box", 1.0, Shape::box(Vector3(0.5, 0.3, 0.2))));
    Joint free = Joint::make(JointType::Floating, "box", kWorld, box);
    free.initial_position = tosses[t].position;
    free.initial_velocity = tosses[t].velocity;
    model.add_joint(free);
    ContactOptions contacts;
    contacts.friction = FrictionModel::Cone;
    contacts.friction_coefficient = tosses[t].mu;
    model.add_shape_contacts(box, contacts);
    Simulator without(model, off), with(model, on);
    const State start = make_state(model);
    failed_without += test::fails_within(without, start, 60);
    State s = start;
    for (int k = 0; k < 60; ++k) {
      const StepResult r = with.step(s);
      ASSERT_TRUE(r.ok()) << "toss " << t << ", step " << k << ": " << to_string(r.status);
      continued += r.friction_continuation;
      EXPECT_GE(r.min_signed_distance, -1e-6) << "toss " << t << ", step " << k;
    }
  }
  EXPECT_GE(failed_without, 3) << "these tosses no longer stall without the continuation: pick harder ones";
  EXPECT_GE(continued, 3);
}

// A step taken as sub-steps reports the continuation of any of them: the
// first of two half steps of 0.02 s is the stalled step of 0.01 s itself.
TEST(FrictionContinuation, AnySubstepThatContinuedIsReported) {
  const Model model = parse_urdf(test::quadruped_urdf());
  Simulator sim(model);
  State s = make_state(model);
  test::place(model, s, kHardLandings[0]);
  for (int k = 0; k < kSteps; ++k) {
    State before = s;
    const StepResult r = sim.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k;
    if (!r.friction_continuation || r.substeps > 1) continue;
    StepOptions twice;
    twice.dt = 2.0 * twice.dt;
    before.substep_memory = {2, 0, 1000};  // two sub-steps of 0.01 s, held
    Simulator halves(model, twice);
    const StepResult h = halves.step(before);
    ASSERT_TRUE(h.ok()) << to_string(h.status);
    ASSERT_EQ(h.substeps, 2);
    EXPECT_TRUE(h.friction_continuation);
    return;
  }
  FAIL() << "no plain step continued: pick another landing";
}

// Only stalled steps with friction continue: frictionless contacts and
// converging steps never do, nor any step with the option off.
TEST(FrictionContinuation, OnlyStalledStepsWithFrictionContinue) {
  const Model model = parse_urdf(test::quadruped_urdf());
  Model frictionless = model;
  frictionless.set_friction_coefficient(0.0);
  StepOptions without;
  without.friction_continuation = false;
  const std::pair<const Model*, StepOptions> cases[] = {{&model, without}, {&frictionless, StepOptions{}}};
  for (const auto& [m, options] : cases) {
    Simulator sim(*m, options);
    State s = make_state(*m);
    test::place(*m, s, kHardLandings[0]);
    for (int k = 0; k < kSteps; ++k) {
      const StepResult r = sim.step(s);
      EXPECT_FALSE(r.friction_continuation) << "step " << k;
      if (!r.ok()) break;
    }
  }
  // A frictionless model's step is the same with the option on or off.
  Simulator on(frictionless), off(frictionless, without);
  State a = make_state(frictionless), b = a;
  test::place(frictionless, a, kHardLandings[0]);
  test::place(frictionless, b, kHardLandings[0]);
  for (int k = 0; k < 10; ++k) {
    ASSERT_TRUE(on.step(a).ok());
    ASSERT_TRUE(off.step(b).ok());
  }
  EXPECT_EQ(velocity_difference(a, b), 0.0);
}

}  // namespace
}  // namespace dynamics
