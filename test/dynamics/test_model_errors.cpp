// Bad models are refused with a message naming the element and the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "dynamics/dynamics.hpp"

namespace dynamics {
namespace {

template <class F>
void expect_invalid(F&& f, const std::string& needle) {
  try {
    f();
    FAIL() << "expected an error containing '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

Body body(const std::string& name) {
  Body b;
  b.name = name;
  return b;
}

TEST(ModelErrors, BadBodies) {
  Model m;
  m.add_body(body("a"));
  expect_invalid([&] { m.add_body(body("a")); }, "duplicate body name 'a'");
  expect_invalid([&] { m.add_body(body("")); }, "has no name");
  Body b = body("heavy");
  b.mass = -1;
  expect_invalid([&] { m.add_body(b); }, "body 'heavy': mass must be positive");
  b.mass = std::nan("");
  expect_invalid([&] { m.add_body(b); }, "mass must be positive");
  b = body("flat");
  b.inertia = Vector3(1, 1, 0).asDiagonal();
  expect_invalid([&] { m.add_body(b); }, "body 'flat': inertia is not positive definite");
  // Small numbers are printed as such (std::to_string would say -0.000000).
  b.inertia = Vector3(1, 1, -1e-9).asDiagonal();
  expect_invalid([&] { m.add_body(b); }, "smallest eigenvalue -1e-09");
  b.inertia = Vector3(1, 1, 3).asDiagonal();
  expect_invalid([&] { m.add_body(b); }, "triangle inequality");
  b.inertia(0, 1) = 0.5;
  expect_invalid([&] { m.add_body(b); }, "not symmetric");
  b = body("lost");
  b.position.x() = INFINITY;
  expect_invalid([&] { m.add_body(b); }, "position is not finite");
  b = body("zero");
  b.orientation = Quaternion(0, 0, 0, 0);
  expect_invalid([&] { m.add_body(b); }, "orientation quaternion is zero");
}

// The model indexes names and body pairs as elements are added: lookups
// agree with the element lists, a refused element leaves its name free, and
// a copy keeps its own indexes.
TEST(ModelErrors, NameAndPairIndexesFollowTheElements) {
  Model m;
  for (int i = 0; i < 50; ++i) m.add_body(Body::solid("b" + std::to_string(i), 1.0, Shape::sphere(0.1)));
  for (int i = 1; i < 50; ++i) {
    Joint j = Joint::make(i % 7 == 0 ? JointType::Floating : JointType::Revolute, "j" + std::to_string(i), i - 1, i);
    m.add_joint(j);
  }
  for (int i = 0; i < m.num_bodies(); ++i) EXPECT_EQ(m.find_body(m.body(i).name), i);
  for (int j = 0; j < m.num_joints(); ++j) EXPECT_EQ(m.find_joint(m.joint(j).name), j);
  EXPECT_EQ(m.find_body("j1"), -1);  // bodies and joints have separate names
  EXPECT_EQ(m.find_joint("b1"), -1);
  Body heavy = body("late");
  heavy.mass = -1.0;
  expect_invalid([&] { m.add_body(heavy); }, "mass must be positive");
  EXPECT_EQ(m.find_body("late"), -1);
  heavy.mass = 2.0;
  EXPECT_EQ(m.add_body(heavy), 50);  // the refused body's name is free
  EXPECT_EQ(m.find_body("late"), 50);
  // Bodies held by a joint with constraints never collide (skip_jointed, the
  // default); a floating joint constrains nothing. Excluding a pair twice
  // lists it once.
  EXPECT_FALSE(m.may_collide(0, 1));
  EXPECT_FALSE(m.may_collide(1, 0));
  EXPECT_TRUE(m.may_collide(6, 7));
  EXPECT_TRUE(m.may_collide(0, 2));
  m.exclude_collision(2, 0);
  m.exclude_collision(0, 2);
  EXPECT_FALSE(m.may_collide(0, 2));
  EXPECT_EQ(m.excluded_collisions().size(), 1u);
  CollisionOptions o;
  o.skip_jointed = false;
  m.set_collision_options(o);
  EXPECT_TRUE(m.may_collide(0, 1));
  EXPECT_FALSE(m.may_collide(2, 0));
  Model copy = m;
  copy.add_body(body("only_in_copy"));
  EXPECT_EQ(copy.find_body("only_in_copy"), 51);
  EXPECT_EQ(m.find_body("only_in_copy"), -1);
  expect_invalid([&] { copy.add_body(body("b3")); }, "duplicate body name 'b3'");
  // Default contact names count the body's contacts, named ones included.
  Contact named;
  named.name = "foot";
  named.body = 4;
  copy.add_contact(named);
  Contact unnamed;
  unnamed.body = 4;
  copy.add_contact(unnamed);
  EXPECT_EQ(copy.contacts().back().name, "b4/contact1");
  expect_invalid([&] { copy.add_contact(named); }, "duplicate contact name 'foot'");
}

TEST(ModelErrors, BadJoints) {
  Model m;
  const int a = m.add_body(body("a"));
  expect_invalid([&] { m.add_joint(Joint::make(JointType::Revolute, "j", kWorld, 5)); }, "child body index 5");
  expect_invalid([&] { m.add_joint(Joint::make(JointType::Revolute, "j", 7, a)); }, "parent body index 7");
  expect_invalid([&] { m.add_joint(Joint::make(JointType::Revolute, "j", a, a)); }, "parent and child are the same");
  expect_invalid([&] { m.add_joint(Joint::make(JointType::Revolute, "j", kWorld, a, Vector3::Zero())); }, "axis is zero");
  Joint j = Joint::make(JointType::Revolute, "spring", kWorld, a);
  j.stiffness = -1;
  expect_invalid([&] { m.add_joint(j); }, "joint 'spring': stiffness must be >= 0");
  for (double bad : {-0.5, std::nan(""), double(INFINITY)}) {
    j = Joint::make(JointType::Revolute, "rubbing", kWorld, a);
    j.friction = bad;
    expect_invalid([&] { m.add_joint(j); }, "joint 'rubbing': friction must be >= 0 and finite");
  }
  j = Joint::make(JointType::Revolute, "init", kWorld, a);
  j.initial_position = {1, 2};
  expect_invalid([&] { m.add_joint(j); }, "initial position has 2 values, the joint has 1 coordinates");
  j = Joint::make(JointType::Revolute, "odd", kWorld, a);
  j.freedom.rotational = 4;
  expect_invalid([&] { m.add_joint(j); }, "free axes must be 0..3");
  m.add_joint(Joint::make(JointType::Revolute, "ok", kWorld, a));
  expect_invalid([&] { m.add_joint(Joint::make(JointType::Revolute, "ok", kWorld, a)); }, "duplicate joint name 'ok'");
}

TEST(ModelErrors, BadShapesAndBuiltins) {
  expect_invalid([] { Shape::box(Vector3(1, -1, 1)); }, "edge length must be positive");
  expect_invalid([] { Shape::sphere(0); }, "radius must be positive");
  expect_invalid([] { make_builtin("n-link-pendulum", {{"n", "0"}}); }, "positive integer");
  expect_invalid([] { make_builtin("n-link-pendulum", {{"n", "2.5"}}); }, "positive integer");
  expect_invalid([] { make_builtin("n-link-pendulum", {{"n", "1e9"}}); }, "positive integer up to 1000000, got '1e9'");
  expect_invalid([] { make_builtin("pendulum", {{"mass", "-1"}}); }, "mass must be positive");
  expect_invalid([] { scaled_pendulum(0.0); }, "scale must be positive");
  expect_invalid([] { scaled_pendulum(1e-200); }, "scale 1e-200 gives a link length (scale^2) of 0, outside");
  expect_invalid([] { make_builtin("scaled-pendulum", {{"scale", "1e200"}}); }, "length (scale^2) of inf");
  expect_invalid([] { make_builtin("nothing"); }, "unknown model 'nothing'");
}

TEST(ModelErrors, BadStatesAndOptions) {
  const Model m = pendulum();
  State s = make_state(m);
  s.velocity.pop_back();
  expect_invalid([&] { check_state(m, s); }, "velocity has 0 entries, the model needs 1");
  Simulator sim(m);
  expect_invalid([&] { sim.step(s); }, "velocity has 0 entries");
  s = make_state(m);
  s.joint_angles.clear();  // a state built by hand without the joints' turns
  expect_invalid([&] { sim.step(s); }, "joint_angles has 0 entries, the model needs 1");
  expect_invalid([&] { joint_positions(m, s); }, "joint_angles has 0 entries");
  StepOptions o;
  o.dt = 0;
  expect_invalid([&] { Simulator bad(m, o); }, "dt must be positive");
  o = StepOptions{};
  o.tolerance = -1e-12;
  expect_invalid([&] { Simulator bad(m, o); }, "tolerance must be positive, got -1e-12");
  o.tolerance = std::numeric_limits<double>::infinity();  // would accept every step unsolved
  expect_invalid([&] { Simulator bad(m, o); }, "tolerance must be finite");
  for (const double reuse : {-0.1, 0.6, std::nan("")}) {
    o = StepOptions{};
    o.reuse_factorization_below = reuse;
    expect_invalid([&] { Simulator bad(m, o); }, "reuse_factorization_below must lie in [0, 0.5]");
  }
  for (const double regularization : {-1e-12, std::nan("")}) {
    o = StepOptions{};
    o.regularization = regularization;
    expect_invalid([&] { Simulator bad(m, o); }, "regularization must be >= 0");
  }
  for (const double cap : {1e-12, std::nan(""), HUGE_VAL}) {
    o = StepOptions{};
    o.max_regularization = cap;
    expect_invalid([&] { Simulator bad(m, o); }, "max_regularization must be finite and >= regularization");
  }
  const Model empty;
  expect_invalid([&] { Simulator bad(empty); }, "the model has no bodies");
  // Gravity is a public field: a NaN or infinite one is refused where a step
  // read it as diverged.
  for (const double g : {std::nan(""), -HUGE_VAL}) {
    Model falling = pendulum();
    falling.gravity.z() = g;
    expect_invalid([&] { Simulator bad(falling); }, "gravity must be finite, got (0, 0, ");
  }
  State t = make_state(m);
  expect_invalid([&] { set_joint_positions(m, t, Eigen::VectorXd::Zero(3)); }, "got 3 values, the model has 1");
  expect_invalid([&] { set_joint_position(m, t, 0, Eigen::VectorXd::Zero(2)); }, "has 1 coordinate, got 2");
  // An angle counts its turns, but not beyond where a double keeps it to 1e-7 rad.
  expect_invalid([&] { set_joint_positions(m, t, Eigen::VectorXd::Constant(1, -2e9)); },
                 "joint 'joint1' at -2e+09 rad lies beyond +-1e9 rad");
  set_joint_positions(m, t, Eigen::VectorXd::Constant(1, 0.9e9));
  EXPECT_NEAR(joint_positions(m, t)(0), 0.9e9, 1e-6);
}

// A pendulum whose rod has principal moments 1e14 apart (a needle of no
// thickness): its block is singular in any units, and the projection names
// the body instead of calling the mechanism singular. (A pendulum of 0.1 um,
// inertia 1e-15 times its mass, gets equilibrated solves and runs:
// Robustness.ScaledPendulumsConvergeAtSmallSteps.)
TEST(ModelErrors, DegenerateBodyIsNamed) {
  Model needle;
  Body rod = Body::solid("needle", 1.0, Shape::box(Vector3(0.1, 0.1, 1.0)));
  rod.inertia = Vector3(1.0, 1.0, 1e-14).asDiagonal();
  const int b = needle.add_body(rod);
  Joint hinge = Joint::make(JointType::Revolute, "hinge", kWorld, b, Vector3::UnitX());
  hinge.child_frame.position = Vector3(0.0, 0.0, 0.5);
  needle.add_joint(hinge);
  expect_invalid([&] { make_state(needle); }, "cannot be solved (singular pivot block at body 'needle'");
  EXPECT_NO_THROW(make_state(scaled_pendulum(3e-4)));
}

// A 1 kg bob on a 1 m arm whose moments are 1e-16 kg m^2: its hinge's rows
// see l^2 / J = 1e16 beside 1/m, beyond the pivot test in any units (down to
// 3e-15 it runs: Pendulum.PointMassBobSwingsWithTheSimplePendulumPeriod
// checks 1e-12). The projection names the hinge and this cause.
TEST(ModelErrors, PointMassBeyondThePivotTestIsExplained) {
  Model model;
  Body bob;
  bob.name = "bob";
  bob.inertia = Matrix3::Identity() * 1e-16;
  bob.position = Vector3(0.0, 0.0, -1.0);
  model.add_body(bob);
  Joint hinge = Joint::make(JointType::Revolute, "hinge", kWorld, 0, Vector3::UnitY());
  hinge.child_frame.position = Vector3(0.0, 0.0, 1.0);
  model.add_joint(hinge);
  expect_invalid([&] { make_state(model); }, "singular pivot block at joint 'hinge'");
  expect_invalid([&] { make_state(model); }, "a point mass on an arm");
}

TEST(ModelErrors, BadProjectionRegularization) {
  const Model loop = four_bar();
  State s = make_state(loop);
  for (const auto& [regularization, largest] : {std::pair{1e-10, 1e-12}, std::pair{-1.0, 1e-4},
                                                std::pair{1e-10, std::numeric_limits<double>::quiet_NaN()},
                                                std::pair{1e-10, std::numeric_limits<double>::infinity()}}) {
    ProjectionOptions options;
    options.regularization = regularization;
    options.max_regularization = largest;
    expect_invalid([&] { project_positions(loop, s, options); },
                 "max_regularization finite and >= regularization, got ");
  }
}

TEST(Inertia, HelpersMatchTextbookFormulas) {
  EXPECT_NEAR(box_inertia(12, Vector3(1, 2, 3))(0, 0), 2 * 2 + 3 * 3, 1e-12);
  EXPECT_NEAR(sphere_inertia(5, 2)(1, 1), 0.4 * 5 * 4, 1e-12);
  EXPECT_NEAR(cylinder_inertia(2, 1, 3)(2, 2), 0.5 * 2 * 1, 1e-12);
  EXPECT_NEAR(cylinder_inertia(2, 1, 3)(0, 0), 2 * (3 + 9) / 12.0, 1e-12);
  // A capsule of zero length is a sphere; a long thin one tends to a rod.
  EXPECT_NEAR(capsule_inertia(3, 0.5, 0)(0, 0), sphere_inertia(3, 0.5)(0, 0), 1e-12);
  EXPECT_NEAR(capsule_inertia(3, 1e-4, 2)(0, 0), 3 * 4 / 12.0, 1e-3);
}

// A solid body takes its shape's inertia, turned with the shape.
TEST(Inertia, SolidBodiesTakeTheirShapesInertia) {
  EXPECT_EQ(Body::solid("b", 2, Shape::box(Vector3(1, 2, 3))).inertia, box_inertia(2, Vector3(1, 2, 3)));
  EXPECT_EQ(Body::solid("s", 2, Shape::sphere(0.5)).inertia, sphere_inertia(2, 0.5));
  EXPECT_EQ(Body::solid("c", 2, Shape::cylinder(0.1, 0.6)).inertia, cylinder_inertia(2, 0.1, 0.6));
  EXPECT_EQ(Body::solid("p", 2, Shape::capsule(0.1, 0.6)).inertia, capsule_inertia(2, 0.1, 0.6));
  // A capsule along y (its axis turned a quarter about x): the moment about
  // the axis moves from z to y.
  Shape turned = Shape::capsule(0.1, 0.6);
  turned.orientation = Quaternion(Eigen::AngleAxisd(M_PI / 2, Vector3::UnitX()));
  const Matrix3 along_z = capsule_inertia(2, 0.1, 0.6), along_y = Body::solid("p", 2, turned).inertia;
  EXPECT_NEAR(along_y(1, 1), along_z(2, 2), 1e-15);
  EXPECT_NEAR(along_y(2, 2), along_z(1, 1), 1e-15);
  EXPECT_NEAR(along_y(0, 0), along_z(0, 0), 1e-15);
  EXPECT_LT(along_z(2, 2), along_z(0, 0));  // a slender capsule turns most easily about its axis
}

TEST(ModelErrors, BadColliders) {
  Model m;
  m.add_body(Body::solid("ball", 1.0, Shape::sphere(0.1)));
  m.add_body(Body::solid("can", 1.0, Shape::cylinder(0.1, 0.3)));
  expect_invalid([&] { m.add_collider(Collider{"", 4, Shape::sphere(0.1)}); }, "collider 0: body index 4 does not exist");
  expect_invalid([&] { m.add_collider(Collider{"c", 0, Shape::cylinder(0.1, 0.2)}); },
                 "collider 'c': a cylinder cannot be a collider (spheres and boxes only)");
  expect_invalid([&] { m.add_collider(Collider{"", 0, Shape::capsule(0.1, 0.2)}); },
                 "collider 'ball/collider0': a capsule cannot be a collider");  // the name it would get
  // Shapes built field by field skip the factories' checks; the model checks again.
  Shape raw;
  raw.kind = Shape::Kind::Sphere;
  expect_invalid([&] { m.add_collider(Collider{"s", 0, raw}); }, "collider 's': sphere radius must be positive");
  raw.size.x() = std::nan("");
  expect_invalid([&] { m.add_collider(Collider{"s", 0, raw}); }, "sphere radius must be positive");
  raw.kind = Shape::Kind::Box;
  raw.size = Vector3(1.0, -1.0, 1.0);
  expect_invalid([&] { m.add_collider(Collider{"b", 0, raw}); }, "collider 'b': box edges must be positive");
  Shape moved = Shape::sphere(0.1);
  moved.position.x() = INFINITY;
  expect_invalid([&] { m.add_collider(Collider{"m", 0, moved}); }, "collider 'm': shape pose is not finite");
  moved = Shape::sphere(0.1);
  moved.orientation.coeffs().setZero();
  expect_invalid([&] { m.add_collider(Collider{"m", 0, moved}); }, "shape pose is not finite");
  EXPECT_EQ(m.add_collider(Collider{"", 0, Shape::sphere(0.1)}), 0);
  EXPECT_EQ(m.collider(0).name, "ball/collider0");
  EXPECT_EQ(m.add_collider(Collider{"", kWorld, Shape::box(Vector3::Ones())}), 1);
  EXPECT_EQ(m.collider(1).name, "world/collider0");
  expect_invalid([&] { m.add_collider(Collider{"ball/collider0", 0, Shape::sphere(0.1)}); },
                 "duplicate collider name 'ball/collider0'");
  expect_invalid([&] { m.collider(7); }, "collider index 7 does not exist");
  expect_invalid([&] { m.body(9); }, "body index 9 does not exist");
  expect_invalid([&] { m.joint(-1); }, "joint index -1 does not exist");
  expect_invalid([&] { m.add_shape_colliders(1); }, "body 'can': its cylinder shape cannot be a collider");
  EXPECT_EQ(m.num_colliders(), 2);  // nothing half added
  expect_invalid([&] { m.add_shape_colliders(9); }, "body index 9 does not exist");
  expect_invalid([&] { m.exclude_collision(0, 5); }, "exclude_collision: body index 5 does not exist");
  expect_invalid([&] { m.exclude_collision(0, 0); }, "a body never collides with itself");
  CollisionOptions o;
  o.margin = -0.1;
  expect_invalid([&] { m.set_collision_options(o); }, "margin must be >= 0 and finite");
  o = CollisionOptions{};
  o.friction_coefficient = -1.0;
  expect_invalid([&] { m.set_collision_options(o); }, "collision options: friction coefficient must be >= 0");
  o = CollisionOptions{};
  o.friction_directions = 5;
  expect_invalid([&] { m.set_collision_options(o); }, "friction directions must be an even number >= 2, got 5");
}

TEST(ModelErrors, BadContacts) {
  Model m;
  m.add_body(Body::solid("box", 1.0, Shape::box(Vector3::Ones())));
  const auto contact = [] {
    Contact c;
    c.body = 0;
    return c;
  };
  Contact c = contact();
  c.body = 3;
  expect_invalid([&] { m.add_contact(c); }, "contact 0: body index 3 does not exist");
  c = contact();
  c.friction_coefficient = -0.1;
  // An unnamed contact is named as add_contact would name it, not by its index in quotes.
  expect_invalid([&] { m.add_contact(c); }, "contact 'box/contact0': friction coefficient must be >= 0");
  c.friction_coefficient = std::nan("");
  expect_invalid([&] { m.add_contact(c); }, "friction coefficient must be >= 0");
  for (const double mu : {-0.5, std::nan(""), HUGE_VAL})
    expect_invalid([&] { m.set_friction_coefficient(mu); }, "friction coefficient must be >= 0 and finite, got ");
  c = contact();
  c.friction_directions = 3;
  expect_invalid([&] { m.add_contact(c); }, "friction directions must be an even number >= 2, got 3");
  c.friction_directions = 0;
  expect_invalid([&] { m.add_contact(c); }, "even number");
  c = contact();
  c.point = Vector3(std::nan(""), 0, 0);
  expect_invalid([&] { m.add_contact(c); }, "point is not finite");
  c = contact();
  c.radius = -1.0;
  expect_invalid([&] { m.add_contact(c); }, "radius must be >= 0");
  c = contact();
  c.ground.normal = Vector3::Zero();
  expect_invalid([&] { m.add_contact(c); }, "ground normal is zero");
  c = contact();
  c.ground.offset = INFINITY;
  expect_invalid([&] { m.add_contact(c); }, "ground offset is not finite");
  c = contact();
  c.name = "foot";
  m.add_contact(c);
  expect_invalid([&] { m.add_contact(c); }, "duplicate contact name 'foot'");
  expect_invalid([&] { m.contact(5); }, "contact index 5 does not exist");
  expect_invalid([&] { m.add_shape_contacts(2); }, "body index 2 does not exist");
  expect_invalid([] { HalfSpace::incline(2.0); }, "angle must be finite");
  ContactOptions no_rim;
  no_rim.rim_points = 0;
  no_rim.rolling_rims = false;  // nothing left to touch with
  expect_invalid([&] { shape_contacts(0, Shape::cylinder(1.0, 1.0), no_rim); }, "rim_points must be >= 1");
  no_rim.rim_points = -1;
  no_rim.rolling_rims = true;
  expect_invalid([&] { shape_contacts(0, Shape::cylinder(1.0, 1.0), no_rim); }, "got -1");
  // A valid contact gets a name from its body and normalized ground normal.
  c = contact();
  c.ground.normal = Vector3(0, 0, 2);
  m.add_contact(c);
  EXPECT_EQ(m.contacts().back().name, "box/contact1");
  EXPECT_DOUBLE_EQ(m.contacts().back().ground.normal.norm(), 1.0);
}

TEST(ModelErrors, BadJointLimits) {
  Model m;
  m.add_body(body("a"));
  Joint j = Joint::make(JointType::Revolute, "hinge", kWorld, 0);
  j.lower = {0.5};
  j.upper = {0.1};
  expect_invalid([&] { m.add_joint(j); }, "joint 'hinge' coordinate 0: lower limit 0.5");
  j.upper = {0.5, 1.0};
  expect_invalid([&] { m.add_joint(j); }, "upper limits have 2 values, the joint has 1 coordinates");
  j.lower = {std::nan("")};
  j.upper = {};
  expect_invalid([&] { m.add_joint(j); }, "lower limit is NaN");
  j.lower = {INFINITY};
  expect_invalid([&] { m.add_joint(j); }, "infinite on the wrong side");
  j.lower = {-INFINITY};
  j.upper = {1.0};
  EXPECT_EQ(m.add_joint(j), 0);  // one-sided limits are fine
  EXPECT_TRUE(m.has_inequalities());
  // Angles count whole turns: limits turns apart, or a turn out, are limits.
  m.add_body(body("b"));
  m.add_body(body("c"));
  j = Joint::make(JointType::Revolute, "wide", kWorld, 1);
  j.lower = {-2.0 * kPi};
  j.upper = {2.0 * kPi};
  EXPECT_EQ(m.add_joint(j), 1);
  j = Joint::make(JointType::Revolute, "one-sided", kWorld, 2);
  j.lower = {-4.0};
  EXPECT_EQ(m.add_joint(j), 2);
}

TEST(ModelErrors, BadInteriorPointOptions) {
  const Model model = box_drop();
  StepOptions o;
  o.fraction_to_boundary = 1.0;
  expect_invalid([&] { Simulator s(model, o); }, "fraction_to_boundary must lie in (0, 1)");
  o = StepOptions{};
  o.complementarity_tolerance = 0.0;
  expect_invalid([&] { Simulator s(model, o); }, "complementarity tolerances must be positive");
  o = StepOptions{};
  o.interior_tolerance = -1.0;
  expect_invalid([&] { Simulator s(model, o); }, "interior and complementarity tolerances must be positive");
  o = StepOptions{};
  o.complementarity_tolerance = std::numeric_limits<double>::infinity();
  expect_invalid([&] { Simulator s(model, o); }, "interior and complementarity tolerances must be finite");
  for (double bad : {-1e-6, std::nan(""), double(INFINITY)}) {
    o = StepOptions{};
    o.contact_regularization = bad;
    expect_invalid([&] { Simulator s(model, o); }, "contact_regularization must be finite and >= 0");
    o = StepOptions{};
    o.friction_regularization = bad;
    expect_invalid([&] { Simulator s(model, o); }, "friction_regularization must be finite and >= 0");
  }
  for (double bad : {0.0, -1e-3, std::nan(""), double(INFINITY)}) {
    o = StepOptions{};
    o.joint_friction_velocity = bad;
    expect_invalid([&] { Simulator s(model, o); }, "joint_friction_velocity must be finite and > 0");
  }
  expect_invalid([] { make_builtin("box-drop", {{"friction", "sticky"}}); }, "must be none, linearized or cone");
  expect_invalid([] { make_builtin("sliding-box", {{"directions", "0"}}); }, "positive integer");
  expect_invalid([] { make_builtin("box-drop", {{"mu", "-1"}}); }, "friction coefficient must be >= 0");
}

}  // namespace
}  // namespace dynamics
