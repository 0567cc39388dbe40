// Simulator::load_frequency: the rate at which joint loads make a mechanism
// swing, against analytic small-oscillation rates, the measured swing of a
// loop, and the step size at which a hanging chain's zigzag starts to grow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "dynamics/dynamics.hpp"
#include "gravity.hpp"
#include "load_frequency.hpp"
#include "period.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::with_dt;

using test::kG;

// The load frequency after one step from the model's initial state.
LoadFrequency after_one_step(const Model& model, double dt = 0.01) {
  Simulator sim(model, with_dt(dt));
  State s = make_state(model);
  EXPECT_TRUE(sim.step(s).ok());
  return sim.load_frequency(s);
}

TEST(LoadFrequency, HangingPendulumSwingsAtItsSmallAmplitudeRate) {
  // A uniform rod on its end: omega^2 = m g (l/2) / (m l^2 / 3).
  const double length = 1.3;
  const double rate = std::sqrt(1.5 * kG / length);
  for (const Model& model : {pendulum(length, 0.7, 0.0), n_link_pendulum(1, ChainJoint::Spherical, length, 0.7, 0.0)}) {
    const LoadFrequency f = after_one_step(model);
    EXPECT_NEAR(f.rate, rate, 1e-6 * rate);
    EXPECT_DOUBLE_EQ(f.step_limit, 2.0 / f.rate);
    EXPECT_EQ(f.body, 0);
    EXPECT_EQ(f.spring_share, 0.0);  // no springs: the joint load's lever alone
    EXPECT_EQ(f.spring_joint, -1);
  }
}

// The estimate's saddle-point solves are equilibrated for bodies far from
// metre size (equilibration.hpp): a 1 um and a 10 km pendulum swing at their
// analytic rates too, 3836 and 0.038 rad/s.
TEST(LoadFrequency, MicrometreAndKilometrePendulumsSwingAtTheirRates) {
  for (const double length : {1e-6, 1e4}) {
    const double rate = std::sqrt(1.5 * kG / length);
    const LoadFrequency f = after_one_step(pendulum(length, 1e-3, 0.0), 1e-5);
    EXPECT_NEAR(f.rate, rate, 1e-6 * rate) << "length " << length;
  }
}

TEST(LoadFrequency, DoublePendulumHasTheCompoundPendulumsFastMode) {
  // Absolute link angles a, b of two uniform rods (l, m) hanging at rest:
  // M = m l^2 [4/3 1/2; 1/2 1/3], K = m g l diag(3/2, 1/2); det(K - w^2 M) = 0.
  const double length = 0.8, mass = 1.5;
  const double m11 = 4.0 / 3.0, m12 = 0.5, m22 = 1.0 / 3.0;
  const double k1 = 1.5 * kG / length, k2 = 0.5 * kG / length;
  const double a = m11 * m22 - m12 * m12, b = -(k1 * m22 + k2 * m11), c = k1 * k2;
  const double fast = std::sqrt((-b + std::sqrt(b * b - 4.0 * a * c)) / (2.0 * a));
  const LoadFrequency f = after_one_step(double_pendulum(length, mass, 0.0, 0.0));
  EXPECT_NEAR(f.rate, fast, 1e-6 * fast);
  EXPECT_EQ(f.body, 1);  // the lower link swings most in the fast mode
}

TEST(LoadFrequency, FourBarLoopMatchesItsMeasuredSwing) {
  // A loop (cycle in the graph, one degree of freedom): the rate of the
  // loaded linkage at rest is that of its small swing.
  const LoadFrequency f = after_one_step(four_bar(1.0, 1.0, 0.0));
  Model swinging = four_bar(1.0, 1.0, 0.02);
  State s = make_state(swinging);
  const double period = test::measured_period(swinging, s, 1e-3, 20000);
  ASSERT_TRUE(std::isfinite(period));
  const double measured = 2.0 * M_PI / period;
  EXPECT_NEAR(f.rate, measured, 1e-3 * measured);
}

// A four-bar of links L long (mass L) swings sqrt(L) times faster than the
// 1 m one. Below about 20 cm its redundant rows fail the pivot test at the
// default regularization, which the estimate grows as the steps do; before,
// it threw and the sub-step schedule went without a limit. From 0.1 mm down
// they pass only with every row's regularization at least its value relative
// to the row (the equilibrated solves).
TEST(LoadFrequency, SmallLoopsSwingFasterBySqrtOfTheirSize) {
  const double reference = after_one_step(four_bar(1.0, 1.0, 0.0)).rate;
  for (const double length : {0.1, 0.01, 1e-3, 1e-4, 1e-5}) {
    const LoadFrequency f = after_one_step(four_bar(length, length, 0.0), 0.01 * std::sqrt(length));
    EXPECT_NEAR(f.rate * std::sqrt(length), reference, 1e-4 * reference) << "length " << length;
  }
}

