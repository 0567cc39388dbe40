// Uniform mass scaling: multiplying every mass and inertia of a mechanism by
// the same factor scales its weights, joint impulses and contact impulses by
// that factor and leaves its motion unchanged. The solver measures momenta,
// complementarity and the joint regularization against the mechanism's mass
// scale, so a milligram or a kilotonne mechanism must move like the kilogram
// one, in the same number of Newton iterations. Against absolute constants a
// 1 mg pendulum stalled in its first step, a 1 mg four-bar failed its
// velocity projection, a 1e9 kg pendulum could not reach the tolerance for
// round-off, and a 1 mg box came to rest 1e-5 m above the ground.
#include <gtest/gtest.h>

#include <functional>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "position_difference.hpp"

namespace dynamics {
namespace {

struct Outcome {
  std::vector<Vector3> positions;  // every body's at the end
  long iterations = 0;
};

Outcome simulate_scaled(const Model& model, int steps, const std::string& label) {
  State state = make_state(model);
  Simulator sim(model);
  Outcome run;
  for (int k = 0; k < steps; ++k) {
    const StepResult result = sim.step(state);
    EXPECT_TRUE(result.ok()) << label << " step " << k << ": " << to_string(result.status) << ", residual "
                             << result.residual << ", constraint residual " << result.constraint_residual;
    if (!result.ok()) break;
    run.iterations += result.iterations;
  }
  run.positions = state.position;
  return run;
}

double largest_difference(const Outcome& a, const Outcome& b) {
  return test::largest_position_difference(a.positions, b.positions);
}

struct Family {
  std::string name;
  std::function<Model(double mass)> build;
};

TEST(MassScale, ChainsAndLoopsMoveAlikeFromMilligramsToGigagrams) {
  const std::vector<Family> families = {
      {"pendulum", [](double m) { return pendulum(1.0, m); }},
      {"5-link pendulum", [](double m) { return n_link_pendulum(5, ChainJoint::Revolute, 1.0, m); }},
      {"spherical 5-link pendulum", [](double m) { return n_link_pendulum(5, ChainJoint::Spherical, 1.0, m); }},
      {"four-bar", [](double m) { return four_bar(1.0, m); }},
      {"3-segment four-link chain", [](double m) { return four_link_chain(3, 1.0, m); }},
  };
  for (const Family& family : families) {
    const Outcome reference = simulate_scaled(family.build(1.0), 100, family.name + " at 1 kg");
    for (const double mass : {1e-9, 1e-6, 1e-3, 1e3, 1e6, 1e9}) {
      const std::string label = family.name + " at " + std::to_string(mass) + " kg";
      const Outcome run = simulate_scaled(family.build(mass), 100, label);
      ASSERT_EQ(run.positions.size(), reference.positions.size());
      // The same motion to the solver's tolerance.
      EXPECT_LT(largest_difference(run, reference), 1e-9) << label;
      // And the same work: within 2 % of the kilogram mechanism's iterations.
      EXPECT_LE(std::abs(run.iterations - reference.iterations), 0.02 * reference.iterations) << label;
    }
  }
}

// A box dropped on the ground comes to rest at the same depth (the contact
// regularization's sink) whatever its mass, with linearized and cone friction.
TEST(MassScale, BoxesRestOnTheGroundAlikeFromMilligramsToKilotonnes) {
  for (const FrictionModel friction : {FrictionModel::None, FrictionModel::Linearized, FrictionModel::Cone}) {
    const FrictionSpec spec{friction, 0.5, 4};
    const Outcome reference = simulate_scaled(box_drop(0.5, 1.0, 0.4, spec), 200, "1 kg box");
    for (const double mass : {1e-6, 1e-3, 1e3, 1e6}) {
      const std::string label = std::to_string(mass) + " kg box, friction " + std::to_string(static_cast<int>(friction));
      const Outcome run = simulate_scaled(box_drop(0.5, mass, 0.4, spec), 200, label);
      ASSERT_EQ(run.positions.size(), 1u);
      EXPECT_LT(largest_difference(run, reference), 1e-9) << label;
    }
  }
}

// A pendulum of one link per mass hanging from the world on hinges about y,
// 1 m apart (inertia 0.1 m about x and y, 0.01 m about z, centres 0.5 m below
// the joints), written as URDF.
Model hinged_chain(const std::vector<double>& masses) {
  const auto number = [](double value) {
    std::ostringstream text;
    text << std::setprecision(17) << value;
    return text.str();
  };
  std::string xml = "<robot name='chain'><link name='world'/>";
  std::string parent = "world";
  for (size_t i = 0; i < masses.size(); ++i) {
    const std::string link = "l" + std::to_string(i), m = number(masses[i]), inertia = number(0.1 * masses[i]),
                      spin = number(0.01 * masses[i]);
    xml += "<link name='" + link + "'><inertial><origin xyz='0 0 -0.5'/><mass value='" + m + "'/><inertia ixx='" +
           inertia + "' iyy='" + inertia + "' izz='" + spin + "' ixy='0' ixz='0' iyz='0'/></inertial></link>";
    xml += "<joint name='j" + std::to_string(i) + "' type='continuous'><parent link='" + parent + "'/><child link='" +
           link + "'/><origin xyz='0 0 " + (i == 0 ? "0" : "-1") + "'/><axis xyz='0 1 0'/></joint>";
    parent = link;
  }
  return parse_urdf(xml + "</robot>");
}

// A heavy body among light ones: the mass scale (the geometric mean) puts the
// momentum tolerance by the light links, 1e-10 * 0.03 kg = 3e-12 N s for a
// 1000 t pendulum with five 1 g links, while the heavy body's weight per
// step (2e4 N s at dt 0.002 s) carries 4e-12 N s in one unit in its last place.
// The steps accept that round-off instead of failing on it (they failed
// within 25 steps at 1000 t, within 5 at 10 000 t), and the heavy link swings
// as it would alone: its tail moves it by far less than the tolerance.
TEST(MassScale, HeavyBodyAmongLightOnesConvergesToItsRoundoff) {
  for (const auto& [heavy, light] : {std::pair{1e6, 1e-3}, std::pair{1e7, 3e-4}}) {
    const std::string label = std::to_string(heavy) + " kg with " + std::to_string(light) + " kg links";
    const Model chain = hinged_chain({heavy, light, light, light, light, light});
    const Model alone = hinged_chain({heavy});
    State s = make_state(chain), t = make_state(alone);
    set_joint_positions(chain, s, Eigen::VectorXd::Unit(chain.num_coordinates(), 0));
    set_joint_positions(alone, t, Eigen::VectorXd::Ones(1));
    StepOptions options;
    options.dt = 0.002;
    Simulator sim(chain, options), reference(alone, options);
    long iterations = 0;
    for (int k = 0; k < 100; ++k) {
      const StepResult r = sim.step(s);
      ASSERT_TRUE(r.ok()) << label << " step " << k << ": " << to_string(r.status) << ", residual " << r.residual;
      ASSERT_TRUE(reference.step(t).ok());
      iterations += r.iterations;
    }
    EXPECT_LE(iterations, 5 * 100) << label;
    EXPECT_LT((s.position[0] - t.position[0]).norm(), 1e-9) << label;
    EXPECT_LE(constraint_violation(chain, s), 1e-10) << label;
  }
}

// Masses whose momenta the step's merit cannot square in doubles are refused
// with the body's name, where a first step read as diverged and hinted at the
// step size; the limits themselves still simulate.
TEST(MassScale, MassesBeyondTheDoubleRangeOfTheStepAreRejected) {
  for (const double mass : {1e151, 1e-151, 1e200, 1e-200}) {
    try {
      const Model model = pendulum(1.0, mass);
      Simulator sim(model);
      FAIL() << "a pendulum of " << mass << " kg was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("body 'link1': mass"), std::string::npos) << what;
      EXPECT_NE(what.find("is outside [1e-150, 1e+150] kg"), std::string::npos) << what;
    }
  }
  // One heavy body among ordinary ones is named.
  const Model chain = hinged_chain({1.0, 1e160, 1.0});
  try {
    Simulator sim(chain);
    FAIL() << "a 1e160 kg link was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("body '" + chain.body(1).name + "': mass 1e+160 kg"), std::string::npos)
        << e.what();
  }
  for (const double mass : {1e150, 1e-150}) {
    const Model model = pendulum(1.0, mass);
    State state = make_state(model);
    set_joint_positions(model, state, Eigen::VectorXd::Constant(1, 0.5));
    Simulator sim(model);
    for (int k = 0; k < 20; ++k) {
      const StepResult r = sim.step(state);
      ASSERT_TRUE(r.ok()) << mass << " kg, step " << k << ": " << to_string(r.status);
    }
    EXPECT_LE(constraint_violation(model, state), 1e-10) << mass << " kg";
  }
}

// The projections weigh bodies by their masses over the mass scale: they (and
// make_state, which projects) refuse the masses the simulator refuses, naming
// the body and themselves. (A 1e-300 kg base beside a 1 kg link failed the
// velocity projection as a singular pivot at the hinge, which the command line
// reported, since it projects first.)
TEST(MassScale, ProjectionsRejectTheMassesTheSimulatorRejects) {
  const Model chain = hinged_chain({1e-300, 1.0});
  const std::string body = "body '" + chain.body(0).name + "': mass 1e-300 kg is outside [1e-150, 1e+150] kg";
  const auto expect_refused = [&](const char* who, const std::function<void(State&)>& project) {
    State state = make_state(hinged_chain({1.0, 1.0}));  // the same sizes
    try {
      project(state);
      ADD_FAILURE() << who << " accepted a 1e-300 kg body";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(std::string(who) + ": " + body, 0), 0u) << what;
    }
  };
  expect_refused("dynamics::project_positions", [&](State& s) { project_positions(chain, s); });
  expect_refused("dynamics::project_velocities", [&](State& s) { project_velocities(chain, s); });
  expect_refused("dynamics::make_state", [&](State& s) { s = make_state(chain); });
  // Chains at the limits themselves still project.
  for (const double light : {1e-150, 1e150}) {
    const Model edge = hinged_chain({light, light});
    State state = make_state(edge);
    state.position[1] += Vector3(0.01, 0.0, 0.0);
    state.velocity[1] = Vector3(0.0, 0.3, 0.0);
    EXPECT_TRUE(project_positions(edge, state).converged) << light;
    project_velocities(edge, state);
    EXPECT_LE(constraint_violation(edge, state), 1e-10) << light;
    EXPECT_LT(std::abs(state.velocity[1].y()), 1e-9) << light << " kg: the hinges about y allow no y velocity";
  }
}

}  // namespace
}  // namespace dynamics
