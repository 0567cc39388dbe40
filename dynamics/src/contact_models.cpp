#include "dynamics/contact_models.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/models.hpp"

namespace dynamics {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument("dynamics::contact_models: " + message);
}

ContactOptions options_of(const FrictionSpec& f, const HalfSpace& ground = {}) {
  ContactOptions o;
  o.ground = ground;
  o.friction = f.model;
  o.friction_coefficient = f.coefficient;
  o.friction_directions = f.directions;
  return o;
}

// Floating joint from the world placing `body` at `position` turned by the
// rotation vector `rotation`, moving at `velocity` (world) and `spin` (body).
Joint floating(const std::string& name, int body, const Vector3& position, const Vector3& rotation = Vector3::Zero(),
               const Vector3& velocity = Vector3::Zero(), const Vector3& spin = Vector3::Zero()) {
  Joint j = Joint::make(JointType::Floating, name, kWorld, body);
  j.initial_position = {position.x(), position.y(), position.z(), rotation.x(), rotation.y(), rotation.z()};
  j.initial_velocity = {velocity.x(), velocity.y(), velocity.z(), spin.x(), spin.y(), spin.z()};
  return j;
}

Model cube_model(double edge, double mass, const Vector3& position, const Vector3& rotation, const Vector3& velocity,
                 const FrictionSpec& friction, const HalfSpace& ground = {}) {
  require(edge > 0.0 && std::isfinite(edge), "edge must be positive");
  Model model;
  const int box = model.add_body(Body::solid("box", mass, Shape::box(Vector3::Constant(edge))));
  model.add_joint(floating("box", box, position, rotation, velocity));
  model.add_shape_contacts(box, options_of(friction, ground));
  return model;
}

}  // namespace

Model box_drop(double edge, double mass, double height, FrictionSpec friction) {
  return cube_model(edge, mass, Vector3(0.0, 0.0, height + 0.5 * edge), Vector3::Zero(), Vector3::Zero(), friction);
}

Model sliding_box(double speed, FrictionSpec friction) {
  return cube_model(0.5, 1.0, Vector3(0.0, 0.0, 0.25), Vector3::Zero(), Vector3(speed, 0.0, 0.0), friction);
}

Model box_incline(double angle, FrictionSpec friction) {
  const HalfSpace ground = HalfSpace::incline(angle);
  return cube_model(0.5, 1.0, 0.25 * ground.normal, Vector3(0.0, angle, 0.0), Vector3::Zero(), friction, ground);
}

Model sphere_chain(int n, double height, FrictionSpec friction) {
  require(n >= 1, "sphere chain needs at least one sphere, got " + std::to_string(n));
  const double r = 0.25;
  Model model;
  for (int i = 0; i < n; ++i) {
    const int s = model.add_body(Body::solid("sphere" + std::to_string(i + 1), 1.0, Shape::sphere(r)));
    if (i == 0) {
      model.add_joint(floating("base", s, Vector3(0.0, 0.0, height + r)));
    } else {
      Joint j = Joint::make(JointType::Spherical, "joint" + std::to_string(i + 1), s - 1, s);
      j.parent_frame.position = Vector3(r, 0.0, 0.0);
      j.child_frame.position = Vector3(-r, 0.0, 0.0);
      // A gentle zigzag in the ground plane: bending always one way would curl
      // the chain into a circle that overlaps itself from 32 spheres on.
      j.initial_position = {0.0, 0.0, i % 2 == 1 ? 0.2 : -0.2};
      model.add_joint(j);
    }
    model.add_shape_contacts(s, options_of(friction));
  }
  return model;
}

Model cylinder_contacts(int points, double speed, FrictionSpec friction) {
  require(points >= 1, "cylinder needs at least one contact point, got " + std::to_string(points));
  Model model;
  const int c = model.add_body(Body::solid("cylinder", 1.0, Shape::cylinder(0.5, 0.1)));
  model.add_joint(floating("cylinder", c, Vector3(0.0, 0.0, 0.05), Vector3::Zero(), Vector3(speed, 0.0, 0.0),
                           Vector3(0.0, 0.0, speed)));
  ContactOptions o = options_of(friction);
  o.rim_points = points;
  o.both_bases = false;
  o.rolling_rims = false;  // the paper's experiment: exactly c points
  model.add_shape_contacts(c, o);
  return model;
}

