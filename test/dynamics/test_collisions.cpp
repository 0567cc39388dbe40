// Contacts between bodies (colliders): narrow-phase distances and their
// first-order motion against analytic values and finite differences, the broad
// phase against brute force, and simulations against conservation laws and
// analytic rest and stopping positions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "broad_phase.hpp"
#include "contact_site.hpp"
#include "dynamics/dynamics.hpp"
#include "gravity.hpp"
#include "contact_run.hpp"
#include "pose_perturbation.hpp"

namespace dynamics {
namespace {

using detail::PairFeature;
using detail::Pose;

using test::kG;

Shape placed(Shape shape, const Vector3& position, const Quaternion& orientation = Quaternion::Identity()) {
  shape.position = position;
  shape.orientation = orientation;
  return shape;
}

// Two free bodies with one collider each (no joints, no gravity needed).
Model two_colliders(const Shape& a, const Shape& b) {
  Model m;
  m.add_body(Body::solid("a", 1.0, Shape::sphere(0.1)));
  m.add_body(Body::solid("b", 1.0, Shape::sphere(0.1)));
  m.add_collider(Collider{"a", 0, a});
  m.add_collider(Collider{"b", 1, b});
  return m;
}

TEST(NarrowPhase, SphereSphereDistanceNormalAndSurfacePoints) {
  const Model m = two_colliders(Shape::sphere(0.5), Shape::sphere(0.25));
  const Pose a{Vector3(0.0, 0.0, 0.0), Quaternion::Identity()};
  const Pose b{Vector3(2.0, 0.0, 0.0), Quaternion(Eigen::AngleAxisd(0.7, Vector3::UnitZ()))};
  const detail::ContactFrame f = detail::locate_pair(m, {0, 1, -1, -1}, a, b);
  EXPECT_NEAR(f.distance, 2.0 - 0.75, 1e-15);
  EXPECT_TRUE(f.normal.isApprox(Vector3(-1.0, 0.0, 0.0), 1e-15));  // from b towards a
  EXPECT_TRUE(f.point_a.isApprox(Vector3(0.5, 0.0, 0.0), 1e-15));
  // b's surface point (1.75, 0, 0) in b's frame.
  EXPECT_TRUE((b.position + b.orientation * f.point_b).isApprox(Vector3(1.75, 0.0, 0.0), 1e-14));
}

TEST(NarrowPhase, SphereBoxFaceEdgeCornerAndInside) {
  const Model m = two_colliders(Shape::sphere(0.5), Shape::box(Vector3(2.0, 2.0, 2.0)));
  const Pose box{Vector3::Zero(), Quaternion::Identity()};
  const auto at = [&](const Vector3& centre) {
    return detail::locate_pair(m, {0, 1, -1, -1}, Pose{centre, Quaternion::Identity()}, box);
  };
  detail::ContactFrame f = at(Vector3(0.2, -0.3, 3.0));  // above the top face
  EXPECT_NEAR(f.distance, 1.5, 1e-15);
  EXPECT_TRUE(f.normal.isApprox(Vector3::UnitZ(), 1e-15));
  EXPECT_TRUE(f.point_b.isApprox(Vector3(0.2, -0.3, 1.0), 1e-15));
  f = at(Vector3(2.0, 0.0, 2.0));  // beyond an edge
  EXPECT_NEAR(f.distance, std::sqrt(2.0) - 0.5, 1e-15);
  EXPECT_TRUE(f.normal.isApprox(Vector3(1.0, 0.0, 1.0).normalized(), 1e-15));
  f = at(Vector3(2.0, 2.0, 2.0));  // beyond a corner
  EXPECT_NEAR(f.distance, std::sqrt(3.0) - 0.5, 1e-15);
  f = at(Vector3(0.1, 0.0, 0.8));  // centre inside, nearest the top face
  EXPECT_NEAR(f.distance, -0.2 - 0.5, 1e-15);
  EXPECT_TRUE(f.normal.isApprox(Vector3::UnitZ(), 1e-15));
}

TEST(NarrowPhase, BoxCornerAgainstAFacePlane) {
  const Model m = two_colliders(Shape::box(Vector3(0.2, 0.4, 0.6)), Shape::box(Vector3(2.0, 2.0, 1.0)));
  const Pose a{Vector3(0.1, 0.2, 1.0), Quaternion::Identity()};
  const Pose b{Vector3::Zero(), Quaternion::Identity()};
  // Corner 0 is (-0.1, -0.2, -0.3) from a's centre: 0.7 - 0.5 above b's top face (face 5: +z).
  const detail::ContactFrame f = detail::locate_pair(m, {0, 1, 0, 5}, a, b);
  EXPECT_NEAR(f.distance, 0.2, 1e-15);
  EXPECT_TRUE(f.normal.isApprox(Vector3::UnitZ(), 1e-15));
  EXPECT_TRUE(f.point_b.isApprox(Vector3(0.0, 0.0, 0.5), 1e-15));
}

// phi changes, to first order, by n . (motion of point_a - motion of point_b)
// with both points moving with their bodies: checked by central differences
// along every pose direction of both bodies, for every feature kind.
TEST(NarrowPhase, DistanceMovesWithTheTouchingPointsToFirstOrder) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto random_rotation = [&] {
    return Quaternion(Eigen::AngleAxisd(3.0 * unit(rng), Vector3(unit(rng), unit(rng), unit(rng)).normalized()));
  };
  const Shape sphere = placed(Shape::sphere(0.3), Vector3(0.1, -0.2, 0.05));
  const Shape box = placed(Shape::box(Vector3(0.8, 0.5, 0.6)), Vector3(-0.1, 0.05, 0.2), random_rotation());
  struct Case {
    Model model;
    PairFeature feature;
    Vector3 offset;  // b's position relative to a
  };
  const Case cases[] = {
      {two_colliders(sphere, Shape::sphere(0.2)), {0, 1, -1, -1}, Vector3(0.4, 0.5, 0.3)},
      {two_colliders(sphere, box), {0, 1, -1, -1}, Vector3(0.6, 0.5, 0.7)},  // sphere outside the box
      {two_colliders(sphere, box), {0, 1, -1, -1}, Vector3(0.05, 0.1, 0.0)},  // centre inside the box
      {two_colliders(box, box), {0, 1, 3, 4}, Vector3(0.3, -0.2, 1.1)},       // corner against a face plane
  };
  for (const Case& c : cases) {
    for (int trial = 0; trial < 5; ++trial) {
      const Pose a{Vector3(unit(rng), unit(rng), unit(rng)) * 0.1, random_rotation()};
      const Pose b{a.position + c.offset, random_rotation()};
      const detail::ContactFrame f = detail::locate_pair(c.model, c.feature, a, b);
      const double h = 1e-6;
      for (int side = 0; side < 2; ++side)
        for (int column = 0; column < 6; ++column) {
          const auto phi = [&](double step) {
            const Pose pa = side == 0 ? test::perturbed(a, column, step) : a;
            const Pose pb = side == 1 ? test::perturbed(b, column, step) : b;
            return detail::locate_pair(c.model, c.feature, pa, pb).distance;
          };
          const double numeric = (phi(h) - phi(-h)) / (2.0 * h);
          const Pose& p = side == 0 ? a : b;
          const Vector3& point = side == 0 ? f.point_a : f.point_b;
          const Vector3 motion = column < 3 ? Vector3(Vector3::Unit(column))
                                            : Vector3(p.orientation * Vector3::Unit(column - 3).cross(point));
          const double analytic = (side == 0 ? 1.0 : -1.0) * f.normal.dot(motion);
          EXPECT_NEAR(numeric, analytic, 1e-7) << "feature corner " << c.feature.corner << " side " << side
                                               << " column " << column;
        }
    }
  }
}

// Everything the broad phase keeps is within reach, and it misses nothing
// that brute force finds within the margin (colliders at rest).
TEST(BroadPhase, FindsExactlyThePairsWithinTheMarginAtRest) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Model m;
  const int n = 40;
  for (int i = 0; i < n; ++i) {
    const int b = m.add_body(Body::solid("b" + std::to_string(i), 1.0, Shape::sphere(0.1)));
    const Shape shape = i % 3 == 0 ? Shape::box(Vector3(0.3, 0.2, 0.25)) : Shape::sphere(0.05 + 0.1 * unit(rng));
    m.add_collider(Collider{"", b, shape});
  }
  m.add_collider(Collider{"floor", kWorld, placed(Shape::box(Vector3(3.0, 3.0, 0.2)), Vector3(1.0, 1.0, -0.1))});
  m.exclude_collision(0, 1);
  CollisionOptions o;
  o.margin = 0.05;
  m.set_collision_options(o);
  State state = make_state(m);
  std::vector<Pose> poses(n);
  for (int i = 0; i < n; ++i) {
    poses[i].position = Vector3(2.0 * unit(rng), 2.0 * unit(rng), 0.3 * unit(rng));
    poses[i].orientation = Quaternion(Eigen::AngleAxisd(6.0 * unit(rng), Vector3::UnitZ()));
  }
  detail::BroadPhase broad(m);
  std::vector<PairFeature> found;
  broad.find(poses, state, 0.01, {}, found);
  const auto pose = [&](int body) { return body == kWorld ? Pose{} : poses[body]; };
  const auto distance = [&](const PairFeature& f) {
    return detail::locate_pair(m, f, pose(m.collider(f.collider_a).body), pose(m.collider(f.collider_b).body))
        .distance;
  };
  const double reach = 2.0 * 0.01 * 0.01 * kG;  // at rest: only the speed gravity adds
  for (const PairFeature& f : found) {
    EXPECT_TRUE(m.may_collide(m.collider(f.collider_a).body, m.collider(f.collider_b).body));
    EXPECT_LE(distance(f), o.margin + 2.0 * reach + 1e-12);
  }
  int spheres_near = 0;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const Collider &a = m.collider(i), &b = m.collider(j);
      if (i == j || a.shape.kind != Shape::Kind::Sphere || !m.may_collide(a.body, b.body)) continue;
      if (b.shape.kind == Shape::Kind::Sphere && j < i) continue;
      const PairFeature f{i, j, -1, -1};
      if (distance(f) > o.margin) continue;
      ++spheres_near;
      EXPECT_TRUE(std::binary_search(found.begin(), found.end(), f)) << i << " " << j;
    }
  EXPECT_GT(spheres_near, 5);  // the scene is dense enough to test something
  // Excluded and same-body pairs never appear.
  for (const PairFeature& f : found)
    EXPECT_FALSE(m.collider(f.collider_a).body == 0 && m.collider(f.collider_b).body == 1);
}

