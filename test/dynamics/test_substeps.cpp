// StepOptions::max_substeps: a step that fails is retried as 2, 4, ... equal
// sub-steps, ending with max_substeps. Each sub-step is exactly a step at
// dt / k, a transient too fast for dt is carried, and a retry that fails
// everywhere leaves the state alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "portable_kernels.hpp"
#include "quadruped.hpp"
#include "spring_hinge.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::with_dt;

StepOptions with_substeps(double dt, int max_substeps) {
  StepOptions o = with_dt(dt);
  o.max_substeps = max_substeps;
  return o;
}

// A free box spinning about an axis off its principal axes at more than
// 2/dt: one step cannot carry it (nor a quarter turn per step, sqrt(2)/dt),
// two half steps can.
Model spinning_box() {
  Model model;
  model.gravity = Vector3(0.0, 0.0, -9.81);
  const int box = model.add_body(Body::solid("box", 2.0, Shape::box(Vector3(0.3, 0.2, 0.1))));
  Joint free = Joint::make(JointType::Floating, "box", kWorld, box);
  free.initial_velocity = {1.0, 0.0, 2.0, 150.0, 160.0, 30.0};  // |w| = 221 rad/s > 2 / 0.01
  model.add_joint(free);
  return model;
}

TEST(Substeps, AStepRetriedAsSubstepsIsExactlyThoseSteps) {
  const Model model = spinning_box();
  const double dt = 0.01;
  State one = make_state(model);
  ASSERT_GT(one.angular_velocity[0].norm(), 2.0 / dt);
  State two = one;

  Simulator plain(model, with_dt(dt));  // no sub-steps
  State copy = one;
  EXPECT_EQ(plain.step(copy).status, StepStatus::Diverged);

  // The default options retry up to 8 sub-steps: 2 carry it.
  EXPECT_EQ(StepOptions{}.max_substeps, 8);
  Simulator by_default(model);
  EXPECT_EQ(by_default.step(copy).substeps, 2);

  Simulator retried(model, with_substeps(dt, 2));
  const StepResult r = retried.step(one);
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  EXPECT_EQ(r.substeps, 2);
  EXPECT_EQ(one.time, dt);
  EXPECT_EQ(one.steps, 1);

  // The same two half steps by hand, from the same state without history.
  Simulator half(model, with_dt(dt / 2));
  two.clear_history();
  ASSERT_TRUE(half.step(two).ok());
  ASSERT_TRUE(half.step(two).ok());
  EXPECT_LT((one.position[0] - two.position[0]).norm(), 1e-14);
  EXPECT_LT(one.orientation[0].angularDistance(two.orientation[0]), 1e-14);
  EXPECT_LT((one.velocity[0] - two.velocity[0]).norm(), 1e-12);
  EXPECT_LT((one.angular_velocity[0] - two.angular_velocity[0]).norm(), 1e-10);

  // The free flight is exact: x = x0 + v0 t - g t^2 / 2 (symplectic Euler's
  // positions at dt/2: x0 + v0 t - g (dt/2)^2 (1 + 2) / 2 after two).
  const double h = dt / 2;
  EXPECT_NEAR(one.position[0].z(), 2.0 * dt - 9.81 * h * h * 3.0, 1e-14);
  EXPECT_NEAR(one.position[0].x(), 1.0 * dt, 1e-15);
}

