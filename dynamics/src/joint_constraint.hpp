#pragma once
// The two constraint primitives of a joint and their Jacobians (internal).
//
// With o_p, o_c the joint frame origins on parent and child (world frame),
// R_p, R_c the joint frame orientations and q_rel = R_p^-1 * R_c:
//   translational rows  P_t * R_p^T (o_c - o_p)
//   rotational rows     P_r * vec(q_rel)
// where P_t, P_r hold the constrained directions (joint frame). Jacobian
// columns are [dx (world), dtheta (body-frame rotation vector)] per body.

#include <type_traits>
#include <utility>

#include <Eigen/Core>

#include "dynamics/joint.hpp"
#include "dynamics/quaternion.hpp"

namespace dynamics::detail {

struct Pose {
  Vector3 position = Vector3::Zero();
  Quaternion orientation = Quaternion::Identity();
};

// Orthonormal directions of a joint: free ones and constrained ones for each
// primitive (rows are unit vectors in the joint frame).
struct JointAxes {
  Eigen::Matrix3d translational_free, translational_constrained;
  Eigen::Matrix3d rotational_free, rotational_constrained;
  int t_free = 0, r_free = 0;
  // Where an angle about one free axis is read when no earlier reading is
  // known (a loop-closing joint in a new state): within half a turn of the
  // midpoint of its limits when both are finite, else of 0. After that the
  // state counts its turns (State::joint_angles).
  double angle_centre = 0.0;
  // Constants of the Jacobians: body frame -> joint frame rotations of the
  // parent (R_a^T) and child (R_c^T), and P_t R_a^T.
  Eigen::Matrix3d parent_to_joint, child_to_joint, translational_parent;
  // Which of them are exactly the identity (a joint frame turned like its
  // body, as URDF's child frames and most built-in models have; every
  // translation constrained with the parent's frame so turned): products
  // with them are skipped, which gives the same numbers. MuJoCo skips the
  // frames of its "simple" bodies the same way.
  bool parent_aligned = false, child_aligned = false, translational_parent_identity = false;
};

JointAxes joint_axes(const Joint& joint);

// A spring's stretch on every coordinate of a joint (out[0..n)), from its
// coordinates. A translation's, and an angle's about one free axis (counted
// over whole turns, so a spring wound three turns pulls three turns back),
// is the coordinate minus its rest value. Two or three free rotations
// stretch by the rotation vector of the turn from the rest orientation (the
// rest's rotation vector) to the joint's: the shortest turn back, whose
// torque -k stretch is the gradient of the potential k |stretch|^2 / 2 (for
// a rest of zero, the coordinates themselves). That potential is
// continuous, with a cusp half a turn from the rest, where a plain
// difference of rotation vectors jumped as they wrapped. With two free
// rotations the turn back from a rest other than zero also twists about the
// joint axis: `twist` (if given; 0 otherwise) receives that component,
// which the spring's torque and potential include, or the torque on the
// free axes alone would do work (a tumbling body lost 60% of its energy).
void spring_stretches(const Joint& joint, const JointAxes& axes, const double* coordinates, double* out,
                      double* twist = nullptr);

using Jacobian6 = Eigen::Matrix<double, 6, 6>;

// Calls f with a joint's constraint count m (1..6) as a compile-time
// constant, so that the blocks of m rows it copies and multiplies are
// fixed-size: with a run-time m Eigen loops element by element, which made
// joint rows about 5% of a revolute chain's step.
// Does nothing for m = 0 (a joint without rows).
template <class F, int... Rows>
void with_constraint_rows(int m, F&& f, std::integer_sequence<int, Rows...> = {}) {
  if constexpr (sizeof...(Rows) == 0) {
    with_constraint_rows(m, std::forward<F>(f), std::integer_sequence<int, 1, 2, 3, 4, 5, 6>{});
  } else {
    (void)((m == Rows ? (f(std::integral_constant<int, Rows>{}), true) : false) || ...);
  }
}

struct JointEvaluation {
  Eigen::Matrix<double, 6, 1> value;  // first num_constraints() entries used, the rest zero
  Jacobian6 parent;                   // d value / d(x, theta) of the parent (unused for the world)
  Jacobian6 child;                    // rows past num_constraints() are zero
  // Relative quantities, also used for minimal coordinates.
  Vector3 offset;         // R_p^T (o_c - o_p): child origin in the parent joint frame
  Quaternion relative;    // q_rel
  Vector3 offset_in_parent;  // q_p^T (o_c - o_p): the same offset in the parent's body frame
};

// Constraint value and, when `jacobian` is set, its Jacobians.
void evaluate_joint(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child,
                    bool jacobian, JointEvaluation& out);

// The Jacobians alone, into an evaluation `out` that holds the value at the
// same poses (evaluate_joint without them): the same numbers as evaluating
// with them at once.
void joint_jacobian(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child,
                    JointEvaluation& out);

}  // namespace dynamics::detail
