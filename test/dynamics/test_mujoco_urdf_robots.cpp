// Random URDF robots simulated by dynamics and by MuJoCo, which reads the
// same file with its own URDF importer: an oracle that shares none of our
// code, so a convention both our URDF reader and our C++ models could get
// wrong the same way (the frame of an <inertial>'s rpy, a joint origin's
// rotation order, the sign of an axis or a joint input) shows here. Our
// joint coordinates must approach MuJoCo's RK4 at first order in dt
// (mujoco_oracle.hpp).
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <dynamics/dynamics.hpp>
#include <dynamics/urdf.hpp>

#include "mujoco_oracle.hpp"

namespace {

using dynamics::test::expect_first_order_approach;
using dynamics::test::largest;
using dynamics::test::load_mujoco_text;
using dynamics::test::MujocoData;
using dynamics::test::MujocoModel;

// A joint's initial rates and constant inputs, one per coordinate: a hinge
// or slide has one; a planar joint three (two slides in the plane, along
// the axes complete_basis gives them, and the turn); a floating root six
// (linear velocity and force in the world frame, angular velocity and torque
// in the link frame, as both simulators define them).
enum class Kind { Hinge, Slide, Planar, Floating };
struct MovingJoint {
  std::string name;
  Kind kind;
  std::vector<double> velocity;
  std::vector<double> input;
  // A spring on every coordinate (URDF has none: set on both loaded models).
  double stiffness = 0.0;
  std::vector<double> rest;
};

int coordinates_of(Kind kind) { return kind == Kind::Floating ? 6 : kind == Kind::Planar ? 3 : 1; }

// Angles are compared modulo a full turn (ours are read in (-pi, pi],
// MuJoCo's are not wrapped).
bool is_angle(Kind kind, int coordinate) {
  return kind == Kind::Hinge || (kind == Kind::Planar && coordinate == 2);
}

struct RandomRobot {
  std::string urdf;
  std::vector<MovingJoint> joints;
  Eigen::Vector3d gravity;  // also set on both loaded models
};

// A tree of `links` links on a base welded to the world (how MuJoCo reads a
// URDF root; UrdfOptions::fixed_base for us), or on a floating joint from the
// world when `floating`. Every joint origin and every
// <inertial> has a random offset and a random rpy, every inertia tensor is a
// random rotation of admissible principal moments, axes point anywhere.
// Joints are continuous, revolute or prismatic with limits far beyond the
// motion, planar, or fixed (the first is never fixed; half the links welded
// by fixed joints are massless frames); some have dampers.
RandomRobot random_robot(unsigned seed, int links, bool floating) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.5, 2.0);
  // Draws in sequence (function arguments would be evaluated in an order
  // each compiler picks, and the robots would differ between builds).
  const auto draws = [&](std::uniform_real_distribution<double>& distribution, int count) {
    Eigen::VectorXd v(count);
    for (int k = 0; k < count; ++k) v(k) = distribution(rng);
    return v;
  };
  std::ostringstream xml;
  xml.precision(17);
  const auto triple = [&](double scale) {
    std::ostringstream s;
    s.precision(17);
    s << scale * unit(rng) << ' ' << scale * unit(rng) << ' ' << scale * unit(rng);
    return s.str();
  };
  const auto inertial = [&] {
    Eigen::Vector3d moments = draws(positive, 3);
    const double largest = moments.maxCoeff();
    if (largest > moments.sum() - largest) moments.array() += largest;  // a rigid body's moments
    const Eigen::Matrix3d turn =
        Eigen::Quaterniond(Eigen::Vector4d(draws(unit, 4)).normalized()).toRotationMatrix();
    const Eigen::Matrix3d inertia = 0.1 * turn * moments.asDiagonal() * turn.transpose();
    std::ostringstream s;
    s.precision(17);
    s << "<inertial><origin xyz='" << triple(0.3) << "' rpy='" << triple(3.0) << "'/><mass value='"
      << positive(rng) << "'/><inertia ixx='" << inertia(0, 0) << "' ixy='" << inertia(0, 1) << "' ixz='"
      << inertia(0, 2) << "' iyy='" << inertia(1, 1) << "' iyz='" << inertia(1, 2) << "' izz='" << inertia(2, 2)
      << "'/></inertial>";
    return s.str();
  };
  RandomRobot robot;
  const auto values = [&](int count, double scale) {
    const Eigen::VectorXd v = scale * draws(unit, count);
    return std::vector<double>(v.data(), v.data() + count);
  };
  xml << "<robot name='random" << seed << "'>\n<link name='l0'>" << inertial() << "</link>\n";
  if (floating) {
    // No <origin>: both simulators then read the coordinates as the link
    // frame's pose in the world (ours: position and rotation vector).
    xml << "<link name='world'/>\n<joint name='root' type='floating'><parent link='world'/>"
        << "<child link='l0'/></joint>\n";
    robot.joints.push_back({"root", Kind::Floating, values(6, 1.0), values(6, 2.0), 0.0, {}});
  }
  for (int i = 1; i < links; ++i) {
    const int parent = std::uniform_int_distribution<int>(0, i - 1)(rng);
    // Fixed joints twice as likely as each moving type.
    const int kind = std::min(std::uniform_int_distribution<int>(0, i == 1 ? 3 : 5)(rng), 4);
    const char* types[] = {"continuous", "revolute", "prismatic", "planar", "fixed"};
    const char* type = types[kind];
    // Not unit length: both readers normalize it.
    const Eigen::Vector3d axis = Eigen::Vector3d(draws(unit, 3)).normalized() * positive(rng);
    const std::string name = "j" + std::to_string(i);
    // Half the welded links are massless frames (a flange, a tool frame), on
    // which later joints may hang.
    const bool frame = kind == 4 && unit(rng) > 0.0;
    xml << "<link name='l" << i << "'>" << (frame ? std::string() : inertial()) << "</link>\n";
    xml << "<joint name='" << name << "' type='" << type
        << "'><parent link='l" << parent << "'/><child link='l" << i << "'/><origin xyz='" << triple(0.5)
        << "' rpy='" << triple(3.0) << "'/><axis xyz='" << axis.x() << ' ' << axis.y() << ' ' << axis.z() << "'/>";
    // Limits the motion never reaches: kept by both (inequalities of our
    // interior-point steps), a revolute's within a turn (ours read wider
    // ones as none).
    if (kind == 1) xml << "<limit lower='-3' upper='3' effort='1' velocity='1'/>";
    if (kind == 2) xml << "<limit lower='-100' upper='100' effort='1' velocity='1'/>";
    const double damping = unit(rng) > 0.0 ? positive(rng) * 0.2 : 0.0;
    if (kind != 4 && damping > 0.0) xml << "<dynamics damping='" << damping << "'/>";
    xml << "</joint>\n";
    const Kind moving = kind == 2 ? Kind::Slide : kind == 3 ? Kind::Planar : Kind::Hinge;
    const int n = coordinates_of(moving);
    if (kind != 4) robot.joints.push_back({name, moving, values(n, 1.0), values(n, 2.0), 0.0, {}});
  }
  xml << "</robot>\n";
  robot.urdf = xml.str();
  // Springs on about half the hinges, slides and planar joints (from a
  // stream of their own), and a gravity off the vertical, drawn after the
  // robot: the robots stay those the file's first version drew.
  std::mt19937 more(seed + 1000);
  for (MovingJoint& joint : robot.joints) {
    if (joint.kind == Kind::Floating || unit(more) < 0.0) continue;
    joint.stiffness = 5.0 * positive(more);
    for (std::size_t k = 0; k < joint.velocity.size(); ++k) joint.rest.push_back(0.5 * unit(more));
  }
  robot.gravity = Eigen::Vector3d(0.0, 0.0, -9.81) + 3.0 * Eigen::Vector3d(draws(unit, 3));
  return robot;
}

