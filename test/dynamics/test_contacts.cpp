// Contacts, friction and joint limits against analytic results: the contact
// paper's experiments (box drop, sliding box, incline, rolling sphere, joint
// limit) and the zero-fill structure of contact nodes.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <random>

#include "dynamics/dynamics.hpp"
#include "gravity.hpp"
#include "joint_limits.hpp"
#include "contact_run.hpp"
#include "pose_perturbation.hpp"
#include "random_joint.hpp"
#include "rotor.hpp"

namespace dynamics {
namespace {

using test::kG;
using test::simulate_contacts;

TEST(Contacts, BoxDropDoesNotPenetrateAndComesToRest) {
  for (FrictionModel friction : {FrictionModel::None, FrictionModel::Linearized, FrictionModel::Cone}) {
    const Model model = box_drop(0.5, 1.0, 0.4, {friction, 0.5, 4});
    State state = make_state(model);
    Simulator sim(model);
    const test::ContactRun run = simulate_contacts(sim, state, 200);
    ASSERT_TRUE(run.ok) << to_string(friction);
    EXPECT_GE(run.min_distance, -1e-6) << to_string(friction);
    const double rest_height = state.position[0].z() - 0.25;
    EXPECT_GE(rest_height, -1e-6);
    EXPECT_LT(rest_height, 1e-3);
    EXPECT_LT(state.velocity[0].norm(), 1e-6);
    // The fall itself is free fall until the first contact (0.4 m: t = 0.286 s).
    EXPECT_LE(run.max_iterations, 20);
  }
}

TEST(Contacts, FreeFallIsUntouchedByADistantGround) {
  const Model model = box_drop(0.5, 1.0, 10.0);
  State state = make_state(model);
  Simulator sim(model);
  simulate_contacts(sim, state, 20);
  // Symplectic Euler: z_n = z_0 - g dt^2 n (n + 1) / 2.
  const double dt = sim.options().dt;
  EXPECT_NEAR(state.position[0].z(), 10.25 - kG * dt * dt * 20 * 21 / 2, 1e-9);
}

double stopping_distance(FrictionModel friction, double speed, double mu) {
  const Model model = sliding_box(speed, {friction, mu, 4});
  State state = make_state(model);
  Simulator sim(model);
  const test::ContactRun run = simulate_contacts(sim, state, 200);
  EXPECT_GE(run.min_distance, -1e-6);
  EXPECT_LT(state.velocity[0].norm(), 1e-6) << "still moving";
  EXPECT_NEAR(state.position[0].y(), 0.0, 1e-9);
  return state.position[0].x();
}

TEST(Friction, SlidingBoxStopsAfterTheCoulombDistance) {
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    // The discrete stop comes v0 dt / 2 early (first-order integrator): speeds
    // for which that is under 2 %.
    for (auto [mu, v0] : {std::pair{0.2, 2.0}, std::pair{0.5, 4.0}}) {
      const double expected = v0 * v0 / (2.0 * mu * kG);
      EXPECT_NEAR(stopping_distance(friction, v0, mu), expected, 0.02 * expected)
          << to_string(friction) << " mu " << mu;
    }
  }
}

TEST(Friction, ConeIsIsotropicWhereTheLinearizedConeIsNot) {
  // Sliding at 45 degrees to the friction basis: the cone stops the box
  // after the Coulomb distance in every direction, the 4-direction pyramid
  // does not.
  const auto diagonal_distance = [](FrictionModel friction) {
    Model model = sliding_box(0.0, {friction, 0.3, 4});
    State state = make_state(model);
    state.velocity[0] = Vector3(std::sqrt(2.0), std::sqrt(2.0), 0.0);
    Simulator sim(model);
    simulate_contacts(sim, state, 200);
    return state.position[0].head<2>().norm();
  };
  // The papers' pyramid limits the sum of the basis forces, sum(beta) <=
  // mu gamma: along a diagonal only mu gamma / sqrt(2) is left.
  const double expected = 4.0 / (2.0 * 0.3 * kG);
  EXPECT_NEAR(diagonal_distance(FrictionModel::Cone), expected, 0.02 * expected);
  EXPECT_NEAR(diagonal_distance(FrictionModel::Linearized), std::sqrt(2.0) * expected, 0.03 * expected);
}

TEST(Friction, BoxOnAnInclineHoldsBelowTheFrictionAngle) {
  const double angle = 0.3, mu = 0.5;  // tan(0.3) = 0.31 < 0.5
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    const Model model = box_incline(angle, {friction, mu, 4});
    State state = make_state(model);
    const Vector3 start = state.position[0];
    Simulator sim(model);
    const test::ContactRun run = simulate_contacts(sim, state, 100);
    EXPECT_GE(run.min_distance, -1e-6);
    EXPECT_LT((state.position[0] - start).norm(), 1e-6) << to_string(friction);
  }
}

