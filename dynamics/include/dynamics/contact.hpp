#pragma once
// Rigid contacts between points on bodies and the ground, with friction.
//
// A contact is a point fixed on a body (body frame), optionally blown up to a
// sphere of some radius, against a half-space {x : n . x >= offset}. Its
// signed distance is phi = n . (x + R(q) p) - offset - radius, and the
// integrator keeps phi >= 0 at every step's next configuration (rigid, no
// softness). Friction is Coulomb friction from the maximum-dissipation
// principle, with either a linearized (polyhedral) cone or the exact
// second-order cone; see docs/contacts.md.

#include <string>
#include <vector>

#include "dynamics/quaternion.hpp"
#include "dynamics/shapes.hpp"

namespace dynamics {

// The points x with normal . x >= offset; normal is normalized by Model::add_contact.
struct HalfSpace {
  Vector3 normal = Vector3::UnitZ();
  double offset = 0.0;

  // The plane z = 0 turned by `angle` (radians) about the world y axis: an
  // incline that descends towards +x for positive angles.
  static HalfSpace incline(double angle);
};

enum class FrictionModel {
  None,        // impact only: 0 <= phi  perp  gamma >= 0
  Linearized,  // polyhedral cone with friction_directions basis vectors
  Cone,        // second-order cone |beta| <= friction_coefficient * gamma
};

const char* to_string(FrictionModel model);

struct Contact {
  std::string name;  // empty: Model::add_contact names it "<body>/contact<i>"
  int body = -1;
  Vector3 point = Vector3::Zero();  // body frame, from the centre of mass
  double radius = 0.0;              // the point is the centre of a sphere of this radius
  // A rim: with rim_radius > 0 the contact is the circle of that radius about
  // `point`, in the plane normal to rim_axis (body frame), and it touches at
  // the circle's point deepest towards the ground, which slides along the rim
  // as the body turns: a cylinder's base edge that rolls without bumping.
  double rim_radius = 0.0;
  Vector3 rim_axis = Vector3::UnitZ();  // normalized by Model::add_contact
  HalfSpace ground;
  FrictionModel friction = FrictionModel::Linearized;
  double friction_coefficient = 0.5;
  // Linearized cone: an even number >= 2 of directions +-b_1 .. +-b_{n/2},
  // evenly spaced in the tangent plane starting from the first tangent (see
  // contact_tangents).
  int friction_directions = 4;
};

// Orthonormal tangents (t1, t2) of a ground normal: t1 is the world x axis
// projected onto the plane (the world y axis if x is normal to it), t2 = n x t1.
void contact_tangents(const Vector3& normal, Vector3& t1, Vector3& t2);

// From a rim's centre (`point`) to its point deepest towards the ground for a
// body orientation (body frame); zero without a rim. On a rim facing the
// ground squarely (its axis along the normal) every rim point is equally
// deep; the one towards the rim's first tangent (contact_tangents of
// rim_axis) is returned.
Vector3 rim_offset(const Contact& contact, const Quaternion& orientation);

// Where a contact touches the ground for a body orientation (body frame, from
// the centre of mass): the point itself, or a rim's deepest point, moved by the
// radius towards the ground.
Vector3 touching_point(const Contact& contact, const Quaternion& orientation);

// Signed distance of a contact for a body pose.
double signed_distance(const Contact& contact, const Vector3& position, const Quaternion& orientation);

// Everything a contact takes besides its point: shared by the shape helpers.
struct ContactOptions {
  HalfSpace ground;
  FrictionModel friction = FrictionModel::Linearized;
  double friction_coefficient = 0.5;
  int friction_directions = 4;
  int rim_points = 8;  // cylinders: points equally spaced on each base rim used (>= 0)
  bool both_bases = true;  // cylinders: points on both base rims (else the -z base only)
  // Cylinders: also one rim contact (rim_radius) per base rim used, which
  // touches at the rim's lowest point: a cylinder on its side then rolls as a
  // cylinder rather than as a polygon of rim_points corners. The points still
  // carry a cylinder standing on a base, where the rim's lowest point is not
  // unique.
  bool rolling_rims = true;
};

// One contact point (body frame) with the options' ground and friction.
Contact make_contact(int body, const Vector3& point, double radius = 0.0, const ContactOptions& options = {});

// The contact points of a shape on `body` (the shape's pose in the body frame
// is honoured): a sphere is one point with its radius, a box its 8 corners, a
// cylinder rim_points points on the rim of each base (or of the -z base) and,
// with rolling_rims, one rim contact per such base, a capsule the two spheres
// at the ends of its straight part.
std::vector<Contact> shape_contacts(int body, const Shape& shape, const ContactOptions& options = {});

}  // namespace dynamics
