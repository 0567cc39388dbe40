#include "dynamics/shapes.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "format_number.hpp"

namespace dynamics {
namespace {

void require_positive(double value, const char* what, const char* where) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument(std::string("dynamics::") + where + ": " + what + " must be positive and finite, got " +
                                detail::format_number(value));
}

}  // namespace

Shape Shape::box(const Vector3& edges) {
  for (int i = 0; i < 3; ++i) require_positive(edges(i), "edge length", "Shape::box");
  Shape s;
  s.kind = Kind::Box;
  s.size = edges;
  return s;
}

Shape Shape::sphere(double radius) {
  require_positive(radius, "radius", "Shape::sphere");
  Shape s;
  s.kind = Kind::Sphere;
  s.size = Vector3(radius, 0.0, 0.0);
  return s;
}

Shape Shape::cylinder(double radius, double length) {
  require_positive(radius, "radius", "Shape::cylinder");
  require_positive(length, "length", "Shape::cylinder");
  Shape s;
  s.kind = Kind::Cylinder;
  s.size = Vector3(radius, length, 0.0);
  return s;
}

Shape Shape::capsule(double radius, double length) {
  require_positive(radius, "radius", "Shape::capsule");
  if (!(length >= 0.0)) throw std::invalid_argument("dynamics::Shape::capsule: length must be >= 0");
  Shape s;
  s.kind = Kind::Capsule;
  s.size = Vector3(radius, length, 0.0);
  return s;
}

Vector3 box_corner(const Vector3& edges, int corner) {
  const Vector3 sign((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0, (corner & 4) ? 1.0 : -1.0);
  return 0.5 * edges.cwiseProduct(sign);
}

const char* to_string(Shape::Kind kind) {
  switch (kind) {
    case Shape::Kind::Box: return "box";
    case Shape::Kind::Sphere: return "sphere";
    case Shape::Kind::Cylinder: return "cylinder";
    case Shape::Kind::Capsule: return "capsule";
  }
  return "unknown";
}

Matrix3 box_inertia(double mass, const Vector3& e) {
  require_positive(mass, "mass", "box_inertia");
  for (int i = 0; i < 3; ++i) require_positive(e(i), "edge length", "box_inertia");
  const Vector3 sq = e.cwiseProduct(e);
  return (mass / 12.0 * Vector3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y())).asDiagonal();
}

Matrix3 sphere_inertia(double mass, double radius) {
  require_positive(mass, "mass", "sphere_inertia");
  require_positive(radius, "radius", "sphere_inertia");
  return Matrix3::Identity() * (0.4 * mass * radius * radius);
}

Matrix3 cylinder_inertia(double mass, double radius, double length) {
  require_positive(mass, "mass", "cylinder_inertia");
  require_positive(radius, "radius", "cylinder_inertia");
  require_positive(length, "length", "cylinder_inertia");
  const double side = mass * (3.0 * radius * radius + length * length) / 12.0;
  return Vector3(side, side, 0.5 * mass * radius * radius).asDiagonal();
}

// A cylinder plus two hemispheres of the same density, each hemisphere's
// inertia moved to the capsule centre by the parallel axis theorem.
Matrix3 capsule_inertia(double mass, double radius, double length) {
  require_positive(mass, "mass", "capsule_inertia");
  require_positive(radius, "radius", "capsule_inertia");
  if (!(length >= 0.0)) throw std::invalid_argument("dynamics::capsule_inertia: length must be >= 0");
  const double r = radius, h = length, pi = 3.14159265358979323846;
  const double v_cyl = pi * r * r * h, v_sph = 4.0 / 3.0 * pi * r * r * r;
  const double m_cyl = mass * v_cyl / (v_cyl + v_sph), m_hemi = 0.5 * mass * v_sph / (v_cyl + v_sph);
  const double axial = 0.5 * m_cyl * r * r + 2.0 * (0.4 * m_hemi * r * r);
  // Hemisphere about its own centre of mass (3r/8 from the flat face), then shifted.
  const double hemi_side = 0.4 * m_hemi * r * r - m_hemi * (3.0 * r / 8.0) * (3.0 * r / 8.0);
  const double offset = 0.5 * h + 3.0 * r / 8.0;
  const double side = m_cyl * (3.0 * r * r + h * h) / 12.0 + 2.0 * (hemi_side + m_hemi * offset * offset);
  return Vector3(side, side, axial).asDiagonal();
}

Matrix3 shape_inertia(const Shape& shape, double mass) {
  Matrix3 local;
  switch (shape.kind) {
    case Shape::Kind::Box: local = box_inertia(mass, shape.size); break;
    case Shape::Kind::Sphere: local = sphere_inertia(mass, shape.size.x()); break;
    case Shape::Kind::Cylinder: local = cylinder_inertia(mass, shape.size.x(), shape.size.y()); break;
    case Shape::Kind::Capsule: local = capsule_inertia(mass, shape.size.x(), shape.size.y()); break;
  }
  const Matrix3 r = shape.orientation.toRotationMatrix();
  return r * local * r.transpose();
}

}  // namespace dynamics
