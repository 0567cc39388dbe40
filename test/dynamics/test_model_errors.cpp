// Bad models are refused with a message naming the element and the problem.
#include <gtest/gtest.h>

#include <cmath>

#include "dynamics/dynamics.hpp"

namespace dynamics {
namespace {

template <class F>
void expect_error(F&& f, const std::string& needle) {
  try {
    f();
    FAIL() << "expected an error containing '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

Body body(const std::string& name) {
  Body b;
  b.name = name;
  return b;
}

TEST(ModelErrors, BadBodies) {
  Model m;
  m.add_body(body("a"));
  expect_error([&] { m.add_body(body("a")); }, "duplicate body name 'a'");
  expect_error([&] { m.add_body(body("")); }, "has no name");
  Body b = body("heavy");
  b.mass = -1;
  expect_error([&] { m.add_body(b); }, "body 'heavy': mass must be positive");
  b.mass = std::nan("");
  expect_error([&] { m.add_body(b); }, "mass must be positive");
  b = body("flat");
  b.inertia = Vector3(1, 1, 0).asDiagonal();
  expect_error([&] { m.add_body(b); }, "body 'flat': inertia is not positive definite");
  b.inertia = Vector3(1, 1, 3).asDiagonal();
  expect_error([&] { m.add_body(b); }, "triangle inequality");
  b.inertia(0, 1) = 0.5;
  expect_error([&] { m.add_body(b); }, "not symmetric");
  b = body("lost");
  b.position.x() = INFINITY;
  expect_error([&] { m.add_body(b); }, "position is not finite");
  b = body("zero");
  b.orientation = Quaternion(0, 0, 0, 0);
  expect_error([&] { m.add_body(b); }, "orientation quaternion is zero");
}

TEST(ModelErrors, BadJoints) {
  Model m;
  const int a = m.add_body(body("a"));
  expect_error([&] { m.add_joint(Joint::make(JointType::Revolute, "j", kWorld, 5)); }, "child body index 5");
  expect_error([&] { m.add_joint(Joint::make(JointType::Revolute, "j", 7, a)); }, "parent body index 7");
  expect_error([&] { m.add_joint(Joint::make(JointType::Revolute, "j", a, a)); }, "parent and child are the same");
  expect_error([&] { m.add_joint(Joint::make(JointType::Revolute, "j", kWorld, a, Vector3::Zero())); }, "axis is zero");
  Joint j = Joint::make(JointType::Revolute, "spring", kWorld, a);
  j.stiffness = -1;
  expect_error([&] { m.add_joint(j); }, "joint 'spring': stiffness must be >= 0");
  j = Joint::make(JointType::Revolute, "init", kWorld, a);
  j.initial_position = {1, 2};
  expect_error([&] { m.add_joint(j); }, "initial position has 2 values, the joint has 1 coordinates");
  j = Joint::make(JointType::Revolute, "odd", kWorld, a);
  j.freedom.rotational = 4;
  expect_error([&] { m.add_joint(j); }, "free axes must be 0..3");
  m.add_joint(Joint::make(JointType::Revolute, "ok", kWorld, a));
  expect_error([&] { m.add_joint(Joint::make(JointType::Revolute, "ok", kWorld, a)); }, "duplicate joint name 'ok'");
}

TEST(ModelErrors, BadShapesAndBuiltins) {
  expect_error([] { Shape::box(Vector3(1, -1, 1)); }, "edge length must be positive");
  expect_error([] { Shape::sphere(0); }, "radius must be positive");
  expect_error([] { make_builtin("n-link-pendulum", {{"n", "0"}}); }, "positive integer");
  expect_error([] { make_builtin("n-link-pendulum", {{"n", "2.5"}}); }, "positive integer");
  expect_error([] { make_builtin("pendulum", {{"mass", "-1"}}); }, "mass must be positive");
  expect_error([] { make_builtin("nothing"); }, "unknown model 'nothing'");
}

TEST(ModelErrors, BadStatesAndOptions) {
  const Model m = pendulum();
  State s = make_state(m);
  s.velocity.pop_back();
  expect_error([&] { check_state(m, s); }, "velocity has 0 entries, the model needs 1");
  Simulator sim(m);
  expect_error([&] { sim.step(s); }, "velocity has 0 entries");
  StepOptions o;
  o.dt = 0;
  expect_error([&] { Simulator bad(m, o); }, "dt must be positive");
  o = StepOptions{};
  o.tolerance = -1;
  expect_error([&] { Simulator bad(m, o); }, "tolerance must be positive");
  expect_error([] { Simulator bad(Model{}); }, "the model has no bodies");
  State t = make_state(m);
  expect_error([&] { set_joint_positions(m, t, Eigen::VectorXd::Zero(3)); }, "got 3 values, the model has 1");
  expect_error([&] { set_joint_position(m, t, 0, Eigen::VectorXd::Zero(2)); }, "has 1 coordinates, got 2");
}

TEST(Inertia, HelpersMatchTextbookFormulas) {
  EXPECT_NEAR(box_inertia(12, Vector3(1, 2, 3))(0, 0), 2 * 2 + 3 * 3, 1e-12);
  EXPECT_NEAR(sphere_inertia(5, 2)(1, 1), 0.4 * 5 * 4, 1e-12);
  EXPECT_NEAR(cylinder_inertia(2, 1, 3)(2, 2), 0.5 * 2 * 1, 1e-12);
  EXPECT_NEAR(cylinder_inertia(2, 1, 3)(0, 0), 2 * (3 + 9) / 12.0, 1e-12);
  // A capsule of zero length is a sphere; a long thin one tends to a rod.
  EXPECT_NEAR(capsule_inertia(3, 0.5, 0)(0, 0), sphere_inertia(3, 0.5)(0, 0), 1e-12);
  EXPECT_NEAR(capsule_inertia(3, 1e-4, 2)(0, 0), 3 * 4 / 12.0, 1e-3);
}

}  // namespace
}  // namespace dynamics
