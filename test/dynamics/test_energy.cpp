// The energy of a step's midpoint (diagnostics.hpp, dt > 0) against the
// energy of the state as it stands (dt = 0): exact values, the order of
// their errors along trajectories, and bad step sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "dynamics/dynamics.hpp"
#include "random_joint.hpp"
#include "rotor.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using test::with_dt;

// A rotational spring in zero gravity: one body on a revolute joint to the world.
Model spring_pendulum(double stiffness) {
  Joint j = Joint::make(JointType::Revolute, "hinge", kWorld, 0, Vector3::UnitZ());
  j.stiffness = stiffness;
  j.initial_position = {0.8};
  return test::zero_gravity_rotor(j);
}

TEST(StepEnergy, GravityTakesTheMeanOfTheStepsEnds) {
  Model model;
  model.add_body(Body::solid("ball", 2.0, Shape::sphere(0.1)));
  State s = make_state(model);
  s.position[0] = Vector3(0.0, 0.0, 3.0);
  s.velocity[0] = Vector3(1.0, 0.0, -4.0);
  const double dt = 0.05;
  // The step started at z = 3 + 0.2: mean height 3.1.
  EXPECT_NEAR(gravitational_energy(model, s, dt), 2.0 * 9.81 * 3.1, 1e-12);
  EXPECT_NEAR(gravitational_energy(model, s), 2.0 * 9.81 * 3.0, 1e-12);
  EXPECT_NEAR(total_energy(model, s, dt), 0.5 * 2.0 * 17.0 + 2.0 * 9.81 * 3.1, 1e-12);
}

TEST(StepEnergy, SpringTakesTheMeanOfTheStepsEnds) {
  const double k = 30.0, dt = 0.02, angle = 0.8, rate = 5.0;
  const Model model = spring_pendulum(k);
  State s = make_state(model);
  set_joint_velocities(model, s, Eigen::VectorXd::Constant(1, rate));
  // The unit step quaternion (dt/2) [s; w] turns by 2 asin(|w| dt / 2).
  const double before = angle - 2.0 * std::asin(rate * dt / 2.0);
  EXPECT_NEAR(spring_energy(model, s), 0.5 * k * angle * angle, 1e-12);
  EXPECT_NEAR(spring_energy(model, s, dt), 0.25 * k * (angle * angle + before * before), 1e-12);
}

// An angle about one axis counts whole turns, and so does its spring (a
// torsion spring, as MuJoCo's hinge springs): wound three turns past its
// rest and let go, the rotor unwinds through all of them to three turns the
// other way, half a period sqrt(J / k) pi later, keeping its energy. Read
// within a turn, the spring pulled the short way round, and its potential
// had a cusp half a turn from the rest.
TEST(StepEnergy, SpringOnAnAngleWindsOverWholeTurns) {
  const double k = 0.05, rest = 1.0;
  Joint hinge = spring_pendulum(k).joint(0);
  hinge.rest = {rest};
  const Model spun = test::zero_gravity_rotor(hinge);
  State s = make_state(spun);
  for (const double angle : {2.5, -2.5, 3.0 + 2.0 * kPi, -3.0 - 4.0 * kPi}) {
    set_joint_positions(spun, s, Eigen::VectorXd::Constant(1, angle));
    EXPECT_NEAR(joint_positions(spun, s)(0), angle, 1e-12);
    EXPECT_NEAR(spring_energy(spun, s), 0.5 * k * (angle - rest) * (angle - rest), 1e-12) << angle;
  }
  const double wound = 6.0 * kPi;
  set_joint_positions(spun, s, Eigen::VectorXd::Constant(1, rest + wound));
  const double inertia = spun.body(0).inertia(2, 2);
  const double half_period = kPi * std::sqrt(inertia / k);
  const double dt = 0.0025;
  Simulator sim(spun, with_dt(dt));
  const double start = total_energy(spun, s);
  double worst = 0.0, lowest = rest + wound, when = 0.0;
  for (int step = 1; step <= std::lround(1.5 * half_period / dt); ++step) {
    ASSERT_TRUE(sim.step(s).ok()) << step;
    const double angle = joint_positions(spun, s)(0);
    if (angle < lowest) {
      lowest = angle;
      when = step * dt;
    }
    worst = std::max(worst, std::abs(total_energy(spun, s, dt) - start));
  }
  EXPECT_NEAR(lowest, rest - wound, 1e-2 * wound);
  EXPECT_NEAR(when, half_period, 1e-2 * half_period);
  EXPECT_LT(worst, 5e-3 * start);
}

