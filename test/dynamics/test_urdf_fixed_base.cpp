// Root links welded to the world: every root with UrdfOptions::fixed_base,
// a root marked static by zero mass with an inertia (PyBullet's reading), and
// a massless root that nothing with mass is welded to (it cannot float).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "urdf_text.hpp"

namespace dynamics {
namespace {

using test::hinge;
using test::rod;

// An arm hinged 1 m below the frame of its base link, and a loose crate.
std::string arm_on_base(const std::string& base, const std::string& extra = "") {
  return "<robot name='r'>" + extra + base + rod("arm") + rod("crate") + hinge("shoulder", "base", "arm", "0 0 -1") +
         "</robot>";
}

// The reference for a base welded to the world: a world link and fixed joints.
std::string welded_to_world(const std::vector<std::string>& links) {
  std::string xml = "<link name='world'/>";
  for (const std::string& link : links)
    xml += "<joint name='weld_" + link + "' type='fixed'><parent link='world'/><child link='" + link + "'/></joint>";
  return xml;
}

// Largest distance between the bodies of two models with the same bodies,
// from the same shoulder angle (the rest as loaded), over `steps` steps.
double largest_gap(const Model& a, const Model& b, int steps) {
  State sa = make_state(a), sb = make_state(b);
  for (auto [model, state] : {std::pair(&a, &sa), std::pair(&b, &sb)}) {
    Eigen::VectorXd q = joint_positions(*model, *state);
    q(model->coordinate_offset(model->find_joint("shoulder"))) = 0.8;
    set_joint_positions(*model, *state, q);
  }
  Simulator sim_a(a), sim_b(b);
  double worst = 0.0;
  for (int k = 0; k < steps; ++k) {
    EXPECT_TRUE(sim_a.step(sa).ok());
    EXPECT_TRUE(sim_b.step(sb).ok());
    for (int i = 0; i < a.num_bodies(); ++i) {
      EXPECT_EQ(a.body(i).name, b.body(i).name);
      worst = std::max(worst, (sa.position[i] - sb.position[i]).norm());
    }
  }
  return worst;
}

TEST(UrdfFixedBase, EveryRootLinkIsWeldedToTheWorldAtTheOrigin) {
  for (const bool fuse : {true, false}) {
    UrdfOptions fixed, plain;
    fixed.fixed_base = true;
    fixed.fuse_welded_links = plain.fuse_welded_links = fuse;
    std::vector<std::string> warnings;
    const Model m = parse_urdf(arm_on_base(rod("base")), "r.urdf", fixed, &warnings);
    const Model welded = parse_urdf(arm_on_base(rod("base"), welded_to_world({"base", "crate"})), "r.urdf", plain);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ(m.num_coordinates(), 1) << fuse;  // the shoulder only: nothing floats
    EXPECT_EQ(m.num_bodies(), fuse ? 1 : 3);
    if (!fuse) {  // base and crate stay bodies, held by fixed joints named after them
      for (const char* root : {"base", "crate"}) {
        const int j = m.find_joint(root);
        ASSERT_GE(j, 0) << root;
        EXPECT_EQ(m.joint(j).parent, kWorld);
        EXPECT_EQ(m.joint(j).num_constraints(), 6);
      }
    }
    // The base link frame is the world origin: at rest the arm hangs from (0, 0, -1).
    State s = make_state(m);
    EXPECT_LT((s.position[m.find_body("arm")] - Vector3(0, 0, -1.5)).norm(), 1e-14);
    EXPECT_LT(largest_gap(m, welded, 200), fuse ? 1e-12 : 1e-9);
  }
}

// PyBullet's KUKA iiwa marks its base static with <mass value="0"/> and a
// nonzero inertia: the root joins the world, and the loader says so.
TEST(UrdfFixedBase, ZeroMassWithAnInertiaMarksARootStatic) {
  const std::string marked =
      "<link name='base'><inertial><mass value='0'/><inertia ixx='0.05' iyy='0.06' izz='0.03' ixy='0' ixz='0' "
      "iyz='0'/></inertial></link>";
  std::vector<std::string> warnings;
  const Model m = parse_urdf(arm_on_base(marked), "r.urdf", {}, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "link 'base': mass 0 with an inertia marks a static base (PyBullet's reading): the root is "
                         "welded to the world at its origin; give it mass to let it float");
  EXPECT_LT(m.find_joint("base"), 0);
  EXPECT_EQ(m.joint(m.find_joint("crate")).num_coordinates(), 6);  // the crate's mass lets it float
  const Model reference = parse_urdf(arm_on_base(rod("base"), welded_to_world({"base"})));
  EXPECT_LT(largest_gap(m, reference, 100), 1e-12);
  // On any other link, zero mass with an inertia is a mistake.
  try {
    parse_urdf(arm_on_base(rod("base"), "<link name='tip'><inertial><mass value='0'/><inertia ixx='1' iyy='1' "
                                        "izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link>" +
                                            hinge("wrist", "arm", "tip", "0 0 -1")),
               "r.urdf");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("r.urdf: link 'tip': mass must be positive, got 0 (mass 0 with an inertia "
                                         "marks a static base on a root link only)"),
              std::string::npos)
        << e.what();
  }
}

// A root with no mass and nothing of mass welded below it cannot float; it is
// welded to the world, with a warning. One with mass welded below floats as
// before (MasslessRootTakesTheBodyWeldedBelowIt in test_urdf.cpp).
TEST(UrdfFixedBase, MasslessRootWithNothingOfMassWeldedToItIsWelded) {
  std::vector<std::string> warnings;
  const Model m = parse_urdf(arm_on_base("<link name='base'/>"), "r.urdf", {}, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "link 'base' has no mass (no <inertial>, or zero mass and inertia) and no link with mass "
                         "is welded to it, so it cannot float: it is welded to the world at its origin");
  const Model reference = parse_urdf(arm_on_base("<link name='base'/>", welded_to_world({"base"})));
  EXPECT_LT(largest_gap(m, reference, 100), 1e-12);
  // A file of frames only still has nothing to simulate.
  EXPECT_THROW(parse_urdf("<robot name='r'><link name='frame'/></robot>"), std::invalid_argument);
}

}  // namespace
}  // namespace dynamics
