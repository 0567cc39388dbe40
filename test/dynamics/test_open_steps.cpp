// Steps whose contacts and joint limits are all open are solved without them,
// as steps of the joints alone (StepOptions::skip_open_inequalities), and kept
// only if every one is still open at their end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dynamics/dynamics.hpp"
#include "position_difference.hpp"
#include "with_limits.hpp"

namespace dynamics {
namespace {

using test::keeping_inequalities;
using test::with_limits;

double largest_position_difference(const State& a, const State& b) {
  return test::largest_position_difference(a.position, b.position);
}

// Limits the chains never reach: every step is the step without them, with
// the same Newton iterations, where the interior point takes more.
TEST(OpenSteps, LimitsNeverReachedStepAsWithoutThem) {
  for (ChainJoint kind : {ChainJoint::Revolute, ChainJoint::Spherical}) {
    const Model free = n_link_pendulum(5, kind, 1.0, 1.0, 0.3);
    const Model limited = with_limits(free, 3.0);
    Simulator free_sim(free), limited_sim(limited), kept_sim(limited, keeping_inequalities());
    State a = make_state(free), b = make_state(limited), c = make_state(limited);
    int free_iterations = 0, skipped_iterations = 0, kept_iterations = 0;
    for (int k = 0; k < 300; ++k) {
      const StepResult ra = free_sim.step(a), rb = limited_sim.step(b), rc = kept_sim.step(c);
      ASSERT_TRUE(ra.ok() && rb.ok() && rc.ok()) << k;
      EXPECT_TRUE(rb.inequalities_skipped) << k;
      EXPECT_FALSE(rc.inequalities_skipped) << k;
      EXPECT_EQ(rb.iterations, ra.iterations) << k;
      free_iterations += ra.iterations;
      skipped_iterations += rb.iterations;
      kept_iterations += rc.iterations;
    }
    EXPECT_LT(largest_position_difference(a, b), 1e-9);
    // The interior point solves to its own tolerance (1e-8): close, not equal.
    EXPECT_LT(largest_position_difference(a, c), 1e-5);
    EXPECT_EQ(skipped_iterations, free_iterations);
    // Two interior-point iterations a step (each with two solves) against one.
    EXPECT_GT(kept_iterations, 3 * free_iterations / 2) << "the interior point no longer costs more";
  }
}

// Open steps factorize the graph without the inequality nodes, except for a
// model whose linear solves are equilibrated (bodies far from metre size),
// whose open steps leave those nodes inactive in the whole graph instead:
// both ways a step is the step without limits.
TEST(OpenSteps, LimitsNeverReachedStepAsWithoutThemAtEveryScale) {
  for (const double length : {1e-4, 1.0, 1e4}) {
    const Model free = n_link_pendulum(3, ChainJoint::Revolute, length, 1.0, 0.3);
    const Model limited = with_limits(free, 3.0);
    StepOptions options;
    options.dt = 0.01 * std::sqrt(length);  // the same share of a swing at every scale
    Simulator free_sim(free, options), limited_sim(limited, options);
    State a = make_state(free), b = make_state(limited);
    for (int k = 0; k < 100; ++k) {
      const StepResult ra = free_sim.step(a), rb = limited_sim.step(b);
      ASSERT_TRUE(ra.ok() && rb.ok()) << length << " " << k;
      EXPECT_TRUE(rb.inequalities_skipped) << length << " " << k;
      EXPECT_EQ(rb.iterations, ra.iterations) << length << " " << k;
    }
    EXPECT_LT(largest_position_difference(a, b), 1e-9 * length) << length;
  }
}

// A cube at rest a micrometre above the ground: apart and not moving, so the
// step is tried without its contacts, but gravity takes it through the ground
// within the step. It is solved again with them, exactly as without the
// attempt, whose iterations it counts.
TEST(OpenSteps, AStepThatClosesAnOpenGapIsSolvedAgainWithIt) {
  const Model model = box_drop(0.5, 1.0, 1e-6);
  Simulator skipping(model), keeping(model, keeping_inequalities());
  State a = make_state(model), b = make_state(model);
  const StepResult ra = skipping.step(a), rb = keeping.step(b);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_FALSE(ra.inequalities_skipped);
  EXPECT_GT(ra.iterations, rb.iterations);  // the attempt without contacts
  EXPECT_EQ(a.position[0], b.position[0]);
  EXPECT_EQ(a.velocity[0], b.velocity[0]);
  EXPECT_EQ(ra.min_signed_distance, rb.min_signed_distance);
  EXPECT_GE(ra.min_signed_distance, -1e-6);
}

// A falling cube: its flight is solved without contacts (from two steps
// before it lands, with them) and it lands and comes to rest as with every
// step solved with its contacts.
TEST(OpenSteps, ADroppedCubeFallsWithoutItsContactsAndLandsAsWithThem) {
  for (FrictionModel friction : {FrictionModel::None, FrictionModel::Linearized, FrictionModel::Cone}) {
    const Model model = box_drop(0.5, 1.0, 0.4, {friction, 0.5, 4});
    Simulator skipping(model), keeping(model, keeping_inequalities());
    State a = make_state(model), b = make_state(model);
    int skipped = 0, first_kept = -1;
    for (int k = 0; k < 200; ++k) {
      const StepResult ra = skipping.step(a), rb = keeping.step(b);
      ASSERT_TRUE(ra.ok() && rb.ok()) << to_string(friction) << ", step " << k;
      EXPECT_GE(ra.min_signed_distance, -1e-6) << to_string(friction) << ", step " << k;
      if (ra.inequalities_skipped) {
        ++skipped;
        EXPECT_LT(first_kept, 0) << "skipped after landing, step " << k;
        EXPECT_GT(ra.min_signed_distance, 0.0) << k;
      } else if (first_kept < 0) {
        first_kept = k;
      }
    }
    // Free fall from 0.4 m takes 0.286 s: 28 steps, all but the last ones open.
    EXPECT_GE(skipped, 25) << to_string(friction);
    EXPECT_LE(skipped, 29) << to_string(friction);
    EXPECT_LT(largest_position_difference(a, b), 1e-6) << to_string(friction);
    EXPECT_LT(a.velocity[0].norm(), 1e-6) << to_string(friction);
  }
}

// A limit reached within a step: the stop holds as with every step solved
// with the limit, and the swing between the stops is skipped.
TEST(OpenSteps, APendulumSwingingBetweenItsStopsHoldsThemAsWithoutSkipping) {
  Model model;
  model.add_body(make_link("link1", 1.0, 1.0));
  Joint hinge = Joint::make(JointType::Revolute, "joint1", kWorld, 0, Vector3::UnitY());
  hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);
  hinge.lower = {-0.2};
  hinge.upper = {0.2};
  hinge.initial_velocity = {3.0};
  model.add_joint(hinge);
  Simulator skipping(model), keeping(model, keeping_inequalities());
  State a = make_state(model), b = make_state(model);
  int skipped = 0, kept = 0;
  double highest = 0.0;
  for (int k = 0; k < 200; ++k) {
    const StepResult ra = skipping.step(a), rb = keeping.step(b);
    ASSERT_TRUE(ra.ok() && rb.ok()) << k;
    (ra.inequalities_skipped ? skipped : kept) += 1;
    highest = std::max(highest, std::abs(joint_positions(model, a)(0)));
    EXPECT_NEAR(joint_positions(model, a)(0), joint_positions(model, b)(0), 1e-6) << k;
  }
  EXPECT_LE(highest, 0.2 + 1e-8);
  EXPECT_GT(skipped, 0);
  EXPECT_GT(kept, 0);
}

// A pendulum turning at 250 rad/s needs four sub-steps (a quarter turn per
// step at most); with limits 100 rad away each sub-step is open, and the step
// reports them skipped, as the pendulum without limits would have gone.
TEST(OpenSteps, SubStepsAreSkippedOneByOne) {
  Model free;
  free.add_body(make_link("link1", 1.0, 1.0));
  Joint hinge = Joint::make(JointType::Revolute, "joint1", kWorld, 0, Vector3::UnitY());
  hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);
  hinge.initial_velocity = {250.0};
  free.add_joint(hinge);
  const Model limited = with_limits(free, 100.0);
  Simulator free_sim(free), limited_sim(limited);
  State a = make_state(free), b = make_state(limited);
  for (int k = 0; k < 5; ++k) {
    const StepResult ra = free_sim.step(a), rb = limited_sim.step(b);
    ASSERT_TRUE(ra.ok() && rb.ok()) << k;
    EXPECT_GT(rb.substeps, 1) << k;
    EXPECT_EQ(rb.substeps, ra.substeps) << k;
    EXPECT_TRUE(rb.inequalities_skipped) << k;
  }
  EXPECT_LT(largest_position_difference(a, b), 1e-9);
  EXPECT_NEAR(b.joint_angles[0], a.joint_angles[0], 1e-9);
}

