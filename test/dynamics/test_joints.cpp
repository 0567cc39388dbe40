// Joint primitives: analytic Jacobians against finite differences, and the
// minimal coordinates and rates of all 16 translational x rotational
// combinations round-tripped through the bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "dynamics/dynamics.hpp"
#include "joint_constraint.hpp"
#include "pose_perturbation.hpp"

namespace dynamics {
namespace {

Quaternion random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quaternion(n(rng), n(rng), n(rng), n(rng)).normalized();
}

Vector3 random_vector(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vector3(u(rng), u(rng), u(rng));
}

Joint random_joint(std::mt19937& rng, int t_free, int r_free, int parent) {
  Joint j;
  j.name = "j";
  j.parent = parent;
  j.child = 1;
  j.freedom = {t_free, r_free};
  j.axis = random_vector(rng).normalized();
  j.parent_frame = Frame{random_vector(rng), random_rotation(rng)};
  j.child_frame = Frame{random_vector(rng), random_rotation(rng)};
  return j;
}

using test::perturbed;

TEST(JointJacobian, MatchesFiniteDifferencesForAllSixteenCombinations) {
  std::mt19937 rng(7);
  const double h = 1e-6;
  for (int t = 0; t <= 3; ++t) {
    for (int r = 0; r <= 3; ++r) {
      for (int parent : {kWorld, 0}) {
        const Joint joint = random_joint(rng, t, r, parent);
        const detail::JointAxes axes = detail::joint_axes(joint);
        const detail::Pose pp{random_vector(rng), random_rotation(rng)};
        const detail::Pose pc{random_vector(rng), random_rotation(rng)};
        const detail::Pose pw{};
        const detail::Pose& p = parent == kWorld ? pw : pp;
        detail::JointEvaluation e, plus, minus;
        detail::evaluate_joint(joint, axes, p, pc, true, e);
        const int m = joint.num_constraints();
        if (m == 0) continue;
        for (int c = 0; c < 6; ++c) {
          detail::evaluate_joint(joint, axes, p, perturbed(pc, c, h), false, plus);
          detail::evaluate_joint(joint, axes, p, perturbed(pc, c, -h), false, minus);
          const Eigen::VectorXd fd = (plus.value - minus.value).head(m) / (2 * h);
          EXPECT_LT((fd - e.child.col(c).head(m)).lpNorm<Eigen::Infinity>(), 1e-7) << "t" << t << "r" << r << " child col " << c;
          if (parent == kWorld) continue;
          detail::evaluate_joint(joint, axes, perturbed(p, c, h), pc, false, plus);
          detail::evaluate_joint(joint, axes, perturbed(p, c, -h), pc, false, minus);
          const Eigen::VectorXd fdp = (plus.value - minus.value).head(m) / (2 * h);
          EXPECT_LT((fdp - e.parent.col(c).head(m)).lpNorm<Eigen::Infinity>(), 1e-7) << "t" << t << "r" << r << " parent col " << c;
        }
      }
    }
  }
}

// JointEvaluation's contract: the value's entries and the Jacobians' rows past
// num_constraints() are zero, whatever the evaluation held before (each
// primitive without constrained rows is skipped, so they must be cleared).
TEST(JointJacobian, RowsPastTheConstraintsAreZeroForAllSixteenCombinations) {
  std::mt19937 rng(11);
  for (int t = 0; t <= 3; ++t) {
    for (int r = 0; r <= 3; ++r) {
      const Joint joint = random_joint(rng, t, r, 0);
      const detail::JointAxes axes = detail::joint_axes(joint);
      const detail::Pose p{random_vector(rng), random_rotation(rng)};
      const detail::Pose c{random_vector(rng), random_rotation(rng)};
      const int unused = 6 - joint.num_constraints();
      for (bool jacobian : {false, true}) {
        detail::JointEvaluation e;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        e.value.setConstant(nan);
        e.child.setConstant(nan);
        e.parent.setConstant(nan);
        detail::evaluate_joint(joint, axes, p, c, jacobian, e);
        EXPECT_TRUE(e.value.tail(unused).isZero(0.0)) << "t" << t << "r" << r;
        EXPECT_TRUE(e.value.allFinite()) << "t" << t << "r" << r;
        if (!jacobian) continue;
        EXPECT_TRUE(e.child.bottomRows(unused).isZero(0.0)) << "t" << t << "r" << r;
        EXPECT_TRUE(e.parent.bottomRows(unused).isZero(0.0)) << "t" << t << "r" << r;
        EXPECT_TRUE(e.child.allFinite() && e.parent.allFinite()) << "t" << t << "r" << r;
      }
    }
  }
}

// The Jacobians alone, completed on a value-only evaluation (what the
// simulator does at a step's converged end), are the numbers an evaluation
// with Jacobians gives, bit for bit, whatever the blocks held before.
TEST(JointJacobian, CompletingAValueOnlyEvaluationMatchesEvaluatingAtOnce) {
  std::mt19937 rng(13);
  for (int t = 0; t <= 3; ++t)
    for (int r = 0; r <= 3; ++r)
      for (int parent : {kWorld, 0}) {
        const Joint joint = random_joint(rng, t, r, parent);
        const detail::JointAxes axes = detail::joint_axes(joint);
        const detail::Pose pp{random_vector(rng), random_rotation(rng)};
        const detail::Pose c{random_vector(rng), random_rotation(rng)};
        const detail::Pose p = parent == kWorld ? detail::Pose{} : pp;
        detail::JointEvaluation at_once, completed;
        detail::evaluate_joint(joint, axes, p, c, true, at_once);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        completed.child.setConstant(nan);
        completed.parent.setConstant(nan);
        detail::evaluate_joint(joint, axes, p, c, false, completed);
        detail::joint_jacobian(joint, axes, p, c, completed);
        EXPECT_TRUE(completed.value == at_once.value) << "t" << t << "r" << r;
        EXPECT_TRUE(completed.child == at_once.child) << "t" << t << "r" << r;
        EXPECT_TRUE(completed.parent == at_once.parent) << "t" << t << "r" << r;
      }
}

// Joint frames turned like their bodies (identity orientations, as URDF's
// child frames and the built-in models have) skip their products: the same
// numbers, bit for bit, as the general path, which the axes' flags switched
// off force. Every combination of aligned frames and of the 16 primitives.
TEST(JointJacobian, AlignedFramesGiveTheGeneralPathsNumbers) {
  std::mt19937 rng(17);
  for (int t = 0; t <= 3; ++t)
    for (int r = 0; r <= 3; ++r)
      for (int parent : {kWorld, 0})
        for (int aligned = 1; aligned <= 3; ++aligned) {  // bit 0: parent frame, bit 1: child frame
          Joint joint = random_joint(rng, t, r, parent);
          if (aligned & 1) joint.parent_frame.orientation = Quaternion::Identity();
          if (aligned & 2) joint.child_frame.orientation = Quaternion::Identity();
          const detail::JointAxes axes = detail::joint_axes(joint);
          EXPECT_EQ(axes.parent_aligned, (aligned & 1) != 0);
          EXPECT_EQ(axes.child_aligned, (aligned & 2) != 0);
          EXPECT_EQ(axes.translational_parent_identity, t == 0 && (aligned & 1));
          detail::JointAxes general = axes;
          general.parent_aligned = general.child_aligned = general.translational_parent_identity = false;
          const detail::Pose pp{random_vector(rng), random_rotation(rng)};
          const detail::Pose c{random_vector(rng), random_rotation(rng)};
          const detail::Pose p = parent == kWorld ? detail::Pose{} : pp;
          detail::JointEvaluation fast, slow;
          detail::evaluate_joint(joint, axes, p, c, true, fast);
          detail::evaluate_joint(joint, general, p, c, true, slow);
          const std::string where = "t" + std::to_string(t) + " r" + std::to_string(r) + " aligned " +
                                    std::to_string(aligned) + (parent == kWorld ? " world" : " body");
          EXPECT_TRUE(fast.value == slow.value) << where;
          EXPECT_TRUE(fast.child == slow.child) << where;
          EXPECT_TRUE(fast.parent == slow.parent) << where;
          EXPECT_TRUE(fast.offset == slow.offset && fast.offset_in_parent == slow.offset_in_parent) << where;
          EXPECT_TRUE(fast.relative.coeffs() == slow.relative.coeffs()) << where;
        }
  // A frame turned by the quaternion -1 turns no vector, but is not aligned:
  // skipping it would flip the relative quaternion's sign.
  Joint joint = random_joint(rng, 0, 1, 0);
  joint.parent_frame.orientation = Quaternion(-1.0, 0.0, 0.0, 0.0);
  EXPECT_FALSE(detail::joint_axes(joint).parent_aligned);
}

TEST(JointTypes, NamedTypesHaveTheDocumentedFreedoms) {
  EXPECT_EQ(Joint::make(JointType::Revolute, "r", kWorld, 0).num_constraints(), 5);
  EXPECT_EQ(Joint::make(JointType::Spherical, "s", kWorld, 0).num_constraints(), 3);
  EXPECT_EQ(Joint::make(JointType::PlanarAxis, "p", kWorld, 0).num_constraints(), 3);
  EXPECT_EQ(Joint::make(JointType::Floating, "f", kWorld, 0).num_constraints(), 0);
  EXPECT_EQ(joint_type_name({0, 2}), "t0r2");
  EXPECT_EQ(joint_type_name({1, 1}), "cylindrical");
}

// Two bodies on a joint of every combination: set coordinates and rates, read
// them back, and check the constraint holds at the placed pose.
TEST(JointCoordinates, SetAndGetRoundTripForAllSixteenCombinations) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int t = 0; t <= 3; ++t) {
    for (int r = 0; r <= 3; ++r) {
      Model model;
      model.gravity = Vector3::Zero();
      Body base;
      base.name = "base";
      base.position = random_vector(rng);
      base.orientation = random_rotation(rng);
      model.add_body(base);
      Body link;
      link.name = "link";
      model.add_body(link);
      Joint joint = random_joint(rng, t, r, 0);
      model.add_joint(joint);
      State s = make_state(model);
      s.velocity[0] = random_vector(rng);
      s.angular_velocity[0] = random_vector(rng);
      const int n = t + r;
      Eigen::VectorXd q(n), v(n);
      for (int i = 0; i < n; ++i) {
        q(i) = u(rng);
        v(i) = u(rng);
      }
      set_joint_positions(model, s, q);
      set_joint_velocities(model, s, v);
      EXPECT_LT(constraint_violation(model, s), 1e-12) << joint_type_name({t, r});
      EXPECT_LT((joint_positions(model, s) - q).lpNorm<Eigen::Infinity>(), 1e-12) << joint_type_name({t, r});
      EXPECT_LT((joint_velocities(model, s) - v).lpNorm<Eigen::Infinity>(), 1e-12) << joint_type_name({t, r});
    }
  }
}

