#include "joint_limits.hpp"

#include <cmath>

#include "joint_kinematics.hpp"

namespace dynamics::detail {
namespace {

// Inverse of the right Jacobian of SO(3): d log(exp(rho) exp(delta)) / d delta.
Matrix3 inverse_right_jacobian(const Vector3& rho) {
  const double angle = rho.norm();
  const Matrix3 k = skew(rho);
  if (angle < 1e-6) return Matrix3::Identity() + 0.5 * k + k * k / 12.0;
  const double c = 1.0 / (angle * angle) - (1.0 + std::cos(angle)) / (2.0 * angle * std::sin(angle));
  return Matrix3::Identity() + 0.5 * k + c * k * k;
}

}  // namespace

double coordinate_jacobian(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child, int i,
                           Row6& parent_row, Row6& child_row, double angle_reference) {
  JointEvaluation e;
  evaluate_joint(joint, axes, parent, child, false, e);
  CoordinateRows rows;
  coordinate_jacobians(joint, axes, e, parent, child, angle_reference, rows);
  parent_row = rows.parent[i];
  child_row = rows.child[i];
  return rows.value[i];
}

void coordinate_jacobians(const Joint& joint, const JointAxes& axes, const JointEvaluation& e, const Pose& parent,
                          const Pose& child, double angle_reference, CoordinateRows& out) {
  coordinates_of(joint, axes, e, out.value, angle_reference);  // the evaluation above, not a second one
  const Matrix3& ra_t = axes.parent_to_joint;  // parent body -> joint frame
  const Matrix3& rc_t = axes.child_to_joint;
  if (axes.t_free > 0) {
    const Matrix3 qp = parent.orientation.toRotationMatrix();
    const Matrix3 qc = child.orientation.toRotationMatrix();
    // f . R_p^T (o_c - o_p), with R_p the parent joint frame in the world.
    const Matrix3 rp = (parent.orientation * joint.parent_frame.orientation).toRotationMatrix();
    const Vector3 origin_c = child.position + qc * joint.child_frame.position;
    const Vector3 lever = qp.transpose() * (origin_c - parent.position);
    for (int i = 0; i < axes.t_free; ++i) {
      const Eigen::RowVector3d f = axes.translational_free.row(i);
      const Eigen::RowVector3d f_rp = f * rp.transpose();
      out.child[i].head<3>() = f_rp;
      out.child[i].tail<3>() = -f_rp * qc * skew(joint.child_frame.position);
      out.parent[i].head<3>() = -f_rp;
      out.parent[i].tail<3>() = f * ra_t * skew(lever);
    }
  }
  const int count = axes.t_free + axes.r_free;
  for (int i = axes.t_free; i < count; ++i) {
    out.parent[i].head<3>().setZero();
    out.child[i].head<3>().setZero();
  }
  const Quaternion& q = e.relative;
  if (axes.r_free == 1) {
    // angle = 2 atan2(a . v, w) of q_rel = [w, v]; the child turns q_rel on the
    // right by its joint-frame rotation, the parent on the left by minus its own.
    const Vector3& a = joint.axis;
    const double s = a.dot(q.vec()), c = q.w(), n2 = s * s + c * c;
    const Eigen::RowVector3d child_d = (c * a.transpose() * left_vector_block(q) + s * q.vec().transpose()) / n2;
    const Eigen::RowVector3d parent_d = -(c * a.transpose() * right_vector_block(q) + s * q.vec().transpose()) / n2;
    out.child[axes.t_free].tail<3>() = child_d * rc_t;
    out.parent[axes.t_free].tail<3>() = parent_d * ra_t;
  } else if (axes.r_free > 1) {
    // Rotation-vector components: log(q_rel) perturbed on the right (child) and
    // on the left (parent; the left inverse Jacobian is the transposed right one).
    Quaternion p = q.w() < 0.0 ? Quaternion(-q.w(), -q.x(), -q.y(), -q.z()) : q;
    const Vector3 rho = rotation_vector(p);
    const Matrix3 jr = inverse_right_jacobian(rho);
    for (int i = axes.t_free; i < count; ++i) {
      const Eigen::RowVector3d f = axes.rotational_free.row(i - axes.t_free);
      out.child[i].tail<3>() = f * jr * rc_t;
      out.parent[i].tail<3>() = -f * jr.transpose() * ra_t;
    }
  }
}

}  // namespace dynamics::detail