TEST(Substeps, RetriesThatAllFailLeaveTheStateAsItWas) {
  const Model model = spinning_box();
  State s = make_state(model);
  State fast = make_state(model);
  fast.angular_velocity[0] *= 4.0;  // 884 rad/s: needs 8 pieces of 0.01 s (limit 1600)
  const State before = fast;
  Simulator four(model, with_substeps(0.01, 4));  // finest: 0.0025 s, limit 800 rad/s
  const StepResult r = four.step(fast);
  EXPECT_EQ(r.status, StepStatus::Diverged);
  EXPECT_EQ(r.substeps, 4);
  EXPECT_EQ(fast.position[0], before.position[0]);
  EXPECT_EQ(fast.angular_velocity[0], before.angular_velocity[0]);
  EXPECT_EQ(fast.time, 0.0);
  EXPECT_EQ(fast.steps, 0);
  Simulator eight(model, with_substeps(0.01, 8));
  const StepResult r8 = eight.step(fast);
  ASSERT_TRUE(r8.ok()) << to_string(r8.status);
  EXPECT_EQ(r8.substeps, 8);
  // A sphere spun up by a torque faster than even half steps carry: the first
  // half step succeeds (150 -> 232 rad/s) and the second does not converge:
  // the state is still the one the step started from.
  Model ball_model;
  ball_model.gravity = Vector3::Zero();
  const int ball = ball_model.add_body(Body::solid("ball", 1.0, Shape::sphere(0.1)));
  ball_model.add_joint(Joint::make(JointType::Floating, "ball", kWorld, ball));
  State spun = make_state(ball_model);
  spun.angular_velocity[ball] = Vector3(0.0, 0.0, 150.0);
  spun.velocity[ball] = Vector3(1.0, 0.0, 0.0);
  spun.external_torque[ball] = Vector3(0.0, 0.0, 1e4 * ball_model.body(ball).inertia(2, 2));
  const State spun_before = spun;
  Simulator halves(ball_model, with_substeps(0.01, 2));
  const StepResult spin_up = halves.step(spun);
  EXPECT_FALSE(spin_up.ok());
  EXPECT_EQ(spin_up.substeps, 2);
  EXPECT_EQ(spun.position[ball], spun_before.position[ball]);
  EXPECT_EQ(spun.orientation[ball].coeffs(), spun_before.orientation[ball].coeffs());
  EXPECT_EQ(spun.angular_velocity[ball], spun_before.angular_velocity[ball]);
  EXPECT_EQ(spun.steps, 0);

  // A step that does not fail takes no sub-steps.
  Simulator plain(model, with_substeps(0.001, 8));
  const StepResult calm = plain.step(s);
  ASSERT_TRUE(calm.ok());
  EXPECT_EQ(calm.substeps, 1);
}

// Six links alternating 1 kg and 1 mg: the light ones whip the chain around,
// and at dt = 0.01 s one step, 7.27 s in, has no solution that Newton's method
// finds from where it starts (at dt = 0.005 s the run goes through). With
// sub-steps only where a step fails (substep_hold = 0) the run continues: the
// steps before are the plain run's, bit for bit, that step is sub-stepped,
// and the constraints hold at tolerance; with the default hold too. (The
// energy error around such a step is the integrator's at this dt: the full
// steps next to it gain energy too. Sub-steps keep a run going; a smaller dt
// makes it accurate.)
TEST(Substeps, AWhippingChainGoesThroughWithSubsteps) {
  const test::PortableKernels portable;  // the stalls were found with them
  Model model;
  int parent = kWorld;
  for (int i = 0; i < 6; ++i) {
    const int link = model.add_body(make_link("link" + std::to_string(i), 1.0, i % 2 ? 1e-6 : 1.0));
    Joint hinge = Joint::make(JointType::Revolute, "joint" + std::to_string(i), parent, link, Vector3::UnitY());
    hinge.parent_frame.position = parent == kWorld ? Vector3::Zero() : Vector3(0.0, 0.0, -0.5);
    hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);
    hinge.initial_position = {i == 0 ? 1.0 : 0.3};
    model.add_joint(hinge);
    parent = link;
  }
  const double dt = 0.01;
  State plain_state = make_state(model), state = plain_state, held_state = plain_state;
  StepOptions only_failures = with_substeps(dt, 8);
  only_failures.substep_hold = 0;  // every step starts as one step
  Simulator plain(model, with_dt(dt)), sim(model, only_failures), by_default(model, with_substeps(dt, 8));
  int failed_at = -1, substepped = 0;
  double worst_violation = 0.0;
  for (int k = 0; k < 1000; ++k) {
    if (failed_at < 0 && !plain.step(plain_state).ok()) failed_at = k;
    const StepResult r = sim.step(state);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    if (failed_at < 0) {
      ASSERT_EQ(r.substeps, 1) << "step " << k;
      ASSERT_EQ(state.position[5], plain_state.position[5]) << "step " << k;
    }
    if (k == failed_at) {
      EXPECT_GT(r.substeps, 1);
    }
    substepped += r.substeps > 1;
    worst_violation = std::max(worst_violation, constraint_violation(model, state));
    // With the default hold, the steps after a sub-stepped one start as it did.
    const StepResult held = by_default.step(held_state);
    ASSERT_TRUE(held.ok()) << "step " << k << ": " << to_string(held.status);
    worst_violation = std::max(worst_violation, constraint_violation(model, held_state));
  }
  ASSERT_GE(failed_at, 0) << "the plain run no longer fails: pick a harder case";
  EXPECT_LT(substepped, 10);  // only where a step fails
  EXPECT_LT(worst_violation, 1e-10);
  EXPECT_NEAR(state.time, 1000 * dt, 1e-9);
  EXPECT_NEAR(held_state.time, 1000 * dt, 1e-9);
}