TEST(JointCoordinates, RevoluteAngleAndRateMatchTheBodyMotion) {
  Model model = pendulum(1.0, 1.0, 0.0);
  State s = make_state(model);
  set_joint_position(model, s, 0, Eigen::VectorXd::Constant(1, 0.3));
  set_joint_velocity(model, s, 0, Eigen::VectorXd::Constant(1, 2.0));
  // The link hangs 0.3 rad from vertical, its centre half a length from the pivot.
  EXPECT_NEAR(s.position[0].x(), -0.5 * std::sin(0.3), 1e-14);
  EXPECT_NEAR(s.position[0].z(), -0.5 * std::cos(0.3), 1e-14);
  EXPECT_NEAR(s.angular_velocity[0].y(), 2.0, 1e-14);
  EXPECT_NEAR(s.velocity[0].norm(), 0.5 * 2.0, 1e-14);
}

// URDF's planar joint (PlanarAxis) slides along the images of x and y under
// the shortest rotation taking z to its axis: x and y for an axis along z,
// and the axes MuJoCo's URDF importer gives the slides TX and TY it makes of
// the joint (read from MuJoCo 2.2 for these axes), so --q0 values mean the
// same in both.
TEST(JointCoordinates, PlanarSlidesAlongTheAxesMujocoGivesThem) {
  struct Case {
    Vector3 axis, tx, ty;
  };
  const Case cases[] = {{Vector3::UnitZ(), Vector3::UnitX(), Vector3::UnitY()},
                        {-Vector3::UnitZ(), Vector3::UnitX(), -Vector3::UnitY()},
                        {Vector3::UnitY(), Vector3::UnitX(), -Vector3::UnitZ()},
                        {Vector3::UnitX(), -Vector3::UnitZ(), Vector3::UnitY()}};
  for (const Case& c : cases) {
    Model model;
    model.add_body(make_link("plate", 1.0, 1.0));
    model.add_joint(Joint::make(JointType::PlanarAxis, "planar", kWorld, 0, c.axis));
    State s = make_state(model);
    set_joint_position(model, s, 0, Eigen::Vector3d(0.3, -0.7, 0.0));
    EXPECT_TRUE(s.position[0].isApprox(0.3 * c.tx - 0.7 * c.ty, 1e-14)) << c.axis.transpose();
    set_joint_position(model, s, 0, Eigen::Vector3d(0.0, 0.0, 0.5));  // the turn is about the axis itself
    EXPECT_TRUE(s.orientation[0].isApprox(Quaternion(Eigen::AngleAxisd(0.5, c.axis)), 1e-14)) << c.axis.transpose();
  }
}

