// URDF input: the same mechanism written as URDF and built in C++ moves the
// same way; every kind of bad file gets an error naming the element.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <console_bridge/console.h>

#include "dynamics/dynamics.hpp"
#include "urdf_text.hpp"

namespace dynamics {
namespace {

using test::hinge;
using test::rod;

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

std::string damped_pendulum_urdf(const std::string& dynamics) {
  return "<robot name='p'><link name='world'/>" + rod("link1") +
         "<joint name='joint1' type='continuous'><parent link='world'/><child link='link1'/><axis xyz='0 1 0'/>" +
         dynamics + "</joint></robot>";
}

// A two-link robot whose second joint (of `type`) carries `mimic`.
std::string mimicking(const std::string& type, const std::string& mimic) {
  return "<robot name='r'><link name='world'/>" + rod("a") + rod("b") + hinge("j1", "world", "a", "0 0 0") +
         "<joint name='j2' type='" + type + "'><parent link='a'/><child link='b'/><origin xyz='0 0 -1'/>"
         "<axis xyz='0 1 0'/><limit lower='-1' upper='1' effort='1' velocity='1'/>" + mimic + "</joint></robot>";
}

// <mimic joint multiplier offset>: the elbow turns -2 times the shoulder, plus 0.1 rad.
TEST(Urdf, MimicJointBecomesACouplingThatMatchesTheCppModel) {
  const std::string xml = "<robot name='dp'><link name='world'/>" + rod("link1") + rod("link2") +
                          hinge("joint1", "world", "link1", "0 0 0") +
                          "<joint name='joint2' type='continuous'><parent link='link1'/><child link='link2'/>"
                          "<origin xyz='0 0 -1'/><axis xyz='0 1 0'/>"
                          "<mimic joint='joint1' multiplier='-2' offset='0.1'/></joint></robot>";
  const Model from_urdf = parse_urdf(xml);
  ASSERT_EQ(from_urdf.num_couplings(), 1);
  const JointCoupling& c = from_urdf.coupling(0);
  EXPECT_EQ(c.name, "joint2");
  EXPECT_EQ(from_urdf.joint(c.leader).name, "joint1");
  EXPECT_EQ(from_urdf.joint(c.follower).name, "joint2");
  EXPECT_EQ(c.ratio, -2.0);
  EXPECT_EQ(c.offset, 0.1);
  Model cpp = double_pendulum(1.0, 1.0, 0.0, 0.0);
  cpp.add_coupling(JointCoupling{"gear", 0, 1, -2.0, 0.1});
  EXPECT_LT(max_position_difference(from_urdf, cpp, Eigen::Vector2d(0.8, 0.0), 500), 1e-9);
  State s = make_state(from_urdf);
  EXPECT_NEAR(joint_positions(from_urdf, s)(1), 0.1, 1e-12);
  // A continuous leader counts its turns, so any multiplier loads, on an
  // angular or a prismatic follower.
  for (const std::string type : {"continuous", "prismatic"}) {
    const Model half = parse_urdf(mimicking(type, "<mimic joint='j1' multiplier='0.5'/>"));
    ASSERT_EQ(half.num_couplings(), 1) << type;
    EXPECT_EQ(half.coupling(0).ratio, 0.5) << type;
  }
}

TEST(Urdf, JointDampingMatchesTheCppDampedPendulum) {
  const Model from_urdf = parse_urdf(damped_pendulum_urdf("<dynamics damping='0.5' friction='0.1'/>"));
  EXPECT_EQ(from_urdf.joint(0).damping, 0.5);
  EXPECT_EQ(from_urdf.joint(0).friction, 0.1);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 1.0);
  EXPECT_LT(max_position_difference(from_urdf, pendulum(1.0, 1.0, 0.0, 0.5, 0.1), q, 300), 1e-9);
  // Without damping, or without friction, the trajectories part: the test can tell.
  EXPECT_GT(max_position_difference(from_urdf, pendulum(1.0, 1.0, 0.0, 0.0, 0.1), q, 300), 1e-3);
  EXPECT_GT(max_position_difference(from_urdf, pendulum(1.0, 1.0, 0.0, 0.5, 0.0), q, 300), 1e-3);
  UrdfOptions off;
  off.joint_damping = false;
  EXPECT_EQ(parse_urdf(damped_pendulum_urdf("<dynamics damping='0.5'/>"), "<string>", off).joint(0).damping, 0.0);
}

TEST(Urdf, FourBarWithLoopJointMatchesTheCppModel) {
  const Model from_urdf = parse_urdf(kFourBar);
  const Model cpp = four_bar(1.0, 1.0, 0.5);
  ASSERT_EQ(from_urdf.num_joints(), 4);
  EXPECT_LT(max_position_difference(from_urdf, cpp, Eigen::Vector4d(0.5, -0.5 * kPi - 0.5, 0.5, 0.0), 500), 1e-9);
  // The loop closed on a massless frame welded to link3's tip moves the same way.
  const std::string on_frame =
      "<robot name='fb'><link name='world'/>" + rod("link1") + rod("link2") + rod("link3") +
      hinge("joint1", "world", "link1", "0 0 0") + hinge("joint2", "link1", "link2", "0 0 -1") +
      hinge("joint3", "world", "link3", "1 0 0") +
      "<link name='pin'/><joint name='pin_weld' type='fixed'><parent link='link3'/><child link='pin'/>"
      "<origin xyz='0 0 -1'/></joint><loop_joint name='joint4' type='continuous'><axis xyz='0 1 0'/>"
      "<link1 link='link2' xyz='0 0 -1'/><link2 link='pin'/></loop_joint></robot>";
  const Model framed = parse_urdf(on_frame);
  ASSERT_EQ(framed.num_bodies(), 3);
  EXPECT_LT(max_position_difference(framed, cpp, Eigen::Vector4d(0.5, -0.5 * kPi - 0.5, 0.5, 0.0), 500), 1e-9);
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

// urdfdom takes a single tree; every root but 'world' floats all the same,
// with or without a 'world' link in the file.
TEST(Urdf, EveryRootLinkButTheWorldFloats) {
  const std::string pendulum = hinge("pivot", "world", "bob", "0 0 0");
  for (const std::string& world : {std::string("<link name='world'/>"), std::string()}) {
    const std::string xml = "<robot name='r'>" + world + rod("crate") + rod("base") + rod("arm") +
                            hinge("elbow", "base", "arm", "0 0 -1") + (world.empty() ? "" : rod("bob") + pendulum) +
                            "</robot>";
    const Model m = parse_urdf(xml, "r.urdf");
    ASSERT_EQ(m.num_bodies(), world.empty() ? 3 : 4);
    ASSERT_EQ(m.num_joints(), world.empty() ? 3 : 4);  // elbow, (pivot,) and a floating joint per free root
    for (const char* root : {"crate", "base"}) {
      const int j = m.find_joint(root);
      ASSERT_GE(j, 0) << root;
      EXPECT_EQ(m.joint(j).num_coordinates(), 6) << root;
      EXPECT_EQ(m.joint(j).parent, kWorld) << root;
    }
    // The free crate falls freely while the arm swings on its floating base.
    State s = make_state(m);
    s.velocity[m.find_body("crate")] = Vector3(1.0, 0.0, 2.0);
    Simulator sim(m);
    for (int k = 0; k < 50; ++k) ASSERT_TRUE(sim.step(s).ok()) << k;
    const Vector3 fall = s.position[m.find_body("crate")] - Vector3(0, 0, -0.5);
    // Symplectic Euler: x_n = x_0 + n dt v_0 + dt^2 g n (n + 1) / 2.
    const double t = 0.5, dt = 0.01;
    EXPECT_NEAR(fall.x(), t, 1e-12);
    EXPECT_NEAR(fall.z(), 2.0 * t - 9.81 * dt * dt * 50 * 51 / 2, 1e-12);
  }
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// The double pendulum again, its joints hung on massless frames (links
// without <inertial>): a mount welded to the world, an elbow frame welded to
// link1, a wrist that is the child of the moving joint2 and is welded to
// link2, and a tool and camera welded to link2's tip. The yawed wrist frame
// and its offset along the hinge axis cancel in the weld below it.
std::string double_pendulum_on_frames() {
  const double yaw = 0.5;
  const Vector3 axis(std::sin(yaw), std::cos(yaw), 0.0);                 // world y in the wrist frame
  const Vector3 back = rotation_from_rpy(Vector3(0, 0, -yaw)) * Vector3(0, -0.2, 0);  // undo the offset
  auto fixed = [](const std::string& name, const std::string& parent, const std::string& child,
                  const std::string& origin) {
    return "<joint name='" + name + "' type='fixed'><parent link='" + parent + "'/><child link='" + child + "'/>" +
           origin + "</joint>";
  };
  return "<robot name='dp'><link name='world'/>"
         "<link name='mount'><collision><geometry><box size='0.1 0.1 0.1'/></geometry></collision></link>" +
         fixed("mount_weld", "world", "mount", "<origin xyz='0 0 0.3' rpy='0 0 0.4'/>") + rod("link1") +
         "<joint name='joint1' type='continuous'><parent link='mount'/><child link='link1'/>"
         "<origin xyz='0 0 -0.3' rpy='0 0 -0.4'/><axis xyz='0 1 0'/></joint>"
         "<link name='elbow_frame'/>" +
         fixed("elbow_weld", "link1", "elbow_frame", "<origin xyz='0 0 -1'/>") + "<link name='wrist'/>" +
         "<joint name='joint2' type='continuous'><parent link='elbow_frame'/><child link='wrist'/>"
         "<origin xyz='0 0.2 0' rpy='0 0 " + number(yaw) + "'/><axis xyz='" + number(axis.x()) + " " +
         number(axis.y()) + " 0'/></joint>" + rod("link2") +
         fixed("wrist_weld", "wrist", "link2",
               "<origin xyz='" + number(back.x()) + " " + number(back.y()) + " 0' rpy='0 0 " + number(-yaw) + "'/>") +
         "<link name='tool'><inertial><mass value='0'/><inertia ixx='0' iyy='0' izz='0' ixy='0' ixz='0' iyz='0'/>"
         "</inertial><collision><geometry><sphere radius='0.05'/></geometry></collision></link>" +
         fixed("tool_weld", "link2", "tool", "<origin xyz='0 0 -1'/>") +
         "<link name='camera'><visual><geometry><box size='0.02 0.02 0.02'/></geometry></visual></link>" +
         fixed("camera_weld", "tool", "camera", "<origin xyz='0.1 0 0'/>") + "</robot>";
}

TEST(Urdf, MasslessFramesRideOnTheBodyTheyAreWeldedTo) {
  UrdfOptions no_contacts;
  no_contacts.collision_contacts = false;
  std::vector<std::string> ignored;
  const Model m = parse_urdf(double_pendulum_on_frames(), "dp.urdf", no_contacts, &ignored);
  ASSERT_EQ(m.num_bodies(), 2);
  ASSERT_EQ(m.num_joints(), 2);  // the welds are gone: joint1 and joint2
  EXPECT_GE(m.find_joint("joint2"), 0);
  EXPECT_LT(m.find_joint("tool_weld"), 0);
  EXPECT_LT(m.find_body("tool"), 0);
  // link2 carries its cylinder, the tool's sphere at its tip and the camera beside it (body frame: centre of mass).
  const Body& link2 = m.body(m.find_body("link2"));
  ASSERT_EQ(link2.shapes.size(), 3u);
  EXPECT_LT((link2.shapes[1].position - Vector3(0, 0, -0.5)).norm(), 1e-15);
  EXPECT_LT((link2.shapes[2].position - Vector3(0.1, 0, -0.5)).norm(), 1e-15);
  // The mount rides on the world: its collision box cannot touch anything.
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_NE(ignored[0].find("link 'mount': <collision> box is fixed in the world"), std::string::npos) << ignored[0];
  EXPECT_LT(max_position_difference(m, double_pendulum(1.0, 1.0, 0.0, 0.0), Eigen::Vector2d(1.0, -0.5), 300), 1e-9);
  // With contacts, the tool's sphere touches the ground for link2.
  const Model with_contacts = parse_urdf(double_pendulum_on_frames());
  ASSERT_EQ(with_contacts.num_contacts(), 1);
  EXPECT_EQ(with_contacts.contact(0).body, with_contacts.find_body("link2"));
}

// A mobile base written the usual way: a massless footprint at the root, the
// base welded above it. The floating joint keeps the root's name and places
// the footprint frame.
TEST(Urdf, MasslessRootTakesTheBodyWeldedBelowIt) {
  const std::string arm = rod("arm") + hinge("elbow", "base_link", "arm", "0 0 -1");
  const Model m = parse_urdf("<robot name='r'><link name='base_footprint'/>"
                             "<joint name='lift' type='fixed'><parent link='base_footprint'/><child link='base_link'/>"
                             "<origin xyz='0 0 0.3'/></joint>" + rod("base_link") + arm + "</robot>");
  const Model plain = parse_urdf("<robot name='r'>" + rod("base_link") + arm + "</robot>");
  ASSERT_EQ(m.num_bodies(), 2);
  const int root = m.find_joint("base_footprint");
  ASSERT_GE(root, 0);
  EXPECT_EQ(m.joint(root).num_coordinates(), 6);
  EXPECT_LT(m.find_joint("base_link"), 0);
  // Footprint at z = 2: the base's link frame 0.3 above it, its centre of mass 0.5 below that.
  State s = make_state(m), p = make_state(plain);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(m.num_coordinates()), qp = q;
  q(m.coordinate_offset(root) + 2) = 2.0;
  qp(plain.coordinate_offset(plain.find_joint("base_link")) + 2) = 2.3;
  q(m.coordinate_offset(m.find_joint("elbow"))) = qp(plain.coordinate_offset(plain.find_joint("elbow"))) = 0.7;
  set_joint_positions(m, s, q);
  set_joint_positions(plain, p, qp);
  EXPECT_NEAR(s.position[m.find_body("base_link")].z(), 1.8, 1e-14);
  Simulator sim(m), sim_plain(plain);
  for (int k = 0; k < 100; ++k) {
    ASSERT_TRUE(sim.step(s).ok());
    ASSERT_TRUE(sim_plain.step(p).ok());
  }
  for (int i = 0; i < 2; ++i) EXPECT_LT((s.position[i] - p.position[i]).norm(), 1e-12) << i;
}

void expect_urdf_error(const std::string& xml, const std::string& needle) {
  try {
    parse_urdf(xml, "robot.urdf");
    FAIL() << "expected an error containing '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    EXPECT_NE(what.find("robot.urdf"), std::string::npos) << what;
  }
}

// A ball and a box floating above the ground, and a limited arm.
const std::string kContacts =
    "<robot name='c'><link name='world'/>"
    "<link name='ball'><inertial><mass value='1'/><inertia ixx='0.025' iyy='0.025' izz='0.025' ixy='0' ixz='0' "
    "iyz='0'/></inertial><collision><origin xyz='0 0 0.1'/><geometry><sphere radius='0.25'/></geometry>"
    "<contact_coefficients mu='0.7'/></collision></link>"
    "<link name='crate'><inertial><mass value='1'/><inertia ixx='0.04' iyy='0.04' izz='0.04' ixy='0' ixz='0' "
    "iyz='0'/></inertial><contact_coefficients mu='0.3'/><collision><geometry><box size='0.5 0.5 0.5'/>"
    "</geometry></collision><collision><geometry><cylinder radius='0.1' length='0.2'/></geometry></collision>"
    "</link>" +
    rod("arm") +
    "<joint name='shoulder' type='revolute'><parent link='world'/><child link='arm'/><axis xyz='0 1 0'/>"
    "<limit lower='-0.5' upper='0.25' effort='1' velocity='1'/></joint>"
    "<joint name='ball_free' type='floating'><parent link='world'/><child link='ball'/></joint>"
    "<joint name='crate_free' type='floating'><parent link='world'/><child link='crate'/></joint></robot>";

TEST(Urdf, CollisionShapesBecomeGroundContacts) {
  const Model m = parse_urdf(kContacts);
  ASSERT_EQ(m.num_contacts(), 1 + 8 + 2 * (8 + 1));  // sphere, box corners, cylinder rim points and rims
  const Contact& ball = m.contact(0);
  EXPECT_EQ(ball.body, m.find_body("ball"));
  EXPECT_DOUBLE_EQ(ball.radius, 0.25);
  EXPECT_NEAR((ball.point - Vector3(0, 0, 0.1)).norm(), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(ball.friction_coefficient, 0.7);  // from the collision
  for (int c = 1; c < 9; ++c) {
    EXPECT_DOUBLE_EQ(m.contact(c).friction_coefficient, 0.3);  // from the link
    EXPECT_NEAR(m.contact(c).point.cwiseAbs().maxCoeff(), 0.25, 1e-12);
  }
  int rims = 0;
  for (int c = 9; c < m.num_contacts(); ++c) {
    const Contact& cylinder = m.contact(c);
    EXPECT_EQ(cylinder.body, m.find_body("crate"));
    EXPECT_DOUBLE_EQ(cylinder.friction_coefficient, 0.3);
    EXPECT_NEAR(std::abs(cylinder.point.z()), 0.1, 1e-12);
    if (cylinder.rim_radius > 0.0) {
      ++rims;
      EXPECT_DOUBLE_EQ(cylinder.rim_radius, 0.1);
      EXPECT_NEAR(cylinder.point.head<2>().norm(), 0.0, 1e-12);
    } else {
      EXPECT_NEAR(cylinder.point.head<2>().norm(), 0.1, 1e-12);
    }
  }
  EXPECT_EQ(rims, 2);
  UrdfOptions options;
  options.contacts.friction_coefficient = 0.9;
  options.collision_contacts = false;
  EXPECT_EQ(parse_urdf(kContacts, "c.urdf", options).num_contacts(), 0);
  // The default applies where no mu is given.
  const Model plain = parse_urdf(
      "<robot name='p'><link name='b'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' "
      "iyz='0'/></inertial><collision><geometry><sphere radius='0.1'/></geometry></collision></link></robot>",
      "p.urdf", [] {
        UrdfOptions o;
        o.contacts.friction_coefficient = 0.9;
        return o;
      }());
  ASSERT_EQ(plain.num_contacts(), 1);
  EXPECT_DOUBLE_EQ(plain.contact(0).friction_coefficient, 0.9);
}

TEST(Urdf, ElementsLeftOutOfTheModelAreListed) {
  std::vector<std::string> ignored;
  const std::string robot =
      "<robot name='r'><link name='world'/>"
      "<link name='hull'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/>"
      "</inertial><collision><geometry><mesh filename='hull.stl'/></geometry></collision>"
      "<collision><geometry><sphere radius='0.1'/></geometry></collision></link>" +
      rod("arm") +
      "<joint name='pivot' type='continuous'><parent link='world'/><child link='arm'/><axis xyz='0 1 0'/>"
      "<dynamics damping='0.1' friction='0.5'/></joint>"
      "<joint name='hull_free' type='floating'><parent link='world'/><child link='hull'/></joint></robot>";
  parse_urdf(kContacts, "c.urdf", {}, &ignored);
  EXPECT_TRUE(ignored.empty());
  const Model r = parse_urdf(robot, "r.urdf", {}, &ignored);
  EXPECT_EQ(r.num_contacts(), 1);  // the sphere's
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0], "link 'hull': <collision> mesh 'hull.stl' gets no contacts (only primitive shapes do)");
  EXPECT_EQ(r.joint(r.find_joint("pivot")).damping, 0.1);
  EXPECT_EQ(r.joint(r.find_joint("pivot")).friction, 0.5);  // Coulomb friction is modelled
  UrdfOptions no_contacts;
  no_contacts.collision_contacts = false;  // asked for: not reported
  no_contacts.joint_friction = false;
  const Model frictionless = parse_urdf(robot, "r.urdf", no_contacts, &ignored);
  EXPECT_TRUE(ignored.empty());
  EXPECT_EQ(frictionless.joint(frictionless.find_joint("pivot")).friction, 0.0);
  parse_urdf(kDoublePendulum, "dp.urdf", {}, &ignored);
  EXPECT_TRUE(ignored.empty());
}

// Zero-size geometry (a plate of thickness 0, a disc, a marker) is drawn as
// nothing and touches nothing; a negative size stays an error.
TEST(Urdf, ZeroSizeShapesAreSkipped) {
  auto plate = [](const std::string& geometry) {
    return "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' "
           "ixy='0' ixz='0' iyz='0'/></inertial><visual><geometry>" + geometry + "</geometry></visual><collision>"
           "<geometry>" + geometry + "</geometry></collision><collision><geometry><sphere radius='0.1'/></geometry>"
           "</collision></link></robot>";
  };
  std::vector<std::string> ignored;
  for (const auto& [geometry, name] : std::vector<std::pair<std::string, std::string>>{
           {"<box size='0.3 0.2 0'/>", "box"},
           {"<sphere radius='0'/>", "sphere"},
           {"<cylinder radius='0.1' length='0'/>", "cylinder"}}) {
    const Model m = parse_urdf(plate(geometry), "r.urdf", {}, &ignored);
    EXPECT_EQ(m.body(0).shapes.size(), 1u) << geometry;  // the sphere only
    EXPECT_EQ(m.num_contacts(), 1) << geometry;
    ASSERT_EQ(ignored.size(), 1u) << geometry;
    EXPECT_EQ(ignored[0], "link 'a': <collision> " + name + " has a zero size and gets no contacts");
  }
  expect_urdf_error(plate("<box size='0.3 -0.2 0.1'/>"), "link 'a': bad geometry");
}

// Limits are kept past pi when they are at most a full turn apart (the angle
// is read in the turn centred between them); a UR arm's +-2 pi are two turns
// apart, so that joint turns freely and the loader says so.
// <capsule> (Gazebo's and PyBullet's extension, which urdfdom rejects) is
// read: a capsule shape, touching the ground with the spheres at its ends.
TEST(Urdf, CapsulesAreReadAndTouchTheGroundWithTheirEnds) {
  auto rod_on_its_side = [](const std::string& capsule, const std::string& more = "") {
    return "<robot name='r'><link name='rod'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.1' izz='0.1' "
           "ixy='0' ixz='0' iyz='0'/></inertial><visual><geometry>" + capsule + "</geometry></visual>"
           "<collision><origin rpy='0 1.5707963267948966 0'/><geometry>" + capsule + "</geometry></collision>"
           "</link>" + more + "</robot>";
  };
  for (const std::string& more : {std::string(), rod("loose")}) {  // one tree, and several (urdfdom's copy)
    std::vector<std::string> ignored;
    const Model m = parse_urdf(rod_on_its_side("<capsule radius='0.05' length='0.4'/>", more), "r.urdf", {}, &ignored);
    EXPECT_TRUE(ignored.empty()) << ignored.front();
    const Body& body = m.body(m.find_body("rod"));
    ASSERT_EQ(body.shapes.size(), 2u);
    for (const Shape& shape : body.shapes) {
      EXPECT_EQ(shape.kind, Shape::Kind::Capsule);
      EXPECT_EQ(shape.size.x(), 0.05);
      EXPECT_EQ(shape.size.y(), 0.4);
    }
    ASSERT_EQ(m.num_contacts(), 2);
    for (int c = 0; c < 2; ++c) {
      EXPECT_EQ(m.contact(c).radius, 0.05);
      EXPECT_NEAR(std::abs(m.contact(c).point.x()), 0.2, 1e-15);  // the ends, along x after the pitch
      EXPECT_NEAR(m.contact(c).point.z(), 0.0, 1e-15);
    }
  }
  // Dropped from 0.3 m, it comes to rest lying on the ground: centre at its radius.
  const Model m = parse_urdf(rod_on_its_side("<capsule radius='0.05' length='0.4'/>"));
  State s = make_state(m);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(6);
  q(2) = 0.3;
  set_joint_positions(m, s, q);
  StepOptions o;
  o.dt = 0.01;
  Simulator sim(m, o);
  for (int k = 0; k < 200; ++k) ASSERT_TRUE(sim.step(s).ok()) << k;
  EXPECT_NEAR(s.position[0].z(), 0.05, 1e-6);
  EXPECT_LT(s.velocity[0].norm(), 1e-6);
  // A capsule of radius 0 is nothing; a bad size is an error naming the link.
  std::vector<std::string> ignored;
  EXPECT_EQ(parse_urdf(rod_on_its_side("<capsule radius='0' length='0.4'/>"), "r.urdf", {}, &ignored).num_contacts(),
            0);
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0], "link 'rod': <collision> capsule has a zero size and gets no contacts");
  expect_urdf_error(rod_on_its_side("<capsule radius='0.05'/>"), "link 'rod' (line 1): <capsule> needs a length");
  expect_urdf_error(rod_on_its_side("<capsule radius='-1' length='0.4'/>"),
                    "link 'rod' (line 1): <capsule> radius must be a number >= 0, got '-1'");
}

