#pragma once
// The graphsolve graph of a mechanism (internal): one 6x6 node per body and
// one zero-diagonal node per joint with constraints (its constraint count),
// an edge from each joint node to each of its bodies. Floating joints have no
// node. Analysed once per model.

#include <vector>

#include <graphsolve/graphsolve.hpp>

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"
#include "joint_constraint.hpp"

namespace dynamics::detail {

struct MechanismGraph {
  graphsolve::Graph graph;
  std::vector<int> joint_node;  // graph node of each joint, -1 for a joint without constraints
  std::vector<JointAxes> axes;  // per joint
};

MechanismGraph build_mechanism_graph(const Model& model);

inline Pose body_pose(const State& state, int body) {
  if (body == kWorld) return Pose{};
  return Pose{state.position[body], state.orientation[body]};
}

// Evaluate a joint on the poses of a state.
inline void evaluate_joint(const Model& model, const MechanismGraph& mg, const State& state, int j, bool jacobian,
                           JointEvaluation& out) {
  const Joint& joint = model.joint(j);
  evaluate_joint(joint, mg.axes[j], body_pose(state, joint.parent), body_pose(state, joint.child), jacobian, out);
}

// 6x6 mass matrix of a body in (world linear, body angular) coordinates.
inline Eigen::Matrix<double, 6, 6> mass_matrix(const Body& body) {
  Eigen::Matrix<double, 6, 6> m = Eigen::Matrix<double, 6, 6>::Zero();
  m.topLeftCorner<3, 3>().diagonal().setConstant(body.mass);
  m.bottomRightCorner<3, 3>() = body.inertia;
  return m;
}

}  // namespace dynamics::detail
