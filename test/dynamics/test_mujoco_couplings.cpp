// Joint couplings against MuJoCo's joint equalities (`<equality><joint
// polycoef>`), which MuJoCo's URDF importer does not make from <mimic>: a
// gear train written in MJCF and built in C++. The joints' coordinates must
// approach MuJoCo's RK4 at first order in dt (mujoco_oracle.hpp).
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <dynamics/dynamics.hpp>

#include "mujoco_oracle.hpp"

namespace {

using dynamics::test::expect_first_order_approach;
using dynamics::test::largest;
using dynamics::test::load_mujoco_text;
using dynamics::test::MujocoData;
using dynamics::test::MujocoModel;

// A pinion (a balanced disc) turning about y without limits, driven by a
// motor and spun up from 20 rad/s: it leads a gear at half its speed, which
// carries a rod hanging under gravity (so the pinion swings it round, loaded
// by its weight), and a rack at 0.1 m per radian, held by a spring. In 0.8 s
// the pinion turns more than one and a half times: the couplings need its
// angle over whole turns.
constexpr double kRate = 20.0, kTorque = 0.5, kHalf = 0.5, kPitch = 0.1, kRackSpring = 2.0;
const char* const kJoints[] = {"pinion_axle", "gear_axle", "rack_slide"};

// MuJoCo's equalities are stiff springs (solref: time constant, damping
// ratio): stiffened as the loops' `connect` equalities are in
// test_mujoco_bench_models.cpp (0.2 ms, eight reference steps; impedance
// near 1), they hold within 3e-10 here.
std::string gear_train_mjcf() {
  const std::string equality = "solref='0.0002 1' solimp='0.99999 0.99999 0.001'";
  return "<mujoco model='gear_train'><option timestep='0.001'/><worldbody>"
         "<body name='pinion'><inertial pos='0 0 0' mass='2' diaginertia='0.02 0.04 0.02'/>"
         "<joint name='pinion_axle' type='hinge' axis='0 1 0'/></body>"
         "<body name='gear' pos='1 0 0'><inertial pos='0 0 -0.3' mass='1' diaginertia='0.03 0.03 0.001'/>"
         "<joint name='gear_axle' type='hinge' axis='0 1 0'/></body>"
         "<body name='rack' pos='0 0 1'><inertial pos='0 0 0' mass='1.5' diaginertia='0.01 0.05 0.05'/>"
         "<joint name='rack_slide' type='slide' axis='1 0 0' stiffness='" +
         std::to_string(kRackSpring) +
         "'/></body></worldbody><equality>"
         "<joint name='half_speed' joint1='gear_axle' joint2='pinion_axle' polycoef='0 " +
         std::to_string(kHalf) + " 0 0 0' " + equality +
         "/><joint name='teeth' joint1='rack_slide' joint2='pinion_axle' polycoef='0 " + std::to_string(kPitch) +
         " 0 0 0' " + equality + "/></equality></mujoco>";
}

dynamics::Model gear_train() {
  using dynamics::Body;
  using dynamics::Joint;
  using dynamics::JointType;
  using dynamics::Vector3;
  dynamics::Model model;
  const auto body = [](const std::string& name, double mass, const Vector3& moments) {
    Body b;
    b.name = name;
    b.mass = mass;
    b.inertia = moments.asDiagonal();
    return b;
  };
  const int pinion = model.add_body(body("pinion", 2.0, Vector3(0.02, 0.04, 0.02)));
  const int gear = model.add_body(body("gear", 1.0, Vector3(0.03, 0.03, 0.001)));
  const int rack = model.add_body(body("rack", 1.5, Vector3(0.01, 0.05, 0.05)));
  const int jp = model.add_joint(Joint::make(JointType::Revolute, kJoints[0], dynamics::kWorld, pinion,
                                             Vector3::UnitY()));
  Joint axle = Joint::make(JointType::Revolute, kJoints[1], dynamics::kWorld, gear, Vector3::UnitY());
  axle.parent_frame.position = Vector3(1.0, 0.0, 0.0);
  axle.child_frame.position = Vector3(0.0, 0.0, 0.3);  // the body frame sits at the rod's centre
  const int jg = model.add_joint(axle);
  Joint slide = Joint::make(JointType::Prismatic, kJoints[2], dynamics::kWorld, rack, Vector3::UnitX());
  slide.parent_frame.position = Vector3(0.0, 0.0, 1.0);
  slide.stiffness = kRackSpring;
  const int jr = model.add_joint(slide);
  model.add_coupling(dynamics::JointCoupling{"half_speed", jp, jg, kHalf, 0.0});
  model.add_coupling(dynamics::JointCoupling{"teeth", jp, jr, kPitch, 0.0});
  return model;
}

std::vector<double> mujoco_coordinates(double dt, double duration) {
  std::string error;
  MujocoModel model = load_mujoco_text("gear_train.xml", gear_train_mjcf(), error);
  if (!model) {
    ADD_FAILURE() << "MuJoCo cannot load the gear train: " << error;
    return {};
  }
  model->opt.timestep = dt;
  model->opt.integrator = mjINT_RK4;
  MujocoData data(mj_makeData(model.get()));
  int address[3];
  for (int i = 0; i < 3; ++i) {
    const int id = mj_name2id(model.get(), mjOBJ_JOINT, kJoints[i]);
    if (id < 0) {
      ADD_FAILURE() << "MuJoCo has no joint " << kJoints[i];
      return {};
    }
    address[i] = model->jnt_qposadr[id];  // = its dof: one coordinate each
  }
  data->qvel[address[0]] = kRate;
  data->qvel[address[1]] = kHalf * kRate;
  data->qvel[address[2]] = kPitch * kRate;
  data->qfrc_applied[address[0]] = kTorque;
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) mj_step(model.get(), data.get());
  return {data->qpos[address[0]], data->qpos[address[1]], data->qpos[address[2]]};
}

