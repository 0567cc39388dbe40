#pragma once
// Jordan algebra of the second-order cone in R^3 (internal) and the
// Nesterov-Todd scaling of a pair of its interior points, which the friction
// cones' Newton rows use (see docs/contacts.md, "Interior-point method").
//
// A point is v = (v0, v1) with v1 in R^2; it is inside the cone when
// v0 > |v1|. The Jordan product is x o y = (x . y, x0 y1 + y0 x1), its
// identity e = (1, 0, 0).

#include <Eigen/Core>

namespace dynamics::detail {

// det(v) = v0^2 - |v1|^2, positive inside the cone; factored so that a point
// near the boundary keeps its digits.
double cone_determinant(const Eigen::Vector3d& v);

Eigen::Vector3d jordan_product(const Eigen::Vector3d& x, const Eigen::Vector3d& y);

// Arrow(v): the matrix of v o . (Jordan product with v).
Eigen::Matrix3d arrow(const Eigen::Vector3d& v);

// For x and y strictly inside the cone: the symmetric positive definite W
// with W^-1 x = W y = lambda (so x = W^2 y), and the coefficients of the
// pair's linearized complementarity lambda o (W^-1 dx + W dy) = r, written
// dx_rows dx + dy_rows dy = r. For a scalar pair they would be y and x, as in
// the unscaled Arrow(y) dx + Arrow(x) dy; unlike that one, whose direction
// can point straight out of the cone, the scaled direction is well defined
// everywhere inside (Nesterov and Todd's primal-dual symmetric scaling).
struct NesterovTodd {
  Eigen::Matrix3d w, w_inverse;
  Eigen::Vector3d lambda;
  Eigen::Matrix3d dx_rows, dy_rows;  // Arrow(lambda) W^-1, Arrow(lambda) W
};
NesterovTodd nesterov_todd(const Eigen::Vector3d& x, const Eigen::Vector3d& y);

}  // namespace dynamics::detail
