// Joint couplings (URDF <mimic>, gears, racks): analytic motion of coupled
// pendulums and of an Atwood machine, conservation laws in free flight, the
// projection, and every bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::with_dt;

// A pendulum of a thin rod (models.hpp's make_link) on a hinge about y at a
// world point, starting at `angle`.
int add_pendulum(Model& model, const std::string& name, const Vector3& pivot, double length, double mass,
                 double angle = 0.0) {
  const int body = model.add_body(make_link(name, length, mass));
  Joint j = Joint::make(JointType::Revolute, name + "_hinge", kWorld, body, Vector3::UnitY());
  j.parent_frame.position = pivot;
  j.child_frame.position = Vector3(0.0, 0.0, 0.5 * length);
  j.initial_position = {angle};
  return model.add_joint(j);
}

double pivot_inertia(const Body& rod, double length) {
  return rod.inertia(1, 1) + rod.mass * 0.25 * length * length;
}

// Two pendulums on separate pivots geared so that theta2 = ratio * theta1:
// one degree of freedom with inertia I1 + ratio^2 I2 and stiffness
// g (m1 d1 + ratio^2 m2 d2) at small amplitude.
TEST(Couplings, GearedPendulumsSwingWithThePeriodOfTheReducedSystem) {
  for (const double ratio : {-2.0, 1.0, 3.0}) {
    Model model;
    const double l1 = 1.0, m1 = 1.0, l2 = 0.5, m2 = 2.0, amplitude = 0.02, dt = 0.004;
    const int j1 = add_pendulum(model, "a", Vector3::Zero(), l1, m1, amplitude);
    const int j2 = add_pendulum(model, "b", Vector3(2.0, 0.0, 0.0), l2, m2);
    model.add_coupling(JointCoupling{"gear", j1, j2, ratio, 0.0});
    State s = make_state(model);
    // The follower starts where the coupling puts it.
    EXPECT_NEAR(joint_positions(model, s)(1), ratio * amplitude, 1e-12);

    const double inertia = pivot_inertia(model.body(0), l1) + ratio * ratio * pivot_inertia(model.body(1), l2);
    const double stiffness = 9.81 * (m1 * 0.5 * l1 + ratio * ratio * m2 * 0.5 * l2);
    const double analytic = 2.0 * kPi * std::sqrt(inertia / stiffness);
    Simulator sim(model, with_dt(dt));
    const double e0 = total_energy(model, s, 0.0);
    std::vector<double> crossings;
    double previous = amplitude, worst_coupling = 0.0, worst_energy = 0.0;
    for (int k = 1; k <= 2500 && crossings.size() < 4; ++k) {
      ASSERT_TRUE(sim.step(s).ok()) << "ratio " << ratio << " step " << k;
      const Eigen::VectorXd q = joint_positions(model, s);
      worst_coupling = std::max(worst_coupling, std::abs(q(1) - ratio * q(0)));
      worst_energy = std::max(worst_energy, std::abs(total_energy(model, s, dt) - e0));
      if (previous > 0.0 && q(0) <= 0.0) crossings.push_back((k - 1 + previous / (previous - q(0))) * dt);
      previous = q(0);
    }
    ASSERT_GE(crossings.size(), 3u) << "ratio " << ratio;
    const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    EXPECT_NEAR(period, analytic, 0.005 * analytic) << "ratio " << ratio;
    EXPECT_LT(worst_coupling, 1e-10) << "ratio " << ratio;
    EXPECT_LT(constraint_violation(model, s), 1e-10);
    // The coupling does no work: the energy stays within a small fraction of
    // the swing energy (the step-midpoint energy, O(dt^2)).
    const double swing = 0.5 * stiffness * amplitude * amplitude;
    EXPECT_LT(worst_energy, 1e-3 * swing) << "ratio " << ratio;
  }
}

