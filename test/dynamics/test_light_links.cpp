// The simulate command's warning about a body far lighter than one jointed to
// it (dynamics/tools/light_links.hpp), and the measurement behind its ratio.
#include <gtest/gtest.h>

#include <string>
#include <utility>

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

TEST(LightLinks, BodiesFarLighterThanTheirNeighboursAreNamed) {
  EXPECT_TRUE(cli::light_link_warnings(double_hinge(1.0, 1.0)).empty());
  EXPECT_TRUE(cli::light_link_warnings(double_hinge(1e-9, 1.0)).empty());
  // Uniformly light is what the mass scale absorbs: no warning.
  EXPECT_TRUE(cli::light_link_warnings(double_hinge(1e-12, 1e-12)).empty());
  for (const bool upper_light : {true, false}) {
    const auto lines = cli::light_link_warnings(upper_light ? double_hinge(1e-12, 1.0) : double_hinge(1.0, 1e-12));
    ASSERT_EQ(lines.size(), 1u);
    const std::string light = upper_light ? "upper" : "lower", heavy = upper_light ? "lower" : "upper";
    EXPECT_NE(lines[0].find("body '" + light + "' (1e-12 kg) is 1e-12 times as heavy as body '" + heavy + "'"),
              std::string::npos)
        << lines[0];
    EXPECT_NE(lines[0].find("jointed to it by 'elbow'"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("--bound-mass"), std::string::npos) << lines[0];
  }
}

// The ratio's measurement (docs/dynamics.md, "Light links between heavy
// ones"): released from 0.5 rad, 1e-11 still runs a second of steps, 1e-12
// failed within it (1e-13 here, a margin for other compilers' round-off).
// Were the solver to resolve lighter links, the warning would be stale.
TEST(LightLinks, TheWarnedRatioIsWhereStepsBeginToFail) {
  const auto steps_run = [](double upper) {
    const Model model = double_hinge(upper, 1.0);
    State state = make_state(model);
    set_joint_positions(model, state, Eigen::Vector2d(0.5, 0.0));
    Simulator sim(model);
    for (int k = 0; k < 100; ++k)
      if (!sim.step(state).ok()) return k;
    return 100;
  };
  EXPECT_EQ(steps_run(1e-11), 100);
  EXPECT_LT(steps_run(1e-13), 100);
  EXPECT_GT(cli::kLightLinkRatio, 1e-11);
}

}  // namespace
}  // namespace dynamics
