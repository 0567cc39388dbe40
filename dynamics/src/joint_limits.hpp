#pragma once
// One minimal coordinate of a joint as a function of the two body poses, with
// its Jacobians (internal): the joint-limit inequalities are built from it.

#include <Eigen/Core>

#include "joint_constraint.hpp"

namespace dynamics::detail {

using Row6 = Eigen::Matrix<double, 1, 6>;

// Coordinate `i` of the joint (see joint.hpp) and its derivatives with respect
// to [dx (world), dtheta (body frame)] of the parent and of the child. An
// angle is read within half a turn of `angle_reference` (State::joint_angles).
double coordinate_jacobian(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child, int i,
                           Row6& parent_row, Row6& child_row, double angle_reference);
// Every coordinate of the joint with its rows at once (coordinate i in
// value[i], parent[i], child[i]), from the joint's evaluation at these poses
// (evaluate_joint): for a joint with several limits, one rotation vector and
// one set of rotation matrices instead of one per row.
struct CoordinateRows {
  double value[6];
  Row6 parent[6], child[6];
};
void coordinate_jacobians(const Joint& joint, const JointAxes& axes, const JointEvaluation& evaluation,
                          const Pose& parent, const Pose& child, double angle_reference, CoordinateRows& out);

}  // namespace dynamics::detail