Model cylinder_chain(int n, double speed, FrictionSpec friction) {
  require(n >= 1, "cylinder chain needs at least one link, got " + std::to_string(n));
  const double length = 1.0, radius = 0.05;
  Model model;
  for (int i = 0; i < n; ++i) {
    Body link = Body::solid("link" + std::to_string(i + 1), 1.0, Shape::cylinder(radius, length));
    const int b = model.add_body(link);
    if (i == 0) {
      model.add_joint(floating("base", b, Vector3(0.5 * length, 0.0, radius), Vector3(0.0, 0.5 * kPi, 0.0),
                               Vector3(0.0, speed, 0.0)));
    } else {
      Joint j = Joint::make(JointType::Spherical, "joint" + std::to_string(i + 1), b - 1, b);
      j.parent_frame.position = Vector3(0.0, 0.0, 0.5 * length);
      j.child_frame.position = Vector3(0.0, 0.0, -0.5 * length);
      model.add_joint(j);
    }
    const Vector3 end(0.0, 0.0, 0.5 * length);
    model.add_contact(make_contact(b, end, radius, options_of(friction)));
    if (i == 0) model.add_contact(make_contact(b, -end, radius, options_of(friction)));
  }
  return model;
}

Model hopper(FrictionSpec friction) {
  Model model;
  const int body = model.add_body(Body::solid("body", 1.0, Shape::sphere(0.1)));
  const int pole = model.add_body(Body::solid("pole", 0.2, Shape::cylinder(0.05, 0.8)));
  model.add_joint(floating("base", body, Vector3(0.0, 0.0, 0.8)));
  Joint leg = Joint::make(JointType::Prismatic, "leg", body, pole, Vector3::UnitZ());
  leg.child_frame.position = Vector3(0.0, 0.0, 0.4);  // pole top at the body centre when the leg is at zero
  leg.lower = {-0.2};
  leg.upper = {0.2};
  model.add_joint(leg);
  Contact foot = make_contact(pole, Vector3(0.0, 0.0, -0.4), 0.0, options_of(friction));
  foot.name = "foot";
  model.add_contact(foot);
  return model;
}

Model quadruped(double stiffness, FrictionSpec friction) {
  require(stiffness >= 0.0 && std::isfinite(stiffness), "stiffness must be >= 0");
  Model model;
  const double thigh = 0.2, calf = 0.2, foot_radius = 0.02;
  const double hip_bend = 0.6, knee_bend = -1.2;  // standing pose
  const double height = std::cos(hip_bend) * thigh + std::cos(hip_bend + knee_bend) * calf + foot_radius;
  const int trunk = model.add_body(Body::solid("trunk", 5.0, Shape::box(Vector3(0.4, 0.2, 0.1))));
  model.add_joint(floating("base", trunk, Vector3(0.0, 0.0, height)));
  const ContactOptions o = options_of(friction);
  model.add_shape_contacts(trunk, o);  // its corners, should it fall
  const char* names[4] = {"front_left", "front_right", "rear_left", "rear_right"};
  for (int leg = 0; leg < 4; ++leg) {
    const std::string n = names[leg];
    const Vector3 hip_at(leg < 2 ? 0.18 : -0.18, leg % 2 == 0 ? 0.1 : -0.1, 0.0);
    const int shoulder = model.add_body(Body::solid(n + "_hip", 0.3, Shape::sphere(0.03)));
    const int upper = model.add_body(Body::solid(n + "_thigh", 0.4, Shape::cylinder(0.02, thigh)));
    const int lower = model.add_body(Body::solid(n + "_calf", 0.2, Shape::cylinder(0.015, calf)));
    Joint hip = Joint::make(JointType::Revolute, n + "_hip", trunk, shoulder, Vector3::UnitX());
    hip.parent_frame.position = hip_at;
    Joint knee_up = Joint::make(JointType::Revolute, n + "_thigh", shoulder, upper, Vector3::UnitY());
    knee_up.child_frame.position = Vector3(0.0, 0.0, 0.5 * thigh);
    knee_up.initial_position = {hip_bend};
    knee_up.rest = {hip_bend};
    Joint knee = Joint::make(JointType::Revolute, n + "_knee", upper, lower, Vector3::UnitY());
    knee.parent_frame.position = Vector3(0.0, 0.0, -0.5 * thigh);
    knee.child_frame.position = Vector3(0.0, 0.0, 0.5 * calf);
    knee.initial_position = {knee_bend};
    knee.rest = {knee_bend};
    knee.lower = {-2.5};
    knee.upper = {-0.2};
    for (Joint* j : {&hip, &knee_up, &knee}) {
      j->stiffness = stiffness;
      j->damping = 0.005 * stiffness;  // light: the legs still swing on their springs
      model.add_joint(*j);
    }
    Contact foot = make_contact(lower, Vector3(0.0, 0.0, -0.5 * calf), foot_radius, o);
    foot.name = n + "_foot";
    model.add_contact(foot);
  }
  return model;
}

