#pragma once
// The same mechanism with every joint coordinate limited to [lower, upper]
// or [-bound, bound] (the tests of open steps and held limits, and the
// benchmark's limited chains), and the step options that solve every step
// with its contacts and limits (no open or held steps).

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

inline Model with_range(const Model& model, double lower, double upper) {
  Model limited;
  limited.gravity = model.gravity;
  for (const Body& body : model.bodies()) limited.add_body(body);
  for (int j = 0; j < model.num_joints(); ++j) {
    Joint joint = model.joint(j);
    joint.lower.assign(joint.num_coordinates(), lower);
    joint.upper.assign(joint.num_coordinates(), upper);
    limited.add_joint(joint);
  }
  return limited;
}

inline Model with_limits(const Model& model, double bound) { return with_range(model, -bound, bound); }

inline StepOptions keeping_inequalities() {
  StepOptions options;
  options.skip_open_inequalities = false;
  return options;
}

}  // namespace dynamics::test
