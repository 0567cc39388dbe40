// Simulator::load_frequency with contacts and joint limits: the ones the last
// step held keep their rows closed, as the joints do, so a spring that only
// presses a body against another, the ground or a limit stiffens nothing
// there; the ones that let go (separated, sliding, not pushed) leave the
// motion free. Against analytic rates, and against the swing a plain step
// size just below and just above the estimated limit gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "dynamics/dynamics.hpp"
#include "load_frequency.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::with_dt;

// Two spheres (0.1 m, 1 kg) on sliders along x, in no gravity, touching:
// a's spring (kA) pushes it towards b, b's (kB) towards a, and they start at
// the equilibrium where the contact carries the preload. Pressed together,
// they swing as one body: omega^2 = (kA + kB) / 2; apart, b alone would give
// kB / 1.
constexpr double kA = 100.0, kB = 900.0, kPreload = 0.01;
constexpr double kEquilibrium = kPreload * (kA - kB) / (kA + kB);  // both coordinates

Model pressed_sliders(double speed = 0.0) {
  Model model;
  model.gravity = Vector3::Zero();
  CollisionOptions collisions;
  collisions.friction = FrictionModel::None;
  model.set_collision_options(collisions);
  const double radius = 0.1;
  for (int side = 0; side < 2; ++side) {
    const int body = model.add_body(Body::solid(side == 0 ? "a" : "b", 1.0, Shape::sphere(radius)));
    Joint slide = Joint::make(JointType::Prismatic, side == 0 ? "a" : "b", kWorld, body, Vector3::UnitX());
    slide.parent_frame.position = Vector3(side * 2.0 * radius, 0.0, 0.0);
    slide.stiffness = side == 0 ? kA : kB;
    slide.rest = {side == 0 ? kPreload : -kPreload};
    slide.initial_position = {kEquilibrium};
    slide.initial_velocity = {speed};
    model.add_joint(slide);
    model.add_shape_colliders(body);
  }
  return model;
}

LoadFrequency after_steps(const Model& model, int steps, double dt = 0.01) {
  Simulator sim(model, with_dt(dt));
  State s = make_state(model);
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(sim.step(s).ok()) << "step " << k;
  return sim.load_frequency(s);
}

TEST(HeldLoadFrequency, PressedBodiesSwingTogether) {
  const LoadFrequency f = after_steps(pressed_sliders(), 3);
  const double together = std::sqrt((kA + kB) / 2.0);
  EXPECT_NEAR(f.rate, together, 1e-6 * together);
  EXPECT_NEAR(f.step_limit, 2.0 / together, 1e-6 * f.step_limit);
  EXPECT_NEAR(f.spring_share, 1.0, 1e-9);
  EXPECT_GE(f.body, 0);

  // The pair, nudged, stays together and its swing stays small just below
  // that limit (which is past b's alone, 2 / 30 s) and grows just above it.
  const auto largest_swing = [&](double dt) {
    const Model model = pressed_sliders(1e-4);
    Simulator sim(model, with_dt(dt));
    State s = make_state(model);
    double largest = 0.0;
    for (int k = 0; k < 300; ++k) {
      if (!sim.step(s).ok()) return std::numeric_limits<double>::infinity();
      largest = std::max(largest, std::abs(joint_positions(model, s)(0) - kEquilibrium));
    }
    return largest;
  };
  EXPECT_GT(0.97 * f.step_limit, 2.0 / std::sqrt(kB));
  EXPECT_LT(largest_swing(0.97 * f.step_limit), 1e-4);
  EXPECT_GT(largest_swing(1.03 * f.step_limit), 1e-2);
}

// One estimator reused over changing held rows (another graph each time the
// rows' bodies change) agrees with fresh estimates: the sliders apart, then
// held together along x by a row written here, then apart again.
TEST(HeldLoadFrequency, AReusedEstimatorFollowsTheHeldRows) {
  const Model model = pressed_sliders();
  Simulator sim(model, with_dt(0.01));
  State s = make_state(model);
  ASSERT_TRUE(sim.step(s).ok());
  const std::vector<Vector3> no_loads(model.num_joints(), Vector3::Zero());
  detail::HeldRow along_x{{0, 1}, {}};
  along_x.row[0] << 1.0, 0.0, 0.0, 0.0, 0.0, 0.0;
  along_x.row[1] = -along_x.row[0];
  const std::vector<detail::HeldRow> apart, together{along_x};
  detail::LoadEstimator reused(model);
  for (const auto* held : {&apart, &together, &together, &apart, &together}) {
    const double expected = held->empty() ? std::sqrt(kB) : std::sqrt((kA + kB) / 2.0);
    EXPECT_NEAR(reused.estimate(s, no_loads, *held).rate, expected, 1e-6 * expected);
    EXPECT_NEAR(detail::load_frequency(model, s, no_loads, *held).rate, expected, 1e-6 * expected);
  }
}