using test::simulate_contacts;

// Rigid contacts at z_k+2 without restitution: a head-on collision of equal
// spheres is perfectly inelastic, both end at the mean velocity; the contact
// impulses are equal and opposite, so momentum is conserved exactly. After
// the impact the spheres touch without force (no gravity): a degenerate
// complementarity pair that the interior-point method resolves to about the
// square root of its tolerance, so they drift apart at that speed.
TEST(Collisions, HeadOnSpheresConserveMomentumAndMoveTogether) {
  for (double tolerance : {1e-8, 1e-12})
    for (FrictionModel friction : {FrictionModel::None, FrictionModel::Linearized, FrictionModel::Cone}) {
      const Model model = sphere_collision(2.0, 0.0, {friction, 0.5, 4});
      State state = make_state(model);
      StepOptions options;
      options.complementarity_tolerance = tolerance;
      Simulator sim(model, options);
      const Vector3 p0 = linear_momentum(model, state);
      const test::ContactRun run = simulate_contacts(sim, state, 60);
      ASSERT_TRUE(run.ok);
      EXPECT_GE(run.min_distance, -1e-6);
      EXPECT_EQ(run.most_collider_contacts, 1);
      EXPECT_LT((linear_momentum(model, state) - p0).norm(), 1e-9);
      const double drift = 2.0 * std::sqrt(tolerance);
      for (int b = 0; b < 2; ++b)
        EXPECT_NEAR(state.velocity[b].x(), 1.0, drift) << to_string(friction) << " tolerance " << tolerance;
      EXPECT_NEAR(kinetic_energy(model, state), 1.0, 2.0 * drift);  // half of it lost
    }
}

