// URDF input: the same mechanism written as URDF and built in C++ moves the
// same way; every kind of bad file gets an error naming the element.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "dynamics/dynamics.hpp"

namespace dynamics {
namespace {


// A rod link of length 1, mass 1, link frame at its top (where its joint is),
// with the inertia make_link gives it.
std::string rod(const std::string& name) {
  return "<link name='" + name + "'><inertial><origin xyz='0 0 -0.5'/><mass value='1'/>"
         "<inertia ixx='0.0833333333333333333' iyy='0.0833333333333333333' izz='0.00125' ixy='0' ixz='0' iyz='0'/>"
         "</inertial><visual><origin xyz='0 0 -0.5'/><geometry><cylinder radius='0.05' length='1'/></geometry>"
         "</visual></link>";
}

std::string hinge(const std::string& name, const std::string& parent, const std::string& child,
                  const std::string& xyz) {
  return "<joint name='" + name + "' type='continuous'><parent link='" + parent + "'/><child link='" + child +
         "'/><origin xyz='" + xyz + "'/><axis xyz='0 1 0'/></joint>";
}

const std::string kDoublePendulum = "<robot name='dp'><link name='world'/>" + rod("link1") + rod("link2") +
                                    hinge("joint1", "world", "link1", "0 0 0") +
                                    hinge("joint2", "link1", "link2", "0 0 -1") + "</robot>";

const std::string kFourBar =
    "<robot name='fb'><link name='world'/>" + rod("link1") + rod("link2") + rod("link3") +
    hinge("joint1", "world", "link1", "0 0 0") + hinge("joint2", "link1", "link2", "0 0 -1") +
    hinge("joint3", "world", "link3", "1 0 0") +
    "<loop_joint name='joint4' type='continuous'><axis xyz='0 1 0'/><link1 link='link2' xyz='0 0 -1'/>"
    "<link2 link='link3' xyz='0 0 -1'/></loop_joint></robot>";

double max_position_difference(const Model& a, const Model& b, const Eigen::VectorXd& q, int steps) {
  State sa = make_state(a), sb = make_state(b);
  set_joint_positions(a, sa, q);
  set_joint_positions(b, sb, q);
  EXPECT_TRUE(project_positions(a, sa).converged);
  EXPECT_TRUE(project_positions(b, sb).converged);
  Simulator sim_a(a), sim_b(b);
  double worst = 0.0;
  for (int k = 0; k < steps; ++k) {
    EXPECT_TRUE(sim_a.step(sa).ok());
    EXPECT_TRUE(sim_b.step(sb).ok());
    for (int i = 0; i < a.num_bodies(); ++i) worst = std::max(worst, (sa.position[i] - sb.position[i]).norm());
  }
  return worst;
}

TEST(Urdf, DoublePendulumMatchesTheCppModel) {
  const Model from_urdf = parse_urdf(kDoublePendulum);
  const Model cpp = double_pendulum(1.0, 1.0, 0.0, 0.0);
  ASSERT_EQ(from_urdf.num_bodies(), 2);
  ASSERT_EQ(from_urdf.num_coordinates(), 2);
  EXPECT_EQ(from_urdf.body(1).shapes.size(), 1u);
  EXPECT_LT(max_position_difference(from_urdf, cpp, Eigen::Vector2d(1.0, -0.5), 500), 1e-9);
}

TEST(Urdf, FourBarWithLoopJointMatchesTheCppModel) {
  const Model from_urdf = parse_urdf(kFourBar);
  const Model cpp = four_bar(1.0, 1.0, 0.5);
  ASSERT_EQ(from_urdf.num_joints(), 4);
  EXPECT_LT(max_position_difference(from_urdf, cpp, Eigen::Vector4d(0.5, -0.5 * kPi - 0.5, 0.5, 0.0), 500), 1e-9);
}

TEST(Urdf, RootLinkWithoutWorldJointFloats) {
  const Model m = parse_urdf("<robot name='r'>" + rod("base") + rod("arm") + hinge("elbow", "base", "arm", "0 0 -1") +
                             "</robot>");
  const int j = m.find_joint("base");
  ASSERT_GE(j, 0);
  EXPECT_EQ(m.joint(j).num_coordinates(), 6);
  EXPECT_EQ(m.joint(j).parent, kWorld);
  // Coordinates are the link frame's pose: place the link origin at z = 2.
  State s = make_state(m);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(m.num_coordinates());
  q(m.coordinate_offset(j) + 2) = 2.0;
  set_joint_positions(m, s, q);
  EXPECT_NEAR(s.position[m.find_body("base")].z(), 1.5, 1e-14);  // centre of mass half a metre below
}

void expect_error(const std::string& xml, const std::string& needle) {
  try {
    parse_urdf(xml, "robot.urdf");
    FAIL() << "expected an error containing '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    EXPECT_NE(what.find("robot.urdf"), std::string::npos) << what;
  }
}

TEST(UrdfErrors, MalformedXmlNamesTheLine) {
  expect_error("<robot name='r'>\n<link name='a'>\n</robot>", "malformed XML at line");
}

TEST(UrdfErrors, UnknownLinkInJoint) {
  expect_error("<robot name='r'>" + rod("a") + hinge("j", "a", "ghost", "0 0 0") + "</robot>",
               "joint 'j': unknown child link 'ghost'");
}

TEST(UrdfErrors, MissingInertial) {
  expect_error("<robot name='r'><link name='world'/><link name='a'/>" + hinge("j", "world", "a", "0 0 0") + "</robot>",
               "link 'a': missing <inertial>");
}

TEST(UrdfErrors, MissingMass) {
  expect_error("<robot name='r'><link name='a'><inertial><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/>"
               "</inertial></link></robot>",
               "link 'a'");
}

TEST(UrdfErrors, InertiaNotPositiveDefinite) {
  expect_error("<robot name='r'><link name='a'><inertial><mass value='1'/>"
               "<inertia ixx='1' iyy='-1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>",
               "not positive definite");
}

TEST(UrdfErrors, LoopJointWithUnknownLinkOrType) {
  expect_error("<robot name='r'>" + rod("a") + "<loop_joint name='l' type='revolute'><link1 link='a'/>"
               "<link2 link='b'/></loop_joint></robot>",
               "loop_joint 'l': unknown link 'b'");
  expect_error("<robot name='r'>" + rod("a") + rod("b") + hinge("j", "a", "b", "0 0 -1") +
                   "<loop_joint name='l' type='gear'><link1 link='a'/><link2 link='b'/></loop_joint></robot>",
               "type must be");
}

TEST(UrdfErrors, NotARobot) { expect_error("<model/>", "root element must be <robot>"); }

TEST(UrdfErrors, MissingFile) {
  try {
    load_urdf("/nonexistent/robot.urdf");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

}  // namespace
}  // namespace dynamics