// A 0.2 m, 1 kg cube on the ground, free to translate (orientation fixed),
// held at its start by a spring of 100 N/m on every axis: 10 rad/s free.
Model sprung_cube(FrictionModel friction, double mu, double speed, double pull) {
  Model model;
  const int cube = model.add_body(Body::solid("cube", 1.0, Shape::box(Vector3::Constant(0.2))));
  Joint joint = Joint::make(JointType::FixedOrientation, "cube", kWorld, cube);
  joint.parent_frame.position = Vector3(0.0, 0.0, 0.1);
  joint.stiffness = 100.0;
  joint.rest = {pull, 0.0, 0.0};  // a pull along x of 100 * pull N
  joint.initial_velocity = {speed, 0.0, 0.0};
  model.add_joint(joint);
  ContactOptions contacts;
  contacts.friction = friction;
  contacts.friction_coefficient = mu;
  model.add_shape_contacts(cube, contacts);
  return model;
}

TEST(HeldLoadFrequency, StickingFrictionHoldsAndSlidingFrictionLetsGo) {
  // Four corners press on the ground (four equal normal rows: the
  // pseudo-inverse drops three). Sticking, they close x and y too.
  for (const FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    const LoadFrequency stuck = after_steps(sprung_cube(friction, 0.5, 0.0, 0.02), 3);
    EXPECT_EQ(stuck.rate, 0.0);
    EXPECT_EQ(stuck.body, -1);
    EXPECT_TRUE(std::isinf(stuck.step_limit));
    // Sliding (2 m/s against mu g = 0.98 m/s^2), only the normal is held.
    const LoadFrequency sliding = after_steps(sprung_cube(friction, 0.1, 2.0, 0.0), 3);
    EXPECT_NEAR(sliding.rate, 10.0, 1e-5);
    EXPECT_NEAR(sliding.spring_share, 1.0, 1e-9);
  }
  const LoadFrequency frictionless = after_steps(sprung_cube(FrictionModel::None, 0.5, 0.0, 0.0), 3);
  EXPECT_NEAR(frictionless.rate, 10.0, 1e-5);

  // Pulled by 2 N (within mu m g = 4.9 N), the stuck cube stays put at a step
  // of 0.3 s, past the 0.2 s of its spring alone.
  const Model pulled = sprung_cube(FrictionModel::Linearized, 0.5, 0.0, 0.02);
  Simulator sim(pulled, with_dt(0.3));
  State s = make_state(pulled);
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(sim.step(s).ok()) << "step " << k;
  EXPECT_LT(joint_positions(pulled, s).head<2>().norm(), 1e-6);
}

// A 1 kg slider (no gravity) whose spring (100 N/m, rest 0.05 m) pushes it
// against an upper limit at 0.02 m, where it starts: the limit holds it.
Model slider_at_limit(double upper) {
  Model model;
  model.gravity = Vector3::Zero();
  const int body = model.add_body(Body::solid("slider", 1.0, Shape::box(Vector3::Constant(0.1))));
  Joint slide = Joint::make(JointType::Prismatic, "slide", kWorld, body, Vector3::UnitX());
  slide.stiffness = 100.0;
  slide.rest = {0.05};
  slide.upper = {upper};
  slide.initial_position = {std::min(upper, 0.02)};
  model.add_joint(slide);
  return model;
}

TEST(HeldLoadFrequency, APushedLimitHoldsItsCoordinate) {
  const LoadFrequency pushed = after_steps(slider_at_limit(0.02), 3);
  EXPECT_EQ(pushed.rate, 0.0);
  EXPECT_TRUE(std::isinf(pushed.step_limit));
  // With the limit out of reach the spring swings the slider at 10 rad/s.
  const LoadFrequency free = after_steps(slider_at_limit(0.5), 3);
  EXPECT_NEAR(free.rate, 10.0, 1e-5);

  const Model model = slider_at_limit(0.02);
  Simulator sim(model, with_dt(0.3));
  State s = make_state(model);
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(sim.step(s).ok()) << "step " << k;
  EXPECT_NEAR(joint_positions(model, s)(0), 0.02, 1e-6);
}

// The built-in gripper squeezes its cube with a finger spring of 500 N/m on
// 0.1 kg of coupled fingers (70.7 rad/s alone): the cube holds the fingers,
// and at 0.1 s (past 2 / 70.7 s) it holds the cube up as at 0.01 s.
TEST(HeldLoadFrequency, AGripperSpringSqueezingItsCubeStiffensNothing) {
  const Model model = gripper();
  for (const double dt : {0.01, 0.1}) {
    Simulator sim(model, with_dt(dt));
    State s = make_state(model);
    for (int k = 0; k < 30; ++k) ASSERT_TRUE(sim.step(s).ok()) << "dt " << dt << ", step " << k;
    const LoadFrequency f = sim.load_frequency(s);
    EXPECT_EQ(f.rate, 0.0) << "dt " << dt;
    const int box = model.find_body("box");
    EXPECT_GT(s.position[box].z(), 0.4 - 0.002) << "dt " << dt;
    EXPECT_LT(s.velocity[box].norm(), 1e-3) << "dt " << dt;
  }
}

}  // namespace
}  // namespace dynamics
