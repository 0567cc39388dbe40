#include "dynamics/models.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "format_number.hpp"

namespace dynamics {
namespace {


std::string indexed(const char* base, int i) { return base + std::to_string(i); }

// Revolute joint about y between the tip of `parent` (or a world point) and
// the top of `child`, with the joint frames at the given points.
Joint hinge(const std::string& name, int parent, const Vector3& parent_point, int child, const Vector3& child_point,
            double angle) {
  Joint j = Joint::make(JointType::Revolute, name, parent, child, Vector3::UnitY());
  j.parent_frame.position = parent_point;
  j.child_frame.position = child_point;
  j.initial_position = {angle};
  return j;
}

Vector3 top(double length) { return Vector3(0.0, 0.0, 0.5 * length); }
Vector3 tip(double length) { return Vector3(0.0, 0.0, -0.5 * length); }

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument("dynamics::models: " + message);
}

// Links 1 and 3 hang from world pivots `ground` apart, link 2 joins their tips
// and starts horizontal; the joint between link 2 and link 3 closes the loop.
Model hanging_loop(double l1, double l2, double l3, double m1, double m2, double m3, double ground, double angle) {
  Model model;
  const int a = model.add_body(make_link("link1", l1, m1));
  const int b = model.add_body(make_link("link2", l2, m2));
  const int c = model.add_body(make_link("link3", l3, m3));
  model.add_joint(hinge("joint1", kWorld, Vector3::Zero(), a, top(l1), angle));
  model.add_joint(hinge("joint2", a, tip(l1), b, top(l2), -0.5 * kPi - angle));
  model.add_joint(hinge("joint3", kWorld, Vector3(ground, 0.0, 0.0), c, top(l3), angle));
  model.add_joint(hinge("joint4", b, tip(l2), c, tip(l3), 0.0));
  return model;
}

}  // namespace

// A thin rod: the inertia of a line of mass about its centre, plus a small
// axial moment (radius 5 % of the length) so that it can spin.
Body make_link(const std::string& name, double length, double mass) {
  require(length > 0.0 && std::isfinite(length), "link '" + name + "': length must be positive");
  require(mass > 0.0 && std::isfinite(mass), "link '" + name + "': mass must be positive");
  Body b;
  b.name = name;
  b.mass = mass;
  const double radius = 0.05 * length;
  const double side = mass * length * length / 12.0;
  b.inertia = Vector3(side, side, 0.5 * mass * radius * radius).asDiagonal();
  b.shapes.push_back(Shape::cylinder(radius, length));
  return b;
}

Model pendulum(double length, double mass, double angle, double damping, double friction) {
  Model model;
  const int link = model.add_body(make_link("link1", length, mass));
  Joint j = hinge("joint1", kWorld, Vector3::Zero(), link, top(length), angle);
  j.damping = damping;
  j.friction = friction;
  model.add_joint(j);
  return model;
}

Model n_link_pendulum(int links, ChainJoint type, double length, double mass, double angle) {
  require(links >= 1, "n-link pendulum needs at least one link, got " + std::to_string(links));
  Model model;
  int parent = kWorld;
  for (int i = 1; i <= links; ++i) {
    const int link = model.add_body(make_link(indexed("link", i), length, mass));
    const Vector3 at = parent == kWorld ? Vector3::Zero() : tip(length);
    const double a = i == 1 ? angle : 0.0;
    if (type == ChainJoint::Revolute) {
      model.add_joint(hinge(indexed("joint", i), parent, at, link, top(length), a));
    } else {
      Joint j = Joint::make(JointType::Spherical, indexed("joint", i), parent, link);
      j.parent_frame.position = at;
      j.child_frame.position = top(length);
      j.initial_position = {0.0, a, 0.0};  // rotation vector about y
      model.add_joint(j);
    }
    parent = link;
  }
  return model;
}

Model double_pendulum(double length, double mass, double angle1, double angle2) {
  Model model;
  const int a = model.add_body(make_link("link1", length, mass));
  const int b = model.add_body(make_link("link2", length, mass));
  model.add_joint(hinge("joint1", kWorld, Vector3::Zero(), a, top(length), angle1));
  model.add_joint(hinge("joint2", a, tip(length), b, top(length), angle2));
  return model;
}

Model three_link_loop(double angle) {
  const double r = std::sqrt(0.5);
  return hanging_loop(1.0, r, 1.0, 1.0, r, 1.0, r, angle);
}