// A spring on a ball joint with a rest orientation pulls along the shortest
// turn back to it: its energy is k theta^2 / 2, theta the angle of the turn
// from the rest to the joint's orientation, also where the joint's rotation
// vector flips sides at half a turn (the difference of rotation vectors
// jumped there), and a body tumbling on it keeps its energy: within 0.7%
// here, where the difference of rotation vectors, whose torque is no
// gradient, pumped it from 0.32 to 18 J.
TEST(StepEnergy, BallJointSpringPullsAlongTheShortestTurnToItsRest) {
  const double k = 0.05;
  const Vector3 rest(0.6, -0.4, 0.9);
  Joint ball = Joint::make(JointType::Spherical, "ball", kWorld, 0);
  ball.stiffness = k;
  ball.rest = {rest.x(), rest.y(), rest.z()};
  const Model model = test::zero_gravity_rotor(ball);
  State s = make_state(model);
  const Eigen::AngleAxisd rest_turn(rest.norm(), rest.normalized());
  for (const Vector3& turn : {Vector3(0.1, 0.2, -0.3), Vector3(3.1, 0.1, 0.0), Vector3(-3.1, -0.1, 0.0),
                              Vector3(0.0, 2.0, 2.2), Vector3(-0.6, 0.4, -0.9)}) {
    set_joint_positions(model, s, turn);
    const double theta =
        Eigen::AngleAxisd(rest_turn.toRotationMatrix().transpose() * Eigen::AngleAxisd(turn.norm(), turn.normalized()))
            .angle();
    EXPECT_NEAR(spring_energy(model, s), 0.5 * k * theta * theta, 1e-12) << turn.transpose();
  }
  set_joint_positions(model, s, rest);
  set_joint_velocities(model, s, Eigen::Vector3d(1.0, 5.0, 2.0));  // over the cusp, tumbling
  const double dt = 0.0025;
  Simulator sim(model, with_dt(dt));
  const double start = total_energy(model, s);
  double worst = 0.0, farthest = 0.0;
  for (int step = 0; step < 6000; ++step) {
    ASSERT_TRUE(sim.step(s).ok()) << step;
    worst = std::max(worst, std::abs(total_energy(model, s, dt) - start));
    const Quaternion from_rest = rotation_from_vector(rest).conjugate() * s.orientation[0];
    farthest = std::max(farthest, rotation_vector(from_rest).norm());
  }
  EXPECT_GT(farthest, 3.0);  // it did pass half a turn from the rest
  EXPECT_LT(worst, 1e-2 * start);
}

// Symplectic Euler on a body in free fall: the midpoint energy is invariant
// exactly, while the state's loses m |g|^2 dt^2 / 2 every step.
TEST(StepEnergy, FreeFallKeepsItExactly) {
  Model model;
  const double mass = 0.7, dt = 0.01;
  model.add_body(Body::solid("stone", mass, Shape::sphere(0.05)));
  State s = make_state(model);
  s.velocity[0] = Vector3(2.0, -1.0, 5.0);
  s.angular_velocity[0] = Vector3(0.0, 3.0, 0.0);
  Simulator sim(model, with_dt(dt));
  const double step0 = total_energy(model, s, dt), state0 = total_energy(model, s);
  const int steps = 500;
  for (int k = 0; k < steps; ++k) ASSERT_TRUE(sim.step(s).ok());
  EXPECT_NEAR(total_energy(model, s, dt), step0, 1e-11 * std::abs(step0));
  EXPECT_NEAR(total_energy(model, s) - state0, -steps * 0.5 * mass * 9.81 * 9.81 * dt * dt, 1e-9);
}

