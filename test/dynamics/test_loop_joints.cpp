// Which joints lie on a kinematic loop: those whose rows may be redundant,
// the only ones the equilibrated solves give a regularization floor
// (dynamics/src/loop_joints.hpp, equilibration.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "loop_joints.hpp"

namespace dynamics {
namespace {

Model bodies(int count) {
  Model model;
  for (int b = 0; b < count; ++b) {
    Body body;
    body.name = "b" + std::to_string(b);
    body.position = Vector3(0.0, 0.0, -1.0 - b);
    model.add_body(body);
  }
  return model;
}

void hinge(Model& model, int parent, int child, JointType type = JointType::Revolute) {
  model.add_joint(Joint::make(type, "j" + std::to_string(model.num_joints()), parent, child, Vector3::UnitY()));
}

std::vector<char> expected(std::initializer_list<int> on_loop) { return {on_loop.begin(), on_loop.end()}; }

TEST(LoopJoints, ChainsAreTrees) {
  EXPECT_EQ(detail::joints_on_loops(n_link_pendulum(5)), expected({0, 0, 0, 0, 0}));
  Model floating = bodies(2);
  hinge(floating, kWorld, 0, JointType::Floating);
  hinge(floating, 0, 1);
  EXPECT_EQ(detail::joints_on_loops(floating), expected({0, 0}));
}

// Every joint of the cycle, whichever joint closes it: the redundant row may
// land on any of them. The world is one vertex, so two pivots on it close a
// loop (the four-bar), and the joints hanging off the loop stay outside it.
TEST(LoopJoints, EveryJointOfACycleIsOnALoopAndNoOther) {
  Model model = bodies(5);
  hinge(model, kWorld, 0);
  hinge(model, 0, 1);
  hinge(model, 1, 2);
  hinge(model, kWorld, 2);  // closes world-0-1-2-world
  hinge(model, 2, 3);
  hinge(model, 3, 4);
  EXPECT_EQ(detail::joints_on_loops(model), expected({1, 1, 1, 1, 0, 0}));
  const Model bar = four_bar();
  EXPECT_EQ(detail::joints_on_loops(bar), std::vector<char>(bar.num_joints(), 1));
}

// Two joints between the same two bodies lock each other (a multigraph's
// cycle of two edges); a joint without rows (floating) closes nothing.
TEST(LoopJoints, ParallelJointsLoopAndJointsWithoutRowsDoNot) {
  Model parallel = bodies(2);
  hinge(parallel, kWorld, 0);
  hinge(parallel, 0, 1);
  hinge(parallel, 0, 1, JointType::Spherical);
  EXPECT_EQ(detail::joints_on_loops(parallel), expected({0, 1, 1}));
  Model loose = bodies(2);
  hinge(loose, kWorld, 0);
  hinge(loose, 0, 1);
  hinge(loose, kWorld, 1, JointType::Floating);
  EXPECT_EQ(detail::joints_on_loops(loose), expected({0, 0, 0}));
}

// A coupling ties the bodies of its two joints: both count as on a loop.
TEST(LoopJoints, CoupledJointsCountAsOnALoop) {
  Model model = bodies(3);
  hinge(model, kWorld, 0);
  hinge(model, 0, 1);
  hinge(model, 0, 2);
  JointCoupling gear;
  gear.name = "gear";
  gear.leader = 1;
  gear.follower = 2;
  model.add_coupling(gear);
  EXPECT_EQ(detail::joints_on_loops(model), expected({0, 1, 1}));
}

// A long chain: the search must not recurse once per link.
TEST(LoopJoints, LongChainsNeedNoDeepRecursion) {
  constexpr int kLinks = 200000;
  Model model = bodies(kLinks);
  for (int b = 0; b < kLinks; ++b) hinge(model, b == 0 ? kWorld : b - 1, b);
  hinge(model, kWorld, kLinks - 1);  // one loop through all of them
  const std::vector<char> on_loop = detail::joints_on_loops(model);
  EXPECT_EQ(std::count(on_loop.begin(), on_loop.end(), 1), kLinks + 1);
}

}  // namespace
}  // namespace dynamics
