// StepOptions::friction_restarts: a step with friction whose interior-point
// iteration stalls is solved again from other starts (the velocities of
// low-friction solutions, then rest). On the quadruped's hard landings they
// turn failures into steps that meet every tolerance of the full-friction
// equations, and the answer is not the frictionless one.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "portable_kernels.hpp"
#include "quadruped.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

// Drops of random sweeps (400 drops each of three seeds) whose steps failed
// at the default options in the first 40 steps without the restarts, and
// went through with the low-friction starts: a sliding foot or thigh lands
// while friction tips its leg into the ground.
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
// Drops of the same sweeps that failed in the first 60 steps with the
// low-friction starts as well, and went through once a start from rest
// followed them: the foot jams, which a sliding start does not find.
const test::Drop kJammingLandings[] = {
    {{0, 0, 0.603, -0.749, 0.215, -0.133}, {1.59, 1.99, 1.49, -0.27, 1.66, 2.42},
     {-0.283, -0.86, -2.325, -0.274, -0.622, -1.951, 0.462, -0.433, -1.783, 0.06, -1.155, -1.392},
     {0.15, -2.84, -4.53, -0.33, -3.01, -4.11, -0.2, 0.14}},
    {{0, 0, 0.82, 0.62, -0.757, -2.306}, {-2.79, 0.11, -1.6, -0.82, 2.66, -1.8},
     {-0.118, -0.523, -0.679, 0.544, -1.363, -0.74, -0.567, 0.201, -2.078, -0.328, -0.005, -1.133},
     {1.94, -4.65, 0.25, 2.97, 2.3, -1.3, 2.32, -0.35}},
    {{0, 0, 0.797, 0.676, -0.103, -2.663}, {1.44, 2.79, -1.88, 1.36, 2.9, 1.82},
     {0.339, 0.232, -1.962, -0.06, 1.136, -1.784, 0.578, 0.408, -1.217, -0.552, -1.073, -0.736},
     {2.35, -1.47, 3.23, 2.97, 2.24, 3.24, -1.48, -3.87}},
    {{0, 0, 0.827, 0.175, 0.702, 2.948}, {-1.08, 2.7, 0.44, -1.06, 1.73, 0.89},
     {-0.346, 0.214, -0.611, 0.035, 0.537, -0.913, 0.154, 0.684, -1.838, 0.458, 0.908, -1.231},
     {4.04, -1.36, 2.54, -2.67, 1.61, 3.97, 4.1, -3.23}},
    {{0, 0, 0.517, 0.418, -0.604, 1.87}, {-2.79, 0.46, -1.48, -2.55, 2.09, -2.2},
     {0.296, -1.113, -1.253, 0.585, -1.218, -2.117, 0.381, 0.101, -0.616, -0.191, -0.171, -1.548},
     {-3.67, -1.72, 0.2, -1.5, 4.26, -2.49, 0.11, 3.21}},
    {{0, 0, 0.599, 0.476, 0.327, -1.642}, {-0.15, 1.2, -2.43, 1.37, 0.81, -1.79},
     {-0.181, 1.313, -1.852, -0.037, 1.02, -2.342, -0.38, 1.305, -0.98, -0.695, 0.967, -2.172},
     {4.32, -1.79, 2.24, 2.67, -4.02, -3.28, -0.18, 2.58}},
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

// Runs `steps` steps of every drop with the restarts off and on: at least 3
// drops must fail without them (round-off decides which of these steps
// stall; each stalled in the sweep), every step must converge with them, and
// every restarted step must meet the tolerances of the full equations and
// end away from the same step without friction (so it is not the
// frictionless answer a restart may start from).
template <size_t N>
void expect_restarts_carry(const test::Drop (&drops)[N], int steps) {
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  Model frictionless = model;
  frictionless.set_friction_coefficient(0.0);
  // The friction restarts alone: the centred restart, which comes first and
  // carries some of these stalls itself, is off both ways.
  StepOptions with;
  with.centred_restart = false;
  StepOptions without = with;
  without.friction_restarts = false;
  ASSERT_TRUE(with.friction_restarts) << "on by default";
  int failed_without = 0, restarted = 0;
  for (size_t d = 0; d < N; ++d) {
    State start = make_state(model);
    test::place(model, start, drops[d]);
    Simulator off(model, without);
    failed_without += test::fails_within(off, start, steps);
    Simulator on(model, with), low(frictionless, with);
    State s = start;
    for (int k = 0; k < steps; ++k) {
      const State before = s;
      const StepResult r = on.step(s);
      ASSERT_TRUE(r.ok()) << "drop " << d << ", step " << k << ": " << to_string(r.status);
      if (!r.friction_restart) continue;
      ++restarted;
      // Every tolerance holds (they are measured on the full equations), and
      // no contact sinks further than its regularization and a turning rim allow.
      const StepOptions defaults;
      EXPECT_LE(r.complementarity, defaults.complementarity_tolerance * 2.0) << "drop " << d << ", step " << k;
      EXPECT_LE(r.inequality_residual, defaults.interior_tolerance) << "drop " << d << ", step " << k;
      EXPECT_GE(r.min_signed_distance, -2.5e-4) << "drop " << d << ", step " << k;
      State slippery = before;
      ASSERT_TRUE(low.step(slippery).ok()) << "drop " << d << ", step " << k;
      EXPECT_GT(velocity_difference(s, slippery), 1e-3) << "drop " << d << ", step " << k;
    }
    EXPECT_LT(constraint_violation(model, s), 1e-7) << "drop " << d;
  }
  EXPECT_GE(failed_without, 3) << "these drops no longer fail without the restarts: pick harder ones";
  EXPECT_GE(restarted, 3) << "the restarts carried too few steps to test";
}

TEST(FrictionRestarts, CarriesHardLandingsOfTheQuadruped) { expect_restarts_carry(kHardLandings, kSteps); }

TEST(FrictionRestarts, CarriesLandingsThatJamFromRest) { expect_restarts_carry(kJammingLandings, 65); }

// Boxes (0.5 x 0.3 x 0.2 m, 1 kg) tossed spinning onto the ground with the
// exact cone, plain steps: the restarts scale the cones' coefficient too.
// Tosses of a random sweep whose plain steps stalled without them.
TEST(FrictionRestarts, CarriesTossedBoxesOnTheCone) {
  const test::PortableKernels portable;  // the stalls were found with them
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
  StepOptions on = test::plain_steps();
  on.centred_restart = false;
  StepOptions off = on;
  off.friction_restarts = false;
  int failed_without = 0, restarted = 0;
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
      restarted += r.friction_restart;
      EXPECT_GE(r.min_signed_distance, -1e-6) << "toss " << t << ", step " << k;
    }
  }
  EXPECT_GE(failed_without, 3) << "these tosses no longer stall without the restarts: pick harder ones";
  EXPECT_GE(restarted, 3);
}