namespace {

CollisionOptions collisions_of(const FrictionSpec& f) {
  CollisionOptions o;
  o.friction = f.model;
  o.friction_coefficient = f.coefficient;
  o.friction_directions = f.directions;
  return o;
}

}  // namespace

Model sphere_collision(double speed, double offset, FrictionSpec friction) {
  require(std::isfinite(speed) && std::isfinite(offset), "speed and offset must be finite");
  const double r = 0.25;
  Model model;
  model.gravity = Vector3::Zero();
  const int a = model.add_body(Body::solid("mover", 1.0, Shape::sphere(r)));
  const int b = model.add_body(Body::solid("target", 1.0, Shape::sphere(r)));
  model.add_joint(floating("mover", a, Vector3(-1.0, offset, 0.0), Vector3::Zero(), Vector3(speed, 0.0, 0.0)));
  model.add_joint(floating("target", b, Vector3::Zero()));
  model.set_collision_options(collisions_of(friction));
  model.add_shape_colliders(a);
  model.add_shape_colliders(b);
  return model;
}

Model box_stack(int count, FrictionSpec friction) {
  require(count >= 1, "box stack needs at least one box, got " + std::to_string(count));
  const double edge = 0.5, gap = 0.01;
  Model model;
  model.set_collision_options(collisions_of(friction));
  for (int i = 0; i < count; ++i) {
    const int box = model.add_body(Body::solid("box" + std::to_string(i + 1), 1.0, Shape::box(Vector3::Constant(edge))));
    model.add_joint(floating("box" + std::to_string(i + 1), box, Vector3(0.0, 0.0, (i + 0.5) * edge + (i + 1) * gap)));
    model.add_shape_contacts(box, options_of(friction));
    model.add_shape_colliders(box);
  }
  return model;
}

Model ball_on_table(double height, double speed, FrictionSpec friction) {
  require(height > -0.1 && std::isfinite(height) && std::isfinite(speed), "height must be > -0.1 m and finite");
  const double r = 0.1, table = 0.5;
  Model model;
  model.set_collision_options(collisions_of(friction));
  const int ball = model.add_body(Body::solid("ball", 1.0, Shape::sphere(r)));
  model.add_joint(floating("ball", ball, Vector3(0.0, 0.0, table + r + height), Vector3::Zero(),
                           Vector3(speed, 0.0, 0.0)));
  model.add_shape_contacts(ball, options_of(friction));  // the floor, should it roll off
  Shape top = Shape::box(Vector3(1.0, 1.0, table));
  top.position = Vector3(0.0, 0.0, 0.5 * table);
  model.add_collider(Collider{"table", kWorld, top});
  model.add_shape_colliders(ball);
  return model;
}

Model gripper(double squeeze, FrictionSpec friction) {
  require(squeeze >= 0.0 && std::isfinite(squeeze), "squeeze must be >= 0 and finite");
  const Vector3 finger(0.02, 0.04, 0.06);
  const double cube = 0.08, gap = 0.005, height = 0.4, stiffness = 500.0;
  Model model;
  model.set_collision_options(collisions_of(friction));
  const int hand = model.add_body(Body::solid("hand", 0.5, Shape::box(Vector3(0.2, 0.05, 0.05))));
  Joint mount = Joint::make(JointType::Fixed, "mount", kWorld, hand);
  mount.parent_frame.position = Vector3(0.0, 0.0, height + 0.1);
  model.add_joint(mount);
  int slides[2];
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? -1.0 : 1.0;  // finger 1 on the -x side closes along +x
    const std::string name = "finger" + std::to_string(side + 1);
    const int f = model.add_body(Body::solid(name, 0.05, Shape::box(finger)));
    Joint slide = Joint::make(JointType::Prismatic, name, hand, f, Vector3(-sign, 0.0, 0.0));
    slide.parent_frame.position = Vector3(sign * (0.5 * cube + 0.5 * finger.x() + gap), 0.0, -0.1);
    if (side == 0) {  // the spring of the leading finger closes the gripper
      slide.stiffness = stiffness;
      slide.rest = {gap + squeeze / stiffness};
    }
    slides[side] = model.add_joint(slide);
    model.add_shape_colliders(f);
  }
  model.add_coupling(JointCoupling{"fingers", slides[0], slides[1], 1.0, 0.0});
  const int box = model.add_body(Body::solid("box", 0.1, Shape::box(Vector3::Constant(cube))));
  model.add_joint(floating("box", box, Vector3(0.0, 0.0, height)));
  model.add_shape_colliders(box);
  return model;
}

}  // namespace dynamics
