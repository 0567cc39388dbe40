#pragma once
// The same mechanism with every joint coordinate limited to [-bound, bound]
// (the tests of open steps and the benchmark's limited chains).

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

inline Model with_limits(const Model& model, double bound) {
  Model limited;
  limited.gravity = model.gravity;
  for (const Body& body : model.bodies()) limited.add_body(body);
  for (int j = 0; j < model.num_joints(); ++j) {
    Joint joint = model.joint(j);
    joint.lower.assign(joint.num_coordinates(), -bound);
    joint.upper.assign(joint.num_coordinates(), bound);
    limited.add_joint(joint);
  }
  return limited;
}

}  // namespace dynamics::test