TEST(Urdf, RevoluteLimitsPastPiAndBeyondAFullTurn) {
  const auto arm = [](const std::string& lower, const std::string& upper) {
    return "<robot name='r'><link name='world'/>" + rod("arm") +
           "<joint name='pan' type='revolute'><parent link='world'/><child link='arm'/><axis xyz='0 1 0'/>"
           "<limit lower='" + lower + "' upper='" + upper + "' effort='150' velocity='3'/></joint></robot>";
  };
  std::vector<std::string> ignored;
  const Model past_pi = parse_urdf(arm("2.5", "4"), "a.urdf", {}, &ignored);
  EXPECT_TRUE(ignored.empty());
  ASSERT_EQ(past_pi.joint(0).upper.size(), 1u);
  EXPECT_EQ(past_pi.joint(0).upper[0], 4.0);
  // A UR arm's joints stop two turns apart: the angle counts whole turns,
  // so the limits are kept, and a motor turning the joint one way stops it
  // a full turn on, at 2 pi, not at the first pass of pi or of -2 pi.
  Model ur = parse_urdf(arm("-6.283185307179586", "6.283185307179586"), "ur.urdf", {}, &ignored);
  EXPECT_TRUE(ignored.empty());
  ASSERT_TRUE(ur.joint(0).has_limits());
  EXPECT_DOUBLE_EQ(ur.joint(0).upper[0], 2.0 * kPi);
  ur.gravity.setZero();
  State state = make_state(ur);
  Simulator sim(ur);
  double highest = -1.0;
  for (int k = 0; k < 400; ++k) {
    state.joint_input(0) = 2.0;
    ASSERT_TRUE(sim.step(state).ok()) << k;
    highest = std::max(highest, joint_positions(ur, state)(0));
  }
  EXPECT_GT(highest, 2.0 * kPi - 1e-3);  // it turned all the way round
  EXPECT_LE(highest, 2.0 * kPi + 1e-6);
  EXPECT_NEAR(joint_positions(ur, state)(0), 2.0 * kPi, 1e-3);  // and rests on the stop
}

