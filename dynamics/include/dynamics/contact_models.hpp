#pragma once
// Built-in models with contacts and joint limits (the contact paper's
// experiments and two robots). Ground is the plane z = 0 unless said
// otherwise; every floating body gets a floating joint from the world so that
// its initial pose and velocity are joint coordinates.

#include "dynamics/model.hpp"

namespace dynamics {

struct FrictionSpec {
  FrictionModel model = FrictionModel::Linearized;
  double coefficient = 0.5;
  int directions = 4;
};

// Cube of edge `edge` and mass `mass` whose bottom starts `height` above the ground.
Model box_drop(double edge = 0.5, double mass = 1.0, double height = 0.4, FrictionSpec friction = {});
// The same cube resting on the ground, sliding along +x at `speed`.
Model sliding_box(double speed = 2.0, FrictionSpec friction = {FrictionModel::Linearized, 0.2, 4});
// The cube at rest on a plane inclined by `angle` (descending towards +x).
Model box_incline(double angle = 0.3, FrictionSpec friction = {FrictionModel::Linearized, 0.5, 4});
// n spheres (radius 0.25 m, 1 kg) in a row joined by spherical joints where
// they touch, dropped from `height` (bottom above the ground); the joints
// bend by +-0.2 rad in turn (a zigzag in the ground plane, never overlapping).
Model sphere_chain(int n = 5, double height = 0.1, FrictionSpec friction = {});
// Cylinder (1 kg, radius 0.5 m, height 0.1 m) with `points` contacts on its
// base rim, on the ground and sliding at `speed` while turning.
Model cylinder_contacts(int points = 8, double speed = 1.0, FrictionSpec friction = {FrictionModel::Linearized, 0.2, 4});
// n cylindrical links (1 m, 1 kg, radius 0.05 m) joined by spherical joints,
// lying on the ground; a contact (radius 0.05 m) at the lower end of every
// link and at the upper end of the first: n + 1 contacts.
Model cylinder_chain(int n = 5, double speed = 1.0, FrictionSpec friction = {FrictionModel::Linearized, 0.2, 4});
// Floating sphere (1 kg, radius 0.1 m) with a pole (0.2 kg, 0.8 m, radius
// 0.05 m) on an actuated prismatic joint (limits +-0.2 m), foot contact at the
// pole's lower end, standing on the ground. The joint input drives the pole.
Model hopper(FrictionSpec friction = {FrictionModel::Linearized, 0.2, 4});
// Floating trunk (0.4 x 0.2 x 0.1 m, 5 kg) and four legs of hip (about x),
// thigh and calf (about y) links with joint springs holding a standing pose,
// knee limits, a foot contact (radius 0.02 m) on each calf and contacts at
// the trunk corners.
Model quadruped(double stiffness = 60.0, FrictionSpec friction = {FrictionModel::Linearized, 0.8, 4});


// Contacts between bodies (colliders, see collision.hpp).
// Two spheres (radius 0.25 m, 1 kg) in zero gravity: the first moves along +x
// at `speed` towards the second at rest, its path `offset` off the second's
// centre along y (0: head on).
Model sphere_collision(double speed = 2.0, double offset = 0.0, FrictionSpec friction = {});
// `count` cubes (0.5 m, 1 kg) stacked on the ground with 1 cm gaps, each with
// ground contacts at its corners and a box collider, so every cube rests on
// the one below through corner-against-box contacts.
Model box_stack(int count = 3, FrictionSpec friction = {});
// A sphere (radius 0.1 m, 1 kg) dropped from `height` onto a static table
// (a world box collider 1 x 1 x 0.5 m on the ground), moving sideways at `speed`.
Model ball_on_table(double height = 0.3, double speed = 0.0, FrictionSpec friction = {});
// A parallel gripper holding a loose cube (8 cm, 0.1 kg) by friction: a hand
// welded 0.5 m above the ground, two fingers (2 x 4 x 6 cm, 50 g) on prismatic
// joints 5 mm from the cube's sides, coupled so that they close together
// (joint coupling "fingers"), and a spring on the first finger that pushes it
// with `squeeze` newtons once it touches (each side then presses with half).
// Box colliders on the fingers and the cube.
Model gripper(double squeeze = 5.0, FrictionSpec friction = {});

}  // namespace dynamics
