#pragma once
// The graphsolve graph of a mechanism (internal): one 6x6 node per body and
// one zero-diagonal node per joint with constraints (its constraint count),
// an edge from each joint node to each of its bodies. Floating joints have no
// node. Each joint coupling is a zero-diagonal node of one row attached to
// the bodies of its two joints (a cycle through the joint nodes). With inequalities, a joint with finite limits gets a second node with
// one row per limit, attached to the same bodies (a short cycle: at most one
// fill block per limited joint), and every contact site is one more node:
// attached only to its body for a ground contact (a leaf), to both bodies for
// a contact between colliders. A damped joint between two bodies couples them
// directly (its damper is implicit in the step): an edge between the bodies,
// parallel to the joint node (a triangle, which the ordering eliminates
// without fill). Analysed once per model, and again whenever the broad phase
// changes the set of contacts between colliders.

#include <cmath>
#include <vector>

#include <graphsolve/graphsolve.hpp>

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"
#include "contact_site.hpp"
#include "joint_constraint.hpp"
#include "joint_coupling.hpp"

namespace dynamics::detail {

// One side of a joint coordinate's range: value sign * (coordinate - bound) >= 0.
struct LimitRow {
  int joint = -1;
  int coordinate = 0;  // within the joint
  double sign = 1.0;   // +1 lower limit, -1 upper limit
  double bound = 0.0;
};

struct MechanismGraph {
  graphsolve::Graph graph;
  std::vector<int> joint_node;  // graph node of each joint, -1 for a joint without rows
  std::vector<JointAxes> axes;  // per joint
  std::vector<LimitRow> limits;          // in node order; a joint's rows are contiguous
  std::vector<int> joint_first_limit;    // per joint: index into limits (count = joint_limit_count)
  std::vector<int> joint_limit_count;
  std::vector<int> limit_node;           // per joint: graph node of its limit rows, -1 without
  std::vector<int> contact_node;         // per contact site
  std::vector<int> coupling_node;        // per joint coupling
  std::vector<CouplingBodies> coupling_bodies;
};

// A joint with a force on its rates, a damper or friction (one with coordinates to act on).
inline bool has_damper(const Joint& joint) {
  return (joint.damping != 0.0 || joint.friction != 0.0) && joint.num_coordinates() > 0;
}

// Contacts per friction model: the size of a contact node.
int contact_node_size(FrictionModel friction, int directions);

// Without `for_steps` (position projection): bodies, joints and couplings
// only. With it (the simulator's steps): also joint limits, one node per
// contact site (ground contacts first, then pair features) and the edges of
// dampers and joint friction; without `with_limits`, a step's graph without
// its limits (equality_system.hpp).
MechanismGraph build_mechanism_graph(const Model& model, bool for_steps = false,
                                     const std::vector<ContactSite>& sites = {}, bool with_limits = true);

// Edges between the two bodies of every damped joint (a damper couples their
// velocities); build_mechanism_graph adds them with `for_steps`.
void add_damper_edges(const Model& model, MechanismGraph& mg);

// The joint coupling whose row is graph node `node`, or -1.
inline int coupling_of_node(const MechanismGraph& mg, int node) {
  if (node < 0) return -1;
  for (int c = 0; c < static_cast<int>(mg.coupling_node.size()); ++c)
    if (mg.coupling_node[c] == node) return c;
  return -1;
}

// The joint whose constraint or limit rows are graph node `node`, or -1.
inline int joint_of_node(const MechanismGraph& mg, int node) {
  if (node < 0) return -1;
  for (int j = 0; j < static_cast<int>(mg.joint_node.size()); ++j)
    if (mg.joint_node[j] == node || mg.limit_node[j] == node) return j;
  return -1;
}

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

// The mechanism's mass scale (kg): the geometric mean of its body masses, 1
// without bodies (and exactly 1 when every body weighs 1 kg). The Newton
// solvers measure momenta, impulses and the joint regularization against it,
// so that a mechanism scaled uniformly in mass (milligrams or tonnes) solves
// like the same mechanism in kilograms: against absolute constants, a light
// mechanism's momentum residual was negligible beside its constraint error
// (the line search rejected full Newton steps) and a heavy one's could not
// fall below the tolerance for round-off.
inline double mass_scale(const Model& model) {
  if (model.num_bodies() == 0) return 1.0;
  double log_sum = 0.0;
  for (int b = 0; b < model.num_bodies(); ++b) log_sum += std::log(model.body(b).mass);
  return std::exp(log_sum / model.num_bodies());
}

}  // namespace dynamics::detail