TEST(JointCoordinates, LoopClosingJointCannotBeSet) {
  Model model = four_bar();
  State s = make_state(model);
  try {
    set_joint_position(model, s, 3, Eigen::VectorXd::Constant(1, 0.1));
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("closes a loop"), std::string::npos) << e.what();
  }
}

TEST(Projection, ClosesAPerturbedLoopAndReportsTheCorrection) {
  Model model = four_bar(1.0, 1.0, 0.5);
  State s = make_state(model);
  EXPECT_LT(constraint_violation(model, s), 1e-12);
  Eigen::VectorXd q = joint_positions(model, s);
  q(0) += 0.05;  // crank moved, rocker not: the coupler no longer reaches
  set_joint_positions(model, s, q);
  EXPECT_GT(constraint_violation(model, s), 1e-3);
  const ProjectionResult p = project_positions(model, s);
  EXPECT_TRUE(p.converged);
  EXPECT_LT(p.violation, 1e-12);
  EXPECT_LT(constraint_violation(model, s), 1e-12);
  EXPECT_GT(p.translation, 1e-3);
  EXPECT_LT(p.translation, 0.1);
}

TEST(Projection, ImpossibleClosureIsReported) {
  // Pivots 5 m apart with 1 m links: the loop cannot close.
  Model model;
  const int a = model.add_body(make_link("a", 1.0, 1.0));
  const int b = model.add_body(make_link("b", 1.0, 1.0));
  Joint j1 = Joint::make(JointType::Spherical, "j1", kWorld, a);
  j1.child_frame.position = Vector3(0, 0, 0.5);
  Joint j2 = Joint::make(JointType::Spherical, "j2", a, b);
  j2.parent_frame.position = Vector3(0, 0, -0.5);
  j2.child_frame.position = Vector3(0, 0, 0.5);
  Joint j3 = Joint::make(JointType::Spherical, "j3", kWorld, b);
  j3.parent_frame.position = Vector3(5, 0, 0);
  j3.child_frame.position = Vector3(0, 0, -0.5);
  model.add_joint(j1);
  model.add_joint(j2);
  State s = make_state(model);  // the open chain, before the loop is closed
  model.add_joint(j3);
  s.joint_input.setZero(model.num_coordinates());
  s.joint_angles.resize(model.num_joints(), 0.0);
  const ProjectionResult p = project_positions(model, s);
  EXPECT_FALSE(p.converged);
  // The least-squares compromise leaves 5 - 2 m of gap spread over the loop.
  EXPECT_GT(p.violation, 0.1);
  ASSERT_FALSE(p.violated_joints.empty());
  EXPECT_NE(std::find(p.violated_joints.begin(), p.violated_joints.end(), p.worst_joint), p.violated_joints.end());
  try {
    make_state(model);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot be satisfied"), std::string::npos) << what;
    for (int j : p.violated_joints) EXPECT_NE(what.find("'" + model.joint(j).name + "'"), std::string::npos) << what;
    EXPECT_NE(what.find("largest: '" + model.joint(p.worst_joint).name + "'"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace dynamics