// A sphere spun past 2/dt and braked by a torque for five steps. The first
// step needs two half steps; the next four start as two (StepOptions::
// substep_hold, 4 by default) and brake it to 31 rad/s; the step after them
// tries one step again, which carries the slower spin from then on. With
// substep_hold = 0 only the steps that fail sub-step, and a full step is
// taken only within a quarter turn (|w| < sqrt(2)/dt, 141 rad/s): above it a
// step's rotational momentum falls as the spin rises (docs/dynamics.md,
// Limitations), and full steps there once braked the ball the wrong way, up
// to near 2/dt.
TEST(Substeps, TheStepsAfterASubsteppedOneStartAsItDid) {
  Model model;
  model.gravity = Vector3::Zero();
  const int ball = model.add_body(Body::solid("ball", 1.0, Shape::sphere(0.1)));
  model.add_joint(Joint::make(JointType::Floating, "ball", kWorld, ball));
  const double dt = 0.01, braking = 3000.0;  // rad/s^2
  State held = make_state(model);
  held.angular_velocity[ball] = Vector3(0.0, 0.0, 215.0);  // 2/dt = 200 rad/s
  held.external_torque[ball] = Vector3(0.0, 0.0, -braking * model.body(ball).inertia(2, 2));
  State plain = held;
  const int hold = StepOptions{}.substep_hold;
  ASSERT_EQ(hold, 4);
  StepOptions no_hold = with_substeps(dt, 8);
  no_hold.substep_hold = 0;
  Simulator by_default(model, with_substeps(dt, 8)), only_failures(model, no_hold), one_step(model, with_dt(dt));
  int plain_substepped = 0;
  for (int k = 0; k < 20; ++k) {
    if (k == 5) {
      held.external_torque[ball].setZero();
      plain.external_torque[ball].setZero();
    }
    const StepResult r = by_default.step(held);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    EXPECT_EQ(r.substeps, k <= hold ? 2 : 1) << "step " << k;
    State tried = plain;
    const bool one_step_fails = !one_step.step(tried).ok();
    const StepResult p = only_failures.step(plain);
    ASSERT_TRUE(p.ok()) << "step " << k << ": " << to_string(p.status);
    EXPECT_EQ(p.substeps, one_step_fails ? 2 : 1) << "step " << k;
    if (p.substeps == 1) {
      EXPECT_LT(plain.angular_velocity[ball].norm() * dt, std::sqrt(2.0)) << "step " << k;
    }
    plain_substepped += p.substeps > 1;
  }
  EXPECT_EQ(held.substep_memory.count, 1);
  EXPECT_EQ(plain.substep_memory.count, 1);
  EXPECT_GE(plain_substepped, 2);
  EXPECT_LT(std::abs(held.angular_velocity[ball].z()), 100.0);
  EXPECT_LT(std::abs(plain.angular_velocity[ball].z()), 100.0);  // braked, both ways
}

