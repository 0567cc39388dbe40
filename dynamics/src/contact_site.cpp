#include "contact_site.hpp"

#include <cmath>

namespace dynamics::detail {
namespace {

// Below this distance between centres (or from a box surface) the direction
// is ill-defined: spheres fall back to +z, points to the nearest face.
constexpr double kDegenerate = 1e-12;

ContactFrame sphere_against_sphere(const Vector3& centre_a, double radius_a, const Pose& a, const Shape& sphere_b,
                                   const Pose& b) {
  const Vector3 world_a = a.position + a.orientation * centre_a;
  const Vector3 world_b = b.position + b.orientation * sphere_b.position;
  const Vector3 d = world_a - world_b;
  const double length = d.norm();
  ContactFrame f;
  f.normal = length > kDegenerate ? Vector3(d / length) : Vector3::UnitZ();
  f.distance = length - radius_a - sphere_b.size.x();
  f.point_a = centre_a - radius_a * (a.orientation.conjugate() * f.normal);
  f.point_b = sphere_b.position + sphere_b.size.x() * (b.orientation.conjugate() * f.normal);
  return f;
}

// The sphere against the box's nearest surface point; inside the box, against
// the face it is least deep behind.
ContactFrame sphere_against_box(const Vector3& centre_a, double radius_a, const Pose& a, const Shape& box,
                                const Pose& b) {
  const Pose frame = shape_pose(box, b);
  const Vector3 local = frame.orientation.conjugate() * (a.position + a.orientation * centre_a - frame.position);
  const Vector3 half = 0.5 * box.size;
  const Vector3 nearest = local.cwiseMax(-half).cwiseMin(half);
  const Vector3 out = local - nearest;
  const double outside = out.norm();
  Vector3 normal_local, witness = nearest;
  double distance;
  if (outside > kDegenerate) {
    normal_local = out / outside;
    distance = outside;
  } else {
    int face = 0;
    (half - local.cwiseAbs()).minCoeff(&face);
    const double sign = local(face) < 0.0 ? -1.0 : 1.0;
    normal_local = sign * Vector3::Unit(face);
    distance = -(half(face) - std::abs(local(face)));
    witness(face) = sign * half(face);
  }
  ContactFrame f;
  f.normal = frame.orientation * normal_local;
  f.distance = distance - radius_a;
  f.point_a = centre_a - radius_a * (a.orientation.conjugate() * f.normal);
  f.point_b = box.position + box.orientation * witness;
  return f;
}

// A point (radius 0) against the plane of one face of a box.
ContactFrame point_against_face(const Vector3& point_a, const Pose& a, const Shape& box, int face, const Pose& b) {
  const Pose frame = shape_pose(box, b);
  const int axis = face / 2;
  const Vector3 normal_local = (face % 2 == 1 ? 1.0 : -1.0) * Vector3::Unit(axis);
  ContactFrame f;
  f.normal = frame.orientation * normal_local;
  const Vector3 world = a.position + a.orientation * point_a;
  f.distance = f.normal.dot(world - frame.position) - 0.5 * box.size(axis);
  f.point_a = point_a;
  f.point_b = b.orientation.conjugate() * (world - f.distance * f.normal - b.position);
  return f;
}

// A zero friction coefficient leaves friction rows whose cone has no
// interior (beta = 0 and its slack = 0 at every feasible point, psi free):
// the interior-point matrix turns singular and the iteration stalls. Such a
// contact is frictionless, so it gets no friction rows at all.
FrictionModel effective_friction(FrictionModel model, double coefficient) {
  return coefficient > 0.0 ? model : FrictionModel::None;
}

}  // namespace

RimTouch rim_touch(const Contact& contact, const Vector3& side, const Quaternion& orientation) {
  RimTouch t;
  if (contact.rim_radius == 0.0) return t;
  const double r = contact.rim_radius;
  const Vector3 n = contact.ground.normal;
  const Vector3 axis = orientation * contact.rim_axis;
  const Vector3 in_plane = side - side.dot(axis) * axis;
  const double length = in_plane.norm();
  if (length < 1e-9) {  // the side along the axis (a quarter turn within the step): the lowest point
    t.offset = rim_offset(contact, orientation);
    return t;
  }
  const Vector3 d = in_plane / length;  // world
  t.offset = r * (orientation.conjugate() * d);
  // phi = n . (x + R c) + r n . d(A), with d the side's part in the plane
  // normal to A = R a. Turning by dtheta (world) moves A by dtheta x A, so
  // r n . dd = dtheta . r / |w| [-(m . A) (A x side) - (side . A) (A x m)],
  // m = n - (n . d) d; the material point r d accounts for dtheta . r (d x n).
  const Vector3 m = n - n.dot(d) * d;
  const Vector3 rate = r / length * (-m.dot(axis) * axis.cross(side) - side.dot(axis) * axis.cross(m)) -
                       r * d.cross(n);
  t.turn_rate = orientation.conjugate() * rate;
  return t;
}

std::vector<ContactSite> ground_sites(const Model& model) {
  std::vector<ContactSite> sites;
  for (int c = 0; c < model.num_contacts(); ++c) {
    const Contact& contact = model.contact(c);
    ContactSite s;
    s.body_a = contact.body;
    s.ground = c;
    s.friction = effective_friction(contact.friction, contact.friction_coefficient);
    s.friction_coefficient = contact.friction_coefficient;
    s.friction_directions = contact.friction_directions;
    sites.push_back(s);
  }
  return sites;
}

ContactSite pair_site(const Model& model, const PairFeature& feature) {
  const CollisionOptions& o = model.collision_options();
  ContactSite s;
  s.body_a = model.collider(feature.collider_a).body;
  s.body_b = model.collider(feature.collider_b).body;
  s.feature = feature;
  s.friction = effective_friction(o.friction, o.friction_coefficient);
  s.friction_coefficient = o.friction_coefficient;
  s.friction_directions = o.friction_directions;
  return s;
}

void feature_sphere(const Model& model, const PairFeature& feature, Vector3& centre, double& radius) {
  const Shape& shape = model.collider(feature.collider_a).shape;
  if (feature.corner < 0) {
    centre = shape.position;
    radius = shape.size.x();
    return;
  }
  centre = shape.position + shape.orientation * box_corner(shape.size, feature.corner);
  radius = 0.0;
}

ContactFrame locate_pair(const Model& model, const PairFeature& feature, const Pose& a, const Pose& b) {
  Vector3 centre;
  double radius;
  feature_sphere(model, feature, centre, radius);
  const Shape& other = model.collider(feature.collider_b).shape;
  if (feature.face >= 0) return point_against_face(centre, a, other, feature.face, b);
  return other.kind == Shape::Kind::Sphere ? sphere_against_sphere(centre, radius, a, other, b)
                                           : sphere_against_box(centre, radius, a, other, b);
}

ContactFrame locate(const Model& model, const ContactSite& site, const Pose& a, const Pose& b) {
  if (site.ground < 0) return locate_pair(model, site.feature, a, b);
  const Contact& contact = model.contact(site.ground);
  const RimTouch rim = rim_touch(contact, site.rim_side, a.orientation);
  const Vector3 centre = contact.point + rim.offset;
  ContactFrame f;
  f.turn_rate = rim.turn_rate;
  f.normal = contact.ground.normal;
  f.distance = f.normal.dot(a.position + a.orientation * centre) - contact.ground.offset - contact.radius;
  f.point_a = centre - contact.radius * (a.orientation.conjugate() * f.normal);
  return f;
}

}  // namespace dynamics::detail