struct Errors {
  double step = 0.0, state = 0.0;  // largest |E - E(0)| over the run
};

Errors energy_errors(const Model& model, const std::function<void(State&)>& start, double dt, double seconds) {
  State s = make_state(model);
  start(s);
  Simulator sim(model, with_dt(dt));
  const double step0 = total_energy(model, s, dt), state0 = total_energy(model, s);
  Errors e;
  for (long k = 0; k < std::lround(seconds / dt); ++k) {
    EXPECT_TRUE(sim.step(s).ok());
    e.step = std::max(e.step, std::abs(total_energy(model, s, dt) - step0));
    e.state = std::max(e.state, std::abs(total_energy(model, s) - state0));
  }
  return e;
}

// Halving dt quarters the midpoint energy's error (the integrator is second
// order on these conservative systems) and only halves the state's.
TEST(StepEnergy, ErrorIsSecondOrderWhereTheStatesIsFirstOrder) {
  struct Case {
    std::string name;
    Model model;
    std::function<void(State&)> start;
  };
  const auto at_rest = [](State&) {};
  Model spherical = n_link_pendulum(4, ChainJoint::Spherical);
  const auto swirl = [&spherical](State& s) {  // out of the plane of the initial pose
    Eigen::VectorXd v = joint_velocities(spherical, s);
    for (int i = 0; i < v.size(); ++i) v[i] = 0.7 * std::sin(1.3 * i + 0.4);
    set_joint_velocities(spherical, s, v);
  };
  const Case cases[] = {{"four-bar", four_bar(), at_rest},
                        {"two four-link loops", four_link_chain(2), at_rest},
                        {"spherical chain", spherical, swirl},
                        {"rotational spring", spring_pendulum(3.0), at_rest}};
  for (const Case& c : cases) {
    const Errors coarse = energy_errors(c.model, c.start, 0.01, 5.0);
    const Errors fine = energy_errors(c.model, c.start, 0.005, 5.0);
    EXPECT_GT(coarse.step / fine.step, 3.5) << c.name;
    EXPECT_LT(coarse.state / fine.state, 2.5) << c.name;
    EXPECT_LT(coarse.step, 0.2 * coarse.state) << c.name;
  }
}