// Two prismatic fingers sliding along z on a hand welded to the world,
// coupled with ratio -1: one goes down as the other goes up, an Atwood
// machine. The heavier finger falls with g (m1 - m2) / (m1 + m2); symplectic
// Euler then gives x_k = -a dt^2 k (k + 1) / 2 exactly.
TEST(Couplings, FingersOnOneHandFormAnAtwoodMachine) {
  Model model;
  const int hand = model.add_body(Body::solid("hand", 1.0, Shape::box(Vector3(0.1, 0.1, 0.1))));
  const int f1 = model.add_body(Body::solid("finger1", 2.0, Shape::box(Vector3(0.02, 0.02, 0.05))));
  const int f2 = model.add_body(Body::solid("finger2", 1.0, Shape::box(Vector3(0.02, 0.02, 0.05))));
  model.add_joint(Joint::make(JointType::Fixed, "mount", kWorld, hand));
  Joint s1 = Joint::make(JointType::Prismatic, "slide1", hand, f1, Vector3::UnitZ());
  s1.parent_frame.position = Vector3(0.05, 0.0, 0.0);
  Joint s2 = Joint::make(JointType::Prismatic, "slide2", hand, f2, Vector3::UnitZ());
  s2.parent_frame.position = Vector3(-0.05, 0.0, 0.0);
  const int j1 = model.add_joint(s1), j2 = model.add_joint(s2);
  model.add_coupling(JointCoupling{"belt", j1, j2, -1.0, 0.0});
  State s = make_state(model);
  const double dt = 0.01, a = 9.81 * (2.0 - 1.0) / (2.0 + 1.0);
  Simulator sim(model, with_dt(dt));
  for (int k = 1; k <= 300; ++k) {
    ASSERT_TRUE(sim.step(s).ok()) << "step " << k;
    const Eigen::VectorXd q = joint_positions(model, s);
    const double expected = -a * dt * dt * k * (k + 1) / 2.0;
    ASSERT_NEAR(q(model.coordinate_offset(j1)), expected, 1e-9 * (1.0 + std::abs(expected))) << "step " << k;
    ASSERT_NEAR(q(model.coordinate_offset(j2)), -expected, 1e-9 * (1.0 + std::abs(expected))) << "step " << k;
  }
  EXPECT_LT(constraint_violation(model, s), 1e-10);
}

// A rack and pinion on a free-flying carrier, no gravity: the slider leads
// (it never wraps), the pinion turns 30 rad per metre, and a spring between
// carrier and rack makes them oscillate, so that the teeth carry a force.
// Nothing outside acts, so linear and angular momentum stay at their start:
// the coupling impulse is internal only if its Jacobian rows are consistent
// on all three bodies.
TEST(Couplings, RackAndPinionInFreeFlightConservesMomentum) {
  Model model;
  model.gravity = Vector3::Zero();
  const int carrier = model.add_body(Body::solid("carrier", 3.0, Shape::box(Vector3(0.4, 0.2, 0.1))));
  const int pinion = model.add_body(Body::solid("pinion", 0.5, Shape::cylinder(0.1, 0.05)));
  const int rack = model.add_body(Body::solid("rack", 1.0, Shape::box(Vector3(0.5, 0.05, 0.05))));
  Joint turn = Joint::make(JointType::Revolute, "pinion_axle", carrier, pinion, Vector3::UnitY());
  turn.parent_frame.position = Vector3(0.0, 0.0, 0.2);
  Joint slide = Joint::make(JointType::Prismatic, "rack_slide", carrier, rack, Vector3::UnitX());
  slide.parent_frame.position = Vector3(0.0, 0.1, 0.3);
  slide.initial_velocity = {0.4};
  slide.stiffness = 5.0;
  const int jt = model.add_joint(turn), js = model.add_joint(slide);
  model.add_coupling(JointCoupling{"teeth", js, jt, 30.0, 0.3});
  State s = make_state(model);
  const double dt = 0.01;
  EXPECT_LT(constraint_violation(model, s), 1e-12);
  EXPECT_NEAR(joint_velocities(model, s)(0), 30.0 * joint_velocities(model, s)(1), 1e-9);
  Simulator sim(model, with_dt(dt));
  ASSERT_TRUE(sim.step(s).ok());
  const Vector3 p0 = linear_momentum(model, s), l0 = angular_momentum(model, s, dt);
  const double e0 = total_energy(model, s, dt);
  ASSERT_GT(p0.norm(), 0.1);
  // The energy error of the step midpoint swings (0.14 % of the energy at
  // this step size) with no trend: its largest swing over the last 1000 of
  // 3000 steps is no larger than over the first 1000.
  double travel = 0.0, first_swing = 0.0, last_swing = 0.0;
  for (int k = 0; k < 3000; ++k) {
    ASSERT_TRUE(sim.step(s).ok()) << "step " << k;
    travel = std::max(travel, std::abs(joint_positions(model, s)(1)));
    const double error = std::abs(total_energy(model, s, dt) - e0);
    if (k < 1000) first_swing = std::max(first_swing, error);
    if (k >= 2000) last_swing = std::max(last_swing, error);
  }
  EXPECT_LT((linear_momentum(model, s) - p0).norm(), 1e-10 * p0.norm());
  EXPECT_LT((angular_momentum(model, s, dt) - l0).norm(), 1e-9 * (1.0 + l0.norm()));
  EXPECT_LT(first_swing, 3e-3 * e0);
  EXPECT_LT(last_swing, 1.1 * first_swing);
  EXPECT_GT(30.0 * travel - 0.3, kPi);  // the pinion turned past pi: the wrapped equation holds
  EXPECT_LT(constraint_violation(model, s), 1e-10);
}