TEST(Urdf, RevoluteLimitsAreKept) {
  const Model m = parse_urdf(kContacts);
  const Joint& shoulder = m.joint(m.find_joint("shoulder"));
  ASSERT_EQ(shoulder.lower.size(), 1u);
  EXPECT_DOUBLE_EQ(shoulder.lower[0], -0.5);
  EXPECT_DOUBLE_EQ(shoulder.upper[0], 0.25);
  // The arm starts at 0 and swings under gravity? It hangs straight: push it.
  State state = make_state(m);
  Simulator sim(m);
  double highest = -1.0;
  for (int k = 0; k < 100; ++k) {
    state.joint_input(m.coordinate_offset(m.find_joint("shoulder"))) = 20.0;
    ASSERT_TRUE(sim.step(state).ok()) << k;
    highest = std::max(highest, joint_positions(m, state)(m.coordinate_offset(m.find_joint("shoulder"))));
  }
  EXPECT_LE(highest, 0.25 + 1e-6);
  EXPECT_GT(highest, 0.24);
}

// A <limit> without lower and upper reads as 0 and 0: no range, so the
// joint moves freely and the loader says so, as it does for any other equal
// pair (with how to hold the joint instead); lower above upper is an error.
// URDF ranges belong to revolute and prismatic joints: a <limit> with one on
// a continuous, planar or floating joint is listed as not read.
TEST(Urdf, LimitsOnJointsWithoutARangeAreListed) {
  for (const std::string type : {"continuous", "planar", "floating"}) {
    const std::string xml = "<robot name='r'><link name='world'/>" + rod("a") + "<joint name='j' type='" + type +
                            "'><parent link='world'/><child link='a'/><axis xyz='0 0 1'/>" +
                            "<limit lower='-0.5' upper='0.5' effort='1' velocity='1'/></joint></robot>";
    std::vector<std::string> ignored;
    const Model m = parse_urdf(xml, "r.urdf", {}, &ignored);
    EXPECT_FALSE(m.joint(0).has_limits()) << type;
    ASSERT_EQ(ignored.size(), 1u) << type;
    EXPECT_EQ(ignored[0], "joint 'j': <limit> -0.5 to 0.5 is not read on a " + type +
                              " joint; the joint moves without limits");
    // Without a range (a wheel's <limit effort velocity/>) there is nothing to say.
    ignored.clear();
    parse_urdf(std::string(xml).replace(xml.find("lower='-0.5' upper='0.5' "), 25, ""), "r.urdf", {}, &ignored);
    EXPECT_TRUE(ignored.empty()) << type;
  }
}

