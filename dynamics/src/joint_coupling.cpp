#include "joint_coupling.hpp"

#include <cmath>

namespace dynamics::detail {

CouplingBodies coupling_bodies(const Model& model, const JointCoupling& coupling) {
  CouplingBodies out;
  for (int j : {coupling.leader, coupling.follower})
    for (int b : {model.joint(j).parent, model.joint(j).child}) {
      bool known = b == kWorld;
      for (int i = 0; i < out.count && !known; ++i) known = out.body[i] == b;
      if (!known) out.body[out.count++] = b;
    }
  return out;
}

void evaluate_coupling(const Model& model, const std::vector<JointAxes>& axes, const JointCoupling& coupling,
                       const CouplingBodies& bodies, const std::vector<Pose>& poses,
                       const std::vector<double>& angles, CouplingEvaluation& out) {
  const auto pose = [&](int b) { return b == kWorld ? Pose{} : poses[b]; };
  for (int i = 0; i < bodies.count; ++i) out.row[i].setZero();
  // Adds `weight` times the joint's coordinate rows to the rows of its bodies.
  const auto add = [&](int j, double weight) {
    const Joint& joint = model.joint(j);
    Row6 parent_row, child_row;
    const double q =
        coordinate_jacobian(joint, axes[j], pose(joint.parent), pose(joint.child), 0, parent_row, child_row, angles[j]);
    for (int i = 0; i < bodies.count; ++i) {
      if (bodies.body[i] == joint.child) out.row[i] += weight * child_row;
      if (bodies.body[i] == joint.parent) out.row[i] += weight * parent_row;
    }
    return weight * q;
  };
  double c = add(coupling.follower, 1.0) + add(coupling.leader, -coupling.ratio) - coupling.offset;
  // A follower at an angle a whole turn away stands where the coupling puts
  // it: only the leader's turns count (a gear of ratio 1/2 turns its
  // follower half a turn per turn of the leader).
  if (model.joint(coupling.follower).freedom.rotational == 1) c -= 2.0 * kPi * std::round(c / (2.0 * kPi));
  out.value = c;
}

}  // namespace dynamics::detail
