#pragma once
// The contacts of a step (internal): every ground contact of the model and
// every feature the broad phase found between two colliders, each with where
// it touches at a given configuration (the narrow phase).

#include <vector>

#include "dynamics/model.hpp"
#include "joint_constraint.hpp"

namespace dynamics::detail {

// A sphere of collider a against collider b: the collider itself when it is a
// sphere (corner -1), else one corner (0..7) of its box with radius 0. Against
// a whole sphere or box (face -1), or against the plane of one face (0..5:
// axis face / 2, outward along +axis for odd faces) of box b: a box resting on
// a box touches with corners on a face, whose normal then stays smooth.
struct PairFeature {
  int collider_a = -1, collider_b = -1, corner = -1, face = -1;
  bool operator==(const PairFeature& o) const {
    return collider_a == o.collider_a && collider_b == o.collider_b && corner == o.corner && face == o.face;
  }
  bool operator<(const PairFeature& o) const {
    if (collider_a != o.collider_a) return collider_a < o.collider_a;
    if (collider_b != o.collider_b) return collider_b < o.collider_b;
    if (corner != o.corner) return corner < o.corner;
    return face < o.face;
  }
};

// One contact node: side a pushes along +normal, side b along -normal.
struct ContactSite {
  int body_a = kWorld, body_b = kWorld;  // never both kWorld
  int ground = -1;                       // the model's contact index, or -1 for a pair feature
  PairFeature feature;
  FrictionModel friction = FrictionModel::Linearized;
  double friction_coefficient = 0.5;
  int friction_directions = 4;
};

// Where a contact touches: the signed distance, the world normal pointing from
// side b to side a, and the touching surface points in their bodies' frames
// (from the centre of mass; world frame for kWorld). To first order, phi
// changes by normal . (velocity of point_a - velocity of point_b).
struct ContactFrame {
  double distance = 0.0;
  Vector3 normal = Vector3::UnitZ();
  Vector3 point_a = Vector3::Zero(), point_b = Vector3::Zero();
};

// World pose of a shape (its centre and axes) on a body at `body`.
inline Pose shape_pose(const Shape& shape, const Pose& body) {
  return Pose{body.position + body.orientation * shape.position, body.orientation * shape.orientation};
}

std::vector<ContactSite> ground_sites(const Model& model);
ContactSite pair_site(const Model& model, const PairFeature& feature);

// The feature's sphere (centre in collider a's body frame and radius).
void feature_sphere(const Model& model, const PairFeature& feature, Vector3& centre, double& radius);

ContactFrame locate_pair(const Model& model, const PairFeature& feature, const Pose& a, const Pose& b);
ContactFrame locate(const Model& model, const ContactSite& site, const Pose& a, const Pose& b);

}  // namespace dynamics::detail