TEST(Urdf, LimitsWithoutARange) {
  auto slider = [](const std::string& limit) {
    return "<robot name='r'><link name='world'/>" + rod("a") +
           "<joint name='s' type='prismatic'><parent link='world'/><child link='a'/><axis xyz='1 0 0'/>" + limit +
           "</joint></robot>";
  };
  std::vector<std::string> ignored;
  const Model m = parse_urdf(slider("<limit effort='1' velocity='1'/>"), "r.urdf", {}, &ignored);
  EXPECT_FALSE(m.joint(0).has_limits());
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0], "joint 's': <limit> lower = upper = 0 (what a <limit> without them reads as) is no range; "
                        "the joint moves without limits");
  ignored.clear();
  const Model held = parse_urdf(slider("<limit lower='0.3' upper='0.3' effort='1' velocity='1'/>"), "r.urdf", {},
                                &ignored);
  EXPECT_FALSE(held.joint(0).has_limits());
  ASSERT_EQ(ignored.size(), 1u);
  EXPECT_EQ(ignored[0], "joint 's': <limit> lower = upper = 0.3 (to hold the joint there, make it a fixed joint) is "
                        "no range; the joint moves without limits");
  expect_urdf_error(slider("<limit lower='0.5' upper='-0.5' effort='1' velocity='1'/>"),
                    "joint 's': <limit> lower 0.5 is not at or below upper -0.5");
}

