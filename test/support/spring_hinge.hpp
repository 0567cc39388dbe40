#pragma once
// A 1 m, 1 kg link hinged at its top end to the world, with a joint spring:
// the tests of springs too stiff for a step, and its swing's rate.

#include <cmath>

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

struct SpringHinge {
  Model model;
  double rate;  // rad/s of small swings: spring and gravity over the inertia about the hinge
};

inline SpringHinge spring_hinge(double stiffness, double angle) {
  SpringHinge h;
  const int link = h.model.add_body(make_link("link", 1.0, 1.0));
  Joint hinge = Joint::make(JointType::Revolute, "hinge", kWorld, link, Vector3::UnitY());
  hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);  // the link's top end
  hinge.stiffness = stiffness;
  hinge.initial_position = {angle};
  h.model.add_joint(hinge);
  const double inertia = h.model.body(link).inertia(1, 1) + 0.25;  // about the hinge
  h.rate = std::sqrt((stiffness + 9.81 * 0.5) / inertia);
  return h;
}

// The largest angle of symplectic Euler's invariant for x'' = -rate^2 x from
// rest at `amplitude`, with steps of h: amplitude / sqrt(1 - (rate h / 2)^2).
inline double swing_bound(double amplitude, double rate, double h) {
  return amplitude / std::sqrt(1.0 - 0.25 * rate * rate * h * h);
}

}  // namespace dynamics::test