// A spring at 0.95 of its step limit (rate * dt = 1.9) converges, and its
// swing grows from the first step: from 0.1 rad to 0.59 in three steps
// before the fourth failed, which left the run swinging that far. So a
// state's first step estimates its springs' limit and starts within its
// margin (two half steps), which keep the swing within the bound of their
// invariant. With substep_hold = 0 nothing is estimated.
TEST(Substeps, AStiffSpringStartsWithinItsLimit) {
  const double dt = 0.011, amplitude = 0.1;
  const test::SpringHinge hinge = test::spring_hinge(1e4, amplitude);
  ASSERT_GT(hinge.rate * dt, 0.75 * 2.0);
  ASSERT_LT(hinge.rate * dt, 2.0);
  State s = make_state(hinge.model);
  Simulator sim(hinge.model, with_substeps(dt, 8));
  double largest = 0.0;
  for (int k = 0; k < 500; ++k) {
    const StepResult r = sim.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    EXPECT_EQ(r.substeps, 2) << "step " << k;
    largest = std::max(largest, std::abs(joint_positions(hinge.model, s)(0)));
  }
  EXPECT_LT(largest, 1.01 * test::swing_bound(amplitude, hinge.rate, dt / 2));

  StepOptions no_hold = with_substeps(dt, 8);
  no_hold.substep_hold = 0;
  State plain = make_state(hinge.model);
  EXPECT_EQ(Simulator(hinge.model, no_hold).step(plain).substeps, 1);
}

// A 20-link chain hanging at rest (its links zigzagging by `zigzag` rad)
// after one step of 0.01 s, which gives the state its joint impulses, and
// the load limit there.
struct HangingChain {
  Model model;
  State state;
  double limit;
};