std::vector<double> our_coordinates(double dt, double duration) {
  const dynamics::Model model = gear_train();
  dynamics::State state = dynamics::make_state(model);
  Eigen::VectorXd rates = Eigen::VectorXd::Zero(model.num_coordinates());
  rates(0) = kRate;  // the followers' rates follow
  dynamics::set_joint_velocities(model, state, rates);
  dynamics::StepOptions options;
  options.dt = dt;
  dynamics::Simulator simulator(model, options);
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) {
    state.joint_input(0) = kTorque;
    if (!simulator.step(state).ok()) {
      ADD_FAILURE() << "step " << k << " failed";
      return {};
    }
  }
  const Eigen::VectorXd q = dynamics::joint_positions(model, state);
  return {q(0), q(1), q(2)};
}

// The pinion spins at 20 rad/s, which makes our error's second-order term
// larger than in the other comparisons (8% of the first-order one at 8e-4
// s, shrinking fourfold per halving: ours, not a modelling difference; a
// finer reference changed nothing), hence steps of 1e-4 and 5e-5 s. When
// this was written: gaps 2.5e-4 and 1.25e-4 rad, Richardson 1.2e-6 rad.
// Readings within a turn fail it.
TEST(AgainstMuJoCo, GearTrainOnAPinionTurningWithoutLimitsMovesAsMujocosJointEqualities) {
  constexpr double kDuration = 0.8, kReferenceStep = 2.5e-5, kCoarse = 1e-4, kFine = 5e-5;
  const std::vector<double> reference = mujoco_coordinates(kReferenceStep, kDuration);
  const std::vector<double> coarse = our_coordinates(kCoarse, kDuration);
  const std::vector<double> fine = our_coordinates(kFine, kDuration);
  ASSERT_EQ(reference.size(), 3u);
  ASSERT_EQ(coarse.size(), 3u);
  ASSERT_EQ(fine.size(), 3u);
  EXPECT_GT(reference[0], 3.0 * dynamics::kPi);  // past pi, and past a full turn
  std::vector<double> to_coarse, to_fine;
  for (int i = 0; i < 3; ++i) {
    to_coarse.push_back(coarse[i] - reference[i]);
    to_fine.push_back(fine[i] - reference[i]);
  }
  expect_first_order_approach(to_coarse, to_fine, largest(reference));
  // MuJoCo's equalities hold to its soft constraints' give.
  EXPECT_NEAR(reference[1], kHalf * reference[0], 1e-4);
  EXPECT_NEAR(reference[2], kPitch * reference[0], 1e-4);
}

}  // namespace
