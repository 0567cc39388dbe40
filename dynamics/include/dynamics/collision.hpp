#pragma once
// Contacts between bodies: colliders (spheres and boxes fixed on bodies or in
// the world) that touch each other.
//
// Each step a broad phase looks for pairs of colliders close enough to touch
// within the step (bounding spheres swept along x, then the exact distance of
// each contact feature against a margin plus how far the two can move in one
// step). Every feature found becomes one rigid contact with friction, exactly
// like a ground contact, whose graph node is attached to both bodies (closing
// a cycle when the bodies are also joined some other way). Features:
//   sphere - sphere   one contact between the surfaces
//   sphere - box      one contact, the sphere against the box's nearest point
//   box - box         the corners of one box that lie over the face of the
//                     other along which the two are furthest apart, each
//                     against that face's plane (vertex-face contacts;
//                     edge-edge contacts are not detected)
// See docs/contacts.md.

#include <string>

#include "dynamics/contact.hpp"
#include "dynamics/joint.hpp"
#include "dynamics/shapes.hpp"

namespace dynamics {

struct Collider {
  std::string name;  // empty: Model::add_collider names it "<body>/collider<i>"
  int body = kWorld;  // kWorld: static geometry fixed in the world
  Shape shape;        // a sphere or a box; its pose is in the body (or world) frame
};

struct CollisionOptions {
  // Broad phase: a feature becomes a contact once its distance falls below
  // margin plus the distance the two colliders can close in one step, and
  // stays one until it exceeds twice that (so the set does not flicker).
  double margin = 0.01;  // m
  FrictionModel friction = FrictionModel::Linearized;
  double friction_coefficient = 0.5;
  int friction_directions = 4;
  // Bodies joined directly by a joint with constraint rows never collide
  // (their shapes usually overlap at the joint).
  bool skip_jointed = true;
};

}  // namespace dynamics