HangingChain hanging_chain(double zigzag = 0.0) {
  HangingChain chain{n_link_pendulum(20, ChainJoint::Revolute, 1.0, 1.0, 0.0), {}, 0.0};
  chain.state = make_state(chain.model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(chain.model.num_coordinates());
  for (int i = 0; i < q.size(); ++i) q(i) = (i == 0 ? 1.0 : (i % 2 ? -2.0 : 2.0)) * zigzag;
  set_joint_positions(chain.model, chain.state, q);
  Simulator probe(chain.model, with_dt(0.01));
  EXPECT_TRUE(probe.step(chain.state).ok());
  chain.limit = probe.load_frequency(chain.state).step_limit;
  return chain;
}

// A try of fewer sub-steps whose step would be past the joints' load limit
// (Simulator::load_frequency) would converge and let the chain's zigzag
// grow: it is declined like a failed try. The loads change as the mechanism
// moves, so the limit is kept with a margin: sub-steps must stay within
// three quarters of it. A 20-link chain hanging at rest, its count held at 2
// or 4 with a try due, at 1.4 times its load limit: from 2, one full step
// would be past the limit (declined, the wait doubles); from 4, two half
// steps are within the margin (taken). At 0.8 times the limit a full step is
// within the limit but not the margin: declined.
TEST(Substeps, TriesPastTheLoadLimitAreDeclined) {
  const HangingChain chain = hanging_chain();
  const State& rest = chain.state;
  Simulator sim(chain.model, with_substeps(1.4 * chain.limit, 8));
  State held_two = rest, held_four = rest;
  held_two.substep_memory = {2, 4, 4};
  const StepResult two = sim.step(held_two);
  ASSERT_TRUE(two.ok()) << to_string(two.status);
  EXPECT_EQ(two.substeps, 2);
  EXPECT_EQ(held_two.substep_memory.probe_after, 8);
  held_four.substep_memory = {4, 4, 4};
  const StepResult four = sim.step(held_four);
  ASSERT_TRUE(four.ok()) << to_string(four.status);
  EXPECT_EQ(four.substeps, 2);
  EXPECT_EQ(held_four.substep_memory.count, 2);

  Simulator near(chain.model, with_substeps(0.8 * chain.limit, 8));
  State held = rest;
  held.substep_memory = {2, 4, 4};
  const StepResult r = near.step(held);
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  EXPECT_EQ(r.substeps, 2);
  EXPECT_EQ(held.substep_memory.probe_after, 8);
}

// The estimate of a try checks the held count too: one the loads have
// outgrown (the chain's sub-steps of dt / 2 are 1.4 times past its limit) is
// raised to the first count within the margin before the step.
TEST(Substeps, AHeldCountPastTheLoadLimitIsRaised) {
  const HangingChain chain = hanging_chain();
  Simulator sim(chain.model, with_substeps(2.8 * chain.limit, 8));
  State s = chain.state;
  s.substep_memory = {2, 4, 4};  // a try is due
  const StepResult r = sim.step(s);
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  EXPECT_EQ(r.substeps, 4);
  EXPECT_EQ(s.substep_memory.count, 4);
  EXPECT_EQ(s.substep_memory.probe_after, 4);
}

// A step that fails retries at no fewer sub-steps than the joints' load
// limit allows (with its margin): the chain at 2.8 times its limit, its last
// link spun to 1.2 times 2/dt (no plain step can carry that spin; two half
// steps could), retries as four quarter steps, not two half steps. With
// substep_hold 0 nothing is estimated: two half steps.
TEST(Substeps, AFailedStepRetriesWithinTheLoadLimit) {
  const HangingChain chain = hanging_chain();
  const double dt = 2.8 * chain.limit;
  State s = chain.state;
  s.angular_velocity.back() = Vector3(0.0, 1.2 * 2.0 / dt, 0.0);  // about its hinge
  State unchecked = s;
  Simulator sim(chain.model, with_substeps(dt, 8));
  const StepResult r = sim.step(s);
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  EXPECT_EQ(r.substeps, 4);
  EXPECT_EQ(s.substep_memory.count, 4);

  StepOptions only_failures = with_substeps(dt, 8);
  only_failures.substep_hold = 0;
  Simulator plain_retry(chain.model, only_failures);
  const StepResult two = plain_retry.step(unchecked);
  ASSERT_TRUE(two.ok()) << to_string(two.status);
  EXPECT_EQ(two.substeps, 2);
}

// A hanging 20-link chain, its links zigzagging by 1e-6 rad, held at two
// sub-steps of 0.7 times its limit at rest, while a pull on its last link
// grows to twice the chain's weight: the tension shortens the limit to about
// half, below dt / 2, within a dozen steps. Raised at the next try, the
// zigzag stays at its start; held at two sub-steps, it grew to 1.1 rad/s
// before a step failed.
TEST(Substeps, ACountTheLoadsOutgrowIsRaisedBeforeTheSwingGrows) {
  const HangingChain chain = hanging_chain(1e-6);
  const double dt = 1.4 * chain.limit;
  Simulator sim(chain.model, with_substeps(dt, 8));
  State s = chain.state;
  s.substep_memory = {2, 0, 4};
  const int last = chain.model.num_bodies() - 1;
  const double weight = 20.0 * 9.81;
  double fastest = 0.0;
  int most_substeps = 0;
  for (int k = 0; k < 60; ++k) {
    s.external_force[last] = Vector3(0.0, 0.0, -2.0 * weight * std::min(1.0, k / 100.0));
    const StepResult r = sim.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    most_substeps = std::max(most_substeps, r.substeps);
    for (const Vector3& w : s.angular_velocity) fastest = std::max(fastest, w.norm());
  }
  EXPECT_EQ(s.substep_memory.count, 4);
  EXPECT_EQ(most_substeps, 4);
  EXPECT_LT(fastest, 1e-2);
  const double pulled_limit = sim.load_frequency(s).step_limit;
  EXPECT_GT(dt / 2.0, pulled_limit);  // two sub-steps would be past it
  EXPECT_LT(dt / 4.0, 0.75 * pulled_limit);
}

// A box that keeps spinning past 2/dt needs two half steps in every step.
// The held count carries each step; the tries of one step fail, and each
// failure doubles the wait before the next: tries at steps 5, 14, 31 and 64
// (waits of 4, 8, 16 and 32 steps), after which the wait is 64.
TEST(Substeps, EachFailedTryDoublesTheWaitForTheNext) {
  const Model model = spinning_box();
  State s = make_state(model);
  Simulator sim(model, with_substeps(0.01, 8));
  for (int k = 0; k < 100; ++k) {
    const StepResult r = sim.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    EXPECT_EQ(r.substeps, 2) << "step " << k;
    if (k == 0) {
      EXPECT_EQ(s.substep_memory.count, 2);
      EXPECT_EQ(s.substep_memory.probe_after, 4);
    }
    if (k == 5 || k == 14 || k == 31 || k == 64) {
      EXPECT_EQ(s.substep_memory.held, 0) << "step " << k;
    }
  }
  EXPECT_EQ(s.substep_memory.count, 2);
  EXPECT_EQ(s.substep_memory.probe_after, 64);
  EXPECT_EQ(s.substep_memory.held, 99 - 64);

  // The wait stops doubling at 1024 steps.
  State late = make_state(model);
  late.substep_memory = {2, 512, 512};  // a try is due
  ASSERT_TRUE(sim.step(late).ok());
  EXPECT_EQ(late.substep_memory.probe_after, 1024);
  late.substep_memory.held = 1024;
  ASSERT_TRUE(sim.step(late).ok());
  EXPECT_EQ(late.substep_memory.probe_after, 1024);
}

// The quadruped of test/support/quadruped.hpp dropped from random poses and
// rates (0.4 to 0.9 m up, legs anywhere within their limits): with plain
// steps 34 of 200 such drops failed a step within 200 (these three at 0.31,
// 0.32 and 0.15 s: one after 21 iterations just above the tolerances, two
// crawling to the iteration limit); at the default options (before the
// friction restarts) 189 of the 200
// go through, retrying the failed steps as sub-steps (the other 11 crawl at
// every level).
TEST(Substeps, QuadrupedDropsGoThroughAtTheDefaults) {
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  ASSERT_EQ(model.num_bodies(), 13);
  const test::Drop drops[] = {
      {{0, 0, 0.779, 0.566, 0.932, 0.281}, {-0.81, -0.65, -0.49, 2.58, -1.85, 2.32},
       {-0.564, 0.502, -2.244, -0.619, -0.518, -2.038, 0.416, 0.425, -2.409, 0.591, -1.385, -1.503},
       {-0.40, 2.35, 1.30, -2.71, 2.30, -3.61, 2.20, -2.73}},
      {{0, 0, 0.455, -0.067, -0.231, -0.152}, {-0.18, 0.93, -1.64, 1.88, 2.80, 1.69},
       {0.125, 1.123, -1.790, 0.654, 0.278, -1.362, -0.554, 1.113, -2.345, -0.194, 1.210, -1.084},
       {-2.17, 0.99, 1.37, 0.16, -3.83, 0.13, -2.64, 4.81}},
      {{0, 0, 0.568, -0.906, -0.749, -2.672}, {-0.17, 0.85, -0.36, 1.04, 2.22, 0.64},
       {-0.453, 0.703, -1.878, -0.568, 0.244, -2.331, 0.366, -0.874, -1.382, -0.585, 0.287, -1.957},
       {-2.72, 1.10, -1.76, -0.10, -0.37, 4.64, 2.85, -2.03}},
  };
  // Sub-steps alone: the centred restart and the friction restarts, which
  // come first and carry some of these steps themselves, are off in all three.
  StepOptions defaults, plain_options = test::plain_steps();
  defaults.centred_restart = plain_options.centred_restart = false;
  defaults.friction_restarts = plain_options.friction_restarts = false;
  StepOptions only_failures = defaults;
  only_failures.substep_hold = 0;
  Simulator plain(model, plain_options), retrying(model, only_failures), by_default(model, defaults);
  int plain_failures = 0;
  for (size_t d = 0; d < std::size(drops); ++d) {
    State start = make_state(model);
    test::place(model, start, drops[d]);
    ASSERT_LT(constraint_violation(model, start), 1e-12);
    State b = start, held = start;
    plain_failures += test::fails_within(plain, start, 50);
    int substepped = 0, held_substepped = 0;
    for (int k = 0; k < 50; ++k) {
      const StepResult h = by_default.step(held);
      ASSERT_TRUE(h.ok()) << "drop " << d << ", step " << k << ": " << to_string(h.status) << " (default hold)";
      held_substepped += h.substeps > 1;
      const StepResult r = retrying.step(b);
      ASSERT_TRUE(r.ok()) << "drop " << d << ", step " << k << ": " << to_string(r.status);
      // A turning rim's lowest point sinks first order in dt (docs/contacts.md,
      // rims): the thighs' cylinders, by up to 0.19 mm here (the feet and the
      // torso's corners are held to the contacts' regularization).
      EXPECT_GE(r.min_signed_distance, -2.5e-4) << "drop " << d << ", step " << k;
      substepped += r.substeps > 1;
    }
    EXPECT_LT(constraint_violation(model, b), 1e-7) << "drop " << d;
    EXPECT_LE(substepped, 3) << "drop " << d << ": only the steps that fail retry";
    EXPECT_LT(constraint_violation(model, held), 1e-7) << "drop " << d;
    // A failure, the steps that hold its count, and a try that goes through.
    EXPECT_LE(held_substepped, 3 * (1 + StepOptions{}.substep_hold)) << "drop " << d;
  }
  // Each of these failed a plain step in the sweep; allow round-off to spare one.
  EXPECT_GE(plain_failures, 2) << "plain steps no longer fail here: pick harder drops";
}

// Quadruped drops of random sweeps (fresh simulators, default options) in
// which a step that started at a count held from the steps before stalled
// at that count and every count above it, friction restarts included (a
// friction pair swinging between its bounds, or a crawl to the iteration
// limit). One plain step from the same state converges: the step tries the
// counts below the held one last. Each drop runs to the step after its last
// such step.
TEST(Substeps, AHeldCountThatStallsTriesFewerLast) {
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  struct Landing {
    test::Drop drop;
    int steps;
  };
  const Landing landings[] = {
      {{{0, 0, 0.596, 0.598, 0.998, 2.701}, {2.25, -0.66, 2, 1.54, -2.72, 2.79},
        {-0.06, 0.047, -1.927, -0.142, 0.655, -1.293, -0.474, 0.742, -2.374, 0.099, -0.485, -0.871},
        {2.15, 0.59, 1.34, 4.81, 0.82, -4.42, -0.09, -2.56}},
       124},
      {{{0, 0, 0.582, 0.756, 0.687, 1.911}, {1.33, 2.58, -2.58, -2.59, 0.1, 1.91},
        {0.647, 0.044, -1.975, 0.368, -1.271, -2.449, -0.678, 0.466, -1.845, -0.641, -0.35, -1.539},
        {2.57, -3.97, 3.62, -0.73, 3.44, -4.18, 4.57, 1.58}},
       149},
      {{{0, 0, 0.414, -0.169, -0.519, 1.471}, {-0.01, -0.04, 0.12, 0.74, -0.29, -0.88},
        {0.132, 0.315, -1.644, 0.305, 1.129, -2.13, 0.215, -0.841, -1.786, 0.566, -1.298, -1.591},
        {-0.88, 1.78, 1.85, -1.66, 0.66, 2.96, 4.64, 0.69}},
       59},
  };
  // Sub-steps alone: the centred restart, which comes first and carries
  // these steps itself, is off.
  StepOptions defaults;
  defaults.centred_restart = false;
  // The landings were recorded with every step solved with its contacts and
  // limits: solved without them in flight, the drops land elsewhere.
  defaults.skip_open_inequalities = false;
  int fell_back = 0;
  for (size_t d = 0; d < std::size(landings); ++d) {
    Simulator sim(model, defaults);
    State s = make_state(model);
    test::place(model, s, landings[d].drop);
    for (int k = 0; k < landings[d].steps; ++k) {
      const State before = s;
      const State::SubstepMemory memory = s.substep_memory;
      const bool tries_fewer = memory.count > 1 && memory.held >= memory.probe_after;
      const StepResult r = sim.step(s);
      ASSERT_TRUE(r.ok()) << "landing " << d << ", step " << k << ": " << to_string(r.status);
      if (memory.count == 1 || tries_fewer || r.substeps >= memory.count) continue;
      ++fell_back;
      // The held count stalled: its plain sub-steps from the same state
      // (and its warm start, at that size) fail.
      StepOptions piece = defaults;
      piece.max_substeps = 1;
      piece.dt = defaults.dt / memory.count;
      Simulator pieces(model, piece);
      State held = before;
      bool held_fails = false;
      for (int i = 0; i < memory.count && !held_fails; ++i) held_fails = !pieces.step(held).ok();
      EXPECT_TRUE(held_fails) << "landing " << d << ", step " << k << ": " << memory.count << " sub-steps";
      // What carried it is one plain step, from the state the step started at.
      EXPECT_EQ(r.substeps, 1) << "landing " << d << ", step " << k;
      StepOptions plain_options = defaults;
      plain_options.max_substeps = 1;
      Simulator plain(model, plain_options);
      State one = before;
      ASSERT_TRUE(plain.step(one).ok()) << "landing " << d << ", step " << k;
      for (int b = 0; b < model.num_bodies(); ++b)
        EXPECT_LT((one.velocity[b] - s.velocity[b]).norm(), 1e-9) << "landing " << d << ", step " << k;
      EXPECT_EQ(s.substep_memory.count, 1) << "the plain count holds from then on";
    }
    EXPECT_LT(constraint_violation(model, s), 1e-7) << "landing " << d;
  }
  // Round-off decides which steps stall; each of these did in the sweep.
  EXPECT_GE(fell_back, 2) << "these held counts no longer stall: pick other landings";
}

TEST(Substeps, TheLastRetryIsMaxSubsteps) {
  // The sequence: doubling from 1, capped at max_substeps, then 0 (no more).
  const auto sequence = [](int max_substeps) {
    std::vector<int> tried;
    for (int k = next_substeps(1, max_substeps); k > 0; k = next_substeps(k, max_substeps)) tried.push_back(k);
    return tried;
  };
  EXPECT_EQ(sequence(1), std::vector<int>{});
  EXPECT_EQ(sequence(2), (std::vector<int>{2}));
  EXPECT_EQ(sequence(3), (std::vector<int>{2, 3}));
  EXPECT_EQ(sequence(5), (std::vector<int>{2, 4, 5}));
  EXPECT_EQ(sequence(6), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(sequence(8), (std::vector<int>{2, 4, 8}));
  EXPECT_EQ(sequence(1000), (std::vector<int>{2, 4, 8, 16, 32, 64, 128, 256, 512, 1000}));

  // The box at 332 rad/s: 2 half steps carry at most 283 rad/s (a quarter
  // turn each), 3 thirds 424.
  const Model model = spinning_box();
  const double dt = 0.01;
  State s = make_state(model);
  s.angular_velocity[0] *= 1.5;
  ASSERT_GT(s.angular_velocity[0].norm(), 2.0 * std::sqrt(2.0) / dt);
  ASSERT_LT(s.angular_velocity[0].norm(), 3.0 * std::sqrt(2.0) / dt);
  State two = s, thirds = s;
  Simulator halves(model, with_substeps(dt, 2));
  EXPECT_EQ(halves.step(two).status, StepStatus::Diverged);
  Simulator up_to_three(model, with_substeps(dt, 3));
  const StepResult r = up_to_three.step(s);
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  EXPECT_EQ(r.substeps, 3);
  EXPECT_EQ(s.time, dt);
  // The same three steps of dt / 3 by hand.
  Simulator third(model, with_dt(dt / 3));
  thirds.clear_history();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(third.step(thirds).ok());
  EXPECT_LT((s.position[0] - thirds.position[0]).norm(), 1e-14);
  EXPECT_LT(s.orientation[0].angularDistance(thirds.orientation[0]), 1e-14);
  EXPECT_LT((s.angular_velocity[0] - thirds.angular_velocity[0]).norm(), 1e-10);
}

TEST(Substeps, BadOption) {
  const Model model = spinning_box();
  EXPECT_THROW(Simulator(model, with_substeps(0.01, 0)), std::invalid_argument);
  StepOptions negative_hold = with_substeps(0.01, 8);
  negative_hold.substep_hold = -1;
  EXPECT_THROW(Simulator(model, negative_hold), std::invalid_argument);
}

// A state's remembered count beyond max_substeps (from a simulator with a
// larger one) is clamped, not tried.
TEST(Substeps, ARememberedCountIsClampedToMaxSubsteps) {
  const Model model = spinning_box();
  State s = make_state(model);
  s.substep_memory = {8, 0, 4};
  Simulator two(model, with_substeps(0.01, 2));
  const StepResult r = two.step(s);
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  EXPECT_EQ(r.substeps, 2);
  EXPECT_EQ(s.substep_memory.count, 2);
}

}  // namespace
}  // namespace dynamics
