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

Vector3 rim_offset(const Contact& contact, const Quaternion& orientation) {
  if (contact.rim_radius == 0.0) return Vector3::Zero();
  // The rim point deepest along -n lies against n's part in the rim plane.
  const Vector3 n = orientation.conjugate() * contact.ground.normal.normalized();  // body frame
  const Vector3 axis = contact.rim_axis.normalized();
  const Vector3 in_plane = n - n.dot(axis) * axis;
  const double length = in_plane.norm();
  Vector3 outward, unused;
  if (length > 1e-12) {
    outward = -in_plane / length;
  } else {
    contact_tangents(axis, outward, unused);
  }
  return contact.rim_radius * outward;
}

Vector3 touching_point(const Contact& contact, const Quaternion& orientation) {
  const Vector3 n = orientation.conjugate() * contact.ground.normal.normalized();  // body frame
  return contact.point + rim_offset(contact, orientation) - contact.radius * n;
}

double signed_distance(const Contact& contact, const Vector3& position, const Quaternion& orientation) {
  const Vector3 n = contact.ground.normal.normalized();
  const double centre = n.dot(position + orientation * contact.point) - contact.ground.offset - contact.radius;
  if (contact.rim_radius == 0.0) return centre;
  const Vector3 axis = orientation * contact.rim_axis.normalized();
  return centre - contact.rim_radius * (n - n.dot(axis) * axis).norm();  // the rim dips by r sin(tilt)
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
      if (options.rim_points < 0 || (options.rim_points == 0 && !options.rolling_rims))
        throw std::invalid_argument("dynamics::shape_contacts: rim_points must be >= 1 (>= 0 with rolling_rims), got " +
                                    std::to_string(options.rim_points));
      const double r = shape.size.x(), half = 0.5 * shape.size.y();
      for (double z : {-half, half}) {
        if (z > 0.0 && !options.both_bases) break;
        for (int i = 0; i < options.rim_points; ++i) {
          const double a = 2.0 * kPi * i / options.rim_points;
          add(Vector3(r * std::cos(a), r * std::sin(a), z), 0.0);
        }
        if (!options.rolling_rims) continue;
        add(Vector3(0.0, 0.0, z), 0.0);
        out.back().rim_radius = r;
        out.back().rim_axis = shape.orientation * Vector3::UnitZ();
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
