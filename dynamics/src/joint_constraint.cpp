#include "joint_constraint.hpp"

#include <cmath>

namespace dynamics::detail {
namespace {

// Two unit vectors completing `axis` to a right-handed orthonormal basis.
void complete_basis(const Vector3& axis, Vector3& u, Vector3& w) {
  Eigen::Index least;
  axis.cwiseAbs().minCoeff(&least);
  u = axis.cross(Vector3::Unit(least)).normalized();
  w = axis.cross(u);
}

void split(int free, const Vector3& a, const Vector3& u, const Vector3& w, Eigen::Matrix3d& free_rows,
           Eigen::Matrix3d& constrained_rows) {
  free_rows.setZero();
  constrained_rows.setZero();
  switch (free) {
    case 0: constrained_rows.setIdentity(); break;
    case 1:
      free_rows.row(0) = a.transpose();
      constrained_rows.row(0) = u.transpose();
      constrained_rows.row(1) = w.transpose();
      break;
    case 2:
      free_rows.row(0) = u.transpose();
      free_rows.row(1) = w.transpose();
      constrained_rows.row(0) = a.transpose();
      break;
    default: free_rows.setIdentity(); break;
  }
}

}  // namespace

JointAxes joint_axes(const Joint& joint) {
  JointAxes axes;
  Vector3 u, w;
  complete_basis(joint.axis, u, w);
  axes.t_free = joint.freedom.translational;
  axes.r_free = joint.freedom.rotational;
  split(axes.t_free, joint.axis, u, w, axes.translational_free, axes.translational_constrained);
  split(axes.r_free, joint.axis, u, w, axes.rotational_free, axes.rotational_constrained);
  return axes;
}

void evaluate_joint(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child, bool jacobian,
                    JointEvaluation& out) {
  const Matrix3 qp = parent.orientation.toRotationMatrix();
  const Matrix3 qc = child.orientation.toRotationMatrix();
  const Quaternion frame_p = parent.orientation * joint.parent_frame.orientation;
  const Quaternion frame_c = child.orientation * joint.child_frame.orientation;
  const Matrix3 rp = frame_p.toRotationMatrix();
  const Vector3 origin_p = parent.position + qp * joint.parent_frame.position;
  const Vector3 lever_c = qc * joint.child_frame.position;  // child COM to its joint origin, world
  const Vector3 origin_c = child.position + lever_c;
  out.offset = rp.transpose() * (origin_c - origin_p);
  out.relative = frame_p.conjugate() * frame_c;

  // Products use the full 3x3 direction matrices (unused rows are zero) so
  // that Eigen works on fixed sizes; only the copies take the row counts.
  const int nt = 3 - axes.t_free, nr = 3 - axes.r_free;
  const Matrix3& pt = axes.translational_constrained;
  const Matrix3& pr = axes.rotational_constrained;
  const Vector3 t_value = pt * out.offset, r_value = pr * out.relative.vec();
  out.value.head(nt) = t_value.head(nt);
  out.value.segment(nt, nr) = r_value.head(nr);
  if (!jacobian) return;

  const Matrix3 ra_t = joint.parent_frame.orientation.toRotationMatrix().transpose();  // body a -> joint frame
  const Matrix3 rc_t = joint.child_frame.orientation.toRotationMatrix().transpose();
  const Matrix3 pt_rp = pt * rp.transpose();
  // Translational rows.
  const Matrix3 child_theta = -pt_rp * qc * skew(joint.child_frame.position);
  const Matrix3 parent_theta = pt * ra_t * skew(qp.transpose() * (origin_c - parent.position));
  // Rotational rows: q_rel -> q_rel * [1, R_c^T theta / 2] for the child,
  // [1, -R_a^T theta / 2] * q_rel for the parent.
  const Matrix3 child_rot = 0.5 * pr * left_vector_block(out.relative) * rc_t;
  const Matrix3 parent_rot = -0.5 * pr * right_vector_block(out.relative) * ra_t;
  const int m = nt + nr;
  out.child.topRows(m).setZero();
  out.parent.topRows(m).setZero();
  out.child.block(0, 0, nt, 3) = pt_rp.topRows(nt);
  out.child.block(0, 3, nt, 3) = child_theta.topRows(nt);
  out.parent.block(0, 0, nt, 3) = -pt_rp.topRows(nt);
  out.parent.block(0, 3, nt, 3) = parent_theta.topRows(nt);
  out.child.block(nt, 3, nr, 3) = child_rot.topRows(nr);
  out.parent.block(nt, 3, nr, 3) = parent_rot.topRows(nr);
}

}  // namespace dynamics::detail