TEST(UrdfErrors, BadFrictionCoefficient) {
  expect_urdf_error("<robot name='p'><link name='b'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' "
                    "ixz='0' iyz='0'/></inertial><collision><geometry><sphere radius='0.1'/></geometry>"
                    "<contact_coefficients mu='-2'/></collision></link></robot>",
                    "mu must be a number >= 0");
}

TEST(UrdfErrors, MalformedXmlNamesTheLine) {
  expect_urdf_error("<robot name='r'>\n<link name='a'>\n</robot>", "malformed XML at line");
}

// tinyxml called all of these "Error document empty" at line 0: binary
// data, a compressed or archived robot, UTF-16 text, no element at all.
TEST(UrdfErrors, FilesThatAreNotXmlTextSayWhatTheyAre) {
  const std::string robot = "<robot name='r'>" + rod("a") + "</robot>";
  std::string gzip = "\x1f\x8b\x08";
  gzip += '\0';
  expect_urdf_error(gzip, "robot.urdf: compressed with gzip, not URDF XML: decompress it first (gunzip -k robot.urdf)");
  expect_urdf_error("robot.urdf" + std::string(247, '\0') + "ustar" + std::string(100, '\0'),
                    "a tar archive, not URDF XML: extract the file from it first (tar xf robot.urdf)");
  std::string utf16 = "\xff\xfe";
  for (char c : robot) utf16 += std::string{c, '\0'};
  expect_urdf_error(utf16, "UTF-16 text, not URDF XML in UTF-8: convert it first (iconv -f UTF-16 -t UTF-8 robot.urdf)");
  expect_urdf_error(utf16.substr(2), "UTF-16 text");
  // A NUL byte inside the document would have cut it there, unread.
  expect_urdf_error(robot + std::string(1, '\0') + "<link name='b'/>", "binary data (a NUL byte at offset " +
                                                                            std::to_string(robot.size()) + ")");
  expect_urdf_error("", "robot.urdf: empty, expected URDF XML");
  expect_urdf_error(" \n\t\n", "robot.urdf: blank, expected URDF XML");
  expect_urdf_error("solid mesh\nfacet normal 0 0 1\n",
                    "no XML element, expected URDF XML (<robot ...>); it begins with 'solid mesh'");
  expect_urdf_error("\n  \xc0\x01 binary", "it begins with '\\xc0\\x01 binary'");
  // The same robot as plain text loads.
  EXPECT_NO_THROW(parse_urdf(robot, "robot.urdf"));
}

