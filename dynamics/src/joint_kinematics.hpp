#pragma once
// Minimal coordinates and rates of one joint (internal; see joint.hpp).

#include <cmath>
#include <vector>

#include "dynamics/joint.hpp"
#include "dynamics/model.hpp"
#include "dynamics/state.hpp"
#include "joint_constraint.hpp"

namespace dynamics::detail {

// The poses give an angle about one free axis only modulo 2 pi: it is read
// as the value within half a turn of `reference`, the angle the joint had a
// moment before (State::joint_angles), which counts its whole turns. A step
// turns every body by less than a quarter turn, so a joint by less than half.
inline double unwrap_angle(double angle, double reference) {
  // Not std::remainder, a library call as slow as the rest of the reading.
  const double turns = std::nearbyint((angle - reference) * (0.5 / kPi));
  return angle - 2.0 * kPi * turns;
}
// Beyond it a double keeps an angle to less than 1e-7 rad (its spacing
// there): such angles are refused rather than read coarsely.
constexpr double kMaxJointAngle = 1e9;
// The angle about the axis of a joint with one free rotation, modulo 2 pi.
double relative_angle(const Joint& joint, const Quaternion& relative);

// Coordinates of the joint between two poses; out has num_coordinates() entries.
// `angle_reference` is the joint's State::joint_angles entry (unused unless
// the joint has exactly one free rotation).
void read_coordinates(const Joint& joint, const JointAxes& axes, const Pose& parent, const Pose& child, double* out,
                      double angle_reference);
// The same from an evaluation of the joint (its offset and relative rotation).
void coordinates_of(const Joint& joint, const JointAxes& axes, const JointEvaluation& evaluation, double* out,
                    double angle_reference);
// Every State::joint_angles entry brought to the state's poses, each read
// within half a turn of its old value (the poses moved by less than that).
void track_joint_angles(const Model& model, State& state);
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
