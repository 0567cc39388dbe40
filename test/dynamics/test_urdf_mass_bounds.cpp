// Lower bounds on mass and inertia (UrdfOptions::bound_mass, bound_inertia;
// MuJoCo's boundmass and boundinertia) for massless links on moving joints
// and for point masses, and balanced moments for inertias no rigid body has
// (UrdfOptions::balance_inertia; MuJoCo's balanceinertia).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "period.hpp"
#include "urdf_text.hpp"

namespace dynamics {
namespace {

using test::rod;

// A hip written as three hinges about x, z and y through one point, with
// massless links between them (PyBullet's humanoid does this): an error by
// default; with small bounds the links become light bodies, and the thigh
// swings as on a ball joint at the hip.
TEST(UrdfMassBounds, MasslessLinksBetweenHingesBecomeLightBodies) {
  auto hinge_about = [](const std::string& name, const std::string& parent, const std::string& child,
                        const std::string& axis) {
    return "<joint name='" + name + "' type='continuous'><parent link='" + parent + "'/><child link='" + child +
           "'/><axis xyz='" + axis + "'/></joint>";
  };
  const std::string hips = "<robot name='leg'><link name='world'/><link name='hx'/><link name='hz'/><link name='hy'/>" +
                           rod("thigh") + hinge_about("hip_x", "world", "hx", "1 0 0") +
                           hinge_about("hip_z", "hx", "hz", "0 0 1") + hinge_about("hip_y", "hz", "hy", "0 1 0") +
                           "<joint name='weld' type='fixed'><parent link='hy'/><child link='thigh'/></joint></robot>";
  try {
    parse_urdf(hips, "leg.urdf");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("link 'hx' has no mass"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("CLI --bound-mass and --bound-inertia"), std::string::npos) << e.what();
  }
  UrdfOptions bounded;
  bounded.bound_mass = 1e-6;
  bounded.bound_inertia = 1e-8;
  std::vector<std::string> warnings;
  const Model m = parse_urdf(hips, "leg.urdf", bounded, &warnings);
  ASSERT_EQ(m.num_bodies(), 3);  // hx, hz and the thigh (hy rides on it)
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "body 'hx': mass 0 raised to 1e-06 kg, principal moments below 1e-08 kg m^2 (smallest 0) "
                         "raised to it (bound_mass, bound_inertia)");
  EXPECT_EQ(m.body(m.find_body("hz")).mass, 1e-6);
  // The reference: the thigh on a spherical joint at the hip, swung out the same way.
  Model ball;
  ball.add_body(m.body(m.find_body("thigh")));
  Joint j = Joint::make(JointType::Spherical, "hip", kWorld, 0);
  j.child_frame = m.joint(m.find_joint("hip_y")).child_frame;
  ball.add_joint(j);
  State s = make_state(m), r = make_state(ball);
  set_joint_positions(m, s, Eigen::Vector3d(0.4, 0.0, 0.0));  // out to the side about x
  set_joint_positions(ball, r, Eigen::Vector3d(0.4, 0.0, 0.0));
  set_joint_velocities(m, s, Eigen::Vector3d(0.0, 0.0, 1.0));  // and swinging about y
  const int thigh = m.find_body("thigh");
  r.velocity[0] = s.velocity[thigh];
  r.angular_velocity[0] = s.angular_velocity[thigh];
  StepOptions o;
  o.dt = 0.01;
  Simulator sim(m, o), sim_ball(ball, o);
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(sim.step(s).ok()) << k;
    ASSERT_TRUE(sim_ball.step(r).ok()) << k;
    worst = std::max(worst, (s.position[thigh] - r.position[0]).norm());
  }
  EXPECT_LT(worst, 1e-6);  // the light bodies' share: 4e-8 measured
  EXPECT_GT((s.position[thigh] - Vector3(0, 0, -0.5)).norm(), 0.1);  // it did swing
}

// A point mass on a floating root (PyBullet's zero-inertia sphere) needs an
// inertia; the bound gives it one.
TEST(UrdfMassBounds, PointMassGetsTheBoundInertia) {
  const std::string ball =
      "<robot name='r'><link name='ball'><inertial><mass value='0.1'/><inertia ixx='0' iyy='0' izz='0' ixy='0' "
      "ixz='0' iyz='0'/></inertial></link></robot>";
  EXPECT_THROW(parse_urdf(ball), std::invalid_argument);
  UrdfOptions bounded;
  bounded.bound_inertia = 2e-5;
  const Model m = parse_urdf(ball, "ball.urdf", bounded);
  EXPECT_EQ(m.body(0).mass, 0.1);  // above the mass bound (0): kept
  EXPECT_LT((m.body(0).inertia - 2e-5 * Matrix3::Identity()).norm(), 1e-20);
}

// A link 0.5 m below its hinge with moments 0.01, 0.08 and 0.1 kg m^2
// (0.01 + 0.08 < 0.1: no rigid body has them, like the links of PyBullet's
// TwoJointRobot): an error naming them; balanced, each is their mean, and
// the pendulum swings with the period of that inertia.
TEST(UrdfMassBounds, InertiaViolatingTheTriangleInequalityIsBalanced) {
  const std::string pendulum =
      "<robot name='r'><link name='world'/><link name='bob'><inertial><origin xyz='0 0 -0.5'/><mass value='1'/>"
      "<inertia ixx='0.01' iyy='0.08' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial></link>" +
      test::hinge("hinge", "world", "bob", "0 0 0") + "</robot>";
  try {
    parse_urdf(pendulum, "bob.urdf");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("link 'bob': <inertia>'s principal moments 0.01, 0.08 and 0.1 violate the triangle "
                        "inequality"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("CLI --balance-inertia"), std::string::npos) << what;
  }
  UrdfOptions balanced;
  balanced.balance_inertia = true;
  std::vector<std::string> warnings;
  const Model m = parse_urdf(pendulum, "bob.urdf", balanced, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "link 'bob': <inertia>'s principal moments 0.01, 0.08 and 0.1 violate the triangle "
                         "inequality; replaced by their mean 0.0633333 kg m^2 (balance_inertia)");
  const double mean = (0.01 + 0.08 + 0.1) / 3.0;
  EXPECT_LT((m.body(0).inertia - mean * Matrix3::Identity()).norm(), 1e-15);
  // Small swings about y: T = 2 pi sqrt((J + m d^2) / (m g d)), d = 0.5 m.
  State s = make_state(m);
  set_joint_positions(m, s, Eigen::VectorXd::Constant(1, 0.01));
  const double dt = 1e-3, expected = 2.0 * kPi * std::sqrt((mean + 0.25) / (9.81 * 0.5));
  EXPECT_NEAR(test::measured_period(m, s, dt, 10000), expected, 2e-3 * expected);
}

}  // namespace
}  // namespace dynamics