TEST(Friction, BoxOnAnInclineSlidesWithTheCoulombAcceleration) {
  const double angle = 0.5, mu = 0.2;
  const double expected = kG * (std::sin(angle) - mu * std::cos(angle));
  const Vector3 downhill(std::cos(angle), 0.0, -std::sin(angle));
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    const Model model = box_incline(angle, {friction, mu, 4});
    State state = make_state(model);
    Simulator sim(model);
    simulate_contacts(sim, state, 50);
    const double v1 = state.velocity[0].dot(downhill), t1 = state.time;
    const test::ContactRun run = simulate_contacts(sim, state, 100);
    const double v2 = state.velocity[0].dot(downhill), t2 = state.time;
    EXPECT_GE(run.min_distance, -1e-6);
    EXPECT_NEAR((v2 - v1) / (t2 - t1), expected, 0.02 * expected) << to_string(friction);
  }
}

TEST(Friction, SpinningSphereStartsRollingAndNeverGainsEnergy) {
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    Model model;
    const double r = 0.25;
    const int ball = model.add_body(Body::solid("ball", 1.0, Shape::sphere(r)));
    ContactOptions options;
    options.friction = friction;
    options.friction_coefficient = 0.3;
    model.add_shape_contacts(ball, options);
    State state = make_state(model);
    state.position[0] = Vector3(0.0, 0.0, r + 0.05);
    state.angular_velocity[0] = Vector3(0.0, 10.0, 0.0);  // horizontal spin axis
    Simulator sim(model);
    double energy = total_energy(model, state);
    for (int k = 0; k < 300; ++k) {
      const StepResult result = sim.step(state);
      ASSERT_TRUE(result.ok()) << k;
      ASSERT_GE(result.min_signed_distance, -1e-6);
      const double e = total_energy(model, state);
      ASSERT_LE(e, energy + 1e-9) << "energy grew at step " << k;
      energy = e;
    }
    // Rolling without slipping: v = w x r, and the spin has been shared with
    // the translation (solid sphere: v = 2/7 r w0).
    const Vector3 contact_velocity = state.velocity[0] + state.angular_velocity[0].cross(Vector3(0.0, 0.0, -r));
    EXPECT_LT(contact_velocity.norm(), 1e-6) << to_string(friction);
    EXPECT_NEAR(state.velocity[0].x(), 2.0 / 7.0 * r * 10.0, 0.02 * 2.0 / 7.0 * r * 10.0);
  }
}

TEST(JointLimits, PendulumStopsAtItsLimit) {
  Model model = pendulum(1.0, 1.0, 1.0);
  Joint joint = model.joint(0);
  const double limit = 0.4;
  Model limited;
  limited.add_body(model.body(0));
  joint.lower = {limit};
  limited.add_joint(joint);
  State state = make_state(limited);
  Simulator sim(limited);
  double lowest = 10.0;
  for (int k = 0; k < 300; ++k) {
    ASSERT_TRUE(sim.step(state).ok()) << k;
    lowest = std::min(lowest, joint_positions(limited, state)(0));
  }
  // It falls from 1.0 towards 0 and is caught at 0.4 (an inelastic stop).
  EXPECT_GE(lowest, limit - 1e-6);
  EXPECT_NEAR(joint_positions(limited, state)(0), limit, 1e-6);
  EXPECT_LT(std::abs(joint_velocities(limited, state)(0)), 1e-6);
}

// Limits on both sides of pi: the angle is read in the turn centred between
// them, so a pendulum thrown over the top (angle pi) keeps a continuous
// reading and comes to rest on the far stop.
// A 1 m, 1 kg pendulum on a hinge about y limited to [lower, upper], started
// at `angle` with `rate`.
Model pendulum_limited_to(double lower, double upper, double angle, double rate) {
  Model model;
  model.add_body(make_link("link1", 1.0, 1.0));
  Joint hinge = Joint::make(JointType::Revolute, "joint1", kWorld, 0, Vector3::UnitY());
  hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);
  hinge.lower = {lower};
  hinge.upper = {upper};
  hinge.initial_position = {angle};
  hinge.initial_velocity = {rate};
  model.add_joint(hinge);
  return model;
}