TEST(UrdfErrors, UnknownLinkInJoint) {
  expect_urdf_error("<robot name='r'>" + rod("a") + hinge("j", "a", "ghost", "0 0 0") + "</robot>",
                    "joint 'j': unknown child link 'ghost'");
  // A near miss names the link likely meant, in a joint and in a loop joint.
  const std::string arms = "<robot name='r'>" + rod("upper_arm") + rod("fore_arm");
  expect_urdf_error(arms + hinge("j", "upper_arm", "forearm", "0 0 0") + "</robot>",
                    "joint 'j': unknown child link 'forearm', did you mean 'fore_arm'?");
  expect_urdf_error(arms + hinge("j", "upper_arm", "fore_arm", "0 0 0") +
                        "<loop_joint name='l' type='spherical'><link1 link='upperarm'/><link2 link='fore_arm'/>"
                        "</loop_joint></robot>",
                    "loop_joint 'l': unknown link 'upperarm' in <link1>, did you mean 'upper_arm'?");
}

// urdfdom knows 'world' only when the file declares it; the error says how.
TEST(UrdfErrors, UndeclaredWorldLinkNamesTheFix) {
  const std::string fix = "(to attach to the world, declare it: <link name=\"world\"/>)";
  expect_urdf_error("<robot name='r'>" + rod("a") + hinge("j", "world", "a", "0 0 0") + "</robot>",
                    "joint 'j': unknown parent link 'world' " + fix);
  expect_urdf_error("<robot name='r'>" + rod("a") + "<loop_joint name='l' type='spherical'><link1 link='a'/>"
                    "<link2 link='world'/></loop_joint></robot>",
                    "loop_joint 'l': unknown link 'world' in <link2> " + fix);
  // Declared, the same hinge holds 'a' to the world.
  EXPECT_EQ(parse_urdf("<robot name='r'><link name='world'/>" + rod("a") + hinge("j", "world", "a", "0 0 0") +
                           "</robot>",
                       "r.urdf")
                .joint(0)
                .parent,
            kWorld);
}

// A root link floats on a joint named after it; a joint of the file that
// already has that name is an error naming the link. So is the weld of
// --fixed-base when welded links stay separate bodies (fused, the world
// carries the root and it needs no joint).
TEST(UrdfErrors, RootLinkWhoseJointNameIsTaken) {
  const std::string xml = "<robot name='r'>" + rod("base") + rod("arm") + hinge("base", "base", "arm", "0 0 0") + "</robot>";
  expect_urdf_error(xml, "link 'base' needs a floating joint to the world, but a joint has its name");
  UrdfOptions fixed;
  fixed.fixed_base = true;
  EXPECT_EQ(parse_urdf(xml, "robot.urdf", fixed).num_joints(), 1);
  fixed.fuse_welded_links = false;
  try {
    parse_urdf(xml, "robot.urdf", fixed);
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("link 'base' needs a fixed joint to the world, but a joint has its name"),
              std::string::npos)
        << e.what();
  }
}

TEST(UrdfErrors, MissingInertialOnAMovingLink) {
  expect_urdf_error("<robot name='r'><link name='world'/><link name='a'/>" + hinge("j", "world", "a", "0 0 0") + "</robot>",
                    "link 'a' has no mass (no <inertial>, or zero mass and inertia), but joint 'j' lets it move");
  // The massless cross of a universal joint written as two hinges.
  expect_urdf_error("<robot name='r'><link name='world'/><link name='cross'/>" + rod("arm") +
                   hinge("pitch", "world", "cross", "0 0 0") + hinge("roll", "cross", "arm", "0 0 0") + "</robot>",
                    "link 'cross' has no mass (no <inertial>, or zero mass and inertia), but joint 'pitch' lets it move");
}

TEST(UrdfErrors, NothingToSimulate) {
  expect_urdf_error("<robot name='r'><link name='world'/></robot>", "there is nothing to simulate");
  expect_urdf_error("<robot name='r'><link name='world'/><link name='frame'/><joint name='w' type='fixed'><parent "
                    "link='world'/><child link='frame'/></joint></robot>",
                    "there is nothing to simulate");
}

