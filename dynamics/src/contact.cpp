#include "dynamics/contact.hpp"

#include <cmath>
#include <stdexcept>

namespace dynamics {

HalfSpace HalfSpace::incline(double angle) {
  if (!std::isfinite(angle) || std::abs(angle) >= 0.5 * kPi)
    throw std::invalid_argument("dynamics::HalfSpace::incline: angle must be finite and below pi/2 in magnitude");
  HalfSpace h;
  h.normal = Vector3(std::sin(angle), 0.0, std::cos(angle));
  return h;
}

const char* to_string(FrictionModel model) {
  switch (model) {
    case FrictionModel::None: return "none";
    case FrictionModel::Linearized: return "linearized";
    case FrictionModel::Cone: return "cone";
  }
  return "unknown";
}

void contact_tangents(const Vector3& normal, Vector3& t1, Vector3& t2) {
  const Vector3 n = normal.normalized();
  t1 = Vector3::UnitX() - n.x() * n;
  if (t1.norm() < 1e-6) t1 = Vector3::UnitY() - n.y() * n;
  t1.normalize();
  t2 = n.cross(t1);
}

double signed_distance(const Contact& contact, const Vector3& position, const Quaternion& orientation) {
  const Vector3 n = contact.ground.normal.normalized();
  return n.dot(position + orientation * contact.point) - contact.ground.offset - contact.radius;
}

Contact make_contact(int body, const Vector3& point, double radius, const ContactOptions& options) {
  Contact c;
  c.body = body;
  c.point = point;
  c.radius = radius;
  c.ground = options.ground;
  c.friction = options.friction;
  c.friction_coefficient = options.friction_coefficient;
  c.friction_directions = options.friction_directions;
  return c;
}

std::vector<Contact> shape_contacts(int body, const Shape& shape, const ContactOptions& options) {
  std::vector<Contact> out;
  const auto add = [&](const Vector3& local, double radius) {
    out.push_back(make_contact(body, shape.position + shape.orientation * local, radius, options));
  };
  switch (shape.kind) {
    case Shape::Kind::Sphere: add(Vector3::Zero(), shape.size.x()); break;
    case Shape::Kind::Box:
      for (int corner = 0; corner < 8; ++corner) add(box_corner(shape.size, corner), 0.0);
      break;
    case Shape::Kind::Cylinder: {
      if (options.rim_points < 1)
        throw std::invalid_argument("dynamics::shape_contacts: rim_points must be >= 1, got " +
                                    std::to_string(options.rim_points));
      const double r = shape.size.x(), half = 0.5 * shape.size.y();
      for (double z : {-half, half}) {
        if (z > 0.0 && !options.both_bases) break;
        for (int i = 0; i < options.rim_points; ++i) {
          const double a = 2.0 * kPi * i / options.rim_points;
          add(Vector3(r * std::cos(a), r * std::sin(a), z), 0.0);
        }
      }
      break;
    }
    case Shape::Kind::Capsule: {
      const double half = 0.5 * shape.size.y();
      add(Vector3(0.0, 0.0, -half), shape.size.x());
      add(Vector3(0.0, 0.0, half), shape.size.x());
      break;
    }
  }
  return out;
}

}  // namespace dynamics