TEST(JointLimits, LimitsAcrossPiAreReadWithoutAJump) {
  struct Throw {
    double angle, rate, stop;
  };
  for (const Throw& t : {Throw{2.9, 2.0, 4.0}, Throw{3.4, -2.0, 2.5}}) {
    const Model model = pendulum_limited_to(2.5, 4.0, t.angle, t.rate);
    State state = make_state(model);
    EXPECT_NEAR(joint_positions(model, state)(0), t.angle, 1e-12);  // not angle - 2 pi
    Simulator sim(model);
    double low = 10.0, high = -10.0, previous = t.angle, largest_change = 0.0;
    for (int k = 0; k < 300; ++k) {
      ASSERT_TRUE(sim.step(state).ok()) << k;
      const double q = joint_positions(model, state)(0);
      low = std::min(low, q);
      high = std::max(high, q);
      largest_change = std::max(largest_change, std::abs(q - previous));
      previous = q;
    }
    EXPECT_LT(low, kPi) << t.angle;  // it went over the top
    EXPECT_GT(high, kPi) << t.angle;
    EXPECT_LT(largest_change, 0.1) << t.angle;  // without a jump of 2 pi
    EXPECT_GE(low, 2.5 - 1e-6) << t.angle;
    EXPECT_LE(high, 4.0 + 1e-6) << t.angle;
    EXPECT_NEAR(joint_positions(model, state)(0), t.stop, 1e-6) << t.angle;
  }
}

// limit_violations reads angles as the limits do (counting whole turns, so a
// turn below the limits is below them, not within), and a state that starts
// beyond a limit is thrown back within one step: the speed the warning in its
// documentation speaks of.
TEST(JointLimits, ViolationsAreFoundAndAStartBeyondALimitIsThrownBack) {
  const Model model = pendulum_limited_to(2.5, 4.0, 0.0, 0.0);
  State state = make_state(model);
  for (const double angle : {2.6, 3.9}) {
    set_joint_positions(model, state, Eigen::VectorXd::Constant(1, angle));
    EXPECT_TRUE(limit_violations(model, state).empty()) << angle;
  }
  set_joint_positions(model, state, Eigen::VectorXd::Constant(1, 3.0 - 2.0 * kPi));
  std::vector<LimitViolation> v = limit_violations(model, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NEAR(v[0].value, 3.0 - 2.0 * kPi, 1e-12);
  EXPECT_TRUE(v[0].lower);
  set_joint_positions(model, state, Eigen::VectorXd::Constant(1, 2.3));
  v = limit_violations(model, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].joint, 0);
  EXPECT_EQ(v[0].coordinate, 0);
  EXPECT_NEAR(v[0].value, 2.3, 1e-12);
  EXPECT_EQ(v[0].bound, 2.5);
  EXPECT_TRUE(v[0].lower);
  EXPECT_TRUE(limit_violations(model, state, 0.3).empty());
  set_joint_positions(model, state, Eigen::VectorXd::Constant(1, 4.2));
  v = limit_violations(model, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NEAR(v[0].value, 4.2, 1e-12);
  EXPECT_FALSE(v[0].lower);
  // 0.2 rad back inside in one step of 0.01 s: about 20 rad/s.
  Simulator sim(model);
  ASSERT_TRUE(sim.step(state).ok());
  EXPECT_LE(joint_positions(model, state)(0), 4.0 + 1e-6);
  EXPECT_GT(std::abs(joint_velocities(model, state)(0)), 10.0);
}

// Limits on every coordinate of every combination of free translations and
// rotations (rotation-vector components for two or three free rotations),
// the joint frames off the body's centre and turned, the body started at
// random rates in zero gravity: every step succeeds (with its sub-steps),
// no coordinate passes a limit beyond round-off, and the stops only take
// energy (inelastic, as the interior-point steps make them), never add it
// beyond the step's swing.
TEST(JointLimits, HoldOnEveryJointCombinationWithoutAddingEnergy) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  for (const JointFreedom& freedom : test::moving_freedoms()) {
    SCOPED_TRACE(test::freedom_name(freedom));
    Joint joint = test::random_joint(rng, freedom, kWorld, 0);
    const int n = joint.num_coordinates();
    for (int i = 0; i < n; ++i) {
      joint.lower.push_back(-0.3 - 0.2 * std::abs(draw(rng)));
      joint.upper.push_back(0.3 + 0.2 * std::abs(draw(rng)));
    }
    const Model model = test::zero_gravity_rotor(joint);
    State s = make_state(model);
    Eigen::VectorXd rates(n);
    for (int i = 0; i < n; ++i) rates(i) = 2.0 * draw(rng);
    set_joint_velocities(model, s, rates);
    // The default options, with sub-steps: a plain step onto several limits
    // at once stalls now and then (t3r1 at step 68 in clang's build: the
    // interior-point iteration stops at a residual of 3e-5), as the contact
    // steps of docs/contacts.md do, and the sub-steps carry it.
    StepOptions options;
    options.dt = 0.005;
    const double dt = options.dt;
    Simulator sim(model, options);
    const double start = total_energy(model, s);
    double beyond = 0.0, rise = 0.0;
    for (int k = 0; k < 2000; ++k) {
      ASSERT_TRUE(sim.step(s).ok()) << k;
      for (const LimitViolation& v : limit_violations(model, s)) beyond = std::max(beyond, std::abs(v.value - v.bound));
      rise = std::max(rise, total_energy(model, s, dt) - start);
    }
    EXPECT_LT(beyond, 1e-10);
    EXPECT_LT(rise, 1e-4 * start);
    EXPECT_LT(total_energy(model, s, dt), 0.5 * start);  // the stops took energy
  }
}