// The moving joints' coordinates after `duration` seconds of MuJoCo's RK4,
// contacts off (our model has none: UrdfOptions::collision_contacts off and
// no <collision> elements), from the same initial rates and inputs.
std::vector<double> mujoco_coordinates(const RandomRobot& robot, double dt, double duration) {
  std::string error;
  MujocoModel model = load_mujoco_text("robot.urdf", robot.urdf, error);
  if (!model) {
    ADD_FAILURE() << "MuJoCo cannot load the robot: " << error;
    return {};
  }
  model->opt.disableflags |= mjDSBL_CONTACT;
  model->opt.timestep = dt;
  model->opt.integrator = mjINT_RK4;
  std::copy(robot.gravity.data(), robot.gravity.data() + 3, model->opt.gravity);
  // MuJoCo's joints for each of ours: a planar joint becomes the slides
  // <name>_TX and <name>_TY and the hinge <name>_RZ, one coordinate each.
  std::vector<std::vector<int>> ids;
  for (const MovingJoint& joint : robot.joints) {
    std::vector<std::string> names{joint.name};
    if (joint.kind == Kind::Planar) names = {joint.name + "_TX", joint.name + "_TY", joint.name + "_RZ"};
    ids.emplace_back();
    for (const std::string& name : names) {
      const int id = mj_name2id(model.get(), mjOBJ_JOINT, name.c_str());
      if (id < 0) {
        ADD_FAILURE() << "MuJoCo has no joint " << name;
        return {};
      }
      ids.back().push_back(id);
    }
    for (std::size_t k = 0; k < joint.rest.size(); ++k) {  // hinges, slides, planar: one coordinate each
      model->jnt_stiffness[ids.back()[k]] = joint.stiffness;
      model->qpos_spring[model->jnt_qposadr[ids.back()[k]]] = joint.rest[k];
    }
  }
  MujocoData data(mj_makeData(model.get()));
  for (std::size_t j = 0; j < robot.joints.size(); ++j) {
    const MovingJoint& joint = robot.joints[j];
    for (std::size_t k = 0; k < joint.velocity.size(); ++k) {
      // One dof per MuJoCo joint, or the free joint's six.
      const int dof = joint.kind == Kind::Planar ? model->jnt_dofadr[ids[j][k]]
                                                 : model->jnt_dofadr[ids[j][0]] + static_cast<int>(k);
      data->qvel[dof] = joint.velocity[k];
      data->qfrc_applied[dof] = joint.input[k];
    }
  }
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) mj_step(model.get(), data.get());
  std::vector<double> q;
  for (std::size_t j = 0; j < ids.size(); ++j) {
    const double* qpos = data->qpos + model->jnt_qposadr[ids[j][0]];
    if (robot.joints[j].kind != Kind::Floating) {
      for (const int id : ids[j]) q.push_back(data->qpos[model->jnt_qposadr[id]]);
      continue;
    }
    // Position, then the quaternion (w, x, y, z) as a rotation vector.
    const Eigen::AngleAxisd turn(Eigen::Quaterniond(qpos[3], qpos[4], qpos[5], qpos[6]));
    const Eigen::Vector3d rotation = turn.angle() * turn.axis();
    q.insert(q.end(), {qpos[0], qpos[1], qpos[2], rotation.x(), rotation.y(), rotation.z()});
  }
  return q;
}

