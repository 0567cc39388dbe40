// Bodies far lighter than the bodies they carry between them
// (dynamics/light_links.hpp), the simulate command's warning of them
// (dynamics/tools/light_links.hpp), and the measurements behind both.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "light_links.hpp"

namespace dynamics {
namespace {

// Two 1 m links hinged about y, the upper one on the world: masses `upper`
// and `lower` kg, moments 0.1 and 0.01 times the mass.
Model double_hinge(double upper, double lower) {
  Model model;
  for (const auto& [name, mass] : {std::pair{"upper", upper}, std::pair{"lower", lower}}) {
    Body body;
    body.name = name;
    body.mass = mass;
    body.inertia = Eigen::Vector3d(0.1 * mass, 0.1 * mass, 0.01 * mass).asDiagonal();
    body.position = Vector3(0.0, 0.0, std::string(name) == "upper" ? -0.5 : -1.5);
    model.add_body(body);
  }
  for (int j = 0; j < 2; ++j) {
    Joint hinge = Joint::make(JointType::Revolute, j == 0 ? "shoulder" : "elbow", j == 0 ? kWorld : 0, j,
                              Vector3::UnitY());
    hinge.parent_frame.position = Vector3(0.0, 0.0, j == 0 ? 0.0 : -0.5);
    hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);
    model.add_joint(hinge);
  }
  return model;
}

// A light body between the world and a heavy link carries the heavy one; a
// light end link carries nothing.
TEST(LightLinks, BodiesCarryingHeavyOnesAreReported) {
  EXPECT_TRUE(light_links(double_hinge(1.0, 1.0)).empty());
  EXPECT_TRUE(light_links(double_hinge(1e-9, 1.0)).empty());
  // Uniformly light is what the mass scale absorbs.
  EXPECT_TRUE(light_links(double_hinge(1e-12, 1e-12)).empty());
  EXPECT_TRUE(light_links(double_hinge(1.0, 1e-12)).empty());  // an end link
  const std::vector<LightLink> links = light_links(double_hinge(1e-12, 1.0));
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].body, 0);
  EXPECT_EQ(links[0].neighbour, 1);
  EXPECT_EQ(links[0].joint, 1);
  EXPECT_DOUBLE_EQ(links[0].ratio, 1e-12);
  EXPECT_EQ(light_links(double_hinge(1e-9, 1.0), 1e-8).size(), 1u);
  for (const double below : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity()})
    EXPECT_THROW(light_links(double_hinge(1.0, 1.0), below), std::invalid_argument) << below;
}

// A body between two heavy ones is reported against the heavier; a joint
// without rows (floating) carries no load and does not count.
TEST(LightLinks, TheHeaviestNeighbourAndOnlyJointsWithRowsCount) {
  Model model = double_hinge(1e-12, 1.0);
  Body top;
  top.name = "top";
  top.mass = 5.0;
  const int t = model.add_body(top);
  model.add_joint(Joint::make(JointType::Spherical, "wrist", 0, t));
  const std::vector<LightLink> links = light_links(model);
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].neighbour, t);
  EXPECT_EQ(links[0].joint, 2);
  Model loose = double_hinge(1.0, 1e-12);
  Body heavy;
  heavy.name = "heavy";
  const int h = loose.add_body(heavy);
  loose.add_joint(Joint::make(JointType::Floating, "free", 1, h));
  EXPECT_TRUE(light_links(loose).empty());
}

TEST(LightLinks, TheCommandLineNamesBothBodiesTheJointAndTheRemedy) {
  const Model end_link = double_hinge(1.0, 1e-12), carrying = double_hinge(1e-12, 1.0);
  EXPECT_TRUE(cli::light_link_warnings(end_link, light_links(end_link)).empty());
  const auto lines = cli::light_link_warnings(carrying, light_links(carrying));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("body 'upper' (1e-12 kg) is 1e-12 times as heavy as body 'lower' (1 kg), "
                          "jointed to it by 'elbow'"),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("--bound-mass"), std::string::npos) << lines[0];
}

// The ratio's measurement (docs/dynamics.md, "Light links between heavy
// ones"): released from 0.5 rad, a light upper link at 1e-11 still runs a
// second of steps, at 1e-12 it failed within it (1e-13 here, a margin for
// other compilers' round-off). A light end link runs at 1e-14 (measured: to
// 1e-16). Were the solver to resolve lighter links, or to fail on light end
// links, the report would be wrong.
TEST(LightLinks, TheReportedRatioIsWhereStepsBeginToFail) {
  const auto steps_run = [](const Model& model) {
    State state = make_state(model);
    set_joint_positions(model, state, Eigen::Vector2d(0.5, 0.0));
    Simulator sim(model);
    for (int k = 0; k < 100; ++k)
      if (!sim.step(state).ok()) return k;
    return 100;
  };
  EXPECT_EQ(steps_run(double_hinge(1e-11, 1.0)), 100);
  EXPECT_LT(steps_run(double_hinge(1e-13, 1.0)), 100);
  EXPECT_EQ(steps_run(double_hinge(1.0, 1e-14)), 100);
  EXPECT_GT(kLightLinkRatio, 1e-11);
}

}  // namespace
}  // namespace dynamics