// A step taken as sub-steps reports the restart of any of them: the
// first of two half steps of 0.02 s is the stalled step of 0.01 s itself.
TEST(FrictionRestarts, AnySubstepThatRestartedIsReported) {
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  StepOptions options;
  options.centred_restart = false;
  const auto h = test::restart_as_first_substep(model, options, kHardLandings[0], kSteps,
                                                [](const StepResult& r) { return r.friction_restart; });
  ASSERT_TRUE(h.has_value()) << "no plain step restarted: pick another landing";
  ASSERT_TRUE(h->ok()) << to_string(h->status);
  ASSERT_EQ(h->substeps, 2);
  EXPECT_TRUE(h->friction_restart);
}

// Only stalled steps with friction restart: frictionless contacts and
// converging steps never do, nor any step with the option off.
TEST(FrictionRestarts, OnlyStalledStepsWithFrictionRestart) {
  const Model model = parse_urdf(test::quadruped_urdf());
  Model frictionless = model;
  frictionless.set_friction_coefficient(0.0);
  StepOptions without;
  without.friction_restarts = false;
  const std::pair<const Model*, StepOptions> cases[] = {{&model, without}, {&frictionless, StepOptions{}}};
  for (const auto& [m, options] : cases) {
    Simulator sim(*m, options);
    State s = make_state(*m);
    test::place(*m, s, kHardLandings[0]);
    for (int k = 0; k < kSteps; ++k) {
      const StepResult r = sim.step(s);
      EXPECT_FALSE(r.friction_restart) << "step " << k;
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
