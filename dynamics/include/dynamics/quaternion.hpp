#pragma once
// Quaternion algebra of the papers in one place: Hamilton convention, scalar
// first, local-to-global. A quaternion is a 4-vector [w, x, y, z] here so that
// the products L(q) p = q * p = R(p) q are plain matrix-vector products.
// Rotations of a body are perturbed on the right, q -> q * exp(theta / 2),
// so a rotational Jacobian's columns are body-frame rotation vectors.

#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "graphsolve/eigen_abi.hpp"

namespace dynamics {

using Vector3 = Eigen::Vector3d;
using Vector4 = Eigen::Vector4d;
using Matrix3 = Eigen::Matrix3d;
using Matrix4 = Eigen::Matrix4d;
using Quaternion = Eigen::Quaterniond;

constexpr double kPi = 3.14159265358979323846;

inline Matrix3 skew(const Vector3& v) {
  Matrix3 m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

inline Vector4 as_vector(const Quaternion& q) { return Vector4(q.w(), q.x(), q.y(), q.z()); }
inline Quaternion as_quaternion(const Vector4& v) { return Quaternion(v(0), v(1), v(2), v(3)); }

// L(q) p = q * p.
inline Matrix4 left_matrix(const Quaternion& q) {
  Matrix4 m;
  m(0, 0) = q.w();
  m.block<1, 3>(0, 1) = -q.vec().transpose();
  m.block<3, 1>(1, 0) = q.vec();
  m.block<3, 3>(1, 1) = q.w() * Matrix3::Identity() + skew(q.vec());
  return m;
}

// R(q) p = p * q.
inline Matrix4 right_matrix(const Quaternion& q) {
  Matrix4 m;
  m(0, 0) = q.w();
  m.block<1, 3>(0, 1) = -q.vec().transpose();
  m.block<3, 1>(1, 0) = q.vec();
  m.block<3, 3>(1, 1) = q.w() * Matrix3::Identity() - skew(q.vec());
  return m;
}

// V picks the vector part; V^T embeds a 3-vector as a pure quaternion.
inline Eigen::Matrix<double, 3, 4> vector_part_matrix() {
  Eigen::Matrix<double, 3, 4> v = Eigen::Matrix<double, 3, 4>::Zero();
  v.block<3, 3>(0, 1).setIdentity();
  return v;
}

// T q = conjugate of q.
inline Matrix4 conjugate_matrix() { return Eigen::Vector4d(1.0, -1.0, -1.0, -1.0).asDiagonal(); }

// The vector block of L(q) and R(q): V L(q) V^T and V R(q) V^T.
inline Matrix3 left_vector_block(const Quaternion& q) { return q.w() * Matrix3::Identity() + skew(q.vec()); }
inline Matrix3 right_vector_block(const Quaternion& q) { return q.w() * Matrix3::Identity() - skew(q.vec()); }

// exp of a rotation vector (axis times angle).
inline Quaternion rotation_from_vector(const Vector3& theta) {
  const double angle = theta.norm();
  if (angle < 1e-12) return Quaternion(1.0, 0.5 * theta.x(), 0.5 * theta.y(), 0.5 * theta.z()).normalized();
  return Quaternion(Eigen::AngleAxisd(angle, theta / angle));
}

// log: the rotation vector of q, angle in [0, pi] (q and -q give the same).
inline Vector3 rotation_vector(const Quaternion& q) {
  Quaternion p = q.w() < 0.0 ? Quaternion(-q.w(), -q.x(), -q.y(), -q.z()) : q;
  const double s = p.vec().norm();
  if (s < 1e-12) return 2.0 * p.vec();
  return 2.0 * std::atan2(s, p.w()) * p.vec() / s;
}

// URDF's fixed-axis roll, pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll).
inline Quaternion rotation_from_rpy(const Vector3& rpy) {
  return Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
         Eigen::AngleAxisd(rpy.x(), Vector3::UnitX());
}

// The discrete angular velocity of the papers, [sqrt(4/dt^2 - |w|^2), w]:
// q_next = (dt/2) q * it keeps unit norm exactly. Valid while |w| < 2/dt.
// Written as (2/dt) sqrt(1 - (dt |w| / 2)^2): 4/dt^2 would overflow for dt
// below 1e-154.
inline double discrete_velocity_scalar(const Vector3& omega, double dt) {
  const double half_turn = 0.5 * dt * omega.norm();
  return (2.0 / dt) * std::sqrt((1.0 - half_turn) * (1.0 + half_turn));
}

// Whether the update can carry a body turning at omega through one step of
// dt: |w| dt < 2 (false for NaN; no dt^2 that could overflow).
inline bool turns_within_a_step(const Vector3& omega, double dt) { return omega.norm() * dt < 2.0; }

// Whether a step of dt turns a body at omega by less than a quarter turn:
// |w| dt < sqrt(2). The step's rotational momentum, J sin(psi) / dt for a
// turn psi, peaks there; past it a faster spin carries less momentum, a
// second solution of the step equations that no smaller step approaches
// (see Simulator).
inline bool turns_within_a_quarter(const Vector3& omega, double dt) {
  return omega.norm() * dt < 1.4142135623730951;
}

inline Quaternion integrate_orientation(const Quaternion& q, const Vector3& omega, double dt) {
  const double s = discrete_velocity_scalar(omega, dt);
  const Quaternion step(0.5 * dt * s, 0.5 * dt * omega.x(), 0.5 * dt * omega.y(), 0.5 * dt * omega.z());
  return q * step;
}

}  // namespace dynamics