Model four_bar(double length, double mass, double angle) {
  return hanging_loop(length, length, length, mass, mass, mass, length, angle);
}

Model double_four_bar(double length, double mass, double speed) {
  Model model;
  const int l1 = model.add_body(make_link("crank1", length, mass));
  const int l2 = model.add_body(make_link("crank2", length, mass));
  const int l3 = model.add_body(make_link("crank3", length, mass));
  const int c1 = model.add_body(make_link("coupler1", length, mass));
  const int c2 = model.add_body(make_link("coupler2", length, mass));
  const double horizontal = -0.5 * kPi;
  Joint j1 = hinge("joint1", kWorld, Vector3::Zero(), l1, top(length), 0.0);
  Joint j2 = hinge("joint2", kWorld, Vector3(length, 0.0, 0.0), l2, top(length), 0.0);
  Joint j3 = hinge("joint3", kWorld, Vector3(2.0 * length, 0.0, 0.0), l3, top(length), 0.0);
  Joint j4 = hinge("joint4", l1, tip(length), c1, top(length), horizontal);
  Joint j5 = hinge("joint5", l2, tip(length), c2, top(length), horizontal);
  // Cranks turn at `speed`, couplers translate (relative rate -speed).
  j1.initial_velocity = j2.initial_velocity = j3.initial_velocity = {speed};
  j4.initial_velocity = j5.initial_velocity = {-speed};
  for (const Joint& j : {j1, j2, j3, j4, j5}) model.add_joint(j);
  model.add_joint(hinge("joint6", c1, tip(length), l2, tip(length), 0.0));
  model.add_joint(hinge("joint7", c2, tip(length), l3, tip(length), 0.0));
  return model;
}

Model four_link_chain(int segments, double length, double mass, double angle) {
  require(segments >= 1, "four-link chain needs at least one segment, got " + std::to_string(segments));
  Model model;
  const double horizontal = -0.5 * kPi;
  int above = kWorld;
  for (int s = 1; s <= segments; ++s) {
    const std::string tag = std::to_string(s);
    const int top_bar = model.add_body(make_link("top" + tag, length, mass));
    const int left = model.add_body(make_link("left" + tag, length, mass));
    const int right = model.add_body(make_link("right" + tag, length, mass));
    const int bottom = model.add_body(make_link("bottom" + tag, length, mass));
    if (above == kWorld) {
      model.add_joint(hinge("hang", kWorld, Vector3::Zero(), top_bar, Vector3::Zero(), horizontal + angle));
    } else {
      // The next top bar hangs half a length below the bar above (a point
      // above its centre: local +x is up for a horizontal bar).
      model.add_joint(hinge("link" + tag, above, Vector3::Zero(), top_bar, Vector3(0.5 * length, 0.0, 0.0), 0.0));
    }
    model.add_joint(hinge("left" + tag, top_bar, top(length), left, top(length), -horizontal));
    model.add_joint(hinge("right" + tag, top_bar, tip(length), right, top(length), -horizontal));
    model.add_joint(hinge("bottom" + tag, left, tip(length), bottom, top(length), horizontal));
    model.add_joint(hinge("close" + tag, bottom, tip(length), right, tip(length), 0.0));
    above = bottom;
  }
  return model;
}

Model t_handle(double spin, double perturbation) {
  Model model;
  model.gravity = Vector3::Zero();
  Body handle;
  handle.name = "handle";
  handle.mass = 1.0;
  handle.inertia = Vector3(0.1, 0.2, 0.3).asDiagonal();  // spin about the middle (y) axis is unstable
  handle.shapes.push_back(Shape::cylinder(0.02, 0.4));
  const int b = model.add_body(handle);
  Joint j = Joint::make(JointType::Floating, "handle", kWorld, b);
  j.initial_velocity = {0.0, 0.0, 0.0, perturbation, spin, perturbation};
  model.add_joint(j);
  return model;
}

Model scaled_pendulum(double scale) {
  require(scale > 0.0 && std::isfinite(scale), "scale must be positive");
  // The length s^2 leaves the range of doubles long before s does.
  const double length = scale * scale;
  require(length > 0.0 && std::isfinite(length), "scale " + detail::format_number(scale) +
                                                      " gives a link length (scale^2) of " +
                                                      detail::format_number(length) + ", outside the range of doubles");
  return pendulum(length, scale, 0.5 * kPi, 0.0);
}

}  // namespace dynamics