TEST(UrdfErrors, MissingMass) {
  expect_urdf_error("<robot name='r'><link name='a'><inertial><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/>"
                    "</inertial></link></robot>",
                    "urdfdom rejected the robot description: Inertial element must have a mass element; Could not parse "
                    "inertial element for Link [a]");
}

// urdfdom logs these and goes on with what it read (a zero inertia, no
// collision shape); the loader stops instead, in urdfdom's words.
TEST(UrdfErrors, PartsUrdfdomCannotReadStopTheLoad) {
  auto link = [](const std::string& inertial, const std::string& collision) {
    return "<robot name='r'><link name='a'><inertial>" + inertial + "</inertial><collision><geometry>" + collision +
           "</geometry></collision></link></robot>";
  };
  const std::string mass = "<mass value='1'/>", inertia = "<inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/>";
  const std::string sphere = "<sphere radius='0.1'/>";
  expect_urdf_error(link(mass + "<inertia ixx='1' iyy='1' izz='1'/>", sphere),
                    "inertia element missing ixy attribute; Could not parse inertial element for Link [a]");
  expect_urdf_error(link(mass, sphere), "Inertial element must have inertia element");
  expect_urdf_error(link("<origin xyz='0 1'/>" + mass + inertia, sphere), "Could not parse inertial element for Link [a]");
  expect_urdf_error(link(mass + inertia, "<box/>"), "Box shape has no size attribute; Could not parse collision element");
  expect_urdf_error(link(mass + inertia, "<sphere radius='big'/>"), "Could not parse collision element for Link [a]");
}

TEST(UrdfErrors, InertiaNotPositiveDefinite) {
  expect_urdf_error("<robot name='r'><link name='a'><inertial><mass value='1'/>"
                    "<inertia ixx='1' iyy='-1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>",
                    "link 'a': <inertia> has a negative principal moment (-1)");
}

TEST(UrdfErrors, LoopJointWithUnknownLinkOrType) {
  expect_urdf_error("<robot name='r'>" + rod("a") + "<loop_joint name='l' type='revolute'><link1 link='a'/>"
                    "<link2 link='b'/></loop_joint></robot>",
                    "loop_joint 'l': unknown link 'b'");
  expect_urdf_error("<robot name='r'>" + rod("a") + rod("b") + hinge("j", "a", "b", "0 0 -1") +
                   "<loop_joint name='l' type='gear'><link1 link='a'/><link2 link='b'/></loop_joint></robot>",
                    "type must be");
}

// A loop joint whose two links ride on one body (the same link, two links
// welded together, or both fixed in the world) joins nothing that can move.
TEST(UrdfErrors, LoopJointWithinOneBody) {
  auto weld = [](const std::string& name, const std::string& parent, const std::string& child) {
    return "<joint name='" + name + "' type='fixed'><parent link='" + parent + "'/><child link='" + child +
           "'/><origin xyz='0 0 -1'/></joint>";
  };
  auto loop = [](const std::string& link1, const std::string& link2) {
    return "<loop_joint name='l' type='spherical'><link1 link='" + link1 + "'/><link2 link='" + link2 +
           "' xyz='0 0 -1'/></loop_joint>";
  };
  const std::string links = "<robot name='r'><link name='world'/><link name='base'/>" + rod("a") + rod("b") + rod("c") +
                            weld("w", "world", "base") + hinge("j", "world", "a", "0 0 0") + weld("ab", "a", "b") +
                            hinge("k", "b", "c", "0 0 -1");
  const std::string tail = "; a loop joint must join links that can move relative to each other";
  expect_urdf_error(links + loop("c", "c") + "</robot>",
                    "loop_joint 'l': <link1> and <link2> are the same link 'c'" + tail);
  expect_urdf_error(links + loop("world", "base") + "</robot>",
                    "loop_joint 'l': links 'world' and 'base' are both fixed in the world" + tail);
  expect_urdf_error(links + loop("b", "a") + "</robot>",
                    "loop_joint 'l': links 'b' and 'a' are welded by fixed joints into one body 'a'" + tail);
  // Between a body and the world, or two bodies, it closes a loop.
  EXPECT_EQ(parse_urdf(links + loop("base", "c") + "</robot>", "robot.urdf").num_joints(), 3);
  EXPECT_EQ(parse_urdf(links + loop("a", "c") + "</robot>", "robot.urdf").num_joints(), 3);
}

TEST(UrdfErrors, JointsThatDoNotFormATree) {
  expect_urdf_error("<robot name='r'>" + rod("a") + hinge("j", "a", "a", "0 0 -1") + "</robot>",
                    "joint 'j': parent and child are the same link 'a'");
  expect_urdf_error("<robot name='r'><link name='world'/>" + rod("a") + rod("b") + hinge("j1", "world", "a", "0 0 0") +
                   hinge("j2", "b", "a", "0 0 -1") + "</robot>",
                    "joint 'j2': link 'a' is already the child of joint 'j1'");
  expect_urdf_error("<robot name='r'>" + rod("a") + rod("b") + rod("c") + hinge("j1", "a", "b", "0 0 -1") +
                   hinge("j2", "b", "c", "0 0 -1") + hinge("j3", "c", "a", "0 0 -1") + "</robot>",
                    "closes a cycle of <joint> elements");
  // A chain hanging below the cycle, whose first link sorts first: the
  // error names a joint and a link of the cycle, not of the chain.
  const std::string hanging = "<robot name='r'>" + rod("a") + rod("b") + rod("c") + rod("0d") + rod("0e") +
                              hinge("j1", "a", "b", "0 0 -1") + hinge("j2", "b", "c", "0 0 -1") +
                              hinge("j3", "c", "a", "0 0 -1") + hinge("j4", "c", "0d", "0 0 -1") +
                              hinge("j5", "0d", "0e", "0 0 -1") + "</robot>";
  try {
    parse_urdf(hanging, "robot.urdf");
    FAIL() << "a cycle with a chain below it was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("closes a cycle of <joint> elements through link '"), std::string::npos) << what;
    EXPECT_EQ(what.find("'0d'"), std::string::npos) << what;
    EXPECT_EQ(what.find("'j4'"), std::string::npos) << what;
    EXPECT_EQ(what.find("'j5'"), std::string::npos) << what;
  }
}

