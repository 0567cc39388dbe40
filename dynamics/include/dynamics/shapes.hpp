#pragma once
// Geometric shapes attached to bodies (kept for contacts and visualization) and
// the inertia of a solid of uniform density for each of them, about its centre.

#include <string>

#include "dynamics/quaternion.hpp"

namespace dynamics {

struct Shape {
  enum class Kind { Box, Sphere, Cylinder, Capsule };
  Kind kind = Kind::Sphere;
  // Box: edge lengths x, y, z. Sphere: radius in x. Cylinder and capsule:
  // radius in x, length of the straight part along the local z axis in y.
  Vector3 size = Vector3::Zero();
  Vector3 position = Vector3::Zero();             // in the body frame
  Quaternion orientation = Quaternion::Identity();  // in the body frame

  static Shape box(const Vector3& edges);
  static Shape sphere(double radius);
  static Shape cylinder(double radius, double length);
  static Shape capsule(double radius, double length);
};

const char* to_string(Shape::Kind kind);

// Corner `corner` (0..7) of a box with these edge lengths, about its centre in
// its own frame: bit i of `corner` picks the + side along axis i.
Vector3 box_corner(const Vector3& edges, int corner);

// Inertia about the centre of mass in the shape's own frame (cylinder and
// capsule along z). Throw std::invalid_argument on non-positive mass or size.
Matrix3 box_inertia(double mass, const Vector3& edges);
Matrix3 sphere_inertia(double mass, double radius);
Matrix3 cylinder_inertia(double mass, double radius, double length);
Matrix3 capsule_inertia(double mass, double radius, double length);
Matrix3 shape_inertia(const Shape& shape, double mass);

}  // namespace dynamics