TEST(StepEnergy, RejectsStepSizesNoStepCouldHaveTaken) {
  const Model model = spring_pendulum(30.0);
  State s = make_state(model);
  set_joint_velocities(model, s, Eigen::VectorXd::Constant(1, 50.0));
  const auto expect_error = [](const std::function<void()>& f, const std::string& text) {
    try {
      f();
      ADD_FAILURE() << "no error, expected: " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expect_error([&] { total_energy(model, s, -0.01); }, "gravitational_energy: dt must be finite and >= 0, got -0.01");
  expect_error([&] { spring_energy(model, s, std::nan("")); }, "spring_energy: dt must be finite and >= 0");
  // 50 rad/s is more than 2 / 0.05 = 40 rad/s.
  expect_error([&] { potential_energy(model, s, 0.05); }, "body 'rotor' turns at 50 rad/s");
  expect_error([&] { angular_momentum(model, s, 0.05); }, "angular_momentum: body 'rotor'");
  EXPECT_NO_THROW(total_energy(model, s, 0.01));
}

// With two free rotations (a universal joint about x and y: no twist about
// z) and a rest other than zero, the turn back to the rest orientation also
// twists about z, and the spring pulls along all of it: its energy is
// k theta^2 / 2 for the whole turn theta, and a body tumbling on it keeps
// its energy (within 1e-4 here). Pulling along the free axes alone did
// work: the same body lost 60% of its energy in 20 s.
TEST(StepEnergy, UniversalJointSpringWithARestKeepsItsEnergy) {
  const double k = 0.05;
  Joint universal = Joint::make(JointType::Spherical, "universal", kWorld, 0, Vector3::UnitZ());
  universal.freedom = {0, 2};
  universal.stiffness = k;
  universal.rest = {0.7, -0.5};
  const Model model = test::zero_gravity_rotor(universal);
  State s = make_state(model);
  const Quaternion rest = rotation_from_vector(Vector3(0.7, -0.5, 0.0));
  for (const Eigen::Vector2d& turn : {Eigen::Vector2d(0.1, 0.2), Eigen::Vector2d(-0.9, 0.4), Eigen::Vector2d(1.5, 1.2)}) {
    set_joint_positions(model, s, turn);
    const double theta = (rest.conjugate() * rotation_from_vector(Vector3(turn.x(), turn.y(), 0.0))).angularDistance(
        Quaternion::Identity());
    EXPECT_NEAR(spring_energy(model, s), 0.5 * k * theta * theta, 1e-12) << turn.transpose();
  }
  set_joint_positions(model, s, Eigen::Vector2d::Zero());
  set_joint_velocities(model, s, Eigen::Vector2d(3.0, 4.0));
  const double dt = 0.0025;
  Simulator sim(model, with_dt(dt));
  const double start = total_energy(model, s);
  double worst = 0.0;
  for (int step = 0; step < 8000; ++step) {
    ASSERT_TRUE(sim.step(s).ok()) << step;
    worst = std::max(worst, std::abs(total_energy(model, s, dt) - start));
  }
  EXPECT_LT(worst, 1e-4 * start);
}

// Springs with rests on every combination of free translations and
// rotations, the joint frames off the body's centre and turned, the body
// started at random rates in zero gravity: each spring force is the
// gradient of the potential that spring_energy reports, so the energy
// error is the integrator's, within 0.3% over 20 s and halving with the
// step (ratios 0.39 to 0.50 when this was written). A force that is no
// gradient leaves an error that a smaller step does not shrink: the
// two-rotation springs that left out their twist failed it. (Run longer,
// some errors jump now and then, up to 3e-3 over 320 s: bodies with the
// energy to turn half a turn from the rest cross the cusp of the
// shortest-turn potential there, whose force flips within a step. A drift
// test over time alone is not robust here.)
TEST(StepEnergy, SpringsOnEveryJointCombinationKeepTheirEnergy) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  for (const JointFreedom& freedom : test::moving_freedoms()) {
    SCOPED_TRACE(test::freedom_name(freedom));
    Joint joint = test::random_joint(rng, freedom, kWorld, 0);
    const int n = joint.num_coordinates();
    joint.stiffness = 0.3;
    for (int i = 0; i < n; ++i) joint.rest.push_back(0.6 * draw(rng));
    const Model model = test::zero_gravity_rotor(joint);
    Eigen::VectorXd rates(n);
    for (int i = 0; i < n; ++i) rates(i) = 2.0 * draw(rng);
    // The largest error of the step's midpoint energy over 20 s.
    const auto worst_error = [&](double dt) {
      State s = make_state(model);
      set_joint_velocities(model, s, rates);
      Simulator sim(model, with_dt(dt));
      const double start = total_energy(model, s);
      double worst = 0.0;
      for (long k = 0; k < std::lround(20.0 / dt); ++k) {
        EXPECT_TRUE(sim.step(s).ok()) << k;
        worst = std::max(worst, std::abs(total_energy(model, s, dt) - start));
      }
      return worst / start;
    };
    const double coarse = worst_error(0.0025), fine = worst_error(0.00125);
    EXPECT_LT(coarse, 3e-3);
    EXPECT_LT(fine, 0.65 * coarse);
  }
}

}  // namespace
}  // namespace dynamics