TEST(JointLimits, PrismaticLimitsHoldBothSides) {
  const Model model = hopper();
  State state = make_state(model);
  Simulator sim(model);
  const int leg = model.find_joint("leg");
  double low = 1.0, high = -1.0;
  for (int k = 0; k < 200; ++k) {
    // Push the pole out, then pull it in, harder than the limits allow.
    state.joint_input(model.coordinate_offset(leg)) = k < 100 ? -30.0 : 30.0;
    const StepResult r = sim.step(state);
    ASSERT_TRUE(r.ok()) << k;
    ASSERT_GE(r.min_signed_distance, -1e-6);
    const double q = joint_positions(model, state)(model.coordinate_offset(leg));
    low = std::min(low, q);
    high = std::max(high, q);
  }
  EXPECT_GE(low, -0.2 - 1e-6);
  EXPECT_LE(high, 0.2 + 1e-6);
  EXPECT_LT(low, -0.19);  // the limits were reached, not just respected
  EXPECT_GT(high, 0.19);
}

using test::perturbed;

TEST(JointLimits, CoordinateJacobiansMatchFiniteDifferences) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n;
  const auto vec = [&]() -> Vector3 { return 0.3 * Vector3(n(rng), n(rng), n(rng)); };
  const auto rot = [&] { return rotation_from_vector(vec()); };
  for (int t = 0; t <= 3; ++t) {
    for (int r = 0; r <= 3; ++r) {
      Joint joint;
      joint.name = "j";
      joint.parent = 0;
      joint.child = 1;
      joint.freedom = {t, r};
      joint.axis = vec().normalized();
      joint.parent_frame = Frame{vec(), rot()};
      joint.child_frame = Frame{vec(), rot()};
      const detail::JointAxes axes = detail::joint_axes(joint);
      const detail::Pose p{vec(), rot()}, c{vec(), rot()};
      const double turns = 4.0 * kPi + 0.3;  // an angle read two turns up
      for (int i = 0; i < joint.num_coordinates(); ++i) {
        detail::Row6 jp, jc, unused_p, unused_c;
        detail::coordinate_jacobian(joint, axes, p, c, i, jp, jc, turns);
        const double h = 1e-6;
        for (int col = 0; col < 6; ++col) {
          const double dc = (detail::coordinate_jacobian(joint, axes, p, perturbed(c, col, h), i, unused_p, unused_c, turns) -
                             detail::coordinate_jacobian(joint, axes, p, perturbed(c, col, -h), i, unused_p, unused_c, turns)) /
                            (2 * h);
          const double dp = (detail::coordinate_jacobian(joint, axes, perturbed(p, col, h), c, i, unused_p, unused_c, turns) -
                             detail::coordinate_jacobian(joint, axes, perturbed(p, col, -h), c, i, unused_p, unused_c, turns)) /
                            (2 * h);
          EXPECT_NEAR(jc(col), dc, 1e-6) << "t" << t << "r" << r << " coordinate " << i << " child column " << col;
          EXPECT_NEAR(jp(col), dp, 1e-6) << "t" << t << "r" << r << " coordinate " << i << " parent column " << col;
        }
      }
    }
  }
}

