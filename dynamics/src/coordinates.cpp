#include "dynamics/coordinates.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "format_number.hpp"
#include "joint_constraint.hpp"
#include "joint_kinematics.hpp"
#include "mechanism_graph.hpp"

namespace dynamics {
namespace {

using detail::JointAxes;
using detail::JointEvaluation;
using detail::Pose;


struct JointKinematics {
  Matrix3 frame_parent;  // world orientation of the parent joint frame
  Matrix3 frame_child;
  Vector3 origin_parent, origin_child;  // world
};

// Velocities of a body in the world frame; the world does not move.
Vector3 world_velocity(const State& s, int body) { return body == kWorld ? Vector3::Zero() : s.velocity[body]; }
Vector3 world_angular_velocity(const State& s, int body) {
  return body == kWorld ? Vector3::Zero() : Vector3(s.orientation[body] * s.angular_velocity[body]);
}

JointKinematics kinematics(const Joint& joint, const Pose& p, const Pose& c) {
  JointKinematics k;
  k.frame_parent = (p.orientation * joint.parent_frame.orientation).toRotationMatrix();
  k.frame_child = (c.orientation * joint.child_frame.orientation).toRotationMatrix();
  k.origin_parent = p.position + p.orientation * joint.parent_frame.position;
  k.origin_child = c.position + c.orientation * joint.child_frame.position;
  return k;
}

}  // namespace

namespace detail {

double relative_angle(const Joint& joint, const Quaternion& relative) {
  return 2.0 * std::atan2(joint.axis.dot(relative.vec()), relative.w());
}

void read_coordinates(const Joint& joint, const JointAxes& axes, const Pose& p, const Pose& c, double* out,
                      double angle_reference) {
  JointEvaluation e;
  detail::evaluate_joint(joint, axes, p, c, false, e);
  coordinates_of(joint, axes, e, out, angle_reference);
}

void coordinates_of(const Joint& joint, const JointAxes& axes, const JointEvaluation& e, double* out,
                    double angle_reference) {
  for (int i = 0; i < axes.t_free; ++i) out[i] = axes.translational_free.row(i).dot(e.offset);
  double* r = out + axes.t_free;
  if (axes.r_free == 1) {
    r[0] = unwrap_angle(relative_angle(joint, e.relative), angle_reference);
  } else if (axes.r_free > 1) {
    const Vector3 v = rotation_vector(e.relative);
    for (int i = 0; i < axes.r_free; ++i) r[i] = axes.rotational_free.row(i).dot(v);
  }
}

void track_joint_angles(const Model& model, State& state) {
  double values[6];
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if (joint.freedom.rotational != 1) continue;
    read_coordinates(joint, joint_axes(joint), body_pose(state, joint.parent), body_pose(state, joint.child), values,
                     state.joint_angles[j]);
    state.joint_angles[j] = values[joint.freedom.translational];
  }
}

RateJacobian rate_jacobian(const Joint& joint, const JointAxes& axes, const Pose& p, const Pose& c) {
  const JointKinematics k = kinematics(joint, p, c);
  const Matrix3 rp = p.orientation.toRotationMatrix(), rc = c.orientation.toRotationMatrix();
  RateJacobian d;
  // Translation along a (world): the rate of a . (origin_c - origin_p) in the
  // turning parent joint frame. For a parent turning at w_p the child's joint
  // origin moves relative to that frame by the lever from the parent's centre.
  const Vector3 lever_c = k.origin_child - c.position, lever_p = k.origin_child - p.position;
  for (int i = 0; i < axes.t_free; ++i) {
    const Vector3 a = k.frame_parent * axes.translational_free.row(i).transpose();
    d.child.row(i) << a.transpose(), (rc.transpose() * lever_c.cross(a)).transpose();
    d.parent.row(i) << -a.transpose(), -(rp.transpose() * lever_p.cross(a)).transpose();
  }
  // Rotation about b (world): b . (w_c - w_p).
  for (int i = 0; i < axes.r_free; ++i) {
    const Vector3 b = k.frame_child * axes.rotational_free.row(i).transpose();
    d.child.row(axes.t_free + i) << Vector3::Zero().transpose(), (rc.transpose() * b).transpose();
    d.parent.row(axes.t_free + i) << Vector3::Zero().transpose(), -(rp.transpose() * b).transpose();
  }
  if (joint.parent == kWorld) d.parent.setZero();
  return d;
}

// The rates of the state's velocities, through the same map.
void read_rates(const Joint& joint, const JointAxes& axes, const State& s, double* out) {
  const RateJacobian d = rate_jacobian(joint, axes, body_pose(s, joint.parent), body_pose(s, joint.child));
  Eigen::Matrix<double, 6, 1> child, parent = Eigen::Matrix<double, 6, 1>::Zero();
  child << s.velocity[joint.child], s.angular_velocity[joint.child];
  if (joint.parent != kWorld) parent << s.velocity[joint.parent], s.angular_velocity[joint.parent];
  const Eigen::Matrix<double, 6, 1> rates = d.child * child + d.parent * parent;
  for (int i = 0; i < joint.num_coordinates(); ++i) out[i] = rates(i);
}

}  // namespace detail

