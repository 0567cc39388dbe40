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
  // A ground rim's side for the whole step (world frame, unit; see Simulator
  // aim_rims): at any pose of the step the rim touches at its point towards
  // this direction. It is the rim's lowest side at z_k, so a rolling rim
  // touches at its lowest point at both ends of the step, while a rim that
  // rocks across facing the ground squarely does not switch sides (and push
  // one side to keep the other above the ground) within a step.
  Vector3 rim_side = Vector3::Zero();
  PairFeature feature;
  FrictionModel friction = FrictionModel::Linearized;
  double friction_coefficient = 0.5;
  int friction_directions = 4;
};

// Where a contact touches: the signed distance, the world normal pointing from
// side b to side a, and the touching surface points in their bodies' frames
// (from the centre of mass; world frame for kWorld). To first order, phi
// changes by normal . (velocity of point_a - velocity of point_b), plus
// turn_rate . (side a's body-frame angular velocity).
struct ContactFrame {
  double distance = 0.0;
  Vector3 normal = Vector3::UnitZ();
  Vector3 point_a = Vector3::Zero(), point_b = Vector3::Zero();
  // phi's rate per body-frame turn of side a beyond what point_a carries: a
  // ground rim's touching point slides along it as the rim tilts away from
  // the step's side (zero at z_k, where that side is the lowest).
  Vector3 turn_rate = Vector3::Zero();
};

// World pose of a shape (its centre and axes) on a body at `body`.
inline Pose shape_pose(const Shape& shape, const Pose& body) {
  return Pose{body.position + body.orientation * shape.position, body.orientation * shape.orientation};
}

// Where a ground rim touches for a step whose side (world) is `side`: from its
// centre to its point towards that side (body frame), and the turn_rate of
// ContactFrame. Zero for a contact without a rim.
struct RimTouch {
  Vector3 offset = Vector3::Zero(), turn_rate = Vector3::Zero();
};
RimTouch rim_touch(const Contact& contact, const Vector3& side, const Quaternion& orientation);

std::vector<ContactSite> ground_sites(const Model& model);
ContactSite pair_site(const Model& model, const PairFeature& feature);

// The feature's sphere (centre in collider a's body frame and radius).
void feature_sphere(const Model& model, const PairFeature& feature, Vector3& centre, double& radius);

ContactFrame locate_pair(const Model& model, const PairFeature& feature, const Pose& a, const Pose& b);
ContactFrame locate(const Model& model, const ContactSite& site, const Pose& a, const Pose& b);

}  // namespace dynamics::detail