TEST(ContactGraph, ContactsAreLeavesWithoutFill) {
  // One body with c contacts, and a chain of n bodies with n + 1 contacts.
  for (int c : {2, 10, 100}) {
    const Model model = cylinder_contacts(c);
    Simulator sim(model);
    EXPECT_EQ(sim.fill_blocks(), 0);
    EXPECT_EQ(sim.graph_nodes(), 1 + c);  // the floating joint has no node
  }
  for (int n : {2, 10, 100}) {
    const Model model = cylinder_chain(n);
    Simulator sim(model);
    EXPECT_EQ(sim.fill_blocks(), 0);
    EXPECT_EQ(sim.graph_nodes(), n + (n - 1) + (n + 1));
  }
  // A limited joint's limit node shares the joint's two bodies: at most one
  // fill block per limited joint (the quadruped's four knees).
  const Model quadruped_model = quadruped();
  Simulator quad(quadruped_model);
  EXPECT_LE(quad.fill_blocks(), 4);
}

TEST(ContactModels, BuiltinContactModelsRunWithoutPenetration) {
  for (const char* name : {"box-drop", "sliding-box", "box-incline", "sphere-chain", "cylinder-contacts",
                           "cylinder-chain", "hopper", "quadruped"}) {
    for (const char* friction : {"none", "linearized", "cone"}) {
      const Model model = make_builtin(name, {{"friction", friction}});
      State state = make_state(model);
      Simulator sim(model);
      const test::ContactRun run = simulate_contacts(sim, state, 150);
      EXPECT_TRUE(run.ok) << name << " " << friction;
      EXPECT_GE(run.min_distance, -1e-6) << name << " " << friction;
      EXPECT_LT(constraint_violation(model, state), 1e-6) << name << " " << friction;
    }
  }
}

TEST(ContactGeometry, ShapeHelpersPlaceThePointsOnTheSurface) {
  const Quaternion turn = rotation_from_vector(Vector3(0.3, -0.2, 0.5));
  Shape box = Shape::box(Vector3(1.0, 2.0, 3.0));
  box.position = Vector3(0.1, 0.2, 0.3);
  box.orientation = turn;
  const std::vector<Contact> corners = shape_contacts(0, box);
  ASSERT_EQ(corners.size(), 8u);
  for (const Contact& c : corners) {
    const Vector3 local = turn.conjugate() * (c.point - box.position);
    EXPECT_NEAR(local.cwiseAbs().x(), 0.5, 1e-12);
    EXPECT_NEAR(local.cwiseAbs().y(), 1.0, 1e-12);
    EXPECT_NEAR(local.cwiseAbs().z(), 1.5, 1e-12);
  }
  ContactOptions options;
  options.rim_points = 6;
  options.rolling_rims = false;
  const std::vector<Contact> rim = shape_contacts(0, Shape::cylinder(0.5, 0.2), options);
  ASSERT_EQ(rim.size(), 12u);
  for (const Contact& c : rim) {
    EXPECT_NEAR(c.point.head<2>().norm(), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(c.point.z()), 0.1, 1e-12);
  }
  const std::vector<Contact> capsule = shape_contacts(0, Shape::capsule(0.1, 0.6));
  ASSERT_EQ(capsule.size(), 2u);
  EXPECT_DOUBLE_EQ(capsule[0].radius, 0.1);
  EXPECT_NEAR(std::abs(capsule[0].point.z()), 0.3, 1e-12);
  // Signed distance of a sphere on a tilted ground.
  Contact sphere = shape_contacts(0, Shape::sphere(0.2))[0];
  sphere.ground = HalfSpace::incline(0.4);
  const Vector3 centre = 0.7 * sphere.ground.normal + Vector3(0.0, 3.0, 0.0);
  EXPECT_NEAR(signed_distance(sphere, centre, turn), 0.5, 1e-12);
}

}  // namespace
}  // namespace dynamics