// Largest angular rate of any link over `steps` steps of a 20-link chain
// hanging at rest with its links zigzagging by 1e-6 rad; +inf if a step fails.
double zigzag_growth(double dt, int steps) {
  const Model model = n_link_pendulum(20, ChainJoint::Revolute, 1.0, 1.0, 0.0);
  State s = make_state(model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.num_coordinates());
  for (int i = 0; i < q.size(); ++i) q(i) = (i == 0 ? 1.0 : (i % 2 ? -2.0 : 2.0)) * 1e-6;
  set_joint_positions(model, s, q);
  Simulator sim(model, with_dt(dt));
  double fastest = 0.0;
  for (int k = 0; k < steps; ++k) {
    if (!sim.step(s).ok()) return std::numeric_limits<double>::infinity();
    for (const Vector3& w : s.angular_velocity) fastest = std::max(fastest, w.norm());
  }
  return fastest;
}

TEST(LoadFrequency, HangingChainsZigzagGrowsJustAboveTheStepLimit) {
  // The tension of 20 links hanging at rest bounds dt near 0.048 s (about
  // 2 / sqrt(12 n g / l), the zigzag rate of the top link). The step
  // equations take the joint forces at the start of the step, so the zigzag
  // stays at the size of its start below the limit and grows above it.
  const LoadFrequency f = after_one_step(n_link_pendulum(20, ChainJoint::Revolute, 1.0, 1.0, 0.0));
  const double top_link = 2.0 / std::sqrt(12.0 * 19.5 * kG);
  EXPECT_GT(f.step_limit, top_link);  // the fixed top pivot stiffens the top link's zigzag
  EXPECT_LT(f.step_limit, 1.2 * top_link);
  EXPECT_LT(zigzag_growth(0.97 * f.step_limit, 400), 1e-2);
  EXPECT_GT(zigzag_growth(1.03 * f.step_limit, 400), 0.1);
}

// A rod (length l, mass m) on a revolute joint about y at its top end, with a
// spring of stiffness k (rest 0), a damper and gravity g along -z, starting at `angle`.
Model sprung_pendulum(double l, double m, double k, double g, double angle = 0.0, double damping = 0.0) {
  Model model;
  const int b = model.add_body(make_link("link", l, m));
  Joint j = Joint::make(JointType::Revolute, "joint", kWorld, b, Vector3::UnitY());
  j.child_frame.position = Vector3(0.0, 0.0, 0.5 * l);
  j.stiffness = k;
  j.damping = damping;
  j.initial_position = {angle};
  model.add_joint(j);
  model.gravity = Vector3(0.0, 0.0, -g);
  return model;
}