// A ball (radius 0.1 m) dropped onto a static table (top at 0.5 m) and
// rolled off it: its fall onto the table and its fall from the table to the
// ground are open and skipped, its roll on the table (its contact with the
// table box pushes) never, and it lands as with every step solved with its
// contacts.
TEST(OpenSteps, ABallRollingOffATableFallsWithoutContactsAndLands) {
  const Model model = ball_on_table(0.3, 1.0);
  Simulator skipping(model), keeping(model, keeping_inequalities());
  State a = make_state(model), b = make_state(model);
  int skipped_above = 0, skipped_rolling = 0, skipped_below = 0;
  for (int k = 0; k < 150; ++k) {
    const StepResult ra = skipping.step(a), rb = keeping.step(b);
    ASSERT_TRUE(ra.ok() && rb.ok()) << k;
    EXPECT_GE(ra.min_signed_distance, -1e-6) << k;
    const double z = a.position[0].z();
    if (!ra.inequalities_skipped) continue;
    if (std::abs(z - 0.6) < 1e-6) ++skipped_rolling;
    (z > 0.6 ? skipped_above : skipped_below) += 1;
  }
  EXPECT_EQ(skipped_rolling, 0);
  EXPECT_GT(skipped_above, 15) << "the drop onto the table (0.3 m: 24 steps) is open";
  EXPECT_GT(skipped_below, 5) << "the fall from the table is open";
  EXPECT_LT(largest_position_difference(a, b), 1e-5);
}

}  // namespace
}  // namespace dynamics