// A pinion that turns without limits drives a rack (0.1 m per radian) and a
// gear at half its speed, no gravity, from a constant input torque: one
// degree of freedom of inertia J_p + J_g / 4 + 0.01 m_r, turning at constant
// acceleration. The leader's angle counts its whole turns, so after four and
// a half turns the rack has moved 0.1 theta and the gear turned theta / 2;
// read within a turn, the leader's angle jumped by 2 pi at pi and took the
// rack and the gear with it.
TEST(Couplings, APinionTurningManyTimesDrivesARackAndAHalfSpeedGear) {
  Model model;
  model.gravity = Vector3::Zero();
  const Shape disc = Shape::cylinder(0.2, 0.05);
  const int pinion = model.add_body(Body::solid("pinion", 1.0, disc));
  const int gear = model.add_body(Body::solid("gear", 2.0, disc));
  const int rack = model.add_body(Body::solid("rack", 1.5, Shape::box(Vector3(0.5, 0.05, 0.05))));
  const int jp = model.add_joint(Joint::make(JointType::Revolute, "pinion_axle", kWorld, pinion));
  Joint axle = Joint::make(JointType::Revolute, "gear_axle", kWorld, gear);
  axle.parent_frame.position = Vector3(1.0, 0.0, 0.0);
  const int jg = model.add_joint(axle);
  Joint slide = Joint::make(JointType::Prismatic, "rack_slide", kWorld, rack, Vector3::UnitX());
  slide.parent_frame.position = Vector3(0.0, 1.0, 0.0);
  const int jr = model.add_joint(slide);
  model.add_coupling(JointCoupling{"half_speed", jp, jg, 0.5, 0.0});
  model.add_coupling(JointCoupling{"teeth", jp, jr, 0.1, 0.0});
  State s = make_state(model);
  const double torque = 0.3, dt = 0.005, duration = 3.0;
  const double inertia =
      model.body(pinion).inertia(2, 2) + 0.25 * model.body(gear).inertia(2, 2) + 0.01 * model.body(rack).mass;
  Simulator sim(model, with_dt(dt));
  for (int k = 1; k <= std::lround(duration / dt); ++k) {
    s.joint_input(model.coordinate_offset(jp)) = torque;
    ASSERT_TRUE(sim.step(s).ok()) << k;
    const Eigen::VectorXd q = joint_positions(model, s);
    ASSERT_NEAR(q(model.coordinate_offset(jg)), 0.5 * q(model.coordinate_offset(jp)), 1e-9) << k;
    ASSERT_NEAR(q(model.coordinate_offset(jr)), 0.1 * q(model.coordinate_offset(jp)), 1e-9) << k;
  }
  const double theta = joint_positions(model, s)(model.coordinate_offset(jp));
  EXPECT_GT(theta, 4.0 * 2.0 * kPi);
  EXPECT_NEAR(theta, 0.5 * torque / inertia * duration * duration, 1e-2 * theta);
  // The gear's pose, not only its reading: turned by theta / 2 about z.
  const Quaternion expected(Eigen::AngleAxisd(0.5 * theta, Vector3::UnitZ()));
  EXPECT_LT(s.orientation[gear].angularDistance(expected), 1e-8);
  EXPECT_NEAR(s.position[rack].x(), 0.1 * theta, 1e-9);
  EXPECT_LT(constraint_violation(model, s), 1e-10);
}

// A follower with limits: the leader pendulum stops where its follower's
// limit does, and neither coupling nor limit is violated.
TEST(Couplings, TheFollowersLimitStopsTheLeader) {
  Model model;
  const int j1 = add_pendulum(model, "a", Vector3::Zero(), 1.0, 1.0, 0.5);  // the follower would start at 1.0
  const int b2 = model.add_body(make_link("b", 0.5, 0.5));
  Joint hinge = Joint::make(JointType::Revolute, "b_hinge", kWorld, b2, Vector3::UnitY());
  hinge.parent_frame.position = Vector3(2.0, 0.0, 0.0);
  hinge.child_frame.position = Vector3(0.0, 0.0, 0.25);
  hinge.lower = {-0.3};
  hinge.upper = {0.3};
  const int j2 = model.add_joint(hinge);
  model.add_coupling(JointCoupling{"gear", j1, j2, 2.0, 0.0});
  State s = make_state(model);
  Simulator sim(model, with_dt(0.01));
  double widest = 0.0;
  for (int k = 0; k < 300; ++k) {
    const StepResult r = sim.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    const Eigen::VectorXd q = joint_positions(model, s);
    widest = std::max(widest, std::abs(q(1)));
    ASSERT_NEAR(q(1), 2.0 * q(0), 1e-7) << "step " << k;
  }
  EXPECT_LT(widest, 0.3 + 1e-6);
  EXPECT_GT(widest, 0.29);  // it did reach the limit
}

