// Positions carry the round-off of their largest coordinate. A joint or
// contact equation subtracts such coordinates, so 1000 km from the origin
// (one unit in the last place: 1.2e-10 m) no joint closes to the default
// 1e-10 m, and a step of dt resolves velocities only to about that round-off
// over dt. The solver's tolerances give way to that floor instead of
// stalling: before, every pendulum, chain and loop 1000 km away failed
// within 15 steps, and a 5-link pendulum failed at dt = 1e-10 s.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"

namespace dynamics {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// The same model moved rigidly by `shift` (bodies, world anchors, grounds and
// static colliders).
Model shifted(const Model& model, const Vector3& shift) {
  Model out;
  out.gravity = model.gravity;
  for (Body body : model.bodies()) {
    body.position += shift;
    out.add_body(body);
  }
  for (Joint joint : model.joints()) {
    if (joint.parent == kWorld) joint.parent_frame.position += shift;
    out.add_joint(joint);
  }
  for (Contact contact : model.contacts()) {
    contact.ground.offset += contact.ground.normal.dot(shift);
    out.add_contact(contact);
  }
  for (const JointCoupling& coupling : model.couplings()) out.add_coupling(coupling);
  for (Collider collider : model.colliders()) {
    if (collider.body == kWorld) collider.shape.position += shift;
    out.add_collider(collider);
  }
  for (const auto& [a, b] : model.excluded_collisions()) out.exclude_collision(a, b);
  out.set_collision_options(model.collision_options());
  return out;
}

std::vector<Vector3> run(const Model& model, const StepOptions& options, int steps, const std::string& label) {
  State state = make_state(model);
  Simulator sim(model, options);
  for (int k = 0; k < steps; ++k) {
    const StepResult result = sim.step(state);
    EXPECT_TRUE(result.ok()) << label << " step " << k << ": " << to_string(result.status) << ", residual "
                             << result.residual << ", constraint residual " << result.constraint_residual
                             << ", inequality residual " << result.inequality_residual;
    if (!result.ok()) break;
  }
  return state.position;
}

TEST(PositionRoundoff, MechanismsAThousandKilometresAwayMoveAsAtTheOrigin) {
  const Vector3 shift(1e6, -7e5, 3e5);
  for (const char* name : {"pendulum", "n-link-pendulum", "three-link-loop", "four-bar", "four-link-chain", "box-drop",
                           "hopper", "sphere-collision", "box-stack", "ball-on-table"}) {
    SCOPED_TRACE(name);
    const Model near = make_builtin(name);
    const std::vector<Vector3> here = run(near, {}, 200, "at the origin");
    const std::vector<Vector3> there = run(shifted(near, shift), {}, 200, "far away");
    // The far run's round-off (1e-10 m per coordinate per step) spreads
    // through 200 steps; a wrong answer would be off by millimetres at least.
    for (size_t b = 0; b < here.size(); ++b) EXPECT_LT((there[b] - shift - here[b]).norm(), 1e-7) << "body " << b;
  }
}

TEST(PositionRoundoff, ProjectionSettlesOnTheRoundoffOfFarCoordinates) {
  const Vector3 shift(1e8, 0.0, 0.0);  // one unit in the last place: 1.5e-8 m
  const Model far = shifted(four_link_chain(3), shift);
  State state = make_state(far);
  state.position[1] += Vector3(1e-3, -2e-3, 1e-3);  // open the loops by millimetres
  const ProjectionResult result = project_positions(far, state);
  EXPECT_TRUE(result.converged) << describe_violation(far, result);
  EXPECT_LE(result.violation, 8 * kEpsilon * (shift.norm() + 10.0));
  EXPECT_GT(result.translation, 1e-4);  // it did move the bodies back
}

TEST(PositionRoundoff, TinyStepsConverge) {
  StepOptions options;
  options.dt = 1e-10;
  for (const char* name : {"n-link-pendulum", "double-pendulum", "four-bar", "four-link-chain"}) {
    SCOPED_TRACE(name);
    const Model model = make_builtin(name);
    const State start = make_state(model);
    State state = start;
    Simulator sim(model, options);
    for (int k = 0; k < 20; ++k) ASSERT_TRUE(sim.step(state).ok()) << "step " << k;
    // Released at rest, the bodies move g t^2 / 2 = 2e-17 m in 2e-9 s; the
    // velocities are resolved to about round-off over dt (measured: up to
    // 6e-6 m/s), which moves them by about 1e-15 m (measured: up to 1.3e-15).
    for (int b = 0; b < model.num_bodies(); ++b) {
      EXPECT_LT((state.position[b] - start.position[b]).norm(), 1e-14) << "body " << b;
      EXPECT_LT(state.velocity[b].norm(), 1e-4) << "body " << b;
    }
    EXPECT_LT(constraint_violation(model, state), options.tolerance);
  }
  options.dt = 1e-9;
  for (const char* name : {"box-drop", "hopper", "box-stack", "quadruped"}) {
    SCOPED_TRACE(name);
    const Model model = make_builtin(name);
    State state = make_state(model);
    Simulator sim(model, options);
    for (int k = 0; k < 20; ++k) ASSERT_TRUE(sim.step(state).ok()) << "step " << k;
  }
}

TEST(PositionRoundoff, StepsBelowTheDoubleRangeOfTheirEquationsAreRejected) {
  StepOptions options;
  options.dt = 1e-101;
  const Model model = pendulum();
  try {
    Simulator sim(model, options);
    FAIL() << "dt = 1e-101 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("dt must be at least 1e-100 s, got 1e-101"), std::string::npos) << e.what();
  }
  options.dt = 1e-99;
  State state = make_state(model);
  Simulator sim(model, options);
  EXPECT_TRUE(sim.step(state).ok());
}

}  // namespace
}  // namespace dynamics
