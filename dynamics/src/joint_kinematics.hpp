#pragma once
// Minimal coordinates and rates of one joint (internal; see joint.hpp).

#include "dynamics/joint.hpp"
#include "dynamics/state.hpp"
#include "joint_constraint.hpp"

namespace dynamics::detail {

// Coordinates of the joint between two poses; out has num_coordinates() entries.
void read_coordinates(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child, double* out);
// The same from an evaluation of the joint (its offset and relative rotation).
void coordinates_of(const Joint& joint, const JointAxes& axes, const JointEvaluation& evaluation, double* out);
// Rates from the state's body velocities.
void read_rates(const Joint& joint, const JointAxes& axes, const State& state, double* out);

// The joint's rates are linear in its bodies' velocities (linear: world frame,
// angular: body frame) at given poses: rates = child [v_c; w_c] + parent
// [v_p; w_p]. Rows past num_coordinates() are zero; `parent` is zero for the world.
struct RateJacobian {
  Jacobian6 child = Jacobian6::Zero(), parent = Jacobian6::Zero();
};
RateJacobian rate_jacobian(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child);

}  // namespace dynamics::detail