// The built-in parallel gripper: two coupled fingers squeeze a loose cube and
// hold it up by friction (contacts between colliders, solved by the
// interior-point method with the coupling among its equalities). Squeezed by
// its spring or by an input on the leading finger, it holds the cube: the
// fingers stop at the cube's sides, evenly. Squeezed too weakly (friction
// mu * squeeze below the weight), it lets the cube slip.
TEST(Couplings, AGripperHoldsABoxByFriction) {
  const double weight = 0.1 * 9.81, mu = 0.5, gap = 0.005, height = 0.4;
  struct Case {
    double spring, input;
    bool holds;
  };
  for (const Case& c : {Case{5.0, 0.0, true}, Case{0.0, 5.0, true}, Case{0.5 * weight / mu, 0.0, false}}) {
    const Model model = gripper(c.spring);
    const int leader = model.find_joint("finger1"), follower = model.find_joint("finger2");
    const int box = model.find_body("box");
    State s = make_state(model);
    Simulator sim(model, with_dt(0.01));
    for (int k = 0; k < 100; ++k) {
      s.joint_input(model.coordinate_offset(leader)) = c.input;
      const StepResult r = sim.step(s);
      ASSERT_TRUE(r.ok()) << "step " << k << ": " << to_string(r.status);
    }
    const Eigen::VectorXd q = joint_positions(model, s);
    EXPECT_NEAR(q(model.coordinate_offset(follower)), q(model.coordinate_offset(leader)), 1e-8);
    if (c.holds) {
      EXPECT_NEAR(q(model.coordinate_offset(leader)), gap, 1e-3);  // the fingers stopped at the cube
      EXPECT_GT(s.position[box].z(), height - 0.002);               // held, not dropped
      EXPECT_LT(s.velocity[box].norm(), 1e-3);                      // and at rest
      EXPECT_NEAR(s.position[box].x(), 0.0, 1e-3);                  // squeezed evenly
    } else {
      EXPECT_LT(s.position[box].z(), height - 0.05) << "friction held more than mu times the squeeze";
    }
  }
}

TEST(Couplings, ProjectionRestoresACouplingAndNamesOneThatCannotHold) {
  Model model;
  const int j1 = add_pendulum(model, "a", Vector3::Zero(), 1.0, 1.0);
  const int j2 = add_pendulum(model, "b", Vector3(2.0, 0.0, 0.0), 1.0, 1.0);
  model.add_coupling(JointCoupling{"gear", j1, j2, 1.0, 0.2});
  State s = make_state(model);
  EXPECT_NEAR(joint_positions(model, s)(1), 0.2, 1e-12);
  // Turn the follower's body by hand: the coupling is off by 0.3 rad.
  const Vector3 pivot(2.0, 0.0, 0.0);
  const Quaternion turn(Eigen::AngleAxisd(0.3, Vector3::UnitY()));
  s.position[1] = pivot + turn * (s.position[1] - pivot);
  s.orientation[1] = turn * s.orientation[1];
  EXPECT_NEAR(constraint_violation(model, s), 0.3, 1e-9);
  const ProjectionResult p = project_positions(model, s);
  ASSERT_TRUE(p.converged) << describe_violation(model, p);
  const Eigen::VectorXd q = joint_positions(model, s);
  EXPECT_NEAR(q(1), q(0) + 0.2, 1e-12);
  // Equal bodies: the least mass-weighted change splits the error between them.
  EXPECT_NEAR(q(0), 0.15, 1e-3);

  // Two couplings of one follower that contradict each other.
  model.add_coupling(JointCoupling{"other_gear", j1, j2, 1.0, -0.2});
  try {
    make_state(model);
    FAIL() << "contradicting couplings were satisfied";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("couplings 'gear', 'other_gear' are still violated"), std::string::npos) << what;
  }
}