namespace {

void place_child(const Joint& joint, const JointAxes& axes, State& s, const double* values) {
  const Pose p = detail::body_pose(s, joint.parent);
  Vector3 offset = Vector3::Zero();
  for (int i = 0; i < axes.t_free; ++i) offset += values[i] * axes.translational_free.row(i).transpose();
  const double* r = values + axes.t_free;
  Quaternion relative = Quaternion::Identity();
  if (axes.r_free == 1) {
    relative = Quaternion(Eigen::AngleAxisd(r[0], joint.axis));
  } else if (axes.r_free > 1) {
    Vector3 v = Vector3::Zero();
    for (int i = 0; i < axes.r_free; ++i) v += r[i] * axes.rotational_free.row(i).transpose();
    relative = rotation_from_vector(v);
  }
  const Quaternion frame_p = p.orientation * joint.parent_frame.orientation;
  const Quaternion qc = (frame_p * relative * joint.child_frame.orientation.conjugate()).normalized();
  const Vector3 origin_c = p.position + p.orientation * joint.parent_frame.position + frame_p * offset;
  s.orientation[joint.child] = qc;
  s.position[joint.child] = origin_c - qc * joint.child_frame.position;
}

void move_child(const Joint& joint, const JointAxes& axes, State& s, const double* rates) {
  const Pose p = detail::body_pose(s, joint.parent), c = detail::body_pose(s, joint.child);
  const JointKinematics k = kinematics(joint, p, c);
  const Vector3 vp = world_velocity(s, joint.parent), wp = world_angular_velocity(s, joint.parent);
  Vector3 offset_rate = Vector3::Zero(), relative_w = Vector3::Zero();
  for (int i = 0; i < axes.t_free; ++i) offset_rate += rates[i] * axes.translational_free.row(i).transpose();
  for (int i = 0; i < axes.r_free; ++i)
    relative_w += rates[axes.t_free + i] * axes.rotational_free.row(i).transpose();
  const Vector3 wc = wp + k.frame_child * relative_w;
  const Vector3 origin_rate = vp + wp.cross(k.origin_child - p.position) + k.frame_parent * offset_rate;
  s.velocity[joint.child] = origin_rate + wc.cross(c.position - k.origin_child);
  s.angular_velocity[joint.child] = c.orientation.conjugate() * wc;
}

void check_vector(const Model& model, const Eigen::VectorXd& v, const char* what) {
  if (v.size() != model.num_coordinates())
    throw std::invalid_argument(std::string("dynamics::") + what + ": got " + std::to_string(v.size()) +
                                " values, the model has " + std::to_string(model.num_coordinates()) + " coordinates");
  if (!v.allFinite()) throw std::invalid_argument(std::string("dynamics::") + what + ": non-finite value");
}

// Followers of joint couplings take ratio * leader + offset (rates: ratio *
// leader rate) in `values`; a pass per coupling resolves chains of them.
Eigen::VectorXd with_followers(const Model& model, const Eigen::VectorXd& values, bool rates) {
  Eigen::VectorXd out = values;
  for (int pass = 0; pass < model.num_couplings(); ++pass)
    for (const JointCoupling& c : model.couplings())
      out(model.coordinate_offset(c.follower)) =
          c.ratio * out(model.coordinate_offset(c.leader)) + (rates ? 0.0 : c.offset);
  return out;
}

int check_settable(const Model& model, int joint, const Eigen::VectorXd& values, const char* what) {
  const Joint& j = model.joint(joint);
  if (values.size() != j.num_coordinates())
    throw std::invalid_argument(std::string("dynamics::") + what + ": joint '" + j.name + "' has " +
                                std::to_string(j.num_coordinates()) + (j.num_coordinates() == 1 ? " coordinate" : " coordinates") +
                                ", got " +
                                std::to_string(values.size()));
  if (compute_topology(model).closes_loop[joint])
    throw std::invalid_argument(std::string("dynamics::") + what + ": joint '" + j.name +
                                "' closes a loop; its coordinates follow from the other joints");
  const int coupling = model.coupling_of_follower(joint);
  if (coupling >= 0) {
    const int leader = model.coupling(coupling).leader, root = model.coupling_root(joint);
    throw std::invalid_argument(std::string("dynamics::") + what + ": joint '" + j.name + "' follows joint '" +
                                model.joint(leader).name + "' (coupling '" + model.coupling(coupling).name +
                                "'); set " +
                                (root == leader ? std::string("the leader")
                                                : "the chain's leader, '" + model.joint(root).name + "'"));
  }
  return model.coordinate_offset(joint);
}

}  // namespace

