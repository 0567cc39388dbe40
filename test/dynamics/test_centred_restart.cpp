// StepOptions::centred_restart: a step with inequalities whose
// interior-point iteration stalls is solved again from the same start with
// its steps kept near the central path. On quadruped landings that stalled
// at the defaults before it (a friction pair swinging between its bounds)
// the restart carries the step, and the answer meets every tolerance.
#include <gtest/gtest.h>

#include <iterator>

#include "dynamics/dynamics.hpp"
#include "portable_kernels.hpp"
#include "quadruped.hpp"
#include "stalled_landings.hpp"

namespace dynamics {
namespace {

TEST(CentredRestart, CarriesStalledLandingsOfTheQuadruped) {
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  const StepOptions defaults;
  ASSERT_TRUE(defaults.centred_restart) << "on by default";
  StepOptions without = defaults;
  without.centred_restart = false;
  int failed_without = 0, centred = 0;
  for (size_t d = 0; d < std::size(test::kStalledLandings); ++d) {
    const int steps = test::kStalledLandings[d].failed_step + 1;
    State start = make_state(model);
    test::place(model, start, test::kStalledLandings[d].drop);
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
  const test::PortableKernels portable;  // the stalls were found with them
  const Model pendulum = double_pendulum();
  Simulator free_swing(pendulum);
  State p = make_state(pendulum);
  for (int k = 0; k < 50; ++k) EXPECT_FALSE(free_swing.step(p).centred_restart) << "step " << k;

  const Model model = parse_urdf(test::quadruped_urdf());
  StepOptions without;
  without.centred_restart = false;
  Simulator on(model), off(model, without);
  State a = make_state(model);
  test::place(model, a, test::kStalledLandings[0].drop);
  State b = a;
  const int calm_steps = 30;  // before the landing's stall
  ASSERT_LT(calm_steps, test::kStalledLandings[0].failed_step);
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
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  const test::Landing& landing = test::kStalledLandings[0];
  const auto h = test::restart_as_first_substep(model, StepOptions{}, landing.drop, landing.failed_step + 1,
                                                [](const StepResult& r) { return r.centred_restart; });
  ASSERT_TRUE(h.has_value()) << "no plain step restarted: pick another landing";
  ASSERT_TRUE(h->ok()) << to_string(h->status);
  ASSERT_EQ(h->substeps, 2);
  EXPECT_TRUE(h->centred_restart);
}

}  // namespace
}  // namespace dynamics
