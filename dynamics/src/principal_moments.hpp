#pragma once
// The principal moments of an inertia matrix and the triangle inequality every
// rigid body's moments obey, for the checks of bodies and of URDF links.

#include <Eigen/Eigenvalues>

#include "dynamics/quaternion.hpp"

namespace dynamics::detail {

struct PrincipalMoments {
  Vector3 values;         // ascending
  bool triangle = false;  // the two smaller add up to at least the largest
};

inline PrincipalMoments principal_moments(const Matrix3& inertia) {
  PrincipalMoments m;
  m.values = Eigen::SelfAdjointEigenSolver<Matrix3>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
  m.triangle = m.values(0) + m.values(1) >= m.values(2) * (1.0 - 1e-9);
  return m;
}

}  // namespace dynamics::detail