void expect_model_error(Model& model, const JointCoupling& c, const std::string& needle) {
  try {
    model.add_coupling(c);
    FAIL() << "no error for " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(CouplingErrors, BadCouplingsAreNamed) {
  Model model;
  const int j1 = add_pendulum(model, "a", Vector3::Zero(), 1.0, 1.0);
  const int body = model.add_body(make_link("b", 1.0, 1.0));
  const int ball = model.add_joint(Joint::make(JointType::Spherical, "ball", kWorld, body));
  const int slider_body = model.add_body(make_link("c", 1.0, 1.0));
  const int slide = model.add_joint(Joint::make(JointType::Prismatic, "slide", kWorld, slider_body));
  expect_model_error(model, JointCoupling{"", j1, slide}, "coupling 0 has no name");
  expect_model_error(model, JointCoupling{"c", j1, 7}, "coupling 'c': follower joint index 7 does not exist");
  expect_model_error(model, JointCoupling{"c", -1, slide}, "coupling 'c': leader joint index -1 does not exist");
  expect_model_error(model, JointCoupling{"c", slide, slide}, "joint 'slide' is both leader and follower");
  expect_model_error(model, JointCoupling{"c", ball, slide},
                     "leader joint 'ball' is spherical with 3 coordinates; a coupling needs joints of one coordinate");
  expect_model_error(model, JointCoupling{"c", slide, j1, std::nan(""), 0.0}, "coupling 'c': ratio is not finite");
  expect_model_error(model, JointCoupling{"c", slide, j1, 1.0, INFINITY}, "coupling 'c': offset is not finite");
  const int other = add_pendulum(model, "d", Vector3(3.0, 0.0, 0.0), 1.0, 1.0);
  model.add_coupling(JointCoupling{"c", slide, j1, 2.0, 0.0});
  expect_model_error(model, JointCoupling{"c", j1, other, 2.0, 0.0}, "duplicate coupling name 'c'");
  EXPECT_THROW(model.coupling(1), std::invalid_argument);

  // Cycles of couplings: each joint would follow another, none could be set
  // (two gears on each other's shafts moved a joint set at 0.3 rad to 4 pi / 3
  // before couplings were refused on a cycle).
  const int far = add_pendulum(model, "e", Vector3(4.0, 0.0, 0.0), 1.0, 1.0);
  expect_model_error(model, JointCoupling{"back", j1, slide, 0.5, 0.0},
                     "coupling 'back' closes a cycle of couplings ('slide' -> 'a_hinge' -> 'slide', leader to "
                     "follower): each joint in it would follow another and none could be set");
  model.add_coupling(JointCoupling{"on", j1, other, 1.0, 0.0});
  model.add_coupling(JointCoupling{"further", other, far, 1.0, 0.0});
  expect_model_error(model, JointCoupling{"round", far, slide, 1.0, 0.0},
                     "coupling 'round' closes a cycle of couplings ('slide' -> 'a_hinge' -> 'd_hinge' -> 'e_hinge' "
                     "-> 'slide', leader to follower)");
  // Two paths from one leader to one follower close no cycle (a follower of
  // two leaders whose couplings agree).
  EXPECT_NO_THROW(model.add_coupling(JointCoupling{"across", j1, far, 1.0, 0.0}));
  EXPECT_EQ(model.num_couplings(), 4);

  // The follower's coordinates follow from its leader.
  State s = make_state(model);
  try {
    set_joint_position(model, s, j1, Eigen::VectorXd::Constant(1, 0.1));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("joint 'a_hinge' follows joint 'slide' (coupling 'c'); set the leader"),
              std::string::npos)
        << e.what();
  }
  // Down a chain of couplings the message names the head of the chain.
  EXPECT_EQ(model.coupling_root(far), slide);
  EXPECT_EQ(model.coupling_root(slide), slide);
  EXPECT_THROW(model.coupling_root(model.num_joints()), std::invalid_argument);
  try {
    set_joint_position(model, s, other, Eigen::VectorXd::Constant(1, 0.1));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("joint 'd_hinge' follows joint 'a_hinge' (coupling 'on'); set the "
                                         "chain's leader, 'slide'"),
              std::string::npos)
        << e.what();
  }
  set_joint_position(model, s, slide, Eigen::VectorXd::Constant(1, 0.1));
  EXPECT_NEAR(joint_positions(model, s)(model.coordinate_offset(j1)), 0.2, 1e-12);
  EXPECT_NEAR(joint_positions(model, s)(model.coordinate_offset(far)), 0.2, 1e-12);
}

}  // namespace
}  // namespace dynamics
