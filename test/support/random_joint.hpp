#pragma once
// The sweeps over every joint: the fifteen combinations of free translations
// and rotations that move, and a joint of one of them with its axis and its
// two joint frames drawn at random (frames up to 0.3 m off the bodies'
// centres along each axis, and turned), so that a joint's forces couple
// translation and rotation as they would on a real mechanism.

#include <random>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

inline std::vector<JointFreedom> moving_freedoms() {
  std::vector<JointFreedom> all;
  for (int t = 0; t <= 3; ++t)
    for (int r = 0; r <= 3; ++r)
      if (t + r > 0) all.push_back({t, r});
  return all;
}

inline std::string freedom_name(const JointFreedom& f) {
  return "t" + std::to_string(f.translational) + "r" + std::to_string(f.rotational);
}

// Draws in a fixed order (axis, parent frame, child frame), so that a seed
// gives the same joint.
inline Joint random_joint(std::mt19937& rng, const JointFreedom& freedom, int parent, int child) {
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  const auto vector = [&] { return Vector3(draw(rng), draw(rng), draw(rng)); };
  Joint joint = Joint::make(JointType::Fixed, "j", parent, child, vector().normalized());
  joint.freedom = freedom;
  joint.parent_frame = Frame{0.3 * vector(), rotation_from_vector(vector())};
  joint.child_frame = Frame{0.3 * vector(), rotation_from_vector(vector())};
  return joint;
}

}  // namespace dynamics::test
