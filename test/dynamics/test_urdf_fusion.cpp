// URDF links with mass welded by fixed joints fuse into one rigid body: the
// fused model moves exactly like the one that keeps them as bodies held by
// fixed joints, point masses become loadable, and what is welded to the world
// joins it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "period.hpp"
#include "step_options.hpp"
#include "urdf_text.hpp"

namespace dynamics {
namespace {

using test::hinge;
using test::rod;
using test::with_dt;

UrdfOptions fused(bool fuse, bool contacts = false) {
  UrdfOptions o;
  o.fuse_welded_links = fuse;
  o.collision_contacts = contacts;
  return o;
}

// Largest difference of the joint coordinates of two models of one mechanism
// started from the same coordinates and rates, over `duration` seconds.
State started(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  State s = make_state(model);
  set_joint_positions(model, s, q);
  set_joint_velocities(model, s, v);
  return s;
}

double max_coordinate_difference(const Model& a, const Model& b, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                 double dt, double duration) {
  State sa = started(a, q, v), sb = started(b, q, v);
  Simulator sim_a(a, with_dt(dt)), sim_b(b, with_dt(dt));
  double worst = 0.0;
  for (int k = 0; k < std::lround(duration / dt); ++k) {
    EXPECT_TRUE(sim_a.step(sa).ok()) << k;
    EXPECT_TRUE(sim_b.step(sb).ok()) << k;
    worst = std::max(worst, (joint_positions(a, sa) - joint_positions(b, sb)).lpNorm<Eigen::Infinity>());
  }
  return worst;
}

// A fused body and the bodies it sums held by fixed joints are one rigid
// body: the same energy and momenta in any state, and trajectories that part
// only as the two discretizations do, shrinking with dt (O(dt^2) on hinges,
// O(dt) in free rotation). A wrong mass, centre or inertia would fail both.
void expect_same_motion(const Model& fused, const Model& apart, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        double duration, double bound) {
  const State sf = started(fused, q, v), sa = started(apart, q, v);
  EXPECT_NEAR(kinetic_energy(fused, sf), kinetic_energy(apart, sa), 1e-10 * kinetic_energy(apart, sa));
  EXPECT_NEAR(gravitational_energy(fused, sf), gravitational_energy(apart, sa), 1e-12);
  EXPECT_LT((linear_momentum(fused, sf) - linear_momentum(apart, sa)).norm(), 1e-12);
  EXPECT_LT((angular_momentum(fused, sf) - angular_momentum(apart, sa)).norm(), 1e-12);
  const double coarse = max_coordinate_difference(fused, apart, q, v, 0.01, duration);
  const double fine = max_coordinate_difference(fused, apart, q, v, 0.005, duration);
  EXPECT_LT(coarse, bound);
  EXPECT_LT(fine, 0.6 * coarse);
}

// A double pendulum whose second link carries a hand: welded off the link's
// axis at a tilt, its centre of mass and inertia axes tilted again, with a
// collision sphere.
const std::string kPendulumWithHand =
    "<robot name='r'><link name='world'/>" + rod("a") + rod("b") + hinge("j1", "world", "a", "0 0 0") +
    hinge("j2", "a", "b", "0 0 -1") +
    "<link name='hand'><inertial><origin xyz='0.05 0.02 0.03' rpy='0.3 0.2 0.1'/><mass value='0.7'/>"
    "<inertia ixx='0.01' iyy='0.02' izz='0.025' ixy='0.001' ixz='0' iyz='0'/></inertial>"
    "<collision><origin xyz='0 0.1 0'/><geometry><sphere radius='0.05'/></geometry></collision></link>"
    "<joint name='wrist' type='fixed'><parent link='b'/><child link='hand'/>"
    "<origin xyz='0.1 0.2 -1' rpy='0.5 -0.4 0.3'/></joint></robot>";

TEST(UrdfFusion, WeldedLinkWithMassJoinsItsParentsBody) {
  const Model one = parse_urdf(kPendulumWithHand, "r.urdf", fused(true));
  const Model two = parse_urdf(kPendulumWithHand, "r.urdf", fused(false));
  ASSERT_EQ(one.num_bodies(), 2);
  ASSERT_EQ(two.num_bodies(), 3);
  EXPECT_LT(one.find_body("hand"), 0);
  EXPECT_LT(one.find_joint("wrist"), 0);
  EXPECT_EQ(one.num_coordinates(), 2);
  const Body& b = one.body(one.find_body("b"));
  EXPECT_DOUBLE_EQ(b.mass, 1.7);
  ASSERT_EQ(b.shapes.size(), 2u);  // the rod's cylinder and the hand's sphere
  // The same chaotic swing: the fused body has the welded pair's mass, centre
  // and inertia, or the coordinates would part within a few steps.
  const Eigen::Vector2d q(1.0, -0.5), v(0.0, 2.0);
  expect_same_motion(one, two, q, v, 2.0, 1e-4);
  // At rest the two discretizations agree to the solver's tolerance.
  EXPECT_LT(max_coordinate_difference(one, two, q, Eigen::Vector2d::Zero(), 0.01, 2.0), 1e-8);
}

TEST(UrdfFusion, ShapesAndContactsOfAFusedLinkStayWhereTheyWere) {
  const Model one = parse_urdf(kPendulumWithHand, "r.urdf", fused(true, true));
  const Model two = parse_urdf(kPendulumWithHand, "r.urdf", fused(false, true));
  ASSERT_EQ(one.num_contacts(), 1);
  ASSERT_EQ(two.num_contacts(), 1);
  EXPECT_EQ(one.contact(0).body, one.find_body("b"));
  EXPECT_EQ(two.contact(0).body, two.find_body("hand"));
  State s1 = make_state(one), s2 = make_state(two);
  const Eigen::Vector2d q(0.7, 1.1);
  set_joint_positions(one, s1, q);
  set_joint_positions(two, s2, q);
  auto world_point = [](const Model& m, const State& s) {
    const Contact& c = m.contact(0);
    return Vector3(s.position[c.body] + s.orientation[c.body] * c.point);
  };
  EXPECT_LT((world_point(one, s1) - world_point(two, s2)).norm(), 1e-12);
  const Shape& sphere = one.body(one.find_body("b")).shapes[1];
  const Shape& apart = two.body(two.find_body("hand")).shapes[0];
  const int b1 = one.find_body("b"), h2 = two.find_body("hand");
  EXPECT_LT((s1.position[b1] + s1.orientation[b1] * sphere.position -
             (s2.position[h2] + s2.orientation[h2] * apart.position))
                .norm(),
            1e-12);
}

// A floating core with two parts welded off its centre tumbles about axes
// that are not principal; the fused body turns and drifts like the three
// bodies held together by fixed joints.
TEST(UrdfFusion, FloatingBodyWithWeldedPartsTumblesLikeTheUnfusedOne) {
  auto part = [](const std::string& name, const std::string& mass, const std::string& inertia) {
    return "<link name='" + name + "'><inertial><origin xyz='0.02 -0.01 0.05' rpy='0.4 0 -0.2'/><mass value='" +
           mass + "'/><inertia " + inertia + "/></inertial></link>";
  };
  const std::string xml =
      "<robot name='t'>" + part("core", "2", "ixx='0.02' iyy='0.03' izz='0.04' ixy='0' ixz='0' iyz='0'") +
      part("arm", "0.5", "ixx='0.001' iyy='0.004' izz='0.004' ixy='0' ixz='0' iyz='0'") +
      part("weight", "0.3", "ixx='0' iyy='0' izz='0' ixy='0' ixz='0' iyz='0'") +  // a point mass
      "<joint name='w1' type='fixed'><parent link='core'/><child link='arm'/><origin xyz='0.3 0 0' rpy='0 0.5 0'/>"
      "</joint><joint name='w2' type='fixed'><parent link='arm'/><child link='weight'/><origin xyz='0 0.2 0.1'/>"
      "</joint></robot>";
  Model one = parse_urdf(xml, "t.urdf", fused(true));
  ASSERT_EQ(one.num_bodies(), 1);
  EXPECT_DOUBLE_EQ(one.body(0).mass, 2.8);
  // Unfused, the point mass would be a body without rotational inertia; so
  // the reference gives it a speck of one, far below what the test can see.
  std::string with_speck = xml;
  with_speck.replace(with_speck.find("ixx='0' iyy='0' izz='0'"), 23, "ixx='1e-12' iyy='1e-12' izz='1e-12'");
  Model three = parse_urdf(with_speck, "t.urdf", fused(false));
  ASSERT_EQ(three.num_bodies(), 3);
  one.gravity = Vector3::Zero();
  three.gravity = Vector3::Zero();
  Eigen::VectorXd q(6), v(6);
  q << 0.1, -0.2, 1.0, 0.2, -0.1, 0.3;
  v << 0.3, 0.0, -0.1, 0.6, -0.4, 0.5;  // omega in the core's link frame
  expect_same_motion(one, three, q, v, 2.0, 3e-3);
  // The test can tell: without the point mass the motion differs.
  std::string without = xml;
  without.replace(without.find("mass value='0.3'"), 16, "mass value='0.1'");
  Model lighter = parse_urdf(without, "t.urdf", fused(true));
  lighter.gravity = Vector3::Zero();
  EXPECT_GT(max_coordinate_difference(one, lighter, q, v, 0.01, 2.0), 1e-2);
}

// A rod with a point-mass bob (mass, no inertia) welded to its tip swings with
// the compound pendulum's period.
TEST(UrdfFusion, PointMassBobSwingsWithTheCompoundPendulumPeriod) {
  const std::string xml =
      "<robot name='p'><link name='world'/>" + rod("rod") + hinge("pivot", "world", "rod", "0 0 0") +
      "<link name='bob'><inertial><mass value='2'/><inertia ixx='0' iyy='0' izz='0' ixy='0' ixz='0' iyz='0'/>"
      "</inertial></link><joint name='tip' type='fixed'><parent link='rod'/><child link='bob'/>"
      "<origin xyz='0 0 -1'/></joint></robot>";
  const Model model = parse_urdf(xml, "p.urdf");
  ASSERT_EQ(model.num_bodies(), 1);
  const double pivot_inertia = 1.0 / 12.0 + 1.0 * 0.25 + 2.0 * 1.0, weight_arm = 1.0 * 0.5 + 2.0 * 1.0;
  const double analytic = 2.0 * kPi * std::sqrt(pivot_inertia / (9.81 * weight_arm));
  State s = make_state(model);
  set_joint_positions(model, s, Eigen::VectorXd::Constant(1, 0.05));
  EXPECT_NEAR(test::measured_period(model, s, 0.001, 6000), analytic, 0.005 * analytic);
  // Kept apart, the bob is a body without rotational inertia.
  try {
    parse_urdf(xml, "p.urdf", fused(false));
    FAIL() << "a lone point mass became a body";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("link 'bob' (line 1): "), std::string::npos) << what;
    EXPECT_NE(what.find("not positive definite"), std::string::npos) << what;
    EXPECT_NE(what.find("fuse_welded_links"), std::string::npos) << what;
  }
}

// A base with mass bolted to the world is part of it: the arm on it swings
// like the plain pendulum, and the base's collision box is reported as unused.
TEST(UrdfFusion, LinksWithMassWeldedToTheWorldJoinIt) {
  const std::string xml =
      "<robot name='r'><link name='world'/><link name='base'><inertial><mass value='5'/>"
      "<inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial>"
      "<collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link>"
      "<joint name='bolt' type='fixed'><parent link='world'/><child link='base'/><origin xyz='0 0 0.5'/></joint>" +
      rod("arm") + hinge("shoulder", "base", "arm", "0 0 -0.5") + "</robot>";
  std::vector<std::string> ignored;
  const Model m = parse_urdf(xml, "r.urdf", UrdfOptions{}, &ignored);
  ASSERT_EQ(m.num_bodies(), 1);
  ASSERT_EQ(m.num_joints(), 1);
  EXPECT_EQ(m.joint(0).parent, kWorld);
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_NE(ignored[0].find("link 'base': <collision> box is fixed in the world"), std::string::npos) << ignored[0];
  const Model plain = pendulum(1.0, 1.0, 0.0, 0.0);
  EXPECT_LT(max_coordinate_difference(m, plain, Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Zero(1), 0.01, 3.0),
            1e-9);
  // Kept apart, the base is a body held by a fixed joint.
  EXPECT_EQ(parse_urdf(xml, "r.urdf", fused(false)).num_bodies(), 2);
}

void expect_urdf_error_naming(const std::string& xml, const std::vector<std::string>& needles) {
  try {
    parse_urdf(xml, "robot.urdf");
    FAIL() << "expected an error containing '" << needles.front() << "'";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    for (const std::string& needle : needles) EXPECT_NE(what.find(needle), std::string::npos) << what;
  }
}

std::string point_mass(const std::string& name) {
  return "<link name='" + name +
         "'><inertial><mass value='1'/><inertia ixx='0' iyy='0' izz='0' ixy='0' ixz='0' iyz='0'/></inertial></link>";
}

TEST(UrdfFusionErrors, BodiesWithoutRotationalInertia) {
  expect_urdf_error_naming("<robot name='r'>" + point_mass("p") + "</robot>",
                           {"robot.urdf: link 'p' (line 1): ", "not positive definite", "point mass"});
  // Two point masses welded apart: no inertia about the line through them.
  expect_urdf_error_naming("<robot name='r'>" + point_mass("p") + point_mass("q") +
                   "<joint name='w' type='fixed'><parent link='p'/><child link='q'/><origin xyz='1 0 0'/></joint>"
                   "</robot>",
                           {"link 'p' (line 1) with 'q' welded to it: ", "not positive definite"});
}

TEST(UrdfFusionErrors, BadInertiaOfAWeldedLinkIsNamed) {
  auto with_hand = [](const std::string& inertia) {
    return "<robot name='r'><link name='world'/>" + rod("a") + hinge("j", "world", "a", "0 0 0") +
           "<link name='hand'><inertial><mass value='0.1'/><inertia " + inertia +
           "/></inertial></link><joint name='w' type='fixed'><parent link='a'/><child link='hand'/></joint></robot>";
  };
  expect_urdf_error_naming(with_hand("ixx='1' iyy='-1' izz='1' ixy='0' ixz='0' iyz='0'"),
                           {"link 'hand': <inertia> has a negative principal moment (-1)"});
  expect_urdf_error_naming(with_hand("ixx='1' iyy='1' izz='3' ixy='0' ixz='0' iyz='0'"),
                           {"link 'hand': <inertia>'s principal moments 1, 1 and 3 violate the triangle inequality"});
  // Also on a base the world carries, whose inertia the motion never uses.
  const std::string held_base =
      "<robot name='r'><link name='world'/><link name='base'><inertial><mass value='1'/><inertia ixx='1' iyy='-1' "
      "izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link><joint name='bolt' type='fixed'><parent link='world'/>"
      "<child link='base'/></joint>" + rod("a") + hinge("j", "base", "a", "0 0 0") + "</robot>";
  expect_urdf_error_naming(held_base, {"link 'base': <inertia> has a negative principal moment"});
}

}  // namespace
}  // namespace dynamics
