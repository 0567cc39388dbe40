// Simulator::step must not touch the heap (see allocation_counter.hpp).
#include <gtest/gtest.h>

#include "allocation_counter.hpp"
#include "dynamics/dynamics.hpp"
#include "portable_kernels.hpp"
#include "stalled_landings.hpp"

namespace dynamics {
namespace {

Model geared_double_pendulum() {
  Model model = double_pendulum(1.0, 1.0, 0.4, 0.0);
  model.add_coupling(JointCoupling{"gear", 0, 1, -2.0, 0.0});
  return model;
}

// A pendulum whose stops it never reaches: every step is solved without them.
Model pendulum_between_far_stops() {
  Model model = pendulum(1.0, 1.0, 0.5);
  Joint hinge = model.joint(0);
  hinge.lower = {-3.0};
  hinge.upper = {3.0};
  Model limited;
  limited.add_body(model.body(0));
  limited.add_joint(hinge);
  return limited;
}

// A pendulum resting on its stop: after its first step, every step holds it.
Model pendulum_on_its_stop() {
  Model model = pendulum(1.0, 1.0, 0.4);
  Joint hinge = model.joint(0);
  hinge.lower = {0.4};
  Model limited;
  limited.add_body(model.body(0));
  limited.add_joint(hinge);
  return limited;
}

TEST(NoAllocation, StepNeverAllocates) {
  for (const Model& model : {n_link_pendulum(10, ChainJoint::Spherical), four_link_chain(3), double_four_bar(),
                             geared_double_pendulum(), t_handle(), pendulum(1.0, 1.0, 0.5, 0.3),
                             pendulum(1.0, 1.0, 0.5, 0.0, 0.5), box_drop(0.5, 1.0, 0.01),
                             // Falls without contacts, tries a step without them that
                             // lands, then rests: all within the 20 steps counted.
                             box_drop(0.5, 1.0, 0.15), pendulum_between_far_stops(), pendulum_on_its_stop(),
                             sliding_box(2.0, {FrictionModel::Cone, 0.2, 4}), quadruped(),
                             cylinder_contacts(10, 1.0, {FrictionModel::Linearized, 0.2, 8})}) {
    State s = make_state(model);
    Simulator sim(model);
    // The first steps size the warm start (the last solution and the earlier ones).
    for (int k = 0; k <= State::kEarlierSolutions; ++k) ASSERT_TRUE(sim.step(s).ok());
    bool ok = true;
    const long count = allocations_during([&] {
      for (int k = 0; k < 20; ++k) {
        s.joint_input.setConstant(0.1);
        ok = ok && sim.step(s).ok();
      }
    });
    EXPECT_TRUE(ok);
    EXPECT_EQ(count, 0);
  }
}

// Micrometre links: the solves are equilibrated into storage that the first
// step sizes (equilibration.hpp).
TEST(NoAllocation, EquilibratedStepsNeverAllocate) {
  for (const Model& model : {scaled_pendulum(1e-3), double_pendulum(1e-6, 1e-3, 0.4, 0.0)}) {
    StepOptions options;
    options.dt = 1e-5;
    State s = make_state(model);
    Simulator sim(model, options);
    for (int k = 0; k <= State::kEarlierSolutions; ++k) ASSERT_TRUE(sim.step(s).ok());
    bool ok = true;
    const long count = allocations_during([&] {
      for (int k = 0; k < 20; ++k) ok = ok && sim.step(s).ok();
    });
    EXPECT_TRUE(ok);
    EXPECT_EQ(count, 0);
  }
}

// A box spinning past 2/dt takes two half steps every step; once the count
// is held (StepOptions::substep_hold), those steps reuse the retry's copy of
// the state, and the tries of one step (at steps 5 and 14) fail without
// allocating either.
TEST(NoAllocation, HeldSubstepsNeverAllocate) {
  Model model;
  const int box = model.add_body(Body::solid("box", 2.0, Shape::box(Vector3(0.3, 0.2, 0.1))));
  Joint free = Joint::make(JointType::Floating, "box", kWorld, box);
  free.initial_velocity = {1.0, 0.0, 2.0, 150.0, 160.0, 30.0};  // |w| = 221 rad/s > 2 / 0.01
  model.add_joint(free);
  State s = make_state(model);
  Simulator sim(model);
  for (int k = 0; k <= State::kEarlierSolutions; ++k) ASSERT_EQ(sim.step(s).substeps, 2);
  bool held = true;
  const long count = allocations_during([&] {
    for (int k = 0; k < 20; ++k) held = held && sim.step(s).substeps == 2;
  });
  EXPECT_TRUE(held);
  EXPECT_EQ(count, 0);
}

// A 20-link chain hanging at rest, at 1.4 times its load limit: it holds two
// half steps, and its tries of one step are estimated against the limit and
// declined (each doubles the wait). The first estimate sizes the simulator's
// storage for them; after it, neither the estimates nor the held steps
// allocate.
TEST(NoAllocation, LoadEstimatesOfHeldSubstepsNeverAllocate) {
  const Model model = n_link_pendulum(20, ChainJoint::Revolute, 1.0, 1.0, 0.0);
  State s = make_state(model);
  Simulator first(model);
  ASSERT_TRUE(first.step(s).ok());
  StepOptions past_the_limit;
  past_the_limit.dt = 1.4 * first.load_frequency(s).step_limit;
  Simulator sim(model, past_the_limit);
  s.substep_memory = {2, 4, 4};  // a try is due
  for (int k = 0; k <= State::kEarlierSolutions; ++k) ASSERT_EQ(sim.step(s).substeps, 2);
  const int wait = s.substep_memory.probe_after;
  ASSERT_EQ(wait, 8);  // the first try was declined
  bool held = true;
  const long count = allocations_during([&] {
    for (int k = 0; k < 20; ++k) held = held && sim.step(s).substeps == 2;
  });
  EXPECT_TRUE(held);
  EXPECT_GT(s.substep_memory.probe_after, wait);  // another try was estimated and declined
  EXPECT_EQ(count, 0);
}

// A change of step size restarts the warm start's history but keeps its
// storage: a state stepped by simulators of two step sizes in turn (each
// step changes the size) allocates nothing either.
TEST(NoAllocation, ChangingTheStepSizeNeverAllocates) {
  const Model model = n_link_pendulum(5, ChainJoint::Revolute);
  StepOptions half;
  half.dt = 0.005;
  Simulator full_steps(model), half_steps(model, half);
  State s = make_state(model);
  for (int k = 0; k <= State::kEarlierSolutions; ++k) ASSERT_TRUE(full_steps.step(s).ok());
  ASSERT_TRUE(half_steps.step(s).ok());
  bool ok = true;
  const long count = allocations_during([&] {
    for (int k = 0; k < 20; ++k) ok = ok && (k % 2 == 0 ? full_steps : half_steps).step(s).ok();
  });
  EXPECT_TRUE(ok);
  EXPECT_EQ(count, 0);
}

// With colliders, a step allocates only when the broad phase changes the set
// of contacts between them (a new graph); once a stack rests, it is stable.
// A stalled step that the centred restart carries solves again in the
// simulator's own storage.
TEST(NoAllocation, CentredRestartsNeverAllocate) {
  const test::PortableKernels portable;  // the stalls were found with them
  const Model model = parse_urdf(test::quadruped_urdf());
  const test::Landing& landing = test::kStalledLandings[0];
  Simulator sim(model);
  State s = make_state(model);
  test::place(model, s, landing.drop);
  for (int k = 0; k < landing.failed_step; ++k) ASSERT_TRUE(sim.step(s).ok()) << "step " << k;
  StepResult r;
  const long count = allocations_during([&] { r = sim.step(s); });
  ASSERT_TRUE(r.ok()) << to_string(r.status);
  ASSERT_TRUE(r.centred_restart) << "this step no longer stalls: pick another landing";
  EXPECT_EQ(r.substeps, 1);
  EXPECT_EQ(count, 0);
}

TEST(NoAllocation, RestingCollidersNeverAllocate) {
  for (const Model& model : {box_stack(3), ball_on_table(0.01)}) {
    State s = make_state(model);
    Simulator sim(model);
    for (int k = 0; k < 60; ++k) ASSERT_TRUE(sim.step(s).ok());  // landed and settled
    bool ok = true;
    int contacts = -1;
    const long count = allocations_during([&] {
      for (int k = 0; k < 20; ++k) {
        const StepResult r = sim.step(s);
        ok = ok && r.ok();
        contacts = r.collider_contacts;
      }
    });
    EXPECT_TRUE(ok);
    EXPECT_GT(contacts, 0);
    EXPECT_EQ(count, 0);
  }
}

}  // namespace
}  // namespace dynamics
