// A step whose contacts are all open and whose joint limits are each open or
// pushed by the last step's impulse (a joint resting on its stop) is solved
// with the pushed limits held as equality constraints and the rest left out
// (StepOptions::skip_open_inequalities, StepResult::limits_held); it stands
// only if each held limit still pushes and the rest are still open.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "dynamics/dynamics.hpp"
#include "position_difference.hpp"
#include "with_limits.hpp"

namespace dynamics {
namespace {

using test::keeping_inequalities;
using test::with_range;

constexpr double kTolerance = StepOptions{}.tolerance;

// A pendulum released at 1 rad above a stop at 0.4 rad falls onto it and
// rests there, gravity pressing it: each resting step is solved with the
// stop held, in fewer iterations than the interior point takes, to the
// same state within the tolerances, and just inside the stop.
TEST(HeldLimits, APendulumRestingOnItsStopIsHeldAsTheInteriorPointHoldsIt) {
  const Model limited = with_range(pendulum(1.0, 1.0, 1.0), 0.4, 3.0);
  Simulator sim(limited);
  State state = make_state(limited);
  for (int k = 0; k < 300; ++k) ASSERT_TRUE(sim.step(state).ok()) << k;
  int held_iterations = 0, kept_iterations = 0;
  for (int k = 0; k < 50; ++k) {
    State kept_state = state;
    Simulator kept(limited, keeping_inequalities());
    const StepResult r = sim.step(state), rk = kept.step(kept_state);
    ASSERT_TRUE(r.ok() && rk.ok()) << k;
    EXPECT_TRUE(r.limits_held) << k;
    EXPECT_FALSE(r.inequalities_skipped) << k;
    EXPECT_FALSE(rk.limits_held) << k;
    held_iterations += r.iterations;
    kept_iterations += rk.iterations;
    EXPECT_LT(test::largest_position_difference(state.position, kept_state.position), 1e-9) << k;
    // The same impulses: the hinge's and the stop's (the interior point's
    // complementarity products are 1e-8 at most).
    EXPECT_LT((state.multipliers - kept_state.multipliers).lpNorm<Eigen::Infinity>(), 1e-8) << k;
    const double angle = joint_positions(limited, state)(0);
    EXPECT_GE(angle, 0.4) << k;
    EXPECT_LE(angle, 0.4 + 2.0 * kTolerance) << k;
  }
  EXPECT_LT(2 * held_iterations, kept_iterations) << "holding the stop no longer saves interior-point iterations";
  // Resting for good: no drift through the stop or away from it.
  for (int k = 0; k < 2000; ++k) ASSERT_TRUE(sim.step(state).ok()) << k;
  EXPECT_GE(joint_positions(limited, state)(0), 0.4);
  EXPECT_LE(joint_positions(limited, state)(0), 0.4 + 2.0 * kTolerance);
  EXPECT_LT(std::abs(joint_velocities(limited, state)(0)), 1e-8);
  EXPECT_TRUE(limit_violations(limited, state).empty());
}

// The pendulum resting on its stop, from a state after 300 steps, and a
// simulator that solves every step with its limits, stepping from the same
// state.
struct Resting {
  Model model;
  Simulator sim;
  State state;
  explicit Resting(double upper)
      : model(with_range(pendulum(1.0, 1.0, 1.0), 0.4, upper)), sim(model), state(make_state(model)) {
    for (int k = 0; k < 300; ++k) EXPECT_TRUE(sim.step(state).ok()) << k;
    EXPECT_TRUE(sim.step(state).limits_held);
  }
};

// A torque that lifts the resting pendulum off its stop: held, the stop's
// impulse would pull, so the step lets go of it and is solved again without
// it (its gap then opens). Fewer iterations than the interior point's step,
// the same step within the tolerances; the pendulum leaves the stop.
TEST(HeldLimits, AHeldLimitThatPullsIsLetGoOf) {
  Resting resting(3.0);
  State& state = resting.state;
  // Gravity's torque on the link there is m g (l/2) sin(0.4) = 1.9 N m.
  state.joint_input(0) = 10.0;
  State kept_state = state;
  Simulator kept(resting.model, keeping_inequalities());
  const StepResult r = resting.sim.step(state), rk = kept.step(kept_state);
  ASSERT_TRUE(r.ok() && rk.ok());
  EXPECT_TRUE(r.limits_held);
  EXPECT_LT(r.iterations, rk.iterations);
  EXPECT_LT(test::largest_position_difference(state.position, kept_state.position), 1e-9);
  EXPECT_GT(joint_positions(resting.model, state)(0), 0.4);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(resting.sim.step(state).ok()) << k;
  EXPECT_GT(joint_positions(resting.model, state)(0), 0.41);
}

// A torque that throws the pendulum from its lower stop past its upper one
// (0.41 rad) within the step: the held lower stop pulls and is let go of,
// the step without it ends past the upper one, which is then held: the
// interior point's step within the tolerances, the pendulum on the upper
// stop's inside.
TEST(HeldLimits, AStopReachedWithinTheStepIsHeldNext) {
  Resting resting(0.41);
  State& state = resting.state;
  state.joint_input(0) = 100.0;  // about 290 rad/s^2: 0.03 rad in a step
  State kept_state = state;
  Simulator kept(resting.model, keeping_inequalities());
  const StepResult r = resting.sim.step(state), rk = kept.step(kept_state);
  ASSERT_TRUE(r.ok() && rk.ok());
  EXPECT_TRUE(r.limits_held);
  EXPECT_LT(test::largest_position_difference(state.position, kept_state.position), 1e-9);
  const double angle = joint_positions(resting.model, state)(0);
  EXPECT_LE(angle, 0.41);
  EXPECT_GE(angle, 0.41 - 2.0 * kTolerance);
}

// A pendulum hanging at rest, 0.01 rad below its upper stop, gets a torque
// that turns it 0.03 rad in a step: nothing closes at the step's start, so
// it is first solved open (in one or two iterations) and ends past the stop;
// then solved again from there with that stop held, it is the interior
// point's step within the tolerances, on the stop's inside.
TEST(HeldLimits, AStopAnOpenStepPassesIsHeld) {
  const Model model = with_range(pendulum(1.0, 1.0, 0.0), -1.0, 0.01);
  Simulator sim(model), kept(model, keeping_inequalities());
  State a = make_state(model);
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(sim.step(a).ok() && sim.step(a).inequalities_skipped) << k;
  a.joint_input(0) = 100.0;
  State b = a;
  const StepResult ra = sim.step(a), rb = kept.step(b);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_TRUE(ra.limits_held);
  EXPECT_LT(test::largest_position_difference(a.position, b.position), 1e-9);
  const double angle = joint_positions(model, a)(0);
  EXPECT_LE(angle, 0.01);
  EXPECT_GE(angle, 0.01 - 2.0 * kTolerance);
}

// A chain of `links` hinges of `length` started at 0.5 rad onto stops at
// [0.2, 1] rad, stepped `steps` times (dt scaled by the square root of the
// length: the same share of a swing) with held limits and, from the same
// start, with the interior point; `check` sees each step of the first.
struct ChainOntoStops {
  Model model;
  State held_state, kept_state;
  int held = 0, iterations = 0, kept_iterations = 0;
  ChainOntoStops(int links, double length, int steps,
                 const std::function<void(const Model&, const StepResult&, const State&)>& check = {})
      : model(with_range(n_link_pendulum(links, ChainJoint::Revolute, length, 1.0, 0.0), 0.2, 1.0)),
        held_state(make_state(model)) {
    StepOptions options;
    options.dt = 0.01 * std::sqrt(length);
    StepOptions keeping = options;
    keeping.skip_open_inequalities = false;
    Simulator sim(model, options), kept(model, keeping);
    set_joint_positions(model, held_state, Eigen::VectorXd::Constant(links, 0.5));
    kept_state = held_state;
    for (int k = 0; k < steps; ++k) {
      const StepResult ra = sim.step(held_state), rb = kept.step(kept_state);
      if (!ra.ok() || !rb.ok()) {
        ADD_FAILURE() << "step " << k << " failed at length " << length;
        return;
      }
      held += ra.limits_held;
      iterations += ra.iterations;
      kept_iterations += rb.iterations;
      if (check) check(model, ra, held_state);
    }
  }
  double difference() const { return test::largest_position_difference(held_state.position, kept_state.position); }
};

// Five links falling onto their stops bounce, then rest on them. The run
// holds its stops on most steps and ends where the run that solves every step
// with its limits ends, no held step past a stop, in fewer iterations.
TEST(HeldLimits, AChainRestingOnItsStopsEndsAsWithTheInteriorPoint) {
  const ChainOntoStops run(5, 1.0, 600, [](const Model& model, const StepResult& r, const State& state) {
    // The interior point's impacts end within its tolerance of a stop (1e-11
    // rad past it here); a held stop ends inside it.
    EXPECT_TRUE(limit_violations(model, state, r.limits_held ? 0.0 : 1e-10).empty()) << state.steps;
    EXPECT_LT(constraint_violation(model, state), 1e-9) << state.steps;
  });
  EXPECT_GT(run.held, 400);
  EXPECT_LT(2 * run.iterations, run.kept_iterations);
  EXPECT_LT(run.difference(), 1e-7);
  const Eigen::VectorXd angles = joint_positions(run.model, run.held_state);
  for (int j = 0; j < 5; ++j) EXPECT_NEAR(angles(j), 0.2, 1e-9) << j;
}

// Three links onto their stops at lengths from 0.1 mm to 10 km (the smallest
// and largest equilibrated): at every size they rest on their stops held, in
// fewer iterations than the interior point, and end where it ends. (A held
// row's diagonal in absolute terms slowed the 10 km links to 5 times the
// interior point's iterations; the default pivot test refused the 100 m
// links' held rows.)
TEST(HeldLimits, ChainsRestOnTheirStopsHeldAtEverySize) {
  for (const double length : {1e-4, 1.0, 1e2, 1e4}) {
    const ChainOntoStops run(3, length, 300);
    EXPECT_GT(run.held, 250) << length;
    EXPECT_LT(run.iterations, run.kept_iterations) << length;
    EXPECT_LT(run.difference(), 1e-7 * length) << length;
    EXPECT_TRUE(limit_violations(run.model, run.held_state).empty()) << length;
  }
}

// A joint's limits are read from one evaluation of its coordinates, held or
// not: with the lower limit of the second hinge held (gravity presses it on
// 0.3 rad), its upper limit is still read at its own angle. Read at the first
// hinge's (turned 1 rad about the vertical, where gravity leaves it), it
// would be past that limit, and no held step would stand.
TEST(HeldLimits, TheOtherLimitOfAHeldJointIsReadAtItsOwnJoint) {
  const Model chain = n_link_pendulum(2);
  Model model;
  for (const Body& body : chain.bodies()) model.add_body(body);
  Joint turntable = chain.joint(0), hinge = chain.joint(1);
  turntable.axis = Vector3::UnitZ();
  turntable.lower = {-3.0};
  turntable.upper = {3.0};
  hinge.lower = {0.3};
  hinge.upper = {0.4};
  model.add_joint(turntable);
  model.add_joint(hinge);
  Simulator sim(model);
  State state = make_state(model);
  set_joint_positions(model, state, Eigen::Vector2d(1.0, 0.35));
  int held = 0;
  for (int k = 0; k < 300; ++k) {
    const StepResult r = sim.step(state);
    ASSERT_TRUE(r.ok()) << k;
    held += r.limits_held;
  }
  EXPECT_GT(held, 250);
  const Eigen::VectorXd angles = joint_positions(model, state);
  EXPECT_NEAR(angles(0), 1.0, 1e-9);
  EXPECT_GE(angles(1), 0.3);
  EXPECT_LE(angles(1), 0.3 + 2.0 * kTolerance);
}

// The resting pendulum, a wall beside its tip 0.07 rad of swing away, and a
// torque that lifts it off its stop into the wall within the step: the held
// stop pulls and is let go of, the step without it passes through the wall,
// and a contact no held step can take: the step is solved again with the
// interior point from the same start, and is that step to the last bit.
TEST(HeldLimits, AStepThatClosesAContactIsSolvedAgainWithTheInteriorPoint) {
  const Model resting_model = with_range(pendulum(1.0, 1.0, 0.4), 0.4, 3.0);
  State at_rest = make_state(resting_model);
  const double tip_x = 2.0 * at_rest.position[0].x();  // the pivot at the origin, the centre of mass halfway
  const double sign = tip_x > 0.0 ? 1.0 : -1.0;
  Model model = resting_model;
  Contact tip;
  tip.body = 0;
  tip.point = Vector3(0.0, 0.0, -0.5);
  tip.ground.normal = Vector3(-sign, 0.0, 0.0);  // sign x <= sin(0.47): the wall beside the tip
  tip.ground.offset = -std::sin(0.47);
  model.add_contact(tip);
  Simulator sim(model), kept(model, keeping_inequalities());
  State state = make_state(model);
  for (int k = 0; k < 20; ++k) ASSERT_TRUE(sim.step(state).ok()) << k;
  ASSERT_TRUE(sim.step(state).limits_held);
  state.joint_input(0) = 300.0;  // about 0.09 rad in a step
  State kept_state = state;
  const StepResult r = sim.step(state), rk = kept.step(kept_state);
  ASSERT_TRUE(r.ok() && rk.ok());
  EXPECT_FALSE(r.limits_held);
  EXPECT_FALSE(r.inequalities_skipped);
  EXPECT_GT(r.iterations, rk.iterations) << "the held attempts are counted";
  EXPECT_EQ(state.position[0], kept_state.position[0]);
  EXPECT_EQ(state.orientation[0].coeffs(), kept_state.orientation[0].coeffs());
  EXPECT_GT(r.min_signed_distance, -1e-6);
}

// The quadruped standing on its feet presses its knee limits, but its feet
// press the ground too: its steps are never held (a held step leaves its
// contacts out), and they are the interior point's steps to the last bit.
TEST(HeldLimits, AStepWithAPressedContactIsNotHeld) {
  const Model model = quadruped();
  Simulator sim(model), kept(model, keeping_inequalities());
  State a = make_state(model), b = make_state(model);
  for (int k = 0; k < 150; ++k) {
    const StepResult ra = sim.step(a), rb = kept.step(b);
    ASSERT_TRUE(ra.ok() && rb.ok()) << k;
    EXPECT_FALSE(ra.limits_held) << k;
    if (ra.inequalities_skipped) b = a;  // in flight: skipped steps differ in the last bits
  }
  EXPECT_LT(test::largest_position_difference(a.position, b.position), 1e-6);
}

}  // namespace
}  // namespace dynamics