// A glancing collision: momentum and angular momentum about the origin are
// conserved (no external forces), energy never increases, no penetration.
TEST(Collisions, GlancingSpheresConserveMomentaAndNeverGainEnergy) {
  const Model model = sphere_collision(2.0, 0.3, {FrictionModel::Cone, 0.5, 4});
  State state = make_state(model);
  Simulator sim(model);
  const Vector3 p0 = linear_momentum(model, state), l0 = angular_momentum(model, state, 0.01);
  double energy = kinetic_energy(model, state);
  for (int k = 0; k < 80; ++k) {
    const StepResult r = sim.step(state);
    ASSERT_TRUE(r.ok()) << k;
    EXPECT_GE(r.min_signed_distance, -1e-6);
    const double e = kinetic_energy(model, state);
    EXPECT_LE(e, energy + 1e-9) << k;
    energy = e;
  }
  EXPECT_LT((linear_momentum(model, state) - p0).norm(), 1e-9);
  // Each step solves the momentum equations to 1e-8: 80 steps, lever ~1 m.
  EXPECT_LT((angular_momentum(model, state, 0.01) - l0).norm(), 1e-6);
  EXPECT_GT(state.velocity[1].norm(), 0.1);  // the target was hit
}

TEST(Collisions, BallComesToRestOnAStaticTable) {
  const Model model = ball_on_table(0.3, 0.0);
  State state = make_state(model);
  Simulator sim(model);
  const test::ContactRun run = simulate_contacts(sim, state, 150);
  ASSERT_TRUE(run.ok);
  EXPECT_GE(run.min_distance, -1e-6);
  EXPECT_NEAR(state.position[0].z(), 0.5 + 0.1, 1e-3);
  EXPECT_GE(state.position[0].z(), 0.6 - 1e-6);
  EXPECT_LT(state.velocity[0].norm(), 1e-6);
}