std::vector<double> our_coordinates(const RandomRobot& robot, double dt, double duration) {
  dynamics::UrdfOptions options;
  options.fixed_base = true;
  options.collision_contacts = false;
  const dynamics::Model parsed = dynamics::parse_urdf(robot.urdf, "random.urdf", options);
  // The same model with the springs and gravity added.
  dynamics::Model model;
  for (const dynamics::Body& body : parsed.bodies()) model.add_body(body);
  for (dynamics::Joint joint : parsed.joints()) {
    for (const MovingJoint& moving : robot.joints)
      if (moving.name == joint.name) {
        joint.stiffness = moving.stiffness;
        joint.rest = moving.rest;
      }
    model.add_joint(joint);
  }
  model.gravity = robot.gravity;
  dynamics::State state = dynamics::make_state(model);
  std::vector<int> index;  // of every compared coordinate
  Eigen::VectorXd rates = Eigen::VectorXd::Zero(model.num_coordinates());
  for (const MovingJoint& joint : robot.joints) {
    const int j = model.find_joint(joint.name);
    if (j < 0) {
      ADD_FAILURE() << "our model has no joint " << joint.name;
      return {};
    }
    for (std::size_t k = 0; k < joint.velocity.size(); ++k) {
      index.push_back(model.coordinate_offset(j) + static_cast<int>(k));
      rates(index.back()) = joint.velocity[k];
      state.joint_input(index.back()) = joint.input[k];
    }
  }
  dynamics::set_joint_velocities(model, state, rates);
  dynamics::StepOptions step;
  step.dt = dt;
  dynamics::Simulator simulator(model, step);
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) {
    const dynamics::StepResult result = simulator.step(state);
    if (!result.ok()) {
      ADD_FAILURE() << "step " << k << ": " << dynamics::to_string(result.status);
      return {};
    }
  }
  const Eigen::VectorXd q = dynamics::joint_positions(model, state);
  std::vector<double> out;
  for (const int i : index) out.push_back(q(i));
  for (std::size_t j = 0, at = 0; j < robot.joints.size(); at += robot.joints[j++].velocity.size()) {
    if (robot.joints[j].kind != Kind::Floating) continue;
    // The same canonical rotation vector as MuJoCo's side (angle in [0, pi]).
    const Eigen::Vector3d vector(out[at + 3], out[at + 4], out[at + 5]);
    const Eigen::AngleAxisd turn(Eigen::Quaterniond(Eigen::AngleAxisd(vector.norm(), vector.normalized())));
    const Eigen::Vector3d rotation = turn.angle() * turn.axis();
    std::copy(rotation.data(), rotation.data() + 3, out.begin() + static_cast<long>(at) + 3);
  }
  return out;
}