TEST(LoadFrequency, SpringsAddTheirStiffness) {
  // Springs are read at the start of the step too: omega^2 = (k + m g l/2) / (m l^2/3).
  const double l = 1.2, m = 0.8, k = 50.0, inertia = m * l * l / 3.0;
  for (const double g : {0.0, kG}) {
    const double rate = std::sqrt((k + m * g * 0.5 * l) / inertia);
    const LoadFrequency sprung = after_one_step(sprung_pendulum(l, m, k, g));
    EXPECT_NEAR(sprung.rate, rate, 1e-6 * rate) << "g = " << g;
    // The spring's share of the swing's stiffness, the weight's lever the rest.
    EXPECT_NEAR(sprung.spring_share, k / (k + m * g * 0.5 * l), 1e-6) << "g = " << g;
    EXPECT_EQ(sprung.spring_joint, 0);
  }
  // A damper acts on the new velocities and lengthens the limit: the step
  // (J + h c) w' = J w - h k_eff theta, theta' = theta + h w' flips
  // (lambda = -1) at h^2 k_eff - 2 h c - 4 J = 0.
  const double k_eff = k + m * kG * 0.5 * l, c = std::sqrt(inertia * k_eff);  // damping ratio 1/2
  for (const double ratio : {0.5, 0.01, 20.0}) {
    const double damping = 2.0 * ratio * std::sqrt(inertia * k_eff);
    const LoadFrequency f = after_one_step(sprung_pendulum(l, m, k, kG, 0.0, damping));
    EXPECT_NEAR(f.rate, std::sqrt(k_eff / inertia), 1e-6 * f.rate) << ratio;  // the undamped rate
    const double limit = (damping + std::sqrt(damping * damping + 4.0 * inertia * k_eff)) / k_eff;
    EXPECT_NEAR(f.step_limit, limit, 1e-5 * limit) << ratio;
    EXPECT_NEAR(f.spring_share, k / k_eff, 1e-6) << ratio;
    EXPECT_EQ(f.spring_joint, 0);
  }
  const LoadFrequency damped = after_one_step(sprung_pendulum(l, m, k, kG, 0.0, c));
  EXPECT_GT(damped.step_limit, 1.5 * 2.0 / damped.rate);
  Model slider;
  const int b = slider.add_body(make_link("slider", 1.0, 2.0));
  Joint slide = Joint::make(JointType::Prismatic, "slide", kWorld, b, Vector3::UnitX());
  slide.stiffness = 200.0;
  slider.add_joint(slide);
  const LoadFrequency sliding = after_one_step(slider);
  EXPECT_NEAR(sliding.rate, 10.0, 1e-5);  // sqrt(k / m); its weight acts at no lever arm
  EXPECT_NEAR(sliding.spring_share, 1.0, 1e-9);

  // The spring's swing stays bounded just below the limit and grows just above it.
  const LoadFrequency f = after_one_step(sprung_pendulum(l, m, k, 0.0));
  const auto largest_angle = [&](double dt) {
    const Model swinging = sprung_pendulum(l, m, k, 0.0, 0.01);
    State s = make_state(swinging);
    Simulator sim(swinging, with_dt(dt));
    double largest = 0.0;
    for (int step = 0; step < 300; ++step) {
      if (!sim.step(s).ok()) return std::numeric_limits<double>::infinity();
      largest = std::max(largest, std::abs(joint_positions(swinging, s)(0)));
    }
    return largest;
  };
  EXPECT_LT(largest_angle(0.97 * f.step_limit), 0.1);
  EXPECT_GT(largest_angle(1.03 * f.step_limit), 1.0);

  // Damped, the swing decays just below the longer limit and grows just above it.
  const auto damped_angle = [&](double dt) {
    const Model swinging = sprung_pendulum(l, m, k, kG, 0.01, c);
    State s = make_state(swinging);
    Simulator sim(swinging, with_dt(dt));
    double last = 0.0;
    for (int step = 0; step < 300; ++step) {
      if (!sim.step(s).ok()) return std::numeric_limits<double>::infinity();
      last = std::abs(joint_positions(swinging, s)(0));
    }
    return last;
  };
  EXPECT_LT(damped_angle(0.97 * damped.step_limit), 0.01);
  EXPECT_GT(damped_angle(1.03 * damped.step_limit), 1.0);
}

// The double pendulum hanging at rest with dampers of 1 and 0.2 times c on
// its two joints: damping that no single mode carries alone, so no formula
// of one spring gives the limit. The estimate still separates the step
// sizes at which a small swing dies out from those at which it grows.
TEST(LoadFrequency, DampedDoublePendulumSwingsGrowJustAboveTheLimit) {
  const auto damped = [](double c, double angle) {
    const Model undamped = double_pendulum(1.0, 1.0, angle, -angle);
    Model model;
    model.gravity = undamped.gravity;
    for (int b = 0; b < undamped.num_bodies(); ++b) model.add_body(undamped.body(b));
    for (int j = 0; j < undamped.num_joints(); ++j) {
      Joint joint = undamped.joint(j);
      joint.damping = c * (j == 0 ? 1.0 : 0.2);
      model.add_joint(joint);
    }
    return model;
  };
  for (const double c : {0.5, 3.0}) {
    const LoadFrequency f = after_one_step(damped(c, 0.0));
    EXPECT_GT(f.step_limit, 1.1 * 2.0 / f.rate) << c;
    const auto swing_after = [&](double dt) {
      const Model model = damped(c, 1e-3);
      State s = make_state(model);
      Simulator sim(model, with_dt(dt));
      for (int step = 0; step < 400; ++step)
        if (!sim.step(s).ok()) return std::numeric_limits<double>::infinity();
      return joint_positions(model, s).cwiseAbs().sum();
    };
    EXPECT_LT(swing_after(0.97 * f.step_limit), 1e-3) << c;
    EXPECT_GT(swing_after(1.03 * f.step_limit), 0.1) << c;
  }
}