// A long chain with two roots (so it also goes through the second pass that
// joins the trees) loads with every link in place.
TEST(Urdf, LongChainsLoadWithEveryLink) {
  std::string xml = "<robot name='r'><link name='world'/>" + rod("l0") + hinge("j0", "world", "l0", "0 0 0");
  for (int i = 1; i < 1000; ++i)
    xml += rod("l" + std::to_string(i)) +
           hinge("j" + std::to_string(i), "l" + std::to_string(i - 1), "l" + std::to_string(i), "0 0 -1");
  xml += rod("free") + "</robot>";
  const Model model = parse_urdf(xml, "robot.urdf");
  EXPECT_EQ(model.num_bodies(), 1001);
  EXPECT_EQ(model.num_joints(), 1001);  // the free root gets a floating joint
  const int last = model.find_joint("j999");
  ASSERT_GE(last, 0);
  EXPECT_EQ(model.joint(last).parent, model.find_body("l998"));
  EXPECT_EQ(model.joint(last).child, model.find_body("l999"));
}

TEST(UrdfErrors, NegativeDamping) {
  expect_urdf_error(damped_pendulum_urdf("<dynamics damping='-1'/>"), "joint 'joint1': <dynamics damping> must be");
}

TEST(UrdfErrors, NegativeFriction) {
  expect_urdf_error(damped_pendulum_urdf("<dynamics friction='-0.5'/>"),
                    "joint 'joint1': <dynamics friction> must be a number >= 0, got -0.5");
}

TEST(UrdfErrors, BadMimicJoints) {
  expect_urdf_error(mimicking("continuous", "<mimic joint='elbow'/>"),
                    "joint 'j2' <mimic joint=\"elbow\">: no joint has that name");
  expect_urdf_error(mimicking("continuous", "<mimic joint='J1'/>"),
                    "joint 'j2' <mimic joint=\"J1\">: no joint has that name, did you mean 'j1'?");
  // A fixed joint between links with mass fuses them into one body.
  expect_urdf_error(mimicking("fixed", "<mimic joint='j1'/>"),
                    "joint 'j2' <mimic joint=\"j1\">: a fixed joint inside one body cannot follow");
  // A fixed joint welding a massless frame to its body is not in the model.
  expect_urdf_error("<robot name='r'><link name='world'/>" + rod("a") + "<link name='tool'/>" +
                   hinge("j1", "world", "a", "0 0 0") +
                   "<joint name='weld' type='fixed'><parent link='a'/><child link='tool'/></joint>" + rod("b") +
                   "<joint name='j2' type='continuous'><parent link='a'/><child link='b'/><origin xyz='0 0 -1'/>"
                   "<axis xyz='0 1 0'/><mimic joint='weld'/></joint></robot>",
                    "<mimic joint=\"weld\">: a fixed joint inside one body cannot lead");
  expect_urdf_error("<robot name='r'><link name='world'/>" + rod("a") + "<link name='tool'/>" +
                   hinge("j1", "world", "a", "0 0 0") +
                   "<joint name='weld' type='fixed'><parent link='a'/><child link='tool'/>"
                   "<mimic joint='j1'/></joint></robot>",
                    "joint 'weld' <mimic joint=\"j1\">: a fixed joint inside one body cannot follow");
  // Two joints mimicking each other: neither could be set.
  expect_urdf_error("<robot name='r'><link name='world'/>" + rod("a") + rod("b") +
                        "<joint name='j1' type='continuous'><parent link='world'/><child link='a'/>"
                        "<axis xyz='0 1 0'/><mimic joint='j2' multiplier='2'/></joint>"
                        "<joint name='j2' type='continuous'><parent link='a'/><child link='b'/>"
                        "<origin xyz='0 0 -1'/><axis xyz='0 1 0'/><mimic joint='j1' multiplier='0.5'/></joint></robot>",
                    "closes a cycle of couplings (");
}

// The loader borrows console_bridge's process-wide handler and log level while
// urdfdom parses, and gives both handler slots and the level back, whether the
// file loads or not; urdfdom's errors reach the exception even when the
// program has silenced console_bridge, and not its handler.
TEST(UrdfErrors, UrdfdomErrorsReachTheExceptionAndTheLogHandlerIsGivenBack) {
  struct Recorder : console_bridge::OutputHandler {
    std::vector<std::string> lines;
    void log(const std::string& text, console_bridge::LogLevel, const char*, int) override { lines.push_back(text); }
  } earlier, current;
  console_bridge::OutputHandler* const original = console_bridge::getOutputHandler();
  const console_bridge::LogLevel original_level = console_bridge::getLogLevel();
  console_bridge::useOutputHandler(&earlier);
  console_bridge::useOutputHandler(&current);
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  EXPECT_EQ(parse_urdf(kDoublePendulum).num_bodies(), 2);
  expect_urdf_error("<robot name='r'><link name='a'><inertial><mass value='1'/></inertial></link></robot>",
                    "Inertial element must have inertia element");
  EXPECT_EQ(console_bridge::getOutputHandler(), &current);
  EXPECT_EQ(console_bridge::getLogLevel(), console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  console_bridge::restorePreviousOutputHandler();
  EXPECT_EQ(console_bridge::getOutputHandler(), &earlier);
  EXPECT_TRUE(earlier.lines.empty());
  EXPECT_TRUE(current.lines.empty());
  console_bridge::useOutputHandler(original);
  console_bridge::setLogLevel(original_level);
}

TEST(UrdfErrors, NotARobot) { expect_urdf_error("<model/>", "root element must be <robot>"); }

// A file that cannot be opened says why; a directory is named as one (it
// opens as a stream that reads nothing, which parsed as an empty file).
TEST(UrdfErrors, MissingFileOrDirectory) {
  const auto message_of = [](const std::string& path) -> std::string {
    try {
      load_urdf(path);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  const std::string missing = message_of("/nonexistent/robot.urdf");
  EXPECT_NE(missing.find("/nonexistent/robot.urdf: cannot open the file: No such file or directory"), std::string::npos)
      << missing;
  const std::string directory = std::filesystem::temp_directory_path().string();
  const std::string message = message_of(directory);
  EXPECT_NE(message.find(directory + ": is a directory, not a URDF file"), std::string::npos) << message;
}

}  // namespace
}  // namespace dynamics