// A ball rolling off the table's edge: it rolls (v = 5/7 v0 for a solid
// sphere that starts sliding), leaves the table and lands on the floor.
TEST(Collisions, BallRollsOffTheTableEdgeOntoTheFloor) {
  const Model model = ball_on_table(0.0, 1.0, {FrictionModel::Cone, 0.5, 4});
  State state = make_state(model);
  Simulator sim(model);
  test::ContactRun run = simulate_contacts(sim, state, 40);
  ASSERT_TRUE(run.ok);
  EXPECT_NEAR(state.velocity[0].x(), 5.0 / 7.0, 1e-3);
  EXPECT_NEAR(state.position[0].z(), 0.6, 1e-6);
  run = simulate_contacts(sim, state, 100);
  ASSERT_TRUE(run.ok);
  EXPECT_GE(run.min_distance, -1e-6);
  EXPECT_NEAR(state.position[0].z(), 0.1, 1e-6);
  EXPECT_GT(state.position[0].x(), 0.5);
}

TEST(Collisions, BoxStackComesToRestOnCorners) {
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    const int count = 4;
    const Model model = box_stack(count, {friction, 0.5, 4});
    State state = make_state(model);
    Simulator sim(model);
    const test::ContactRun run = simulate_contacts(sim, state, 150);
    ASSERT_TRUE(run.ok);
    EXPECT_GE(run.min_distance, -1e-6);
    // Corners of one box on the face below: four per neighbouring pair.
    EXPECT_EQ(run.most_collider_contacts, 4 * (count - 1));
    for (int i = 0; i < count; ++i) {
      EXPECT_NEAR(state.position[i].z(), 0.25 + 0.5 * i, 1e-3) << i;
      EXPECT_GE(state.position[i].z(), 0.25 + 0.5 * i - 1e-6) << i;
      EXPECT_LT(state.velocity[i].norm(), 1e-6) << i;
    }
    EXPECT_GT(sim.fill_blocks(), 0);  // contact nodes couple neighbouring boxes
  }
}

