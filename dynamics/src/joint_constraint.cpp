#include "joint_constraint.hpp"

#include <cmath>
#include <type_traits>

#include <Eigen/Geometry>

namespace dynamics::detail {
namespace {

// Two unit vectors completing the unit `axis` to a right-handed orthonormal
// basis (u, w, axis): the images of x and y under the shortest rotation that
// takes z to the axis (half a turn about x for an axis along -z). They are
// the axes of a joint's two free translations (URDF's planar joint): x and y
// of the joint frame for an axis along z, and for any axis the in-plane axes
// MuJoCo gives that joint (its slides TX and TY), so coordinates written for
// one read the same in the other.
void complete_basis(const Vector3& axis, Vector3& u, Vector3& w) {
  const Vector3 normal = Vector3::UnitZ().cross(axis);
  const double sine = normal.norm();
  const Eigen::AngleAxisd turn(std::atan2(sine, axis.z()), sine > 1e-10 ? Vector3(normal / sine) : Vector3::UnitX());
  u = turn * Vector3::UnitX();
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

// The Jacobians, given the parent's rotation matrix qp.
void jacobian_at(const Joint& joint, const JointAxes& axes, const Matrix3& qp, const Pose& child,
                 JointEvaluation& out) {
  const int nt = 3 - axes.t_free, nr = 3 - axes.r_free;
  const Matrix3& pr = axes.rotational_constrained;
  if (nt > 0) {
    // P_t R_p^T, with R_p = q_p R_a: (P_t R_a^T) q_p^T.
    Matrix3 pt_rp;
    if (axes.translational_parent_identity) pt_rp = qp.transpose();
    else pt_rp.noalias() = axes.translational_parent * qp.transpose();
    const Matrix3 qc = child.orientation.toRotationMatrix();
    // The parent's lever arm in its body frame, q_p^T (o_c - x_p), is the
    // offset plus the parent frame's position.
    const Matrix3 pt_rc = pt_rp * qc;
    out.child.topLeftCorner<3, 3>() = pt_rp;
    out.child.topRightCorner<3, 3>().noalias() = -pt_rc * skew(joint.child_frame.position);
    out.parent.topLeftCorner<3, 3>() = -pt_rp;
    const Matrix3 parent_lever = skew(out.offset_in_parent + joint.parent_frame.position);
    if (axes.translational_parent_identity) out.parent.topRightCorner<3, 3>() = parent_lever;
    else out.parent.topRightCorner<3, 3>().noalias() = axes.translational_parent * parent_lever;
  }
  if (nr > 0) {
    // Rotational rows: q_rel -> q_rel * [1, R_c^T theta / 2] for the child,
    // [1, -R_a^T theta / 2] * q_rel for the parent.
    const Matrix3 child_left = 0.5 * pr * left_vector_block(out.relative);
    const Matrix3 parent_right = -0.5 * pr * right_vector_block(out.relative);
    out.child.block<3, 3>(nt, 0).setZero();
    if (axes.child_aligned) out.child.block<3, 3>(nt, 3) = child_left;
    else out.child.block<3, 3>(nt, 3).noalias() = child_left * axes.child_to_joint;
    out.parent.block<3, 3>(nt, 0).setZero();
    if (axes.parent_aligned) out.parent.block<3, 3>(nt, 3) = parent_right;
    else out.parent.block<3, 3>(nt, 3).noalias() = parent_right * axes.parent_to_joint;
  }
  // Rows below both primitives, as fixed-size blocks: a whole-matrix fill is
  // slower, and a loop over the rows GCC turns into a memset per column.
  const int written = nr > 0 ? nt + 3 : (nt > 0 ? 3 : 0);
  const auto clear = [&](auto rows) {
    constexpr int R = decltype(rows)::value;
    out.child.bottomRows<R>().setZero();
    out.parent.bottomRows<R>().setZero();
  };
  switch (written) {
    case 0: clear(std::integral_constant<int, 6>{}); break;
    case 3: clear(std::integral_constant<int, 3>{}); break;
    case 4: clear(std::integral_constant<int, 2>{}); break;
    case 5: clear(std::integral_constant<int, 1>{}); break;
    default: break;  // 6: every row is a constraint's
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
  axes.parent_to_joint = joint.parent_frame.orientation.toRotationMatrix().transpose();
  axes.child_to_joint = joint.child_frame.orientation.toRotationMatrix().transpose();
  axes.translational_parent = axes.translational_constrained * axes.parent_to_joint;
  // The quaternion itself, not its matrix: -1 turns no vector but would flip
  // the relative quaternion's sign if skipped.
  const auto identity = [](const Quaternion& q) { return q.coeffs() == Quaternion::Identity().coeffs(); };
  axes.parent_aligned = identity(joint.parent_frame.orientation);
  axes.child_aligned = identity(joint.child_frame.orientation);
  axes.translational_parent_identity = axes.translational_parent == Eigen::Matrix3d::Identity();
  if (axes.r_free == 1 && joint.has_limits()) {
    const int i = axes.t_free;  // the angle's coordinate
    const double lo = joint.lower.empty() ? -INFINITY : joint.lower[i];
    const double hi = joint.upper.empty() ? INFINITY : joint.upper[i];
    if (std::isfinite(lo) && std::isfinite(hi)) axes.angle_centre = 0.5 * (lo + hi);
  }
  return axes;
}

void spring_stretches(const Joint& joint, const JointAxes& axes, const double* coordinates, double* out,
                      double* twist) {
  const auto rest = [&](int i) { return joint.rest.empty() ? 0.0 : joint.rest[i]; };
  const int t = axes.t_free;
  if (twist) *twist = 0.0;
  if (axes.r_free <= 1) {
    for (int i = 0; i < t + axes.r_free; ++i) out[i] = coordinates[i] - rest(i);
    return;
  }
  for (int i = 0; i < t; ++i) out[i] = coordinates[i] - rest(i);
  Vector3 turn = Vector3::Zero(), rest_turn = Vector3::Zero();  // rotation vectors, joint frame
  for (int i = 0; i < axes.r_free; ++i) {
    turn += coordinates[t + i] * axes.rotational_free.row(i).transpose();
    rest_turn += rest(t + i) * axes.rotational_free.row(i).transpose();
  }
  Vector3 stretch = turn;
  if (!rest_turn.isZero(0.0))
    stretch = rotation_vector(rotation_from_vector(rest_turn).conjugate() * rotation_from_vector(turn));
  for (int i = 0; i < axes.r_free; ++i) out[t + i] = axes.rotational_free.row(i).dot(stretch);
  if (twist && axes.r_free == 2) *twist = joint.axis.dot(stretch);
}

void evaluate_joint(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child, bool jacobian,
                    JointEvaluation& out) {
  // The child's rotation matrix only enters the Jacobians: for the value a
  // quaternion rotation is cheaper. The offset is taken to the parent's body
  // frame and then to its joint frame: two products with a vector instead of
  // forming the joint frame's 3x3 rotation.
  const Matrix3 qp = parent.orientation.toRotationMatrix();
  const Vector3 origin_p = parent.position + qp * joint.parent_frame.position;
  const Vector3 origin_c = child.position + child.orientation * joint.child_frame.position;
  out.offset_in_parent = qp.transpose() * (origin_c - origin_p);
  if (axes.parent_aligned) out.offset = out.offset_in_parent;
  else out.offset.noalias() = axes.parent_to_joint * out.offset_in_parent;
  const Quaternion frame_p =
      axes.parent_aligned ? parent.orientation : parent.orientation * joint.parent_frame.orientation;
  const Quaternion frame_c = axes.child_aligned ? child.orientation : child.orientation * joint.child_frame.orientation;
  out.relative = frame_p.conjugate() * frame_c;

  // Every product is fixed-size on the padded 3x3 direction matrices (unused
  // rows are zero): the translational rows go to rows 0-2, then the
  // rotational ones to rows nt..nt+2, which overwrites only zero rows. A
  // primitive without constrained rows (the rotation of a spherical joint,
  // the translation of a fixed-orientation one) is skipped: its products
  // would only write zeros (nearly a third of a spherical chain's joint
  // evaluations). Products go into the blocks with noalias(): otherwise each
  // is formed in a temporary and copied, by an out-of-line Eigen call.
  const int nt = 3 - axes.t_free, nr = 3 - axes.r_free;
  const Matrix3& pt = axes.translational_constrained;
  const Matrix3& pr = axes.rotational_constrained;
  out.value.setZero();
  if (nt == 3) out.value.head<3>() = out.offset;  // every direction constrained: P_t = I
  else if (nt > 0) out.value.head<3>() = pt * out.offset;
  if (nr > 0) out.value.segment<3>(nt) = pr * out.relative.vec();
  if (jacobian) jacobian_at(joint, axes, qp, child, out);
}

void joint_jacobian(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child,
                    JointEvaluation& out) {
  jacobian_at(joint, axes, parent.orientation.toRotationMatrix(), child, out);
}

}  // namespace dynamics::detail
