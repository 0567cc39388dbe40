#pragma once
// The constraint of a JointCoupling (internal; see joint.hpp):
//   c(z) = follower - ratio * leader - offset,
// wrapped into [-pi, pi] when the follower is an angle (its pose does not
// count its whole turns), with its Jacobian
// rows on the distinct bodies of the two joints (the coupling's graph edges).

#include <array>
#include <vector>

#include "dynamics/model.hpp"
#include "joint_constraint.hpp"
#include "joint_limits.hpp"

namespace dynamics::detail {

// The bodies of the two joints, each once, without the world.
struct CouplingBodies {
  std::array<int, 4> body{-1, -1, -1, -1};
  int count = 0;
};

CouplingBodies coupling_bodies(const Model& model, const JointCoupling& coupling);

struct CouplingEvaluation {
  double value = 0.0;
  std::array<Row6, 4> row;  // d c / d(dx world, dtheta body) per body, in CouplingBodies order
};

// `poses` holds every body's pose (indexed by body), `angles` every joint's
// angle near them (State::joint_angles: it counts a leader's whole turns).
void evaluate_coupling(const Model& model, const std::vector<JointAxes>& axes, const JointCoupling& coupling,
                       const CouplingBodies& bodies, const std::vector<Pose>& poses,
                       const std::vector<double>& angles, CouplingEvaluation& out);

}  // namespace dynamics::detail
