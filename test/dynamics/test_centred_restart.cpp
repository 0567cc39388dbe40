// StepOptions::centred_restart: a step with inequalities whose
// interior-point iteration stalls is solved again from the same start with
// its steps kept near the central path. On quadruped landings that stalled
// at the defaults before it (a friction pair swinging between its bounds)
// the restart carries the step, and the answer meets every tolerance.
#include <gtest/gtest.h>

#include <iterator>

#include "dynamics/dynamics.hpp"
#include "quadruped.hpp"

namespace dynamics {
namespace {

// Landings of random sweeps (fresh simulators, default options, three
// seeds of 400 drops) that failed a step without the centred restart, at
// the given step, even with the friction restarts and sub-steps, and went
// through with it.
struct Landing {
  test::Drop drop;
  int failed_step;
};
const Landing kStalledLandings[] = {
    {{{0, 0, 0.645, 0.455, 0.046, 1.519}, {0.08, -0.36, -1.03, -2.48, 2.74, -1.69},
      {-0.324, 1.4, -1.224, 0.534, -1.093, -2.465, -0.335, 0.779, -1.962, 0.026, 1.144, -1.039},
      {3.93, -3.29, 1.09, -1.63, -1.77, -4.99, -4.34, -1.31}},
     45},
    {{{0, 0, 0.834, -0.918, 0.525, 1.889}, {1.55, -2.43, 0.05, -1.73, -1.93, -2.59},
      {0.182, 0.892, -1.067, -0.522, 0.167, -0.8, -0.496, 0.604, -1.473, 0.396, 0.372, -2.035},
      {-1.28, 4.3, 1.6, -3.48, 2.86, 1.83, -1.64, -1.27}},
     111},
    {{{0, 0, 0.755, -0.88, 0.318, -0.08}, {-1.99, -1.93, -0.87, 0.08, -0.28, 1.35},
      {-0.002, 1.166, -1.625, 0.034, -1.036, -2.283, -0.209, 0.787, -1.722, 0.401, 0.527, -0.999},
      {-2.57, -1.06, 1.42, -1.04, -1.55, 4.49, -4.26, 0.96}},
     96},
    {{{0, 0, 0.414, -0.169, -0.519, 1.471}, {-0.01, -0.04, 0.12, 0.74, -0.29, -0.88},
      {0.132, 0.315, -1.644, 0.305, 1.129, -2.13, 0.215, -0.841, -1.786, 0.566, -1.298, -1.591},
      {-0.88, 1.78, 1.85, -1.66, 0.66, 2.96, 4.64, 0.69}},
     61},
    {{{0, 0, 0.401, -0.725, -0.741, 2.856}, {0.83, -0.06, -0.48, -1.08, 1.36, 0.8},
      {0.475, 1.391, -1.618, 0.614, 0.572, -1.977, 0.322, -1.016, -1.683, -0.121, -0.56, -1.253},
      {-2.11, 4.76, 1.32, 1.49, 0.07, 1.97, 0.43, -3.22}},
     62},
    {{{0, 0, 0.6, 0.25, 0.981, -2.202}, {-0.8, 0.84, -2.71, 1.91, 1.4, 2.51},
      {-0.095, -1.316, -0.937, 0.494, 0.524, -2.145, -0.523, 1.35, -1.207, -0.296, -1.119, -2.175},
      {0.79, -0.21, -2.12, -2.15, 4.91, 3.95, 2.62, 4.03}},
     75},
};

TEST(CentredRestart, CarriesStalledLandingsOfTheQuadruped) {
  const Model model = parse_urdf(test::quadruped_urdf());
  const StepOptions defaults;
  ASSERT_TRUE(defaults.centred_restart) << "on by default";
  StepOptions without = defaults;
  without.centred_restart = false;
  int failed_without = 0, centred = 0;
  for (size_t d = 0; d < std::size(kStalledLandings); ++d) {
    const int steps = kStalledLandings[d].failed_step + 1;
    State start = make_state(model);
    test::place(model, start, kStalledLandings[d].drop);
    Simulator off(model, without), on(model, defaults);
    failed_without += test::fails_within(off, start, steps);
    State s = start;
    for (int k = 0; k < steps; ++k) {
      const StepResult r = on.step(s);
      ASSERT_TRUE(r.ok()) << "landing " << d << ", step " << k << ": " << to_string(r.status);
      if (!r.centred_restart) continue;
      ++centred;
      // The restarted solve answers the step's own equations: every
      // tolerance holds, and no contact sinks further than its
      // regularization and a turning rim allow.
      EXPECT_LE(r.complementarity, defaults.complementarity_tolerance * 2.0) << "landing " << d << ", step " << k;
      EXPECT_LE(r.inequality_residual, defaults.interior_tolerance) << "landing " << d << ", step " << k;
      EXPECT_GE(r.min_signed_distance, -2.5e-4) << "landing " << d << ", step " << k;
    }
    EXPECT_LT(constraint_violation(model, s), 1e-7) << "landing " << d;
  }
  // Round-off decides which steps stall; each of these did in the sweep.
  EXPECT_GE(failed_without, 4) << "these landings no longer stall without the restart: pick harder ones";
  EXPECT_GE(centred, 4) << "the restart carried too few steps to test";
}

// A restart happens only after a stall: a mechanism without contacts or
// limits never restarts, and a run whose steps all converge is the same
// with the option on or off, bit for bit.
TEST(CentredRestart, OnlyStalledStepsRestart) {
  const Model pendulum = double_pendulum();
  Simulator free_swing(pendulum);
  State p = make_state(pendulum);
  for (int k = 0; k < 50; ++k) EXPECT_FALSE(free_swing.step(p).centred_restart) << "step " << k;

  const Model model = parse_urdf(test::quadruped_urdf());
  StepOptions without;
  without.centred_restart = false;
  Simulator on(model), off(model, without);
  State a = make_state(model);
  test::place(model, a, kStalledLandings[0].drop);
  State b = a;
  const int calm_steps = 30;  // before the landing's stall
  ASSERT_LT(calm_steps, kStalledLandings[0].failed_step);
  for (int k = 0; k < calm_steps; ++k) {
    const StepResult r = on.step(a);
    ASSERT_TRUE(r.ok()) << "step " << k;
    EXPECT_FALSE(r.centred_restart) << "step " << k;
    ASSERT_TRUE(off.step(b).ok()) << "step " << k;
  }
  for (int i = 0; i < model.num_bodies(); ++i) {
    EXPECT_EQ(a.velocity[i], b.velocity[i]) << "body " << i;
    EXPECT_EQ(a.angular_velocity[i], b.angular_velocity[i]) << "body " << i;
  }
}

// A step taken as sub-steps reports the centred restart of any of them:
// the first of two held sub-steps is the restarted step itself.
TEST(CentredRestart, AnySubstepThatRestartedIsReported) {
  const Model model = parse_urdf(test::quadruped_urdf());
  const Landing& landing = kStalledLandings[0];
  const auto h = test::restart_as_first_substep(model, StepOptions{}, landing.drop, landing.failed_step + 1,
                                                [](const StepResult& r) { return r.centred_restart; });
  ASSERT_TRUE(h.has_value()) << "no plain step restarted: pick another landing";
  ASSERT_TRUE(h->ok()) << to_string(h->status);
  ASSERT_EQ(h->substeps, 2);
  EXPECT_TRUE(h->centred_restart);
}

}  // namespace
}  // namespace dynamics