std::vector<double> differences(const RandomRobot& robot, const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  for (std::size_t j = 0, at = 0; j < robot.joints.size(); at += robot.joints[j++].velocity.size())
    for (std::size_t k = 0; k < robot.joints[j].velocity.size(); ++k) {
      double difference = a[at + k] - b[at + k];
      if (is_angle(robot.joints[j].kind, static_cast<int>(k))) difference = std::remainder(difference, 2.0 * M_PI);
      d.push_back(difference);
    }
  return d;
}

// Sixteen robots of 3 to 7 links, every third on a floating root; six have
// a planar joint, six a massless frame, thirteen joint springs, all a
// gravity off the vertical. When this was written the gap to the reference
// halved with the step (ratios 1.9997 to 2.0066), and the Richardson
// combination 2 q(dt/2) - q(dt), which cancels our first-order error, came
// within 5e-8 to 2e-6 rad or m of the reference (at most 6.6e-3 times the
// gap at dt/2, against motions of 0.17 to 1.0): the two simulators solve the
// same equations of motion. Reading the inertia without its <inertial> rpy,
// or with the rotation transposed, or 1% too heavy, a spring 2% too stiff or
// its rest 10% off, fails here, and so did the planar joints' slides along
// other in-plane axes than MuJoCo's.
TEST(AgainstMuJoCo, RandomUrdfTreesApproachMujocoRk4AtFirstOrder) {
  constexpr double kDuration = 0.4, kReferenceStep = 1e-4, kCoarse = 8e-4, kFine = 4e-4;
  for (unsigned seed = 1; seed <= 16; ++seed) {
    const RandomRobot robot = random_robot(seed, 3 + static_cast<int>(seed % 5), seed % 3 == 0);
    SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + robot.urdf);
    const std::vector<double> reference = mujoco_coordinates(robot, kReferenceStep, kDuration);
    const std::vector<double> coarse = our_coordinates(robot, kCoarse, kDuration);
    const std::vector<double> fine = our_coordinates(robot, kFine, kDuration);
    ASSERT_FALSE(reference.empty());
    ASSERT_EQ(coarse.size(), reference.size());
    ASSERT_EQ(fine.size(), reference.size());
    // Every coordinate starts at 0 (the links at their URDF pose).
    expect_first_order_approach(differences(robot, coarse, reference), differences(robot, fine, reference),
                                largest(reference));
  }
}

}  // namespace
