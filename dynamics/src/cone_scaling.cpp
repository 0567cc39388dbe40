#include "cone_scaling.hpp"

#include <algorithm>
#include <cmath>

namespace dynamics::detail {
namespace {

// Smallest relative determinant det(v) / v0^2 the scaling reads.
constexpr double kTiny = 1e-40;

// J = diag(1, -1, -1), the cone's reflection.
Eigen::Vector3d reflect(const Eigen::Vector3d& v) { return Eigen::Vector3d(v(0), -v(1), -v(2)); }

}  // namespace

double cone_determinant(const Eigen::Vector3d& v) {
  const double radius = v.tail<2>().norm();
  return (v(0) - radius) * (v(0) + radius);
}

Eigen::Vector3d jordan_product(const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
  Eigen::Vector3d p;
  p(0) = x.dot(y);
  p.tail<2>() = x(0) * y.tail<2>() + y(0) * x.tail<2>();
  return p;
}

Eigen::Matrix3d arrow(const Eigen::Vector3d& v) {
  Eigen::Matrix3d a = v(0) * Eigen::Matrix3d::Identity();
  a.block<1, 2>(0, 1) = v.tail<2>().transpose();
  a.block<2, 1>(1, 0) = v.tail<2>();
  return a;
}

NesterovTodd nesterov_todd(const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
  // Iterates stay inside, so the floors only keep round-off from making a
  // point on the boundary a NaN.
  const double dx = std::max(cone_determinant(x), kTiny * x(0) * x(0));
  const double dy = std::max(cone_determinant(y), kTiny * y(0) * y(0));
  const Eigen::Vector3d xn = x / std::sqrt(dx), yn = y / std::sqrt(dy);
  // The scaling point of the normalized pair (unit determinant): its
  // quadratic representation 2 p p^T - J maps yn to xn. xn . yn >= 1 for
  // points of unit determinant; the product of two nearly complementary
  // points can lose that to cancellation.
  const double g = std::sqrt(0.5 * (1.0 + std::max(xn.dot(yn), 1.0)));
  const Eigen::Vector3d p = (xn + reflect(yn)) / (2.0 * g);
  // W is the quadratic representation of p's Jordan square root v, so that W^2 maps y to x.
  const Eigen::Vector3d v = (p + Eigen::Vector3d::UnitX()) / std::sqrt(2.0 * (p(0) + 1.0));
  const double scale = std::sqrt(std::sqrt(dx / dy));
  const Eigen::Matrix3d J = Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal();
  const Eigen::Vector3d jv = reflect(v);
  NesterovTodd nt;
  nt.w = scale * (2.0 * v * v.transpose() - J);
  nt.w_inverse = (2.0 * jv * jv.transpose() - J) / scale;
  nt.lambda = nt.w * y;
  const Eigen::Matrix3d a = arrow(nt.lambda);
  nt.dx_rows = a * nt.w_inverse;
  nt.dy_rows = a * nt.w;
  return nt;
}

}  // namespace dynamics::detail
