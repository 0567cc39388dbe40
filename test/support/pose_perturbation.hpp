#pragma once
// Finite-difference helper of the Jacobian tests: a pose moved along one of
// the six Jacobian columns [dx (world), dtheta (body frame)].

#include "dynamics/quaternion.hpp"
#include "joint_constraint.hpp"

namespace dynamics::test {

inline detail::Pose perturbed(const detail::Pose& p, int column, double h) {
  detail::Pose q = p;
  Vector3 e = Vector3::Zero();
  e(column % 3) = h;
  if (column < 3) q.position += e;
  else q.orientation = q.orientation * rotation_from_vector(e);
  return q;
}

}  // namespace dynamics::test