Eigen::VectorXd joint_positions(const Model& model, const State& state) {
  check_state(model, state);
  Eigen::VectorXd out(model.num_coordinates());
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    detail::read_coordinates(joint, detail::joint_axes(joint), detail::body_pose(state, joint.parent),
                             detail::body_pose(state, joint.child), out.data() + model.coordinate_offset(j),
                             state.joint_angles[j]);
  }
  return out;
}

Eigen::VectorXd joint_velocities(const Model& model, const State& state) {
  check_state(model, state);
  Eigen::VectorXd out(model.num_coordinates());
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    detail::read_rates(joint, detail::joint_axes(joint), state, out.data() + model.coordinate_offset(j));
  }
  return out;
}

std::vector<LimitViolation> limit_violations(const Model& model, const State& state, double tolerance) {
  const Eigen::VectorXd q = joint_positions(model, state);
  std::vector<LimitViolation> found;
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    for (int i = 0; i < joint.num_coordinates(); ++i) {
      const double value = q(model.coordinate_offset(j) + i);
      if (!joint.lower.empty() && value < joint.lower[i] - tolerance) found.push_back({j, i, value, joint.lower[i], true});
      if (!joint.upper.empty() && value > joint.upper[i] + tolerance)
        found.push_back({j, i, value, joint.upper[i], false});
    }
  }
  return found;
}

void set_joint_positions(const Model& model, State& state, const Eigen::VectorXd& positions) {
  check_state(model, state);
  check_vector(model, positions, "set_joint_positions");
  const Eigen::VectorXd all = with_followers(model, positions, false);
  const Topology topology = compute_topology(model);
  for (int j : topology.tree_joints) {
    const Joint& joint = model.joint(j);
    if (joint.freedom.rotational != 1) continue;
    const double angle = all(model.coordinate_offset(j) + joint.freedom.translational);
    if (!(std::abs(angle) <= detail::kMaxJointAngle))
      throw std::invalid_argument("dynamics::set_joint_positions: joint '" + joint.name + "' at " +
                                  detail::format_number(angle) + " rad lies beyond +-1e9 rad (about 160 million " +
                                  "turns), where the angle keeps less than 1e-7 rad of precision beside its turns");
  }
  for (int j : topology.tree_joints) {
    const Joint& joint = model.joint(j);
    place_child(joint, detail::joint_axes(joint), state, all.data() + model.coordinate_offset(j));
  }
  // A tree joint's angle is the one given, whole turns included; a loop
  // closure's is read from where the others put it.
  detail::track_joint_angles(model, state);
  for (int j : topology.tree_joints) {
    const Joint& joint = model.joint(j);
    if (joint.freedom.rotational == 1)
      state.joint_angles[j] = all(model.coordinate_offset(j) + joint.freedom.translational);
  }
}

void set_joint_velocities(const Model& model, State& state, const Eigen::VectorXd& velocities) {
  check_state(model, state);
  check_vector(model, velocities, "set_joint_velocities");
  const Eigen::VectorXd all = with_followers(model, velocities, true);
  for (int j : compute_topology(model).tree_joints) {
    const Joint& joint = model.joint(j);
    move_child(joint, detail::joint_axes(joint), state, all.data() + model.coordinate_offset(j));
  }
}

void set_joint_position(const Model& model, State& state, int joint, const Eigen::VectorXd& values) {
  check_state(model, state);
  const int offset = check_settable(model, joint, values, "set_joint_position");
  Eigen::VectorXd all = joint_positions(model, state);
  all.segment(offset, values.size()) = values;
  set_joint_positions(model, state, all);
}

void set_joint_velocity(const Model& model, State& state, int joint, const Eigen::VectorXd& values) {
  check_state(model, state);
  const int offset = check_settable(model, joint, values, "set_joint_velocity");
  Eigen::VectorXd all = joint_velocities(model, state);
  all.segment(offset, values.size()) = values;
  set_joint_velocities(model, state, all);
}

}  // namespace dynamics