// A simulator keeps one estimator for the estimates of its steps. An
// estimate of a damped mechanism writes the dampers' blocks into the
// estimator's constraint system; the next estimate, of any state, must start
// without them. Reused across states, the estimator agrees exactly with a
// fresh one on each (springs only, without gravity: no joint loads).
TEST(LoadFrequency, AReusedEstimatorAgreesWithAFreshOne) {
  const Model plain = double_pendulum(1.0, 1.0, 0.0, 0.0);
  Model model;
  for (int b = 0; b < plain.num_bodies(); ++b) model.add_body(plain.body(b));
  for (int j = 0; j < plain.num_joints(); ++j) {
    Joint joint = plain.joint(j);
    joint.stiffness = 40.0 * (j + 1);
    joint.damping = 3.0 * (j + 1);
    model.add_joint(joint);
  }
  model.gravity = Vector3::Zero();
  const std::vector<Vector3> no_loads(model.num_joints(), Vector3::Zero());
  const State straight = make_state(model);
  State bent = straight;
  set_joint_positions(model, bent, Eigen::Vector2d(0.8, -1.3));
  detail::LoadEstimator reused(model);
  const State* states[] = {&straight, &bent, &straight};
  for (const State* s : states) {
    const LoadFrequency fresh = detail::load_frequency(model, *s, no_loads);
    ASSERT_GT(fresh.step_limit, 1.01 * 2.0 / fresh.rate);  // the dampers' estimate ran
    const LoadFrequency again = reused.estimate(*s, no_loads);
    EXPECT_EQ(again.rate, fresh.rate);
    EXPECT_EQ(again.step_limit, fresh.step_limit);
    EXPECT_EQ(again.body, fresh.body);
    EXPECT_EQ(again.spring_joint, fresh.spring_joint);
  }
}

// A body hung from the world by a joint of `type` at 0.5 m above its centre.
Model hung_by(JointType type) {
  Model model;
  const int b = model.add_body(make_link("link", 1.0, 1.0));
  Joint j = Joint::make(type, "joint", kWorld, b, Vector3::UnitX());  // a slider moves sideways
  j.child_frame.position = Vector3(0.0, 0.0, 0.5);
  model.add_joint(j);
  return model;
}

TEST(LoadFrequency, NothingSwingsWithoutAStiffeningLoad) {
  Model weightless = pendulum(1.0, 1.0, 0.0);
  weightless.gravity = Vector3::Zero();
  // Balanced upside down the load compresses the rod: a physical
  // instability, not a limit on the step. Welded or sliding, the body
  // carries its weight at a lever arm but cannot turn.
  for (const Model& model : {weightless, pendulum(1.0, 1.0, M_PI), t_handle(10.0, 0.01), hung_by(JointType::Fixed),
                             hung_by(JointType::Prismatic)}) {
    const LoadFrequency f = after_one_step(model);
    EXPECT_EQ(f.rate, 0.0);
    EXPECT_EQ(f.step_limit, std::numeric_limits<double>::infinity());
    EXPECT_EQ(f.body, -1);
  }
}

TEST(LoadFrequency, ImpulsesWithinTheToleranceAreNoLoad) {
  // A chain of spheres resting on the ground: its joints carry nothing but
  // the solve's noise (far below the tolerance on momenta), which alone gave
  // "limits" of days.
  const Model chain = sphere_chain(5, 0.1);
  Simulator sim(chain, with_dt(0.01));
  State s = make_state(chain);
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(sim.step(s).ok()) << "step " << k;
  const LoadFrequency resting = sim.load_frequency(s);
  EXPECT_EQ(resting.rate, 0.0);
  EXPECT_EQ(resting.step_limit, std::numeric_limits<double>::infinity());
  // A small load that is real stays one: a pendulum in a thousandth of
  // Earth's gravity swings at its analytic rate.
  Model faint = pendulum(1.0, 1.0, 0.0);
  faint.gravity *= 1e-3;
  const double rate = std::sqrt(1.5 * 1e-3 * kG);
  EXPECT_NEAR(after_one_step(faint).rate, rate, 1e-6 * rate);
}

TEST(LoadFrequency, NeedsTheImpulsesOfAStep) {
  const Model model = pendulum();
  Simulator sim(model);
  State s = make_state(model);
  try {
    sim.load_frequency(s);
    FAIL() << "a state before any step has no impulses";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("take a step first"), std::string::npos) << e.what();
  }
  ASSERT_TRUE(sim.step(s).ok());
  const Model other = double_pendulum();
  Simulator other_sim(other);
  EXPECT_THROW(other_sim.load_frequency(s), std::invalid_argument);  // sizes of another model
}

}  // namespace
}  // namespace dynamics
