#pragma once
// A box (1.5 kg, 0.4 x 0.2 x 0.1 m) on one joint to the world, in zero
// gravity: the rotor that the tests of joint springs and joint friction
// spin. The joint comes with its type, axis and forces set; its bodies are
// filled in here.

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

inline Model zero_gravity_rotor(Joint joint) {
  Model model;
  model.gravity = Vector3::Zero();
  joint.parent = kWorld;
  joint.child = model.add_body(Body::solid("rotor", 1.5, Shape::box(Vector3(0.4, 0.2, 0.1))));
  model.add_joint(joint);
  return model;
}

}  // namespace dynamics::test