// A box sliding on a long box that lies on frictionless ground: friction
// between them is internal, so horizontal momentum is conserved; the relative
// motion stops after v0^2 / (2 mu g (1 + m1/m2)).
TEST(Collisions, FrictionBetweenBodiesIsInternalAndStopsTheSlide) {
  for (FrictionModel friction : {FrictionModel::Linearized, FrictionModel::Cone}) {
    Model model;
    const int lower = model.add_body(Body::solid("lower", 1.0, Shape::box(Vector3(4.0, 1.0, 0.5))));
    const int upper = model.add_body(Body::solid("upper", 1.0, Shape::box(Vector3(0.5, 0.5, 0.5))));
    Joint base = Joint::make(JointType::Floating, "lower", kWorld, lower);
    base.initial_position = {0.0, 0.0, 0.25, 0.0, 0.0, 0.0};
    model.add_joint(base);
    Joint top = Joint::make(JointType::Floating, "upper", kWorld, upper);
    const double v0 = 6.0, mu = 0.5;  // the scheme stops v0 dt / 2 early: 1.6 % here
    top.initial_position = {-1.5, 0.0, 0.75, 0.0, 0.0, 0.0};
    top.initial_velocity = {v0, 0.0, 0.0, 0.0, 0.0, 0.0};
    model.add_joint(top);
    ContactOptions frictionless;
    frictionless.friction = FrictionModel::None;
    model.add_shape_contacts(lower, frictionless);
    CollisionOptions o;
    o.friction = friction;
    o.friction_coefficient = mu;
    model.set_collision_options(o);
    model.add_shape_colliders(lower);
    model.add_shape_colliders(upper);
    State state = make_state(model);
    Simulator sim(model);
    const double p0 = linear_momentum(model, state).x();
    const double start = state.position[upper].x() - state.position[lower].x();
    const test::ContactRun run = simulate_contacts(sim, state, 150);
    ASSERT_TRUE(run.ok);
    EXPECT_GE(run.min_distance, -1e-6);
    EXPECT_NEAR(linear_momentum(model, state).x(), p0, 1e-9);
    EXPECT_NEAR(state.velocity[upper].x(), state.velocity[lower].x(), 1e-6);  // moving together
    const double slide = state.position[upper].x() - state.position[lower].x() - start;
    const double expected = v0 * v0 / (2.0 * mu * kG * 2.0);
    EXPECT_NEAR(slide, expected, 0.02 * expected) << to_string(friction);
  }
}

TEST(Collisions, JointedAndExcludedBodiesNeverCollide) {
  // The sphere chain's spheres touch where their joints are.
  Model model = sphere_chain(4, 0.1);
  for (int b = 0; b < model.num_bodies(); ++b) model.add_shape_colliders(b);
  State state = make_state(model);
  {
    Simulator sim(model);
    const StepResult r = sim.step(state);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.collider_contacts, 0);
  }
  CollisionOptions o;
  o.skip_jointed = false;
  model.set_collision_options(o);
  EXPECT_TRUE(model.may_collide(0, 1));
  model.exclude_collision(1, 0);
  EXPECT_FALSE(model.may_collide(0, 1));
  EXPECT_TRUE(model.may_collide(1, 2));
  EXPECT_FALSE(model.may_collide(kWorld, kWorld));
}

// Two pendulums hanging from one fixed bar swing into each other: the contact
// node joins two bodies that the bar also joins, closing a cycle.
TEST(Collisions, ContactBetweenJointedPendulumsClosesACycle) {
  Model model;
  const int bar = model.add_body(Body::solid("bar", 1.0, Shape::box(Vector3(1.6, 0.1, 0.1))));
  model.add_joint(Joint::make(JointType::Fixed, "bar", kWorld, bar));
  for (int side = 0; side < 2; ++side) {
    const int bob = model.add_body(Body::solid(side == 0 ? "left" : "right", 1.0, Shape::sphere(0.2)));
    Joint hinge = Joint::make(JointType::Revolute, side == 0 ? "left" : "right", bar, bob, Vector3::UnitY());
    hinge.parent_frame.position = Vector3(side == 0 ? -0.25 : 0.25, 0.0, 0.0);
    hinge.child_frame.position = Vector3(0.0, 0.0, 1.0);
    hinge.initial_velocity = {side == 0 ? -1.5 : 0.0};  // the left bob swings towards +x
    model.add_joint(hinge);
    model.add_shape_colliders(bob);
  }
  State state = make_state(model);
  Simulator sim(model);
  bool touched = false;
  const double e0 = total_energy(model, state), kinetic0 = kinetic_energy(model, state);
  for (int k = 0; k < 100; ++k) {
    const StepResult r = sim.step(state);
    ASSERT_TRUE(r.ok()) << k;
    EXPECT_GE(r.min_signed_distance, -1e-6);
    EXPECT_LT(r.constraint_residual, 1e-8);
    if (r.collider_contacts > 0) {
      touched = true;
      EXPECT_GT(sim.fill_blocks(), 0);
    }
    // Collisions only take energy out; the integrator's own error is bounded.
    EXPECT_LE(total_energy(model, state), e0 + 0.02 * kinetic0) << k;
  }
  EXPECT_TRUE(touched);
}

}  // namespace
}  // namespace dynamics
