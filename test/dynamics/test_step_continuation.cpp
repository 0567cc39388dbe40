// A step that starts where the simulator's last step ended takes the joint
// evaluations of that end (G(z_k)) instead of evaluating them again. These
// tests hold it to the steps of a fresh simulator, which has no such end:
// the same numbers, bit for bit, and none taken from an end the state has
// left.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dynamics/dynamics.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

void expect_same_state(const State& a, const State& b, const std::string& where) {
  ASSERT_EQ(a.position.size(), b.position.size());
  for (std::size_t i = 0; i < a.position.size(); ++i) {
    EXPECT_TRUE(a.position[i] == b.position[i]) << where << ", body " << i;
    EXPECT_TRUE(a.orientation[i].coeffs() == b.orientation[i].coeffs()) << where << ", body " << i;
    EXPECT_TRUE(a.velocity[i] == b.velocity[i]) << where << ", body " << i;
    EXPECT_TRUE(a.angular_velocity[i] == b.angular_velocity[i]) << where << ", body " << i;
  }
}

// One step of `state` by `sim`, and of a copy by a fresh simulator.
void expect_step_as_fresh(const Model& model, const StepOptions& options, Simulator& sim, State& state,
                          const std::string& where) {
  State copy = state;
  Simulator fresh(model, options);
  ASSERT_TRUE(sim.step(state).ok()) << where;
  ASSERT_TRUE(fresh.step(copy).ok()) << where;
  expect_same_state(state, copy, where);
}

// A chain, loops (joints with redundant rows), a floating body (a joint
// without rows) and a chain on the ground (contacts: interior-point steps).
TEST(StepContinuation, ContinuingStepsEqualAFreshSimulatorsSteps) {
  const StepOptions options = test::with_dt(0.01);
  for (const std::string name : {"n-link-pendulum", "four-bar", "four-link-chain", "t-handle", "sphere-chain"}) {
    const Model model = make_builtin(name);
    Simulator sim(model, options);
    State state = make_state(model);
    for (int k = 0; k < 30; ++k) expect_step_as_fresh(model, options, sim, state, name + " step " + std::to_string(k));
  }
}

// The simulator's last end is no longer the state's start: a body moved, the
// joints set elsewhere, or another state stepped by the same simulator.
TEST(StepContinuation, AStateThatLeftTheLastEndIsEvaluatedAfresh) {
  const StepOptions options = test::with_dt(0.01);
  const Model model = n_link_pendulum(4);
  Simulator sim(model, options);
  State state = make_state(model);
  for (int k = 0; k < 10; ++k) ASSERT_TRUE(sim.step(state).ok());

  state.position[2].x() += 1e-7;  // off its joints by far more than the tolerance
  expect_step_as_fresh(model, options, sim, state, "moved body");

  Eigen::VectorXd angles = Eigen::VectorXd::Constant(model.num_coordinates(), 0.2);
  set_joint_positions(model, state, angles);
  expect_step_as_fresh(model, options, sim, state, "joints set");

  State other = make_state(model);
  ASSERT_TRUE(sim.step(state).ok());
  expect_step_as_fresh(model, options, sim, other, "another state");
  expect_step_as_fresh(model, options, sim, state, "back to the first state");
}

}  // namespace
}  // namespace dynamics
